/*
 * raid.c — the simulated RAID array: a controller that turns each host
 * request into member requests, hands them to its members (simulated drives
 * of their own, each with its own state and queue) and completes the host
 * request when the last of them is done; driven by the virtual clock of
 * backend/sim.c through the operations of device.h.
 *
 * An array operation (struct array_op, raid_array.h) is planned once when
 * it starts (raid_plan.c) as two lists of member extents, reads then
 * writes, and runs them as two phases.
 * With the controller's write-back cache on, a host write completes as soon
 * as it is in the cache, and the array destages it later as an operation of
 * its own (contiguous cached writes merged into one, so that sequential
 * small writes become full rows). In verified runs (keep_data) the data
 * moves with the timing, through raid_data.h: a cached write's data is
 * copied as it enters the cache (cache_put), merged with the operation
 * (destage_more) and written to the members when its destage is done; a
 * host read or uncached write moves its data when it completes (finish_op).
 *
 * Invariants:
 *  1. Member requests are submitted in time order: at the host's submission
 *     time or at the completion that releases them, never before the latest
 *     time the array has processed (array->clock).
 *  2. An operation is in exactly one state at a time (below); `pending`
 *     counts its member requests in flight in the current phase, and the
 *     phase ends when it reaches 0 (timed: the operation is in `events`,
 *     at the end of its phase, until it ends).
 *  3. next_completion() processes member completions in time order up to
 *     the earliest host completion and returns it; it never processes one
 *     later than the host completion it returns, so a host that submits at
 *     that time finds every member at or before it. Host completions are
 *     queued at the array's clock plus controller_ns, so (by 1) in time
 *     order: a FIFO (heap.h req_fifo, which checks it) holds them.
 *     Timed (every member detached, device.h: RAID 0, 5 and 6 of SSDs),
 *     the members hand over each request's completion time at submission,
 *     and the array asks them nothing more: it keeps each operation once
 *     in `events`, at the end of its phase, keyed (time, member, submission
 *     number) of the request that ends it, and ends phases in key order,
 *     the order in which the member by member polling (members_at) reaches
 *     the same requests; a host request earlier than the last time
 *     next_completion() returned gets the clock polling would have left
 *     (timed_clock). Same results as polling (test_sim_raid_timed), one
 *     event per phase instead of one per member request; an operation that
 *     ends leaves its place in `events` vacant (event_heap_vacate), which
 *     the next operation to start fills in one sift.
 *  4. dirty <= cache bytes; a host write waits while it does not fit.
 *  5. No member request goes to a failed member.
 *  6. Same configuration and seed, same completion times (members are
 *     seeded seed + i; the controller draws nothing at random; the data
 *     path never changes a time). The members' prefetch hint, given four
 *     IOs ahead for a request inside one chunk (raid_prefetch; to the
 *     row's parity members only while writes come) and for each other
 *     member request as the general planner adds it (the map loads then
 *     overlap the IOs before, or the rest of the plan), changes nothing;
 *     nor does the prefetch of the operations next in `events`.
 *  7. With `kept`, every cached write's data is in exactly one operation's
 *     `dirty` list until its destage finishes.
 *
 * States of an array operation, with the function of each transition:
 *
 *   host request ── raid_submit() ──▶ (cache on, write) CACHED ─┐ host done
 *        │                            waiting for room: WAITING ┘ at once
 *        ▼ start_op()                                            │ destage_more()
 *     READING ── phase_done() ──▶ WRITING ── phase_done() ──▶ DONE ◀┘ (via start_op)
 *     (skipped when the plan has no reads)   finish_op(): host completion
 *                                            pushed, or cache room freed
 */
#include "raid.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/heap.h"
#include "sim/raid_array.h"
#include "sim/raid_data.h"
#include "sim/spec.h"
#include "util/bug.h"

/* next[] has at least this many entries, those past the members UINT64_MAX. */
#define NEXT_PAD 8

static struct raid_array *to_array(struct sim_device *d)
{
	return (struct raid_array *)d;
}

/* --- running --- */

static struct array_op *op_get(struct raid_array *a)
{
	struct array_op *op = a->free_ops;

	if (op) {
		a->free_ops = op->next;
		return op;
	}
	op = aligned_alloc(OP_ALIGN, sizeof(*op));
	if (op) {
		memset(op, 0, sizeof(*op));
		op->list[0] = (struct extent_list){ op->room[1], 0, OP_ROOM };
		op->list[1] = (struct extent_list){ op->room[0], 0, OP_ROOM };
		op->next_alloc = a->all_ops;
		a->all_ops = op;
	}
	return op;
}

/*
 * A fresh operation for host request `req`, its extent lists' room and its
 * place in all_ops kept; field by field, as a compound literal becomes a
 * `rep stos` of the whole, slower on this hot path. phase_seq, end and
 * end_tie are set by submit_timed before anything reads them.
 */
static void op_init(struct array_op *op, struct io_request *req)
{
	op->host = req;
	op->offset = req->offset;
	op->length = req->length;
	op->op = req->op;
	op->phase = op->pending = 0;
	op->error = op->phase_error = 0;
	op->dirty = NULL;
	op->next = NULL;
}

static void op_put(struct raid_array *a, struct array_op *op)
{
	op->next = a->free_ops;
	a->free_ops = op;
}

__extension__ typedef unsigned __int128 rank;	/* (time, tie) as one number */

/* Timed: a failed member request of op's phase, at rank rk: the phase's error if the latest. */
static __attribute__((noinline, cold)) void note_error(struct array_op *op, rank *last_err, rank rk,
						       int64_t result)
{
	if (rk > *last_err) {
		op->phase_error = (int)result;
		*last_err = rk;
	}
}

/*
 * Timed (members detached, device.h): submit the phase's member requests,
 * whose completion times come back at once, and set the operation's key in
 * `events` for the end of its phase: (time, member << 58 | submission
 * number) of the request that ends it, the order in which the member by
 * member scan of members_at() would reach that request, so phases end in
 * the same order. The phase's error is that of its failed request that
 * scan would reach last. The caller queues it (submit_phase, or
 * timed_next_completion for a second phase).
 */
static inline __attribute__((always_inline)) int submit_timed(struct raid_array *a,
							       struct array_op *op, uint64_t t)
{
	struct extent_list *l = &op->list[op->phase];
	struct extent *e = l->e, *end = e + l->len;	/* a pointer walk: fewer registers */
	struct io_request req = { .op = op->phase ? IO_WRITE : IO_READ, .submit_ns = t };
	uint64_t seq = a->submits;	/* kept here: the member's submit may write any memory */
	rank last = 0, last_err = 0;	/* last_err in memory: a failure is rare (note_error) */

	op->phase_seq = seq;
	op->phase_error = 0;
	for (; e < end; e++) {
		uint64_t k = (uint64_t)e->member << 58 | seq++;
		rank rk;
		int ret;

		req.offset = e->off;
		req.length = (uint32_t)e->len;
		BUG_ON(a->member[e->member]->ops->submit != a->submit);
		ret = a->submit(a->member[e->member], &req, t);
		if (ret) {
			a->submits = seq;
			return ret;
		}
		BUG_ON(failed(a, e->member) || e->len > UINT32_MAX || req.complete_ns <= t);
		e->done = req.complete_ns;
		rk = (rank)e->done << 64 | k;
		last = rk > last ? rk : last;	/* no branch: which one ends last is random */
		if (__builtin_expect(req.result < 0, 0))
			note_error(op, &last_err, rk, req.result);
	}
	a->submits = seq;
	op->end = (uint64_t)(last >> 64);
	op->end_tie = (uint64_t)last;
	return 0;
}

/* Polled (members not detached): submit the phase's member requests, each a member_io. */
static __attribute__((noinline)) int submit_polled(struct raid_array *a, struct array_op *op,
						   uint64_t t)
{
	const struct extent_list *l = &op->list[op->phase];

	op->pending = l->len;
	for (unsigned i = 0; i < l->len; i++) {
		struct member_io *io = a->free_ios;
		int ret;

		if (io) {
			a->free_ios = io->next_free;
		} else {
			io = calloc(1, sizeof(*io));
			if (!io)
				return -ENOMEM;
			io->next_alloc = a->all_ios;
			a->all_ios = io;
		}
		io->op = op;
		io->member = l->e[i].member;
		io->req = (struct io_request){ .offset = l->e[i].off, .length = (uint32_t)l->e[i].len,
					       .op = op->phase ? IO_WRITE : IO_READ, .submit_ns = t };
		BUG_ON(failed(a, io->member) || l->e[i].len > UINT32_MAX);
		if (a->mirrored) {
			a->last_end[io->member] = l->e[i].off + l->e[i].len;
			a->inflight[io->member]++;
		}
		a->stale |= 1ULL << io->member;
		ret = a->member[io->member]->ops->submit(a->member[io->member], &io->req, t);
		if (ret)
			return ret;
	}
	return 0;
}

/* Submit the member requests of op's phase at t. */
static inline __attribute__((always_inline)) int submit_phase(struct raid_array *a,
							       struct array_op *op, uint64_t t)
{
	int ret;

	if (!a->timed)
		return submit_polled(a, op, t);
	ret = submit_timed(a, op, t);
	return ret ? ret : event_heap_push(&a->events, op->end, op);
}

static int finish_op(struct raid_array *a, struct array_op *op, uint64_t t);

/* Plan `op` and start its first phase at t. */
static inline __attribute__((always_inline)) int start_op(struct raid_array *a,
							   struct array_op *op, uint64_t t)
{
	int ret = raid_plan_op(a, op);

	if (ret)
		return ret;
	op->phase = op->list[0].len ? 0 : 1;
	op->error = 0;
	if (!op->list[op->phase].len)
		return finish_op(a, op, t);	/* nothing survives to do it: complete */
	return submit_phase(a, op, t);
}

static int destage_more(struct raid_array *a, uint64_t t)
{
	while (a->destage_head && a->destaging < a->cfg.destage_depth) {
		struct array_op *op = a->destage_head;
		int ret;

		a->destage_head = op->next;
		/* merge the contiguous writes queued behind it (sequential small writes → rows) */
		while (a->destage_head && a->destage_head->offset == op->offset + op->length &&
		       op->length + a->destage_head->length <= (64ULL << 20)) {
			struct array_op *next = a->destage_head;

			op->length += next->length;
			a->destage_head = next->next;
			if (a->kept)
				raid_data_merge(&op->dirty, next->dirty);
			next->dirty = NULL;
			op_put(a, next);
		}
		a->destaging++;
		ret = start_op(a, op, t);
		if (ret)
			return ret;
	}
	return 0;
}

/* Take host write `op` into the cache at t: it completes now, a destage follows. */
static int cache_put(struct raid_array *a, struct array_op *op, uint64_t t)
{
	if (a->kept && raid_data_cache(a->kept, op->offset, op->length, op->host->buf, &op->dirty))
		return -ENOMEM;
	a->dirty += op->length;
	op->host->result = (int64_t)op->length;
	if (req_fifo_push(&a->done, t + a->controller_ns, op->host))
		return -ENOMEM;
	op->host = NULL;
	op->next = NULL;
	if (a->destage_tail && a->destage_head)
		a->destage_tail->next = op;
	else
		a->destage_head = op;
	a->destage_tail = op;
	return destage_more(a, t);
}

/* Verified runs: the data of a finished operation (raid_data.h). */
static int finish_data(struct raid_array *a, struct array_op *op)
{
	struct raid_dirty *dirty = op->dirty;

	op->dirty = NULL;
	if (!op->host)
		return raid_data_destage(a->kept, dirty);
	if (op->error)
		return 0;
	if (op->op == IO_READ)
		return raid_data_read(a->kept, op->offset, op->length, op->host->buf);
	return raid_data_write(a->kept, op->offset, op->length, op->host->buf);
}

/* Host request op done at t (its data, if kept, moved): its completion queued. */
static inline int host_done(struct raid_array *a, struct array_op *op, uint64_t t)
{
	int ret;

	op->host->result = op->error ? op->error : (int64_t)op->length;
	ret = req_fifo_push(&a->done, t + a->controller_ns, op->host);
	op_put(a, op);
	return ret;
}

static int finish_op(struct raid_array *a, struct array_op *op, uint64_t t)
{
	int ret = a->kept ? finish_data(a, op) : 0;

	if (ret)
		return ret;
	if (op->host)
		return host_done(a, op, t);
	BUG_ON(a->dirty < op->length || !a->destaging);
	a->dirty -= op->length;
	a->destaging--;
	op_put(a, op);
	while (!ret && a->wait_head && a->dirty + a->wait_head->length <= a->cache_bytes) {
		struct array_op *w = a->wait_head;

		a->wait_head = w->next;
		ret = cache_put(a, w, t);
	}
	return ret ? ret : destage_more(a, t);
}

/* The last member request of op's phase is done at t: the next phase, or the end. */
static int phase_done(struct raid_array *a, struct array_op *op, uint64_t t)
{
	if (op->phase == 0 && op->list[1].len) {
		op->phase = 1;
		return submit_phase(a, op, t);
	}
	return finish_op(a, op, t);
}

static int member_done(struct raid_array *a, struct member_io *io, uint64_t t)
{
	struct array_op *op = io->op;

	if (io->req.result < 0)
		op->error = (int)io->req.result;
	if (a->mirrored)
		a->inflight[io->member]--;
	io->next_free = a->free_ios;
	a->free_ios = io;
	BUG_ON(!op->pending);
	if (--op->pending)
		return 0;
	return phase_done(a, op, t);
}

/*
 * Timed: the clock the member by member scan would have left, at least t:
 * the latest completion it passed, which, besides the phase ends, is any
 * member request already submitted at the last next_completion() that ends
 * before the time that returned. Asked only of a host request earlier than
 * that time (a spike's delayed completion, a rate limit); completions come
 * later than their submission, so these times never fall behind.
 */
static uint64_t timed_clock(const struct raid_array *a, uint64_t t)
{
	for (unsigned i = a->events.hole; i < a->events.len; i++) {
		const struct array_op *op = a->events.entries[i].item;
		const struct extent_list *l = &op->list[op->phase];

		if (op->phase_seq >= a->returned_seq)
			continue;	/* its phase started after that next_completion() */
		for (unsigned j = 0; j < l->len; j++)
			if (l->e[j].done < a->returned && l->e[j].done > t)
				t = l->e[j].done;
	}
	return t;
}

static int raid_submit(struct sim_device *d, struct io_request *req, uint64_t now)
{
	struct raid_array *a = to_array(d);
	struct array_op *op = op_get(a);
	uint64_t t = now > a->clock ? now : a->clock;

	if (a->timed && now < a->returned)
		t = timed_clock(a, t);
	if (!op)
		return -ENOMEM;
	a->clock = t;
	op_init(op, req);
	a->writes_seen = a->writes_seen << 1 | (req->op == IO_WRITE);
	if (req->op == IO_READ)
		a->count.host_read_bytes += req->length;
	else
		a->count.host_write_bytes += req->length;
	if (req->op == IO_WRITE && a->cfg.controller_cache) {
		if (a->dirty + op->length <= a->cache_bytes && !a->wait_head)
			return cache_put(a, op, t);
		if (op->length > a->cache_bytes)	/* larger than the cache: straight through */
			return start_op(a, op, t);
		op->next = NULL;
		if (a->wait_head)
			a->wait_tail->next = op;
		else
			a->wait_head = op;
		a->wait_tail = op;
		return 0;
	}
	return start_op(a, op, t);
}

/* Member m's next completion, asked again only when something changed. */
static uint64_t member_next(struct raid_array *a, unsigned m)
{
	if (a->stale >> m & 1) {
		a->next[m] = a->member[m]->ops->next_completion(a->member[m]);
		a->stale &= ~(1ULL << m);
	}
	return a->next[m];
}

/*
 * Member m's completions due at t, until it has none left at t (handling one
 * may submit another to m that is due at once); its next completion is then
 * known, and stays so until the array submits to m again.
 */
static inline __attribute__((always_inline)) int member_at(struct raid_array *a, unsigned m,
							  uint64_t t)
{
	struct sim_device *md = a->member[m];
	struct io_request *out[64];
	uint64_t next;

	do {
		unsigned got = md->ops->complete(md, t, out, 64);

		for (unsigned i = 0; i < got; i++) {
			int ret = member_done(a, (struct member_io *)out[i], t);

			if (ret) {
				a->stale |= 1ULL << m;
				return ret;
			}
		}
	} while ((next = md->ops->next_completion(md)) <= t);
	a->next[m] = next;
	a->stale &= ~(1ULL << m);
	return 0;
}

/*
 * Process every member completion due at t, member by member in index
 * order: the members in `due` (bit m: member m's next completion is t) and
 * any that a completion handled here submits to, which may be due at t too;
 * every other member's next completion is known and later than t.
 */
static int members_at(struct raid_array *a, uint64_t t, uint64_t due)
{
	a->clock = t;
	for (unsigned m = 0; m < a->n; m++) {
		uint64_t todo = (due | a->stale) >> m;
		int ret;

		if (!todo)
			break;
		m += (unsigned)__builtin_ctzll(todo);
		ret = member_next(a, m) <= t ? member_at(a, m, t) : 0;
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The earliest next completion of all members. next[] holds at least
 * NEXT_PAD entries (those past the members UINT64_MAX), so that an array of
 * up to 8 members scans a fixed 8, a loop the compiler unrolls; branch-free
 * (cmov): the times are random.
 */
static uint64_t members_next(struct raid_array *a)
{
	unsigned n = a->n <= NEXT_PAD ? NEXT_PAD : a->n;
	uint64_t t = UINT64_MAX;

	while (a->stale)
		member_next(a, (unsigned)__builtin_ctzll(a->stale));
	if (n == NEXT_PAD)
		for (unsigned m = 0; m < NEXT_PAD; m++)
			t = a->next[m] < t ? a->next[m] : t;
	else
		for (unsigned m = 0; m < n; m++)
			t = a->next[m] < t ? a->next[m] : t;
	return t;
}

/* The members whose next completion is t (< UINT64_MAX, so no padding entry). */
static uint64_t members_due(const struct raid_array *a, uint64_t t)
{
	uint64_t mask = 0;

	if (a->n <= NEXT_PAD)
		for (unsigned m = 0; m < NEXT_PAD; m++)
			mask |= (uint64_t)(a->next[m] == t) << m;
	else
		for (unsigned m = 0; m < a->n; m++)
			mask |= (uint64_t)(a->next[m] == t) << m;
	return mask;
}

/*
 * Timed: start loading what the end of the next phase will read of its
 * operation, which is now at entries[1] or [2] of `events` (or is the
 * first, again): the lines of array_op's fields and of its writes' room.
 * The SSD work of this phase end hides the loads. A hint: no result changes.
 */
static inline void prefetch_next_ops(const struct event_heap *h)
{
	for (unsigned i = 1; i < 3 && i < h->len; i++) {
		const char *op = h->entries[i].item;

		__builtin_prefetch(op);
		__builtin_prefetch(op + 2 * OP_ALIGN);
		__builtin_prefetch(op + 3 * OP_ALIGN);
	}
}

/*
 * Timed: the end of op's phase at t, op first in `events`, as phase_done():
 * an operation going on to its second phase takes its new place in
 * `events` in one step (its requests end later than t, so it stays first
 * meanwhile); one that ends leaves its place vacant for the next push
 * (the host's next request, most often).
 */
static inline int timed_phase_done(struct raid_array *a, struct array_op *op, uint64_t t)
{
	int ret;

	prefetch_next_ops(&a->events);
	op->error = op->phase_error ? op->phase_error : op->error;
	if (op->phase == 0 && op->list[1].len) {
		op->phase = 1;
		ret = submit_timed(a, op, t);
		if (!ret)
			event_heap_replace(&a->events, op->end, op);
		return ret;
	}
	event_heap_vacate(&a->events);
	return op->host && !a->kept ? host_done(a, op, t) : finish_op(a, op, t);
}

/* Timed: the phases that end before the next host completion, every one at its time. */
static uint64_t timed_next_completion(struct raid_array *a)
{
	uint64_t t = event_heap_min(&a->events), next;

	for (;;) {
		uint64_t t_done = req_fifo_min(&a->done);

		if (t_done <= t) {
			a->returned = t_done;
			a->returned_seq = a->submits;
			return t_done;
		}
		a->clock = t;
		do {
			if (timed_phase_done(a, event_heap_first(&a->events), t))
				return t;	/* out of memory, as below */
		} while ((next = event_heap_min(&a->events)) == t);
		t = next;
	}
}

static uint64_t raid_next_completion(struct sim_device *d)
{
	struct raid_array *a = to_array(d);

	if (a->timed)
		return timed_next_completion(a);
	for (;;) {
		uint64_t t_mem = members_next(a), t_done = req_fifo_min(&a->done);

		if (t_done <= t_mem)
			return t_done;
		if (members_at(a, t_mem, members_due(a, t_mem)))
			return t_mem;	/* out of memory: the next complete() reports nothing new */
	}
}

static unsigned raid_complete(struct sim_device *d, uint64_t now, struct io_request **out,
			      unsigned max)
{
	return req_fifo_take(&to_array(d)->done, now, out, max);
}

static unsigned raid_member_counters(const struct sim_device *d, struct sim_counters *out,
				     unsigned max)
{
	const struct raid_array *a = (const struct raid_array *)d;

	for (unsigned m = 0; m < a->n && m < max; m++)
		a->member[m]->ops->counters(a->member[m], &out[m]);
	return a->n;
}

/* The host's bytes; the media work and events of all members added up. */
static void raid_counters(const struct sim_device *d, struct sim_counters *c)
{
	const struct raid_array *a = (const struct raid_array *)d;

	*c = a->count;
	for (unsigned m = 0; m < a->n; m++) {
		struct sim_counters mc;

		a->member[m]->ops->counters(a->member[m], &mc);
		c->media_read_bytes += mc.media_read_bytes;
		c->media_write_bytes += mc.media_write_bytes;
		c->erases += mc.erases;
		c->merges += mc.merges;
		c->gc_page_moves += mc.gc_page_moves;
		c->cache_hits += mc.cache_hits;
		c->seeks += mc.seeks;
	}
}

static void raid_destroy(struct sim_device *d)
{
	struct raid_array *a = to_array(d);

	for (unsigned m = 0; m < a->n; m++)
		if (a->member[m])
			a->member[m]->ops->destroy(a->member[m]);
	while (a->all_ops) {
		struct array_op *next = a->all_ops->next_alloc;

		for (unsigned k = 0; k < 2; k++)
			if (a->all_ops->list[k].alloc > OP_ROOM)
				free(a->all_ops->list[k].e);
		free(a->all_ops);
		a->all_ops = next;
	}
	while (a->all_ios) {
		struct member_io *next = a->all_ios->next_alloc;

		free(a->all_ios);
		a->all_ios = next;
	}
	req_fifo_release(&a->done);
	event_heap_release(&a->events);
	raid_data_free(a->kept);
	free(a->member);
	free(a->last_end);
	free(a->inflight);
	free(a->next);
	free(a->last_idx);
	free(a);
}

/* Keep the data from now on (device.h): member stores, cached data, parity. */
static int raid_keep_data(struct sim_device *d, uint64_t limit)
{
	struct raid_array *a = to_array(d);

	return a->kept ? 0 : raid_data_create(&a->kept, &a->cfg, limit, a->seed);
}

/*
 * The engine's hint, a few requests ahead: pass it on to the members a
 * request inside one chunk would reach (RAID 0: its member; RAID 5/6: its
 * data member and the row's parity members, which a small write reads and
 * writes, the latter only while any of the last 64 host requests was a
 * write: a read would leave them unused), at the members' offset.
 * Mirrored arrays pick their member at submission (nearest head), and
 * requests over several chunks get their members' hints when planned;
 * neither is hinted here. A hint only.
 */
static void raid_prefetch(struct sim_device *d, uint64_t offset, uint32_t length)
{
	struct raid_array *a = to_array(d);
	uint64_t s = a->cfg.stripe, chunk = quot(&a->by_stripe, offset), in = offset - chunk * s;
	uint64_t row, off;
	unsigned p0, q, np;
	void (*hint)(struct sim_device *d, uint64_t offset, uint32_t length);
	struct sim_device **member;

	if (a->mirrored || !length || in + length > s || !a->hint)
		return;
	if (!a->parity) {
		unsigned m = chunk_member(a, chunk, &row);

		hint_member(a, m, row * s + in, length);
		return;
	}
	row = quot(&a->by_data, chunk);
	off = row * s + in;
	p0 = parity_member(a, row, 0);
	/* written out, what the calls need in registers (a hint may write any memory) */
	hint = a->hint;
	member = a->member;
	np = a->writes_seen ? a->parity : 0;	/* P, Q */
	q = raid_sim_row_member(a->n, p0, 1);
	BUG_ON(member[p0]->ops->prefetch != hint);
	hint(member[raid_sim_row_member(a->n, p0, a->parity + (unsigned)(chunk - row * a->data))],
	     off, length);
	if (np)
		hint(member[p0], off, length);
	if (np > 1)
		hint(member[q], off, length);
}

static const struct sim_device_ops raid_ops = {
	.submit = raid_submit,
	.keep_data = raid_keep_data,
	.next_completion = raid_next_completion,
	.complete = raid_complete,
	.counters = raid_counters,
	.member_counters = raid_member_counters,
	.destroy = raid_destroy,
	.prefetch = raid_prefetch,
	.discard = raid_discard,
};

/*
 * Keep the members' completion times in the array (device.h detach) when
 * every member can hand them over at submission; not for RAID 1/10, whose
 * choice of mirror counts each member's requests in flight one by one, nor
 * with poll_members (the unit test compares the two ways).
 */
static void detach_members(struct raid_array *a)
{
	a->timed = !a->mirrored && !a->cfg.poll_members;
	for (unsigned m = 0; m < a->n && a->timed; m++)
		a->timed = a->member[m]->ops->detach && !a->member[m]->ops->detach(a->member[m], true);
	for (unsigned m = 0; m < a->n && a->timed; m++)
		a->member[m]->ops->detach(a->member[m], false);
}

static int build_members(struct raid_array *a, uint64_t seed, struct errmsg *err)
{
	char text[160];
	uint64_t smallest = UINT64_MAX;

	raid_sim_member_spec(&a->cfg, text, sizeof(text));
	for (unsigned m = 0; m < a->n; m++) {
		struct sim_spec spec;
		int ret = sim_spec_parse(&spec, text, err);

		if (!ret) {
			ret = sim_spec_create(&spec, seed + m, &a->member[m], err);
			sim_spec_release(&spec);
		}
		if (ret)
			return ret;
		if (a->member[m]->capacity < smallest)
			smallest = a->member[m]->capacity;
	}
	a->dev.capacity = raid_capacity(&a->layout, smallest);
	a->hint = a->member[0]->ops->prefetch;
	a->submit = a->member[0]->ops->submit;
	detach_members(a);
	return 0;
}

int raid_sim_create(const struct raid_sim_config *c, uint64_t seed, struct sim_device **out,
		    struct errmsg *err)
{
	struct raid_array *a = calloc(1, sizeof(*a));
	unsigned slots = c->disks > NEXT_PAD ? (unsigned)c->disks : NEXT_PAD;
	int ret;

	if (!a)
		return errmsg_set(err, -ENOMEM, "out of memory for the array");
	a->dev = (struct sim_device){ &raid_ops, 0, 512 };
	a->cfg = *c;
	a->seed = seed;
	a->layout = raid_sim_layout(c);
	a->n = (unsigned)c->disks;
	a->data = raid_data_disks(&a->layout);
	a->parity = raid_parity_disks(&a->layout);
	a->by_stripe = divisor_of(c->stripe);
	a->by_data = divisor_of(a->data);
	a->by_n = divisor_of(a->n);
	a->mirrored = c->level == RAID_1 || c->level == RAID_10;
	a->cache_bytes = c->controller_cache ? c->cache_mib << 20 : 0;
	a->controller_ns = (uint64_t)(c->controller_us * 1e3);
	req_fifo_init(&a->done);
	event_heap_init(&a->events, offsetof(struct array_op, end_tie));
	a->member = calloc(a->n, sizeof(*a->member));
	a->last_end = calloc(a->n, sizeof(*a->last_end));
	a->inflight = calloc(a->n, sizeof(*a->inflight));
	a->last_idx = calloc(2 * a->n, sizeof(*a->last_idx));
	a->next = malloc(slots * sizeof(*a->next));
	for (unsigned m = 0; a->next && m < slots; m++)
		a->next[m] = UINT64_MAX;
	a->stale = a->n == 64 ? UINT64_MAX : (1ULL << a->n) - 1;	/* every member: ask */
	a->writes_seen = UINT64_MAX;	/* parity hints until 64 reads in a row */
	if (!a->member || !a->last_end || !a->inflight || !a->last_idx || !a->next)
		ret = errmsg_set(err, -ENOMEM, "out of memory for the array");
	else
		ret = build_members(a, seed, err);
	if (ret) {
		raid_destroy(&a->dev);
		return ret;
	}
	*out = &a->dev;
	return 0;
}
