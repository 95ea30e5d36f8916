/*
 * charts_assess.c — the charts of iomodel assess (WinSAT's disk
 * assessment): its three transfer rates as grouped bars, one bar per target
 * of every assess file, and its read times (alone, beside sequential
 * writes, beside random writes, and the 95th percentile under that load)
 * and the maximum likewise, on a log axis (the maximum is often a hundred
 * times the others).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "report/charts.h"

/* What each of the two charts draws: its titles, its y axis and its figures, left to right. */
struct assess_chart {
	const char *title, *x_title, *y_title;
	enum plot_axis_kind y_kind;
	enum report_assess_figure fig[5];
	size_t n_fig;
};

static const struct assess_chart rates_chart = {
	"Disk assessment: transfer rates (WinSAT's)",
	"1 seq. read 64 KiB, 2 random read 16 KiB, 3 seq. write 64 KiB",
	"MB/s (10^6 bytes per second)", PLOT_LINEAR,
	{ REPORT_ASSESS_SEQ_READ, REPORT_ASSESS_RANDOM_READ, REPORT_ASSESS_SEQ_WRITE }, 3,
};

static const struct assess_chart times_chart = {
	"Disk assessment: read times under writes",
	"mean: 1 alone, 2 + seq. writes, 3 + random writes; 4 p95, 5 max",
	"read time (ms, log)", PLOT_LOG10,
	{ REPORT_ASSESS_READ_MS, REPORT_ASSESS_READ_MS_SEQ_WRITES,
	  REPORT_ASSESS_READ_MS_RANDOM_WRITES, REPORT_ASSESS_P95_MS, REPORT_ASSESS_MAX_MS }, 5,
};

bool assess_chart_wants(const struct report_drive *d, enum io_op op)
{
	(void)op;
	return d->assess.n > 0;
}

static size_t targets_of(const struct report_drive *drives, size_t n)
{
	size_t total = 0;

	for (size_t i = 0; i < n; i++)
		total += drives[i].assess.n;
	return total;
}

/*
 * The y range: from 0 on a linear axis; on a log axis whole decades around
 * the positive figures (a figure of 0 then draws no bar).
 */
static void value_range(const struct report_drive *drives, size_t n, struct plot_axis *y,
			const enum report_assess_figure *fig, size_t n_fig)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t t = 0; t < drives[i].assess.n; t++)
			for (size_t k = 0; k < n_fig; k++) {
				double v = drives[i].assess.targets[t].figure[fig[k]];

				hi = fmax(hi, v);
				if (v > 0)
					lo = fmin(lo, v);
			}
	y->fixed = true;
	if (y->kind == PLOT_LINEAR) {
		y->lo = 0;
		y->hi = hi > 0 ? 1.15 * hi : 1;
		return;
	}
	y->lo = isfinite(lo) ? pow(10, floor(log10(lo / 2))) : 0.001;	/* the least bar visible */
	y->hi = hi > 0 ? pow(10, ceil(log10(hi * 1.05))) : 1;
	if (y->hi <= y->lo)
		y->hi = y->lo * 10;
}

/* One bar series per target, a group of bars at each x = 1 .. n_fig. */
static int assess_bars(const struct report_drive *drives, size_t n, struct plot_chart *c,
		       const enum report_assess_figure *fig, size_t n_fig)
{
	size_t total = targets_of(drives, n), shown = 0;
	double width = 0.8 / (double)(total ? total : 1);
	int ret = 0;

	c->x.fixed = true;
	c->x.lo = 0.5;
	c->x.hi = (double)n_fig + 0.5;
	value_range(drives, n, &c->y, fig, n_fig);
	for (size_t i = 0; i < n && !ret; i++) {
		for (size_t t = 0; t < drives[i].assess.n && !ret; t++, shown++) {
			const struct assess_target_record *r = &drives[i].assess.targets[t];
			struct plot_series *s;

			s = plot_chart_add(c, r->target, (unsigned)(shown % PLOT_SERIES_COLORS), (unsigned)shown,
					   PLOT_BARS);
			if (!s)
				return -ENOMEM;
			s->bar_width = width * 0.9;
			for (size_t k = 0; k < n_fig && !ret; k++)
				ret = plot_series_push(s, (double)k + 1 - 0.4 + width * ((double)shown + 0.5),
						       r->figure[fig[k]]);
		}
	}
	return ret;
}

static int assess_chart_build(const struct report_drive *drives, size_t n,
			      const struct assess_chart *a, struct plot_chart *c)
{
	snprintf(c->title, sizeof(c->title), "%s", a->title);
	plot_axis_set(&c->x, PLOT_LINEAR, a->x_title);
	plot_axis_set(&c->y, a->y_kind, a->y_title);
	return assess_bars(drives, n, c, a->fig, a->n_fig);
}

int assess_rates_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			     struct plot_chart *c)
{
	(void)op;
	return assess_chart_build(drives, n, &rates_chart, c);
}

int assess_times_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			     struct plot_chart *c)
{
	(void)op;
	return assess_chart_build(drives, n, &times_chart, c);
}
