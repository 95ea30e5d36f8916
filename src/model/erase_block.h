/*
 * erase_block.h — the erase-block ("cluster") penalty model of SSD writes.
 *
 * A drive that maps flash in units of C bytes must read-modify-write every
 * unit a write covers only partly: 0, 1 or 2 such merges per write (one at
 * each end; one when the write sits inside a single unit). Each merge costs
 * about P = C/W + C/R (write the unit at the write STR W, read it at the
 * read STR R). So
 *
 *     seconds per write = penalty + size / W + E[merges](size, align, C) * P
 *
 * where E[] averages over the offsets the workload uses (uniform among the
 * multiples of `align` — a random workload — exactly, by residues mod C).
 *
 * erase_block_fit() estimates C from a write sweep at queue depth 1 (and R
 * from the read fit): for each candidate C on a fine geometric grid it
 * solves the remaining linear least squares (penalty, 1/W) with the same
 * relative weights as first_order_fit(), and keeps the C with the smallest
 * error. The erase block is "detected" only when that model explains the
 * sweep clearly better than the first-order model (see `detected`).
 */
#ifndef IOMODEL_ERASE_BLOCK_H
#define IOMODEL_ERASE_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/points.h"
#include "util/errmsg.h"

struct erase_block_model {
	bool detected;		/* the merge term explains the writes */
	/*
	 * How a merge reads: false, the pages the write leaves (the model above);
	 * true, the whole unit (the JMF602: read whole, merge, rewrite whole), so
	 *     seconds = penalty + E[units touched] * C / W + E[merges] * C / R
	 * and merge_s = C / R, the unit's programming being in the first term.
	 */
	bool whole_merge;
	/*
	 * Interval of C: the smallest and largest units of the search whose error
	 * is within the 95 % bound of the profile over C (F test) or within one
	 * point of relative rms of the best, whichever is wider.
	 */
	double unit_lo_bytes, unit_hi_bytes;
	double unit_bytes;	/* C */
	double penalty_s;	/* per-write access penalty, without merges */
	double write_bps;	/* W */
	double read_bps;	/* R, as given */
	double merge_s;		/* P = C/W + C/R */
	double rms_rel_residual;
	double first_order_rms;	/* of the plain first-order fit, for comparison */
};

/*
 * Expected merges (0..2) of a write of `size` at offsets uniform over multiples
 * of `align` (0 means 512). C is rounded to a multiple of 512 bytes; exact.
 */
double erase_block_expected_merges(uint64_t size, uint64_t align, double unit_bytes);

/* Expected number of units of C bytes a write of `size` touches (offsets as above). */
double erase_block_expected_units(uint64_t size, uint64_t align, double unit_bytes);

/* Seconds per write the model predicts. */
double erase_block_seconds(const struct erase_block_model *m, uint64_t size, uint64_t align);

/*
 * The seeds' quick estimate: the unit whose merge costs the whole small-write
 * penalty P: C = P / (1/W + 1/R) (bytes, from seconds and bytes per second).
 */
double erase_block_upper_bound(double penalty_s, double write_bps, double read_bps);

/*
 * Fit C (and penalty, W) to write points (queue depth 1; `align` of each
 * point used, or its size when unknown, or 512 for sizes below that), given
 * the read STR. Returns 0 with m->detected false when no unit explains the
 * data better than a first-order model; -EINVAL with a message for unusable
 * input. The penalty is constrained to >= 0. When not detected, the other
 * fields still describe the best candidate unit.
 */
int erase_block_fit(const struct perf_point *writes, size_t n, double read_bps,
		    struct erase_block_model *m, struct errmsg *err);

#endif
