/*
 * params.h — parameters of simulated devices, described once in a table per
 * model and used three ways: to apply "key=value" settings (presets, INI
 * files, overrides on the command line), to check their units and ranges,
 * and to print every parameter with its unit and meaning (`sim show`).
 *
 * Each entry points (by offset) into the model's configuration struct:
 *   PARAM_BYTES   uint64_t, a size with binary suffixes: "640g", "8m", "4096"
 *   PARAM_COUNT   uint64_t, a whole number: "7200"
 *   PARAM_NUMBER  double, a decimal number in the entry's unit: "13.6"
 *   PARAM_SWITCH  bool, "on" or "off"
 *   PARAM_CHOICE  unsigned, the index of one of `choices`: "page"
 *   PARAM_LIST    struct sim_list, up to SIM_LIST_MAX numbers, each in the range,
 *                 separated by ':' or blanks: "559:202:141" (empty: none)
 */
#ifndef IOMODEL_SIM_PARAMS_H
#define IOMODEL_SIM_PARAMS_H

#include <stddef.h>
#include <stdio.h>

#include "util/errmsg.h"

enum sim_param_type {
	PARAM_BYTES,
	PARAM_COUNT,
	PARAM_NUMBER,
	PARAM_SWITCH,
	PARAM_CHOICE,
	PARAM_LIST,
};

#define SIM_LIST_MAX 64

/* The value of a PARAM_LIST entry: n numbers. */
struct sim_list {
	unsigned n;
	double v[SIM_LIST_MAX];
};

struct sim_param {
	const char *key;
	enum sim_param_type type;
	size_t offset;			/* offsetof() the field in the config struct */
	const char *unit;		/* "bytes", "MiB/s", "ms", "us", "", … */
	const char *meaning;		/* one short line */
	double min;			/* accepted range for BYTES, COUNT, NUMBER */
	double max;
	const char *const *choices;	/* CHOICE: names, NULL-terminated */
};

/*
 * Set `key` to `value` in `config`. Unknown key, malformed value or value out
 * of range: -EINVAL with a message naming the key, the value and what was
 * expected ("rpm 'fast': expected a whole number from 3600 to 15000").
 */
int sim_param_set(const struct sim_param *table, void *config, const char *key,
		  const char *value, struct errmsg *err);

/* Print every parameter: key, value, unit, meaning; one line each. */
void sim_param_show(FILE *f, const struct sim_param *table, const void *config);

/* The entry for `key`, or NULL. */
const struct sim_param *sim_param_find(const struct sim_param *table, const char *key);

#endif
