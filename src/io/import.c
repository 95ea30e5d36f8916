/*
 * import.c — the entry points of import.h: reading the file, telling JSON
 * from CSV, parsing the JSON and telling iomodel's from fio's. The readers
 * themselves are in import_iomodel.c, import_fio.c and import_csv.c.
 */
#include "import.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "util/input_file.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static unsigned count_lines(const char *text, size_t len)
{
	unsigned n = 0;

	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	return n;
}

/*
 * Where the JSON starts: at the first non-blank character when it is '{',
 * else at the first line that starts with '{' (fio prints notes before its
 * JSON). Returns false for text that is no JSON (CSV).
 */
static bool find_json(const char *text, size_t len, size_t *start)
{
	size_t i = 0;

	while (i < len && is_blank(text[i]))
		i++;
	if (i < len && text[i] == '{') {
		*start = i;
		return true;
	}
	for (; i < len; i++) {
		if (text[i] == '{' && (i == 0 || text[i - 1] == '\n')) {
			*start = i;
			return true;
		}
	}
	return false;
}

static int import_json_root(struct point_set *ps, const char *name, const json_t *root,
			    struct import_warnings *warn, bool *is_fio, struct errmsg *err)
{
	const char *schema = json_string_value(json_object_get(root, "schema"));

	*is_fio = false;
	if (schema && !strncmp(schema, "iomodel.", 8))
		return import_iomodel(ps, name, root, err);
	if (json_object_get(root, "fio version") || json_object_get(root, "jobs")) {
		*is_fio = true;
		return import_fio(ps, name, root, warn, err);
	}
	if (schema)
		return errmsg_set(err, -EINVAL, "%s: JSON from neither iomodel nor fio (schema '%s')",
				  name, schema);
	return errmsg_set(err, -EINVAL,
			  "%s: JSON from neither iomodel nor fio (no 'schema' or 'fio version' key)",
			  name);
}

/*
 * Parse the JSON at text[start..len) and import it. Text after the JSON
 * value is allowed only in fio's output (its messages may follow).
 */
static int import_json(struct point_set *ps, const char *name, const char *text, size_t len,
		       size_t start, struct import_warnings *warn, struct errmsg *err)
{
	unsigned skipped = count_lines(text, start);
	json_error_t jerr;
	json_t *root;
	size_t end;
	bool is_fio;
	int ret;

	root = json_loadb(text + start, len - start, JSON_DISABLE_EOF_CHECK, &jerr);
	if (!root)
		return errmsg_set(err, -EINVAL, "%s:%u: invalid JSON: %s", name,
				  skipped + (unsigned)(jerr.line > 0 ? jerr.line : 1), jerr.text);
	end = start + (size_t)jerr.position;
	ret = import_json_root(ps, name, root, warn, &is_fio, err);
	json_decref(root);
	if (ret || is_fio)
		return ret;
	while (end < len && is_blank(text[end]))
		end++;
	if (end < len)
		return errmsg_set(err, -EINVAL, "%s:%u: invalid JSON: text after the end of the JSON",
				  name, count_lines(text, end) + 1);
	return 0;
}

#define WARNINGS_CAP (1u << 20)

void import_warnings_init(struct import_warnings *w)
{
	dynbuf_init(&w->lines, WARNINGS_CAP);
	w->skipped = 0;
}

void import_warnings_release(struct import_warnings *w)
{
	dynbuf_release(&w->lines);
	w->skipped = 0;
}

int import_warnings_add(struct import_warnings *w, const char *line)
{
	size_t n = strlen(line);
	int ret;

	if (dynbuf_len(&w->lines) + n + 1 > w->lines.cap)
		return 0;		/* past the cap: counted, not kept */
	ret = dynbuf_add(&w->lines, line, n);
	return ret ? ret : dynbuf_add(&w->lines, "\n", 1);
}

/* "f.json: no measurements found", with the first reason a job was skipped. */
static int no_measurements(const char *name, const struct import_warnings *w, size_t from,
			   struct errmsg *err)
{
	const char *line = dynbuf_ptr(&w->lines) + from;
	size_t n = strlen(name);

	if (!strncmp(line, name, n) && !strncmp(line + n, ": ", 2))
		line += n + 2;
	if (!w->skipped)
		return errmsg_set(err, -EINVAL, "%s: no measurements found", name);
	return errmsg_set(err, -EINVAL, "%s: no measurements found (%.*s)", name,
			  (int)strcspn(line, "\n"), line);
}

int import_points_text_warn(struct point_set *ps, const char *name, const char *text,
			    size_t len, struct import_warnings *warn, struct errmsg *err)
{
	struct import_warnings local;
	struct import_warnings *w = warn ? warn : &local;
	size_t old_len = ps->len, old_lines;
	unsigned old_skipped;
	size_t start;
	int ret;

	if (!warn)
		import_warnings_init(&local);
	old_skipped = w->skipped;
	old_lines = dynbuf_len(&w->lines);

	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {	/* UTF-8 byte order mark */
		text += 3;
		len -= 3;
	}
	if (find_json(text, len, &start))
		ret = import_json(ps, name, text, len, start, w, err);
	else
		ret = import_csv(ps, name, text, len, err);
	if (ret == -ENOMEM)
		errmsg_set(err, ret, "%s: out of memory", name);
	/* all jobs skipped: the warnings say so, unless nobody takes them */
	if (!ret && ps->len == old_len && (!warn || w->skipped == old_skipped))
		ret = no_measurements(name, w, old_lines, err);
	if (ret)
		ps->len = old_len;
	if (!warn)
		import_warnings_release(&local);
	return ret;
}

int import_points_text(struct point_set *ps, const char *name, const char *text,
		       size_t len, struct errmsg *err)
{
	return import_points_text_warn(ps, name, text, len, NULL, err);
}

int import_points_file_warn(struct point_set *ps, const char *path,
			    struct import_warnings *warn, struct errmsg *err)
{
	char *text = NULL;
	size_t len = 0;
	int ret = input_file_read(path, &text, &len, err);

	if (ret)
		return ret;
	ret = import_points_text_warn(ps, path, text, len, warn, err);
	free(text);
	return ret;
}

int import_points_file(struct point_set *ps, const char *path, struct errmsg *err)
{
	return import_points_file_warn(ps, path, NULL, err);
}
