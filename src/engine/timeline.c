/* timeline.c — storage of the per-second timeline of timeline.h. */
#include "timeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void timeline_init(struct timeline *t)
{
	memset(t, 0, sizeof(*t));
}

void timeline_release(struct timeline *t)
{
	free(t->seconds);
	timeline_init(t);
}

int timeline_grow(struct timeline *t, size_t second)
{
	if (second >= t->alloc) {
		size_t alloc = t->alloc ? t->alloc : 64;
		struct timeline_second *p;

		while (alloc <= second)
			alloc *= 2;
		p = realloc(t->seconds, alloc * sizeof(*p));
		if (!p)
			return -ENOMEM;
		t->seconds = p;
		t->alloc = alloc;
	}
	memset(t->seconds + t->len, 0, (second + 1 - t->len) * sizeof(*t->seconds));
	t->len = second + 1;
	return 0;
}
