/*
 * timeline.h — per-second record of one operation type during a run:
 * IOs and bytes completed in each second since the measurement started, and
 * the highest latency among them. Grows as the run goes on.
 */
#ifndef IOMODEL_TIMELINE_H
#define IOMODEL_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

struct timeline_second {
	uint64_t ios;
	uint64_t bytes;
	uint64_t max_lat_ns;
};

struct timeline {
	struct timeline_second *seconds;
	size_t len;		/* seconds recorded: indices 0 .. len-1 */
	size_t alloc;
};

void timeline_init(struct timeline *t);
void timeline_release(struct timeline *t);

/* Returns 0 or -ENOMEM. */
int timeline_grow(struct timeline *t, size_t second);

/*
 * Count `ios` completed IOs of `bytes` in all, the highest latency among
 * them `max_lat_ns`, in second `second` (0 = the first second).
 */
static inline int timeline_add_ios(struct timeline *t, size_t second, uint64_t ios,
				   uint64_t bytes, uint64_t max_lat_ns)
{
	struct timeline_second *s;

	if (second >= t->len) {
		int ret = timeline_grow(t, second);

		if (ret)
			return ret;
	}
	s = &t->seconds[second];
	s->ios += ios;
	s->bytes += bytes;
	if (max_lat_ns > s->max_lat_ns)
		s->max_lat_ns = max_lat_ns;
	return 0;
}

#endif
