/*
 * drive_model.h — everything iomodel knows about one drive, fitted from its
 * measured points: per operation type the first-order model (weighted fit
 * and the seeds' two-point figures), for writes the erase-block model where
 * the data show one, and the queue-depth model where several depths were
 * measured. It predicts any other workload from those few numbers.
 *
 * Which points feed which model:
 *  - first-order: at every queue depth q that has a size sweep (two sizes
 *    or more), the op's points at q (random ones; sequential ones only when
 *    q has no random), fitted to the time per IO per slot q / IOPS =
 *    penalty + size / STR (caps.h when the line fails at the ends and caps
 *    explain it). The lowest such depth is the op's main model (`fit`,
 *    `fit_qd`), at depth 1 when a QD1 sweep was measured;
 *  - erase block: the write sweep at depth 1;
 *  - queue depth: the op's size measured at the most depths (random ones, or
 *    sequential when there are none), when it has at least two depths.
 * An op with neither gets a note saying why; a point set where no op has
 * either is refused.
 *
 * Invariants (drive_model_check() tests them; predict refuses a model read
 * from a file that breaks them): every STR, cap, t1 and X_sat > 0, every
 * penalty >= 0, all finite but X_sat and the caps (INFINITY: none).
 */
#ifndef IOMODEL_DRIVE_MODEL_H
#define IOMODEL_DRIVE_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "model/caps.h"
#include "model/erase_block.h"
#include "model/first_order.h"
#include "model/points.h"
#include "model/queue_depth.h"

/* The first-order model of one op at one queue depth. */
struct depth_fit {
	unsigned qd;			/* IOs outstanding of the sweep */
	/* how its points made qd = iodepth x jobs, when all agree and said (fio); else 0 */
	unsigned iodepth, jobs;
	bool random;
	struct first_order fit;		/* per-slot seconds; the capped model's line if has_caps */
	struct first_order two_point;	/* smallest and largest size */
	uint64_t two_point_sizes[2];
	bool fails_low, fails_high;	/* the line alone misses the smallest / largest size */
	double line_rms;		/* rms of the straight line alone */
	bool has_caps;
	struct io_caps caps;		/* aggregate limits; INFINITY when none */
	size_t first, n_points;		/* its points: op_model.points[first .. + n_points) */
	size_t n_failing;		/* of those, where the model misses by > 20 % */
};

struct op_model {
	bool has_first_order;		/* n_depths > 0 */
	/* depths[0], the lowest depth with a size sweep: fit_qd, fit, two_point */
	unsigned fit_qd;
	struct first_order fit;		/* weighted least squares */
	struct first_order two_point;	/* smallest and largest size */
	uint64_t two_point_sizes[2];
	struct depth_fit *depths;	/* by increasing qd; owned */
	size_t n_depths;
	/*
	 * Every point a model of this op was fitted on, at every depth, by
	 * (qd, size), with its residual against the model that covers it (the
	 * first-order fit of its depth, else the queue-depth model; NaN and
	 * not failing when neither does).
	 */
	struct perf_point *points;	/* owned */
	struct fit_residual *residuals;	/* one per point; owned */
	size_t n_points;
	size_t n_failing;		/* points where the first-order model fails, main depth */
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
	const char *erase_block_method;	/* "fit", "penalty bound", "raid row" (raid -o) or NULL */
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

/*
 * A write cache shows when writes stream more than CACHE_WRITE_READ_RATIO
 * times faster than reads at the same depth, or faster than any single
 * drive's interface carries (INTERFACE_MAX_BPS: PCIe 5.0 x4 moves 15.75
 * GB/s of payload; SATA 0.6, SAS-4 2.4): the writes land in a cache (drive,
 * controller, or the host's page cache behind a virtual disk) and the STR
 * is the cache's.
 */
#define CACHE_WRITE_READ_RATIO 2.0
#define INTERFACE_MAX_BPS 16e9

struct write_cache {
	bool absorbs;			/* the writes' STR is a cache's */
	double write_bps, read_bps;	/* the STRs compared (read 0: none) */
	bool above_interface;		/* write_bps > INTERFACE_MAX_BPS */
};

struct drive_model {
	struct op_model op[2];		/* by enum io_op */
	struct write_cache cache;
};

/* The depth fit nearest to `qd` (log scale, the lower on a tie); NULL when none. */
const struct depth_fit *op_model_nearest_depth(const struct op_model *om, unsigned qd);

/* -EINVAL with a message naming the parameter when an invariant above is broken. */
int drive_model_check(const struct drive_model *m, struct errmsg *err);

/*
 * Fit every model the points allow. -EINVAL with a message when none.
 * drive_model.c; predictions and checks are in drive_predict.c.
 */
int drive_model_fit(const struct point_set *ps, struct drive_model *m, struct errmsg *err);
void drive_model_release(struct drive_model *m);

struct prediction {
	double iops;
	double mib_s;
	double mean_lat_s;
	double merges;			/* expected erase-block merges per IO (writes) */
	unsigned fit_qd;		/* depth of the size model used; 0: the depth curve alone */
	unsigned fit_iodepth, fit_jobs;	/* how fit_qd was made (depth_fit), 0 when unknown */
	bool capped;			/* an IOPS or MB/s cap holds the throughput */
};

/*
 * Predict `size`-byte IOs of `op` at `qd` outstanding, offsets aligned to
 * `align` (0: to the size). The time per IO per slot comes from the depth
 * fit nearest to `qd` (the erase-block model at depth 1 when detected),
 * scaled from that depth to `qd` by the queue-depth model, whose gain is
 * assumed the same at every size: R(q) = t * g(q) / g(q0), g(q) = 1 + (q - 1) k,
 * k = 1 / (X_sat * t1); between two fitted depths, the predictions from
 * both, averaged geometrically with weights by log-distance. Throughput is
 * then held under the caps of the nearest depth fit. A model with only a queue-depth curve predicts its own size at
 * any depth. -EINVAL with a message when the model lacks what is asked.
 */
int drive_model_predict(const struct drive_model *m, enum io_op op, uint64_t size,
			unsigned qd, uint64_t align, struct prediction *out, struct errmsg *err);

#endif
