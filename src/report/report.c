/*
 * report.c — the report of report.h: its drives, and writing the HTML file
 * (html.c) with one figure per chart kind that some drive has data for
 * (charts.h), each rendered by PLplot (plot.h) to a temporary SVG file
 * that is inlined and removed. The HTML goes to a temporary file beside
 * its destination (PATH.PID.tmp) and is renamed over it only when complete.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/charts.h"
#include "report/html.h"
#include "report/inputs.h"
#include "report/report.h"
#include "util/dynbuf.h"
#include "util/input_file.h"

struct report {
	struct report_drive *drives;
	size_t n, alloc;
};

int report_new(struct report **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void report_free(struct report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		report_drive_release(&r->drives[i]);
	free(r->drives);
	free(r);
}

#define MAX_DRIVES 4096	/* drives in one report */

/* Room for one more drive: 0 or -ENOMEM. */
static int report_grow(struct report *r, struct errmsg *err)
{
	if (array_grow((void **)&r->drives, &r->alloc, r->n + 1, sizeof(*r->drives), MAX_DRIVES))
		return errmsg_set(err, -ENOMEM, "report: out of memory");
	return 0;
}

/* Keep legend labels apart: a second "sim:ocz-core" becomes "sim:ocz-core #2". */
static void unique_label(struct report *r, struct report_drive *d)
{
	char base[sizeof(d->label)];
	unsigned k = 1;

	snprintf(base, sizeof(base), "%s", d->label);
	for (size_t i = 0; i < r->n; i++) {
		if (strcmp(r->drives[i].label, d->label))
			continue;
		snprintf(d->label, sizeof(d->label), "%.100s #%u", base, ++k);
		i = (size_t)-1;		/* check the new label against all again */
	}
}

/* The drive `d` joins: one with the same key (or, for `name`, that label); NULL: a new one. */
static struct report_drive *drive_for(struct report *r, const struct report_drive *d,
				      const char *name)
{
	for (size_t i = 0; i < r->n; i++) {
		struct report_drive *o = &r->drives[i];

		if (name ? o->named && !strcmp(o->label, name)
			 : !o->named && d->key[0] && !strcmp(o->key, d->key) &&
			   report_drives_can_merge(o, d))
			return o;
	}
	return NULL;
}

static int add_loaded(struct report *r, struct report_drive *d, const char *name,
		      struct errmsg *err)
{
	struct report_drive *into = drive_for(r, d, name);
	int ret;

	if (into)
		return report_drive_merge(into, d, err);
	ret = report_grow(r, err);
	if (ret) {
		report_drive_release(d);
		return ret;
	}
	if (name) {
		snprintf(d->label, sizeof(d->label), "%s", name);
		d->named = true;
	}
	r->drives[r->n] = *d;
	unique_label(r, &r->drives[r->n]);
	r->n++;
	return 0;
}

int report_add_file(struct report *r, const char *path, struct errmsg *err)
{
	return report_add_file_warn(r, path, NULL, err);
}

int report_add_file_warn(struct report *r, const char *path, struct import_warnings *warn,
			 struct errmsg *err)
{
	struct report_drive d;
	int ret = report_drive_load(&d, path, warn, err);

	if (ret)
		return ret;
	if (d.skipped) {	/* every job of a fio file skipped: the warnings say why */
		report_drive_release(&d);
		return 0;
	}
	return add_loaded(r, &d, NULL, err);
}

int report_add_file_as(struct report *r, const char *name, const char *path,
		       struct errmsg *err)
{
	struct report_drive d;
	int ret = report_drive_load(&d, path, NULL, err);

	if (!ret && d.skipped) {
		report_drive_release(&d);
		return errmsg_set(err, -EINVAL, "%s: no job whose workload can be told", path);
	}
	return ret ? ret : add_loaded(r, &d, name, err);
}

int report_add_drive(struct report *r, const char *label, const struct drive_model *m,
		     const struct point_set *ps, struct errmsg *err)
{
	int ret;

	if (!m && (!ps || !ps->len))
		return errmsg_set(err, -EINVAL, "report: a drive needs a model or points");
	ret = report_grow(r, err);
	if (!ret)
		ret = report_drive_copy(&r->drives[r->n], label, m, ps, err);
	if (ret)
		return ret;
	unique_label(r, &r->drives[r->n]);
	r->n++;
	return 0;
}

/* Render a chart to a temporary SVG file and inline it as figure `n`. */
static int inline_svg(FILE *html, const struct plot_chart *c, unsigned n, const char *caption,
		      struct errmsg *err)
{
	const char *tmpdir = getenv("TMPDIR");
	char path[4096], *svg = NULL;
	size_t len = 0;
	int fd, ret;

	snprintf(path, sizeof(path), "%s/iomodel-chart-XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	fd = mkstemp(path);
	if (fd < 0)
		return errmsg_set(err, -errno, "cannot create a temporary file in '%s': %s",
				  tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(errno));
	close(fd);
	ret = plot_render(c, PLOT_SVG, path, err);
	if (!ret)
		ret = input_file_read(path, &svg, &len, err);
	unlink(path);
	if (!ret)
		html_figure(html, n, caption, svg, len);
	free(svg);
	return ret;
}

static int write_png(const char *png_dir, const struct chart_kind *k, unsigned n,
		     const struct plot_chart *c, struct errmsg *err)
{
	char path[4096];

	if (snprintf(path, sizeof(path), "%s/%02u-%s.png", png_dir, n, k->id) >= (int)sizeof(path))
		return errmsg_set(err, -ENAMETOOLONG, "'%s': name too long", png_dir);
	return plot_render(c, PLOT_PNG, path, err);
}

/* Every chart kind some drive wants, as figures 1, 2, ... */
static int write_charts(const struct report *r, FILE *html, const char *png_dir,
			struct errmsg *err)
{
	unsigned figure = 0;
	int ret = 0;

	html_charts_heading(html);
	for (size_t k = 0; k < n_chart_kinds && !ret; k++) {
		const struct chart_kind *kind = &chart_kinds[k];
		struct plot_chart c;
		bool wanted = false;

		for (size_t i = 0; i < r->n; i++)
			wanted |= kind->wants(&r->drives[i], kind->op);
		if (!wanted)
			continue;
		plot_chart_init(&c, kind->id);
		ret = kind->build(r->drives, r->n, kind->op, &c);
		if (ret)
			errmsg_set(err, ret, "report: chart '%s': out of memory", kind->id);
		if (!ret && plot_chart_has_data(&c)) {
			figure++;
			ret = inline_svg(html, &c, figure, kind->caption, err);
			if (!ret && png_dir)
				ret = write_png(png_dir, kind, figure, &c, err);
		}
		plot_chart_release(&c);
	}
	return ret;
}

static int prepare(const struct report *r, const char *png_dir, struct errmsg *err)
{
	int ret;

	if (!r->n)
		return errmsg_set(err, -EINVAL, "report: no drive to report on");
	ret = plot_format_check(PLOT_SVG, err);
	if (!ret && png_dir)
		ret = plot_format_check(PLOT_PNG, err);
	if (!ret && png_dir && mkdir(png_dir, 0777) && errno != EEXIST)
		ret = errmsg_set(err, -errno, "cannot create '%s': %s", png_dir, strerror(errno));
	return ret;
}

int report_write_html(const struct report *r, const char *path, const char *png_dir,
		      struct errmsg *err)
{
	char tmp[4096];
	FILE *f = NULL;
	int fd, ret = prepare(r, png_dir, err);

	if (ret)
		return ret;
	if (snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof(tmp))
		return errmsg_set(err, -ENAMETOOLONG, "'%s': name too long", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		ret = errmsg_set(err, -errno, "cannot write '%s': %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return ret;
	}
	html_begin(f, r->drives, r->n);
	html_spec_sheet(f, r->drives, r->n);
	html_run_table(f, r->drives, r->n);
	ret = write_charts(r, f, png_dir, err);
	html_end(f);
	if (fflush(f) && !ret)
		ret = errmsg_set(err, -errno, "cannot write '%s': %s", path, strerror(errno));
	if (fclose(f) && !ret)
		ret = errmsg_set(err, -errno, "cannot write '%s': %s", path, strerror(errno));
	if (!ret && rename(tmp, path))
		ret = errmsg_set(err, -errno, "cannot write '%s': %s", path, strerror(errno));
	if (ret)
		unlink(tmp);
	return ret;
}

int report_write_drive_html(const char *path, const char *png_dir, const char *label,
			    const struct drive_model *m, const struct point_set *ps,
			    struct errmsg *err)
{
	struct report *r;
	int ret = report_new(&r);

	if (ret)
		return errmsg_set(err, ret, "report: out of memory");
	ret = report_add_drive(r, label, m, ps, err);
	if (!ret)
		ret = report_write_html(r, path, png_dir, err);
	report_free(r);
	return ret;
}
