/* series.c — measuring sweep plans with progress and notices (series.h). */
#include "series.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/live_status.h"
#include "engine/merge.h"
#include "util/units.h"

void series_init(struct series *s, struct measure_target *m,
		 const volatile sig_atomic_t *stop, size_t total_jobs, bool keep_json)
{
	*s = (struct series){ .m = m, .stop = stop, .jobs = 1 };
	progress_init(&s->progress, total_jobs);
	point_set_init(&s->points);
	s->runs = keep_json ? json_array() : NULL;
}

void series_release(struct series *s)
{
	progress_end(&s->progress);
	point_set_release(&s->points);
	json_decref(s->runs);
	s->runs = NULL;
}

void series_default_bounds(const struct measure_target *m, struct sweep_plan *plan)
{
	if (m->t.kind == TARGET_SIM) {
		plan->point_ns = 600 * NSEC_PER_SEC;	/* virtual: costs only the events */
		plan->point_ios = 20000;
		plan->point_bytes = 8ULL << 30;
	} else {
		plan->point_ns = 2 * NSEC_PER_SEC;
		plan->point_ios = 5000;
		plan->point_bytes = 0;
	}
}

/* The `jobs` specs of one point, checked: 0 or -EINVAL with a message. */
static int point_specs(const struct measure_target *m, struct job_spec *job, unsigned jobs,
		       bool split, struct job_spec *specs, struct errmsg *err)
{
	int ret = measure_check_job(m, job, err);

	if (!ret)
		ret = jobs_specs_from(job, jobs, split, specs, err);
	for (unsigned i = 0; i < jobs && !ret; i++)
		ret = measure_check_job(m, &specs[i], err);
	return ret;
}

int series_check(const struct measure_target *m, const struct sweep_plan *plan, unsigned jobs,
		 bool split)
{
	struct job_spec *specs = calloc(jobs, sizeof(*specs));
	size_t n = sweep_count(plan);
	int status = specs ? EXIT_OK : EXIT_FAILED;

	for (size_t i = 0; i < n && status == EXIT_OK; i++) {
		struct job_spec job;
		struct errmsg err;

		sweep_job(plan, i, &job);
		if (point_specs(m, &job, jobs, split, specs, &err)) {
			fprintf(stderr, "iomodel: %s\n", err.text);
			status = EXIT_BAD_INPUT;
		}
	}
	free(specs);
	return status;
}

/* The point's results: into the JSON runs and the points. An exit status. */
static int keep_point(struct series *s, const struct job_spec *job, struct run_info *info,
		      const struct run_result *merged)
{
	struct job_spec all = *job;

	if (s->runs)
		json_array_append_new(s->runs, run_to_json(info, merged));
	all.qd = info->total_qd;	/* the points' queue depth: IOs outstanding in all */
	if (sweep_add_points(&all, merged, &s->points)) {
		fprintf(stderr, "iomodel: out of memory\n");
		return EXIT_FAILED;
	}
	return merged->interrupted ? EXIT_INTERRUPTED : EXIT_OK;
}

/* Run one point's jobs; results go to the series. Returns an exit status. */
static int measure_job(struct series *s, struct job_spec *job, const char *rw,
		       const char *what, struct job_spec *specs, struct jobs_result *res)
{
	struct run_info info = { .rw = rw };
	struct live_status live;
	struct jobs_options jo = { .tick = live_status_tick, .tick_ctx = &live };
	struct errmsg err = { 0 };
	int ret;

	if (point_specs(s->m, job, s->jobs, s->split, specs, &err)) {
		progress_end(&s->progress);
		fprintf(stderr, "iomodel: %s\n", err.text);
		return EXIT_BAD_INPUT;
	}
	live_status_start(&live, &s->progress, what, s->m->t.kind == TARGET_SIM,
			  job->runtime_ns + job->ramp_ns);
	ret = jobs_run(s->m, specs, s->jobs, &jo, s->stop, res, &info, &err);
	if (s->m->n_notices > s->notices_printed)
		progress_end(&s->progress);
	print_new_notices(s->m, &s->notices_printed);
	info.spec = job;
	job->qd = specs[0].qd;
	info.split = s->split;
	s->last_info = info;
	if (ret) {
		progress_end(&s->progress);
		return info.engine ? report_job_error(s->jobs > 1 ? "job" : NULL, res->failed_job,
						      &res->job[res->failed_job], &err)
				   : (fprintf(stderr, "iomodel: %s\n", err.text), EXIT_FAILED);
	}
	return keep_point(s, job, &info, &res->merged);
}

/* One point (its `jobs` jobs); the merged result also into `r` when given. */
static int measure_point(struct series *s, struct job_spec *job, const char *rw,
			 const char *what, struct run_result *r)
{
	struct job_spec *specs = calloc(s->jobs, sizeof(*specs));
	struct jobs_result res;
	int status;

	if (!specs || jobs_result_init(&res, s->jobs)) {
		free(specs);
		fprintf(stderr, "iomodel: out of memory\n");
		return EXIT_FAILED;
	}
	status = measure_job(s, job, rw, what, specs, &res);
	if (r && (status == EXIT_OK || status == EXIT_INTERRUPTED || status == EXIT_FAILED) &&
	    run_result_merge(r, &res.merged)) {
		fprintf(stderr, "iomodel: out of memory\n");
		status = EXIT_FAILED;
	}
	jobs_result_release(&res);
	free(specs);
	return status;
}

int series_run_job(struct series *s, struct job_spec *job, const char *rw,
		   struct run_result *r)
{
	return measure_point(s, job, rw, rw, r);
}

int series_measure(struct series *s, const struct sweep_plan *plan, const char *rw)
{
	size_t n = sweep_count(plan);
	int status = EXIT_OK;

	for (size_t i = 0; i < n && status == EXIT_OK; i++) {
		struct job_spec job;
		char what[80], size[32];

		sweep_job(plan, i, &job);
		format_size(size, sizeof(size), job.bs);
		snprintf(what, sizeof(what), "%zu/%zu %s %s QD%u", s->done + 1, s->progress.total,
			 rw, size, job.qd);
		progress_update(&s->progress, s->done, what + strcspn(what, " ") + 1);
		status = measure_point(s, &job, rw, what, NULL);
		s->done++;
	}
	progress_update(&s->progress, s->done, "");
	return status;
}

static void round_figures(const struct job_spec *job, const struct run_result *r,
			  struct steady_round *out)
{
	const struct op_result *op = &r->op[job->read_pct ? IO_READ : IO_WRITE];
	double secs = (double)r->elapsed_ns / 1e9;

	*out = (struct steady_round){ 0 };
	if (secs <= 0 || !op->ios)
		return;
	out->iops = (double)op->ios / secs;
	out->mib_s = (double)op->bytes / secs / MIB;
	out->mean_lat_s = hist_mean(&op->lat) / 1e9;
}

int series_until_steady(struct series *s, struct job_spec *job, const char *rw,
			const struct steady_rule *rule, struct run_result *r,
			struct steady_result *out)
{
	size_t max = rule->max_rounds < STEADY_MAX_ROUNDS ? rule->max_rounds : STEADY_MAX_ROUNDS;
	double iops[STEADY_MAX_ROUNDS];
	uint64_t seed = job->seed;
	int status = EXIT_OK;

	memset(out, 0, sizeof(*out));
	while (out->n < max && !out->eval.reached && status == EXIT_OK) {
		char what[80];

		snprintf(what, sizeof(what), "%s round %zu", rw, out->n + 1);
		progress_update(&s->progress, s->done, what);
		job->seed = seed + out->n;
		run_result_release(r);
		run_result_init(r);
		status = series_run_job(s, job, rw, r);
		s->done++;
		if (status != EXIT_OK)
			break;
		round_figures(job, r, &out->rounds[out->n]);
		iops[out->n] = out->rounds[out->n].iops;
		out->n++;
		steady_state_check(rule, iops, out->n, &out->eval);
	}
	job->seed = seed;
	return status;
}
