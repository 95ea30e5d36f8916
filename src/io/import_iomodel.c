/*
 * import_iomodel.c — points from iomodel's own JSON: one run (schema
 * "iomodel.run/1", docs/json-schema.md) or a sweep of runs (schema
 * "iomodel.sweep/1", {"schema": ..., "runs": [run, ...]}). One point per
 * results[] element that completed IOs.
 */
#include "import.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "io/json_number.h"

struct iom_ctx {
	struct point_set *ps;
	const char *name;
	struct errmsg *err;
};

/* The member `key` of `obj`; *out NULL and an error naming `path``key` when missing. */
static int member(const struct iom_ctx *c, const json_t *obj, const char *path,
		  const char *key, json_t **out)
{
	*out = json_object_get(obj, key);
	if (!*out)
		return errmsg_set(c->err, -EINVAL, "%s: %s%s: missing", c->name, path, key);
	return 0;
}

static int expected(const struct iom_ctx *c, const char *path, const char *key,
		    const char *what)
{
	return errmsg_set(c->err, -EINVAL, "%s: %s%s: expected %s", c->name, path, key, what);
}

/* A whole-number member, at least `min` and at most `max` (json_number.h). */
static int get_uint(const struct iom_ctx *c, const json_t *obj, const char *path,
		    const char *key, uint64_t min, uint64_t max, uint64_t *out)
{
	char what[80];
	json_t *v;
	int ret = member(c, obj, path, key, &v);

	if (ret)
		return ret;
	if (!json_number_u64(v, min, max, out))
		return 0;
	snprintf(what, sizeof(what), "a whole number from %llu to %llu",
		 (unsigned long long)min, (unsigned long long)max);
	return expected(c, path, key, what);
}

/* A number member (integer or not), finite and not negative. */
static int get_number(const struct iom_ctx *c, const json_t *obj, const char *path,
		      const char *key, double *out)
{
	json_t *v;
	int ret = member(c, obj, path, key, &v);

	if (ret)
		return ret;
	if (json_number_double(v, 0, INFINITY, out))
		return expected(c, path, key, "a non-negative number");
	return 0;
}

/* results[].lat_us.mean, converted to seconds. */
static int get_mean_lat(const struct iom_ctx *c, const json_t *res, const char *path,
			double *out_s)
{
	char lat_path[128];
	double mean_us;
	json_t *lat;
	int ret = member(c, res, path, "lat_us", &lat);

	if (ret)
		return ret;
	if (!json_is_object(lat))
		return expected(c, path, "lat_us", "an object");
	snprintf(lat_path, sizeof(lat_path), "%slat_us.", path);
	ret = get_number(c, lat, lat_path, "mean", &mean_us);
	if (!ret)
		*out_s = mean_us / 1e6;
	return ret;
}

/* results[].lat_us.p50 … p999 in seconds where given as numbers, else left 0 (unknown). */
static void get_percentiles(const json_t *res, double pct_s[LAT_PCTS])
{
	const json_t *lat = json_object_get(res, "lat_us");
	double us;

	for (int i = 0; i < LAT_PCTS; i++)
		if (!json_number_double(json_object_get(lat, lat_key_names[LAT_FIRST_PCT + i]), 0,
					INFINITY, &us))
			pct_s[i] = us / 1e6;
}

/* results[] element `res` (at `path`) of a run whose job gave `base`. */
static int import_result(const struct iom_ctx *c, const json_t *res, const char *path,
			 struct perf_point *base)
{
	const char *op;
	uint64_t ios;
	json_t *v;
	int ret;

	if (!json_is_object(res))
		return errmsg_set(c->err, -EINVAL, "%s: %.*s: expected an object", c->name,
				  (int)strlen(path) - 1, path);
	if ((ret = member(c, res, path, "op", &v)))
		return ret;
	op = json_string_value(v);
	if (!op || (strcmp(op, "read") && strcmp(op, "write")))
		return expected(c, path, "op", "\"read\" or \"write\"");
	base->op = strcmp(op, "read") ? IO_WRITE : IO_READ;
	if ((ret = get_uint(c, res, path, "ios", 0, UINT64_MAX, &ios)) ||
	    (ret = get_number(c, res, path, "iops", &base->iops)) ||
	    (ret = get_mean_lat(c, res, path, &base->mean_lat_s)))
		return ret;
	if (ios == 0 || base->iops <= 0)	/* nothing measured for this op */
		return 0;
	memset(base->clat_pct_s, 0, sizeof(base->clat_pct_s));
	get_percentiles(res, base->clat_pct_s);
	return point_set_add(c->ps, base);
}

/* One run object; `prefix` is its key path ("" or "runs[3]."). */
static int import_run(const struct iom_ctx *c, const json_t *run, const char *prefix)
{
	struct perf_point base = { 0 };
	char path[96];
	uint64_t qd;
	json_t *job, *results, *random;
	int ret;

	snprintf(path, sizeof(path), "%sjob.", prefix);
	if ((ret = member(c, run, prefix, "job", &job)))
		return ret;
	if (!json_is_object(job))
		return expected(c, prefix, "job", "an object");
	if ((ret = get_uint(c, job, path, "bs", 1, POINT_SIZE_MAX, &base.size)) ||
	    (ret = get_uint(c, job, path, "qd", 1, UINT_MAX, &qd)) ||
	    (ret = get_uint(c, job, path, "align", 0, POINT_SIZE_MAX, &base.align)) ||
	    (ret = member(c, job, path, "random", &random)))
		return ret;
	if (!json_is_boolean(random))
		return expected(c, path, "random", "true or false");
	base.random = json_is_true(random);
	base.qd = (unsigned)qd;
	if ((ret = member(c, run, prefix, "results", &results)))
		return ret;
	if (!json_is_array(results))
		return expected(c, prefix, "results", "an array");
	for (size_t i = 0; i < json_array_size(results); i++) {
		snprintf(path, sizeof(path), "%sresults[%zu].", prefix, i);
		ret = import_result(c, json_array_get(results, i), path, &base);
		if (ret)
			return ret;
	}
	return 0;
}

static int import_sweep(const struct iom_ctx *c, const json_t *root)
{
	json_t *runs;
	char prefix[32];
	int ret = member(c, root, "", "runs", &runs);

	if (ret)
		return ret;
	if (!json_is_array(runs))
		return expected(c, "", "runs", "an array");
	for (size_t i = 0; i < json_array_size(runs); i++) {
		const json_t *run = json_array_get(runs, i);

		if (!json_is_object(run))
			return errmsg_set(c->err, -EINVAL, "%s: runs[%zu]: expected an object",
					  c->name, i);
		snprintf(prefix, sizeof(prefix), "runs[%zu].", i);
		ret = import_run(c, run, prefix);
		if (ret)
			return ret;
	}
	return 0;
}

int import_iomodel(struct point_set *ps, const char *name, const json_t *root,
		   struct errmsg *err)
{
	struct iom_ctx c = { .ps = ps, .name = name, .err = err };
	const char *schema = json_string_value(json_object_get(root, "schema"));

	if (schema && !strcmp(schema, "iomodel.run/1"))
		return import_run(&c, root, "");
	if (schema && !strcmp(schema, "iomodel.sweep/1"))
		return import_sweep(&c, root);
	return errmsg_set(err, -EINVAL,
			  "%s: schema '%s': not supported (iomodel.run/1 or iomodel.sweep/1)",
			  name, schema ? schema : "");
}
