/* demerit.c — RMS horizontal distance between two empirical CDFs (demerit.h). */
#include "demerit.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The ceil(p·n)-th smallest value of sorted `v`. */
static double quantile(const double *v, size_t n, double p)
{
	double rank = ceil(p * (double)n - 1e-9);
	size_t k = rank < 1 ? 0 : (size_t)rank - 1;

	return v[k < n ? k : n - 1];
}

double demerit(double *a, size_t na, double *b, size_t nb)
{
	double sum = 0;

	if (!na || !nb)
		return -1;
	qsort(a, na, sizeof(*a), cmp_double);
	qsort(b, nb, sizeof(*b), cmp_double);
	for (unsigned i = 1; i <= DEMERIT_LEVELS; i++) {
		double p = (double)i / DEMERIT_LEVELS;
		double d = quantile(a, na, p) - quantile(b, nb, p);

		sum += d * d;
	}
	return sqrt(sum / DEMERIT_LEVELS);
}
