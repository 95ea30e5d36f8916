/*
 * test_fio_corpus.c — every file of the fio corpus in tests/e2e/data/fio
 * (real fio 3.33 runs made by make-corpus.sh, and hand-written fio 2.x
 * files; see its README.md) imports into the points that expected.csv
 * lists: op, random, size, iodepth, jobs, qd = iodepth x jobs, and IOPS
 * within rounding of what the file says; jobs that cannot be told are
 * skipped with one warning each. json+ percentiles computed from the bins
 * match those fio printed, and the latency distribution kept on the point
 * is sound (check_cdf). Every file in the folder must be listed.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "check.h"
#include "io/import.h"

#define MAX_ROWS 128

struct row {
	char file[96];
	bool skip;
	enum io_op op;
	bool random;
	unsigned long long size;
	unsigned iodepth, jobs;
	double iops;		/* for a skip row: jobs skipped */
};

static size_t read_manifest(struct check_state *st, const char *path, struct row *rows)
{
	FILE *f = fopen(path, "r");
	char line[256], op[8];
	size_t n = 0;
	int random;

	CHECK(st, f != NULL, "cannot open %s", path);
	while (f && fgets(line, sizeof(line), f) && n < MAX_ROWS) {
		struct row *r = &rows[n];

		if (line[0] == '#' || !strncmp(line, "file,", 5))
			continue;
		memset(r, 0, sizeof(*r));
		if (sscanf(line, "%95[^,],skip,,,,,%lf", r->file, &r->iops) == 2) {
			r->skip = true;
		} else if (sscanf(line, "%95[^,],%7[^,],%d,%llu,%u,%u,%lf", r->file, op, &random,
				  &r->size, &r->iodepth, &r->jobs, &r->iops) == 7) {
			r->op = strcmp(op, "write") ? IO_READ : IO_WRITE;
			r->random = random;
		} else {
			CHECK(st, 0, "%s: bad line %s", path, line);
			continue;
		}
		n++;
	}
	if (f)
		fclose(f);
	return n;
}

static bool matches(const struct perf_point *p, const struct row *r)
{
	return p->op == r->op && p->random == r->random && p->size == r->size &&
	       p->iodepth == r->iodepth && p->jobs == r->jobs && p->qd == r->iodepth * r->jobs &&
	       fabs(p->iops - r->iops) <= 1e-6 * r->iops + 1e-6;
}

/* Import one file and compare with its rows; returns whether it imported. */
static bool check_file(struct check_state *st, const char *dir, const char *file,
		       const struct row *rows, size_t nrows)
{
	char path[PATH_MAX];
	struct point_set ps;
	struct import_warnings w;
	struct errmsg err = { "" };
	size_t want = 0;
	unsigned skips = 0;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	point_set_init(&ps);
	import_warnings_init(&w);
	ret = import_points_file_warn(&ps, path, &w, &err);
	CHECK(st, ret == 0, "%s: %d %s", file, ret, err.text);
	for (size_t i = 0; i < nrows; i++) {
		bool found = false;

		if (strcmp(rows[i].file, file))
			continue;
		if (rows[i].skip) {
			skips = (unsigned)rows[i].iops;
			continue;
		}
		want++;
		for (size_t k = 0; k < ps.len && !found; k++)
			found = matches(&ps.points[k], &rows[i]);
		CHECK(st, found, "%s: no point %s size %llu iodepth %u jobs %u iops %.6f", file,
		      io_op_name(rows[i].op), rows[i].size, rows[i].iodepth, rows[i].jobs,
		      rows[i].iops);
	}
	CHECK(st, ps.len == want, "%s: %zu points, %zu listed", file, ps.len, want);
	CHECK(st, w.skipped == skips, "%s: %u jobs skipped, %u listed: %s", file, w.skipped, skips,
	      dynbuf_ptr(&w.lines));
	CHECK(st, !skips || strstr(dynbuf_ptr(&w.lines), file), "%s: warning names the file: %s",
	      file, dynbuf_ptr(&w.lines));
	/* percentiles: known for one job's entry, ordered; unknown (0) only for clones' sums */
	for (size_t k = 0; k < ps.len; k++) {
		const double *pct = ps.points[k].clat_pct_s;

		CHECK(st, pct[0] > 0 || ps.points[k].jobs > 1, "%s: no percentiles", file);
		for (int j = 1; j < LAT_PCTS; j++)
			CHECK(st, pct[j] >= pct[j - 1] && (pct[0] > 0 || pct[j] == 0),
			      "%s: percentiles %g .. %g", file, pct[0], pct[LAT_PCTS - 1]);
	}
	point_set_release(&ps);
	import_warnings_release(&w);
	return ret == 0;
}

/* The json+ files of the corpus: each imports into one point with a distribution. */
static const char *const jsonplus_files[] = {
	"jsonplus-randread-16k-qd8.json",
	"jsonplus/randread-4k-qd1.json",
	"jsonplus/randread-4k-qd8.json",
	"jsonplus/randread-64k-qd1.json",
	"jsonplus/randread-64k-qd8.json",
	"jsonplus-total-randwrite-16k-qd4.json",	/* lat_ns bins only */
	"jsonplus-numjobs2-randread-8k-qd2.json",	/* two entries, bins merged */
	"handmade/fio-2.15-jsonplus-randread-4k-qd8.json",	/* fio 2: indexed, in µs */
};

/* fio's own figures for one direction over a file's entries: ranges over them. */
struct fio_printed {
	double pct_lo[LAT_PCTS], pct_hi[LAT_PCTS];	/* s */
	double min_s, max_s;
	unsigned entries;
};

/* The latency object of `sec` that the point's kind names, and its scale to s. */
static const json_t *printed_object(const json_t *sec, enum point_lat_kind kind, double *scale)
{
	const char *ns = kind == POINT_LAT_TOTAL ? "lat_ns" : "clat_ns";
	const json_t *o = json_object_get(sec, ns);

	*scale = 1e-9;
	if (!o) {
		o = json_object_get(sec, kind == POINT_LAT_TOTAL ? "lat" : "clat");
		*scale = 1e-6;
	}
	return o;
}

static void read_printed(const json_t *root, const struct perf_point *p,
			 struct fio_printed *out)
{
	static const char *const keys[LAT_PCTS] = {
		"50.000000", "90.000000", "95.000000", "99.000000", "99.900000",
	};
	const json_t *jobs = json_object_get(root, "jobs");

	*out = (struct fio_printed){ .min_s = INFINITY };
	for (int k = 0; k < LAT_PCTS; k++) {
		out->pct_lo[k] = INFINITY;
		out->pct_hi[k] = 0;
	}
	for (size_t i = 0; i < json_array_size(jobs); i++) {
		double scale;
		const json_t *o = printed_object(json_object_get(json_array_get(jobs, i),
							       io_op_name(p->op)), p->lat_kind, &scale);
		const json_t *pct = json_object_get(o, "percentile");

		if (!pct)
			continue;
		out->entries++;
		for (int k = 0; k < LAT_PCTS; k++) {
			double v = json_number_value(json_object_get(pct, keys[k])) * scale;

			out->pct_lo[k] = fmin(out->pct_lo[k], v);
			out->pct_hi[k] = fmax(out->pct_hi[k], v);
		}
		out->min_s = fmin(out->min_s, json_number_value(json_object_get(o, "min")) * scale);
		out->max_s = fmax(out->max_s, json_number_value(json_object_get(o, "max")) * scale);
	}
}

/*
 * The distribution: rising, ending at 1, its ends within fio's bucket
 * resolution (1/64) of the min and max fio measured, and consistent with
 * the percentiles (a step below the p-th percentile holds less than p %
 * of the IOs, one at or above it at least p %).
 */
static void check_cdf(struct check_state *st, const char *file, const struct perf_point *p,
		      const struct fio_printed *f)
{
	const struct lat_cdf *c = &p->cdf;

	CHECK(st, c->n >= 2 && lat_cdf_valid(c), "%s: a CDF of %u steps, valid %d", file, c->n,
	      lat_cdf_valid(c));
	if (c->n < 2)
		return;
	CHECK(st, c->frac[c->n - 1] == 1, "%s: the CDF ends at %g", file, c->frac[c->n - 1]);
	CHECK(st, fabs(c->lat_s[c->n - 1] - f->max_s) <= f->max_s / 64,
	      "%s: last step %.9f s, fio's max %.9f s", file, c->lat_s[c->n - 1], f->max_s);
	CHECK(st, fabs(c->lat_s[0] - f->min_s) <= f->min_s / 64 + 1e-9,
	      "%s: first step %.9f s, fio's min %.9f s", file, c->lat_s[0], f->min_s);
	for (int k = 0; k < LAT_PCTS; k++)
		for (unsigned m = 0; m < c->n; m++)
			CHECK(st, c->lat_s[m] < p->clat_pct_s[k]
				  ? c->frac[m] < lat_pct_levels[k] / 100
				  : c->frac[m] >= lat_pct_levels[k] / 100 - 1e-12,
			      "%s: step %u (%.9f s, %g) against p%g %.9f s", file, m, c->lat_s[m],
			      c->frac[m], lat_pct_levels[k], p->clat_pct_s[k]);
}

/*
 * json+: the percentiles from the bins are the ones fio printed (fio takes
 * them so too) — for the clones' merged bins, between those of the entries —
 * and the distribution is sound.
 */
static void check_bins(struct check_state *st, const char *dir)
{
	for (size_t i = 0; i < sizeof(jsonplus_files) / sizeof(jsonplus_files[0]); i++) {
		const char *file = jsonplus_files[i];
		char path[PATH_MAX];
		struct fio_printed f;
		struct point_set ps;
		struct errmsg err;
		json_error_t jerr;
		json_t *root;

		snprintf(path, sizeof(path), "%s/%s", dir, file);
		root = json_load_file(path, JSON_DISABLE_EOF_CHECK, &jerr);
		CHECK(st, root != NULL, "%s: %s", path, jerr.text);
		point_set_init(&ps);
		if (!root || import_points_file(&ps, path, &err) || ps.len != 1) {
			CHECK(st, 0, "%s: one point expected: %s", file, root ? err.text : "");
			json_decref(root);
			point_set_release(&ps);
			continue;
		}
		read_printed(root, &ps.points[0], &f);
		CHECK(st, f.entries >= 1, "%s: fio printed percentiles", file);
		CHECK(st, (ps.points[0].lat_kind == POINT_LAT_TOTAL) == !!strstr(file, "total"),
		      "%s: latency kind %d", file, ps.points[0].lat_kind);
		for (int k = 0; k < LAT_PCTS; k++)
			CHECK(st, ps.points[0].clat_pct_s[k] >= f.pct_lo[k] - 1e-12 &&
				  ps.points[0].clat_pct_s[k] <= f.pct_hi[k] + 1e-12,
			      "%s: p%g: bins give %.9f s, fio printed %.9f .. %.9f s", file,
			      lat_pct_levels[k], ps.points[0].clat_pct_s[k], f.pct_lo[k], f.pct_hi[k]);
		check_cdf(st, file, &ps.points[0], &f);
		point_set_release(&ps);
		json_decref(root);
	}
}

/* Every .json and .txt under dir (and its subfolders) is in the manifest. */
static unsigned check_listed(struct check_state *st, const char *dir, const char *sub,
			     const struct row *rows, size_t nrows, unsigned *imported)
{
	char path[PATH_MAX];
	unsigned n = 0;
	struct dirent *de;

	if (snprintf(path, sizeof(path), "%s%s%s", dir, *sub ? "/" : "", sub) >= (int)sizeof(path))
		return 0;
	DIR *d;

	d = opendir(path);
	CHECK(st, d != NULL, "cannot open %s", path);
	while (d && (de = readdir(d))) {
		char rel[PATH_MAX / 2];
		size_t len = strlen(de->d_name);
		bool listed = false;

		if (de->d_name[0] == '.' ||
		    snprintf(rel, sizeof(rel), "%s%s%s", sub, *sub ? "/" : "", de->d_name) >=
		    (int)sizeof(rel))
			continue;
		if (de->d_type == DT_DIR) {
			n += check_listed(st, dir, rel, rows, nrows, imported);
			continue;
		}
		if (len < 5 || (strcmp(de->d_name + len - 5, ".json") &&
				strcmp(de->d_name + len - 4, ".txt")))
			continue;
		for (size_t i = 0; i < nrows && !listed; i++)
			listed = !strcmp(rows[i].file, rel);
		CHECK(st, listed, "%s is not in expected.csv", rel);
		*imported += check_file(st, dir, rel, rows, nrows);
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

int main(void)
{
	struct check_state st = { 0 };
	char dir[PATH_MAX / 2], manifest[PATH_MAX];
	const char *file = __FILE__;
	const char *tail = strstr(file, "tests/unit/test_fio_corpus.c");
	struct row *rows = calloc(MAX_ROWS, sizeof(*rows));
	unsigned files, imported = 0;
	size_t nrows;

	snprintf(dir, sizeof(dir), "%.*stests/e2e/data/fio", tail ? (int)(tail - file) : 0, file);
	snprintf(manifest, sizeof(manifest), "%s/expected.csv", dir);
	if (!rows)
		return 1;
	nrows = read_manifest(&st, manifest, rows);
	CHECK(&st, nrows > 30, "expected.csv has %zu rows", nrows);
	files = check_listed(&st, dir, "", rows, nrows, &imported);
	CHECK(&st, files >= 28 && imported == files, "%u of %u files imported", imported, files);
	check_bins(&st, dir);
	printf("fio corpus: %u of %u files imported\n", imported, files);
	free(rows);
	return check_exit(&st, "fio_corpus");
}
