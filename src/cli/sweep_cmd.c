/*
 * sweep_cmd.c — `iomodel sweep` (one result per request size and queue
 * depth) and `iomodel characterize` (read and write size sweeps plus a
 * queue-depth sweep, the models fitted to them, and the spec sheet).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/fio_job_file.h"
#include "cli/run_options.h"
#include "cli/series.h"
#include "cli/signals.h"
#include "io/model_output.h"
#include "io/output_file.h"
#include "model/drive_model.h"
#include "report/report.h"
#include "util/units.h"

#define DEFAULT_SCRATCH "./iomodel-scratch.bin"

/* What sweep and characterize share: target, engine, output. */
struct series_options {
	struct target_request target;
	enum backend_kind engine;
	uint64_t seed;
	uint64_t point_ns, point_ios;	/* 0: the target's defaults */
	enum output_format format;
	const char *output;		/* -o FILE (characterize) */
	const char *report;		/* --report FILE (characterize) */
	const char *png_dir;		/* --png-dir DIR (characterize) */
	const char *fio_job;		/* --fio-job FILE */
	bool quick;
	unsigned jobs;			/* --jobs (sweep) */
	bool split;
	int argc;			/* the command line, quoted in a --fio-job file */
	char **argv;
	/* sweep only */
	const char *rw;
	struct sweep_plan plan;
};

enum { OPT_BS = OPTION_ID_OWN, OPT_JSON,
       OPT_CSV, OPT_QUICK, OPT_REPORT, OPT_PNG_DIR, OPT_JOBS, OPT_SPLIT, OPT_FIO_JOB };

static const struct option sweep_long_options[] = {
	{ "bs", required_argument, NULL, OPT_BS },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "split", no_argument, NULL, OPT_SPLIT },
	{ "fio-job", required_argument, NULL, OPT_FIO_JOB },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct option characterize_long_options[] = {
	{ "quick", no_argument, NULL, OPT_QUICK },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "output", required_argument, NULL, 'o' },
	{ "report", required_argument, NULL, OPT_REPORT },
	{ "png-dir", required_argument, NULL, OPT_PNG_DIR },
	{ "fio-job", required_argument, NULL, OPT_FIO_JOB },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void cmd_sweep_usage(FILE *f)
{
	fputs("usage: iomodel sweep --target PATH|null|sim:DRIVE [options]\n"
	      "\n"
	      "Measure one workload at every request size from A to B (doubling) and every\n"
	      "queue depth from C to D (doubling); one result per point. Each point stops\n"
	      "after --point-time or --point-ios, whichever comes first.\n"
	      "\n"
	      "  --target, --size, --destroy-data, --keep, --sim-memory, --engine,\n"
	      "  --buffered, --seed   as for 'iomodel run'\n"
	      "  --rw MODE            randread, randwrite, read or write (randread)\n"
	      "  --bs A[:B]           request sizes, doubling from A to B (512:512m)\n"
	      "  --qd C[:D]           queue depths, doubling from C to D (1)\n"
	      "  --point-time TIME    time bound of each point (2s; 600s of simulated time\n"
	      "                       on sim: drives)\n"
	      "  --point-ios N        IO bound of each point (5000; 20000 on sim: drives,\n"
	      "                       which also stop each point after 8GiB), per job\n"
	      "  --jobs N, --split    N jobs at once at every point, as for 'iomodel run';\n"
	      "                       each point's queue depth is then N x QD outstanding\n"
	      "  --json | --csv       results as JSON (schema iomodel.sweep/1) or CSV (which\n"
	      "                       'iomodel fit' reads); default: a table\n"
	      "  --fio-job FILE       also write the fio job file that measures the same\n"
	      "                       points (one section each, run one after another)\n", f);
}

void cmd_characterize_usage(FILE *f)
{
	fputs("usage: iomodel characterize [--target PATH|null|sim:DRIVE] [options]\n"
	      "\n"
	      "Measure a drive the way the seeds did and print its spec sheet: random read\n"
	      "and write sweeps over request sizes at queue depth 1, 4 KiB reads and writes\n"
	      "at queue depths 1 to 32, the first-order model (access penalty + size/STR)\n"
	      "fitted with confidence intervals, the seeds' two-point figures, the erase\n"
	      "block where writes show one, the queue-depth gain and the fit per size.\n"
	      "\n"
	      "  --target T           what to measure (a scratch file " DEFAULT_SCRATCH ",\n"
	      "                       created and removed); writing to an existing file or\n"
	      "                       a device needs --destroy-data\n"
	      "  --size SIZE          size of a file to create (1GiB; 256MiB with --quick);\n"
	      "                       on an existing file or device, use its first SIZE\n"
	      "                       bytes (all of it by default)\n"
	      "  --quick              fewer sizes (512 B to 64 MiB) and shorter points\n"
	      "  --destroy-data, --keep, --sim-memory, --engine, --buffered, --seed\n"
	      "                       as for 'iomodel run'\n"
	      "  --json               the model as JSON (schema iomodel.model/2)\n"
	      "  -o, --output FILE    also write the model JSON to FILE (for 'iomodel predict')\n"
	      "  --report FILE        also write an HTML report with the charts to FILE\n"
	      "  --png-dir DIR        with --report: each chart also as a PNG in DIR\n"
	      "  --fio-job FILE       also write the fio job file that measures the same\n"
	      "                       four sweeps (one section per point)\n", f);
}

static int apply_series_option(void *ctx, int id, const char *arg)
{
	struct series_options *o = ctx;
	uint64_t lo;
	int ret = 0;

	switch (id) {
	case OPT_QUICK: o->quick = true; break;
	case OPT_JSON: o->format = OUTPUT_JSON; break;
	case OPT_CSV: o->format = OUTPUT_CSV; break;
	case 'o': o->output = arg; break;
	case OPT_REPORT: o->report = arg; break;
	case OPT_PNG_DIR: o->png_dir = arg; break;
	case OPT_FIO_JOB: o->fio_job = arg; break;
	case OPT_JOBS:
		ret = count_opt("--jobs", arg, 1, JOBS_MAX, &lo);
		o->jobs = (unsigned)lo;
		break;
	case OPT_SPLIT: o->split = true; break;
	case OPT_BS:
		ret = range_opt("--bs", arg, false, &o->plan.min_bs, &o->plan.max_bs);
		if (!ret && o->plan.max_bs > MAX_BS)
			ret = bad("--bs '%s': sizes go up to 2047MiB", arg);
		break;
	default: ret = EXIT_BAD_INPUT; break;
	}
	return ret;
}

/* Parse argv (argv[0] is the command). Returns 0, -1 after --help, or EXIT_BAD_INPUT. */
static int parse_series_options(struct series_options *o, const struct option *table,
				void (*usage)(FILE *), int argc, char **argv)
{
	struct command_line cl = { argv[0], table, table == sweep_long_options ? ":h" : ":ho:",
				   usage, apply_series_option, o };
	const struct target_options topts = {
		.which = TOPT_ALL | (table == sweep_long_options ? TOPT_SERIES : 0),
		.target = &o->target, .engine = &o->engine, .seed = &o->seed,
		.rw = &o->rw, .plan = &o->plan, .point_ns = &o->point_ns, .point_ios = &o->point_ios };
	int ret = parse_target_command_line(&cl, &topts, argc, argv, NULL);

	if (ret)
		return ret;
	if (o->target.direct && o->plan.min_bs % 512)
		return bad("--bs %llu: a multiple of 512 with O_DIRECT; use --buffered for others",
			   (unsigned long long)o->plan.min_bs);
	return 0;
}

static void series_options_init(struct series_options *o)
{
	memset(o, 0, sizeof(*o));
	o->target.direct = true;
	o->engine = BACKEND_IO_URING;
	o->seed = 1;
	o->jobs = 1;
	o->rw = "randread";
	o->plan = (struct sweep_plan){ .random = true, .read_pct = 100, .min_bs = 512,
				       .max_bs = 512ULL << 20, .min_qd = 1, .max_qd = 1 };
}

/* Open the target; fill the plan's bounds and seed. Returns an exit status. */
static int open_series_target(struct series_options *o, struct measure_target *m,
			      const volatile sig_atomic_t *stop)
{
	struct errmsg err;
	int ret;

	o->target.stop = stop;
	ret = measure_open(m, &o->target, o->engine, o->seed, &err);
	if (ret) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		return exit_status_of_error(ret);
	}
	/* -o and --report: not into the target (--fio-job: write_fio_job_file checks it) */
	for (int i = 0; i < 2; i++) {
		const char *out = i ? o->report : o->output;

		if (out && output_file_is_target(out, m->t.fd)) {
			measure_close(m);
			return bad("%s '%s': is the target of this run", i ? "--report" : "-o", out);
		}
	}
	series_default_bounds(m, &o->plan);
	if (o->quick && m->t.kind != TARGET_SIM)
		o->plan.point_ns = NSEC_PER_SEC / 2;
	if (o->point_ns)
		o->plan.point_ns = o->point_ns;
	if (o->point_ios)
		o->plan.point_ios = o->point_ios;
	o->plan.seed = o->seed;
	return EXIT_OK;
}

static int print_sweep(const struct series_options *o, const struct series *s)
{
	const struct point_set *ps = &s->points;
	char path[1024];

	if (o->format == OUTPUT_JSON) {
		json_t *doc = json_pack("{s:s,s:s,s:s,s:O}", "schema", "iomodel.sweep/1",
					"iomodel_version", IOMODEL_VERSION, "command", "sweep",
					"runs", s->runs);

		return json_dump_document(stdout, doc);
	}
	errmsg_escape(path, sizeof(path), s->m->t.path);
	if (o->format == OUTPUT_CSV)
		printf("op,random,size,qd,iops,mib_s,lat_mean_us\n");
	else
		printf("%s on %s\n%10s %5s %12s %11s %12s\n", o->rw, path, "size", "qd",
		       "IOPS", "MiB/s", "mean us");
	for (size_t i = 0; i < ps->len; i++) {
		const struct perf_point *p = &ps->points[i];
		double mib_s = p->iops * (double)p->size / MIB;
		char size[32];

		if (o->format == OUTPUT_CSV) {
			printf("%s,%d,%llu,%u,%.6g,%.6g,%.6g\n", io_op_name(p->op),
			       p->random, (unsigned long long)p->size, p->qd, p->iops, mib_s,
			       p->mean_lat_s * 1e6);
			continue;
		}
		format_size(size, sizeof(size), p->size);
		printf("%10s %5u %12.4g %11.4g %12.4g\n", size, p->qd, p->iops, mib_s,
		       p->mean_lat_s * 1e6);
	}
	return ferror(stdout) ? -EIO : 0;
}

int cmd_sweep(int argc, char **argv)
{
	const volatile sig_atomic_t *stop = signals_install_stop();
	struct series_options o;
	struct measure_target m;
	struct series s;
	int status;

	series_options_init(&o);
	status = parse_series_options(&o, sweep_long_options, cmd_sweep_usage, argc, argv);
	if (status)
		return status < 0 ? EXIT_OK : status;
	if (!o.target.path)
		return bad("sweep: missing --target (a file, a block device, null, or sim:DRIVE)");
	o.target.writes = o.plan.read_pct < 100;
	status = open_series_target(&o, &m, stop);
	if (status)
		return signals_exit_status(status, stop);
	status = series_check(&m, &o.plan, o.jobs, o.split);
	if (!status && o.fio_job)
		status = write_fio_job_plans(o.fio_job, &m, &o.plan, 1, argc, argv);
	if (status) {
		measure_close(&m);
		return status;
	}
	series_init(&s, &m, stop, sweep_count(&o.plan), o.format == OUTPUT_JSON);
	s.jobs = o.jobs;
	s.split = o.split;
	status = series_measure(&s, &o.plan, o.rw);
	progress_end(&s.progress);
	if ((status == EXIT_OK || status == EXIT_INTERRUPTED || status == EXIT_FAILED) &&
	    print_sweep(&o, &s) && status == EXIT_OK)
		status = EXIT_FAILED;
	series_release(&s);
	measure_close(&m);
	return signals_exit_status(status, stop);
}

static uint64_t largest_power_of_two_at_most(uint64_t v)
{
	uint64_t p = 1;

	while (p <= v / 2)
		p *= 2;
	return p;
}

/* The four plans of characterize: read and write size sweeps, 4 KiB depth sweeps. */
static void characterize_plans(const struct series_options *o, const struct measure_target *m,
			       struct sweep_plan plans[4])
{
	uint64_t max_bs = largest_power_of_two_at_most(m->t.size / 2);
	uint64_t cap = o->quick ? 64ULL << 20 : 512ULL << 20;

	for (int i = 0; i < 4; i++) {
		plans[i] = o->plan;
		plans[i].random = true;
		plans[i].read_pct = i % 2 ? 0 : 100;
		plans[i].min_qd = plans[i].max_qd = 1;
		plans[i].min_bs = 512;
		plans[i].max_bs = max_bs < cap ? max_bs : cap;
		if (i >= 2) {
			plans[i].min_bs = plans[i].max_bs = 4096;
			plans[i].max_qd = 32;
		}
		plans[i].seed = o->seed + 1000 * (uint64_t)i;
	}
}

static int characterize_measured(const struct series_options *o, struct series *s)
{
	struct drive_model dm;
	struct errmsg err;
	int status;

	if (drive_model_fit(&s->points, &dm, &err)) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		return EXIT_FAILED;
	}
	status = print_drive_model(s->m->t.path, &dm, o->format == OUTPUT_JSON, o->output);
	if (!status && o->report &&
	    report_write_drive_html(o->report, o->png_dir, s->m->t.path, &dm, &s->points, &err)) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		status = EXIT_FAILED;
	}
	drive_model_release(&dm);
	return status;
}

/*
 * Open the target of `o` and measure the four plans of characterize into a
 * series (initialised here, released by the caller, who also closes `m`
 * when the return is EXIT_OK or a measuring error).
 */
static int characterize_series(struct series_options *o, const volatile sig_atomic_t *stop,
			       struct measure_target *m, struct series *s, bool *opened)
{
	static const char *const rw[4] = { "randread", "randwrite", "randread", "randwrite" };
	struct sweep_plan plans[4];
	size_t total = 0;
	int status;

	o->target.writes = true;
	series_init(s, m, stop, 0, false);
	status = open_series_target(o, m, stop);
	*opened = !status;
	if (status)
		return status;
	characterize_plans(o, m, plans);
	for (int i = 0; i < 4 && !status; i++) {
		status = series_check(m, &plans[i], 1, false);
		total += sweep_count(&plans[i]);
	}
	if (!status && o->fio_job)
		status = write_fio_job_plans(o->fio_job, m, plans, 4, o->argc, o->argv);
	series_release(s);
	series_init(s, m, stop, total, false);
	for (int i = 0; i < 4 && !status; i++)
		status = series_measure(s, &plans[i], rw[i]);
	progress_end(&s->progress);
	return status;
}

int characterize_points(const char *target, struct point_set *out)
{
	const volatile sig_atomic_t *stop = signals_install_stop();
	struct series_options o;
	struct measure_target m;
	struct series s;
	bool opened;
	int status;

	series_options_init(&o);
	o.target.path = target;
	status = characterize_series(&o, stop, &m, &s, &opened);
	if (!status) {
		*out = s.points;
		point_set_init(&s.points);
	}
	series_release(&s);
	if (opened)
		measure_close(&m);
	return signals_exit_status(status, stop);
}

int cmd_characterize(int argc, char **argv)
{
	const volatile sig_atomic_t *stop = signals_install_stop();
	struct series_options o;
	struct measure_target m;
	struct series s;
	bool opened;
	int status;

	series_options_init(&o);
	status = parse_series_options(&o, characterize_long_options, cmd_characterize_usage,
				      argc, argv);
	if (status)
		return status < 0 ? EXIT_OK : status;
	if (o.png_dir && !o.report)
		return bad("characterize: --png-dir goes with --report");
	if (!o.target.path)
		o.target.path = DEFAULT_SCRATCH;
	if (!strcmp(o.target.path, "null"))
		return bad("characterize: the null target has no drive to characterize "
			   "(every IO completes at once)");
	/* --size defaults only for a scratch file this command creates */
	if (!o.target.size && strncmp(o.target.path, "sim:", 4) && access(o.target.path, F_OK))
		o.target.size = o.quick ? 256ULL << 20 : 1ULL << 30;
	o.argc = argc;
	o.argv = argv;
	status = characterize_series(&o, stop, &m, &s, &opened);
	if (!status)
		status = characterize_measured(&o, &s);
	series_release(&s);
	if (opened)
		measure_close(&m);
	return signals_exit_status(status, stop);
}
