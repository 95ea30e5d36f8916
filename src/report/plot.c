/*
 * plot.c — the charts of plot.h drawn by PLplot; the only file that calls
 * PLplot. Each chart gets a stream of its own (plmkstrm ... plend1), its
 * own palette and tick labeller; PLplot's axis, tick, label and legend
 * code does the drawing (plbox, pllab, pllegend), with log axes passed as
 * the logarithms of the data as PLplot expects.
 *
 * Layout: the plot box on the left two thirds, the legend outside it on
 * the right, the title above, axis titles beside the ticks.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <plplot.h>

#include "report/plot.h"
#include "util/errmsg.h"
#include "util/dynbuf.h"

#define PAGE_WIDTH 960		/* pixels (SVG points) */
#define PAGE_HEIGHT 540
#define MAX_LEGEND 40
#define MAX_SERIES 4096		/* series in one chart */
#define MAX_SERIES_POINTS (1u << 24)	/* points in one series */
/* the plot box (normalised subpage coordinates), the legend right of it */
#define BOX_LEFT 0.10
#define BOX_RIGHT 0.62
#define BOX_BOTTOM 0.12
#define BOX_TOP 0.90
#define LEGEND_X 0.635
#define LEGEND_Y 0.10

/* cmap0: 0 background, 1 axes and text, 2 grid, 3.. the series colours */
enum { COL_BG, COL_FG, COL_GRID, COL_GREY, COL_SERIES };

static const unsigned char palette[COL_SERIES + PLOT_SERIES_COLORS][3] = {
	{ 255, 255, 255 }, { 0, 0, 0 }, { 221, 221, 221 }, { 120, 120, 120 },
	{ 0, 114, 178 },	/* blue (Okabe-Ito) */
	{ 213, 94, 0 },		/* vermillion */
	{ 0, 158, 115 },	/* bluish green */
	{ 204, 121, 167 },	/* reddish purple */
	{ 230, 159, 0 },	/* orange */
	{ 86, 180, 233 },	/* sky blue */
	{ 100, 60, 20 },	/* brown */
	{ 60, 60, 60 },		/* dark grey */
};

/* ● ■ ▲ ◆ ▼ ○ in UTF-8 */
static const char *const markers[PLOT_MARKERS] = {
	"\xe2\x97\x8f", "\xe2\x96\xa0", "\xe2\x96\xb2", "\xe2\x97\x86", "\xe2\x96\xbc",
	"\xe2\x97\x8b",
};

/* ---- the chart as data ---------------------------------------------- */

void plot_chart_init(struct plot_chart *c, const char *title)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->title, sizeof(c->title), "%s", title);
}

void plot_chart_release(struct plot_chart *c)
{
	for (size_t i = 0; i < c->n_series; i++) {
		free(c->series[i].x);
		free(c->series[i].y);
	}
	free(c->series);
	memset(c, 0, sizeof(*c));
}

void plot_axis_set(struct plot_axis *a, enum plot_axis_kind kind, const char *title)
{
	memset(a, 0, sizeof(*a));
	a->kind = kind;
	snprintf(a->title, sizeof(a->title), "%s", title);
}

/*
 * `in` as PLplot text that shows what it says: control bytes escaped
 * (errmsg_escape) and '#', PLplot's escape character ("#d" is a subscript,
 * "#[0x41]" a glyph), doubled.
 */
static void plot_literal(char *out, size_t len, const char *in)
{
	char printable[192];
	size_t n = 0;

	errmsg_escape(printable, sizeof(printable), in);
	for (const char *p = printable; *p && n + 2 < len; p++) {
		if (*p == '#')
			out[n++] = '#';
		out[n++] = *p;
	}
	out[n] = '\0';
}

struct plot_series *plot_chart_add(struct plot_chart *c, const char *label, unsigned color,
				   unsigned marker, enum plot_style style)
{
	struct plot_series *s;

	if (array_grow((void **)&c->series, &c->alloc_series, c->n_series + 1, sizeof(*c->series),
		       MAX_SERIES))
		return NULL;
	s = &c->series[c->n_series++];
	memset(s, 0, sizeof(*s));
	plot_literal(s->label, sizeof(s->label), label ? label : "");
	s->color = color;
	s->marker = marker % PLOT_MARKERS;
	s->style = style;
	return s;
}

int plot_series_push(struct plot_series *s, double x, double y)
{
	size_t alloc_x = s->alloc, alloc_y = s->alloc;

	/* x and y grow alike; if y fails, x is only larger than alloc says */
	if (array_grow((void **)&s->x, &alloc_x, s->n + 1, sizeof(*s->x), MAX_SERIES_POINTS) ||
	    array_grow((void **)&s->y, &alloc_y, s->n + 1, sizeof(*s->y), MAX_SERIES_POINTS))
		return -ENOMEM;
	s->alloc = alloc_x;
	s->x[s->n] = x;
	s->y[s->n] = y;
	s->n++;
	return 0;
}

void plot_chart_mark(struct plot_chart *c, double x, const char *label, unsigned color)
{
	struct plot_mark *m;

	if (c->n_marks >= sizeof(c->marks) / sizeof(c->marks[0]))
		return;
	m = &c->marks[c->n_marks++];
	m->x = x;
	m->color = color;
	plot_literal(m->label, sizeof(m->label), label);
}

/* A value in the axis' plotting coordinate, NAN where the axis cannot show it. */
static double axis_coord(const struct plot_axis *a, double v)
{
	if (!isfinite(v))
		return NAN;
	switch (a->kind) {
	case PLOT_LINEAR: return v;
	case PLOT_LOG10: return v > 0 ? log10(v) : NAN;
	case PLOT_LOG2_BYTES:
	case PLOT_LOG2: return v > 0 ? log2(v) : NAN;
	}
	return NAN;
}

bool plot_chart_has_data(const struct plot_chart *c)
{
	for (size_t i = 0; i < c->n_series; i++)
		for (size_t j = 0; j < c->series[i].n; j++)
			if (isfinite(axis_coord(&c->x, c->series[i].x[j])) &&
			    isfinite(axis_coord(&c->y, c->series[i].y[j])))
				return true;
	return false;
}

/* ---- ranges and ticks -------------------------------------------------- */

/* The data range of one axis in plotting coordinates; false when empty. */
static bool data_range(const struct plot_chart *c, bool x_axis, double *lo, double *hi)
{
	const struct plot_axis *a = x_axis ? &c->x : &c->y, *other = x_axis ? &c->y : &c->x;
	bool any = false;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < c->n_series; i++) {
		const struct plot_series *s = &c->series[i];

		for (size_t j = 0; j < s->n; j++) {
			double v = axis_coord(a, x_axis ? s->x[j] : s->y[j]);
			double w = axis_coord(other, x_axis ? s->y[j] : s->x[j]);

			if (!isfinite(v) || !isfinite(w))
				continue;
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, v);
			any = true;
		}
	}
	for (size_t i = 0; x_axis && i < c->n_marks; i++) {
		double v = axis_coord(a, c->marks[i].x);

		if (isfinite(v) && any) {
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, v);
		}
	}
	return any;
}

/* The plotted range of an axis: the data's, padded so that ticks show. */
static void axis_range(const struct plot_chart *c, bool x_axis, double *lo, double *hi)
{
	const struct plot_axis *a = x_axis ? &c->x : &c->y;

	if (a->fixed) {
		*lo = axis_coord(a, a->lo);
		*hi = axis_coord(a, a->hi);
		return;
	}
	data_range(c, x_axis, lo, hi);
	switch (a->kind) {
	case PLOT_LOG10:
		if (*hi - *lo < 1.5) {	/* whole decades, so two labels at least */
			*lo = floor(*lo - 1e-9);
			*hi = ceil(*hi + 1e-9);
		} else {
			double pad = 0.05 * (*hi - *lo);

			*lo -= pad;
			*hi += pad;
		}
		break;
	case PLOT_LOG2_BYTES:
	case PLOT_LOG2:
		*lo -= 0.3;
		*hi += 0.3;
		break;
	case PLOT_LINEAR:
		*lo = fmin(0, *lo);	/* times, rates and shares from zero */
		if (*hi <= *lo)
			*hi = *lo + 1;
		*hi += x_axis ? 0 : 0.05 * (*hi - *lo);
		break;
	}
}

/* Major tick interval and minor ticks per interval for plbox (0: PLplot picks). */
static void axis_ticks(const struct plot_axis *a, double lo, double hi, double *tick, PLINT *sub)
{
	*tick = 0;
	*sub = 0;
	if (a->kind == PLOT_LOG2_BYTES || a->kind == PLOT_LOG2) {
		double octaves = hi - lo;

		*tick = octaves <= 8 ? 1 : ceil(octaves / 6);	/* at most about 7 labels */
		*sub = (PLINT)*tick;
	}
}

static void label_power_of_ten(int e, char *out, size_t len)
{
	static const char *const small[] = { "0.001", "0.01", "0.1" };

	if (e >= 0 && e <= 4)
		snprintf(out, len, "%.0f", pow(10, e));
	else if (e >= -3 && e < 0)
		snprintf(out, len, "%s", small[e + 3]);
	else
		snprintf(out, len, "10#u%d#d", e);
}

static void label_bytes(double v, char *out, size_t len)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(out, len, "%.0f %s", v, unit[u]);
}

/* PLplot's custom tick labeller ("o" in plbox): value is in plotting coordinates. */
static void label_tick(PLINT axis, PLFLT value, PLCHAR_NC_VECTOR label, PLINT length,
		       PLPointer data)
{
	const struct plot_chart *c = data;
	const struct plot_axis *a = axis == PL_X_AXIS ? &c->x : &c->y;
	size_t len = length > 0 ? (size_t)length : 1;

	switch (a->kind) {
	case PLOT_LOG10:
		label_power_of_ten((int)lround(value), label, len);
		break;
	case PLOT_LOG2_BYTES:
		label_bytes(exp2(round(value)), label, len);
		break;
	case PLOT_LOG2:
		snprintf(label, len, "%.0f", exp2(round(value)));
		break;
	case PLOT_LINEAR:
		snprintf(label, len, "%.6g", fabs(value) < 1e-12 ? 0.0 : value);
		break;
	}
}

/* ---- drawing ------------------------------------------------------------- */

static PLINT color_index(unsigned color)
{
	if (color == PLOT_BLACK)
		return COL_FG;
	if (color == PLOT_GREY)
		return COL_GREY;
	return COL_SERIES + (PLINT)(color % PLOT_SERIES_COLORS);
}

static PLINT line_style(enum plot_style style)
{
	return style == PLOT_DASHED ? 3 : style == PLOT_DOTTED ? 2 : 1;
}

static PLFLT line_width(enum plot_style style)
{
	return style == PLOT_LINE || style == PLOT_LINE_MARKS ? 2.0 : 1.5;
}

static void set_palette(void)
{
	PLINT r[COL_SERIES + PLOT_SERIES_COLORS], g[COL_SERIES + PLOT_SERIES_COLORS];
	PLINT b[COL_SERIES + PLOT_SERIES_COLORS];

	for (size_t i = 0; i < COL_SERIES + PLOT_SERIES_COLORS; i++) {
		r[i] = palette[i][0];
		g[i] = palette[i][1];
		b[i] = palette[i][2];
	}
	plscmap0(r, g, b, COL_SERIES + PLOT_SERIES_COLORS);
}

/* One series in plotting coordinates, the points the axes cannot show left out. */
static void draw_series(const struct plot_chart *c, const struct plot_series *s,
			PLFLT *x, PLFLT *y)
{
	PLINT n = 0;

	for (size_t j = 0; j < s->n; j++) {
		x[n] = axis_coord(&c->x, s->x[j]);
		y[n] = axis_coord(&c->y, s->y[j]);
		if (isfinite(x[n]) && isfinite(y[n]))
			n++;
	}
	if (!n)
		return;
	plcol0(color_index(s->color));
	if (s->style == PLOT_BARS) {
		/* from 0, or on a log axis from its fixed lower end */
		PLFLT base = axis_coord(&c->y, c->y.kind == PLOT_LINEAR ? 0 : c->y.lo);
		PLFLT half = (s->bar_width > 0 ? s->bar_width : 0.6) / 2;

		for (PLINT j = 0; j < n; j++) {
			PLFLT bx[4] = { x[j] - half, x[j] + half, x[j] + half, x[j] - half };
			PLFLT by[4] = { base, base, y[j], y[j] };

			plfill(4, bx, by);
		}
		return;
	}
	if (s->style != PLOT_MARKS && n > 1) {
		pllsty(line_style(s->style));
		plwidth(line_width(s->style));
		plline(n, x, y);
		pllsty(1);
		plwidth(1.0);
	}
	if (s->style == PLOT_MARKS || s->style == PLOT_LINE_MARKS) {
		plschr(0, 0.75);
		plstring(n, x, y, markers[s->marker]);
		plschr(0, 1.0);
	}
}

/* Vertical lines, labelled across the top of the box on the roomier side. */
static void draw_marks(const struct plot_chart *c, const PLFLT xr[2], const PLFLT yr[2])
{
	for (size_t i = 0; i < c->n_marks; i++) {
		PLFLT x[2], y[2] = { yr[0], yr[1] }, gap = 0.01 * (xr[1] - xr[0]);
		bool left;

		x[0] = x[1] = axis_coord(&c->x, c->marks[i].x);
		if (!isfinite(x[0]) || x[0] < xr[0] || x[0] > xr[1])
			continue;
		left = x[0] > (xr[0] + xr[1]) / 2;
		plcol0(color_index(c->marks[i].color));
		pllsty(2);
		plline(2, x, y);
		pllsty(1);
		plschr(0, 0.8);
		plptex(left ? x[0] - gap : x[0] + gap, yr[1] - (0.04 + 0.05 * (double)i) *
		       (yr[1] - yr[0]), 1, 0, left ? 1.0 : 0.0, c->marks[i].label);
		plschr(0, 1.0);
	}
}

static void draw_legend(const struct plot_chart *c)
{
	PLINT opt[MAX_LEGEND], colors[MAX_LEGEND], styles[MAX_LEGEND], numbers[MAX_LEGEND];
	PLINT patterns[MAX_LEGEND];
	PLFLT widths[MAX_LEGEND], scales[MAX_LEGEND], box_scales[MAX_LEGEND], w, h;
	const char *text[MAX_LEGEND], *symbols[MAX_LEGEND];
	PLINT n = 0;

	for (size_t i = 0; i < c->n_series && n < MAX_LEGEND; i++) {
		const struct plot_series *s = &c->series[i];

		if (!s->label[0])
			continue;
		opt[n] = s->style == PLOT_MARKS ? PL_LEGEND_SYMBOL
			 : s->style == PLOT_LINE_MARKS ? PL_LEGEND_LINE | PL_LEGEND_SYMBOL
			 : s->style == PLOT_BARS ? PL_LEGEND_COLOR_BOX
			 : PL_LEGEND_LINE;
		patterns[n] = 0;
		box_scales[n] = 0.8;
		colors[n] = color_index(s->color);
		styles[n] = line_style(s->style);
		widths[n] = line_width(s->style);
		scales[n] = 0.75;
		numbers[n] = 1;
		symbols[n] = markers[s->marker];
		text[n] = s->label;
		n++;
	}
	if (!n)
		return;
	/* top left corner at (LEGEND_X, LEGEND_Y) from the subpage's top left */
	pllegend(&w, &h, PL_LEGEND_BACKGROUND, PL_POSITION_LEFT | PL_POSITION_TOP |
		 PL_POSITION_INSIDE | PL_POSITION_SUBPAGE, LEGEND_X, LEGEND_Y, 0.05, COL_BG, COL_FG, 1,
		 0, 0, n, opt, 0.8, 0.8, 2.0, 0.0, colors, text, colors, patterns, box_scales,
		 widths, colors, styles, widths, colors, scales, numbers, symbols);
}

static void draw_axes(const struct plot_chart *c, const PLFLT xr[2], const PLFLT yr[2])
{
	char xopt[16], yopt[16], xgrid[8], ygrid[8];
	const char *xl = c->x.kind == PLOT_LOG10 ? "l" : "";
	const char *yl = c->y.kind == PLOT_LOG10 ? "l" : "";
	PLFLT xtick, ytick;
	PLINT xsub, ysub;

	axis_ticks(&c->x, xr[0], xr[1], &xtick, &xsub);
	axis_ticks(&c->y, yr[0], yr[1], &ytick, &ysub);
	snprintf(xgrid, sizeof(xgrid), "g%s", xl);
	snprintf(ygrid, sizeof(ygrid), "g%s", yl);
	snprintf(xopt, sizeof(xopt), "bcnsto%s", xl);
	snprintf(yopt, sizeof(yopt), "bcnstvo%s", yl);
	plcol0(COL_GRID);
	plbox(xgrid, xtick, xsub, ygrid, ytick, ysub);
	plcol0(COL_FG);
	plslabelfunc(label_tick, (PLPointer)c);
	plbox(xopt, xtick, xsub, yopt, ytick, ysub);
	pllab(c->x.title, c->y.title, "");
	plschr(0, 1.2);
	plmtex("t", 1.6, 0.0, 0.0, c->title);
	plschr(0, 1.0);
}

/* Everything between plinit and plend1. */
static void draw_chart(const struct plot_chart *c, PLFLT *x, PLFLT *y)
{
	PLFLT xr[2], yr[2];

	axis_range(c, true, &xr[0], &xr[1]);
	axis_range(c, false, &yr[0], &yr[1]);
	pladv(0);
	plvpor(BOX_LEFT, BOX_RIGHT, BOX_BOTTOM, BOX_TOP);
	plwind(xr[0], xr[1], yr[0], yr[1]);
	draw_axes(c, xr, yr);
	for (size_t i = 0; i < c->n_series; i++)
		draw_series(c, &c->series[i], x, y);
	draw_marks(c, xr, yr);
	draw_legend(c);
}

static const char *driver_name(enum plot_format format)
{
	return format == PLOT_PNG ? "pngcairo" : "svg";
}

int plot_format_check(enum plot_format format, struct errmsg *err)
{
	const char *menu[128], *names[128];
	const char **pm = menu, **pn = names;
	int n = 128;

	plgDevs(&pm, &pn, &n);
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], driver_name(format)))
			return 0;
	return errmsg_set(err, -ENOTSUP, "PLplot has no '%s' driver (Debian package %s)",
			  driver_name(format),
			  format == PLOT_PNG ? "plplot-driver-cairo" : "libplplot17");
}

static int check_writable(const char *path, struct errmsg *err)
{
	FILE *f = fopen(path, "wb");

	if (!f || fclose(f))
		return errmsg_set(err, -errno, "cannot write '%s': %s", path, strerror(errno));
	return 0;
}

int plot_render(const struct plot_chart *c, enum plot_format format, const char *path,
		struct errmsg *err)
{
	char plmsg[1024] = "";
	PLINT stream, code = 0;
	size_t most = 1;
	PLFLT *x, *y;
	int ret = plot_format_check(format, err);

	if (ret)
		return ret;
	if (!plot_chart_has_data(c))
		return errmsg_set(err, -EINVAL, "chart '%s': nothing to draw", c->title);
	ret = check_writable(path, err);	/* PLplot would retry, then exit */
	if (ret)
		return ret;
	for (size_t i = 0; i < c->n_series; i++)
		most = c->series[i].n > most ? c->series[i].n : most;
	x = malloc(most * sizeof(*x));
	y = malloc(most * sizeof(*y));
	if (!x || !y) {
		free(x);
		free(y);
		return errmsg_set(err, -ENOMEM, "out of memory");
	}
	plmkstrm(&stream);
	if (stream < 0) {
		free(x);
		free(y);
		return errmsg_set(err, -EIO, "PLplot: no free stream");
	}
	plsError(&code, plmsg);
	plsdev(driver_name(format));
	plsfnam(path);
	plspage(0, 0, PAGE_WIDTH, PAGE_HEIGHT, 0, 0);
	plspause(0);
	set_palette();
	plsfont(PL_FCI_SANS, PL_FCI_UPRIGHT, PL_FCI_MEDIUM);
	plinit();
	if (!code) {
		PLFLT def_mm, height_mm;

		/* the SVG driver's text comes out larger than cairo's: even them out */
		plgchr(&def_mm, &height_mm);
		plschr(def_mm * (format == PLOT_SVG ? 0.85 : 1.0), 1.0);
		draw_chart(c, x, y);
	}
	plend1();
	free(x);
	free(y);
	if (code)
		return errmsg_set(err, -EIO, "PLplot (%s): %s", path, plmsg[0] ? plmsg : "failed");
	return 0;
}
