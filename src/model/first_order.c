/*
 * first_order.c — fitting seconds per IO = penalty + size / STR
 * (first_order.h): the seeds' two-point method, and a weighted least-squares
 * fit over a size sweep with 95 % confidence intervals and per-point
 * relative residuals.
 *
 * The fit is done on seconds per IO, t = 1/iops, which is linear in the
 * parameters (penalty, 1/STR). Weights 1/t^2 make every point count by its
 * relative error, so a sweep from 512 B to 512 MiB (t spanning four decades)
 * is not decided by its largest sizes alone. From four points on the fit is
 * robust (bisquare), so the sizes where the model fails do not bias it. The interval of STR is the
 * image of the interval of its reciprocal, the fitted slope.
 */
#include "model/first_order.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_multifit.h>

static double max_abs(const double *x, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++)
		m = fmax(m, fabs(x[i]));
	return m;
}

static bool usable_line_input(const double *x, const double *w, size_t n)
{
	bool distinct = false;

	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]) || !isfinite(w[i]) || !(w[i] > 0))
			return false;
		if (x[i] != x[0])
			distinct = true;
	}
	return distinct;
}

int first_order_wls(const double *x, const double *y, const double *w, size_t n,
		    struct wls_line *out)
{
	gsl_multifit_linear_workspace *ws;
	double c[2], cov[4], chisq, scale, *design;
	int ret;

	if (n < 2 || !usable_line_input(x, w, n))
		return -EINVAL;
	design = malloc(2 * n * sizeof(*design));
	if (!design)
		return -ENOMEM;
	/* x is rescaled to at most 1 so both columns have similar norms */
	scale = max_abs(x, n);
	for (size_t i = 0; i < n; i++) {
		design[2 * i] = 1.0;
		design[2 * i + 1] = x[i] / scale;
	}
	ws = gsl_multifit_linear_alloc(n, 2);
	if (!ws) {
		free(design);
		return -ENOMEM;
	}
	gsl_matrix_view xm = gsl_matrix_view_array(design, n, 2);
	gsl_vector_const_view wv = gsl_vector_const_view_array(w, n);
	gsl_vector_const_view yv = gsl_vector_const_view_array(y, n);
	gsl_vector_view cv = gsl_vector_view_array(c, 2);
	gsl_matrix_view covm = gsl_matrix_view_array(cov, 2, 2);

	ret = gsl_multifit_wlinear(&xm.matrix, &wv.vector, &yv.vector, &cv.vector,
				   &covm.matrix, &chisq, ws);
	gsl_multifit_linear_free(ws);
	free(design);
	if (ret || !isfinite(c[0]) || !isfinite(c[1]))
		return -EINVAL;
	out->a = c[0];
	out->b = c[1] / scale;
	out->cov_aa = cov[0];
	out->cov_ab = cov[1] / scale;
	out->cov_bb = cov[3] / (scale * scale);
	out->chisq = chisq;
	return 0;
}

/*
 * The same line, fitted robustly (Tukey's bisquare, by GSL's iteratively
 * reweighted least squares) on the rows scaled by sqrt(w): points where the
 * first-order model does not hold (the knee of a multi-channel SSD between
 * one page and a full stripe, say) get little or no weight instead of
 * pulling both parameters. The covariance GSL returns is already scaled by
 * the robust residual variance, so chisq is set to n - 2 (variance factor 1).
 */
static int robust_line(const double *x, const double *y, const double *w, size_t n,
		       struct wls_line *out)
{
	gsl_multifit_robust_workspace *ws = gsl_multifit_robust_alloc(
		gsl_multifit_robust_bisquare, n, 2);
	gsl_matrix *xm = gsl_matrix_alloc(n, 2), *cov = gsl_matrix_alloc(2, 2);
	gsl_vector *yv = gsl_vector_alloc(n), *c = gsl_vector_alloc(2);
	double scale = max_abs(x, n);
	int ret = -ENOMEM;

	if (ws && xm && cov && yv && c) {
		for (size_t i = 0; i < n; i++) {
			double r = sqrt(w[i]);

			gsl_matrix_set(xm, i, 0, r);
			gsl_matrix_set(xm, i, 1, r * x[i] / scale);
			gsl_vector_set(yv, i, r * y[i]);
		}
		ret = gsl_multifit_robust(xm, yv, c, cov, ws) ? -EINVAL : 0;
	}
	if (!ret) {
		out->a = gsl_vector_get(c, 0);
		out->b = gsl_vector_get(c, 1) / scale;
		out->cov_aa = gsl_matrix_get(cov, 0, 0);
		out->cov_ab = gsl_matrix_get(cov, 0, 1) / scale;
		out->cov_bb = gsl_matrix_get(cov, 1, 1) / (scale * scale);
		out->chisq = (double)(n - 2);
		/* data the line fits exactly leave GSL's robust scale at 0: no spread */
		if (!isfinite(out->cov_aa) || !isfinite(out->cov_bb))
			out->cov_aa = out->cov_ab = out->cov_bb = 0;
		ret = isfinite(out->a) && isfinite(out->b) ? 0 : -EINVAL;
	}
	gsl_multifit_robust_free(ws);
	gsl_matrix_free(xm);
	gsl_matrix_free(cov);
	gsl_vector_free(yv);
	gsl_vector_free(c);
	return ret;
}

double first_order_origin_slope(const double *x, const double *y, const double *w, size_t n)
{
	double sxy = 0, sxx = 0;

	for (size_t i = 0; i < n; i++) {
		sxy += w[i] * x[i] * y[i];
		sxx += w[i] * x[i] * x[i];
	}
	return sxy / sxx;
}

/*
 * The line refitted with its intercept fixed at 0 (when the free fit's is
 * negative). cov_bb is 1 / sum(w x^2), chisq the weighted squared residuals,
 * so the interval of the slope comes out of set_intervals() as for a free
 * fit (with one more degree of freedom, not counted: a slightly wider band).
 */
static void clamp_to_origin(const double *x, const double *y, const double *w, size_t n,
			    struct wls_line *l)
{
	double sxx = 0, chisq = 0;

	l->b = first_order_origin_slope(x, y, w, n);
	for (size_t i = 0; i < n; i++) {
		double r = y[i] - l->b * x[i];

		sxx += w[i] * x[i] * x[i];
		chisq += w[i] * r * r;
	}
	l->a = 0;
	l->cov_aa = l->cov_ab = 0;
	l->cov_bb = 1 / sxx;
	l->chisq = chisq;
}

static void set_exact(struct first_order *m, double penalty, double str)
{
	m->penalty_s = penalty;
	m->str_bps = str;
	m->penalty_lo_s = m->penalty_hi_s = penalty;
	m->str_lo_bps = m->str_hi_bps = str;
	m->rms_rel_residual = 0;
}

int first_order_two_point(uint64_t s1, double iops1, uint64_t s2, double iops2,
			  struct first_order *out, struct errmsg *err)
{
	double t1, t2, str, penalty;

	if (!isfinite(iops1) || !(iops1 > 0))
		return errmsg_set(err, -EINVAL, "a rate of %g IOPS at %" PRIu64 " bytes",
				  iops1, s1);
	if (!isfinite(iops2) || !(iops2 > 0))
		return errmsg_set(err, -EINVAL, "a rate of %g IOPS at %" PRIu64 " bytes",
				  iops2, s2);
	if (s1 == s2)
		return errmsg_set(err, -EINVAL,
				  "two-point method needs two request sizes (got %" PRIu64
				  " bytes twice)", s1);
	t1 = 1.0 / iops1;
	t2 = 1.0 / iops2;
	str = ((double)s2 - (double)s1) / (t2 - t1);
	if (!isfinite(str) || !(str > 0))
		return errmsg_set(err, -EINVAL,
				  "%" PRIu64 " bytes take no longer than %" PRIu64
				  " bytes: no positive transfer rate", s1 < s2 ? s2 : s1,
				  s1 < s2 ? s1 : s2);
	penalty = t1 - (double)s1 / str;
	if (penalty < 0) {
		double x[2] = { (double)s1, (double)s2 }, y[2] = { t1, t2 };
		double w[2] = { 1 / (t1 * t1), 1 / (t2 * t2) };

		str = 1.0 / first_order_origin_slope(x, y, w, 2);
	}
	set_exact(out, penalty < 0 ? 0 : penalty, str);
	out->penalty_clamped = penalty < 0;
	out->free_penalty_s = penalty;
	out->n = 2;
	return 0;
}

/* One operation type, finite positive rates, at least two distinct sizes. */
static int check_points(const struct perf_point *pts, size_t n, struct errmsg *err)
{
	bool distinct = false;

	if (n == 0)
		return errmsg_set(err, -EINVAL, "no points to fit");
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(pts[i].iops) || !(pts[i].iops > 0))
			return errmsg_set(err, -EINVAL, "a rate of %g IOPS at %" PRIu64 " bytes",
					  pts[i].iops, pts[i].size);
		if (pts[i].op != pts[0].op)
			return errmsg_set(err, -EINVAL, "points mix reads and writes");
		if (pts[i].qd != pts[0].qd)
			return errmsg_set(err, -EINVAL, "points mix queue depths %u and %u",
					  pts[0].qd, pts[i].qd);
		if (pts[i].size != pts[0].size)
			distinct = true;
	}
	if (!distinct)
		return errmsg_set(err, -EINVAL, "fewer than two request sizes for %s",
				  io_op_name(pts[0].op));
	return 0;
}

static void set_intervals(struct first_order *m, const struct wls_line *l, size_t n)
{
	double da = 0, db = 0;

	if (n > 2) {
		double s2 = l->chisq / (double)(n - 2);
		double t = gsl_cdf_tdist_Pinv(0.975, (double)(n - 2));

		da = t * sqrt(s2 * l->cov_aa);
		db = t * sqrt(s2 * l->cov_bb);
	}
	m->penalty_lo_s = l->a - da;
	m->penalty_hi_s = l->a + da;
	m->str_lo_bps = 1.0 / (l->b + db);
	m->str_hi_bps = l->b - db > 0 ? 1.0 / (l->b - db) : INFINITY;
}

/* Relative residuals (measured - predicted) / predicted, their rms, the flags. */
static int set_residuals(struct first_order *m, const struct perf_point *pts, size_t n,
			 struct fit_residual *res, struct errmsg *err)
{
	double sum2 = 0;

	for (size_t i = 0; i < n; i++) {
		double pred = first_order_seconds(m, pts[i].size);
		double rel = (point_seconds(&pts[i]) - pred) / pred;

		if (!(pred > 0))
			return errmsg_set(err, -EINVAL,
					  "the %s fit predicts no time for %" PRIu64
					  " bytes (penalty %g s)", io_op_name(pts[0].op),
					  pts[i].size, m->penalty_s);
		sum2 += rel * rel;
		if (res) {
			res[i].predicted_s = pred;
			res[i].rel_residual = rel;
			res[i].fails = fabs(rel) > FIRST_ORDER_FAIL_THRESHOLD;
		}
	}
	m->rms_rel_residual = sqrt(sum2 / (double)n);
	return 0;
}

static int fit_points(const struct perf_point *pts, size_t n, struct wls_line *l,
		      double *free_a)
{
	double *buf = malloc(3 * n * sizeof(*buf));
	double *x = buf, *y = buf + n, *w = buf + 2 * n;
	int ret;

	if (!buf)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		x[i] = (double)pts[i].size;
		y[i] = point_seconds(&pts[i]);
		w[i] = 1.0 / (y[i] * y[i]);
	}
	/* robust from 4 points on (bisquare needs spare degrees of freedom) */
	ret = n >= 4 && usable_line_input(x, w, n) ? robust_line(x, y, w, n, l) : -EINVAL;
	if (ret)
		ret = first_order_wls(x, y, w, n, l);
	*free_a = l->a;
	if (!ret && l->a < 0 && l->b > 0)
		clamp_to_origin(x, y, w, n, l);
	free(buf);
	return ret;
}

int first_order_fit(const struct perf_point *pts, size_t n, struct first_order *out,
		    struct fit_residual *residuals, struct errmsg *err)
{
	struct first_order m = { 0 };
	struct wls_line l;
	double free_a = 0;
	int ret;

	ret = check_points(pts, n, err);
	if (ret)
		return ret;
	ret = fit_points(pts, n, &l, &free_a);
	if (ret == -ENOMEM)
		return errmsg_set(err, ret, "out of memory fitting %zu points", n);
	if (ret)
		return errmsg_set(err, ret, "the %s fit failed", io_op_name(pts[0].op));
	if (!(l.b > 0))
		return errmsg_set(err, -EINVAL,
				  "the %s fit gives a negative transfer rate: larger requests"
				  " are not slower", io_op_name(pts[0].op));
	m.penalty_s = l.a;
	m.str_bps = 1.0 / l.b;
	m.penalty_clamped = free_a < 0;
	m.free_penalty_s = free_a;
	m.n = n;
	set_intervals(&m, &l, n);
	ret = set_residuals(&m, pts, n, residuals, err);
	if (ret)
		return ret;
	*out = m;
	return 0;
}

double first_order_seconds(const struct first_order *m, uint64_t size)
{
	return m->penalty_s + (double)size / m->str_bps;
}

double first_order_penalty(uint64_t size, double iops, double str_bps)
{
	return 1.0 / iops - (double)size / str_bps;
}
