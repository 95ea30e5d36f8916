/*
 * charts_cdf.c — the latency distribution chart: the share of IOs that
 * completed within a latency, for each iomodel run record (from its
 * histogram buckets) and each measured point that carries a distribution
 * (fio json+ bins, struct lat_cdf, kept through model files too). Drive i
 * is colour i; a drive's curves differ by marker and line style, except
 * when a single drive has curves: then each has a colour of its own.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "report/charts.h"
#include "util/units.h"

static size_t cdf_points(const struct report_drive *d)
{
	size_t n = 0;

	for (size_t j = 0; j < d->points.len; j++)
		n += d->points.points[j].cdf.n > 0;
	return n;
}

bool cdf_chart_wants(const struct report_drive *d, enum io_op op)
{
	(void)op;
	for (size_t i = 0; i < d->n_runs; i++)
		if (d->runs[i].n_cdf)
			return true;
	return cdf_points(d) > 0;
}

/*
 * "randread 16 KiB QD8 (2 jobs x 4, clat)", then ": drive"
 * when the chart has several drives (the workload first: a long drive name
 * is what the legend cuts).
 */
static void point_label(char *buf, size_t len, const struct report_drive *d,
			const struct perf_point *p, bool name_drive)
{
	char size[32], split[48] = "";

	format_size(size, sizeof(size), p->size);
	if (p->iodepth && p->jobs > 1)
		snprintf(split, sizeof(split), "%u jobs x %u, ", p->jobs, p->iodepth);
	snprintf(buf, len, "%s%s %s QD%u (%s%s)%s%s", p->random ? "rand" : "", io_op_name(p->op),
		 size, p->qd, split,
		 p->lat_kind == POINT_LAT_TOTAL ? "lat" : "clat",
		 name_drive ? ": " : "", name_drive ? d->label : "");
}

/* The largest latency on the chart, in µs. */
static double most_latency_us(const struct report_drive *drives, size_t n)
{
	double most = 0;

	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < drives[i].n_runs; k++)
			for (size_t j = 0; j < drives[i].runs[k].n_cdf; j++)
				most = fmax(most, drives[i].runs[k].cdf_us[j]);
		for (size_t j = 0; j < drives[i].points.len; j++) {
			const struct lat_cdf *c = &drives[i].points.points[j].cdf;

			if (c->n)
				most = fmax(most, c->lat_s[c->n - 1] * 1e6);
		}
	}
	return most;
}

/* Drive i's run records, curve k from *k on. */
static int add_runs(const struct report_drive *d, unsigned color, double scale,
		    struct plot_chart *c, size_t *k)
{
	int ret = 0;

	for (size_t r = 0; r < d->n_runs && !ret; r++) {
		const struct run_record *rec = &d->runs[r];
		struct plot_series *s;
		char label[192];

		if (!rec->n_cdf)
			continue;
		chart_run_label(label, sizeof(label), d, rec);
		s = plot_chart_add(c, label, color, color, (*k)++ ? PLOT_DASHED : PLOT_LINE);
		for (size_t j = 0; s && j < rec->n_cdf && !ret; j++)
			ret = plot_series_push(s, rec->cdf_us[j] * scale, rec->cdf_pct[j]);
		ret = s ? ret : -ENOMEM;
	}
	return ret;
}

/* Drive i's points with a distribution; `alone`: the only drive, one colour per curve. */
static int add_points(const struct report_drive *d, unsigned color, bool alone,
		      double scale, struct plot_chart *c, size_t *k)
{
	int ret = 0;

	for (size_t j = 0; j < d->points.len && !ret; j++) {
		const struct perf_point *p = &d->points.points[j];
		struct plot_series *s;
		char label[288];

		if (!p->cdf.n)
			continue;
		point_label(label, sizeof(label), d, p, !alone);
		s = plot_chart_add(c, label, alone ? (unsigned)(*k % PLOT_SERIES_COLORS) : color,
				   (unsigned)*k, PLOT_LINE_MARKS);
		(*k)++;
		for (unsigned m = 0; s && m < p->cdf.n && !ret; m++)
			ret = plot_series_push(s, p->cdf.lat_s[m] * 1e6 * scale, 100 * p->cdf.frac[m]);
		ret = s ? ret : -ENOMEM;
	}
	return ret;
}

int cdf_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
		    struct plot_chart *c)
{
	double scale = most_latency_us(drives, n) >= 1000 ? 1e-3 : 1;	/* ms from 1 ms on */
	size_t with_points = 0;
	int ret = 0;

	(void)op;
	for (size_t i = 0; i < n; i++)
		with_points += cdf_points(&drives[i]) > 0;
	snprintf(c->title, sizeof(c->title), "Latency distribution");
	plot_axis_set(&c->x, PLOT_LOG10, scale < 1 ? "latency (ms, log scale)"
						   : "latency (\xc2\xb5s, log scale)");
	plot_axis_set(&c->y, PLOT_LINEAR, "IOs completed within the latency (%)");
	c->y.fixed = true;
	c->y.lo = 0;
	c->y.hi = 100;
	for (size_t i = 0; i < n && !ret; i++) {
		size_t k = 0;

		ret = add_runs(&drives[i], (unsigned)i, scale, c, &k);
		if (!ret)
			ret = add_points(&drives[i], (unsigned)i, with_points == 1 && n == 1, scale,
					 c, &k);
	}
	return ret;
}
