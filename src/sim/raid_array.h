/*
 * raid_array.h — the state of a simulated array, shared by the controller at
 * work (raid.c) and its planner (raid_plan.c), with the layout arithmetic
 * both use. Not for use outside src/sim/raid*.c; see raid.c for the
 * invariants.
 */
#ifndef IOMODEL_SIM_RAID_ARRAY_H
#define IOMODEL_SIM_RAID_ARRAY_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/heap.h"
#include "sim/raid.h"
#include "util/bug.h"

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

static inline struct divisor divisor_of(uint64_t d)
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

/*
 * A list of member extents. While alloc == OP_ROOM, e points into its
 * operation's own room (array_op.room, no allocation of its own); a list
 * that needs more moves to an allocation of more than OP_ROOM (list_room,
 * raid_plan.c), freed with the operation.
 */
struct extent_list {
	struct extent *e;
	unsigned len, alloc;
};

/* The extents an operation holds in itself per list: a RAID 6 small write's 3 (plan_small). */
#define OP_ROOM 3

struct array_op;

struct member_io {
	struct io_request req;		/* first: members hand back &req */
	struct array_op *op;
	unsigned member;
	struct member_io *next_free;
	struct member_io *next_alloc;	/* every one allocated, for destroy */
};

/*
 * Laid out for the end of a phase (timed_next_completion): the fields it
 * reads are in the first cache line, the writes' room in the third and
 * fourth, so that the next operation's three lines can be prefetched
 * (OP_ALIGN-aligned, op_get).
 */
struct array_op {
	struct io_request *host;	/* NULL: a destage of cached writes */
	uint64_t length;
	enum io_op op;
	unsigned phase;			/* 0 reads, 1 writes */
	int error;
	int phase_error;		/* timed: the phase's last failed member request's */
	struct extent_list list[2];	/* reads, writes */
	uint64_t offset;
	struct array_op *next;		/* free list, or the destage queue */
	unsigned pending;
	uint64_t phase_seq;		/* timed: member requests submitted before the phase */
	uint64_t end, end_tie;		/* timed: its key in `events` (submit_timed); end_tie its tie */
	struct raid_dirty *dirty;	/* verified runs: the cached writes' data */
	struct array_op *next_alloc;	/* every one allocated, for destroy */
	struct extent room[2][OP_ROOM];	/* writes' room first: list[1], then list[0] */
};

#define OP_ALIGN 64
_Static_assert(sizeof(struct array_op) % OP_ALIGN == 0, "array_op: whole cache lines");

struct raid_array {
	struct sim_device dev;
	struct raid_sim_config cfg;
	struct raid_layout layout;
	unsigned n, data, parity;
	struct divisor by_stripe, by_data, by_n;	/* cfg.stripe, data, n */
	bool mirrored;			/* RAID 1/10: last_end and inflight kept, for nearest() */
	struct sim_device **member;
	/* the members' prefetch (device.h), NULL if none, and submit: all are built from one spec */
	void (*hint)(struct sim_device *d, uint64_t offset, uint32_t length);
	int (*submit)(struct sim_device *d, struct io_request *req, uint64_t now);
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
	uint64_t writes_seen;		/* bit i: host request i back was a write (raid_prefetch) */
	struct req_fifo done;		/* host completions, in time order (invariant 1) */
	struct array_op *free_ops, *all_ops;
	struct member_io *free_ios, *all_ios;
	struct array_op *destage_head, *destage_tail;	/* cached writes to destage */
	unsigned destaging;
	struct array_op *wait_head, *wait_tail;		/* host writes waiting for room */
	uint64_t cache_bytes, dirty;
	unsigned *last_idx;		/* raid_plan_rest: last extent of each member, per list */
	struct sim_counters count;	/* host side and the controller's cache */
	uint64_t seed;
	struct raid_data *kept;		/* verified runs: the data (NULL: timing only) */
};

/* Members 0 .. cfg.failed - 1 are gone. */
static inline bool failed(const struct raid_array *a, unsigned m)
{
	return m < a->cfg.failed;
}

/* A member's map-load hint, when its model takes hints (a hint changes no result). */
static inline void hint_member(struct raid_array *a, unsigned m, uint64_t off, uint64_t len)
{
	BUG_ON(a->member[m]->ops->prefetch != a->hint);
	if (a->hint)
		a->hint(a->member[m], off, (uint32_t)len);
}

/* raid_sim_parity_member() and raid_sim_data_member(), row % n by a->by_n. */
static inline unsigned parity_member(const struct raid_array *a, uint64_t row, unsigned k)
{
	unsigned cycle = (unsigned)(row - quot(&a->by_n, row) * a->n);	/* row % n */

	return raid_sim_row_member(a->n, raid_sim_p0(a->n, cycle), k);
}

static inline unsigned data_member(const struct raid_array *a, uint64_t row, unsigned i)
{
	return raid_sim_row_member(a->n, parity_member(a, row, 0), a->parity + i);
}

/* The member that holds data chunk `chunk` of RAID 0 or RAID 5/6, and its row. */
static inline unsigned chunk_member(const struct raid_array *a, uint64_t chunk, uint64_t *row)
{
	*row = quot(a->parity ? &a->by_data : &a->by_n, chunk);
	return a->parity ? data_member(a, *row, (unsigned)(chunk - *row * a->data))
			 : (unsigned)(chunk - *row * a->n);
}

/*
 * The common small write, inside data chunk i of one row with no member
 * failed and read-modify-write the cheaper: the lists the general planner
 * (raid_plan.c parity_write_row) builds for it (reads D, P, Q; writes P,
 * Q, D; every member a different one, so nothing merges), without its
 * loops. An operation's own room holds them (OP_ROOM).
 */
static inline void plan_small_write(struct raid_array *a, struct array_op *op, uint64_t row,
				    unsigned i, uint64_t in)
{
	unsigned p0 = parity_member(a, row, 0), np = a->parity, m[3];
	uint64_t off = row * a->cfg.stripe + in, len = op->length;

	BUG_ON(op->list[0].alloc < np + 1 || op->list[1].alloc < np + 1);
	m[0] = raid_sim_row_member(a->n, p0, np + i);
	m[1] = p0;
	m[2] = raid_sim_row_member(a->n, p0, 1);
	for (unsigned k = 0; k <= np; k++) {	/* done: set when submitted */
		struct extent *r = &op->list[0].e[k], *w = &op->list[1].e[k];

		r->member = m[k];
		w->member = m[k < np ? k + 1 : 0];
		r->off = w->off = off;
		r->len = w->len = len;
	}
	op->list[0].len = op->list[1].len = np + 1;
}

/*
 * Plan `op` if it is one of the commonest, inline for the controller's hot
 * path (raid.c start_op; raid_plan.c plans the rest): an operation
 * inside one chunk of RAID 0, a read inside one data chunk of RAID 5/6
 * whose member is there (the one extent the general planner adds for it,
 * without its hint: raid_prefetch gave the member this very request's four
 * IOs ahead), or a small write (plan_small_write); false for any other.
 */
static inline __attribute__((always_inline)) bool plan_small(struct raid_array *a,
							     struct array_op *op)
{
	uint64_t s = a->cfg.stripe, chunk, in, row;
	struct extent_list *l = &op->list[op->op];
	unsigned m;

	if (a->mirrored)	/* RAID 1/10 pick their mirror as they plan */
		return false;
	chunk = quot(&a->by_stripe, op->offset);
	in = op->offset - chunk * s;
	if (!op->length || in + op->length > s)
		return false;
	if (op->op == IO_WRITE && a->parity) {
		if (a->cfg.failed || 1 + a->parity > a->data - 1)
			return false;
		row = quot(&a->by_data, chunk);
		plan_small_write(a, op, row, (unsigned)(chunk - row * a->data), in);
		return true;
	}
	m = chunk_member(a, chunk, &row);
	if (failed(a, m))
		return false;
	BUG_ON(l->alloc < 1);
	l->e[0] = (struct extent){ m, row * s + in, op->length, 0 };
	l->len = 1;
	op->list[!op->op].len = 0;
	return true;
}

/* Plan any operation plan_small() does not (raid_plan.c). 0 or -ENOMEM. */
int raid_plan_rest(struct raid_array *a, struct array_op *op);

/*
 * Plan `op`: its member extents, reads in list[0] and writes in list[1],
 * hinting each member it will reach (but those of plan_small). 0 or -ENOMEM.
 */
static inline __attribute__((always_inline)) int raid_plan_op(struct raid_array *a,
							      struct array_op *op)
{
	return plan_small(a, op) ? 0 : raid_plan_rest(a, op);
}

/*
 * TRIM [off, off + len) of the array (device.h discard, raid_plan.c): RAID
 * 0, 1 and 10 pass it to every surviving member's chunks it covers; RAID 5
 * and 6, as Linux md does, only the rows it covers whole, each member's
 * chunks of them, data and parity (a trimmed data chunk reads as anything,
 * so parity over part of a row would no longer rebuild it). 0, -EINVAL
 * outside the array, -EOPNOTSUPP when the members take no TRIM or the
 * array keeps data (verified runs), then nothing changed.
 */
int raid_discard(struct sim_device *d, uint64_t off, uint64_t len);

#endif
