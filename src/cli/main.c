/* main.c — the iomodel program: dispatches to a subcommand. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

static void usage(FILE *f)
{
	fputs("usage: iomodel <command> [options]\n"
	      "\n"
	      "Measure a storage device and model its performance.\n"
	      "\n"
	      "commands:\n"
	      "  run        run one workload against one target and report IOPS,\n"
	      "             throughput and latency (see 'iomodel run --help')\n"
	      "  sim        list the simulated drives, show their parameters\n"
	      "             (see 'iomodel sim --help'); run them as --target sim:NAME\n"
	      "\n"
	      "options:\n"
	      "  -h, --help     show this help\n"
	      "  -V, --version  print the version\n"
	      "\n"
	      "Exit status: 0 success, 1 the run failed, 2 bad input or refused\n"
	      "target, 130 interrupted (SIGINT), 143 terminated (SIGTERM).\n"
	      "See iomodel(1) (man -l man/iomodel.1 in the source tree).\n", f);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
		printf("iomodel %s\n", IOMODEL_VERSION);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "sim"))
		return cmd_sim(argc - 1, argv + 1);
	fprintf(stderr, "iomodel: unknown command '%s' (try 'iomodel --help')\n", cmd);
	return EXIT_BAD_INPUT;
}
