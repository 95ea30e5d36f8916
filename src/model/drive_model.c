/* drive_model.c — fitting and predicting with the drive model of drive_model.h. */
#include "drive_model.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_size(const void *a, const void *b)
{
	const struct perf_point *x = a, *y = b;

	return x->size < y->size ? -1 : x->size > y->size;
}

/* The op's points at queue depth 1: random ones, or sequential when there is no random. */
static size_t select_qd1(const struct point_set *ps, enum io_op op, struct perf_point *out)
{
	size_t n = 0;

	for (int want_random = 1; want_random >= 0 && n == 0; want_random--)
		for (size_t i = 0; i < ps->len; i++) {
			const struct perf_point *p = &ps->points[i];

			if (p->op == op && p->qd == 1 && p->random == (bool)want_random)
				out[n++] = *p;
		}
	qsort(out, n, sizeof(*out), by_size);
	return n;
}

static int fit_first_order(const struct point_set *ps, enum io_op op, struct op_model *om,
			   double read_bps, struct errmsg *err)
{
	struct perf_point *pts = calloc(ps->len ? ps->len : 1, sizeof(*pts));
	size_t n;
	int ret;

	if (!pts)
		return errmsg_set(err, -ENOMEM, "out of memory");
	n = select_qd1(ps, op, pts);
	om->points = pts;
	om->n_points = n;
	if (n < 2 || pts[0].size == pts[n - 1].size) {
		snprintf(om->note, sizeof(om->note), "no first-order model: %s has %s at queue depth 1",
			 io_op_name(op), n ? "one request size" : "no points");
		return 0;
	}
	om->residuals = calloc(n, sizeof(*om->residuals));
	if (!om->residuals)
		return errmsg_set(err, -ENOMEM, "out of memory");
	ret = first_order_fit(pts, n, &om->fit, om->residuals, err);
	if (!ret)
		ret = first_order_two_point(pts[0].size, pts[0].iops, pts[n - 1].size,
					    pts[n - 1].iops, &om->two_point, err);
	if (ret)
		return ret;
	om->two_point_sizes[0] = pts[0].size;
	om->two_point_sizes[1] = pts[n - 1].size;
	om->has_first_order = true;
	for (size_t i = 0; i < n; i++)
		om->n_failing += om->residuals[i].fails;
	/* the erase-block fit has three parameters: it needs sizes to spare */
	if (op == IO_WRITE && read_bps > 0 && n >= ERASE_BLOCK_MIN_POINTS) {
		ret = erase_block_fit(pts, n, read_bps, &om->erase_block, err);
		om->has_erase_block = !ret;
		ret = 0;	/* an erase-block fit that cannot run is no error */
	}
	return ret;
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

static int fit_qd(const struct point_set *ps, enum io_op op, struct op_model *om,
		  struct errmsg *err)
{
	size_t depths, n = 0;
	bool random = true;
	uint64_t size = qd_size_of(ps, op, random, &depths);
	struct perf_point *pts;
	int ret;

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
	ret = qd_fit(pts, n, &om->qd, err);
	free(pts);
	if (ret)
		return ret;
	om->has_qd = true;
	om->qd_size = size;
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
	if (!ret)
		choose_erase_block(m);
	if (!ret && !m->op[0].has_first_order && !m->op[1].has_first_order &&
	    !m->op[0].has_qd && !m->op[1].has_qd)
		ret = errmsg_set(err, -EINVAL, "nothing to fit: no operation has two request sizes "
				 "at queue depth 1 or one size at two queue depths");
	if (ret)
		drive_model_release(m);
	return ret;
}

void drive_model_release(struct drive_model *m)
{
	for (int op = 0; op < 2; op++) {
		free(m->op[op].points);
		free(m->op[op].residuals);
	}
	memset(m, 0, sizeof(*m));
}

int drive_model_predict(const struct drive_model *m, enum io_op op, uint64_t size,
			unsigned qd, uint64_t align, struct prediction *out, struct errmsg *err)
{
	const struct op_model *om = &m->op[op];
	double t, k;

	if (!om->has_first_order)
		return errmsg_set(err, -EINVAL, "the model has no %s sizes to predict from (%s)",
				  io_op_name(op), om->note[0] ? om->note : "no first-order fit");
	if (qd > 1 && !om->has_qd)
		return errmsg_set(err, -EINVAL, "the model has no %s queue-depth data: "
				  "predictions need queue depth 1, or a fit with a depth sweep",
				  io_op_name(op));
	memset(out, 0, sizeof(*out));
	if (om->has_erase_block && om->erase_block.detected) {
		t = erase_block_seconds(&om->erase_block, size, align ? align : size);
		out->merges = erase_block_expected_merges(size, align ? align : size,
							  om->erase_block.unit_bytes);
	} else {
		t = first_order_seconds(&om->fit, size);
	}
	k = qd > 1 ? 1.0 / (om->qd.sat_iops * om->qd.t1_s) : 0;	/* 0 when sat is infinite */
	out->mean_lat_s = t * (1 + (qd - 1) * k);
	out->iops = qd / out->mean_lat_s;
	out->mib_s = out->iops * (double)size / 1048576.0;
	return 0;
}
