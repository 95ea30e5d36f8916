/*
 * test_import_census.c — every file under tests/e2e/data and
 * $SHARED_DATA/fio-plot through the importer (io/import.h), counted by
 * kind (told from the content: fio 2 or 3, json, json+, normal,json,
 * --client; iomodel run or sweep; CSV; other files), with what became of
 * it: imported (points), skipped (every job skipped, the warning says why)
 * or refused (the error says why). Asserts that every results file of fio
 * or iomodel imports or is skipped with a reason (or holds no IO at all:
 * "no measurements found"), that the files which are
 * not results (README.md, scripts, job files, other tables) are refused
 * rather than read as points, and that every reason is one line. Prints
 * the census (the closing-note figure: `meson test -C build import_census -v`).
 * Exit 77 when the fio-plot data are absent, after checking the rest.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "check.h"
#include "io/import.h"
#include "util/input_file.h"

enum kind {
	FIO3_JSON, FIO3_JSONPLUS, FIO3_TEXT_JSON, FIO3_CLIENT, FIO2_JSON, FIO2_JSONPLUS,
	IOMODEL_RUN, IOMODEL_SWEEP, CSV, OTHER, KINDS
};

static const char *const kind_names[KINDS] = {
	"fio 3 json", "fio 3 json+", "fio 3 normal,json", "fio 3 --client", "fio 2 json",
	"fio 2 json+", "iomodel run", "iomodel sweep", "CSV", "not results (docs, scripts, "
	"job files, other tables)",
};

struct census {
	unsigned files[KINDS], imported[KINDS], skipped[KINDS], refused[KINDS];
	size_t points;
	char reasons[8192];	/* "file: reason" lines of the files not imported */
};

/* Whether a direction of some entry has histogram bins (json+). */
static bool has_bins(const json_t *jobs)
{
	static const char *const dirs[] = { "read", "write" };
	static const char *const lats[] = { "clat_ns", "lat_ns", "clat", "lat" };

	for (size_t i = 0; i < json_array_size(jobs); i++)
		for (int d = 0; d < 2; d++)
			for (int l = 0; l < 4; l++)
				if (json_object_get(json_object_get(json_object_get(
					json_array_get(jobs, i), dirs[d]), lats[l]), "bins"))
					return true;
	return false;
}

static enum kind json_kind(const json_t *root, bool text_before)
{
	const char *schema = json_string_value(json_object_get(root, "schema"));
	const char *version = json_string_value(json_object_get(root, "fio version"));
	const json_t *jobs = json_object_get(root, "jobs");
	bool fio2 = version && !strncmp(version, "fio-2.", 6);

	if (schema && !strcmp(schema, "iomodel.run/1"))
		return IOMODEL_RUN;
	if (schema && !strcmp(schema, "iomodel.sweep/1"))
		return IOMODEL_SWEEP;
	if (json_object_get(root, "client_stats"))
		return FIO3_CLIENT;
	if (!jobs)
		return OTHER;
	if (has_bins(jobs))
		return fio2 ? FIO2_JSONPLUS : FIO3_JSONPLUS;
	if (fio2)
		return FIO2_JSON;
	return text_before ? FIO3_TEXT_JSON : FIO3_JSON;
}

/* The kind of a file's text, told as the importer tells formats apart. */
static enum kind text_kind(const char *name, const char *text, size_t len)
{
	const char *brace = text;
	json_error_t jerr;
	json_t *root;
	enum kind k;

	while (brace < text + len && (brace = memchr(brace, '{', (size_t)(text + len - brace)))) {
		if (brace == text || brace[-1] == '\n')
			break;
		brace++;
	}
	if (!brace || brace >= text + len) {
		size_t n = strlen(name);

		return n > 4 && !strcmp(name + n - 4, ".csv") ? CSV : OTHER;
	}
	root = json_loadb(brace, (size_t)(text + len - brace), JSON_DISABLE_EOF_CHECK, &jerr);
	k = root ? json_kind(root, brace > text && strncmp(text, "note:", 5)) : OTHER;
	json_decref(root);
	return k;
}

static void add_reason(struct census *c, const char *path, const char *why)
{
	size_t used = strlen(c->reasons);
	const char *nl = strchr(why, '\n');
	int n = nl ? (int)(nl - why) : (int)strlen(why);

	if (!strncmp(why, path, strlen(path)))	/* messages start with the file */
		snprintf(c->reasons + used, sizeof(c->reasons) - used, "  %.*s\n", n, why);
	else
		snprintf(c->reasons + used, sizeof(c->reasons) - used, "  %s: %.*s\n", path, n, why);
}

static void census_file(struct check_state *st, struct census *c, const char *path)
{
	struct import_warnings w;
	struct point_set ps;
	struct errmsg err;
	char *text;
	size_t len;
	enum kind k;
	int ret;

	if (input_file_read(path, &text, &len, &err)) {
		CHECK(st, 0, "%s: %s", path, err.text);
		return;
	}
	k = text_kind(path, text, len);
	c->files[k]++;
	point_set_init(&ps);
	import_warnings_init(&w);
	ret = import_points_text_warn(&ps, path, text, len, &w, &err);
	if (!ret && ps.len) {
		c->imported[k]++;
		c->points += ps.len;
	} else if (!ret) {
		c->skipped[k]++;
		CHECK(st, w.skipped > 0 && w.lines.len > 0, "%s: nothing imported, no warning", path);
		add_reason(c, path, dynbuf_ptr(&w.lines));
	} else {
		c->refused[k]++;
		CHECK(st, !strchr(err.text, '\n') && err.text[0], "%s: reason '%s'", path, err.text);
		add_reason(c, path, err.text);
	}
	/* a results file is refused only when it holds no IO at all (fio rw=trim) */
	CHECK(st, k == OTHER || k == CSV || !ret || strstr(err.text, "no measurements found"),
	      "%s (%s) refused: %s", path, kind_names[k], err.text);
	CHECK(st, k != OTHER || ret, "%s is not results but imported %zu points", path, ps.len);
	point_set_release(&ps);
	import_warnings_release(&w);
	free(text);
}

/* Every regular file under `dir`, in name order; how many. */
static unsigned census_dir(struct check_state *st, struct census *c, const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	unsigned files = 0;

	CHECK(st, n >= 0, "cannot read %s", dir);
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];

		if (names[i]->d_name[0] != '.' &&
		    snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name) < (int)sizeof(path)) {
			if (names[i]->d_type == DT_DIR) {
				files += census_dir(st, c, path);
			} else if (names[i]->d_type == DT_REG) {
				census_file(st, c, path);
				files++;
			}
		}
		free(names[i]);
	}
	free(n >= 0 ? names : NULL);
	return files;
}

static void print_census(const struct census *c, unsigned files)
{
	unsigned imported = 0, skipped = 0, refused = 0;

	for (int k = 0; k < KINDS; k++) {
		imported += c->imported[k];
		skipped += c->skipped[k];
		refused += c->refused[k];
	}
	printf("%u files:", files);
	for (int k = 0; k < KINDS; k++)
		if (c->files[k])
			printf("%s %u %s", k ? "," : "", c->files[k], kind_names[k]);
	printf("\n%u imported (%zu points), %u skipped with a warning, %u refused with an "
	       "error\n", imported, c->points, skipped, refused);
	for (int k = 0; k < KINDS; k++)
		if (c->files[k])
			printf("  %-22.22s %3u files: %3u imported, %u skipped, %u refused\n",
			       kind_names[k], c->files[k], c->imported[k], c->skipped[k],
			       c->refused[k]);
	printf("not imported, and why:\n%s", c->reasons);
}

int main(void)
{
	struct check_state st = { 0 };
	struct census *c = calloc(1, sizeof(*c));
	const char *file = __FILE__, *tail = strstr(file, "tests/unit/test_import_census.c");
	const char *shared = getenv("SHARED_DATA");
	char data[PATH_MAX / 2], fio_plot[PATH_MAX];
	unsigned files, plot_files = 0;
	bool have_plot;

	if (!c)
		return 1;
	snprintf(data, sizeof(data), "%.*stests/e2e/data", tail ? (int)(tail - file) : 0, file);
	snprintf(fio_plot, sizeof(fio_plot), "%s/fio-plot",
		 shared && *shared ? shared : "../shared/data");
	DIR *plot = opendir(fio_plot);

	have_plot = plot != NULL;
	if (plot)
		closedir(plot);
	files = census_dir(&st, c, data);
	if (have_plot)
		files += plot_files = census_dir(&st, c, fio_plot);
	CHECK(&st, !have_plot || plot_files >= 268, "fio-plot: %u files", plot_files);
	print_census(c, files);
	free(c);
	if (!have_plot) {
		printf("SKIP: %s is absent: fio-plot not counted\n", fio_plot);
		return st.failed ? check_exit(&st, "import_census") : 77;
	}
	return check_exit(&st, "import_census");
}
