/*
 * replay.h — replaying a block trace (io/trace.h) on a measured target
 * (suite/measure.h): each request of the trace goes to the target at the
 * offset and with the length it had, and its service time (completion minus
 * submission) and response time (completion minus arrival) are recorded.
 *
 * Speeds:
 *   as-fast  a closed loop: up to `qd` requests in flight, the next one
 *            issued as soon as a slot frees; arrival = submission;
 *   timed    an open system: each request arrives at its trace time (on a
 *            simulated drive, in the drive's virtual time; elsewhere on the
 *            wall clock) and is submitted then, or as soon as one of the
 *            `qd` slots frees; a closed trace (DiskSim validation) arrives
 *            its think time after the previous request completed, one at a
 *            time.
 *
 * The driver sits beside the engine (engine/engine.h): it uses the backend
 * operations directly, so the engine's own loop stays as it is.
 */
#ifndef IOMODEL_REPLAY_H
#define IOMODEL_REPLAY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "io/trace.h"
#include "suite/measure.h"

enum replay_speed { REPLAY_ASFAST, REPLAY_TIMED };

struct replay_options {
	enum replay_speed speed;
	unsigned qd;		/* most requests in flight, >= 1 */
	uint64_t seed;		/* for the data written to real targets */
};

struct replay_result {
	uint64_t ios[2];		/* completed, by enum io_op */
	uint64_t bytes[2];
	struct histogram service;	/* completion - submission, ns */
	struct histogram response;	/* completion - arrival, ns */
	uint64_t *service_ns;		/* per request, in trace order (malloc'ed) */
	size_t completed;		/* requests completed (service_ns[0..] filled in order of index) */
	uint64_t elapsed_ns;		/* first submission to last completion */
	unsigned qd;			/* the depth used (psync lowers it to 1) */
	const char *engine;		/* the backend's name */
	bool interrupted;		/* the stop flag ended the replay early */
	struct run_error error;		/* the first failed request */
};

/*
 * Replay `t` on `m` (opened for writes when the trace writes; the caller
 * checked that every request fits, trace_check_fits). `r` is initialised
 * here; release it with replay_result_release(). Returns 0 (also when the
 * stop flag ended the replay: r->interrupted), -EIO when a request failed
 * (r->error), another -errno with `err` when the backend failed.
 */
int replay_run(struct measure_target *m, const struct trace *t, const struct replay_options *o,
	       const volatile sig_atomic_t *stop, struct replay_result *r, struct errmsg *err);

void replay_result_release(struct replay_result *r);

#endif
