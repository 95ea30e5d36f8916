/*
 * engine.h — runs one job (one workload against one opened backend) and
 * records what happened.
 *
 * The engine knows nothing about the device: it asks the offset generator
 * where to go, the backend to do the IO, and the backend's clock what time it
 * is. A job runs in up to two phases:
 *   warm-up (ramp_ns > 0): IOs are issued and completed but not recorded;
 *     the queue is then drained, so no warm-up IO leaks into the results;
 *   measurement: from a full queue until a stop rule fires (runtime, IO
 *     count or byte count, whichever first; or the caller's stop flag; or an
 *     IO error). No new IO is issued after that, and the IOs still in flight
 *     complete and are counted: `seconds` runs to the last completion.
 * With spec->verify (verify.h), each IO also passes through the verify hooks,
 * and a job that wrote is followed by a read of its whole region (the
 * verify pass, not part of the results but of r->verify).
 */
#ifndef IOMODEL_ENGINE_H
#define IOMODEL_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "engine/histogram.h"
#include "engine/timeline.h"
#include "engine/verify.h"
#include "util/errmsg.h"

struct job_spec {
	bool random;		/* random offsets, else sequential */
	unsigned read_pct;	/* 100: all reads, 0: all writes, else a mix */
	uint64_t bs;		/* bytes per IO */
	uint64_t align;		/* offsets are multiples of this */
	unsigned qd;		/* IOs kept in flight */
	uint64_t offset;	/* region start */
	uint64_t length;	/* region length */
	uint64_t runtime_ns;	/* stop rules; 0 = not set (at least one must be) */
	uint64_t max_ios;
	uint64_t max_bytes;
	uint64_t ramp_ns;	/* warm-up, excluded from the results */
	uint64_t seed;
	enum verify_mode verify;	/* VERIFY_OFF unless --verify (verify.h) */
	uint64_t verify_generation;	/* writes: this run's id; reads: 0 = learn */
	unsigned verify_stream;		/* the job's number among all of the run (verify.h) */
	struct verify_ledger *verify_ledger;	/* NULL, or the run's (set by jobs_run) */
	unsigned verify_job;		/* the job's index in that ledger */
};

struct io_buffers {
	void *base;		/* count buffers of size bytes, page aligned */
	unsigned count;
	uint64_t size;
};

struct op_result {
	uint64_t ios;
	uint64_t bytes;
	struct histogram lat;	/* completion minus submission, in ns */
	struct timeline timeline;
};

struct run_error {
	bool set;
	enum io_op op;
	uint64_t offset;
	uint32_t length;
	int64_t result;		/* -errno, or the short byte count */
};

struct run_result {
	struct op_result op[2];	/* indexed by enum io_op */
	uint64_t elapsed_ns;	/* measurement start to last completion */
	double cpu_user_s;	/* the tool's CPU time during measurement */
	double cpu_sys_s;
	bool interrupted;	/* the stop flag ended the run */
	struct run_error error;
	struct verify_result verify;	/* mode VERIFY_OFF without --verify */
};

/*
 * Allocate the IO buffers of a job: one per queue slot, unless that would
 * exceed `limit` bytes, in which case slots share fewer buffers (the data
 * are never checked, so sharing changes no timing). With `fill`, buffers hold
 * incompressible data (what a real device is written with); without it they
 * are left untouched, which costs no memory until used (simulated devices
 * never look at data). Returns 0 or -ENOMEM.
 */
int io_buffers_alloc(struct io_buffers *b, uint64_t bs, unsigned qd,
		     uint64_t limit, uint64_t seed, bool fill);
void io_buffers_release(struct io_buffers *b);

void run_result_init(struct run_result *r);
void run_result_release(struct run_result *r);

/*
 * Run `spec` on `be`. `stop` is polled between batches. Returns 0 when the
 * run ended by a stop rule or the stop flag (r->interrupted), -EIO when an
 * IO failed (r->error says which), or another negative errno when the
 * backend itself failed (`err` says how). In every case `r` holds what was
 * measured until then.
 */
int engine_run(const struct job_spec *spec, struct backend *be,
	       const struct io_buffers *bufs, const volatile sig_atomic_t *stop,
	       struct run_result *r, struct errmsg *err);

#endif
