/* test_profile.c — the plan and the verdict of a transfer-rate profile (suite/profile.h). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "suite/profile.h"

/* A zoned disk: rate linear in radius, data growing with its square (as the HDD model). */
static void zoned(double *rate, size_t n, double outer, double inner)
{
	for (size_t i = 0; i < n; i++) {
		double share = (double)i / (double)(n - 1);
		double r2 = 1 - share * (1 - (inner / outer) * (inner / outer));

		rate[i] = outer * sqrt(r2);
	}
}

static void shape_checks(struct check_state *st)
{
	double rate[100], mirror[100];
	struct profile_verdict v;
	const double flat[] = { 500, 505, 498, 502, 500, 499, 501, 500, 503, 497 };
	const double dips[] = { 500, 500, 200, 500, 500, 500, 500, 180, 500, 500 };
	const double mild[] = { 110, 108, 106, 104, 102, 100, 100, 100, 100, 100 };

	zoned(rate, 100, 120, 60);
	profile_judge(rate, 100, &v);
	CHECK(st, v.shape == PROFILE_FALLING && v.outer_inner_ratio > 1.8 && v.mid_excess > 0,
	      "zoned: %s ratio %g excess %g", profile_shape_name(v.shape), v.outer_inner_ratio,
	      v.mid_excess);
	for (size_t i = 0; i < 100; i++)
		mirror[i] = rate[99 - i];
	profile_judge(mirror, 100, &v);
	CHECK(st, v.shape == PROFILE_RISING && v.outer_inner_ratio < 0.56, "mirrored: %s %g",
	      profile_shape_name(v.shape), v.outer_inner_ratio);
	profile_judge(flat, 10, &v);
	CHECK(st, v.shape == PROFILE_FLAT && fabs(v.spread - 8.0 / 500.5) < 1e-9, "flat: %s %g",
	      profile_shape_name(v.shape), v.spread);
	profile_judge(dips, 10, &v);
	CHECK(st, v.shape == PROFILE_UNEVEN && v.spread > 0.7, "dips: %s %g",
	      profile_shape_name(v.shape), v.spread);
	/* 10 % down: below the 1.15 threshold, and a spread under 30 %: flat */
	profile_judge(mild, 10, &v);
	CHECK(st, v.shape == PROFILE_FLAT, "mild slope: %s %g", profile_shape_name(v.shape),
	      v.outer_inner_ratio);
	CHECK(st, !strcmp(profile_shape_name(PROFILE_UNEVEN), "uneven") &&
		  !strcmp(profile_shape_name(PROFILE_RISING), "rising"), "names");
}

static void region_checks(struct check_state *st)
{
	uint64_t off, len, size = (uint64_t)1 << 30, bs = 1 << 20;

	profile_point_region(size, bs, 100, 0, &off, &len);
	CHECK(st, off == 0 && len == 10 * bs, "first: %llu %llu", (unsigned long long)off,
	      (unsigned long long)len);
	profile_point_region(size, bs, 100, 99, &off, &len);
	CHECK(st, off + len <= size && off % bs == 0, "last inside: %llu %llu",
	      (unsigned long long)off, (unsigned long long)len);
	/* more points than blocks: each region is one block, all inside */
	profile_point_region(4 * bs, bs, 10, 9, &off, &len);
	CHECK(st, len == bs && off + len <= 4 * bs, "tiny: %llu %llu", (unsigned long long)off,
	      (unsigned long long)len);
}

int main(void)
{
	struct check_state st = { 0, 0 };

	shape_checks(&st);
	region_checks(&st);
	return check_exit(&st, "profile");
}
