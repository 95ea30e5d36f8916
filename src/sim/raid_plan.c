/*
 * raid_plan.c — the planner of the simulated array (raid_array.h): an array
 * operation (struct array_op) is planned once, when it starts, as two
 * lists of member extents, reads then writes, each merged per member where
 * contiguous: a host read reads its chunks (a RAID 1/10 read goes to the
 * mirror whose last request ended nearest, the controller's idea of where
 * its head is; a read of a failed member's chunk reads the same bytes of
 * as many other chunks of the row as it has data chunks, its data chunks
 * first, then P, then Q, to rebuild it); a parity write writes its data
 * and the row's parity, and for each row it covers only partly reads
 * first, either the old data and parity (read-modify-write) or the row's
 * other data chunks (reconstruct-write), whichever reads fewer chunks that
 * are still there.
 * The commonest operations, inside one chunk (a RAID 0 IO, a RAID 5/6 read
 * of a member that is there, a RAID 5/6 read-modify-write with no member
 * failed), get the same lists straight away (plan_small, raid_array.h,
 * inline in the controller's hot path), without the general planner's
 * loops; raid_plan_rest() here plans every other one. No member
 * request goes to a failed member (raid.c invariant 5).
 *
 * Degraded reads, as Linux md does them since 4.1: with a member missing,
 * md sends no read around its stripe cache (commit 9ffc8f7cb964, "don't
 * do chunk aligned read on degraded array", which removed this very
 * double read of a sequential stream), so a row's pages are each read
 * once into the stripe, whether the host wants them or the rebuild needs
 * them, and the block layer merges the stripes' reads of one member into
 * large requests. The ICH9R's driver is not documented; it is taken to do
 * the same. Here a member's extents that overlap or touch are one request
 * (extent_add merges each with the member's last one), so a sequential
 * degraded read streams on every survivor as a healthy one streams
 * through its parity chunks: each survivor reads its chunk of every row
 * once, host bytes / (n - 1) for RAID 5, at about the healthy rate. Not
 * modelled: the stripe cache across operations (a row that one host read
 * ends in and the next starts in is read again by the members; md would
 * find it in the cache, or wait for the read in flight), and the parity
 * arithmetic's CPU time.
 *
 * A TRIM of the array (raid_discard, raid_array.h) maps to the members
 * with the same layout and takes no simulated time.
 *
 * Invariants: 1. a plan with no member failed never has two extents of a
 * member overlap, so it merges only where contiguous, as before degraded
 * reads were merged (checked in extent_add). 2. Each extent is at most
 * UINT32_MAX bytes, a member request's length (checked in raid.c).
 */
#include "sim/raid_array.h"

#include <errno.h>
#include <string.h>

#include "util/bug.h"
#include "util/dynbuf.h"

/* Room for n extents in list l: out of its operation's room into an allocation when needed. */
static int list_room(struct extent_list *l, unsigned n)
{
	struct extent *own;
	size_t alloc;

	if (n <= l->alloc)
		return 0;
	own = l->alloc == OP_ROOM ? l->e : NULL;
	alloc = own ? 0 : l->alloc;
	if (own)
		l->e = NULL;
	if (array_grow((void **)&l->e, &alloc, n, sizeof(*l->e), UINT32_MAX)) {
		l->e = own ? own : l->e;
		return -ENOMEM;
	}
	BUG_ON(alloc <= OP_ROOM);
	if (own)
		memcpy(l->e, own, l->len * sizeof(*own));
	l->alloc = (unsigned)alloc;
	return 0;
}

static int extent_add(struct raid_array *a, struct extent_list *l, unsigned list, unsigned m,
		      uint64_t off, uint64_t len)
{
	unsigned *last = &a->last_idx[list * a->n + m];

	if (*last != UINT32_MAX) {
		struct extent *e = &l->e[*last];
		uint64_t lo = e->off < off ? e->off : off;
		uint64_t hi = e->off + e->len > off + len ? e->off + e->len : off + len;

		BUG_ON(!a->cfg.failed && off < e->off + e->len && off + len > e->off);
		/* contiguous, or (degraded reads) overlapping: one member request */
		if (off <= e->off + e->len && off + len > e->off && hi - lo <= UINT32_MAX) {
			e->off = lo;
			e->len = hi - lo;
			return 0;
		}
	}
	if (list_room(l, l->len + 1))
		return -ENOMEM;
	*last = l->len;
	l->e[l->len++] = (struct extent){ m, off, len, 0 };
	hint_member(a, m, off, len);	/* its map load overlaps the rest of the plan */
	return 0;
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
	/* the row's other data chunks first (the host may read them anyway), then P, then Q */
	for (unsigned j = 0; j < a->n && got < a->data && !ret; j++) {
		unsigned o = j < a->data ? data_member(a, row, j) : parity_member(a, row, j - a->data);

		if (o != m && !failed(a, o)) {
			ret = extent_add(a, &op->list[0], 0, o, moff, len);
			got++;
		}
	}
	return ret;
}

/* The pieces of [pos, end) of the array: chunk c, offset in chunk, length; calls fn for each. */
typedef int (*piece_fn)(struct raid_array *a, struct array_op *op, uint64_t chunk, uint64_t in,
			uint64_t len);

static int for_each_piece(struct raid_array *a, struct array_op *op, uint64_t pos, uint64_t end,
			  piece_fn fn)
{
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
		bool t = i >= first && i <= last;
		bool gone = failed(a, raid_sim_row_member(a->n, p0, a->parity + i));

		rmw += t && gone;	/* reads that cannot be done */
		rec += !t && gone;
	}
	for (unsigned k = 0; k < a->parity && a->cfg.failed; k++)
		rmw += failed(a, raid_sim_row_member(a->n, p0, k));
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
		unsigned m = raid_sim_row_member(a->n, p0, a->parity + i);
		bool t = i >= first && i <= last;

		if (!failed(a, m) && t == use_rmw)
			ret = extent_add(a, &op->list[0], 0, m, base + plo, phi - plo);
	}
	for (unsigned k = 0; k < a->parity && !ret; k++) {
		unsigned m = raid_sim_row_member(a->n, p0, k);

		if (!failed(a, m) && !full && use_rmw)
			ret = extent_add(a, &op->list[0], 0, m, base + plo, phi - plo);
		if (!failed(a, m) && !ret)
			ret = extent_add(a, &op->list[1], 1, m, base + plo, phi - plo);
	}
	for (unsigned i = first; i <= last && !ret; i++) {
		uint64_t a0 = i == first ? lo % s : 0, a1 = i == last ? (hi - 1) % s + 1 : s;
		unsigned m = raid_sim_row_member(a->n, p0, a->parity + i);

		if (!failed(a, m))
			ret = extent_add(a, &op->list[1], 1, m, base + a0, a1 - a0);
	}
	return ret;
}

static int plan_parity_write(struct raid_array *a, struct array_op *op)
{
	uint64_t rowb, pos = op->offset, end = op->offset + op->length;
	int ret = 0;

	memset(a->last_idx, 0xff, 2 * a->n * sizeof(*a->last_idx));
	rowb = (uint64_t)a->data * a->cfg.stripe;
	while (pos < end && !ret) {
		uint64_t row = pos / rowb, lo = pos % rowb;
		uint64_t hi = end - row * rowb < rowb ? end - row * rowb : rowb;

		ret = parity_write_row(a, op, row, lo, hi);
		pos = row * rowb + hi;
	}
	return ret;
}

int raid_plan_rest(struct raid_array *a, struct array_op *op)
{
	int ret = 0;

	op->list[0].len = op->list[1].len = 0;
	if (op->op == IO_WRITE && a->parity)
		return plan_parity_write(a, op);
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
	return for_each_piece(a, op, op->offset, op->offset + op->length, plain_piece);
}

/* TRIM of [off, +len) of member m, unless it has failed. */
static int trim_member(struct raid_array *a, unsigned m, uint64_t off, uint64_t len)
{
	struct sim_device *d = a->member[m];

	if (failed(a, m) || !len)
		return 0;
	return d->ops->discard ? d->ops->discard(d, off, len) : -EOPNOTSUPP;
}

/* RAID 0 and 10 (a piece_fn, no operation): a chunk's piece, on its member (both mirrors). */
static int trim_piece(struct raid_array *a, struct array_op *op, uint64_t chunk, uint64_t in,
		      uint64_t len)
{
	unsigned across = a->layout.level == RAID_10 ? a->n / 2 : a->n;
	uint64_t moff = chunk / across * a->cfg.stripe + in;
	unsigned m = (unsigned)(chunk % across);
	int ret;

	(void)op;
	if (a->layout.level != RAID_10)
		return trim_member(a, m, moff, len);
	ret = trim_member(a, 2 * m, moff, len);
	return ret ? ret : trim_member(a, 2 * m + 1, moff, len);
}

/* RAID 0 and 10: the chunks of [off, end), each on its member. */
static int trim_pieces(struct raid_array *a, uint64_t off, uint64_t end)
{
	return for_each_piece(a, NULL, off, end, trim_piece);
}

int raid_discard(struct sim_device *d, uint64_t off, uint64_t len)
{
	struct raid_array *a = (struct raid_array *)d;
	unsigned across = a->parity ? a->data : a->layout.level == RAID_10 ? a->n / 2 : a->n;
	uint64_t rowb = (uint64_t)across * a->cfg.stripe, end = off + len, r0, r1;
	int ret = 0;

	if (off > d->capacity || len > d->capacity - off)
		return -EINVAL;
	if (a->kept)
		return -EOPNOTSUPP;
	if (a->layout.level == RAID_1) {
		for (unsigned m = 0; m < a->n && !ret; m++)
			ret = trim_member(a, m, off, len);
		return ret;
	}
	r0 = (off + rowb - 1) / rowb;	/* the whole rows: r0 .. r1 - 1 */
	r1 = end / rowb;
	if (r0 >= r1)
		return a->parity ? 0 : trim_pieces(a, off, end);
	if (!a->parity)
		ret = trim_pieces(a, off, r0 * rowb);
	for (unsigned m = 0; m < a->n && !ret; m++)
		ret = trim_member(a, m, r0 * a->cfg.stripe, (r1 - r0) * a->cfg.stripe);
	return ret || a->parity ? ret : trim_pieces(a, r1 * rowb, end);
}
