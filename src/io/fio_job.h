/*
 * fio_job.h — the fio job file that measures what an iomodel plan measures,
 * so that a user can reproduce any figure with fio (`--fio-job FILE` of run,
 * sweep and characterize).
 *
 * The file has a [global] section for the target (filename, ioengine,
 * direct) and one section per job of the plan, in the plan's order, each
 * after the first with `stonewall` so that fio runs them one after another
 * as iomodel does. Each section carries rw (and rwmixread for a mix), bs,
 * blockalign when it differs from bs, iodepth, offset and size (the region),
 * the stop rules, ramp_time and randseed:
 *   - a time bound alone: runtime and time_based (fio would otherwise stop
 *     after one pass over the region, iomodel goes on until the time is up);
 *   - an IO or byte bound: number_ios and io_size (so fio may pass over the
 *     region more than once, as iomodel does), runtime as a further bound.
 * randseed is iomodel's seed; fio draws other offsets from it (another
 * generator), so runs are repeatable with each tool, not IO for IO alike.
 * The null target becomes fio's null engine; a simulated drive has no
 * filename (a comment says to set one: fio cannot run the simulator).
 */
#ifndef IOMODEL_FIO_JOB_H
#define IOMODEL_FIO_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/engine.h"

struct fio_job_target {
	const char *path;	/* the target as given: a file, a device, "null" or "sim:…" */
	const char *ioengine;	/* "io_uring", "libaio" or "psync" */
	bool direct;		/* O_DIRECT */
	const char *command;	/* the iomodel command line, for the first comment */
};

/* One job of the plan: its name (a section name: letters, digits, '-', '_') and spec. */
struct fio_job_section {
	char name[64];
	struct job_spec spec;	/* region completed (length > 0) */
};

/*
 * Write the job file to `f`. Returns 0, -EINVAL when a section name is not
 * one fio reads or a spec has no stop rule or region, or -EIO.
 */
int fio_job_write(FILE *f, const struct fio_job_target *t, const struct fio_job_section *jobs,
		  size_t n);

/* A section name for a spec: "randread-4k-qd1", "rw70-64k-qd8"; never longer than 63. */
void fio_job_name(const struct job_spec *spec, char name[64]);

#endif
