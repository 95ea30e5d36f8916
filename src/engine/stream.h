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
 * With --verify each stream has its own verification state (verify.h) over
 * its own region; engine_stream_close() finishes it into the result.
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
/*
 * A request of this stream came back. 0: it is done (reissue it); 1: it was
 * a --verify check read and is back in flight as its write (verify.h); or
 * the backend's negative errno.
 */
int engine_stream_complete(struct engine *e, struct io_request *req);
/* Reissue `req` at `now` unless a stop rule says no; 0 or the backend's error. */
int engine_stream_reissue(struct engine *e, struct io_request *req, uint64_t now);
/* Stop issuing (stop flag, another stream's error, the end of a phase). */
void engine_stream_stop(struct engine *e);
/* Stop issuing once `duration_ns` (0: no limit) has passed since the phase began. */
void engine_stream_check_time(struct engine *e, uint64_t duration_ns, uint64_t now);
unsigned engine_stream_inflight(const struct engine *e);
/*
 * --verify: after the measurement, read the stream's region back (the pass
 * engine_run makes), alone on the backend; nothing when the stream needs no
 * pass or ended by an error or the stop flag. 0 or a negative errno.
 */
int engine_stream_verify_pass(struct engine *e, const volatile sig_atomic_t *stop);
/*
 * After the measurement: the timeline takes the IOs of the last second, and
 * the result's elapsed time is set from the phase start to the last completion.
 */
void engine_stream_end_measurement(struct engine *e);
/*
 * Free the stream; turn `ret` (the loop's status) into engine_run's return
 * value for this stream: out of memory for the timeline, -EIO when an IO of
 * this stream failed.
 */
int engine_stream_close(struct engine *e, int ret, struct errmsg *err);

#endif
