/*
 * test_json_number.c — io/json_number.h: numbers from parsed JSON stored only
 * when they are what was asked for (range, whole numbers, finiteness).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "check.h"
#include "io/json_number.h"

/* json_number_u64 of the JSON text `text` (a number or null) in [min, max]. */
static int u64_of(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
	int ret = json_number_u64(v, min, max, out);

	json_decref(v);
	return ret;
}

static int double_of(const char *text, double min, double max, double *out)
{
	json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
	int ret = json_number_double(v, min, max, out);

	json_decref(v);
	return ret;
}

static void whole_numbers(struct check_state *st)
{
	static const struct { const char *text; int ret; uint64_t value; } cases[] = {
		{ "4096", 0, 4096 }, { "4096.0", 0, 4096 }, { "0", 0, 0 },
		{ "9007199254740992", 0, 1ULL << 53 }, { "9007199254740993", -ERANGE, 0 },
		{ "-4096", -ERANGE, 0 }, { "-0.5", -EDOM, 0 }, { "4096.5", -EDOM, 0 },
		{ "1e300", -ERANGE, 0 }, { "1.8446744073709552e19", -ERANGE, 0 },
		{ "9223372036854775807", -ERANGE, 0 }, { "null", -ENOENT, 0 },
		{ "\"4096\"", -EINVAL, 0 }, { "true", -EINVAL, 0 }, { "[1]", -EINVAL, 0 },
	};
	uint64_t v;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int ret;

		v = 7;
		ret = u64_of(cases[i].text, 0, 1ULL << 53, &v);
		CHECK(st, ret == cases[i].ret && v == (ret ? 7 : cases[i].value),
		      "'%s': %d %llu", cases[i].text, ret, (unsigned long long)v);
	}
	CHECK(st, json_number_u64(NULL, 0, 1, &v) == -ENOENT, "absent key");
	CHECK(st, u64_of("0", 1, 10, &v) == -ERANGE, "below min");
	CHECK(st, u64_of("1e19", 0, UINT64_MAX, &v) == 0 && v == 10000000000000000000ULL,
	      "a real above INT64_MAX that fits: %llu", (unsigned long long)v);
	CHECK(st, u64_of("18446744073709551616.0", 0, UINT64_MAX, &v) == -ERANGE, "2^64");
}

static void reals(struct check_state *st)
{
	double d = 7;

	CHECK(st, double_of("2.5", 0, 10, &d) == 0 && d == 2.5, "2.5: %g", d);
	CHECK(st, double_of("3", 0, 10, &d) == 0 && d == 3, "an integer as a double: %g", d);
	d = 7;
	CHECK(st, double_of("-1", 0, 10, &d) == -ERANGE && d == 7, "below min untouched");
	CHECK(st, double_of("1e308", 0, 1e15, &d) == -ERANGE, "above max");
	CHECK(st, double_of("null", 0, 1, &d) == -ENOENT, "null");
	CHECK(st, double_of("\"1\"", 0, 1, &d) == -EINVAL, "a string");
	CHECK(st, json_number_double(NULL, 0, 1, &d) == -ENOENT, "absent");
	CHECK(st, !strcmp(json_number_strerror(-EDOM), "not a whole number") &&
	      !strcmp(json_number_strerror(-ERANGE), "out of range") &&
	      !strcmp(json_number_strerror(-ENOENT), "missing") &&
	      !strcmp(json_number_strerror(-EINVAL), "not a number"), "messages");
}

int main(void)
{
	struct check_state st = { 0 };

	whole_numbers(&st);
	reals(&st);
	return check_exit(&st, "json_number");
}
