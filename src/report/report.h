/*
 * report.h — one self-contained HTML file about one or more drives: the
 * spec sheet of each (STR and access penalty per direction with their
 * confidence intervals, erase block, queue-depth gain, fit quality), and
 * charts with every drive overlaid and named in the legends: throughput and
 * time per IO against request size with the model's curves, IOPS and
 * latency against IOs outstanding, and for run results the latency
 * distribution and the per-second timeline. Charts are drawn by PLplot
 * (plot.h) and inlined as SVG; the file loads nothing from elsewhere and
 * opens offline. Optionally each chart is also written as a PNG file.
 *
 * A drive comes from a file (report_add_file: an iomodel model, the JSON
 * of iomodel run or sweep, fio JSON output, a CSV table — the model is
 * fitted on the fly to measurements) or from memory (report_add_drive:
 * what characterize has just measured and fitted).
 *
 *	struct report *r;
 *	if (!report_new(&r) && !report_add_file(r, "ocz.json", &err) && ...)
 *		ret = report_write_html(r, "report.html", NULL, &err);
 *	report_free(r);
 *
 * Errors: 0 or -errno, with one line in `err` (may be NULL) that names the
 * file at fault first ("w.json:3: invalid JSON: ..."). Not thread-safe
 * (PLplot is not).
 */
#ifndef IOMODEL_REPORT_H
#define IOMODEL_REPORT_H

#include <stddef.h>

#include "model/drive_model.h"
#include "model/points.h"
#include "util/errmsg.h"

struct report;

/* A new, empty report in *out. 0 or -ENOMEM. Free it with report_free(). */
int report_new(struct report **out);

/*
 * Add one file. Files about the same drive, by what their tool recorded
 * (fio: hostname, filename or device, the job name without its workload
 * words; iomodel runs and sweeps: the target), become one drive whose model
 * is fitted to all their points: a fio grid written one file per size or
 * per depth is one drive. Models and CSV tables are each a drive of their
 * own. A drive's label is a model's "source", fio's "host:device stem", else
 * the first file's name without its extension. -ENOENT, -EIO, -EINVAL (not a
 * file iomodel can read, or no measurement in it), -ENOMEM; on failure the
 * file adds nothing.
 */
int report_add_file(struct report *r, const char *path, struct errmsg *err);

/*
 * Add one file to the drive called `name` (made on first use), whatever
 * the file says it measured: `report --drive NAME=FILE,...`. A model file
 * cannot share a drive with another file (-EINVAL).
 */
int report_add_file_as(struct report *r, const char *name, const char *path,
		       struct errmsg *err);

/*
 * report_add_file(), and the jobs of a fio file that cannot be told are skipped
 * with a line in `warn` (io/import.h; may be NULL); a file of which every job
 * was skipped adds no drive and returns 0.
 */
struct import_warnings;
int report_add_file_warn(struct report *r, const char *path, struct import_warnings *warn,
			 struct errmsg *err);

/*
 * Add a drive held in memory: its model `m` and/or its measured points
 * `ps` (either may be NULL; both are copied, the caller keeps its own).
 * Without `m` the model is fitted to `ps` where the points allow.
 */
int report_add_drive(struct report *r, const char *label, const struct drive_model *m,
		     const struct point_set *ps, struct errmsg *err);

/*
 * Write the HTML file at `path` (replaced as a whole, or left untouched on
 * failure) and, when `png_dir` is not NULL, each chart as NN-KIND.png in
 * that directory (created if missing). Charts are rendered through
 * temporary files under $TMPDIR (or /tmp), removed afterwards.
 * -EINVAL for an empty report, -ENOTSUP when PLplot lacks a driver, -EIO
 * and other -errno when a file cannot be written.
 */
int report_write_html(const struct report *r, const char *path, const char *png_dir,
		      struct errmsg *err);

void report_free(struct report *r);

/*
 * All of the above for one drive in memory, as characterize has it:
 * report_new + report_add_drive(label, m, ps) + report_write_html + report_free.
 */
int report_write_drive_html(const char *path, const char *png_dir, const char *label,
			    const struct drive_model *m, const struct point_set *ps,
			    struct errmsg *err);

#endif
