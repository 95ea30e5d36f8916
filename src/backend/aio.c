/*
 * aio.c — Linux native AIO backend (libaio): io_submit of the queued
 * requests (in growing chunks, see backend_submit_chunk()), then
 * io_getevents for at least the wanted completions.
 * Only truly asynchronous with O_DIRECT; buffered IO completes inside
 * io_submit, as the kernel documents.
 */
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "util/clock.h"

struct aio_backend {
	struct backend base;
	io_context_t ctx;
	int fd;
	unsigned pending;
	unsigned capacity;
	struct iocb *iocbs;		/* one control block per request slot */
	struct iocb **submit;		/* the pending ones, in order */
	struct io_event *events;
};

static int aio_queue(struct backend *be, struct io_request *req)
{
	struct aio_backend *ab = (struct aio_backend *)be;
	struct iocb *cb;

	if (ab->pending == ab->capacity)
		return -EBUSY;
	cb = &ab->iocbs[req->slot];
	if (req->op == IO_READ)
		io_prep_pread(cb, ab->fd, req->buf, req->length, (long long)req->offset);
	else
		io_prep_pwrite(cb, ab->fd, req->buf, req->length, (long long)req->offset);
	cb->data = req;
	ab->submit[ab->pending++] = cb;
	return 0;
}

/* Hand the pending requests to the kernel in backend_submit_chunk() steps. */
static int aio_submit_pending(struct aio_backend *ab)
{
	unsigned done = 0;

	while (done < ab->pending) {
		unsigned chunk = backend_submit_chunk(done, ab->pending - done);
		int ret = io_submit(ab->ctx, (long)chunk, ab->submit + done);

		if (ret < 0 && ret != -EAGAIN && ret != -EINTR)
			return ret;
		if (ret <= 0)
			break;	/* retry after reaping */
		done += (unsigned)ret;
	}
	memmove(ab->submit, ab->submit + done, (ab->pending - done) * sizeof(*ab->submit));
	ab->pending -= done;
	return 0;
}

static int aio_submit_and_reap(struct backend *be, unsigned min_complete,
			       struct io_request **done, unsigned max_done)
{
	struct aio_backend *ab = (struct aio_backend *)be;
	uint64_t now;
	int ret = aio_submit_pending(ab);

	if (ret < 0)
		return ret;
	if (max_done > ab->capacity)
		max_done = ab->capacity;
	ret = io_getevents(ab->ctx, (long)min_complete, (long)max_done, ab->events, NULL);
	if (ret < 0)
		return ret;
	now = monotonic_ns();
	for (int i = 0; i < ret; i++) {
		struct io_request *req = ab->events[i].data;

		req->result = (long)ab->events[i].res;
		req->complete_ns = now;
		done[i] = req;
	}
	return ret;
}

static void aio_close(struct backend *be)
{
	struct aio_backend *ab = (struct aio_backend *)be;

	io_destroy(ab->ctx);
	free(ab->iocbs);
	free(ab->submit);
	free(ab->events);
	free(ab);
}

static const struct backend_ops aio_ops = {
	.name = "libaio",
	.queue = aio_queue,
	.submit_and_reap = aio_submit_and_reap,
	.now_ns = backend_wall_now_ns,
	.close = aio_close,
};

int aio_backend_open(struct backend **out, const struct backend_params *p,
		     struct errmsg *err)
{
	struct aio_backend *ab = calloc(1, sizeof(*ab));
	int ret;

	if (!ab)
		return errmsg_set(err, -ENOMEM, "out of memory for the libaio backend");
	ab->capacity = p->queue_depth;
	ab->iocbs = calloc(p->queue_depth, sizeof(*ab->iocbs));
	ab->submit = calloc(p->queue_depth, sizeof(*ab->submit));
	ab->events = calloc(p->queue_depth, sizeof(*ab->events));
	if (!ab->iocbs || !ab->submit || !ab->events) {
		ret = errmsg_set(err, -ENOMEM, "out of memory for the libaio backend");
		goto fail;
	}
	ret = io_setup((int)p->queue_depth, &ab->ctx);
	if (ret < 0) {
		errmsg_set(err, ret, "io_setup: %s", strerror(-ret));
		goto fail;
	}
	ab->base.ops = &aio_ops;
	ab->fd = p->fd;
	*out = &ab->base;
	return 0;
fail:
	free(ab->iocbs);
	free(ab->submit);
	free(ab->events);
	free(ab);
	return ret;
}
