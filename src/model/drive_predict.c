/*
 * drive_predict.c — predictions from a drive model (drive_model.h): the
 * depth fit nearest to the depth asked, scaled along the queue-depth curve
 * and held under the caps; and the check that a model (fitted, or read from
 * a file someone may have edited) is physical before anything is predicted
 * from it.
 */
#include "model/drive_model.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

const struct depth_fit *op_model_nearest_depth(const struct op_model *om, unsigned qd)
{
	const struct depth_fit *best = NULL;
	double best_d = INFINITY;

	for (size_t i = 0; i < om->n_depths; i++) {
		double d = fabs(log((double)om->depths[i].qd) - log(qd ? (double)qd : 1.0));

		if (d < best_d - 1e-12) {
			best_d = d;
			best = &om->depths[i];
		}
	}
	return best;
}

/* 0 when lo < v (or lo <= v when `closed`) and v finite (or INFINITY when `inf_ok`). */
static int check_value(double v, double lo, bool closed, bool inf_ok, const char *op,
		       const char *what, struct errmsg *err)
{
	bool ok = (closed ? v >= lo : v > lo) && (isfinite(v) || (inf_ok && v == INFINITY));

	return ok ? 0 : errmsg_set(err, -EINVAL, "the %s model has %s %g: not physical "
				   "(expected %s %g%s)", op, what, v, closed ? ">=" : ">", lo,
				   inf_ok ? " or none" : "");
}

static int check_depth(const struct depth_fit *d, const char *op, struct errmsg *err)
{
	int ret = check_value(d->fit.str_bps, 0, false, false, op, "an STR (B/s) of", err);

	if (!ret)
		ret = check_value(d->fit.penalty_s, 0, true, false, op, "an access penalty (s) of",
				  err);
	if (!ret)
		ret = check_value(d->caps.iops, 0, false, true, op, "an IOPS cap of", err);
	if (!ret)
		ret = check_value(d->caps.bps, 0, false, true, op, "a bandwidth cap (B/s) of", err);
	if (!ret && !d->qd)
		ret = errmsg_set(err, -EINVAL, "the %s model has a size fit at queue depth 0", op);
	return ret;
}

static int check_op(const struct op_model *om, const char *op, struct errmsg *err)
{
	const struct erase_block_model *e = &om->erase_block;
	int ret = 0;

	for (size_t i = 0; i < om->n_depths && !ret; i++)
		ret = check_depth(&om->depths[i], op, err);
	if (!ret && om->has_qd)
		ret = check_value(om->qd.t1_s, 0, false, false, op, "a queue-depth t1 (s) of", err);
	if (!ret && om->has_qd)
		ret = check_value(om->qd.sat_iops, 0, false, true, op, "a saturation (IOPS) of", err);
	if (!ret && om->has_erase_block && e->detected) {
		ret = check_value(e->unit_bytes, 0, false, false, op, "an erase block (B) of", err);
		if (!ret)
			ret = check_value(e->write_bps, 0, false, false, op,
					  "an erase-block write STR (B/s) of", err);
		if (!ret)
			ret = check_value(e->merge_s, 0, true, false, op, "a merge cost (s) of", err);
		if (!ret)
			ret = check_value(e->penalty_s, 0, true, false, op,
					  "an erase-block penalty (s) of", err);
	}
	return ret;
}

int drive_model_check(const struct drive_model *m, struct errmsg *err)
{
	int ret = 0;

	for (int op = IO_READ; op <= IO_WRITE && !ret; op++)
		ret = check_op(&m->op[op], io_op_name((enum io_op)op), err);
	return ret;
}

/* g(q) = 1 + (q - 1) k of drive_model.h; 1 without a queue-depth model. */
static double qd_growth(const struct op_model *om, double q)
{
	double k = om->has_qd && isfinite(om->qd.sat_iops) ? 1.0 / (om->qd.sat_iops * om->qd.t1_s)
							   : 0;

	return 1 + (q - 1) * k;
}

/* Per-slot seconds at depth d->qd before the caps: erase block (QD1) or the line. */
static double depth_seconds(const struct op_model *om, const struct depth_fit *d,
			    uint64_t size, uint64_t align, double *merges)
{
	if (d->qd == 1 && om->has_erase_block && om->erase_block.detected) {
		*merges = erase_block_expected_merges(size, align ? align : size,
						      om->erase_block.unit_bytes);
		return erase_block_seconds(&om->erase_block, size, align ? align : size);
	}
	return first_order_seconds(&d->fit, size);
}

/* The time per IO per slot at depth q from depth fit d, along the depth curve. */
static double from_depth(const struct op_model *om, const struct depth_fit *d, uint64_t size,
			 uint64_t align, unsigned q, double *merges)
{
	return depth_seconds(om, d, size, align, merges) * qd_growth(om, q) / qd_growth(om, d->qd);
}

/*
 * From the nearest depth fit `d`; when `q` lies between two fitted depths,
 * the prediction from each, geometrically weighted by how close q is to it
 * on a log scale (the gain of depth is not the same at every size: the two
 * fits around q know better than the 4 KiB curve alone).
 */
static double between_depths(const struct op_model *om, const struct depth_fit *d,
			     uint64_t size, uint64_t align, unsigned q, double *merges)
{
	const struct depth_fit *lo = NULL, *hi = NULL;
	double t_lo, t_hi, w, ignored = 0;

	for (size_t i = 0; i < om->n_depths; i++) {
		if (om->depths[i].qd <= q)
			lo = &om->depths[i];
		if (om->depths[i].qd >= q && !hi)
			hi = &om->depths[i];
	}
	if (!lo || !hi || lo == hi)
		return from_depth(om, d, size, align, q, merges);
	t_lo = from_depth(om, lo, size, align, q, lo == d ? merges : &ignored);
	t_hi = from_depth(om, hi, size, align, q, hi == d ? merges : &ignored);
	w = (log((double)q) - log((double)lo->qd)) / (log((double)hi->qd) - log((double)lo->qd));
	return exp((1 - w) * log(t_lo) + w * log(t_hi));
}

static int predict_from_qd_curve(const struct op_model *om, enum io_op op, uint64_t size,
				 unsigned qd, struct prediction *out, struct errmsg *err)
{
	if (!om->has_qd)
		return errmsg_set(err, -EINVAL, "the model has no %s sizes or depths to predict "
				  "from (%s)", io_op_name(op), om->note[0] ? om->note : "no fit");
	if (size != om->qd_size)
		return errmsg_set(err, -EINVAL, "the model of %s has only a queue-depth curve at "
				  "%" PRIu64 " bytes, no size sweep: it predicts that size only",
				  io_op_name(op), om->qd_size);
	out->mean_lat_s = om->qd.t1_s * qd_growth(om, qd);
	return 0;
}

int drive_model_predict(const struct drive_model *m, enum io_op op, uint64_t size,
			unsigned qd, uint64_t align, struct prediction *out, struct errmsg *err)
{
	const struct op_model *om = &m->op[op];
	const struct depth_fit *d = op_model_nearest_depth(om, qd);
	int ret;

	memset(out, 0, sizeof(*out));
	if (!d) {
		ret = predict_from_qd_curve(om, op, size, qd, out, err);
		if (ret)
			return ret;
	} else if (d->qd != qd && !om->has_qd) {
		return errmsg_set(err, -EINVAL, "the model has %s sizes at queue depth %u and no "
				  "queue-depth curve to go to depth %u from", io_op_name(op), d->qd,
				  qd);
	} else {
		out->fit_qd = d->qd;
		out->fit_iodepth = d->iodepth;
		out->fit_jobs = d->jobs;
		out->mean_lat_s = between_depths(om, d, size, align, qd, &out->merges);
	}
	out->iops = qd / out->mean_lat_s;
	if (d && (out->iops > d->caps.iops || out->iops * (double)size > d->caps.bps)) {
		out->iops = fmin(d->caps.iops, d->caps.bps / (double)size);
		out->mean_lat_s = qd / out->iops;	/* Little's law */
		out->capped = true;
	}
	out->mib_s = out->iops * (double)size / 1048576.0;
	if (!(out->iops > 0) || !isfinite(out->iops) || !(out->mean_lat_s > 0))
		return errmsg_set(err, -EINVAL, "the model gives no finite positive rate for %s "
				  "of %" PRIu64 " bytes at queue depth %u", io_op_name(op), size, qd);
	return 0;
}
