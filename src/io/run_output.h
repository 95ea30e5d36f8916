/*
 * run_output.h — the results of one run, as people and scripts read them:
 * a summary per operation type (the figures every format shares), a
 * readable table, CSV, and JSON (the file format; its schema is in
 * docs/json-schema.md and scripts rely on it).
 */
#ifndef IOMODEL_RUN_OUTPUT_H
#define IOMODEL_RUN_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "engine/engine.h"
#include "sim/device.h"
#include "sim/fault.h"
#include "util/lat_keys.h"

/* What a simulated device did during a run (the "device" object). */
struct sim_report {
	const char *model;		/* "hdd", "ssd" */
	const char *preset;		/* NULL when none */
	struct sim_counters counters;
	struct sim_fault_counters faults;
	unsigned n_members;		/* arrays: members[0 .. n_members-1] */
	struct sim_counters members[SIM_MAX_MEMBERS];
};

/* An MPI run (cli/ranks.h): the ranks merged into one record. */
struct ranks_report {
	unsigned count;
	unsigned fastest, slowest;		/* the ranks that finished first and last */
	uint64_t fastest_ns, slowest_ns;	/* their measured times */
	unsigned outstanding;			/* IOs in flight over all ranks */
	const struct job_spec *specs;		/* per-rank rows (--per-job), or NULL */
	const struct run_result *results;
};

/* What was run, for the headers of every format. */
struct run_info {
	const char *target;		/* path, "null" or "sim:…" */
	const char *target_kind;	/* "file", "block", "null" or "sim" */
	uint64_t target_size;
	const char *rw;			/* the workload name given with --rw */
	const char *engine;		/* the backend that actually ran */
	bool direct;
	const struct job_spec *spec;
	const struct sim_report *device;	/* sim targets only, else NULL */
	const char *notice;			/* something the numbers depend on, or NULL */
	/* several jobs at once (suite/jobs.h): 1 and spec->qd for a single job */
	unsigned jobs;				/* jobs (threads, streams or ranks) merged */
	unsigned total_qd;			/* IOs outstanding over all jobs */
	bool split;				/* each job had its own slice of the region */
	const char *job_label;			/* "job" or "rank" in per-job rows */
	/* per-job rows (--per-job), or NULL: `jobs` specs and results */
	const struct job_spec *job_specs;
	const struct run_result *job_results;
	const int *job_cpus;			/* the CPU each job was pinned to, -1 none; or NULL */
	const int *job_nodes;			/* the memory node of each job's buffers, -1 unknown */
	const struct ranks_report *ranks;	/* an MPI run, or NULL */
};

/* Host-to-media write amplification of a report; 0 before any host write. */
double sim_report_write_amplification(const struct sim_report *d);

struct op_summary {
	const char *op;			/* "read" or "write" */
	uint64_t ios;
	uint64_t bytes;
	double seconds;
	double iops;
	double mib_s;
	double lat_us[LAT_KEYS];	/* in the order of util/lat_keys.h */
};

/*
 * The operation types the job performs, in order read, write: fills up to two
 * summaries and returns how many. `op_index[i]` receives the enum io_op of
 * summary i.
 */
unsigned run_summaries(const struct run_info *info, const struct run_result *r,
		       struct op_summary out[2], enum io_op op_index[2]);

int run_output_table(FILE *f, const struct run_info *info, const struct run_result *r);
int run_output_csv(FILE *f, const struct run_info *info, const struct run_result *r);
/* Returns 0 or -ENOMEM / -EIO. */
int run_output_json(FILE *f, const struct run_info *info, const struct run_result *r);

/* --verify: the table's lines (none when off), the "verify" JSON object (null when off). */
void verify_output_table(FILE *f, const struct verify_result *v);
json_t *verify_to_json(const struct verify_result *v);
/* One line: the first failure; and the counts by kind followed by it. */
void verify_describe_first(char *buf, size_t n, const struct verify_result *v);
void verify_summary(char *buf, size_t n, const struct verify_result *v);

/* The run as a JSON object (new reference; NULL when out of memory). */
json_t *run_to_json(const struct run_info *info, const struct run_result *r);
/* Write `root` (taking the reference) as an indented document; 0 or -ENOMEM / -EIO. */
int json_dump_document(FILE *f, json_t *root);

#endif
