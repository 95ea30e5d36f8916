/*
 * psync.c — synchronous pread/pwrite backend. IOs run one at a time inside
 * submit_and_reap; each request's submit time is re-stamped just before its
 * system call, so its latency is its own service time even when the engine
 * queued several (the effective queue depth is always 1).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "backend.h"
#include "pending.h"
#include "util/clock.h"

struct psync_backend {
	struct backend base;
	int fd;
	struct pending queued;
	struct io_request *slots[];
};

static int psync_queue(struct backend *be, struct io_request *req)
{
	return pending_push(&((struct psync_backend *)be)->queued, req);
}

static void psync_do(int fd, struct io_request *req)
{
	ssize_t ret;

	req->submit_ns = monotonic_ns();
	do {
		if (req->op == IO_READ)
			ret = pread(fd, req->buf, req->length, (off_t)req->offset);
		else
			ret = pwrite(fd, req->buf, req->length, (off_t)req->offset);
	} while (ret < 0 && errno == EINTR);
	req->complete_ns = monotonic_ns();
	req->result = ret < 0 ? -errno : ret;
}

static int psync_submit_and_reap(struct backend *be, unsigned min_complete,
				 struct io_request **done, unsigned max_done)
{
	struct psync_backend *pb = (struct psync_backend *)be;
	unsigned n = pending_take(&pb->queued, done, max_done);

	(void)min_complete;
	for (unsigned i = 0; i < n; i++)
		psync_do(pb->fd, done[i]);
	return (int)n;
}

static void psync_close(struct backend *be)
{
	free(be);
}

static const struct backend_ops psync_ops = {
	.name = "psync",
	.queue = psync_queue,
	.submit_and_reap = psync_submit_and_reap,
	.now_ns = backend_wall_now_ns,
	.close = psync_close,
};

int psync_backend_open(struct backend **out, const struct backend_params *p,
		       struct errmsg *err)
{
	struct psync_backend *pb;

	pb = calloc(1, sizeof(*pb) + p->queue_depth * sizeof(pb->slots[0]));
	if (!pb)
		return errmsg_set(err, -ENOMEM, "out of memory for the psync backend");
	pb->base.ops = &psync_ops;
	pb->fd = p->fd;
	pb->queued = (struct pending){ 0, p->queue_depth, pb->slots };
	*out = &pb->base;
	return 0;
}
