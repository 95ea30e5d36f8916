/*
 * errmsg.h — a one-line error message carried from core code to the CLI.
 *
 * Core modules never print. When they fail they return a negative errno and,
 * where the caller passed a struct errmsg, fill it with one lowercase line
 * that says what is wrong and where ("refusing '/dev/loop0': mounted at /mnt").
 * errmsg_set() escapes the formatted text, so a message is always one line of
 * printable ASCII whatever its arguments carried.
 * Only cli/ prints it, prefixed with "iomodel: ".
 */
#ifndef IOMODEL_ERRMSG_H
#define IOMODEL_ERRMSG_H

#include <stddef.h>

struct errmsg {
	char text[512];
};

/*
 * Copy `in` to `out` (at most `size` bytes with the NUL) as printable ASCII:
 * control bytes, DEL and bytes >= 0x80 become \n, \t, \r or \xNN. Returns the
 * length written. Use it for anything echoed that errmsg_set() does not carry.
 */
size_t errmsg_escape(char *out, size_t size, const char *in);

/*
 * Format a message into `e` (if not NULL) and return `code` unchanged, so a
 * failing function can end with `return errmsg_set(e, -EINVAL, "...", ...);`.
 */
int errmsg_set(struct errmsg *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
