/*
 * qd_cmd.c — `iomodel qd`: one workload at every queue depth of a range
 * (doubling), as IOMeter's outstanding-IOs sweeps: IOPS, MiB/s and latency
 * percentiles per depth, and the queue-depth model (model/queue_depth.h)
 * fitted to them. Its JSON is a sweep (iomodel.sweep/1) that `fit` and
 * `report` read, with the fitted model beside the runs.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "cli/series.h"
#include "cli/signals.h"
#include "io/run_output.h"
#include "model/queue_depth.h"
#include "util/units.h"

#define QD_MAX_DEPTHS 11	/* 1 .. 1024, doubling */

struct qd_options {
	struct target_request target;
	enum backend_kind engine;
	uint64_t seed;
	const char *rw;
	struct sweep_plan plan;
	uint64_t point_ns, point_ios;
	bool json;
};

/* What one depth measured. */
struct qd_row {
	unsigned qd;
	double iops, mib_s;
	double lat_ms[5];	/* mean, p50, p99, p99.9, max */
};

enum { OPT_BS = OPTION_ID_OWN, OPT_JSON };

static const struct option qd_long_options[] = {
	{ "bs", required_argument, NULL, OPT_BS },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void cmd_qd_usage(FILE *f)
{
	fputs("usage: iomodel qd --target PATH|null|sim:DRIVE [options]\n"
	      "\n"
	      "One workload at every queue depth from C to D (doubling), as IOMeter's\n"
	      "outstanding-IOs sweeps: IOPS, MiB/s and latency percentiles per depth, and\n"
	      "the queue-depth model R(q) = t1 + (q - 1) / X_sat fitted to them. Each depth\n"
	      "stops after --point-time or --point-ios, whichever comes first; a real\n"
	      "target takes at most 9 depths x 2 s by default, said on stderr first.\n"
	      "\n"
	      "  --target, --size, --destroy-data, --keep, --sim-memory, --engine,\n"
	      "  --buffered, --seed   as for 'iomodel run'\n"
	      "  --rw MODE            randread, randwrite, read or write (randread)\n"
	      "  --bs SIZE            request size (4k)\n"
	      "  --qd C[:D]           queue depths, doubling from C to D (1:256)\n"
	      "  --point-time TIME    time bound of each depth (2s; 600s simulated on sim:)\n"
	      "  --point-ios N        IO bound of each depth (20000 on real targets, 50000\n"
	      "                       on sim: drives)\n"
	      "  --json               the depths as a sweep (schema iomodel.sweep/1, which\n"
	      "                       'iomodel fit' and 'iomodel report' read) with the\n"
	      "                       fitted model as \"qd_model\"\n", f);
}

static int apply_qd_option(void *ctx, int id, const char *arg)
{
	struct qd_options *o = ctx;
	int ret = 0;

	switch (id) {
	case OPT_JSON: o->json = true; break;
	case OPT_BS:
		ret = size_opt("--bs", arg, &o->plan.min_bs);
		if (!ret && (o->plan.min_bs == 0 || o->plan.min_bs > MAX_BS))
			ret = bad("--bs '%s': expected 1 byte to 2047MiB", arg);
		o->plan.max_bs = o->plan.min_bs;
		break;
	default: ret = EXIT_BAD_INPUT; break;
	}
	return ret;
}

static void qd_row_fill(struct qd_row *row, const struct job_spec *job, const struct run_result *r)
{
	const struct op_result *op = &r->op[job->read_pct ? IO_READ : IO_WRITE];
	double secs = (double)r->elapsed_ns / 1e9;
	static const double pct[3] = { 50, 99, 99.9 };

	*row = (struct qd_row){ .qd = job->qd };
	if (!op->ios || secs <= 0)
		return;
	row->iops = (double)op->ios / secs;
	row->mib_s = (double)op->bytes / secs / MIB;
	row->lat_ms[0] = hist_mean(&op->lat) / 1e6;
	for (int i = 0; i < 3; i++)
		row->lat_ms[1 + i] = (double)hist_percentile(&op->lat, pct[i]) / 1e6;
	row->lat_ms[4] = (double)op->lat.max / 1e6;
}

/* Measure every depth; rows[i] for job i. Returns an exit status. */
static int qd_measure(struct series *s, const struct qd_options *o, struct qd_row *rows,
		      size_t *n_rows)
{
	struct run_result *r = malloc(sizeof(*r));
	size_t n = sweep_count(&o->plan);
	int status = EXIT_OK;

	if (!r)
		return fprintf(stderr, "iomodel: out of memory\n"), EXIT_FAILED;
	*n_rows = 0;
	for (size_t i = 0; i < n && status == EXIT_OK; i++) {
		struct job_spec job;
		char what[64];

		sweep_job(&o->plan, i, &job);
		snprintf(what, sizeof(what), "%s QD%u", o->rw, job.qd);
		progress_update(&s->progress, s->done, what);
		run_result_init(r);
		status = series_run_job(s, &job, o->rw, r);
		if (status == EXIT_OK || status == EXIT_INTERRUPTED)
			qd_row_fill(&rows[(*n_rows)++], &job, r);
		run_result_release(r);
		s->done++;
	}
	progress_update(&s->progress, s->done, "");
	free(r);
	return status;
}

static int print_qd(const struct qd_options *o, const struct series *s, const struct qd_row *rows,
		    size_t n, const struct qd_model *qm, bool fitted, const char *why)
{
	char size[32], path[1024];

	if (o->json) {
		json_t *doc = json_pack("{s:s,s:s,s:s,s:O}", "schema", "iomodel.sweep/1",
					"iomodel_version", IOMODEL_VERSION, "command", "qd",
					"runs", s->runs);
		json_t *model = fitted ? json_pack("{s:f,s:f,s:f,s:I,s:f}", "t1_ms", qm->t1_s * 1e3,
						   "sat_iops", isfinite(qm->sat_iops) ? qm->sat_iops : 0.0,
						   "gain32", qm->gain32, "points", (json_int_t)qm->n,
						   "rms_rel_residual", qm->rms_rel_residual)
				       : json_pack("{s:s}", "note", why);

		if (!doc || json_object_set_new(doc, "qd_model", model))
			return -ENOMEM;
		return json_dump_document(stdout, doc);
	}
	format_size(size, sizeof(size), o->plan.min_bs);
	errmsg_escape(path, sizeof(path), s->m->t.path);
	printf("%s %s on %s (latency in ms)\n", o->rw, size, path);
	printf("%5s %11s %10s %9s %9s %9s %9s %9s %9s\n", "QD", "IOPS", "MiB/s", "mean", "p50",
	       "p99", "p99.9", "max", "model");
	for (size_t i = 0; i < n; i++) {
		const struct qd_row *r = &rows[i];

		printf("%5u %11.5g %10.4g %9.4g %9.4g %9.4g %9.4g %9.4g", r->qd, r->iops, r->mib_s,
		       r->lat_ms[0], r->lat_ms[1], r->lat_ms[2], r->lat_ms[3], r->lat_ms[4]);
		if (fitted)
			printf(" %9.5g", qd_iops(qm, r->qd));
		printf("\n");
	}
	if (!fitted)
		printf("model: not fitted: %s\n", why);
	else if (isfinite(qm->sat_iops))
		printf("model: R(q) = %.4g ms + (q - 1) / %.5g IOPS; QD32/QD1 gain %.2fx\n",
		       qm->t1_s * 1e3, qm->sat_iops, qm->gain32);
	else
		printf("model: R(q) = %.4g ms, no saturation seen; QD32/QD1 gain %.2fx\n",
		       qm->t1_s * 1e3, qm->gain32);
	return ferror(stdout) ? -EIO : 0;
}

/* Say up front how long a real target takes at most: one line on stderr. */
static void qd_announce(const struct qd_options *o, const struct measure_target *m)
{
	size_t n = sweep_count(&o->plan);
	double point_s = (double)o->plan.point_ns / 1e9;

	if (m->t.kind != TARGET_SIM)
		say("qd of %s: %zu depths, each %.3g s or %llu IOs at most: at most %.0f s", m->t.path,
		    n, point_s, (unsigned long long)o->plan.point_ios, ceil((double)n * point_s));
}

static int qd_run(struct qd_options *o, struct measure_target *m, const volatile sig_atomic_t *stop)
{
	struct qd_row rows[QD_MAX_DEPTHS];
	struct qd_model qm;
	struct errmsg why = { "" };
	struct series s;
	size_t n = 0;
	bool fitted;
	int status = series_check(m, &o->plan, 1, false);

	if (status)
		return status;
	qd_announce(o, m);
	series_init(&s, m, stop, sweep_count(&o->plan), o->json);
	status = qd_measure(&s, o, rows, &n);
	progress_end(&s.progress);
	fitted = !qd_fit(s.points.points, s.points.len, &qm, &why);
	if ((status == EXIT_OK || status == EXIT_INTERRUPTED) &&
	    print_qd(o, &s, rows, n, &qm, fitted, why.text) && status == EXIT_OK)
		status = EXIT_FAILED;
	series_release(&s);
	return status;
}

int cmd_qd(int argc, char **argv)
{
	const volatile sig_atomic_t *stop = signals_install_stop();
	struct qd_options o = {
		.target = { .direct = true }, .engine = BACKEND_IO_URING, .seed = 1,
		.rw = "randread",
		.plan = { .random = true, .read_pct = 100, .min_bs = 4096, .max_bs = 4096,
			  .min_qd = 1, .max_qd = 256 },
	};
	struct command_line cl = { argv[0], qd_long_options, ":h", cmd_qd_usage,
				   apply_qd_option, &o };
	const struct target_options topts = { .which = TOPT_ALL | TOPT_SERIES,
		.target = &o.target, .engine = &o.engine, .seed = &o.seed,
		.rw = &o.rw, .plan = &o.plan, .point_ns = &o.point_ns, .point_ios = &o.point_ios };
	struct measure_target m;
	struct errmsg err;
	int status = parse_target_command_line(&cl, &topts, argc, argv, NULL);

	if (status)
		return status < 0 ? EXIT_OK : status;
	if (!o.target.path)
		return bad("qd: missing --target (a file, a block device, null, or sim:DRIVE)");
	if (o.target.direct && o.plan.min_bs % 512)
		return bad("--bs %llu: a multiple of 512 with O_DIRECT; use --buffered for others",
			   (unsigned long long)o.plan.min_bs);
	o.target.writes = o.plan.read_pct < 100;
	o.target.stop = stop;
	status = measure_open(&m, &o.target, o.engine, o.seed, &err);
	if (status) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		status = exit_status_of_error(status);
		return signals_exit_status(status, stop);
	}
	series_default_bounds(&m, &o.plan);
	o.plan.point_ios = m.t.kind == TARGET_SIM ? 50000 : 20000;
	if (o.point_ns)
		o.plan.point_ns = o.point_ns;
	if (o.point_ios)
		o.plan.point_ios = o.point_ios;
	o.plan.seed = o.seed;
	status = qd_run(&o, &m, stop);
	measure_close(&m);
	return signals_exit_status(status, stop);
}
