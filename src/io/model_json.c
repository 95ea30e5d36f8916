/* model_json.c — the drive model to and from JSON ("iomodel.model/1"). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_output.h"
#include "util/input_file.h"
#include "util/units.h"

#define MS(s) ((s) * 1e3)
#define MIBS(bps) ((bps) / MIB)

/* A number, or null where it is infinite or not a number. */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *points_json(const struct op_model *om)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < om->n_points; i++) {
		const struct perf_point *p = &om->points[i];
		const struct fit_residual *r = om->residuals ? &om->residuals[i] : NULL;

		json_array_append_new(arr, json_pack("{s:I,s:f,s:f,s:o,s:o,s:o}",
			"size_bytes", (json_int_t)p->size, "iops", p->iops,
			"mib_s", p->iops * (double)p->size / MIB,
			"predicted_iops", r ? num(1.0 / r->predicted_s) : json_null(),
			"rel_residual", r ? num(r->rel_residual) : json_null(),
			"model_fails", r ? json_boolean(r->fails) : json_null()));
	}
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
	const struct first_order *f = &om->fit, *tp = &om->two_point;
	json_t *o;

	if (!om->has_first_order && !om->has_qd)
		return json_null();
	o = json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "note", om->note,
		      "queue_depth", qd_json(om), "points", points_json(om),
		      "str_mib_s", json_null(), "penalty_ms", json_null(),
		      "str_ci_mib_s", json_null(), "penalty_ci_ms", json_null(),
		      "two_point", json_null());
	if (op == IO_WRITE) {
		json_object_set_new(o, "erase_block_mib", om->erase_block_method
				    ? json_real(om->erase_block_bytes / MIB) : json_null());
		json_object_set_new(o, "erase_block_method", om->erase_block_method
				    ? json_string(om->erase_block_method) : json_null());
		json_object_set_new(o, "erase_block", erase_block_json(om));
	}
	if (!om->has_first_order)
		return o;
	json_object_set_new(o, "str_mib_s", json_real(MIBS(f->str_bps)));
	json_object_set_new(o, "penalty_ms", json_real(MS(f->penalty_s)));
	json_object_set_new(o, "str_ci_mib_s", json_pack("[f,o]", MIBS(f->str_lo_bps),
							 num(MIBS(f->str_hi_bps))));
	json_object_set_new(o, "penalty_ci_ms", json_pack("[f,f]", MS(f->penalty_lo_s),
							  MS(f->penalty_hi_s)));
	json_object_set_new(o, "rms_rel_residual", json_real(f->rms_rel_residual));
	json_object_set_new(o, "two_point", json_pack("{s:[I,I],s:f,s:f,s:f}",
		"size_bytes", (json_int_t)om->two_point_sizes[0], (json_int_t)om->two_point_sizes[1],
		"str_mib_s", MIBS(tp->str_bps), "str_kib_s", tp->str_bps / 1024.0,
		"penalty_ms", MS(tp->penalty_s)));
	return o;
}

json_t *model_to_json(const char *source, const struct drive_model *m)
{
	return json_pack("{s:s,s:s,s:s,s:{s:o,s:o}}", "schema", "iomodel.model/1",
			 "iomodel_version", IOMODEL_VERSION, "source", source, "model",
			 "read", op_json(&m->op[IO_READ], IO_READ),
			 "write", op_json(&m->op[IO_WRITE], IO_WRITE));
}

/* Read a positive number at `key` of `obj`; -EINVAL naming `where.key` otherwise. */
static int get_positive(json_t *obj, const char *where, const char *key, double *out,
			const char *path, struct errmsg *err)
{
	json_t *v = json_object_get(obj, key);

	if (!json_is_number(v) || json_number_value(v) <= 0)
		return errmsg_set(err, -EINVAL, "%s: %s.%s: expected a positive number", path,
				  where, key);
	*out = json_number_value(v);
	return 0;
}

static int load_op(json_t *o, enum io_op op, struct op_model *om, const char *path,
		   struct errmsg *err)
{
	const char *name = op == IO_READ ? "model.read" : "model.write";
	json_t *eb = json_object_get(o, "erase_block"), *qd = json_object_get(o, "queue_depth");
	double v = 0;
	int ret = 0;

	if (!json_is_null(json_object_get(o, "str_mib_s"))) {
		ret = get_positive(o, name, "str_mib_s", &v, path, err);
		om->fit.str_bps = v * MIB;
		if (!ret && !json_is_number(json_object_get(o, "penalty_ms")))
			ret = errmsg_set(err, -EINVAL, "%s: %s.penalty_ms: expected a number", path, name);
		om->fit.penalty_s = json_number_value(json_object_get(o, "penalty_ms")) / 1e3;
		om->has_first_order = !ret;
	}
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
		om->has_qd = !ret;
	}
	return ret;
}

int model_load_file(const char *path, struct drive_model *m, struct errmsg *err)
{
	json_error_t jerr;
	json_t *root, *model;
	char *text;
	size_t len;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = input_file_read(path, &text, &len, err);
	if (ret)
		return ret;
	root = json_loadb(text, len, 0, &jerr);
	free(text);
	if (!root)
		return errmsg_set(err, -EINVAL, "%s:%d: %s", path, jerr.line, jerr.text);
	model = json_object_get(root, "model");
	if (strcmp(json_string_value(json_object_get(root, "schema")) ?: "", "iomodel.model/1") ||
	    !json_is_object(model))
		ret = errmsg_set(err, -EINVAL, "%s: not an iomodel model (schema "
				 "\"iomodel.model/1\"); make one with 'iomodel fit' or "
				 "'iomodel characterize -o'", path);
	for (int op = IO_READ; op <= IO_WRITE && !ret; op++) {
		json_t *o = json_object_get(model, io_op_name(op));

		if (json_is_object(o))
			ret = load_op(o, (enum io_op)op, &m->op[op], path, err);
	}
	json_decref(root);
	return ret;
}
