/*
 * blockdev.c — whether a block device, or anything stacked with it, is in
 * use (mounted, swap, held), and whether a device carries a signature: the
 * checks declared in blockdev.h. Reads the mount and swap tables through
 * libmount and the device stack from /sys; never opens a device for writing.
 */
#include "target/blockdev.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <libmount/libmount.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAX_STACK	64
#define SYS_PATH_MAX	512

static const struct blockdev_sources system_sources = {
	.sysfs = "/sys", .mountinfo = "/proc/self/mountinfo", .swaps = "/proc/swaps",
};

/* One check of a device and everything stacked with it. */
struct walk {
	const struct blockdev_sources *src;
	const char *path;		/* the user's path, for messages */
	struct errmsg *err;
	struct libmnt_table *mounts;
	struct libmnt_table *swaps;
	dev_t seen[MAX_STACK];		/* devices reached so far */
	unsigned n_seen;
	const struct stat *file;	/* the target, when it is a regular file */
};

/* How a device reached by the walk relates to the target, for messages. */
struct node {
	dev_t dev;
	char rel[320];			/* "" for the target, else "loop0 below it" */
};

enum walk_flags {
	WALK_SKIP_PARTITIONS = 1 << 0,	/* reached from one of its partitions */
};

static int check_node(struct walk *w, const struct node *n, unsigned flags);

/* Refuse with -EBUSY: "refusing 'PATH': [REL is ]WHAT DETAIL". */
static int refuse(struct walk *w, const struct node *n, const char *what, const char *detail)
{
	if (n->rel[0])
		return errmsg_set(w->err, -EBUSY, "refusing '%s': %s is %s%s", w->path, n->rel,
				  what, detail);
	return errmsg_set(w->err, -EBUSY, "refusing '%s': %s%s", w->path, what, detail);
}

static bool seen(const struct walk *w, dev_t dev)
{
	for (unsigned i = 0; i < w->n_seen; i++)
		if (w->seen[i] == dev)
			return true;
	return false;
}

/* "SYSFS/dev/block/MAJ:MIN" followed by `rest`, into `buf` (SYS_PATH_MAX bytes). */
static const char *dev_path(const struct walk *w, char *buf, dev_t dev, const char *rest)
{
	snprintf(buf, SYS_PATH_MAX, "%s/dev/block/%u:%u%s", w->src->sysfs, major(dev), minor(dev),
		 rest);
	return buf;
}

/* Read the first line of a sysfs file into `buf` (newline stripped). */
static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* The dev_t of the block device named `name` in /sys/class/block. */
static bool dev_of_name(const struct walk *w, const char *name, dev_t *dev)
{
	char path[SYS_PATH_MAX + 300], line[32];
	unsigned int maj, min;

	snprintf(path, sizeof(path), "%s/class/block/%.255s/dev", w->src->sysfs, name);
	if (!read_line(path, line, sizeof(line)) || sscanf(line, "%u:%u", &maj, &min) != 2)
		return false;
	*dev = makedev(maj, min);
	return true;
}

/* The kernel's name of `dev` ("loop0"), or "MAJ:MIN" if sysfs does not say. */
static void name_of_dev(const struct walk *w, dev_t dev, char *name, size_t len)
{
	char link[SYS_PATH_MAX], target[512];
	ssize_t n;
	const char *slash;

	n = readlink(dev_path(w, link, dev, ""), target, sizeof(target) - 1);
	if (n <= 0) {
		snprintf(name, len, "%u:%u", major(dev), minor(dev));
		return;
	}
	target[n] = '\0';
	slash = strrchr(target, '/');
	slash = slash ? slash + 1 : target;
	n = (ssize_t)strnlen(slash, len - 1);
	memcpy(name, slash, (size_t)n);
	name[n] = '\0';
}

/* Is the path a block device node for `dev`? */
static bool node_is_dev(const char *path, dev_t dev)
{
	struct stat st;

	return path && stat(path, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev;
}

static int check_mounted(struct walk *w, const struct node *n)
{
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	int ret = 0;

	if (!it)
		return errmsg_set(w->err, -ENOMEM, "out of memory");
	/* MAJ:MIN, and the source for filesystems with an anonymous one (btrfs) */
	while (!ret && mnt_table_next_fs(w->mounts, it, &fs) == 0) {
		if (mnt_fs_get_devno(fs) == n->dev || node_is_dev(mnt_fs_get_srcpath(fs), n->dev))
			ret = refuse(w, n, "mounted at ", mnt_fs_get_target(fs));
	}
	mnt_free_iter(it);
	return ret;
}

/* Is an active swap area the device `dev` (file: 0) or the file dev:ino? */
static bool in_swap(struct walk *w, dev_t dev, dev_t file_dev, ino_t ino)
{
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;
	struct stat st;
	bool yes = false;

	while (it && !yes && mnt_table_next_fs(w->swaps, it, &fs) == 0) {
		const char *src = mnt_fs_get_srcpath(fs);

		if (!src || stat(src, &st) != 0)
			continue;
		yes = dev ? S_ISBLK(st.st_mode) && st.st_rdev == dev
			  : S_ISREG(st.st_mode) && st.st_dev == file_dev && st.st_ino == ino;
	}
	mnt_free_iter(it);
	return yes || !it;
}

/*
 * Call `visit` for each entry of the sysfs directory `dir` that names a
 * block device, until it returns non-zero.
 */
static int for_each_dev_in(struct walk *w, const char *dir, const struct node *n,
			   int (*visit)(struct walk *, const struct node *, const char *, dev_t))
{
	struct dirent *de;
	int ret = 0;
	DIR *d = opendir(dir);
	dev_t dev;

	if (!d)
		return 0;	/* no such directory: nothing of that kind */
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] != '.' && dev_of_name(w, de->d_name, &dev))
			ret = visit(w, n, de->d_name, dev);
	}
	closedir(d);
	return ret;
}

static int visit_holder(struct walk *w, const struct node *n, const char *name, dev_t dev)
{
	return seen(w, dev) ? 0 : refuse(w, n, "held by ", name);
}

/* Walk to `dev`, described in messages by the format that follows. */
__attribute__((format(printf, 4, 5)))
static int walk_to(struct walk *w, dev_t dev, unsigned flags, const char *fmt, ...)
{
	struct node next = { .dev = dev };
	va_list ap;

	if (seen(w, dev))
		return 0;
	va_start(ap, fmt);
	vsnprintf(next.rel, sizeof(next.rel), fmt, ap);
	va_end(ap);
	return check_node(w, &next, flags);
}

static int visit_slave(struct walk *w, const struct node *n, const char *name, dev_t dev)
{
	(void)n;
	return walk_to(w, dev, 0, "%s below it", name);
}

/* Is `name` in the sysfs directory of `dev` a partition of it? */
static int visit_partition(struct walk *w, const struct node *n, const char *name, dev_t dev)
{
	char path[SYS_PATH_MAX], rest[300];

	snprintf(rest, sizeof(rest), "/%.255s/partition", name);
	if (access(dev_path(w, path, n->dev, rest), F_OK) != 0)
		return 0;
	if (n->rel[0])
		return walk_to(w, dev, 0, "%s (a partition in the stack)", name);
	return walk_to(w, dev, 0, "its partition %s", name);
}

/* The backing file of the loop device `dev`: false if it is no loop (or detached). */
static bool loop_backing(const struct walk *w, dev_t dev, char *path, size_t len)
{
	char file[SYS_PATH_MAX];

	return read_line(dev_path(w, file, dev, "/loop/backing_file"), path, len) && path[0];
}

/* Is `b` the same backing as `st`: the same device node, or the same file? */
static bool same_backing(const struct stat *st, const struct stat *b)
{
	if (S_ISBLK(st->st_mode))
		return S_ISBLK(b->st_mode) && b->st_rdev == st->st_rdev;
	return S_ISREG(b->st_mode) && b->st_dev == st->st_dev && b->st_ino == st->st_ino;
}

/* Walk to every loop device not seen yet whose backing is `st`. */
static int walk_loops_on(struct walk *w, const struct stat *st, const char *relation)
{
	char backing[4096];
	struct dirent *de;
	struct stat b;
	int ret = 0;
	char dir[SYS_PATH_MAX];
	DIR *d;
	dev_t dev;

	snprintf(dir, sizeof(dir), "%s/block", w->src->sysfs);
	d = opendir(dir);
	if (!d)
		return 0;	/* no sysfs: no loop devices to find */
	while (!ret && (de = readdir(d))) {
		if (strncmp(de->d_name, "loop", 4) || !dev_of_name(w, de->d_name, &dev) ||
		    seen(w, dev) || !loop_backing(w, dev, backing, sizeof(backing)) ||
		    stat(backing, &b) != 0)
			continue;
		if (same_backing(st, &b))
			ret = walk_to(w, dev, 0, "%s %s", de->d_name, relation);
	}
	closedir(d);
	return ret;
}

/* A regular file under a loop device (or the target): not swap, not under a loop in use. */
static int check_backing_file(struct walk *w, const struct node *file, const struct stat *st)
{
	bool target = w->file && w->file->st_dev == st->st_dev && w->file->st_ino == st->st_ino;

	if (in_swap(w, 0, st->st_dev, st->st_ino))
		return refuse(w, file, "in use as swap", "");
	return walk_loops_on(w, st, target ? "(backed by it)" : "(on the same backing file)");
}

/* For a loop device: what is below it (its backing) and above it (loops on it). */
static int check_loop_stack(struct walk *w, const struct node *n)
{
	struct stat up = { .st_mode = S_IFBLK, .st_rdev = n->dev }, b;
	char backing[4096], name[64];
	struct node file = { .dev = 0 };
	int ret = 0;

	if (loop_backing(w, n->dev, backing, sizeof(backing))) {
		name_of_dev(w, n->dev, name, sizeof(name));
		if (stat(backing, &b) != 0)
			return refuse(w, n, "a loop device whose backing file cannot be checked: ",
				      backing);
		snprintf(file.rel, sizeof(file.rel), "the backing file %.200s of %.63s", backing, name);
		if (S_ISBLK(b.st_mode)) {
			name_of_dev(w, b.st_rdev, name, sizeof(name));
			ret = walk_to(w, b.st_rdev, 0, "%s (a backing device below it)", name);
		} else if (S_ISREG(b.st_mode)) {
			ret = check_backing_file(w, &file, &b);
		}
	}
	return ret ? ret : walk_loops_on(w, &up, "(a loop device stacked on it)");
}

/* For a partition: what is below its whole disk (not the other partitions). */
static int check_whole_disk(struct walk *w, const struct node *n)
{
	char path[SYS_PATH_MAX], line[32], name[64];
	unsigned int maj, min;
	dev_t whole;

	if (access(dev_path(w, path, n->dev, "/partition"), F_OK) != 0)
		return 0;
	if (!read_line(dev_path(w, path, n->dev, "/../dev"), line, sizeof(line)) || sscanf(line, "%u:%u", &maj, &min) != 2)
		return 0;
	whole = makedev(maj, min);
	name_of_dev(w, whole, name, sizeof(name));
	return walk_to(w, whole, WALK_SKIP_PARTITIONS, "%s (its whole disk)", name);
}

static int check_node(struct walk *w, const struct node *n, unsigned flags)
{
	char dir[SYS_PATH_MAX];
	int ret;

	if (w->n_seen == MAX_STACK)
		return errmsg_set(w->err, -EBUSY, "refusing '%s': more than %d devices are stacked with it",
				  w->path, MAX_STACK);
	w->seen[w->n_seen++] = n->dev;
	ret = check_mounted(w, n);
	if (!ret && in_swap(w, n->dev, 0, 0))
		ret = refuse(w, n, "in use as swap", "");
	if (!ret && !(flags & WALK_SKIP_PARTITIONS))
		ret = for_each_dev_in(w, dev_path(w, dir, n->dev, ""), n, visit_partition);
	if (!ret)
		ret = for_each_dev_in(w, dev_path(w, dir, n->dev, "/holders"), n, visit_holder);
	if (!ret)
		ret = for_each_dev_in(w, dev_path(w, dir, n->dev, "/slaves"), n, visit_slave);
	if (!ret)
		ret = check_loop_stack(w, n);
	if (!ret)
		ret = check_whole_disk(w, n);
	return ret;
}

static int walk_init(struct walk *w, const struct blockdev_sources *src, const char *path,
		     struct errmsg *err)
{
	*w = (struct walk){ .src = src, .path = path, .err = err };
	w->mounts = mnt_new_table_from_file(src->mountinfo);
	if (!w->mounts)
		return errmsg_set(err, -EIO, "cannot read %s to check whether '%s' is in use",
				  src->mountinfo, path);
	w->swaps = mnt_new_table();
	if (!w->swaps)
		return errmsg_set(err, -ENOMEM, "out of memory");
	/* no /proc/swaps: a kernel built without swap, nothing is swap */
	if (mnt_table_parse_swaps(w->swaps, src->swaps) != 0 && access(src->swaps, F_OK) == 0)
		return errmsg_set(err, -EIO, "cannot read %s to check whether '%s' is swap",
				  src->swaps, path);
	return 0;
}

static void walk_release(struct walk *w)
{
	mnt_unref_table(w->mounts);
	mnt_unref_table(w->swaps);
}

int blockdev_check_in_use_from(const struct blockdev_sources *src, dev_t rdev,
			       const char *path, struct errmsg *err)
{
	struct node top = { .dev = rdev };
	struct walk w;
	int ret = walk_init(&w, src, path, err);

	if (!ret)
		ret = check_node(&w, &top, 0);
	walk_release(&w);
	return ret;
}

int blockdev_check_in_use(dev_t rdev, const char *path, struct errmsg *err)
{
	return blockdev_check_in_use_from(&system_sources, rdev, path, err);
}

int blockdev_check_file_in_use(const struct stat *st, const char *path, struct errmsg *err)
{
	struct node top = { .dev = 0 };
	struct walk w;
	int ret = walk_init(&w, &system_sources, path, err);

	w.file = st;
	if (!ret)
		ret = check_backing_file(&w, &top, st);
	walk_release(&w);
	return ret;
}

int blockdev_signature(int fd, char *type, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	const char *value = NULL;
	int ret;

	if (!pr)
		return -ENOMEM;
	if (blkid_probe_set_device(pr, fd, 0, 0) != 0) {
		blkid_free_probe(pr);
		return -EIO;
	}
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
