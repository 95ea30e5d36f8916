/* units.c — the size, duration and count parsers described in units.h. */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct unit {
	const char *suffix;
	long double factor;
};

static const struct unit size_units[] = {
	{ "", 1 }, { "b", 1 },
	{ "k", 0x1p10L }, { "kb", 0x1p10L }, { "ki", 0x1p10L }, { "kib", 0x1p10L },
	{ "m", 0x1p20L }, { "mb", 0x1p20L }, { "mi", 0x1p20L }, { "mib", 0x1p20L },
	{ "g", 0x1p30L }, { "gb", 0x1p30L }, { "gi", 0x1p30L }, { "gib", 0x1p30L },
	{ "t", 0x1p40L }, { "tb", 0x1p40L }, { "ti", 0x1p40L }, { "tib", 0x1p40L },
	{ "p", 0x1p50L }, { "pb", 0x1p50L }, { "pi", 0x1p50L }, { "pib", 0x1p50L },
};

static const struct unit time_units[] = {
	{ "", 1e9L }, { "s", 1e9L }, { "sec", 1e9L },
	{ "ns", 1L }, { "us", 1e3L }, { "ms", 1e6L },
	{ "m", 60e9L }, { "min", 60e9L }, { "h", 3600e9L },
};

/*
 * Split "1.5GiB" into a non-negative number and a suffix found in `units`,
 * and return number * factor in *value.
 */
static int parse_scaled(const char *text, const struct unit *units, size_t n,
			long double *value)
{
	const char *end = text;
	long double number;

	/* decimal digits, optionally one '.' followed by more digits: no sign,
	 * no space, no hex, no exponent */
	if (!text || !isdigit((unsigned char)*end))
		return -EINVAL;
	while (isdigit((unsigned char)*end))
		end++;
	if (*end == '.') {
		if (!isdigit((unsigned char)end[1]))
			return -EINVAL;
		end++;
		while (isdigit((unsigned char)*end))
			end++;
	}
	number = strtold(text, NULL);
	if (!isfinite(number))
		return -ERANGE;
	for (size_t i = 0; i < n; i++) {
		if (strcasecmp(end, units[i].suffix) == 0) {
			*value = number * units[i].factor;
			return 0;
		}
	}
	return -EINVAL;
}

static int to_u64(long double value, uint64_t *out)
{
	if (value >= 0x1p64L)
		return -ERANGE;
	if (value != floorl(value))
		return -EINVAL;
	*out = (uint64_t)value;
	return 0;
}

int parse_size(const char *text, uint64_t *out)
{
	long double v;
	int ret = parse_scaled(text, size_units,
			       sizeof(size_units) / sizeof(size_units[0]), &v);

	return ret ? ret : to_u64(v, out);
}

int parse_duration_ns(const char *text, uint64_t *out)
{
	long double v;
	int ret = parse_scaled(text, time_units,
			       sizeof(time_units) / sizeof(time_units[0]), &v);

	if (ret)
		return ret;
	return to_u64(roundl(v), out);
}

int parse_count(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!text || !isdigit((unsigned char)*text))
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* The power of the prefix letter of a size suffix ("k" 1 … "p" 5), 0 if none. */
static unsigned prefix_power(char c)
{
	static const char prefixes[] = "kmgtp";
	const char *at = c ? strchr(prefixes, tolower((unsigned char)c)) : NULL;

	return at ? (unsigned)(at - prefixes) + 1 : 0;
}

/* fio's multiplier for a suffix (without the number) under kb_base. */
static int fio_multiplier(const char *suffix, size_t len, unsigned kb_base,
			  unsigned long long *mult)
{
	unsigned power = len ? prefix_power(suffix[0]) : 0;
	unsigned long long base = kb_base;

	if (len == 0 || (len == 1 && tolower((unsigned char)suffix[0]) == 'b')) {
		*mult = 1;
		return 0;
	}
	if (!power)
		return -EINVAL;
	if (len == 3 && !strncasecmp(suffix + 1, "ib", 2))
		base = kb_base == 1024 ? 1000 : 1024;	/* "KiB": the other unit */
	else if (!(len == 1 || (len == 2 && strchr("bBiI", suffix[1]))))
		return -EINVAL;
	*mult = 1;
	while (power--)
		*mult *= base;
	return 0;
}

int parse_fio_size(const char *text, size_t len, unsigned kb_base, uint64_t *out)
{
	size_t i = 0, start;
	unsigned long long v = 0, mult;
	int hex = len > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');

	if (kb_base != 1000 && kb_base != 1024)
		return -EINVAL;
	if (hex)
		i = 2;
	start = i;
	for (; i < len && (hex ? isxdigit((unsigned char)text[i]) : isdigit((unsigned char)text[i]));
	     i++) {
		unsigned d = isdigit((unsigned char)text[i]) ? (unsigned)(text[i] - '0')
			     : (unsigned)(tolower((unsigned char)text[i]) - 'a' + 10);

		if (v > (UINT64_MAX - d) / (hex ? 16 : 10))
			return -ERANGE;
		v = v * (hex ? 16 : 10) + d;
	}
	if (i == start || (hex && i < len) || fio_multiplier(text + i, len - i, kb_base, &mult))
		return -EINVAL;
	if (v && mult > UINT64_MAX / v)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

void format_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned i = 0;
	uint64_t unit = 1;

	while (i + 1 < sizeof(names) / sizeof(names[0]) && bytes >= unit * 1024) {
		unit *= 1024;
		i++;
	}
	if (bytes % unit == 0)
		snprintf(buf, len, "%llu %s", (unsigned long long)(bytes / unit), names[i]);
	else
		snprintf(buf, len, "%.2f %s", (double)bytes / (double)unit, names[i]);
}

void format_size_exact(char *buf, size_t len, uint64_t bytes)
{
	static const char suffixes[] = "kmgtp";
	int i = -1;

	while (bytes && i < 4 && bytes % 1024 == 0) {
		bytes /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)bytes, suffixes[i]);
}
