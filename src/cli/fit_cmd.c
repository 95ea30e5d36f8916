/*
 * fit_cmd.c — `iomodel fit FILE...` (the drive model fitted to measurements
 * from iomodel, fio or a CSV table) and `iomodel predict` (any workload's
 * IOPS, throughput and latency from a model file).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "io/import.h"
#include "io/model_output.h"
#include "io/output_file.h"
#include "io/run_output.h"
#include "model/drive_model.h"
#include "util/dynbuf.h"
#include "util/units.h"

void cmd_fit_usage(FILE *f)
{
	fputs("usage: iomodel fit FILE... [--json] [-o MODEL.json]\n"
	      "\n"
	      "Fit the drive model to measurements: iomodel JSON (run or sweep), fio JSON\n"
	      "output (fio 2.x and 3.x, json or json+), or CSV with a header op,size,qd,iops\n"
	      "(or mib_s instead of iops; sizes may carry suffixes). Prints the spec sheet.\n"
	      "The model keeps each point's iodepth and numjobs, and from json+ its latency\n"
	      "percentiles and distribution.\n"
	      "\n"
	      "  --json               print the model as JSON (schema iomodel.model/2)\n"
	      "  -o, --output FILE    also write the model JSON to FILE (for 'iomodel predict')\n", f);
}

void cmd_predict_usage(FILE *f)
{
	fputs("usage: iomodel predict --model MODEL.json --rw MODE --bs SIZE [--qd N]\n"
	      "                       [--align SIZE] [--json]\n"
	      "\n"
	      "Predict IOPS, MiB/s and mean latency of a workload from a model made by\n"
	      "'iomodel fit -o' or 'iomodel characterize -o'.\n"
	      "\n"
	      "  --rw MODE            randread, randwrite, read or write\n"
	      "  --bs SIZE            bytes per IO\n"
	      "  --qd N               IOs in flight (1); above 1 the model needs queue-depth data\n"
	      "  --align SIZE         offsets are multiples of this (the block size); matters\n"
	      "                       for writes on drives with an erase block\n"
	      "  --json               the prediction as JSON\n", f);
}

int print_drive_model(const char *source, const struct drive_model *m, bool json,
		      const char *output)
{
	if (output) {
		struct errmsg err;
		FILE *f = output_file_open(output, NULL, &err);
		int ret;

		if (!f)
			return bad("-o: %s", err.text);
		ret = json_dump_document(f, model_to_json(source, m));
		if (fclose(f) && !ret)
			ret = -errno;
		if (ret) {
			say("cannot write '%s': %s", output, strerror(-ret));
			return EXIT_FAILED;
		}
	}
	if (json ? json_dump_document(stdout, model_to_json(source, m))
		 : model_output_sheet(stdout, source, m))
		return EXIT_FAILED;
	return EXIT_OK;
}

struct fit_options {
	bool json;
	const char *output;
};

void print_import_warnings(struct import_warnings *w)
{
	const char *line = dynbuf_ptr(&w->lines);

	while (*line) {
		size_t n = strcspn(line, "\n");

		fprintf(stderr, "iomodel: warning: %.*s\n", (int)n, line);
		line += n + (line[n] == '\n');
	}
	dynbuf_release(&w->lines);
}

static int apply_fit_option(void *ctx, int id, const char *arg)
{
	struct fit_options *o = ctx;

	if (id == 'j')
		o->json = true;
	else
		o->output = arg;
	return 0;
}

static int parse_fit_args(int argc, char **argv, struct fit_options *o, int *first)
{
	static const struct option table[] = {
		{ "json", no_argument, NULL, 'j' }, { "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	struct command_line cl = { "fit", table, ":ho:", cmd_fit_usage, apply_fit_option, o };
	int ret = parse_command_line(&cl, argc, argv, first);

	if (!ret && *first >= argc)
		return bad("fit: no measurement file given (see 'iomodel fit --help')");
	return ret;
}

/* The file names as given, separated by spaces: the model's "source". */
static int join_sources(int first, int argc, char **argv, struct dynbuf *out)
{
	int ret = 0;

	for (int i = first; i < argc && !ret; i++) {
		if (i > first)
			ret = dynbuf_add(out, " ", 1);
		if (!ret)
			ret = dynbuf_add(out, argv[i], strlen(argv[i]));
	}
	return ret;
}

int cmd_fit(int argc, char **argv)
{
	struct fit_options o = { false, NULL };
	struct point_set ps;
	struct drive_model m;
	struct import_warnings warn;
	struct errmsg err;
	struct dynbuf source;
	int first = argc, status = parse_fit_args(argc, argv, &o, &first);

	if (status)
		return status < 0 ? EXIT_OK : status;
	point_set_init(&ps);
	dynbuf_init(&source, (size_t)1 << 24);
	import_warnings_init(&warn);
	for (int i = first; i < argc && !status; i++) {
		int ret = import_points_file_warn(&ps, argv[i], &warn, &err);

		print_import_warnings(&warn);
		if (ret) {
			fprintf(stderr, "iomodel: %s\n", err.text);
			status = EXIT_BAD_INPUT;
		}
	}
	if (!status && join_sources(first, argc, argv, &source)) {
		fputs("iomodel: out of memory\n", stderr);
		status = EXIT_FAILED;
	}
	if (!status && drive_model_fit(&ps, &m, &err)) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		status = EXIT_BAD_INPUT;
	} else if (!status) {
		status = print_drive_model(dynbuf_ptr(&source), &m, o.json, o.output);
		drive_model_release(&m);
	}
	dynbuf_release(&source);
	point_set_release(&ps);
	import_warnings_release(&warn);
	return status;
}

struct predict_options {
	const char *model;
	const char *rw;
	enum io_op op;
	uint64_t bs, align, qd;
	bool random;		/* parsed, not used: the model has no sequential side */
	bool bs_set;
	bool json;
};

static int apply_predict_option(void *ctx, int id, const char *arg)
{
	struct predict_options *o = ctx;

	switch (id) {
	case 'm': o->model = arg; return 0;
	case 'r':
		o->rw = arg;
		return direction_opt(arg, &o->random, &o->op);
	case 'b':
		o->bs_set = true;
		return size_opt("--bs", arg, &o->bs);
	case 'a': return size_opt("--align", arg, &o->align);
	case 'q': return count_opt("--qd", arg, 1, 1024, &o->qd);
	case 'j': o->json = true; return 0;
	}
	return EXIT_BAD_INPUT;
}

static int parse_predict_args(struct predict_options *o, int argc, char **argv)
{
	static const struct option table[] = {
		{ "model", required_argument, NULL, 'm' }, { "rw", required_argument, NULL, 'r' },
		{ "bs", required_argument, NULL, 'b' }, { "qd", required_argument, NULL, 'q' },
		{ "align", required_argument, NULL, 'a' }, { "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	struct command_line cl = { "predict", table, ":h", cmd_predict_usage,
				   apply_predict_option, o };
	int ret = parse_command_line(&cl, argc, argv, NULL);

	if (!ret && o->bs_set && !o->bs)
		ret = bad("--bs: must be positive");
	if (!ret && (!o->model || !o->rw || !o->bs))
		ret = bad("predict: needs --model, --rw and --bs (see 'iomodel predict --help')");
	if (!ret && o->align && o->align % 512)
		ret = bad("--align %llu: expected a multiple of 512", (unsigned long long)o->align);
	return ret;
}

static int print_prediction(const struct predict_options *o, const struct prediction *p)
{
	char size[32];

	format_size(size, sizeof(size), o->bs);
	if (o->json)
		return json_dump_document(stdout, json_pack(
			"{s:s,s:s,s:s,s:I,s:I,s:I,s:f,s:f,s:f,s:f,s:o,s:o,s:o,s:b}",
			"schema", "iomodel.prediction/1", "iomodel_version", IOMODEL_VERSION,
			"rw", o->rw, "bs", (json_int_t)o->bs,
			"align", (json_int_t)(o->align ? o->align : o->bs), "qd", (json_int_t)o->qd,
			"iops", p->iops, "mib_s", p->mib_s, "mean_lat_ms", p->mean_lat_s * 1e3,
			"erase_block_merges", p->merges,
			"from_qd", p->fit_qd ? json_integer(p->fit_qd) : json_null(),
			"from_iodepth", p->fit_iodepth ? json_integer(p->fit_iodepth) : json_null(),
			"from_numjobs", p->fit_jobs ? json_integer(p->fit_jobs) : json_null(),
			"capped", p->capped)) ? EXIT_FAILED : EXIT_OK;
	printf("%s %s at queue depth %llu: %.4g IOPS, %.4g MiB/s, mean latency %.4g ms",
	       o->rw, size, (unsigned long long)o->qd, p->iops, p->mib_s, p->mean_lat_s * 1e3);
	if (p->merges > 0)
		printf(" (%.2f erase-block merges per IO)", p->merges);
	if (p->fit_qd && p->fit_qd != o->qd)
		printf(" (sizes fitted at queue depth %u)", p->fit_qd);
	if (p->fit_qd && p->fit_iodepth && p->fit_jobs > 1)
		printf(" (fitted on %u jobs x iodepth %u)", p->fit_jobs, p->fit_iodepth);
	if (p->capped)
		printf(" (held by the volume's cap)");
	putchar('\n');
	return EXIT_OK;
}

int cmd_predict(int argc, char **argv)
{
	struct predict_options o = { .qd = 1 };
	struct drive_model m;
	struct prediction p;
	struct errmsg err;
	int status = parse_predict_args(&o, argc, argv);

	if (status)
		return status < 0 ? EXIT_OK : status;
	if (model_load_file(o.model, &m, &err)) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		return EXIT_BAD_INPUT;
	}
	status = drive_model_check(&m, &err) ||
		 drive_model_predict(&m, o.op, o.bs, (unsigned)o.qd, o.align, &p, &err);
	drive_model_release(&m);
	if (status) {
		fprintf(stderr, "iomodel: %s: %s\n", o.model, err.text);
		return EXIT_BAD_INPUT;
	}
	return print_prediction(&o, &p);
}
