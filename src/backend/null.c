/*
 * null.c — the null backend: every IO completes, in full, the moment it is
 * submitted. Measuring it measures the tool's own cost per IO.
 */
#include <errno.h>
#include <stdlib.h>

#include "backend.h"
#include "pending.h"
#include "util/clock.h"

struct null_backend {
	struct backend base;
	struct pending queued;
	struct io_request *slots[];
};

static int null_queue(struct backend *be, struct io_request *req)
{
	return pending_push(&((struct null_backend *)be)->queued, req);
}

static int null_submit_and_reap(struct backend *be, unsigned min_complete,
				struct io_request **done, unsigned max_done)
{
	struct null_backend *nb = (struct null_backend *)be;
	unsigned n = pending_take(&nb->queued, done, max_done);
	uint64_t now = monotonic_ns();

	(void)min_complete;
	for (unsigned i = 0; i < n; i++) {
		done[i]->result = done[i]->length;
		done[i]->complete_ns = now;
	}
	return (int)n;
}

static void null_close(struct backend *be)
{
	free(be);
}

static const struct backend_ops null_ops = {
	.name = "null",
	.queue = null_queue,
	.submit_and_reap = null_submit_and_reap,
	.now_ns = backend_wall_now_ns,
	.close = null_close,
};

int null_backend_open(struct backend **out, const struct backend_params *p,
		      struct errmsg *err)
{
	struct null_backend *nb;

	nb = calloc(1, sizeof(*nb) + p->queue_depth * sizeof(nb->slots[0]));
	if (!nb)
		return errmsg_set(err, -ENOMEM, "out of memory for the null backend");
	nb->base.ops = &null_ops;
	nb->queued = (struct pending){ 0, p->queue_depth, nb->slots };
	*out = &nb->base;
	return 0;
}
