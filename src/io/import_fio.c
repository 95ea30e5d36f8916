/*
 * import_fio.c — points from fio's JSON output (--output-format=json, fio
 * 3.x and 2.x). How options, group reporting and the queue depth are read
 * is described in import.h; in short, each jobs[] entry (or each set of
 * entries that are clones of one job) gives one point per direction that
 * did IO, with qd = iodepth x jobs.
 *
 * fio writes every option as a string, exactly as the job file or command
 * line spelled it, and only the options that were set: a missing option has
 * fio's default.
 */
#include "import.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "util/units.h"

#define FIO_DEFAULT_BS 4096	/* fio's default bs; its JSON has no size of its own */

struct fio_ctx {
	struct point_set *ps;
	const char *name;
	struct errmsg *err;
	const json_t *jobs;	/* the jobs[] array */
	const json_t *global;	/* "global options", or NULL */
};

/* A jobs[] entry's options, resolved against the global ones and fio's defaults. */
struct fio_job {
	bool random;
	uint64_t bs[2];		/* indexed by enum io_op */
	uint64_t ba[2];
	unsigned depth;		/* IOs in flight per job: iodepth, 1 for sync engines */
	unsigned numjobs;
	bool group_reporting;
};

/* What the entries of one job did in one direction. */
struct fio_sum {
	double iops;
	double lat_iops;	/* sum of mean latency (s) x iops, for an IOPS-weighted mean */
};

/* An option the user set: its text, and its key path in *path for messages. */
struct fio_opt {
	const char *value;	/* NULL when not set */
	char path[96];
};

/*
 * Look up the option called `keys[0]` (or one of its aliases, the rest of the
 * NULL-terminated `keys`) in entry i's "job options", then in "global options".
 */
static int get_opt(const struct fio_ctx *c, size_t i, const char *const *keys,
		   struct fio_opt *o)
{
	const json_t *entry_opts = json_object_get(json_array_get(c->jobs, i), "job options");
	const json_t *v = NULL;

	o->value = NULL;
	for (const char *const *k = keys; *k && !v; k++) {
		v = json_object_get(entry_opts, *k);
		snprintf(o->path, sizeof(o->path), "jobs[%zu].job options.%s", i, *k);
	}
	for (const char *const *k = keys; *k && !v; k++) {
		v = json_object_get(c->global, *k);
		snprintf(o->path, sizeof(o->path), "global options.%s", *k);
	}
	if (!v)
		return 0;
	if (!json_is_string(v))
		return errmsg_set(c->err, -EINVAL, "%s: %s: expected a string", c->name, o->path);
	o->value = json_string_value(v);
	return 0;
}

static int opt_error(const struct fio_ctx *c, const struct fio_opt *o, const char *what)
{
	return errmsg_set(c->err, -EINVAL, "%s: %s '%s': %s", c->name, o->path, o->value, what);
}

/* rw (alias readwrite): only whether it is random matters. */
static int get_rw(const struct fio_ctx *c, size_t i, struct fio_job *job)
{
	static const char *const keys[] = { "rw", "readwrite", NULL };
	static const char *const modes[] = {
		"read", "write", "trim", "rw", "readwrite", "trimwrite",
		"randread", "randwrite", "randtrim", "randrw", "randtrimwrite",
	};
	struct fio_opt o;
	size_t len;
	int ret = get_opt(c, i, keys, &o);

	if (ret || !o.value)	/* fio's default is read: sequential */
		return ret;
	len = strcspn(o.value, ":");	/* "randread:8" */
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		if (strlen(modes[m]) == len && !strncmp(o.value, modes[m], len)) {
			job->random = !strncmp(o.value, "rand", 4);
			return 0;
		}
	}
	return opt_error(c, &o, "not a fio rw mode");
}

/*
 * A size option with one value per direction: "4k" for all, "4k,8k" for
 * reads and writes (a third value, for trims, is ignored), an empty value
 * for the default of that direction, and a missing last one repeating the
 * one before.
 */
static int get_size_pair(const struct fio_ctx *c, size_t i, const char *const *keys,
			 const uint64_t defaults[2], uint64_t out[2])
{
	struct fio_opt o;
	const char *parts[2];
	size_t lens[2], nparts = 1;
	int ret = get_opt(c, i, keys, &o);

	out[0] = defaults[0];
	out[1] = defaults[1];
	if (ret || !o.value)
		return ret;
	parts[0] = o.value;
	lens[0] = strcspn(o.value, ",");
	if (o.value[lens[0]] == ',') {
		parts[1] = o.value + lens[0] + 1;
		lens[1] = strcspn(parts[1], ",");
		nparts = 2;
	}
	for (size_t d = 0; d < 2; d++) {
		size_t p = d < nparts ? d : nparts - 1;
		char text[32];

		if (lens[p] == 0)
			continue;
		if (lens[p] >= sizeof(text))
			return opt_error(c, &o, "not a size");
		memcpy(text, parts[p], lens[p]);
		text[lens[p]] = '\0';
		if (parse_size(text, &out[d]) || out[d] == 0)
			return opt_error(c, &o, "not a size");
	}
	return 0;
}

static int get_count(const struct fio_ctx *c, size_t i, const char *key, unsigned *out)
{
	const char *const keys[] = { key, NULL };
	struct fio_opt o;
	uint64_t v;
	int ret = get_opt(c, i, keys, &o);

	*out = 1;
	if (ret || !o.value)
		return ret;
	if (parse_count(o.value, 1, UINT_MAX, &v))
		return opt_error(c, &o, "expected a positive integer");
	*out = (unsigned)v;
	return 0;
}

/* fio runs the synchronous engines at depth 1 whatever iodepth says. */
static bool sync_engine(const char *engine)
{
	static const char *const sync[] = {
		"sync", "psync", "vsync", "pvsync", "pvsync2", "mmap", "splice",
	};

	if (!engine)		/* fio's default on Linux: psync */
		return true;
	for (size_t k = 0; k < sizeof(sync) / sizeof(sync[0]); k++) {
		if (!strcmp(engine, sync[k]))
			return true;
	}
	return false;
}

static int resolve_job(const struct fio_ctx *c, size_t i, struct fio_job *job)
{
	static const char *const bs_keys[] = { "bs", "blocksize", NULL };
	static const char *const ba_keys[] = { "ba", "blockalign", NULL };
	static const char *const engine_keys[] = { "ioengine", NULL };
	static const char *const gr_keys[] = { "group_reporting", NULL };
	static const uint64_t bs_default[2] = { FIO_DEFAULT_BS, FIO_DEFAULT_BS };
	struct fio_opt engine, gr;
	int ret;

	memset(job, 0, sizeof(*job));
	if ((ret = get_rw(c, i, job)) ||
	    (ret = get_size_pair(c, i, bs_keys, bs_default, job->bs)) ||
	    (ret = get_size_pair(c, i, ba_keys, job->bs, job->ba)) ||
	    (ret = get_count(c, i, "iodepth", &job->depth)) ||
	    (ret = get_count(c, i, "numjobs", &job->numjobs)) ||
	    (ret = get_opt(c, i, engine_keys, &engine)) ||
	    (ret = get_opt(c, i, gr_keys, &gr)))
		return ret;
	if (sync_engine(engine.value))
		job->depth = 1;
	/* a bare "group_reporting" flag is written as "" (or not at all) */
	job->group_reporting = gr.value && strcmp(gr.value, "0");
	return 0;
}

/* Whether entries a and b are clones of one job: same name, group and options. */
static bool same_job(const json_t *a, const json_t *b)
{
	static const char *const keys[] = { "jobname", "groupid", "job options" };

	if (!json_is_object(b))
		return false;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const json_t *va = json_object_get(a, keys[k]);
		const json_t *vb = json_object_get(b, keys[k]);

		if ((va || vb) && !json_equal(va, vb))
			return false;
	}
	return true;
}

/* The mean latency in s of a direction: lat_ns (fio 3) or lat in µs (fio 2); 0 if neither. */
static double section_latency(const json_t *sec)
{
	const json_t *lat = json_object_get(sec, "lat_ns");
	double scale = 1e-9;

	if (!lat) {
		lat = json_object_get(sec, "lat");
		scale = 1e-6;
	}
	lat = json_object_get(lat, "mean");
	if (!json_is_number(lat) || !isfinite(json_number_value(lat)) || json_number_value(lat) < 0)
		return 0;
	return json_number_value(lat) * scale;
}

/* Add entry i's read and write sections to sums[IO_READ] and sums[IO_WRITE]. */
static int add_sections(const struct fio_ctx *c, size_t i, struct fio_sum sums[2])
{
	static const char *const dirs[2] = { [IO_READ] = "read", [IO_WRITE] = "write" };
	const json_t *entry = json_array_get(c->jobs, i);

	for (int d = 0; d < 2; d++) {
		const json_t *sec = json_object_get(entry, dirs[d]);
		const json_t *iops = json_object_get(sec, "iops");

		if (!sec)
			continue;
		if (!json_is_number(iops) || !isfinite(json_number_value(iops)) ||
		    json_number_value(iops) < 0)
			return errmsg_set(c->err, -EINVAL, "%s: jobs[%zu].%s.iops: %s", c->name, i,
					  dirs[d], iops ? "expected a non-negative number" : "missing");
		sums[d].iops += json_number_value(iops);
		sums[d].lat_iops += json_number_value(iops) * section_latency(sec);
	}
	return 0;
}

static int add_points(const struct fio_ctx *c, size_t i, const struct fio_job *job,
		      unsigned njobs, const struct fio_sum sums[2])
{
	uint64_t qd = (uint64_t)job->depth * njobs;

	if (qd > UINT_MAX)
		return errmsg_set(c->err, -EINVAL, "%s: jobs[%zu]: queue depth %llu too large",
				  c->name, i, (unsigned long long)qd);
	for (int d = 0; d < 2; d++) {
		struct perf_point p = {
			.op = (enum io_op)d,
			.random = job->random,
			.size = job->bs[d],
			.qd = (unsigned)qd,
			.iops = sums[d].iops,
			.mean_lat_s = sums[d].iops > 0 ? sums[d].lat_iops / sums[d].iops : 0,
			.align = job->ba[d],
		};
		int ret = p.iops > 0 ? point_set_add(c->ps, &p) : 0;

		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The points of entry i and, without group reporting, of the clones of its
 * job further on in jobs[], which are marked in done[].
 */
static int import_job(const struct fio_ctx *c, size_t i, bool *done)
{
	const json_t *entry = json_array_get(c->jobs, i);
	struct fio_sum sums[2] = { { 0, 0 }, { 0, 0 } };
	struct fio_job job;
	unsigned entries = 0;
	int ret;

	if (!json_is_object(entry))
		return errmsg_set(c->err, -EINVAL, "%s: jobs[%zu]: expected an object", c->name, i);
	if ((ret = resolve_job(c, i, &job)))
		return ret;
	for (size_t j = i; j < json_array_size(c->jobs); j++) {
		if (done[j] || (j > i && (job.group_reporting ||
					  !same_job(entry, json_array_get(c->jobs, j)))))
			continue;
		done[j] = true;
		entries++;
		if ((ret = add_sections(c, j, sums)))
			return ret;
	}
	/* fewer entries than numjobs: one entry reports for all of them */
	if (job.group_reporting || entries < job.numjobs)
		entries = job.numjobs;
	return add_points(c, i, &job, entries, sums);
}

int import_fio(struct point_set *ps, const char *name, const json_t *root,
	       struct errmsg *err)
{
	struct fio_ctx c = { .ps = ps, .name = name, .err = err };
	bool *done;
	int ret = 0;

	c.jobs = json_object_get(root, "jobs");
	c.global = json_object_get(root, "global options");
	if (!json_is_array(c.jobs))
		return errmsg_set(err, -EINVAL, "%s: jobs: %s", name,
				  c.jobs ? "expected an array" : "missing");
	if (c.global && !json_is_object(c.global))
		return errmsg_set(err, -EINVAL, "%s: global options: expected an object", name);
	done = calloc(json_array_size(c.jobs) + 1, sizeof(*done));
	if (!done)
		return -ENOMEM;
	for (size_t i = 0; i < json_array_size(c.jobs) && !ret; i++) {
		if (!done[i])
			ret = import_job(&c, i, done);
	}
	free(done);
	return ret;
}
