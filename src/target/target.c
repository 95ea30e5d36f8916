/*
 * target.c — opens, sizes and (for files the tool creates) lays out the
 * target of a job, applying the safety rules listed in target.h. The block
 * device checks (mounted, swap, holders, signatures) live in blockdev.c.
 */
#include "target/target.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target/blockdev.h"
#include "util/clock.h"
#include "util/rng.h"

#define LAYOUT_CHUNK		(1u << 20)	/* bytes per buffered write of the layout */
#define LAYOUT_WORDS		(LAYOUT_CHUNK / sizeof(uint64_t))
#define SECTOR_WORDS		(512 / sizeof(uint64_t))
#define DEFAULT_DIO_ALIGN	512u

static bool stop_requested(const struct target_request *req)
{
	return req->stop && *req->stop;
}

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
 * Open the target for the run: read-write if the workload writes, O_DIRECT
 * if asked, plus `extra` flags. Returns the fd or a negative errno.
 */
static int open_for_run(const struct target_request *req, int extra, struct errmsg *err)
{
	int flags = (req->writes ? O_RDWR : O_RDONLY) | O_CLOEXEC | extra;
	int fd, e;

	if (req->direct)
		flags |= O_DIRECT;
	fd = open(req->path, flags);
	if (fd >= 0)
		return fd;
	e = errno;
	if (e == EINVAL && req->direct)
		return errmsg_set(err, -e, "'%s': the filesystem does not support O_DIRECT; use --buffered",
				  req->path);
	if (e == EBUSY && (extra & O_EXCL))
		return errmsg_set(err, -e, "refusing '%s': the device is in use (exclusive open failed)",
				  req->path);
	return errmsg_set(err, -e, "cannot open '%s': %s", req->path, strerror(e));
}

/* Write all `len` bytes at `off`, resuming after short writes and signals. */
static int pwrite_full(int fd, const char *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/*
 * Write `size` bytes of incompressible data to `fd`: one buffer of
 * xoshiro output, with one fresh word per 512-byte sector for each chunk so
 * that no two sectors of the file are equal (defeats dedup as well as
 * compression). Stops with -EINTR between chunks when asked to.
 */
static int write_layout(int fd, uint64_t size, const struct target_request *req)
{
	uint64_t seed = monotonic_ns() ^ ((uint64_t)getpid() << 32);
	uint64_t *buf = malloc(LAYOUT_CHUNK);
	struct rng r;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	rng_init(&r, seed);
	for (size_t i = 0; i < LAYOUT_WORDS; i++)
		buf[i] = rng_next(&r);
	/* reserve the space first, so a full filesystem fails at once */
	if (fallocate(fd, 0, 0, (off_t)size) != 0 && errno == ENOSPC)
		ret = -ENOSPC;
	for (uint64_t off = 0; !ret && off < size; off += LAYOUT_CHUNK) {
		uint64_t left = size - off;

		if (stop_requested(req)) {
			ret = -EINTR;
			break;
		}
		for (size_t i = 0; i < LAYOUT_WORDS; i += SECTOR_WORDS)
			buf[i] = splitmix64(&seed);
		ret = pwrite_full(fd, (const char *)buf,
				  left < LAYOUT_CHUNK ? (size_t)left : LAYOUT_CHUNK, off);
	}
	free(buf);
	if (!ret && fsync(fd) != 0)
		ret = -errno;
	if (!ret)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return ret;
}

/* Undo a layout that failed: remove a created file, empty a user's empty file. */
static void undo_layout(const char *path, int fd, bool created)
{
	if (created) {
		unlink(path);
	} else if (ftruncate(fd, 0) != 0) {
		/* nothing more can be done; the caller reports the first error */
	}
}

/*
 * Lay out `t->size` bytes in a missing file (`create`) or in an existing
 * empty one, then open it for the run. On failure the file is removed
 * (created) or truncated back to empty (the user's).
 */
static int lay_out_file(struct target *t, const struct target_request *req,
			bool create, struct errmsg *err)
{
	int wflags = O_WRONLY | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0);
	int wfd, fd, ret;

	t->size = req->size ? req->size : TARGET_DEFAULT_FILE_SIZE;
	wfd = open(req->path, wflags, 0644);
	if (wfd < 0) {
		int e = errno;

		return errmsg_set(err, -e, "cannot %s '%s': %s", create ? "create" : "write to",
				  req->path, strerror(e));
	}
	ret = write_layout(wfd, t->size, req);
	if (ret == -EINTR)
		errmsg_set(err, ret, "interrupted while laying out '%s'", req->path);
	else if (ret)
		errmsg_set(err, ret, "cannot lay out %llu bytes in '%s': %s",
			   (unsigned long long)t->size, req->path, strerror(-ret));
	fd = ret ? ret : open_for_run(req, 0, err);
	if (fd < 0)
		undo_layout(req->path, wfd, create);
	close(wfd);
	if (fd < 0)
		return fd;
	t->fd = fd;
	t->created = create;
	t->dio_align = file_dio_align(fd);
	return 0;
}

static int create_file(struct target *t, const struct target_request *req,
		       struct errmsg *err)
{
	char *copy = strdup(req->path);
	const char *dir;
	struct stat st;
	int ret = 0;

	if (!copy)
		return errmsg_set(err, -ENOMEM, "cannot create '%s': out of memory", req->path);
	dir = dirname(copy);
	if (stat(dir, &st) != 0) {
		int e = errno;

		if (e == ENOENT)
			ret = errmsg_set(err, -e, "cannot create '%s': directory '%s' does not exist",
					 req->path, dir);
		else
			ret = errmsg_set(err, -e, "cannot create '%s': '%s': %s",
					 req->path, dir, strerror(e));
	} else if (!S_ISDIR(st.st_mode)) {
		ret = errmsg_set(err, -ENOTDIR, "cannot create '%s': '%s' is not a directory",
				 req->path, dir);
	}
	free(copy);
	return ret ? ret : lay_out_file(t, req, true, err);
}

static int open_existing_file(struct target *t, const struct target_request *req,
			      const struct stat *st, struct errmsg *err)
{
	int fd, ret;

	if (st->st_size == 0)	/* nothing to destroy: lay it out, never remove it */
		return lay_out_file(t, req, false, err);
	if (req->writes && !req->destroy_data)
		return errmsg_set(err, -EPERM,
				  "refusing to write to existing file '%s' (%llu bytes): add --destroy-data to overwrite it",
				  req->path, (unsigned long long)st->st_size);
	ret = fit_size(req, (uint64_t)st->st_size, &t->size, err);
	if (ret)
		return ret;
	fd = open_for_run(req, 0, err);
	if (fd < 0)
		return fd;
	t->fd = fd;
	t->dio_align = file_dio_align(fd);
	return 0;
}

static int refuse_blockdev_write(const char *path, struct errmsg *err)
{
	char type[64];

	if (blockdev_signature(path, type, sizeof(type)) > 0)
		return errmsg_set(err, -EPERM,
				  "refusing to write to '%s': it carries %s %s signature; add --destroy-data to overwrite it",
				  path, article(type), type);
	return errmsg_set(err, -EPERM,
			  "refusing to write to block device '%s': add --destroy-data to overwrite it",
			  path);
}

static int blockdev_geometry(struct target *t, const struct target_request *req,
			     int fd, struct errmsg *err)
{
	uint64_t bytes;
	int sector;

	if (ioctl(fd, BLKGETSIZE64, &bytes) != 0 || ioctl(fd, BLKSSZGET, &sector) != 0) {
		int e = errno;

		return errmsg_set(err, -e, "cannot read the size of '%s': %s", req->path, strerror(e));
	}
	t->dio_align = sector > 0 ? (uint32_t)sector : DEFAULT_DIO_ALIGN;
	return fit_size(req, bytes, &t->size, err);
}

static int open_blockdev(struct target *t, const struct target_request *req,
			 const struct stat *st, struct errmsg *err)
{
	int fd, ret;

	ret = blockdev_check_in_use(st->st_rdev, req->path, err);
	if (ret)
		return ret;
	if (req->writes && !req->destroy_data)
		return refuse_blockdev_write(req->path, err);
	/* O_EXCL on a block device: the kernel refuses it if anything claims it */
	fd = open_for_run(req, req->writes ? O_EXCL : 0, err);
	if (fd < 0)
		return fd;
	ret = blockdev_geometry(t, req, fd, err);
	if (ret) {
		close(fd);
		return ret;
	}
	t->kind = TARGET_BLOCK;
	t->fd = fd;
	return 0;
}

static int open_path(struct target *t, const struct target_request *req,
		     struct errmsg *err)
{
	struct stat st;

	if (strcmp(req->path, "null") == 0) {
		t->kind = TARGET_NULL;
		t->size = req->size ? req->size : TARGET_DEFAULT_FILE_SIZE;
		return 0;
	}
	if (stat(req->path, &st) != 0) {
		int e = errno;

		if (e == ENOENT)
			return create_file(t, req, err);
		return errmsg_set(err, -e, "cannot access '%s': %s", req->path, strerror(e));
	}
	if (S_ISREG(st.st_mode))
		return open_existing_file(t, req, &st, err);
	if (S_ISBLK(st.st_mode))
		return open_blockdev(t, req, &st, err);
	return errmsg_set(err, -EINVAL, "'%s' is not a regular file or block device", req->path);
}

int target_open(struct target *t, const struct target_request *req,
		struct errmsg *err)
{
	int ret;

	*t = (struct target){
		.kind = TARGET_FILE,
		.fd = -1,
		.dio_align = DEFAULT_DIO_ALIGN,
		.keep = req->keep,
	};
	if (!req->path || !req->path[0])
		return errmsg_set(err, -EINVAL, "no target given");
	t->path = strdup(req->path);
	if (!t->path)
		return errmsg_set(err, -ENOMEM, "cannot open '%s': out of memory", req->path);
	ret = open_path(t, req, err);
	if (ret) {
		free(t->path);
		*t = (struct target){ .fd = -1 };
	}
	return ret;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	if (t->created && !t->keep && t->path)
		unlink(t->path);
	free(t->path);
	t->fd = -1;
	t->path = NULL;
	t->created = false;
}
