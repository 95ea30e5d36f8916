/*
 * series.h — measuring a sweep plan on an opened target, for `sweep` and
 * `characterize`: each job checked, run, its notices printed once, its
 * results kept as JSON (when asked) and as points for the models, with the
 * progress bar on a terminal.
 */
#ifndef IOMODEL_SERIES_H
#define IOMODEL_SERIES_H

#include <signal.h>

#include <jansson.h>

#include "cli/progress.h"
#include "suite/steady.h"
#include "model/points.h"
#include "suite/measure.h"
#include "suite/sweep.h"

struct series {
	struct measure_target *m;
	const volatile sig_atomic_t *stop;
	struct progress progress;
	size_t done;			/* jobs finished, over every plan */
	unsigned notices_printed;
	json_t *runs;			/* NULL, or an array receiving each run's JSON */
	struct run_info last_info;	/* of the last job run (its spec is the caller's) */
	struct point_set points;
};

void series_init(struct series *s, struct measure_target *m,
		 const volatile sig_atomic_t *stop, size_t total_jobs, bool keep_json);
void series_release(struct series *s);

/* Check every job of `plan` against the target before anything runs: an exit status. */
int series_check(const struct measure_target *m, const struct sweep_plan *plan);

/*
 * Measure every job of `plan`, `rw` naming the workload in the results.
 * Returns an exit status: EXIT_OK, EXIT_BAD_INPUT (a job does not fit the
 * target), EXIT_FAILED (IO error), EXIT_INTERRUPTED.
 */
int series_measure(struct series *s, const struct sweep_plan *plan, const char *rw);

/*
 * Check and run one job (`r` initialised by the caller), print its notices,
 * keep its JSON (when asked) and add its points. Progress is the caller's.
 * Returns an exit status as series_measure() does.
 */
int series_run_job(struct series *s, struct job_spec *job, const char *rw,
		   struct run_result *r);

/* One round of a steady-state run. */
struct steady_round {
	double iops;
	double mib_s;
	double mean_lat_s;
};

#define STEADY_MAX_ROUNDS 100

struct steady_result {
	struct steady_round rounds[STEADY_MAX_ROUNDS];
	size_t n;			/* rounds run */
	struct steady_eval eval;	/* of the last window */
};

/*
 * Run `job` round after round (each round with seed job->seed + round)
 * until `rule` says steady state, or rule->max_rounds (at most
 * STEADY_MAX_ROUNDS) rounds, tracking the IOPS of the round's operation
 * type. `r` receives the last round's results. The progress bar counts
 * rounds from `done` of `total`. Returns an exit status.
 */
int series_until_steady(struct series *s, struct job_spec *job, const char *rw,
			const struct steady_rule *rule, struct run_result *r,
			struct steady_result *out);

/*
 * Time, IO and byte bounds of each job: real devices must finish in time;
 * simulated ones cost wall time per event (an SSD model per flash page), so
 * they get a long virtual time but a byte budget.
 */
void series_default_bounds(const struct measure_target *m, struct sweep_plan *plan);

#endif
