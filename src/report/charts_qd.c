/*
 * charts_qd.c — IOPS, mean and p99 latency against IOs outstanding: for each
 * drive the points of the request size measured at the most queue depths,
 * and the queue-depth model (qd_iops; latency by Little's law, q / X(q)).
 * The model predicts no tail: the p99 chart draws its mean response time,
 * dashed, beside the measured p99.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "report/charts.h"
#include "util/bug.h"
#include "util/lat_keys.h"
#include "util/units.h"

/*
 * What a chart plots: for a measured point (0: not drawn), and for the
 * model at q outstanding IOs running at `iops`.
 */
struct qd_y {
	double (*point)(const struct perf_point *p);
	double (*model)(double q, double iops);
	enum plot_style model_style;
	bool (*wants)(const struct report_drive *d, enum io_op op);
	const char *model_key;	/* the legend line of the model */
};

static double point_iops(const struct perf_point *p)
{
	return p->iops;
}

static double model_iops(double q, double iops)
{
	(void)q;
	return iops;
}

static double point_mean_ms(const struct perf_point *p)
{
	return (p->mean_lat_s > 0 ? p->mean_lat_s : p->qd / p->iops) * 1e3;
}

/* Little's law: the mean response time of q IOs outstanding at `iops`. */
static double model_mean_ms(double q, double iops)
{
	return q / iops * 1e3;
}

/* Index of the 99th percentile in clat_pct_s (util/lat_keys.h). */
static int p99_index(void)
{
	for (int i = 0; i < LAT_PCTS; i++)
		if (lat_pct_levels[i] == 99.0)
			return i;
	BUG_ON(true);
	return LAT_PCTS - 1;
}

static double point_p99_ms(const struct perf_point *p)
{
	return p->clat_pct_s[p99_index()] * 1e3;
}


static const struct op_model *qd_model_of(const struct report_drive *d, enum io_op op)
{
	return d->has_model && d->model.op[op].has_qd ? &d->model.op[op] : NULL;
}

bool qd_chart_wants(const struct report_drive *d, enum io_op op)
{
	if (qd_model_of(d, op))
		return true;
	for (size_t i = 0; i < d->points.len; i++)
		if (d->points.points[i].op == op && d->points.points[i].qd != 1)
			return true;
	return false;
}

static bool same_group(const struct perf_point *a, const struct perf_point *b)
{
	return a->op == b->op && a->size == b->size && a->random == b->random;
}

/* Distinct depths measured for the group of point j. */
static unsigned depths_of(const struct point_set *ps, size_t j)
{
	unsigned n = 0;

	for (size_t k = 0; k < ps->len; k++) {
		bool seen = false;

		if (!same_group(&ps->points[k], &ps->points[j]))
			continue;
		for (size_t l = 0; l < k && !seen; l++)
			seen = same_group(&ps->points[l], &ps->points[j]) &&
			       ps->points[l].qd == ps->points[k].qd;
		n += !seen;
	}
	return n;
}

/* The group to draw: most depths, then random, then the model's size. -1: none. */
static long qd_group(const struct report_drive *d, enum io_op op)
{
	const struct op_model *om = qd_model_of(d, op);
	unsigned best_score = 0;
	long best = -1;

	for (size_t j = 0; j < d->points.len; j++) {
		const struct perf_point *p = &d->points.points[j];
		unsigned score;

		if (p->op != op || !(p->iops > 0))
			continue;
		score = 4 * depths_of(&d->points, j) + 2 * p->random + (om && p->size == om->qd_size);
		if (score > best_score) {
			best_score = score;
			best = (long)j;
		}
	}
	return best;
}

bool qd_p99_chart_wants(const struct report_drive *d, enum io_op op)
{
	long g = qd_group(d, op);
	unsigned first_qd = 0;

	for (size_t j = 0; g >= 0 && j < d->points.len; j++) {
		const struct perf_point *p = &d->points.points[j];

		if (!same_group(p, &d->points.points[g]) || !(point_p99_ms(p) > 0))
			continue;
		if (first_qd && p->qd != first_qd)
			return true;	/* a second depth */
		first_qd = p->qd;
	}
	return false;
}

static const struct qd_y qd_iops_y = {
	point_iops, model_iops, PLOT_LINE, qd_chart_wants, "model: Little's law, saturating"
};
static const struct qd_y qd_mean_y = {
	point_mean_ms, model_mean_ms, PLOT_LINE, qd_chart_wants, "model: Little's law, saturating"
};
/* The model has no tail: the p99 chart shows its mean response time, dashed, for scale. */
static const struct qd_y qd_p99_y = {
	point_p99_ms, model_mean_ms, PLOT_DASHED, qd_p99_chart_wants,
	"model: mean response time q / IOPS(q)"
};

static int qd_drive(struct plot_chart *c, const struct report_drive *d, unsigned i,
		    enum io_op op, double qmax, const struct qd_y *y)
{
	const struct op_model *om = qd_model_of(d, op);
	long g = qd_group(d, op);
	const struct perf_point *gp = g >= 0 ? &d->points.points[g] : NULL;
	struct plot_series *s;
	char label[192], size[32];
	int ret = 0;

	if (!gp && !om)
		return 0;
	format_size(size, sizeof(size), gp ? gp->size : om->qd_size);
	snprintf(label, sizeof(label), "%s, %s", d->label, size);
	if (chart_key(c, label, i, i, gp && om && y->model_style == PLOT_LINE ? PLOT_LINE_MARKS
				     : gp ? PLOT_MARKS : y->model_style))
		return -ENOMEM;
	s = gp ? plot_chart_add(c, NULL, i, i, PLOT_MARKS) : NULL;
	if (gp && !s)
		return -ENOMEM;
	for (size_t j = 0; gp && j < d->points.len && !ret; j++) {
		const struct perf_point *p = &d->points.points[j];

		if (same_group(p, gp) && y->point(p) > 0)
			ret = plot_series_push(s, p->qd, y->point(p));
	}
	s = om && !ret ? plot_chart_add(c, NULL, i, i, y->model_style) : NULL;
	if (om && !ret && !s)
		return -ENOMEM;
	for (double e = 0; s && e <= log2(qmax) + 1e-9 && !ret; e += 0.25) {
		double q = exp2(e), x = qd_iops(&om->qd, q);

		ret = plot_series_push(s, q, y->model(q, x));
	}
	return ret;
}

static int qd_chart(const struct report_drive *drives, size_t n, enum io_op op,
		    struct plot_chart *c, const struct qd_y *y)
{
	bool modelled = false;
	double qmax = 32;
	int ret = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < drives[i].points.len; j++)
			if (drives[i].points.points[j].op == op)
				qmax = fmax(qmax, drives[i].points.points[j].qd);
	plot_axis_set(&c->x, PLOT_LOG2, "IOs outstanding (queue depth, log scale)");
	for (size_t i = 0; i < n && !ret; i++)
		if (y->wants(&drives[i], op)) {
			ret = qd_drive(c, &drives[i], (unsigned)i, op, qmax, y);
			modelled |= qd_model_of(&drives[i], op) != NULL;
		}
	if (!ret && modelled)
		ret = chart_key(c, y->model_key, PLOT_BLACK, 0, y->model_style);
	return ret;
}

int qd_iops_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			struct plot_chart *c)
{
	snprintf(c->title, sizeof(c->title), "Random %s IOPS against IOs outstanding",
		 io_op_name(op));
	plot_axis_set(&c->y, PLOT_LOG10, "throughput (IOPS, log scale)");
	return qd_chart(drives, n, op, c, &qd_iops_y);
}

int qd_latency_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			   struct plot_chart *c)
{
	snprintf(c->title, sizeof(c->title), "Mean random %s latency against IOs outstanding",
		 io_op_name(op));
	plot_axis_set(&c->y, PLOT_LOG10, "mean latency (ms, log scale)");
	return qd_chart(drives, n, op, c, &qd_mean_y);
}

int qd_p99_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
		       struct plot_chart *c)
{
	snprintf(c->title, sizeof(c->title), "99th percentile random %s latency against IOs "
		 "outstanding", io_op_name(op));
	plot_axis_set(&c->y, PLOT_LOG10, "p99 latency (ms, log scale)");
	return qd_chart(drives, n, op, c, &qd_p99_y);
}
