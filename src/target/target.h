/*
 * target.h — what a job measures: a regular file, a block device or the null
 * target. This module opens and sizes the target and is the one place that
 * decides whether data may be written to it.
 *
 * Safety rules (each refusal returns before anything on disk changes):
 *  - "null" has no storage; every IO completes at once (fd is -1).
 *  - A missing file is created (O_EXCL) with `size` bytes and laid out with
 *    real, incompressible data, so reads measure the medium and not holes.
 *    It is removed by target_close() unless `keep` was asked for.
 *  - An existing non-empty file may be read freely; writing to it needs
 *    `destroy_data`. It is never removed.
 *  - An existing empty file holds nothing to destroy: it is laid out like a
 *    missing file (to `size` or the default), but never removed.
 *  - A block device that is mounted (itself or a partition), used as swap or
 *    has holders is always refused. Writing to any block device needs
 *    `destroy_data`; without it, a device whose content carries a filesystem
 *    or partition-table signature (libblkid) is refused with a message that
 *    names the signature.
 *  - Anything else (directory, character device, fifo) is refused.
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
	/* sim: only: the most memory a simulated drive's state may take;
	 * 0 = measure_sim_memory_default() (suite/measure.h) */
	uint64_t sim_memory;
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
	bool created;		/* this tool created the file */
	bool keep;
};

/*
 * Open the target described by `req`, applying the safety rules above.
 * Returns 0, or a negative errno with `err` set to one line naming the path:
 *   -EPERM   writing needs `destroy_data` (existing file, block device)
 *   -EBUSY   block device mounted, swap, held, or claimed exclusively
 *   -EINVAL  not a file or block device, smaller than `size`, or no O_DIRECT
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
 * Close the target; remove the file if this tool created it and !keep.
 * Leaves `t` closed (fd -1, path NULL), so a second call does nothing.
 */
void target_close(struct target *t);

#endif
