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
 * dirty extent it can reach soonest (destaging, pure SPTF). The queue and
 * those picks are hdd_sched.c's.
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
 *  5. Every accepted command is in exactly one place: the queue (or beside
 *     it, `solo`, while the queue is empty), the list of writes waiting for
 *     cache room, or the done heap (or beside it, `done_solo`, while the heap
 *     is empty: completion known). At most ncq_depth are accepted; the done
 *     heap has room for all.
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
 *                 decide(): hdd_pick_cmd() or hdd_pick_dirty()
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

#include "util/bug.h"
#include "util/rng.h"

static struct hdd *to_hdd(struct sim_device *d)
{
	return (struct hdd *)d;
}

/*
 * Transfer [c, d), whose first sector is at (trk, ang), starting `reach`
 * after T (what the pick computed); returns the start, and d's zone in *zd.
 */
static uint64_t head_transfer(struct hdd *h, uint64_t T, uint64_t reach, uint64_t c,
			      uint32_t trk, uint32_t ang, uint64_t d, unsigned *zd)
{
	uint64_t start = T + reach;
	uint64_t u = h->geom.skewed ? hdd_u_of(&h->geom, c) : (uint64_t)trk << 32 | ang;
	uint64_t u_end = hdd_u_in_zone(&h->geom, d, *zd = hdd_zone_of(&h->geom, d));

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

/* When a write-through's data start crossing the bus, its controller time done at ready. */
static uint64_t write_data_start(const struct hdd *h, uint64_t ready, bool redisconnect)
{
	return ready + (redisconnect ? h->redisconnect_ns - h->reseek_ns : 0) + h->write_prep_ns;
}

/* A write-through's media start `start`, later by the revolutions it loses to its data. */
static uint64_t sector_paced(struct hdd *h, const struct hdd_cmd *cmd, uint64_t start)
{
	uint64_t data = write_data_start(h, cmd->ready, cmd->redisconnect);
	uint64_t need = sector_pace_start(h, data, cmd->pos, cmd->pos + cmd->req->length);
	uint64_t rev = (uint64_t)h->geom.rev_ns, lost;

	if (start >= need)
		return start;
	lost = (need - start + rev - 1) / rev;
	return start + lost * rev;
}

/*
 * When a read miss whose media transfer runs from `start` to head_free starts
 * its transfer to the host, counted from start (read_reconnect).
 */
static uint64_t reconnect_ns(const struct hdd *h, const struct hdd_cmd *cmd, uint64_t start)
{
	const struct hdd_geom *g = &h->geom;
	uint64_t sectors = cmd->req->length / 512, k, u;

	if (h->cfg.read_reconnect == HDD_RECONNECT_SHARE)
		return (uint64_t)(((unsigned __int128)(h->head_free - start) * h->watermark_fp) >>
				  32);
	k = (uint64_t)(((unsigned __int128)(sectors < h->seg_bytes / 512 ? sectors
									    : h->seg_bytes / 512) *
			h->watermark_fp) >> 32);
	k = k < 1 ? 1 : k > sectors ? sectors : k;
	u = g->skewed ? hdd_u_of(g, cmd->pos) : (uint64_t)cmd->trk << 32 | cmd->ang;
	return hdd_rev_ns(g, hdd_xfer_u(g, u, hdd_u_of(g, cmd->pos + k * 512)));
}

/*
 * continue_switch: the positioning time from T of a command that starts
 * where the head stopped but on another track (its first sector opens the
 * next track): the head switch (or the seek) from T, a write's settling,
 * then the rotational wait; `reach` otherwise.
 */
static uint64_t continue_reach(const struct hdd *h, const struct hdd_cmd *cmd, uint64_t T,
			       uint64_t reach)
{
	const struct hdd_geom *g = &h->geom;
	uint32_t trk, last, c0, c1;
	uint64_t move, data;

	if (!h->cfg.continue_switch || cmd->pos != h->head_pos || h->head_pos < 512)
		return reach;
	/* the track whose skew its first sector takes, and the track the last byte was on */
	trk = hdd_skew_track(g, hdd_u_of(g, h->head_pos));
	last = (uint32_t)((hdd_u_of(g, h->head_pos) - 1) >> 32);
	if (trk == last)
		return reach;
	c0 = hdd_cyl_of(g, last);
	c1 = hdd_cyl_of(g, trk);
	move = cmd->access + (c0 == c1 ? h->switch_ns : hdd_seek_ns(g, c1 > c0 ? c1 - c0
										 : c0 - c1)) +
	       (cmd->write ? h->settle_ns : 0);
	data = cmd->data_at > T ? cmd->data_at - T : 0;
	move = move > data ? move : data;
	return move + hdd_rev_ns(g, (uint32_t)(cmd->ang - hdd_angle_in(g, T + move + h->phase0)));
}

/* Run command cmd (out of the queue) from T, `reach` after it by the pick. */
static void run_cmd(struct hdd *h, const struct hdd_cmd *cmd, uint64_t T, uint64_t reach)
{
	struct io_request *req = cmd->req;
	uint64_t d = req->offset + req->length, start, done;
	bool write = cmd->write;
	unsigned zd;

	reach = continue_reach(h, cmd, T, reach);
	if (write && h->cfg.write_pace == HDD_PACE_SECTOR)
		reach = sector_paced(h, cmd, T + reach) - T;
	start = head_transfer(h, T, reach, cmd->pos, cmd->trk, cmd->ang, d, &zd);
	if (!write) {
		uint64_t last = h->head_free + hdd_bus_ns(h, 512);

		done = start + reconnect_ns(h, cmd, start) + h->read_reselect_ns +
		       hdd_bus_ns(h, req->length);
		done = (done > last ? done : last) + h->read_done_ns;
		h->count.media_read_bytes += req->length;
		hdd_stream_start(h, req->offset, d, h->head_u, zd, h->head_free);
	} else {
		done = write_data_start(h, cmd->ready, cmd->redisconnect) +
		       hdd_bus_write_ns(h, req->length);
		done = done > h->head_free ? done : h->head_free;
		done += cmd->redisconnect ? h->redone_ns : h->write_done_ns;
		h->count.media_write_bytes += req->length;
	}
	hdd_push_done(h, req, done);
}

/* Take the command in `slot` out of the queue and run it. */
static void run_slot(struct hdd *h, unsigned slot, uint64_t T, uint64_t reach)
{
	const struct hdd_queue *q = h->queue;
	const struct hdd_cmd cmd = {
		.ready = q->ready[slot], .data_at = q->data_at[slot], .pos = q->pos[slot],
		.access = q->access[slot], .trk = (uint32_t)q->trk[slot],
		.ang = (uint32_t)q->ang[slot], .write = q->write[slot] != 0,
		.redisconnect = q->redisconnect[slot], .req = q->req[slot],
	};

	hdd_queue_remove(h->queue, slot);
	hdd_queue_check(h->queue);
	run_cmd(h, &cmd, T, reach);
}

static void run_destage(struct hdd *h, unsigned i, uint64_t T, uint64_t reach)
{
	struct hdd_dirty e = hdd_dirty_remove(h, i);
	unsigned zd;

	head_transfer(h, T, reach, e.off, e.trk, e.ang, e.off + e.len, &zd);
	h->destaging = true;
	h->destage_off = e.off;
	h->destage_len = e.len;
	h->count.media_write_bytes += e.len;
}

/* Out of line: step() and the loops around it stay small enough to inline. */
__attribute__((noinline)) static void decide(struct hdd *h, uint64_t T)
{
	uint64_t reach = 0;
	int i;

	hdd_stream_stop(h, T);
	if (h->solo_on && !h->nwait) {
		if (hdd_pick_solo(h, &h->solo, T, &reach)) {
			h->solo_on = false;
			run_cmd(h, &h->solo, T, reach);
			return;
		}
	} else if (!h->nwait) {
		i = hdd_pick_cmd(h, T, &reach);
		if (i >= 0) {
			run_slot(h, (unsigned)i, T, reach);
			return;
		}
	}
	i = hdd_pick_dirty(h, T, &reach);
	if (i >= 0)
		run_destage(h, (unsigned)i, T, reach);
}

/* When the head next has work to start, UINT64_MAX if none. */
static uint64_t next_decision(const struct hdd *h)
{
	uint64_t t = UINT64_MAX;

	BUG_ON(h->solo_on && h->queue->len);
	if (h->solo_on && !h->nwait)
		t = h->solo.ready;
	else if (h->queue->len && !h->nwait)
		t = hdd_queue_first_ready(h->queue);	/* the oldest is the first ready */
	for (unsigned i = 0; i < h->ndirty; i++) {
		const struct hdd_dirty *e = hdd_dirty_at(h, i);

		if (e->ready <= h->head_free)
			return h->head_free;	/* usually the first one looked at */
		t = e->ready < t ? e->ready : t;
	}
	return t == UINT64_MAX || t > h->head_free ? t : h->head_free;
}

/* Take the next event at or before `limit`; false when there is none. */
static bool step(struct hdd *h, uint64_t limit)
{
	uint64_t t;

	if (h->head_free > limit)
		return false;		/* the head is busy: nothing ends or starts by limit */
	if (h->destaging) {
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

		if (h->done_solo || req_heap_count(&h->done))
			limit = hdd_done_min(h);
		else
			limit = h->queue->len || h->solo_on || h->nwait ? UINT64_MAX : h->clock;
		if (!step(h, limit))
			return;
	}
}

/* Queue c: beside the queue when nothing else needs the head, else in it. */
static void queue_cmd(struct hdd *h, const struct hdd_cmd *c)
{
	if (!h->solo_on && !h->queue->len) {
		h->solo = *c;
		h->solo_on = true;
		return;
	}
	if (h->solo_on) {		/* the older first: seq in arrival order */
		hdd_queue_push(h->queue, &h->solo);
		h->solo_on = false;
	}
	hdd_queue_push(h->queue, c);
	hdd_queue_check(h->queue);
}

/* Queue a host command that needs the head, accepted at t, its controller work done at ready. */
static void enqueue(struct hdd *h, struct io_request *req, uint64_t t, uint64_t ready,
		    bool after_write, bool redisconnect)
{
	bool write = req->op == IO_WRITE;
	uint64_t u = hdd_u_of(&h->geom, req->offset), data_at = 0;
	uint64_t data = write_data_start(h, ready, redisconnect);

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
	queue_cmd(h, &(struct hdd_cmd){
		.ready = ready, .data_at = data_at, .arrival = t, .pos = req->offset,
		.key = t * 0x9e3779b97f4a7c15ULL ^ req->offset, .redisconnect = redisconnect,
		.trk = (uint32_t)(u >> 32), .ang = hdd_angle_of(&h->geom, u), .write = write,
		.cyl = hdd_cyl_of(&h->geom, (uint32_t)(u >> 32)),
		.access = (uint32_t)h->access_ns[after_write], .req = req,
	});
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
		unsigned at = h->wait_head + h->nwait;	/* < 2 ncq_depth */

		if (!h->nwait && hdd_cache_put(h, req, ready))
			return;
		h->wait[at < h->cfg.ncq_depth ? at : at - h->cfg.ncq_depth] =
			(struct hdd_waiter){ req, ready };
		h->nwait++;
	} else {
		enqueue(h, req, t, t + h->write_ns[after_write] + (redisconnect ? h->reseek_ns : 0),
			after_write, redisconnect);
	}
}

/* Keep room in `done` for n entries, so pushes never allocate mid-decision. */
static int reserve_done(struct hdd *h, unsigned n)
{
	int ret;

	if (n <= h->done_room)
		return 0;
	ret = req_heap_reserve(&h->done, n);
	if (!ret)
		h->done_room = n;
	return ret;
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
	return hdd_done_min(h);
}

static unsigned hdd_complete(struct sim_device *d, uint64_t now, struct io_request **out,
			     unsigned max)
{
	struct hdd *h = to_hdd(d);
	unsigned n = 0;

	if (now > h->clock)
		h->clock = now;
	while (n < max && hdd_done_min(h) <= now) {
		struct io_request *req = h->done_solo ? h->done_solo : req_heap_pop(&h->done);

		h->done_solo = NULL;
		if (req->op == IO_READ)
			h->count.host_read_bytes += req->length;
		else
			h->count.host_write_bytes += req->length;
		h->tags--;
		out[n++] = req;
	}
	while (h->backlog.len && h->tags < h->cfg.ncq_depth) {
		struct hdd_waiter w = h->backlog.w[h->backlog.head];

		h->backlog.head = h->backlog.head + 1 < h->backlog.alloc ? h->backlog.head + 1 : 0;
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
	free(h->dirty_order);
	free(h->dirty_free);
	free(h->seg_lo);
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
	h->read_reselect_ns = ms_ns(c->read_reselect_ms);
	h->read_done_ns = ms_ns(c->read_done_ms);
	h->redisconnect_ns = ms_ns(c->write_redisconnect_ms);
	h->write_prep_ns = ms_ns(c->write_prep_ms);
	h->redone_ns = ms_ns(c->write_done_ms + c->redisconnect_done_ms);
	h->reseek_ns = ms_ns(c->redisconnect_seek_ms);
	h->write_seek_min_ns = ms_ns(c->write_seek_min_ms);
	h->aging_fp = (uint64_t)(c->ncq_aging * 65536 + 0.5);
	h->fuzz_fp = (uint64_t)(c->ncq_fuzz * 65536 + 0.5);
	h->cache_bytes = c->cache_mib << 20;
	h->seg_bytes = c->segment_bytes ? c->segment_bytes
				       : h->cache_bytes / c->cache_segments / 512 * 512;
	h->ahead_bytes = c->read_ahead_max ? c->read_ahead_max : h->seg_bytes;
	rng_init(&r, seed);
	h->phase0 = rng_below(&r, (uint64_t)h->geom.rev_ns);
	h->head_pos = rng_below(&r, c->capacity / 512) * 512;
	h->head_u = hdd_u_of(&h->geom, h->head_pos);
}

int hdd_create(const struct hdd_config *c, uint64_t seed, struct sim_device **out,
	       struct errmsg *err)
{
	struct hdd *h = calloc(1, sizeof(*h));
	unsigned nseg_even;
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
	while (c->capacity >> h->seg_shift >= HDD_SEG_REGIONS)
		h->seg_shift++;
	BUG_ON(c->ncq_depth > HDD_QUEUE_MAX);	/* hdd_model.c's range */
	h->queue = malloc(sizeof(*h->queue));
	if (h->queue)
		hdd_queue_init(h->queue, h);
	h->pick_avx2 = hdd_pick_avx2_supported();
	h->wait = calloc(c->ncq_depth, sizeof(*h->wait));
	h->dirty = calloc(c->wcache_extents, sizeof(*h->dirty));
	h->dirty_order = calloc(c->wcache_extents, sizeof(*h->dirty_order));
	h->dirty_free = calloc(c->wcache_extents, sizeof(*h->dirty_free));
	for (unsigned i = 0; h->dirty_free && i < c->wcache_extents; i++)
		h->dirty_free[i] = (uint16_t)i;
	nseg_even = (h->nseg + 1) / 2 * 2;
	h->seg_lo = calloc(nseg_even ? 2 * nseg_even : 1, sizeof(*h->seg_lo));
	h->seg_hi = h->seg_lo ? h->seg_lo + nseg_even : NULL;
	req_heap_init(&h->done);
	if (!h->queue || !h->wait || !h->dirty || !h->dirty_order || !h->dirty_free || !h->seg_lo ||
	    reserve_done(h, 64)) {
		hdd_destroy(&h->dev);
		return errmsg_set(err, -ENOMEM, "out of memory for the hdd model");
	}
	*out = &h->dev;
	return 0;
}
