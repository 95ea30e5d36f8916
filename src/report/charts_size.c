/*
 * charts_size.c — the charts against request size at queue depth 1 (or at
 * the depth of a drive's size sweep, named in its legend): random
 * throughput (MiB/s) and time per IO (the access tax), each with the
 * measured points, the first-order model curve (with its caps, caps_seconds), its
 * asymptotes, and for writes the erase-block model (erase_block_seconds)
 * and the erase block the model reports; and, where the model found an
 * erase block, the time per write above the model's penalty + size/STR on a
 * linear scale: the merge steps, flat at one merge while writes fit inside a
 * unit and climbing to two once they span one.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "report/charts.h"
#include "util/units.h"

#define CURVE_STEPS_PER_OCTAVE 16

/* What a chart plots for IOs of `size` bytes taking `seconds` each, `q` at a time. */
typedef double (*size_y_fn)(double size, double seconds, double q);

static double y_mib_s(double size, double seconds, double q)
{
	return q * size / seconds / MIB;
}

static double y_ms(double size, double seconds, double q)
{
	(void)size;
	(void)q;
	return seconds * 1e3;
}

static const struct op_model *first_order_of(const struct report_drive *d, enum io_op op)
{
	return d->has_model && d->model.op[op].has_first_order ? &d->model.op[op] : NULL;
}

/* A model, or sweep points of two sizes: one size alone is no chart against size. */
bool size_chart_wants(const struct report_drive *d, enum io_op op)
{
	bool random = chart_sweep_random(d, op);
	uint64_t size = 0;

	if (first_order_of(d, op))
		return true;
	for (size_t i = 0; i < d->points.len; i++) {
		const struct perf_point *p = &d->points.points[i];

		if (!chart_is_sweep_point(d, p, op, random))
			continue;
		if (size && p->size != size)
			return true;
		size = p->size;
	}
	return false;
}

/* The drive's legend entry and its measured points; *any says if it had points. */
static int add_measured(struct plot_chart *c, const struct report_drive *d, unsigned i,
			enum io_op op, size_y_fn y, bool has_model)
{
	bool random = chart_sweep_random(d, op), any = false;
	unsigned q = chart_sweep_qd(d, op);
	struct plot_series *s;
	char label[192];
	int ret = 0;

	for (size_t j = 0; j < d->points.len; j++)
		any |= chart_is_sweep_point(d, &d->points.points[j], op, random);
	snprintf(label, sizeof(label), q == 1 ? "%s" : "%s (QD %u)", d->label, q);
	if (chart_key(c, label, i, i, any && has_model ? PLOT_LINE_MARKS
				     : any ? PLOT_MARKS : PLOT_LINE))
		return -ENOMEM;
	s = plot_chart_add(c, NULL, i, i, PLOT_MARKS);
	if (!s)
		return -ENOMEM;
	for (size_t j = 0; j < d->points.len && !ret; j++) {
		const struct perf_point *p = &d->points.points[j];

		if (chart_is_sweep_point(d, p, op, random))
			ret = plot_series_push(s, (double)p->size,
					       y((double)p->size, point_seconds(p), q));
	}
	return ret;
}

/* The first-order model from lo to hi bytes. */
static int add_model(struct plot_chart *c, const struct op_model *om, unsigned i, double lo,
		     double hi, size_y_fn y)
{
	struct plot_series *s = plot_chart_add(c, NULL, i, i, PLOT_LINE);
	int ret = s ? 0 : -ENOMEM;

	for (double e = log2(lo); s && e <= log2(hi) + 1e-9 && !ret; e += 1.0 / 8) {
		double size = exp2(e);

		ret = plot_series_push(s, size, y(size, om->n_depths
			? caps_seconds(&om->fit, &om->depths[0].caps, om->fit_qd, (uint64_t)size)
			: first_order_seconds(&om->fit, (uint64_t)size), om->fit_qd));
	}
	return ret;
}

/* The erase-block model: steps where writes start to cover whole units. */
static int add_erase_block(struct plot_chart *c, const struct op_model *om, unsigned i,
			   double lo, double hi, size_y_fn y)
{
	struct plot_series *s = plot_chart_add(c, NULL, i, i, PLOT_DOTTED);
	int ret = s ? 0 : -ENOMEM;

	for (double e = log2(lo); s && e <= log2(hi) + 1e-9 && !ret;
	     e += 1.0 / CURVE_STEPS_PER_OCTAVE) {
		uint64_t size = (uint64_t)round(exp2(e) / 512) * 512;

		if (size)
			ret = plot_series_push(s, (double)size,
					       y((double)size, erase_block_seconds(&om->erase_block,
										   size, size), 1));
	}
	return ret;
}

static int add_line(struct plot_chart *c, unsigned i, enum plot_style style, double x0,
		    double y0, double x1, double y1)
{
	struct plot_series *s = plot_chart_add(c, NULL, i, i, style);

	if (!s || plot_series_push(s, x0, y0) || plot_series_push(s, x1, y1))
		return -ENOMEM;
	return 0;
}

static int throughput_drive(struct plot_chart *c, const struct report_drive *d, unsigned i,
			    enum io_op op, double lo, double hi, bool *modelled)
{
	const struct op_model *om = first_order_of(d, op);
	int ret = add_measured(c, d, i, op, y_mib_s, om != NULL);

	*modelled |= om != NULL;

	if (!ret && om)
		ret = add_model(c, om, i, lo, hi, y_mib_s);
	if (!ret && om)
		ret = add_line(c, i, PLOT_DASHED, lo, om->fit_qd * om->fit.str_bps / MIB, hi,
			       om->fit_qd * om->fit.str_bps / MIB);
	return ret;
}

static void size_axes(struct plot_chart *c, const struct report_drive *drives, size_t n,
		      enum io_op op, double *lo, double *hi)
{
	plot_axis_set(&c->x, PLOT_LOG2_BYTES, "request size (bytes, log scale)");
	if (!chart_size_range(drives, n, op, lo, hi)) {
		*lo = 512;
		*hi = 512 * MIB;
	}
}

int throughput_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			   struct plot_chart *c)
{
	bool modelled = false;
	double lo, hi;
	int ret = 0;

	snprintf(c->title, sizeof(c->title), "Random %s throughput against request size",
		 io_op_name(op));
	size_axes(c, drives, n, op, &lo, &hi);
	plot_axis_set(&c->y, PLOT_LOG10, "throughput (MiB/s, log scale)");
	for (size_t i = 0; i < n && !ret; i++)
		if (size_chart_wants(&drives[i], op))
			ret = throughput_drive(c, &drives[i], (unsigned)i, op, lo, hi, &modelled);
	if (!ret && modelled)
		ret = chart_key(c, "model: penalty + size/STR", PLOT_BLACK, 0, PLOT_LINE);
	if (!ret && modelled)
		ret = chart_key(c, "average STR (asymptote)", PLOT_BLACK, 0, PLOT_DASHED);
	return ret;
}

static int erase_block_mark(struct plot_chart *c, const struct report_drive *d, unsigned i,
			    const struct op_model *om)
{
	char label[192], size[32];

	if (!om->erase_block_method || !(om->erase_block_bytes > 0))
		return 0;
	if (om->erase_block_bytes >= MIB)
		snprintf(size, sizeof(size), "%.3g MiB", om->erase_block_bytes / MIB);
	else
		snprintf(size, sizeof(size), "%.3g KiB", om->erase_block_bytes / 1024);
	snprintf(label, sizeof(label), "erase block %s (%s)", size, d->label);
	plot_chart_mark(c, om->erase_block_bytes, label, i);
	return 0;
}

static int access_drive(struct plot_chart *c, const struct report_drive *d, unsigned i,
			enum io_op op, double lo, double hi, bool *modelled, bool *steps)
{
	const struct op_model *om = first_order_of(d, op);
	int ret = add_measured(c, d, i, op, y_ms, om != NULL);

	*modelled |= om != NULL;

	if (!ret && om)
		ret = add_model(c, om, i, lo, hi, y_ms);
	if (!ret && om)		/* the asymptotes: the penalty, and size / STR */
		ret = add_line(c, i, PLOT_DASHED, lo, om->fit.penalty_s * 1e3, hi,
			       om->fit.penalty_s * 1e3);
	if (!ret && om) {	/* from a tenth of the penalty on: the knee, not the dust */
		double x0 = fmax(lo, fmin(hi, om->fit.penalty_s * om->fit.str_bps / 10));

		ret = add_line(c, i, PLOT_DASHED, x0, x0 / om->fit.str_bps * 1e3, hi,
			       hi / om->fit.str_bps * 1e3);
	}
	if (!ret && om && op == IO_WRITE && om->has_erase_block && om->erase_block.detected) {
		ret = add_erase_block(c, om, i, lo, hi, y_ms);
		*steps = true;
	}
	if (!ret && om && op == IO_WRITE)
		ret = erase_block_mark(c, d, i, om);
	return ret;
}

int access_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
		       struct plot_chart *c)
{
	bool modelled = false, steps = false;
	double lo, hi;
	int ret = 0;

	snprintf(c->title, sizeof(c->title), "Time per random %s against request size",
		 io_op_name(op));
	size_axes(c, drives, n, op, &lo, &hi);
	plot_axis_set(&c->y, PLOT_LOG10, "time per IO (ms, log scale)");
	for (size_t i = 0; i < n && !ret; i++)
		if (size_chart_wants(&drives[i], op))
			ret = access_drive(c, &drives[i], (unsigned)i, op, lo, hi, &modelled, &steps);
	if (!ret && modelled)
		ret = chart_key(c, "model: penalty + size/STR", PLOT_BLACK, 0, PLOT_LINE);
	if (!ret && modelled)
		ret = chart_key(c, "asymptotes: penalty, size/STR", PLOT_BLACK, 0, PLOT_DASHED);
	if (!ret && steps)
		ret = chart_key(c, "model with erase-block merges", PLOT_BLACK, 0, PLOT_DOTTED);
	return ret;
}

/* --- the merge steps ------------------------------------------------------------------ */

static const struct erase_block_model *merges_of(const struct report_drive *d, enum io_op op)
{
	const struct op_model *om = first_order_of(d, op);

	return op == IO_WRITE && om && om->has_erase_block && om->erase_block.detected
		       ? &om->erase_block : NULL;
}

bool merges_chart_wants(const struct report_drive *d, enum io_op op)
{
	return merges_of(d, op) != NULL;
}

/* Time of a write of `size` above the erase-block model's penalty + size/W, ms. */
static double above_ms(const struct erase_block_model *m, double size, double seconds)
{
	return (seconds - m->penalty_s - size / m->write_bps) * 1e3;
}

static int merges_drive(struct plot_chart *c, const struct report_drive *d, unsigned i,
			double lo, double hi)
{
	const struct erase_block_model *m = merges_of(d, IO_WRITE);
	bool random = chart_sweep_random(d, IO_WRITE);
	struct plot_series *s;
	int ret = chart_key(c, d->label, i, i, PLOT_LINE_MARKS);

	s = ret ? NULL : plot_chart_add(c, NULL, i, i, PLOT_MARKS);
	for (size_t j = 0; s && j < d->points.len && !ret; j++) {
		const struct perf_point *p = &d->points.points[j];

		if (chart_is_sweep_point(d, p, IO_WRITE, random) && p->qd == 1)
			ret = plot_series_push(s, (double)p->size,
					       above_ms(m, (double)p->size, point_seconds(p)));
	}
	s = ret || !s ? NULL : plot_chart_add(c, NULL, i, i, PLOT_LINE);
	for (double e = log2(lo); s && e <= log2(hi) + 1e-9 && !ret;
	     e += 1.0 / CURVE_STEPS_PER_OCTAVE) {
		uint64_t size = (uint64_t)round(exp2(e) / 512) * 512;

		if (size)
			ret = plot_series_push(s, (double)size,
					       above_ms(m, (double)size,
							erase_block_seconds(m, size, size)));
	}
	if (!s && !ret)
		ret = -ENOMEM;
	if (!ret)
		ret = erase_block_mark(c, d, i, first_order_of(d, IO_WRITE));
	return ret;
}

int merges_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
		       struct plot_chart *c)
{
	double lo, hi;
	int ret = 0;

	snprintf(c->title, sizeof(c->title), "Random %s time above penalty + size/STR: merges",
		 io_op_name(op));
	size_axes(c, drives, n, op, &lo, &hi);
	plot_axis_set(&c->y, PLOT_LINEAR, "time above penalty + size/STR (ms)");
	for (size_t i = 0; i < n && !ret; i++)
		if (merges_chart_wants(&drives[i], op))
			ret = merges_drive(c, &drives[i], (unsigned)i, lo, hi);
	if (!ret)
		ret = chart_key(c, "erase-block model: merges of partly written units",
				PLOT_BLACK, 0, PLOT_LINE);
	return ret;
}
