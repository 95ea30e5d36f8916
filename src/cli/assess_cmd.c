/*
 * assess_cmd.c — `iomodel assess`: a disk assessment in the manner of
 * WinSAT's `winsat disk` (suite/assess.h) on one or more targets, one after
 * the other, their figures side by side. Every target is opened and every
 * phase's jobs are checked against it before any IO runs, so bad input
 * changes nothing. The two mixed phases run a reader and a writer at once
 * on one target (suite/jobs.h: two threads on a real target, two streams on
 * a simulated drive's one clock).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/assess_output.h"
#include "cli/commands.h"
#include "cli/live_status.h"
#include "cli/run_options.h"
#include "cli/signals.h"
#include "suite/jobs.h"
#include "util/units.h"

/* By default a real target's phases take 10 s each, all targets together at most 3 minutes. */
#define PHASE_DEFAULT_NS (10 * NSEC_PER_SEC)
#define TOTAL_DEFAULT_NS (180 * NSEC_PER_SEC)

struct assess_options {
	const char *paths[ASSESS_MAX_TARGETS];
	unsigned n_targets;
	struct target_request target;	/* the same for every target but the path */
	enum backend_kind engine;
	uint64_t seed;
	uint64_t phase_ns;		/* --time-per-phase, 0: the default */
	unsigned writer_qd;
	bool json;
};

/* --target is its own (one per column); --size and the rest come from the shared table */
enum { OPT_TARGET = OPTION_ID_OWN, OPT_TIME, OPT_JSON, OPT_WRITER_QD };

static const struct option assess_long_options[] = {
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "time-per-phase", required_argument, NULL, OPT_TIME },
	{ "writer-qd", required_argument, NULL, OPT_WRITER_QD },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void cmd_assess_usage(FILE *f)
{
	fputs("usage: iomodel assess --target PATH|null|sim:DRIVE [--target ...] [options]\n"
	      "\n"
	      "A disk assessment in the manner of WinSAT's 'winsat disk', on each target\n"
	      "in turn, the figures side by side: sequential 64 KiB reads, random 16 KiB\n"
	      "reads and sequential 64 KiB writes (each at QD1, in MB/s of 10^6 bytes);\n"
	      "then a reader (random 16 KiB reads, QD1) beside a writer of sequential\n"
	      "64 KiB writes, and beside one of random 16 KiB writes (--writer-qd): the\n"
	      "reader's average read time under each, and the 95th percentile and maximum\n"
	      "of its read times over both (in ms). Five phases, each bounded by\n"
	      "--time-per-phase: 10 s on a file, device or null, less when more than three\n"
	      "of them would take more than 3 minutes together; the bound is said on\n"
	      "stderr before anything runs.\n"
	      "\n"
	      "  --target T           a file (created and laid out if missing), a block\n"
	      "                       device, null or sim:DRIVE; up to 16, one column each\n"
	      "  --size, --keep, --sim-memory, --engine, --seed\n"
	      "                       as for 'iomodel run', for every target\n"
	      "  --destroy-data       allow the write phases to overwrite an existing file\n"
	      "                       or a block device (a file iomodel creates needs none)\n"
	      "  --time-per-phase TIME\n"
	      "                       time bound of each phase (10s; simulated time on sim:)\n"
	      "  --writer-qd N        queue depth of the mixed phases' writer (1)\n"
	      "  --json               results as JSON (schema iomodel.assess/1), which\n"
	      "                       'iomodel report' draws\n", f);
}

static int apply_assess_option(void *ctx, int id, const char *arg)
{
	struct assess_options *o = ctx;
	uint64_t v;
	int ret = 0;

	switch (id) {
	case OPT_TARGET:
		if (o->n_targets == ASSESS_MAX_TARGETS)
			return bad("--target '%s': at most %u targets", arg, ASSESS_MAX_TARGETS);
		o->paths[o->n_targets++] = arg;
		break;
	case OPT_JSON: o->json = true; break;
	case OPT_TIME:
		ret = time_opt("--time-per-phase", arg, &o->phase_ns);
		if (!ret && !o->phase_ns)
			ret = bad("--time-per-phase: must be positive");
		break;
	case OPT_WRITER_QD:
		ret = count_opt("--writer-qd", arg, 1, 1024, &v);
		o->writer_qd = (unsigned)v;
		break;
	default: ret = EXIT_BAD_INPUT; break;
	}
	return ret;
}

static bool is_real(const char *path)
{
	return strcmp(path, "null") && strncmp(path, "sim:", 4);
}

/*
 * Open every target: first those that exist (or need no file), then those
 * to be created, so that a refusal costs no layout. An exit status.
 */
static int open_targets(const struct assess_options *o, struct assess_target *t,
			const volatile sig_atomic_t *stop)
{
	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < o->n_targets; i++) {
			struct target_request req = o->target;
			struct stat st;
			struct errmsg err;
			bool later = is_real(o->paths[i]) && stat(o->paths[i], &st);
			int ret;

			if (later != (pass == 1))
				continue;
			req.path = o->paths[i];
			req.stop = stop;
			ret = measure_open(&t[i].m, &req, o->engine, o->seed, &err);
			if (ret) {
				fprintf(stderr, "iomodel: %s\n", err.text);
				return exit_status_of_error(ret);
			}
			t[i].opened = true;
		}
	}
	return EXIT_OK;
}

static void close_targets(struct assess_target *t, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (t[i].opened)
			measure_close(&t[i].m);
		json_decref(t[i].phases);
		t[i].opened = false;
	}
}

/* Each target's plan: the phase time (3 minutes at most for all by default), seed, writer depth. */
static void plan_targets(const struct assess_options *o, struct assess_target *t)
{
	unsigned real = 0;
	uint64_t real_ns = PHASE_DEFAULT_NS;

	for (unsigned i = 0; i < o->n_targets; i++)
		real += t[i].m.t.kind != TARGET_SIM;
	if (real && real * ASSESS_PHASES * real_ns > TOTAL_DEFAULT_NS)
		real_ns = TOTAL_DEFAULT_NS / (real * ASSESS_PHASES);
	for (unsigned i = 0; i < o->n_targets; i++) {
		bool simulated = t[i].m.t.kind == TARGET_SIM;

		t[i].plan = (struct assess_plan){
			.runtime_ns = o->phase_ns ? o->phase_ns : simulated ? PHASE_DEFAULT_NS : real_ns,
			.seed = o->seed, .writer_qd = o->writer_qd,
		};
	}
}

/* One line for the measured targets (wall time) and one for the simulated ones. */
static void announce(const struct assess_target *t, unsigned n)
{
	unsigned real = 0, sim = 0;
	uint64_t total = 0, real_ns = 0, sim_ns = 0;

	for (unsigned i = 0; i < n; i++) {
		if (t[i].m.t.kind == TARGET_SIM) {
			sim++;
			sim_ns = t[i].plan.runtime_ns;
		} else {
			real++;
			real_ns = t[i].plan.runtime_ns;
			total += ASSESS_PHASES * real_ns;
		}
	}
	if (real)
		say("assess: %u phases of %.3g s on each of %u file, device or null target%s: "
		    "at most %.0f s", ASSESS_PHASES, (double)real_ns / 1e9, real,
		    real > 1 ? "s" : "", (double)total / 1e9);
	if (sim)
		say("assess: %u phases of %.3g s of simulated time on each of %u sim: target%s",
		    ASSESS_PHASES, (double)sim_ns / 1e9, sim, sim > 1 ? "s" : "");
}

/* Every phase's jobs against every target, before anything runs. An exit status. */
static int check_jobs(struct assess_target *t, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		for (int p = 0; p < ASSESS_PHASES; p++) {
			struct job_spec specs[ASSESS_MAX_JOBS];
			unsigned k = assess_phase_jobs(p, &t[i].plan, specs);
			struct errmsg err;

			for (unsigned j = 0; j < k; j++) {
				if (measure_check_job(&t[i].m, &specs[j], &err)) {
					fprintf(stderr, "iomodel: assess: %s\n", err.text);
					return EXIT_BAD_INPUT;
				}
			}
		}
	}
	return EXIT_OK;
}

/* What the phase's run measured into the assessment and its JSON. An exit status. */
static int keep_phase(struct assess_target *t, enum assess_phase p,
		      const struct job_spec *specs, const struct jobs_result *res, unsigned n)
{
	assess_add(&t->a, p, res->job, n);
	if (!t->phases)
		t->phases = json_array();
	if (!t->phases || json_array_append_new(t->phases, assess_phase_json(p, specs, res->job, n)))
		return fprintf(stderr, "iomodel: out of memory\n"), EXIT_FAILED;
	return res->merged.interrupted ? EXIT_INTERRUPTED : EXIT_OK;
}

/* Phase `p` on one target: its jobs together, `what` on the live status line. An exit status. */
static int run_phase(struct assess_target *t, enum assess_phase p, const char *what,
		     struct progress *bar, const volatile sig_atomic_t *stop)
{
	struct job_spec specs[ASSESS_MAX_JOBS];
	unsigned n = assess_phase_jobs(p, &t->plan, specs);
	struct run_info info = { .rw = assess_phase_rw(p) };
	struct live_status live;
	struct jobs_options jo = { .tick = live_status_tick, .tick_ctx = &live };
	struct jobs_result res;
	struct errmsg err = { "" };
	unsigned notices = t->m.n_notices;
	int status = EXIT_OK, ret;

	for (unsigned j = 0; j < n && status == EXIT_OK; j++)
		if (measure_check_job(&t->m, &specs[j], &err))
			status = (fprintf(stderr, "iomodel: %s\n", err.text), EXIT_BAD_INPUT);
	if (status != EXIT_OK)
		return status;
	if (jobs_result_init(&res, n))
		return fprintf(stderr, "iomodel: out of memory\n"), EXIT_FAILED;
	live_status_start(&live, bar, what, t->m.t.kind == TARGET_SIM, t->plan.runtime_ns);
	ret = jobs_run(&t->m, specs, n, &jo, stop, &res, &info, &err);
	if (t->m.n_notices > notices || ret)
		progress_end(bar);
	print_new_notices(&t->m, &notices);
	if (ret)
		status = info.engine ? report_job_error(n > 1 ? "job" : NULL, res.failed_job,
							&res.job[res.failed_job], &err)
				     : (fprintf(stderr, "iomodel: %s\n", err.text), EXIT_FAILED);
	else
		status = keep_phase(t, p, specs, &res, n);
	jobs_result_release(&res);
	return status;
}

/* Every phase on every target, in turn, with the progress bar. An exit status. */
static int run_all(struct assess_target *t, unsigned n, const volatile sig_atomic_t *stop)
{
	struct progress bar;
	int status = EXIT_OK;

	progress_init(&bar, (size_t)n * ASSESS_PHASES);
	for (unsigned i = 0; i < n && status == EXIT_OK; i++) {
		assess_init(&t[i].a);
		for (int p = 0; p < ASSESS_PHASES && status == EXIT_OK; p++) {
			size_t done = (size_t)i * ASSESS_PHASES + (size_t)p;
			char what[160], path[64];

			errmsg_escape(path, sizeof(path), t[i].m.t.path);
			snprintf(what, sizeof(what), "%zu/%zu %s: %s", done + 1, bar.total, path,
				 assess_phase_name(p));
			progress_update(&bar, done, what + strcspn(what, " ") + 1);
			status = run_phase(&t[i], p, what, &bar, stop);
		}
	}
	progress_end(&bar);
	return status;
}

int cmd_assess(int argc, char **argv)
{
	const volatile sig_atomic_t *stop = signals_install_stop();
	struct assess_options o = { .target = { .direct = true, .writes = true },
				    .engine = BACKEND_IO_URING, .seed = 1,
				    .writer_qd = ASSESS_WRITER_QD };
	struct command_line cl = { argv[0], assess_long_options, ":h", cmd_assess_usage,
				   apply_assess_option, &o };
	struct target_options topts = {
		.which = TOPT_SIZE | TOPT_DESTROY | TOPT_KEEP | TOPT_SIM_MEMORY | TOPT_ENGINE |
			 TOPT_SEED,
		.target = &o.target, .engine = &o.engine, .seed = &o.seed,
	};
	struct assess_target *t;
	int status = parse_target_command_line(&cl, &topts, argc, argv, NULL);

	if (status)
		return status < 0 ? EXIT_OK : status;
	if (!o.n_targets)
		return bad("assess: missing --target (a file, a block device, null or sim:DRIVE)");
	t = calloc(o.n_targets, sizeof(*t));
	if (!t)
		return fprintf(stderr, "iomodel: out of memory\n"), EXIT_FAILED;
	status = open_targets(&o, t, stop);
	if (status == EXIT_OK) {
		plan_targets(&o, t);
		status = check_jobs(t, o.n_targets);
	}
	if (status == EXIT_OK)
		announce(t, o.n_targets);
	if (status == EXIT_OK)
		status = run_all(t, o.n_targets, stop);
	if ((status == EXIT_OK || status == EXIT_INTERRUPTED) &&
	    assess_print(stdout, t, o.n_targets, o.json) && status == EXIT_OK)
		status = EXIT_FAILED;
	close_targets(t, o.n_targets);
	free(t);
	return signals_exit_status(status, stop);
}
