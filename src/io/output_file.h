/*
 * output_file.h — opening the file a command writes a result into (a model
 * with -o, --fio-job's job file, replay's --log): only a regular file on an
 * ordinary filesystem, new or replaced, so that an output path pointing at
 * a FIFO (an open that would hang), a device (a disk's first bytes), a
 * socket, or a kernel setting (procfs, sysfs...) is one error line and is
 * never written. The checks are made before anything is truncated, on the
 * opened descriptor; a file created by the call under /dev is removed
 * again (a typo'd device path).
 */
#ifndef IOMODEL_OUTPUT_FILE_H
#define IOMODEL_OUTPUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "util/errmsg.h"

/*
 * Open `path` for writing from its start (an existing file is emptied only
 * once it passed the checks); *created (if not NULL) tells whether this call
 * made the file, for a caller that removes it again when its command fails
 * before writing. A stream, or NULL with `err` set ("'PATH': not a regular
 * file", "cannot write 'PATH': ..."; the path escaped) and nothing changed
 * on disk.
 */
FILE *output_file_open(const char *path, bool *created, struct errmsg *err);

/*
 * Is `path` the file open as `fd` (the target of the run: same device and
 * inode; false for fd -1)? A result written there would overwrite the very
 * data the run reads, which was not offered for that.
 */
bool output_file_is_target(const char *path, int fd);

#endif
