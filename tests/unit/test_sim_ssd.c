/*
 * test_sim_ssd.c — the simulated SSD (sim/ssd.h): presets measured the
 * seeds' way against the seeds' figures, the block FTL's 0/1/2 merge
 * penalties, page-FTL write amplification against greedy-GC theory, the
 * fresh/used/trimmed shape, TRIM, determinism, queue-depth gain, check()
 * refusals, the order of completions in and out of the in-flight heap,
 * garbage collection with and without live bits; the memory of a 512 GiB
 * drive. Its speed is measured by
 * bench/sim-speed.sh, not here.
 *
 * A small closed-loop driver stands in for the engine: it keeps `qd`
 * requests outstanding and submits each new one at the completion time of
 * the one it replaces, as backend/sim.c does.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/params.h"
#include "sim/ssd.h"
#include "util/rng.h"
#include "util/units.h"

#define MIBU (1024ULL * 1024)

struct workload {
	enum io_op op;
	uint32_t bs;
	uint64_t align;		/* offsets are multiples of this */
	unsigned qd;
	uint64_t warm;		/* IOs before measuring */
	uint64_t ios;		/* IOs measured */
	uint64_t seed;
};

struct measure {
	double secs;		/* simulated time of the measured IOs */
	double per_io;		/* seconds per IO */
	double mib_s;
	struct sim_counters delta;	/* counters over the measured IOs */
	uint64_t hash;		/* of every completion time */
	int errors;
};

struct drive {
	struct sim_device *dev;
	uint64_t now;		/* the virtual clock, kept across runs */
	struct ssd_config c;
	struct ssd_geometry g;
	bool hint;		/* the prefetch hint before every submit, and one past the end */
};

static uint64_t next_offset(struct rng *r, const struct sim_device *dev,
			    const struct workload *w)
{
	uint64_t slots = (dev->capacity - w->bs) / w->align + 1;

	return rng_below(r, slots) * w->align;
}

static void counters_sub(struct sim_counters *a, const struct sim_counters *b)
{
	a->host_read_bytes -= b->host_read_bytes;
	a->host_write_bytes -= b->host_write_bytes;
	a->media_read_bytes -= b->media_read_bytes;
	a->media_write_bytes -= b->media_write_bytes;
	a->erases -= b->erases;
	a->merges -= b->merges;
	a->gc_page_moves -= b->gc_page_moves;
}

static int resubmit(struct drive *dr, struct io_request *req, struct rng *r,
		    const struct workload *w)
{
	req->offset = next_offset(r, dr->dev, w);
	req->length = w->bs;
	req->op = w->op;
	req->submit_ns = dr->now;
	if (dr->hint) {
		dr->dev->ops->prefetch(dr->dev, req->offset, req->length);
		dr->dev->ops->prefetch(dr->dev, dr->dev->capacity + req->offset, req->length);
	}
	return dr->dev->ops->submit(dr->dev, req, dr->now);
}

/* Run w on dr closed-loop; measure the IOs after the first w->warm. */
static int run(struct drive *dr, const struct workload *w, struct measure *m)
{
	const struct sim_device_ops *ops = dr->dev->ops;
	struct io_request *reqs = calloc(w->qd, sizeof(*reqs)), *out[64];
	uint64_t total = w->warm + w->ios, issued = 0, done = 0, start = dr->now;
	struct sim_counters before = { 0 };
	struct rng r;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	rng_init(&r, w->seed);
	if (!reqs)
		return -ENOMEM;
	if (!w->warm)
		ops->counters(dr->dev, &before);
	for (unsigned i = 0; i < w->qd && issued < total && !ret; i++, issued++)
		ret = resubmit(dr, &reqs[i], &r, w);
	while (done < total && !ret) {
		unsigned n;

		dr->now = ops->next_completion(dr->dev);
		n = ops->complete(dr->dev, dr->now, out, 64);
		for (unsigned i = 0; i < n && !ret; i++) {
			m->hash = (m->hash ^ out[i]->complete_ns) * 0x100000001b3ULL;
			m->errors += out[i]->result != (int64_t)w->bs;
			if (++done == w->warm) {
				start = dr->now;
				ops->counters(dr->dev, &before);
			}
			if (issued < total) {
				ret = resubmit(dr, out[i], &r, w);
				issued++;
			}
		}
	}
	free(reqs);
	m->secs = (double)(dr->now - start) * 1e-9;
	m->per_io = m->secs / (double)w->ios;
	m->mib_s = (double)w->ios * w->bs / MIB / m->secs;
	ops->counters(dr->dev, &m->delta);
	counters_sub(&m->delta, &before);
	return ret;
}

/* Apply one "key=value,key=value" list to `c`. */
static int apply(struct ssd_config *c, const char *list)
{
	struct errmsg err;

	while (list && *list) {
		const char *end = strchr(list, ','), *eq = strchr(list, '=');
		size_t len = end ? (size_t)(end - list) : strlen(list);
		char key[64], value[64];

		if (!eq || eq >= list + len || (size_t)(eq - list) >= sizeof(key) ||
		    len - (size_t)(eq - list) > sizeof(value))
			return -EINVAL;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - list), list);
		snprintf(value, sizeof(value), "%.*s", (int)(len - (size_t)(eq - list) - 1), eq + 1);
		if (sim_param_set(sim_ssd_model.params, c, key, value, &err)) {
			printf("configure: %s\n", err.text);
			return -EINVAL;
		}
		list = end ? end + 1 : NULL;
	}
	return 0;
}

/* The model's defaults, then `settings`, then `extra` (either may be NULL). */
static int configure(struct ssd_config *c, const char *settings, const char *extra)
{
	sim_ssd_model.defaults(c);
	return apply(c, settings) ? -EINVAL : apply(c, extra);
}

static const struct sim_preset *preset(const char *name)
{
	for (const struct sim_preset *p = sim_ssd_presets; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

/* Open a drive from a preset (or NULL: defaults) with overrides; 0 on success. */
static int open_drive(struct drive *dr, const char *name, const char *extra, uint64_t seed)
{
	const struct sim_preset *p = name ? preset(name) : NULL;
	struct ssd_config c;
	struct errmsg err;
	int ret;

	memset(dr, 0, sizeof(*dr));
	if (name && !p)
		return -ENOENT;
	if (configure(&c, p ? p->settings : NULL, extra))
		return -EINVAL;
	dr->c = c;
	ssd_geometry(&c, &dr->g, NULL);
	ret = sim_ssd_model.create(&c, seed, &dr->dev, &err);
	if (ret)
		printf("create %s: %s\n", name ? name : "ssd", err.text);
	return ret;
}

static void close_drive(struct drive *dr)
{
	if (dr->dev)
		dr->dev->ops->destroy(dr->dev);
	dr->dev = NULL;
}

static double rel(double got, double want)
{
	return fabs(got - want) / want;
}


/* One request at the drive's clock, run to completion; its time in seconds. */
static double one_io(struct drive *dr, enum io_op op, uint64_t off, uint32_t len,
		     struct sim_counters *delta)
{
	struct io_request req = { .offset = off, .length = len, .op = op }, *out;
	struct sim_counters before;
	uint64_t start = dr->now;

	dr->dev->ops->counters(dr->dev, &before);
	if (dr->dev->ops->submit(dr->dev, &req, dr->now))
		return -1;
	dr->now = dr->dev->ops->next_completion(dr->dev);
	dr->dev->ops->complete(dr->dev, dr->now, &out, 1);
	dr->dev->ops->counters(dr->dev, delta);
	counters_sub(delta, &before);
	return (double)(dr->now - start) * 1e-9;
}

struct seeds_figures {
	double read_str, write_str;	/* MiB/s */
	double read_pen, write_pen;	/* ms */
};

/*
 * Measure as the seeds did: 0.5 KiB random at QD1, then 512 MiB random;
 * `write_ios` small writes, `big_writes` 512 MiB ones.
 */
static int seeds_way(struct drive *dr, uint64_t write_ios, uint64_t big_writes,
		     struct seeds_figures *f)
{
	struct workload w = { IO_READ, 512, 512, 1, 0, 2000, 11 };
	struct measure m;
	int ret = run(dr, &w, &m);

	f->read_pen = m.per_io * 1e3;
	w = (struct workload){ IO_WRITE, 512, 512, 1, 0, write_ios, 12 };
	ret = ret ? ret : run(dr, &w, &m);
	f->write_pen = m.per_io * 1e3;
	w = (struct workload){ IO_READ, 512 * MIBU, 512, 1, 0, 20, 13 };
	ret = ret ? ret : run(dr, &w, &m);
	f->read_str = 512.0 / (m.per_io - f->read_pen * 1e-3);
	w = (struct workload){ IO_WRITE, 512 * MIBU, 512, 1, 0, big_writes, 14 };
	ret = ret ? ret : run(dr, &w, &m);
	f->write_str = 512.0 / (m.per_io - f->write_pen * 1e-3);
	return ret;
}

static void check_figure(struct check_state *st, const char *drive, const char *what,
			 double got, double want, double tol)
{
	printf("  %-16s %-12s %10.4g  target %-8g (%+.1f %%)\n", drive, what, got, want,
	       100.0 * (got - want) / want);
	CHECK(st, rel(got, want) <= tol, "%s %s %g, want %g within %.0f %%", drive, what, got,
	      want, tol * 100);
}

static void block_ftl_calibration(struct check_state *st)
{
	static const struct {
		const char *name;
		struct seeds_figures want;
	} drives[] = {
		{ "ocz-core", { 125, 73, 0.43, 246 } },
		{ "ridata-s25", { 122, 70, 0.457, 247.5 } },
	};

	printf("calibration, the seeds' way (penalty = 1/IOPS of 0.5 KiB at QD1; "
	       "STR = 512 MiB / (time per IO - penalty)):\n");
	for (size_t i = 0; i < sizeof(drives) / sizeof(drives[0]); i++) {
		const char *n = drives[i].name;
		struct seeds_figures f;
		struct drive dr;
		double unit;

		CHECK(st, open_drive(&dr, n, NULL, 1) == 0, "open %s", n);
		if (!dr.dev)
			continue;
		CHECK(st, seeds_way(&dr, 100, 100, &f) == 0, "%s: runs", n);
		check_figure(st, n, "read STR", f.read_str, drives[i].want.read_str, 0.10);
		check_figure(st, n, "write STR", f.write_str, drives[i].want.write_str, 0.10);
		check_figure(st, n, "read pen ms", f.read_pen, drives[i].want.read_pen, 0.10);
		check_figure(st, n, "write pen ms", f.write_pen, drives[i].want.write_pen, 0.10);
		/* The seeds' cluster estimate C = P / (1/W + 1/R) must find the unit. */
		unit = f.write_pen * 1e-3 / (1.0 / f.write_str + 1.0 / f.read_str);
		printf("  %-16s %-12s %10.4g  model's merge unit %.4g MiB (x%.3f)\n", n,
		       "C estimate", unit, (double)dr.g.unit / MIB,
		       unit * MIB / (double)dr.g.unit);
		CHECK(st, unit * MIB / (double)dr.g.unit < 1.25 &&
			  unit * MIB / (double)dr.g.unit > 0.8,
		      "%s: C estimate %g MiB", n, unit);
		close_drive(&dr);
	}
}

/*
 * Block FTL: aligned whole units pay no merge, a small write one, a ragged
 * large write two. `whole`: the JMF602's merge, which reads the unit whole.
 */
static void block_ftl_penalties(struct check_state *st, bool whole)
{
	struct sim_counters d;
	struct drive dr;
	uint64_t unit;
	double t, t3, want, ppb;

	if (open_drive(&dr, "ocz-core", whole ? "merge=whole,time_spread=0,merge_stall_rate=0"
			       : "merge=untouched,time_spread=0,merge_stall_rate=0", 1))
		return;
	unit = dr.g.unit;
	ppb = (double)dr.g.ppb;
	t = one_io(&dr, IO_WRITE, 100 * unit, (uint32_t)unit, &d);
	CHECK(st, d.merges == 0 && d.erases == dr.g.channels && d.media_read_bytes == 0,
	      "aligned unit: %llu merges", (unsigned long long)d.merges);
	t = one_io(&dr, IO_WRITE, 200 * unit + 12345 * 512, 4096, &d);
	CHECK(st, d.merges == 1 && d.media_write_bytes == unit, "small write: %llu merges",
	      (unsigned long long)d.merges);
	printf("block FTL: small write %.1f ms (one merge)\n", t * 1e3);
	t3 = one_io(&dr, IO_WRITE, 300 * unit, 3 * (uint32_t)unit, &d);
	CHECK(st, d.merges == 0, "aligned 3 units: %llu merges", (unsigned long long)d.merges);
	t = one_io(&dr, IO_WRITE, 400 * unit + unit / 2, 3 * (uint32_t)unit, &d);
	CHECK(st, d.merges == 2 && d.erases == 4 * dr.g.channels, "ragged 3 units: %llu merges",
	      (unsigned long long)d.merges);
	/*
	 * Per channel: half a unit read at each end (the whole unit at each end
	 * when merges read it whole), four erases, four units programmed.
	 */
	want = (whole ? 2 : 1) * ppb * dr.c.read_us * 1e-6 + 4 * dr.c.erase_ms * 1e-3 +
	       4 * ppb * dr.c.program_us * 1e-6 + dr.c.cmd_us * 1e-6;
	printf("block FTL, merge=%s: 3 units aligned %.1f ms, unaligned %.1f ms (model %.1f ms):"
	       " two merges cost %.1f ms\n", whole ? "whole" : "untouched", t3 * 1e3, t * 1e3,
	       want * 1e3, (t - t3) * 1e3);
	CHECK(st, rel(t, want) < 0.01, "ragged write %g s, want %g s", t, want);
	t = one_io(&dr, IO_WRITE, 500 * unit + unit - 2048, 4096, &d);
	CHECK(st, d.merges == 2, "small write across a boundary: %llu merges",
	      (unsigned long long)d.merges);
	close_drive(&dr);
	if (open_drive(&dr, "ocz-core", "state=fresh,time_spread=0,merge_stall_rate=0", 1))
		return;
	one_io(&dr, IO_WRITE, 7 * dr.g.unit + 4096, 4096, &d);
	CHECK(st, d.merges == 0 && d.erases == 0, "fresh unit: no merge");
	one_io(&dr, IO_WRITE, 7 * dr.g.unit + 65536, 4096, &d);
	CHECK(st, d.merges == 1, "second write to that unit merges");
	close_drive(&dr);
}

/*
 * A used drive without a big cache: garbage collection on one channel must
 * not stall the others, so 4 KiB random writes run at the flash's pace,
 * (WA program + (WA - 1) read + WA/ppb erase) / channels per write.
 */
static void used_is_flash_bound(struct check_state *st)
{
	struct workload w = { IO_WRITE, 4096, 4096, 1, 20000, 50000, 22 };
	struct measure m;
	struct drive dr;
	double wa, bound;

	/* a tenth of the capacity: the same WA and bound (3230/3227 IOPS, full size 3223/3215) */
	if (open_drive(&dr, "intel-x25m-g2", "state=used,capacity=16000m", 1))
		return;
	run(&dr, &w, &m);
	wa = (double)m.delta.media_write_bytes / (double)m.delta.host_write_bytes;
	bound = (wa * dr.c.program_us + (wa - 1) * dr.c.read_us +
		 wa / (double)dr.g.ppb * dr.c.erase_ms * 1e3) / (double)dr.g.channels * 1e-6;
	printf("  intel-x25m-g2 used: 4 KiB random write QD1 %.0f IOPS (%.1f MiB/s, WA %.2f); "
	       "flash bound %.0f IOPS\n", 1 / m.per_io, m.mib_s, wa, 1 / bound);
	CHECK(st, rel(m.per_io, bound) < 0.10, "used drive: %g s per IO, flash bound %g s",
	      m.per_io, bound);
	close_drive(&dr);
}

static void page_ftl_presets(struct check_state *st)
{
	static const char *const names[] = { "intel-x25m-g2", "supertalent-gx" };
	struct seeds_figures f;
	struct workload w = { IO_WRITE, 4096, 4096, 1, 1000, 20000, 21 };
	struct measure m;
	struct drive dr;

	for (size_t i = 0; i < 2; i++) {
		if (open_drive(&dr, names[i], NULL, 1))
			continue;
		/* 20 writes of 512 MiB: the X25-M's write STR as with 200 (100.2 MiB/s) */
		CHECK(st, seeds_way(&dr, 200, 20, &f) == 0, "%s runs", names[i]);
		printf("  %-16s read STR %.1f MiB/s, write STR %.1f MiB/s, read penalty %.3f ms, "
		       "write penalty %.3f ms\n", names[i], f.read_str, f.write_str, f.read_pen,
		       f.write_pen);
		if (!i) {
			check_figure(st, names[i], "read STR", f.read_str, 250, 0.10);
			check_figure(st, names[i], "write STR", f.write_str, 100, 0.10);
			run(&dr, &w, &m);
			printf("  %-16s 4 KiB random write QD1: %.0f IOPS, %.1f MiB/s\n", names[i],
			       w.ios / m.secs, m.mib_s);
			CHECK(st, w.ios / m.secs > 3000, "fast random 4K writes: %g IOPS",
			      w.ios / m.secs);
		}
		close_drive(&dr);
	}
	used_is_flash_bound(st);
}

/* The test's own theory: x = 1/WA solves e^(-a x) = 1 - x, a = 1 + rho. */
static double wa_expected(double rho)
{
	double a = 1 + rho, x = 1;

	for (int i = 0; i < 100; i++)		/* Newton from the right of the root */
		x -= (exp(-a * x) - 1 + x) / (1 - a * exp(-a * x));
	return 1 / x;
}

static double measure_wa(const char *extra, uint64_t warm_passes, double *rho)
{
	struct drive dr;
	struct measure m;
	struct workload w = { IO_WRITE, 4096, 4096, 1, 0, 0, 31 };
	struct errmsg err;
	double wa;

	if (open_drive(&dr, NULL, extra, 5))
		return -1;
	*rho = (double)dr.g.raw_pages / (double)dr.g.user_pages - 1;
	w.warm = warm_passes * dr.g.user_pages;
	w.ios = 3 * dr.g.user_pages;
	if (run(&dr, &w, &m) || m.errors)
		wa = -1;
	else
		wa = (double)m.delta.media_write_bytes / (double)m.delta.host_write_bytes;
	if (ssd_verify(dr.dev, &err)) {
		printf("verify: %s\n", err.text);
		wa = -2;
	}
	close_drive(&dr);
	return wa;
}

static void wa_theory(struct check_state *st)
{
	static const double rhos[] = { 0.1, 0.2, 0.3, 0.5 }, listed[] = { 5.68, 3.19, 2.36, 1.72 };
	char extra[256];
	double rho, wa;

	printf("write amplification, 4 KiB random writes, greedy GC, 4096 user blocks:\n");
	for (size_t i = 0; i < 4; i++) {
		CHECK(st, fabs(wa_expected(rhos[i]) - listed[i]) < 0.01 &&
			  fabs(ssd_wa_theory(rhos[i]) - listed[i]) < 0.01,
		      "theory at rho %g: %g", rhos[i], wa_expected(rhos[i]));
		snprintf(extra, sizeof(extra), "capacity=1g,erase_block_kib=256,channels=4,"
			 "spare=%.6f,state=used,write_cache=off", rhos[i] / (1 + rhos[i]));
		wa = measure_wa(extra, 2, &rho);
		printf("  rho %.3f (asked %.1f): WA %.3f, theory %.3f (%+.1f %%)\n", rho, rhos[i],
		       wa, wa_expected(rho), 100 * (wa - wa_expected(rho)) / wa_expected(rho));
		CHECK(st, rel(wa, wa_expected(rho)) < 0.10, "rho %g: WA %g, theory %g", rho, wa,
		      wa_expected(rho));
	}
	wa = measure_wa("capacity=1g,erase_block_kib=256,channels=4,spare=0.166667,"
			"state=fresh,write_cache=off", 4, &rho);
	printf("  rho %.3f from fresh, after 4 drive writes: WA %.3f\n", rho, wa);
	CHECK(st, rel(wa, wa_expected(rho)) < 0.10, "fresh converges: WA %g", wa);
}

/* 4 KiB random writes at QD1 on the GX in one state; MB/s (10^6 bytes). */
static double gx_speed(const char *state, struct measure *m)
{
	struct workload w = { IO_WRITE, 4096, 4096, 1, 30000, 100000, 41 };
	struct drive dr;
	int ret;

	if (open_drive(&dr, "supertalent-gx", state, 3))
		return -1;
	ret = run(&dr, &w, m);
	close_drive(&dr);
	return ret || m->errors ? -1 : (double)w.ios * w.bs / m->secs / 1e6;
}

static void fresh_used_trimmed(struct check_state *st)
{
	struct measure m[3];
	double fresh = gx_speed("state=fresh", &m[0]);
	double used = gx_speed("state=used", &m[1]);
	double trimmed = gx_speed("state=trimmed", &m[2]);

	printf("supertalent-gx 4 KiB random write QD1: fresh %.2f MB/s (WA %.2f), used %.2f "
	       "(WA %.2f), trimmed %.2f (WA %.2f); seeds 13.1, 6.93, 12.9\n", fresh,
	       (double)m[0].delta.media_write_bytes / m[0].delta.host_write_bytes, used,
	       (double)m[1].delta.media_write_bytes / m[1].delta.host_write_bytes, trimmed,
	       (double)m[2].delta.media_write_bytes / m[2].delta.host_write_bytes);
	printf("  used/clean %.3f (seed 0.529), trimmed/clean %.3f (seed 0.985)\n",
	       used / fresh, trimmed / fresh);
	CHECK(st, fabs(used / fresh - 6.93 / 13.1) <= 0.1, "used/clean %g", used / fresh);
	CHECK(st, fabs(trimmed / fresh - 12.9 / 13.1) <= 0.1, "trimmed/clean %g",
	      trimmed / fresh);
	CHECK(st, rel(fresh, 13.1) < 0.10, "clean %g MB/s", fresh);
}

static void trim_and_states(struct check_state *st)
{
	const char *small = "capacity=256m,erase_block_kib=256,channels=4,spare=0.1,"
			    "write_cache=off";
	char extra[256];
	struct workload w = { IO_WRITE, 4096, 4096, 2, 0, 20000, 51 };
	struct sim_counters d;
	struct measure m;
	struct errmsg err;
	struct drive dr;

	snprintf(extra, sizeof(extra), "%s,state=used", small);
	if (open_drive(&dr, NULL, extra, 9))
		return;
	CHECK(st, ssd_valid_count(dr.dev) == dr.g.user_pages && !ssd_verify(dr.dev, &err),
	      "used: every page valid, invariants hold");
	CHECK(st, ssd_trim(dr.dev, 4096, dr.c.capacity) == -EINVAL, "trim past the end");
	CHECK(st, ssd_trim(dr.dev, 1000, 10000) == 0 && ssd_valid_count(dr.dev) ==
		  dr.g.user_pages - 1, "trim covers one whole page of [1000, 11000)");
	CHECK(st, ssd_trim(dr.dev, 0, dr.c.capacity) == 0 && ssd_valid_count(dr.dev) == 0 &&
		  !ssd_verify(dr.dev, &err), "trim all");
	CHECK(st, run(&dr, &w, &m) == 0 && m.delta.media_write_bytes == m.delta.host_write_bytes,
	      "after TRIM no page is moved: WA %g",
	      (double)m.delta.media_write_bytes / m.delta.host_write_bytes);
	CHECK(st, !ssd_verify(dr.dev, &err), "after writes: %s", err.text);
	close_drive(&dr);
	snprintf(extra, sizeof(extra), "%s,state=trimmed,live=0.25", small);
	if (!open_drive(&dr, NULL, extra, 9)) {
		CHECK(st, ssd_valid_count(dr.dev) == dr.g.user_pages / 4 &&
			  !ssd_verify(dr.dev, &err), "trimmed, live 0.25: %llu valid",
		      (unsigned long long)ssd_valid_count(dr.dev));
		close_drive(&dr);
	}
	snprintf(extra, sizeof(extra), "%s,state=trimmed,trim=off", small);
	if (!open_drive(&dr, NULL, extra, 9)) {
		CHECK(st, ssd_valid_count(dr.dev) == dr.g.user_pages, "trim=off: trimmed is used");
		CHECK(st, ssd_trim(dr.dev, 0, 4096) == -EOPNOTSUPP, "trim=off refuses TRIM");
		close_drive(&dr);
	}
	if (!open_drive(&dr, "ocz-core", "trim=on,state=trimmed,live=0.5", 1)) {
		CHECK(st, ssd_valid_count(dr.dev) == (dr.g.units + 1) / 2,
		      "block FTL trimmed: %llu", (unsigned long long)ssd_valid_count(dr.dev));
		one_io(&dr, IO_WRITE, (dr.g.units - 3) * dr.g.unit, 4096, &d);
		CHECK(st, d.merges == 0, "a trimmed unit takes a small write without a merge");
		close_drive(&dr);
	}
}

static uint64_t mixed_hash(const char *name, const char *extra, uint64_t seed, bool hint)
{
	struct workload w = { IO_WRITE, 4096, 4096, 4, 0, 20000, 61 };
	struct measure m;
	struct drive dr;
	uint64_t h;

	if (open_drive(&dr, name, extra, seed))
		return 0;
	dr.hint = hint;
	run(&dr, &w, &m);
	h = m.hash;
	w = (struct workload){ IO_READ, 16384, 512, 4, 0, 20000, 62 };
	run(&dr, &w, &m);
	close_drive(&dr);
	return h * 31 + m.hash;
}

static void determinism(struct check_state *st)
{
	const char *small = "capacity=4g,state=used";
	uint64_t a = mixed_hash("supertalent-gx", small, 7, false);
	uint64_t b = mixed_hash("supertalent-gx", small, 7, false);
	uint64_t c = mixed_hash("supertalent-gx", small, 8, false);

	CHECK(st, a && a == b, "same seed, same completion times");
	CHECK(st, a != c, "another seed lays the used drive out differently");
	CHECK(st, mixed_hash("supertalent-gx", "capacity=1g,state=used", 7, false) ==
		  mixed_hash("supertalent-gx", "capacity=1g,state=used", 7, true),
	      "the prefetch hint (also past the end) changes no completion time");
	a = mixed_hash("ridata-s25", NULL, 7, false);
	CHECK(st, a && a == mixed_hash("ridata-s25", NULL, 7, false), "block FTL deterministic");
}

/* Mean seconds of `n` back-to-back `len`-byte IOs at QD1 from offset 0 up. */
static double stream_per_io(struct drive *dr, enum io_op op, uint32_t len, unsigned n)
{
	struct sim_counters d;
	double sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += one_io(dr, op, (uint64_t)i * len, len, &d);
	return sum / n;
}

/*
 * The front end: a command's latency (cmd_us, write_cmd_us) and its
 * occupancy (cmd_busy_us, write_busy_us, for commands that do not continue
 * the previous one) are separate; busy = latency by default.
 */
static void front_end(struct check_state *st)
{
	const char *fe = "capacity=4g,cmd_us=10,cmd_busy_us=40,write_cmd_us=30,"
			 "write_busy_us=200,time_spread=0";
	struct workload w = { IO_READ, 4096, 4096, 32, 1000, 5000, 81 };
	double xfer = 4096 / (250.0 * MIB), t;
	const char *same = "capacity=4g,write_cmd_us=296,cmd_busy_us=296,write_busy_us=296";
	struct measure m;
	struct drive dr;

	printf("controller front end (cmd 10/40 us, write 30/200 us):\n");
	if (open_drive(&dr, NULL, fe, 1))
		return;
	t = stream_per_io(&dr, IO_READ, 4096, 100);
	CHECK(st, rel(t, 10e-6 + 50e-6 + xfer) < 0.01, "sequential read QD1: %g s", t);
	run(&dr, &w, &m);
	printf("  random 4 KiB read QD32: %.0f IOPS (front end 25000)\n", 1 / m.per_io);
	CHECK(st, rel(m.per_io, 40e-6) < 0.05, "random reads at depth: one per busy time");
	w = (struct workload){ IO_WRITE, 4096, 4096, 1, 100, 2000, 82 };
	run(&dr, &w, &m);
	CHECK(st, rel(m.per_io, 200e-6) < 0.05, "random writes QD1: one per busy time (%g s)",
	      m.per_io);
	close_drive(&dr);
	if (open_drive(&dr, NULL, fe, 1))
		return;
	t = stream_per_io(&dr, IO_WRITE, 4096, 50);
	CHECK(st, rel(t, 30e-6 + xfer) < 0.01, "sequential write QD1: latency only, %g s", t);
	close_drive(&dr);
	CHECK(st, mixed_hash("supertalent-gx", "capacity=4g", 3, false) ==
		  mixed_hash("supertalent-gx", same, 3, false),
	      "defaults: busy = latency, writes as reads (the one-at-a-time controller)");
}

static void qd_gain(struct check_state *st)
{
	printf("queue depth gain (IOPS at QD32 / QD1), 4 KiB random:\n");
	for (const struct sim_preset *p = sim_ssd_presets; p->name; p++) {
		bool slow = strstr(p->settings, "ftl=block") != NULL;
		double gain[2];

		for (int op = 0; op < 2; op++) {
			struct workload w = { op ? IO_WRITE : IO_READ, 4096, 4096, 1,
					      slow ? 4 : 2000, slow ? 64 : 20000, 71 };
			struct measure m1, m32;
			struct drive dr;

			if (open_drive(&dr, p->name, NULL, 1))
				continue;
			run(&dr, &w, &m1);
			w.qd = 32;
			run(&dr, &w, &m32);
			gain[op] = m1.secs / m32.secs;
			close_drive(&dr);
		}
		printf("  %-16s read %.2f, write %.2f\n", p->name, gain[0], gain[1]);
		/*
		 * The JMF602 had no NCQ: nothing to gain. NCQ drives overlap reads on their
		 * channels behind the controller's front end (the X25-M G2's sheet: 35 000
		 * IOPS at QD32 against 1/65 us at QD1, 2.3x), while random writes are bound
		 * at QD1 already (cache; the X25-M's front end: 110 us per random write).
		 */
		if (slow)
			CHECK(st, gain[0] < 1.05 && gain[1] < 1.05, "%s: no NCQ, no gain", p->name);
		else
			CHECK(st, gain[0] > 1.1 && gain[0] < 3.0 && gain[1] < 1.5,
			      "%s: reads gain from NCQ, cached writes little", p->name);
	}
}

static bool refused(const char *extra, const char *words)
{
	struct ssd_config c;
	struct errmsg err = { "" };

	if (configure(&c, NULL, extra))
		return false;
	if (!sim_ssd_model.check(&c, &err))
		return false;
	printf("  refused %-44s %s\n", extra, err.text);
	return strstr(err.text, words) != NULL;
}

static void refusals(struct check_state *st)
{
	struct ssd_config c;
	struct errmsg err;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(st, refused("page_kib=4,erase_block_kib=6", "not a multiple of page_kib"), "eb");
	CHECK(st, refused("capacity=100000k", "not a multiple of the erase block"), "capacity");
	CHECK(st, refused("ftl=block,capacity=64m,erase_block_kib=2880,channels=4",
			  "merge unit"), "merge unit");
	CHECK(st, refused("spare=0", "too small for the page FTL"), "no spare");
	CHECK(st, refused("capacity=8m,erase_block_kib=1024,channels=2,spare=0.3",
			  "too small for the page FTL"), "spare blocks per channel");
	CHECK(st, refused("capacity=32t", "maps at most"), "too many pages");
	CHECK(st, refused("page_kib=1,erase_block_kib=131072,capacity=1t", "at most 65535"),
	      "pages per block");
	for (const struct sim_preset *p = sim_ssd_presets; p->name; p++)
		CHECK(st, !configure(&c, p->settings, NULL) && !sim_ssd_model.check(&c, &err),
		      "preset %s passes check()", p->name);
	configure(&c, preset("ocz-core")->settings, NULL);
	f = open_memstream(&text, &len);
	if (f) {
		sim_ssd_model.describe(f, &c);
		fclose(f);
		printf("describe ocz-core:\n%s", text);
		CHECK(st, strstr(text, "merge_unit") && strstr(text, "11.25 MiB"),
		      "merge unit shown");
		free(text);
	}
}

/*
 * Commands in service: one alone sits beside the in-flight heap (solo), a
 * second moves it in; completions leave in time order, ties in submission
 * order, either way. Invalid requests complete at their submission time,
 * so the times are the test's own. Only the page FTL takes prefetch hints.
 */
static void in_service(struct check_state *st)
{
	static const uint64_t at[] = { 100, 50, 50, 100, 70 };	/* submission times */
	static const unsigned want[] = { 1, 2, 4, 0, 3 };	/* completion order */
	struct io_request req[5], *out[5];
	unsigned got = 0, n;
	struct drive dr;

	if (open_drive(&dr, NULL, "capacity=1g,ftl=block", 1))
		return;
	CHECK(st, !dr.dev->ops->prefetch, "block FTL: no prefetch op");
	close_drive(&dr);
	if (open_drive(&dr, NULL, "capacity=1g", 1))
		return;
	CHECK(st, dr.dev->ops->prefetch != NULL, "page FTL: a prefetch op");
	memset(req, 0, sizeof(req));
	CHECK(st, !dr.dev->ops->submit(dr.dev, &req[0], at[0]) &&
		  dr.dev->ops->next_completion(dr.dev) == 100, "one in service");
	n = dr.dev->ops->complete(dr.dev, 99, out, 5);
	CHECK(st, n == 0, "not done before its time");
	for (unsigned i = 1; i < 5; i++)
		dr.dev->ops->submit(dr.dev, &req[i], at[i]);
	CHECK(st, dr.dev->ops->next_completion(dr.dev) == 50, "earliest of five first");
	while (got < 5 && (n = dr.dev->ops->complete(dr.dev, 1000, out + got, 1)) == 1)
		got++;
	CHECK(st, got == 5, "all five complete");
	for (unsigned i = 0; i < got; i++)
		CHECK(st, out[i] == &req[want[i]] && out[i]->result == -EINVAL &&
			  out[i]->complete_ns == at[want[i]],
		      "completion %u: request %u at %llu", i, want[i],
		      (unsigned long long)at[want[i]]);
	CHECK(st, dr.dev->ops->next_completion(dr.dev) == UINT64_MAX, "none left");
	CHECK(st, !dr.dev->ops->submit(dr.dev, &req[0], 5) &&
		  dr.dev->ops->complete(dr.dev, 5, out, 5) == 1 && out[0] == &req[0],
	      "alone again after the heap emptied");
	close_drive(&dr);
}

/*
 * Garbage collection by live bits (erase blocks of whole 64-page words) and
 * by looking back through L2P (96 pages): after random writes, some partial,
 * many collections and a TRIM, the invariants and the live bits hold.
 */
static void live_bits(struct check_state *st)
{
	const char *geometries[] = { "erase_block_kib=256", "erase_block_kib=384" };

	for (unsigned i = 0; i < 2; i++) {
		struct workload w = { IO_WRITE, 6144, 2048, 4, 0, 0, 61 + i };
		char extra[160];
		struct measure m;
		struct errmsg err = { 0 };
		struct drive dr;

		snprintf(extra, sizeof(extra), "capacity=96m,channels=3,spare=0.12,state=used,%s",
			 geometries[i]);
		if (open_drive(&dr, NULL, extra, 3))
			continue;
		w.ios = 2 * dr.g.user_pages;
		CHECK(st, run(&dr, &w, &m) == 0 && !m.errors && m.delta.erases > 0 &&
			  !ssd_verify(dr.dev, &err), "%s: %llu collections, then %s", geometries[i],
		      (unsigned long long)m.delta.erases, err.text[0] ? err.text : "invariants hold");
		CHECK(st, ssd_trim(dr.dev, 1 << 20, 8 << 20) == 0 && !ssd_verify(dr.dev, &err),
		      "%s: after TRIM %s", geometries[i], err.text[0] ? err.text : "invariants hold");
		close_drive(&dr);
	}
}

/* The memory a 512 GiB page-FTL drive takes; its speed is measured by bench/sim-speed.sh. */
static void memory(struct check_state *st)
{
	struct ssd_config c;
	struct ssd_geometry g;
	char size[32];

	configure(&c, NULL, "capacity=512g,page_kib=4,erase_block_kib=512,spare=0.0687");
	CHECK(st, ssd_geometry(&c, &g, NULL) == 0, "512 GiB geometry");
	format_size(size, sizeof(size), ssd_memory_bytes(&g, SSD_FTL_PAGE));
	printf("memory, 512 GiB page FTL, 4 KiB pages, spare 0.0687: %s (%.2f bytes per user "
	       "page, %u-bit map entries)\n", size,
	       (double)ssd_memory_bytes(&g, SSD_FTL_PAGE) / (double)g.user_pages, g.map_bits);
	CHECK(st, ssd_memory_bytes(&g, SSD_FTL_PAGE) <= (1ULL << 30), "512 GiB fits in 1 GiB");
}

int main(void)
{
	struct check_state st = { 0 };

	block_ftl_calibration(&st);
	block_ftl_penalties(&st, false);
	block_ftl_penalties(&st, true);
	page_ftl_presets(&st);
	wa_theory(&st);
	fresh_used_trimmed(&st);
	trim_and_states(&st);
	determinism(&st);
	front_end(&st);
	qd_gain(&st);
	refusals(&st);
	in_service(&st);
	live_bits(&st);
	memory(&st);
	return check_exit(&st, "test_sim_ssd");
}
