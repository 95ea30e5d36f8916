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
 * The generator runs OFFSET_AHEAD offsets ahead of its caller (`ahead`), so
 * that the engine can tell the backend where an IO will land a few IOs
 * before it is queued (backend_prefetch); the sequence is the same either way.
 */
#ifndef IOMODEL_OFFSETS_H
#define IOMODEL_OFFSETS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/errmsg.h"
#include "util/rng.h"

#define OFFSET_AHEAD 4

struct offset_gen {
	uint64_t first;		/* lowest offset used */
	uint64_t positions;	/* random: number of aligned positions */
	uint64_t align;
	uint64_t last;		/* sequential: highest offset used */
	uint64_t bs;
	uint64_t next;		/* sequential: the offset after those in `ahead` */
	uint64_t ahead[OFFSET_AHEAD];	/* drawn, not yet returned: a ring from `head` */
	unsigned head;
	bool random;
	struct rng rng;
};

/*
 * Set up `g`. Fails with -EINVAL (and a message) when the region holds no
 * aligned IO of `bs` bytes, or bs or align is zero.
 */
int offset_gen_init(struct offset_gen *g, uint64_t region_offset,
		    uint64_t region_length, uint64_t bs, uint64_t align,
		    bool random, uint64_t seed, struct errmsg *err);

/* The offset after those in `ahead`: for offset_gen_next() and offset_gen_init() only. */
static inline uint64_t offset_gen_draw(struct offset_gen *g)
{
	uint64_t off;

	if (g->random)
		return g->first + rng_below(&g->rng, g->positions) * g->align;
	off = g->next;
	g->next = off + g->bs <= g->last ? off + g->bs : g->first;
	return off;
}

static inline uint64_t offset_gen_next(struct offset_gen *g)
{
	uint64_t off = g->ahead[g->head];

	g->ahead[g->head] = offset_gen_draw(g);
	g->head = g->head + 1 < OFFSET_AHEAD ? g->head + 1 : 0;
	return off;
}

/* The offset OFFSET_AHEAD calls of offset_gen_next() from now will return. */
static inline uint64_t offset_gen_peek(const struct offset_gen *g)
{
	return g->ahead[g->head ? g->head - 1 : OFFSET_AHEAD - 1];
}

#endif
