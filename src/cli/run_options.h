/*
 * run_options.h — the parsed command line of `iomodel run`, shared by the
 * option parser (run_options.c) and the command that executes it
 * (run_cmd.c).
 */
#ifndef IOMODEL_RUN_OPTIONS_H
#define IOMODEL_RUN_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "backend/backend.h"
#include "engine/engine.h"
#include "suite/sweep.h"
#include "target/target.h"

/* Largest single IO Linux carries in one call (0x7ffff000), rounded down to MiB. */
#define MAX_BS (2047ULL << 20)

enum output_format { OUTPUT_TABLE, OUTPUT_JSON, OUTPUT_CSV };

/* Most CPUs --cpus may name (CPU_SETSIZE). */
#define MAX_CPUS 1024

/* --jobs, --split, --per-job, --cpus: several jobs at once (suite/jobs.h). */
struct jobs_cli {
	unsigned jobs;		/* 1 .. JOBS_MAX */
	bool split;
	bool per_job;
	int cpus[MAX_CPUS];	/* --cpus, in the order given */
	unsigned n_cpus;	/* 0: no pinning */
};

/* --cpus LIST ("0-3,6"): each CPU one this process may run on. 0 or EXIT_BAD_INPUT. */
int cpus_opt(const char *arg, struct jobs_cli *j);

struct run_options {
	struct job_spec spec;
	struct jobs_cli jobs;
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
	bool steady_state;	/* --steady-state: rounds until the SNIA PTS rule holds */
	unsigned max_rounds;	/* --max-rounds (25) */
	const char *fio_job;	/* --fio-job FILE, or NULL */
	bool rank_target;	/* --target held %r: each MPI rank its own */
};

/*
 * Parse and check `argv` (argv[0] is "run"). Returns 0, -1 when --help was
 * printed, or EXIT_BAD_INPUT after printing one line on stderr.
 */
int parse_run_options(struct run_options *o, int argc, char **argv);

/*
 * Print one "iomodel: ..." line on stderr, escaped (errmsg_escape) so that it
 * stays one printable line whatever the arguments hold; bad() returns
 * EXIT_BAD_INPUT.
 */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Option values, each checked with a message naming the option: 0 or EXIT_BAD_INPUT. */
int size_opt(const char *name, const char *arg, uint64_t *out);
int time_opt(const char *name, const char *arg, uint64_t *out);
/* --bs of a command that always does direct IO: a multiple of 512 up to MAX_BS. */
int direct_bs_opt(const char *arg, uint64_t *out);
/* --engine: io_uring, libaio or psync. */
int engine_opt(const char *arg, enum backend_kind *out);
/* A size that must not be 0 (--size, --sim-memory). */
int positive_size_opt(const char *name, const char *arg, uint64_t *out);
/* time_opt() that refuses 0 (which would mean the default), naming the option. */
int positive_time_opt(const char *name, const char *arg, uint64_t *out);
int count_opt(const char *name, const char *arg, uint64_t min, uint64_t max, uint64_t *out);

/* "A" or "A:B" sizes (or counts from 1 to 1024 when `counts`), 0 < A <= B. */
int range_opt(const char *name, const char *arg, bool counts, uint64_t *lo, uint64_t *hi);

/* --rw of a one-direction command: read, write, randread or randwrite. */
int direction_opt(const char *arg, bool *random, enum io_op *op);

/*
 * The options that say what to measure and how to reach it, shared by run,
 * sweep, characterize, qd, profile, state and replay: one table and one way
 * of applying them, so that each means the same in every command. A command
 * names the ones it takes (`which`) and where their values go; its own
 * option ids start at OPTION_ID_OWN.
 */
enum target_option {
	TOPT_TARGET = 1 << 0,		/* --target T */
	TOPT_SIZE = 1 << 1,		/* --size SIZE, positive */
	TOPT_SIZE_OR_ZERO = 1 << 2,	/* --size SIZE, 0 the target's own size */
	TOPT_DESTROY = 1 << 3,		/* --destroy-data */
	TOPT_KEEP = 1 << 4,		/* --keep */
	TOPT_SIM_MEMORY = 1 << 5,	/* --sim-memory SIZE */
	TOPT_ENGINE = 1 << 6,		/* --engine NAME */
	TOPT_BUFFERED = 1 << 7,		/* --buffered */
	TOPT_SEED = 1 << 8,		/* --seed N */
	TOPT_ALL = TOPT_TARGET | TOPT_SIZE | TOPT_DESTROY | TOPT_KEEP | TOPT_SIM_MEMORY |
		   TOPT_ENGINE | TOPT_BUFFERED | TOPT_SEED,
	/* a series of points (sweep, qd): --rw of one direction, --qd C[:D],
	 * --point-time TIME, --point-ios N */
	TOPT_SERIES = 1 << 9,
};

#define OPTION_ID_OWN 300	/* first id of a command's own long options */

struct target_options {
	unsigned which;			/* enum target_option bits */
	struct target_request *target;	/* path, size, destroy_data, keep, sim_memory, direct */
	enum backend_kind *engine;	/* with TOPT_ENGINE */
	uint64_t *seed;			/* with TOPT_SEED */
	/* with TOPT_SERIES: */
	const char **rw;		/* the --rw name */
	struct sweep_plan *plan;	/* random, read_pct, min_qd, max_qd */
	uint64_t *point_ns, *point_ios;	/* as given; 0 when not */
};

struct option;
/*
 * Refuse abbreviated long options ("--tar" for "--target"), which getopt_long
 * would accept; argv[0] is the command's name. 0 or EXIT_BAD_INPUT.
 */
int check_whole_option_names(const struct option *table, int argc, char **argv);

/*
 * One command's command line: its option table, short options (":h" plus
 * any of its own), usage text, and how to apply one option to its context.
 * `first_arg` receives the index of the first non-option argument; without
 * it, non-option arguments are refused.
 */
struct command_line {
	const char *name;		/* "run", "sweep", … */
	const struct option *table;
	const char *short_options;
	void (*usage)(FILE *f);
	int (*apply)(void *ctx, int id, const char *arg);	/* 0 or EXIT_BAD_INPUT */
	void *ctx;
};

/*
 * Parse argv (argv[0] is the command): whole option names only, each option
 * applied in turn. Returns 0, -1 after printing --help, or EXIT_BAD_INPUT
 * after printing one line.
 */
int parse_command_line(const struct command_line *cl, int argc, char **argv, int *first_arg);

/*
 * The same for a command that also takes the target options `t` names:
 * those are applied by the shared rules, the others by `cl->apply`.
 */
int parse_target_command_line(const struct command_line *cl, const struct target_options *t,
			      int argc, char **argv, int *first_arg);

#endif
