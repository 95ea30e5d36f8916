/* series.c — measuring sweep plans with progress and notices (series.h). */
#include "series.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "util/units.h"

void series_init(struct series *s, struct measure_target *m,
		 const volatile sig_atomic_t *stop, size_t total_jobs, bool keep_json)
{
	*s = (struct series){ .m = m, .stop = stop };
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

int series_check(const struct measure_target *m, const struct sweep_plan *plan)
{
	size_t n = sweep_count(plan);

	for (size_t i = 0; i < n; i++) {
		struct job_spec job;
		struct errmsg err;

		sweep_job(plan, i, &job);
		if (measure_check_job(m, &job, &err)) {
			fprintf(stderr, "iomodel: %s\n", err.text);
			return EXIT_BAD_INPUT;
		}
	}
	return EXIT_OK;
}

int series_run_job(struct series *s, struct job_spec *job, const char *rw,
		   struct run_result *r)
{
	struct run_info info = { .rw = rw };
	struct errmsg err;
	int ret;

	ret = measure_check_job(s->m, job, &err);
	if (ret) {
		progress_end(&s->progress);
		fprintf(stderr, "iomodel: %s\n", err.text);
		return EXIT_BAD_INPUT;
	}
	ret = measure_run(s->m, job, s->stop, r, &info, &err);
	s->last_info = info;
	if (s->m->n_notices > s->notices_printed)
		progress_end(&s->progress);
	print_new_notices(s->m, &s->notices_printed);
	if (ret) {
		progress_end(&s->progress);
		return info.engine ? report_run_error(r, &err)
				   : (fprintf(stderr, "iomodel: %s\n", err.text), EXIT_FAILED);
	}
	if (s->runs)
		json_array_append_new(s->runs, run_to_json(&info, r));
	if (sweep_add_points(job, r, &s->points)) {
		fprintf(stderr, "iomodel: out of memory\n");
		return EXIT_FAILED;
	}
	return r->interrupted ? EXIT_INTERRUPTED : EXIT_OK;
}

int series_measure(struct series *s, const struct sweep_plan *plan, const char *rw)
{
	struct run_result *r = malloc(sizeof(*r));
	size_t n = sweep_count(plan);
	int status = EXIT_OK;

	if (!r) {
		fprintf(stderr, "iomodel: out of memory\n");
		return EXIT_FAILED;
	}
	for (size_t i = 0; i < n && status == EXIT_OK; i++) {
		struct job_spec job;
		char what[80], size[32];

		sweep_job(plan, i, &job);
		format_size(size, sizeof(size), job.bs);
		snprintf(what, sizeof(what), "%s %s QD%u", rw, size, job.qd);
		progress_update(&s->progress, s->done, what);
		run_result_init(r);
		status = series_run_job(s, &job, rw, r);
		run_result_release(r);
		s->done++;
	}
	progress_update(&s->progress, s->done, "");
	free(r);
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
