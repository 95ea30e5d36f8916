/*
 * raid_data.c — the data of a simulated array for verified runs
 * (raid_data.h): member stores, cached writes, parity, reconstruction and
 * the bad member's faults.
 */
#include "raid_data.h"

#include <errno.h>
#include <isa-l/erasure_code.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim/store.h"
#include "util/bug.h"
#include "util/rng.h"

struct raid_dirty {
	uint64_t off, len;
	struct raid_dirty *next_in_op;	/* the entries of one array operation */
	struct raid_dirty *prev, *next;	/* the cache, oldest first */
	unsigned char data[];
};

struct raid_data {
	struct raid_sim_config cfg;
	unsigned n, d, p;
	struct sim_store **store;
	struct raid_dirty *oldest, *newest;
	struct rng rng;
	unsigned char g[RAID_MAX_DISKS];	/* Q's coefficient of data chunk i: 2^i */
};

/* Where a byte range of one chunk lives: row (or mirror offset) and column. */
struct piece {
	uint64_t chunk, in, len;
};

int raid_data_create(struct raid_data **out, const struct raid_sim_config *c, uint64_t limit,
		     uint64_t seed)
{
	struct raid_data *d = calloc(1, sizeof(*d));
	struct raid_layout l = raid_sim_layout(c);
	int ret = 0;

	if (!d)
		return -ENOMEM;
	d->cfg = *c;
	d->n = (unsigned)c->disks;
	d->d = raid_data_disks(&l);
	d->p = raid_parity_disks(&l);
	rng_init(&d->rng, seed ^ 0xda7aULL);
	d->g[0] = 1;
	for (unsigned i = 1; i < RAID_MAX_DISKS; i++)
		d->g[i] = gf_mul(d->g[i - 1], 2);
	d->store = calloc(d->n, sizeof(*d->store));
	for (unsigned m = 0; m < d->n && d->store && !ret; m++)
		ret = sim_store_create(&d->store[m], limit);
	if (!d->store || ret) {
		raid_data_free(d);
		return -ENOMEM;
	}
	*out = d;
	return 0;
}

void raid_data_free(struct raid_data *d)
{
	if (!d)
		return;
	while (d->oldest) {
		struct raid_dirty *next = d->oldest->next;

		free(d->oldest);
		d->oldest = next;
	}
	for (unsigned m = 0; d->store && m < d->n; m++)
		sim_store_free(d->store[m]);
	free(d->store);
	free(d);
}

static bool gone(const struct raid_data *d, unsigned m)
{
	return m < d->cfg.failed;
}

static bool draw(struct rng *rng, double p)
{
	return p > 0 && (double)(rng_next(rng) >> 11) * 0x1p-53 < p;
}

/* --- one member's bytes, with the bad member's faults --- */

static void member_read(struct raid_data *d, unsigned m, uint64_t off, uint64_t len, void *buf)
{
	BUG_ON(gone(d, m));
	sim_store_read(d->store[m], off, buf, len);
	if (m == d->cfg.bad_member && draw(&d->rng, d->cfg.bad_member_bitflip_rate)) {
		uint64_t bit = rng_below(&d->rng, len * 8);

		((unsigned char *)buf)[bit / 8] ^= (unsigned char)(1u << (bit % 8));
	}
}

static int member_write(struct raid_data *d, unsigned m, uint64_t off, uint64_t len,
			const void *buf)
{
	if (gone(d, m))
		return 0;
	if (m == d->cfg.bad_member && draw(&d->rng, d->cfg.bad_member_lost_write_rate))
		return 0;	/* acknowledged, not stored */
	return sim_store_write(d->store[m], off, buf, len);
}

/* --- parity rows --- */

static unsigned data_member(const struct raid_data *d, uint64_t row, unsigned i)
{
	return raid_sim_data_member(d->n, d->p, row, i);
}


/*
 * The row's data chunks over columns [c0, c0 + w) into rows[i * w ...], the
 * chunks of failed members reconstructed from P (and Q) of the row.
 */
static void row_read(struct raid_data *d, uint64_t row, uint64_t c0, uint64_t w,
		     unsigned char *rows, unsigned char *pq)
{
	uint64_t base = row * d->cfg.stripe + c0;
	unsigned lost[2], nlost = 0;

	for (unsigned i = 0; i < d->d; i++) {
		if (gone(d, data_member(d, row, i))) {
			lost[nlost++] = i;
			memset(rows + i * w, 0, w);
		} else {
			member_read(d, data_member(d, row, i), base, w, rows + i * w);
		}
	}
	if (!nlost)
		return;
	for (unsigned k = 0; k < d->p; k++) {
		unsigned m = raid_sim_parity_member(d->n, row, k);

		if (gone(d, m))
			memset(pq + k * w, 0, w);
		else
			member_read(d, m, base, w, pq + k * w);
	}
	for (uint64_t c = 0; c < w; c++) {
		unsigned char px = pq[c], qx = d->p > 1 ? pq[w + c] : 0;

		for (unsigned i = 0; i < d->d; i++) {
			px ^= rows[i * w + c];
			qx ^= gf_mul(d->g[i], rows[i * w + c]);
		}
		if (nlost == 2) {	/* RAID 6, two data chunks: P and Q both there */
			unsigned char gi = d->g[lost[0]], gj = d->g[lost[1]];
			unsigned char di = gf_mul(qx ^ gf_mul(gj, px), gf_inv(gi ^ gj));

			rows[lost[0] * w + c] = di;
			rows[lost[1] * w + c] = di ^ px;
		} else if (d->p == 1 || !gone(d, raid_sim_parity_member(d->n, row, 0))) {
			rows[lost[0] * w + c] = px;
		} else {		/* RAID 6 without P: from Q */
			rows[lost[0] * w + c] = gf_mul(qx, gf_inv(d->g[lost[0]]));
		}
	}
}

/* New data `buf` over row-relative bytes [lo, hi) of `row`: data chunks touched, P, Q. */
static int row_write(struct raid_data *d, uint64_t row, uint64_t lo, uint64_t hi,
		     const unsigned char *buf)
{
	uint64_t s = d->cfg.stripe, first = lo / s, last = (hi - 1) / s;
	uint64_t c0 = first == last ? lo % s : 0, c1 = first == last ? (hi - 1) % s + 1 : s;
	uint64_t w = c1 - c0, base = row * s + c0;
	unsigned char *rows = malloc((d->d + d->p) * w), *pq;
	int ret = 0;

	if (!rows)
		return -ENOMEM;
	pq = rows + d->d * w;
	row_read(d, row, c0, w, rows, pq);
	for (uint64_t i = first; i <= last; i++) {
		uint64_t a0 = i == first ? lo % s : 0, a1 = i == last ? (hi - 1) % s + 1 : s;

		memcpy(rows + i * w + (a0 - c0), buf + (i * s + a0 - lo), a1 - a0);
	}
	memset(pq, 0, d->p * w);
	for (unsigned i = 0; i < d->d; i++)
		for (uint64_t c = 0; c < w; c++) {
			pq[c] ^= rows[i * w + c];
			if (d->p > 1)
				pq[w + c] ^= gf_mul(d->g[i], rows[i * w + c]);
		}
	for (uint64_t i = first; i <= last && !ret; i++)
		ret = member_write(d, data_member(d, row, (unsigned)i), base, w, rows + i * w);
	for (unsigned k = 0; k < d->p && !ret; k++)
		ret = member_write(d, raid_sim_parity_member(d->n, row, k), base, w, pq + k * w);
	free(rows);
	return ret;
}

/* --- the layouts --- */

/* RAID 0/1/10: the members holding chunk `chunk` and its member offset. */
static unsigned plain_members(const struct raid_data *d, uint64_t chunk, uint64_t in,
			      unsigned *first, uint64_t *moff)
{
	enum raid_level level = (enum raid_level)d->cfg.level;
	unsigned pairs = d->n / 2;

	if (level == RAID_1) {
		*first = 0;
		*moff = chunk * d->cfg.stripe + in;
		return d->n;
	}
	if (level == RAID_10) {
		*first = 2 * (unsigned)(chunk % pairs);
		*moff = chunk / pairs * d->cfg.stripe + in;
		return 2;
	}
	*first = (unsigned)(chunk % d->n);
	*moff = chunk / d->n * d->cfg.stripe + in;
	return 1;
}

static int plain_io(struct raid_data *d, uint64_t off, uint64_t len, unsigned char *buf,
		    bool write)
{
	uint64_t pos = off, end = off + len;
	int ret = 0;

	while (pos < end && !ret) {
		uint64_t chunk = pos / d->cfg.stripe, in = pos % d->cfg.stripe, moff;
		uint64_t n = d->cfg.stripe - in < end - pos ? d->cfg.stripe - in : end - pos;
		unsigned first, count = plain_members(d, chunk, in, &first, &moff), m = first;

		for (unsigned k = 0; write && k < count && !ret; k++)
			ret = member_write(d, first + k, moff, n, buf + (pos - off));
		while (!write && gone(d, m))
			m++;	/* the first mirror that is there */
		if (!write)
			member_read(d, m, moff, n, buf + (pos - off));
		pos += n;
	}
	return ret;
}

static int parity_io(struct raid_data *d, uint64_t off, uint64_t len, unsigned char *buf,
		     bool write)
{
	uint64_t rowb = (uint64_t)d->d * d->cfg.stripe, pos = off, end = off + len;
	int ret = 0;

	while (pos < end && !ret) {
		uint64_t row = pos / rowb, lo = pos % rowb;
		uint64_t hi = end - row * rowb < rowb ? end - row * rowb : rowb;

		if (write) {
			ret = row_write(d, row, lo, hi, buf + (pos - off));
		} else {
			uint64_t s = d->cfg.stripe, first = lo / s, last = (hi - 1) / s;
			uint64_t c0 = first == last ? lo % s : 0;
			uint64_t w = first == last ? (hi - 1) % s + 1 - c0 : s;
			unsigned char *rows = malloc((d->d + d->p) * w);

			if (!rows)
				return -ENOMEM;
			row_read(d, row, c0, w, rows, rows + d->d * w);
			for (uint64_t i = first; i <= last; i++) {
				uint64_t a0 = i == first ? lo % s : 0;
				uint64_t a1 = i == last ? (hi - 1) % s + 1 : s;

				memcpy(buf + (pos - off) + (i * s + a0 - lo), rows + i * w + (a0 - c0),
				       a1 - a0);
			}
			free(rows);
		}
		pos = row * rowb + hi;
	}
	return ret;
}

static int array_io(struct raid_data *d, uint64_t off, uint64_t len, unsigned char *buf,
		    bool write)
{
	return d->p ? parity_io(d, off, len, buf, write) : plain_io(d, off, len, buf, write);
}

/* --- the cache --- */

/* Copy the overlap of [off, off + len) between `buf` and entry e, either way. */
static void overlap(struct raid_dirty *e, uint64_t off, uint64_t len, unsigned char *buf,
		    bool to_entry)
{
	uint64_t a = e->off > off ? e->off : off;
	uint64_t b = e->off + e->len < off + len ? e->off + e->len : off + len;

	if (a >= b)
		return;
	if (to_entry)
		memcpy(e->data + (a - e->off), buf + (a - off), b - a);
	else
		memcpy(buf + (a - off), e->data + (a - e->off), b - a);
}

int raid_data_cache(struct raid_data *d, uint64_t off, uint64_t len, const void *buf,
		    struct raid_dirty **out)
{
	struct raid_dirty *e = malloc(sizeof(*e) + len);

	if (!e)
		return -ENOMEM;
	*e = (struct raid_dirty){ .off = off, .len = len, .prev = d->newest };
	memcpy(e->data, buf, len);
	if (d->newest)
		d->newest->next = e;
	else
		d->oldest = e;
	d->newest = e;
	*out = e;
	return 0;
}

void raid_data_merge(struct raid_dirty **head, struct raid_dirty *tail)
{
	while (*head)
		head = &(*head)->next_in_op;
	*head = tail;
}

int raid_data_destage(struct raid_data *d, struct raid_dirty *entries)
{
	int ret = 0;

	while (entries) {
		struct raid_dirty *e = entries;

		entries = e->next_in_op;
		if (!ret)
			ret = array_io(d, e->off, e->len, e->data, true);
		if (e->prev)
			e->prev->next = e->next;
		else
			d->oldest = e->next;
		if (e->next)
			e->next->prev = e->prev;
		else
			d->newest = e->prev;
		free(e);
	}
	return ret;
}

int raid_data_write(struct raid_data *d, uint64_t off, uint64_t len, const void *buf)
{
	for (struct raid_dirty *e = d->oldest; e; e = e->next)
		overlap(e, off, len, (unsigned char *)buf, true);
	return array_io(d, off, len, (unsigned char *)buf, true);
}

int raid_data_read(struct raid_data *d, uint64_t off, uint64_t len, void *buf)
{
	int ret = array_io(d, off, len, buf, false);

	for (struct raid_dirty *e = d->oldest; e && !ret; e = e->next)
		overlap(e, off, len, buf, false);
	return ret;
}
