/*
 * blockdev.h — the checks that decide whether a block device may be used at
 * all, and what its content looks like. target.c calls these before it opens
 * a device; nothing here opens a device for writing or changes it.
 *
 * "In use" means one of: the device or one of its partitions is mounted
 * (/proc/self/mountinfo), is active swap (/proc/swaps), or has holders such
 * as device-mapper, md or bcache (/sys/dev/block/MAJ:MIN/holders). A device
 * in use is refused even for reads: its content changes under the benchmark
 * and, for writes, the kernel's own structures would be destroyed.
 */
#ifndef IOMODEL_BLOCKDEV_H
#define IOMODEL_BLOCKDEV_H

#include <stddef.h>
#include <sys/types.h>

#include "util/errmsg.h"

/*
 * Return 0 if the block device `rdev` (named `path` in messages), and every
 * partition of it, is neither mounted, nor swap, nor held by another device.
 * Otherwise return -EBUSY with `err` saying why ("refusing '/dev/loop0':
 * mounted at /mnt"), or another negative errno if the system tables could
 * not be read (the device is then refused as well: we could not prove it
 * free).
 */
int blockdev_check_in_use(dev_t rdev, const char *path, struct errmsg *err);

/*
 * Probe `path` with libblkid for a filesystem, RAID, swap or partition-table
 * signature. Return 1 and copy a short description into `type` (at most
 * `len` bytes, NUL-terminated: "ext4", "linux_raid_member", "gpt partition
 * table", "more than one") if one is found; 0 if the device looks blank;
 * a negative errno if it could not be probed.
 */
int blockdev_signature(const char *path, char *type, size_t len);

#endif
