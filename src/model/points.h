/*
 * points.h — measured performance points, whatever produced them: an
 * iomodel sweep, iomodel run results, fio JSON output or a CSV table. The
 * models (first_order.h, erase_block.h, queue_depth.h) consume these and
 * never look at devices or files.
 *
 * A point is one (operation, request size, outstanding IOs) cell with its
 * throughput. Where the source has it, the mean latency is kept too, and
 * (fio) the latency percentiles and how the outstanding IOs were split
 * between jobs: 4 jobs at iodepth 8 and 1 job at iodepth 32 both have qd 32
 * but behave differently; and (fio json+) the latency distribution.
 */
#ifndef IOMODEL_POINTS_H
#define IOMODEL_POINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/io_request.h"
#include "util/lat_keys.h"

/* What a point's latency percentiles and distribution measure (fio's names). */
enum point_lat_kind {
	POINT_LAT_CLAT = 0,	/* completion latency: submission to completion (clat) */
	POINT_LAT_TOTAL,	/* total latency, slat + clat (fio lat_percentiles=1 alone) */
};

/*
 * A latency distribution (CDF) reduced to at most LAT_CDF_MAX steps: frac[k]
 * of the IOs completed within lat_s[k] seconds, exactly (fio json+ bins,
 * import_fio_lat.c). The steps are the first histogram bucket reaching each
 * of the levels lat_cdf_levels[] (the smallest bucket, 1 %, 2.5 %, 5 %, every
 * 5 % to 90 %, …, 99.999 %, 100 %), duplicates merged.
 * Invariants: n == 0 (unknown) or 1 <= n <= LAT_CDF_MAX; lat_s[] > 0 and
 * frac[] in (0, 1] rise strictly with k; frac[n - 1] == 1.
 */
#define LAT_CDF_MAX 31
struct lat_cdf {
	unsigned n;
	double lat_s[LAT_CDF_MAX];
	double frac[LAT_CDF_MAX];
};

/* The levels of struct lat_cdf's steps, as fractions, rising from 0 to 1. */
extern const double lat_cdf_levels[LAT_CDF_MAX];

/* Whether `c` keeps its invariants (n == 0 counts as kept). */
bool lat_cdf_valid(const struct lat_cdf *c);

struct perf_point {
	enum io_op op;		/* IO_READ or IO_WRITE */
	bool random;		/* random offsets (false: sequential; true when unknown) */
	uint64_t size;		/* bytes per IO */
	unsigned qd;		/* IOs outstanding in total (iodepth x jobs) */
	double iops;		/* > 0 */
	double mean_lat_s;	/* mean latency per IO in s, 0 when unknown */
	uint64_t align;		/* offset alignment in bytes, 0 when unknown */
	/* how the qd was made, where the source says (fio): qd = iodepth x jobs */
	unsigned iodepth;	/* IOs each job keeps in flight; 0 when unknown */
	unsigned jobs;		/* jobs (processes, threads) issuing them; 0 when unknown */
	/* latency (lat_kind) at the levels of util/lat_keys.h (p50 … p99.9), s; 0 when unknown */
	double clat_pct_s[LAT_PCTS];
	enum point_lat_kind lat_kind;	/* of clat_pct_s and cdf */
	struct lat_cdf cdf;		/* n == 0 when unknown */
};

struct point_set {
	struct perf_point *points;
	size_t len;
	size_t alloc;
};

void point_set_init(struct point_set *ps);
void point_set_release(struct point_set *ps);
/* Returns 0 or -ENOMEM. */
int point_set_add(struct point_set *ps, const struct perf_point *p);

/* IOs in flight per job: iodepth, or qd when the source did not say. */
static inline unsigned point_iodepth(const struct perf_point *p)
{
	return p->iodepth ? p->iodepth : p->qd;
}

/* Jobs issuing the IOs: jobs, or 1 when the source did not say. */
static inline unsigned point_jobs(const struct perf_point *p)
{
	return p->jobs ? p->jobs : 1;
}

/*
 * Seconds per IO per slot: with qd IOs outstanding each slot turns over
 * qd / iops seconds apart (Little's law), so this is the response time of
 * one IO, and 1 / iops at queue depth 1. The first-order model at a depth is
 * fitted to it.
 */
static inline double point_seconds(const struct perf_point *p)
{
	return (p->qd > 1 ? (double)p->qd : 1.0) / p->iops;
}

#endif
