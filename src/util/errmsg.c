/* errmsg.c — formatting of the one-line error messages described in errmsg.h. */
#include "errmsg.h"

#include <stdarg.h>
#include <stdio.h>

int errmsg_set(struct errmsg *e, int code, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return code;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
	return code;
}
