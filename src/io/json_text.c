/* json_text.c — outside text as a JSON string that can be written (json_text.h). */
#include "json_text.h"

#include <stdlib.h>
#include <string.h>

#include "util/errmsg.h"

json_t *json_text(const char *text)
{
	json_t *s = json_string(text ? text : "");
	size_t size;
	char *escaped;

	if (s)
		return s;
	size = 4 * strlen(text) + 1;	/* every byte may become \xNN */
	escaped = malloc(size);
	if (!escaped)
		return NULL;
	errmsg_escape(escaped, size, text);
	s = json_string(escaped);
	free(escaped);
	return s;
}
