/*
 * merge.h — the results of jobs that ran at the same time, added into one:
 * IO and byte counts add, histograms add bucket by bucket (so the merged
 * percentiles are exact to the histogram's own 1/256 bound, not averages of
 * percentiles), timelines add second by second (each job's second k counted
 * from its own start; the jobs of a run start together), the elapsed time
 * is the longest job's, the CPU time the largest job's figure (each job
 * reads the whole process's time over its own measurement), interrupted if
 * any job was, and the first error kept.
 */
#ifndef IOMODEL_ENGINE_MERGE_H
#define IOMODEL_ENGINE_MERGE_H

#include "engine/engine.h"

/* Add `src` into `dst` (initialised). Returns 0 or -ENOMEM (timeline). */
int run_result_merge(struct run_result *dst, const struct run_result *src);

/* Add `src`'s seconds into `dst`. Returns 0 or -ENOMEM. */
int timeline_merge(struct timeline *dst, const struct timeline *src);

#endif
