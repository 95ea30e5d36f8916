/*
 * stream.h — one job's stream of IOs as a unit that a loop driving several
 * streams on one backend can use (engine/streams.c). The steps are those of
 * engine_run's own loop (engine.c), so a stream behaves exactly as a job run
 * alone: its own offsets, read/write draw, stop rules, histogram and
 * timeline, and it fills its own `struct run_result`.
 *
 * Requests of a stream carry slots first_slot .. first_slot + qd - 1, so that
 * the slots of all streams on one backend are distinct and the loop can tell
 * from a completed request's slot which stream it belongs to.
 *
 * Lifecycle: engine_stream_open … engine_stream_close. Not thread-safe: all
 * streams of one backend are driven by one thread.
 */
#ifndef IOMODEL_ENGINE_STREAM_H
#define IOMODEL_ENGINE_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

struct engine;

int engine_stream_open(struct engine **out, const struct job_spec *spec, struct backend *be,
		       const struct io_buffers *bufs, unsigned first_slot,
		       struct run_result *r, struct errmsg *err);

/* Begin a phase (warm-up or measurement) at `now` and queue up to qd IOs. */
int engine_stream_start(struct engine *e, bool measuring, uint64_t now);
/* A request of this stream came back. */
void engine_stream_complete(struct engine *e, const struct io_request *req);
/* Reissue `req` at `now` unless a stop rule says no; 0 or the backend's error. */
int engine_stream_reissue(struct engine *e, struct io_request *req, uint64_t now);
/* Stop issuing (stop flag, another stream's error, the end of a phase). */
void engine_stream_stop(struct engine *e);
/* Stop issuing once `duration_ns` (0: no limit) has passed since the phase began. */
void engine_stream_check_time(struct engine *e, uint64_t duration_ns, uint64_t now);
unsigned engine_stream_inflight(const struct engine *e);
/* Set the result's elapsed time from the phase start to the last completion. */
void engine_stream_set_elapsed(struct engine *e);
/*
 * Free the stream; turn `ret` (the loop's status) into engine_run's return
 * value for this stream: out of memory for the timeline, -EIO when an IO of
 * this stream failed.
 */
int engine_stream_close(struct engine *e, int ret, struct errmsg *err);

#endif
