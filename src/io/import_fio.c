/*
 * import_fio.c — points from fio's JSON output (--output-format=json or
 * json+, fio 2.x and 3.x). Each jobs[] entry, or each set of entries that
 * are the processes of one job (numjobs without group_reporting), gives one
 * point per direction that did IO, with qd = iodepth x jobs, both kept on
 * the point, and the completion latency percentiles: exact from json+'s
 * clat_ns.bins, else as fio printed them. An entry whose workload cannot be
 * told (import_fio_job.c) is skipped with a warning. The rules are in
 * import.h.
 */
#include "import_fio.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "util/dynbuf.h"
#include "util/errmsg.h"

/* What the entries of one job did in one direction. */
struct fio_sum {
	double iops;
	double lat_iops;	/* sum of mean latency (s) x iops, for an IOPS-weighted mean */
	struct fio_lat lat;	/* percentiles and distribution */
};

/* Whether objects a and b have the same n keys, each equal or absent from both. */
static bool same_keys(const json_t *a, const json_t *b, const char *const *keys, size_t n)
{
	if (!json_is_object(a) || !json_is_object(b))
		return false;
	for (size_t k = 0; k < n; k++) {
		const json_t *va = json_object_get(a, keys[k]);
		const json_t *vb = json_object_get(b, keys[k]);

		if ((va || vb) && !json_equal(va, vb))
			return false;
	}
	return true;
}

/*
 * Whether entries a and b are clones of one job: same name, group, options,
 * and server (fio --client: each server measured its own drive).
 */
static bool same_job(const json_t *a, const json_t *b)
{
	static const char *const keys[] = { "jobname", "groupid", "job options", "hostname",
					    "port" };

	return same_keys(a, b, keys, sizeof(keys) / sizeof(keys[0]));
}

/* Whether entries a and b come from the same fio server (fio --client). */
static bool same_server(const json_t *a, const json_t *b)
{
	static const char *const keys[] = { "hostname", "port" };

	return same_keys(a, b, keys, 2);
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
static int add_sections(const struct fio_file *f, size_t i, struct fio_sum sums[2])
{
	static const char *const dirs[2] = { [IO_READ] = "read", [IO_WRITE] = "write" };
	const json_t *entry = json_array_get(f->jobs, i);

	for (int d = 0; d < 2; d++) {
		const json_t *sec = json_object_get(entry, dirs[d]);
		const json_t *iops = json_object_get(sec, "iops");
		int ret;

		if (!sec)
			continue;
		if (!json_is_number(iops) || !isfinite(json_number_value(iops)) ||
		    json_number_value(iops) < 0)
			return errmsg_set(f->err, -EINVAL, "%s: jobs[%zu].%s.iops: %s", f->name, i,
					  dirs[d], iops ? "expected a non-negative number" : "missing");
		sums[d].iops += json_number_value(iops);
		sums[d].lat_iops += json_number_value(iops) * section_latency(sec);
		if (json_number_value(iops) <= 0)
			continue;
		if ((ret = fio_lat_add(&sums[d].lat, sec)))
			return ret;
	}
	return 0;
}

static int add_points(const struct fio_file *f, size_t i, const struct fio_job *job,
		      unsigned njobs, struct fio_sum sums[2])
{
	uint64_t qd = (uint64_t)job->depth * njobs;

	if (qd > UINT_MAX)
		return errmsg_set(f->err, -EINVAL, "%s: jobs[%zu]: queue depth %llu too large",
				  f->name, i, (unsigned long long)qd);
	for (int d = 0; d < 2; d++) {
		struct perf_point p = {
			.op = (enum io_op)d,
			.random = job->random,
			.size = job->bs[d],
			.qd = (unsigned)qd,
			.iops = sums[d].iops,
			.mean_lat_s = sums[d].iops > 0 ? sums[d].lat_iops / sums[d].iops : 0,
			.align = job->ba[d],
			.iodepth = job->depth,
			.jobs = njobs,
		};
		int ret;

		if (p.iops <= 0)
			continue;
		if (!isfinite(p.iops) || !isfinite(p.mean_lat_s))
			return errmsg_set(f->err, -EINVAL, "%s: jobs[%zu].%s: iops or latency too large",
					  f->name, i, io_op_name(p.op));
		fio_lat_result(&sums[d].lat, &p);
		if ((ret = point_set_add(f->ps, &p)))
			return ret;
	}
	return 0;
}

/* One line in the warnings: "f.json: jobs[2] 'mix': <why>; job skipped". */
static int warn_skip(const struct fio_file *f, size_t i, const char *why)
{
	const char *job = json_string_value(json_object_get(json_array_get(f->jobs, i), "jobname"));
	struct errmsg line;
	char prefix[32];
	size_t n = (size_t)snprintf(prefix, sizeof(prefix), "jobs[%zu].", i);

	if (!f->warn)
		return 0;
	f->warn->skipped++;
	if (!strncmp(why, prefix, n))	/* "jobs[2].job options.bs": the job is named already */
		why += n;
	if (job && *job)
		errmsg_set(&line, 0, "%s: jobs[%zu] '%s': %s; job skipped", f->name, i, job, why);
	else
		errmsg_set(&line, 0, "%s: jobs[%zu]: %s; job skipped", f->name, i, why);
	return import_warnings_add(f->warn, line.text);
}

/* fio --client's sum over its servers, which the servers' own entries already hold. */
static bool all_clients(const json_t *entry)
{
	const char *name = json_string_value(json_object_get(entry, "jobname"));

	return json_object_get(entry, "hostname") && name && !strcmp(name, "All clients");
}

/* A reporting entry that does not split reads from writes. */
static bool unified_only(const json_t *entry)
{
	return json_number_value(json_object_get(json_object_get(entry, "mixed"), "iops")) > 0 &&
	       !json_object_get(entry, "read") && !json_object_get(entry, "write");
}

/*
 * The points of entry i and, without group reporting, of the clones of its
 * job further on in jobs[], which are marked in done[].
 */
static int import_job(const struct fio_file *f, size_t i, bool *done)
{
	const json_t *entry = json_array_get(f->jobs, i);
	struct fio_sum sums[2];
	struct fio_job job;
	unsigned entries = 0, njobs;
	char why[256];
	int ret;

	if (!json_is_object(entry))
		return errmsg_set(f->err, -EINVAL, "%s: jobs[%zu]: expected an object", f->name, i);
	if (unified_only(entry))
		return warn_skip(f, i, "unified_rw_reporting: reads and writes not told apart");
	ret = fio_job_resolve(f, i, &job, why, sizeof(why));
	if (ret > 0)
		return warn_skip(f, i, why);
	if (ret)
		return ret;
	memset(sums, 0, sizeof(sums));
	for (size_t j = i; j < json_array_size(f->jobs) && !ret; j++) {
		if (done[j] || (j > i && (job.group_reporting ||
					  !same_job(entry, json_array_get(f->jobs, j)))))
			continue;
		done[j] = true;
		entries++;
		ret = add_sections(f, j, sums);
	}
	/* fewer entries than numjobs: one entry reports for all of them */
	njobs = job.group_reporting || entries < job.numjobs ? job.numjobs : entries;
	if (!ret)
		ret = add_points(f, i, &job, njobs, sums);
	fio_lat_release(&sums[0].lat);
	fio_lat_release(&sums[1].lat);
	return ret;
}

const json_t *fio_entry_global(const struct fio_file *f, size_t i)
{
	if (!json_is_array(f->global))
		return f->global;
	return json_array_get(f->global, f->server ? f->server[i] : 0);
}

/*
 * With one "global options" per server (fio --client): number the servers
 * by their first entry in f->server[], which is left NULL otherwise.
 */
static int number_servers(struct fio_file *f)
{
	size_t n = json_array_size(f->jobs), servers = 0;
	size_t *first;

	if (!json_is_array(f->global))
		return 0;
	f->server = calloc(n + 1, sizeof(*f->server));
	first = calloc(n + 1, sizeof(*first));	/* the first entry of each server */
	if (!f->server || !first) {
		free(first);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		size_t s = 0;

		while (s < servers && !same_server(json_array_get(f->jobs, first[s]),
						   json_array_get(f->jobs, i)))
			s++;
		if (s == servers)
			first[servers++] = i;
		f->server[i] = s;
	}
	free(first);
	return 0;
}

int import_fio(struct point_set *ps, const char *name, const json_t *root,
	       struct import_warnings *warn, struct errmsg *err)
{
	struct fio_file f = { .ps = ps, .name = name, .err = err, .warn = warn };
	bool *done;
	int ret = 0;

	const char *jobs_key = json_object_get(root, "jobs") ? "jobs" : "client_stats";

	f.jobs = json_object_get(root, jobs_key);
	f.global = json_object_get(root, "global options");
	if (!json_is_array(f.jobs))
		return errmsg_set(err, -EINVAL, "%s: jobs: %s", name,
				  f.jobs ? "expected an array" : "missing");
	if (f.global && !json_is_object(f.global) && !json_is_array(f.global))
		return errmsg_set(err, -EINVAL, "%s: global options: expected an object", name);
	done = calloc(json_array_size(f.jobs) + 1, sizeof(*done));
	ret = done ? number_servers(&f) : -ENOMEM;
	for (size_t i = 0; i < json_array_size(f.jobs) && !ret; i++) {
		if (!done[i] && !all_clients(json_array_get(f.jobs, i)))
			ret = import_job(&f, i, done);
	}
	free(done);
	free(f.server);
	return ret;
}
