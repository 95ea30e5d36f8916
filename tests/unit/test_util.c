/* test_util.c — the shared helpers of util/: dynbuf, array_grow, errmsg escaping, input files. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "util/dynbuf.h"
#include "util/errmsg.h"
#include "util/input_file.h"

static void dynbuf_checks(struct check_state *st)
{
	struct dynbuf b;
	char *mem;
	size_t len = 99;
	int ret = 0;

	dynbuf_init(&b, 1000);
	CHECK(st, dynbuf_len(&b) == 0 && !strcmp(dynbuf_ptr(&b), ""), "empty");
	for (int i = 0; i < 100 && !ret; i++)
		ret = dynbuf_add(&b, "0123456789", 10);
	CHECK(st, ret == 0 && dynbuf_len(&b) == 1000, "filled to the cap: %d %zu", ret,
	      dynbuf_len(&b));
	CHECK(st, dynbuf_add(&b, "x", 1) == -E2BIG, "one byte past the cap is refused");
	CHECK(st, dynbuf_len(&b) == 1000 && dynbuf_ptr(&b)[1000] == '\0', "still terminated");
	mem = dynbuf_take(&b, &len);
	CHECK(st, mem && len == 1000 && !memcmp(mem + 990, "0123456789", 10), "take");
	CHECK(st, dynbuf_len(&b) == 0, "empty after take");
	free(mem);
	mem = dynbuf_take(&b, &len);
	CHECK(st, mem && len == 0 && mem[0] == '\0', "take of an empty buffer gives \"\"");
	free(mem);
	dynbuf_release(&b);
}

static void array_checks(struct check_state *st)
{
	int *items = NULL;
	size_t alloc = 0;

	CHECK(st, array_grow((void **)&items, &alloc, 5, sizeof(int), 100) == 0 && alloc >= 5,
	      "grow to 5: %zu", alloc);
	CHECK(st, array_grow((void **)&items, &alloc, 100, sizeof(int), 100) == 0 && alloc == 100,
	      "grow to the max: %zu", alloc);
	CHECK(st, array_grow((void **)&items, &alloc, 101, sizeof(int), 100) == -E2BIG &&
		  alloc == 100, "past the max");
	items[99] = 1;
	free(items);
}

static void escape_checks(struct check_state *st)
{
	struct errmsg e;
	char small[5];

	errmsg_set(&e, -EINVAL, "--rw '%s': bad", "read\nx\t\x1b[31m\x7f\xc3\xa9");
	CHECK(st, !strcmp(e.text, "--rw 'read\\nx\\t\\x1b[31m\\x7f\\xc3\\xa9': bad"), "'%s'", e.text);
	CHECK(st, errmsg_escape(small, sizeof(small), "ab\ncd") == 4 && !strcmp(small, "ab\\n"),
	      "an escape is never cut in half: '%s'", small);
}

static void input_file_checks(struct check_state *st)
{
	char path[] = "/tmp/iomodel-test-util-XXXXXX", fifo[64];
	struct errmsg err = { "" };
	char *text = NULL;
	size_t len = 0;
	int fd = mkstemp(path), ret;

	CHECK(st, fd >= 0 && write(fd, "hello", 5) == 5, "temporary file");
	close(fd);
	ret = input_file_read(path, &text, &len, &err);
	CHECK(st, ret == 0 && len == 5 && !strcmp(text, "hello"), "read: %d %s", ret, err.text);
	free(text);
	unlink(path);
	ret = input_file_read("/dev/zero", &text, &len, &err);
	CHECK(st, ret == -EINVAL && strstr(err.text, "not a regular file"), "/dev/zero: %s",
	      err.text);
	snprintf(fifo, sizeof(fifo), "%s.fifo", path);
	if (mkfifo(fifo, 0600) == 0) {
		ret = input_file_read(fifo, &text, &len, &err);	/* must not hang */
		CHECK(st, ret == -EINVAL, "fifo: %d %s", ret, err.text);
		unlink(fifo);
	}
	ret = input_file_read("/nonexistent/x", &text, &len, &err);
	CHECK(st, ret == -ENOENT && strstr(err.text, "No such file"), "missing: %s", err.text);
}

int main(void)
{
	struct check_state st = { 0, 0 };

	dynbuf_checks(&st);
	array_checks(&st);
	escape_checks(&st);
	input_file_checks(&st);
	return check_exit(&st, "util");
}
