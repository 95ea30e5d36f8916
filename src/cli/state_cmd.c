/*
 * state_cmd.c — `iomodel state`: random writes of one size measured in the
 * three states AnandTech compared (fresh, used, after TRIM), each measured in
 * rounds until the SNIA PTS steady-state rule holds (suite/steady.h) or the
 * rounds run out.
 *
 *   fresh    the whole span discarded (TRIM, BLKDISCARD, a punched hole);
 *   used     the span filled with valid data (sequential 128 KiB writes),
 *            then overwritten with invalid data (random writes of the
 *            measured size, one span's worth), deleted without TRIM — which
 *            the drive never learns of; on a simulated SSD this
 *            preconditioning is laid out at once (state=used), the steady
 *            state those writes converge to;
 *   trimmed  the invalid data discarded, then measured again.
 * Discards always need --destroy-data.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "io/json_text.h"
#include "cli/run_options.h"
#include "cli/series.h"
#include "cli/signals.h"
#include "io/run_output.h"
#include "util/units.h"

enum state_phase { STATE_FRESH, STATE_USED, STATE_TRIMMED, STATE_PHASES };

static const char *const phase_names[STATE_PHASES] = { "fresh", "used", "trimmed" };

struct state_options {
	struct target_request target;
	enum backend_kind engine;
	uint64_t seed;
	uint64_t bs;
	unsigned qd;
	uint64_t round_ns, round_ios;	/* 0: the target's defaults */
	unsigned max_rounds;
	bool json;
};

enum { OPT_BS = OPTION_ID_OWN, OPT_QD, OPT_ROUND, OPT_ROUND_IOS, OPT_MAX_ROUNDS, OPT_JSON };

static const struct option state_long_options[] = {
	{ "bs", required_argument, NULL, OPT_BS },
	{ "qd", required_argument, NULL, OPT_QD },
	{ "round", required_argument, NULL, OPT_ROUND },
	{ "round-ios", required_argument, NULL, OPT_ROUND_IOS },
	{ "max-rounds", required_argument, NULL, OPT_MAX_ROUNDS },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void cmd_state_usage(FILE *f)
{
	fputs("usage: iomodel state --target PATH|sim:DRIVE --destroy-data [options]\n"
	      "\n"
	      "Random writes measured fresh (the span discarded), used (filled with valid\n"
	      "data, then overwritten with invalid data deleted without TRIM) and after\n"
	      "TRIM of the invalid data. Each state is measured in rounds until the SNIA\n"
	      "PTS steady-state rule holds over 5 rounds (range <= 20 % of the mean and\n"
	      "the least-squares line's excursion <= 10 %), at most --max-rounds rounds.\n"
	      "On a simulated SSD the used state is laid out at once (state=used).\n"
	      "Everything in the span is destroyed. On a real target the rounds take at\n"
	      "most 3 x 25 x 2 s by default, said on stderr first with what the\n"
	      "preconditioning writes (the span, twice: as long as the drive takes).\n"
	      "\n"
	      "  --target T           a block device, a file, or sim:DRIVE (must take TRIM)\n"
	      "  --destroy-data       required: the span is discarded and overwritten\n"
	      "  --size SIZE          the span: the first SIZE bytes (all of the target)\n"
	      "  --bs SIZE            request size of the measured writes (4k)\n"
	      "  --qd N               queue depth of the measured writes (1)\n"
	      "  --round TIME         length of one round (2s; 600s simulated on sim:)\n"
	      "  --round-ios N        IO bound of one round (20000)\n"
	      "  --max-rounds N       give up after N rounds per state (25, at most 100)\n"
	      "  --engine, --seed, --sim-memory   as for 'iomodel run'\n"
	      "  --json               results as JSON (schema iomodel.state/1)\n", f);
}

static int apply_state_option(void *ctx, int id, const char *arg)
{
	struct state_options *o = ctx;
	uint64_t v;
	int ret = 0;

	switch (id) {
	case OPT_JSON: o->json = true; break;
	case OPT_BS: ret = direct_bs_opt(arg, &o->bs); break;
	case OPT_QD:
		ret = count_opt("--qd", arg, 1, 1024, &v);
		o->qd = (unsigned)v;
		break;
	case OPT_ROUND: ret = positive_time_opt("--round", arg, &o->round_ns); break;
	case OPT_ROUND_IOS: ret = count_opt("--round-ios", arg, 1, INT64_MAX, &o->round_ios); break;
	case OPT_MAX_ROUNDS:
		ret = count_opt("--max-rounds", arg, 5, STEADY_MAX_ROUNDS, &v);
		o->max_rounds = (unsigned)v;
		break;
	default: ret = EXIT_BAD_INPUT; break;
	}
	return ret;
}

/* The job of one phase: a round of random writes, or a preconditioning pass. */
static void state_job(const struct state_options *o, const struct measure_target *m,
		      struct job_spec *job)
{
	bool sim = m->t.kind == TARGET_SIM;

	*job = (struct job_spec){
		.random = true, .read_pct = 0, .bs = o->bs, .align = o->bs, .qd = o->qd,
		.offset = 0, .length = m->t.size, .seed = o->seed,
		.runtime_ns = o->round_ns ? o->round_ns : sim ? 600 * NSEC_PER_SEC
							      : 2 * NSEC_PER_SEC,
		.max_ios = o->round_ios ? o->round_ios : 20000,
	};
}

/* Fill the span sequentially, then overwrite it once at random (real targets). */
static int precondition_io(struct series *s, const struct state_options *o,
			   struct run_result *r)
{
	uint64_t span = s->m->t.size, fill_bs = 128 * 1024;
	struct job_spec fill = { .random = false, .read_pct = 0, .qd = 32, .offset = 0,
				 .length = span, .seed = o->seed ^ 0xf111 };
	struct job_spec dirty;
	int status;

	while (fill_bs > o->bs && span / fill_bs == 0)
		fill_bs /= 2;
	fill.bs = fill.align = fill_bs < o->bs ? o->bs : fill_bs;
	fill.max_bytes = span / fill.bs * fill.bs;
	progress_update(&s->progress, s->done, "used: filling with valid data");
	status = series_run_job(s, &fill, "write", r);
	if (status != EXIT_OK)
		return status;
	state_job(o, s->m, &dirty);
	dirty.runtime_ns = 0;
	dirty.max_ios = 0;
	dirty.max_bytes = span / o->bs * o->bs;
	dirty.seed = o->seed ^ 0xd1e7;
	run_result_release(r);
	run_result_init(r);
	progress_update(&s->progress, s->done, "used: writing invalid data");
	return series_run_job(s, &dirty, "randwrite", r);
}

/* Bring the target into `phase`. Returns an exit status. */
static int enter_phase(struct series *s, const struct state_options *o, enum state_phase phase,
		       struct run_result *r)
{
	struct measure_target *m = s->m;
	struct errmsg err;
	int ret = 0;

	if (phase == STATE_USED)
		return m->t.kind == TARGET_SIM ? (measure_sim_relayout(m, "state", "used", &err)
						  ? (fprintf(stderr, "iomodel: %s\n", err.text),
						     EXIT_BAD_INPUT) : EXIT_OK)
					       : precondition_io(s, o, r);
	ret = measure_discard(m, 0, m->t.size, &err);
	if (ret) {
		progress_end(&s->progress);
		fprintf(stderr, "iomodel: %s\n", err.text);
		return ret == -EOPNOTSUPP ? EXIT_BAD_INPUT : EXIT_FAILED;
	}
	return EXIT_OK;
}

/* Mean MiB/s over the last window (or every round when fewer). */
static double window_mib_s(const struct steady_result *sr, unsigned window)
{
	size_t first = sr->n > window ? sr->n - window : 0;
	double sum = 0;

	for (size_t i = first; i < sr->n; i++)
		sum += sr->rounds[i].mib_s;
	return sr->n > first ? sum / (double)(sr->n - first) : 0;
}

static json_t *phase_json(enum state_phase phase, const struct steady_result *sr,
			  const struct steady_rule *rule)
{
	json_t *rounds = json_array();
	double mib_s = window_mib_s(sr, rule->window);

	for (size_t i = 0; i < sr->n; i++) {
		json_array_append_new(rounds, json_pack("{s:I,s:f,s:f,s:f}", "round", (json_int_t)i + 1,
							"iops", sr->rounds[i].iops,
							"mib_s", sr->rounds[i].mib_s,
							"mean_lat_ms",
							sr->rounds[i].mean_lat_s * 1e3));
	}
	return json_pack("{s:s,s:f,s:f,s:f,s:{s:b,s:I,s:I,s:f,s:f},s:o}",
			 "state", phase_names[phase], "iops", sr->eval.mean > 0 ? sr->eval.mean : 0.0,
			 "mib_s", mib_s, "mb_s", mib_s * MIB / 1e6,
			 "steady_state", "reached", sr->eval.reached, "round",
			 (json_int_t)(sr->eval.reached ? sr->eval.round : 0),
			 "window", (json_int_t)rule->window,
			 "range_pct", sr->eval.range_frac * 100,
			 "excursion_pct", sr->eval.excursion_frac * 100,
			 "rounds", rounds);
}

static int print_state(const struct state_options *o, const struct measure_target *m,
		       const struct steady_result sr[STATE_PHASES], const struct steady_rule *rule)
{
	double fresh = window_mib_s(&sr[STATE_FRESH], rule->window);
	char size[32], path[1024];

	if (o->json) {
		json_t *states = json_array();

		for (int p = 0; p < STATE_PHASES; p++)
			json_array_append_new(states, phase_json((enum state_phase)p, &sr[p], rule));
		return json_dump_document(stdout, json_pack(
			"{s:s,s:s,s:s,s:o,s:I,s:I,s:I,s:o,s:f,s:f}", "schema", "iomodel.state/1",
			"iomodel_version", IOMODEL_VERSION, "command", "state", "target", json_text(m->t.path),
			"span_bytes", (json_int_t)m->t.size, "bs", (json_int_t)o->bs,
			"qd", (json_int_t)o->qd, "states", states,
			"used_over_fresh", fresh > 0 ? window_mib_s(&sr[STATE_USED], rule->window) / fresh : 0.0,
			"trimmed_over_fresh",
			fresh > 0 ? window_mib_s(&sr[STATE_TRIMMED], rule->window) / fresh : 0.0));
	}
	format_size(size, sizeof(size), o->bs);
	errmsg_escape(path, sizeof(path), m->t.path);
	printf("%s random writes at QD%u on %s\n", size, o->qd, path);
	printf("%-8s %10s %10s %10s %8s  %s\n", "state", "MB/s", "MiB/s", "IOPS", "vs fresh",
	       "steady state (SNIA PTS, 5-round window)");
	for (int p = 0; p < STATE_PHASES; p++) {
		const struct steady_result *r = &sr[p];
		double mib_s = window_mib_s(r, rule->window);
		char steady[96];

		if (r->eval.reached)
			snprintf(steady, sizeof(steady), "reached in round %zu (range %.1f %%, "
				 "excursion %.1f %%)", r->eval.round, r->eval.range_frac * 100,
				 r->eval.excursion_frac * 100);
		else
			snprintf(steady, sizeof(steady), "NOT reached in %zu rounds: last %zu "
				 "rounds shown", r->n, r->n < rule->window ? r->n : rule->window);
		printf("%-8s %10.4g %10.4g %10.4g %7.3fx  %s\n", phase_names[p], mib_s * MIB / 1e6,
		       mib_s, mib_s * MIB / (double)o->bs, fresh > 0 ? mib_s / fresh : 0, steady);
	}
	return ferror(stdout) ? -EIO : 0;
}

/*
 * Say up front how long the rounds of a real target take at most, and what
 * the preconditioning writes (its time is the drive's): one line on stderr.
 */
static void state_announce(const struct state_options *o, const struct measure_target *m,
			   const struct steady_rule *rule)
{
	struct job_spec job;
	char span[32], bs[32];
	double round_s;

	if (m->t.kind == TARGET_SIM)
		return;
	state_job(o, m, &job);
	round_s = (double)job.runtime_ns / 1e9;
	format_size(span, sizeof(span), m->t.size);
	format_size(bs, sizeof(bs), o->bs);
	say("state of %s: rounds take at most %.0f s (%d states x %zu rounds x %.3g s); before "
	    "the used state the %s span is written twice (sequentially, then in %s random "
	    "writes), as long as the drive takes", m->t.path,
	    ceil(STATE_PHASES * (double)rule->max_rounds * round_s), STATE_PHASES,
	    (size_t)rule->max_rounds, round_s, span, bs);
}

static int state_measure(struct series *s, const struct state_options *o,
			 const struct steady_rule *rule, struct steady_result sr[STATE_PHASES])
{
	struct run_result *r = malloc(sizeof(*r));
	int status = EXIT_OK;

	if (!r)
		return fprintf(stderr, "iomodel: out of memory\n"), EXIT_FAILED;
	run_result_init(r);
	for (int p = 0; p < STATE_PHASES && status == EXIT_OK; p++) {
		struct job_spec job;

		status = enter_phase(s, o, (enum state_phase)p, r);
		if (p == STATE_FRESH && status == EXIT_OK)	/* the target takes discards */
			state_announce(o, s->m, rule);
		state_job(o, s->m, &job);
		job.seed = o->seed + 100 * (uint64_t)p;
		if (status == EXIT_OK)
			status = series_until_steady(s, &job, phase_names[p], rule, r, &sr[p]);
	}
	run_result_release(r);
	free(r);
	return status;
}

int cmd_state(int argc, char **argv)
{
	const volatile sig_atomic_t *stop = signals_install_stop();
	struct state_options o = { .target = { .direct = true, .writes = true },
				   .engine = BACKEND_IO_URING, .seed = 1, .bs = 4096, .qd = 1,
				   .max_rounds = 25 };
	struct command_line cl = { argv[0], state_long_options, ":h", cmd_state_usage,
				   apply_state_option, &o };
	const struct target_options topts = {
		.which = TOPT_TARGET | TOPT_SIZE | TOPT_DESTROY | TOPT_SIM_MEMORY | TOPT_ENGINE |
			 TOPT_SEED,
		.target = &o.target, .engine = &o.engine, .seed = &o.seed };
	struct steady_result *sr;
	struct steady_rule rule;
	struct measure_target m;
	struct series s;
	struct errmsg err;
	int status = parse_target_command_line(&cl, &topts, argc, argv, NULL);

	if (status)
		return status < 0 ? EXIT_OK : status;
	if (!o.target.path)
		return bad("state: missing --target (a block device, a file or sim:DRIVE)");
	if (!strcmp(o.target.path, "null"))
		return bad("state: the null target has no state to measure");
	if (!o.target.destroy_data)
		return bad("state: discards and overwrites all of '%s'; say so with --destroy-data",
			   o.target.path);
	steady_rule_snia(&rule);
	rule.max_rounds = o.max_rounds;
	o.target.stop = stop;
	status = measure_open(&m, &o.target, o.engine, o.seed, &err);
	if (status) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		return exit_status_of_error(status);
	}
	sr = calloc(STATE_PHASES, sizeof(*sr));
	if (!sr) {
		measure_close(&m);
		return fprintf(stderr, "iomodel: out of memory\n"), EXIT_FAILED;
	}
	series_init(&s, &m, stop, STATE_PHASES * rule.max_rounds, false);
	status = state_measure(&s, &o, &rule, sr);
	progress_end(&s.progress);
	if (status == EXIT_OK && print_state(&o, &m, sr, &rule))
		status = EXIT_FAILED;
	series_release(&s);
	measure_close(&m);
	free(sr);
	return signals_exit_status(status, stop);
}
