/*
 * test_sim_hdd.c — the simulated hard disk (sim/hdd*.c) driven the way the
 * virtual-clock backend drives it: a closed loop keeping `qd` requests in
 * flight, each new one submitted at the completion time of the one it
 * replaces. Checks the wd6400aaks preset against the seeds' measurements
 * (random access penalties, sustained rate, write cache on/off, queue depth),
 * the geometry (rate against position, seek curve), read-ahead, determinism,
 * the refusals of check(). Its speed is measured by bench/sim-speed.sh.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/device.h"
#include "sim/hdd.h"
#include "sim/params.h"
#include "util/rng.h"

#define MIB_BYTES (1ULL << 20)

/* What a closed-loop run measured (after its warm-up IOs). */
struct loop_result {
	uint64_t ios;
	double mean_ms;
	double iops;
	double seq_mib_s;		/* bytes after the first completion / time */
	uint64_t fingerprint;		/* hash of every completion time */
	struct sim_counters count;
};

struct workload {
	unsigned qd;
	uint64_t ios, ramp;		/* measured IOs, warm-up IOs before them */
	uint64_t bs;
	enum io_op op;
	bool random;
	uint64_t start;			/* first offset of a sequential run */
	uint64_t seed;
	bool scalar_pick;		/* weigh queued commands one at a time (no AVX2) */
};

static int apply_settings(struct hdd_config *c, const char *settings, struct errmsg *err)
{
	char buf[1024], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", settings);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		int ret;

		if (!eq)
			return errmsg_set(err, -EINVAL, "'%s' has no '='", tok);
		*eq = '\0';
		ret = sim_param_set(sim_hdd_model.params, c, tok, eq + 1, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* The wd6400aaks preset, then `extra` settings over it. */
static struct hdd_config preset(const char *extra)
{
	struct hdd_config c;
	struct errmsg err;

	sim_hdd_model.defaults(&c);
	if (apply_settings(&c, sim_hdd_presets[0].settings, &err) ||
	    (extra && apply_settings(&c, extra, &err))) {
		printf("settings refused: %s\n", err.text);
		exit(1);
	}
	return c;
}

static uint64_t next_offset(const struct workload *w, const struct hdd_config *c, struct rng *r,
			    uint64_t *seq)
{
	uint64_t off;

	if (w->random)
		return rng_below(r, c->capacity / w->bs) * w->bs;
	off = *seq;
	*seq = off + 2 * w->bs > c->capacity ? 0 : off + w->bs;
	return off;
}

/* Fold one completion into the result (warm-up IOs only into the fingerprint). */
static void record(struct loop_result *r, const struct workload *w, const struct io_request *q,
		   uint64_t done, double *lat, uint64_t *t_first, uint64_t *t_last)
{
	r->fingerprint = (r->fingerprint ^ q->complete_ns) * 0x100000001b3ULL;
	if (done < w->ramp)
		return;
	*lat += (double)(q->complete_ns - q->submit_ns);
	if (done == w->ramp)
		*t_first = q->complete_ns;
	*t_last = q->complete_ns;
}

static struct loop_result run_loop(const struct hdd_config *c, const struct workload *w)
{
	struct loop_result r = { .fingerprint = 0xcbf29ce484222325ULL };
	struct io_request *reqs = calloc(w->qd, sizeof(*reqs)), *out[64];
	uint64_t total = w->ramp + w->ios, issued = 0, done = 0, now = 0, seq = w->start;
	uint64_t t_first = 0, t_last = 0;
	struct sim_device *d;
	struct errmsg err;
	struct rng rng;
	double lat = 0;

	if (!reqs || sim_hdd_model.create(c, w->seed, &d, &err)) {
		printf("cannot create the drive: %s\n", reqs ? err.text : "out of memory");
		exit(1);
	}
	if (w->scalar_pick)
		((struct hdd *)d)->pick_avx2 = false;
	rng_init(&rng, w->seed + 1);
	for (unsigned i = 0; i < w->qd && issued < total; i++, issued++) {
		reqs[i] = (struct io_request){ .offset = next_offset(w, c, &rng, &seq),
					       .length = (uint32_t)w->bs, .op = w->op, .slot = i };
		d->ops->submit(d, &reqs[i], now);
	}
	while (done < total) {
		unsigned n;

		now = d->ops->next_completion(d);
		n = d->ops->complete(d, now, out, 64);
		for (unsigned i = 0; i < n; i++, done++) {
			record(&r, w, out[i], done, &lat, &t_first, &t_last);
			if (issued++ >= total)
				continue;
			out[i]->offset = next_offset(w, c, &rng, &seq);
			out[i]->submit_ns = now;
			d->ops->submit(d, out[i], now);
		}
	}
	r.ios = w->ios;
	r.mean_ms = lat / (double)w->ios / 1e6;
	r.iops = (double)w->ios / ((double)(t_last - (w->ramp ? t_first : 0)) * 1e-9);
	r.seq_mib_s = (double)(w->ios - 1) * (double)w->bs / MIB_BYTES / ((t_last - t_first) * 1e-9);
	d->ops->counters(d, &r.count);
	d->ops->destroy(d);
	free(reqs);
	return r;
}

static bool within(double got, double want, double rel)
{
	return fabs(got - want) <= rel * want;
}

/* --- calibration of the wd6400aaks preset --- */

static double random_ms(const struct hdd_config *c, uint64_t bs, enum io_op op, uint64_t ramp)
{
	struct workload w = { .qd = 1, .ios = bs > MIB_BYTES ? 150 : 4000, .ramp = ramp,
			      .bs = bs, .op = op, .random = true, .seed = 11 };

	return run_loop(c, &w).mean_ms;
}

static void calibration_read(struct check_state *st)
{
	struct hdd_config c = preset(NULL);
	double small = random_ms(&c, 512, IO_READ, 0);
	double big = random_ms(&c, 512 * MIB_BYTES, IO_READ, 0);
	double str = (512 * MIB_BYTES - 512) / MIB_BYTES / ((big - small) / 1e3);

	printf("  0.5 KiB random read QD1: %.2f ms (%.1f IOPS), target 13.6 ms\n", small,
	       1e3 / small);
	printf("  512 MiB random read QD1: %.1f ms, STR %.2f MiB/s, target 85\n", big, str);
	CHECK(st, within(small, 13.6, 0.10), "read penalty %.2f ms, want 13.6 +-10%%", small);
	CHECK(st, within(small, 13.6, 0.02), "read penalty %.2f ms drifted from 13.6", small);
	CHECK(st, within(str, 85, 0.10), "read STR %.2f MiB/s, want 85 +-10%%", str);
	CHECK(st, within(big, 13.6 + 512.0 / 85 * 1e3, 0.10), "512 MiB read %.1f ms", big);
}

static void calibration_write(struct check_state *st)
{
	struct hdd_config on = preset(NULL), off = preset("write_cache=off");
	/* Warm up until the dirty set of 512 extents settles (~10000 writes). */
	double small_on = random_ms(&on, 512, IO_WRITE, 10000);
	double small_off = random_ms(&off, 512, IO_WRITE, 100);
	double big = random_ms(&on, 512 * MIB_BYTES, IO_WRITE, 0);
	double str = (512 * MIB_BYTES - 512) / MIB_BYTES / ((big - small_on) / 1e3);

	printf("  0.5 KiB random write QD1, cache on: %.2f ms (%.1f IOPS), target 7 (143)\n",
	       small_on, 1e3 / small_on);
	printf("  0.5 KiB random write QD1, cache off: %.2f ms (%.1f IOPS), target 17 (58.6)\n",
	       small_off, 1e3 / small_off);
	printf("  512 MiB random write QD1: %.1f ms, STR %.2f MiB/s, target 85\n", big, str);
	CHECK(st, within(small_on, 7, 0.10), "cached write %.2f ms, want 7 +-10%%", small_on);
	CHECK(st, within(small_off, 17, 0.10), "write-through %.2f ms, want 17 +-10%%", small_off);
	CHECK(st, small_off > 2 * small_on, "write cache off %.2f ms not slower than on %.2f ms",
	      small_off, small_on);
	CHECK(st, within(str, 85, 0.10), "write STR %.2f MiB/s, want 85 +-10%%", str);
}

static double qd_iops(const struct hdd_config *c, unsigned qd)
{
	struct workload w = { .qd = qd, .ios = 6000, .ramp = 200, .bs = 4096, .op = IO_READ,
			      .random = true, .seed = 5 };

	return run_loop(c, &w).iops;
}

static void queue_depth(struct check_state *st)
{
	struct hdd_config c = preset(NULL), fifo = preset("ncq_depth=1");
	double qd1 = qd_iops(&c, 1), qd32 = qd_iops(&c, 32), qd64 = qd_iops(&c, 64);
	double nq32 = qd_iops(&fifo, 32);

	printf("  4 KiB random read: QD1 %.1f IOPS, QD32 %.1f IOPS (x%.2f, target x1.4),"
	       " QD64 %.1f, QD32 without NCQ %.1f\n", qd1, qd32, qd32 / qd1, qd64, nq32);
	CHECK(st, qd32 > 1.25 * qd1, "QD32 %.1f not clearly above QD1 %.1f", qd32, qd1);
	CHECK(st, within(qd32 / qd1, 1.4, 0.10), "QD32/QD1 %.2f, want 1.4 +-10%%", qd32 / qd1);
	CHECK(st, within(qd64, qd32, 0.05), "QD64 %.1f beyond ncq_depth should match QD32 %.1f",
	      qd64, qd32);
	CHECK(st, within(nq32, qd1, 0.03), "ncq_depth=1 at QD32 %.1f should match QD1 %.1f", nq32,
	      qd1);
}

/* --- geometry --- */

static double rate_at(const struct hdd_config *c, double frac)
{
	uint64_t len = 64 * MIB_BYTES, start = (uint64_t)((double)c->capacity * frac);
	struct workload w = { .qd = 1, .ios = 64, .bs = MIB_BYTES, .op = IO_READ, .seed = 3 };

	start = start / MIB_BYTES * MIB_BYTES;
	w.start = start + len > c->capacity ? c->capacity - len : start;
	return run_loop(c, &w).seq_mib_s;
}

static void rate_by_position(struct check_state *st)
{
	struct hdd_config c = preset(NULL);
	double k = c.inner_mib_s / c.outer_mib_s;
	double r0 = rate_at(&c, 0), r50 = rate_at(&c, 0.5), r100 = rate_at(&c, 1);
	/* Half the capacity lies outside radius r where (1 - r²) / (1 - k²) = 1/2. */
	double theory = c.outer_mib_s * sqrt(1 - 0.5 * (1 - k * k));
	double linear = (c.outer_mib_s + c.inner_mib_s) / 2;

	printf("  sequential 1 MiB reads: %.2f MiB/s at 0%%, %.2f at 50%% (theory %.2f, a"
	       " straight line %.2f), %.2f at 100%%\n", r0, r50, theory, linear, r100);
	CHECK(st, r0 > r50 && r50 > r100, "rate does not fall inwards: %.1f %.1f %.1f", r0, r50,
	      r100);
	CHECK(st, within(r0, c.outer_mib_s, 0.02), "outer rate %.2f, want %g", r0, c.outer_mib_s);
	CHECK(st, within(r100, c.inner_mib_s, 0.02), "inner rate %.2f, want %g", r100,
	      c.inner_mib_s);
	CHECK(st, within(r50, theory, 0.02), "mid-capacity rate %.2f, theory %.2f", r50, theory);
	CHECK(st, r50 > linear * 1.02, "mid-capacity rate %.2f looks linear (%.2f)", r50, linear);
}

static void long_reads(struct check_state *st)
{
	/* Reads longer than the read-ahead window still stream at the media rate. */
	struct hdd_config c = preset(NULL);
	struct workload w = { .qd = 1, .ios = 32, .bs = 4 * MIB_BYTES, .op = IO_READ, .seed = 8 };
	struct loop_result r = run_loop(&c, &w);

	printf("  sequential 4 MiB reads QD1 at the outer edge: %.2f MiB/s\n", r.seq_mib_s);
	CHECK(st, within(r.seq_mib_s, c.outer_mib_s, 0.02), "4 MiB sequential reads %.2f MiB/s",
	      r.seq_mib_s);
}

static void seek_curve(struct check_state *st)
{
	struct hdd_config c = preset(NULL);
	struct hdd_geom *g = malloc(sizeof(*g));
	struct errmsg err;
	struct rng r;
	uint32_t prev = 0;
	bool monotone = true;
	double sum = 0;

	CHECK(st, g && hdd_geom_init(g, &c, &err) == 0, "geometry: %s", g ? err.text : "oom");
	if (!g)
		return;
	for (uint32_t d = 0; d <= g->tracks; d += d < 4096 ? 1 : 97) {
		uint32_t t = hdd_seek_ns(g, d);

		monotone &= t >= prev;
		prev = t;
	}
	CHECK(st, monotone, "seek time falls somewhere as the distance grows");
	CHECK(st, hdd_seek_ns(g, 0) == 0, "no seek, no time");
	CHECK(st, within(hdd_seek_ns(g, 1) / 1e6, c.seek_track_ms, 0.01), "one track %.3f ms",
	      hdd_seek_ns(g, 1) / 1e6);
	CHECK(st, within(hdd_seek_ns(g, g->tracks) / 1e6, c.seek_full_ms, 0.01),
	      "full stroke %.3f ms", hdd_seek_ns(g, g->tracks) / 1e6);
	rng_init(&r, 9);
	for (int i = 0; i < 200000; i++) {
		uint64_t a = hdd_u_of(g, rng_below(&r, c.capacity)) >> 32;
		uint64_t b = hdd_u_of(g, rng_below(&r, c.capacity)) >> 32;

		sum += hdd_seek_ns(g, (uint32_t)(a > b ? a - b : b - a)) / 1e6;
	}
	printf("  seek: %.3f ms one track, %.3f ms mean over random pairs (want %g), %.3f ms"
	       " full stroke, knee at %.1f%% of the stroke\n", hdd_seek_ns(g, 1) / 1e6,
	       sum / 200000, c.seek_avg_ms, hdd_seek_ns(g, g->tracks) / 1e6, g->curve.knee * 100);
	CHECK(st, within(sum / 200000, c.seek_avg_ms, 0.02), "mean seek %.3f ms", sum / 200000);
	free(g);
}

static void position_mapping(struct check_state *st)
{
	struct hdd_config c = preset(NULL);
	struct hdd_geom *g = malloc(sizeof(*g));
	struct errmsg err;
	bool ok = true;

	if (!g || hdd_geom_init(g, &c, &err)) {
		CHECK(st, 0, "geometry");
		free(g);
		return;
	}
	for (uint64_t s = 0; s < c.capacity; s += c.capacity / 9973 / 512 * 512) {
		uint64_t u = hdd_u_of(g, s), back = hdd_s_of(g, u + 1);

		ok &= back == s && hdd_u_of(g, s + 512) > u;
	}
	CHECK(st, ok, "offset -> track coordinate -> offset does not round-trip");
	CHECK(st, ((hdd_u_of(g, c.capacity) + (1 << 20)) >> 32) == g->tracks,
	      "the end is at track %.6f of %u", hdd_u_of(g, c.capacity) / 4294967296.0, g->tracks);
	CHECK(st, within(hdd_geom_harmonic_mib_s(g), 85, 0.005), "harmonic mean rate %.2f",
	      hdd_geom_harmonic_mib_s(g));
	free(g);
}

/* --- behaviour --- */

static void read_ahead(struct check_state *st)
{
	struct hdd_config c = preset(NULL);
	struct workload seq = { .qd = 1, .ios = 20000, .bs = 4096, .op = IO_READ, .seed = 2,
				.start = c.capacity / 3 / 4096 * 4096 };
	struct workload rnd = seq;
	struct loop_result s, r;

	rnd.random = true;
	rnd.ios = 2000;
	s = run_loop(&c, &seq);
	r = run_loop(&c, &rnd);
	printf("  4 KiB reads QD1: sequential %.4f ms (%.1f MiB/s, %llu cache hits of %llu),"
	       " random %.2f ms\n", s.mean_ms, s.seq_mib_s, (unsigned long long)s.count.cache_hits,
	       (unsigned long long)s.ios, r.mean_ms);
	CHECK(st, s.mean_ms < 0.1, "sequential reads %.3f ms: read-ahead not working", s.mean_ms);
	CHECK(st, s.count.cache_hits >= s.ios - 1, "only %llu hits",
	      (unsigned long long)s.count.cache_hits);
	CHECK(st, r.count.cache_hits < 5, "random reads hit the cache %llu times",
	      (unsigned long long)r.count.cache_hits);
	CHECK(st, s.count.host_read_bytes == s.ios * 4096, "host bytes %llu",
	      (unsigned long long)s.count.host_read_bytes);
	CHECK(st, s.count.media_read_bytes >= s.count.host_read_bytes, "media %llu < host",
	      (unsigned long long)s.count.media_read_bytes);
	CHECK(st, r.count.seeks > r.ios * 9 / 10 && s.count.seeks <= 2, "seeks %llu random, %llu"
	      " sequential", (unsigned long long)r.count.seeks, (unsigned long long)s.count.seeks);
}

static void sequential_writes(struct check_state *st)
{
	struct hdd_config on = preset(NULL), off = preset("write_cache=off");
	struct workload w = { .qd = 1, .ios = 4000, .ramp = 100, .bs = 4096, .op = IO_WRITE,
			      .seed = 4 };
	struct loop_result cached = run_loop(&on, &w), through = run_loop(&off, &w), queued;

	w.qd = 4;
	queued = run_loop(&off, &w);

	printf("  4 KiB sequential writes: cache on QD1 %.1f MiB/s; cache off QD1 %.2f ms each,"
	       " QD4 %.1f MiB/s\n", cached.seq_mib_s, through.mean_ms, queued.seq_mib_s);
	CHECK(st, cached.seq_mib_s > 60, "cached sequential writes only %.1f MiB/s",
	      cached.seq_mib_s);
	/* Write-through at QD1 loses a revolution per command; queued ones do not. */
	CHECK(st, within(through.mean_ms, 60000.0 / on.rpm, 0.05), "QD1 write-through %.2f ms",
	      through.mean_ms);
	CHECK(st, queued.seq_mib_s > 80, "queued write-through only %.1f MiB/s", queued.seq_mib_s);
	CHECK(st, cached.count.media_write_bytes <= cached.count.host_write_bytes,
	      "media %llu > host %llu bytes", (unsigned long long)cached.count.media_write_bytes,
	      (unsigned long long)cached.count.host_write_bytes);
}

static void dirty_read_hits(struct check_state *st)
{
	struct hdd_config c = preset(NULL);
	struct io_request w = { .offset = 1 << 30, .length = 4096, .op = IO_WRITE };
	struct io_request r = { .offset = (1 << 30) + 512, .length = 1024, .op = IO_READ };
	struct io_request *out[2];
	struct sim_device *d;
	struct sim_counters cnt;
	uint64_t t;

	CHECK(st, sim_hdd_model.create(&c, 1, &d, NULL) == 0, "create");
	CHECK(st, d->ops->next_completion(d) == UINT64_MAX, "an idle drive completes nothing");
	d->ops->submit(d, &w, 0);
	t = d->ops->next_completion(d);
	CHECK(st, d->ops->complete(d, t, out, 2) == 1 && out[0] == &w && w.result == 4096,
	      "cached write");
	CHECK(st, t < 100000, "cached write took %llu ns", (unsigned long long)t);
	r.submit_ns = t;
	d->ops->submit(d, &r, t);
	t = d->ops->next_completion(d);
	CHECK(st, d->ops->complete(d, t, out, 2) == 1 && out[0] == &r, "read of dirty data");
	d->ops->counters(d, &cnt);
	CHECK(st, cnt.cache_hits == 1 && t - r.submit_ns < 100000, "dirty read: %llu hits, %llu ns",
	      (unsigned long long)cnt.cache_hits, (unsigned long long)(t - r.submit_ns));
	r = (struct io_request){ .offset = 1000, .length = 512, .op = IO_READ };
	CHECK(st, d->ops->submit(d, &r, t) == -EINVAL, "unaligned offset accepted");
	r = (struct io_request){ .offset = c.capacity - 512, .length = 1024, .op = IO_READ };
	CHECK(st, d->ops->submit(d, &r, t) == -EINVAL, "read past the end accepted");
	d->ops->destroy(d);
}

static void determinism(struct check_state *st)
{
	struct hdd_config c = preset(NULL);
	struct workload w = { .qd = 8, .ios = 3000, .bs = 4096, .op = IO_WRITE, .random = true,
			      .seed = 77 };
	struct loop_result a = run_loop(&c, &w), b = run_loop(&c, &w), other;

	w.seed = 78;
	other = run_loop(&c, &w);
	CHECK(st, a.fingerprint == b.fingerprint && a.mean_ms == b.mean_ms,
	      "same seed, different completion times");
	CHECK(st, a.fingerprint != other.fingerprint, "the seed changes nothing");
	w.op = IO_READ;
	w.seed = 77;
	a = run_loop(&c, &w);
	b = run_loop(&c, &w);
	CHECK(st, a.fingerprint == b.fingerprint, "reads: same seed, different completion times");
}

/* A drive with DiskSim's seek equation and measured short seeks, out of order. */
#define HPL_SEEKS "capacity=1g,rpm=5400,surfaces=13,seek_track_ms=2.89,seek_knee_cyl=300," \
	"seek_eq_a_ms=3.81,seek_eq_sqrt_ms=0.33,seek_eq_c_ms=7.75,seek_eq_lin_ms=0.0059," \
	"seek_first_ms=2.89:3.68:3.81:3.98:4.27:4.65:4.52:4.65:4.82:4.99,seek_avg_ms=11.36," \
	"seek_full_ms=19.85"
/* A fast spindle with short seeks. */
#define FAST_SEEKS "rpm=15000,seek_track_ms=0.2,seek_avg_ms=3.5,seek_full_ms=8"

/*
 * The vector pick's bound under the seek curve (struct hdd_queue) holds at
 * every distance, in both its forms, and is not trivially low.
 */
static void seek_bound(struct check_state *st)
{
	static const char *const drives[] = {
		NULL, "capacity=2g,zones=2", HPL_SEEKS, FAST_SEEKS,
	};

	for (size_t i = 0; i < sizeof(drives) / sizeof(*drives); i++) {
		struct hdd_config c = preset(drives[i]);
		const struct hdd_queue *q;
		const struct hdd_geom *g;
		struct sim_device *d;
		struct errmsg err;
		uint64_t bad = 0, sum_lb = 0, sum_seek = 0;

		if (sim_hdd_model.create(&c, 1, &d, &err)) {
			printf("cannot create the drive: %s\n", err.text);
			exit(1);
		}
		q = ((struct hdd *)d)->queue;
		g = &((struct hdd *)d)->geom;
		for (uint64_t dist = 1; dist < g->cylinders; dist++) {
			uint64_t seek = hdd_seek_ns(g, (uint32_t)dist);
			uint64_t line = q->seek_lb + (((dist - 1) * q->seek_lb_slope) >> 16);
			uint64_t step = q->seek_lb + ((dist - 1) >> q->seek_lb_shift) * q->seek_lb_step;

			bad += line > seek || step > line;
			sum_lb += step;
			sum_seek += seek;
		}
		CHECK(st, !bad, "drive %zu: the seek bound exceeds the seek at %llu distances", i,
		      (unsigned long long)bad);
		CHECK(st, sum_lb > sum_seek / 2, "drive %zu: the seek bound is %.2f of the seeks", i,
		      (double)sum_lb / (double)sum_seek);
		d->ops->destroy(d);
	}
}

/*
 * The vector pick (bounds eight commands at a time, then the exact cost of
 * the few that could win) chooses what the scalar pick chooses: the same
 * completion times for reads and write-throughs (settling,
 * write_watermark), sequential runs (commands under the head, the shortest
 * seeks), head switches, without aging, on a small disk, with DiskSim's
 * seek equation, a fast spindle, a fuzz that dwarfs the positioning time.
 */
static void vector_pick(struct check_state *st)
{
	static const char *const drives[] = {
		NULL, "write_cache=off,write_watermark=0.5", "ncq_aging=0,ncq_fuzz=3",
		"surfaces=4,head_switch_ms=0.9,write_cache=off", "capacity=2g,zones=2,ncq_fuzz=1",
		HPL_SEEKS ",write_cache=off", FAST_SEEKS ",ncq_fuzz=1000,ncq_aging=3",
	};
	static const struct workload loads[] = {
		{ .qd = 32, .ios = 3000, .bs = 4096, .op = IO_READ, .random = true, .seed = 5 },
		{ .qd = 7, .ios = 2000, .bs = 65536, .op = IO_WRITE, .random = true, .seed = 6 },
		{ .qd = 8, .ios = 2000, .bs = 4096, .op = IO_READ, .start = 1 << 20, .seed = 7 },
		{ .qd = 32, .ios = 2000, .bs = 8192, .op = IO_WRITE, .start = 0, .seed = 8 },
	};

	if (!hdd_pick_avx2_supported())
		printf("vector_pick: this CPU has no AVX2, both runs use the scalar pick\n");
	for (size_t i = 0; i < sizeof(drives) / sizeof(*drives); i++) {
		struct hdd_config c = preset(drives[i]);

		for (size_t j = 0; j < sizeof(loads) / sizeof(*loads); j++) {
			struct workload w = loads[j];
			struct loop_result v = run_loop(&c, &w), s;

			w.scalar_pick = true;
			s = run_loop(&c, &w);
			CHECK(st, v.fingerprint == s.fingerprint && v.count.seeks == s.count.seeks,
			      "drive %zu, workload %zu: the vector pick chose otherwise", i, j);
		}
	}
}

/* --- configuration --- */

static void refuse(struct check_state *st, const char *settings, const char *want)
{
	struct hdd_config c = preset(NULL);
	struct errmsg err = { "" };
	int ret = apply_settings(&c, settings, &err);

	if (!ret)
		ret = sim_hdd_model.check(&c, &err);
	CHECK(st, ret == -EINVAL && strstr(err.text, want), "'%s': %d '%s', want '%s'", settings,
	      ret, err.text, want);
}

static void refusals(struct check_state *st)
{
	struct hdd_config c;
	struct errmsg err;

	sim_hdd_model.defaults(&c);
	CHECK(st, sim_hdd_model.check(&c, &err) == 0, "defaults refused: %s", err.text);
	c = preset(NULL);
	CHECK(st, sim_hdd_model.check(&c, &err) == 0, "preset refused: %s", err.text);
	refuse(st, "capacity=1049000", "multiple of 512");
	refuse(st, "inner_mib_s=120", "above outer_mib_s");
	refuse(st, "seek_track_ms=9", "out of order");
	refuse(st, "seek_avg_ms=22", "out of order");
	refuse(st, "seek_avg_ms=20", "out of reach");
	refuse(st, "seek_avg_ms=3", "out of reach");
	refuse(st, "capacity=2m,zones=30", "fewer than zones");
	refuse(st, "rpm=fast", "rpm");
	refuse(st, "rpm=100", "3600");
	refuse(st, "write_cache=maybe", "on or off");
	refuse(st, "spindles=2", "unknown parameter");
	CHECK(st, !strcmp(sim_hdd_model.name, "hdd") && !strcmp(sim_hdd_presets[0].name,
	      "wd6400aaks") && sim_hdd_presets[0].model == &sim_hdd_model &&
	      !sim_hdd_presets[1].name, "model and preset table");
	for (const struct sim_param *p = sim_hdd_model.params; p->key; p++)
		CHECK(st, p->unit && p->meaning && *p->meaning, "'%s' lacks a meaning", p->key);
}

static void small_disk(struct check_state *st)
{
	/* A tiny disk: few tracks per zone, seek table finer than a track. */
	struct hdd_config c = preset("capacity=64m,zones=8");
	struct workload w = { .qd = 4, .ios = 3000, .bs = 8192, .op = IO_READ, .random = true,
			      .seed = 6 };
	struct loop_result r;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(st, sim_hdd_model.check(&c, NULL) == 0, "64 MiB disk refused");
	r = run_loop(&c, &w);
	CHECK(st, r.iops > 80 && r.iops < 1000, "64 MiB disk: %.1f IOPS", r.iops);
	if (f) {
		sim_hdd_model.describe(f, &c);
		fclose(f);
		CHECK(st, text && strstr(text, "revolution") && strstr(text, "avg_rate"),
		      "describe: %s", text ? text : "(nothing)");
		free(text);
	}
}

int main(void)
{
	struct check_state st = { 0 };

	calibration_read(&st);
	calibration_write(&st);
	queue_depth(&st);
	rate_by_position(&st);
	long_reads(&st);
	seek_curve(&st);
	position_mapping(&st);
	read_ahead(&st);
	sequential_writes(&st);
	dirty_read_hits(&st);
	determinism(&st);
	seek_bound(&st);
	vector_pick(&st);
	refusals(&st);
	small_disk(&st);
	return check_exit(&st, "test_sim_hdd");
}
