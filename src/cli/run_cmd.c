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
#include "cli/run_options.h"
#include "cli/series.h"
#include "cli/signals.h"
#include "io/run_output.h"
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

int report_run_error(const struct run_result *r, const struct errmsg *err)
{
	return report_io_error(&r->error, err);
}

int report_io_error(const struct run_error *e, const struct errmsg *err)
{
	if (!e->set) {
		fprintf(stderr, "iomodel: %s\n", err->text);
	} else if (e->result < 0) {
		fprintf(stderr, "iomodel: %s error at offset %llu: %s\n",
			io_op_name(e->op), (unsigned long long)e->offset,
			strerror((int)-e->result));
	} else {
		fprintf(stderr, "iomodel: short %s at offset %llu: %lld of %u bytes\n",
			io_op_name(e->op), (unsigned long long)e->offset,
			(long long)e->result, e->length);
	}
	return EXIT_FAILED;
}

static int run_job(struct run_options *o, struct measure_target *m,
		   const volatile sig_atomic_t *stop)
{
	struct run_info info = { .rw = o->rw };
	struct run_result *r = malloc(sizeof(*r));
	struct errmsg err;
	unsigned printed = 0;
	int status, ret;

	if (!r) {
		fprintf(stderr, "iomodel: out of memory\n");
		return EXIT_FAILED;
	}
	run_result_init(r);
	ret = measure_run(m, &o->spec, stop, r, &info, &err);
	print_new_notices(m, &printed);
	if (ret && !info.engine) {	/* nothing ran: no results to print */
		fprintf(stderr, "iomodel: %s\n", err.text);
		status = EXIT_FAILED;
	} else {
		status = ret ? report_run_error(r, &err)
			     : r->interrupted ? EXIT_INTERRUPTED : EXIT_OK;
		if (print_results(o, &info, r) && status == EXIT_OK)
			status = EXIT_FAILED;
	}
	run_result_release(r);
	free(r);
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
		ret = o.steady_state ? run_until_steady(&o, &m, stop) : run_job(&o, &m, stop);
	}
	measure_close(&m);
	return ret == EXIT_INTERRUPTED && *stop ? 128 + *stop : ret;
}
