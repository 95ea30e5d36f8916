/*
 * commands.h — the subcommands of the iomodel program. Each takes the
 * arguments after its name (argv[0] is the subcommand) and returns the
 * process exit status: 0 success, 1 the run failed (IO error), 2 bad input
 * or a refused target, 128 + the signal when interrupted (130 for SIGINT,
 * 143 for SIGTERM).
 */
#ifndef IOMODEL_COMMANDS_H
#define IOMODEL_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

enum exit_status {
	EXIT_OK = 0,
	EXIT_FAILED = 1,
	EXIT_BAD_INPUT = 2,
	EXIT_INTERRUPTED = 130,
};

struct measure_target;
struct run_result;
struct errmsg;

/* Shared by the commands that measure (run_cmd.c). */
int exit_status_of_error(int ret);
void print_new_notices(const struct measure_target *m, unsigned *printed);
int report_run_error(const struct run_result *r, const struct errmsg *err);
/* The same, naming the job ("job 2: read error at …") when `label` is given. */
int report_job_error(const char *label, unsigned index, const struct run_result *r,
		     const struct errmsg *err);
struct run_error;
int report_io_error(const struct run_error *e, const struct errmsg *err);

struct drive_model;
/*
 * The model of `source`: written as JSON to `output` when given, then printed
 * as JSON or as the spec sheet (fit_cmd.c). Returns an exit status.
 */
int print_drive_model(const char *source, const struct drive_model *m, bool json,
		      const char *output);

struct point_set;
/*
 * Measure the simulated or real `target` as `characterize` does (every size),
 * printing only errors: the points, into `out` (the caller releases them).
 * Returns an exit status (sweep_cmd.c).
 */
int characterize_points(const char *target, struct point_set *out);
/*
 * Print each line of `w` (what an import skipped) on stderr as
 * "iomodel: warning: LINE" and empty it; the count of skips stays (fit_cmd.c).
 */
struct import_warnings;
void print_import_warnings(struct import_warnings *w);

int cmd_run(int argc, char **argv);
int cmd_raid(int argc, char **argv);
void cmd_raid_usage(FILE *f);
void cmd_run_usage(FILE *f);
int cmd_sim(int argc, char **argv);
void cmd_sim_usage(FILE *f);
int cmd_sweep(int argc, char **argv);
void cmd_sweep_usage(FILE *f);
int cmd_characterize(int argc, char **argv);
void cmd_characterize_usage(FILE *f);
int cmd_fit(int argc, char **argv);
void cmd_fit_usage(FILE *f);
int cmd_predict(int argc, char **argv);
void cmd_predict_usage(FILE *f);
int cmd_profile(int argc, char **argv);
void cmd_profile_usage(FILE *f);
int cmd_qd(int argc, char **argv);
void cmd_qd_usage(FILE *f);
int cmd_state(int argc, char **argv);
void cmd_state_usage(FILE *f);
int cmd_report(int argc, char **argv);
int cmd_assess(int argc, char **argv);
void cmd_assess_usage(FILE *f);
void cmd_replay_usage(FILE *f);
int cmd_replay(int argc, char **argv);
void cmd_report_usage(FILE *f);

#endif
