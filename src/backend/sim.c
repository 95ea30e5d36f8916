/*
 * sim.c — the virtual-clock backend of sim.h.
 *
 * queue hands the request to the model at once, at the current virtual
 * time (the clock does not move between queue and submit_and_reap, so the
 * model sees the same requests at the same time, in the same order, as if
 * they were handed over in submit_and_reap). submit_and_reap moves the
 * clock to the earliest event — a completion from the model, or a
 * completion held back by an injected latency spike — and returns
 * everything due at that instant; without faults and a data store nothing
 * is ever held back, and a shorter loop does it (sim_reap_plain). now_ns()
 * is the virtual clock, which starts where the drive's previous job left it
 * (sim.h), so the engine's runtime limits, latencies and timeline are all in
 * simulated time. With a data store (verified runs), each request's data
 * moves between its buffer and the store when the device completes it, with
 * the injected data faults applied on the way (sim/fault.h).
 */
#include "sim.h"

#include <errno.h>
#include <stdlib.h>

#include "sim/heap.h"
#include "sim/store.h"
#include "util/rng.h"

/* What every IO touches first, in one cache line. */
struct sim_backend {
	struct backend base;
	struct sim_device *dev;
	/* dev->ops' calls of the hot path, one load away */
	int (*submit)(struct sim_device *d, struct io_request *req, uint64_t now);
	uint64_t (*next_completion)(struct sim_device *d);
	unsigned (*complete)(struct sim_device *d, uint64_t now, struct io_request **out,
			     unsigned max);
	void (*prefetch)(struct sim_device *d, uint64_t offset, uint32_t length);
	uint64_t now;
	struct backend_ops ops;		/* sim_ops, without prefetch for a model that takes no hints */
	struct sim_store *store;	/* NULL: the drive keeps no data */
	struct sim_fault_config faults;
	bool faults_on;
	struct sim_fault_counters fault_counts;
	struct rng rng;
	struct req_heap delayed;	/* completions pushed later by a spike */
};

static int sim_queue(struct backend *be, struct io_request *req)
{
	struct sim_backend *sb = (struct sim_backend *)be;

	return sb->submit(sb->dev, req, sb->now);
}

/* Move the data of a completed request through the store, faults applied. */
static int move_data(struct sim_backend *sb, struct io_request *req,
		     const struct sim_fault_effect *fx)
{
	unsigned char *buf = req->buf;

	if (req->op == IO_READ) {
		sim_store_read(sb->store, req->offset, buf, req->length);
		if (fx->data == SIM_DATA_FLIPPED)
			buf[fx->where / 8] ^= (unsigned char)(1u << (fx->where % 8));
		return 0;
	}
	switch (fx->data) {
	case SIM_DATA_LOST:
		return 0;
	case SIM_DATA_MISDIRECTED:
		return sim_store_write(sb->store, fx->where, buf, req->length);
	case SIM_DATA_TORN:
		return sim_store_write(sb->store, req->offset, buf, fx->where);
	default:
		return sim_store_write(sb->store, req->offset, buf, req->length);
	}
}

/* Faults, then data, of one request the device completed; a spike delays it. */
static int finish(struct sim_backend *sb, struct io_request *req, uint64_t *extra_ns)
{
	struct sim_fault_scope scope = { sb->dev->capacity, sb->dev->sector, true };
	struct sim_fault_effect fx = { 0, SIM_DATA_INTACT, 0 };

	if (sb->faults_on) {
		if (sb->store && req->op == IO_READ)
			scope.data_written = sim_store_holds(sb->store, req->offset, req->length);
		sim_fault_apply(&sb->faults, &sb->rng, req, &scope, &sb->fault_counts, &fx);
	}
	*extra_ns = fx.extra_ns;
	if (sb->store && req->result == (int64_t)req->length)
		return move_data(sb, req, &fx);
	return 0;
}

/* Take what the device completes at sb->now; spiked ones go to `delayed`. */
static int take_device(struct sim_backend *sb, struct io_request **done, unsigned max,
		       unsigned *n)
{
	unsigned first = *n;
	unsigned got = sb->complete(sb->dev, sb->now, done + first, max - first);

	for (unsigned i = first; i < first + got; i++) {
		struct io_request *req = done[i];
		uint64_t extra;
		int ret = finish(sb, req, &extra);

		if (ret)
			return ret;
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

/* One step of sim_reap_plain: the clock to the next completion, what is due then. */
static inline __attribute__((always_inline)) unsigned reap_step(struct sim_backend *sb,
								   struct io_request **done,
								   unsigned max, bool *idle)
{
	uint64_t next = sb->next_completion(sb->dev);

	*idle = next == UINT64_MAX;	/* nothing in flight */
	if (*idle)
		return 0;
	if (next > sb->now)
		sb->now = next;
	return sb->complete(sb->dev, sb->now, done, max);
}

/* sim_reap_plain's further steps, when one was not enough. */
static int __attribute__((noinline)) reap_more(struct sim_backend *sb, unsigned min_complete,
					       struct io_request **done, unsigned max_done,
					       unsigned n)
{
	bool idle = false;

	while (!idle && n < max_done && (n < min_complete || n == 0))
		n += reap_step(sb, done + n, max_done - n, &idle);
	return (int)n;
}

/*
 * submit_and_reap without faults and store (sim_backend_open sets it in their
 * place): every completion is the device's, none is ever held back. The
 * first step (mostly the only one) is apart from the loop.
 */
static int sim_reap_plain(struct backend *be, unsigned min_complete,
			  struct io_request **done, unsigned max_done)
{
	struct sim_backend *sb = (struct sim_backend *)be;
	bool idle;
	unsigned n;

	if (!max_done)
		return 0;
	n = reap_step(sb, done, max_done, &idle);
	if (idle || n >= max_done || (n >= min_complete && n))
		return (int)n;
	return reap_more(sb, min_complete, done, max_done, n);
}

/*
 * The requests were handed over by sim_queue: move the clock to the next
 * completion. Only with faults or a data store (sim_reap_plain otherwise).
 */
static int sim_submit_and_reap(struct backend *be, unsigned min_complete,
			       struct io_request **done, unsigned max_done)
{
	struct sim_backend *sb = (struct sim_backend *)be;
	unsigned n = 0;
	int ret;

	while (n < max_done && (n < min_complete || n == 0)) {
		uint64_t device_next = sb->next_completion(sb->dev);
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
	uint64_t device_next = sb->next_completion(sb->dev);
	uint64_t next = device_next < req_heap_min(&sb->delayed)
			? device_next : req_heap_min(&sb->delayed);

	if (next > deadline_ns) {
		if (deadline_ns > sb->now)
			sb->now = deadline_ns;
		return 0;
	}
	return be->ops->submit_and_reap(be, 1, done, max_done);	/* reaps `next` */
}

/* The engine's hint of an IO to come, passed on to the model. */
static void sim_prefetch(struct backend *be, uint64_t offset, uint32_t length)
{
	struct sim_backend *sb = (struct sim_backend *)be;

	sb->prefetch(sb->dev, offset, length);
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
	.prefetch = sim_prefetch,
};

int sim_backend_open(struct backend **out, const struct backend_params *p,
		     struct sim_device *dev, struct sim_store *store,
		     const struct sim_fault_config *faults, uint64_t seed, uint64_t start_ns,
		     struct errmsg *err)
{
	struct sim_backend *sb;

	(void)p;	/* the model takes any number of requests */
	sb = calloc(1, sizeof(*sb));
	if (!sb)
		return errmsg_set(err, -ENOMEM, "out of memory for the sim backend");
	sb->ops = sim_ops;
	if (!dev->ops->prefetch)
		sb->ops.prefetch = NULL;	/* the engine then skips the call */
	sb->base.ops = &sb->ops;
	sb->dev = dev;
	sb->submit = dev->ops->submit;
	sb->next_completion = dev->ops->next_completion;
	sb->complete = dev->ops->complete;
	sb->prefetch = dev->ops->prefetch;
	sb->store = store;
	sb->faults = *faults;
	sb->faults_on = sim_fault_any(faults);
	if (!sb->faults_on && !store)
		sb->ops.submit_and_reap = sim_reap_plain;
	sb->now = start_ns;
	rng_init(&sb->rng, seed ^ 0xfa017ULL);
	req_heap_init(&sb->delayed);
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

unsigned sim_backend_member_counters(struct backend *be, struct sim_counters *out,
				     unsigned max)
{
	struct sim_device *d = ((struct sim_backend *)be)->dev;

	return d->ops->member_counters ? d->ops->member_counters(d, out, max) : 0;
}
