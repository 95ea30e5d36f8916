/*
 * measure.h — a target opened once and measured job after job: a real file or
 * block device (target/), the null target, or a simulated drive (sim/). It
 * picks the backend, allocates the IO buffers, runs the engine and gathers
 * what every output needs (struct run_info). `run` measures one job;
 * `sweep` and `characterize` measure many on the same target, so a
 * simulated drive keeps its state (caches, flash mapping, head position and
 * its clock) from one job to the next, as a real one does.
 *
 * Functions return 0 or a negative errno with a one-line message: -EINVAL,
 * -EPERM, -EBUSY, -ENOENT for bad input or a refused target; -ENOMEM, -EIO,
 * -ENOSPC for failures; -EINTR when the stop flag ended a file's layout.
 * Notices (an engine fallback, io_uring handing IOs to kernel threads) are
 * collected, each once, for the caller to print.
 */
#ifndef IOMODEL_MEASURE_H
#define IOMODEL_MEASURE_H

#include <signal.h>
#include <stdbool.h>

#include "backend/backend.h"
#include "engine/engine.h"
#include "io/run_output.h"
#include "sim/spec.h"
#include "target/target.h"

#define MEASURE_MAX_NOTICES 4
/* Above this, queue slots share IO buffers (see io_buffers_alloc). */
#define MEASURE_BUFFER_LIMIT (1ULL << 30)

struct measure_target {
	struct target t;
	enum backend_kind engine;
	bool direct;
	bool writable;			/* opened for a workload that writes */
	uint64_t seed;
	/* simulated drives only */
	struct sim_spec spec;
	struct sim_device *dev;
	struct sim_store *store;	/* the data written, kept once a job verifies */
	struct sim_report report;
	uint64_t sim_clock_ns;		/* the drive's time, carried from job to job */
	/* notices so far, each text once */
	struct errmsg notices[MEASURE_MAX_NOTICES];
	unsigned n_notices;
};

/*
 * The most memory a simulated drive's state may take unless
 * `target_request.sim_memory` says otherwise: a quarter of the physical
 * memory (sysconf), so that `sim:ssd,capacity=14t` is one error line rather
 * than a machine driven into swap. 1 GiB when the memory cannot be told.
 */
uint64_t measure_sim_memory_default(void);

/*
 * Open `req->path` ("null", "sim:…", a file or a device). A simulated drive
 * whose state would exceed the memory limit is refused with -EINVAL, the
 * message naming the estimate, the limit and --sim-memory.
 */
int measure_open(struct measure_target *m, const struct target_request *req,
		 enum backend_kind engine, uint64_t seed, struct errmsg *err);
void measure_close(struct measure_target *m);

/*
 * Complete `spec` against the target (a region length of 0 means "to the
 * end") and check it: region inside the target, O_DIRECT alignment, at least
 * one aligned IO in the region, and what --verify needs (verify_check_job;
 * on null, spec->verify becomes VERIFY_SELF). -EINVAL with a message
 * otherwise.
 */
int measure_check_job(const struct measure_target *m, struct job_spec *spec,
		      struct errmsg *err);

/*
 * Run `spec` (checked) and fill `r` and `info` (info->rw must be set by the
 * caller; the rest is filled here). May lower spec->qd to 1 (psync) with a
 * notice. Returns what engine_run returns, or -ENOMEM.
 */
int measure_run(struct measure_target *m, struct job_spec *spec,
		const volatile sig_atomic_t *stop, struct run_result *r,
		struct run_info *info, struct errmsg *err);

/*
 * The two halves of measure_run, for callers that run the engine themselves
 * (suite/jobs.c: several jobs at once). measure_job_open allocates the IO
 * buffers in the calling thread (so a pinned thread's buffers are local to
 * its memory node), opens the backend and fills `info` as measure_run does;
 * measure_job_close carries a simulated drive's counters and clock over to
 * the target, adds the io_uring notice and frees both. Neither is
 * thread-safe with respect to the same `m`: callers serialise them.
 */
struct measure_job {
	struct io_buffers bufs;
	struct backend *be;
};

int measure_job_open(struct measure_target *m, struct job_spec *spec, struct measure_job *j,
		     struct run_info *info, struct errmsg *err);
void measure_job_close(struct measure_target *m, struct measure_job *j, struct run_info *info);

/*
 * For drivers other than the engine (suite/replay.h): the backend of the
 * target for up to `*qd` requests in flight on `bufs` (may lower *qd to 1,
 * psync, with a notice), and its closing, which keeps a simulated drive's
 * clock and counters as measure_run does.
 */
int measure_backend_open(struct measure_target *m, unsigned *qd, const struct io_buffers *bufs,
			 struct backend **be, struct errmsg *err);
void measure_backend_close(struct measure_target *m, struct backend *be);

/*
 * Discard [offset, offset + length) of a target opened for writes: TRIM on a
 * simulated drive, BLKDISCARD on a block device, a punched hole in a file,
 * nothing on the null target. -EOPNOTSUPP (with a message) where the target
 * takes no discard, -EPERM when it was not opened for writes.
 */
int measure_discard(struct measure_target *m, uint64_t offset, uint64_t length,
		    struct errmsg *err);

/*
 * Simulated drives only: rebuild the drive with one parameter changed
 * (`key=value`, e.g. state=used), keeping its clock. What a long
 * preconditioning converges to, laid out at once; -EINVAL (with a message)
 * for a real target or a parameter the drive's model does not have.
 */
int measure_sim_relayout(struct measure_target *m, const char *key, const char *value,
			 struct errmsg *err);

const char *measure_kind_name(enum target_kind kind);

#endif
