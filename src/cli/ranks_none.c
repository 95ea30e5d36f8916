/*
 * ranks_none.c — ranks.h for a build without Open MPI: always one rank.
 * (mpi_run.c replaces this file when meson finds MPI.)
 */
#include "ranks.h"

#include <errno.h>

#include "engine/merge.h"

bool ranks_available(void)
{
	return false;
}

int ranks_init(struct ranks *r, int *argc, char ***argv, struct errmsg *err)
{
	(void)argc;
	(void)argv;
	(void)err;
	*r = (struct ranks){ .rank = 0, .size = 1, .mpi = false };
	return 0;
}

void ranks_finalize(struct ranks *r)
{
	(void)r;
}

int ranks_agree(const struct ranks *r, int status, bool primary, struct errmsg *err)
{
	(void)r;
	(void)primary;
	(void)err;
	return status;
}

int ranks_gate(void *ctx, int status, struct errmsg *err)
{
	(void)ctx;
	(void)err;
	return status;
}

void ranks_share(const struct ranks *r, uint64_t *value)
{
	(void)r;
	(void)value;
}

int ranks_gather(const struct ranks *r, const struct run_result *mine,
		 const struct job_spec *spec, struct run_result *all, struct job_spec *specs)
{
	(void)r;
	specs[0] = *spec;
	return run_result_merge(&all[0], mine);
}
