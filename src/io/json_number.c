/* json_number.c — range-checked numbers from parsed JSON (json_number.h). */
#include "json_number.h"

#include <errno.h>
#include <math.h>

/* 2^64 as a double: the first value a uint64_t cannot hold. */
#define TWO_POW_64 18446744073709551616.0

int json_number_u64(const json_t *v, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t u;

	if (!v || json_is_null(v))
		return -ENOENT;
	if (json_is_integer(v)) {
		json_int_t i = json_integer_value(v);

		if (i < 0)
			return -ERANGE;
		u = (uint64_t)i;
	} else if (json_is_real(v)) {
		double d = json_real_value(v);

		if (!isfinite(d))
			return -EINVAL;
		if (d != floor(d))
			return -EDOM;
		if (d < 0 || d >= TWO_POW_64)
			return -ERANGE;
		u = (uint64_t)d;
	} else {
		return -EINVAL;
	}
	if (u < min || u > max)
		return -ERANGE;
	*out = u;
	return 0;
}

int json_number_double(const json_t *v, double min, double max, double *out)
{
	double d;

	if (!v || json_is_null(v))
		return -ENOENT;
	if (!json_is_number(v))
		return -EINVAL;
	d = json_number_value(v);
	if (!isfinite(d))
		return -EINVAL;
	if (!(d >= min && d <= max))
		return -ERANGE;
	*out = d;
	return 0;
}

const char *json_number_strerror(int ret)
{
	switch (ret) {
	case 0: return "ok";
	case -ENOENT: return "missing";
	case -ERANGE: return "out of range";
	case -EDOM: return "not a whole number";
	default: return "not a number";
	}
}
