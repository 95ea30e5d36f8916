/*
 * result_json.c — the JSON form of a run (schema "iomodel.run/1", documented
 * field by field in docs/json-schema.md), built with jansson.
 */
#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "io/json_text.h"
#include "run_output.h"
#include "util/units.h"

static json_t *histogram_json(const struct histogram *h)
{
	json_t *buckets = json_array();

	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (h->buckets[i])
			json_array_append_new(buckets,
				json_pack("[I,I,I]", (json_int_t)hist_bucket_low(i),
					  (json_int_t)hist_bucket_width(i),
					  (json_int_t)h->buckets[i]));
	}
	return json_pack("{s:s,s:s,s:i,s:i,s:f,s:o}",
			 "layout", "log-linear", "unit", "ns",
			 "linear_below", 2 * HIST_SUB_BUCKETS,
			 "sub_buckets_per_octave", HIST_SUB_BUCKETS,
			 "max_relative_error", HIST_MAX_RELATIVE_ERROR,
			 "buckets", buckets);
}

static json_t *timeline_json(const struct timeline *t, uint64_t elapsed_ns)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < t->len; i++) {
		const struct timeline_second *s = &t->seconds[i];
		double span = (double)elapsed_ns / 1e9 - (double)i;

		if (span > 1.0)
			span = 1.0;
		if (span <= 0)
			span = 1.0;
		json_array_append_new(arr, json_pack("{s:I,s:f,s:I,s:f,s:f,s:f}",
			"t_s", (json_int_t)i, "seconds", span,
			"ios", (json_int_t)s->ios, "iops", (double)s->ios / span,
			"mib_s", (double)s->bytes / MIB / span,
			"max_lat_us", (double)s->max_lat_ns / 1e3));
	}
	return arr;
}

static json_t *cpu_json(const struct run_result *r)
{
	return json_pack("{s:f,s:f}", "user_s", r->cpu_user_s, "sys_s", r->cpu_sys_s);
}

static json_t *result_json(const struct op_summary *s, const struct op_result *op,
			   const struct run_result *r)
{
	json_t *lat = json_object();

	for (int k = 0; k < LAT_KEYS; k++)
		json_object_set_new(lat, lat_key_names[k], json_real(s->lat_us[k]));
	return json_pack("{s:s,s:I,s:I,s:f,s:f,s:f,s:o,s:o,s:o,s:o}",
			 "op", s->op, "ios", (json_int_t)s->ios,
			 "bytes", (json_int_t)s->bytes, "seconds", s->seconds,
			 "iops", s->iops, "mib_s", s->mib_s, "lat_us", lat,
			 "cpu", cpu_json(r),
			 "histogram", histogram_json(&op->lat),
			 "timeline", timeline_json(&op->timeline, r->elapsed_ns));
}

static json_t *limit_json(uint64_t v)
{
	return v ? json_integer((json_int_t)v) : json_null();
}

static json_t *job_json(const struct run_info *info)
{
	const struct job_spec *s = info->spec;

	return json_pack("{s:s,s:b,s:i,s:I,s:I,s:i,s:I,s:I,s:o,s:o,s:o,s:f,s:I,s:s,s:b}",
			 "rw", info->rw, "random", s->random, "read_pct", s->read_pct,
			 "bs", (json_int_t)s->bs, "align", (json_int_t)s->align,
			 "qd", s->qd, "offset", (json_int_t)s->offset,
			 "length", (json_int_t)s->length,
			 "runtime_s", s->runtime_ns ? json_real((double)s->runtime_ns / 1e9) : json_null(),
			 "ios", limit_json(s->max_ios), "bytes", limit_json(s->max_bytes),
			 "ramp_s", (double)s->ramp_ns / 1e9, "seed", (json_int_t)s->seed,
			 "engine", info->engine, "direct", info->direct);
}

static json_t *error_json(const struct run_error *e)
{
	if (!e->set)
		return json_null();
	return json_pack("{s:s,s:I,s:i,s:I,s:s}",
			 "op", io_op_name(e->op),
			 "offset", (json_int_t)e->offset, "length", (int)e->length,
			 e->result < 0 ? "errno" : "bytes_done",
			 (json_int_t)(e->result < 0 ? -e->result : e->result),
			 "message", e->result < 0 ? strerror((int)-e->result) : "short transfer");
}

/* An array's members, each with its own counters. */
static json_t *members_json(const struct sim_report *d)
{
	json_t *arr = json_array();

	for (unsigned i = 0; i < d->n_members && i < SIM_MAX_MEMBERS; i++) {
		const struct sim_counters *c = &d->members[i];

		json_array_append_new(arr, json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
			"host_read_bytes", (json_int_t)c->host_read_bytes,
			"host_write_bytes", (json_int_t)c->host_write_bytes,
			"media_read_bytes", (json_int_t)c->media_read_bytes,
			"media_write_bytes", (json_int_t)c->media_write_bytes,
			"erases", (json_int_t)c->erases, "merges", (json_int_t)c->merges,
			"gc_page_moves", (json_int_t)c->gc_page_moves,
			"cache_hits", (json_int_t)c->cache_hits, "seeks", (json_int_t)c->seeks));
	}
	return arr;
}

static json_t *device_json(const struct sim_report *d)
{
	const struct sim_counters *c = &d->counters;
	const struct sim_fault_counters *fc = &d->faults;
	json_t *obj;

	obj = json_pack("{s:s,s:o,s:I,s:I,s:I,s:I,s:f,s:I,s:I,s:I,s:I,s:I,s:{s:I,s:I,s:I,s:I,s:I,s:I}}",
			 "model", d->model,
			 "preset", d->preset ? json_string(d->preset) : json_null(),
			 "host_read_bytes", (json_int_t)c->host_read_bytes,
			 "host_write_bytes", (json_int_t)c->host_write_bytes,
			 "media_read_bytes", (json_int_t)c->media_read_bytes,
			 "media_write_bytes", (json_int_t)c->media_write_bytes,
			 "write_amplification", sim_report_write_amplification(d),
			 "erases", (json_int_t)c->erases, "merges", (json_int_t)c->merges,
			 "gc_page_moves", (json_int_t)c->gc_page_moves,
			 "cache_hits", (json_int_t)c->cache_hits, "seeks", (json_int_t)c->seeks,
			 "faults", "eio", (json_int_t)fc->eio,
			 "lost_writes", (json_int_t)fc->lost_writes,
			 "misdirected_writes", (json_int_t)fc->misdirected_writes,
			 "bit_flips", (json_int_t)fc->bit_flips,
			 "torn_writes", (json_int_t)fc->torn_writes, "spikes", (json_int_t)fc->spikes);
	if (obj && d->n_members)
		json_object_set_new(obj, "members", members_json(d));
	if (obj && !strcmp(d->model, "ssd"))
		json_object_set_new(obj, "flash_write_bytes",
				    json_integer((json_int_t)c->media_write_bytes));
	return obj;
}

/* The rows of jobs or ranks: specs, results and (or NULL) the CPUs they ran on. */
struct rows {
	unsigned count;
	const struct job_spec *specs;
	const struct run_result *results;
	const int *cpus;
	const int *nodes;
};

static json_t *row_results_json(const struct run_info *info, const struct rows *rows,
				unsigned j)
{
	struct run_info one = *info;
	struct op_summary sum[2];
	enum io_op idx[2];
	unsigned n;
	json_t *results = json_array();

	one.spec = &rows->specs[j];
	n = run_summaries(&one, &rows->results[j], sum, idx);
	for (unsigned i = 0; i < n; i++) {
		json_t *lat = json_object();

		for (int k = 0; k < 8; k++)
			json_object_set_new(lat, lat_key_names[k], json_real(sum[i].lat_us[k]));
		json_array_append_new(results, json_pack("{s:s,s:I,s:I,s:f,s:f,s:f,s:o}",
			"op", sum[i].op, "ios", (json_int_t)sum[i].ios,
			"bytes", (json_int_t)sum[i].bytes, "seconds", sum[i].seconds,
			"iops", sum[i].iops, "mib_s", sum[i].mib_s, "lat_us", lat));
	}
	return results;
}

static json_t *rows_json(const struct run_info *info, const struct rows *rows)
{
	json_t *arr = json_array();

	for (unsigned j = 0; j < rows->count; j++) {
		const struct job_spec *s = &rows->specs[j];
		const struct run_result *r = &rows->results[j];

		json_t *row = json_pack("{s:i,s:o,s:o,s:I,s:I,s:I,s:i,s:f,s:b,s:o,s:o}",
			"index", (int)j, "cpu", rows->cpus ? json_integer(rows->cpus[j]) : json_null(),
			"numa_node", rows->nodes && rows->nodes[j] >= 0 ? json_integer(rows->nodes[j])
								       : json_null(),
			"offset", (json_int_t)s->offset, "length", (json_int_t)s->length,
			"seed", (json_int_t)s->seed, "qd", s->qd,
			"seconds", (double)r->elapsed_ns / 1e9, "interrupted", r->interrupted,
			"error", error_json(&r->error), "results", row_results_json(info, rows, j));

		if (row)	/* what this job's (or rank's) --verify found; null without it */
			json_object_set_new(row, "verify", verify_to_json(&r->verify));
		json_array_append_new(arr, row);
	}
	return arr;
}

static json_t *ranks_json(const struct run_info *info)
{
	const struct ranks_report *rr = info->ranks;
	struct rows rows = { rr->count, rr->specs, rr->results, NULL, NULL };
	json_t *obj = json_pack("{s:i,s:i,s:{s:i,s:f},s:{s:i,s:f},s:f}",
		"count", (int)rr->count, "outstanding_ios", (int)rr->outstanding,
		"fastest", "rank", (int)rr->fastest, "seconds", (double)rr->fastest_ns / 1e9,
		"slowest", "rank", (int)rr->slowest, "seconds", (double)rr->slowest_ns / 1e9,
		"stonewall_s", (double)(rr->slowest_ns - rr->fastest_ns) / 1e9);

	if (obj && rr->results)
		json_object_set_new(obj, "per_rank", rows_json(info, &rows));
	return obj;
}

static json_t *jobs_json(const struct run_info *info)
{
	unsigned n = info->jobs ? info->jobs : 1;
	json_t *obj = json_pack("{s:i,s:s,s:b,s:i,s:i}", "count", (int)n,
				"kind", info->job_label ? info->job_label : "job",
				"split", info->split, "qd_per_job", info->spec->qd,
				"outstanding_ios", info->jobs ? (int)info->total_qd : (int)info->spec->qd);

	if (obj && info->job_results)
		json_object_set_new(obj, "per_job", rows_json(info, &(struct rows){ info->jobs,
				    info->job_specs, info->job_results, info->job_cpus,
				    info->job_nodes }));
	return obj;
}

json_t *run_to_json(const struct run_info *info, const struct run_result *r)
{
	struct op_summary sum[2];
	enum io_op idx[2];
	unsigned n = run_summaries(info, r, sum, idx);
	json_t *results = json_array();
	json_t *root;

	for (unsigned i = 0; i < n; i++)
		json_array_append_new(results, result_json(&sum[i], &r->op[idx[i]], r));
	root = json_pack("{s:s,s:s,s:s,s:o,s:{s:o,s:s,s:I},s:f,s:b,s:o,s:o,s:o}",
			 "schema", "iomodel.run/1", "iomodel_version", IOMODEL_VERSION,
			 "command", "run", "job", job_json(info),
			 "target", "path", json_text(info->target), "kind", info->target_kind,
			 "size_bytes", (json_int_t)info->target_size,
			 "seconds", (double)r->elapsed_ns / 1e9,
			 "interrupted", r->interrupted, "error", error_json(&r->error),
			 "cpu", cpu_json(r), "results", results);
	if (root)
		json_object_set_new(root, "jobs", jobs_json(info));
	if (root && info->ranks)
		json_object_set_new(root, "ranks", ranks_json(info));
	if (root && info->device)
		json_object_set_new(root, "device", device_json(info->device));
	if (root)
		json_object_set_new(root, "verify", verify_to_json(&r->verify));
	if (root)
		json_object_set_new(root, "notices", info->notice ? json_pack("[s]", info->notice)
								  : json_array());
	return root;
}

int json_dump_document(FILE *f, json_t *root)
{
	int ret;

	if (!root)
		return -ENOMEM;
	ret = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(root);
	return ret || ferror(f) ? -EIO : 0;
}

int run_output_json(FILE *f, const struct run_info *info, const struct run_result *r)
{
	return json_dump_document(f, run_to_json(info, r));
}
