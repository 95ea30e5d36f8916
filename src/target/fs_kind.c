/*
 * fs_kind.c — kernel-interface filesystems by their statfs magic, and the
 * filesystem of /dev (see fs_kind.h).
 */
#include "target/fs_kind.h"

#include <libmount/libmount.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>

/* magics missing from some linux/magic.h */
#define CONFIGFS_MAGIC_ID	0x62656570
#define FUSECTL_MAGIC_ID	0x65735543
#define MQUEUE_MAGIC_ID		0x19800202
#define RPC_PIPEFS_MAGIC_ID	0x67596969
#define NFSD_MAGIC_ID		0x6e667364

static const struct {
	unsigned long magic;
	const char *name;
} kernel_interfaces[] = {
	{ PROC_SUPER_MAGIC, "procfs" },
	{ SYSFS_MAGIC, "sysfs" },
	{ DEBUGFS_MAGIC, "debugfs" },
	{ TRACEFS_MAGIC, "tracefs" },
	{ SECURITYFS_MAGIC, "securityfs" },
	{ CGROUP_SUPER_MAGIC, "cgroup" },
	{ CGROUP2_SUPER_MAGIC, "cgroup2" },
	{ CONFIGFS_MAGIC_ID, "configfs" },
	{ EFIVARFS_MAGIC, "efivarfs" },
	{ PSTOREFS_MAGIC, "pstore" },
	{ DEVPTS_SUPER_MAGIC, "devpts" },
	{ SELINUX_MAGIC, "selinuxfs" },
	{ SMACK_MAGIC, "smackfs" },
	{ NSFS_MAGIC, "nsfs" },
	{ BINFMTFS_MAGIC, "binfmt_misc" },
	{ BPF_FS_MAGIC, "bpf" },
	{ FUSECTL_MAGIC_ID, "fusectl" },
	{ MQUEUE_MAGIC_ID, "mqueue" },
	{ RPC_PIPEFS_MAGIC_ID, "rpc_pipefs" },
	{ NFSD_MAGIC_ID, "nfsd" },
	{ HUGETLBFS_MAGIC, "hugetlbfs" },
	{ AUTOFS_SUPER_MAGIC, "autofs" },
	{ USBDEVICE_SUPER_MAGIC, "usbdevfs" },
};

const char *fs_kernel_interface(int fd)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs) != 0)
		return "unknown";
	for (size_t i = 0; i < sizeof(kernel_interfaces) / sizeof(kernel_interfaces[0]); i++) {
		if ((unsigned long)sfs.f_type == kernel_interfaces[i].magic)
			return kernel_interfaces[i].name;
	}
	return NULL;
}

/* Is the filesystem with device number `dev` a devtmpfs (the mount table says)? */
static bool is_devtmpfs(dev_t dev)
{
	struct libmnt_table *tb = mnt_new_table_from_file("/proc/self/mountinfo");
	struct libmnt_fs *fs;
	bool yes = false;

	if (!tb)
		return false;
	fs = mnt_table_find_devno(tb, dev, MNT_ITER_BACKWARD);
	if (fs && mnt_fs_get_fstype(fs))
		yes = strcmp(mnt_fs_get_fstype(fs), "devtmpfs") == 0;
	mnt_unref_table(tb);
	return yes;
}

bool fs_is_device_dir(int dirfd)
{
	struct stat dir, dev_dir, root;

	if (fstat(dirfd, &dir) != 0)
		return true;	/* cannot tell: refuse */
	/* a /dev that is a filesystem of its own (devtmpfs, a container's tmpfs) */
	if (stat("/dev", &dev_dir) == 0 && stat("/", &root) == 0 &&
	    dev_dir.st_dev != root.st_dev && dev_dir.st_dev == dir.st_dev)
		return true;
	return is_devtmpfs(dir.st_dev);
}
