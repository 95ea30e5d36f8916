/*
 * demerit.h — how far apart two distributions of times are, as DiskSim's
 * validation measures a disk model against a measured drive: the root mean
 * square of the horizontal distance between the two cumulative distribution
 * functions, i.e. between their quantiles, taken at the levels
 * 1/DEMERIT_LEVELS, 2/DEMERIT_LEVELS, … 1. A sample's quantile at level p is
 * its ceil(p·n)-th smallest value (the empirical CDF's inverse). The result
 * is in the unit of the values; identical samples give 0, and shifting one
 * sample by d gives |d|.
 */
#ifndef IOMODEL_DEMERIT_H
#define IOMODEL_DEMERIT_H

#include <stddef.h>

#define DEMERIT_LEVELS 10000

/*
 * The demerit of samples `a` (na values) and `b` (nb values), which are
 * sorted in place (nothing is allocated). -1 when either sample is empty.
 */
double demerit(double *a, size_t na, double *b, size_t nb);

#endif
