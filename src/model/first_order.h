/*
 * first_order.h — the first-order model of one operation type:
 *
 *     seconds per IO = penalty + size / STR
 *
 * `penalty` is the random access penalty (latency of a tiny IO), STR the
 * average sustained transfer rate. Fitted to IOs at queue depth 1.
 *
 *  - first_order_two_point(): the seeds' method from two sizes s1 < s2:
 *    STR = (s2 - s1) / (t2 - t1), penalty = t1 - s1 / STR.
 *  - first_order_fit(): weighted least squares over a whole size sweep, on
 *    relative error (weights 1/t^2, so 512 B and 512 MiB count alike),
 *    robust (Tukey bisquare) from four points on so that the sizes where the
 *    model fails do not bias the parameters, with
 *    95 % confidence intervals for both parameters (Student t, n-2 degrees of
 *    freedom, residual variance estimated from the data), the relative
 *    residual of every point, and a flag on the points where the model fails.
 *
 * Both keep the parameters physical: a straight line whose intercept is
 * negative (the data say a vanishingly small IO would take negative time,
 * e.g. 4 KiB at 1000 IOPS and 8 KiB at 250 IOPS) is fitted again with the
 * penalty fixed at 0 (seconds per IO = size / STR, the same relative
 * weights), and `penalty_clamped` says so, with the intercept the free fit
 * gave in `free_penalty_s`. A penalty of exactly 0 is physical (an ideal
 * device with no access cost); a negative one, or an STR that is not
 * positive and finite, never comes out of these functions.
 *
 * Units: bytes, seconds, bytes per second. Functions return 0 or -EINVAL
 * (with a message) for unusable input: fewer than two distinct sizes, a
 * non-positive rate, a fit that gives a negative STR.
 */
#ifndef IOMODEL_FIRST_ORDER_H
#define IOMODEL_FIRST_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/points.h"
#include "util/errmsg.h"

/* |relative residual| above this marks a point where the model fails. */
#define FIRST_ORDER_FAIL_THRESHOLD 0.20

struct first_order {
	double penalty_s;
	double str_bps;		/* bytes per second */
	/* 95 % confidence intervals; equal to the estimate for an exact fit */
	double penalty_lo_s, penalty_hi_s;
	double str_lo_bps, str_hi_bps;	/* str_hi may be INFINITY */
	size_t n;		/* points used */
	double rms_rel_residual;
	bool penalty_clamped;	/* the free fit's penalty was negative: fixed at 0 */
	double free_penalty_s;	/* the free fit's intercept (= penalty_s unless clamped) */
};

struct fit_residual {
	double predicted_s;	/* model's seconds per IO at this size */
	double rel_residual;	/* (measured - predicted) / predicted */
	bool fails;		/* |rel_residual| > FIRST_ORDER_FAIL_THRESHOLD */
};

/* The seeds' two-point method. */
int first_order_two_point(uint64_t s1, double iops1, uint64_t s2, double iops2,
			  struct first_order *out, struct errmsg *err);

/*
 * Weighted least squares over the `n` points `pts` (one operation type,
 * queue depth 1; several points of the same size are all used).
 * `residuals`, if not NULL, receives n entries in the order of `pts`.
 */
int first_order_fit(const struct perf_point *pts, size_t n, struct first_order *out,
		    struct fit_residual *residuals, struct errmsg *err);

/* Seconds per IO the model predicts for `size` bytes. */
double first_order_seconds(const struct first_order *m, uint64_t size);

/* Penalty from one small IO and a known STR: 1/iops - size/STR (the seeds' tables). */
double first_order_penalty(uint64_t size, double iops, double str_bps);

/*
 * The weighted straight-line fit behind first_order_fit(), shared with the
 * other models: y = a + b x minimising sum w_i (y_i - a - b x_i)^2 (GSL,
 * x rescaled internally). cov_* are the entries of (X'WX)^-1, not yet scaled
 * by the residual variance; chisq is the weighted sum of squared residuals.
 * Returns 0, -EINVAL when x has fewer than two distinct values or a weight is
 * not positive and finite, -ENOMEM. Sets no message: callers check first.
 */
struct wls_line {
	double a, b;
	double cov_aa, cov_ab, cov_bb;
	double chisq;
};

int first_order_wls(const double *x, const double *y, const double *w, size_t n,
		    struct wls_line *out);

/*
 * The weighted least-squares slope of y = b x (no intercept):
 * sum(w x y) / sum(w x^2), for fits that fix the penalty at 0. The caller
 * makes sure some w x^2 is positive.
 */
double first_order_origin_slope(const double *x, const double *y, const double *w, size_t n);

#endif
