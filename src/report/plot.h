/*
 * plot.h — one chart as plain data (axes, series, marks) and its rendering
 * to an SVG or PNG file by PLplot. plot.c is the only file that includes
 * PLplot: everything else builds a `struct plot_chart` and calls
 * plot_render().
 *
 * Axes take data in their own units; a log axis drops the points that are
 * not positive. Three kinds of axis:
 *  - PLOT_LINEAR: plain numbers;
 *  - PLOT_LOG10: log scale, labels at powers of ten ("0.01", "1", "1000",
 *    "10^5"), minor ticks at 2..9;
 *  - PLOT_LOG2_BYTES, PLOT_LOG2: log scale, labels at powers of two, as
 *    sizes ("512 B", "4 KiB", "1 MiB") or as plain counts ("1", "2", "32").
 *
 * A series with a label gets a legend entry drawn in its style; one with
 * no points and a label is a legend entry only (a key to the line styles).
 *
 * PLplot keeps its state in global streams: plot_render() makes a stream
 * of its own for each chart and ends it before returning, so charts do not
 * leak settings into each other. Not thread-safe.
 */
#ifndef IOMODEL_PLOT_H
#define IOMODEL_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/errmsg.h"

enum plot_axis_kind {
	PLOT_LINEAR,
	PLOT_LOG10,
	PLOT_LOG2_BYTES,
	PLOT_LOG2,
};

struct plot_axis {
	char title[96];		/* with its unit: "throughput (MiB/s, log)" */
	enum plot_axis_kind kind;
	bool fixed;		/* use [lo, hi] as given instead of the data's range */
	double lo, hi;
};

enum plot_style {
	PLOT_LINE,		/* solid line */
	PLOT_DASHED,		/* dashed line */
	PLOT_DOTTED,		/* dotted line */
	PLOT_MARKS,		/* a marker at each point */
	PLOT_LINE_MARKS,	/* solid line and markers */
	PLOT_BARS,		/* a filled bar from 0 to each point, centred on its x,
				   bar_width x-units wide (linear x axis; on a log
				   y axis, fixed, from its lower end) */
};

/* Colours: PLOT_SERIES_COLORS distinct ones by index, then these. */
#define PLOT_SERIES_COLORS 8
#define PLOT_BLACK 100
#define PLOT_GREY 101
/* Markers: PLOT_MARKERS distinct glyphs by index. */
#define PLOT_MARKERS 6

struct plot_series {
	char label[192];	/* legend entry; "" for none */
	unsigned color;		/* 0 .. PLOT_SERIES_COLORS-1, PLOT_BLACK, PLOT_GREY */
	unsigned marker;	/* 0 .. PLOT_MARKERS-1 (wraps) */
	enum plot_style style;
	double *x, *y;		/* owned */
	size_t n, alloc;
	double bar_width;	/* PLOT_BARS: in x units (0: 0.6) */
};

/* A vertical line across the plot at `x`, with a label beside it. */
struct plot_mark {
	double x;
	char label[192];
	unsigned color;
};

struct plot_chart {
	char title[128];
	struct plot_axis x, y;
	struct plot_series *series;	/* owned */
	size_t n_series, alloc_series;
	struct plot_mark marks[8];
	size_t n_marks;
};

/* An empty chart (no allocation). */
void plot_chart_init(struct plot_chart *c, const char *title);
/* Free the series. */
void plot_chart_release(struct plot_chart *c);

void plot_axis_set(struct plot_axis *a, enum plot_axis_kind kind, const char *title);

/*
 * Add a series; returns it (owned by the chart, valid until the next
 * plot_chart_add) or NULL when out of memory.
 */
struct plot_series *plot_chart_add(struct plot_chart *c, const char *label, unsigned color,
				   unsigned marker, enum plot_style style);
/* Append a point. 0 or -ENOMEM. */
int plot_series_push(struct plot_series *s, double x, double y);
/* Add a vertical mark (ignored beyond the eighth). */
void plot_chart_mark(struct plot_chart *c, double x, const char *label, unsigned color);

/* Whether the chart has a point to draw on its axes. */
bool plot_chart_has_data(const struct plot_chart *c);

enum plot_format {
	PLOT_SVG,	/* PLplot's "svg" driver */
	PLOT_PNG,	/* PLplot's "pngcairo" driver (Debian: plplot-driver-cairo) */
};

/*
 * 0 when PLplot can write `format`, else -ENOTSUP with a message naming the
 * driver and the package that has it.
 */
int plot_format_check(enum plot_format format, struct errmsg *err);

/*
 * Draw the chart into the file at `path` (created or truncated). Returns 0,
 * -EINVAL when the chart has nothing to draw, -ENOTSUP when the driver is
 * missing, -EIO when PLplot fails (with its message).
 */
int plot_render(const struct plot_chart *c, enum plot_format format, const char *path,
		struct errmsg *err);

#endif
