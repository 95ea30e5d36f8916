/*
 * ssd.c — the simulated SSD behind the device interface of device.h: the
 * timing of each request through controller, host bus and flash channels,
 * the write cache and NCQ, the in-flight heap, the counters, and
 * create/destroy. What flash work a request costs is the FTL's business
 * (ssd_block_ftl.c, ssd_page_ftl.c); this file only books it in time.
 *
 * A request submitted at `now`:
 *   1. waits for the controller's front end, which takes one command at a
 *      time, and, when `ncq` commands are already in service, for the first
 *      of them to end (ncq_free_at); after a firmware stall of stall_ms with
 *      chance stall_rate it enters. Its data moves cmd_us later (write_cmd_us
 *      for writes): that instant is t0. A command that does not start where
 *      the previous one of its direction ended holds the front end
 *      cmd_busy_us (write_busy_us): the mapping work of a scattered address,
 *      less than the latency for a pipelined front end, more for firmware
 *      work after the data moves. A continuing one holds it for its latency.
 *      Both times are spread by time_spread, with one draw.
 *   2. read: the FTL books the page reads on their channels from t0. The bus
 *      carries the data once the first page is read (nominally; with
 *      lockstep, as the block FTL drew it); the request is done
 *      when the bus transfer is over and the last page, read, has crossed it.
 *      write: the bus carries the data from t0 (when free); flash work starts
 *      once the first page has arrived; done when both are over. With
 *      write_cache=on the flash work need only end within `drain` of the
 *      acknowledgement: a full cache of pending data takes that long to
 *      program, so the cache hides that much flash time and no more.
 *
 * Invariants:
 *   1. The busy-until times (controller, bus, each channel) never decrease.
 *   2. A request completes no earlier than now + its command latency
 *      (cmd_us or write_cmd_us, less the spread), and no earlier than
 *      its own transfer and flash work (less `drain` for cached writes).
 *   3. The hot path is integer arithmetic on state set at create(); the same
 *      configuration, seed and request sequence give the same completion
 *      times, bit for bit (the spread of command and flash times and the
 *      stalls come from the drive's own generator, seeded at create()). With
 *      time_spread = 0 and stall_rate = 0 every operation takes its nominal
 *      time and no random number is drawn.
 *   4. Requests outside the capacity, or of length 0, complete at `now` with
 *      result -EINVAL; submit() itself fails only for lack of memory.
 *   5. A command in service is in `inflight` or, when it is the only one,
 *      in `solo` (inflight empty then): at QD 1 the heap is never touched.
 *      A detached drive (device.h detach) uses neither: its commands'
 *      completion times are in `done`, the caller keeps the requests.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "sim/ssd.h"
#include "sim/ssd_dev.h"
#include "util/dynbuf.h"
#include "util/units.h"

static uint64_t xfer(const struct ssd_dev *d, uint64_t bytes)
{
	return (bytes * d->t.bus_fs + 500000) / 1000000;
}

/* inflight_push() with another command in service already. */
static int inflight_push_heap(struct ssd_dev *d, uint64_t done, struct io_request *req)
{
	int ret;

	if (d->solo) {		/* the older of the two goes first: ties leave in order */
		ret = req_heap_push(&d->inflight, d->solo_at, d->solo);
		if (ret)
			return ret;
		d->solo = NULL;
	}
	return req_heap_push(&d->inflight, done, req);
}

/* Put a command in service until `done` (invariant 5). */
static inline int inflight_push(struct ssd_dev *d, uint64_t done, struct io_request *req)
{
	if (!d->solo && !req_heap_count(&d->inflight)) {
		d->solo = req;
		d->solo_at = done;
		return 0;
	}
	return inflight_push_heap(d, done, req);
}

/*
 * When fewer than `ncq` commands will be in service. Every command in
 * service is in `inflight` or `solo` (with those done but not yet
 * collected), so the answer is 0 while they are fewer than ncq, and
 * otherwise the ncq-th latest completion time among them. Costs nothing
 * unless the host keeps more than ncq commands outstanding. A detached
 * drive keeps the times in `done` instead, and forgets those done by `now`
 * when they reach ncq: a command done by then never moves the answer past
 * `now`, so results stay.
 */
static __attribute__((noinline)) uint64_t ncq_free_at_slow(struct ssd_dev *d, uint64_t now)
{
	const struct req_heap *h = &d->inflight;
	uint64_t *top = d->top;
	unsigned n = 0, count = d->detached ? (unsigned)d->ndone : req_heap_count(h);

	if (count >= d->ncq && d->detached) {	/* forget the commands done by now */
		uint64_t *done = d->done;
		size_t known = d->ndone, kept = 0;	/* locals: the stores could alias d's */

		/* no branch: which commands are done is a coin toss the predictor loses */
		for (size_t i = 0; i < known; i++) {
			uint64_t t = done[i];

			done[kept] = t;
			kept += t > now;
		}
		d->ndone = kept;
		count = (unsigned)kept;
	}
	if (d->solo)		/* never for a detached drive */
		return d->ncq > 1 ? 0 : d->solo_at;
	if (count < d->ncq)
		return 0;
	for (unsigned i = 0; i < count; i++) {
		uint64_t key = d->detached ? d->done[i] : req_heap_key_at(h, i);
		unsigned j = 0;

		if (n < d->ncq) {		/* min-heap of the ncq latest */
			for (j = n++; j && top[(j - 1) / 2] > key; j = (j - 1) / 2)
				top[j] = top[(j - 1) / 2];
			top[j] = key;
			continue;
		}
		if (key <= top[0])
			continue;
		for (;;) {
			unsigned c = 2 * j + 1;

			if (c >= n)
				break;
			if (c + 1 < n && top[c + 1] < top[c])
				c++;
			if (top[c] >= key)
				break;
			top[j] = top[c];
			j = c;
		}
		top[j] = key;
	}
	return top[0];
}

/* ncq_free_at_slow()'s common case, inline: fewer than ncq commands known at all. */
static inline uint64_t ncq_free_at(struct ssd_dev *d, uint64_t now)
{
	if (d->detached ? d->ndone < d->ncq : !d->solo && req_heap_count(&d->inflight) < d->ncq)
		return 0;
	return ncq_free_at_slow(d, now);
}

/* xfer() of `len` bytes and of its first page (xfer_page unless len is less). */
static inline uint64_t xfer_first(const struct ssd_dev *d, uint32_t len, uint64_t *whole)
{
	if (len == d->g.page) {		/* the common case: no multiplication */
		*whole = d->t.xfer_page;
		return *whole;
	}
	*whole = xfer(d, len);
	return len < d->g.page ? *whole : d->t.xfer_page;
}

/*
 * The request path is written once, as *_as() functions always inlined
 * with `quick` a constant: ssd_submit() runs the copy with quick = true
 * on a drive whose d->quick holds (page FTL, plain maps with live bits,
 * pages and erase blocks of powers of two, no time_spread, no stalls),
 * which tests none of that per request, else the general copy. Same
 * arithmetic in both, so the same times.
 */
static inline __attribute__((always_inline)) uint64_t
ssd_read_as(struct ssd_dev *d, const struct io_request *req, uint64_t t0, bool quick)
{
	uint64_t flash, bus, whole, first = xfer_first(d, req->length, &whole);

	if (!quick && d->ftl == SSD_FTL_BLOCK)
		flash = ssd_bftl_read(d, req->offset, req->length, t0);
	else
		flash = ssd_pftl_read(d, req->offset, req->length, t0);
	bus = ssd_max(d->bus_free, !quick && d->lockstep ? d->bf.first_ready : t0 + d->t.read) +
	      whole;
	d->bus_free = bus;
	d->cnt.host_read_bytes += req->length;
	return ssd_max(bus, flash + first);
}

static inline __attribute__((always_inline)) int
ssd_write_as(struct ssd_dev *d, const struct io_request *req, uint64_t t0, uint64_t *done,
	     bool quick)
{
	uint64_t whole, first = xfer_first(d, req->length, &whole);
	uint64_t start = ssd_max(d->bus_free, t0);
	uint64_t at = start + first, flash = at;
	int ret;

	d->bus_free = start + whole;
	d->cnt.host_write_bytes += req->length;
	if (!quick && d->ftl == SSD_FTL_BLOCK)
		ret = ssd_bftl_write(d, req->offset, req->length, at, &flash);
	else if (quick && ssd_pftl_one_page(d, req->offset, req->length))
		ret = ssd_pftl_write_page_fast(d, req->offset >> d->pf.page_shift, at, &flash);
	else
		ret = ssd_pftl_write(d, req->offset, req->length, at, &flash);
	if (d->write_cache)
		flash = flash > d->t.drain ? flash - d->t.drain : 0;
	*done = ssd_max(d->bus_free, flash);
	return ret;
}

/*
 * A command entering the front end at `start`: it holds the front end `busy`
 * ns and its data moves `lat` ns after it entered (both spread by one draw,
 * so busy = lat, the default, is the one-at-a-time controller). Returns t0.
 */
static inline __attribute__((always_inline)) uint64_t
front_end(struct ssd_dev *d, uint64_t start, uint64_t lat, uint64_t busy, bool quick)
{
	if (!quick && d->t.spread_q32) {
		uint64_t spread = ssd_spread(d, lat);

		busy = busy == lat ? spread : lat ? busy * spread / lat : ssd_spread(d, busy);
		lat = spread;
	}
	d->ctrl_free = start + busy;
	return start + lat;
}

static inline __attribute__((always_inline)) int
submit_as(struct ssd_dev *d, struct io_request *req, uint64_t now, bool quick)
{
	uint64_t start, done, busy, len = req->length;
	int ret;

	/* 1 <= len and offset + len <= capacity, without overflow */
	if (len - 1 >= d->base.capacity || req->offset > d->base.capacity - len) {
		req->result = -EINVAL;
		req->complete_ns = now;
		return d->detached ? 0 : inflight_push(d, now, req);
	}
	start = ssd_max(ssd_max(now, d->ctrl_free), ncq_free_at(d, now));
	if (!quick && d->t.stall_below && rng_next(&d->jitter) < d->t.stall_below)
		start += d->t.stall;	/* firmware housekeeping holds the controller */
	if (req->op == IO_READ) {
		busy = req->offset == d->next_read ? d->t.cmd : d->t.busy;
		d->next_read = req->offset + len;
		done = ssd_read_as(d, req, front_end(d, start, d->t.cmd, busy, quick), quick);
		ret = 0;
	} else {
		busy = req->offset == d->next_write ? d->t.wcmd : d->t.wbusy;
		d->next_write = req->offset + len;
		ret = ssd_write_as(d, req, front_end(d, start, d->t.wcmd, busy, quick), &done, quick);
	}
	req->result = ret ? ret : (int64_t)len;
	req->complete_ns = done;	/* for a detached drive; complete() sets it again */
	if (!d->detached)
		return inflight_push(d, done, req);
	if (d->ndone == d->done_alloc &&
	    array_grow((void **)&d->done, &d->done_alloc, d->ndone + 1, sizeof(*d->done), UINT32_MAX))
		return -ENOMEM;
	d->done[d->ndone++] = done;
	return 0;
}

static __attribute__((noinline)) int submit_any(struct ssd_dev *d, struct io_request *req,
						uint64_t now)
{
	return submit_as(d, req, now, false);
}

static __attribute__((noinline)) int submit_quick(struct ssd_dev *d, struct io_request *req,
						  uint64_t now)
{
	return submit_as(d, req, now, true);
}

/* Both copies out of line: this one is a test and a jump, saving no registers. */
static int ssd_submit(struct sim_device *sd, struct io_request *req, uint64_t now)
{
	struct ssd_dev *d = (struct ssd_dev *)sd;

	return d->quick ? submit_quick(d, req, now) : submit_any(d, req, now);
}

static uint64_t ssd_next_completion(struct sim_device *sd)
{
	const struct ssd_dev *d = (const struct ssd_dev *)sd;

	return d->solo ? d->solo_at : req_heap_min(&d->inflight);
}

/* complete() from the in-flight heap: out of line, so that the solo case saves no registers. */
static __attribute__((noinline)) unsigned complete_heap(struct ssd_dev *d, uint64_t now,
							struct io_request **out, unsigned max)
{
	unsigned n = 0;

	while (n < max && req_heap_min(&d->inflight) <= now) {
		uint64_t when = req_heap_min(&d->inflight);
		struct io_request *req = req_heap_pop(&d->inflight);

		req->complete_ns = when;
		out[n++] = req;
	}
	return n;
}

static unsigned ssd_complete(struct sim_device *sd, uint64_t now, struct io_request **out,
			     unsigned max)
{
	struct ssd_dev *d = (struct ssd_dev *)sd;

	if (!d->solo)
		return complete_heap(d, now, out, max);
	if (!max || d->solo_at > now)
		return 0;
	d->solo->complete_ns = d->solo_at;
	out[0] = d->solo;
	d->solo = NULL;
	return 1;
}

static void ssd_counters(const struct sim_device *sd, struct sim_counters *c)
{
	*c = ((const struct ssd_dev *)sd)->cnt;
}

static void ssd_destroy(struct sim_device *sd)
{
	struct ssd_dev *d = (struct ssd_dev *)sd;

	if (!d)
		return;
	ssd_bftl_release(d);
	ssd_pftl_release(d);
	req_heap_release(&d->inflight);
	free(d->done);
	free(d->top);
	free(d->chan);
	free(d);
}

/*
 * device.h detach(): a valid request completes at least its command latency
 * after submission (invariant 2), which time_spread (at most 0.9) leaves at
 * 1 ns or more when that latency is 10 ns or more. The times of the
 * commands go to `done` instead of the in-flight heap (ncq_free_at).
 */
static int ssd_detach(struct sim_device *sd, bool check_only)
{
	struct ssd_dev *d = (struct ssd_dev *)sd;

	if (d->t.cmd < 10 || d->t.wcmd < 10)
		return -EOPNOTSUPP;
	if (!check_only)
		d->detached = true;
	return 0;
}

/* The page FTL takes prefetch hints; the block FTL's map is small (ssd_create drops the op). */
static const struct sim_device_ops ssd_ops = {
	.submit = ssd_submit,
	.next_completion = ssd_next_completion,
	.complete = ssd_complete,
	.counters = ssd_counters,
	.destroy = ssd_destroy,
	.discard = ssd_trim,
	.prefetch = ssd_pftl_prefetch,
	.detach = ssd_detach,
};

static uint64_t ns(double v)
{
	return (uint64_t)llround(v);
}

/* A chance as the bound a 64-bit draw falls below with that chance. */
static uint64_t chance_below(double rate)
{
	return rate >= 1 ? UINT64_MAX : (uint64_t)(rate * 18446744073709551616.0);
}

static void set_timing(struct ssd_dev *d, const struct ssd_config *c)
{
	d->t.cmd = ns(c->cmd_us * 1e3);
	d->t.wcmd = c->write_cmd_us < 0 ? d->t.cmd : ns(c->write_cmd_us * 1e3);
	d->t.busy = c->cmd_busy_us < 0 ? d->t.cmd : ns(c->cmd_busy_us * 1e3);
	d->t.wbusy = c->write_busy_us < 0 ? d->t.wcmd : ns(c->write_busy_us * 1e3);
	d->t.read = ns(c->read_us * 1e3);
	d->t.prog = ns(c->program_us * 1e3);
	d->t.erase = ns(c->erase_ms * 1e6);
	d->t.bus_fs = ns(1e15 / (c->bus_mib_s * MIB));
	d->t.xfer_page = xfer(d, d->g.page);
	d->t.spread_q32 = (uint64_t)llround(c->time_spread * 4294967296.0);
	d->t.stall_below = chance_below(c->stall_rate);
	d->t.stall = ns(c->stall_ms * 1e6);
	d->t.merge_stall_below = chance_below(c->merge_stall_rate);
	d->t.merge_stall = ns(c->merge_stall_ms * 1e6);
	if (c->write_cache)
		d->t.drain = ns((double)c->cache_kib * 1024.0 * (double)d->t.prog /
				(double)(d->g.page * d->g.channels));
}

/* Fill the FTL as the configuration's starting state says. */
static int prepare(struct ssd_dev *d, const struct ssd_config *c, uint64_t seed)
{
	uint64_t keep = d->g.user_pages;
	int ret;

	if (c->state == SSD_TRIMMED && c->trim)
		keep = (uint64_t)floor(c->live * (double)d->g.user_pages);
	if (c->ftl == SSD_FTL_BLOCK)
		return ssd_bftl_init(d, c);
	ret = ssd_pftl_init(d);
	return ret ? ret : ssd_pftl_prepare(d, c->state, keep, seed);
}

int ssd_create(const void *config, uint64_t seed, struct sim_device **out, struct errmsg *err)
{
	const struct ssd_config *c = config;
	struct ssd_dev *d;
	int ret;

	d = calloc(1, sizeof(*d));
	if (!d)
		return errmsg_set(err, -ENOMEM, "out of memory for the ssd model");
	ret = ssd_geometry(c, &d->g, err);
	if (ret) {
		free(d);
		return ret;
	}
	d->ops = ssd_ops;
	if (c->ftl != SSD_FTL_PAGE)
		d->ops.prefetch = NULL;		/* the engine then makes no hint call */
	d->base = (struct sim_device){ &d->ops, c->capacity, 512 };
	d->ftl = c->ftl;
	d->merge = c->merge;
	d->trim = c->trim;
	d->write_cache = c->write_cache;
	d->lockstep = c->lockstep && c->ftl == SSD_FTL_BLOCK;
	d->ncq = (unsigned)c->ncq;
	set_timing(d, c);
	rng_init(&d->jitter, seed ^ 0x551d5eedULL);
	req_heap_init(&d->inflight);
	d->chan = calloc(d->g.channels, sizeof(*d->chan));
	d->top = calloc(d->ncq, sizeof(*d->top));
	ret = d->chan && d->top ? prepare(d, c, seed) : -ENOMEM;
	if (ret) {
		ssd_destroy(&d->base);
		return errmsg_set(err, ret, "ssd model: %s for its flash maps",
				  ret == -ENOMEM ? "out of memory" : "cannot lay out the state");
	}
	d->quick = d->ftl == SSD_FTL_PAGE && d->pf.fast && d->pf.page_shift >= 0 &&
		   !d->t.spread_q32 && !d->t.stall_below;
	*out = &d->base;
	return 0;
}

int ssd_trim(struct sim_device *dev, uint64_t offset, uint64_t length)
{
	struct ssd_dev *d = (struct ssd_dev *)dev;

	if (offset > dev->capacity || length > dev->capacity - offset)
		return -EINVAL;
	if (!d->trim)
		return -EOPNOTSUPP;
	if (d->ftl == SSD_FTL_BLOCK)
		ssd_bftl_trim(d, offset, length);
	else
		ssd_pftl_trim(d, offset, length);
	return 0;
}

uint64_t ssd_valid_count(const struct sim_device *dev)
{
	const struct ssd_dev *d = (const struct ssd_dev *)dev;

	return d->ftl == SSD_FTL_BLOCK ? d->bf.nmapped : d->pf.valid;
}

int ssd_verify(const struct sim_device *dev, struct errmsg *err)
{
	const struct ssd_dev *d = (const struct ssd_dev *)dev;

	return d->ftl == SSD_FTL_PAGE ? ssd_pftl_verify(d, err) : 0;
}
