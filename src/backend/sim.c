/*
 * sim.c — the virtual-clock backend of sim.h.
 *
 * submit_and_reap hands every queued request to the model at the current
 * virtual time, then moves the clock to the earliest event — a completion
 * from the model, or a completion held back by an injected latency spike —
 * and returns everything due at that instant. now_ns() is the virtual clock,
 * which starts where the drive's previous job left it (sim.h),
 * so the engine's runtime limits, latencies and timeline are all in
 * simulated time.
 */
#include "sim.h"

#include <errno.h>
#include <stdlib.h>

#include "backend/pending.h"
#include "sim/heap.h"
#include "util/rng.h"

struct sim_backend {
	struct backend base;
	struct sim_device *dev;
	struct sim_fault_config faults;
	bool faults_on;
	struct sim_fault_counters fault_counts;
	struct rng rng;
	uint64_t now;
	struct req_heap delayed;	/* completions pushed later by a spike */
	struct pending queued;
	struct io_request *slots[];
};

static int sim_queue(struct backend *be, struct io_request *req)
{
	return pending_push(&((struct sim_backend *)be)->queued, req);
}

/* Take what the device completes at sb->now; spiked ones go to `delayed`. */
static int take_device(struct sim_backend *sb, struct io_request **done, unsigned max,
		       unsigned *n)
{
	unsigned first = *n;
	unsigned got = sb->dev->ops->complete(sb->dev, sb->now, done + first, max - first);

	if (!sb->faults_on) {
		*n += got;
		return 0;
	}
	for (unsigned i = first; i < first + got; i++) {
		struct io_request *req = done[i];
		uint64_t extra = sim_fault_apply(&sb->faults, &sb->rng, req, &sb->fault_counts);

		if (extra) {
			req->complete_ns += extra;
			if (req_heap_push(&sb->delayed, req->complete_ns, req))
				return -ENOMEM;
		} else {
			done[(*n)++] = req;	/* never overtakes i: compacts in place */
		}
	}
	return 0;
}

static int sim_submit_and_reap(struct backend *be, unsigned min_complete,
			       struct io_request **done, unsigned max_done)
{
	struct sim_backend *sb = (struct sim_backend *)be;
	unsigned n = 0;
	int ret;

	for (unsigned i = 0; i < sb->queued.count; i++) {
		ret = sb->dev->ops->submit(sb->dev, sb->queued.items[i], sb->now);
		if (ret)
			return ret;
	}
	sb->queued.count = 0;
	while (n < max_done && (n < min_complete || n == 0)) {
		uint64_t device_next = sb->dev->ops->next_completion(sb->dev);
		uint64_t next = device_next < req_heap_min(&sb->delayed)
				? device_next : req_heap_min(&sb->delayed);

		if (next == UINT64_MAX)
			break;		/* nothing in flight */
		if (next > sb->now)
			sb->now = next;
		if (device_next <= sb->now && (ret = take_device(sb, done, max_done, &n)))
			return ret;
		while (n < max_done && req_heap_min(&sb->delayed) <= sb->now)
			done[n++] = req_heap_pop(&sb->delayed);
	}
	return (int)n;
}

static int sim_reap_until(struct backend *be, uint64_t deadline_ns, struct io_request **done,
			  unsigned max_done)
{
	struct sim_backend *sb = (struct sim_backend *)be;
	uint64_t device_next, next;

	for (unsigned i = 0; i < sb->queued.count; i++) {
		int ret = sb->dev->ops->submit(sb->dev, sb->queued.items[i], sb->now);

		if (ret)
			return ret;
	}
	sb->queued.count = 0;
	device_next = sb->dev->ops->next_completion(sb->dev);
	next = device_next < req_heap_min(&sb->delayed) ? device_next : req_heap_min(&sb->delayed);
	if (next > deadline_ns) {
		if (deadline_ns > sb->now)
			sb->now = deadline_ns;
		return 0;
	}
	return sim_submit_and_reap(be, 1, done, max_done);	/* nothing queued: reaps `next` */
}

static uint64_t sim_now(struct backend *be)
{
	return ((struct sim_backend *)be)->now;
}

static void sim_close(struct backend *be)
{
	struct sim_backend *sb = (struct sim_backend *)be;

	req_heap_release(&sb->delayed);
	free(sb);
}

static const struct backend_ops sim_ops = {
	.name = "sim",
	.queue = sim_queue,
	.submit_and_reap = sim_submit_and_reap,
	.now_ns = sim_now,
	.close = sim_close,
	.reap_until = sim_reap_until,
};

int sim_backend_open(struct backend **out, const struct backend_params *p,
		     struct sim_device *dev, const struct sim_fault_config *faults,
		     uint64_t seed, uint64_t start_ns, struct errmsg *err)
{
	struct sim_backend *sb;

	sb = calloc(1, sizeof(*sb) + p->queue_depth * sizeof(sb->slots[0]));
	if (!sb)
		return errmsg_set(err, -ENOMEM, "out of memory for the sim backend");
	sb->base.ops = &sim_ops;
	sb->dev = dev;
	sb->faults = *faults;
	sb->faults_on = sim_fault_any(faults);
	sb->now = start_ns;
	rng_init(&sb->rng, seed ^ 0xfa017ULL);
	req_heap_init(&sb->delayed);
	sb->queued = (struct pending){ 0, p->queue_depth, sb->slots };
	*out = &sb->base;
	return 0;
}

void sim_backend_counters(struct backend *be, struct sim_counters *c,
			  struct sim_fault_counters *f)
{
	struct sim_backend *sb = (struct sim_backend *)be;

	sb->dev->ops->counters(sb->dev, c);
	*f = sb->fault_counts;
}
