/*
 * ranks.h — `iomodel run` as one rank of an MPI job (`mpirun -n N iomodel
 * run …`), or alone. The same calls work in both cases: standalone (not
 * launched by mpirun, or built without Open MPI: see ranks_none.c) there is
 * one rank, agreement returns the rank's own status and gathering copies
 * its own result, so `run` has one code path.
 *
 * Under mpirun every rank runs the same command line on its own target
 * (`%r` in --target is replaced by the rank) and only rank 0 prints: the
 * other ranks' stdout and stderr go to /dev/null, and what they have to say
 * reaches rank 0 through ranks_agree (the first failing rank's message) and
 * ranks_gather (their results). All functions but ranks_available are
 * collective: every rank calls them, in the same order.
 */
#ifndef IOMODEL_RANKS_H
#define IOMODEL_RANKS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "util/errmsg.h"

struct ranks {
	int rank;		/* 0 when standalone */
	int size;		/* 1 when standalone */
	bool mpi;		/* launched by mpirun, and MPI is initialised */
};

/* Whether this binary was built with Open MPI. */
bool ranks_available(void);

/*
 * Join the MPI job when the environment says mpirun launched us; else run
 * standalone. Returns 0 or a negative errno with a message.
 */
int ranks_init(struct ranks *r, int *argc, char ***argv, struct errmsg *err);
void ranks_finalize(struct ranks *r);

/*
 * Every rank's exit status (0: fine). Returns the highest; when some rank
 * failed, `err` on rank 0 holds the message of the lowest-numbered rank
 * whose failure was its own (`primary`; not a "another rank failed"),
 * prefixed "rank K: " when there are several ranks.
 */
int ranks_agree(const struct ranks *r, int status, bool primary, struct errmsg *err);

/* Rank 0's `*value` on every rank (the --verify generation of the run). */
void ranks_share(const struct ranks *r, uint64_t *value);

/*
 * The jobs' start gate (suite/jobs.h, ctx = struct ranks): every rank says
 * whether its jobs are ready; if all are, a barrier and then a common start
 * time (rank 0's realtime clock + 50 ms, broadcast, slept until), so the
 * ranks start within the clocks' agreement. -ECANCELED when another rank
 * was not ready, or `status` when this one was not.
 */
int ranks_gate(void *ctx, int status, struct errmsg *err);

/*
 * Gather every rank's result (and the spec it ran, for per-rank rows) to
 * rank 0: `all` and `specs` (size elements, results initialised) are filled
 * on rank 0 only. 0 or -ENOMEM.
 */
int ranks_gather(const struct ranks *r, const struct run_result *mine,
		 const struct job_spec *spec, struct run_result *all, struct job_spec *specs);

#endif
