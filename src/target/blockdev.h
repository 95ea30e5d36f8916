/*
 * blockdev.h — the checks that decide whether a block device (or a file a
 * loop device stands on) may be used at all, and what a device's content
 * looks like. target.c calls these before it opens a target for IO; nothing
 * here opens a device for writing or changes it.
 *
 * "In use" means that the device, or any device in its stack, is mounted
 * (the mount table, read with libmount), is active swap (/proc/swaps, through
 * libmount), or is held by a device not in the stack walked so far
 * (device-mapper, md, bcache: /sys/dev/block/MAJ:MIN/holders). The stack of
 * a device is walked through sysfs, in every direction writes can travel:
 *   - its partitions;
 *   - below it: the devices it is made of (slaves), and, for a loop device,
 *     its backing file (loop/backing_file): a backing block device is walked
 *     in turn, a backing regular file must not be a swap file nor back
 *     another loop device in use;
 *   - above it: its holders, and the loop devices whose backing file is it;
 *   - for a partition, what is below its whole disk.
 * A device in use is refused even for reads: its content changes under the
 * benchmark and, for writes, the kernel's own structures would be destroyed.
 * The walk visits at most 64 devices; a larger stack is refused.
 */
#ifndef IOMODEL_BLOCKDEV_H
#define IOMODEL_BLOCKDEV_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "util/errmsg.h"

/*
 * Return 0 if neither the block device `rdev` (named `path` in messages) nor
 * any device in its stack is in use. Otherwise return -EBUSY with `err`
 * saying why ("refusing '/dev/loop1': loop0 below it is mounted at /mnt"),
 * or another negative errno if the system tables could not be read (the
 * device is then refused as well: we could not prove it free).
 */
int blockdev_check_in_use(dev_t rdev, const char *path, struct errmsg *err);

/*
 * Where the checks read the system's tables. blockdev_check_in_use() and
 * blockdev_check_file_in_use() use the system's own ("/sys",
 * "/proc/self/mountinfo", "/proc/swaps"); a test can point them at a fake
 * sysfs tree and tables, to cover stacks (device-mapper, md) the machine
 * cannot build.
 */
struct blockdev_sources {
	const char *sysfs;
	const char *mountinfo;
	const char *swaps;
};

/* blockdev_check_in_use() with the tables read from `src`. */
int blockdev_check_in_use_from(const struct blockdev_sources *src, dev_t rdev,
			       const char *path, struct errmsg *err);

/*
 * The same for the regular file `st` (named `path`): return -EBUSY if it is
 * an active swap file or the backing file of a loop device in use, else 0.
 */
int blockdev_check_file_in_use(const struct stat *st, const char *path, struct errmsg *err);

/*
 * Probe the open block device `fd` with libblkid for a filesystem, RAID,
 * swap or partition-table signature. Return 1 and copy a short description
 * into `type` (at most `len` bytes, NUL-terminated: "ext4",
 * "linux_raid_member", "gpt partition table", "ambivalent") if one is
 * found; 0 if the device looks blank; a negative errno if it could not be
 * probed.
 */
int blockdev_signature(int fd, char *type, size_t len);

#endif
