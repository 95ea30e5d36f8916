/*
 * points.h — measured performance points, whatever produced them: an
 * iomodel sweep, iomodel run results, fio JSON output or a CSV table. The
 * models (first_order.h, erase_block.h, queue_depth.h) consume these and
 * never look at devices or files.
 *
 * A point is one (operation, request size, outstanding IOs) cell with its
 * throughput. Where the source has it, the mean latency is kept too.
 */
#ifndef IOMODEL_POINTS_H
#define IOMODEL_POINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/io_request.h"

struct perf_point {
	enum io_op op;		/* IO_READ or IO_WRITE */
	bool random;		/* random offsets (false: sequential; true when unknown) */
	uint64_t size;		/* bytes per IO */
	unsigned qd;		/* IOs outstanding in total (iodepth x jobs) */
	double iops;		/* > 0 */
	double mean_lat_s;	/* mean latency per IO in s, 0 when unknown */
	uint64_t align;		/* offset alignment in bytes, 0 when unknown */
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
