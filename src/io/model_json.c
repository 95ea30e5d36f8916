/*
 * model_json.c — the drive model to and from JSON ("iomodel.model/2"; files
 * of "iomodel.model/1", whose one first-order model is at queue depth 1, are
 * read too).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/import.h"
#include "io/json_file.h"
#include "io/json_number.h"
#include "io/json_text.h"
#include "model_output.h"
#include "util/units.h"

#define MS(s) ((s) * 1e3)
#define MIBS(bps) ((bps) / MIB)
/* The largest figure a model file may give (MiB/s, ms, MiB, IOPS). */
#define MODEL_NUMBER_MAX 1e15

/* A number, or null where it is infinite or not a number. */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Where a point's residual comes from. */
static const char *fitted_by(const struct op_model *om, size_t i)
{
	if (isnan(om->residuals[i].predicted_s))
		return NULL;
	for (size_t k = 0; k < om->n_depths; k++)
		if (i >= om->depths[k].first && i < om->depths[k].first + om->depths[k].n_points)
			return "first_order";
	return "queue_depth";
}

/* An unsigned count, null when 0 (unknown). */
static json_t *count_or_null(unsigned v)
{
	return v ? json_integer((json_int_t)v) : json_null();
}

/* The point's latency percentiles in ms, keyed as lat_keys.h ("p50", …); null when unknown. */
static json_t *pct_json(const struct perf_point *p)
{
	json_t *o;

	if (!(p->clat_pct_s[0] > 0))
		return json_null();
	o = json_object();
	for (int k = 0; k < LAT_PCTS; k++)
		json_object_set_new(o, lat_key_names[LAT_FIRST_PCT + k], num(MS(p->clat_pct_s[k])));
	return o;
}

/* The point's latency distribution: {"lat_ms": [...], "frac": [...]}; null when unknown. */
static json_t *cdf_json(const struct lat_cdf *c)
{
	json_t *lat, *frac;

	if (!c->n)
		return json_null();
	lat = json_array();
	frac = json_array();
	for (unsigned k = 0; k < c->n; k++) {
		json_array_append_new(lat, json_real(MS(c->lat_s[k])));
		json_array_append_new(frac, json_real(c->frac[k]));
	}
	return json_pack("{s:o,s:o}", "lat_ms", lat, "frac", frac);
}

/* How the point's qd was made and its latency figures, added to `o`. */
static json_t *point_latency_json(json_t *o, const struct perf_point *p)
{
	bool known = p->clat_pct_s[0] > 0 || p->cdf.n;

	json_object_set_new(o, "iodepth", count_or_null(p->iodepth));
	json_object_set_new(o, "numjobs", count_or_null(p->jobs));
	json_object_set_new(o, "latency_kind", !known ? json_null() : json_string(
		p->lat_kind == POINT_LAT_TOTAL ? "total" : "completion"));
	json_object_set_new(o, "lat_pct_ms", pct_json(p));
	json_object_set_new(o, "lat_cdf", cdf_json(&p->cdf));
	return o;
}

static json_t *point_json(const struct op_model *om, size_t i)
{
	const struct perf_point *p = &om->points[i];
	const struct fit_residual *r = om->residuals ? &om->residuals[i] : NULL;
	const char *by = r ? fitted_by(om, i) : NULL;
	double q = p->qd > 1 ? p->qd : 1;

	return point_latency_json(json_pack("{s:I,s:I,s:b,s:f,s:f,s:o,s:o,s:o,s:o,s:o}",
		"size_bytes", (json_int_t)p->size, "qd", (json_int_t)p->qd, "random", p->random,
		"iops", p->iops, "mib_s", p->iops * (double)p->size / MIB,
		"mean_lat_ms", p->mean_lat_s > 0 ? json_real(MS(p->mean_lat_s)) : json_null(),
		"fitted_by", by ? json_string(by) : json_null(),
		"predicted_iops", by ? num(q / r->predicted_s) : json_null(),
		"rel_residual", by ? num(r->rel_residual) : json_null(),
		"model_fails", by ? json_boolean(r->fails) : json_null()), p);
}

static json_t *points_json(const struct op_model *om)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < om->n_points; i++)
		json_array_append_new(arr, point_json(om, i));
	return arr;
}

static json_t *caps_json(const struct depth_fit *d)
{
	if (!d->has_caps)
		return json_null();
	return json_pack("{s:o,s:o}", "iops", num(d->caps.iops), "mib_s", num(MIBS(d->caps.bps)));
}

static json_t *two_point_json(const struct first_order *tp, const uint64_t sizes[2])
{
	return json_pack("{s:[I,I],s:f,s:f,s:f,s:b}", "size_bytes", (json_int_t)sizes[0],
			 (json_int_t)sizes[1], "str_mib_s", MIBS(tp->str_bps),
			 "str_kib_s", tp->str_bps / 1024.0, "penalty_ms", MS(tp->penalty_s),
			 "penalty_clamped", tp->penalty_clamped);
}

static json_t *depth_json(const struct depth_fit *d)
{
	const struct first_order *f = &d->fit;
	json_t *o = json_pack("{s:I,s:b,s:I,s:f,s:f,s:b,s:f,s:[f,o],s:[f,f],s:f,s:f,s:b,s:b,s:o,s:o}",
		"qd", (json_int_t)d->qd, "random", d->random, "n_points", (json_int_t)d->n_points,
		"str_mib_s", MIBS(f->str_bps), "penalty_ms", MS(f->penalty_s),
		"penalty_clamped", f->penalty_clamped, "free_penalty_ms", MS(f->free_penalty_s),
		"str_ci_mib_s", MIBS(f->str_lo_bps), num(MIBS(f->str_hi_bps)),
		"penalty_ci_ms", MS(f->penalty_lo_s), MS(f->penalty_hi_s),
		"rms_rel_residual", f->rms_rel_residual, "line_rms_rel_residual", d->line_rms,
		"line_fails_smallest", d->fails_low, "line_fails_largest", d->fails_high,
		"caps", caps_json(d), "two_point", two_point_json(&d->two_point, d->two_point_sizes));

	json_object_set_new(o, "iodepth", count_or_null(d->iodepth));
	json_object_set_new(o, "numjobs", count_or_null(d->jobs));
	return o;
}

static json_t *depths_json(const struct op_model *om)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < om->n_depths; i++)
		json_array_append_new(arr, depth_json(&om->depths[i]));
	return arr;
}

static json_t *erase_block_json(const struct op_model *om)
{
	const struct erase_block_model *e = &om->erase_block;

	if (!om->has_erase_block)
		return json_null();
	return json_pack("{s:b,s:f,s:[f,f],s:b,s:f,s:f,s:f,s:f,s:f,s:f,s:f}",
			 "detected", e->detected, "unit_mib", e->unit_bytes / MIB,
			 "unit_ci_mib", e->unit_lo_bytes / MIB, e->unit_hi_bytes / MIB,
			 "whole_merge", e->whole_merge,
			 "merge_ms", MS(e->merge_s), "penalty_ms", MS(e->penalty_s),
			 "write_str_mib_s", MIBS(e->write_bps), "read_str_mib_s", MIBS(e->read_bps),
			 "rms_rel_residual", e->rms_rel_residual,
			 "first_order_rms_rel_residual", e->first_order_rms,
			 "upper_bound_mib", erase_block_upper_bound(om->fit.penalty_s,
								    om->fit.str_bps, e->read_bps) / MIB);
}

static json_t *qd_json(const struct op_model *om)
{
	if (!om->has_qd)
		return json_null();
	return json_pack("{s:I,s:f,s:o,s:f,s:f}", "size_bytes", (json_int_t)om->qd_size,
			 "t1_ms", MS(om->qd.t1_s), "sat_iops", num(om->qd.sat_iops),
			 "gain_qd32", om->qd.gain32, "rms_rel_residual", om->qd.rms_rel_residual);
}

static json_t *op_json(const struct op_model *om, enum io_op op)
{
	const struct first_order *f = &om->fit;
	json_t *o;

	if (!om->has_first_order && !om->has_qd)
		return json_null();
	o = json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "note", om->note,
		      "queue_depth", qd_json(om), "points", points_json(om),
		      "depths", depths_json(om), "fit_qd", json_null(),
		      "str_mib_s", json_null(), "penalty_ms", json_null(),
		      "str_ci_mib_s", json_null(), "penalty_ci_ms", json_null(),
		      "two_point", json_null(), "caps", json_null());
	if (op == IO_WRITE) {
		json_object_set_new(o, "erase_block_mib", om->erase_block_method
				    ? json_real(om->erase_block_bytes / MIB) : json_null());
		json_object_set_new(o, "erase_block_method", om->erase_block_method
				    ? json_string(om->erase_block_method) : json_null());
		json_object_set_new(o, "erase_block", erase_block_json(om));
	}
	if (!om->has_first_order)
		return o;
	json_object_set_new(o, "fit_qd", json_integer(om->fit_qd));
	json_object_set_new(o, "str_mib_s", json_real(MIBS(f->str_bps)));
	json_object_set_new(o, "penalty_ms", json_real(MS(f->penalty_s)));
	json_object_set_new(o, "penalty_clamped", json_boolean(f->penalty_clamped));
	json_object_set_new(o, "str_ci_mib_s", json_pack("[f,o]", MIBS(f->str_lo_bps),
							 num(MIBS(f->str_hi_bps))));
	json_object_set_new(o, "penalty_ci_ms", json_pack("[f,f]", MS(f->penalty_lo_s),
							  MS(f->penalty_hi_s)));
	json_object_set_new(o, "rms_rel_residual", json_real(f->rms_rel_residual));
	json_object_set_new(o, "two_point", two_point_json(&om->two_point, om->two_point_sizes));
	json_object_set_new(o, "caps", caps_json(&om->depths[0]));
	return o;
}

static json_t *cache_json(const struct write_cache *c)
{
	return json_pack("{s:b,s:o,s:o,s:b,s:f,s:f}", "absorbs_writes", c->absorbs,
			 "write_str_mib_s", c->write_bps > 0 ? json_real(MIBS(c->write_bps)) : json_null(),
			 "read_str_mib_s", c->read_bps > 0 ? json_real(MIBS(c->read_bps)) : json_null(),
			 "above_interface", c->above_interface,
			 "interface_max_mib_s", MIBS(INTERFACE_MAX_BPS),
			 "write_read_ratio_limit", CACHE_WRITE_READ_RATIO);
}

json_t *model_to_json(const char *source, const struct drive_model *m)
{
	return json_pack("{s:s,s:s,s:o,s:{s:o,s:o},s:o}", "schema", MODEL_SCHEMA,
			 "iomodel_version", IOMODEL_VERSION, "source", json_text(source), "model",
			 "read", op_json(&m->op[IO_READ], IO_READ),
			 "write", op_json(&m->op[IO_WRITE], IO_WRITE),
			 "write_cache", cache_json(&m->cache));
}

/*
 * Read a positive number at `key` of `obj`, at most MODEL_NUMBER_MAX so that
 * scaled to bytes or seconds it stays finite; -EINVAL naming `where.key`.
 */
static int get_positive(json_t *obj, const char *where, const char *key, double *out,
			const char *path, struct errmsg *err)
{
	if (json_number_double(json_object_get(obj, key), DBL_MIN, MODEL_NUMBER_MAX, out))
		return errmsg_set(err, -EINVAL, "%s: %s.%s: expected a positive number up to %g",
				  path, where, key, MODEL_NUMBER_MAX);
	return 0;
}

/* A cap at `key` of `caps`: null or absent is none, else a positive number. */
static double load_cap(json_t *caps, const char *key, double scale)
{
	json_t *v = json_object_get(caps, key);

	return json_is_number(v) ? json_number_value(v) * scale : INFINITY;
}

/* A count at `key`: absent or null is 0 (unknown), else an integer from 1 to 65536. */
static int load_count(const json_t *o, const char *where, const char *key, unsigned *out,
		      const char *path, struct errmsg *err)
{
	const json_t *v = json_object_get(o, key);

	*out = 0;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 65536)
		return errmsg_set(err, -EINVAL, "%s: %s.%s: expected an integer from 1 to 65536 "
				  "or null", path, where, key);
	*out = (unsigned)json_integer_value(v);
	return 0;
}

/* iodepth and numjobs of `o`, whose product must be `qd` when both are given. */
static int load_split(const json_t *o, const char *where, unsigned qd, unsigned *iodepth,
		      unsigned *jobs, const char *path, struct errmsg *err)
{
	int ret = load_count(o, where, "iodepth", iodepth, path, err);

	if (!ret)
		ret = load_count(o, where, "numjobs", jobs, path, err);
	if (!ret && *iodepth && *jobs && (uint64_t)*iodepth * *jobs != qd)
		ret = errmsg_set(err, -EINVAL, "%s: %s: iodepth %u x numjobs %u is not qd %u",
				 path, where, *iodepth, *jobs, qd);
	return ret;
}

/* lat_pct_ms of a point: null or an object of the lat_keys.h percentiles in ms. */
static int load_pct(const json_t *o, const char *where, struct perf_point *pt,
		    const char *path, struct errmsg *err)
{
	const json_t *pct = json_object_get(o, "lat_pct_ms");

	if (!pct || json_is_null(pct))
		return 0;
	for (int k = 0; k < LAT_PCTS; k++) {
		const char *key = lat_key_names[LAT_FIRST_PCT + k];
		double v;

		if (json_number_double(json_object_get(pct, key), DBL_MIN, MODEL_NUMBER_MAX, &v) ||
		    (k && v * 1e-3 < pt->clat_pct_s[k - 1]))
			return errmsg_set(err, -EINVAL, "%s: %s.lat_pct_ms.%s: expected a positive "
					  "number, at least the percentile below", path, where, key);
		pt->clat_pct_s[k] = v * 1e-3;
	}
	return 0;
}

/* lat_cdf of a point: null or {"lat_ms": [...], "frac": [...]} as struct lat_cdf says. */
static int load_cdf(const json_t *o, const char *where, struct lat_cdf *c,
		    const char *path, struct errmsg *err)
{
	const json_t *cdf = json_object_get(o, "lat_cdf");
	const json_t *lat = json_object_get(cdf, "lat_ms"), *frac = json_object_get(cdf, "frac");
	size_t n = json_array_size(lat);

	c->n = 0;
	if (!cdf || json_is_null(cdf))
		return 0;
	if (!n || n > LAT_CDF_MAX || json_array_size(frac) != n)
		goto bad;
	for (size_t k = 0; k < n; k++) {
		if (json_number_double(json_array_get(lat, k), DBL_MIN, MODEL_NUMBER_MAX,
				       &c->lat_s[k]) ||
		    json_number_double(json_array_get(frac, k), DBL_MIN, 1, &c->frac[k]))
			goto bad;
		c->lat_s[k] *= 1e-3;
	}
	c->n = (unsigned)n;
	if (lat_cdf_valid(c))
		return 0;
	c->n = 0;
bad:
	return errmsg_set(err, -EINVAL, "%s: %s.lat_cdf: expected lat_ms and frac, two arrays "
			  "of 1 to %d numbers rising strictly, frac ending at 1", path, where,
			  LAT_CDF_MAX);
}

int model_point_extras_load(const json_t *o, const char *where, struct perf_point *pt,
			    const char *path, struct errmsg *err)
{
	const char *kind = json_string_value(json_object_get(o, "latency_kind"));
	int ret = load_split(o, where, pt->qd, &pt->iodepth, &pt->jobs, path, err);

	if (!ret && kind && strcmp(kind, "completion") && strcmp(kind, "total"))
		ret = errmsg_set(err, -EINVAL, "%s: %s.latency_kind: expected \"completion\", "
				 "\"total\" or null", path, where);
	pt->lat_kind = kind && !strcmp(kind, "total") ? POINT_LAT_TOTAL : POINT_LAT_CLAT;
	if (!ret)
		ret = load_pct(o, where, pt, path, err);
	if (!ret)
		ret = load_cdf(o, where, &pt->cdf, path, err);
	return ret;
}

/* One element of model.OP.depths[] (iomodel.model/2). */
static int load_depth(json_t *o, const char *where, struct depth_fit *d, const char *path,
		      struct errmsg *err)
{
	json_t *qd = json_object_get(o, "qd"), *caps = json_object_get(o, "caps");
	double v = 0;
	int ret = get_positive(o, where, "str_mib_s", &v, path, err);

	d->fit.str_bps = v * MIB;
	if (!ret && !json_is_number(json_object_get(o, "penalty_ms")))
		ret = errmsg_set(err, -EINVAL, "%s: %s.penalty_ms: expected a number", path, where);
	d->fit.penalty_s = json_number_value(json_object_get(o, "penalty_ms")) / 1e3;
	if (!ret && (!json_is_integer(qd) || json_integer_value(qd) < 1 ||
		     json_integer_value(qd) > 65536))
		ret = errmsg_set(err, -EINVAL, "%s: %s.qd: expected an integer from 1 to 65536",
				 path, where);
	d->qd = ret ? 0 : (unsigned)json_integer_value(qd);
	if (!ret)
		ret = load_split(o, where, d->qd, &d->iodepth, &d->jobs, path, err);
	d->caps.iops = load_cap(caps, "iops", 1);
	d->caps.bps = load_cap(caps, "mib_s", MIB);
	d->has_caps = caps_any(&d->caps);
	return ret;
}

/* model.OP.depths[] into om->depths; om->fit and om->fit_qd are depths[0]'s. */
static int load_depths(json_t *arr, enum io_op op, struct op_model *om, const char *path,
		       struct errmsg *err)
{
	size_t n = json_array_size(arr);
	char where[64];
	int ret = 0;

	if (!n)
		return 0;
	om->depths = calloc(n, sizeof(*om->depths));
	if (!om->depths)
		return errmsg_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n && !ret; i++) {
		snprintf(where, sizeof(where), "model.%s.depths[%zu]", io_op_name(op), i);
		ret = load_depth(json_array_get(arr, i), where, &om->depths[i], path, err);
		if (!ret && i && om->depths[i].qd <= om->depths[i - 1].qd)
			ret = errmsg_set(err, -EINVAL, "%s: %s.qd: depths must increase", path, where);
	}
	om->n_depths = ret ? 0 : n;
	om->has_first_order = !ret;
	om->fit_qd = om->depths[0].qd;
	om->fit = om->depths[0].fit;
	return ret;
}

/* iomodel.model/1: the one first-order model, at queue depth 1. */
static int load_v1_first_order(json_t *o, const char *name, struct op_model *om,
			       const char *path, struct errmsg *err)
{
	struct depth_fit *d;
	double v = 0;
	int ret;

	if (json_is_null(json_object_get(o, "str_mib_s")))
		return 0;
	ret = get_positive(o, name, "str_mib_s", &v, path, err);
	if (!ret && !json_is_number(json_object_get(o, "penalty_ms")))
		ret = errmsg_set(err, -EINVAL, "%s: %s.penalty_ms: expected a number", path, name);
	if (ret)
		return ret;
	d = om->depths = calloc(1, sizeof(*om->depths));
	if (!d)
		return errmsg_set(err, -ENOMEM, "out of memory");
	d->qd = 1;
	d->fit.str_bps = v * MIB;
	d->fit.penalty_s = json_number_value(json_object_get(o, "penalty_ms")) / 1e3;
	caps_none(&d->caps);
	om->n_depths = 1;
	om->has_first_order = true;
	om->fit_qd = 1;
	om->fit = d->fit;
	return 0;
}

static int load_op(json_t *o, enum io_op op, bool v1, struct op_model *om, const char *path,
		   struct errmsg *err)
{
	const char *name = op == IO_READ ? "model.read" : "model.write";
	json_t *eb = json_object_get(o, "erase_block"), *qd = json_object_get(o, "queue_depth");
	double v = 0;
	int ret = v1 ? load_v1_first_order(o, name, om, path, err)
		     : load_depths(json_object_get(o, "depths"), op, om, path, err);

	if (!ret && json_is_object(eb) && json_is_true(json_object_get(eb, "detected"))) {
		struct erase_block_model *e = &om->erase_block;

		ret = get_positive(eb, "erase_block", "unit_mib", &v, path, err);
		e->unit_bytes = v * MIB;
		ret = ret ? ret : get_positive(eb, "erase_block", "write_str_mib_s", &v, path, err);
		e->write_bps = v * MIB;
		ret = ret ? ret : get_positive(eb, "erase_block", "merge_ms", &v, path, err);
		e->merge_s = v / 1e3;
		e->penalty_s = json_number_value(json_object_get(eb, "penalty_ms")) / 1e3;
		e->whole_merge = json_is_true(json_object_get(eb, "whole_merge"));
		e->detected = om->has_erase_block = !ret;
	}
	if (!ret && json_is_object(qd)) {
		ret = get_positive(qd, "queue_depth", "t1_ms", &v, path, err);
		om->qd.t1_s = v / 1e3;
		om->qd.sat_iops = json_is_null(json_object_get(qd, "sat_iops")) ? INFINITY
			: json_number_value(json_object_get(qd, "sat_iops"));
		if (!ret && json_object_get(qd, "size_bytes") &&
		    json_number_u64(json_object_get(qd, "size_bytes"), 0, POINT_SIZE_MAX, &om->qd_size))
			ret = errmsg_set(err, -EINVAL, "%s: %s.queue_depth.size_bytes: out of range "
					 "(a whole number of bytes up to 2^53)", path, name);
		om->has_qd = !ret;
	}
	return ret;
}

int model_load_file(const char *path, struct drive_model *m, struct errmsg *err)
{
	json_t *root, *model;
	const char *schema;
	bool v1;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = json_file_load(path, &root, err);
	if (ret)
		return ret;
	model = json_object_get(root, "model");
	schema = json_string_value(json_object_get(root, "schema")) ?: "";
	v1 = !strcmp(schema, MODEL_SCHEMA_V1);
	if ((!v1 && strcmp(schema, MODEL_SCHEMA)) || !json_is_object(model))
		ret = errmsg_set(err, -EINVAL, "%s: not an iomodel model (schema \"%s\" or "
				 "\"%s\"); make one with 'iomodel fit', 'iomodel characterize -o' or, for "
				 "an array, 'iomodel raid -o'",
				 path, MODEL_SCHEMA, MODEL_SCHEMA_V1);
	for (int op = IO_READ; op <= IO_WRITE && !ret; op++) {
		json_t *o = json_object_get(model, io_op_name(op));

		if (json_is_object(o))
			ret = load_op(o, (enum io_op)op, v1, &m->op[op], path, err);
	}
	json_decref(root);
	if (ret)
		drive_model_release(m);
	return ret;
}
