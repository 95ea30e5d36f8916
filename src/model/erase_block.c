/*
 * erase_block.c — the erase-block ("cluster") penalty model of SSD writes
 * (erase_block.h): expected read-modify-write merges per write, and the fit
 * of the unit size C to a write sweep.
 *
 * Expected merges. C is taken in whole bytes, rounded to a multiple of 512.
 * Offsets are the multiples of `align`, so their residues mod C are the
 * multiples of g = gcd(align, C), m = C / g of them, equally likely. A write
 * of S bytes at residue r merges:
 *   r + S <= C (one unit):  1, or 0 when it covers the unit exactly (r = 0, S = C)
 *   r + S >  C (spanning):  [r != 0] + [(r + S) mod C != 0]
 * Summed over the m residues this has a closed form, so no enumeration or
 * sampling is needed whatever C / align is:
 *   S <= C: n1 = floor((C - S) / g) + 1 residues fit in one unit, the other
 *           m - n1 span two units and have both ends unaligned (r > 0 and
 *           C < r + S < 2C): total = n1 - [S == C] + 2 (m - n1)
 *   S >  C: every residue spans; r = 0 is the only aligned start, and the
 *           end is aligned for r0 = (-S) mod C when g divides r0:
 *           total = (m - 1) + (m - [g | r0])
 * (With g | S and S < C this is 1 + (S - g) / C.) test_model.c checks it
 * against the enumeration.
 *
 * The fit. For a candidate C, t_i - E_i C / R = penalty + (s_i + E_i C) / W
 * is linear in (penalty, 1/W): weighted least squares with weights 1/t_i^2
 * (relative error, as first_order_fit()), with penalty >= 0 enforced (a
 * negative intercept is refitted through the origin). C is searched on a
 * geometric grid (64 KiB .. 256 MiB, step 1 %) and on every multiple of
 * 256 KiB, refined by golden section on log C around the best point, and
 * finally the "round" sizes near the best (multiples of 2^9 .. 2^24 bytes)
 * are tried: E[] depends on gcd(align, C), so the error is jagged in C and
 * real units are round. Each candidate is tried with both kinds of merge
 * (the pages left, or the whole unit) and the better kind is kept.
 */
#include "model/erase_block.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "model/first_order.h"
#include "util/arith.h"

#define EB_C_MIN (64.0 * 1024)
#define EB_C_MAX (256.0 * 1024 * 1024)
#define EB_GRID_STEP 1.01
#define EB_ROUND_STEP (256.0 * 1024)
#define EB_MAX_UNIT 9007199254740992.0	/* 2^53: C stays exact in a double */


static uint64_t unit_to_bytes(double unit_bytes)
{
	double k = nearbyint(fmin(unit_bytes, EB_MAX_UNIT) / 512.0);

	return k < 1 ? 512 : (uint64_t)k * 512;
}

double erase_block_expected_merges(uint64_t size, uint64_t align, double unit_bytes)
{
	uint64_t c, g, m, total;

	if (size == 0 || !(unit_bytes > 0))
		return 0;
	c = unit_to_bytes(unit_bytes);
	g = gcd_u64(align ? align : 512, c);
	m = c / g;
	if (size <= c) {
		uint64_t n1 = (c - size) / g + 1;

		total = n1 - (size == c) + 2 * (m - n1);
	} else {
		uint64_t r0 = (c - size % c) % c;

		total = (m - 1) + (m - (r0 % g == 0));
	}
	return (double)total / (double)m;
}

/*
 * Units touched by S bytes at residue r: floor((r + S - 1) / C) + 1. With
 * S - 1 = qC + t (0 <= t < C), floor((r + t) / C) is 1 for the residues
 * r >= C - t, that is for m - ceil((C - t) / g) of the m residues.
 */
double erase_block_expected_units(uint64_t size, uint64_t align, double unit_bytes)
{
	uint64_t c, g, m, q, t;

	if (size == 0 || !(unit_bytes > 0))
		return 0;
	c = unit_to_bytes(unit_bytes);
	g = gcd_u64(align ? align : 512, c);
	m = c / g;
	q = (size - 1) / c;
	t = (size - 1) % c;
	return (double)(q + 1) + (double)(m - (c - t + g - 1) / g) / (double)m;
}

double erase_block_seconds(const struct erase_block_model *m, uint64_t size, uint64_t align)
{
	double merges = erase_block_expected_merges(size, align, m->unit_bytes);

	if (m->whole_merge)
		return m->penalty_s + erase_block_expected_units(size, align, m->unit_bytes) *
		       m->unit_bytes / m->write_bps + merges * m->merge_s;
	return m->penalty_s + (double)size / m->write_bps + merges * m->merge_s;
}

double erase_block_upper_bound(double penalty_s, double write_bps, double read_bps)
{
	return penalty_s / (1.0 / write_bps + 1.0 / read_bps);
}

/* The sweep, with scratch space for one candidate's linear problem. */
struct eb_fit {
	const struct perf_point *p;
	size_t n;
	double read_bps;
	bool whole_merge;		/* the kind of merge the candidates assume */
	double *x, *y, *w, *e;
};

struct eb_cand {
	double unit;		/* C, a multiple of 512 */
	double penalty;
	double inv_w;		/* 1/W */
	double sse;		/* weighted; INFINITY when W <= 0 */
	bool whole_merge;
};

static uint64_t point_align(const struct perf_point *p)
{
	if (p->align)
		return p->align;
	return p->size < 512 ? 512 : p->size;
}

/* Weighted least squares through the origin: the penalty >= 0 constraint. */
static double origin_slope(const double *x, const double *y, const double *w, size_t n)
{
	double sxy = 0, sxx = 0;

	for (size_t i = 0; i < n; i++) {
		sxy += w[i] * x[i] * y[i];
		sxx += w[i] * x[i] * x[i];
	}
	return sxy / sxx;
}

static int eb_solve(struct eb_fit *f, double unit, struct eb_cand *out)
{
	struct wls_line l;
	double c = (double)unit_to_bytes(unit), sse = 0;
	int ret;

	for (size_t i = 0; i < f->n; i++) {
		double t = point_seconds(&f->p[i]);

		f->e[i] = erase_block_expected_merges(f->p[i].size, point_align(&f->p[i]), c);
		f->x[i] = f->whole_merge
			  ? erase_block_expected_units(f->p[i].size, point_align(&f->p[i]), c) * c
			  : (double)f->p[i].size + f->e[i] * c;
		f->y[i] = t - f->e[i] * c / f->read_bps;
		f->w[i] = 1.0 / (t * t);
	}
	ret = first_order_wls(f->x, f->y, f->w, f->n, &l);
	if (ret == -ENOMEM)
		return ret;
	out->unit = c;
	if (ret) {		/* degenerate at this C: not a candidate */
		out->sse = INFINITY;
		return 0;
	}
	if (l.a < 0) {
		l.a = 0;
		l.b = origin_slope(f->x, f->y, f->w, f->n);
	}
	for (size_t i = 0; i < f->n; i++) {
		double r = f->y[i] - l.a - l.b * f->x[i];

		sse += f->w[i] * r * r;
	}
	out->penalty = l.a;
	out->inv_w = l.b;
	out->whole_merge = f->whole_merge;
	out->sse = l.b > 0 && isfinite(sse) ? sse : INFINITY;
	return 0;
}

/* Solve at `unit` and keep it in *best when better; returns its sse. */
static int eb_try(struct eb_fit *f, double unit, struct eb_cand *best, double *sse)
{
	struct eb_cand c;
	int ret = eb_solve(f, unit, &c);

	if (ret)
		return ret;
	if (c.sse < best->sse)
		*best = c;
	*sse = c.sse;
	return 0;
}

static int eb_grid(struct eb_fit *f, struct eb_cand *best)
{
	double sse;

	for (double c = EB_C_MIN; c <= EB_C_MAX * 1.000001; c *= EB_GRID_STEP) {
		int ret = eb_try(f, c, best, &sse);

		if (ret)
			return ret;
	}
	/*
	 * The error is jagged in C (E[] depends on gcd(align, C)), so a sharp
	 * minimum at a round unit can fall between grid points: try every
	 * multiple of 256 KiB as well.
	 */
	for (double c = EB_ROUND_STEP; c <= EB_C_MAX; c += EB_ROUND_STEP) {
		int ret = eb_try(f, c, best, &sse);

		if (ret)
			return ret;
	}
	return 0;
}

/* Golden-section search on log C within one grid step either side of *best. */
static int eb_golden(struct eb_fit *f, struct eb_cand *best)
{
	const double k = (sqrt(5.0) - 1) / 2;
	double lo = log(fmax(best->unit / EB_GRID_STEP, EB_C_MIN));
	double hi = log(fmin(best->unit * EB_GRID_STEP, EB_C_MAX));
	double u1 = hi - k * (hi - lo), u2 = lo + k * (hi - lo), f1, f2;
	int ret;

	ret = eb_try(f, exp(u1), best, &f1);
	if (!ret)
		ret = eb_try(f, exp(u2), best, &f2);
	while (!ret && hi - lo > 1e-7) {
		if (f1 <= f2) {
			hi = u2;
			u2 = u1;
			f2 = f1;
			u1 = hi - k * (hi - lo);
			ret = eb_try(f, exp(u1), best, &f1);
		} else {
			lo = u1;
			u1 = u2;
			f1 = f2;
			u2 = lo + k * (hi - lo);
			ret = eb_try(f, exp(u2), best, &f2);
		}
	}
	return ret;
}

/* Round units near the best: multiples of 2^b, within two grid steps. */
static int eb_round_units(struct eb_fit *f, struct eb_cand *best)
{
	double centre = best->unit, sse;
	double lo = fmax(centre / (EB_GRID_STEP * EB_GRID_STEP), EB_C_MIN);
	double hi = fmin(centre * EB_GRID_STEP * EB_GRID_STEP, EB_C_MAX);

	for (int b = 24; b >= 9; b--) {
		double q = ldexp(1.0, b), base = floor(centre / q) * q;

		for (int j = 0; j <= 1; j++) {
			double c = base + j * q;
			int ret;

			if (c < lo || c > hi)
				continue;
			ret = eb_try(f, c, best, &sse);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int check_writes(const struct perf_point *p, size_t n, double read_bps,
			struct errmsg *err)
{
	bool distinct = false;

	if (!isfinite(read_bps) || !(read_bps > 0))
		return errmsg_set(err, -EINVAL, "a read transfer rate of %g bytes/s", read_bps);
	if (n == 0)
		return errmsg_set(err, -EINVAL, "no write points to fit");
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(p[i].iops) || !(p[i].iops > 0))
			return errmsg_set(err, -EINVAL, "a rate of %g IOPS at %" PRIu64 " bytes",
					  p[i].iops, p[i].size);
		if (p[i].size != p[0].size)
			distinct = true;
	}
	if (!distinct)
		return errmsg_set(err, -EINVAL, "fewer than two request sizes for write");
	return 0;
}

/* The rms of (measured - predicted) / predicted, as first_order_fit() reports it. */
static double eb_rms(const struct erase_block_model *m, const struct perf_point *p, size_t n)
{
	double sum2 = 0;

	for (size_t i = 0; i < n; i++) {
		double pred = erase_block_seconds(m, p[i].size, point_align(&p[i]));
		double rel = (point_seconds(&p[i]) - pred) / pred;

		sum2 += rel * rel;
	}
	return sqrt(sum2 / (double)n);
}

/* The best unit for each kind of merge; the better of the two in *best. */
static int eb_search(struct eb_fit *f, struct eb_cand *best)
{
	int ret = 0;

	*best = (struct eb_cand){ .unit = EB_C_MIN, .sse = INFINITY };
	for (int whole = 0; whole <= 1 && !ret; whole++) {
		struct eb_cand kind = { .unit = EB_C_MIN, .sse = INFINITY };

		f->whole_merge = whole;
		ret = eb_grid(f, &kind);
		if (!ret && isfinite(kind.sse))
			ret = eb_golden(f, &kind);
		if (!ret && isfinite(kind.sse))
			ret = eb_round_units(f, &kind);
		if (kind.sse < best->sse)
			*best = kind;
	}
	return ret;
}

/* Widen [*lo, *hi] to `c` when its error is within `bound`. */
static int eb_widen(struct eb_fit *f, double c, double bound, double *lo, double *hi)
{
	struct eb_cand cand;
	int ret = eb_solve(f, c, &cand);

	if (!ret && cand.sse <= bound) {
		*lo = fmin(*lo, cand.unit);
		*hi = fmax(*hi, cand.unit);
	}
	return ret;
}

/*
 * The units, of the best kind of merge, whose error is within the 95 % bound
 * of a one-parameter profile, sse <= best (1 + F(0.95; 1, n - 3) / (n - 3)),
 * or within one point of relative rms of the best fit, whichever is wider:
 * the model is a sketch of the drive, so its own error, not only the
 * measurement's, limits how well the steps place C.
 */
static int eb_interval(struct eb_fit *f, const struct eb_cand *best, double *lo, double *hi)
{
	double n = (double)f->n, dof = n - 3, rms = sqrt(best->sse / n), bound;
	int ret = 0;

	*lo = *hi = best->unit;
	if (dof < 1)
		return 0;
	bound = fmax(best->sse * (1 + gsl_cdf_fdist_Pinv(0.95, 1, dof) / dof),
		     n * (rms + 0.01) * (rms + 0.01));
	f->whole_merge = best->whole_merge;
	for (double c = EB_C_MIN; c <= EB_C_MAX * 1.000001 && !ret; c *= EB_GRID_STEP)
		ret = eb_widen(f, c, bound, lo, hi);
	for (double c = EB_ROUND_STEP; c <= EB_C_MAX && !ret; c += EB_ROUND_STEP)
		ret = eb_widen(f, c, bound, lo, hi);
	return ret;
}

static void eb_fill(struct erase_block_model *m, const struct eb_cand *c, double read_bps)
{
	m->unit_bytes = c->unit;
	m->whole_merge = c->whole_merge;
	m->penalty_s = c->penalty;
	m->write_bps = 1.0 / c->inv_w;
	m->read_bps = read_bps;
	m->merge_s = (c->whole_merge ? 0 : c->unit / m->write_bps) + c->unit / read_bps;
}

int erase_block_fit(const struct perf_point *writes, size_t n, double read_bps,
		    struct erase_block_model *m, struct errmsg *err)
{
	struct eb_fit f = { .p = writes, .n = n, .read_bps = read_bps };
	struct first_order fo;
	struct eb_cand best;
	double *buf;
	int ret;

	ret = check_writes(writes, n, read_bps, err);
	if (ret)
		return ret;
	buf = malloc(4 * n * sizeof(*buf));
	if (!buf)
		return errmsg_set(err, -ENOMEM, "out of memory fitting %zu points", n);
	f.x = buf;
	f.y = buf + n;
	f.w = buf + 2 * n;
	f.e = buf + 3 * n;
	ret = eb_search(&f, &best);
	if (!ret && isfinite(best.sse))
		ret = eb_interval(&f, &best, &m->unit_lo_bytes, &m->unit_hi_bytes);
	free(buf);
	if (ret)
		return errmsg_set(err, ret, "the erase-block fit failed");
	if (!isfinite(best.sse))
		return errmsg_set(err, -EINVAL,
				  "no erase-block size gives a positive write transfer rate");
	eb_fill(m, &best, read_bps);
	m->rms_rel_residual = eb_rms(m, writes, n);
	/* a sweep the first-order model cannot fit at all leaves it INFINITY */
	m->first_order_rms = first_order_fit(writes, n, &fo, NULL, NULL) ? INFINITY :
			     fo.rms_rel_residual;
	m->detected = m->rms_rel_residual < 0.5 * m->first_order_rms &&
		      m->rms_rel_residual < 0.25 && m->write_bps > 0 && m->penalty_s >= 0;
	return 0;
}
