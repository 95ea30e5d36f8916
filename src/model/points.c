/*
 * points.c — the growable array of measured performance points (points.h).
 */
#include "model/points.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/dynbuf.h"

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

#define MAX_POINTS (1u << 26)	/* far beyond any sweep or file */

int point_set_add(struct point_set *ps, const struct perf_point *p)
{
	void *items = ps->points;
	int ret = array_grow(&items, &ps->alloc, ps->len + 1, sizeof(*ps->points),
			     MAX_POINTS);

	if (ret)
		return -ENOMEM;
	ps->points = items;
	ps->points[ps->len++] = *p;
	return 0;
}
