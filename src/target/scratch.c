/*
 * scratch.c — laying out, marking, recognising and removing iomodel's own
 * scratch files (see scratch.h for the states of the mark).
 */
#include "target/scratch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/rng.h"

#define LAYOUT_CHUNK	(1u << 20)	/* bytes per buffered write of the layout */
#define LAYOUT_WORDS	(LAYOUT_CHUNK / sizeof(uint64_t))
#define SECTOR_WORDS	(512 / sizeof(uint64_t))

static const char *const state_value[] = {
	[SCRATCH_LAYING_OUT] = "laying-out",
	[SCRATCH_COMPLETE] = "complete",
};

enum scratch_state scratch_state(int fd)
{
	char value[32];
	ssize_t n = fgetxattr(fd, SCRATCH_XATTR, value, sizeof(value) - 1);

	if (n <= 0)
		return SCRATCH_UNMARKED;
	value[n] = '\0';
	if (!strcmp(value, state_value[SCRATCH_COMPLETE]))
		return SCRATCH_COMPLETE;
	/* any other value of our attribute: ours, but not known to be whole */
	return SCRATCH_LAYING_OUT;
}

/* Set the mark; a filesystem without user xattrs leaves the file unmarked. */
static int mark_state(int fd, enum scratch_state s)
{
	const char *v = state_value[s];

	if (fsetxattr(fd, SCRATCH_XATTR, v, strlen(v), 0) == 0)
		return 0;
	if (errno == ENOTSUP || errno == EPERM)
		return 0;
	return -errno;
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

static int write_chunks(int fd, uint64_t size, const volatile sig_atomic_t *stop)
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
	for (uint64_t off = 0; !ret && off < size; off += LAYOUT_CHUNK) {
		uint64_t left = size - off;

		if (stop && *stop) {
			ret = -EINTR;
			break;
		}
		for (size_t i = 0; i < LAYOUT_WORDS; i += SECTOR_WORDS)
			buf[i] = splitmix64(&seed);
		ret = pwrite_full(fd, (const char *)buf,
				  left < LAYOUT_CHUNK ? (size_t)left : LAYOUT_CHUNK, off);
	}
	free(buf);
	return ret;
}

int scratch_lay_out(int fd, uint64_t size, bool mark, const volatile sig_atomic_t *stop)
{
	int ret = mark ? mark_state(fd, SCRATCH_LAYING_OUT) : 0;

	if (!ret && ftruncate(fd, 0) != 0)
		ret = -errno;
	/* reserve the space first, so a full filesystem fails at once */
	if (!ret && fallocate(fd, 0, 0, (off_t)size) != 0 && errno == ENOSPC)
		ret = -ENOSPC;
	if (!ret)
		ret = write_chunks(fd, size, stop);
	if (!ret && fsync(fd) != 0)
		ret = -errno;
	if (!ret && mark)
		ret = mark_state(fd, SCRATCH_COMPLETE);
	if (!ret)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return ret;
}

void scratch_remove(int dirfd, const char *name, int fd)
{
	struct stat named, open_file;

	if (fstat(fd, &open_file) != 0 ||
	    fstatat(dirfd, name, &named, AT_SYMLINK_NOFOLLOW) != 0)
		return;
	if (named.st_dev == open_file.st_dev && named.st_ino == open_file.st_ino)
		unlinkat(dirfd, name, 0);
}
