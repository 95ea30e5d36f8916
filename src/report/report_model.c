/*
 * report_model.c — the parts of a drive model a report shows that
 * model_load_file() does not read back (it reads what predictions need):
 * confidence intervals, two-point figures, fit quality, erase block,
 * queue-depth gain and the points fitted (with how their qd was made and
 * their latency figures); and a deep copy of a model.
 * Missing or null fields are left at zero or infinity: a report shows what
 * the file has. Sizes are checked (json_number.h) before they are stored:
 * a negative, fractional or huge size_bytes is an error naming its key.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "io/import.h"
#include "io/json_number.h"
#include "io/model_output.h"
#include "report/inputs.h"
#include "util/units.h"

/* Where errors point: the file and "model.read" or "model.write". */
struct where {
	const char *path;
	const char *op;
	struct errmsg *err;
};

/* A size in bytes at `v` (named `key`), 0 when absent; -EINVAL when malformed. */
static int get_size(const struct where *w, const json_t *v, const char *key, uint64_t *out)
{
	int ret = json_number_u64(v, 0, POINT_SIZE_MAX, out);

	if (ret == -ENOENT) {
		*out = 0;
		return 0;
	}
	if (ret)
		return errmsg_set(w->err, -EINVAL, "%s: %s.%s: %s (expected bytes, 0 to 2^53)",
				  w->path, w->op, key, json_number_strerror(ret));
	return 0;
}

/* The number at `key`, or `dflt` when absent or not a number. */
static double num(const json_t *o, const char *key, double dflt)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

/* Element i of the array at `key`, as a number, or `dflt`. */
static double num_i(const json_t *o, const char *key, size_t i, double dflt)
{
	json_t *v = json_array_get(json_object_get(o, key), i);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

static int complete_first_order(struct op_model *om, const json_t *o, const struct where *w)
{
	const json_t *tp = json_object_get(o, "two_point");
	struct first_order *f = &om->fit;

	f->str_lo_bps = num_i(o, "str_ci_mib_s", 0, f->str_bps / MIB) * MIB;
	f->str_hi_bps = num_i(o, "str_ci_mib_s", 1, INFINITY) * MIB;
	f->penalty_lo_s = num_i(o, "penalty_ci_ms", 0, f->penalty_s * 1e3) / 1e3;
	f->penalty_hi_s = num_i(o, "penalty_ci_ms", 1, f->penalty_s * 1e3) / 1e3;
	f->rms_rel_residual = num(o, "rms_rel_residual", NAN);
	if (json_is_object(tp)) {
		om->two_point.str_bps = num(tp, "str_mib_s", 0) * MIB;
		om->two_point.penalty_s = num(tp, "penalty_ms", 0) / 1e3;
		const json_t *sizes = json_object_get(tp, "size_bytes");
		int ret;

		if ((ret = get_size(w, json_array_get(sizes, 0), "two_point.size_bytes[0]",
				    &om->two_point_sizes[0])) ||
		    (ret = get_size(w, json_array_get(sizes, 1), "two_point.size_bytes[1]",
				    &om->two_point_sizes[1])))
			return ret;
	}
	return 0;
}

static void complete_erase_block(struct op_model *om, const json_t *o)
{
	const char *method = json_string_value(json_object_get(o, "erase_block_method"));

	om->erase_block_bytes = num(o, "erase_block_mib", 0) * MIB;
	if (method && !strcmp(method, "fit"))
		om->erase_block_method = "fit";
	else if (method && !strcmp(method, "penalty bound"))
		om->erase_block_method = "penalty bound";
	else if (method && !strcmp(method, "raid row"))
		om->erase_block_method = "raid row";
	else
		om->erase_block_method = NULL;
}

static int complete_queue_depth(struct op_model *om, const json_t *o, const struct where *w)
{
	const json_t *qd = json_object_get(o, "queue_depth");

	if (!om->has_qd || !json_is_object(qd))
		return 0;
	om->qd.gain32 = num(qd, "gain_qd32", NAN);
	om->qd.rms_rel_residual = num(qd, "rms_rel_residual", NAN);
	return get_size(w, json_object_get(qd, "size_bytes"), "queue_depth.size_bytes",
			&om->qd_size);
}

/* Point i of model.<op>.points[], or false when it is unusable. */
static bool read_point(const json_t *p, enum io_op op, struct perf_point *pt,
		       struct fit_residual *r)
{
	double predicted = num(p, "predicted_iops", 0), qd = num(p, "qd", 1);
	const json_t *random = json_object_get(p, "random");

	*pt = (struct perf_point){ .op = op, .random = !json_is_false(random) };
	if (!(qd >= 1 && qd <= 65536) || qd != floor(qd))
		return false;
	pt->qd = (unsigned)qd;
	pt->size = num(p, "size_bytes", 0) >= 1 && num(p, "size_bytes", 0) < 0x1p63
		   ? (uint64_t)num(p, "size_bytes", 0) : 0;
	pt->iops = num(p, "iops", 0);
	pt->mean_lat_s = num(p, "mean_lat_ms", 0) / 1e3;
	if (!pt->size || !(pt->iops > 0) || !isfinite(pt->iops))
		return false;
	r->predicted_s = predicted > 0 ? pt->qd / predicted : NAN;
	r->rel_residual = num(p, "rel_residual", NAN);
	r->fails = json_is_true(json_object_get(p, "model_fails"));
	return true;
}

/* Which of the points the depth fits cover (v2 points are by qd, then size). */
static void index_depths(struct op_model *om, const json_t *arr)
{
	for (size_t k = 0; k < om->n_depths; k++) {
		struct depth_fit *d = &om->depths[k];

		d->n_points = 0;
		for (size_t i = 0; i < om->n_points; i++) {
			const char *by = json_string_value(json_object_get(json_array_get(arr, i),
									   "fitted_by"));
			bool first_order = by ? !strcmp(by, "first_order") : om->points[i].qd == 1;

			if (om->points[i].qd != d->qd || !first_order)
				continue;
			if (!d->n_points)
				d->first = i;
			d->n_points++;
			d->n_failing += om->residuals[i].fails;
		}
	}
	om->n_failing = om->n_depths ? om->depths[0].n_failing : 0;
}

/* The points of model.<op>.points[] into the op model and the point set. */
static int complete_points(struct op_model *om, enum io_op op, const json_t *o,
			   struct point_set *ps, const struct where *w)
{
	const json_t *arr = json_object_get(o, "points");
	size_t n = json_array_size(arr);

	if (!n)
		return 0;
	om->points = calloc(n, sizeof(*om->points));
	om->residuals = calloc(n, sizeof(*om->residuals));
	if (!om->points || !om->residuals)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const json_t *p = json_array_get(arr, i);
		struct perf_point pt;
		uint64_t size;
		char key[48];
		int ret;

		/* a size out of range is an error; a point otherwise unusable ends the list */
		snprintf(key, sizeof(key), "points[%zu].size_bytes", i);
		if ((ret = get_size(w, json_object_get(p, "size_bytes"), key, &size)))
			return ret;
		if (!read_point(p, op, &pt, &om->residuals[om->n_points]))
			break;	/* keep the points by index with depths[]: stop at a bad one */
		snprintf(key, sizeof(key), "%s.points[%zu]", w->op, i);
		if ((ret = model_point_extras_load(p, key, &pt, w->path, w->err)))
			return ret;
		om->points[om->n_points++] = pt;
		if (point_set_add(ps, &pt))
			return -ENOMEM;
	}
	index_depths(om, arr);
	return 0;
}

int report_model_complete(struct op_model *om, enum io_op op, const json_t *o,
			  struct point_set *ps, const char *path, struct errmsg *err)
{
	struct where w = { path, op == IO_READ ? "model.read" : "model.write", err };
	int ret;

	if (!json_is_object(o))
		return 0;
	if (om->has_first_order && (ret = complete_first_order(om, o, &w)))
		return ret;
	if (op == IO_WRITE)
		complete_erase_block(om, o);
	if ((ret = complete_queue_depth(om, o, &w)))
		return ret;
	ret = complete_points(om, op, o, ps, &w);
	if (ret == -ENOMEM)
		errmsg_set(err, ret, "%s: out of memory", path);
	return ret;
}

void report_model_cache(struct drive_model *m, const json_t *root)
{
	const json_t *c = json_object_get(root, "write_cache");

	m->cache.absorbs = json_is_true(json_object_get(c, "absorbs_writes"));
	m->cache.above_interface = json_is_true(json_object_get(c, "above_interface"));
	m->cache.write_bps = num(c, "write_str_mib_s", 0) * MIB;
	m->cache.read_bps = num(c, "read_str_mib_s", 0) * MIB;
}

static void *dup_array(const void *src, size_t n, size_t size, int *ret)
{
	void *p;

	if (!src || !n)
		return NULL;
	p = malloc(n * size);
	if (!p) {
		*ret = -ENOMEM;
		return NULL;
	}
	return memcpy(p, src, n * size);
}

int report_model_copy(struct drive_model *dst, const struct drive_model *src)
{
	int ret = 0;

	*dst = *src;
	for (int op = 0; op < 2; op++) {	/* nothing of src's is left to free on failure */
		dst->op[op].points = NULL;
		dst->op[op].residuals = NULL;
		dst->op[op].depths = NULL;
	}
	for (int op = 0; op < 2; op++) {
		struct op_model *d = &dst->op[op];
		const struct op_model *s = &src->op[op];

		d->points = dup_array(s->points, s->n_points, sizeof(*s->points), &ret);
		d->residuals = dup_array(s->residuals, s->n_points, sizeof(*s->residuals), &ret);
		d->depths = dup_array(s->depths, s->n_depths, sizeof(*s->depths), &ret);
	}
	if (ret)
		drive_model_release(dst);
	return ret;
}
