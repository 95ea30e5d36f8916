/*
 * blockdev.c — whether a block device is in use (mounted, swap, held by
 * another device) and whether it carries a signature: the checks declared in
 * blockdev.h. Reads /proc and /sys only; never opens a device for writing.
 */
#include "target/blockdev.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MOUNTINFO	"/proc/self/mountinfo"
#define SWAPS		"/proc/swaps"
#define SYS_DEV_BLOCK	"/sys/dev/block"
#define MAX_FIELDS	64

/* The device being checked: the one the user named, or one of its partitions. */
struct subject {
	dev_t dev;
	const char *path;	/* the user's path, for messages */
	const char *part;	/* partition name ("loop0p1"), NULL for the device */
};

/* Refuse `s` with -EBUSY: "refusing 'PATH': [its partition P is ]WHAT DETAIL". */
static int refuse(const struct subject *s, struct errmsg *err,
		  const char *what, const char *detail)
{
	if (s->part)
		return errmsg_set(err, -EBUSY, "refusing '%s': its partition %s is %s%s",
				  s->path, s->part, what, detail);
	return errmsg_set(err, -EBUSY, "refusing '%s': %s%s", s->path, what, detail);
}

/* Undo the octal escapes ("\040" for a space) of paths in /proc tables. */
static void unescape_octal(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* Split `line` in place at blanks; return the number of fields (at most `max`). */
static int split_fields(char *line, char **field, int max)
{
	int n = 0;
	char *p = line;

	while (n < max) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		field[n++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

/* Is `name` (escaped as in /proc tables) a block device node for `dev`? */
static bool node_is(char *name, dev_t dev)
{
	struct stat st;

	if (name[0] != '/')
		return false;
	unescape_octal(name);
	return stat(name, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev;
}

/*
 * Does this mountinfo line mount `dev`? Compares the MAJ:MIN field and, for
 * filesystems that report an anonymous device there (btrfs), the mount
 * source. Copies the mount point into `where`.
 */
static bool mountinfo_mounts(char *line, dev_t dev, char *where, size_t len)
{
	char *f[MAX_FIELDS];
	int n = split_fields(line, f, MAX_FIELDS);
	unsigned int maj, min;
	int sep = 6;

	if (n < 7 || sscanf(f[2], "%u:%u", &maj, &min) != 2)
		return false;
	while (sep < n && strcmp(f[sep], "-") != 0)
		sep++;
	if (makedev(maj, min) != dev && !(sep + 2 < n && node_is(f[sep + 2], dev)))
		return false;
	unescape_octal(f[4]);
	snprintf(where, len, "%s", f[4]);
	return true;
}

static int check_mounted(const struct subject *s, struct errmsg *err)
{
	char *line = NULL, where[256];
	size_t cap = 0;
	int ret = 0;
	FILE *f = fopen(MOUNTINFO, "re");

	if (!f) {
		int e = errno;

		return errmsg_set(err, -e, "cannot read %s to check whether '%s' is mounted: %s",
				  MOUNTINFO, s->path, strerror(e));
	}
	while (!ret && getline(&line, &cap, f) > 0) {
		if (mountinfo_mounts(line, s->dev, where, sizeof(where)))
			ret = refuse(s, err, "mounted at ", where);
	}
	free(line);
	fclose(f);
	return ret;
}

static int check_swap(const struct subject *s, struct errmsg *err)
{
	char *line = NULL, *field[1];
	size_t cap = 0;
	int ret = 0;
	FILE *f = fopen(SWAPS, "re");

	if (!f) {
		int e = errno;

		if (e == ENOENT)	/* kernel built without swap */
			return 0;
		return errmsg_set(err, -e, "cannot read %s to check whether '%s' is swap: %s",
				  SWAPS, s->path, strerror(e));
	}
	if (getline(&line, &cap, f) > 0) {	/* skip the header */
		while (!ret && getline(&line, &cap, f) > 0) {
			if (split_fields(line, field, 1) == 1 && node_is(field[0], s->dev))
				ret = refuse(s, err, "in use as swap", "");
		}
	}
	free(line);
	fclose(f);
	return ret;
}

static int check_holders(const struct subject *s, struct errmsg *err)
{
	char dir[64];
	struct dirent *de;
	int ret = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), SYS_DEV_BLOCK "/%u:%u/holders",
		 major(s->dev), minor(s->dev));
	d = opendir(dir);
	if (!d) {
		int e = errno;

		if (e == ENOENT)	/* no sysfs here, or no holders directory */
			return 0;
		return errmsg_set(err, -e, "cannot read %s to check whether '%s' is held: %s",
				  dir, s->path, strerror(e));
	}
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] != '.')
			ret = refuse(s, err, "held by ", de->d_name);
	}
	closedir(d);
	return ret;
}

static int check_one(const struct subject *s, struct errmsg *err)
{
	int ret = check_mounted(s, err);

	if (!ret)
		ret = check_swap(s, err);
	if (!ret)
		ret = check_holders(s, err);
	return ret;
}

/* If `name` under the sysfs directory `dir` is a partition, store its dev_t. */
static bool partition_dev(const char *dir, const char *name, dev_t *dev)
{
	char path[512];
	unsigned int maj, min;
	bool ok;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/partition", dir, name);
	if (access(path, F_OK) != 0)
		return false;
	snprintf(path, sizeof(path), "%s/%s/dev", dir, name);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fscanf(f, "%u:%u", &maj, &min) == 2;
	fclose(f);
	if (ok)
		*dev = makedev(maj, min);
	return ok;
}

/*
 * Check each partition: the subdirectories of /sys/dev/block/MAJ:MIN that
 * hold a "partition" file.
 */
static int check_partitions(const struct subject *whole, struct errmsg *err)
{
	char dir[64];
	struct dirent *de;
	int ret = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), SYS_DEV_BLOCK "/%u:%u",
		 major(whole->dev), minor(whole->dev));
	d = opendir(dir);
	if (!d)
		return 0;	/* no sysfs: the device itself was checked */
	while (!ret && (de = readdir(d))) {
		struct subject part = { .path = whole->path, .part = de->d_name };

		if (de->d_name[0] != '.' && partition_dev(dir, de->d_name, &part.dev))
			ret = check_one(&part, err);
	}
	closedir(d);
	return ret;
}

int blockdev_check_in_use(dev_t rdev, const char *path, struct errmsg *err)
{
	struct subject whole = { .dev = rdev, .path = path, .part = NULL };
	int ret = check_one(&whole, err);

	if (!ret)
		ret = check_partitions(&whole, err);
	return ret;
}

int blockdev_signature(const char *path, char *type, size_t len)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *value = NULL;
	int ret;

	if (!pr)
		return errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	ret = blkid_do_safeprobe(pr);
	if (ret == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &value, NULL) == 0)
			snprintf(type, len, "%s", value);
		else if (blkid_probe_lookup_value(pr, "PTTYPE", &value, NULL) == 0)
			snprintf(type, len, "%s partition table", value);
		else
			snprintf(type, len, "unknown");
		ret = 1;
	} else if (ret == -2) {	/* several signatures that contradict each other */
		snprintf(type, len, "ambivalent");
		ret = 1;
	} else if (ret == 1) {
		ret = 0;
	} else {
		ret = -EIO;
	}
	blkid_free_probe(pr);
	return ret;
}
