/*
 * input_file.c — whole-file reads of input files, with the checks of
 * input_file.h: regular files only, no blocking open, a size cap.
 */
#include "util/input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/dynbuf.h"

int input_file_open(const char *path, struct errmsg *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	int e;

	if (fd < 0) {
		e = errno;
		return errmsg_set(err, -e, "cannot read '%s': %s", path, strerror(e));
	}
	if (fstat(fd, &st)) {
		e = errno;
		close(fd);
		return errmsg_set(err, -e, "cannot read '%s': %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return errmsg_set(err, -EINVAL, "'%s': not a regular file", path);
	}
	if ((uint64_t)st.st_size > INPUT_FILE_MAX) {
		close(fd);
		return errmsg_set(err, -EFBIG, "'%s': larger than %zu MiB, the most an input "
				  "file may be", path, INPUT_FILE_MAX >> 20);
	}
	/* back to blocking reads: a regular file never blocks, and O_NONBLOCK only served the open */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int input_file_read(const char *path, char **text, size_t *len, struct errmsg *err)
{
	struct dynbuf b;
	int fd = input_file_open(path, err), ret = 0;

	if (fd < 0)
		return fd;
	dynbuf_init(&b, INPUT_FILE_MAX);
	for (;;) {
		char *room;
		ssize_t n;

		ret = dynbuf_reserve(&b, 64 * 1024, &room);
		if (ret == -E2BIG) {
			ret = errmsg_set(err, -EFBIG, "'%s': larger than %zu MiB, the most an "
					 "input file may be", path, INPUT_FILE_MAX >> 20);
			break;
		}
		if (ret) {
			ret = errmsg_set(err, ret, "cannot read '%s': out of memory", path);
			break;
		}
		n = read(fd, room, 64 * 1024);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = errmsg_set(err, -errno, "cannot read '%s': %s", path, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		dynbuf_commit(&b, (size_t)n);
	}
	close(fd);
	if (ret) {
		dynbuf_release(&b);
		return ret;
	}
	*text = dynbuf_take(&b, len);
	if (!*text)
		return errmsg_set(err, -ENOMEM, "cannot read '%s': out of memory", path);
	return 0;
}
