/*
 * html.c — the report's HTML: a style sheet of its own (system fonts, no
 * external anything), the inputs, the spec sheet, the run latencies and
 * the figures with their SVG inlined.
 */
#include <math.h>
#include <string.h>

#include "io/model_output.h"
#include "report/html.h"
#include "util/lat_keys.h"
#include "util/units.h"

static const char style[] =
	"body{font-family:system-ui,'DejaVu Sans',sans-serif;margin:2em auto;max-width:1100px;"
	"padding:0 1em;color:#222}\n"
	"h1{font-size:1.6em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #ccc}\n"
	"table{border-collapse:collapse;font-size:.9em;margin:.5em 0}\n"
	"th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}\n"
	"th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	"figure{margin:1.5em 0}figure svg{width:100%;max-width:960px;height:auto;display:block}\n"
	"figcaption{font-size:.9em;color:#444;max-width:960px}\n"
	".note{color:#666;font-size:.9em}\n";

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if ((unsigned char)*s < 0x20 || *s == 0x7f)	/* as errmsg_escape spells it */
				fprintf(f, "\\x%02x", (unsigned char)*s);
			else
				fputc(*s, f);
		}
	}
}

void html_begin(FILE *f, const struct report_drive *drives, size_t n)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"generator\" content=\"iomodel %s\">\n"
		"<title>iomodel report</title>\n<style>\n%s</style>\n</head>\n<body>\n"
		"<h1>iomodel report</h1>\n<p>Drives:</p>\n<ul>\n", IOMODEL_VERSION, style);
	for (size_t i = 0; i < n; i++) {
		fputs("<li><b>", f);
		esc(f, drives[i].label);
		fputs("</b> from ", f);
		esc(f, drives[i].origin);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

/* "125.8 [123.9, 127.7]" */
static void value_ci(FILE *f, double v, double lo, double hi)
{
	if (isnan(lo) || isnan(hi))
		fprintf(f, "<td class=\"num\">%.4g [no interval]</td>", v);
	else if (isfinite(hi))
		fprintf(f, "<td class=\"num\">%.4g [%.4g, %.4g]</td>", v, lo, hi);
	else
		fprintf(f, "<td class=\"num\">%.4g [%.4g, unbounded]</td>", v, lo);
}

static void first_order_cells(FILE *f, const struct op_model *om)
{
	const struct first_order *fo = &om->fit;
	char s1[32], s2[32];

	if (!om->has_first_order) {
		fputs("<td>-</td><td>-</td><td>-</td>", f);
		return;
	}
	value_ci(f, fo->str_bps / MIB, fo->str_lo_bps / MIB, fo->str_hi_bps / MIB);
	value_ci(f, fo->penalty_s * 1e3, fo->penalty_lo_s * 1e3, fo->penalty_hi_s * 1e3);
	if (om->two_point_sizes[1]) {
		format_size(s1, sizeof(s1), om->two_point_sizes[0]);
		format_size(s2, sizeof(s2), om->two_point_sizes[1]);
		fprintf(f, "<td>%.4g MiB/s, %.4g ms (%s and %s)</td>", om->two_point.str_bps / MIB,
			om->two_point.penalty_s * 1e3, s1, s2);
	} else {
		fputs("<td>-</td>", f);
	}
}

static void erase_block_cell(FILE *f, const struct op_model *om, enum io_op op)
{
	if (op != IO_WRITE || !om->has_first_order)
		fputs("<td></td>", f);
	else if (!om->erase_block_method)
		fputs("<td>none shows</td>", f);
	else if (om->erase_block_bytes >= MIB)
		fprintf(f, "<td>%.3g MiB (%s)</td>", om->erase_block_bytes / MIB,
			om->erase_block_method);
	else
		fprintf(f, "<td>%.3g KiB (%s)</td>", om->erase_block_bytes / 1024,
			om->erase_block_method);
}

static void qd_cell(FILE *f, const struct op_model *om)
{
	char size[32];

	if (!om->has_qd) {
		fputs("<td>-</td>", f);
		return;
	}
	format_size(size, sizeof(size), om->qd_size);
	fprintf(f, "<td>QD32/QD1 gain %.3g&times; at %s; ", om->qd.gain32, size);
	if (isfinite(om->qd.sat_iops))
		fprintf(f, "saturates at %.4g IOPS</td>", om->qd.sat_iops);
	else
		fputs("no saturation seen</td>", f);
}

/* What the main depth fit says beyond its figures: its depth, a held penalty, caps. */
static void depth_notes(FILE *f, const struct op_model *om)
{
	const struct depth_fit *d = om->n_depths ? &om->depths[0] : NULL;

	if (om->fit_qd != 1)
		fprintf(f, "; sizes fitted at queue depth %u (per slot)", om->fit_qd);
	if (om->fit.penalty_clamped)
		fputs("; penalty held at 0 (the free fit's was negative)", f);
	if (d && d->fails_low && d->fails_high)
		fputs("; the straight line fails at both ends", f);
	if (d && d->has_caps) {
		fputs("; capped at", f);
		if (isfinite(d->caps.iops))
			fprintf(f, " %.4g IOPS", d->caps.iops);
		if (isfinite(d->caps.bps))
			fprintf(f, "%s %.4g MiB/s", isfinite(d->caps.iops) ? " and" : "",
				d->caps.bps / MIB);
	}
}

static void fit_cell(FILE *f, const struct op_model *om)
{
	const struct depth_fit *d = om->n_depths ? &om->depths[0] : NULL;

	if (!om->has_first_order) {
		fputs("<td>-</td>", f);
		return;
	}
	fputs("<td>", f);
	if (isfinite(om->fit.rms_rel_residual))
		fprintf(f, "rms residual %.2g %%", om->fit.rms_rel_residual * 100);
	if (d && d->n_points)
		fprintf(f, "%s%zu of %zu sizes outside &plusmn;20 %%",
			isfinite(om->fit.rms_rel_residual) ? "; " : "", d->n_failing,
			d->n_points);
	depth_notes(f, om);
	fputs("</td>", f);
}

static void cache_row(FILE *f, const struct report_drive *d)
{
	const struct write_cache *c = &d->model.cache;

	if (!d->has_model || !c->absorbs)
		return;
	fputs("<tr><td>", f);
	esc(f, d->label);
	fprintf(f, "</td><td>write</td><td colspan=\"6\" class=\"note\">write cache: writes "
		"stream at %.4g MiB/s", c->write_bps / MIB);
	if (c->read_bps > 0)
		fprintf(f, ", %.2g&times; the reads", c->write_bps / c->read_bps);
	if (c->above_interface)
		fprintf(f, ", above the %.0f GB/s of any single drive's interface",
			INTERFACE_MAX_BPS / 1e9);
	fputs(": a cache absorbs them and the write figures are the cache's. ", f);
	esc(f, WRITE_CACHE_ADVICE);
	fputs("</td></tr>\n", f);
}

static void spec_rows(FILE *f, const struct report_drive *d)
{
	for (int op = IO_READ; op <= IO_WRITE; op++) {
		const struct op_model *om = &d->model.op[op];

		if (!om->has_first_order && !om->has_qd)
			continue;
		fputs("<tr><td>", f);
		esc(f, d->label);
		fprintf(f, "</td><td>%s</td>", io_op_name(op));
		first_order_cells(f, om);
		erase_block_cell(f, om, (enum io_op)op);
		qd_cell(f, om);
		fit_cell(f, om);
		fputs("</tr>\n", f);
	}
	cache_row(f, d);
	if (!d->has_model) {
		fputs("<tr><td>", f);
		esc(f, d->label);
		fputs("</td><td colspan=\"8\" class=\"note\">no model: ", f);
		esc(f, d->model_note);
		fputs("</td></tr>\n", f);
	}
}

void html_spec_sheet(FILE *f, const struct report_drive *drives, size_t n)
{
	fputs("<h2>Spec sheet</h2>\n<table>\n<tr><th>drive</th><th>op</th>"
	      "<th>average STR, MiB/s [95 % CI]</th><th>access penalty, ms [95 % CI]</th>"
	      "<th>two-point STR, penalty</th><th>erase block</th><th>queue depth</th>"
	      "<th>fit quality</th></tr>\n", f);
	for (size_t i = 0; i < n; i++)
		spec_rows(f, &drives[i]);
	fputs("</table>\n<p class=\"note\">First-order model: seconds per IO = access penalty "
	      "+ size / STR, fitted on relative error to random IOs at queue depth 1 (or, "
	      "without a QD1 sweep, per slot at the lowest depth swept: q / IOPS). "
	      "Two-point: the seeds' method from the smallest and largest size.</p>\n", f);
}

void html_run_table(FILE *f, const struct report_drive *drives, size_t n)
{
	bool any = false;

	for (size_t i = 0; i < n; i++)
		any |= drives[i].n_runs > 0;
	if (!any)
		return;
	fputs("<h2>Runs</h2>\n<table>\n<tr><th>drive</th><th>workload</th><th>IOs</th>"
	      "<th>IOPS</th><th>MiB/s</th>", f);
	for (int k = 0; k < LAT_KEYS; k++)
		fprintf(f, "<th>%s, ms</th>", lat_key_labels[k]);
	fputs("</tr>\n", f);
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < drives[i].n_runs; j++) {
			const struct run_record *r = &drives[i].runs[j];
			char size[32];

			format_size(size, sizeof(size), r->bs);
			fputs("<tr><td>", f);
			esc(f, drives[i].label);
			fprintf(f, "</td><td>%s%s %s QD%u</td><td class=\"num\">%llu</td>"
				"<td class=\"num\">%.4g</td><td class=\"num\">%.4g</td>",
				r->random ? "rand" : "", io_op_name(r->op), size,
				r->qd, (unsigned long long)r->ios, r->iops, r->mib_s);
			for (int k = 0; k < LAT_KEYS; k++)
				fprintf(f, "<td class=\"num\">%.4g</td>", r->lat_us[k] / 1e3);
			fputs("</tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

void html_charts_heading(FILE *f)
{
	fputs("<h2>Charts</h2>\n", f);
}

static bool starts(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(end - p) >= n && !memcmp(p, s, n);
}

void html_figure(FILE *f, unsigned n, const char *caption, const char *svg, size_t len)
{
	static const char *const refs[] = { "id=\"", "url(#", "href=\"#" };
	const char *end = svg + len, *p = svg;

	while (p < end && !starts(p, end, "<svg"))	/* the XML prologue and doctype */
		p++;
	fprintf(f, "<figure id=\"chart-%u\">\n", n);
	while (p < end) {
		size_t k = 0;

		while (k < 3 && !starts(p, end, refs[k]))
			k++;
		if (k == 3) {
			fputc(*p++, f);
			continue;
		}
		fprintf(f, "%sc%u-", refs[k], n);
		p += strlen(refs[k]);
	}
	fprintf(f, "\n<figcaption>Figure %u. %s</figcaption>\n</figure>\n", n, caption);
}

void html_end(FILE *f)
{
	fprintf(f, "<p class=\"note\">Made by iomodel %s. Charts drawn with PLplot.</p>\n"
		"</body>\n</html>\n", IOMODEL_VERSION);
}
