/* params.c — applying and printing the parameter tables of params.h. */
#include "params.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"

const struct sim_param *sim_param_find(const struct sim_param *table, const char *key)
{
	for (const struct sim_param *p = table; p->key; p++)
		if (!strcmp(p->key, key))
			return p;
	return NULL;
}

/* A size bound as --help spells sizes ("1g"), or "888.18 PiB" where that is long. */
static void bound_text(char *buf, size_t len, double bytes)
{
	format_size_exact(buf, len, (uint64_t)bytes);
	if (strlen(buf) > 6)
		format_size(buf, len, (uint64_t)bytes);
}

static int out_of_range(const struct sim_param *p, const char *value, const char *what,
			struct errmsg *err)
{
	char lo[32], hi[32];

	if (p->type == PARAM_BYTES) {	/* "512 to 1g", as the value is spelt, not 1.07374e+09 */
		bound_text(lo, sizeof(lo), p->min);
		bound_text(hi, sizeof(hi), p->max);
		return errmsg_set(err, -EINVAL, "%s '%s': expected %s from %s to %s", p->key, value,
				  what, lo, hi);
	}
	return errmsg_set(err, -EINVAL, "%s '%s': expected %s from %g to %g%s%s", p->key,
			  value, what, p->min, p->max, *p->unit ? " " : "", p->unit);
}

static int set_number(const struct sim_param *p, void *field, const char *value,
		      struct errmsg *err)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (end == value || *end || errno || !isfinite(v))
		return errmsg_set(err, -EINVAL, "%s '%s': not a number (in %s)", p->key, value,
				  *p->unit ? p->unit : "plain units");
	if (v < p->min || v > p->max)
		return out_of_range(p, value, "a number", err);
	*(double *)field = v;
	return 0;
}

static int set_whole(const struct sim_param *p, void *field, const char *value,
		     struct errmsg *err)
{
	uint64_t v;
	int ret = p->type == PARAM_BYTES ? parse_size(value, &v)
					 : parse_count(value, 0, UINT64_MAX, &v);

	if (ret == -ERANGE)	/* a whole number, only too large for 64 bits */
		return out_of_range(p, value, p->type == PARAM_BYTES ? "a size" : "a whole number",
				    err);
	if (ret)
		return errmsg_set(err, -EINVAL, "%s '%s': %s", p->key, value,
				  p->type == PARAM_BYTES ? "not a size (examples: 4k, 8m, 640g)"
							 : "not a whole number");
	if ((double)v < p->min || (double)v > p->max)
		return out_of_range(p, value, p->type == PARAM_BYTES ? "a size" : "a whole number",
				    err);
	*(uint64_t *)field = v;
	return 0;
}

static int set_choice(const struct sim_param *p, void *field, const char *value,
		      struct errmsg *err)
{
	char list[256] = "";

	for (unsigned i = 0; p->choices[i]; i++) {
		if (!strcmp(p->choices[i], value)) {
			*(unsigned *)field = i;
			return 0;
		}
		if (i)
			strncat(list, " or ", sizeof(list) - strlen(list) - 1);
		strncat(list, p->choices[i], sizeof(list) - strlen(list) - 1);
	}
	return errmsg_set(err, -EINVAL, "%s '%s': expected %s", p->key, value, list);
}

/* PARAM_LIST: numbers separated by ':' or blanks, each within the entry's range. */
static int set_list(const struct sim_param *p, void *field, const char *value,
		    struct errmsg *err)
{
	struct sim_list list = { 0 };
	const char *s = strcmp(value, "-") ? value : "";	/* "-": none, as shown */

	for (;;) {
		char *end;
		double v;

		while (*s == ':' || *s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		errno = 0;
		v = strtod(s, &end);
		if (end == s || errno || !isfinite(v) || (*end && !strchr(": \t", *end)))
			return errmsg_set(err, -EINVAL, "%s '%s': not a list of numbers separated "
					  "by ':'", p->key, value);
		if (v < p->min || v > p->max)
			return out_of_range(p, value, "numbers", err);
		if (list.n == SIM_LIST_MAX)
			return errmsg_set(err, -EINVAL, "%s '%s': more than %d numbers", p->key,
					  value, SIM_LIST_MAX);
		list.v[list.n++] = v;
		s = end;
	}
	*(struct sim_list *)field = list;
	return 0;
}

int sim_param_set(const struct sim_param *table, void *config, const char *key,
		  const char *value, struct errmsg *err)
{
	const struct sim_param *p = sim_param_find(table, key);
	void *field;

	if (!p)
		return errmsg_set(err, -EINVAL, "unknown parameter '%s'", key);
	field = (char *)config + p->offset;
	switch (p->type) {
	case PARAM_BYTES:
	case PARAM_COUNT:
		return set_whole(p, field, value, err);
	case PARAM_NUMBER:
		return set_number(p, field, value, err);
	case PARAM_SWITCH:
		if (strcmp(value, "on") && strcmp(value, "off"))
			return errmsg_set(err, -EINVAL, "%s '%s': expected on or off", key, value);
		*(bool *)field = !strcmp(value, "on");
		return 0;
	case PARAM_CHOICE:
		return set_choice(p, field, value, err);
	case PARAM_LIST:
		return set_list(p, field, value, err);
	}
	return -EINVAL;
}

/* The shortest %g spelling that reads back as the same double. */
static void format_number_exact(char *buf, size_t len, double v)
{
	for (int precision = 6; precision <= 17; precision++) {
		snprintf(buf, len, "%.*g", precision, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

static void format_value(char *buf, size_t len, const struct sim_param *p, const void *field)
{
	switch (p->type) {
	case PARAM_BYTES:
		format_size_exact(buf, len, *(const uint64_t *)field);
		break;
	case PARAM_COUNT:
		snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)field);
		break;
	case PARAM_NUMBER:
		format_number_exact(buf, len, *(const double *)field);
		break;
	case PARAM_SWITCH:
		snprintf(buf, len, "%s", *(const bool *)field ? "on" : "off");
		break;
	case PARAM_CHOICE:
		snprintf(buf, len, "%s", p->choices[*(const unsigned *)field]);
		break;
	case PARAM_LIST: {
		const struct sim_list *l = field;

		buf[0] = 0;
		for (unsigned i = 0; i < l->n && strlen(buf) + 32 < len; i++)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%g", i ? ":" : "", l->v[i]);
		if (!l->n)
			snprintf(buf, len, "-");
		break;
	}
	}
}

void sim_param_show(FILE *f, const struct sim_param *table, const void *config)
{
	int width = 22;		/* the names' column: the longest name's, at least 22 */

	for (const struct sim_param *p = table; p->key; p++)
		width = (int)strlen(p->key) > width ? (int)strlen(p->key) : width;
	for (const struct sim_param *p = table; p->key; p++) {
		char value[SIM_LIST_MAX * 12];

		format_value(value, sizeof(value), p, (const char *)config + p->offset);
		fprintf(f, "  %-*s %-12s %-8s %s\n", width, p->key, value, p->unit, p->meaning);
	}
}
