/*
 * profile_cmd.c — `iomodel profile`: the transfer rate across a device, as
 * HD Tune measures it. Sequential transfers at evenly spaced positions from
 * the start (an HDD's outer edge) to the end, each point bounded in time; the
 * random access time over the whole span; the burst rate (one small region
 * read again and again, so the drive's cache serves it); and a verdict: flat,
 * falling, rising or uneven, with the outer/inner ratio (suite/profile.h).
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
#include "suite/profile.h"
#include "util/units.h"

#define PROFILE_MAX_POINTS 1000
#define BURST_REGION (1ULL << 20)

struct profile_options {
	struct target_request target;
	enum backend_kind engine;
	uint64_t seed;
	uint64_t bs;
	unsigned points;
	unsigned qd;
	uint64_t point_ns;		/* 0: the target's default */
	bool write;
	bool json;
};

struct profile_result {
	double *mib_s;			/* per point */
	uint64_t *offset;
	unsigned n;
	double access_ms;
	uint32_t access_bs;
	double burst_mib_s;
};

enum { OPT_POINTS = OPTION_ID_OWN, OPT_BS, OPT_QD, OPT_POINT_TIME, OPT_WRITE, OPT_JSON };

static const struct option profile_long_options[] = {
	{ "points", required_argument, NULL, OPT_POINTS },
	{ "bs", required_argument, NULL, OPT_BS },
	{ "qd", required_argument, NULL, OPT_QD },
	{ "point-time", required_argument, NULL, OPT_POINT_TIME },
	{ "write", no_argument, NULL, OPT_WRITE },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void cmd_profile_usage(FILE *f)
{
	fputs("usage: iomodel profile --target PATH|sim:DRIVE [options]\n"
	      "\n"
	      "The transfer rate across the device, as HD Tune draws it: sequential\n"
	      "transfers at --points evenly spaced positions from the start (an HDD's\n"
	      "outer edge) to the end, each bounded by --point-time; the random access\n"
	      "time over the whole span; the burst rate (one 1 MiB region read again and\n"
	      "again, served from the drive's cache); and a verdict with the outer/inner\n"
	      "ratio: falling (zoned recording: outer/inner >= 1.15, trend down), rising\n"
	      "(inner/outer >= 1.15, trend up), uneven (no trend, points spread >= 30 %\n"
	      "of the mean) or flat (SSD-like). On a real target the default takes at\n"
	      "most 100 x 1 s + 4.1 s, said on stderr first.\n"
	      "\n"
	      "  --target, --size, --keep, --sim-memory, --engine, --seed\n"
	      "                       as for 'iomodel run'\n"
	      "  --points N           positions measured (100; 2 to 1000)\n"
	      "  --bs SIZE            request size of the transfers (1m)\n"
	      "  --qd N               queue depth of the transfers (1)\n"
	      "  --point-time TIME    time bound of each position (1s; 60s simulated on sim:)\n"
	      "  --write              write instead of read (needs --destroy-data)\n"
	      "  --destroy-data       allow --write to overwrite the target\n"
	      "  --json               results as JSON (schema iomodel.profile/1)\n", f);
}

static int apply_profile_option(void *ctx, int id, const char *arg)
{
	struct profile_options *o = ctx;
	uint64_t v;
	int ret = 0;

	switch (id) {
	case OPT_WRITE: o->write = true; break;
	case OPT_JSON: o->json = true; break;
	case OPT_POINTS:
		ret = count_opt("--points", arg, 2, PROFILE_MAX_POINTS, &v);
		o->points = (unsigned)v;
		break;
	case OPT_QD:
		ret = count_opt("--qd", arg, 1, 1024, &v);
		o->qd = (unsigned)v;
		break;
	case OPT_BS: ret = direct_bs_opt(arg, &o->bs); break;
	case OPT_POINT_TIME:
		ret = time_opt("--point-time", arg, &o->point_ns);
		if (!ret && !o->point_ns)
			ret = bad("--point-time: must be positive");
		break;
	default: ret = EXIT_BAD_INPUT; break;
	}
	return ret;
}

/* Run `job` and return the MiB/s and mean latency of its one operation type. */
static int measure_one(struct series *s, struct job_spec *job, const char *rw,
		       struct run_result *r, double *mib_s, double *mean_ms)
{
	const struct op_result *op;
	double secs;
	int status;

	run_result_release(r);
	run_result_init(r);
	status = series_run_job(s, job, rw, r);
	s->done++;
	op = &r->op[job->read_pct ? IO_READ : IO_WRITE];
	secs = (double)r->elapsed_ns / 1e9;
	*mib_s = secs > 0 ? (double)op->bytes / secs / MIB : 0;
	if (mean_ms)
		*mean_ms = hist_mean(&op->lat) / 1e6;
	return status;
}

static int profile_measure(struct series *s, const struct profile_options *o,
			   struct profile_result *res, struct run_result *r)
{
	const struct measure_target *m = s->m;
	bool sim = m->t.kind == TARGET_SIM;
	uint64_t point_ns = o->point_ns ? o->point_ns : sim ? 60 * NSEC_PER_SEC : NSEC_PER_SEC;
	unsigned read_pct = o->write ? 0 : 100;
	const char *rw = o->write ? "write" : "read";
	int status = EXIT_OK;

	for (unsigned i = 0; i < o->points && status == EXIT_OK; i++) {
		struct job_spec job = { .random = false, .read_pct = read_pct, .bs = o->bs,
					.align = o->bs, .qd = o->qd, .runtime_ns = point_ns,
					.seed = o->seed + i };
		char what[64];

		profile_point_region(m->t.size, o->bs, o->points, i, &job.offset, &job.length);
		job.max_bytes = job.length;	/* one pass over the point's region at most */
		res->offset[i] = job.offset;
		snprintf(what, sizeof(what), "%s at %.0f %%", rw,
			 100.0 * (double)job.offset / (double)m->t.size);
		progress_update(&s->progress, s->done, what);
		status = measure_one(s, &job, rw, r, &res->mib_s[i], NULL);
		res->n = i + 1;
	}
	if (status == EXIT_OK) {
		struct job_spec access = { .random = true, .read_pct = 100, .bs = res->access_bs,
					   .align = res->access_bs, .qd = 1, .max_ios = 1000,
					   .runtime_ns = sim ? 600 * NSEC_PER_SEC : 3 * NSEC_PER_SEC,
					   .seed = o->seed ^ 0xacce55 };
		double unused;

		progress_update(&s->progress, s->done, "random access time");
		status = measure_one(s, &access, "randread", r, &unused, &res->access_ms);
	}
	if (status == EXIT_OK) {
		uint64_t bs = o->bs < BURST_REGION ? o->bs : BURST_REGION;
		struct job_spec burst = { .random = false, .read_pct = 100, .bs = bs, .align = bs,
					  .qd = o->qd, .offset = 0, .length = BURST_REGION,
					  .ramp_ns = sim ? 0 : NSEC_PER_SEC / 10, .max_ios = 4000,
					  .runtime_ns = sim ? 60 * NSEC_PER_SEC : NSEC_PER_SEC,
					  .seed = o->seed };

		if (burst.length > m->t.size)
			burst.length = m->t.size / bs * bs;
		progress_update(&s->progress, s->done, "burst rate");
		status = measure_one(s, &burst, "read", r, &res->burst_mib_s, NULL);
	}
	progress_update(&s->progress, s->done, "");
	return status;
}

static int print_profile(const struct profile_options *o, const struct measure_target *m,
			 const struct profile_result *res, const struct profile_verdict *v)
{
	static const char *const meaning[] = {
		[PROFILE_FLAT] = "",
		[PROFILE_FALLING] = ": zoned recording, rate linear in radius",
		[PROFILE_RISING] = ": faster towards the end (numbered from the inner edge, or a cached end)",
		[PROFILE_UNEVEN] = ": no trend, but the points spread widely (dips or a shared device)",
	};
	const char *verdict = profile_shape_name(v->shape);
	char size[32], path[1024];

	if (o->json) {
		json_t *points = json_array();

		for (unsigned i = 0; i < res->n; i++)
			json_array_append_new(points, json_pack("{s:f,s:I,s:f}", "position_pct",
				100.0 * (double)res->offset[i] / (double)m->t.size,
				"offset_bytes", (json_int_t)res->offset[i], "mib_s", res->mib_s[i]));
		return json_dump_document(stdout, json_pack(
			"{s:s,s:s,s:s,s:o,s:I,s:s,s:I,s:I,s:{s:o,s:f,s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:s}}",
			"schema", "iomodel.profile/1", "iomodel_version", IOMODEL_VERSION,
			"command", "profile", "target", json_text(m->t.path), "target_size", (json_int_t)m->t.size,
			"op", o->write ? "write" : "read", "bs", (json_int_t)o->bs, "qd", (json_int_t)o->qd,
			"profile", "points", points, "access_ms", res->access_ms,
			"access_bs", (json_int_t)res->access_bs, "burst_mib_s", res->burst_mib_s,
			"min_mib_s", v->min, "max_mib_s", v->max, "mean_mib_s", v->mean,
			"outer_inner_ratio", v->outer_inner_ratio, "mid_excess", v->mid_excess,
			"spread", v->spread, "verdict", verdict));
	}
	format_size(size, sizeof(size), o->bs);
	errmsg_escape(path, sizeof(path), m->t.path);
	printf("transfer rate across %s (%s sequential %ss, QD%u)\n", path, size,
	       o->write ? "write" : "read", o->qd);
	printf("%10s %12s\n", "position", "MiB/s");
	for (unsigned i = 0; i < res->n; i++)
		printf("%9.1f%% %12.4g\n", 100.0 * (double)res->offset[i] / (double)m->t.size,
		       res->mib_s[i]);
	printf("minimum %.4g, maximum %.4g, average %.4g MiB/s\n", v->min, v->max, v->mean);
	printf("access time %.4g ms (random %u-byte reads), burst rate %.4g MiB/s\n",
	       res->access_ms, res->access_bs, res->burst_mib_s);
	printf("verdict: %s (outer/inner %.2f, spread %.0f%%)%s\n", verdict, v->outer_inner_ratio,
	       100 * v->spread, meaning[v->shape]);
	return ferror(stdout) ? -EIO : 0;
}

/*
 * Say up front how long a real target takes at most: one line on stderr,
 * also when it is not a terminal (a log then says what to expect). The
 * positions, then up to 3 s of access time, 0.1 s of ramp and 1 s of burst.
 */
static void announce(const struct profile_options *o, const struct measure_target *m)
{
	double secs;

	if (m->t.kind == TARGET_SIM)
		return;
	secs = (double)o->points * (o->point_ns ? (double)o->point_ns / 1e9 : 1.0) + 4.1;
	say("profile of %s: %u points, at most %.0f s", m->t.path, o->points, ceil(secs));
}

static int profile_run(struct profile_options *o, struct measure_target *m,
		       const volatile sig_atomic_t *stop)
{
	struct profile_result res = { .access_bs = m->t.dio_align ? m->t.dio_align : 512 };
	struct run_result *r = malloc(sizeof(*r));
	struct profile_verdict v;
	struct series s;
	int status;

	res.mib_s = calloc(o->points, sizeof(*res.mib_s));
	res.offset = calloc(o->points, sizeof(*res.offset));
	if (!r || !res.mib_s || !res.offset) {
		status = (fprintf(stderr, "iomodel: out of memory\n"), EXIT_FAILED);
		goto out;
	}
	if (m->t.size < o->bs * o->points) {
		status = bad("profile: '%s' holds %llu bytes, fewer than --points x --bs", m->t.path,
			     (unsigned long long)m->t.size);
		goto out;
	}
	announce(o, m);
	run_result_init(r);
	series_init(&s, m, stop, o->points + 2, false);
	status = profile_measure(&s, o, &res, r);
	progress_end(&s.progress);
	if (status == EXIT_OK) {
		profile_judge(res.mib_s, res.n, &v);
		if (print_profile(o, m, &res, &v))
			status = EXIT_FAILED;
	}
	series_release(&s);
	run_result_release(r);
out:
	free(r);
	free(res.mib_s);
	free(res.offset);
	return status;
}

int cmd_profile(int argc, char **argv)
{
	const volatile sig_atomic_t *stop = signals_install_stop();
	struct profile_options o = { .target = { .direct = true }, .engine = BACKEND_IO_URING,
				     .seed = 1, .bs = 1 << 20, .points = 100, .qd = 1 };
	struct command_line cl = { argv[0], profile_long_options, ":h", cmd_profile_usage,
				   apply_profile_option, &o };
	const struct target_options topts = { .which = TOPT_ALL & ~TOPT_BUFFERED,
		.target = &o.target, .engine = &o.engine, .seed = &o.seed };
	struct measure_target m;
	struct errmsg err;
	int status = parse_target_command_line(&cl, &topts, argc, argv, NULL);

	if (status)
		return status < 0 ? EXIT_OK : status;
	if (!o.target.path)
		return bad("profile: missing --target (a block device, a file or sim:DRIVE)");
	if (!strcmp(o.target.path, "null"))
		return bad("profile: the null target has no positions to profile");
	if (o.target.destroy_data && !o.write)
		return bad("profile: --destroy-data goes with --write");
	o.target.writes = o.write;
	o.target.stop = stop;
	status = measure_open(&m, &o.target, o.engine, o.seed, &err);
	if (status) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		status = exit_status_of_error(status);
		return signals_exit_status(status, stop);
	}
	status = profile_run(&o, &m, stop);
	measure_close(&m);
	return signals_exit_status(status, stop);
}
