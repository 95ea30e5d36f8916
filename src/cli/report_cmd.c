/*
 * report_cmd.c — `iomodel report FILE... -o REPORT.html [--png-dir DIR]`:
 * one self-contained HTML file with the spec sheets and charts of the
 * drives in the files given (report/report.h does the work).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "io/import.h"
#include "report/report.h"
#include "util/dynbuf.h"


void cmd_report_usage(FILE *f)
{
	fputs("usage: iomodel report FILE... -o REPORT.html [--png-dir DIR]\n"
	      "                      [--drive NAME=FILE[,FILE...]]...\n"
	      "\n"
	      "Write one HTML file, readable offline, about the drives in the FILEs: each\n"
	      "drive's spec sheet (STR and access penalty per direction with 95 % confidence\n"
	      "intervals, erase block, queue-depth gain, fit quality) and charts with every\n"
	      "drive overlaid: random throughput and time per IO against request size with\n"
	      "the model's curves, IOPS and latency against IOs outstanding, and for run\n"
	      "results the latency distribution and the IOPS of each second; the transfer\n"
	      "rate across the device of 'iomodel profile', the three states and their\n"
	      "rounds of 'iomodel state'.\n"
	      "\n"
	      "A FILE is a model ('iomodel characterize -o', 'iomodel fit -o'), the JSON of\n"
	      "'iomodel run', 'sweep', 'qd', 'profile' or 'state', fio JSON output, or a CSV\n"
	      "table as 'iomodel fit' reads it; the model is fitted to measurements where\n"
	      "they allow. Files about the same drive are one drive: fio output by hostname,\n"
	      "filename or device and job name without its workload words (a grid of one\n"
	      "file per size or depth is one drive, named 'host:/dev/sdb'), iomodel runs,\n"
	      "sweeps, profiles and states by target (one profile and one state per drive:\n"
	      "a second starts a drive of its own). A model, CSV or assess file is a drive\n"
	      "of its own.\n"
	      "\n"
	      "  -o, --output FILE    the HTML file to write (required)\n"
	      "  --png-dir DIR        also write each chart as a PNG file in DIR\n"
	      "  --drive NAME=FILE[,FILE...]\n"
	      "                       these files are the drive NAME, whatever they record\n"
	      "                       (repeatable; the FILEs need not be given again)\n", f);
}

struct report_options {
	const char *output;
	const char *png_dir;
	const char **drives;		/* the NAME=FILE,... of each --drive */
	size_t n_drives, alloc_drives;
};

static int apply_report_option(void *ctx, int id, const char *arg)
{
	struct report_options *o = ctx;
	const char *eq = strchr(arg, '=');

	if (id == 'o') {
		o->output = arg;
	} else if (id == 'p') {
		o->png_dir = arg;
	} else {
		if (!eq || eq == arg || !eq[1] || eq[1] == ',')
			return bad("--drive '%s': expected NAME=FILE[,FILE...]", arg);
		if (array_grow((void **)&o->drives, &o->alloc_drives, o->n_drives + 1,
			       sizeof(*o->drives), 4096))
			return bad("--drive: too many drives");
		o->drives[o->n_drives++] = arg;
	}
	return 0;
}

static int parse_report_args(int argc, char **argv, struct report_options *o, int *first)
{
	static const struct option table[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "png-dir", required_argument, NULL, 'p' },
		{ "drive", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct command_line cl = { "report", table, ":ho:", cmd_report_usage,
				   apply_report_option, o };
	int ret = parse_command_line(&cl, argc, argv, first);

	if (!ret && *first >= argc && !o->n_drives)
		return bad("report: no result file given (see 'iomodel report --help')");
	if (!ret && !o->output)
		return bad("report: no output file: give -o REPORT.html");
	return ret;
}

/* `path` is one of the FILEs of a --drive. */
static bool in_drive_option(const struct report_options *o, const char *path)
{
	size_t n = strlen(path);

	for (size_t i = 0; i < o->n_drives; i++) {
		const char *f = strchr(o->drives[i], '=') + 1;

		for (; *f; f += strcspn(f, ",") + (f[strcspn(f, ",")] == ',')) {
			if (strcspn(f, ",") == n && !strncmp(f, path, n))
				return true;
		}
	}
	return false;
}

/* The files of every --drive NAME=FILE,..., into the drive NAME. */
static int add_named_drives(struct report *r, const struct report_options *o)
{
	struct errmsg err;

	for (size_t i = 0; i < o->n_drives; i++) {
		const char *eq = strchr(o->drives[i], '=');
		char name[128], path[4096];

		snprintf(name, sizeof(name), "%.*s", (int)(eq - o->drives[i]), o->drives[i]);
		for (const char *f = eq + 1; *f; f += strcspn(f, ",") + (f[strcspn(f, ",")] == ',')) {
			size_t n = strcspn(f, ",");

			if (!n)
				continue;
			snprintf(path, sizeof(path), "%.*s", (int)n, f);
			if (report_add_file_as(r, name, path, &err)) {
				fprintf(stderr, "iomodel: %s\n", err.text);
				return EXIT_BAD_INPUT;
			}
		}
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_options o = { NULL };
	struct report *r = NULL;
	struct import_warnings warn;
	struct errmsg err;
	int first = argc, status = parse_report_args(argc, argv, &o, &first);

	if (status) {
		free(o.drives);
		return status < 0 ? EXIT_OK : status;
	}
	if (report_new(&r)) {
		fputs("iomodel: out of memory\n", stderr);
		free(o.drives);
		return EXIT_FAILED;
	}
	import_warnings_init(&warn);
	status = add_named_drives(r, &o);
	for (int i = first; i < argc && !status; i++) {
		int ret;

		if (in_drive_option(&o, argv[i]))
			continue;
		ret = report_add_file_warn(r, argv[i], &warn, &err);
		print_import_warnings(&warn);
		if (ret) {
			fprintf(stderr, "iomodel: %s\n", err.text);
			status = EXIT_BAD_INPUT;
		}
	}
	import_warnings_release(&warn);
	if (!status && report_write_html(r, o.output, o.png_dir, &err)) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		status = EXIT_FAILED;
	}
	report_free(r);
	free(o.drives);
	return status;
}
