/*
 * model_output.h — a fitted drive model as people and scripts read it: the
 * spec sheet (the seeds' table: average STR and typical access penalty per
 * direction, erase block, queue-depth gain, fit quality per size) and the
 * model JSON (schema "iomodel.model/2", documented in docs/json-schema.md),
 * which `iomodel predict` reads back (and files of "iomodel.model/1").
 */
#ifndef IOMODEL_MODEL_OUTPUT_H
#define IOMODEL_MODEL_OUTPUT_H

#include <stdio.h>

#include <jansson.h>

#include "model/drive_model.h"
#include "util/errmsg.h"

#define MODEL_SCHEMA "iomodel.model/2"
#define MODEL_SCHEMA_V1 "iomodel.model/1"

/* What the spec sheet and the report advise when a cache absorbs the writes. */
#define WRITE_CACHE_ADVICE \
	"To measure the medium, write past the cache: a scratch region (--size) several " \
	"times the cache (for a virtual disk, several times the host's memory), and each " \
	"write job long enough to fill it first (run --ramp, sweep --point-time)."

/* `source`: what was measured or read ("sim:ocz-core", "w.json r.json"). */
int model_output_sheet(FILE *f, const char *source, const struct drive_model *m);

/* The model as a JSON object (new reference), or NULL when out of memory. */
json_t *model_to_json(const char *source, const struct drive_model *m);

/*
 * Read a model JSON file back, enough to predict with: per op the depth
 * fits (with their caps), the erase block, the queue-depth curve. -EINVAL
 * with a message naming the file and the key at fault, -ENOENT when it is
 * missing, -ENOMEM. Release `m` with drive_model_release() on success.
 * The values are read as they are: drive_model_check() says whether they
 * are physical.
 */
int model_load_file(const char *path, struct drive_model *m, struct errmsg *err);

/*
 * The fields of one model.OP.points[] element `o` beyond what the models
 * need, into `pt` (its qd already set): iodepth, numjobs, latency_kind,
 * lat_pct_ms and lat_cdf (docs/json-schema.md). Absent or null fields are
 * unknown (0). -EINVAL with a message naming `path` and `where`.key when one
 * is malformed: a count not from 1 to 65536, iodepth x numjobs other than
 * qd, falling percentiles, a CDF that breaks struct lat_cdf's invariants.
 */
int model_point_extras_load(const json_t *o, const char *where, struct perf_point *pt,
			    const char *path, struct errmsg *err);

#endif
