/*
 * charts_run.c — the charts of iomodel run results: the per-second
 * timeline of each operation type (IOPS, highest latency). Their latency
 * distribution is drawn by charts_cdf.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "report/charts.h"
#include "util/units.h"

bool timeline_chart_wants(const struct report_drive *d, enum io_op op)
{
	(void)op;
	for (size_t i = 0; i < d->n_runs; i++)
		if (d->runs[i].n_tl)
			return true;
	return false;
}

void chart_run_label(char *buf, size_t len, const struct report_drive *d,
		     const struct run_record *r)
{
	char size[32];

	format_size(size, sizeof(size), r->bs);
	snprintf(buf, len, "%s: %s%s %s QD%u", d->label, r->random ? "rand" : "",
		 io_op_name(r->op), size, r->qd);
}

/* Solid for a drive's first run record, dashed for the next. */
static enum plot_style run_style(size_t k, size_t n_points)
{
	if (n_points < 30)
		return k ? PLOT_DASHED : PLOT_LINE_MARKS;
	return k ? PLOT_DASHED : PLOT_LINE;
}

static int timeline_chart(const struct report_drive *drives, size_t n, struct plot_chart *c,
			  bool latency)
{
	int ret = 0;

	plot_axis_set(&c->x, PLOT_LINEAR, "time since the measurement started (s)");
	for (size_t i = 0; i < n && !ret; i++) {
		for (size_t k = 0; k < drives[i].n_runs && !ret; k++) {
			const struct run_record *r = &drives[i].runs[k];
			struct plot_series *s;
			char label[192];

			if (!r->n_tl)
				continue;
			chart_run_label(label, sizeof(label), &drives[i], r);
			s = plot_chart_add(c, label, (unsigned)i, (unsigned)i, run_style(k, r->n_tl));
			for (size_t j = 0; s && j < r->n_tl && !ret; j++)
				ret = plot_series_push(s, r->tl_t_s[j], latency
						       ? r->tl_max_lat_us[j] / 1e3 : r->tl_iops[j]);
			ret = s ? ret : -ENOMEM;
		}
	}
	return ret;
}

int timeline_iops_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			      struct plot_chart *c)
{
	(void)op;
	snprintf(c->title, sizeof(c->title), "IOPS, second by second");
	plot_axis_set(&c->y, PLOT_LINEAR, "IOPS in the second (IO/s)");
	return timeline_chart(drives, n, c, false);
}

int timeline_latency_chart_build(const struct report_drive *drives, size_t n,
				 enum io_op op, struct plot_chart *c)
{
	double lo = INFINITY, hi = 0;

	(void)op;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < drives[i].n_runs; k++)
			for (size_t j = 0; j < drives[i].runs[k].n_tl; j++) {
				double v = drives[i].runs[k].tl_max_lat_us[j];

				lo = v > 0 ? fmin(lo, v) : lo;
				hi = fmax(hi, v);
			}
	snprintf(c->title, sizeof(c->title), "Highest latency, second by second");
	if (hi >= 10 * lo)	/* spikes: a log scale shows them and the rest */
		plot_axis_set(&c->y, PLOT_LOG10, "highest latency in the second (ms, log scale)");
	else
		plot_axis_set(&c->y, PLOT_LINEAR, "highest latency in the second (ms)");
	return timeline_chart(drives, n, c, true);
}
