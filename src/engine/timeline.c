/* timeline.c — storage of the per-second timeline of timeline.h. */
#include "timeline.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/dynbuf.h"

#define MAX_TIMELINE_SECONDS (1u << 28)	/* 8.5 years of (virtual) seconds */

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
	if (array_grow((void **)&t->seconds, &t->alloc, second + 1, sizeof(*t->seconds),
		       MAX_TIMELINE_SECONDS))
		return -ENOMEM;
	memset(t->seconds + t->len, 0, (second + 1 - t->len) * sizeof(*t->seconds));
	t->len = second + 1;
	return 0;
}
