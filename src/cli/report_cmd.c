/*
 * report_cmd.c — `iomodel report FILE... -o REPORT.html [--png-dir DIR]`:
 * one self-contained HTML file with the spec sheets and charts of the
 * drives in the files given (report/report.h does the work).
 */
#include <getopt.h>
#include <stdio.h>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "io/import.h"
#include "report/report.h"


void cmd_report_usage(FILE *f)
{
	fputs("usage: iomodel report FILE... -o REPORT.html [--png-dir DIR]\n"
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
	      "table as 'iomodel fit' reads it; the model is fitted to measurements where they allow. Each\n"
	      "file is one drive, labelled with the model's source or the file's name.\n"
	      "\n"
	      "  -o, --output FILE    the HTML file to write (required)\n"
	      "  --png-dir DIR        also write each chart as a PNG file in DIR\n", f);
}

struct report_options {
	const char *output;
	const char *png_dir;
};

static int apply_report_option(void *ctx, int id, const char *arg)
{
	struct report_options *o = ctx;

	if (id == 'o')
		o->output = arg;
	else
		o->png_dir = arg;
	return 0;
}

static int parse_report_args(int argc, char **argv, struct report_options *o, int *first)
{
	static const struct option table[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "png-dir", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct command_line cl = { "report", table, ":ho:", cmd_report_usage,
				   apply_report_option, o };
	int ret = parse_command_line(&cl, argc, argv, first);

	if (!ret && *first >= argc)
		return bad("report: no result file given (see 'iomodel report --help')");
	if (!ret && !o->output)
		return bad("report: no output file: give -o REPORT.html");
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_options o = { NULL, NULL };
	struct report *r = NULL;
	struct import_warnings warn;
	struct errmsg err;
	int first = argc, status = parse_report_args(argc, argv, &o, &first);

	if (status)
		return status < 0 ? EXIT_OK : status;
	if (report_new(&r)) {
		fputs("iomodel: out of memory\n", stderr);
		return EXIT_FAILED;
	}
	import_warnings_init(&warn);
	for (int i = first; i < argc && !status; i++) {
		int ret = report_add_file_warn(r, argv[i], &warn, &err);

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
	return status;
}
