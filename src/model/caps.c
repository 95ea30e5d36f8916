/*
 * caps.c — the first-order model under an IOPS cap and a MB/s cap
 * (caps.h): every split of a size sweep into capped-IOPS / straight /
 * capped-bandwidth runs, each part solved by weighted least squares on
 * relative error, the best consistent split kept.
 */
#include "model/caps.h"

#include <math.h>
#include <stdlib.h>

void caps_none(struct io_caps *c)
{
	c->iops = INFINITY;
	c->bps = INFINITY;
}

bool caps_any(const struct io_caps *c)
{
	return isfinite(c->iops) || isfinite(c->bps);
}

double caps_seconds(const struct first_order *m, const struct io_caps *c, unsigned qd,
		    uint64_t size)
{
	double q = qd > 1 ? (double)qd : 1.0;
	double t = first_order_seconds(m, size);

	t = fmax(t, q / c->iops);
	return fmax(t, q * (double)size / c->bps);
}

/* One candidate split: leading k points at the IOPS cap, trailing m at the MB/s cap. */
struct split {
	double t_cap;		/* per-slot seconds at the IOPS cap (0: none) */
	double b_cap;		/* per-slot seconds per byte at the MB/s cap (0: none) */
	double a, b;		/* the straight line of the middle */
	double rms;
	size_t k, m;
};

static double split_seconds(const struct split *sp, double s)
{
	return fmax(fmax(sp->a + sp->b * s, sp->t_cap), sp->b_cap * s);
}

/* The middle's line by GSL; false when it has < 2 sizes, a negative penalty or no STR. */
static bool middle_line(const double *x, const double *y, const double *w, size_t lo,
			size_t hi, struct split *sp)
{
	struct wls_line l;

	if (hi - lo < 2 || x[lo] == x[hi - 1])
		return false;
	if (first_order_wls(x + lo, y + lo, w + lo, hi - lo, &l) || !(l.b > 0) || l.a < 0)
		return false;
	sp->a = l.a;
	sp->b = l.b;
	return true;
}

/* Solve split (k, m) and check that each cap binds where it was put. */
static bool solve_split(const double *x, const double *y, const double *w, size_t n,
			size_t k, size_t m, struct split *sp)
{
	double sw = 0, swy = 0, sum2 = 0;

	if (!middle_line(x, y, w, k, n - m, sp))
		return false;
	for (size_t i = 0; i < k; i++) {
		sw += w[i];
		swy += w[i] * y[i];
	}
	sp->t_cap = k ? swy / sw : 0;
	sp->b_cap = m ? first_order_origin_slope(x + n - m, y + n - m, w + n - m, m) : 0;
	for (size_t i = 0; i < n; i++) {
		double line = sp->a + sp->b * x[i], pred = split_seconds(sp, x[i]);
		double rel = (y[i] - pred) / pred;

		if ((i < k && sp->t_cap < line) || (i >= n - m && sp->b_cap * x[i] < line))
			return false;
		sum2 += rel * rel;
	}
	sp->rms = sqrt(sum2 / (double)n);
	sp->k = k;
	sp->m = m;
	return true;
}

static bool best_split(const double *x, const double *y, const double *w, size_t n,
		       struct split *best)
{
	bool found = false;

	for (size_t k = 0; k + 2 <= n; k += k ? 1 : CAPS_MIN_POINTS) {
		for (size_t m = 0; k + m + 2 <= n; m += m ? 1 : CAPS_MIN_POINTS) {
			struct split sp;

			if ((k == 0 && m == 0) || !solve_split(x, y, w, n, k, m, &sp))
				continue;
			if (!found || sp.rms < best->rms) {
				*best = sp;
				found = true;
			}
		}
	}
	return found;
}

bool caps_fit(const struct perf_point *pts, size_t n, double line_rms, size_t *first,
	      size_t *count, struct io_caps *caps)
{
	double *buf, q = n && pts[0].qd > 1 ? (double)pts[0].qd : 1.0;
	struct split sp = { .rms = INFINITY };
	bool ok;

	if (n < CAPS_MIN_POINTS + 2 || !(buf = malloc(3 * n * sizeof(*buf))))
		return false;
	for (size_t i = 0; i < n; i++) {
		buf[i] = (double)pts[i].size;
		buf[n + i] = point_seconds(&pts[i]);
		buf[2 * n + i] = 1.0 / (buf[n + i] * buf[n + i]);
	}
	ok = best_split(buf, buf + n, buf + 2 * n, n, &sp) && sp.rms < 0.5 * line_rms;
	free(buf);
	if (!ok)
		return false;
	*first = sp.k;
	*count = n - sp.k - sp.m;
	caps->iops = sp.t_cap > 0 ? q / sp.t_cap : INFINITY;
	caps->bps = sp.b_cap > 0 ? q / sp.b_cap : INFINITY;
	return true;
}
