/*
 * spec.h — what follows "sim:" in a target: which simulated drive, with which
 * settings. Three spellings, each optionally followed by ",key=value" pairs
 * that override any parameter (the model's or the fault keys of fault.h):
 *
 *   sim:wd6400aaks,write_cache=off     a preset (see `iomodel sim list`)
 *   sim:ssd,ftl=page,capacity=64g      a model with its defaults
 *   sim:my-drive.ini,rpm=5400          an INI file (any path containing '/'
 *                                      or ending in .ini)
 *
 * An INI file holds "key = value" lines ('#' or ';' comments), optionally
 * under a [device] section; its first setting must be "preset = NAME" or
 * "model = hdd|ssd". Errors name the file and line.
 */
#ifndef IOMODEL_SIM_SPEC_H
#define IOMODEL_SIM_SPEC_H

#include <stdint.h>
#include <stdio.h>

#include "sim/device.h"
#include "sim/fault.h"
#include "util/errmsg.h"

struct sim_spec {
	const struct sim_model *model;
	const struct sim_preset *preset;	/* NULL when none was named */
	void *config;				/* the model's config, owned */
	struct sim_fault_config faults;
};

/* Parse `text` (without "sim:"). Returns 0 or -EINVAL/-ENOENT with `err` set. */
int sim_spec_parse(struct sim_spec *spec, const char *text, struct errmsg *err);
void sim_spec_release(struct sim_spec *spec);

/* Set one parameter (of the model or a fault key), as an override would. 0 or -EINVAL. */
int sim_spec_set(struct sim_spec *spec, const char *key, const char *value,
		 struct errmsg *err);

/* Build the device the spec describes. */
int sim_spec_create(const struct sim_spec *spec, uint64_t seed, struct sim_device **out,
		    struct errmsg *err);

/* Print the spec: model, preset, every parameter, derived figures, faults. */
void sim_spec_show(FILE *f, const struct sim_spec *spec);

/* The presets of all models, for `sim list`: index 0, 1, … until NULL. */
const struct sim_preset *sim_preset_at(unsigned index);
const struct sim_preset *sim_preset_find(const char *name);

#endif
