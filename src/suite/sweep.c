/* sweep.c — the jobs of a sweep, and their points (sweep.h). */
#include "sweep.h"

#include <string.h>

static size_t doublings(uint64_t lo, uint64_t hi)
{
	size_t n = 1;

	while (lo < hi && lo <= UINT64_MAX / 2) {
		lo *= 2;
		n += lo <= hi;
	}
	return n;
}

size_t sweep_count(const struct sweep_plan *p)
{
	return doublings(p->min_bs, p->max_bs) * doublings(p->min_qd, p->max_qd);
}

void sweep_job(const struct sweep_plan *p, size_t i, struct job_spec *job)
{
	size_t sizes = doublings(p->min_bs, p->max_bs);

	memset(job, 0, sizeof(*job));
	job->random = p->random;
	job->read_pct = p->read_pct;
	job->bs = p->min_bs << (i % sizes);
	job->align = job->bs;
	job->qd = p->min_qd << (i / sizes);
	job->runtime_ns = p->point_ns;
	job->max_ios = p->point_ios;
	job->max_bytes = p->point_bytes;
	job->seed = p->seed + i;
}

int sweep_add_points(const struct job_spec *job, const struct run_result *r,
		     struct point_set *ps)
{
	for (int op = IO_READ; op <= IO_WRITE; op++) {
		const struct op_result *o = &r->op[op];
		struct perf_point p;
		int ret;

		if (!o->ios || !r->elapsed_ns)
			continue;
		p = (struct perf_point){
			.op = (enum io_op)op, .random = job->random, .size = job->bs,
			.qd = job->qd, .iops = (double)o->ios * 1e9 / (double)r->elapsed_ns,
			.mean_lat_s = hist_mean(&o->lat) / 1e9, .align = job->align,
		};
		ret = point_set_add(ps, &p);
		if (ret)
			return ret;
	}
	return 0;
}
