/*
 * test_raid.c — the array planner (model/raid.h): the seeds' failure odds
 * and partial-stripe derivation to the digits they print, the layout checks,
 * the member IOs of each level, mean-value analysis against closed forms,
 * and the link's framing overhead.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "model/raid.h"

static struct check_state st;

static void check_printed(const char *fmt, double v, const char *want, const char *what)
{
	char buf[32];

	snprintf(buf, sizeof(buf), fmt, v);
	CHECK(&st, !strcmp(buf, want), "%s: %s, expected %s", what, buf, want);
}

static double loss_percent(enum raid_level level, unsigned n, double f)
{
	struct raid_layout l = { level, n, 65536 };

	return 100 * raid_annual_loss(&l, f);
}

static void test_seed_afr(void)
{
	check_printed("%.2f", loss_percent(RAID_1, 2, 0.05), "0.25", "RAID 1");
	check_printed("%.2f", loss_percent(RAID_0, 4, 0.05), "18.55", "RAID 0 n=4");
	check_printed("%.3f", loss_percent(RAID_10, 4, 0.05), "0.499", "RAID 10 n=4");
	check_printed("%.3f", loss_percent(RAID_10, 6, 0.05), "0.748", "RAID 10 n=6");
	check_printed("%.2f", loss_percent(RAID_5, 4, 0.05), "1.40", "RAID 5 n=4");
	check_printed("%.2f", loss_percent(RAID_5, 6, 0.05), "3.28", "RAID 5 n=6");
	/* RAID 6: three or more of n; by hand for n = 4 */
	CHECK(&st, fabs(loss_percent(RAID_6, 4, 0.05) -
			100 * (4 * pow(0.05, 3) * 0.95 + pow(0.05, 4))) < 1e-12, "RAID 6 n=4");
	CHECK(&st, loss_percent(RAID_6, 6, 0.05) < loss_percent(RAID_5, 6, 0.05), "RAID 6 < 5");
}

static void test_seed_partial_stripe(void)
{
	double p = raid_partial_penalty(62.5e-3, 17.5e-3);
	double large = raid_large_write_latency(17.5e-3, p);
	double str = raid_str_from_iops(512ULL << 20, 0.31, large);

	check_printed("%.1f", p * 1e3, "45.0", "partial-stripe penalty ms");
	check_printed("%.1f", large * 1e3, "107.5", "large write ms");
	check_printed("%.1f", str / 1048576, "164.2", "buffered write STR MiB/s");
}

static void test_reliability(void)
{
	struct raid_layout l = { RAID_5, 4, 65536 };
	struct raid_reliability_in in = { 0.05, 24 * 3600.0, 1e12, 1e-14, 5 };
	struct raid_reliability r;
	double mttf = 8760 / 0.05, pu = 1 - exp(-8e12 * 3 * 1e-14);

	raid_reliability(&l, &in, &r);
	CHECK(&st, fabs(r.p_ure - pu) < 1e-12, "p_ure %g, expected %g", r.p_ure, pu);
	CHECK(&st, fabs(r.mttdl_no_ure_h - mttf * mttf / (4 * 3 * 24)) < 1e-6 * r.mttdl_no_ure_h,
	      "RAID 5 MTTDL without URE %g", r.mttdl_no_ure_h);
	CHECK(&st, fabs(r.mttdl_h - mttf / (4 * (3 * 24 / mttf + pu))) < 1e-6 * r.mttdl_h,
	      "RAID 5 MTTDL %g", r.mttdl_h);
	CHECK(&st, fabs(r.loss_over_years - (1 - exp(-5 * 8760 / r.mttdl_h))) < 1e-12, "5 years");
	l = (struct raid_layout){ RAID_6, 6, 65536 };
	in.member_bytes = 0;
	raid_reliability(&l, &in, &r);
	CHECK(&st, fabs(r.mttdl_h - pow(mttf, 3) / (6 * 5 * 4 * 24.0 * 24)) < 1e-6 * r.mttdl_h,
	      "RAID 6 MTTDL %g", r.mttdl_h);
	l = (struct raid_layout){ RAID_1, 2, 65536 };
	raid_reliability(&l, &in, &r);
	CHECK(&st, fabs(r.mttdl_h - mttf * mttf / (2 * 24)) < 1e-6 * r.mttdl_h, "RAID 1 MTTDL");
}

static void test_layout(void)
{
	struct raid_layout bad[] = {
		{ RAID_5, 2, 65536 }, { RAID_10, 6 - 1, 65536 }, { RAID_6, 3, 65536 },
		{ RAID_0, 2, 1000 }, { RAID_0, 2, 0 }, { RAID_1, 1, 4096 },
		{ RAID_5, 4, RAID_MAX_STRIPE + 512 }, { RAID_0, 2, 4ULL << 40 },
	};
	struct raid_layout good = { RAID_10, 6, 65536 }, largest = { RAID_5, 4, RAID_MAX_STRIPE };
	struct errmsg err;
	enum raid_level lv;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(&st, raid_layout_check(&bad[i], &err) && !strncmp(err.text, "--", 2),
		      "bad layout %zu accepted", i);
	CHECK(&st, !raid_layout_check(&good, &err), "%s", err.text);
	CHECK(&st, !raid_layout_check(&largest, &err), "%s", err.text);
	CHECK(&st, raid_capacity(&good, 1000000) == 3 * (1000000 / 65536 * 65536), "capacity");
	CHECK(&st, !raid_level_parse("raid10", &lv) && lv == RAID_10, "raid10");
	CHECK(&st, raid_level_parse("7", &lv), "level 7 accepted");
}

/* Units spanned against enumeration of the offsets. */
static void test_spanned(void)
{
	static const uint64_t sizes[] = { 512, 4096, 65536, 70000 / 512 * 512, 1 << 20, 3 << 20 };
	static const uint64_t aligns[] = { 512, 4096, 65536 };

	for (size_t i = 0; i < 6; i++)
		for (size_t a = 0; a < 3; a++) {
			uint64_t unit = 3 * 65536, n = 0, sum = 0;

			for (uint64_t o = 0; o < 64 * unit; o += aligns[a], n++)
				sum += (o + sizes[i] - 1) / unit - o / unit + 1;
			CHECK(&st, fabs(raid_units_spanned(sizes[i], aligns[a], unit) - (double)sum / n)
				   < 1e-9, "spanned %llu/%llu: %g vs %g", (unsigned long long)sizes[i],
			      (unsigned long long)aligns[a],
			      raid_units_spanned(sizes[i], aligns[a], unit), (double)sum / n);
		}
}

static void test_mva(void)
{
	double mu[64], x;
	const double *rates[2] = { mu, mu };
	unsigned one = 1, two = 2;
	double v1 = 1, v2 = 0.5;

	for (int k = 0; k < 64; k++)
		mu[k] = 100;
	CHECK(&st, !raid_mva(1, &one, &v1, rates, 10, &x) && fabs(x - 100) < 1e-9, "one: %g", x);
	/* balanced network of K stations: X = N / (D (N + K - 1)), D = 1 / (K mu) */
	for (unsigned n = 1; n <= 40; n += 13) {
		CHECK(&st, !raid_mva(1, &two, &v2, rates, n, &x) &&
			   fabs(x - n * 200.0 / (n + 1)) < 1e-9 * x, "two, %u jobs: %g", n, x);
	}
	/* two groups of one station each: the same network */
	{
		unsigned c[2] = { 1, 1 };
		double v[2] = { 0.5, 0.5 };

		CHECK(&st, !raid_mva(2, c, v, rates, 9, &x) && fabs(x - 9 * 200.0 / 10) < 1e-9 * x,
		      "two groups: %g", x);
	}
	/* a station whose rate is k * mu is a delay: X = N mu */
	for (int k = 0; k < 64; k++)
		mu[k] = 100.0 * (k + 1);
	CHECK(&st, !raid_mva(1, &two, &v2, rates, 20, &x) && fabs(x - 2000) < 1e-6, "delay %g", x);
}

static double flat_iops(const void *ctx, enum io_op op, uint64_t size, unsigned depth)
{
	(void)ctx; (void)size; (void)depth;
	return op == IO_READ ? 100 : 50;
}

/*
 * RAID 5, an aligned read of k chunks, every start of a whole cycle of n rows:
 * the mean members touched, and the mean rows each spans from its first data
 * chunk to its last (src/sim/raid.h: data chunk i of row r on member
 * (n - 1 - r mod n + 1 + i) mod n).
 */
static void raid5_brute_force(unsigned n, unsigned k, double *busy, double *span)
{
	unsigned d = n - 1, touched = 0, rows = 0;

	for (unsigned s = 0; s < n * d; s++) {
		unsigned first[16], last[16];
		bool seen[16] = { false };

		for (unsigned j = s; j < s + k; j++) {
			unsigned row = j / d, m = (n - 1 - row % n + 1 + j % d) % n;

			if (!seen[m])
				first[m] = row;
			seen[m] = true;
			last[m] = row;
		}
		for (unsigned m = 0; m < n; m++)
			if (seen[m]) {
				touched++;
				rows += last[m] - first[m] + 1;
			}
	}
	*busy = (double)touched / (n * d);
	*span = (double)rows / touched;
}

static void test_random_perf(void)
{
	struct raid_member m = { "flat", false, 0, { 100e6, 100e6 }, { 0.01, 0.02 }, flat_iops, NULL, { 0, 0, 0, { 0 }, { 0 }, 0 }, false };
	const struct raid_member *ms[8] = { &m, &m, &m, &m, &m, &m, &m, &m };
	struct raid_layout r0 = { RAID_0, 3, 65536 }, r5 = { RAID_5, 4, 65536 };
	struct raid_layout r5x3 = { RAID_5, 3, 65536 }, r6 = { RAID_6, 6, 65536 };
	struct raid_perf p;
	struct raid_first_order fo;
	struct errmsg err;

	CHECK(&st, !raid_random_perf(&r0, ms, IO_READ, 4096, 0, 1, false, &p, &err) &&
		   fabs(p.iops - 100) < 1e-9, "RAID 0 QD1 %g", p.iops);
	CHECK(&st, !raid_random_perf(&r0, ms, IO_READ, 4096, 0, 1000, false, &p, &err) &&
		   p.iops > 295 && p.iops < 300, "RAID 0 QD1000 %g", p.iops);
	/* RAID 5 small write: RMW, 2 reads + 2 writes; saturates at 4 members / 4 IOs */
	CHECK(&st, !raid_random_perf(&r5, ms, IO_WRITE, 4096, 0, 1000, false, &p, &err) &&
		   !p.shape.reconstruct && p.shape.reads == 2 && p.shape.writes == 2 &&
		   p.iops > 0.98 * 4 / (2 / 100.0 + 2 / 50.0) && p.iops < 4 / (2 / 100.0 + 2 / 50.0),
	      "RAID 5 write sat %g", p.iops);
	CHECK(&st, !raid_random_perf(&r5x3, ms, IO_WRITE, 4096, 0, 1, false, &p, &err) &&
		   p.shape.reconstruct && p.shape.reads == 1 && p.shape.writes == 2,
	      "3-disk RAID 5: reconstruct-write");
	raid_io_shape(&r6, IO_WRITE, 4096, 0, &p.shape);
	CHECK(&st, p.shape.reads == 3 && p.shape.writes == 3, "RAID 6 RMW");
	/*
	 * Parity RAID reads longer than a row's data: left-symmetric parity puts
	 * consecutive data chunks on every member in turn, so they keep all n
	 * members busy (the plan had the d data members: RAID 5 and 6 planned
	 * 30-70 % above the simulation for 1-4 MiB reads at depth), each member
	 * streaming through its parity chunks: size / d per member in the end.
	 */
	raid_io_shape(&r5, IO_READ, 4 * 65536, 4 * 65536, &p.shape);
	CHECK(&st, p.shape.reads == 4 && p.shape.member_bytes == 65536,
	      "RAID 5 of 4, 4 chunks: %g reads of %llu", p.shape.reads,
	      (unsigned long long)p.shape.member_bytes);
	raid_io_shape(&r5, IO_READ, 64 << 20, 64 << 20, &p.shape);
	CHECK(&st, p.shape.reads == 4 && fabs(p.shape.member_bytes / ((64 << 20) / 3.0) - 1) < 0.01,
	      "RAID 5 of 4, 64 MiB: %g reads of %llu", p.shape.reads,
	      (unsigned long long)p.shape.member_bytes);
	raid_io_shape(&r6, IO_READ, 3 * 65536, 3 * 65536, &p.shape);
	CHECK(&st, p.shape.reads == 3 && p.shape.member_bytes == 65536, "RAID 6 of 6, 3 chunks");
	/*
	 * RAID 5 reads longer than a row: the members busy and the chunks each
	 * reads, against the layout at every start of a whole cycle (RAID 6
	 * keeps the same rule as an approximation: src/model/raid.c).
	 */
	for (unsigned n = 3; n <= 9; n++)
		for (unsigned k = n - 1; k <= 5 * n; k += n > 6 ? 7 : 3) {
			struct raid_layout r = { .level = RAID_5, .disks = n, .stripe = 65536 };
			double busy, span;

			raid5_brute_force(n, k, &busy, &span);
			raid_io_shape(&r, IO_READ, (uint64_t)k * 65536, 65536, &p.shape);
			CHECK(&st, fabs(p.shape.reads - busy) < 1e-9 &&
				   fabs(p.shape.member_bytes - span * 65536) < 512,
			      "RAID 5 of %u, %u chunks: %g reads of %llu, the layout %g of %g chunks",
			      n, k, p.shape.reads, (unsigned long long)p.shape.member_bytes, busy, span);
		}
	/* a full-row write needs no reads */
	raid_io_shape(&r5, IO_WRITE, 3 * 65536, 3 * 65536, &p.shape);
	CHECK(&st, p.shape.reads == 0 && p.shape.writes == 4 && p.shape.phases == 1, "full row");
	raid_first_order(&r5, ms, 45e-3, &fo);
	CHECK(&st, fo.str_bps[IO_WRITE] == 300e6 && fo.str_bps[IO_READ] == 300e6, "STR");
	/* 512 MiB at 4 KiB offsets: a partial row at each end, but for the few aligned ones */
	raid_io_shape(&r5, IO_WRITE, 512 << 20, 4096, &p.shape);
	CHECK(&st, p.shape.partial_rows > 1.95 && p.shape.partial_rows < 2, "%g partial rows",
	      p.shape.partial_rows);
	CHECK(&st, fabs(raid_first_order_seconds(&fo, IO_WRITE, 512 << 20, 4096) -
			(0.02 + p.shape.partial_rows * 45e-3 + (512 << 20) / 300e6)) < 1e-9,
	      "large write: a penalty at each end");
}

static double fast_iops(const void *ctx, enum io_op op, uint64_t size, unsigned depth)
{
	(void)ctx; (void)op; (void)size; (void)depth;
	return 10000;
}

/*
 * Mixed members (--allow-mixed): the plan does not depend on their order.
 * It took the array IO's time alone from the first member, so three disks
 * and an SSD in RAID 0 read at the disks' 100 IOPS at QD1 with a disk first
 * and at thousands with the SSD first; an IO goes to each member alike:
 * 1 / mean(1 / IOPS).
 */
static void test_mixed_order(void)
{
	struct raid_member disk = { "disk", false, 0, { 100e6, 100e6 }, { 0.01, 0.02 }, flat_iops,
				    NULL, { 8.3e-3, 8.9e-3, 5.9e-3, { 0 }, { 0 }, 0 }, false };
	struct raid_member ssd = { "ssd", true, 0, { 200e6, 200e6 }, { 1e-4, 1e-4 }, fast_iops,
				   NULL, { 0, 0, 0, { 0 }, { 0 }, 0 }, false };
	const struct raid_member *first[4] = { &disk, &ssd, &disk, &disk };
	const struct raid_member *last[4] = { &ssd, &disk, &disk, &disk };
	struct raid_layout r0 = { RAID_0, 4, 65536 }, r5 = { RAID_5, 4, 65536 };
	struct raid_perf a, b;
	struct errmsg err;
	double want = 4 / (3 / 100.0 + 1 / 10000.0);

	CHECK(&st, !raid_random_perf(&r0, first, IO_READ, 4096, 0, 1, false, &a, &err) &&
		   fabs(a.iops / want - 1) < 1e-9, "RAID 0 disk first: %g IOPS, expected %g", a.iops,
	      want);
	CHECK(&st, !raid_random_perf(&r0, last, IO_READ, 4096, 0, 1, false, &b, &err) &&
		   fabs(b.iops / want - 1) < 1e-9, "RAID 0 SSD first: %g IOPS, expected %g", b.iops,
	      want);
	for (unsigned qd = 1; qd <= 16; qd *= 4) {
		CHECK(&st, !raid_random_perf(&r5, first, IO_WRITE, 4096, 0, qd, false, &a, &err) &&
			   !raid_random_perf(&r5, last, IO_WRITE, 4096, 0, qd, false, &b, &err) &&
			   fabs(a.iops / b.iops - 1) < 1e-9, "RAID 5 writes at QD%u: %g and %g IOPS",
		      qd, a.iops, b.iops);
	}
}

/*
 * A member that is a delay in front of a 20 us FCFS station (exact MVA):
 * 100 us, or with ctx set a delay growing by 10 % per IO in flight up to 8.
 */
static double split_iops(const void *ctx, enum io_op op, uint64_t size, unsigned depth)
{
	double q = 0, x = 0, z = 100e-6 * (ctx ? 1 + 0.1 * ((depth < 8 ? depth : 8) - 1) : 1);

	(void)op; (void)size;
	for (unsigned n = 1; n <= depth; n++) {
		x = n / (z + 20e-6 * (1 + q));
		q = x * 20e-6 * (1 + q);
	}
	return x;
}

/*
 * Members whose caches take the writes: an array that only writes (RAID 0,
 * 1, 10) writes at their deep-queue rate from QD1 on, each member
 * destaging on its own; parity writes still wait for their reads.
 */
static void test_cached_writes(void)
{
	struct raid_member m = { "cached", false, 0, { 100e6, 100e6 }, { 0.01, 0.005 }, flat_iops,
				 NULL, { 0, 0, 0, { 0 }, { 0 }, 0 }, true };
	const struct raid_member *ms[4] = { &m, &m, &m, &m };
	struct raid_layout r0 = { RAID_0, 3, 65536 }, r10 = { RAID_10, 4, 65536 };
	struct raid_layout r5 = { RAID_5, 4, 65536 };
	struct raid_perf p, q;
	struct errmsg err;

	CHECK(&st, !raid_random_perf(&r0, ms, IO_WRITE, 4096, 4096, 1, false, &p, &err) &&
		   fabs(p.iops - 150) < 1e-6, "RAID 0 of 3 cached: %.2f IOPS at QD1", p.iops);
	CHECK(&st, !raid_random_perf(&r10, ms, IO_WRITE, 4096, 4096, 1, false, &p, &err) &&
		   fabs(p.iops - 100) < 1e-6, "RAID 10 of 4 cached: %.2f IOPS", p.iops);
	m.write_cached = false;
	CHECK(&st, !raid_random_perf(&r0, ms, IO_WRITE, 4096, 4096, 1, false, &q, &err) &&
		   fabs(q.iops - 50) < 1, "RAID 0 of 3 uncached: %.2f IOPS at QD1", q.iops);
	CHECK(&st, !raid_random_perf(&r5, ms, IO_WRITE, 4096, 4096, 1, false, &q, &err), "r5");
	m.write_cached = true;
	CHECK(&st, !raid_random_perf(&r5, ms, IO_WRITE, 4096, 4096, 1, false, &p, &err) &&
		   p.iops == q.iops, "RAID 5: read-modify-write waits for its reads, cache or not");
}

static void test_shared_latency(void)
{
	struct raid_member m = { "split", true, 0, { 0, 0 }, { 0, 0 }, split_iops, NULL, { 0, 0, 0, { 0 }, { 0 }, 0 }, false };
	const struct raid_member *ms[4] = { &m, &m, &m, &m };
	struct raid_layout one = { RAID_0, 1, 65536 }, three = { RAID_0, 3, 65536 };
	struct raid_perf p, q;
	struct errmsg err;

	/* one member: both readings give its own curve back */
	for (unsigned qd = 1; qd <= 64; qd *= 4) {
		CHECK(&st, !raid_random_perf(&one, ms, IO_READ, 4096, 0, qd, true, &p, &err) &&
			   fabs(p.iops / split_iops(NULL, IO_READ, 4096, qd) - 1) < 1e-3,
		      "shared, one member, QD%u: %g vs %g", qd, p.iops, split_iops(NULL, IO_READ, 4096, qd));
		CHECK(&st, !raid_random_perf(&one, ms, IO_READ, 4096, 0, qd, false, &q, &err) &&
			   fabs(q.iops / split_iops(NULL, IO_READ, 4096, qd) - 1) < 1e-9, "member, one");
	}
	/* a constant delay is the same whether each member has it or all share it */
	CHECK(&st, !raid_random_perf(&three, ms, IO_READ, 4096, 0, 8, true, &p, &err) &&
		   !raid_random_perf(&three, ms, IO_READ, 4096, 0, 8, false, &q, &err) &&
		   fabs(p.iops / q.iops - 1) < 1e-3, "QD8: shared %g, member stations %g", p.iops, q.iops);
	/* a delay growing with depth: shared, the array keeps it; per member, it spreads */
	m.ctx = &m;
	CHECK(&st, !raid_random_perf(&three, ms, IO_READ, 4096, 0, 8, true, &p, &err) &&
		   !raid_random_perf(&three, ms, IO_READ, 4096, 0, 8, false, &q, &err) &&
		   p.iops < 0.95 * q.iops && p.iops > split_iops(&m, IO_READ, 4096, 8),
	      "growing delay, QD8: shared %g, member stations %g", p.iops, q.iops);
	m.ctx = NULL;
	CHECK(&st, !raid_random_perf(&three, ms, IO_READ, 4096, 0, 1000, true, &p, &err) &&
		   p.iops > 0.97 * 3 / 20e-6 && p.iops < 3 / 20e-6, "QD1000: %g", p.iops);
}

static void test_link(void)
{
	double bps;

	CHECK(&st, !raid_link_parse("1gbe", &bps) && bps == 1e9, "1gbe");
	CHECK(&st, !raid_link_parse("2.5Gbit", &bps) && bps == 2.5e9, "2.5gbit");
	CHECK(&st, raid_link_parse("fast", &bps) && raid_link_parse("1gb", &bps), "bad links");
	/* plain decimals only, and finite figures: a huge rate made the payload inf, its JSON fail */
	CHECK(&st, raid_link_parse(" 1gbe", &bps) == -EINVAL && raid_link_parse("0x1gbe", &bps) ==
	      -EINVAL && raid_link_parse("-1gbit", &bps) == -EINVAL, "blank, hex, sign");
	CHECK(&st, raid_link_parse("1e300gbit", &bps) == -ERANGE, "1e300gbit");
	CHECK(&st, !raid_link_parse("1000000gbit", &bps) && bps == RAID_LINK_MAX_BPS, "the largest");
	CHECK(&st, !raid_link_parse("1e3mbit", &bps) && bps == 1e9, "1e3mbit");
	check_printed("%.2f", raid_link_payload_bps(1e9, 1500) / 1e6, "941.48", "1GbE, MTU 1500");
	check_printed("%.2f", raid_link_payload_bps(1e9, 9000) / 1e6, "990.04", "1GbE, MTU 9000");
	CHECK(&st, raid_link_payload_bps(1e9, 100) == 0, "MTU 100");
}

static double seek_is_distance(const void *ctx, double x)
{
	(void)ctx;
	return x;
}

static double no_seek(const void *ctx, double x)
{
	(void)ctx;
	(void)x;
	return 0;
}

/*
 * raid_mech: with a seek time equal to the distance, the mean over two
 * uniform positions is 1/3 and the nearer head of the stationary two-head
 * chain 0.162 (a Monte Carlo of the chain gives 0.1617; two independent
 * heads would give 5/24 = 0.208); without seeks, the slowest of k uniform
 * rotational waits is k/(k+1) of a revolution.
 */
static void test_mech(void)
{
	struct raid_mech m, r;
	struct raid_io_shape s = { 0 };
	struct raid_member disk = { "disk", false, 0, { 100e6, 100e6 }, { 0.01, 0.02 }, flat_iops,
				    NULL, { 0, 0, 0, { 0 }, { 0 }, 0 }, false };
	const struct raid_member *ms[4] = { &disk, &disk, &disk, &disk };
	struct raid_layout r1 = { RAID_1, 2, 65536 }, r5 = { RAID_5, 4, 65536 };
	struct raid_perf plain, mech;
	struct errmsg err;

	CHECK(&st, !raid_mech_derive(1.0, 1.0, seek_is_distance, NULL, RAID_MECH_HEADS, &m), "derive");
	CHECK(&st, fabs(m.seek_mean_s - 1.0 / 3) < 0.002, "mean distance %.4f", m.seek_mean_s);
	CHECK(&st, fabs(m.seek_nearer_s - 0.162) < 0.004, "nearer head %.4f", m.seek_nearer_s);
	/*
	 * n-way mirrors: the nearest of 3 and 4 heads of the chain, simulated
	 * (continuous positions, Python: 0.1065 and 0.0792); a RAID 1 of 3
	 * planned its reads with two heads' figure, 10 % below the simulated array
	 */
	CHECK(&st, fabs(raid_mech_nearest_seek(&m, 3) - 0.1065) < 0.004 &&
		   fabs(raid_mech_nearest_seek(&m, 4) - 0.0792) < 0.004, "nearest of 3: %.4f, of 4: %.4f",
	      raid_mech_nearest_seek(&m, 3), raid_mech_nearest_seek(&m, 4));
	CHECK(&st, raid_mech_nearest_seek(&m, 2) == m.seek_nearer_s &&
		   raid_mech_nearest_seek(&m, 64) == raid_mech_nearest_seek(&m, RAID_MECH_HEADS) &&
		   raid_mech_nearest_seek(&m, RAID_MECH_HEADS) < raid_mech_nearest_seek(&m, 4),
	      "2 heads: the chain's; more than RAID_MECH_HEADS: as many");
	CHECK(&st, !raid_mech_derive(0.008, 1.0, no_seek, NULL, RAID_MECH_HEADS, &r), "derive");
	for (unsigned k = 2; k <= 8; k *= 2)
		CHECK(&st, fabs(raid_mech_slowest_excess(&r, k) - raid_mech_rotation_excess(&r, k)) < 2e-6,
		      "slowest of %u waits: %.6f s, closed form %.6f s", k, raid_mech_slowest_excess(&r, k),
		      raid_mech_rotation_excess(&r, k));
	CHECK(&st, raid_mech_slowest_excess(&r, 1) == 0 && raid_mech_rotation_excess(&m, 1) == 0,
	      "one IO: no excess");
	/* the plan with mechanics: mirror reads faster, RMW writes with a rewrite */
	CHECK(&st, !raid_random_perf(&r1, ms, IO_READ, 4096, 4096, 1, false, &plain, &err), "perf");
	CHECK(&st, !raid_mech_derive(0.008, 1.0, seek_is_distance, NULL, RAID_MECH_HEADS,
				     &disk.mech), "derive");
	CHECK(&st, !raid_random_perf(&r1, ms, IO_READ, 4096, 4096, 1, false, &mech, &err), "perf");
	CHECK(&st, fabs(1 / mech.iops - (1 / plain.iops - (disk.mech.seek_mean_s -
	      disk.mech.seek_nearer_s))) < 1e-9, "a mirror read saves the nearer head's seek");
	{
		const struct raid_member *three[3] = { &disk, &disk, &disk };
		struct raid_layout r1x3 = { RAID_1, 3, 65536 };

		CHECK(&st, !raid_random_perf(&r1x3, three, IO_READ, 4096, 4096, 1, false, &mech, &err) &&
			   fabs(1 / mech.iops - (1 / plain.iops - (disk.mech.seek_mean_s -
			   raid_mech_nearest_seek(&disk.mech, 3)))) < 1e-9,
		      "a 3-way mirror read saves the nearest of 3 heads' seek");
	}
	raid_io_shape(&r5, IO_WRITE, 4096, 4096, &s);
	CHECK(&st, s.rewrite && !s.nearer, "a RAID 5 small write rewrites what it read");
	CHECK(&st, !raid_random_perf(&r5, ms, IO_WRITE, 4096, 4096, 1, false, &mech, &err), "perf");
	CHECK(&st, fabs(1 / mech.iops - (1.0 / 100 + raid_mech_slowest_excess(&disk.mech, 2) + 0.008))
	      < 1e-9, "RMW alone: the slower of two reads, then one revolution (%.4f s)", 1 / mech.iops);
}

int main(void)
{
	test_seed_afr();
	test_seed_partial_stripe();
	test_reliability();
	test_layout();
	test_spanned();
	test_mva();
	test_random_perf();
	test_mixed_order();
	test_shared_latency();
	test_cached_writes();
	test_mech();
	test_link();
	return check_exit(&st, "test_raid");
}
