/*
 * run_cmd.c — `iomodel run`: open the target (a file, a device, null or a
 * simulated drive; suite/measure.h), check the job against it, run it and
 * print the results. A file created for the run is removed again, also when
 * a check fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/live_status.h"
#include "cli/run_options.h"
#include "cli/signals.h"
#include "io/run_output.h"
#include "suite/jobs.h"
#include "suite/measure.h"

static int print_results(const struct run_options *o, const struct run_info *info,
			 const struct run_result *r)
{
	switch (o->format) {
	case OUTPUT_JSON:
		return run_output_json(stdout, info, r);
	case OUTPUT_CSV:
		return run_output_csv(stdout, info, r);
	case OUTPUT_TABLE:
		break;
	}
	return run_output_table(stdout, info, r);
}

int exit_status_of_error(int ret)
{
	if (ret == -EINTR)
		return EXIT_INTERRUPTED;	/* turned into 128 + signal by the caller */
	return ret == -EIO || ret == -ENOSPC || ret == -ENOMEM ? EXIT_FAILED : EXIT_BAD_INPUT;
}

void print_new_notices(const struct measure_target *m, unsigned *printed)
{
	for (; *printed < m->n_notices; (*printed)++)
		fprintf(stderr, "iomodel: notice: %s\n", m->notices[*printed].text);
}

int report_job_error(const char *label, unsigned index, const struct run_result *r,
		     const struct errmsg *err)
{
	const struct run_error *e = &r->error;
	char who[32] = "";

	if (label)
		snprintf(who, sizeof(who), "%s %u: ", label, index);
	if (!e->set) {
		fprintf(stderr, "iomodel: %s\n", err->text);
	} else if (e->result < 0) {
		fprintf(stderr, "iomodel: %s%s error at offset %llu: %s\n", who,
			io_op_name(e->op), (unsigned long long)e->offset,
			strerror((int)-e->result));
	} else {
		fprintf(stderr, "iomodel: %sshort %s at offset %llu: %lld of %u bytes\n", who,
			io_op_name(e->op), (unsigned long long)e->offset,
			(long long)e->result, e->length);
	}
	return EXIT_FAILED;
}

int report_run_error(const struct run_result *r, const struct errmsg *err)
{
	return report_job_error(NULL, 0, r, err);
}

/* The specs of the run's jobs, each checked against the target: 0 or an exit status. */
static int make_specs(struct run_options *o, const struct measure_target *m,
		      struct job_spec *specs)
{
	struct errmsg err;

	if (jobs_specs_from(&o->spec, o->jobs.jobs, o->jobs.split, specs, &err))
		return bad("%s", err.text);
	for (unsigned i = 0; i < o->jobs.jobs; i++)
		if (measure_check_job(m, &specs[i], &err))
			return bad("%s", err.text);
	return 0;
}

static void per_job_info(const struct run_options *o, struct run_info *info,
			 const struct job_spec *specs, const struct jobs_result *res, int *cpus)
{
	info->spec = &o->spec;
	info->split = o->jobs.split;
	info->job_label = "job";
	for (unsigned i = 0; o->jobs.n_cpus && i < o->jobs.jobs; i++)
		cpus[i] = o->jobs.cpus[i % o->jobs.n_cpus];
	info->job_cpus = o->jobs.n_cpus ? cpus : NULL;
	if (o->jobs.per_job) {
		info->job_specs = specs;
		info->job_results = res->job;
	}
}

static int finish_run(const struct run_options *o, struct run_info *info,
		      const struct jobs_result *res, int ret, const struct errmsg *err)
{
	int status;

	if (ret && !info->engine) {	/* nothing ran: no results to print */
		fprintf(stderr, "iomodel: %s\n", err->text);
		return EXIT_FAILED;
	}
	status = !ret ? (res->merged.interrupted ? EXIT_INTERRUPTED : EXIT_OK)
		 : report_job_error(o->jobs.jobs > 1 ? "job" : NULL, res->failed_job,
				    &res->job[res->failed_job], err);
	if (print_results(o, info, &res->merged) && status == EXIT_OK)
		status = EXIT_FAILED;
	return status;
}

static int run_jobs(struct run_options *o, struct measure_target *m,
		    const volatile sig_atomic_t *stop, struct job_spec *specs, int *cpus)
{
	struct run_info info = { .rw = o->rw };
	struct live_status live;
	struct jobs_options jo = { .cpus = o->jobs.n_cpus ? o->jobs.cpus : NULL,
				   .n_cpus = o->jobs.n_cpus, .tick = live_status_tick,
				   .tick_ctx = &live };
	struct jobs_result res;
	struct errmsg err = { 0 };
	unsigned printed = 0;
	int ret = make_specs(o, m, specs);

	if (ret)
		return ret;
	if (jobs_result_init(&res, o->jobs.jobs)) {
		fprintf(stderr, "iomodel: out of memory\n");
		return EXIT_FAILED;
	}
	live_status_start(&live, NULL, NULL, m->t.kind == TARGET_SIM,
			  o->spec.runtime_ns ? o->spec.runtime_ns + o->spec.ramp_ns : 0);
	ret = jobs_run(m, specs, o->jobs.jobs, &jo, stop, &res, &info, &err);
	live_status_end(&live);
	print_new_notices(m, &printed);
	o->spec.qd = specs[0].qd;	/* psync may have lowered it */
	per_job_info(o, &info, specs, &res, cpus);
	ret = finish_run(o, &info, &res, ret, &err);
	jobs_result_release(&res);
	return ret;
}

static int run_job(struct run_options *o, struct measure_target *m,
		   const volatile sig_atomic_t *stop)
{
	struct job_spec *specs = calloc(o->jobs.jobs, sizeof(*specs));
	int *cpus = calloc(o->jobs.jobs, sizeof(*cpus));
	int status;

	if (!specs || !cpus) {
		fprintf(stderr, "iomodel: out of memory\n");
		status = EXIT_FAILED;
	} else {
		status = run_jobs(o, m, stop, specs, cpus);
	}
	free(specs);
	free(cpus);
	return status;
}

int cmd_run(int argc, char **argv)
{
	const volatile sig_atomic_t *stop;
	struct measure_target m;
	struct run_options o;
	struct errmsg err;
	int ret;

	ret = parse_run_options(&o, argc, argv);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	stop = signals_install_stop();
	o.target.stop = stop;
	ret = measure_open(&m, &o.target, o.engine, o.spec.seed, &err);
	if (ret) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		ret = exit_status_of_error(ret);
		return ret == EXIT_INTERRUPTED && *stop ? 128 + *stop : ret;
	}
	if (!o.length_set)
		o.spec.length = 0;
	ret = measure_check_job(&m, &o.spec, &err);
	if (ret) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		ret = EXIT_BAD_INPUT;
	} else {
		ret = run_job(&o, &m, stop);
	}
	measure_close(&m);
	return ret == EXIT_INTERRUPTED && *stop ? 128 + *stop : ret;
}
