/*
 * run_cmd.c — `iomodel run`: parse the options into a job, open the target
 * safely, run the engine and print the results.
 *
 * Every option is checked before anything is opened, so bad input never
 * touches the disk; checks that need the target (O_DIRECT alignment, region
 * inside the target) run right after opening, and a file created for the
 * run is removed again if they fail.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/signals.h"
#include "engine/engine.h"
#include "engine/offsets.h"
#include "io/run_output.h"
#include "target/target.h"
#include "util/units.h"

/* Largest single IO Linux carries in one call (0x7ffff000), rounded down to MiB. */
#define MAX_BS (2047ULL << 20)
#define MAX_QD 1024
#define DEFAULT_RUNTIME_NS (10 * NSEC_PER_SEC)
/* Above this, queue slots share IO buffers (see io_buffers_alloc). */
#define BUFFER_MEMORY_LIMIT (1ULL << 30)

enum output_format { OUTPUT_TABLE, OUTPUT_JSON, OUTPUT_CSV };

struct run_options {
	struct job_spec spec;
	struct target_request target;
	const char *rw;
	enum backend_kind engine;
	enum output_format format;
	bool align_set;
	bool length_set;
	bool runtime_set;
	bool bytes_set;
	bool rwmix_set;
	unsigned rwmix;		/* --rwmix, applied once --rw is known */
};

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
	      "  --target PATH|null   a file (created and laid out if missing), a block\n"
	      "                       device, or null (IOs complete at once: measures iomodel)\n"
	      "  --size SIZE          size of a file to create (or of an empty one, or of\n"
	      "                       null) (1GiB); on an existing file or device, use\n"
	      "                       only its first SIZE bytes\n"
	      "  --destroy-data       allow writing to an existing file or a block device\n"
	      "  --keep               keep a file that this run created\n"
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
	      "stop (whichever comes first; 10s when none is given):\n"
	      "  --runtime TIME       measured time, e.g. 10s, 500ms, 2m\n"
	      "  --ios N              number of IOs\n"
	      "  --bytes SIZE         number of bytes\n"
	      "  --ramp TIME          warm-up before measuring, excluded from results (0)\n"
	      "io:\n"
	      "  --engine NAME        io_uring, libaio or psync (io_uring, falling back\n"
	      "                       to libaio, then psync, with a notice); psync does\n"
	      "                       one IO at a time, so it runs at queue depth 1\n"
	      "  --buffered           go through the page cache (default: O_DIRECT)\n"
	      "output:\n"
	      "  --json | --csv       machine-readable results (default: a table)\n"
	      "  -h, --help           show this help\n"
	      "\n"
	      "Sizes take binary multiples: 512, 4k, 4KiB, 700MiB, 1.5G.\n"
	      "Times: 10s, 500ms, 2m; a bare number is seconds.\n", f);
}

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print one "iomodel: ..." line about bad input; returns EXIT_BAD_INPUT. */
static int bad(const char *fmt, ...)
{
	va_list ap;

	fputs("iomodel: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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

static int size_opt(const char *name, const char *arg, uint64_t *out)
{
	int ret = parse_size(arg, out);

	if (ret == -ERANGE)
		return bad("%s '%s': too large", name, arg);
	if (ret)
		return bad("%s '%s': not a size (examples: 512, 4k, 700MiB, 1.5G)", name, arg);
	return 0;
}

static int time_opt(const char *name, const char *arg, uint64_t *out)
{
	int ret = parse_duration_ns(arg, out);

	if (ret == -ERANGE)
		return bad("%s '%s': too long", name, arg);
	if (ret)
		return bad("%s '%s': not a duration (examples: 10s, 500ms, 2m)", name, arg);
	return 0;
}

static int count_opt(const char *name, const char *arg, uint64_t min, uint64_t max,
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

enum option_id {
	OPT_TARGET = 256, OPT_SIZE, OPT_DESTROY, OPT_KEEP, OPT_RW, OPT_RWMIX,
	OPT_BS, OPT_QD, OPT_ALIGN, OPT_OFFSET, OPT_LENGTH, OPT_SEED, OPT_RUNTIME,
	OPT_IOS, OPT_BYTES, OPT_RAMP, OPT_ENGINE, OPT_BUFFERED, OPT_JSON, OPT_CSV,
};

static const struct option run_long_options[] = {
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "destroy-data", no_argument, NULL, OPT_DESTROY },
	{ "keep", no_argument, NULL, OPT_KEEP },
	{ "rw", required_argument, NULL, OPT_RW },
	{ "rwmix", required_argument, NULL, OPT_RWMIX },
	{ "bs", required_argument, NULL, OPT_BS },
	{ "qd", required_argument, NULL, OPT_QD },
	{ "align", required_argument, NULL, OPT_ALIGN },
	{ "offset", required_argument, NULL, OPT_OFFSET },
	{ "length", required_argument, NULL, OPT_LENGTH },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "runtime", required_argument, NULL, OPT_RUNTIME },
	{ "ios", required_argument, NULL, OPT_IOS },
	{ "bytes", required_argument, NULL, OPT_BYTES },
	{ "ramp", required_argument, NULL, OPT_RAMP },
	{ "engine", required_argument, NULL, OPT_ENGINE },
	{ "buffered", no_argument, NULL, OPT_BUFFERED },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Apply one parsed option; returns 0 or EXIT_BAD_INPUT (message printed). */
static int apply_option(struct run_options *o, int id, const char *arg)
{
	struct job_spec *s = &o->spec;
	uint64_t v;
	int ret = 0;

	switch (id) {
	case OPT_TARGET: o->target.path = arg; break;
	case OPT_SIZE: ret = size_opt("--size", arg, &o->target.size); break;
	case OPT_DESTROY: o->target.destroy_data = true; break;
	case OPT_KEEP: o->target.keep = true; break;
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
	case OPT_SEED: ret = count_opt("--seed", arg, 0, INT64_MAX, &s->seed); break;
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
	case OPT_ENGINE:
		if (backend_kind_parse(arg, &o->engine))
			ret = bad("--engine '%s': expected io_uring, libaio or psync", arg);
		break;
	case OPT_BUFFERED: o->target.direct = false; break;
	case OPT_JSON: o->format = OUTPUT_JSON; break;
	case OPT_CSV: o->format = OUTPUT_CSV; break;
	default: ret = EXIT_BAD_INPUT; break;
	}
	return ret;
}

/* Checks that need no target; returns 0 or EXIT_BAD_INPUT. */
static int check_options(struct run_options *o)
{
	struct job_spec *s = &o->spec;

	if (!o->target.path)
		return bad("missing --target (a file, a block device, or null)");
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
	if (o->rwmix_set && strcmp(o->rw, "rw") && strcmp(o->rw, "randrw"))
		return bad("--rwmix applies only to --rw rw or randrw, not '%s'", o->rw);
	if (s->read_pct == 101)
		s->read_pct = o->rwmix_set ? o->rwmix : 50;
	if (!o->align_set)
		s->align = s->bs;
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
static int check_whole_option_names(int argc, char **argv)
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
		for (const struct option *p = run_long_options; p->name && !opt; p++)
			if (strlen(p->name) == len && !strncmp(p->name, arg + 2, len))
				opt = p;
		if (!opt)
			return bad("run: unknown option '%.*s' (see 'iomodel run --help')",
				   (int)len + 2, arg);
		if (opt->has_arg == required_argument && !arg[2 + len])
			i++;
	}
	return 0;
}

static int parse_run_options(struct run_options *o, int argc, char **argv)
{
	int id, ret;

	memset(o, 0, sizeof(*o));
	parse_rw(o, "randread");
	o->spec.bs = 4096;
	o->spec.qd = 1;
	o->spec.seed = 1;
	o->target.direct = true;
	o->engine = BACKEND_IO_URING;
	ret = check_whole_option_names(argc, argv);
	if (ret)
		return ret;
	opterr = 0;
	optind = 1;
	while ((id = getopt_long(argc, argv, ":h", run_long_options, NULL)) != -1) {
		if (id == 'h') {
			cmd_run_usage(stdout);
			return -1;
		}
		if (id == '?')
			return bad("run: unknown option '%s' (see 'iomodel run --help')",
				   argv[optind - 1]);
		if (id == ':')
			return bad("run: option '%s' needs a value", argv[optind - 1]);
		ret = apply_option(o, id, optarg);
		if (ret)
			return ret;
	}
	if (optind < argc)
		return bad("run: unexpected argument '%s'", argv[optind]);
	return check_options(o);
}

static const char *kind_name(enum target_kind kind)
{
	return kind == TARGET_BLOCK ? "block" : kind == TARGET_FILE ? "file" : "null";
}

/* Checks that need the opened target; returns 0 or EXIT_BAD_INPUT. */
static int check_against_target(struct run_options *o, const struct target *t)
{
	struct job_spec *s = &o->spec;
	struct offset_gen probe;
	struct errmsg err;

	if (s->offset >= t->size)
		return bad("--offset %llu: beyond the end of '%s' (%llu bytes)",
			   (unsigned long long)s->offset, t->path, (unsigned long long)t->size);
	if (!o->length_set)
		s->length = t->size - s->offset;
	if (s->length > t->size - s->offset)
		return bad("--offset %llu + --length %llu: beyond the end of '%s' (%llu bytes)",
			   (unsigned long long)s->offset, (unsigned long long)s->length,
			   t->path, (unsigned long long)t->size);
	if (o->target.direct && t->kind != TARGET_NULL &&
	    (s->bs % t->dio_align || s->align % t->dio_align || s->offset % t->dio_align))
		return bad("'%s' needs --bs, --align and --offset in multiples of %u bytes "
			   "for O_DIRECT; use --buffered for other sizes", t->path, t->dio_align);
	if (offset_gen_init(&probe, s->offset, s->length, s->bs, s->align, s->random,
			    s->seed, &err))
		return bad("'%s': %s", t->path, err.text);
	return 0;
}

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

static int status_of_target_error(int ret)
{
	if (ret == -EINTR)
		return EXIT_INTERRUPTED;	/* cmd_run turns it into 128 + signal */
	return ret == -EIO || ret == -ENOSPC || ret == -ENOMEM ? EXIT_FAILED : EXIT_BAD_INPUT;
}

/* Open the backend for `t`, reporting any fallback; NULL on failure. */
static struct backend *open_backend(struct run_options *o, const struct target *t,
				    const struct io_buffers *bufs)
{
	struct backend_params params = {
		.fd = t->fd, .queue_depth = o->spec.qd, .buffers = bufs->base,
		.buffer_count = bufs->count, .buffer_size = bufs->size,
	};
	struct errmsg notice, err;
	struct backend *be = NULL;
	enum backend_kind kind = t->kind == TARGET_NULL ? BACKEND_NULL : o->engine;

	if (backend_open(&be, kind, &params, &notice, &err)) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		return NULL;
	}
	if (notice.text[0])
		fprintf(stderr, "iomodel: notice: %s\n", notice.text);
	if (!strcmp(backend_name(be), "psync") && o->spec.qd > 1) {
		fprintf(stderr, "iomodel: notice: psync does one IO at a time; "
			"running at queue depth 1, not %u\n", o->spec.qd);
		o->spec.qd = 1;
	}
	return be;
}

static int report_run_error(const struct run_result *r, const struct errmsg *err)
{
	const struct run_error *e = &r->error;

	if (!e->set) {
		fprintf(stderr, "iomodel: %s\n", err->text);
	} else if (e->result < 0) {
		fprintf(stderr, "iomodel: %s error at offset %llu: %s\n",
			e->op == IO_READ ? "read" : "write", (unsigned long long)e->offset,
			strerror((int)-e->result));
	} else {
		fprintf(stderr, "iomodel: short %s at offset %llu: %lld of %u bytes\n",
			e->op == IO_READ ? "read" : "write", (unsigned long long)e->offset,
			(long long)e->result, e->length);
	}
	return EXIT_FAILED;
}

static int run_on_target(struct run_options *o, const struct target *t,
			 const volatile sig_atomic_t *stop)
{
	struct run_info info = {
		.target = t->path, .target_kind = kind_name(t->kind),
		.target_size = t->size, .rw = o->rw,
		.direct = o->target.direct && t->kind != TARGET_NULL, .spec = &o->spec,
	};
	struct io_buffers bufs;
	struct backend *be;
	struct run_result *r;
	struct errmsg err = { "" };
	int status, ret;

	if (io_buffers_alloc(&bufs, o->spec.bs, o->spec.qd, BUFFER_MEMORY_LIMIT, o->spec.seed)) {
		fprintf(stderr, "iomodel: out of memory for %u buffers of %llu bytes\n",
			o->spec.qd, (unsigned long long)o->spec.bs);
		return EXIT_FAILED;
	}
	be = open_backend(o, t, &bufs);
	r = malloc(sizeof(*r));
	if (!be || !r) {
		free(r);
		backend_close(be);
		io_buffers_release(&bufs);
		return EXIT_FAILED;
	}
	info.engine = backend_name(be);
	run_result_init(r);
	ret = engine_run(&o->spec, be, &bufs, stop, r, &err);
	status = ret ? report_run_error(r, &err) : r->interrupted ? EXIT_INTERRUPTED : EXIT_OK;
	if (print_results(o, &info, r) && status == EXIT_OK)
		status = EXIT_FAILED;
	run_result_release(r);
	free(r);
	backend_close(be);
	io_buffers_release(&bufs);
	return status;
}

int cmd_run(int argc, char **argv)
{
	const volatile sig_atomic_t *stop;
	struct run_options o;
	struct target t;
	struct errmsg err;
	int ret;

	ret = parse_run_options(&o, argc, argv);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	stop = signals_install_stop();
	o.target.stop = stop;
	ret = target_open(&t, &o.target, &err);
	if (ret) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		ret = status_of_target_error(ret);
		return ret == EXIT_INTERRUPTED && *stop ? 128 + *stop : ret;
	}
	ret = check_against_target(&o, &t);
	if (!ret)
		ret = run_on_target(&o, &t, stop);
	target_close(&t);
	return ret == EXIT_INTERRUPTED && *stop ? 128 + *stop : ret;
}
