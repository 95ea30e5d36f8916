/*
 * test_model.c — the models of src/model/: the seeds' reference values
 * (spec/MISSION.md) reproduced to the digits shown, the weighted fits on
 * exact, noisy and perturbed synthetic sweeps, the expected erase-block
 * merges against enumeration, the erase-block and queue-depth fits, and
 * refusal of unusable input.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "model/erase_block.h"
#include "model/first_order.h"
#include "model/points.h"
#include "model/queue_depth.h"
#include "util/units.h"

#define KIB 1024.0
#define NSIZES 21		/* 512 B .. 512 MiB, powers of two */

/* x shown with `digits` decimals equals `shown` */
static int same_digits(double x, double shown, int digits)
{
	double k = pow(10, digits);

	return llround(x * k) == llround(shown * k);
}

static double rel_err(double x, double truth)
{
	return fabs(x - truth) / fabs(truth);
}

/* Deterministic uniform noise in [-1, 1) (64-bit LCG, top bits). */
static double noise(uint64_t *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(*state >> 11) / 4503599627370496.0 - 1.0;
}

static struct perf_point point(enum io_op op, uint64_t size, double seconds)
{
	struct perf_point p = { .op = op, .random = true, .size = size, .qd = 1,
				.iops = 1.0 / seconds };
	return p;
}

static void test_two_point(struct check_state *st)
{
	struct first_order m;
	const uint64_t s2 = 700ULL << 20;

	CHECK(st, first_order_two_point(512, 2170.88, s2, 0.174214, &m, NULL) == 0, "read");
	printf("RiDATA read: STR %.6f KiB/s = %.6f MiB/s, penalty %.6f ms\n",
	       m.str_bps / KIB, m.str_bps / MIB, m.penalty_s * 1e3);
	CHECK(st, same_digits(m.str_bps / KIB, 124886.53, 2), "%.4f", m.str_bps / KIB);
	CHECK(st, same_digits(m.str_bps / MIB, 121.96, 2), "%.4f", m.str_bps / MIB);
	CHECK(st, same_digits(m.penalty_s * 1e3, 0.457, 3), "%.5f", m.penalty_s * 1e3);
	CHECK(st, m.str_lo_bps == m.str_bps && m.str_hi_bps == m.str_bps, "exact intervals");

	CHECK(st, first_order_two_point(512, 4.04, s2, 0.097486, &m, NULL) == 0, "write");
	printf("RiDATA write: STR %.6f KiB/s = %.6f MiB/s, penalty %.6f ms\n",
	       m.str_bps / KIB, m.str_bps / MIB, m.penalty_s * 1e3);
	CHECK(st, same_digits(m.str_bps / KIB, 71605.78, 2), "%.4f", m.str_bps / KIB);
	CHECK(st, same_digits(m.str_bps / MIB, 69.93, 2), "%.4f", m.str_bps / MIB);
	CHECK(st, same_digits(m.penalty_s * 1e3, 247.5, 1), "%.4f", m.penalty_s * 1e3);

	/* the order of the two sizes does not matter */
	CHECK(st, first_order_two_point(s2, 0.097486, 512, 4.04, &m, NULL) == 0, "swapped");
	CHECK(st, same_digits(m.str_bps / KIB, 71605.78, 2), "%.4f", m.str_bps / KIB);
}

static void check_penalty(struct check_state *st, const char *name, double iops,
			  double str_kib, double shown, int digits)
{
	double ms = first_order_penalty(512, iops, str_kib * KIB) * 1e3;

	printf("%s: %.6f ms\n", name, ms);
	CHECK(st, same_digits(ms, shown, digits), "%s: %.5f ms", name, ms);
}

static void test_reference_penalties(struct check_state *st)
{
	double c;

	check_penalty(st, "OCZ Core read penalty", 2220, 128000, 0.447, 3);
	check_penalty(st, "WD6400AAKS read penalty", 77.77, 87040, 12.85, 2);
	check_penalty(st, "OCZ Core write penalty", 4.07, 74514, 245.7, 1);
	check_penalty(st, "WD6400AAKS write penalty, cache on", 143, 87040, 6.99, 2);
	check_penalty(st, "WD6400AAKS write penalty, cache off", 58.6, 87040, 17.06, 2);

	c = erase_block_upper_bound(0.2457, 72.768 * MIB, 125 * MIB) / MIB;
	printf("OCZ Core cluster size: %.6f MiB\n", c);
	CHECK(st, same_digits(c, 11.3, 1), "%.4f MiB", c);
}

/* A sweep of NSIZES sizes from seconds = pen + size / str, times (1 + amp * noise). */
static void make_sweep(struct perf_point *p, double pen, double str, double amp,
		       uint64_t seed)
{
	for (int k = 0; k < NSIZES; k++) {
		uint64_t size = 512ULL << k;
		double t = pen + (double)size / str;

		p[k] = point(IO_READ, size, t * (1 + amp * noise(&seed)));
	}
}

static void test_fit_exact(struct check_state *st)
{
	struct perf_point p[NSIZES + 1];
	struct fit_residual res[NSIZES + 1];
	struct first_order m;
	const double pen = 0.3e-3, str = 100e6;
	int ret;

	make_sweep(p, pen, str, 0, 1);
	p[NSIZES] = p[3];	/* a repeated size is used too */
	ret = first_order_fit(p, NSIZES + 1, &m, res, NULL);
	CHECK(st, ret == 0, "ret %d", ret);
	CHECK(st, rel_err(m.penalty_s, pen) < 1e-9, "penalty %.12g", m.penalty_s);
	CHECK(st, rel_err(m.str_bps, str) < 1e-9, "str %.12g", m.str_bps);
	CHECK(st, rel_err(m.str_lo_bps, str) < 1e-9 && rel_err(m.str_hi_bps, str) < 1e-9,
	      "str interval %.12g .. %.12g", m.str_lo_bps, m.str_hi_bps);
	CHECK(st, m.n == NSIZES + 1 && m.rms_rel_residual < 1e-9, "rms %g", m.rms_rel_residual);
	for (int k = 0; k <= NSIZES; k++)
		CHECK(st, !res[k].fails && fabs(res[k].rel_residual) < 1e-9, "point %d", k);
	CHECK(st, rel_err(first_order_seconds(&m, 1 << 20), pen + (1 << 20) / str) < 1e-9,
	      "seconds");

	/* two points: an exact fit, intervals equal the estimate */
	p[1] = p[NSIZES - 1];
	ret = first_order_fit(p, 2, &m, NULL, NULL);
	CHECK(st, ret == 0 && m.penalty_lo_s == m.penalty_s && m.penalty_hi_s == m.penalty_s &&
		  m.str_lo_bps == m.str_bps && m.str_hi_bps == m.str_bps, "n = 2");
	CHECK(st, rel_err(m.str_bps, str) < 1e-9, "str %.12g", m.str_bps);
}

static void test_fit_noisy(struct check_state *st)
{
	struct perf_point p[NSIZES];
	struct fit_residual res[NSIZES];
	struct first_order m;
	const double pen = 0.45e-3, str = 125 * MIB;
	bool any_fails = false;
	int ret;

	make_sweep(p, pen, str, 0.03, 42);
	ret = first_order_fit(p, NSIZES, &m, res, NULL);
	CHECK(st, ret == 0, "ret %d", ret);
	printf("noisy fit: penalty %.6f ms [%.6f, %.6f], STR %.4f MiB/s [%.4f, %.4f], rms %.4f\n",
	       m.penalty_s * 1e3, m.penalty_lo_s * 1e3, m.penalty_hi_s * 1e3, m.str_bps / MIB,
	       m.str_lo_bps / MIB, m.str_hi_bps / MIB, m.rms_rel_residual);
	CHECK(st, m.penalty_lo_s <= pen && pen <= m.penalty_hi_s, "penalty interval");
	CHECK(st, m.str_lo_bps <= str && str <= m.str_hi_bps, "str interval");
	CHECK(st, m.penalty_lo_s < m.penalty_s && m.str_lo_bps < m.str_bps, "intervals open");
	for (int k = 0; k < NSIZES; k++)
		any_fails |= res[k].fails;
	CHECK(st, !any_fails, "a point of the noisy sweep is flagged");

	p[12].iops /= 1.5;	/* 2 MiB takes 50 % longer */
	ret = first_order_fit(p, NSIZES, &m, res, NULL);
	CHECK(st, ret == 0 && res[12].fails, "perturbed point residual %.3f",
	      res[12].rel_residual);
	for (int k = 0; k < NSIZES; k++)
		CHECK(st, k == 12 || !res[k].fails, "point %d flagged (%.3f)", k,
		      res[k].rel_residual);
}

static void test_fit_errors(struct check_state *st)
{
	struct perf_point p[3] = { point(IO_WRITE, 4096, 0.01), point(IO_WRITE, 4096, 0.02),
				   point(IO_WRITE, 1 << 20, 0.03) };
	struct first_order m;
	struct errmsg err = { "" };

	CHECK(st, first_order_fit(p, 2, &m, NULL, &err) == -EINVAL, "one size");
	CHECK(st, !strcmp(err.text, "fewer than two request sizes for write"), "%s", err.text);
	p[1].iops = 0;
	CHECK(st, first_order_fit(p, 3, &m, NULL, &err) == -EINVAL, "zero rate");
	CHECK(st, !strcmp(err.text, "a rate of 0 IOPS at 4096 bytes"), "%s", err.text);
	p[1].iops = NAN;
	CHECK(st, first_order_fit(p, 3, &m, NULL, &err) == -EINVAL, "nan rate");
	p[1] = point(IO_READ, 8192, 0.01);
	CHECK(st, first_order_fit(p, 3, &m, NULL, &err) == -EINVAL, "mixed ops: %s", err.text);
	p[1] = point(IO_WRITE, 8192, 0.5);	/* larger sizes faster */
	p[2] = point(IO_WRITE, 1 << 20, 0.001);
	CHECK(st, first_order_fit(p, 3, &m, NULL, &err) == -EINVAL, "negative STR");
	printf("negative STR refused: %s\n", err.text);
	CHECK(st, first_order_fit(p, 0, &m, NULL, &err) == -EINVAL, "no points");
	CHECK(st, first_order_two_point(512, 4, 512, 2, &m, &err) == -EINVAL, "same size");
	CHECK(st, first_order_two_point(512, 0, 4096, 2, &m, &err) == -EINVAL, "zero rate");
	CHECK(st, !strcmp(err.text, "a rate of 0 IOPS at 512 bytes"), "%s", err.text);
	CHECK(st, first_order_two_point(512, 1, 4096, 2, &m, &err) == -EINVAL, "faster");
}

/* E[merges] by enumerating every residue of the offsets mod c. */
static double enumerate_merges(uint64_t size, uint64_t align, uint64_t c)
{
	uint64_t sum = 0, n = 0, r = 0;

	do {
		if (r + size <= c)
			sum += (r != 0 || r + size != c) ? 1 : 0;
		else
			sum += (r != 0) + ((r + size) % c != 0);
		n++;
		r = (r + align) % c;
	} while (r != 0);
	return (double)sum / (double)n;
}

static void test_merges_enumerated(struct check_state *st)
{
	static const uint64_t units[] = { 512, 4096, 65536, 5 * 65536, 1 << 20, 45 << 18 };
	static const uint64_t aligns[] = { 512, 1024, 4096, 3 * 4096, 65536, 1 << 20 };
	static const uint64_t sizes[] = { 512, 4096, 5000 / 512 * 512, 65536, 3 << 18,
					  1 << 20, (1 << 20) + 512, 45 << 18, 50 << 20 };

	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++)
		for (size_t a = 0; a < sizeof(aligns) / sizeof(aligns[0]); a++)
			for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
				double e = erase_block_expected_merges(sizes[s], aligns[a],
								       (double)units[u]);
				double x = enumerate_merges(sizes[s], aligns[a], units[u]);

				CHECK(st, fabs(e - x) < 1e-12, "size %llu align %llu C %llu: %.15g vs %.15g",
				      (unsigned long long)sizes[s], (unsigned long long)aligns[a],
				      (unsigned long long)units[u], e, x);
			}
}

static void test_merges(struct check_state *st)
{
	const double c = MIB;
	double e;

	CHECK(st, erase_block_expected_merges(1 << 20, 1 << 20, c) == 0, "whole unit");
	CHECK(st, erase_block_expected_merges(2 << 20, 1 << 20, c) == 0, "two whole units");
	CHECK(st, erase_block_expected_merges(0, 512, c) == 0, "empty write");
	/* small write at 512-aligned offsets: 1 + (S - 512) / C */
	e = erase_block_expected_merges(4096, 512, c);
	CHECK(st, fabs(e - (1 + 3584 / c)) < 1e-15, "4 KiB: %.15g", e);
	CHECK(st, erase_block_expected_merges(4096, 4096, c) == 1, "aligned 4 KiB");
	CHECK(st, erase_block_expected_merges(4096, 0, c) == e, "align 0 means 512");
	/* a whole unit at 512-aligned offsets: 0 once, 2 otherwise */
	e = erase_block_expected_merges(1 << 20, 512, c);
	CHECK(st, fabs(e - (2 - 2 * 512 / c)) < 1e-15, "unit-sized: %.15g", e);
	/* spanning units, start and end aligned only at r = 0 / nowhere */
	e = erase_block_expected_merges((3 << 20) + 512, 4096, c);
	CHECK(st, fabs(e - (2 - 1.0 / 256)) < 1e-15, "unaligned end: %.15g", e);
	e = erase_block_expected_merges((3 << 20) + 512, 512, c);
	CHECK(st, fabs(e - (2 - 2.0 / 2048)) < 1e-15, "aligned end once: %.15g", e);
	/* align = C/2: residues 0 and C/2 */
	e = erase_block_expected_merges((3 << 20) + 512, 1 << 19, c);
	CHECK(st, e == 1.5, "C/2, 3C + 512: %.15g", e);
	e = erase_block_expected_merges((5 << 20) / 2, 1 << 19, c);
	CHECK(st, e == 1.0, "C/2, 2.5C: %.15g", e);
	e = erase_block_expected_merges(1 << 18, 1 << 19, c);
	CHECK(st, e == 1.0, "C/2, C/4: %.15g", e);
	/* C is rounded to 512 bytes; a huge C with a small align is exact and fast */
	CHECK(st, erase_block_expected_merges(4096, 512, c + 100) ==
		  erase_block_expected_merges(4096, 512, c), "rounding");
	e = erase_block_expected_merges(4096, 512, 1e15);
	CHECK(st, fabs(e - 1) < 1e-11, "C = 1e15: %.15g", e);
	test_merges_enumerated(st);
}

static const struct erase_block_model ocz_like = {
	.detected = true, .unit_bytes = 11.25 * MIB, .penalty_s = 0.3e-3,
	.write_bps = 73 * MIB, .read_bps = 125 * MIB,
	.merge_s = 11.25 * MIB / (73 * MIB) + 11.25 * MIB / (125 * MIB),
};

static void eb_sweep(struct perf_point *p, const struct erase_block_model *m, double amp)
{
	uint64_t seed = 7;

	for (int k = 0; k < NSIZES; k++) {
		uint64_t size = 512ULL << k;
		double t = erase_block_seconds(m, size, size);

		p[k] = point(IO_WRITE, size, t * (1 + amp * noise(&seed)));
	}
}

static void test_erase_block_fit(struct check_state *st)
{
	struct perf_point p[NSIZES];
	struct erase_block_model m;
	struct errmsg err = { "" };
	int ret;

	eb_sweep(p, &ocz_like, 0);
	ret = erase_block_fit(p, NSIZES, 125 * MIB, &m, &err);
	CHECK(st, ret == 0, "ret %d: %s", ret, err.text);
	printf("erase block, exact data: C %.6f MiB, penalty %.6f ms, W %.6f MiB/s, "
	       "rms %.3g (first order %.4f), detected %d\n", m.unit_bytes / MIB,
	       m.penalty_s * 1e3, m.write_bps / MIB, m.rms_rel_residual, m.first_order_rms,
	       m.detected);
	CHECK(st, m.detected, "not detected");
	CHECK(st, m.unit_bytes / ocz_like.unit_bytes < 1.05 &&
		  ocz_like.unit_bytes / m.unit_bytes < 1.05, "C %.4f MiB", m.unit_bytes / MIB);

	eb_sweep(p, &ocz_like, 0.03);
	ret = erase_block_fit(p, NSIZES, 125 * MIB, &m, &err);
	printf("erase block, 3 %% noise: C %.6f MiB, penalty %.6f ms, W %.6f MiB/s, "
	       "rms %.4f (first order %.4f), detected %d\n", m.unit_bytes / MIB,
	       m.penalty_s * 1e3, m.write_bps / MIB, m.rms_rel_residual, m.first_order_rms,
	       m.detected);
	/* C trades against the penalty: 3 % noise moves it by up to ~10 % */
	CHECK(st, ret == 0 && m.detected, "noisy: not detected");
	CHECK(st, m.unit_bytes / ocz_like.unit_bytes < 1.15 &&
		  ocz_like.unit_bytes / m.unit_bytes < 1.15, "C %.4f MiB", m.unit_bytes / MIB);

	make_sweep(p, 0.3e-3, 73 * MIB, 0, 1);
	for (int k = 0; k < NSIZES; k++)
		p[k].op = IO_WRITE;
	ret = erase_block_fit(p, NSIZES, 125 * MIB, &m, &err);
	printf("erase block, first-order data: C %.6f MiB, rms %.4f (first order %.3g), "
	       "detected %d\n", m.unit_bytes / MIB, m.rms_rel_residual, m.first_order_rms,
	       m.detected);
	CHECK(st, ret == 0 && !m.detected, "first-order data: detected");
	make_sweep(p, 0.3e-3, 73 * MIB, 0.03, 5);
	ret = erase_block_fit(p, NSIZES, 125 * MIB, &m, &err);
	CHECK(st, ret == 0 && !m.detected, "noisy first-order data: detected");

	CHECK(st, erase_block_fit(p, 1, 125 * MIB, &m, &err) == -EINVAL, "one point");
	CHECK(st, !strcmp(err.text, "fewer than two request sizes for write"), "%s", err.text);
	CHECK(st, erase_block_fit(p, NSIZES, 0, &m, &err) == -EINVAL, "no read STR");
	p[3].iops = -1;
	CHECK(st, erase_block_fit(p, NSIZES, 125 * MIB, &m, &err) == -EINVAL, "negative rate");
}

static struct perf_point qd_point(unsigned q, double iops)
{
	struct perf_point p = point(IO_READ, 4096, 1.0 / iops);

	p.qd = q;
	p.iops = iops;
	return p;
}

static void test_qd_synthetic(struct check_state *st)
{
	struct perf_point p[6];
	struct qd_model m;
	const double t1 = 5e-3, sat = 300;
	int ret;

	for (int k = 0; k < 6; k++) {
		double q = 1 << k;

		p[k] = qd_point(1u << k, q / (t1 + (q - 1) / sat));
	}
	ret = qd_fit(p, 6, &m, NULL);
	CHECK(st, ret == 0 && rel_err(m.t1_s, t1) < 1e-9 && rel_err(m.sat_iops, sat) < 1e-9,
	      "t1 %.12g sat %.12g", m.t1_s, m.sat_iops);
	CHECK(st, rel_err(m.gain32, 32 * t1 / (t1 + 31 / sat)) < 1e-9, "gain %.12g", m.gain32);
	CHECK(st, m.n == 6 && m.rms_rel_residual < 1e-9, "rms %g", m.rms_rel_residual);
	ret = qd_fit(p + 1, 5, &m, NULL);	/* no QD1 point */
	CHECK(st, ret == 0 && rel_err(m.t1_s, t1) < 1e-9 && rel_err(m.sat_iops, sat) < 1e-9,
	      "from q = 2: t1 %.12g sat %.12g", m.t1_s, m.sat_iops);
	CHECK(st, rel_err(qd_iops(&m, 1), 1 / t1) < 1e-9, "X(1) %.12g", qd_iops(&m, 1));

	for (int k = 0; k < 6; k++)	/* throughput linear in q: no saturation */
		p[k] = qd_point(1u << k, (1 << k) / t1);
	ret = qd_fit(p, 6, &m, NULL);
	CHECK(st, ret == 0 && isinf(m.sat_iops) && rel_err(m.gain32, 32) < 1e-9,
	      "linear: sat %g gain %g", m.sat_iops, m.gain32);
}

static void test_qd_errors(struct check_state *st)
{
	struct perf_point p[2] = { qd_point(1, 100), qd_point(1, 110) };
	struct qd_model m;
	struct errmsg err = { "" };

	CHECK(st, qd_fit(p, 2, &m, &err) == -EINVAL, "one depth");
	CHECK(st, !strcmp(err.text, "fewer than two queue depths"), "%s", err.text);
	p[1].qd = 4;
	p[1].size = 8192;
	CHECK(st, qd_fit(p, 2, &m, &err) == -EINVAL, "mixed sizes");
	printf("mixed sizes refused: %s\n", err.text);
	p[1].size = 4096;
	p[1].iops = INFINITY;
	CHECK(st, qd_fit(p, 2, &m, &err) == -EINVAL, "infinite rate");
	p[1].iops = 100;
	p[0].qd = 0;
	CHECK(st, qd_fit(p, 2, &m, &err) == -EINVAL, "depth 0");
	CHECK(st, qd_fit(p, 0, &m, &err) == -EINVAL, "no points");
}

/*
 * fio 3.1, libaio, 4 KiB random reads of a 7200 rpm HGST disk, numjobs 1:
 * ../shared/data/fio-plot/hgst-7k2-hdd/randread-<iodepth>-1.json, "read" "iops".
 */
static void test_qd_fio(struct check_state *st)
{
	static const unsigned depth[] = { 1, 2, 4, 8, 16, 32 };
	static const double iops[] = { 58.581449, 59.83205, 64.732626,
				       72.210575, 77.383128, 82.228995 };
	struct perf_point p[6];
	struct qd_model m;
	int ret;

	for (int k = 0; k < 6; k++)
		p[k] = qd_point(depth[k], iops[k]);
	ret = qd_fit(p, 6, &m, NULL);
	printf("hgst-7k2-hdd randread: t1 %.6f ms (X(1) %.4f IOPS), X_sat %.4f IOPS, "
	       "gain32 %.4f, rms %.4f\n", m.t1_s * 1e3, 1 / m.t1_s, m.sat_iops, m.gain32,
	       m.rms_rel_residual);
	CHECK(st, ret == 0 && m.gain32 >= 1.2 && m.gain32 <= 1.6, "gain32 %g", m.gain32);
}

static void test_point_set(struct check_state *st)
{
	struct point_set ps;
	bool ok = true;

	point_set_init(&ps);
	for (unsigned i = 0; i < 100; i++) {
		struct perf_point p = qd_point(i + 1, 10 + i);

		CHECK(st, point_set_add(&ps, &p) == 0, "add %u", i);
	}
	for (unsigned i = 0; i < 100; i++)
		ok &= ps.points[i].qd == i + 1 && ps.points[i].iops == 10 + i;
	CHECK(st, ps.len == 100 && ps.alloc >= 100 && ok, "contents");
	point_set_release(&ps);
	CHECK(st, ps.len == 0 && ps.points == NULL, "release");
}

int main(void)
{
	struct check_state st = { 0, 0 };

	test_two_point(&st);
	test_reference_penalties(&st);
	test_fit_exact(&st);
	test_fit_noisy(&st);
	test_fit_errors(&st);
	test_merges(&st);
	test_erase_block_fit(&st);
	test_qd_synthetic(&st);
	test_qd_errors(&st);
	test_qd_fio(&st);
	test_point_set(&st);
	return check_exit(&st, "model");
}
