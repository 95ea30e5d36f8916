/*
 * hdd_cache.c — the simulated disk's buffer (cache_mib of RAM on the drive):
 * the read-ahead stream, the read segments it leaves behind, and the
 * write-back cache of dirty extents.
 *
 * The buffer is cut into cache_segments segments. One follows the read-ahead
 * stream: after each media read the head keeps reading while it has nothing
 * else to do, until it is one segment ahead of the host; a read that starts
 * in that window is a hit, served when the stream gets there (read_ahead=track
 * stops the stream at the end of the track, read_ahead=window one segment past
 * the miss; both keep only what they read ahead). A hit after a read that it
 * does not continue costs read_hit_jump_ms more. When the head is
 * given other work the stream stops and its last segment of data stays as a
 * read segment (the oldest one is dropped; with stream_takes_segment already
 * when the stream starts, as the read that misses takes a segment of
 * DiskSim's). With write_cache on, a write that
 * fits is taken into the buffer and acknowledged once its data have crossed
 * the bus; it becomes a dirty extent (merged with a dirty extent it extends
 * or lies inside) that hdd.c destages later, in any order; once on the
 * platter it stays in a read segment as clean data. A write that does not fit
 * waits, in arrival order, until a destage frees room. Reads of dirty data
 * are hits too.
 *
 * Timing only: the buffer holds no data, and a write does not invalidate
 * read segments (a later read of those sectors is a hit either way).
 */
#include "hdd.h"

#include <string.h>

/*
 * read_ahead=track: the end of the track at u0 (the head after a read from
 * lo), or of the track after it when the read began on an earlier track.
 */
static uint64_t track_limit(const struct hdd *h, uint64_t lo, uint64_t u0)
{
	uint64_t trk = u0 >> 32, first = hdd_u_of(&h->geom, lo) >> 32;

	return hdd_s_of(&h->geom, (trk + 1 + (first < trk)) << 32);
}

/* Where the read-ahead after a media read of [lo, start) stops, the head then at u0. */
static uint64_t stream_limit(const struct hdd *h, uint64_t lo, uint64_t start, uint64_t u0)
{
	switch (h->cfg.read_ahead) {
	case HDD_AHEAD_TRACK:
		return track_limit(h, lo, u0);
	case HDD_AHEAD_WINDOW:
		return start + h->seg_bytes;
	default:
		return UINT64_MAX;
	}
}

/* seg_count's regions r to e (r < e) by delta: a segment across regions, rare. */
__attribute__((noinline)) static void segment_count_span(struct hdd *h, uint64_t r, uint64_t e,
							 int delta)
{
	for (; r <= e; r++)
		h->seg_count[r] = (uint8_t)(h->seg_count[r] + delta);
}

/* Count [lo, hi) (not empty) in seg_count by `delta`. */
static inline void segment_count(struct hdd *h, uint64_t lo, uint64_t hi, int delta)
{
	uint64_t r = lo >> h->seg_shift, e = (hi - 1) >> h->seg_shift;

	if (r == e)
		h->seg_count[r] = (uint8_t)(h->seg_count[r] + delta);
	else
		segment_count_span(h, r, e, delta);
}

/* Read segment i holds [lo, hi) now (none if hi <= lo). */
static inline void segment_set(struct hdd *h, unsigned i, uint64_t lo, uint64_t hi)
{
	if (h->seg_hi[i] > h->seg_lo[i])
		segment_count(h, h->seg_lo[i], h->seg_hi[i], -1);
	h->seg_lo[i] = lo;
	h->seg_hi[i] = hi;
	if (hi > lo)
		segment_count(h, lo, hi, 1);
}

void hdd_stream_start(struct hdd *h, uint64_t lo, uint64_t start, uint64_t u0, unsigned z,
		      uint64_t t0)
{
	/* read_ahead=track and window keep only what they read ahead, not the host's data */
	bool ahead_only = h->cfg.read_ahead != HDD_AHEAD_SEGMENT;

	if (h->cfg.stream_takes_segment && h->nseg)	/* its segment's old data go now */
		segment_set(h, h->seg_next, 0, 0);
	h->stream = (struct hdd_stream){
		.active = true, .lo = ahead_only ? start : lo, .start = start, .u0 = u0, .t0 = t0,
		.consumed = start, .limit = stream_limit(h, lo, start, u0),
		.zone = z,
	};
}

/* stream_pos() once the stream has run (t > t0). */
static uint64_t stream_pos_ran(const struct hdd *h, uint64_t t)
{
	const struct hdd_stream *st = &h->stream;
	uint64_t s, cap = st->consumed + h->ahead_bytes;

	if (cap > st->limit)
		cap = st->limit;
	if (cap > h->geom.capacity)
		cap = h->geom.capacity;
	s = hdd_s_of_from(&h->geom,
			  hdd_u_after(&h->geom, st->u0, hdd_revs_in(&h->geom, t - st->t0)), st->zone);
	if (s < st->start)
		s = st->start;
	return s < cap ? s : cap;
}

/* How far the stream has read by time t (at QD > 1 it is stopped as it starts). */
static inline uint64_t stream_pos(const struct hdd *h, uint64_t t)
{
	return t <= h->stream.t0 ? h->stream.start : stream_pos_ran(h, t);
}

uint64_t hdd_stream_read(const struct hdd *h, uint64_t t)
{
	return h->stream.active ? stream_pos(h, t) - h->stream.start : 0;
}

/* Keep [lo, hi) as a read segment, in place of the oldest. */
static void segment_keep(struct hdd *h, uint64_t lo, uint64_t hi)
{
	unsigned i = h->seg_next;

	if (!h->nseg || hi <= lo)
		return;
	segment_set(h, i, hi - lo > h->seg_bytes ? hi - h->seg_bytes : lo, hi);
	h->seg_next = i + 1 < h->nseg ? i + 1 : 0;	/* a ring, without a division */
}

void hdd_stream_stop(struct hdd *h, uint64_t t)
{
	struct hdd_stream *st = &h->stream;
	uint64_t hi;

	if (!st->active)
		return;
	hi = stream_pos(h, t);
	segment_keep(h, st->lo, hi);
	h->count.media_read_bytes += hi - st->start;
	h->head_pos = hi;
	h->head_u = hi == st->start ? st->u0 : hdd_u_of(&h->geom, hi);
	st->active = false;
}

/*
 * A hit on the read-ahead stream: a read that starts in what the stream
 * holds or will read before it pauses. Its data are there when the stream
 * reaches its end; a read longer than the window keeps the stream going,
 * as the host drains the buffer faster than the platter fills it. Returns
 * that time, or UINT64_MAX on a miss.
 */
static uint64_t stream_hit(struct hdd *h, uint64_t c, uint64_t d, uint64_t now)
{
	struct hdd_stream *st = &h->stream;
	uint64_t ready;

	if (!st->active || c < st->lo || c > st->consumed + h->ahead_bytes || d > st->limit)
		return UINT64_MAX;
	if (c < st->consumed) {
		uint64_t p = stream_pos(h, now);

		if (p > h->seg_bytes && c < p - h->seg_bytes)
			return UINT64_MAX;	/* already dropped from the segment */
	}
	ready = d <= st->start ? st->t0
			       : st->t0 + hdd_rev_ns(&h->geom, hdd_xfer_u(&h->geom, st->u0,
								    hdd_u_of(&h->geom, d)));
	if (ready > h->head_free)
		h->head_free = ready;	/* the head stays on the stream until then */
	if (d > st->consumed)
		st->consumed = d;
	return ready;
}

/*
 * Whether a read segment holds [c, d); branch-free, as random reads miss.
 * Offsets are below 2^63, so c - lo and hi - d have their top bit set
 * exactly when c < lo or d > hi: a segment holds the read when neither does,
 * and the AND over all segments keeps the top bit when none does (two
 * subtractions, an OR and an AND per segment, no compare).
 */
static bool segment_hit(const struct hdd *h, uint64_t c, uint64_t d)
{
	uint64_t miss = UINT64_MAX;

	if (!h->seg_count[c >> h->seg_shift]) {	/* no segment holds a byte of c's region */
#ifndef NDEBUG
		for (unsigned i = 0; i < h->nseg; i++)
			BUG_ON(c >= h->seg_lo[i] && d <= h->seg_hi[i]);
#endif
		return false;
	}
	for (unsigned i = 0; i < (h->nseg + 1) / 2 * 2; i++)	/* the zeros after nseg miss */
		miss &= (c - h->seg_lo[i]) | (h->seg_hi[i] - d);
	return !(miss >> 63);
}

unsigned hdd_dirty_after(const struct hdd *h, uint64_t c)
{
	unsigned lo = 0, hi = h->ndirty;

	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (hdd_dirty_at(h, mid)->off <= c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct hdd_dirty *hdd_dirty_insert(struct hdd *h, unsigned i)
{
	unsigned slot = h->dirty_free[h->cfg.wcache_extents - h->ndirty - 1];

	memmove(&h->dirty_order[i + 1], &h->dirty_order[i],
		(h->ndirty - i) * sizeof(*h->dirty_order));
	h->dirty_order[i] = (uint16_t)slot;
	h->ndirty++;
	return &h->dirty[slot];
}

struct hdd_dirty hdd_dirty_remove(struct hdd *h, unsigned i)
{
	unsigned slot = h->dirty_order[i];

	h->ndirty--;
	memmove(&h->dirty_order[i], &h->dirty_order[i + 1],
		(h->ndirty - i) * sizeof(*h->dirty_order));
	h->dirty_free[h->cfg.wcache_extents - h->ndirty - 1] = (uint16_t)slot;
	return h->dirty[slot];
}

/* The dirty extent that holds [c, d), or NULL. */
static struct hdd_dirty *dirty_holding(struct hdd *h, uint64_t c, uint64_t d)
{
	unsigned i = hdd_dirty_after(h, c);
	struct hdd_dirty *e = i ? hdd_dirty_at(h, i - 1) : NULL;

	return e && d <= e->off + e->len ? e : NULL;
}

uint64_t hdd_read_hit(struct hdd *h, const struct io_request *req, uint64_t now,
		      bool after_write)
{
	uint64_t c = req->offset, d = c + req->length, t = now + h->hit_ns[after_write];
	uint64_t bus = hdd_bus_ns(h, req->length), ready;
	const struct hdd_dirty *e = h->ndirty ? dirty_holding(h, c, d) : NULL;

	/* a hit that does not continue the read before costs the controller more */
	t += !after_write && c != h->read_end ? h->jump_ns : 0;
	h->read_end = d;

	if (e) {
		h->count.cache_hits++;
		return (e->ready > t ? e->ready : t) + bus;
	}
	if (h->destaging && c >= h->destage_off && d <= h->destage_off + h->destage_len) {
		h->count.cache_hits++;
		return t + bus;
	}
	ready = stream_hit(h, c, d, now);
	if (ready != UINT64_MAX) {
		uint64_t last = ready + hdd_bus_ns(h, 512);

		h->count.cache_hits++;
		return t + bus > last ? t + bus : last;
	}
	if (!segment_hit(h, c, d))
		return UINT64_MAX;
	h->count.cache_hits++;
	return t + bus;
}

/*
 * Find room for [c, d): the dirty extent that holds it, the one it extends
 * (if that stays within a segment), or a new one in offset order; NULL when
 * the cache is full.
 */
static struct hdd_dirty *dirty_room(struct hdd *h, uint64_t c, uint64_t d)
{
	unsigned i = hdd_dirty_after(h, c);
	struct hdd_dirty *e = i ? hdd_dirty_at(h, i - 1) : NULL;
	uint64_t u;

	if (e && d <= e->off + e->len)
		return e;
	if (h->dirty_bytes + (d - c) > h->cache_bytes)
		return NULL;
	if (e && e->off + e->len == c && e->len + (d - c) <= h->seg_bytes) {
		e->len += d - c;
		h->dirty_bytes += d - c;
		return e;
	}
	if (h->ndirty + h->destaging >= h->cfg.wcache_extents)
		return NULL;
	e = hdd_dirty_insert(h, i);
	u = hdd_u_of(&h->geom, c);
	*e = (struct hdd_dirty){
		.off = c, .len = d - c, .trk = (uint32_t)(u >> 32), .ang = hdd_angle_of(&h->geom, u),
		.cyl = hdd_cyl_of(&h->geom, (uint32_t)(u >> 32)),
	};
	h->dirty_bytes += d - c;
	return e;
}

bool hdd_cache_put(struct hdd *h, struct io_request *req, uint64_t t)
{
	uint64_t c = req->offset, ack = t + hdd_bus_write_ns(h, req->length);
	struct hdd_dirty *e = dirty_room(h, c, c + req->length);

	if (!e)
		return false;
	if (ack > e->ready)
		e->ready = ack;
	hdd_push_done(h, req, ack);
	return true;
}

void hdd_destage_done(struct hdd *h)
{
	h->destaging = false;
	h->dirty_bytes -= h->destage_len;
	segment_keep(h, h->destage_off, h->destage_off + h->destage_len);	/* now clean */
	while (h->nwait) {
		struct hdd_waiter *w = &h->wait[h->wait_head];
		uint64_t t = w->ready > h->head_free ? w->ready : h->head_free;

		if (!hdd_cache_put(h, w->req, t))
			break;
		h->wait_head = h->wait_head + 1 < h->cfg.ncq_depth ? h->wait_head + 1 : 0;
		h->nwait--;
	}
}
