/* json_file.c — reading a JSON input file (json_file.h). */
#include "io/json_file.h"

#include <errno.h>
#include <stdlib.h>

#include "util/input_file.h"

int json_file_load(const char *path, json_t **root, struct errmsg *err)
{
	json_error_t jerr;
	char *text;
	size_t len;
	int ret = input_file_read(path, &text, &len, err);

	*root = NULL;
	if (ret)
		return ret;
	*root = json_loadb(text, len, 0, &jerr);
	free(text);
	if (!*root)
		return errmsg_set(err, -EBADMSG, "%s:%d: %s", path, jerr.line, jerr.text);
	return 0;
}
