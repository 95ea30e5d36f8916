/*
 * ssd_page_state.c — the starting state of a page-FTL drive, laid out in the
 * maps directly (no simulated IO, no timing), and a checker of the page
 * FTL's invariants for tests.
 *
 *   fresh    every block erased: one open block per channel, the rest free.
 *   used     the steady state of uniform random overwrites of a full drive.
 *            A block filled a host writes ago still holds a fraction
 *            e^(-a / U) of its pages (U: user pages), and greedy collection
 *            takes blocks in about that order, oldest first. So on each
 *            channel the full blocks get valid counts ppb * e^(-lambda j) by
 *            age j, lambda set so the counts add up to the channel's share of
 *            the user pages, and one block stays free for collection. The
 *            victim then holds the fraction 1 - 1/WA that theory predicts.
 *            Logical pages are dealt to the valid slots in a pseudo-random
 *            order (l = l0 + i * step mod U, step coprime to U, from `seed`).
 *   trimmed  laid out as used; logical pages at or past `keep` are left
 *            out, as if trimmed: their slots hold invalid pages that garbage
 *            collection erases without copying.
 * Cost: one pass over the maps, O(user pages + blocks).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "sim/ssd_dev.h"
#include "util/arith.h"
#include "util/rng.h"


/* Sum over j < k of ppb * e^(-lambda j). */
static double profile_sum(double ppb, double k, double lambda)
{
	return lambda <= 0 ? ppb * k : ppb * expm1(-lambda * k) / expm1(-lambda);
}

/* Valid pages of each of the k full blocks of a channel holding `u`, newest first. */
static void profile(uint16_t *n, uint64_t k, uint64_t ppb, uint64_t u)
{
	double lo = 0, hi = 1, left;

	while (profile_sum((double)ppb, (double)k, hi) > (double)u && hi < 1e6)
		hi *= 2;
	for (int i = 0; i < 200; i++) {
		double mid = 0.5 * (lo + hi);

		if (profile_sum((double)ppb, (double)k, mid) > (double)u)
			lo = mid;
		else
			hi = mid;
	}
	left = (double)u;
	for (uint64_t j = 0; j < k; j++) {
		double want = floor((double)ppb * exp(-hi * (double)j));

		want = want > left ? left : want;
		n[j] = (uint16_t)want;
		left -= want;
	}
	for (uint64_t j = 0; left > 0; j = j + 1 < k ? j + 1 : 0) {
		if (n[j] < ppb) {
			n[j]++;
			left--;
		}
	}
}

struct dealer {
	uint64_t next, step, users, keep;
};

/* Fill block b with n logical pages from the dealer; file it as full. */
static void fill_block(struct ssd_dev *d, uint32_t b, uint16_t n, struct dealer *dl)
{
	struct ssd_page_ftl *pf = &d->pf;
	uint64_t p = (uint64_t)b * pf->ppb;
	uint16_t valid = 0;

	for (uint16_t s = 0; s < n; s++, p++) {
		uint64_t l = dl->next;

		dl->next += dl->step;
		if (dl->next >= dl->users)
			dl->next -= dl->users;
		if (l >= dl->keep)
			continue;
		ssd_map_set(&pf->p2l, p, (uint32_t)l + 1);
		ssd_map_set(&pf->l2p, l, (uint32_t)p + 1);
		if (pf->live) {
			uint64_t bit, *w = ssd_live_word(pf, p, &bit);

			*w |= bit;
		}
		valid++;
	}
	pf->blk[b].valid = valid;
	pf->valid += valid;
	ssd_pftl_bucket_add(d, b);
}

static void lay_out_channel(struct ssd_dev *d, unsigned c, uint16_t *n, struct dealer *dl)
{
	const struct ssd_geometry *g = &d->g;
	uint32_t base = c * d->pf.bpc;
	uint64_t k = g->blocks_per_chan - 2;
	uint64_t u = g->user_pages / g->channels + (c < g->user_pages % g->channels);

	profile(n, k, g->ppb, u);
	for (uint64_t j = k; j-- > 0;)		/* oldest first: FIFO among equals */
		fill_block(d, base + 2 + (uint32_t)j, n[j], dl);
	ssd_pftl_free_push(d, c, base + 1);
	d->pf.blk[base].state = SSD_BLK_OPEN;
	d->chan[c].open = base;
	d->chan[c].wp = 0;
}

static int lay_out_used(struct ssd_dev *d, uint64_t keep, uint64_t seed)
{
	struct dealer dl = { .users = d->g.user_pages, .keep = keep };
	uint16_t *n = malloc((d->g.blocks_per_chan - 2) * sizeof(*n));
	struct rng r;

	if (!n)
		return -ENOMEM;
	rng_init(&r, seed ^ 0x55d0u);
	dl.next = rng_below(&r, dl.users);
	do
		dl.step = dl.users > 1 ? 1 + rng_below(&r, dl.users - 1) : 1;
	while (gcd_u64(dl.step, dl.users) != 1);
	for (unsigned c = 0; c < d->g.channels; c++)
		lay_out_channel(d, c, n, &dl);
	free(n);
	return 0;
}

int ssd_pftl_prepare(struct ssd_dev *d, unsigned state, uint64_t keep, uint64_t seed)
{
	uint32_t bpc = d->pf.bpc;

	if (state != SSD_FRESH) {
		ssd_pftl_mark_all(d);
		return lay_out_used(d, keep, seed);
	}
	for (unsigned c = 0; c < d->g.channels; c++) {
		uint32_t base = c * bpc;

		for (uint32_t b = base + bpc; b-- > base + 1;)
			ssd_pftl_free_push(d, c, b);
		d->pf.blk[base].state = SSD_BLK_OPEN;
		d->chan[c].open = base;
		d->chan[c].wp = 0;
	}
	return 0;
}

static bool page_valid(const struct ssd_page_ftl *pf, uint64_t p)
{
	uint32_t l = ssd_map_get(&pf->p2l, p);

	return l && ssd_map_get(&pf->l2p, l - 1) == p + 1;
}

static bool live_bit(const struct ssd_page_ftl *pf, uint64_t p)
{
	uint64_t bit, *w = ssd_live_word(pf, p, &bit);

	return *w & bit;
}

/* Invariants 1-4 and 8: maps agree, counts add up, nothing past an open block's wp. */
static int verify_pages(const struct ssd_dev *d, struct errmsg *err)
{
	const struct ssd_page_ftl *pf = &d->pf;
	uint64_t total = 0, mapped = 0;

	for (uint64_t b = 0; b < d->g.blocks; b++) {
		const struct ssd_chan *ch = &d->chan[b / pf->bpc];
		unsigned valid = 0;

		for (uint64_t i = 0; i < pf->ppb; i++) {
			bool live = page_valid(pf, b * pf->ppb + i);

			if (pf->live && live != live_bit(pf, b * pf->ppb + i))
				return errmsg_set(err, -EUCLEAN, "page %llu: live bit %s",
						  (unsigned long long)(b * pf->ppb + i),
						  live ? "clear, page valid" : "set, page not valid");
			if (!live)
				continue;
			valid++;
			if (pf->blk[b].state == SSD_BLK_FREE ||
			    (pf->blk[b].state == SSD_BLK_OPEN && ch->open == b && i >= ch->wp))
				return errmsg_set(err, -EUCLEAN,
						  "page %llu valid in unwritten space",
						  (unsigned long long)(b * pf->ppb + i));
		}
		if (valid != pf->blk[b].valid)
			return errmsg_set(err, -EUCLEAN, "block %llu counts %u valid, holds %u",
					  (unsigned long long)b, pf->blk[b].valid, valid);
		total += valid;
	}
	for (uint64_t l = 0; l < d->g.user_pages; l++) {
		uint32_t p = ssd_map_get(&pf->l2p, l);

		if (p && !ssd_l2p_may_map(pf, l))
			return errmsg_set(err, -EUCLEAN, "logical page %llu mapped, its group's bit clear",
					  (unsigned long long)l);
		if (p && ssd_map_get(&pf->p2l, p - 1) != l + 1)
			return errmsg_set(err, -EUCLEAN,
					  "logical page %llu: P2L does not point back",
					  (unsigned long long)l);
		mapped += p != 0;
	}
	if (total != pf->valid || mapped != pf->valid)
		return errmsg_set(err, -EUCLEAN, "valid %llu, blocks hold %llu, mapped %llu",
				  (unsigned long long)pf->valid, (unsigned long long)total,
				  (unsigned long long)mapped);
	return 0;
}

/* Invariant 5: each full block in its bucket (none below the channel's
 * minv), free lists the right length. */
static int verify_blocks(const struct ssd_dev *d, struct errmsg *err)
{
	const struct ssd_page_ftl *pf = &d->pf;
	uint64_t seen = 0, full = 0;

	for (uint32_t c = 0; c < d->g.channels; c++) {
		uint32_t nfree = 0;

		for (uint32_t b = d->chan[c].free_head; b != SSD_NONE; b = pf->blk[b].next, nfree++)
			if (pf->blk[b].state != SSD_BLK_FREE || b / pf->bpc != c)
				return errmsg_set(err, -EUCLEAN, "block %u on the wrong free list",
						  b);
		if (nfree != d->chan[c].nfree)
			return errmsg_set(err, -EUCLEAN, "channel %u: %u free, counted %u", c,
					  nfree, d->chan[c].nfree);
		for (uint32_t v = 0; v <= pf->ppb; v++) {
			uint32_t h = pf->heads + c * (pf->ppb + 1) + v;

			for (uint32_t b = pf->blk[h].next; b != h; b = pf->blk[b].next, seen++)
				if (pf->blk[b].state != SSD_BLK_FULL || pf->blk[b].valid != v ||
				    b / pf->bpc != c || pf->blk[b].chan != c ||
				    pf->blk[pf->blk[b].next].prev != b || v < d->chan[c].minv)
					return errmsg_set(err, -EUCLEAN,
							  "block %u in bucket %u/%u", b, c, v);
		}
	}
	for (uint64_t b = 0; b < d->g.blocks; b++)
		full += pf->blk[b].state == SSD_BLK_FULL;
	if (seen != full)
		return errmsg_set(err, -EUCLEAN, "%llu full blocks, %llu in buckets",
				  (unsigned long long)full, (unsigned long long)seen);
	return 0;
}

int ssd_pftl_verify(const struct ssd_dev *d, struct errmsg *err)
{
	int ret = verify_pages(d, err);

	return ret ? ret : verify_blocks(d, err);
}
