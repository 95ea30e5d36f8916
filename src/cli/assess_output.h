/*
 * assess_output.h — what `iomodel assess` prints: the figures of every
 * target side by side, one column each, under WinSAT's names, or the JSON
 * document iomodel.assess/1 (docs/json-schema.md) with one entry per target
 * in assess.targets[].
 */
#ifndef IOMODEL_ASSESS_OUTPUT_H
#define IOMODEL_ASSESS_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "suite/assess.h"
#include "suite/measure.h"

/* Most --target options of one assessment. */
#define ASSESS_MAX_TARGETS 16

/* One target's assessment, as far as it went. */
struct assess_target {
	struct measure_target m;
	bool opened;
	struct assess_plan plan;	/* its phases' bounds, seed and writer depth */
	struct assess a;
	json_t *phases;			/* array: what each phase's jobs measured */
};

/*
 * The JSON of one phase's jobs (`specs`, results `r`, `n` of them, reader
 * first) and its elapsed time; NULL when out of memory.
 */
json_t *assess_phase_json(enum assess_phase p, const struct job_spec *specs,
			  const struct run_result *r, unsigned n);

/* The table (targets side by side) or the JSON document on `f`. 0 or -errno. */
int assess_print(FILE *f, const struct assess_target *t, unsigned n, bool json);

#endif
