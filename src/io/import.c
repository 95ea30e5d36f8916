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
			    bool *is_fio, struct errmsg *err)
{
	const char *schema = json_string_value(json_object_get(root, "schema"));

	*is_fio = false;
	if (schema && !strncmp(schema, "iomodel.", 8))
		return import_iomodel(ps, name, root, err);
	if (json_object_get(root, "fio version") || json_object_get(root, "jobs")) {
		*is_fio = true;
		return import_fio(ps, name, root, err);
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
		       size_t start, struct errmsg *err)
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
	ret = import_json_root(ps, name, root, &is_fio, err);
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

int import_points_text(struct point_set *ps, const char *name, const char *text,
		       size_t len, struct errmsg *err)
{
	size_t old_len = ps->len;
	size_t start;
	int ret;

	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {	/* UTF-8 byte order mark */
		text += 3;
		len -= 3;
	}
	if (find_json(text, len, &start))
		ret = import_json(ps, name, text, len, start, err);
	else
		ret = import_csv(ps, name, text, len, err);
	if (ret == -ENOMEM)
		errmsg_set(err, ret, "%s: out of memory", name);
	if (!ret && ps->len == old_len)
		ret = errmsg_set(err, -EINVAL, "%s: no measurements found", name);
	if (ret)
		ps->len = old_len;
	return ret;
}

int import_points_file(struct point_set *ps, const char *path, struct errmsg *err)
{
	char *text = NULL;
	size_t len = 0;
	int ret = input_file_read(path, &text, &len, err);

	if (ret)
		return ret;
	ret = import_points_text(ps, path, text, len, err);
	free(text);
	return ret;
}
