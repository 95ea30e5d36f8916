/*
 * queue_depth.h — throughput against outstanding IOs, by Little's law with
 * a saturation level.
 *
 * With q IOs outstanding, a device that serves one IO in t1 seconds alone and
 * at most X_sat IOs per second when busy has a response time of about
 *     R(q) = t1 + (q - 1) / X_sat
 * (each IO also waits for the ones ahead of it at the saturated rate), so
 *     X(q) = q / R(q),   X(1) = 1/t1,   X(q) -> X_sat as q grows.
 * R(q) = q / X(q) is linear in (t1, 1/X_sat): the fit is one weighted least
 * squares (relative error) of R(q) against (q - 1), so t1 is the intercept
 * and needs no QD1 point; a response time that does not grow with q gives
 * X_sat = INFINITY. `gain32` is the predicted X(32) / X(1), the figure the
 * spec sheet prints.
 */
#ifndef IOMODEL_QUEUE_DEPTH_H
#define IOMODEL_QUEUE_DEPTH_H

#include <stddef.h>

#include "model/points.h"
#include "util/errmsg.h"

struct qd_model {
	double t1_s;		/* seconds per IO at queue depth 1 */
	double sat_iops;	/* X_sat; INFINITY when throughput grows linearly */
	double gain32;		/* X(32) / X(1) */
	size_t n;
	double rms_rel_residual;
};

/*
 * Fit to points of one operation and size at several queue depths (qd >= 1,
 * at least two distinct depths). -EINVAL with a message otherwise.
 */
int qd_fit(const struct perf_point *pts, size_t n, struct qd_model *m, struct errmsg *err);

/* Predicted IOPS at queue depth q. */
double qd_iops(const struct qd_model *m, double q);

#endif
