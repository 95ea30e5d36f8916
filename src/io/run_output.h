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

/* The run as a JSON object (new reference; NULL when out of memory). */
json_t *run_to_json(const struct run_info *info, const struct run_result *r);
/* Write `root` (taking the reference) as an indented document; 0 or -ENOMEM / -EIO. */
int json_dump_document(FILE *f, json_t *root);

#endif
