/* offsets.c — setting up the offset generator of offsets.h. */
#include "offsets.h"

#include <errno.h>

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
	for (g->head = 0; g->head < OFFSET_AHEAD; g->head++)
		g->ahead[g->head] = offset_gen_draw(g);
	g->head = 0;
	return 0;
}
