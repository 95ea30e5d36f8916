/*
 * charts.h — the kinds of chart a report can hold, as a table: each kind
 * says whether a drive has what it needs (`wants`) and builds its chart
 * from the drives that do (`build`). A report draws every kind that at
 * least one drive wants, in table order, with every such drive overlaid
 * (drive i in colour i and marker i). A new kind of result gets a chart by
 * adding a row to chart_kinds[] (charts.c).
 */
#ifndef IOMODEL_REPORT_CHARTS_H
#define IOMODEL_REPORT_CHARTS_H

#include <stdbool.h>
#include <stddef.h>

#include "report/inputs.h"
#include "report/plot.h"

struct chart_kind {
	const char *id;		/* names its PNG file: "throughput-read" */
	enum io_op op;		/* the direction, for the kinds drawn per direction */
	const char *caption;	/* one sentence under the chart (HTML-safe) */
	bool (*wants)(const struct report_drive *d, enum io_op op);
	/* 0, or -ENOMEM; `c` is initialised by the caller */
	int (*build)(const struct report_drive *drives, size_t n, enum io_op op,
		     struct plot_chart *c);
};

extern const struct chart_kind chart_kinds[];
extern const size_t n_chart_kinds;

/* ---- shared by the chart builders (charts.c) ---- */

/*
 * The size sweep a drive's size charts draw: at the depth of its first-order
 * model (fit_qd), or 1 without one; its random points, else sequential.
 */
unsigned chart_sweep_qd(const struct report_drive *d, enum io_op op);
bool chart_sweep_random(const struct report_drive *d, enum io_op op);
bool chart_is_sweep_point(const struct report_drive *d, const struct perf_point *p,
			  enum io_op op, bool random);

/* Smallest and largest request size of any drive's sweep for `op`; false if none. */
bool chart_size_range(const struct report_drive *drives, size_t n, enum io_op op,
		      double *lo, double *hi);

/* Add a legend-only entry. -ENOMEM or 0. */
int chart_key(struct plot_chart *c, const char *label, unsigned color, unsigned marker,
	      enum plot_style style);


/* charts_suites.c */
bool profile_chart_wants(const struct report_drive *d, enum io_op op);
bool state_chart_wants(const struct report_drive *d, enum io_op op);
int profile_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			struct plot_chart *c);
int state_bars_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			   struct plot_chart *c);
int state_rounds_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			     struct plot_chart *c);

/* charts_assess.c */
bool assess_chart_wants(const struct report_drive *d, enum io_op op);
int assess_rates_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			     struct plot_chart *c);
int assess_times_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			     struct plot_chart *c);

/* charts_size.c */
bool size_chart_wants(const struct report_drive *d, enum io_op op);
int throughput_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			   struct plot_chart *c);
int access_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
		       struct plot_chart *c);
/* Writes above the erase-block model's penalty + size/STR: its merge steps. */
bool merges_chart_wants(const struct report_drive *d, enum io_op op);
int merges_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
		       struct plot_chart *c);

/* charts_qd.c */
bool qd_chart_wants(const struct report_drive *d, enum io_op op);
int qd_iops_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			struct plot_chart *c);
int qd_latency_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			   struct plot_chart *c);
/* The p99 latency of the drives whose points give it at two depths or more. */
bool qd_p99_chart_wants(const struct report_drive *d, enum io_op op);
int qd_p99_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
		       struct plot_chart *c);

/* charts_run.c */
/* A run record's legend entry: "ssd: randread 4 KiB QD8". */
void chart_run_label(char *buf, size_t len, const struct report_drive *d,
		     const struct run_record *r);
bool timeline_chart_wants(const struct report_drive *d, enum io_op op);
int timeline_iops_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			      struct plot_chart *c);
int timeline_latency_chart_build(const struct report_drive *drives, size_t n,
				 enum io_op op, struct plot_chart *c);

/* charts_cdf.c: iomodel runs' histograms and fio json+ points' distributions */
bool cdf_chart_wants(const struct report_drive *d, enum io_op op);
int cdf_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
		    struct plot_chart *c);

#endif
