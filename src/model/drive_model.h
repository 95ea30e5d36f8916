/*
 * drive_model.h — everything iomodel knows about one drive, fitted from its
 * measured points: per operation type the first-order model (weighted fit
 * and the seeds' two-point figures), for writes the erase-block model where
 * the data show one, and the queue-depth model where several depths were
 * measured. It predicts any other workload from those few numbers.
 *
 * Which points feed which model:
 *  - first-order (and erase block): the op's points at queue depth 1, all
 *    sizes (random ones; sequential ones only when there are no random);
 *  - queue depth: the op's size measured at the most depths (random ones, or
 *    sequential when there are none), when it has at least two depths.
 * An op with neither gets a note saying why; a point set where no op has
 * either is refused.
 */
#ifndef IOMODEL_DRIVE_MODEL_H
#define IOMODEL_DRIVE_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "model/erase_block.h"
#include "model/first_order.h"
#include "model/points.h"
#include "model/queue_depth.h"

struct op_model {
	bool has_first_order;
	struct first_order fit;		/* weighted least squares */
	struct first_order two_point;	/* smallest and largest size */
	uint64_t two_point_sizes[2];
	struct perf_point *points;	/* the QD1 points fitted, by size; owned */
	struct fit_residual *residuals;	/* one per point; owned */
	size_t n_points;
	size_t n_failing;		/* points where the first-order model fails */
	bool has_erase_block;		/* writes only: the fit ran */
	struct erase_block_model erase_block;
	/*
	 * The erase block the spec sheet reports (writes; 0 when none shows):
	 * the fitted unit when the size sweep shows the merge steps, else the
	 * seeds' bound P/(1/W + 1/R) when small writes pay far more than small
	 * reads (a read-modify-write signature: write penalty above
	 * MERGE_SIGNATURE_RATIO times the read penalty and above 1 ms).
	 */
	double erase_block_bytes;
	const char *erase_block_method;	/* "fit", "penalty bound" or NULL */
	bool has_qd;
	struct qd_model qd;
	uint64_t qd_size;		/* the size the depths were measured at */
	char note[240];			/* why a model is missing, or "" */
};

#define MERGE_SIGNATURE_RATIO 20.0
/* The erase-block fit runs from this many QD1 write sizes on... */
#define ERASE_BLOCK_MIN_POINTS 5
/* ...and counts only where the first-order model misses by more than this (rms). */
#define ERASE_BLOCK_MIN_FIRST_ORDER_RMS 0.02

struct drive_model {
	struct op_model op[2];		/* by enum io_op */
};

/* Fit every model the points allow. -EINVAL with a message when none. */
int drive_model_fit(const struct point_set *ps, struct drive_model *m, struct errmsg *err);
void drive_model_release(struct drive_model *m);

struct prediction {
	double iops;
	double mib_s;
	double mean_lat_s;
	double merges;			/* expected erase-block merges per IO (writes) */
};

/*
 * Predict `size`-byte IOs of `op` at `qd` outstanding, offsets aligned to
 * `align` (0: to the size). Queue depths above 1 need the op's queue-depth
 * model, whose gain is assumed the same at every size (the response time
 * R(q) = t(size) * (1 + (q - 1) * k) with k = 1 / (X_sat * t1) from the fit).
 * -EINVAL with a message when the model lacks what is asked.
 */
int drive_model_predict(const struct drive_model *m, enum io_op op, uint64_t size,
			unsigned qd, uint64_t align, struct prediction *out, struct errmsg *err);

#endif
