/*
 * points.c — the growable array of measured performance points (points.h)
 * and the check of a point's latency distribution.
 */
#include "model/points.h"

#include <errno.h>
#include <math.h>
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

const double lat_cdf_levels[LAT_CDF_MAX] = {
	0, 0.01, 0.025, 0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50, 0.55,
	0.60, 0.65, 0.70, 0.75, 0.80, 0.85, 0.90, 0.925, 0.95, 0.975, 0.99, 0.995, 0.999,
	0.9995, 0.9999, 0.99999, 1,
};

bool lat_cdf_valid(const struct lat_cdf *c)
{
	if (!c->n)
		return true;
	if (c->n > LAT_CDF_MAX || c->frac[c->n - 1] != 1)
		return false;
	for (unsigned k = 0; k < c->n; k++) {
		if (!(c->lat_s[k] > 0) || !isfinite(c->lat_s[k]) || !(c->frac[k] > 0) ||
		    !(c->frac[k] <= 1))
			return false;
		if (k && (c->lat_s[k] <= c->lat_s[k - 1] || c->frac[k] <= c->frac[k - 1]))
			return false;
	}
	return true;
}
