/*
 * offsets.h — where each IO of a job lands.
 *
 * A region [offset, offset + length) of the target is cut into positions:
 * every multiple of `align` (counted from the start of the target, not of
 * the region) whose IO of `bs` bytes fits inside the region.
 *  - random: each position equally likely, drawn independently (uniform,
 *    with repeats, deterministic for a seed);
 *  - sequential: from the first position upwards in steps of `bs`, wrapping
 *    to the first position when the next IO would leave the region, so that
 *    one pass visits each offset once.
 * The generator draws OFFSET_BATCH offsets at a time into `buf` (one tight
 * loop, the generator's state in registers), at least OFFSET_AHEAD offsets
 * ahead of its caller, so that the engine can tell the backend where an IO
 * will land a few IOs before it is queued (its `prefetch` op); the sequence
 * is the same either way: each offset is the same draw, only made earlier.
 */
#ifndef IOMODEL_OFFSETS_H
#define IOMODEL_OFFSETS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/errmsg.h"
#include "util/rng.h"

#define OFFSET_AHEAD 4
#define OFFSET_BATCH 64

struct offset_gen {
	uint64_t first;		/* lowest offset used */
	uint64_t positions;	/* random: number of aligned positions */
	uint64_t align;
	uint64_t last;		/* sequential: highest offset used */
	uint64_t bs;
	uint64_t next;		/* sequential: the offset after those in `buf` */
	bool random;
	unsigned pos;		/* buf[pos ..] are drawn, not yet returned; pos <= OFFSET_BATCH */
	struct rng rng;
	uint64_t buf[OFFSET_BATCH + OFFSET_AHEAD];
};

/*
 * Set up `g`. Fails with -EINVAL (and a message) when the region holds no
 * aligned IO of `bs` bytes, or bs or align is zero.
 */
int offset_gen_init(struct offset_gen *g, uint64_t region_offset,
		    uint64_t region_length, uint64_t bs, uint64_t align,
		    bool random, uint64_t seed, struct errmsg *err);

/* Move the OFFSET_AHEAD offsets left to the front of `buf`, draw OFFSET_BATCH more, pos 0. */
void offset_gen_refill(struct offset_gen *g);

static inline uint64_t offset_gen_next(struct offset_gen *g)
{
	if (__builtin_expect(g->pos == OFFSET_BATCH, 0))
		offset_gen_refill(g);
	return g->buf[g->pos++];
}

/* The offset OFFSET_AHEAD calls of offset_gen_next() from now will return. */
static inline uint64_t offset_gen_peek(const struct offset_gen *g)
{
	return g->buf[g->pos + OFFSET_AHEAD - 1];
}

#endif
