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
 * but behave differently.
 */
#ifndef IOMODEL_POINTS_H
#define IOMODEL_POINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/io_request.h"
#include "util/lat_keys.h"

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
	/* completion latency at the levels of util/lat_keys.h (p50 … p99.9), s; 0 when unknown */
	double clat_pct_s[LAT_PCTS];
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
