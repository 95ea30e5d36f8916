/* output_file.c — result files opened with the checks of output_file.h. */
#include "io/output_file.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target/fs_kind.h"

/* -errno with `err` set when the open file `fd` is not one to write a result into. */
static int check_fd(int fd, const char *path, struct errmsg *err)
{
	struct stat st;
	const char *fs;

	if (fstat(fd, &st))
		return errmsg_set(err, -errno, "cannot write '%s': %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return errmsg_set(err, -EINVAL, "'%s': not a regular file", path);
	fs = fs_kernel_interface(fd);
	if (fs)
		return errmsg_set(err, -EINVAL, "'%s': a file of %s (a kernel interface), not "
				  "one to write a result into", path, fs);
	if (fs_is_device_dir(fd))
		return errmsg_set(err, -EINVAL, "'%s': in /dev, not a place for a result file",
				  path);
	return 0;
}

/* Open `path` without truncating it: an fd, with *created when this call made it; or -errno. */
static int open_unchanged(const char *path, bool *created, struct errmsg *err)
{
	const int flags = O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	struct stat st;
	int fd;

	/* a device, FIFO or socket is refused before it is opened at all */
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return errmsg_set(err, -EINVAL, "'%s': not a regular file", path);
	*created = false;
	fd = open(path, flags);
	if (fd < 0 && errno == ENOENT) {
		fd = open(path, flags | O_CREAT | O_EXCL, 0666);
		*created = fd >= 0;
	}
	if (fd >= 0)
		return fd;
	if (errno == ENXIO)	/* a FIFO swapped in: no reader */
		return errmsg_set(err, -EINVAL, "'%s': not a regular file", path);
	return errmsg_set(err, -errno, "cannot write '%s': %s", path, strerror(errno));
}

FILE *output_file_open(const char *path, bool *made, struct errmsg *err)
{
	bool created;
	FILE *f = NULL;
	int fd = open_unchanged(path, &created, err);

	if (fd < 0)
		return NULL;
	if (!check_fd(fd, path, err)) {
		if (ftruncate(fd, 0) || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) ||
		    !(f = fdopen(fd, "w")))
			errmsg_set(err, -errno, "cannot write '%s': %s", path, strerror(errno));
	}
	if (made)
		*made = created && f;
	if (f)
		return f;
	if (created)
		unlink(path);
	close(fd);
	return NULL;
}

bool output_file_is_target(const char *path, int fd)
{
	struct stat out, target;

	return fd >= 0 && !stat(path, &out) && !fstat(fd, &target) &&
	       out.st_dev == target.st_dev && out.st_ino == target.st_ino;
}
