/*
 * fs_kind.h — which filesystems a target may live on. Kernel interfaces
 * (procfs, sysfs, debugfs, cgroup...) show files that hold no data: a
 * "write" there changes a kernel setting, so they are never laid out, read
 * or written. /dev holds device nodes: a file created there by a typo'd
 * path would be a regular file in memory, so nothing is created in it.
 * Both are decided on an open descriptor, never on a path.
 */
#ifndef IOMODEL_FS_KIND_H
#define IOMODEL_FS_KIND_H

#include <stdbool.h>

/*
 * The name of the kernel-interface filesystem ("procfs", "sysfs"...) that
 * holds the open file or directory `fd` (fstatfs f_type), or NULL when it
 * is an ordinary filesystem. A failing fstatfs counts as "unknown"
 * (returned as that name), so the caller refuses.
 */
const char *fs_kernel_interface(int fd);

/*
 * Is the open directory `dirfd` on the filesystem of /dev (a devtmpfs
 * anywhere, or whatever is mounted at /dev, such as a container's tmpfs)?
 */
bool fs_is_device_dir(int dirfd);

#endif
