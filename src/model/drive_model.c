/*
 * drive_model.c — fitting the drive model of drive_model.h: the points of
 * each op at every depth, a first-order fit (with caps where they show) per
 * depth that has a size sweep, the erase block, the queue-depth curve, and
 * the verdict on a write cache. Predictions are in drive_predict.c.
 */
#include "drive_model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* By queue depth, then size. */
static int by_qd_then_size(const void *a, const void *b)
{
	const struct perf_point *x = a, *y = b;

	if (x->qd != y->qd)
		return x->qd < y->qd ? -1 : 1;
	return x->size < y->size ? -1 : x->size > y->size;
}

static bool has_random_at(const struct point_set *ps, enum io_op op, unsigned qd)
{
	for (size_t i = 0; i < ps->len; i++)
		if (ps->points[i].op == op && ps->points[i].qd == qd && ps->points[i].random)
			return true;
	return false;
}

/*
 * The op's points at every depth (random ones, or sequential at a depth
 * without random), by (qd, size), into om->points with empty residuals.
 */
static int select_points(const struct point_set *ps, enum io_op op, struct op_model *om)
{
	size_t n = 0;

	om->points = calloc(ps->len ? ps->len : 1, sizeof(*om->points));
	om->residuals = calloc(ps->len ? ps->len : 1, sizeof(*om->residuals));
	if (!om->points || !om->residuals)
		return -ENOMEM;
	for (size_t i = 0; i < ps->len; i++) {
		const struct perf_point *p = &ps->points[i];

		if (p->op == op && p->random == has_random_at(ps, op, p->qd))
			om->points[n++] = *p;
	}
	qsort(om->points, n, sizeof(*om->points), by_qd_then_size);
	for (size_t i = 0; i < n; i++)
		om->residuals[i] = (struct fit_residual){ NAN, NAN, false };
	om->n_points = n;
	return 0;
}

/* The residuals of a depth's points against its (capped) model, and their rms. */
static void depth_residuals(struct op_model *om, struct depth_fit *d)
{
	double sum2 = 0;

	d->n_failing = 0;
	for (size_t i = d->first; i < d->first + d->n_points; i++) {
		const struct perf_point *p = &om->points[i];
		struct fit_residual *r = &om->residuals[i];

		r->predicted_s = caps_seconds(&d->fit, &d->caps, d->qd, p->size);
		r->rel_residual = (point_seconds(p) - r->predicted_s) / r->predicted_s;
		r->fails = fabs(r->rel_residual) > FIRST_ORDER_FAIL_THRESHOLD;
		d->n_failing += r->fails;
		sum2 += r->rel_residual * r->rel_residual;
	}
	d->fit.rms_rel_residual = sqrt(sum2 / (double)d->n_points);	/* of the capped model */
}

/*
 * When the straight line misses an end of the sweep (measured slower), try
 * the capped model; keep it when caps_fit() finds one and its line fits.
 */
static void try_caps(struct op_model *om, struct depth_fit *d)
{
	const struct perf_point *pts = om->points + d->first;
	const struct fit_residual *res = om->residuals + d->first;
	size_t lo, count;
	struct first_order line;

	d->fails_low = res[0].fails && res[0].rel_residual > 0;
	d->fails_high = res[d->n_points - 1].fails && res[d->n_points - 1].rel_residual > 0;
	if (!d->fails_low && !d->fails_high)
		return;
	if (!caps_fit(pts, d->n_points, d->line_rms, &lo, &count, &d->caps))
		return;
	if (first_order_fit(pts + lo, count, &line, NULL, NULL) || line.penalty_clamped) {
		caps_none(&d->caps);
		return;
	}
	d->fit = line;
	d->has_caps = true;
}

/* The iodepth and jobs all of a depth's n points share, or 0 where they differ or are unknown. */
static void depth_split(const struct perf_point *pts, size_t n, struct depth_fit *d)
{
	d->iodepth = pts[0].iodepth;
	d->jobs = pts[0].jobs;
	for (size_t i = 1; i < n; i++) {
		if (pts[i].iodepth != d->iodepth || pts[i].jobs != d->jobs) {
			d->iodepth = d->jobs = 0;
			return;
		}
	}
}

/* The first-order model (and caps) of om->points[first .. first + n). 0 or -ENOMEM. */
static int fit_depth(struct op_model *om, size_t first, size_t n, struct depth_fit *d,
		     struct errmsg *err)
{
	const struct perf_point *pts = om->points + first;
	int ret;

	memset(d, 0, sizeof(*d));
	d->qd = pts[0].qd;
	d->random = pts[0].random;
	d->first = first;
	d->n_points = n;
	depth_split(pts, n, d);
	caps_none(&d->caps);
	ret = first_order_fit(pts, n, &d->fit, om->residuals + first, err);
	if (!ret)
		ret = first_order_two_point(pts[0].size, pts[0].iops, pts[n - 1].size,
					    pts[n - 1].iops, &d->two_point, err);
	if (ret)
		return ret;
	d->two_point_sizes[0] = pts[0].size;
	d->two_point_sizes[1] = pts[n - 1].size;
	d->line_rms = d->fit.rms_rel_residual;
	try_caps(om, d);
	depth_residuals(om, d);
	return 0;
}

/* Fit every depth of om->points that has two sizes or more. */
static int fit_depths(struct op_model *om, enum io_op op, struct errmsg *err)
{
	struct errmsg why = { "" };
	size_t i = 0, j;

	om->depths = calloc(om->n_points ? om->n_points : 1, sizeof(*om->depths));
	if (!om->depths)
		return errmsg_set(err, -ENOMEM, "out of memory");
	for (; i < om->n_points; i = j) {
		for (j = i; j < om->n_points && om->points[j].qd == om->points[i].qd; j++)
			;
		if (om->points[i].size == om->points[j - 1].size)
			continue;
		if (fit_depth(om, i, j - i, &om->depths[om->n_depths], &why) == -ENOMEM)
			return errmsg_set(err, -ENOMEM, "out of memory");
		om->n_depths += !why.text[0];
		why.text[0] = '\0';
	}
	if (!om->n_depths) {
		snprintf(om->note, sizeof(om->note), "no first-order model: %s has %s", io_op_name(op),
			 om->n_points ? "one request size at every queue depth" : "no points");
		return 0;
	}
	om->has_first_order = true;
	om->fit_qd = om->depths[0].qd;
	om->fit = om->depths[0].fit;
	om->two_point = om->depths[0].two_point;
	memcpy(om->two_point_sizes, om->depths[0].two_point_sizes, sizeof(om->two_point_sizes));
	om->n_failing = om->depths[0].n_failing;
	return 0;
}

static int fit_first_order(const struct point_set *ps, enum io_op op, struct op_model *om,
			   double read_bps, struct errmsg *err)
{
	const struct depth_fit *d0;
	int ret = select_points(ps, op, om);

	if (ret)
		return errmsg_set(err, ret, "out of memory");
	ret = fit_depths(om, op, err);
	if (ret || !om->has_first_order)
		return ret;
	d0 = &om->depths[0];
	/* the erase-block fit has three parameters: it needs sizes to spare */
	if (op == IO_WRITE && read_bps > 0 && d0->qd == 1 && !d0->has_caps &&
	    d0->n_points >= ERASE_BLOCK_MIN_POINTS) {
		/* an erase-block fit that cannot run is no error */
		om->has_erase_block = !erase_block_fit(om->points + d0->first, d0->n_points,
						       read_bps, &om->erase_block, NULL);
	}
	return 0;
}

static int by_size_then_qd(const void *a, const void *b)
{
	const struct perf_point *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->qd < y->qd ? -1 : x->qd > y->qd;
}

/*
 * The size of `op` measured at the most distinct depths (0 if none), among
 * its random points, or its sequential ones when it has no random ones.
 */
static uint64_t qd_size_of(const struct point_set *ps, enum io_op op, bool random,
			   size_t *depths)
{
	struct perf_point *pts = calloc(ps->len ? ps->len : 1, sizeof(*pts));
	uint64_t best = 0;
	size_t n = 0, count = 0;

	*depths = 0;
	if (!pts)
		return 0;
	for (size_t i = 0; i < ps->len; i++)
		if (ps->points[i].op == op && ps->points[i].random == random)
			pts[n++] = ps->points[i];
	qsort(pts, n, sizeof(*pts), by_size_then_qd);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || pts[i].size != pts[i - 1].size)
			count = 0;
		if (i == 0 || pts[i].size != pts[i - 1].size || pts[i].qd != pts[i - 1].qd)
			count++;
		if (count > *depths) {
			*depths = count;
			best = pts[i].size;
		}
	}
	free(pts);
	return best;
}

/* Residuals of the depth group's points that no first-order fit covers. */
static void qd_residuals(struct op_model *om, bool random)
{
	for (size_t i = 0; i < om->n_points; i++) {
		const struct perf_point *p = &om->points[i];
		struct fit_residual *r = &om->residuals[i];

		if (p->size != om->qd_size || p->random != random || !isnan(r->predicted_s))
			continue;
		r->predicted_s = point_seconds(&(struct perf_point){ .qd = p->qd,
			.iops = qd_iops(&om->qd, p->qd) });
		r->rel_residual = (point_seconds(p) - r->predicted_s) / r->predicted_s;
		r->fails = false;	/* the 20 % mark is the first-order model's */
	}
}

/* The queue-depth model; a fit that fails leaves a note, not an error. */
static int fit_qd(const struct point_set *ps, enum io_op op, struct op_model *om,
		  struct errmsg *err)
{
	size_t depths, n = 0;
	bool random = true;
	uint64_t size = qd_size_of(ps, op, random, &depths);
	struct perf_point *pts;
	struct errmsg why;

	if (depths < 2)
		size = qd_size_of(ps, op, random = false, &depths);
	if (depths < 2)
		return 0;
	pts = calloc(ps->len, sizeof(*pts));
	if (!pts)
		return errmsg_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < ps->len; i++)
		if (ps->points[i].op == op && ps->points[i].random == random &&
		    ps->points[i].size == size)
			pts[n++] = ps->points[i];
	if (qd_fit(pts, n, &om->qd, &why)) {
		if (!om->note[0])
			snprintf(om->note, sizeof(om->note), "no queue-depth model: %.200s", why.text);
	} else {
		om->has_qd = true;
		om->qd_size = size;
		qd_residuals(om, random);
	}
	free(pts);
	return 0;
}

static void choose_erase_block(struct drive_model *m)
{
	const struct op_model *r = &m->op[IO_READ];
	struct op_model *w = &m->op[IO_WRITE];

	/* a fit "detected" on data the first-order model already explains is noise */
	if (w->has_erase_block && w->erase_block.detected &&
	    w->erase_block.first_order_rms > ERASE_BLOCK_MIN_FIRST_ORDER_RMS) {
		w->erase_block_bytes = w->erase_block.unit_bytes;
		w->erase_block_method = "fit";
	} else if (r->has_first_order && w->has_first_order && w->fit.penalty_s > 1e-3 &&
		   w->fit.penalty_s > MERGE_SIGNATURE_RATIO * r->fit.penalty_s) {
		w->erase_block_bytes = erase_block_upper_bound(w->fit.penalty_s, w->fit.str_bps,
							       r->fit.str_bps);
		w->erase_block_method = "penalty bound";
	}
}

/* Writes faster than reads (same depth) or than any interface: a cache took them. */
static void judge_write_cache(struct drive_model *m)
{
	const struct op_model *r = &m->op[IO_READ], *w = &m->op[IO_WRITE];
	struct write_cache *c = &m->cache;

	if (!w->has_first_order)
		return;
	c->write_bps = w->fit.str_bps;
	for (size_t i = 0; i < r->n_depths; i++)
		if (r->depths[i].qd == w->fit_qd)
			c->read_bps = r->depths[i].fit.str_bps;
	if (!c->read_bps && r->has_first_order)
		c->read_bps = r->fit.str_bps;
	c->above_interface = c->write_bps > INTERFACE_MAX_BPS;
	c->absorbs = c->above_interface ||
		     (c->read_bps > 0 && c->write_bps > CACHE_WRITE_READ_RATIO * c->read_bps);
}

int drive_model_fit(const struct point_set *ps, struct drive_model *m, struct errmsg *err)
{
	int ret = 0;

	memset(m, 0, sizeof(*m));
	for (int op = IO_READ; op <= IO_WRITE && !ret; op++) {
		double read_bps = m->op[IO_READ].has_first_order ? m->op[IO_READ].fit.str_bps : 0;

		ret = fit_first_order(ps, (enum io_op)op, &m->op[op], read_bps, err);
		if (!ret)
			ret = fit_qd(ps, (enum io_op)op, &m->op[op], err);
	}
	if (!ret) {
		choose_erase_block(m);
		judge_write_cache(m);
	}
	if (!ret && !m->op[0].has_first_order && !m->op[1].has_first_order &&
	    !m->op[0].has_qd && !m->op[1].has_qd)
		ret = errmsg_set(err, -EINVAL, "nothing to fit: no operation has two request sizes "
				 "at one queue depth or one size at two queue depths");
	if (!ret)
		ret = drive_model_check(m, err);	/* the fits keep to it; a guard */
	if (ret)
		drive_model_release(m);
	return ret;
}

void drive_model_release(struct drive_model *m)
{
	for (int op = 0; op < 2; op++) {
		free(m->op[op].points);
		free(m->op[op].residuals);
		free(m->op[op].depths);
	}
	memset(m, 0, sizeof(*m));
}
