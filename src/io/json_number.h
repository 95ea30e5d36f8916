/*
 * json_number.h — numbers read from parsed JSON (jansson), checked before use.
 *
 * jansson hands out a json_int_t or a double, and a file may hold any: -4096,
 * 1e300, 4096.5. Casting such a value to an unsigned or narrower type is
 * undefined behaviour (and -4096 becomes 2^64 - 4096), so every number read
 * from an input file goes through one of these, which store it only when it
 * is what the caller asked for.
 *
 * Each returns 0 and sets *out, or leaves *out alone and returns:
 *   -ENOENT  `v` is NULL (the key is absent) or JSON null
 *   -EINVAL  `v` is not a number
 *   -EDOM    (json_number_u64) `v` has a fraction
 *   -ERANGE  `v` is a number outside [min, max]
 * A real with a whole value (4096.0) is a whole number. jansson itself
 * refuses infinities, NaN and integers beyond json_int_t at parse time, so
 * every number seen here is finite.
 */
#ifndef IOMODEL_JSON_NUMBER_H
#define IOMODEL_JSON_NUMBER_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* A whole number in [min, max]. */
int json_number_u64(const json_t *v, uint64_t min, uint64_t max, uint64_t *out);

/* A number in [min, max] (finite by construction). */
int json_number_double(const json_t *v, double min, double max, double *out);

/*
 * What went wrong, for a message: "missing", "not a number", "not a whole
 * number", "out of range". `ret` is what one of the above returned.
 */
const char *json_number_strerror(int ret);

#endif
