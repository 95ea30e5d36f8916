/*
 * jobs.h — the N jobs of one run on one opened target, started together and
 * stopped together, with one result per job and one merged result.
 *
 * How the jobs run depends on the target:
 *  - a file, a block device or null: one worker thread per job, each with
 *    its own backend (its own io_uring or libaio context), its own IO
 *    buffers (allocated and filled by the worker, after pinning, so that
 *    they are local to its memory node), its own offsets, histogram and
 *    timeline. Workers set up, wait at a barrier with the caller, which
 *    checks that every job is ready and calls the `gate` (the MPI layer's
 *    common start time), then all pass a second barrier and run;
 *  - a simulated drive: one worker thread runs every job as a stream on the
 *    ONE backend of the drive (engine/streams.h), so the jobs share its one
 *    virtual clock and the drive sees their IOs interleaved in time order.
 *    One job alone runs through engine_run as before.
 * Each job runs to its own stop rule; an IO error in one job, a failed set-up
 * or the caller's stop flag stops them all. The calling thread meanwhile
 * polls the stop flag and calls `tick` about every 50 ms with live counts.
 *
 * Jobs may have different specs (issue 11: a reader and a writer at once);
 * jobs_specs_from() makes the usual N copies of one spec.
 *
 * --verify (engine/verify.h): each job verifies its own region (verified
 * jobs whose regions overlap are refused), with the spec's generation and
 * its verify_stream; jobs_run gives them one ledger (engine/verify_match.h)
 * so that a write misdirected from one job's region into another's counts
 * once, and res->merged.verify is the jobs' total (verify_result_merge).
 */
#ifndef IOMODEL_JOBS_H
#define IOMODEL_JOBS_H

#include <signal.h>
#include <stdbool.h>

#include "engine/engine.h"
#include "io/run_output.h"
#include "suite/measure.h"

#define JOBS_MAX 1024

/* What the caller sees while the jobs run (counts may be one batch stale). */
struct jobs_status {
	unsigned jobs;
	unsigned running;	/* jobs not finished yet */
	uint64_t ios;		/* completed and measured, all jobs */
	uint64_t bytes;
	uint64_t lat_sum_ns;	/* sum of their latencies */
	double done_fraction;	/* of the IO or byte bounds, or -1 when only time bounds */
};

struct jobs_options {
	const int *cpus;	/* pin job i to cpus[i % n_cpus]; NULL: no pinning */
	unsigned n_cpus;
	/*
	 * Called once every job has been set up, before any starts, with 0 or the
	 * set-up's error (so that a collective gate is always entered); a
	 * non-zero return (a -errno, `err` set) means no job runs.
	 */
	int (*gate)(void *ctx, int status, struct errmsg *err);
	void *gate_ctx;
	/* called from the caller's thread while the jobs run */
	void (*tick)(void *ctx, const struct jobs_status *st);
	void *tick_ctx;
};

struct jobs_result {
	unsigned n;
	struct run_result *job;		/* n results */
	int *node;			/* n: the memory node holding each job's buffers, -1 unknown */
	struct run_result merged;
	unsigned failed_job;		/* the job whose error is reported, when one failed */
};

/*
 * Job specs for `n` jobs (1 .. JOBS_MAX) of `base` (checked against the
 * target): job 0 keeps base's seed, job i gets a seed of its own; with
 * `split` each job gets its own slice of the region (equal, aligned, the
 * last taking what is left). -EINVAL with a message when the region is too
 * small to split. `specs` holds n.
 */
int jobs_specs_from(const struct job_spec *base, unsigned n, bool split,
		    struct job_spec *specs, struct errmsg *err);

/*
 * --verify with several jobs (jobs_run checks it too): jobs that keep data
 * on the target verify regions of their own, and the streams of a simulated
 * drive (whose buffers they share) need at most VERIFY_MAX_BUFFERS in all.
 * 0, or -EINVAL with a message.
 */
int jobs_check_verify(const struct measure_target *m, struct job_spec *specs, unsigned n,
		      struct errmsg *err);

/*
 * CPUs this process may run on: fills `cpus` (up to `max`) and returns how
 * many, or a negative errno.
 */
int jobs_allowed_cpus(int *cpus, unsigned max);

int jobs_result_init(struct jobs_result *res, unsigned n);
void jobs_result_release(struct jobs_result *res);

/*
 * Run the `n` jobs of `specs` (each checked with measure_check_job; psync
 * may lower a job's qd) on `m`, filling `res` and `info` (info->rw set by
 * the caller; info->spec points at specs[0], jobs and total_qd are set).
 * Returns as measure_run does: 0, -EIO when a job's IO failed
 * (res->failed_job says which, its result which IO), another negative errno
 * when a job could not be set up or a backend failed, or the gate's error.
 */
int jobs_run(struct measure_target *m, struct job_spec *specs, unsigned n,
	     const struct jobs_options *o, const volatile sig_atomic_t *stop,
	     struct jobs_result *res, struct run_info *info, struct errmsg *err);

#endif
