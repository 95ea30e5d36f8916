/*
 * ssd_page_ftl.c — the page-mapped flash translation layer (Intel X25-M,
 * Indilinx): every logical page is mapped on its own, so a host write never
 * merges; it goes to the next free page of an open block, and the old copy
 * becomes invalid. Garbage collection gets erased blocks back: it picks the
 * full block with the fewest valid pages (greedy), copies them to a fresh
 * block on the same channel, and erases the victim. Over-provisioning
 * (`spare`) and TRIM decide how many valid pages a victim still holds, and
 * so the write amplification: a fresh drive has none to move, a used one
 * (steady state of random writes) many, a trimmed one few again.
 *
 * Memory is the two maps — 32-bit words, or packed to the bits a page number
 * needs on very large drives (see SSD_PLAIN_MAPS) —, with plain maps one
 * live bit per flash page, 12 bytes per erase block and a bit per 64 Ki
 * logical pages (l2p_set): about 8 bytes per flash page at most. A host
 * page write touches a
 * fixed handful of entries and allocates nothing; garbage collection costs
 * O(ppb) per erased block, its map lookups loaded over the channel's last
 * writes before (gc_prefetch) and again together when it runs. Loads are
 * the cost of a large drive's maps, so the FTL hints them early wherever it
 * can (also ssd_pftl_prefetch); hints never change a result.
 *
 * Invariants:
 *   1. L2P[l] = p + 1  =>  P2L[p] = l + 1. Logical pages with L2P[l] = 0
 *      are unmapped (never written, or trimmed).
 *   2. Physical page p is valid iff P2L[p] = l + 1 and L2P[l] = p + 1. Other
 *      pages are free or invalid whatever their P2L entry holds: a stale
 *      entry is never cleared, so an overwrite or TRIM writes one map entry,
 *      not two. With plain maps and erase blocks of whole 64-page words
 *      (ssd_live_bytes), bit p of `live` is set iff p is valid, and garbage
 *      collection moves the pages whose bits are set (move_live); without
 *      the bits it tells valid from stale by looking back through L2P
 *      (prefetched, many at once).
 *   3. blk[b].valid is the number of valid pages of b; pf.valid is the sum
 *      over blocks and the number of mapped logical pages.
 *   4. A block is programmed in page order: an open block holds valid pages
 *      only below its channel's wp; a free block holds none.
 *   5. Every block belongs to channel b / bpc and is, on that channel, the
 *      open block, on the free list, or full; a full block sits in the
 *      bucket (channel, valid) — a circular list with a head node — oldest
 *      arrival first.
 *   6. Garbage collection stays on one channel (copy-back): victim, reads,
 *      programs and erase all happen there. It runs when the channel needs a
 *      new open block and has at most one free block, so a channel always
 *      keeps one free block to copy into.
 *   7. Host pages go to the round-robin channel if it is idle by the time
 *      the data is at hand, else to the channel that is free soonest. A
 *      channel that must collect first books the collection, and the page
 *      looks again: collection stalls the host only when all channels are
 *      busy, as a controller with work queued per die would.
 *   8. L2P[l] != 0  =>  the l2p_set bit of l's group (l >> SSD_L2P_GROUP_SHIFT)
 *      is set; bits are never cleared, so a clear one means the group is
 *      all 0 and a read there loads no entry (ssd_l2p_may_map).
 *
 * Page states and the functions behind each transition:
 *
 *      free --write_page() / gc_collect() (destination)--> valid
 *      valid --page_invalidate() (overwrite, TRIM, GC source)--> invalid
 *      invalid --gc_collect(): the victim is erased--> erased (= free)
 *
 * Block states:
 *
 *      free --open_block() (refill, gc_collect)--> open
 *      open --close_open() (refill: last page programmed)--> full
 *      full --pick_victim() (gc_collect: fewest valid pages)--> victim
 *      victim --gc_collect(): valid pages moved, erased, free_push--> free
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim/ssd_dev.h"

#define HUGE_PAGE (2ULL << 20)

static inline uint64_t page_of(const struct ssd_page_ftl *pf, uint64_t off, uint64_t page)
{
	return pf->page_shift >= 0 ? off >> pf->page_shift : off / page;
}

/*
 * The accessors of write_page_as(), whose `fast` copy (pf->fast: plain maps,
 * live bits, ppb a power of two) tests none of that per access.
 */
static inline uint32_t map_get(const struct ssd_map *m, uint64_t i, bool fast)
{
	return fast ? ((const uint32_t *)(const void *)m->bytes)[i] : ssd_map_get(m, i);
}

static inline void map_set(struct ssd_map *m, uint64_t i, uint32_t v, bool fast)
{
	if (fast)
		((uint32_t *)(void *)m->bytes)[i] = v;
	else
		ssd_map_set(m, i, v);
}

static inline uint32_t block_as(const struct ssd_page_ftl *pf, uint64_t ppn, bool fast)
{
	return fast ? (uint32_t)(ppn >> pf->ppb_shift) : ssd_block_of(pf, ppn);
}

static inline uint32_t head_of(const struct ssd_page_ftl *pf, uint32_t c, uint32_t valid)
{
	return pf->heads + c * (pf->ppb + 1) + valid;
}

static inline void list_unlink(struct ssd_block *blk, uint32_t b)
{
	blk[blk[b].prev].next = blk[b].next;
	blk[blk[b].next].prev = blk[b].prev;
}

static inline void list_append(struct ssd_block *blk, uint32_t head, uint32_t b)
{
	uint32_t tail = blk[head].prev;

	blk[b].prev = tail;
	blk[b].next = head;
	blk[tail].next = b;
	blk[head].prev = b;
}

void ssd_pftl_bucket_add(struct ssd_dev *d, uint32_t b)
{
	struct ssd_page_ftl *pf = &d->pf;
	struct ssd_block *k = &pf->blk[b];

	k->state = SSD_BLK_FULL;
	list_append(pf->blk, head_of(pf, k->chan, k->valid), b);
	if (k->valid < d->chan[k->chan].minv)
		d->chan[k->chan].minv = k->valid;
}

void ssd_pftl_free_push(struct ssd_dev *d, unsigned c, uint32_t b)
{
	struct ssd_block *k = &d->pf.blk[b];

	k->state = SSD_BLK_FREE;
	k->valid = 0;
	k->next = d->chan[c].free_head;
	d->chan[c].free_head = b;
	d->chan[c].nfree++;
}

static uint32_t free_pop(struct ssd_dev *d, unsigned c)
{
	uint32_t b = d->chan[c].free_head;

	d->chan[c].free_head = d->pf.blk[b].next;
	d->chan[c].nfree--;
	return b;
}

static void open_block(struct ssd_dev *d, unsigned c, uint32_t b)
{
	d->pf.blk[b].state = SSD_BLK_OPEN;
	d->chan[c].open = b;
	d->chan[c].wp = 0;
}

static void close_open(struct ssd_dev *d, unsigned c)
{
	ssd_pftl_bucket_add(d, d->chan[c].open);
	d->chan[c].open = SSD_NONE;
}

static inline __attribute__((always_inline)) void
page_invalidate(struct ssd_dev *d, uint32_t ppn, bool fast)
{
	struct ssd_page_ftl *pf = &d->pf;
	uint32_t b = block_as(pf, ppn, fast);
	struct ssd_block *k = &pf->blk[b];

	k->valid--;
	pf->valid--;
	if (fast || pf->live) {
		uint64_t bit, *w = ssd_live_word(pf, ppn, &bit);

		*w &= ~bit;
	}
	if (k->state == SSD_BLK_FULL) {
		list_unlink(pf->blk, b);
		list_append(pf->blk, head_of(pf, k->chan, k->valid), b);
		if (k->valid < d->chan[k->chan].minv)
			d->chan[k->chan].minv = k->valid;
	}
}

/* Channel c's full block with the fewest valid pages; its count in *v (ppb: none). */
static uint32_t find_victim(const struct ssd_dev *d, unsigned c, uint32_t *v)
{
	const struct ssd_page_ftl *pf = &d->pf;
	uint32_t h = head_of(pf, c, d->chan[c].minv);

	for (*v = d->chan[c].minv; *v < pf->ppb; (*v)++, h++)
		if (pf->blk[h].next != h)
			return pf->blk[h].next;
	return SSD_NONE;
}

/* Channel c's full block with the fewest valid pages, if any has < ppb. */
static uint32_t pick_victim(struct ssd_dev *d, unsigned c)
{
	uint32_t v, victim = find_victim(d, c, &v);

	d->chan[c].minv = v;
	return victim;
}

/*
 * Start loading the L2P entries of physical pages [p, p + count) that hold
 * data. Always inlined: a function that only prefetches is pure to GCC,
 * which then drops every call to it (it did, halving the simulator's speed).
 */
static inline __attribute__((always_inline)) void
prefetch_targets(const struct ssd_page_ftl *pf, uint64_t p, uint32_t count)
{
	const uint32_t *p2l = (const uint32_t *)(const void *)pf->p2l.bytes + p;

	if (pf->p2l.bits == 32) {	/* plain maps: the common case, kept tight */
		uintptr_t l2p1 = (uintptr_t)pf->l2p.bytes - sizeof(uint32_t);

		/*
		 * No test for an entry 0: entry -1 is in the allocation
		 * (SSD_MAP_LEAD). Into L2 only (locality 2): these wait many
		 * IOs for their collection, and in L1 they evicted what the IOs
		 * in between use (A/B: 8 % faster at QD1, 14 % at QD32).
		 */
#pragma GCC unroll 4
		for (uint32_t i = 0; i < count; i++)
			__builtin_prefetch((const void *)(l2p1 + (uintptr_t)p2l[i] * sizeof(uint32_t)),
					   1, 2);
		return;
	}
	for (uint64_t q = p; q < p + count; q++) {
		uint32_t l = ssd_map_get(&pf->p2l, q);

		if (l)
			__builtin_prefetch(ssd_map_addr(&pf->l2p, l - 1), 1, 2);
	}
}

/*
 * Collection ahead, a hint only: a channel that collects once its open
 * block is full foresees its victim GC_AHEAD writes before (gc_ahead) and
 * starts loading what gc_collect() will read: the victim's P2L entries at
 * that write, then a slice of the L2P entries they point to at each next
 * one (a few at a time: too many loads in flight stall the CPU), so that
 * the collection finds them in cache instead of waiting for memory (it did,
 * for 40 % of the time of a used drive). Should another block be the
 * victim by then, gc_collect() loads its entries itself; nothing else
 * depends on the forecast.
 */
#define GC_AHEAD 9

/* gc_prefetch() once the channel is within GC_AHEAD writes of collecting. */
static __attribute__((noinline)) void gc_prefetch_near(struct ssd_dev *d, unsigned c)
{
	const struct ssd_page_ftl *pf = &d->pf;
	struct ssd_chan *ch = &d->chan[c];
	uint32_t left = pf->ppb - ch->wp, v, slice, from;
	uint64_t first;

	if (left == GC_AHEAD - 1) {
		ch->gc_ahead = find_victim(d, c, &v);
		if (ch->gc_ahead != SSD_NONE) {
			const char *p = ssd_map_addr(&pf->p2l, (uint64_t)ch->gc_ahead * pf->ppb);
			const char *last = ssd_map_addr(&pf->p2l,
							(uint64_t)(ch->gc_ahead + 1) * pf->ppb - 1);

			for (; p <= last; p += 64)
				__builtin_prefetch(p);
		}
		return;
	}
	if (ch->gc_ahead == SSD_NONE)
		return;
	first = (uint64_t)ch->gc_ahead * pf->ppb;
	slice = GC_AHEAD - 2 - left;		/* 0 .. GC_AHEAD - 2 */
	from = (uint32_t)((uint64_t)slice * pf->ppb / (GC_AHEAD - 1));
	prefetch_targets(pf, first + from,
			 (uint32_t)((uint64_t)(slice + 1) * pf->ppb / (GC_AHEAD - 1)) - from);
}

/* The test inline, the work out of line: most writes are far from a collection. */
static inline void gc_prefetch(struct ssd_dev *d, unsigned c)
{
	const struct ssd_chan *ch = &d->chan[c];

	if (d->pf.ppb - ch->wp < GC_AHEAD && ch->nfree <= 1)
		gc_prefetch_near(d, c);
}

/*
 * move_pages() on a drive with `live` bits (so plain 32-bit maps): the valid
 * pages are the set bits, no L2P entry to load and test (a test the
 * branch predictor lost once a page in seven). Clears the victim's bits and
 * sets those of the pages moved. Page numbers + 1 fit 32 bits here; ppb in
 * a local, as the stores through the maps could otherwise alias it.
 */
static uint32_t move_live(struct ssd_page_ftl *pf, uint32_t victim, uint32_t dest)
{
	const uint32_t *from = (const uint32_t *)(void *)pf->p2l.bytes + (uint64_t)victim * pf->ppb;
	uint32_t *to = (uint32_t *)(void *)pf->p2l.bytes + (uint64_t)dest * pf->ppb;
	uint32_t *l2p1 = (uint32_t *)((uintptr_t)pf->l2p.bytes - sizeof(uint32_t));	/* [l]: L2P[l - 1] */
	uint64_t *w = pf->live + (uint64_t)victim * pf->live_words;
	uint64_t *out = pf->live + (uint64_t)dest * pf->live_words;
	uint32_t words = pf->live_words, there = (uint32_t)((uint64_t)dest * pf->ppb) + 1, n;
	uint32_t *next = to;

	for (uint32_t j = 0; j < words; j++, from += 64) {
		uint64_t bits = w[j];

		w[j] = 0;
		for (; bits; bits &= bits - 1) {
			uint32_t l = from[__builtin_ctzll(bits)];

			*next++ = l;
			l2p1[l] = there++;
		}
	}
	n = (uint32_t)(next - to);
	for (uint32_t j = 0; j < words && j * 64 < n; j++)	/* `dest` was free: no bits */
		out[j] = n - j * 64 >= 64 ? UINT64_MAX : (1ULL << (n - j * 64)) - 1;
	return n;
}

/*
 * Copy the valid pages of `victim` to the start of `to`; how many. Their
 * L2P entries are loaded together first, unless gc_prefetch() foresaw the
 * victim and loaded them already.
 */
static uint32_t move_pages(struct ssd_page_ftl *pf, uint32_t victim, uint32_t to, bool loaded)
{
	uint64_t first = (uint64_t)victim * pf->ppb, dst = (uint64_t)to * pf->ppb;
	uint64_t start = dst;

	if (!loaded)
		prefetch_targets(pf, first, pf->ppb);
	if (pf->live)
		return move_live(pf, victim, to);
	for (uint64_t p = first; p < first + pf->ppb; p++) {
		uint32_t l = ssd_map_get(&pf->p2l, p);

		if (!l || ssd_map_get(&pf->l2p, l - 1) != p + 1)
			continue;	/* stale: invariant 2 */
		ssd_map_set(&pf->p2l, dst, l);
		ssd_map_set(&pf->l2p, l - 1, (uint32_t)dst + 1);
		dst++;
	}
	return (uint32_t)(dst - start);
}

/* Collect one victim on channel c into a new open block; booked from `at`. */
static int gc_collect(struct ssd_dev *d, unsigned c, uint64_t at)
{
	struct ssd_page_ftl *pf = &d->pf;
	uint32_t victim = pick_victim(d, c), to, v;

	if (victim == SSD_NONE || !d->chan[c].nfree)
		return -ENOSPC;
	v = pf->blk[victim].valid;
	list_unlink(pf->blk, victim);
	to = free_pop(d, c);
	open_block(d, c, to);
	if (move_pages(pf, victim, to, victim == d->chan[c].gc_ahead) != v)
		return -EUCLEAN;	/* broken invariant 3: never seen */
	d->chan[c].gc_ahead = SSD_NONE;
	pf->blk[to].valid = (uint16_t)v;
	d->chan[c].wp = v;
	ssd_pftl_free_push(d, c, victim);
	ssd_chan_run(d, c, at, v * (d->t.read + d->t.prog) + d->t.erase);
	d->cnt.gc_page_moves += v;
	d->cnt.media_read_bytes += v * d->g.page;
	d->cnt.media_write_bytes += v * d->g.page;
	d->cnt.erases++;
	return 0;
}

/* Channel c's open block is full: open a free one, or collect garbage. */
static int refill(struct ssd_dev *d, unsigned c, uint64_t at)
{
	struct ssd_chan *ch = &d->chan[c];

	if (ch->open != SSD_NONE)
		close_open(d, c);
	if (ch->nfree > 1) {
		open_block(d, c, free_pop(d, c));
		return 0;
	}
	return gc_collect(d, c, at);
}

static inline bool needs_gc(const struct ssd_dev *d, unsigned c)
{
	return d->chan[c].wp == d->pf.ppb && d->chan[c].nfree <= 1;
}

/* The next free page of channel c, collecting garbage first if needed. */
static inline __attribute__((always_inline)) int
page_alloc(struct ssd_dev *d, unsigned c, uint64_t at, uint32_t *ppn)
{
	struct ssd_chan *ch = &d->chan[c];
	int ret;

	if (ch->wp == d->pf.ppb && (ret = refill(d, c, at)))
		return ret;
	*ppn = ch->open * d->pf.ppb + ch->wp++;
	return 0;
}

/*
 * The channel of [from, to) whose work ends first, if before *best_at
 * (the first among equals), updating *best and *best_at. Branch-free
 * choice: which channel is free sooner is a coin toss the branch predictor
 * loses; no test for an idle channel inside, which would cost every step.
 */
static inline void soonest_free(const struct ssd_chan *ch, unsigned from, unsigned to,
				unsigned *best, uint64_t *best_at)
{
	unsigned b = *best;
	uint64_t b_at = *best_at;

	for (unsigned k = from; k < to; k++) {
		uint64_t f = ch[k].free_at;
		bool sooner = f < b_at;

		b = sooner ? k : b;
		b_at = sooner ? f : b_at;
	}
	*best = b;
	*best_at = b_at;
}

/* The first channel after c, in round-robin order, idle at `at` (one is). */
static unsigned first_idle(const struct ssd_chan *ch, unsigned n, unsigned c, uint64_t at)
{
	for (unsigned k = c + 1 < n ? c + 1 : 0;; k = k + 1 < n ? k + 1 : 0)
		if (ch[k].free_at <= at)
			return k;
}

/*
 * Invariant 7: the round-robin channel if idle at `at`, else the soonest
 * free, the first in round-robin order among equals (or the first idle one:
 * looked for again only when the soonest free is idle, as the round-robin
 * channel mostly is then).
 */
static inline __attribute__((always_inline)) unsigned
pick_chan(struct ssd_dev *d, uint64_t at)
{
	unsigned n = (unsigned)d->g.channels, c = d->pf.rr, best = c;
	uint64_t best_at = d->chan[c].free_at;

	if (best_at > at) {
		soonest_free(d->chan, c + 1, n, &best, &best_at);
		soonest_free(d->chan, 0, c, &best, &best_at);
		if (best_at <= at)
			best = first_idle(d->chan, n, c, at);
	}
	d->pf.rr = best + 1 < n ? best + 1 : 0;
	return best;
}

/*
 * Take a page for host data at hand from `ready` (invariant 7), channel c
 * picked, its open block full. A channel picked that must collect garbage
 * first books the collection on its time line and the page looks again,
 * so collection holds the host up only when every channel is busy.
 */
static __attribute__((noinline)) int
place_page_full(struct ssd_dev *d, uint64_t ready, unsigned c, unsigned *chan, uint32_t *ppn)
{
	unsigned n = (unsigned)d->g.channels;
	int ret = 0;

	for (unsigned i = 0; i < n && needs_gc(d, c) && !ret; i++) {
		ret = refill(d, c, ready);
		c = ret ? c : pick_chan(d, ready);
	}
	if (ret != -ENOSPC)
		ret = ret ? ret : page_alloc(d, c, ready, ppn);
	for (unsigned i = 1; ret == -ENOSPC && i < n; i++) {
		c = c + 1 < n ? c + 1 : 0;	/* that channel is full: any other */
		ret = page_alloc(d, c, ready, ppn);
	}
	*chan = c;
	return ret;
}

/*
 * The page for host data: the next of the picked channel's open block, or,
 * when that is full, place_page_full() (out of line, with its loops).
 */
static inline __attribute__((always_inline)) int
place_page(struct ssd_dev *d, uint64_t ready, unsigned *chan, uint32_t *ppn)
{
	unsigned c = pick_chan(d, ready);
	struct ssd_chan *ch = &d->chan[c];

	if (__builtin_expect(ch->wp == d->pf.ppb, 0))
		return place_page_full(d, ready, c, chan, ppn);
	*ppn = ch->open * d->pf.ppb + ch->wp++;
	*chan = c;
	return 0;
}

/*
 * Write logical page `lpn` (read first when only `partial`ly overwritten);
 * `fast`: pf->fast holds (a constant in each copy, see map_get()).
 */
static inline __attribute__((always_inline)) int
write_page_as(struct ssd_dev *d, uint64_t lpn, uint64_t at, bool partial, uint64_t *end, bool fast)
{
	struct ssd_page_ftl *pf = &d->pf;
	uint32_t old = map_get(&pf->l2p, lpn, fast), ppn = 0;
	uint64_t ready = at;
	unsigned c;
	int ret;

	if (old) {
		if (partial) {
			ready = ssd_chan_run(d, pf->blk[block_as(pf, old - 1, fast)].chan, at,
					     d->t.read);
			d->cnt.media_read_bytes += d->g.page;
		}
		page_invalidate(d, old - 1, fast);
		map_set(&pf->l2p, lpn, 0, fast);	/* before GC looks back (invariant 2) */
	}
	ret = place_page(d, ready, &c, &ppn);
	if (ret)
		return ret;
	map_set(&pf->p2l, ppn, (uint32_t)lpn + 1, fast);
	map_set(&pf->l2p, lpn, ppn + 1, fast);
	ssd_l2p_mark(pf, lpn);
	pf->blk[block_as(pf, ppn, fast)].valid++;
	pf->valid++;
	if (fast || pf->live) {
		uint64_t bit, *w = ssd_live_word(pf, ppn, &bit);

		*w |= bit;
	}
	*end = ssd_max(*end, ssd_chan_run(d, c, ready, d->t.prog));
	d->cnt.media_write_bytes += d->g.page;
	gc_prefetch(d, c);
	return 0;
}

static __attribute__((noinline)) int write_page_fast(struct ssd_dev *d, uint64_t lpn, uint64_t at,
						     bool partial, uint64_t *end)
{
	return write_page_as(d, lpn, at, partial, end, true);
}

/* ssd_pftl_write()'s common case (ssd_dev.h): one whole page on a `fast` drive. */
int ssd_pftl_write_page_fast(struct ssd_dev *d, uint64_t lpn, uint64_t at, uint64_t *end)
{
	return write_page_as(d, lpn, at, false, end, true);
}

static __attribute__((noinline)) int write_page_any(struct ssd_dev *d, uint64_t lpn, uint64_t at,
						    bool partial, uint64_t *end)
{
	return write_page_as(d, lpn, at, partial, end, false);
}

static inline int write_page(struct ssd_dev *d, uint64_t lpn, uint64_t at, bool partial,
			     uint64_t *end)
{
	return d->pf.fast ? write_page_fast(d, lpn, at, partial, end)
			  : write_page_any(d, lpn, at, partial, end);
}

/* ssd_pftl_write()'s one whole page on a drive without pf->fast (ssd_dev.h tested it). */
int ssd_pftl_write_page(struct ssd_dev *d, uint64_t lpn, uint64_t at, uint64_t *end)
{
	return write_page_any(d, lpn, at, false, end);
}

/* ssd_pftl_write() of any range: pages partly covered are read first. */
int ssd_pftl_write_pages(struct ssd_dev *d, uint64_t off, uint32_t len, uint64_t at, uint64_t *done)
{
	uint64_t page = d->g.page, first = page_of(&d->pf, off, page);
	uint64_t last = page_of(&d->pf, off + len - 1, page), end = at;
	bool head = off != first * page, tail = off + len != (last + 1) * page;
	int ret = 0;

	for (uint64_t lpn = first; lpn <= last && !ret; lpn++)
		ret = write_page(d, lpn, at, (lpn == first && head) || (lpn == last && tail), &end);
	*done = end;
	return ret;
}

/* ssd_pftl_read() of any range (ssd_dev.h takes one whole page itself). */
uint64_t ssd_pftl_read_pages(struct ssd_dev *d, uint64_t off, uint32_t len, uint64_t at)
{
	struct ssd_page_ftl *pf = &d->pf;
	uint64_t page = d->g.page, first = page_of(pf, off, page), last, end = at;

	last = page_of(pf, off + len - 1, page);
	d->cnt.media_read_bytes += (last - first + 1) * page;
	for (uint64_t lpn = first; lpn <= last; lpn++)
		end = ssd_max(end, ssd_pftl_read_page(d, lpn, at));
	return end;
}

/*
 * The prefetch hint of device.h, in two stages SSD_HINT_LAG hints apart:
 * the L2P entry of the page at `off` now; for the page hinted that many
 * hints before, whose entry has had the time of as many IOs to arrive, the
 * block-table entry and the live bits of the physical page it maps to,
 * which an overwrite updates (page_invalidate). The engine hints
 * OFFSET_AHEAD IOs ahead, so the second loads too have a few IOs' time to
 * land (one IO's was too short under load: the entry was still on its way).
 * A third stage, one hint later, loading the bucket neighbours an overwrite
 * relinks, moved the wait from page_invalidate() to the hint: no faster.
 * A page in an L2P group never mapped (l2p_set) has no entry to load, now
 * or at the second stage; its group mapped in between misses a hint only.
 * No second stage either while a read came within the last
 * SSD_READS_RECENT hints: a drive that reads the pages it then writes (an
 * array's read-modify-write) has read_page() load the block entry, and the
 * second stage's load of the L2P entry cost that RAID 6 more than it gave
 * (A/B: 7 % faster without; a plain drive's random writes, never read,
 * were 14 % slower without it, so they keep it).
 */
void ssd_pftl_prefetch(struct sim_device *sd, uint64_t off, uint32_t length)
{
	struct ssd_dev *d = (struct ssd_dev *)sd;
	struct ssd_page_ftl *pf = &d->pf;
	uint64_t lpn = page_of(pf, off, d->g.page), *old = &pf->hinted[pf->hint_next];
	uint64_t back = pf->reads_recent ? UINT64_MAX : *old;	/* hinted SSD_HINT_LAG hints ago */
	bool load = lpn < d->g.user_pages && ssd_l2p_may_map(pf, lpn);

	(void)length;
	if (pf->fast) {		/* as below, without the tests of the map width and bits */
		const uint32_t *l2p = (const uint32_t *)(const void *)pf->l2p.bytes;
		uint32_t m = back != UINT64_MAX ? l2p[back] : 0;

		if (m) {
			__builtin_prefetch(&pf->blk[(m - 1) >> pf->ppb_shift], 1);
			__builtin_prefetch(&pf->live[(m - 1) >> 6], 1);
		}
		if (load)
			__builtin_prefetch(&l2p[lpn]);
	} else {
		uint32_t m = back != UINT64_MAX ? ssd_map_get(&pf->l2p, back) : 0;

		if (m) {
			__builtin_prefetch(&pf->blk[ssd_block_of(pf, m - 1)], 1);
			if (pf->live)
				__builtin_prefetch(&pf->live[(m - 1) >> 6], 1);
		}
		if (load)
			__builtin_prefetch(ssd_map_addr(&pf->l2p, lpn));
	}
	/* a page past the end, or of a group never mapped, has nothing to load next */
	*old = load ? lpn : UINT64_MAX;
	pf->reads_recent -= pf->reads_recent > 0;
	pf->hint_next = pf->hint_next + 1 < SSD_HINT_LAG ? pf->hint_next + 1 : 0;
}

void ssd_pftl_trim(struct ssd_dev *d, uint64_t off, uint64_t len)
{
	struct ssd_page_ftl *pf = &d->pf;
	uint64_t page = d->g.page;

	for (uint64_t lpn = (off + page - 1) / page; (lpn + 1) * page <= off + len; lpn++) {
		uint32_t m = ssd_l2p_may_map(pf, lpn) ? ssd_map_get(&pf->l2p, lpn) : 0;

		if (m) {
			page_invalidate(d, m - 1, false);
			ssd_map_set(&pf->l2p, lpn, 0);
		}
	}
}

static size_t page_round(size_t len)
{
	return (len + 4095) & ~(size_t)4095;
}

/*
 * Zeroed memory for a map or the block table. Large ones are mapped
 * anonymously and asked for transparent huge pages: random lookups then
 * miss the TLB far less, and pages never touched still cost nothing.
 */
static void *table_alloc(size_t len)
{
	size_t span = page_round(len + HUGE_PAGE);
	uintptr_t p, start, end;

	if (len < HUGE_PAGE)
		return calloc(len, 1);
	/* huge-page aligned (a huge page more mapped, the ends cut off): all of it can be huge */
	p = (uintptr_t)mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == (uintptr_t)MAP_FAILED)
		return NULL;
	start = (p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	end = start + page_round(len);
	if (start > p)
		munmap((void *)p, start - p);
	if (p + span > end)
		munmap((void *)end, p + span - end);
	madvise((void *)start, len, MADV_HUGEPAGE);	/* advice only: fine if refused */
	return (void *)start;
}

/*
 * Fault a table in now (SSD_PREFAULT_MAX): the kernel zeroes its pages at
 * this point instead of at their first use. Writes zeros over zeros, page
 * by page, where MADV_POPULATE_WRITE (Linux 5.14) is refused or the table
 * is not page-aligned.
 */
static void table_prefault(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	if (len >= HUGE_PAGE && !madvise(p, len, MADV_POPULATE_WRITE))
		return;
#endif
	for (size_t i = 0; i < len; i += 4096)
		((volatile uint8_t *)p)[i] = 0;
}

static void table_free(void *p, size_t len)
{
	if (p && len < HUGE_PAGE)
		free(p);
	else if (p)
		munmap(p, len);
}

static int map_init(struct ssd_map *m, uint64_t entries, unsigned bits)
{
	m->bits = bits;
	m->mask = bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
	m->len = SSD_MAP_LEAD + (entries * bits + 7) / 8 + 8;
	m->bytes = table_alloc(m->len);
	if (!m->bytes)
		return -ENOMEM;
	m->bytes += SSD_MAP_LEAD;
	return 0;
}

static void map_release(struct ssd_map *m)
{
	if (m->bytes)
		table_free(m->bytes - SSD_MAP_LEAD, m->len);
	m->bytes = NULL;
}

static size_t blk_len(const struct ssd_geometry *g)
{
	return (g->blocks + g->channels * (g->ppb + 1)) * sizeof(struct ssd_block);
}

/* The maps, the block table and the live bits (plain maps only). */
static int tables_alloc(struct ssd_page_ftl *pf, const struct ssd_geometry *g)
{
	uint64_t live = ssd_live_bytes(g);

	if (map_init(&pf->l2p, g->user_pages, g->map_bits) ||
	    map_init(&pf->p2l, g->raw_pages, g->map_bits))
		return -ENOMEM;
	pf->blk = table_alloc(blk_len(g));
	pf->live_words = (uint32_t)(g->ppb / 64);
	pf->live = live ? table_alloc(live) : NULL;
	pf->l2p_set = table_alloc(ssd_l2p_set_bytes(g->user_pages));
	if (!pf->blk || (live && !pf->live) || !pf->l2p_set)
		return -ENOMEM;
	pf->fast = pf->live && pf->ppb_shift >= 0;	/* live bits: plain maps */
	if (pf->l2p.len + pf->p2l.len + blk_len(g) + live <= SSD_PREFAULT_MAX) {
		table_prefault(pf->l2p.bytes - SSD_MAP_LEAD, pf->l2p.len);
		table_prefault(pf->p2l.bytes - SSD_MAP_LEAD, pf->p2l.len);
		table_prefault(pf->blk, blk_len(g));
		if (pf->live)
			table_prefault(pf->live, live);
	}
	return 0;
}

/* A used or trimmed drive: every group counts as mapped (its fill maps nearly all). */
void ssd_pftl_mark_all(struct ssd_dev *d)
{
	memset(d->pf.l2p_set, 0xff, ssd_l2p_set_bytes(d->g.user_pages));
}

int ssd_pftl_init(struct ssd_dev *d)
{
	struct ssd_page_ftl *pf = &d->pf;
	const struct ssd_geometry *g = &d->g;
	uint64_t heads = g->channels * (g->ppb + 1);

	pf->ppb = (uint32_t)g->ppb;
	pf->bpc = (uint32_t)g->blocks_per_chan;
	pf->heads = (uint32_t)g->blocks;
	pf->ppb_shift = ssd_log2(g->ppb);
	pf->page_shift = ssd_log2(g->page);
	pf->ppc_div = ssd_div_magic(g->ppb * g->blocks_per_chan);
	pf->chan_div = ssd_div_magic(g->channels);
	for (unsigned i = 0; i < SSD_HINT_LAG; i++)
		pf->hinted[i] = UINT64_MAX;
	if (tables_alloc(pf, g))
		return -ENOMEM;
	for (uint32_t b = 0; b < pf->heads; b++)
		pf->blk[b].chan = (uint8_t)(b / pf->bpc);
	for (uint32_t h = pf->heads; h < pf->heads + heads; h++)
		pf->blk[h].prev = pf->blk[h].next = h;
	for (uint64_t c = 0; c < g->channels; c++) {
		d->chan[c].open = SSD_NONE;
		d->chan[c].free_head = SSD_NONE;
		d->chan[c].gc_ahead = SSD_NONE;
		d->chan[c].wp = pf->ppb;
	}
	return 0;
}

void ssd_pftl_release(struct ssd_dev *d)
{
	map_release(&d->pf.l2p);
	map_release(&d->pf.p2l);
	table_free(d->pf.blk, blk_len(&d->g));
	table_free(d->pf.live, ssd_live_bytes(&d->g));
	table_free(d->pf.l2p_set, ssd_l2p_set_bytes(d->g.user_pages));
	d->pf.blk = NULL;
	d->pf.l2p_set = NULL;
	d->pf.live = NULL;
}
