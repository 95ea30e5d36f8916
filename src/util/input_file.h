/*
 * input_file.h — reading a whole input file (results, models, CSV, INI)
 * safely: only a regular file, opened without blocking (a FIFO cannot hang
 * the open), and never more than a documented cap, so /dev/zero, a FIFO or a
 * runaway file is one error line, not a hang or an exhausted memory.
 */
#ifndef IOMODEL_INPUT_FILE_H
#define IOMODEL_INPUT_FILE_H

#include <stddef.h>

#include "util/errmsg.h"

/* The largest input file read: 256 MiB (documented in the man page). */
#define INPUT_FILE_MAX ((size_t)256 << 20)

/*
 * Read all of `path` into a malloc'ed NUL-terminated buffer (`*text`, the
 * caller frees it; `*len` bytes without the NUL). Refuses anything but a
 * regular file, and files over INPUT_FILE_MAX. 0 or -errno with `err` set
 * ("'PATH': not a regular file" and the like; the path is escaped).
 */
int input_file_read(const char *path, char **text, size_t *len, struct errmsg *err);

/* Open `path` for reading as input_file_read() would check it: an fd or -errno. */
int input_file_open(const char *path, struct errmsg *err);

#endif
