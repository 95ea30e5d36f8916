/*
 * test_drive_model.c — the drive model of src/model/drive_model.h on
 * synthetic points whose true parameters are known: a size sweep at queue
 * depth 4 with a depth curve at 4 KiB predicts every (size, depth) cell; a
 * queue-depth curve alone predicts its size at any depth and refuses other
 * sizes; a negative intercept is held at penalty 0; IOPS and MB/s caps are
 * recovered (the straight line between them too); a write STR far above the read STR is called a cache; and a
 * model with non-physical parameters is refused.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "model/caps.h"
#include "model/drive_model.h"
#include "model/points.h"

static double rel_err(double x, double truth)
{
	return fabs(x - truth) / fabs(truth);
}

/* The truth: R(size, q) = (pen + size/str) * (1 + (q - 1) k), k = 0.15. */
#define PEN 100e-6
#define STR 200e6
#define K 0.15

static double true_iops(uint64_t size, unsigned q)
{
	return q / ((PEN + (double)size / STR) * (1 + (q - 1) * K));
}

static void add(struct point_set *ps, enum io_op op, uint64_t size, unsigned q, double iops)
{
	struct perf_point p = { .op = op, .random = true, .size = size, .qd = q, .iops = iops };

	point_set_add(ps, &p);
}

/* The worst relative IOPS error of m over sizes 4 KiB..1 MiB (x `step`) and depths 1..64. */
static double worst_error(struct check_state *st, const struct drive_model *m, uint64_t step)
{
	struct prediction p;
	struct errmsg err;
	double worst = 0;

	for (uint64_t s = 4096; s <= 1 << 20; s *= step)
		for (unsigned q = 1; q <= 64; q *= 2) {
			CHECK(st, drive_model_predict(m, IO_READ, s, q, 0, &p, &err) == 0,
			      "predict %llu at %u: %s", (unsigned long long)s, q, err.text);
			worst = fmax(worst, rel_err(p.iops, true_iops(s, q)));
		}
	return worst;
}

static void test_depth_round_trip(struct check_state *st)
{
	struct point_set ps;
	struct drive_model m;
	struct prediction p;
	struct errmsg err;
	double worst;

	point_set_init(&ps);
	for (uint64_t s = 4096; s <= 1 << 20; s *= 2)	/* the size sweep at QD 4 only */
		add(&ps, IO_READ, s, 4, true_iops(s, 4));
	for (unsigned q = 1; q <= 32; q *= 2)		/* the depth curve at 4 KiB */
		if (q != 4)
			add(&ps, IO_READ, 4096, q, true_iops(4096, q));
	CHECK(st, drive_model_fit(&ps, &m, &err) == 0, "fit: %s", err.text);
	CHECK(st, m.op[IO_READ].has_first_order && m.op[IO_READ].fit_qd == 4,
	      "the size model is at depth 4 (%u)", m.op[IO_READ].fit_qd);
	/* per slot at depth 4 everything takes g(4) = 1 + 3 k times as long */
	CHECK(st, rel_err(m.op[IO_READ].fit.str_bps, STR / (1 + 3 * K)) < 1e-6 &&
	      rel_err(m.op[IO_READ].fit.penalty_s, PEN * (1 + 3 * K)) < 1e-6,
	      "per-slot STR %g, penalty %g", m.op[IO_READ].fit.str_bps,
	      m.op[IO_READ].fit.penalty_s);
	CHECK(st, m.op[IO_READ].n_points == ps.len, "every point kept (%zu of %zu)",
	      m.op[IO_READ].n_points, ps.len);
	worst = worst_error(st, &m, 4);
	CHECK(st, worst < 1e-6, "every size at every depth from QD 4 and the curve (%.2g)",
	      worst);
	CHECK(st, drive_model_predict(&m, IO_WRITE, 4096, 1, 0, &p, &err) == -EINVAL,
	      "no write model: %s", err.text);
	drive_model_release(&m);
	point_set_release(&ps);
}

/* Sweeps at QD 1 and QD 16, the curve at 4 KiB: depths between come from both fits. */
static void test_between_depths(struct check_state *st)
{
	struct drive_model m;
	struct errmsg err;
	struct point_set ps;
	double worst;

	point_set_init(&ps);
	for (uint64_t s = 4096; s <= 1 << 20; s *= 4) {
		add(&ps, IO_READ, s, 1, true_iops(s, 1));
		add(&ps, IO_READ, s, 16, true_iops(s, 16));
	}
	add(&ps, IO_READ, 4096, 4, true_iops(4096, 4));
	CHECK(st, drive_model_fit(&ps, &m, &err) == 0, "fit: %s", err.text);
	CHECK(st, m.op[IO_READ].n_depths == 2 && m.op[IO_READ].fit_qd == 1,
	      "two depth fits, the main one at QD 1");
	worst = worst_error(st, &m, 2);
	CHECK(st, worst < 1e-6, "every size at every depth, between the fits too (%.2g)", worst);
	drive_model_release(&m);
	point_set_release(&ps);
}

static void test_qd_curve_only(struct check_state *st)
{
	struct point_set ps;
	struct drive_model m;
	struct prediction p;
	struct errmsg err;

	point_set_init(&ps);
	for (unsigned q = 1; q <= 64; q *= 4)
		add(&ps, IO_READ, 4096, q, true_iops(4096, q));
	CHECK(st, drive_model_fit(&ps, &m, &err) == 0, "fit: %s", err.text);
	CHECK(st, !m.op[IO_READ].has_first_order && m.op[IO_READ].has_qd, "a depth curve only");
	CHECK(st, drive_model_predict(&m, IO_READ, 4096, 8, 0, &p, &err) == 0 &&
	      rel_err(p.iops, true_iops(4096, 8)) < 1e-6, "4 KiB at depth 8 (never measured)");
	CHECK(st, drive_model_predict(&m, IO_READ, 8192, 8, 0, &p, &err) == -EINVAL &&
	      strstr(err.text, "4096 bytes"), "another size refused: %s", err.text);
	drive_model_release(&m);
	point_set_release(&ps);
}

static void test_negative_penalty_held(struct check_state *st)
{
	struct point_set ps;
	struct drive_model m;
	struct prediction p;
	struct errmsg err;

	point_set_init(&ps);
	add(&ps, IO_READ, 4096, 1, 1000);	/* 1 ms, then 4 ms: the line crosses 0 at 2730 B */
	add(&ps, IO_READ, 8192, 1, 250);
	CHECK(st, drive_model_fit(&ps, &m, &err) == 0, "fit: %s", err.text);
	CHECK(st, m.op[IO_READ].fit.penalty_s == 0 && m.op[IO_READ].fit.penalty_clamped &&
	      m.op[IO_READ].fit.free_penalty_s < -1.9e-3, "penalty held at 0 (free %g)",
	      m.op[IO_READ].fit.free_penalty_s);
	CHECK(st, m.op[IO_READ].two_point.penalty_s == 0, "two-point penalty held at 0");
	CHECK(st, drive_model_predict(&m, IO_READ, 512, 1, 0, &p, &err) == 0 && p.iops > 0 &&
	      p.mean_lat_s > 0, "512 B predicts a positive rate");
	drive_model_release(&m);
	point_set_release(&ps);
}

/*
 * A capped volume: 200 us + size / 200 MB/s, at most 3000 IOPS and 125 MB/s;
 * the line shows between 26.6 and 66.7 KB (32 and 64 KiB), the caps outside.
 */
static void test_caps(struct check_state *st)
{
	struct point_set ps;
	struct drive_model m;
	struct prediction p;
	struct errmsg err;
	const struct depth_fit *d;

	point_set_init(&ps);
	for (uint64_t s = 512; s <= 4 << 20; s *= 2) {
		double t = fmax(fmax(200e-6 + (double)s / 200e6, 1.0 / 3000), (double)s / 125e6);

		add(&ps, IO_READ, s, 1, 1 / t);
	}
	CHECK(st, drive_model_fit(&ps, &m, &err) == 0, "fit: %s", err.text);
	d = op_model_nearest_depth(&m.op[IO_READ], 1);
	CHECK(st, d && (d->fails_low || d->fails_high) && d->line_rms > 0.1,
	      "the line alone fails (rms %g)", d ? d->line_rms : 0);
	CHECK(st, d && d->has_caps && rel_err(d->caps.iops, 3000) < 0.01 &&
	      rel_err(d->caps.bps, 125e6) < 0.01, "caps %g IOPS, %g B/s",
	      d ? d->caps.iops : 0, d ? d->caps.bps : 0);
	CHECK(st, d && rel_err(d->fit.str_bps, 200e6) < 0.01 &&
	      rel_err(d->fit.penalty_s, 200e-6) < 0.01, "the line between: %g s + size / %g",
	      d ? d->fit.penalty_s : 0, d ? d->fit.str_bps : 0);
	CHECK(st, drive_model_predict(&m, IO_READ, 8 << 20, 1, 0, &p, &err) == 0 && p.capped &&
	      rel_err(p.mib_s * 1048576, 125e6) < 0.01, "8 MiB held at the MB/s cap");
	CHECK(st, drive_model_predict(&m, IO_READ, 48 << 10, 1, 0, &p, &err) == 0 && !p.capped &&
	      rel_err(1 / p.iops, 200e-6 + 49152 / 200e6) < 0.01, "48 KiB on the line");
	drive_model_release(&m);
	point_set_release(&ps);
}

static void test_write_cache(struct check_state *st)
{
	struct point_set ps;
	struct drive_model m;
	struct errmsg err;

	point_set_init(&ps);
	for (uint64_t s = 4096; s <= 1 << 20; s *= 4) {
		add(&ps, IO_READ, s, 1, 1 / (100e-6 + (double)s / 500e6));
		add(&ps, IO_WRITE, s, 1, 1 / (20e-6 + (double)s / 5e9));
	}
	CHECK(st, drive_model_fit(&ps, &m, &err) == 0, "fit: %s", err.text);
	CHECK(st, m.cache.absorbs && !m.cache.above_interface, "writes 10x reads: a cache");
	drive_model_release(&m);
	point_set_release(&ps);
}

static void test_check(struct check_state *st)
{
	struct depth_fit d = { .qd = 1, .fit = { .penalty_s = 1e-4, .str_bps = 1e8 } };
	struct drive_model m = { 0 };
	struct prediction p;
	struct errmsg err;

	caps_none(&d.caps);
	m.op[IO_READ].depths = &d;
	m.op[IO_READ].n_depths = 1;
	m.op[IO_READ].has_first_order = true;
	m.op[IO_READ].fit = d.fit;
	CHECK(st, drive_model_check(&m, &err) == 0, "a physical model passes");
	CHECK(st, drive_model_predict(&m, IO_READ, 4096, 1, 0, &p, &err) == 0, "and predicts");
	d.fit.penalty_s = -1e-3;
	CHECK(st, drive_model_check(&m, &err) == -EINVAL && strstr(err.text, "penalty"),
	      "negative penalty: %s", err.text);
	d.fit.penalty_s = 0;
	d.fit.str_bps = 0;
	CHECK(st, drive_model_check(&m, &err) == -EINVAL && strstr(err.text, "STR"),
	      "zero STR: %s", err.text);
	d.fit.str_bps = 1e8;
	m.op[IO_READ].has_qd = true;
	m.op[IO_READ].qd = (struct qd_model){ .t1_s = 1e-4, .sat_iops = -5 };
	CHECK(st, drive_model_check(&m, &err) == -EINVAL && strstr(err.text, "saturation"),
	      "negative saturation: %s", err.text);
	m.op[IO_READ].qd.sat_iops = INFINITY;
	CHECK(st, drive_model_check(&m, &err) == 0, "no saturation is physical");
}

int main(void)
{
	struct check_state st = { 0, 0 };

	test_depth_round_trip(&st);
	test_between_depths(&st);
	test_qd_curve_only(&st);
	test_negative_penalty_held(&st);
	test_caps(&st);
	test_write_cache(&st);
	test_check(&st);
	return check_exit(&st, "drive_model");
}
