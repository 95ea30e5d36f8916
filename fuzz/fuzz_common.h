/*
 * fuzz_common.h — what the libFuzzer harnesses of fuzz/ share: the input as
 * a NUL-terminated string, and as a file (a memfd, read back by path through
 * /proc/self/fd, so the harness goes through input_file_read() as iomodel
 * does, without touching the disk); GSL set up as main() sets it up.
 */
#ifndef IOMODEL_FUZZ_COMMON_H
#define IOMODEL_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

/* As main() does: GSL reports errors by return value instead of aborting. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	gsl_set_error_handler_off();
	return 0;
}

/* A malloc'ed NUL-terminated copy of the input (the caller frees it). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * The input as the content of a file; returns its path ("/proc/self/fd/N"),
 * valid until the next call. One memfd serves the whole run.
 */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];

	if (fd < 0) {
		fd = memfd_create("iomodel-fuzz", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	return path;
}

/* A stream that discards what is written, for the printers. */
static inline FILE *fuzz_null_stream(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		abort();
	return f;
}

#endif
