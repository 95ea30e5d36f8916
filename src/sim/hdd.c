/*
 * hdd.c — the simulated hard disk: one actuator, a spinning platter, a
 * buffer and a command queue, driven by the virtual clock of backend/sim.c
 * through the operations of device.h.
 *
 * A host command is accepted when one of ncq_depth tags is free (else it
 * waits in the backlog). A read is served from the buffer when it can
 * (hdd_cache.c); a write goes to the write-back cache when that is on and
 * there is room. Everything else joins the queue of commands that need the
 * head. Each time the head becomes free the drive picks the queued command
 * with the shortest positioning time — access overhead, seek, settle,
 * rotational wait — less a credit for the time it has waited (aged SPTF,
 * ncq_aging), or, when the cache is full or nothing else is queued, the
 * dirty extent it can reach soonest (destaging, pure SPTF).
 *
 * Invariants:
 *  1. The head does one thing at a time: a media transfer starts no earlier
 *     than head_free and moves head_free to its end.
 *  2. Decisions are taken in time order. A decision at time T is taken
 *     before the requests that arrive at T are accepted: the drive chooses
 *     its next command as the previous one ends, before the host answers.
 *  3. No decision is taken later than the host's clock, except those the
 *     next completion depends on (settle_known). The host submits at the
 *     times next_completion() gives it, so no arrival can precede them. (A
 *     request submitted earlier — the sim backend does so when it delays a
 *     completion for an injected fault — misses the decisions already taken
 *     up to the model's next completion and waits for the one after.)
 *  4. The read-ahead stream runs only while the head has no work; a read
 *     that hits the stream ahead of it holds the head on the stream until
 *     its data are read.
 *  5. Every accepted command is in exactly one place: the queue, the list of
 *     writes waiting for cache room, or the done heap (completion known).
 *     At most ncq_depth are accepted; the done heap has room for all.
 *  6. dirty_bytes <= cache bytes and dirty extents + the one being destaged
 *     <= wcache_extents.
 *  7. Same configuration and seed, same completion times: time is integer
 *     nanoseconds, positions are 32.32 fixed point, and the seed only sets
 *     the initial head position and platter angle.
 *  8. No allocation per IO: the done heap and the backlog grow only when
 *     the host keeps more requests in flight than ever before.
 *
 * States of the head, with the function that makes each transition:
 *
 *                 decide(): pick_cmd() or pick_dirty()
 *      IDLE ─────────────────────────────────────────▶ SEEKING/ROTATING
 *       ▲  (after a host read: READING AHEAD,               │ move_ns() + wait_ns()
 *       │   hdd_stream_start() … hdd_stream_stop())          ▼
 *       └───────────── head_free reached ◀────────── TRANSFERRING
 *                      (settle() → step())            run_cmd() / run_destage()
 *
 *   A read that hits the stream ahead of it keeps the head READING AHEAD
 *   until its data are read (stream_hit() moves head_free).
 *
 * States of data in the write-back cache:
 *
 *   host write ── hdd_cache_put() ──▶ DIRTY ── run_destage() ──▶ DESTAGING
 *       │ no room                    (merged                        │
 *       ▼                             by dirty_room())              │ hdd_destage_done()
 *   WAITING ── hdd_destage_done() admits in arrival order           ▼
 *                                                        CLEAN (a read segment)
 */
#include "hdd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/rng.h"

#define ROT_TOLERANCE (1u << 20)	/* a sector reached < 2^-12 rev late still reads */

static struct hdd *to_hdd(struct sim_device *d)
{
	return (struct hdd *)d;
}

/* The head as a scheduling decision at time T sees it. */
struct sched_at {
	uint64_t T;
	uint64_t head_pos;
	uint32_t phase;			/* platter angle at T */
	uint32_t trk;			/* head's track */
	uint32_t cyl;			/* and cylinder */
};

static struct sched_at sched_at(const struct hdd *h, uint64_t T)
{
	return (struct sched_at){
		.T = T, .head_pos = h->head_pos, .trk = (uint32_t)(h->head_u >> 32),
		.cyl = hdd_cyl_of(&h->geom, (uint32_t)(h->head_u >> 32)),
		.phase = hdd_angle_in(&h->geom, T + h->phase0),
	};
}

/*
 * Time from b->T until the head is over the track of `pos` (cylinder cyl)
 * and ready to transfer: access overhead (host commands; a destage is
 * planned while the head is still busy), seek to the cylinder or, within
 * it, a head switch, and settling before a write on another track; nothing
 * for a transfer that continues where the head stopped.
 */
static inline uint64_t move_ns(const struct hdd *h, const struct sched_at *b, uint64_t pos,
			       uint32_t trk, uint32_t cyl, uint64_t overhead, bool write)
{
	uint32_t dist = cyl > b->cyl ? cyl - b->cyl : b->cyl - cyl;
	uint64_t s = overhead + hdd_seek_ns(&h->geom, dist);

	if (trk != b->trk) {
		s += dist ? 0 : h->switch_ns;
		s += write ? h->settle_ns : 0;
	}
	return pos == b->head_pos ? 0 : s;
}

/*
 * move_ns() of a queued command; a write-through starts no earlier than
 * write_watermark of its data are in the buffer.
 */
static inline uint64_t cmd_move_ns(const struct hdd *h, const struct sched_at *b,
				   const struct hdd_cmd *c)
{
	uint64_t move = move_ns(h, b, c->pos, c->trk, c->cyl, c->access, c->write);
	uint64_t data = c->data_at > b->T ? c->data_at - b->T : 0;

	return move > data ? move : data;
}

/*
 * Then the rotational wait for the sector at angle `ang`. move + wait is the
 * positioning time: the picks compute it, and the transfer starts exactly
 * then (the scheduler's estimate is the actual time).
 */
static inline uint64_t wait_ns(const struct hdd *h, const struct sched_at *b, uint64_t move,
			       uint32_t ang)
{
	uint32_t w = ang - b->phase - hdd_angle_in(&h->geom, move);

	if (w > 0u - ROT_TOLERANCE)
		w = 0;			/* reached a hair late: rounding, not a miss */
	return hdd_rev_ns(&h->geom, w);
}

/*
 * The drive's estimate of positioning time `t` for a command weighed at time
 * T: t × (1 + ncq_fuzz × u), u uniform in [0, 1) from a hash of the command
 * (its key: arrival and position) and the moment (no state, so the same
 * history gives the same choices).
 * Firmware does not plan as well as exact SPTF would: with a few commands
 * queued the error hides most of what a choice could win, with many some are
 * close enough to win anyway, so the gain grows with the depth gradually, as
 * measured drives show; a command under the head (sequential) still costs
 * nothing and is still taken at once.
 */
static inline uint64_t estimate(uint64_t t, uint64_t m)
{
	return t + (uint64_t)(((unsigned __int128)t * m) >> 48);
}

/*
 * The multiplier m of estimate() for command c weighed at T: ncq_fuzz × u in
 * 16.16 × 0.32 fixed point (below 2^58, so t × m is exact in 128 bits). Drawn
 * once per command and decision: the hash is most of a pick's work.
 */
static inline uint64_t fuzz_mul(const struct hdd *h, const struct hdd_cmd *c, uint64_t T)
{
	uint64_t x = c->key ^ T;

	return h->fuzz_fp ? h->fuzz_fp * (splitmix64(&x) >> 32) : 0;
}

/*
 * pick_cmd() for a drive without fuzz: its estimates are the times, so the
 * lower bounds below skip most commands, and predictably. The queue is in arrival order, so
 * readiness and credit both fall along it and the scan stops as soon as no
 * later command can win. Without aging, commands too far away to beat the
 * best so far are skipped before their seek is looked up.
 */
static int pick_cmd_pruned(const struct hdd *h, uint64_t T, uint64_t *best_reach)
{
	struct sched_at b = sched_at(h, T);
	int64_t best_cost = INT64_MAX;
	uint32_t max_dist = UINT32_MAX;
	int best = -1;

	for (unsigned i = 0; i < h->qlen && h->queue[i].ready <= T; i++) {
		const struct hdd_cmd *c = &h->queue[i];
		int64_t credit = (int64_t)(((unsigned __int128)(T - c->arrival) * h->aging_fp) >> 16);
		uint32_t dist = c->cyl > b.cyl ? c->cyl - b.cyl : b.cyl - c->cyl;
		uint64_t move, reach, m;
		int64_t cost;

		if (-credit >= best_cost)
			break;
		if (dist > max_dist && c->pos != b.head_pos)
			continue;
		move = cmd_move_ns(h, &b, c);
		/* estimates are at least, and grow with, the time estimated: lower bounds */
		if ((int64_t)move - credit >= best_cost)
			continue;
		m = fuzz_mul(h, c, T);
		if ((int64_t)estimate(move, m) - credit >= best_cost)
			continue;
		reach = move + wait_ns(h, &b, move, c->ang);
		cost = (int64_t)estimate(reach, m) - credit;
		if (cost < best_cost) {
			best_cost = cost;
			best = (int)i;
			*best_reach = reach;
			if (!h->aging_fp)
				max_dist = (uint64_t)best_cost > h->access_min_ns
						   ? hdd_seek_within(&h->geom,
								     (uint64_t)best_cost - h->access_min_ns)
						   : 0;
		}
	}
	return best;
}

/*
 * pick_cmd() for a drive with fuzz: every ready command's cost, and the first
 * least one, without branches. With fuzz the lower bounds of the pruned scan
 * skip commands at random, and the mispredicted branches cost more than the
 * arithmetic they save. The choice is the pruned scan's (that skips only
 * commands that cannot beat the best before them, and keeps the first of
 * equals too).
 */
static int pick_cmd_all(const struct hdd *h, uint64_t T, uint64_t *best_reach)
{
	struct sched_at b = sched_at(h, T);
	int64_t best_cost = INT64_MAX;
	uint64_t reach_of_best = 0;
	int best = -1;

	for (unsigned i = 0; i < h->qlen && h->queue[i].ready <= T; i++) {
		const struct hdd_cmd *c = &h->queue[i];
		int64_t credit = (int64_t)(((unsigned __int128)(T - c->arrival) * h->aging_fp) >> 16);
		uint64_t move = cmd_move_ns(h, &b, c);
		uint64_t reach = move + wait_ns(h, &b, move, c->ang);
		int64_t cost = (int64_t)estimate(reach, fuzz_mul(h, c, T)) - credit;
		bool better = cost < best_cost;

		best_cost = better ? cost : best_cost;
		reach_of_best = better ? reach : reach_of_best;
		best = better ? (int)i : best;
	}
	*best_reach = reach_of_best;
	return best;
}

/*
 * The queued command to run at time T, or -1 when none is ready: least
 * estimated positioning time less the aging credit, the oldest of equals.
 */
static int pick_cmd(const struct hdd *h, uint64_t T, uint64_t *best_reach)
{
	return h->fuzz_fp ? pick_cmd_all(h, T, best_reach) : pick_cmd_pruned(h, T, best_reach);
}

/* Best of dirty[i] so far (*best_cost, *best); false once past reach. */
static bool try_dirty(const struct hdd *h, const struct sched_at *b, unsigned i,
		      uint64_t *best_cost, int *best)
{
	const struct hdd_dirty *e = &h->dirty[i];
	uint64_t move = move_ns(h, b, e->off, e->trk, e->cyl, 0, true), cost;

	if (move >= *best_cost)
		return false;		/* and every extent further out */
	if (e->ready > b->T)
		return true;
	cost = move + wait_ns(h, b, move, e->ang);
	if (cost < *best_cost) {
		*best_cost = cost;
		*best = (int)i;
	}
	return true;
}

/*
 * The dirty extent to destage at time T, or -1 when none is ready: pure
 * SPTF. Extents are in track order, so the scan runs outwards from the head
 * on each side and stops where the seek alone is longer than the best.
 */
static int pick_dirty(const struct hdd *h, uint64_t T, uint64_t *best_reach)
{
	struct sched_at b = sched_at(h, T);
	unsigned p = hdd_dirty_after(h, h->head_pos);
	uint64_t best_cost = UINT64_MAX;
	int best = -1;

	for (unsigned i = p; i-- > 0;)
		if (!try_dirty(h, &b, i, &best_cost, &best))
			break;
	for (unsigned i = p; i < h->ndirty; i++)
		if (!try_dirty(h, &b, i, &best_cost, &best))
			break;
	*best_reach = best_cost;
	return best;
}

/*
 * Transfer [c, d), whose first sector is at (trk, ang), starting `reach`
 * after T (what the pick computed); returns the start.
 */
static uint64_t head_transfer(struct hdd *h, uint64_t T, uint64_t reach, uint64_t c,
			      uint32_t trk, uint32_t ang, uint64_t d)
{
	uint64_t start = T + reach;
	uint64_t u = h->geom.skewed ? hdd_u_of(&h->geom, c) : (uint64_t)trk << 32 | ang;
	uint64_t u_end = hdd_u_of(&h->geom, d);

	if (c != h->head_pos && trk != (uint32_t)(h->head_u >> 32))
		h->count.seeks++;
	h->head_free = start + hdd_rev_ns(&h->geom, hdd_xfer_u(&h->geom, u, u_end));
	h->head_pos = d;
	h->head_u = u_end;
	return start;
}

uint64_t hdd_bus_write_ns(const struct hdd *h, uint64_t bytes)
{
	return (uint64_t)(((unsigned __int128)bytes * h->bus_w_fp) >> 32);
}

/*
 * write_pace=sector: the earliest media start at which no sector of [c, d)
 * is reached before its data came over the bus (from `data`, in order). The
 * head gains on the data within a track and loses the skew at its end, so
 * the first and last sector of each track the write touches decide.
 */
static uint64_t sector_pace_start(const struct hdd *h, uint64_t data, uint64_t c, uint64_t d)
{
	const struct hdd_geom *g = &h->geom;
	uint64_t u = hdd_u_of(g, c), need = 0;
	uint32_t trk = (uint32_t)(u >> 32), last = (uint32_t)((hdd_u_of(g, d) - 1) >> 32);

	for (uint32_t t = trk;; t++) {
		uint64_t lo = t == trk ? c : hdd_s_of(g, (uint64_t)t << 32);
		uint64_t hi = t == last ? d : hdd_s_of(g, (uint64_t)(t + 1) << 32);

		for (uint64_t s = lo; s < hi; s = s + 512 >= hi ? hi : hi - 512) {
			uint64_t came = data + hdd_bus_write_ns(h, s + 512 - c);
			uint64_t at = hdd_rev_ns(g, hdd_xfer_u(g, u, hdd_u_of(g, s)));

			need = came > at && came - at > need ? came - at : need;
		}
		if (t >= last)
			return need;
	}
}

/* A write-through's media start `start`, later by the revolutions it loses to its data. */
static uint64_t sector_paced(struct hdd *h, const struct hdd_cmd *cmd, uint64_t start)
{
	uint64_t data = cmd->ready + (cmd->redisconnect ? h->redisconnect_ns : 0);
	uint64_t need = sector_pace_start(h, data, cmd->pos, cmd->pos + cmd->req->length);
	uint64_t rev = (uint64_t)h->geom.rev_ns, lost;

	if (start >= need)
		return start;
	lost = (need - start + rev - 1) / rev;
	return start + lost * rev;
}

static void run_cmd(struct hdd *h, unsigned i, uint64_t T, uint64_t reach)
{
	struct hdd_cmd cmd = h->queue[i];
	struct io_request *req = cmd.req;
	uint64_t d = req->offset + req->length, start, done;
	bool write = cmd.write;

	h->qlen--;
	memmove(&h->queue[i], &h->queue[i + 1], (h->qlen - i) * sizeof(*h->queue));
	if (write && h->cfg.write_pace == HDD_PACE_SECTOR)
		reach = sector_paced(h, &cmd, T + reach) - T;
	start = head_transfer(h, T, reach, cmd.pos, cmd.trk, cmd.ang, d);
	if (!write) {
		uint64_t last = h->head_free + hdd_bus_ns(h, 512);
		uint64_t reconnect = (uint64_t)(((unsigned __int128)(h->head_free - start) *
						 h->watermark_fp) >> 32);

		done = start + reconnect + hdd_bus_ns(h, req->length);
		done = done > last ? done : last;
		h->count.media_read_bytes += req->length;
		hdd_stream_start(h, req->offset, d, h->head_u, h->head_free);
	} else {
		done = cmd.ready + hdd_bus_write_ns(h, req->length) +
		       (cmd.redisconnect ? h->redisconnect_ns : 0);
		done = done > h->head_free ? done : h->head_free;
		done += h->write_done_ns;
		h->count.media_write_bytes += req->length;
	}
	hdd_push_done(h, req, done);
}

static void run_destage(struct hdd *h, unsigned i, uint64_t T, uint64_t reach)
{
	struct hdd_dirty e = h->dirty[i];

	h->ndirty--;
	memmove(&h->dirty[i], &h->dirty[i + 1], (h->ndirty - i) * sizeof(*h->dirty));
	head_transfer(h, T, reach, e.off, e.trk, e.ang, e.off + e.len);
	h->destaging = true;
	h->destage_off = e.off;
	h->destage_len = e.len;
	h->count.media_write_bytes += e.len;
}

static void decide(struct hdd *h, uint64_t T)
{
	uint64_t reach = 0;
	int i;

	hdd_stream_stop(h, T);
	i = h->nwait ? -1 : pick_cmd(h, T, &reach);
	if (i >= 0) {
		run_cmd(h, (unsigned)i, T, reach);
		return;
	}
	i = pick_dirty(h, T, &reach);
	if (i >= 0)
		run_destage(h, (unsigned)i, T, reach);
}

/* When the head next has work to start, UINT64_MAX if none. */
static uint64_t next_decision(const struct hdd *h)
{
	uint64_t t = UINT64_MAX;

	if (h->qlen && !h->nwait)
		t = h->queue[0].ready;	/* the oldest is the first ready */
	for (unsigned i = 0; i < h->ndirty; i++) {
		if (h->dirty[i].ready <= h->head_free)
			return h->head_free;	/* usually the first one looked at */
		t = h->dirty[i].ready < t ? h->dirty[i].ready : t;
	}
	return t == UINT64_MAX || t > h->head_free ? t : h->head_free;
}

/* Take the next event at or before `limit`; false when there is none. */
static bool step(struct hdd *h, uint64_t limit)
{
	uint64_t t;

	if (h->destaging && h->head_free <= limit) {
		hdd_destage_done(h);
		return true;
	}
	t = next_decision(h);
	if (t == UINT64_MAX || t > limit)
		return false;
	decide(h, t);
	return true;
}

static void settle(struct hdd *h, uint64_t limit)
{
	while (step(h, limit))
		;
}

/* Take every decision the earliest completion depends on. */
static void settle_known(struct hdd *h)
{
	for (;;) {
		uint64_t limit;

		if (h->done.len)
			limit = req_heap_min(&h->done);
		else
			limit = h->qlen || h->nwait ? UINT64_MAX : h->clock;
		if (!step(h, limit))
			return;
	}
}

/* Queue a host command that needs the head, accepted at t, its controller work done at ready. */
static void enqueue(struct hdd *h, struct io_request *req, uint64_t t, uint64_t ready,
		    bool after_write, bool redisconnect)
{
	bool write = req->op == IO_WRITE;
	uint64_t u = hdd_u_of(&h->geom, req->offset), data_at = 0;
	uint64_t data = ready + (redisconnect ? h->redisconnect_ns : 0);

	if (write && h->cfg.write_pace == HDD_PACE_SECTOR)
		data_at = data + hdd_bus_write_ns(h, 512);	/* its first sector */
	else if (write && h->write_mark_fp)
		data_at = data + (uint64_t)(((unsigned __int128)hdd_bus_write_ns(h, req->length) *
					     h->write_mark_fp) >> 32);
	if (write && h->cfg.write_start_sectors) {
		uint64_t first = h->cfg.write_start_sectors * 512;
		uint64_t at = data + hdd_bus_write_ns(h, first < req->length ? first : req->length);

		data_at = at > data_at ? at : data_at;	/* write_start_sectors */
	}
	if (write && h->write_seek_min_ns) {
		/* write_seek_min_ms, from its controller time (when a drive at QD 1 seeks) */
		uint64_t at = ready + h->access_ns[after_write] + h->write_seek_min_ns;

		data_at = at > data_at ? at : data_at;
	}
	h->queue[h->qlen++] = (struct hdd_cmd){
		.ready = ready, .data_at = data_at, .arrival = t, .pos = req->offset,
		.key = t * 0x9e3779b97f4a7c15ULL ^ req->offset, .redisconnect = redisconnect,
		.trk = (uint32_t)(u >> 32), .ang = hdd_angle_of(&h->geom, u), .write = write,
		.cyl = hdd_cyl_of(&h->geom, (uint32_t)(u >> 32)),
		.access = (uint32_t)h->access_ns[after_write], .req = req,
	};
}

static void accept(struct hdd *h, struct io_request *req, uint64_t t)
{
	bool after_write = h->last_write;
	/* a write after a write it does not continue (DiskSim's extra write disconnect) */
	bool redisconnect = h->redisconnect_ns && after_write && req->op == IO_WRITE &&
			    req->offset != h->last_write_end;

	h->last_write = req->op == IO_WRITE;
	if (h->last_write)
		h->last_write_end = req->offset + req->length;
	if (req->op == IO_READ) {
		uint64_t done = hdd_read_hit(h, req, t, after_write);

		if (done != UINT64_MAX) {
			hdd_push_done(h, req, done);
			return;
		}
		enqueue(h, req, t, t + h->cmd_ns, after_write, false);
	} else if (h->cfg.write_cache && req->length <= h->cache_bytes) {
		uint64_t ready = t + h->write_ns[after_write];

		if (!h->nwait && hdd_cache_put(h, req, ready))
			return;
		h->wait[(h->wait_head + h->nwait++) % h->cfg.ncq_depth] =
			(struct hdd_waiter){ req, ready };
	} else {
		enqueue(h, req, t, t + h->write_ns[after_write], after_write, redisconnect);
	}
}

/* Keep room in `done` for n entries, so pushes never allocate mid-decision. */
static int reserve_done(struct hdd *h, unsigned n)
{
	return req_heap_reserve(&h->done, n);
}

static int backlog_push(struct hdd_backlog *b, struct io_request *req, uint64_t now)
{
	if (b->len == b->alloc) {
		unsigned alloc = b->alloc ? 2 * b->alloc : 64;
		struct hdd_waiter *w = malloc(alloc * sizeof(*w));

		if (!w)
			return -ENOMEM;
		for (unsigned i = 0; i < b->len; i++)
			w[i] = b->w[(b->head + i) % b->alloc];
		free(b->w);
		b->w = w;
		b->alloc = alloc;
		b->head = 0;
	}
	b->w[(b->head + b->len++) % b->alloc] = (struct hdd_waiter){ req, now };
	return 0;
}

static int hdd_submit(struct sim_device *d, struct io_request *req, uint64_t now)
{
	struct hdd *h = to_hdd(d);
	int ret;

	if (!req->length || req->offset % 512 || req->length % 512 ||
	    req->offset > h->geom.capacity || req->length > h->geom.capacity - req->offset ||
	    (req->op != IO_READ && req->op != IO_WRITE))
		return -EINVAL;
	if (now > h->clock)
		h->clock = now;
	settle(h, now);
	if (h->tags < h->cfg.ncq_depth) {
		ret = reserve_done(h, h->tags + 1);
		if (ret)
			return ret;
		h->tags++;
		accept(h, req, now);
		return 0;
	}
	return backlog_push(&h->backlog, req, now);
}

static uint64_t hdd_next_completion(struct sim_device *d)
{
	/*
	 * Takes the scheduling decisions already determined by what has been
	 * submitted; taking them now rather than later changes no result.
	 */
	struct hdd *h = to_hdd(d);

	settle_known(h);
	return req_heap_min(&h->done);
}

static unsigned hdd_complete(struct sim_device *d, uint64_t now, struct io_request **out,
			     unsigned max)
{
	struct hdd *h = to_hdd(d);
	unsigned n = 0;

	if (now > h->clock)
		h->clock = now;
	while (n < max && req_heap_min(&h->done) <= now) {
		struct io_request *req = req_heap_pop(&h->done);

		if (req->op == IO_READ)
			h->count.host_read_bytes += req->length;
		else
			h->count.host_write_bytes += req->length;
		h->tags--;
		out[n++] = req;
	}
	while (h->backlog.len && h->tags < h->cfg.ncq_depth) {
		struct hdd_waiter w = h->backlog.w[h->backlog.head];

		h->backlog.head = (h->backlog.head + 1) % h->backlog.alloc;
		h->backlog.len--;
		h->tags++;
		accept(h, w.req, now);
	}
	settle(h, now);
	return n;
}

static void hdd_counters(const struct sim_device *d, struct sim_counters *c)
{
	const struct hdd *h = (const struct hdd *)d;

	*c = h->count;
	c->media_read_bytes += hdd_stream_read(h, h->clock);	/* read ahead so far */
}

static void hdd_destroy(struct sim_device *d)
{
	struct hdd *h = to_hdd(d);

	if (!h)
		return;
	req_heap_release(&h->done);
	free(h->backlog.w);
	free(h->queue);
	free(h->wait);
	free(h->dirty);
	free(h->seg);
	free(h);
}

static const struct sim_device_ops hdd_ops = {
	.submit = hdd_submit,
	.next_completion = hdd_next_completion,
	.complete = hdd_complete,
	.counters = hdd_counters,
	.destroy = hdd_destroy,
};

/* A checked overhead (never below 0), in ns. */
static uint64_t ms_ns(double ms)
{
	return ms > 0 ? (uint64_t)(ms * 1e6 + 0.5) : 0;
}

static void set_costs(struct hdd *h, const struct hdd_config *c, uint64_t seed)
{
	struct rng r;

	h->cmd_ns = (uint64_t)(c->cmd_overhead_ms * 1e6 + 0.5);
	h->access_ns[0] = ms_ns(c->access_overhead_ms);
	h->access_ns[1] = ms_ns(c->access_overhead_ms + c->after_write_miss_ms);
	h->access_min_ns = h->access_ns[0] < h->access_ns[1] ? h->access_ns[0] : h->access_ns[1];
	h->hit_ns[0] = ms_ns(c->cmd_overhead_ms + c->read_hit_overhead_ms);
	h->hit_ns[1] = ms_ns(c->cmd_overhead_ms + c->read_hit_overhead_ms + c->after_write_hit_ms);
	h->jump_ns = ms_ns(c->read_hit_jump_ms);
	h->write_ns[0] = ms_ns(c->cmd_overhead_ms + c->write_overhead_ms);
	h->write_ns[1] = ms_ns(c->cmd_overhead_ms + c->write_overhead_ms + c->after_write_write_ms);
	h->settle_ns = (uint64_t)(c->write_settle_ms * 1e6 + 0.5);
	h->switch_ns = (uint64_t)(c->head_switch_ms * 1e6 + 0.5);

	h->watermark_fp = (uint64_t)(c->read_watermark * 4294967296.0 + 0.5);
	h->write_mark_fp = (uint64_t)(c->write_watermark * 4294967296.0 + 0.5);
	h->bus_fp = (uint64_t)(1e9 / (c->bus_mib_s * (1 << 20)) * 4294967296.0);
	h->bus_w_fp = c->bus_write_mib_s > 0
			      ? (uint64_t)(1e9 / (c->bus_write_mib_s * (1 << 20)) * 4294967296.0)
			      : h->bus_fp;
	h->write_done_ns = ms_ns(c->write_done_ms);
	h->redisconnect_ns = ms_ns(c->write_redisconnect_ms);
	h->write_seek_min_ns = ms_ns(c->write_seek_min_ms);
	h->aging_fp = (uint64_t)(c->ncq_aging * 65536 + 0.5);
	h->fuzz_fp = (uint64_t)(c->ncq_fuzz * 65536 + 0.5);
	h->cache_bytes = c->cache_mib << 20;
	h->seg_bytes = c->segment_bytes ? c->segment_bytes
				       : h->cache_bytes / c->cache_segments / 512 * 512;
	rng_init(&r, seed);
	h->phase0 = rng_below(&r, (uint64_t)h->geom.rev_ns);
	h->head_pos = rng_below(&r, c->capacity / 512) * 512;
	h->head_u = hdd_u_of(&h->geom, h->head_pos);
}

int hdd_create(const struct hdd_config *c, uint64_t seed, struct sim_device **out,
	       struct errmsg *err)
{
	struct hdd *h = calloc(1, sizeof(*h));
	int ret;

	*out = NULL;
	if (!h)
		return errmsg_set(err, -ENOMEM, "out of memory for the hdd model");
	ret = hdd_geom_init(&h->geom, c, err);
	if (ret) {
		free(h);
		return ret;
	}
	h->dev = (struct sim_device){ .ops = &hdd_ops, .capacity = c->capacity, .sector = 512 };
	h->cfg = *c;
	set_costs(h, c, seed);
	h->nseg = (unsigned)c->cache_segments - 1;
	h->queue = calloc(c->ncq_depth, sizeof(*h->queue));
	h->wait = calloc(c->ncq_depth, sizeof(*h->wait));
	h->dirty = calloc(c->wcache_extents, sizeof(*h->dirty));
	h->seg = calloc(h->nseg ? h->nseg : 1, sizeof(*h->seg));
	req_heap_init(&h->done);
	if (!h->queue || !h->wait || !h->dirty || !h->seg || reserve_done(h, 64)) {
		hdd_destroy(&h->dev);
		return errmsg_set(err, -ENOMEM, "out of memory for the hdd model");
	}
	*out = &h->dev;
	return 0;
}
