/*
 * raid.c — the simulated RAID array: a controller that turns each host
 * request into member requests, hands them to its members (simulated drives
 * of their own, each with its own state and queue) and completes the host
 * request when the last of them is done; driven by the virtual clock of
 * backend/sim.c through the operations of device.h.
 *
 * An array operation (struct array_op) is planned once (plan_op) as two
 * lists of member extents, reads then writes, each merged per member where
 * contiguous: a host read reads its chunks (a RAID 1/10 read goes to the
 * mirror whose last request ended nearest, the controller's idea of where
 * its head is; a read of a failed member reads the rest of the row to
 * reconstruct it); a parity write writes its data and the row's parity,
 * and for each row it covers only partly reads first, either the old data
 * and parity (read-modify-write) or the row's other data chunks
 * (reconstruct-write), whichever reads fewer chunks that are still there.
 * The commonest operations, inside one chunk (a RAID 0 IO, a RAID 5/6 read
 * of a member that is there, a RAID 5/6 read-modify-write with no member
 * failed), get the same lists straight away (plan_one_chunk,
 * small_parity_write), without the general planner's loops.
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
 *     phase ends when it reaches 0.
 *  3. next_completion() processes member completions in time order up to
 *     the earliest host completion and returns it; it never processes one
 *     later than the host completion it returns, so a host that submits at
 *     that time finds every member at or before it. Host completions are
 *     queued at the array's clock plus controller_ns, so (by 1) in time
 *     order: a FIFO (heap.h req_fifo, which checks it) holds them.
 *  4. dirty <= cache bytes; a host write waits while it does not fit.
 *  5. No member request goes to a failed member.
 *  6. Same configuration and seed, same completion times (members are
 *     seeded seed + i; the controller draws nothing at random; the data
 *     path never changes a time). The members' prefetch hint, given for
 *     each member request as it is planned (the map loads of an
 *     operation's requests then overlap with each other and with the rest
 *     of the plan), changes nothing.
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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/heap.h"
#include "sim/raid_data.h"
#include "sim/spec.h"
#include "util/bug.h"
#include "util/dynbuf.h"

struct extent {
	unsigned member;
	uint64_t off;
	uint64_t len;
	uint64_t done;			/* timed: when its member request completes */
};

/*
 * Division by one of the array's fixed numbers (the stripe, the data chunks
 * of a row, the members), which the layout does for every request: a shift
 * for a power of two, else for x < 2^32 (chunk and row numbers of any array
 * under 256 TiB of 64 KiB chunks) one multiplication by magic = 2^64 / d + 1,
 * exact for every 32-bit x and d (Lemire, Kaser and Kurz, "Faster remainder
 * by direct computation", 2019), else a division.
 */
struct divisor {
	uint64_t d, magic;
	int shift;			/* log2(d), or -1 */
};

static struct divisor divisor_of(uint64_t d)
{
	struct divisor v = { d, d > 1 ? UINT64_MAX / d + 1 : 0, -1 };

	if (d && !(d & (d - 1)))
		v.shift = __builtin_ctzll(d);
	return v;
}

static inline uint64_t quot(const struct divisor *v, uint64_t x)
{
	if (v->shift >= 0)
		return x >> v->shift;
	if (!(x >> 32))
		return (uint64_t)(((unsigned __int128)x * v->magic) >> 64);
	return x / v->d;
}

struct extent_list {
	struct extent *e;
	unsigned len, alloc;
};

struct array_op;

struct member_io {
	struct io_request req;		/* first: members hand back &req */
	struct array_op *op;
	unsigned member;
	struct member_io *next_free;
	struct member_io *next_alloc;	/* every one allocated, for destroy */
};

struct array_op {
	struct io_request *host;	/* NULL: a destage of cached writes */
	uint64_t offset, length;
	enum io_op op;
	unsigned phase;			/* 0 reads, 1 writes */
	unsigned pending;
	int error;
	int phase_error;		/* timed: the phase's last failed member request's */
	uint64_t phase_seq;		/* timed: member requests submitted before the phase */
	uint64_t end, end_tie;		/* timed: its key in `events` (submit_timed) */
	struct extent_list list[2];	/* reads, writes */
	struct raid_dirty *dirty;	/* verified runs: the cached writes' data */
	struct array_op *next;		/* free list, or the destage queue */
	struct array_op *next_alloc;	/* every one allocated, for destroy */
};

struct raid_array {
	struct sim_device dev;
	struct raid_sim_config cfg;
	struct raid_layout layout;
	unsigned n, data, parity;
	struct divisor by_stripe, by_data, by_n;	/* cfg.stripe, data, n */
	bool mirrored;			/* RAID 1/10: last_end and inflight kept, for nearest() */
	struct sim_device **member;
	uint64_t *last_end;		/* where the last request to each member ended (mirrored) */
	unsigned *inflight;		/* member requests in flight (mirrored) */
	uint64_t *next;			/* each member's next completion, when bit m of stale is 0 */
	uint64_t stale;			/* bit m: submitted to or completed from since asked */
	uint64_t clock;
	bool timed;			/* members detached: phase ends in `events` (below) */
	struct event_heap events;	/* timed: operations in flight, by the end of their phase */
	uint64_t submits;		/* timed: member requests submitted so far */
	uint64_t returned, returned_seq;	/* timed: last next_completion(), and submits then */
	uint64_t controller_ns;
	struct req_fifo done;		/* host completions, in time order (invariant 1) */
	struct array_op *free_ops, *all_ops;
	struct member_io *free_ios, *all_ios;
	struct array_op *destage_head, *destage_tail;	/* cached writes to destage */
	unsigned destaging;
	struct array_op *wait_head, *wait_tail;		/* host writes waiting for room */
	uint64_t cache_bytes, dirty;
	unsigned *last_idx;		/* plan_op: last extent of each member, per list */
	struct sim_counters count;	/* host side and the controller's cache */
	uint64_t seed;
	struct raid_data *kept;		/* verified runs: the data (NULL: timing only) */
};

/* next[] has at least this many entries, those past the members UINT64_MAX. */
#define NEXT_PAD 8

static struct raid_array *to_array(struct sim_device *d)
{
	return (struct raid_array *)d;
}

/* --- planning --- */

/* A member's map-load hint, when its model takes hints (a hint changes no result). */
static void hint_member(struct raid_array *a, unsigned m, uint64_t off, uint64_t len)
{
	if (a->member[m]->ops->prefetch)
		a->member[m]->ops->prefetch(a->member[m], off, (uint32_t)len);
}

static int extent_add(struct raid_array *a, struct extent_list *l, unsigned list, unsigned m,
		      uint64_t off, uint64_t len)
{
	unsigned *last = &a->last_idx[list * a->n + m];

	if (*last != UINT32_MAX && l->e[*last].off + l->e[*last].len == off) {
		l->e[*last].len += len;
		return 0;
	}
	if (l->len == l->alloc) {
		unsigned alloc = l->alloc ? 2 * l->alloc : 8;
		struct extent *e = realloc(l->e, alloc * sizeof(*e));

		if (!e)
			return -ENOMEM;
		l->e = e;
		l->alloc = alloc;
	}
	*last = l->len;
	l->e[l->len++] = (struct extent){ m, off, len, 0 };
	hint_member(a, m, off, len);	/* its map load overlaps the rest of the plan */
	return 0;
}

static bool failed(const struct raid_array *a, unsigned m)
{
	return m < a->cfg.failed;
}

/* The surviving mirror whose last request ended nearest `off`. */
static unsigned nearest(const struct raid_array *a, unsigned first, unsigned count, uint64_t off)
{
	unsigned best = UINT32_MAX;
	uint64_t best_d = UINT64_MAX;

	for (unsigned m = first; m < first + count; m++) {
		uint64_t d = a->last_end[m] > off ? a->last_end[m] - off : off - a->last_end[m];

		if (failed(a, m))
			continue;
		if (d < best_d || (d == best_d && a->inflight[m] < a->inflight[best])) {
			best = m;
			best_d = d;
		}
	}
	BUG_ON(best == UINT32_MAX);
	return best;
}

/* Parity member k (0: P, 1: Q) and data member i of row r. */
static unsigned parity_member(const struct raid_array *a, uint64_t row, unsigned k)
{
	unsigned p = a->n - 1 - (unsigned)(row - quot(&a->by_n, row) * a->n) + k;

	return p < a->n ? p : p - a->n;		/* raid_sim_parity_member() */
}

static unsigned data_member(const struct raid_array *a, uint64_t row, unsigned i)
{
	unsigned m = parity_member(a, row, 0) + a->parity + i;

	return m < a->n ? m : m - a->n;		/* raid_sim_data_member() */
}

/* Read [off, off+len) of data chunk i in row r, or reconstruct it from the rest of the row. */
static int parity_read_piece(struct raid_array *a, struct array_op *op, uint64_t row, unsigned i,
			     uint64_t in, uint64_t len)
{
	unsigned m = data_member(a, row, i), got = 0;
	uint64_t moff = row * a->cfg.stripe + in;
	int ret = 0;

	if (!failed(a, m)) {
		unsigned last = a->last_idx[m];
		struct extent *e = last != UINT32_MAX ? &op->list[0].e[last] : NULL;

		/* read through the parity chunks between two of this member's data chunks */
		if (e && in == 0 && moff > e->off + e->len &&
		    moff - (e->off + e->len) <= a->parity * a->cfg.stripe) {
			e->len = moff + len - e->off;
			return 0;
		}
		return extent_add(a, &op->list[0], 0, m, moff, len);
	}
	for (unsigned k = 0; k < a->n && got < a->data && !ret; k++) {
		unsigned o = (m + 1 + k) % a->n;

		if (o != m && !failed(a, o)) {
			ret = extent_add(a, &op->list[0], 0, o, moff, len);
			got++;
		}
	}
	return ret;
}

/* The pieces of [op->offset, +length): chunk c, offset in chunk, length; calls fn for each. */
typedef int (*piece_fn)(struct raid_array *a, struct array_op *op, uint64_t chunk, uint64_t in,
			uint64_t len);

static int for_each_piece(struct raid_array *a, struct array_op *op, piece_fn fn)
{
	uint64_t pos = op->offset, end = op->offset + op->length;
	int ret = 0;

	while (pos < end && !ret) {
		uint64_t chunk = pos / a->cfg.stripe, in = pos % a->cfg.stripe;
		uint64_t len = a->cfg.stripe - in < end - pos ? a->cfg.stripe - in : end - pos;

		ret = fn(a, op, chunk, in, len);
		pos += len;
	}
	return ret;
}

static int plain_piece(struct raid_array *a, struct array_op *op, uint64_t chunk, uint64_t in,
		       uint64_t len)
{
	unsigned pairs = a->n / 2;

	if (a->layout.level == RAID_0)
		return extent_add(a, &op->list[op->op], op->op, (unsigned)(chunk % a->n),
				  chunk / a->n * a->cfg.stripe + in, len);
	if (a->layout.level == RAID_10) {
		unsigned p = (unsigned)(chunk % pairs);
		uint64_t moff = chunk / pairs * a->cfg.stripe + in;
		int ret = 0;

		if (op->op == IO_READ)
			return extent_add(a, &op->list[0], 0, nearest(a, 2 * p, 2, moff), moff, len);
		for (unsigned m = 2 * p; m < 2 * p + 2 && !ret; m++)
			if (!failed(a, m))
				ret = extent_add(a, &op->list[1], 1, m, moff, len);
		return ret;
	}
	/* RAID 5/6 reads */
	return parity_read_piece(a, op, chunk / a->data, (unsigned)(chunk % a->data), in, len);
}

/* Member j of a row whose P chunk is on member p0: P, Q (RAID 6), then the data chunks. */
static unsigned row_member(const struct raid_array *a, unsigned p0, unsigned j)
{
	return p0 + j < a->n ? p0 + j : p0 + j - a->n;
}

/*
 * Whether a write to data chunks first..last of the row at p0 reads the old
 * data and parity (read-modify-write) rather than the other data chunks
 * (reconstruct-write): the one that reads fewer chunks, or the one that can
 * read everything it needs when members have failed.
 */
static bool row_uses_rmw(const struct raid_array *a, unsigned p0, unsigned first, unsigned last)
{
	unsigned touched = last - first + 1, rmw = 0, rec = 0;

	for (unsigned i = 0; i < a->data && a->cfg.failed; i++) {
		bool t = i >= first && i <= last, gone = failed(a, row_member(a, p0, a->parity + i));

		rmw += t && gone;	/* reads that cannot be done */
		rec += !t && gone;
	}
	for (unsigned k = 0; k < a->parity && a->cfg.failed; k++)
		rmw += failed(a, row_member(a, p0, k));
	return rmw ? false : rec ? true : touched + a->parity <= a->data - touched;
}

/* A parity write to row r covering [lo, hi) of the row's data (row-relative bytes). */
static int parity_write_row(struct raid_array *a, struct array_op *op, uint64_t row,
			    uint64_t lo, uint64_t hi)
{
	uint64_t s = a->cfg.stripe, base = row * s;
	unsigned first = (unsigned)(lo / s), last = (unsigned)((hi - 1) / s);
	uint64_t plo = first == last ? lo % s : 0, phi = first == last ? (hi - 1) % s + 1 : s;
	unsigned p0 = parity_member(a, row, 0);
	bool full = lo == 0 && hi == a->data * s, use_rmw = row_uses_rmw(a, p0, first, last);
	int ret = 0;

	for (unsigned i = 0; i < a->data && !full && !ret; i++) {
		unsigned m = row_member(a, p0, a->parity + i);
		bool t = i >= first && i <= last;

		if (!failed(a, m) && t == use_rmw)
			ret = extent_add(a, &op->list[0], 0, m, base + plo, phi - plo);
	}
	for (unsigned k = 0; k < a->parity && !ret; k++) {
		unsigned m = row_member(a, p0, k);

		if (!failed(a, m) && !full && use_rmw)
			ret = extent_add(a, &op->list[0], 0, m, base + plo, phi - plo);
		if (!failed(a, m) && !ret)
			ret = extent_add(a, &op->list[1], 1, m, base + plo, phi - plo);
	}
	for (unsigned i = first; i <= last && !ret; i++) {
		uint64_t a0 = i == first ? lo % s : 0, a1 = i == last ? (hi - 1) % s + 1 : s;
		unsigned m = row_member(a, p0, a->parity + i);

		if (!failed(a, m))
			ret = extent_add(a, &op->list[1], 1, m, base + a0, a1 - a0);
	}
	return ret;
}

/* Room for n extents in list l. */
static int list_room(struct extent_list *l, unsigned n)
{
	size_t alloc = l->alloc;

	if (n <= l->alloc)
		return 0;
	if (array_grow((void **)&l->e, &alloc, n, sizeof(*l->e), UINT32_MAX))
		return -ENOMEM;
	l->alloc = (unsigned)alloc;
	return 0;
}

/*
 * The common small write, inside data chunk i of one row with no member
 * failed and read-modify-write the cheaper: the lists parity_write_row()
 * builds for it (reads D, P, Q; writes P, Q, D; every member a different
 * one, so nothing merges), without its loops.
 */
static int small_parity_write(struct raid_array *a, struct array_op *op, uint64_t row, unsigned i,
			      uint64_t in)
{
	unsigned p0 = parity_member(a, row, 0), np = a->parity, m[3];
	uint64_t off = row * a->cfg.stripe + in, len = op->length;

	if (list_room(&op->list[0], np + 1) || list_room(&op->list[1], np + 1))
		return -ENOMEM;
	m[0] = row_member(a, p0, np + i);
	m[1] = p0;
	m[2] = row_member(a, p0, 1);
	for (unsigned k = 0; k <= np; k++) {
		op->list[0].e[k] = (struct extent){ m[k], off, len, 0 };
		op->list[1].e[k] = (struct extent){ m[k < np ? k + 1 : 0], off, len, 0 };
	}
	op->list[0].len = op->list[1].len = np + 1;
	return 0;
}

static int plan_parity_write(struct raid_array *a, struct array_op *op)
{
	uint64_t rowb = (uint64_t)a->data * a->cfg.stripe;
	uint64_t pos = op->offset, end = op->offset + op->length;
	int ret = 0;

	if (!a->cfg.failed && 1 + a->parity <= a->data - 1) {
		uint64_t chunk = quot(&a->by_stripe, pos), in = pos - chunk * a->cfg.stripe;
		uint64_t row = quot(&a->by_data, chunk);

		if (op->length && in + op->length <= a->cfg.stripe)
			return small_parity_write(a, op, row, (unsigned)(chunk - row * a->data), in);
	}
	memset(a->last_idx, 0xff, 2 * a->n * sizeof(*a->last_idx));
	while (pos < end && !ret) {
		uint64_t row = pos / rowb, lo = pos % rowb;
		uint64_t hi = end - row * rowb < rowb ? end - row * rowb : rowb;

		ret = parity_write_row(a, op, row, lo, hi);
		pos = row * rowb + hi;
	}
	return ret;
}

/* The member that holds data chunk `chunk` of RAID 0 or RAID 5/6, and its row. */
static unsigned chunk_member(const struct raid_array *a, uint64_t chunk, uint64_t *row)
{
	*row = quot(a->parity ? &a->by_data : &a->by_n, chunk);
	return a->parity ? data_member(a, *row, (unsigned)(chunk - *row * a->data))
			 : (unsigned)(chunk - *row * a->n);
}

/*
 * An operation inside one chunk of RAID 0, or a read inside one data chunk
 * of RAID 5/6 whose member is there: the one extent plain_piece() adds for
 * it, without the loop; false for any other operation.
 */
static bool plan_one_chunk(struct raid_array *a, struct array_op *op, int *ret)
{
	uint64_t s = a->cfg.stripe, chunk = quot(&a->by_stripe, op->offset), row;
	uint64_t in = op->offset - chunk * s;
	struct extent_list *l = &op->list[op->op];
	unsigned m;

	if (!op->length || in + op->length > s ||
	    !(a->layout.level == RAID_0 || (a->parity && op->op == IO_READ)))
		return false;
	m = chunk_member(a, chunk, &row);
	if (failed(a, m))
		return false;
	*ret = list_room(l, 1);
	if (*ret)
		return true;
	l->e[0] = (struct extent){ m, row * s + in, op->length, 0 };
	l->len = 1;
	hint_member(a, m, row * s + in, op->length);
	return true;
}

static int plan_op(struct raid_array *a, struct array_op *op)
{
	int ret = 0;

	op->list[0].len = op->list[1].len = 0;
	if (op->op == IO_WRITE && a->parity)
		return plan_parity_write(a, op);
	if (plan_one_chunk(a, op, &ret))
		return ret;
	memset(a->last_idx, 0xff, 2 * a->n * sizeof(*a->last_idx));
	if (a->layout.level == RAID_1) {
		if (op->op == IO_READ)
			return extent_add(a, &op->list[0], 0, nearest(a, 0, a->n, op->offset),
					  op->offset, op->length);
		for (unsigned m = 0; m < a->n && !ret; m++)
			if (!failed(a, m))
				ret = extent_add(a, &op->list[1], 1, m, op->offset, op->length);
		return ret;
	}
	return for_each_piece(a, op, plain_piece);
}

/* --- running --- */

static struct array_op *op_get(struct raid_array *a)
{
	struct array_op *op = a->free_ops;

	if (op) {
		a->free_ops = op->next;
		return op;
	}
	op = calloc(1, sizeof(*op));
	if (op) {
		op->next_alloc = a->all_ops;
		a->all_ops = op;
	}
	return op;
}

static void op_put(struct raid_array *a, struct array_op *op)
{
	op->next = a->free_ops;
	a->free_ops = op;
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
static int submit_timed(struct raid_array *a, struct array_op *op, uint64_t t)
{
	__extension__ typedef unsigned __int128 rank;	/* (time, tie) as one number */
	struct extent_list *l = &op->list[op->phase];
	struct io_request req = { .op = op->phase ? IO_WRITE : IO_READ, .submit_ns = t };
	rank last = 0, last_err = 0;

	op->phase_seq = a->submits;
	op->phase_error = 0;
	for (unsigned i = 0; i < l->len; i++) {
		struct extent *e = &l->e[i];
		uint64_t k = (uint64_t)e->member << 58 | a->submits++;
		rank rk;
		int ret;

		req.offset = e->off;
		req.length = (uint32_t)e->len;
		ret = a->member[e->member]->ops->submit(a->member[e->member], &req, t);

		if (ret)
			return ret;
		BUG_ON(failed(a, e->member) || e->len > UINT32_MAX || req.complete_ns <= t);
		e->done = req.complete_ns;
		rk = (rank)e->done << 64 | k;
		last = rk > last ? rk : last;	/* no branch: which one ends last is random */
		if (req.result < 0 && rk > last_err) {
			op->phase_error = (int)req.result;
			last_err = rk;
		}
	}
	op->end = (uint64_t)(last >> 64);
	op->end_tie = (uint64_t)last;
	return 0;
}

static int submit_phase(struct raid_array *a, struct array_op *op, uint64_t t)
{
	const struct extent_list *l = &op->list[op->phase];

	if (a->timed) {
		int ret = submit_timed(a, op, t);

		return ret ? ret : event_heap_push(&a->events, op->end, op->end_tie, op);
	}
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

static int finish_op(struct raid_array *a, struct array_op *op, uint64_t t);

/* Plan `op` and start its first phase at t. */
static int start_op(struct raid_array *a, struct array_op *op, uint64_t t)
{
	int ret = plan_op(a, op);

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

static int finish_op(struct raid_array *a, struct array_op *op, uint64_t t)
{
	int ret = a->kept ? finish_data(a, op) : 0;

	if (ret)
		return ret;
	if (op->host) {
		op->host->result = op->error ? op->error : (int64_t)op->length;
		ret = req_fifo_push(&a->done, t + a->controller_ns, op->host);
		op_put(a, op);
		return ret;
	}
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
	for (unsigned i = 0; i < a->events.len; i++) {
		const struct array_op *op = a->events.entries[i].item;
		const struct extent_list *l = &op->list[op->phase];

		for (unsigned j = 0; j < l->len && op->phase_seq < a->returned_seq; j++)
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
	*op = (struct array_op){ .host = req, .offset = req->offset, .length = req->length,
				 .op = req->op, .list = { op->list[0], op->list[1] },
				 .next_alloc = op->next_alloc };
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
 * Timed: the phases that end before the next host completion, every one at
 * its time, as phase_done(); an operation going on to its second phase
 * takes its new place in `events` in one step (its requests end later than
 * t, so it stays first meanwhile).
 */
static uint64_t timed_next_completion(struct raid_array *a)
{
	for (;;) {
		uint64_t t = event_heap_min(&a->events), t_done = req_fifo_min(&a->done);

		if (t_done <= t) {
			a->returned = t_done;
			a->returned_seq = a->submits;
			return t_done;
		}
		a->clock = t;
		while (event_heap_min(&a->events) == t) {
			struct array_op *op = a->events.entries[0].item;
			int ret;

			op->error = op->phase_error ? op->phase_error : op->error;
			if (op->phase == 0 && op->list[1].len) {
				op->phase = 1;
				ret = submit_timed(a, op, t);
				if (!ret)
					event_heap_replace(&a->events, op->end, op->end_tie, op);
			} else {
				event_heap_pop(&a->events);
				ret = finish_op(a, op, t);
			}
			if (ret)
				return t;	/* out of memory, as below */
		}
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
	struct raid_array *a = to_array(d);
	unsigned n = 0;

	while (n < max && req_fifo_min(&a->done) <= now) {
		uint64_t t = req_fifo_min(&a->done);
		struct io_request *req = req_fifo_pop(&a->done);

		req->complete_ns = t;
		out[n++] = req;
	}
	return n;
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

		free(a->all_ops->list[0].e);
		free(a->all_ops->list[1].e);
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
 * writes), at the members' offset. Mirrored arrays pick their member at
 * submission (nearest head), and requests over several chunks get their
 * members' hints when planned; neither is hinted here. A hint only.
 */
static void raid_prefetch(struct sim_device *d, uint64_t offset, uint32_t length)
{
	struct raid_array *a = to_array(d);
	uint64_t s = a->cfg.stripe, chunk = quot(&a->by_stripe, offset), in = offset - chunk * s;
	uint64_t row, off;
	unsigned m;

	if (a->mirrored || !length || in + length > s)
		return;
	m = chunk_member(a, chunk, &row);
	off = row * s + in;
	hint_member(a, m, off, length);
	for (unsigned k = 0; k < a->parity; k++)	/* P, then Q */
		hint_member(a, parity_member(a, row, k), off, length);
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
	event_heap_init(&a->events);
	a->member = calloc(a->n, sizeof(*a->member));
	a->last_end = calloc(a->n, sizeof(*a->last_end));
	a->inflight = calloc(a->n, sizeof(*a->inflight));
	a->last_idx = calloc(2 * a->n, sizeof(*a->last_idx));
	a->next = malloc(slots * sizeof(*a->next));
	for (unsigned m = 0; a->next && m < slots; m++)
		a->next[m] = UINT64_MAX;
	a->stale = a->n == 64 ? UINT64_MAX : (1ULL << a->n) - 1;	/* every member: ask */
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
