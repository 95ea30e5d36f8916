/*
 * sweep.h — a series of jobs on one target: every request size from min_bs
 * to max_bs (doubling) at every queue depth from min_qd to max_qd
 * (doubling), each job bounded by time and by IO count, whichever comes
 * first, so a sweep of a slow drive still ends. And the conversion of each
 * job's results into performance points for the models.
 */
#ifndef IOMODEL_SWEEP_H
#define IOMODEL_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "model/points.h"

struct sweep_plan {
	bool random;
	unsigned read_pct;		/* 100 reads, 0 writes */
	uint64_t min_bs, max_bs;
	unsigned min_qd, max_qd;
	uint64_t point_ns;		/* time bound of each job */
	uint64_t point_ios;		/* IO bound of each job */
	uint64_t point_bytes;		/* byte bound of each job, 0 for none */
	uint64_t seed;
};

/* How many jobs the plan has. */
size_t sweep_count(const struct sweep_plan *p);

/* Job `i` of the plan (sizes vary fastest). Region: the whole target. */
void sweep_job(const struct sweep_plan *p, size_t i, struct job_spec *job);

/* Add the job's measured points (one per operation type with IOs) to `ps`. */
int sweep_add_points(const struct job_spec *job, const struct run_result *r,
		     struct point_set *ps);

#endif
