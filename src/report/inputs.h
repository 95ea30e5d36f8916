/*
 * inputs.h — what a report shows of one drive, whatever it came from: a
 * model file (iomodel.model/1), measurements (iomodel run or sweep JSON,
 * fio JSON, CSV) with the model fitted to them where they allow, or a model
 * and points handed over in memory (characterize). For report/ only.
 *
 * A drive is one entry of the legends and of the spec sheet: its points
 * (at every size and queue depth measured), its model, and for iomodel run
 * results their latency distributions and timelines.
 */
#ifndef IOMODEL_REPORT_INPUTS_H
#define IOMODEL_REPORT_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/drive_model.h"
#include "model/points.h"
#include "util/errmsg.h"
#include "util/lat_keys.h"

/* One element of results[] of an iomodel run: one operation type. */
struct run_record {
	enum io_op op;
	bool random;
	uint64_t bs;
	unsigned qd;
	uint64_t ios;
	double iops, mib_s;
	double lat_us[LAT_KEYS];	/* in the order of util/lat_keys.h */
	double *cdf_us, *cdf_pct;	/* bucket upper edge (µs), % of IOs at or below */
	size_t n_cdf;
	double *tl_t_s, *tl_iops, *tl_mib_s, *tl_max_lat_us;	/* timeline, by second */
	size_t n_tl;
};

/* iomodel profile (iomodel.profile/1): the transfer rate across the device. */
struct profile_record {
	double *position_pct, *mib_s;	/* owned, n each */
	size_t n;
	double access_ms, burst_mib_s;
	bool write;
};

/* iomodel state (iomodel.state/1): fresh, used, trimmed, each with its rounds. */
#define STATE_KINDS 3
struct state_record {
	bool set;
	double mib_s[STATE_KINDS];		/* the rate of each state */
	double *round_mib_s[STATE_KINDS];	/* owned: every round */
	size_t n_rounds[STATE_KINDS];
	size_t steady_round[STATE_KINDS];	/* 1-based round steady state was reached in, 0: not */
};

/* iomodel assess (iomodel.assess/1): WinSAT's figures of each target of the file. */
enum report_assess_figure {
	REPORT_ASSESS_SEQ_READ,		/* MB/s (10^6 bytes/s) */
	REPORT_ASSESS_RANDOM_READ,
	REPORT_ASSESS_SEQ_WRITE,
	REPORT_ASSESS_READ_MS,		/* ms: the reader alone */
	REPORT_ASSESS_READ_MS_SEQ_WRITES,
	REPORT_ASSESS_READ_MS_RANDOM_WRITES,
	REPORT_ASSESS_P95_MS,
	REPORT_ASSESS_MAX_MS,
	REPORT_ASSESS_FIGURES,
};
#define REPORT_ASSESS_MAX_TARGETS 64
struct assess_target_record {
	char target[96];			/* printable ASCII, no HTML specials */
	double figure[REPORT_ASSESS_FIGURES];
};
struct assess_record {
	struct assess_target_record *targets;	/* owned, n of them */
	size_t n;
};

struct json_t;

struct report_drive {
	char label[128];		/* legend and table: the model's source or file stem */
	char key[512];			/* files with the same non-empty key are one drive */
	size_t n_files;			/* files merged into it */
	bool model_file;		/* read from a model file: never merged */
	bool named;			/* its name was given (report --drive NAME=...) */
	char origin[320];		/* "ocz.json (iomodel model)", "a.json (fio) and 3 more files" */
	char first_origin[320];		/* the first file's origin, once files are merged */
	bool has_model;
	struct drive_model model;	/* owned; valid when has_model */
	char model_note[512];		/* why there is no model, or "" */
	struct point_set points;	/* owned: every measured point */
	struct run_record *runs;	/* owned */
	size_t n_runs;
	struct profile_record profile;	/* n == 0 unless from iomodel profile */
	struct state_record state;	/* set only from iomodel state */
	struct assess_record assess;	/* n == 0 unless from iomodel assess */
	bool skipped;			/* every job of a fio file skipped: nothing to show */
};

/*
 * The results of iomodel profile or state (`schema` names which) into `d`:
 * 0, 1 when `schema` is neither, or -errno with `err`. inputs_suites.c.
 */
int report_suite_load(struct report_drive *d, const char *path, const struct json_t *root,
		      const char *schema, struct errmsg *err);
void report_suite_release(struct report_drive *d);
/* iomodel assess results (inputs_assess.c): as report_suite_load, for iomodel.assess/1 only. */
int report_assess_load(struct report_drive *d, const char *path, const struct json_t *root,
		       struct errmsg *err);
void report_assess_release(struct report_drive *d);

/*
 * Read the file at `path` into `d` (zeroed here). Returns 0, or -errno with
 * one line in `err` that starts with the path. Jobs of a fio file that
 * cannot be told are skipped with a line in `warn` (may be NULL); when all
 * are, `d` is left with no point and no model and `skipped` set.
 */
struct import_warnings;
int report_drive_load(struct report_drive *d, const char *path, struct import_warnings *warn,
		      struct errmsg *err);

/* Copy a model and/or points (either may be NULL, not both) into `d`. */
int report_drive_copy(struct report_drive *d, const char *label, const struct drive_model *m,
		      const struct point_set *ps, struct errmsg *err);

void report_drive_release(struct report_drive *d);

/*
 * Whether `a` and `b` can be one drive: neither is a model file or an
 * assessment, and they do not both hold a profile, nor both a state (two
 * profiles of one target, a read and a write one, stay two drives).
 */
bool report_drives_can_merge(const struct report_drive *a, const struct report_drive *b);

/*
 * Move the points, runs, profile and state of `src` into `dst` (src is
 * released; report_drives_can_merge must hold) and fit the model again to
 * all of dst's points. A drive read from a model file cannot be merged
 * (-EINVAL). 0, -ENOMEM.
 */
int report_drive_merge(struct report_drive *dst, struct report_drive *src, struct errmsg *err);

/*
 * The drive a results file is about, from `root` (its JSON, may be NULL):
 * `key` ("" when the file is a drive of its own: CSV, model files) and, for
 * fio, `label` ("host:/dev/sdb stem"). drive_key.c.
 */
struct json_t;
void report_drive_key(const struct json_t *root, const char *path, char *key, size_t klen,
		      char *label, size_t llen);

/*
 * Fill the rest of a model read from a model file (`root`, its JSON object
 * model.read or model.write) that model_load_file() leaves out: confidence
 * intervals, two-point figures, fit quality, erase block, queue depth and
 * the points fitted (appended to `ps` too). report_model.c. 0, -ENOMEM, or
 * -EINVAL for a malformed size (a negative, fractional or huge size_bytes),
 * with `err` naming `path` and the key.
 */
int report_model_complete(struct op_model *om, enum io_op op, const struct json_t *o,
			  struct point_set *ps, const char *path, struct errmsg *err);

/* The write-cache verdict of a model file (its top-level "write_cache"). report_model.c. */
void report_model_cache(struct drive_model *m, const struct json_t *root);

/* Deep copy of a drive model. 0 or -ENOMEM. report_model.c. */
int report_model_copy(struct drive_model *dst, const struct drive_model *src);

#endif
