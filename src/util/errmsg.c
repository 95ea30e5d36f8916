/*
 * errmsg.c — formatting of the one-line error messages described in
 * errmsg.h. Whatever the arguments hold (a path, a value from an input file,
 * an option), the message comes out as one line of printable ASCII: control
 * bytes, DEL and bytes of 0x80 and above are written as \n, \t, \xNN.
 */
#include "errmsg.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

size_t errmsg_escape(char *out, size_t size, const char *in)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (!size)
		return 0;
	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		char esc[5];
		size_t n;

		if (*p >= 0x20 && *p < 0x7f) {
			esc[0] = (char)*p;
			n = 1;
		} else if (*p == '\n' || *p == '\t' || *p == '\r') {
			esc[0] = '\\';
			esc[1] = *p == '\n' ? 'n' : *p == '\t' ? 't' : 'r';
			n = 2;
		} else {
			esc[0] = '\\';
			esc[1] = 'x';
			esc[2] = hex[*p >> 4];
			esc[3] = hex[*p & 15];
			n = 4;
		}
		if (o + n >= size)
			break;
		memcpy(out + o, esc, n);
		o += n;
	}
	out[o] = '\0';
	return o;
}

int errmsg_set(struct errmsg *e, int code, const char *fmt, ...)
{
	char raw[sizeof(e->text)];
	va_list ap;

	if (!e)
		return code;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	errmsg_escape(e->text, sizeof(e->text), raw);
	return code;
}
