/* profile.c — the plan and the verdict of a transfer-rate profile (profile.h). */
#include "suite/profile.h"

void profile_point_region(uint64_t size, uint64_t bs, unsigned n, unsigned i,
			  uint64_t *offset, uint64_t *length)
{
	uint64_t step = size / n / bs * bs;

	if (step < bs)
		step = bs;
	*offset = (uint64_t)i * step;
	if (*offset + step > size)
		*offset = size >= step ? (size - step) / bs * bs : 0;
	*length = step <= size ? step : size / bs * bs;
}

static double mean_of(const double *x, size_t from, size_t to)
{
	double sum = 0;

	for (size_t i = from; i < to; i++)
		sum += x[i];
	return to > from ? sum / (double)(to - from) : 0;
}

void profile_judge(const double *rate, size_t n, struct profile_verdict *v)
{
	size_t tenth = n / 10 ? n / 10 : 1, mid = n / 2;
	double line, xm = (double)(n - 1) / 2, sxy = 0, sxx = 0;

	*v = (struct profile_verdict){ .min = rate[0], .max = rate[0] };
	for (size_t i = 0; i < n; i++) {
		v->min = rate[i] < v->min ? rate[i] : v->min;
		v->max = rate[i] > v->max ? rate[i] : v->max;
	}
	v->mean = mean_of(rate, 0, n);
	v->outer = mean_of(rate, 0, tenth);
	v->inner = mean_of(rate, n - tenth, n);
	v->outer_inner_ratio = v->inner > 0 ? v->outer / v->inner : 0;
	for (size_t i = 0; i < n; i++) {
		sxy += ((double)i - xm) * (rate[i] - v->mean);
		sxx += ((double)i - xm) * ((double)i - xm);
	}
	/* the middle tenth against the line through the outer and inner tenths, at its centre */
	{
		double c_out = (double)(tenth - 1) / 2, c_in = (double)(n - 1) - c_out;
		size_t first = mid - tenth / 2;
		double c_mid = (double)first + c_out;

		line = v->outer + (v->inner - v->outer) * (c_mid - c_out) / (c_in - c_out);
		v->mid_excess = line > 0 ? mean_of(rate, first, first + tenth) / line - 1 : 0;
	}
	v->spread = v->mean > 0 ? (v->max - v->min) / v->mean : 0;
	if (v->inner > 0 && v->outer >= 1.15 * v->inner && sxx > 0 && sxy < 0)
		v->shape = PROFILE_FALLING;
	else if (v->outer > 0 && v->inner >= 1.15 * v->outer && sxx > 0 && sxy > 0)
		v->shape = PROFILE_RISING;
	else if (v->spread >= 0.3)
		v->shape = PROFILE_UNEVEN;
	else
		v->shape = PROFILE_FLAT;
}

const char *profile_shape_name(enum profile_shape shape)
{
	switch (shape) {
	case PROFILE_FALLING:
		return "falling";
	case PROFILE_RISING:
		return "rising";
	case PROFILE_UNEVEN:
		return "uneven";
	case PROFILE_FLAT:
		break;
	}
	return "flat";
}
