/*
 * target.h — what a job measures: a regular file, a block device or the null
 * target. This module opens and sizes the target and is the one place that
 * decides whether data may be written to it.
 *
 * Safety rules (each refusal returns before anything on disk changes):
 *  - "null" has no storage; every IO completes at once (fd is -1).
 *  - The path is opened once (O_PATH, following symbolic links for an
 *    existing target) and every decision below is taken on that descriptor
 *    (fstat, fstatfs, the scratch mark); the descriptor the run uses is
 *    reopened from it (/proc/self/fd), so it is the same inode whatever
 *    happens to the name meanwhile. That one descriptor serves the layout
 *    and the whole run (O_DIRECT is switched on with fcntl afterwards).
 *  - A missing file is created in its directory (opened once with
 *    O_DIRECTORY) with O_CREAT|O_EXCL|O_NOFOLLOW, marked as iomodel's
 *    scratch file (scratch.h) and laid out with `size` bytes of real,
 *    incompressible data, so reads measure the medium and not holes. It is
 *    removed by target_close() unless `keep`. Nothing is created in a
 *    directory on a kernel-interface filesystem or on /dev's (fs_kind.h).
 *  - An existing scratch file of iomodel (left by a killed run, or kept):
 *    one marked complete is reused, read or written without `destroy_data`
 *    (re-laid out first if smaller than `size`), and left in place; one
 *    marked laying-out is laid out again, then owned by the run like a new
 *    one (removed unless `keep`). It is never measured half-written.
 *  - An existing unmarked non-empty file may be read freely; writing to it
 *    needs `destroy_data`. It is never removed.
 *  - An existing unmarked empty file is not free space (it may be a lock
 *    file, a placeholder, a mount point's file): laying it out needs
 *    `destroy_data`. It is never removed.
 *  - A file on a kernel-interface filesystem (procfs, sysfs, debugfs...), a
 *    file in use as swap or as the backing file of a loop device in use is
 *    refused, even for reads and with `destroy_data`.
 *  - A block device in use (blockdev.h: mounted, swap, held, or stacked on
 *    or under a device in use) is always refused. Writing to any block device
 *    needs `destroy_data`; without it, a device whose content carries a
 *    filesystem or partition-table signature (libblkid) is refused with a
 *    message that names the signature.
 *  - Anything else (directory, character device, fifo, socket) is refused
 *    without being opened for IO.
 *
 * Layout writes 1 MiB chunks and checks `*stop` between them; when set, the
 * partial file is removed (a user's empty file is truncated back to empty).
 */
#ifndef IOMODEL_TARGET_H
#define IOMODEL_TARGET_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/errmsg.h"

enum target_kind {
	TARGET_NULL,
	TARGET_FILE,
	TARGET_BLOCK,
	TARGET_SIM,	/* a simulated drive; never opened here (see sim/spec.h) */
};

struct target_request {
	const char *path;	/* "null" or a filesystem path */
	/*
	 * bytes wanted; 0 = not given: a new file gets TARGET_DEFAULT_FILE_SIZE,
	 * an existing file or device is used whole. For an existing target a
	 * smaller value limits the bytes used and a larger one is refused.
	 */
	uint64_t size;
	bool writes;		/* the workload writes */
	bool direct;		/* open with O_DIRECT */
	bool destroy_data;	/* the user allows overwriting existing data */
	bool keep;		/* keep a file this tool created */
	/* set asynchronously by a signal handler; layout stops early when
	 * set. May be NULL. */
	const volatile sig_atomic_t *stop;
};

/* Default size of a file the tool creates when no --size is given. */
#define TARGET_DEFAULT_FILE_SIZE (1ULL << 30)

struct target {
	enum target_kind kind;
	int fd;			/* -1 for the null target */
	char *path;		/* owned copy of the request path */
	uint64_t size;		/* usable bytes from offset 0 */
	uint32_t dio_align;	/* smallest size/offset unit O_DIRECT accepts */
	/*
	 * an iomodel scratch file made by this run (or a half-written one it
	 * laid out again): removed by target_close() unless keep
	 */
	bool created;
	bool keep;
	int dirfd;		/* the directory holding a file target; -1 otherwise */
	char *name;		/* the file's name in dirfd (owned); NULL otherwise */
};

/*
 * Open the target described by `req`, applying the safety rules above.
 * Returns 0, or a negative errno with `err` set to one line naming the path:
 *   -EPERM   writing needs `destroy_data` (existing file, existing empty
 *            file, block device)
 *   -EBUSY   block device in use or claimed exclusively; file in use as
 *            swap or loop backing
 *   -EINVAL  not a file or block device, on a kernel-interface filesystem,
 *            to be created in /dev, smaller than `size`, or no O_DIRECT
 *   -ESTALE  the path named another file by the time it was opened
 *   -ENOENT  the directory of a missing file does not exist (-ENOTDIR:
 *            is not a directory)
 *   -EINTR   `*stop` was set during the layout
 *   other    from the system (-ENOSPC, -EIO, -EACCES...)
 * On failure nothing has been created or changed, and `t` needs no
 * target_close().
 */
int target_open(struct target *t, const struct target_request *req,
		struct errmsg *err);

/*
 * Close the target; remove the file if this run created it (`created`),
 * !keep, and its name still names that file.
 * Leaves `t` closed (fd -1, path NULL), so a second call does nothing.
 */
void target_close(struct target *t);

#endif
