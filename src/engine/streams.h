/*
 * streams.h — several jobs run concurrently on ONE backend, driven by one
 * loop in one thread: how the jobs of a run share one simulated drive (its
 * single virtual clock orders every IO of every job), and how two different
 * workloads (a reader and a writer, each with its own depth) load one target
 * at once.
 *
 * Each stream is a job_spec of its own (pattern, size, depth, region, seed,
 * stop rules) with its own offsets, histogram and timeline in its own
 * run_result; what a stream measures is what engine_run would measure for it
 * if the other streams' IOs were simply part of the device's load. Phases:
 * the streams with a warm-up run it together, the queue drains, then every
 * stream's measurement begins at the same clock reading. A stream whose stop
 * rule fires stops issuing while the others go on; an IO error in any stream
 * or the stop flag stops them all. Each stream's `seconds` runs from the
 * common start to its own last completion.
 */
#ifndef IOMODEL_ENGINE_STREAMS_H
#define IOMODEL_ENGINE_STREAMS_H

#include <signal.h>

#include "engine/engine.h"

/* Most streams on one backend (as many jobs as a run may have). */
#define STREAMS_MAX 1024

/*
 * Run `n` streams (1 .. STREAMS_MAX) on `be`, which must have been opened for
 * a queue depth of at least the sum of their qd; `bufs` serves them all.
 * `results[i]` receives stream i's results. Returns 0, -EIO when an IO of
 * some stream failed (that stream's result says which), or another negative
 * errno when the backend failed (`err` says how).
 */
int engine_run_streams(const struct job_spec *specs, unsigned n, struct backend *be,
		       const struct io_buffers *bufs, const volatile sig_atomic_t *stop,
		       struct run_result *results, struct errmsg *err);

#endif
