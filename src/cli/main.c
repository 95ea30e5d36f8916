/* main.c — the iomodel program: dispatches to a subcommand. */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "commands.h"
#include "ranks.h"
#include "run_options.h"


static void usage(FILE *f)
{
	fputs("usage: iomodel <command> [options]\n"
	      "\n"
	      "Measure a storage device and model its performance.\n"
	      "\n"
	      "commands:\n"
	      "  run        run one workload against one target and report IOPS,\n"
	      "             throughput and latency (see 'iomodel run --help')\n"
	      "  sweep      measure one workload over request sizes and queue depths\n"
	      "  characterize\n"
	      "             measure a drive and print its spec sheet: STR and access\n"
	      "             penalty per direction, erase block, queue-depth gain, fit\n"
	      "  fit        fit the drive model to iomodel, fio or CSV measurements\n"
	      "  predict    IOPS, MiB/s and latency of any workload from a model\n"
	      "  profile    transfer rate across the device, access time, burst rate\n"
	      "             (HD Tune)\n"
	      "  qd         one workload at queue depths 1 to 256: IOPS, latency\n"
	      "             percentiles and the queue-depth model (IOMeter)\n"
	      "  state      random writes fresh, used and after TRIM, each to steady state\n"
	      "  assess     a WinSAT-style disk assessment, several targets side by side\n"
	      "  replay     replay a block trace (DiskSim, blkparse) on a drive: service\n"
	      "             and response times, IOPS, MiB/s\n"
	      "  report     one HTML file of spec sheets and charts from results and models\n"
	      "  raid       plan an array from its members: capacity, speed, odds of\n"
	      "             losing it, link or array as the bottleneck\n"
	      "  sim        list the simulated drives, show their parameters\n"
	      "             (see 'iomodel sim --help'); run them as --target sim:NAME\n"
	      "\n"
	      "'iomodel COMMAND --help' describes each command.\n"
	      "\n"
	      "options:\n"
	      "  -h, --help     show this help\n"
	      "  -V, --version  print the version\n"
	      "\n"
	      "Exit status: 0 success, 1 the run failed, 2 bad input or refused\n"
	      "target, 130 interrupted (SIGINT), 143 terminated (SIGTERM).\n"
	      "See iomodel(1) (man -l man/iomodel.1 in the source tree).\n", f);
}

static int dispatch(int argc, char **argv)
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
		printf("iomodel %s\nmpi: %s\n", IOMODEL_VERSION, ranks_available() ? "on" : "off");
		return EXIT_OK;
	}
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "sim"))
		return cmd_sim(argc - 1, argv + 1);
	if (!strcmp(cmd, "sweep"))
		return cmd_sweep(argc - 1, argv + 1);
	if (!strcmp(cmd, "characterize"))
		return cmd_characterize(argc - 1, argv + 1);
	if (!strcmp(cmd, "fit"))
		return cmd_fit(argc - 1, argv + 1);
	if (!strcmp(cmd, "predict"))
		return cmd_predict(argc - 1, argv + 1);
	if (!strcmp(cmd, "profile"))
		return cmd_profile(argc - 1, argv + 1);
	if (!strcmp(cmd, "qd"))
		return cmd_qd(argc - 1, argv + 1);
	if (!strcmp(cmd, "state"))
		return cmd_state(argc - 1, argv + 1);
	if (!strcmp(cmd, "assess"))
		return cmd_assess(argc - 1, argv + 1);
	if (!strcmp(cmd, "raid"))
		return cmd_raid(argc - 1, argv + 1);
	if (!strcmp(cmd, "replay"))
		return cmd_replay(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return cmd_report(argc - 1, argv + 1);
	return bad("unknown command '%s' (try 'iomodel --help')", cmd);
}

/*
 * A command that succeeded but whose output did not reach standard output
 * (a full disk) has failed: stdio keeps the last of it buffered until exit,
 * where its error would go unseen and the status would stay 0. A reader
 * that left (EPIPE: `run` catches SIGPIPE, signals.h) gives 128 + SIGPIPE,
 * as the signal would have. A command that failed has said why already.
 */
static int check_stdout(int status)
{
	bool failed = ferror(stdout) != 0;
	int err = 0;

	if (fflush(stdout) == EOF) {
		failed = true;
		err = errno;
	}
	if (!failed || status != EXIT_OK)
		return status;
	if (err == EPIPE)	/* the reader left (`| head`): as if SIGPIPE had ended us */
		return 128 + SIGPIPE;
	fprintf(stderr, "iomodel: cannot write the output to standard output%s%s\n",
		err ? ": " : "", err ? strerror(err) : "");
	return EXIT_FAILED;
}

int main(int argc, char **argv)
{
	/* GSL's default handler aborts; the fitting code checks every status itself */
	gsl_set_error_handler_off();
	return check_stdout(dispatch(argc, argv));
}
