/*
 * points.c — the growable array of measured performance points (points.h).
 */
#include "model/points.h"

#include <errno.h>
#include <stdlib.h>

void point_set_init(struct point_set *ps)
{
	ps->points = NULL;
	ps->len = 0;
	ps->alloc = 0;
}

void point_set_release(struct point_set *ps)
{
	free(ps->points);
	point_set_init(ps);
}

int point_set_add(struct point_set *ps, const struct perf_point *p)
{
	if (ps->len == ps->alloc) {
		size_t alloc = ps->alloc ? 2 * ps->alloc : 16;
		struct perf_point *grown;

		if (alloc > SIZE_MAX / sizeof(*grown))
			return -ENOMEM;
		grown = realloc(ps->points, alloc * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		ps->points = grown;
		ps->alloc = alloc;
	}
	ps->points[ps->len++] = *p;
	return 0;
}
