/* replay.c — the trace replay driver of replay.h, over the backend operations. */
#include "replay.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/bug.h"

/* Not ready: a closed trace's next request waits for a completion. */
#define NOT_READY UINT64_MAX

struct replay_state {
	const struct trace *t;
	const struct replay_options *o;
	struct backend *be;
	struct replay_result *r;
	struct io_request *reqs;	/* one per slot */
	size_t *index;			/* per slot: which trace request it carries */
	uint64_t *arrival;		/* per slot */
	unsigned *free_slots;
	unsigned n_free;
	struct io_request **done;
	size_t next;			/* next trace request to issue */
	uint64_t t0;			/* the clock when the replay began */
	uint64_t last_complete;
	bool failed;
};

/* When trace request `i` arrives, on the backend's clock. */
static uint64_t arrival_of(const struct replay_state *st, size_t i)
{
	const struct trace_req *q = &st->t->reqs[i];

	if (st->o->speed == REPLAY_ASFAST)
		return 0;
	if (st->t->closed)
		return st->n_free == st->r->qd ? st->last_complete + q->time_ns : NOT_READY;
	return st->t0 + (q->time_ns - st->t->reqs[0].time_ns);
}

static int issue(struct replay_state *st, uint64_t now, uint64_t arrival)
{
	const struct trace_req *q = &st->t->reqs[st->next];
	unsigned slot = st->free_slots[--st->n_free];
	struct io_request *req = &st->reqs[slot];

	req->offset = q->offset;
	req->length = q->length;
	req->op = q->op;
	req->submit_ns = now;
	req->complete_ns = 0;
	req->result = 0;
	st->index[slot] = st->next++;
	st->arrival[slot] = arrival && arrival < now ? arrival : now;
	return backend_queue(st->be, req);
}

static void complete(struct replay_state *st, struct io_request *req)
{
	struct replay_result *r = st->r;
	uint64_t service = req->complete_ns - req->submit_ns;

	BUG_ON(req->slot >= r->qd);
	st->free_slots[st->n_free++] = req->slot;
	if (req->complete_ns > st->last_complete)
		st->last_complete = req->complete_ns;
	if (req->result != (int64_t)req->length) {
		if (!r->error.set)
			r->error = (struct run_error){ true, req->op, req->offset, req->length,
						       req->result };
		st->failed = true;
		return;
	}
	r->ios[req->op]++;
	r->bytes[req->op] += req->length;
	hist_add(&r->service, service);
	hist_add(&r->response, req->complete_ns - st->arrival[req->slot]);
	r->service_ns[st->index[req->slot]] = service;
	r->completed++;
}

/* Issue what is ready, then wait for completions or the next arrival. */
static int step(struct replay_state *st, const volatile sig_atomic_t *stop)
{
	uint64_t now = backend_now_ns(st->be), ready = NOT_READY;
	unsigned qd = st->r->qd;
	int got, ret;

	if (stop && *stop && st->next < st->t->n) {
		st->r->interrupted = true;
		st->next = st->t->n;
	}
	if (st->failed)
		st->next = st->t->n;
	while (st->next < st->t->n && st->n_free) {
		ready = arrival_of(st, st->next);
		if (ready > now)
			break;
		if ((ret = issue(st, now, ready)))
			return ret;
		ready = NOT_READY;
	}
	if (ready != NOT_READY && st->n_free)
		got = backend_reap_until(st->be, ready, st->done, qd);
	else if (st->n_free < qd)
		got = backend_submit_and_reap(st->be, 1, st->done, qd);
	else
		return 0;
	if (got == -EINTR)
		return 0;
	if (got < 0)
		return got;
	for (int i = 0; i < got; i++)
		complete(st, st->done[i]);
	return 0;
}

static int drive(struct replay_state *st, const volatile sig_atomic_t *stop, struct errmsg *err)
{
	int ret = 0;

	st->t0 = backend_now_ns(st->be);
	st->last_complete = st->t0;
	while (!ret && (st->next < st->t->n || st->n_free < st->r->qd))
		ret = step(st, stop);
	st->r->elapsed_ns = st->last_complete - st->t0;
	if (ret)
		return errmsg_set(err, ret, "the %s backend failed: %s", st->r->engine,
				  strerror(-ret));
	return st->failed ? -EIO : 0;
}

static int alloc_state(struct replay_state *st, unsigned qd, const struct io_buffers *bufs)
{
	st->reqs = calloc(qd, sizeof(*st->reqs));
	st->index = calloc(qd, sizeof(*st->index));
	st->arrival = calloc(qd, sizeof(*st->arrival));
	st->free_slots = calloc(qd, sizeof(*st->free_slots));
	st->done = calloc(qd, sizeof(*st->done));
	if (!st->reqs || !st->index || !st->arrival || !st->free_slots || !st->done)
		return -ENOMEM;
	for (unsigned i = 0; i < qd; i++) {
		st->reqs[i].slot = i;
		st->reqs[i].buf_index = i % bufs->count;
		st->reqs[i].buf = (char *)bufs->base + (size_t)st->reqs[i].buf_index * bufs->size;
		st->free_slots[i] = qd - 1 - i;
	}
	st->n_free = qd;
	return 0;
}

static void free_state(struct replay_state *st)
{
	free(st->reqs);
	free(st->index);
	free(st->arrival);
	free(st->free_slots);
	free(st->done);
}

int replay_run(struct measure_target *m, const struct trace *t, const struct replay_options *o,
	       const volatile sig_atomic_t *stop, struct replay_result *r, struct errmsg *err)
{
	bool real = m->t.kind == TARGET_FILE || m->t.kind == TARGET_BLOCK;
	uint64_t size = trace_max_length(t);
	struct replay_state st = { .t = t, .o = o, .r = r };
	struct io_buffers bufs;
	int ret;

	BUG_ON(!t->n || !o->qd);
	memset(r, 0, sizeof(*r));
	hist_init(&r->service);
	hist_init(&r->response);
	r->qd = t->closed && o->speed == REPLAY_TIMED ? 1 : o->qd;
	r->service_ns = calloc(t->n, sizeof(*r->service_ns));
	if (!r->service_ns)
		return errmsg_set(err, -ENOMEM, "out of memory for %zu requests", t->n);
	if (io_buffers_alloc(&bufs, size, r->qd, real ? MEASURE_BUFFER_LIMIT : size, o->seed, real))
		return errmsg_set(err, -ENOMEM, "out of memory for %u buffers of %llu bytes",
				  r->qd, (unsigned long long)size);
	ret = measure_backend_open(m, &r->qd, &bufs, &st.be, err);
	if (!ret) {
		r->engine = backend_name(st.be);
		ret = alloc_state(&st, r->qd, &bufs) ? errmsg_set(err, -ENOMEM, "out of memory")
						      : drive(&st, stop, err);
		measure_backend_close(m, st.be);
	}
	free_state(&st);
	io_buffers_release(&bufs);
	return ret;
}

void replay_result_release(struct replay_result *r)
{
	free(r->service_ns);
	r->service_ns = NULL;
}
