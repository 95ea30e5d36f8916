/*
 * fio_job_file.h — `--fio-job FILE` of run, sweep and characterize: the fio
 * job file of the jobs about to be measured (io/fio_job.h), written once
 * every job has been checked against the target and before any is run, so
 * that bad input leaves no file and an interrupted run still leaves one.
 */
#ifndef IOMODEL_CLI_FIO_JOB_FILE_H
#define IOMODEL_CLI_FIO_JOB_FILE_H

#include <stddef.h>

#include "engine/engine.h"
#include "suite/measure.h"
#include "suite/sweep.h"

/*
 * Write the job file of `specs` (completed by measure_check_job) to `path`;
 * argv (argv[0] the command) is quoted in its first comment. Returns an exit
 * status, after printing one line on failure.
 */
int write_fio_job_file(const char *path, const struct measure_target *m,
		       const struct job_spec *specs, size_t n, int argc, char **argv);

/* The same for every job of `nplans` sweep plans, in the order they run. */
int write_fio_job_plans(const char *path, const struct measure_target *m,
			const struct sweep_plan *plans, size_t nplans, int argc, char **argv);

#endif
