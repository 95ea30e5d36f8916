/*
 * run_options.c — the options of `iomodel run`: the help text, the option
 * table, and the checks that need no target. Every option is checked here,
 * before anything is opened, so bad input never touches the disk.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "suite/jobs.h"
#include "engine/verify_block.h"
#include "util/bug.h"
#include "util/units.h"

#define MAX_QD 1024
#define DEFAULT_RUNTIME_NS (10 * NSEC_PER_SEC)

struct rw_mode {
	const char *name;
	bool random;
	unsigned read_pct;	/* 101: mixed, --rwmix decides (default 50) */
};

static const struct rw_mode rw_modes[] = {
	{ "read", false, 100 }, { "write", false, 0 },
	{ "randread", true, 100 }, { "randwrite", true, 0 },
	{ "rw", false, 101 }, { "randrw", true, 101 },
};

void cmd_run_usage(FILE *f)
{
	fputs("usage: iomodel run --target PATH|null [options]\n"
	      "\n"
	      "Run one workload against one target and report IOs, IOPS, MiB/s,\n"
	      "latency percentiles, a per-second timeline and the tool's CPU time.\n"
	      "\n"
	      "target:\n"
	      "  --target PATH|null|sim:DRIVE\n"
	      "                       a file (created and laid out if missing), a block\n"
	      "                       device, null (IOs complete at once: measures iomodel),\n"
	      "                       or a simulated drive (see 'iomodel sim list')\n"
	      "  --size SIZE          size of a file to create (or of an empty one, or of\n"
	      "                       null) (1GiB); on an existing file or device, use\n"
	      "                       only its first SIZE bytes\n"
	      "  --destroy-data       allow writing to an existing file or a block device,\n"
	      "                       and laying out an existing empty file\n"
	      "  --keep               keep a file that this run created\n"
	      "  --sim-memory SIZE    most memory a sim: drive's state may take (a quarter\n"
	      "                       of physical memory); a larger drive is refused\n"
	      "workload:\n"
	      "  --rw MODE            read, write, randread, randwrite, rw, randrw (randread)\n"
	      "  --rwmix PCT          reads in percent for rw and randrw (50)\n"
	      "  --bs SIZE            bytes per IO, up to 2047MiB; a multiple of 512 with\n"
	      "                       O_DIRECT (4k)\n"
	      "  --qd N               IOs kept in flight, 1-1024 (1)\n"
	      "  --align SIZE         offsets are multiples of this (the block size)\n"
	      "  --offset SIZE        start of the region used (0)\n"
	      "  --length SIZE        length of the region used (to the end of the target)\n"
	      "  --seed N             seed of the offsets, the read/write draw and the\n"
	      "                       data written (1)\n"
	      "jobs:\n"
	      "  --jobs N             N jobs at once, 1-1024, each with its own thread,\n"
	      "                       backend, offsets (seed of its own) and --qd IOs in\n"
	      "                       flight; one merged result (1)\n"
	      "  --split              give each job its own slice of the region (default:\n"
	      "                       every job uses all of it)\n"
	      "  --per-job            also print each job's results\n"
	      "  --cpus LIST          pin job i to the i-th CPU of LIST (e.g. 0-3,6), its\n"
	      "                       buffers then on that CPU's memory node\n"
	      "verify:\n"
	      "  --verify             stamp every write (one block per IO: header and\n"
	      "                       trailer with offset, generation, sequence; crc32c),\n"
	      "                       read each block back before overwriting it and the\n"
	      "                       whole region after the run, and report lost,\n"
	      "                       misdirected and torn writes and corruption (exit 1\n"
	      "                       on any); a read workload checks a region a --verify\n"
	      "                       write run left; needs --align = --bs >= 512; with\n"
	      "                       --jobs each job verifies a slice of its own (implies\n"
	      "                       --split), under mpirun each rank its part\n"
	      "  --verify-generation N\n"
	      "                       the generation to write, or to expect when reading\n"
	      "                       (default: a new one per write run; a read run takes\n"
	      "                       the first one it reads)\n"
	      "stop (whichever comes first; 10s when none is given):\n"
	      "  --runtime TIME       measured time, e.g. 10s, 500ms, 2m\n"
	      "  --ios N              number of IOs\n"
	      "  --bytes SIZE         number of bytes\n"
	      "  --ramp TIME          warm-up before measuring, excluded from results (0)\n"
	      "  --steady-state       repeat the run (one round each) until the SNIA PTS\n"
	      "                       steady-state rule holds for IOPS over 5 rounds:\n"
	      "                       range <= 20 % of the mean, least-squares excursion\n"
	      "                       <= 10 %; prints every round and the last one's results\n"
	      "  --max-rounds N       with --steady-state: give up after N rounds (25)\n"
	      "io:\n"
	      "  --engine NAME        io_uring, libaio or psync (io_uring, falling back\n"
	      "                       to libaio, then psync, with a notice); psync does\n"
	      "                       one IO at a time, so it runs at queue depth 1\n"
	      "  --buffered           go through the page cache (default: O_DIRECT)\n"
	      "output:\n"
	      "  --json | --csv       machine-readable results (default: a table)\n"
	      "  --fio-job FILE       also write the fio job file that measures the same\n"
	      "                       job, to reproduce the figures with fio\n"
	      "  -h, --help           show this help\n"
	      "\n"
	      "Sizes take binary multiples: 512, 4k, 4KiB, 700MiB, 1.5G.\n"
	      "Times: 10s, 500ms, 2m; a bare number is seconds.\n", f);
}

static void vsay(const char *fmt, va_list ap)
{
	char text[1024], line[4096];

	vsnprintf(text, sizeof(text), fmt, ap);
	errmsg_escape(line, sizeof(line), text);
	fprintf(stderr, "iomodel: %s\n", line);
}

void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

int bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	return EXIT_BAD_INPUT;
}

static int parse_rw(struct run_options *o, const char *arg)
{
	for (size_t i = 0; i < sizeof(rw_modes) / sizeof(rw_modes[0]); i++) {
		if (!strcmp(arg, rw_modes[i].name)) {
			o->rw = rw_modes[i].name;
			o->spec.random = rw_modes[i].random;
			o->spec.read_pct = rw_modes[i].read_pct;
			return 0;
		}
	}
	return bad("--rw '%s': expected read, write, randread, randwrite, rw or randrw",
		   arg);
}

int size_opt(const char *name, const char *arg, uint64_t *out)
{
	int ret = parse_size(arg, out);

	if (ret == -ERANGE)
		return bad("%s '%s': too large", name, arg);
	if (ret)
		return bad("%s '%s': not a size (examples: 512, 4k, 700MiB, 1.5G)", name, arg);
	return 0;
}

/* The value `v` a parser read (status `ret`), refused when 0. */
static int nonzero_opt(const char *name, const char *arg, int ret, uint64_t v, uint64_t *out)
{
	if (ret)
		return ret;
	if (v == 0)
		return bad("%s '%s': must be positive (leave the option out for the default)",
			   name, arg);
	*out = v;
	return 0;
}

int positive_size_opt(const char *name, const char *arg, uint64_t *out)
{
	uint64_t v = 0;
	int ret = size_opt(name, arg, &v);

	return nonzero_opt(name, arg, ret, v, out);
}

int positive_time_opt(const char *name, const char *arg, uint64_t *out)
{
	uint64_t v = 0;
	int ret = time_opt(name, arg, &v);

	return nonzero_opt(name, arg, ret, v, out);
}

int direct_bs_opt(const char *arg, uint64_t *out)
{
	int ret = size_opt("--bs", arg, out);

	if (!ret && (*out == 0 || *out % 512 || *out > MAX_BS))
		return bad("--bs '%s': a multiple of 512 up to 2047MiB", arg);
	return ret;
}

int engine_opt(const char *arg, enum backend_kind *out)
{
	if (backend_kind_parse(arg, out))
		return bad("--engine '%s': expected io_uring, libaio or psync", arg);
	return 0;
}

int time_opt(const char *name, const char *arg, uint64_t *out)
{
	int ret = parse_duration_ns(arg, out);

	if (ret == -ERANGE)
		return bad("%s '%s': too long", name, arg);
	if (ret)
		return bad("%s '%s': not a duration (examples: 10s, 500ms, 2m)", name, arg);
	return 0;
}

int count_opt(const char *name, const char *arg, uint64_t min, uint64_t max,
		     uint64_t *out)
{
	int ret = parse_count(arg, min, max, out);

	if (ret == -ERANGE)
		return bad("%s '%s': expected a number from %llu to %llu", name, arg,
			   (unsigned long long)min, (unsigned long long)max);
	if (ret)
		return bad("%s '%s': not a whole number", name, arg);
	return 0;
}

/* The ids of the shared target options, below OPTION_ID_OWN. */
enum target_option_id {
	TID_TARGET = 256, TID_SIZE, TID_DESTROY, TID_KEEP, TID_SIM_MEMORY, TID_ENGINE,
	TID_BUFFERED, TID_SEED, TID_RW, TID_QD, TID_POINT_TIME, TID_POINT_IOS, TID_END
};
_Static_assert(TID_END <= OPTION_ID_OWN, "target option ids overlap commands' own");

static const struct {
	unsigned which;		/* enum target_option bits that take the option */
	struct option opt;
} target_option_table[] = {
	{ TOPT_TARGET, { "target", required_argument, NULL, TID_TARGET } },
	{ TOPT_SIZE | TOPT_SIZE_OR_ZERO, { "size", required_argument, NULL, TID_SIZE } },
	{ TOPT_DESTROY, { "destroy-data", no_argument, NULL, TID_DESTROY } },
	{ TOPT_KEEP, { "keep", no_argument, NULL, TID_KEEP } },
	{ TOPT_SIM_MEMORY, { "sim-memory", required_argument, NULL, TID_SIM_MEMORY } },
	{ TOPT_ENGINE, { "engine", required_argument, NULL, TID_ENGINE } },
	{ TOPT_BUFFERED, { "buffered", no_argument, NULL, TID_BUFFERED } },
	{ TOPT_SEED, { "seed", required_argument, NULL, TID_SEED } },
	{ TOPT_SERIES, { "rw", required_argument, NULL, TID_RW } },
	{ TOPT_SERIES, { "qd", required_argument, NULL, TID_QD } },
	{ TOPT_SERIES, { "point-time", required_argument, NULL, TID_POINT_TIME } },
	{ TOPT_SERIES, { "point-ios", required_argument, NULL, TID_POINT_IOS } },
};

#define TARGET_OPTIONS (sizeof(target_option_table) / sizeof(target_option_table[0]))
#define MAX_OPTIONS 64	/* a command's own long options plus the target options */

static int apply_series_option(const struct target_options *t, int id, const char *arg)
{
	struct sweep_plan *plan = t->plan;
	uint64_t lo, hi;
	enum io_op op;
	int ret;

	switch (id) {
	case TID_RW:
		*t->rw = arg;
		ret = direction_opt(arg, &plan->random, &op);
		if (!ret)
			plan->read_pct = op == IO_READ ? 100 : 0;
		return ret;
	case TID_QD:
		ret = range_opt("--qd", arg, true, &lo, &hi);
		plan->min_qd = (unsigned)lo;
		plan->max_qd = (unsigned)hi;
		return ret;
	case TID_POINT_TIME: return positive_time_opt("--point-time", arg, t->point_ns);
	case TID_POINT_IOS: return count_opt("--point-ios", arg, 1, INT64_MAX, t->point_ios);
	default: return EXIT_BAD_INPUT;
	}
}

static int apply_target_option(const struct target_options *t, int id, const char *arg)
{
	struct target_request *target = t->target;

	switch (id) {
	case TID_TARGET: target->path = arg; return 0;
	case TID_SIZE:
		if (t->which & TOPT_SIZE_OR_ZERO)
			return size_opt("--size", arg, &target->size);
		return positive_size_opt("--size", arg, &target->size);
	case TID_DESTROY: target->destroy_data = true; return 0;
	case TID_KEEP: target->keep = true; return 0;
	case TID_SIM_MEMORY: return positive_size_opt("--sim-memory", arg, &target->sim_memory);
	case TID_ENGINE: return engine_opt(arg, t->engine);
	case TID_BUFFERED: target->direct = false; return 0;
	case TID_SEED: return count_opt("--seed", arg, 0, INT64_MAX, t->seed);
	default: return apply_series_option(t, id, arg);
	}
}

/* `cl`'s own table followed by the target options `t` names, in `out` (MAX_OPTIONS). */
static void merge_option_tables(const struct command_line *cl, const struct target_options *t,
				struct option *out)
{
	size_t n = 0;

	BUG_ON(t && (!t->target || ((t->which & TOPT_ENGINE) && !t->engine) ||
		     ((t->which & TOPT_SEED) && !t->seed) ||
		     ((t->which & TOPT_SERIES) &&
		      (!t->rw || !t->plan || !t->point_ns || !t->point_ios))));
	for (const struct option *p = cl->table; p->name; p++) {
		BUG_ON(t && p->val >= TID_TARGET && p->val < TID_END);
		BUG_ON(n + 1 >= MAX_OPTIONS);
		if (n + 1 < MAX_OPTIONS)
			out[n++] = *p;
	}
	for (size_t i = 0; t && i < TARGET_OPTIONS && n + 1 < MAX_OPTIONS; i++)
		if (t->which & target_option_table[i].which)
			out[n++] = target_option_table[i].opt;
	out[n] = (struct option){ NULL, 0, NULL, 0 };
}

enum option_id {
	OPT_RW = OPTION_ID_OWN, OPT_RWMIX,
	OPT_BS, OPT_QD, OPT_ALIGN, OPT_OFFSET, OPT_LENGTH, OPT_RUNTIME,
	OPT_IOS, OPT_BYTES, OPT_RAMP, OPT_JSON, OPT_CSV,
	OPT_JOBS, OPT_SPLIT, OPT_PER_JOB, OPT_CPUS,
	OPT_VERIFY, OPT_VERIFY_GENERATION,
	OPT_STEADY, OPT_MAX_ROUNDS, OPT_FIO_JOB,
};

static const struct option run_long_options[] = {
	{ "rw", required_argument, NULL, OPT_RW },
	{ "rwmix", required_argument, NULL, OPT_RWMIX },
	{ "bs", required_argument, NULL, OPT_BS },
	{ "qd", required_argument, NULL, OPT_QD },
	{ "align", required_argument, NULL, OPT_ALIGN },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "length", required_argument, NULL, OPT_LENGTH },
	{ "runtime", required_argument, NULL, OPT_RUNTIME },
	{ "ios", required_argument, NULL, OPT_IOS },
	{ "bytes", required_argument, NULL, OPT_BYTES },
	{ "ramp", required_argument, NULL, OPT_RAMP },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "split", no_argument, NULL, OPT_SPLIT },
	{ "per-job", no_argument, NULL, OPT_PER_JOB },
	{ "cpus", required_argument, NULL, OPT_CPUS },
	{ "verify", no_argument, NULL, OPT_VERIFY },
	{ "verify-generation", required_argument, NULL, OPT_VERIFY_GENERATION },
	{ "steady-state", no_argument, NULL, OPT_STEADY },
	{ "max-rounds", required_argument, NULL, OPT_MAX_ROUNDS },
	{ "fio-job", required_argument, NULL, OPT_FIO_JOB },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int cpu_number(const char *text, size_t len, const char *arg, int *out)
{
	char buf[16];
	uint64_t v;

	if (len == 0 || len >= sizeof(buf))
		return bad("--cpus '%s': expected CPU numbers and ranges such as 0-3,6", arg);
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (parse_count(buf, 0, MAX_CPUS - 1, &v))
		return bad("--cpus '%s': '%s' is not a CPU number (0-%d)", arg, buf, MAX_CPUS - 1);
	*out = (int)v;
	return 0;
}

static bool cpu_allowed(int cpu, const int *allowed, int n_allowed)
{
	for (int i = 0; i < n_allowed; i++)
		if (allowed[i] == cpu)
			return true;
	return false;
}

int cpus_opt(const char *arg, struct jobs_cli *j)
{
	int allowed[MAX_CPUS];
	int n_allowed = jobs_allowed_cpus(allowed, MAX_CPUS);
	const char *p = arg;

	j->n_cpus = 0;
	while (*p) {
		size_t len = strcspn(p, ",");
		const char *dash = memchr(p, '-', len);
		int lo = 0, hi = 0;

		if (cpu_number(p, dash ? (size_t)(dash - p) : len, arg, &lo) ||
		    cpu_number(dash ? dash + 1 : p, dash ? len - (size_t)(dash - p) - 1 : len, arg,
			       &hi))
			return EXIT_BAD_INPUT;
		if (hi < lo)
			return bad("--cpus '%s': range %d-%d runs backwards", arg, lo, hi);
		for (int c = lo; c <= hi; c++) {
			if (!cpu_allowed(c, allowed, n_allowed))
				return bad("--cpus '%s': CPU %d is not one this process may use", arg, c);
			if (j->n_cpus == MAX_CPUS)
				return bad("--cpus '%s': more than %d CPUs", arg, MAX_CPUS);
			j->cpus[j->n_cpus++] = c;
		}
		p += len + (p[len] == ',');
		if (p[-1] == ',' && !*p)
			return bad("--cpus '%s': ends with a comma", arg);
	}
	return j->n_cpus ? 0 : bad("--cpus: empty list");
}

/* Apply one parsed option; returns 0 or EXIT_BAD_INPUT (message printed). */
static int apply_run_option(void *ctx, int id, const char *arg)
{
	struct run_options *o = ctx;
	struct job_spec *s = &o->spec;
	uint64_t v;
	int ret = 0;

	switch (id) {
	case OPT_RW: ret = parse_rw(o, arg); break;
	case OPT_RWMIX:
		ret = count_opt("--rwmix", arg, 0, 100, &v);
		o->rwmix = (unsigned)v;
		o->rwmix_set = true;
		break;
	case OPT_BS: ret = size_opt("--bs", arg, &s->bs); break;
	case OPT_QD:
		ret = count_opt("--qd", arg, 1, MAX_QD, &v);
		s->qd = (unsigned)v;
		break;
	case OPT_ALIGN: ret = size_opt("--align", arg, &s->align); o->align_set = true; break;
	case OPT_OFFSET: ret = size_opt("--offset", arg, &s->offset); break;
	case OPT_LENGTH: ret = size_opt("--length", arg, &s->length); o->length_set = true; break;
	case OPT_RUNTIME:
		ret = time_opt("--runtime", arg, &s->runtime_ns);
		o->runtime_set = true;
		break;
	case OPT_IOS: ret = count_opt("--ios", arg, 1, INT64_MAX, &s->max_ios); break;
	case OPT_BYTES:
		ret = size_opt("--bytes", arg, &s->max_bytes);
		o->bytes_set = true;
		break;
	case OPT_RAMP: ret = time_opt("--ramp", arg, &s->ramp_ns); break;
	case OPT_JSON: o->format = OUTPUT_JSON; break;
	case OPT_CSV: o->format = OUTPUT_CSV; break;
	case OPT_JOBS:
		ret = count_opt("--jobs", arg, 1, JOBS_MAX, &v);
		o->jobs.jobs = (unsigned)v;
		break;
	case OPT_SPLIT: o->jobs.split = true; break;
	case OPT_PER_JOB: o->jobs.per_job = true; break;
	case OPT_CPUS: ret = cpus_opt(arg, &o->jobs); break;
	case OPT_VERIFY: s->verify = VERIFY_READ_BACK; break;
	case OPT_VERIFY_GENERATION:
		ret = count_opt("--verify-generation", arg, 1, INT64_MAX, &s->verify_generation);
		break;
	case OPT_STEADY: o->steady_state = true; break;
	case OPT_MAX_ROUNDS:
		ret = count_opt("--max-rounds", arg, 5, 100, &v);
		o->max_rounds = (unsigned)v;
		break;
	case OPT_FIO_JOB: o->fio_job = arg; break;
	default: ret = EXIT_BAD_INPUT; break;
	}
	return ret;
}

/* What --verify needs that is known before the target is opened (the rest: verify_check_job). */
static int check_verify_options(const struct run_options *o)
{
	const struct job_spec *s = &o->spec;

	if (s->bs < VERIFY_MIN_BLOCK)
		return bad("--verify needs --bs of at least %u bytes (each block carries a %u-byte "
			   "header and trailer)", VERIFY_MIN_BLOCK, VERIFY_STAMP_BYTES);
	if (o->align_set && s->align != s->bs)
		return bad("--verify needs --align equal to --bs: each request is one verified block");
	if (s->bs * s->qd > VERIFY_MAX_BUFFERS)
		return bad("--verify needs a buffer of its own per IO in flight: --bs x --qd at "
			   "most 1GiB");
	return 0;
}

/* Checks that need no target; returns 0 or EXIT_BAD_INPUT. */
static int check_options(struct run_options *o)
{
	struct job_spec *s = &o->spec;
	int ret;

	if (!o->target.path)
		return bad("missing --target (a file, a block device, null, or sim:DRIVE)");
	if (!*o->target.path)
		return bad("--target: empty path");
	if (s->bs == 0 || s->bs > MAX_BS)
		return bad("--bs %llu: expected 1 byte to 2047MiB", (unsigned long long)s->bs);
	if (o->align_set && s->align == 0)
		return bad("--align: must be positive");
	if (o->length_set && s->length == 0)
		return bad("--length: must be positive");
	if (o->runtime_set && s->runtime_ns == 0)
		return bad("--runtime: must be positive");
	if (o->bytes_set && (s->max_bytes == 0 || s->max_bytes > INT64_MAX))
		return bad("--bytes: expected 1 byte to 8EiB");
	if (o->target.size > INT64_MAX || s->offset > INT64_MAX || s->length > INT64_MAX)
		return bad("--size, --offset and --length must stay below 8EiB");
	if (o->jobs.per_job && o->format == OUTPUT_CSV)
		return bad("--per-job: not with --csv (whose rows 'iomodel fit' reads as points)");
	if (o->rwmix_set && strcmp(o->rw, "rw") && strcmp(o->rw, "randrw"))
		return bad("--rwmix applies only to --rw rw or randrw, not '%s'", o->rw);
	if (s->read_pct == 101)
		s->read_pct = o->rwmix_set ? o->rwmix : 50;
	if (s->verify_generation && !s->verify)
		return bad("--verify-generation applies only with --verify");
	if (s->verify && (ret = check_verify_options(o)))
		return ret;
	if (!o->align_set)
		s->align = s->bs;
	if (o->max_rounds && !o->steady_state)
		return bad("--max-rounds goes with --steady-state");
	if (o->steady_state && s->verify)
		return bad("--verify does not go with --steady-state (each round would read the "
			   "region back)");
	if (!o->max_rounds)
		o->max_rounds = 25;
	if (!s->runtime_ns && !s->max_ios && !s->max_bytes)
		s->runtime_ns = DEFAULT_RUNTIME_NS;
	if (o->target.direct && strcmp(o->target.path, "null") &&
	    (s->bs % 512 || s->align % 512 || s->offset % 512))
		return bad("--bs, --align and --offset must be multiples of 512 with O_DIRECT "
			   "(got %llu, %llu, %llu); use --buffered for other sizes",
			   (unsigned long long)s->bs, (unsigned long long)s->align,
			   (unsigned long long)s->offset);
	o->target.writes = s->read_pct < 100;
	return 0;
}

/*
 * getopt_long accepts unambiguous abbreviations ("--tar"), which would let a
 * future option silently change what an old command line means: insist on
 * whole names. The value of an option given as "--bs 4k" is skipped.
 */
int check_whole_option_names(const struct option *table, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const struct option *opt = NULL;
		size_t len;

		if (!strcmp(arg, "--"))
			break;
		if (strncmp(arg, "--", 2))
			continue;
		len = strcspn(arg + 2, "=");
		for (const struct option *p = table; p->name && !opt; p++)
			if (strlen(p->name) == len && !strncmp(p->name, arg + 2, len))
				opt = p;
		if (!opt)
			return bad("%s: unknown option '%.*s' (see 'iomodel %s --help')",
				   argv[0], (int)len + 2, arg, argv[0]);
		if (opt->has_arg == required_argument && !arg[2 + len])
			i++;
	}
	return 0;
}

int parse_run_options(struct run_options *o, int argc, char **argv)
{
	int ret;

	memset(o, 0, sizeof(*o));
	parse_rw(o, "randread");
	o->spec.bs = 4096;
	o->spec.qd = 1;
	o->spec.seed = 1;
	o->jobs.jobs = 1;
	o->target.direct = true;
	o->engine = BACKEND_IO_URING;
	ret = parse_target_command_line(&(struct command_line){ "run", run_long_options, ":h",
			cmd_run_usage, apply_run_option, o },
			&(struct target_options){ .which = TOPT_ALL, .target = &o->target,
						  .engine = &o->engine, .seed = &o->spec.seed },
			argc, argv, NULL);
	return ret ? ret : check_options(o);
}

int parse_command_line(const struct command_line *cl, int argc, char **argv, int *first_arg)
{
	return parse_target_command_line(cl, NULL, argc, argv, first_arg);
}

int parse_target_command_line(const struct command_line *cl, const struct target_options *t,
			      int argc, char **argv, int *first_arg)
{
	struct option table[MAX_OPTIONS];
	int id, ret;

	merge_option_tables(cl, t, table);
	ret = check_whole_option_names(table, argc, argv);
	opterr = 0;
	optind = 0;	/* 0, not 1: glibc forgets a half-read "-xy" of an earlier parse */
	while (!ret && (id = getopt_long(argc, argv, cl->short_options, table, NULL)) != -1) {
		if (id == 'h') {
			cl->usage(stdout);
			return -1;
		}
		if (id == '?')
			return bad("%s: unknown option '%s' (see 'iomodel %s --help')", cl->name,
				   argv[optind - 1], cl->name);
		if (id == ':')
			return bad("%s: option '%s' needs a value", cl->name, argv[optind - 1]);
		if (t && id >= TID_TARGET && id < TID_END)
			ret = apply_target_option(t, id, optarg);
		else
			ret = cl->apply(cl->ctx, id, optarg);
	}
	if (!ret && optind < argc && !first_arg)
		return bad("%s: unexpected argument '%s'", cl->name, argv[optind]);
	if (first_arg)
		*first_arg = optind;
	return ret;
}


int range_opt(const char *name, const char *arg, bool counts, uint64_t *lo, uint64_t *hi)
{
	char first[64];
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
	int ret;

	if (len >= sizeof(first))
		return bad("%s '%s': too long", name, arg);
	memcpy(first, arg, len);
	first[len] = '\0';
	ret = counts ? count_opt(name, first, 1, 1024, lo) : size_opt(name, first, lo);
	if (!ret)
		ret = !colon ? (*hi = *lo, 0)
		      : counts ? count_opt(name, colon + 1, 1, 1024, hi) : size_opt(name, colon + 1, hi);
	if (!ret && (*lo == 0 || *hi < *lo))
		return bad("%s '%s': expected A:B with 0 < A <= B", name, arg);
	return ret;
}

int direction_opt(const char *arg, bool *random, enum io_op *op)
{
	if (strcmp(arg, "read") && strcmp(arg, "write") && strcmp(arg, "randread") &&
	    strcmp(arg, "randwrite"))
		return bad("--rw '%s': expected randread, randwrite, read or write", arg);
	*random = !strncmp(arg, "rand", 4);
	*op = strstr(arg, "read") ? IO_READ : IO_WRITE;
	return 0;
}
