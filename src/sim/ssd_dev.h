/*
 * ssd_dev.h — the state of one simulated SSD, shared by the timing core
 * (ssd.c) and the flash translation layers (ssd_block_ftl.c,
 * ssd_page_ftl.c, ssd_page_state.c). Not for use outside src/sim/ssd*.c.
 *
 * Time is in nanoseconds of the virtual clock. Every shared resource — the
 * controller, the host bus, each flash channel — is a "busy until" time:
 * work on it starts when both the work is ready and the resource is free,
 * and pushes the resource's time forward. Work the drive does for itself
 * (merges, garbage collection) is booked on the channels the same way, so
 * later requests wait for it.
 */
#ifndef IOMODEL_SIM_SSD_DEV_H
#define IOMODEL_SIM_SSD_DEV_H

#include <stdint.h>
#include <string.h>

#include "sim/heap.h"
#include "sim/ssd.h"
#include "util/rng.h"

#define SSD_NONE UINT32_MAX
#define SSD_HINT_LAG 2		/* prefetch hints between the two stages (ssd_pftl_prefetch) */
#define SSD_READS_RECENT 64	/* hints after a read that skip the second stage */

/*
 * An array of unsigned entries: the page FTL's two maps. With bits = 32 the
 * entries are plain 32-bit words (the fast case, chosen while both maps fit
 * in SSD_PLAIN_MAPS bytes); otherwise they are packed, entry i at bit
 * i * bits, and an access loads the 8 bytes around it, so the allocation
 * carries 8 bytes of tail padding. It also carries SSD_MAP_LEAD bytes
 * before entry 0, never written: prefetch_targets() may take the address
 * of "L2P[l - 1]" with l = 0 (a P2L entry never written) without a test.
 */
#define SSD_MAP_LEAD 64

struct ssd_map {
	uint8_t *bytes;		/* entry 0; the allocation starts SSD_MAP_LEAD before */
	size_t len;		/* bytes allocated */
	unsigned bits;
	uint64_t mask;
};

static inline uint32_t ssd_map_get(const struct ssd_map *m, uint64_t i)
{
	uint64_t bit, word;

	if (__builtin_expect(m->bits == 32, 1))
		return ((const uint32_t *)(const void *)m->bytes)[i];
	bit = i * m->bits;
	memcpy(&word, m->bytes + (bit >> 3), sizeof(word));
	return (uint32_t)((word >> (bit & 7)) & m->mask);
}

static inline void ssd_map_set(struct ssd_map *m, uint64_t i, uint32_t v)
{
	uint64_t bit, word;
	unsigned shift;

	if (__builtin_expect(m->bits == 32, 1)) {
		((uint32_t *)(void *)m->bytes)[i] = v;
		return;
	}
	bit = i * m->bits;
	shift = bit & 7;
	memcpy(&word, m->bytes + (bit >> 3), sizeof(word));
	word = (word & ~(m->mask << shift)) | ((uint64_t)v << shift);
	memcpy(m->bytes + (bit >> 3), &word, sizeof(word));
}

static inline const void *ssd_map_addr(const struct ssd_map *m, uint64_t i)
{
	return m->bytes + ((i * m->bits) >> 3);
}

enum ssd_block_state {
	SSD_BLK_FREE,		/* erased, on its channel's free list */
	SSD_BLK_OPEN,		/* its channel's write frontier */
	SSD_BLK_FULL,		/* programmed to the end, in a bucket by valid count */
};

/* One erase block of the page FTL (12 bytes). */
struct ssd_block {
	uint32_t prev;		/* bucket list neighbours; free list uses next */
	uint32_t next;
	uint16_t valid;		/* valid pages */
	uint8_t state;		/* enum ssd_block_state */
	uint8_t chan;		/* the channel it is on: b / bpc */
};

struct ssd_chan {
	uint64_t free_at;	/* when the work booked on the channel ends */
	uint32_t open;		/* page FTL: the open block, or SSD_NONE */
	uint32_t wp;		/* page FTL: next page to program in `open` */
	uint32_t free_head;	/* page FTL: free blocks, linked by next */
	uint32_t nfree;
	uint32_t minv;		/* page FTL: no full block has fewer valid pages */
	uint32_t gc_ahead;	/* page FTL: the victim gc_prefetch() foresaw, or SSD_NONE */
};

/*
 * L2P in groups of 2^SSD_L2P_GROUP_SHIFT entries (256 KiB of a plain map),
 * a bit each in ssd_page_ftl.l2p_set: clear while the group holds no
 * mapped entry, so that reads of what was never written do not load the
 * map (ssd_l2p_may_map). A fresh drive's L2P can then be faulted in when
 * it is built (SSD_PREFAULT_MAX) at no cost to its reads, which had the
 * kernel's zero page to load, always in cache, while it was lazy. Groups
 * this large keep the bits in a few words that stay in L1 (finer ones
 * cost more in cache misses than they saved in loads).
 */
#define SSD_L2P_GROUP_SHIFT 16

struct ssd_page_ftl {
	struct ssd_map l2p;		/* logical page -> physical page + 1; 0 unmapped */
	uint64_t *l2p_set;		/* bit g clear: L2P group g is all 0 (SSD_L2P_GROUP_SHIFT) */
	struct ssd_map p2l;		/* physical page -> logical page + 1; 0 not valid */
	struct ssd_block *blk;		/* blocks, then the bucket heads */
	uint64_t *live;			/* bit p set iff page p is valid; NULL: none (ssd_live_bytes) */
	uint32_t live_words;		/* 64-bit words of `live` per block: ppb / 64 */
	bool fast;			/* live bits (so plain maps), ppb a power of two */
	uint32_t heads;			/* index of the first bucket head */
	uint32_t ppb;			/* copies of the geometry, 32-bit for speed */
	uint32_t bpc;
	int ppb_shift;			/* log2(ppb), or -1: not a power of two */
	int page_shift;			/* log2(page), or -1 */
	uint64_t ppc_div;		/* 2^64 / (ppb x bpc) + 1: chan_of() divides by multiplying */
	uint64_t chan_div;		/* 2^64 / channels + 1, or 0: one channel */
	uint32_t rr;			/* next channel in round-robin order */
	uint64_t valid;			/* valid pages on the drive */
	uint64_t hinted[SSD_HINT_LAG];	/* logical pages of the last prefetch hints, a ring */
	uint32_t reads_recent;		/* hints until no read came within SSD_READS_RECENT */
	unsigned hint_next;		/* the oldest of them */
};

struct ssd_block_ftl {
	uint8_t *mapped;		/* per merge unit: holds host data */
	uint64_t nmapped;
	uint64_t first_ready;		/* lockstep: when the last read's first pages are read */
};

struct ssd_timing {
	uint64_t cmd, read, prog, erase;	/* ns; cmd: read command latency */
	uint64_t wcmd;				/* write command latency */
	uint64_t busy, wbusy;			/* controller occupancy: read, write */
	uint64_t bus_fs;			/* femtoseconds per byte on the bus */
	uint64_t xfer_page;			/* ns: one page over the bus */
	uint64_t drain;				/* write cache: flash time it hides */
	uint64_t spread_q32;			/* time_spread x 2^32; 0: every op nominal */
	uint64_t stall_below;			/* stall when a 64-bit draw is below this */
	uint64_t stall;				/* ns */
	uint64_t merge_stall_below;		/* block FTL: as stall_below, per merge */
	uint64_t merge_stall;			/* ns */
};

struct ssd_dev {
	struct sim_device base;
	struct sim_device_ops ops;	/* base.ops: ssd.c's, without prefetch for the block FTL */
	struct ssd_geometry g;
	struct ssd_timing t;
	unsigned ftl;
	unsigned merge;			/* enum ssd_merge */
	bool trim;
	bool write_cache;
	bool lockstep;			/* block FTL: one spread draw for all channels */
	bool detached;			/* device.h detach(): nobody collects; `done` below, not `inflight` */
	bool quick;			/* ssd.c submit_as(): page FTL, pf.fast, powers of two, nominal times */
	uint64_t *done;			/* detached: completion times of commands, some past */
	size_t ndone, done_alloc;
	struct ssd_chan *chan;
	uint64_t ctrl_free;		/* the front end takes one command at a time */
	uint64_t bus_free;
	uint64_t next_read, next_write;	/* where the last read, write ended */
	unsigned ncq;			/* commands in service at once */
	uint64_t *top;			/* ncq entries of scratch for ncq_free_at() */
	struct req_heap inflight;	/* holds every command in service but `solo` */
	struct io_request *solo;	/* the only one in service (inflight empty), or NULL */
	uint64_t solo_at;		/* when it completes */
	struct sim_counters cnt;
	struct ssd_page_ftl pf;
	struct ssd_block_ftl bf;
	struct rng jitter;		/* flash op times and stalls: deterministic per seed */
};

/* `dur` spread uniformly over [1 - s, 1 + s] x dur (time_spread s); mean dur. */
static inline uint64_t ssd_spread(struct ssd_dev *d, uint64_t dur)
{
	int64_t u = (int64_t)(rng_next(&d->jitter) >> 31) - ((int64_t)1 << 32);	/* [-2^32, 2^32) */
	__int128 delta = (__int128)dur * (int64_t)d->t.spread_q32 * u;

	return (uint64_t)((__int128)dur + (delta >> 64));
}

/*
 * Bytes of the live bits of a drive of geometry g: one bit per flash page,
 * with plain maps (the maps within SSD_PLAIN_MAPS: a larger drive is short
 * of memory, not of speed) and whole 64-bit words per erase block; else none.
 */
static inline uint64_t ssd_live_bytes(const struct ssd_geometry *g)
{
	bool plain = (g->user_pages + g->raw_pages) * 4 <= SSD_PLAIN_MAPS;

	return plain && g->ppb % 64 == 0 ? g->raw_pages / 8 : 0;
}

/*
 * Whether L2P entry l may be non-zero: when not, it is 0 and need not be
 * loaded. Group bits are set as entries are mapped (a used or trimmed
 * drive's all at its fill), never cleared.
 */
static inline bool ssd_l2p_may_map(const struct ssd_page_ftl *pf, uint64_t l)
{
	uint64_t g = l >> SSD_L2P_GROUP_SHIFT;

	return pf->l2p_set[g >> 6] >> (g & 63) & 1;
}

/* Entry l is being mapped. */
static inline void ssd_l2p_mark(struct ssd_page_ftl *pf, uint64_t l)
{
	uint64_t g = l >> SSD_L2P_GROUP_SHIFT;

	pf->l2p_set[g >> 6] |= 1ULL << (g & 63);
}

/* Bytes of l2p_set for `user_pages` logical pages: whole words. */
static inline uint64_t ssd_l2p_set_bytes(uint64_t user_pages)
{
	uint64_t groups = (user_pages + (1ULL << SSD_L2P_GROUP_SHIFT) - 1) >> SSD_L2P_GROUP_SHIFT;

	return (groups + 63) / 64 * 8;
}

/* The word of `live` that holds physical page p's bit, and that bit in *bit. */
static inline uint64_t *ssd_live_word(const struct ssd_page_ftl *pf, uint64_t p, uint64_t *bit)
{
	*bit = 1ULL << (p & 63);
	return &pf->live[p >> 6];
}

/* Book exactly `dur` ns on channel c, starting no earlier than `at`; the end time. */
static inline uint64_t ssd_chan_book(struct ssd_dev *d, unsigned c, uint64_t at, uint64_t dur)
{
	uint64_t start = d->chan[c].free_at > at ? d->chan[c].free_at : at;

	d->chan[c].free_at = start + dur;
	return start + dur;
}

/* Book `dur` ns (spread by time_spread) on channel c, from `at`; the end time. */
static inline uint64_t ssd_chan_run(struct ssd_dev *d, unsigned c, uint64_t at, uint64_t dur)
{
	if (d->t.spread_q32)
		dur = ssd_spread(d, dur);
	return ssd_chan_book(d, c, at, dur);
}

/*
 * n / d for a 32-bit n, given div = 2^64 / d + 1 (d > 1; div 0 stands for
 * d = 1): one multiplication, exact for every 32-bit n and d (Lemire's
 * "faster remainder by direct computation", 2019).
 */
static inline uint32_t ssd_div32(uint32_t n, uint64_t div)
{
	return div ? (uint32_t)(((unsigned __int128)n * div) >> 64) : n;
}

static inline uint64_t ssd_div_magic(uint64_t d)
{
	return d > 1 ? UINT64_MAX / d + 1 : 0;
}

static inline int ssd_log2(uint64_t v)
{
	int n = 0;

	if (!v || (v & (v - 1)))
		return -1;
	while (v >>= 1)
		n++;
	return n;
}

static inline uint64_t ssd_max(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/*
 * The FTLs. read() books the flash reads of a host read starting at `at` and
 * returns when the last finishes; write() does the same for a host write
 * whose data is at hand from `at`, setting *done; -ENOSPC when the page FTL
 * finds nothing to collect (check() makes that impossible).
 */
int ssd_bftl_init(struct ssd_dev *d, const struct ssd_config *c);
void ssd_bftl_release(struct ssd_dev *d);
uint64_t ssd_bftl_read(struct ssd_dev *d, uint64_t off, uint32_t len, uint64_t at);
int ssd_bftl_write(struct ssd_dev *d, uint64_t off, uint32_t len, uint64_t at, uint64_t *done);
void ssd_bftl_trim(struct ssd_dev *d, uint64_t off, uint64_t len);

int ssd_pftl_init(struct ssd_dev *d);
void ssd_pftl_release(struct ssd_dev *d);
uint64_t ssd_pftl_read_pages(struct ssd_dev *d, uint64_t off, uint32_t len, uint64_t at);
int ssd_pftl_write_pages(struct ssd_dev *d, uint64_t off, uint32_t len, uint64_t at, uint64_t *done);
int ssd_pftl_write_page_fast(struct ssd_dev *d, uint64_t lpn, uint64_t at, uint64_t *end);
int ssd_pftl_write_page(struct ssd_dev *d, uint64_t lpn, uint64_t at, uint64_t *end);
void ssd_pftl_trim(struct ssd_dev *d, uint64_t off, uint64_t len);
void ssd_pftl_prefetch(struct sim_device *d, uint64_t off, uint32_t length);	/* device.h's op */
int ssd_pftl_verify(const struct ssd_dev *d, struct errmsg *err);

static inline uint32_t ssd_block_of(const struct ssd_page_ftl *pf, uint64_t ppn)
{
	return (uint32_t)(pf->ppb_shift >= 0 ? ppn >> pf->ppb_shift : ppn / pf->ppb);
}

/*
 * Book the flash read of logical page `lpn` from `at`; when it ends. A page
 * never written is read where a sequential fill would have put it. The
 * channel of a physical page is its block's, b / bpc (invariant 5 of
 * ssd_page_ftl.c), computed rather than looked up: no block-table load.
 */
static inline uint64_t ssd_pftl_read_page(struct ssd_dev *d, uint64_t lpn, uint64_t at)
{
	struct ssd_page_ftl *pf = &d->pf;
	uint32_t m = ssd_l2p_may_map(pf, lpn) ? ssd_map_get(&pf->l2p, lpn) : 0;
	unsigned c = m ? ssd_div32(m - 1, pf->ppc_div)
		       : (unsigned)(lpn - ssd_div32((uint32_t)lpn, pf->chan_div) * d->g.channels);

	if (m)	/* an overwrite (read-modify-write) will update this block's count */
		__builtin_prefetch(&pf->blk[ssd_block_of(pf, m - 1)], 1);
	pf->reads_recent = SSD_READS_RECENT;	/* the prefetch hint's second stage rests */
	return ssd_chan_run(d, c, at, d->t.read);
}

/*
 * The page FTL's host read and write, inline here for their common case,
 * one whole page (a power of two, so aligned is a mask test): the request
 * path then makes no call for a read and one for a write.
 */
static inline bool ssd_pftl_one_page(const struct ssd_dev *d, uint64_t off, uint32_t len)
{
	return len == d->g.page && d->pf.page_shift >= 0 && !(off & (d->g.page - 1));
}

static inline uint64_t ssd_pftl_read(struct ssd_dev *d, uint64_t off, uint32_t len, uint64_t at)
{
	if (!ssd_pftl_one_page(d, off, len))
		return ssd_pftl_read_pages(d, off, len, at);
	d->cnt.media_read_bytes += len;
	return ssd_pftl_read_page(d, off >> d->pf.page_shift, at);	/* no earlier than `at` */
}

static inline int ssd_pftl_write(struct ssd_dev *d, uint64_t off, uint32_t len, uint64_t at,
				 uint64_t *done)
{
	if (!ssd_pftl_one_page(d, off, len))
		return ssd_pftl_write_pages(d, off, len, at, done);
	*done = at;
	if (!d->pf.fast)
		return ssd_pftl_write_page(d, off >> d->pf.page_shift, at, done);
	return ssd_pftl_write_page_fast(d, off >> d->pf.page_shift, at, done);
}

/* ssd_page_ftl.c, for ssd_page_state.c: bucket lists, free lists, l2p_set. */
void ssd_pftl_bucket_add(struct ssd_dev *d, uint32_t b);
void ssd_pftl_free_push(struct ssd_dev *d, unsigned c, uint32_t b);
void ssd_pftl_mark_all(struct ssd_dev *d);

/* ssd.c: the model's create(). */
int ssd_create(const void *config, uint64_t seed, struct sim_device **out, struct errmsg *err);

/* ssd_page_state.c: lay out a fresh, used or trimmed drive. */
int ssd_pftl_prepare(struct ssd_dev *d, unsigned state, uint64_t keep_pages, uint64_t seed);

#endif
