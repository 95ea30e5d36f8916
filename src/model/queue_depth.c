/*
 * queue_depth.c — throughput against outstanding IOs (queue_depth.h).
 *
 * By Little's law the response time at depth q is R(q) = q / X(q). The model
 * R(q) = t1 + (q - 1) / X_sat is linear in (t1, 1/X_sat), so both come from
 * one weighted least-squares fit of R on (q - 1), weights 1/R^2 (relative
 * error). The smallest depth need not be 1. A slope <= 0 (response time not
 * growing: the device scales linearly) is refitted with the slope fixed at 0,
 * giving X_sat = INFINITY.
 */
#include "model/queue_depth.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "model/first_order.h"

static int check_qd_points(const struct perf_point *p, size_t n, struct errmsg *err)
{
	bool distinct = false;

	if (n == 0)
		return errmsg_set(err, -EINVAL, "no queue-depth points to fit");
	for (size_t i = 0; i < n; i++) {
		if (p[i].qd < 1)
			return errmsg_set(err, -EINVAL, "a queue depth of 0");
		if (!isfinite(p[i].iops) || !(p[i].iops > 0))
			return errmsg_set(err, -EINVAL, "a rate of %g IOPS at queue depth %u",
					  p[i].iops, p[i].qd);
		if (p[i].op != p[0].op)
			return errmsg_set(err, -EINVAL, "queue-depth points mix reads and writes");
		if (p[i].size != p[0].size)
			return errmsg_set(err, -EINVAL,
					  "queue-depth points mix request sizes (%" PRIu64
					  " and %" PRIu64 " bytes)", p[0].size, p[i].size);
		if (p[i].qd != p[0].qd)
			distinct = true;
	}
	if (!distinct)
		return errmsg_set(err, -EINVAL, "fewer than two queue depths");
	return 0;
}

/* Weighted fit of R = a + b (q - 1); b clamped at 0 (then a = weighted mean). */
static int fit_response(const double *x, const double *y, const double *w, size_t n,
			double *a, double *b)
{
	struct wls_line l;
	int ret = first_order_wls(x, y, w, n, &l);

	if (ret)
		return ret;
	if (!(l.b > 0)) {
		double sw = 0, swy = 0;

		for (size_t i = 0; i < n; i++) {
			sw += w[i];
			swy += w[i] * y[i];
		}
		l.a = swy / sw;
		l.b = 0;
	}
	*a = l.a;
	*b = l.b;
	return 0;
}

static double qd_rms(const struct qd_model *m, const struct perf_point *p, size_t n)
{
	double sum2 = 0;

	for (size_t i = 0; i < n; i++) {
		double pred = qd_iops(m, p[i].qd);
		double rel = (p[i].iops - pred) / pred;

		sum2 += rel * rel;
	}
	return sqrt(sum2 / (double)n);
}

int qd_fit(const struct perf_point *pts, size_t n, struct qd_model *m, struct errmsg *err)
{
	double *buf, a = 0, b = 0;
	int ret;

	ret = check_qd_points(pts, n, err);
	if (ret)
		return ret;
	buf = malloc(3 * n * sizeof(*buf));
	if (!buf)
		return errmsg_set(err, -ENOMEM, "out of memory fitting %zu points", n);
	for (size_t i = 0; i < n; i++) {
		double r = pts[i].qd / pts[i].iops;

		buf[i] = pts[i].qd - 1.0;
		buf[n + i] = r;
		buf[2 * n + i] = 1.0 / (r * r);
	}
	ret = fit_response(buf, buf + n, buf + 2 * n, n, &a, &b);
	free(buf);
	if (ret)
		return errmsg_set(err, ret, "the queue-depth fit failed");
	if (!(a > 0) || !isfinite(a))
		return errmsg_set(err, -EINVAL,
				  "the queue-depth fit gives no positive time for a single IO");
	m->t1_s = a;
	m->sat_iops = b > 0 ? 1.0 / b : INFINITY;
	m->n = n;
	m->gain32 = qd_iops(m, 32) / qd_iops(m, 1);
	m->rms_rel_residual = qd_rms(m, pts, n);
	return 0;
}

double qd_iops(const struct qd_model *m, double q)
{
	return q / (m->t1_s + (q - 1) / m->sat_iops);
}
