/*
 * backend.h — the one interface between the engine and whatever carries out
 * IOs: io_uring, libaio, synchronous pread/pwrite, the null target, and (later)
 * simulated drives with a virtual clock.
 *
 * The engine owns the requests and the buffers. It queues requests with
 * backend_queue(), then calls backend_submit_and_reap() to hand the queued
 * requests to the device and wait for at least `min_complete` of the ones in
 * flight; each request handed back has `result` (bytes done or -errno) and
 * `complete_ns` filled in. All times come from backend_now_ns(): the
 * monotonic clock for real devices, the virtual clock for simulated ones,
 * so the engine never reads a clock of its own.
 *
 * Lifecycle: backend_open() … backend_close(). Functions return 0 (or a
 * count) or a negative errno; -EINTR from submit_and_reap means a signal
 * arrived and the call may simply be repeated.
 */
#ifndef IOMODEL_BACKEND_H
#define IOMODEL_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "util/errmsg.h"
#include "util/io_request.h"	/* enum io_op, struct io_request */

enum backend_kind {
	BACKEND_IO_URING,
	BACKEND_LIBAIO,
	BACKEND_PSYNC,
	BACKEND_NULL,
};

struct backend_params {
	int fd;			/* -1 for the null target */
	unsigned queue_depth;	/* most requests ever in flight */
	void *buffers;		/* buffer_count buffers of buffer_size bytes, back to back */
	unsigned buffer_count;
	uint64_t buffer_size;
};

struct backend;

struct backend_ops {
	const char *name;
	int (*queue)(struct backend *be, struct io_request *req);
	int (*submit_and_reap)(struct backend *be, unsigned min_complete,
			       struct io_request **done, unsigned max_done);
	uint64_t (*now_ns)(struct backend *be);
	void (*close)(struct backend *be);
	/*
	 * Optional (NULL in the wall-clock backends, see backend_reap_until):
	 * hand over the queued requests, then return what completes up to
	 * `deadline_ns` — possibly nothing, with the clock then at the deadline.
	 * An open-system replay waits this way for its next arrival.
	 */
	int (*reap_until)(struct backend *be, uint64_t deadline_ns,
			  struct io_request **done, unsigned max_done);
	/*
	 * Optional (NULL: none): a request for [offset, offset + length) will be
	 * queued soon (the engine's next IO); the backend may start loading the
	 * state it will look up, so that the load overlaps the work before it.
	 * A hint only: it changes no state and no result.
	 */
	void (*prefetch)(struct backend *be, uint64_t offset, uint32_t length);
};

/*
 * Each implementation embeds this as the first member of its own state.
 * `ops` is set at open and never changes (the engine keeps a copy of *ops).
 */
struct backend {
	const struct backend_ops *ops;
};

/*
 * Open a backend of `kind` for `p`. For BACKEND_IO_URING and BACKEND_LIBAIO,
 * when the kernel refuses the interface, fall back (io_uring → libaio → psync)
 * and describe the fallback in `notice` (empty when none happened).
 */
int backend_open(struct backend **out, enum backend_kind kind,
		 const struct backend_params *p, struct errmsg *notice,
		 struct errmsg *err);

/* Parse "io_uring", "libaio", "psync"; -EINVAL otherwise. */
int backend_kind_parse(const char *name, enum backend_kind *out);
const char *backend_name(const struct backend *be);

static inline int backend_queue(struct backend *be, struct io_request *req)
{
	return be->ops->queue(be, req);
}

static inline int backend_submit_and_reap(struct backend *be, unsigned min_complete,
					  struct io_request **done, unsigned max_done)
{
	return be->ops->submit_and_reap(be, min_complete, done, max_done);
}

static inline uint64_t backend_now_ns(struct backend *be)
{
	return be->ops->now_ns(be);
}

/*
 * Submit the queued requests and return the completions due by
 * `deadline_ns`, 0 or more, without waiting past it: the backend's own
 * reap_until, or else polling (submit_and_reap for 0) and short sleeps on the
 * wall clock, then at most 10 ms per call (an open replay's wait for a far
 * arrival returns now and then, so that its stop flag is seen). Returns a
 * count or a negative errno.
 */
int backend_reap_until(struct backend *be, uint64_t deadline_ns, struct io_request **done,
		       unsigned max_done);

static inline void backend_close(struct backend *be)
{
	if (be)
		be->ops->close(be);
}

/*
 * How many of the `left` requests still queued to hand to the kernel in the
 * next system call, when `handed` of this batch were handed already: 1, 1,
 * 2, 4, 8, … — never more than the device already holds from this batch.
 * Handing a whole batch over in one call (one block plug) keeps the device
 * idle until the kernel has set up the last request of the batch; a device
 * that completes its queue in bursts (a virtual machine's virtio disk) then
 * idles for that time on every burst, which cost 15-20 % of the IOPS at
 * QD 32 (issue 14). In chunks, the device starts on the first request after
 * one request's set-up and works on each chunk while the kernel sets up the
 * next, for log2(n) + 1 calls per n requests (1 when n is 1).
 */
static inline unsigned backend_submit_chunk(unsigned handed, unsigned left)
{
	unsigned chunk = handed ? handed : 1;

	return chunk < left ? chunk : left;
}

/* The constructors behind backend_open(), one per file. */
int uring_backend_open(struct backend **out, const struct backend_params *p, struct errmsg *err);
int aio_backend_open(struct backend **out, const struct backend_params *p, struct errmsg *err);
int psync_backend_open(struct backend **out, const struct backend_params *p, struct errmsg *err);
int null_backend_open(struct backend **out, const struct backend_params *p, struct errmsg *err);

/*
 * How many io_uring kernel worker threads (iou-wrk) this process has: the
 * kernel hands IOs to them when a device does not take non-blocking IO (zram,
 * some filesystems), which adds a thread hand-off to every IO's latency.
 */
unsigned uring_worker_threads(void);

/* Shared by the backends that run on the wall clock. */
uint64_t backend_wall_now_ns(struct backend *be);

#endif
