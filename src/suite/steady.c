/* steady.c — the SNIA PTS steady-state rule of steady.h. */
#include "suite/steady.h"

#include <math.h>

void steady_rule_snia(struct steady_rule *rule)
{
	*rule = (struct steady_rule){ .window = 5, .max_rounds = 25, .max_range = 0.20,
				      .max_excursion = 0.10 };
}

/* Least-squares slope of y against 0, 1, …, n−1. */
static double slope(const double *y, size_t n)
{
	double xm = (double)(n - 1) / 2, ym = 0, sxy = 0, sxx = 0;

	for (size_t i = 0; i < n; i++)
		ym += y[i];
	ym /= (double)n;
	for (size_t i = 0; i < n; i++) {
		sxy += ((double)i - xm) * (y[i] - ym);
		sxx += ((double)i - xm) * ((double)i - xm);
	}
	return sxx > 0 ? sxy / sxx : 0;
}

void steady_state_check(const struct steady_rule *rule, const double *y, size_t n,
			struct steady_eval *out)
{
	size_t w = rule->window ? rule->window : 1;
	const double *win;
	double lo, hi, sum = 0;

	*out = (struct steady_eval){ .round = 0 };
	if (n < w)
		return;
	win = y + n - w;
	lo = hi = win[0];
	for (size_t i = 0; i < w; i++) {
		sum += win[i];
		lo = win[i] < lo ? win[i] : lo;
		hi = win[i] > hi ? win[i] : hi;
	}
	out->round = n;
	out->mean = sum / (double)w;
	if (!(out->mean > 0) || !isfinite(out->mean))
		return;
	out->range_frac = (hi - lo) / out->mean;
	out->excursion_frac = fabs(slope(win, w)) * (double)(w - 1) / out->mean;
	out->reached = out->range_frac <= rule->max_range &&
		       out->excursion_frac <= rule->max_excursion;
}
