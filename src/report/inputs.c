/*
 * inputs.c — one input file of a report into a `struct report_drive`:
 * a model file through model_load_file() (completed by report_model.c),
 * anything else through import_points_text() with the model fitted on the
 * fly, and for iomodel run results their latency histograms (as a CDF) and
 * per-second timelines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "io/import.h"
#include "io/json_number.h"
#include "io/model_output.h"
#include "report/inputs.h"
#include "util/input_file.h"
#include "util/lat_keys.h"


/* "dir/ocz.json" -> "ocz" */
static void file_stem(const char *path, char *out, size_t len)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);

	snprintf(out, len, "%.*s", (int)n, base);
}

static int load_model(struct report_drive *d, const char *path, const json_t *root,
		      struct errmsg *err)
{
	const json_t *model = json_object_get(root, "model");
	const char *source = json_string_value(json_object_get(root, "source"));
	int ret = model_load_file(path, &d->model, err);

	for (int op = IO_READ; op <= IO_WRITE && !ret; op++) {
		struct op_model *om = &d->model.op[op];

		ret = report_model_complete(om, (enum io_op)op, json_object_get(model,
					    io_op_name(op)), &d->points, path, err);
		d->has_model |= om->has_first_order || om->has_qd;
	}
	if (ret)
		return ret;
	report_model_cache(&d->model, root);
	if (!d->has_model)
		snprintf(d->model_note, sizeof(d->model_note), "the model file has no model");
	if (source && *source)
		snprintf(d->label, sizeof(d->label), "%s", source);
	snprintf(d->origin, sizeof(d->origin), "%s (iomodel model)", path);
	d->model_file = true;
	return 0;
}

/* results[i].histogram.buckets as a cumulative distribution. */
static int load_cdf(struct run_record *r, const json_t *buckets)
{
	size_t n = json_array_size(buckets);
	double total = 0, seen = 0;

	for (size_t i = 0; i < n; i++)
		total += json_number_value(json_array_get(json_array_get(buckets, i), 2));
	if (!n || !(total > 0))
		return 0;
	r->cdf_us = malloc((n + 1) * sizeof(double));
	r->cdf_pct = malloc((n + 1) * sizeof(double));
	if (!r->cdf_us || !r->cdf_pct)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const json_t *b = json_array_get(buckets, i);
		double low = json_number_value(json_array_get(b, 0));
		double width = json_number_value(json_array_get(b, 1));

		if (i == 0) {
			r->cdf_us[r->n_cdf] = low / 1e3;
			r->cdf_pct[r->n_cdf++] = 0;
		}
		seen += json_number_value(json_array_get(b, 2));
		r->cdf_us[r->n_cdf] = (low + width) / 1e3;
		r->cdf_pct[r->n_cdf++] = 100 * seen / total;
	}
	return 0;
}

static int load_timeline(struct run_record *r, const json_t *tl)
{
	size_t n = json_array_size(tl);

	if (!n)
		return 0;
	r->tl_t_s = malloc(n * sizeof(double));
	r->tl_iops = malloc(n * sizeof(double));
	r->tl_mib_s = malloc(n * sizeof(double));
	r->tl_max_lat_us = malloc(n * sizeof(double));
	if (!r->tl_t_s || !r->tl_iops || !r->tl_mib_s || !r->tl_max_lat_us)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const json_t *e = json_array_get(tl, i);

		/* the second (t, t + seconds]: plotted at its end */
		r->tl_t_s[i] = json_number_value(json_object_get(e, "t_s")) +
			       json_number_value(json_object_get(e, "seconds"));
		r->tl_iops[i] = json_number_value(json_object_get(e, "iops"));
		r->tl_mib_s[i] = json_number_value(json_object_get(e, "mib_s"));
		r->tl_max_lat_us[i] = json_number_value(json_object_get(e, "max_lat_us"));
	}
	r->n_tl = n;
	return 0;
}

static int load_run_record(struct run_record *r, const json_t *job, const json_t *res)
{
	const json_t *lat = json_object_get(res, "lat_us");
	uint64_t v;
	int ret;

	r->op = strcmp(json_string_value(json_object_get(res, "op")) ?: "", "write")
		? IO_READ : IO_WRITE;
	r->random = json_is_true(json_object_get(job, "random"));
	/* the points of the same file were range-checked on import; never cast unchecked */
	r->bs = json_number_u64(json_object_get(job, "bs"), 1, POINT_SIZE_MAX, &v) ? 0 : v;
	r->qd = json_number_u64(json_object_get(job, "qd"), 1, 65536, &v) ? 0 : (unsigned)v;
	r->ios = json_number_u64(json_object_get(res, "ios"), 0, UINT64_MAX / 2, &v) ? 0 : v;
	r->iops = json_number_value(json_object_get(res, "iops"));
	r->mib_s = json_number_value(json_object_get(res, "mib_s"));
	for (int i = 0; i < LAT_KEYS; i++)
		r->lat_us[i] = json_number_value(json_object_get(lat, lat_key_names[i]));
	ret = load_cdf(r, json_object_get(json_object_get(res, "histogram"), "buckets"));
	return ret ? ret : load_timeline(r, json_object_get(res, "timeline"));
}

static int load_runs(struct report_drive *d, const json_t *root)
{
	const json_t *results = json_object_get(root, "results");
	size_t n = json_array_size(results);

	if (!n)
		return 0;
	d->runs = calloc(n, sizeof(*d->runs));
	if (!d->runs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const json_t *res = json_array_get(results, i);
		int ret;

		if (json_number_value(json_object_get(res, "ios")) <= 0)
			continue;
		ret = load_run_record(&d->runs[d->n_runs++], json_object_get(root, "job"), res);
		if (ret)
			return ret;
	}
	return 0;
}

static const char *results_kind(const json_t *root, const char *schema)
{
	if (schema && !strcmp(schema, "iomodel.run/1"))
		return "iomodel run";
	if (schema && !strcmp(schema, "iomodel.sweep/1"))
		return "iomodel sweep";
	if (root)
		return "fio";
	return "measurements";
}

/* The model of the drive's points, or the note why there is none. */
static void refit(struct report_drive *d)
{
	struct errmsg fit_err;

	drive_model_release(&d->model);
	d->has_model = !drive_model_fit(&d->points, &d->model, &fit_err);
	snprintf(d->model_note, sizeof(d->model_note), "%s", d->has_model ? "" : fit_err.text);
}

static int load_results(struct report_drive *d, const char *path, const char *text,
			size_t len, const json_t *root, struct import_warnings *warn,
			struct errmsg *err)
{
	const char *schema = json_string_value(json_object_get(root, "schema"));
	const char *brace = root ? NULL : memchr(text, '{', len);
	json_t *notes_root = brace ? json_loadb(brace, len - (size_t)(brace - text),
						JSON_DISABLE_EOF_CHECK, NULL) : NULL;
	int ret = import_points_text_warn(&d->points, path, text, len, warn, err);

	if (!ret && !d->points.len)	/* every job skipped: the warnings say why */
		d->skipped = true;
	if (ret || d->skipped) {
		json_decref(notes_root);
		return ret;
	}
	if (schema && !strcmp(schema, "iomodel.run/1") && load_runs(d, root))
		return errmsg_set(err, -ENOMEM, "%s: out of memory", path);
	snprintf(d->origin, sizeof(d->origin), "%s (%s)", path, results_kind(root, schema));
	report_drive_key(root ? root : notes_root, path, d->key, sizeof(d->key), d->label,
			 sizeof(d->label));
	json_decref(notes_root);
	d->n_files = 1;
	refit(d);
	return 0;
}

int report_drive_load(struct report_drive *d, const char *path, struct import_warnings *warn,
		      struct errmsg *err)
{
	const char *schema;
	json_error_t jerr;
	json_t *root = NULL;
	size_t len = 0;
	char *text = NULL;
	int ret;

	memset(d, 0, sizeof(*d));
	point_set_init(&d->points);
	file_stem(path, d->label, sizeof(d->label));
	ret = input_file_read(path, &text, &len, err);
	if (ret)
		return ret;
	root = json_loadb(text, len, 0, &jerr);		/* NULL: CSV, fio with notes, or broken */
	schema = json_string_value(json_object_get(root, "schema"));
	if (schema && (!strcmp(schema, MODEL_SCHEMA) || !strcmp(schema, MODEL_SCHEMA_V1)))
		ret = load_model(d, path, root, err);
	else if (schema && !strcmp(schema, "iomodel.raid/1"))	/* raid --json, not raid -o */
		ret = errmsg_set(err, -EINVAL, "%s: an array plan (iomodel.raid/1): report draws "
				 "the array's model, which 'iomodel raid -o FILE' writes", path);
	else if ((ret = report_suite_load(d, path, root, schema, err)) == 1)
		ret = load_results(d, path, text, len, root, warn, err);
	json_decref(root);
	free(text);
	if (ret)
		report_drive_release(d);
	return ret;
}

int report_drive_copy(struct report_drive *d, const char *label, const struct drive_model *m,
		      const struct point_set *ps, struct errmsg *err)
{
	memset(d, 0, sizeof(*d));
	point_set_init(&d->points);
	snprintf(d->label, sizeof(d->label), "%s", label && *label ? label : "drive");
	snprintf(d->origin, sizeof(d->origin), "this run's measurements");
	for (size_t i = 0; ps && i < ps->len; i++)
		if (point_set_add(&d->points, &ps->points[i]))
			goto nomem;
	if (m && report_model_copy(&d->model, m))
		goto nomem;
	d->has_model = m != NULL;
	if (!m && ps && !drive_model_fit(&d->points, &d->model, NULL))
		d->has_model = true;
	return 0;
nomem:
	report_drive_release(d);
	return errmsg_set(err, -ENOMEM, "report: out of memory");
}

static void run_record_release(struct run_record *r)
{
	free(r->cdf_us);
	free(r->cdf_pct);
	free(r->tl_t_s);
	free(r->tl_iops);
	free(r->tl_mib_s);
	free(r->tl_max_lat_us);
}

void report_drive_release(struct report_drive *d)
{
	for (size_t i = 0; i < d->n_runs; i++)
		run_record_release(&d->runs[i]);
	free(d->runs);
	report_suite_release(d);
	drive_model_release(&d->model);
	point_set_release(&d->points);
	memset(d, 0, sizeof(*d));
}

/* Move src's run records to the end of dst's. */
static int merge_runs(struct report_drive *dst, struct report_drive *src)
{
	struct run_record *runs;

	if (!src->n_runs)
		return 0;
	runs = realloc(dst->runs, (dst->n_runs + src->n_runs) * sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	memcpy(runs + dst->n_runs, src->runs, src->n_runs * sizeof(*runs));
	dst->runs = runs;
	dst->n_runs += src->n_runs;
	free(src->runs);
	src->runs = NULL;
	src->n_runs = 0;
	return 0;
}

bool report_drives_can_merge(const struct report_drive *a, const struct report_drive *b)
{
	return !a->model_file && !b->model_file && !a->assess.n && !b->assess.n &&
	       !(a->profile.n && b->profile.n) && !(a->state.set && b->state.set);
}

int report_drive_merge(struct report_drive *dst, struct report_drive *src, struct errmsg *err)
{
	int ret = 0;

	if (dst->model_file || src->model_file)
		ret = errmsg_set(err, -EINVAL, "%s: a model file is a drive of its own; it cannot "
				 "share a drive with other files", dst->model_file ? dst->origin
				 : src->origin);
	else if (!report_drives_can_merge(dst, src))
		ret = errmsg_set(err, -EINVAL, "%s and %s: one drive can hold one profile, one "
				 "state and no assessment; give them different names", dst->origin,
				 src->origin);
	if (ret) {
		report_drive_release(src);
		return ret;
	}
	if (!dst->profile.n) {		/* move src's profile and state, if any */
		dst->profile = src->profile;
		src->profile = (struct profile_record){ 0 };
	}
	if (!dst->state.set) {
		dst->state = src->state;
		src->state = (struct state_record){ 0 };
	}
	for (size_t i = 0; !ret && i < src->points.len; i++)
		if (point_set_add(&dst->points, &src->points.points[i]))
			ret = errmsg_set(err, -ENOMEM, "report: out of memory");
	if (!ret && merge_runs(dst, src))
		ret = errmsg_set(err, -ENOMEM, "report: out of memory");
	report_drive_release(src);
	if (ret)
		return ret;
	if (dst->n_files++ == 1)
		snprintf(dst->first_origin, sizeof(dst->first_origin), "%s", dst->origin);
	snprintf(dst->origin, sizeof(dst->origin), "%.280s and %zu more file%s", dst->first_origin,
		 dst->n_files - 1, dst->n_files > 2 ? "s" : "");
	if (dst->points.len)
		refit(dst);
	else		/* a profile and a state: no points to fit, the note says so */
		snprintf(dst->model_note, sizeof(dst->model_note),
			 "profile and state results carry no drive model");
	return 0;
}
