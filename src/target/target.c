/*
 * target.c — opens, sizes and (for iomodel's scratch files) lays out the
 * target of a job, applying the safety rules listed in target.h. The path
 * is resolved once; every decision is taken on the descriptor it gave. The
 * block device checks (in use, stacked, signatures) live in blockdev.c, the
 * scratch files' layout and mark in scratch.c, the filesystem kinds in
 * fs_kind.c.
 */
#include "target/target.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target/blockdev.h"
#include "target/fs_kind.h"
#include "target/scratch.h"

#define DEFAULT_DIO_ALIGN	512u

/* "an ext4", "a btrfs": the article that goes before a signature name. */
static const char *article(const char *word)
{
	static const char *const an_prefix[] = { "xfs", "ntfs", "hfs", "f2fs", "LVM", "lvm" };

	if (strchr("aeioAEIO", word[0]))
		return "an";
	for (size_t i = 0; i < sizeof(an_prefix) / sizeof(an_prefix[0]); i++) {
		if (strncmp(word, an_prefix[i], strlen(an_prefix[i])) == 0)
			return "an";
	}
	return "a";
}

/* What a refused inode is, for messages. */
static const char *file_type_name(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISFIFO(mode))
		return "a fifo";
	if (S_ISSOCK(mode))
		return "a socket";
	return "of an unknown type";
}

/* Apply --size to a target that holds `have` bytes. */
static int fit_size(const struct target_request *req, uint64_t have,
		    uint64_t *size, struct errmsg *err)
{
	if (req->size > have)
		return errmsg_set(err, -EINVAL, "'%s' holds %llu bytes, less than --size %llu",
				  req->path, (unsigned long long)have,
				  (unsigned long long)req->size);
	*size = req->size ? req->size : have;
	return 0;
}

static uint32_t file_dio_align(int fd)
{
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align)
		return stx.stx_dio_offset_align;
#else
	(void)fd;
#endif
	return DEFAULT_DIO_ALIGN;
}

/*
 * Open the inode `opath` (an O_PATH descriptor, described by `st`) for IO
 * with `flags`, through /proc/self/fd so that it is the same inode whatever
 * the path names now; without /proc, by the path, checked to be the same
 * inode. Returns the fd or a negative errno with `err` set.
 */
static int reopen(int opath, const struct stat *st, const struct target_request *req,
		  int flags, struct errmsg *err)
{
	char link[32];
	struct stat now;
	int fd, e;

	flags |= O_CLOEXEC | O_NOCTTY;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", opath);
	fd = open(link, flags);
	if (fd < 0 && errno == ENOENT)
		fd = open(req->path, flags | O_NONBLOCK);
	if (fd < 0) {
		e = errno;
		if (e == EBUSY && (flags & O_EXCL))
			return errmsg_set(err, -e, "refusing '%s': the device is in use (exclusive open failed)",
					  req->path);
		return errmsg_set(err, -e, "cannot open '%s': %s", req->path, strerror(e));
	}
	if (fstat(fd, &now) != 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
		close(fd);
		return errmsg_set(err, -ESTALE, "refusing '%s': it was replaced while being opened",
				  req->path);
	}
	if ((flags & O_NONBLOCK) && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		e = errno;
		close(fd);
		return errmsg_set(err, -e, "cannot open '%s': %s", req->path, strerror(e));
	}
	return fd;
}

/* Switch the run's descriptor to O_DIRECT when asked (after any layout). */
static int set_direct(struct target *t, const struct target_request *req, struct errmsg *err)
{
	int fl = fcntl(t->fd, F_GETFL);

	if (!req->direct)
		return 0;
	if (fl >= 0 && fcntl(t->fd, F_SETFL, fl | O_DIRECT) == 0)
		return 0;
	if (errno == EINVAL)
		return errmsg_set(err, -EINVAL, "'%s': the filesystem does not support O_DIRECT; use --buffered",
				  req->path);
	return errmsg_set(err, -errno, "cannot open '%s' with O_DIRECT: %s", req->path,
			  strerror(errno));
}

/*
 * Lay out `t->size` bytes in the open file `t->fd`: an iomodel scratch file
 * (`ours`: marked, removed on failure) or a user's empty file offered with
 * destroy_data (truncated back to empty on failure).
 */
static int lay_out(struct target *t, const struct target_request *req, bool ours,
		   struct errmsg *err)
{
	int ret = scratch_lay_out(t->fd, t->size, ours, req->stop);

	if (!ret)
		return 0;
	if (ret == -EINTR)
		errmsg_set(err, ret, "interrupted while laying out '%s'", req->path);
	else
		errmsg_set(err, ret, "cannot lay out %llu bytes in '%s': %s",
			   (unsigned long long)t->size, req->path, strerror(-ret));
	if (ours)
		scratch_remove(t->dirfd, t->name, t->fd);
	else if (ftruncate(t->fd, 0) != 0) {
		/* nothing more can be done; the caller reports the first error */
	}
	return ret;
}

static int create_file(struct target *t, const struct target_request *req,
		       const char *dir, struct errmsg *err)
{
	const char *kif = fs_kernel_interface(t->dirfd);
	int e;

	if (kif)
		return errmsg_set(err, -EINVAL, "refusing to create '%s': '%s' is on %s, a kernel interface, not storage",
				  req->path, dir, kif);
	if (fs_is_device_dir(t->dirfd))
		return errmsg_set(err, -EINVAL, "refusing to create '%s': '%s' holds device nodes, not files (a typo?)",
				  req->path, dir);
	t->fd = openat(t->dirfd, t->name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (t->fd < 0) {
		e = errno;
		if (e == EEXIST)
			return errmsg_set(err, -e, "refusing '%s': the name was taken (by a file or symbolic link) while it was being created",
					  req->path);
		return errmsg_set(err, -e, "cannot create '%s': %s", req->path, strerror(e));
	}
	t->created = true;
	t->size = req->size ? req->size : TARGET_DEFAULT_FILE_SIZE;
	return lay_out(t, req, true, err);
}

/* May the unmarked existing file `st` be used as asked? Sets t->size. */
static int check_user_file(struct target *t, const struct target_request *req,
			   const struct stat *st, bool *layout, struct errmsg *err)
{
	if (st->st_size == 0 && !req->destroy_data)
		return errmsg_set(err, -EPERM,
				  "refusing to lay out data in existing empty file '%s': add --destroy-data to use it, or name a new file",
				  req->path);
	if (st->st_size == 0) {
		*layout = true;
		t->size = req->size ? req->size : TARGET_DEFAULT_FILE_SIZE;
		return 0;
	}
	if (req->writes && !req->destroy_data)
		return errmsg_set(err, -EPERM,
				  "refusing to write to existing file '%s' (%llu bytes): add --destroy-data to overwrite it",
				  req->path, (unsigned long long)st->st_size);
	return fit_size(req, (uint64_t)st->st_size, &t->size, err);
}

/*
 * An iomodel scratch file left behind: a complete one (killed in its run, or
 * kept) is reused and left in place, re-laid out first if smaller than asked;
 * a half-written one is laid out again and then owned like a new one.
 */
static void plan_scratch_reuse(struct target *t, const struct target_request *req,
			       const struct stat *st, enum scratch_state state, bool *layout)
{
	uint64_t have = (uint64_t)st->st_size;

	t->created = state != SCRATCH_COMPLETE;
	*layout = state != SCRATCH_COMPLETE || have == 0 || req->size > have;
	if (*layout)
		t->size = req->size ? req->size : TARGET_DEFAULT_FILE_SIZE;
	else
		t->size = req->size ? req->size : have;
}

static int open_existing_file(struct target *t, const struct target_request *req,
			      int opath, const struct stat *st, struct errmsg *err)
{
	const char *kif = fs_kernel_interface(opath);
	enum scratch_state state;
	bool layout = false;
	int ret;

	if (kif)
		return errmsg_set(err, -EINVAL, "refusing '%s': it is on %s, a kernel interface, not storage",
				  req->path, kif);
	ret = blockdev_check_file_in_use(st, req->path, err);
	if (ret)
		return ret;
	t->fd = reopen(opath, st, req, O_RDONLY, err);
	if (t->fd < 0)
		return t->fd;
	state = scratch_state(t->fd);
	if (state == SCRATCH_UNMARKED)
		ret = check_user_file(t, req, st, &layout, err);
	else
		plan_scratch_reuse(t, req, st, state, &layout);
	if (ret || (!layout && !req->writes))
		return ret;
	close(t->fd);
	t->fd = reopen(opath, st, req, O_RDWR, err);
	if (t->fd < 0)
		return t->fd;
	return layout ? lay_out(t, req, state != SCRATCH_UNMARKED, err) : 0;
}

static int refuse_blockdev_write(int fd, const char *path, struct errmsg *err)
{
	char type[64];

	if (blockdev_signature(fd, type, sizeof(type)) > 0)
		return errmsg_set(err, -EPERM,
				  "refusing to write to '%s': it carries %s %s signature; add --destroy-data to overwrite it",
				  path, article(type), type);
	return errmsg_set(err, -EPERM,
			  "refusing to write to block device '%s': add --destroy-data to overwrite it",
			  path);
}

static int blockdev_geometry(struct target *t, const struct target_request *req,
			     struct errmsg *err)
{
	uint64_t bytes;
	int sector;

	if (ioctl(t->fd, BLKGETSIZE64, &bytes) != 0 || ioctl(t->fd, BLKSSZGET, &sector) != 0) {
		int e = errno;

		return errmsg_set(err, -e, "cannot read the size of '%s': %s", req->path, strerror(e));
	}
	t->dio_align = sector > 0 ? (uint32_t)sector : DEFAULT_DIO_ALIGN;
	return fit_size(req, bytes, &t->size, err);
}

static int open_blockdev(struct target *t, const struct target_request *req,
			 int opath, const struct stat *st, struct errmsg *err)
{
	int ret;

	t->kind = TARGET_BLOCK;
	ret = blockdev_check_in_use(st->st_rdev, req->path, err);
	if (ret)
		return ret;
	/*
	 * O_EXCL on a block device: the kernel refuses it if anything claims it.
	 * A refused write is probed read-only: closing a device opened for
	 * writing makes udev re-read it.
	 */
	t->fd = reopen(opath, st, req, req->writes && req->destroy_data ? O_RDWR | O_EXCL : O_RDONLY,
		       err);
	if (t->fd < 0)
		return t->fd;
	if (req->writes && !req->destroy_data)
		return refuse_blockdev_write(t->fd, req->path, err);
	return blockdev_geometry(t, req, err);
}

/* Split the path into its directory (opened) and name; refuse what is no file name. */
static int open_directory(struct target *t, const struct target_request *req,
			  char *dir, struct errmsg *err)
{
	int e;

	t->dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (t->dirfd >= 0)
		return 0;
	e = errno;
	if (e == ENOENT)
		return errmsg_set(err, -e, "cannot create '%s': directory '%s' does not exist",
				  req->path, dir);
	if (e == ENOTDIR)
		return errmsg_set(err, -e, "cannot create '%s': '%s' is not a directory",
				  req->path, dir);
	return errmsg_set(err, -e, "cannot open '%s': '%s': %s", req->path, dir, strerror(e));
}

/* Open the inode the name leads to and dispatch on what it is. */
static int open_named(struct target *t, const struct target_request *req,
		      const char *dir, struct errmsg *err)
{
	struct stat st;
	int opath = openat(t->dirfd, t->name, O_PATH | O_CLOEXEC);
	int ret, e = errno;

	if (opath < 0 && e == ENOENT)
		return create_file(t, req, dir, err);
	if (opath < 0)
		return errmsg_set(err, -e, "cannot access '%s': %s", req->path, strerror(e));
	if (fstat(opath, &st) != 0) {
		e = errno;
		ret = errmsg_set(err, -e, "cannot access '%s': %s", req->path, strerror(e));
	} else if (S_ISREG(st.st_mode)) {
		ret = open_existing_file(t, req, opath, &st, err);
	} else if (S_ISBLK(st.st_mode)) {
		ret = open_blockdev(t, req, opath, &st, err);
	} else {
		ret = errmsg_set(err, -EINVAL, "'%s' is %s, not a regular file or block device",
				 req->path, file_type_name(st.st_mode));
	}
	close(opath);
	return ret;
}

static int open_path(struct target *t, const struct target_request *req,
		     struct errmsg *err)
{
	char *dir_copy = strdup(req->path), *name_copy = strdup(req->path);
	char *dir;
	int ret;

	if (!dir_copy || !name_copy) {
		ret = errmsg_set(err, -ENOMEM, "cannot open '%s': out of memory", req->path);
		goto out;
	}
	if (req->path[strlen(req->path) - 1] == '/') {
		ret = errmsg_set(err, -EINVAL, "'%s' ends in '/': not a regular file or block device",
				 req->path);
		goto out;
	}
	dir = dirname(dir_copy);
	t->name = strdup(basename(name_copy));
	ret = t->name ? open_directory(t, req, dir, err)
		      : errmsg_set(err, -ENOMEM, "cannot open '%s': out of memory", req->path);
	if (!ret)
		ret = open_named(t, req, dir, err);
	if (!ret && t->kind == TARGET_FILE)
		t->dio_align = file_dio_align(t->fd);
	if (!ret)
		ret = set_direct(t, req, err);
	if (ret && t->created && t->fd >= 0)
		scratch_remove(t->dirfd, t->name, t->fd);
out:
	free(dir_copy);
	free(name_copy);
	return ret;
}

int target_open(struct target *t, const struct target_request *req,
		struct errmsg *err)
{
	int ret;

	*t = (struct target){
		.kind = TARGET_FILE,
		.fd = -1,
		.dirfd = -1,
		.dio_align = DEFAULT_DIO_ALIGN,
		.keep = req->keep,
	};
	if (!req->path || !req->path[0])
		return errmsg_set(err, -EINVAL, "no target given");
	if (strcmp(req->path, "null") == 0) {
		t->kind = TARGET_NULL;
		t->size = req->size ? req->size : TARGET_DEFAULT_FILE_SIZE;
		t->path = strdup(req->path);
		return t->path ? 0 : errmsg_set(err, -ENOMEM, "out of memory");
	}
	t->path = strdup(req->path);
	ret = t->path ? open_path(t, req, err)
		      : errmsg_set(err, -ENOMEM, "cannot open '%s': out of memory", req->path);
	if (ret) {
		t->created = false;	/* already removed where it had to be */
		target_close(t);
	}
	return ret;
}

void target_close(struct target *t)
{
	if (t->created && !t->keep && t->fd >= 0 && t->dirfd >= 0)
		scratch_remove(t->dirfd, t->name, t->fd);
	if (t->fd >= 0)
		close(t->fd);
	if (t->dirfd >= 0)
		close(t->dirfd);
	free(t->path);
	free(t->name);
	*t = (struct target){ .fd = -1, .dirfd = -1 };
}
