/*
 * run_cmd.c — `iomodel run`: open the target (a file, a device, null or a
 * simulated drive; suite/measure.h), check the job against it, run its jobs
 * (suite/jobs.h) and print the results. A file created for the run is
 * removed again, also when a check fails.
 *
 * Launched by mpirun, every step that can fail is followed by an agreement
 * of the ranks (cli/ranks.h), so that all ranks go on or all stop, and rank
 * 0 prints the first failing rank's message; the results of all ranks are
 * gathered to rank 0 and printed as one record. Standalone, the agreements
 * and the gathering are the rank's own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/commands.h"
#include "cli/live_status.h"
#include "cli/ranks.h"
#include "cli/fio_job_file.h"
#include "cli/run_options.h"
#include "cli/series.h"
#include "cli/signals.h"
#include "io/run_output.h"
#include "engine/merge.h"
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

/* A job's failed IO (or `err` when no IO failed) as one line, without "iomodel: ". */
static void job_error_text(struct errmsg *out, const char *label, unsigned index,
			   const struct run_result *r, const struct errmsg *err)
{
	const struct run_error *e = &r->error;
	char who[32] = "";

	if (label)
		snprintf(who, sizeof(who), "%s %u: ", label, index);
	if (!e->set)
		errmsg_set(out, -EIO, "%s%s", who, err->text);
	else if (e->result < 0)
		errmsg_set(out, -EIO, "%s%s error at offset %llu: %s", who, io_op_name(e->op),
			   (unsigned long long)e->offset, strerror((int)-e->result));
	else
		errmsg_set(out, -EIO, "%sshort %s at offset %llu: %lld of %u bytes", who,
			   io_op_name(e->op), (unsigned long long)e->offset,
			   (long long)e->result, e->length);
}

int report_job_error(const char *label, unsigned index, const struct run_result *r,
		     const struct errmsg *err)
{
	struct errmsg line;

	job_error_text(&line, label, index, r, err);
	fprintf(stderr, "iomodel: %s\n", line.text);
	return EXIT_FAILED;
}

int report_run_error(const struct run_result *r, const struct errmsg *err)
{
	return report_job_error(NULL, 0, r, err);
}

int report_io_error(const struct run_error *e, const struct errmsg *err)
{
	struct run_result r = { .error = *e };

	return report_job_error(NULL, 0, &r, err);
}

/* Under mpirun with --split, this rank's slice of the region. 0 or -EINVAL. */
static int rank_slice(struct job_spec *spec, const struct ranks *rk, struct errmsg *err)
{
	struct job_spec *slices = calloc((size_t)rk->size, sizeof(*slices));
	int ret = slices ? jobs_specs_from(spec, (unsigned)rk->size, true, slices, err) : -ENOMEM;

	if (!ret) {
		spec->offset = slices[rk->rank].offset;
		spec->length = slices[rk->rank].length;
	} else if (ret == -ENOMEM) {
		errmsg_set(err, ret, "out of memory");
	} else {
		errmsg_set(err, ret, "%s (split over %d ranks)", err->text, rk->size);
	}
	free(slices);
	return ret;
}

/*
 * --verify: every job verifies a region of its own, so jobs are split; so
 * are ranks that share one target (a file or device named without %r), and
 * job i of rank r is the run's stream r·jobs + i (verify.h).
 */
static bool verify_split_ranks(const struct run_options *o, const struct measure_target *m)
{
	return o->spec.verify && !o->rank_target &&
	       (m->t.kind == TARGET_FILE || m->t.kind == TARGET_BLOCK);
}

/* The specs of the run's jobs, each checked against the target: 0 or an exit status. */
static int make_specs(struct run_options *o, const struct ranks *rk,
		      const struct measure_target *m, struct job_spec *specs, struct errmsg *err)
{
	bool split_ranks = o->jobs.split || verify_split_ranks(o, m);

	if (!o->length_set)
		o->spec.length = 0;
	if (measure_check_job(m, &o->spec, err))
		return EXIT_BAD_INPUT;
	if (o->spec.verify && o->jobs.jobs > 1)
		o->jobs.split = true;
	o->spec.verify_stream = (unsigned)rk->rank * o->jobs.jobs;
	if (rk->size > 1 && split_ranks && rank_slice(&o->spec, rk, err))
		return EXIT_BAD_INPUT;
	/* every job of every rank its own seed: rank r's job i gets the seed of job r·jobs + i */
	o->spec.seed = (o->spec.seed + (uint64_t)rk->rank * o->jobs.jobs * 0x9e3779b97f4a7c15ULL) &
		       INT64_MAX;
	if (jobs_specs_from(&o->spec, o->jobs.jobs, o->jobs.split, specs, err))
		return EXIT_BAD_INPUT;
	for (unsigned i = 0; i < o->jobs.jobs; i++)
		if (measure_check_job(m, &specs[i], err))
			return EXIT_BAD_INPUT;
	return jobs_check_verify(m, specs, o->jobs.jobs, err) ? EXIT_BAD_INPUT : EXIT_OK;
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
		info->job_nodes = res->node;
	}
}

/* Rank 0: the ranks' results merged into `all` + size, fastest and slowest. */
static int merge_ranks(const struct ranks *rk, struct run_result *all, struct job_spec *specs,
		       bool per_rank, unsigned outstanding, struct ranks_report *rr)
{
	struct run_result *merged = &all[rk->size];

	*rr = (struct ranks_report){ .count = (unsigned)rk->size, .fastest_ns = UINT64_MAX,
				     .outstanding = outstanding * (unsigned)rk->size };
	for (int i = 0; i < rk->size; i++) {
		if (run_result_merge(merged, &all[i]))
			return -ENOMEM;
		verify_result_merge(&merged->verify, &all[i].verify);	/* rank 0 reports */
		if (all[i].elapsed_ns < rr->fastest_ns) {
			rr->fastest_ns = all[i].elapsed_ns;
			rr->fastest = (unsigned)i;
		}
		if (all[i].elapsed_ns >= rr->slowest_ns) {
			rr->slowest_ns = all[i].elapsed_ns;
			rr->slowest = (unsigned)i;
		}
	}
	if (per_rank) {
		rr->specs = specs;
		rr->results = all;
	}
	return 0;
}

/*
 * Gather the ranks' results and print them (rank 0). `verify` receives what
 * --verify found: on rank 0 of mpirun, on every rank; elsewhere this rank's.
 * Returns an exit status.
 */
static int print_ranks(const struct run_options *o, const struct ranks *rk,
		       struct run_info *info, const struct run_result *mine, int status,
		       struct verify_result *verify)
{
	struct run_result *all = calloc((size_t)rk->size + 1, sizeof(*all));
	struct job_spec *specs = calloc((size_t)rk->size, sizeof(*specs));
	struct ranks_report rr;
	int ret = all && specs ? 0 : -ENOMEM;

	for (int i = 0; !ret && i <= rk->size; i++)
		run_result_init(&all[i]);
	if (!ret)
		ret = ranks_gather(rk, mine, info->spec, all, specs);
	if (!ret && rk->mpi && !rk->rank)
		ret = merge_ranks(rk, all, specs, o->jobs.per_job, info->total_qd, &rr);
	if (!ret && rk->mpi) {
		info->ranks = &rr;
		info->job_specs = NULL;		/* the rows are the ranks' */
		info->job_results = NULL;
	}
	if (!ret && !rk->rank && print_results(o, info, rk->mpi ? &all[rk->size] : mine))
		ret = -EIO;
	*verify = !ret && rk->mpi && !rk->rank ? all[rk->size].verify : mine->verify;
	for (int i = 0; all && specs && i <= rk->size; i++)
		run_result_release(&all[i]);
	free(all);
	free(specs);
	return ret && status == EXIT_OK ? EXIT_FAILED : status;
}

/* --verify found bad blocks: one line on stderr, exit status 1. */
static int report_verify_failures(const struct verify_result *v, int status)
{
	char line[640];

	if (!v->failures)
		return status;
	verify_summary(line, sizeof(line), v);
	fprintf(stderr, "iomodel: verify: %s\n", line);
	return status == EXIT_OK ? EXIT_FAILED : status;
}

/* A write run's generation: the wall clock in ns, new for every run. */
static uint64_t new_generation(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * A run whose IOs all completed at the instant they were submitted (a
 * simulated write-back cache with no time per command took them all) has
 * no rate to show: IOPS and MiB/s print as 0. Say so rather than let 0 read
 * as a figure.
 */
static const char zero_time_notice[] =
	"the IOs took no time on the virtual clock (a simulated write-back cache "
	"took them all): IOPS and MiB/s are not measured (0); run more IOs than the "
	"cache holds, or give the controller a time per command (controller_us)";

static bool took_no_time(const struct run_result *r)
{
	return r->elapsed_ns == 0 && r->op[IO_READ].ios + r->op[IO_WRITE].ios > 0;
}

static int run_jobs(struct run_options *o, const struct ranks *rk, struct measure_target *m,
		    const volatile sig_atomic_t *stop, struct job_spec *specs, int *cpus)
{
	struct run_info info = { .rw = o->rw };
	struct live_status live;
	struct jobs_options jo = { .cpus = o->jobs.n_cpus ? o->jobs.cpus : NULL,
				   .n_cpus = o->jobs.n_cpus, .tick = live_status_tick,
				   .tick_ctx = &live, .gate = ranks_gate, .gate_ctx = (void *)rk };
	struct jobs_result res;
	struct verify_result found;
	struct errmsg err = { 0 }, line = { 0 };
	unsigned printed = 0;
	int ret, status;

	if (jobs_result_init(&res, o->jobs.jobs)) {
		fprintf(stderr, "iomodel: out of memory\n");
		return EXIT_FAILED;
	}
	live_status_start(&live, NULL, NULL, m->t.kind == TARGET_SIM,
			  o->spec.runtime_ns ? o->spec.runtime_ns + o->spec.ramp_ns : 0);
	ret = jobs_run(m, specs, o->jobs.jobs, &jo, stop, &res, &info, &err);
	live_status_end(&live);
	print_new_notices(m, &printed);
	if (!ret && took_no_time(&res.merged)) {
		fprintf(stderr, "iomodel: notice: %s\n", zero_time_notice);
		info.notice = zero_time_notice;
	}
	if (ret && !info.engine) {	/* nothing ran (on any rank): no results to print */
		status = ranks_agree(rk, EXIT_FAILED, ret != -ECANCELED, &err);
		fprintf(stderr, "iomodel: %s\n", err.text);
	} else {
		if (ret)
			job_error_text(&line, o->jobs.jobs > 1 ? "job" : NULL, res.failed_job,
				       &res.job[res.failed_job], &err);
		status = ranks_agree(rk, ret ? EXIT_FAILED : res.merged.interrupted
					      ? EXIT_INTERRUPTED : EXIT_OK, true, &line);
		if (status == EXIT_FAILED)
			fprintf(stderr, "iomodel: %s\n", line.text);
		o->spec.qd = specs[0].qd;	/* psync may have lowered it */
		per_job_info(o, &info, specs, &res, cpus);
		status = print_ranks(o, rk, &info, &res.merged, status, &found);
		status = report_verify_failures(&found, status);
	}
	jobs_result_release(&res);
	return status;
}

static json_t *steady_json(const struct steady_result *sr, const struct steady_rule *rule)
{
	json_t *rounds = json_array();

	for (size_t i = 0; i < sr->n; i++)
		json_array_append_new(rounds, json_pack("{s:I,s:f,s:f,s:f}", "round",
							(json_int_t)i + 1, "iops", sr->rounds[i].iops,
							"mib_s", sr->rounds[i].mib_s, "mean_lat_ms",
							sr->rounds[i].mean_lat_s * 1e3));
	return json_pack("{s:s,s:b,s:I,s:I,s:I,s:f,s:f,s:f,s:o}", "rule", "snia-pts",
			 "reached", sr->eval.reached,
			 "round", (json_int_t)(sr->eval.reached ? sr->eval.round : 0),
			 "window", (json_int_t)rule->window, "max_rounds", (json_int_t)rule->max_rounds,
			 "window_mean_iops", sr->eval.mean, "range_pct", sr->eval.range_frac * 100,
			 "excursion_pct", sr->eval.excursion_frac * 100, "rounds", rounds);
}

static int print_steady(const struct run_options *o, const struct run_info *info,
			const struct run_result *r, const struct steady_result *sr,
			const struct steady_rule *rule)
{
	json_t *doc;

	if (o->format == OUTPUT_JSON) {
		doc = run_to_json(info, r);
		if (!doc || json_object_set_new(doc, "steady_state", steady_json(sr, rule)))
			return -ENOMEM;
		return json_dump_document(stdout, doc);
	}
	if (print_results(o, info, r))
		return -EIO;
	if (o->format == OUTPUT_CSV)
		return 0;
	printf("steady state (SNIA PTS, IOPS over %u rounds): ", rule->window);
	if (sr->eval.reached)
		printf("reached in round %zu, window mean %.4g IOPS (range %.1f %%, excursion %.1f %%)\n",
		       sr->eval.round, sr->eval.mean, sr->eval.range_frac * 100,
		       sr->eval.excursion_frac * 100);
	else
		printf("NOT reached in %zu rounds; the results above are the last round's\n", sr->n);
	printf("rounds (IOPS):");
	for (size_t i = 0; i < sr->n; i++)
		printf(" %.4g", sr->rounds[i].iops);
	printf("\n");
	return ferror(stdout) ? -EIO : 0;
}

/* --steady-state: the job as rounds until the rule holds. Returns an exit status. */
static int run_until_steady(struct run_options *o, struct measure_target *m,
			    const volatile sig_atomic_t *stop)
{
	struct run_result *r = malloc(sizeof(*r));
	struct steady_result *sr = malloc(sizeof(*sr));
	struct steady_rule rule;
	struct series s;
	int status;

	if (!r || !sr) {
		free(r);
		free(sr);
		fprintf(stderr, "iomodel: out of memory\n");
		return EXIT_FAILED;
	}
	steady_rule_snia(&rule);
	rule.max_rounds = o->max_rounds;
	series_init(&s, m, stop, rule.max_rounds, false);
	s.jobs = o->jobs.jobs;
	s.split = o->jobs.split;
	run_result_init(r);
	status = series_until_steady(&s, &o->spec, o->rw, &rule, r, sr);
	progress_end(&s.progress);
	s.last_info.spec = &o->spec;
	if ((status == EXIT_OK || status == EXIT_INTERRUPTED) && sr->n &&
	    print_steady(o, &s.last_info, r, sr, &rule) && status == EXIT_OK)
		status = EXIT_FAILED;
	series_release(&s);
	run_result_release(r);
	free(r);
	free(sr);
	return status;
}

/* Replace every "%r" of the target with the rank; refused outside mpirun. */
static int rank_target(struct run_options *o, const struct ranks *rk, char *buf, size_t len)
{
	const char *path = o->target.path, *p;
	size_t used = 0;

	if (!strstr(path, "%r"))
		return 0;
	if (!rk->mpi)
		return bad("--target '%s': %%r stands for the MPI rank, but this run was not "
			   "started by mpirun", path);
	while ((p = strstr(path, "%r")) && used < len) {
		used += (size_t)snprintf(buf + used, len - used, "%.*s%d", (int)(p - path), path,
					 rk->rank);
		path = p + 2;
	}
	if (used < len)
		used += (size_t)snprintf(buf + used, len - used, "%s", path);
	if (used >= len)
		return bad("--target '%s': too long", o->target.path);
	o->target.path = buf;
	o->rank_target = true;
	return 0;
}

/* Open the target and make the jobs' specs: an exit status, agreed by the ranks. */
static int prepare(struct run_options *o, const struct ranks *rk, struct measure_target *m,
		   struct job_spec *specs, bool *opened, struct errmsg *err)
{
	int ret = measure_open(m, &o->target, o->engine, o->spec.seed, err);
	int status = ret ? exit_status_of_error(ret) : EXIT_OK;

	*opened = !ret;
	if (!ret)
		status = make_specs(o, rk, m, specs, err);
	status = ranks_agree(rk, status, true, err);
	if (status)
		fprintf(stderr, "iomodel: %s\n", err->text);
	return status;
}

static int run_command(const struct ranks *rk, int argc, char **argv)
{
	const volatile sig_atomic_t *stop;
	struct measure_target m;
	struct run_options o;
	struct errmsg err = { 0 };
	struct job_spec *specs = NULL;
	int *cpus = NULL;
	char path[4096];
	bool opened = false;
	int ret;

	ret = parse_run_options(&o, argc, argv);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	ret = rank_target(&o, rk, path, sizeof(path));
	if (ret)
		return ret;
	/* one generation for every job of every rank: a later read pass checks them all */
	if (o.spec.verify && o.spec.read_pct < 100 && !o.spec.verify_generation)
		o.spec.verify_generation = new_generation();
	ranks_share(rk, &o.spec.verify_generation);
	if (o.steady_state && rk->size > 1)
		return bad("--steady-state: not under mpirun (each rank would decide alone)");
	stop = signals_install_stop();
	o.target.stop = stop;
	specs = calloc(o.jobs.jobs, sizeof(*specs));
	cpus = calloc(o.jobs.jobs, sizeof(*cpus));
	if (!specs || !cpus)
		ret = (fprintf(stderr, "iomodel: out of memory\n"), EXIT_FAILED);
	else
		ret = prepare(&o, rk, &m, specs, &opened, &err);
	if (!ret && o.fio_job && rk->rank == 0)
		ret = write_fio_job_file(o.fio_job, &m, &specs[0], o.jobs.jobs, argc, argv);
	if (!ret)
		ret = o.steady_state ? run_until_steady(&o, &m, stop)
				     : run_jobs(&o, rk, &m, stop, specs, cpus);
	if (opened)
		measure_close(&m);
	free(specs);
	free(cpus);
	return signals_exit_status(ret, stop);
}

int cmd_run(int argc, char **argv)
{
	struct ranks rk;
	struct errmsg err;
	int status;

	if (ranks_init(&rk, &argc, &argv, &err)) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		return EXIT_FAILED;
	}
	status = run_command(&rk, argc, argv);
	ranks_finalize(&rk);
	return status;
}
