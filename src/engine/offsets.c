/* offsets.c — setting up the offset generator of offsets.h, and its batch draws. */
#include "offsets.h"

#include <errno.h>

/* The next `count` offsets of the sequence into out[]. */
static void draw(struct offset_gen *g, uint64_t *out, unsigned count)
{
	if (g->random) {
		struct rng r = g->rng;	/* a local copy stays in registers */
		uint64_t first = g->first, positions = g->positions, align = g->align;

		for (unsigned i = 0; i < count; i++)
			out[i] = first + rng_below(&r, positions) * align;
		g->rng = r;
		return;
	}
	for (unsigned i = 0; i < count; i++) {
		out[i] = g->next;
		g->next = g->next + g->bs <= g->last ? g->next + g->bs : g->first;
	}
}

int offset_gen_init(struct offset_gen *g, uint64_t region_offset,
		    uint64_t region_length, uint64_t bs, uint64_t align,
		    bool random, uint64_t seed, struct errmsg *err)
{
	uint64_t end = region_offset + region_length;
	uint64_t first;

	if (!bs || !align)
		return errmsg_set(err, -EINVAL, "block size and alignment must be positive");
	if (end < region_offset)
		return errmsg_set(err, -EINVAL, "region end is beyond 2^64 bytes");
	first = (region_offset + align - 1) / align * align;
	if (first < region_offset || first > end || end - first < bs)
		return errmsg_set(err, -EINVAL,
				  "region of %llu bytes at offset %llu holds no %llu-byte IO aligned to %llu",
				  (unsigned long long)region_length,
				  (unsigned long long)region_offset,
				  (unsigned long long)bs, (unsigned long long)align);
	g->first = first;
	g->align = align;
	g->bs = bs;
	g->positions = (end - bs - first) / align + 1;
	g->last = end - bs;
	g->next = first;
	g->random = random;
	rng_init(&g->rng, seed);
	draw(g, g->buf + OFFSET_BATCH, OFFSET_AHEAD);
	g->pos = OFFSET_BATCH;	/* the first offset_gen_next() draws a batch */
	return 0;
}

void offset_gen_refill(struct offset_gen *g)
{
	for (unsigned i = 0; i < OFFSET_AHEAD; i++)
		g->buf[i] = g->buf[OFFSET_BATCH + i];
	draw(g, g->buf + OFFSET_AHEAD, OFFSET_BATCH);
	g->pos = 0;
}
