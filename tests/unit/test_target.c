/*
 * test_target.c — unit test of src/target: the null target; files created,
 * laid out with incompressible data and removed (or kept); the refusals that
 * protect existing files; and, as root with loop devices, block devices that
 * are blank, carry a signature, are mounted (directly or through a
 * partition), are swap or are claimed exclusively.
 *
 * Works in mkdtemp directories under /var/tmp (and /tmp, which may be a
 * tmpfs without O_DIRECT). Prints one line per check.
 * Exit status: 0 pass, 1 fail, 77 skip.
 */
#include "target/target.h"

#include "target/scratch.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/blkpg.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/swap.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define NEW_SIZE	((3u << 20) + 4096 + 100)	/* not a multiple of the layout chunk */
#define USER_SIZE	((1u << 20) + 17)
#define LOOP_SIZE	(32u << 20)
#define BLOCK		4096

struct tally {
	int pass;
	int fail;
};

struct loopdev {
	int fd;
	char path[64];
};

__attribute__((format(printf, 3, 4)))
static bool check(struct tally *t, bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", ok ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (ok)
		t->pass++;
	else
		t->fail++;
	return ok;
}

static void skip(const char *what)
{
	printf("skip: %s\n", what);
	fflush(stdout);
}

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
	while (n--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

/* FNV-1a of a whole file or device; 0 if it cannot be read. */
static uint64_t file_hash(const char *path)
{
	unsigned char buf[65536];
	uint64_t h = 0xcbf29ce484222325ULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		h = fnv1a(h, buf, (size_t)n);
	close(fd);
	return n < 0 ? 0 : h;
}

/* Fill `path` (created or truncated) with `pattern` repeated up to `size` bytes. */
static bool write_pattern(const char *path, const char *pattern, size_t size)
{
	FILE *f = fopen(path, "we");
	size_t plen = strlen(pattern);
	bool ok;

	if (!f)
		return false;
	for (size_t i = 0; i < size; i++)
		fputc(pattern[i % plen], f);
	ok = !ferror(f);
	return fclose(f) == 0 && ok;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Every byte value about equally common: what incompressible data looks like. */
static bool bytes_uniform(const uint64_t count[256], uint64_t total)
{
	uint64_t mean = total / 256;

	for (int i = 0; i < 256; i++) {
		if (count[i] < mean / 2 || count[i] > mean + mean / 2)
			return false;
	}
	return true;
}

/* Laid-out data: no zero 4 KiB block, no two equal blocks, bytes uniform. */
static bool looks_random(const char *path, uint64_t size)
{
	static const unsigned char zero[BLOCK];
	unsigned char buf[BLOCK];
	size_t nblocks = size / BLOCK, i;
	uint64_t *hash = calloc(nblocks, sizeof(*hash)), count[256] = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool ok = fd >= 0 && hash;

	for (i = 0; ok && i < nblocks; i++) {
		ok = pread(fd, buf, BLOCK, (off_t)(i * BLOCK)) == BLOCK &&
		     memcmp(buf, zero, BLOCK) != 0;
		hash[i] = fnv1a(0xcbf29ce484222325ULL, buf, BLOCK);
		for (int j = 0; j < BLOCK; j++)
			count[buf[j]]++;
	}
	if (ok) {
		qsort(hash, nblocks, sizeof(*hash), cmp_u64);
		for (i = 1; ok && i < nblocks; i++)
			ok = hash[i] != hash[i - 1];
	}
	ok = ok && bytes_uniform(count, (uint64_t)nblocks * BLOCK);
	free(hash);
	if (fd >= 0)
		close(fd);
	return ok;
}

/* One line, starting lowercase or with the quoted path, no full stop, names the path. */
static bool msg_style(const struct errmsg *e, const char *path)
{
	const char *s = e->text;
	size_t n = strlen(s);
	char quoted[600];

	snprintf(quoted, sizeof(quoted), "'%s'", path);
	return n > 0 && (islower((unsigned char)s[0]) || s[0] == '\'') &&
	       s[n - 1] != '.' && !strchr(s, '\n') && strstr(s, quoted);
}

/* The scratch mark of the file at `path` (SCRATCH_UNMARKED if it cannot be opened). */
static enum scratch_state scratch_state_of(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	enum scratch_state s = fd >= 0 ? scratch_state(fd) : SCRATCH_UNMARKED;

	if (fd >= 0)
		close(fd);
	return s;
}

/* target_open() must fail with `code` and a message containing `needle`. */
static void expect_refusal(struct tally *t, const char *what,
			   const struct target_request *req, int code, const char *needle)
{
	struct errmsg err = { { 0 } };
	struct target tg;
	int ret = target_open(&tg, req, &err);

	check(t, ret == code, "%s: returns %d, got %d", what, code, ret);
	if (ret == 0)
		target_close(&tg);
	check(t, strstr(err.text, needle) && msg_style(&err, req->path),
	      "%s: message \"%s\" says \"%s\"", what, err.text, needle);
}

static void test_null(struct tally *t)
{
	struct target_request req = { .path = "null", .writes = true, .direct = true };
	struct errmsg err = { { 0 } };
	struct target tg;
	int ret = target_open(&tg, &req, &err);

	check(t, ret == 0, "null: opens (%s)", err.text);
	if (ret)
		return;
	check(t, tg.kind == TARGET_NULL && tg.fd == -1 && !tg.created,
	      "null: kind NULL, fd -1, not created");
	check(t, tg.size == TARGET_DEFAULT_FILE_SIZE && tg.dio_align == 512,
	      "null: default size %llu, dio_align %u",
	      (unsigned long long)tg.size, tg.dio_align);
	target_close(&tg);
	req.size = 12345;
	ret = target_open(&tg, &req, &err);
	check(t, ret == 0 && tg.size == 12345, "null: --size 12345 is honoured");
	if (!ret)
		target_close(&tg);
}

static void check_new_fd(struct tally *t, const char *what, const struct target *tg,
			 int accmode, bool direct)
{
	int flags = fcntl(tg->fd, F_GETFL);

	check(t, flags >= 0 && (flags & O_ACCMODE) == accmode &&
	      !!(flags & O_DIRECT) == direct,
	      "%s: fd opened %s%s", what, accmode == O_RDWR ? "O_RDWR" : "O_RDONLY",
	      direct ? "|O_DIRECT" : "");
	check(t, tg->dio_align >= 1 && !(tg->dio_align & (tg->dio_align - 1)),
	      "%s: dio_align %u is a power of two", what, tg->dio_align);
}

/* A missing file is created, laid out with random data and removed on close. */
static void test_new_file(struct tally *t, const char *dir, bool direct)
{
	char path[256], what[300];
	struct target_request req = { .path = path, .size = NEW_SIZE, .writes = true,
				      .direct = direct };
	struct errmsg err = { { 0 } };
	struct target tg;
	int ret;

	snprintf(path, sizeof(path), "%s/new-%s", dir, direct ? "direct" : "buffered");
	snprintf(what, sizeof(what), "new file %s", path);
	ret = target_open(&tg, &req, &err);
	if (!check(t, ret == 0, "%s: created (%s)", what, err.text))
		return;
	check(t, tg.kind == TARGET_FILE && tg.fd >= 0 && tg.created && tg.size == NEW_SIZE,
	      "%s: kind FILE, created, size %llu", what, (unsigned long long)tg.size);
	check(t, file_size(path) == NEW_SIZE, "%s: holds %u bytes on disk", what, NEW_SIZE);
	check(t, looks_random(path, NEW_SIZE),
	      "%s: contents are non-zero, unique per 4 KiB and uniformly distributed", what);
	check_new_fd(t, what, &tg, O_RDWR, direct);
	target_close(&tg);
	check(t, !exists(path), "%s: removed by target_close", what);
}

/* With keep, the created file survives; a read-only job can read it. */
static void test_keep(struct tally *t, const char *dir)
{
	char path[256];
	struct target_request req = { .path = path, .size = NEW_SIZE, .keep = true };
	struct errmsg err = { { 0 } };
	unsigned char buf[BLOCK];
	struct target tg;
	int ret;

	snprintf(path, sizeof(path), "%s/kept", dir);
	ret = target_open(&tg, &req, &err);
	if (!check(t, ret == 0, "keep: new file for reading created (%s)", err.text))
		return;
	/* one descriptor for layout and run: read-write even for a read-only job */
	check_new_fd(t, "keep", &tg, O_RDWR, false);
	check(t, pread(tg.fd, buf, sizeof(buf), 0) == sizeof(buf) &&
	      (buf[0] | buf[1] | buf[2] | buf[3]), "keep: the new file reads back data");
	target_close(&tg);
	check(t, file_size(path) == NEW_SIZE, "keep: file kept by target_close");
	unlink(path);
}

static void test_missing_parent(struct tally *t, const char *dir)
{
	char parent[256], path[300];
	struct target_request req = { .path = path, .writes = true, .size = NEW_SIZE };

	snprintf(parent, sizeof(parent), "%s/missing", dir);
	snprintf(path, sizeof(path), "%s/x", parent);
	expect_refusal(t, "missing parent directory", &req, -ENOENT, "does not exist");
	check(t, !exists(parent) && !exists(path), "missing parent directory: nothing created");
}

/* Layout stopped before it starts: -EINTR and no file left behind. */
static void test_stop_new(struct tally *t, const char *dir)
{
	volatile sig_atomic_t stop = 1;
	char path[256];
	struct target_request req = { .path = path, .size = NEW_SIZE, .writes = true,
				      .stop = &stop };

	snprintf(path, sizeof(path), "%s/stopped", dir);
	expect_refusal(t, "stop flag set before layout", &req, -EINTR, "interrupted");
	check(t, !exists(path), "stop flag set before layout: no file left behind");
}

/* An existing non-empty file: refused for writes without destroy_data, never changed. */
static void test_existing_refused(struct tally *t, const char *path)
{
	struct target_request req = { .path = path, .writes = true };
	uint64_t before = file_hash(path);
	struct stat st0, st1;

	stat(path, &st0);
	expect_refusal(t, "existing file, writes without destroy_data", &req, -EPERM,
		       "add --destroy-data");
	stat(path, &st1);
	check(t, before && file_hash(path) == before && st1.st_size == st0.st_size &&
	      st1.st_mtim.tv_sec == st0.st_mtim.tv_sec &&
	      st1.st_mtim.tv_nsec == st0.st_mtim.tv_nsec,
	      "existing file, writes without destroy_data: bytes and mtime unchanged");
	req.writes = false;
	req.size = USER_SIZE + 1;
	expect_refusal(t, "existing file, --size larger than the file", &req, -EINVAL,
		       "less than --size");
}

static void test_existing_opened(struct tally *t, const char *path)
{
	struct target_request req = { .path = path };
	struct errmsg err = { { 0 } };
	uint64_t before = file_hash(path);
	struct target tg;
	int ret = target_open(&tg, &req, &err);

	if (check(t, ret == 0, "existing file, reads: opened (%s)", err.text)) {
		check(t, tg.size == USER_SIZE && !tg.created,
		      "existing file, reads: size %llu, not created", (unsigned long long)tg.size);
		check_new_fd(t, "existing file, reads", &tg, O_RDONLY, false);
		target_close(&tg);
	}
	req.size = 4096;
	ret = target_open(&tg, &req, &err);
	check(t, ret == 0 && tg.size == 4096, "existing file, reads: smaller --size is used");
	if (!ret)
		target_close(&tg);
	req.writes = true;
	req.destroy_data = true;
	ret = target_open(&tg, &req, &err);
	check(t, ret == 0 && !tg.created, "existing file, writes with destroy_data: opened (%s)",
	      err.text);
	if (!ret)
		target_close(&tg);
	check(t, file_hash(path) == before,
	      "existing file: opening changes no byte, and target_close does not remove it");
}

/*
 * An existing empty file is no free space: refused without destroy_data (and
 * left empty); with it, laid out like a new one, but never removed.
 */
static void test_empty_file(struct tally *t, const char *dir)
{
	volatile sig_atomic_t stop = 0;
	char path[256];
	struct target_request req = { .path = path, .size = NEW_SIZE, .stop = &stop };
	struct errmsg err = { { 0 } };
	struct target tg;
	int ret;

	snprintf(path, sizeof(path), "%s/empty", dir);
	if (!check(t, write_pattern(path, "x", 0), "empty file: made"))
		return;
	expect_refusal(t, "empty file, reads without destroy_data", &req, -EPERM,
		       "add --destroy-data");
	req.writes = true;
	expect_refusal(t, "empty file, writes without destroy_data", &req, -EPERM,
		       "add --destroy-data");
	check(t, file_size(path) == 0, "empty file, refused: still there and empty");
	req.destroy_data = true;
	ret = target_open(&tg, &req, &err);
	if (check(t, ret == 0, "empty file, destroy_data: laid out (%s)", err.text)) {
		check(t, !tg.created && tg.size == NEW_SIZE && looks_random(path, NEW_SIZE),
		      "empty file: not marked created, filled with %u random bytes", NEW_SIZE);
		target_close(&tg);
	}
	check(t, file_size(path) == NEW_SIZE, "empty file: kept by target_close");
	check(t, scratch_state_of(path) == SCRATCH_UNMARKED,
	      "empty file: the user's file carries no scratch mark");
	check(t, truncate(path, 0) == 0, "empty file: emptied again");
	stop = 1;
	expect_refusal(t, "empty file, stop flag set", &req, -EINTR, "interrupted");
	check(t, file_size(path) == 0, "empty file, stop flag set: still there and empty");
	unlink(path);
}

static void test_not_a_file(struct tally *t, const char *dir)
{
	struct target_request req = { .path = dir };
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char fifo[256];
	int sock;

	expect_refusal(t, "directory", &req, -EINVAL, "is a directory, not a regular file");
	req.path = "/dev/null";
	req.writes = req.destroy_data = true;
	expect_refusal(t, "/dev/null", &req, -EINVAL, "is a character device, not a regular file");
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	if (mkfifo(fifo, 0600) == 0) {	/* never opened for IO: this would block */
		req.path = fifo;
		expect_refusal(t, "fifo", &req, -EINVAL, "is a fifo, not a regular file");
		unlink(fifo);
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/sock", dir);
	sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock >= 0 && bind(sock, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
		req.path = sa.sun_path;
		expect_refusal(t, "socket", &req, -EINVAL, "is a socket, not a regular file");
		unlink(sa.sun_path);
	}
	if (sock >= 0)
		close(sock);
}

/*
 * Files of kernel interfaces hold no data: refused for reads and writes,
 * even with destroy_data, before any byte changes; nothing is created in
 * /proc, /sys or /dev. Only harmless files are named, and none is written.
 */
static void test_kernel_interfaces(struct tally *t)
{
	static const char *const existing[] = {
		"/proc/sys/kernel/domainname", "/proc/self/comm", "/sys/kernel/uevent_seqnum",
	};
	static const char *const created[][2] = {
		{ "/proc/iomodel-test-new", "a kernel interface" },
		{ "/sys/iomodel-test-new", "a kernel interface" },
		{ "/dev/iomodel-test-typo", "holds device nodes" },
	};
	struct target_request req = { .size = 1 << 20, .writes = true, .destroy_data = true };

	printf("# kernel interfaces\n");
	for (size_t i = 0; i < sizeof(existing) / sizeof(existing[0]); i++) {
		uint64_t before = file_hash(existing[i]);

		if (!before) {
			skip(existing[i]);
			continue;
		}
		req.path = existing[i];
		req.writes = i % 2 == 0;
		expect_refusal(t, existing[i], &req, -EINVAL, "a kernel interface, not storage");
		check(t, file_hash(existing[i]) == before, "%s: content unchanged", existing[i]);
	}
	for (size_t i = 0; i < sizeof(created) / sizeof(created[0]); i++) {
		if (exists(created[i][0])) {
			skip(created[i][0]);
			continue;
		}
		req.path = created[i][0];
		expect_refusal(t, created[i][0], &req, -EINVAL, created[i][1]);
		check(t, !exists(created[i][0]), "%s: not created", created[i][0]);
	}
}

/* Mark `path` by hand as a scratch file in `state` ("laying-out"...). */
static bool set_mark(const char *path, const char *state)
{
	return setxattr(path, SCRATCH_XATTR, state, strlen(state), 0) == 0;
}

/*
 * Scratch files left behind: a half-written one is laid out again (never
 * measured as it is) and removed; a complete one is reused, written without
 * destroy_data and left in place; a new one carries the mark "complete".
 */
static void test_leftovers(struct tally *t, const char *dir)
{
	char path[256];
	struct target_request req = { .path = path, .size = NEW_SIZE, .keep = true };
	struct errmsg err = { { 0 } };
	struct target tg;

	snprintf(path, sizeof(path), "%s/leftover", dir);
	if (!write_pattern(path, "z", 16) || !set_mark(path, "laying-out")) {
		skip("leftover scratch files: no user xattrs here (documented fallback: unmarked)");
		unlink(path);
		return;
	}
	req.keep = false;
	if (check(t, target_open(&tg, &req, &err) == 0, "half-written leftover: opened (%s)",
		  err.text)) {
		check(t, tg.created && tg.size == NEW_SIZE && looks_random(path, NEW_SIZE) &&
		      scratch_state_of(path) == SCRATCH_COMPLETE,
		      "half-written leftover: laid out again, marked complete, owned");
		target_close(&tg);
	}
	check(t, !exists(path), "half-written leftover: removed after the run");
	req.keep = true;
	if (target_open(&tg, &req, &err) == 0)
		target_close(&tg);
	check(t, scratch_state_of(path) == SCRATCH_COMPLETE, "kept scratch file: marked complete");
	req.keep = false;
	req.writes = true;
	if (check(t, target_open(&tg, &req, &err) == 0,
		  "complete leftover: writable without destroy_data (%s)", err.text)) {
		check(t, !tg.created && tg.size == NEW_SIZE, "complete leftover: reused as it is");
		target_close(&tg);
	}
	check(t, file_size(path) == NEW_SIZE, "complete leftover: left in place");
	req.size = 2 * NEW_SIZE;
	if (target_open(&tg, &req, &err) == 0)
		target_close(&tg);
	check(t, file_size(path) == 2 * NEW_SIZE && looks_random(path, 2 * NEW_SIZE),
	      "complete leftover smaller than --size: laid out again to the size asked");
	removexattr(path, SCRATCH_XATTR);
	expect_refusal(t, "unmarked file, writes", &req, -EPERM, "add --destroy-data");
	unlink(path);
}

/* O_DIRECT may be unsupported (tmpfs before Linux 6.6): either works or fails cleanly. */
static void test_direct_maybe(struct tally *t, const char *dir)
{
	char path[256];
	struct target_request req = { .path = path, .size = NEW_SIZE, .writes = true,
				      .direct = true };
	struct errmsg err = { { 0 } };
	struct target tg;
	int ret;

	snprintf(path, sizeof(path), "%s/direct", dir);
	ret = target_open(&tg, &req, &err);
	if (ret == 0) {
		check(t, (fcntl(tg.fd, F_GETFL) & O_DIRECT) != 0, "%s: O_DIRECT works here", dir);
		target_close(&tg);
	} else {
		check(t, ret == -EINVAL && strstr(err.text, "does not support O_DIRECT") &&
		      msg_style(&err, path), "%s: O_DIRECT refused cleanly: %s", dir, err.text);
	}
	check(t, !exists(path), "%s: no file left after the O_DIRECT attempt", dir);
}

static void test_files(struct tally *t, const char *dir)
{
	char path[256];

	printf("# files in %s\n", dir);
	test_new_file(t, dir, false);
	test_new_file(t, dir, true);
	test_keep(t, dir);
	test_missing_parent(t, dir);
	test_stop_new(t, dir);
	snprintf(path, sizeof(path), "%s/user-data", dir);
	if (check(t, write_pattern(path, "precious user data\n", USER_SIZE),
		  "existing file: made %u bytes of user data", USER_SIZE)) {
		test_existing_refused(t, path);
		test_existing_opened(t, path);
		unlink(path);
	}
	test_empty_file(t, dir);
	test_not_a_file(t, dir);
	test_leftovers(t, dir);
}

/* Attach `backing` to a free loop device that detaches itself when lo->fd closes. */
static int loop_attach(const char *backing, uint32_t flags, struct loopdev *lo)
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	int bfd = open(backing, O_RDWR | O_CLOEXEC);
	int ret = -1;

	for (int tries = 0; ctl >= 0 && bfd >= 0 && ret && tries < 10; tries++) {
		struct loop_config cfg = { .fd = (uint32_t)bfd };
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);

		if (n < 0)
			break;
		cfg.info.lo_flags = flags | LO_FLAGS_AUTOCLEAR;
		snprintf(lo->path, sizeof(lo->path), "/dev/loop%d", n);
		lo->fd = open(lo->path, O_RDWR | O_CLOEXEC);
		if (lo->fd < 0)
			break;
		ret = ioctl(lo->fd, LOOP_CONFIGURE, &cfg);
		if (ret)
			close(lo->fd);
		if (ret && errno != EBUSY)
			break;
	}
	if (ctl >= 0)
		close(ctl);
	if (bfd >= 0)
		close(bfd);
	return ret;
}

/* Run a shell command quietly; true if it exited 0. */
static bool run(const char *fmt, const char *arg)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), fmt, arg);
	return system(cmd) == 0;
}

static void test_blank_device(struct tally *t, const struct loopdev *lo)
{
	struct target_request req = { .path = lo->path };
	struct errmsg err = { { 0 } };
	uint64_t before = file_hash(lo->path);
	struct target tg;
	int ret = target_open(&tg, &req, &err);

	if (check(t, ret == 0, "blank %s, reads: opened (%s)", lo->path, err.text)) {
		check(t, tg.kind == TARGET_BLOCK && tg.size == LOOP_SIZE && tg.dio_align == 512 &&
		      !tg.created, "blank device: kind BLOCK, size %llu, dio_align %u",
		      (unsigned long long)tg.size, tg.dio_align);
		target_close(&tg);
	}
	req.writes = true;
	expect_refusal(t, "blank device, writes without destroy_data", &req, -EPERM,
		       "refusing to write to block device");
	req.size = LOOP_SIZE + 512;
	req.destroy_data = true;
	expect_refusal(t, "blank device, --size larger than the device", &req, -EINVAL,
		       "less than --size");
	req.size = 0;
	ret = target_open(&tg, &req, &err);
	check(t, ret == 0, "blank device, writes with destroy_data: opened (%s)", err.text);
	if (!ret)
		target_close(&tg);
	check(t, exists(lo->path) && file_hash(lo->path) == before,
	      "blank device: no byte changed, device node still there");
}

/* A device claimed with O_EXCL by someone else: the kernel refuses our O_EXCL open. */
static void test_claimed_device(struct tally *t, const struct loopdev *lo)
{
	struct target_request req = { .path = lo->path, .writes = true, .destroy_data = true };
	int claim = open(lo->path, O_RDONLY | O_EXCL | O_CLOEXEC);

	if (claim < 0) {
		skip("claimed device: cannot open it O_EXCL ourselves");
		return;
	}
	expect_refusal(t, "claimed device, writes with destroy_data", &req, -EBUSY, "in use");
	close(claim);
}

static void test_swap_device(struct tally *t, const struct loopdev *lo)
{
	struct target_request req = { .path = lo->path };

	if (!run("mkswap %s >/dev/null 2>&1", lo->path) || swapon(lo->path, 0) != 0) {
		skip("swap device: mkswap or swapon failed here");
		return;
	}
	expect_refusal(t, "active swap device, reads", &req, -EBUSY, "in use as swap");
	swapoff(lo->path);
}

/* An ext4 signature is named in the refusal; a mounted device is refused for all. */
static void test_ext4_device(struct tally *t, const struct loopdev *lo, const char *mnt)
{
	struct target_request req = { .path = lo->path, .writes = true };
	char needle[300];
	uint64_t before;

	if (!run("mkfs.ext4 -q -F %s >/dev/null 2>&1", lo->path)) {
		skip("ext4 device: mkfs.ext4 failed or is missing");
		return;
	}
	before = file_hash(lo->path);
	expect_refusal(t, "ext4 device, writes without destroy_data", &req, -EPERM,
		       "it carries an ext4 signature; add --destroy-data");
	check(t, before && file_hash(lo->path) == before, "ext4 device: no byte changed");
	if (mount(lo->path, mnt, "ext4", 0, NULL) != 0) {
		skip("mounted device: mount(2) of the ext4 loop device failed here");
		return;
	}
	snprintf(needle, sizeof(needle), "mounted at %s", mnt);
	req.destroy_data = true;
	expect_refusal(t, "mounted device, writes with destroy_data", &req, -EBUSY, needle);
	req.writes = false;
	expect_refusal(t, "mounted device, reads", &req, -EBUSY, needle);
	umount(mnt);
}

/* Write a DOS partition table with one Linux partition from 1 MiB to the end. */
static bool write_mbr(const struct loopdev *lo)
{
	static unsigned char zero[1 << 20];
	unsigned char mbr[512] = { 0 };
	uint32_t start = 2048, count = LOOP_SIZE / 512 - 2048;

	mbr[446 + 4] = 0x83;
	for (int i = 0; i < 4; i++) {
		mbr[446 + 8 + i] = (unsigned char)(start >> (8 * i));
		mbr[446 + 12 + i] = (unsigned char)(count >> (8 * i));
	}
	mbr[510] = 0x55;
	mbr[511] = 0xaa;
	return pwrite(lo->fd, zero, sizeof(zero), 0) == sizeof(zero) &&
	       pwrite(lo->fd, mbr, sizeof(mbr), 0) == sizeof(mbr) && fsync(lo->fd) == 0;
}

static bool wait_for(const char *path)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };

	for (int i = 0; i < 100 && !exists(path); i++)
		nanosleep(&tick, NULL);
	return exists(path);
}

/*
 * Make partition 1 (1 MiB to the end) known to the kernel with BLKPG, which
 * works without any partition-table parser built in (unlike BLKRRPART).
 */
static bool add_partition(const struct loopdev *lo, const char *node)
{
	struct blkpg_partition part = {
		.start = 1 << 20,
		.length = LOOP_SIZE - (1 << 20),
		.pno = 1,
	};
	struct blkpg_ioctl_arg arg = {
		.op = BLKPG_ADD_PARTITION,
		.datalen = sizeof(part),
		.data = &part,
	};

	if (ioctl(lo->fd, BLKPG, &arg) != 0 && errno != EBUSY)
		return false;
	return wait_for(node);
}

/* A partition table is named; a mounted partition makes the whole device refused. */
static void test_partitioned_device(struct tally *t, const struct loopdev *lo,
				    const char *mnt)
{
	struct target_request req = { .path = lo->path, .writes = true };
	char part[80], needle[400];

	if (!check(t, write_mbr(lo), "partitioned device: dos partition table written"))
		return;
	expect_refusal(t, "partitioned device, writes without destroy_data", &req, -EPERM,
		       "it carries a dos partition table signature");
	snprintf(part, sizeof(part), "%sp1", lo->path);
	if (!add_partition(lo, part)) {
		skip("partitioned device: no partition node appeared after BLKPG_ADD_PARTITION");
		return;
	}
	if (!run("mkfs.ext4 -q -F %s >/dev/null 2>&1", part) ||
	    mount(part, mnt, "ext4", 0, NULL) != 0) {
		skip("partitioned device: cannot make and mount a filesystem on the partition");
		return;
	}
	snprintf(needle, sizeof(needle), "its partition %s is mounted at %s",
		 strrchr(part, '/') + 1, mnt);
	expect_refusal(t, "device with a mounted partition, reads", &req, -EBUSY, needle);
	req.destroy_data = true;
	expect_refusal(t, "device with a mounted partition, writes with destroy_data", &req,
		       -EBUSY, needle);
	umount(mnt);
}

static void test_blockdev(struct tally *t, const char *dir)
{
	char backing[256], mnt[256];
	struct loopdev lo;
	int fd;

	printf("# block devices\n");
	if (geteuid() != 0) {
		skip("block devices: not root");
		return;
	}
	snprintf(backing, sizeof(backing), "%s/loop.img", dir);
	snprintf(mnt, sizeof(mnt), "%s/mnt", dir);
	fd = open(backing, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, LOOP_SIZE) != 0 || mkdir(mnt, 0700) != 0) {
		skip("block devices: cannot make the backing file");
	} else if (loop_attach(backing, LO_FLAGS_PARTSCAN, &lo) != 0) {
		skip("block devices: cannot attach a loop device");
	} else {
		printf("# using %s\n", lo.path);
		test_blank_device(t, &lo);
		test_claimed_device(t, &lo);
		test_swap_device(t, &lo);
		test_ext4_device(t, &lo, mnt);
		test_partitioned_device(t, &lo, mnt);
		skip("device with holders: needs device-mapper or md "
		     "(tests/e2e/safety_blockdev.sh tries dmsetup)");
		close(lo.fd);	/* LO_FLAGS_AUTOCLEAR detaches it */
	}
	if (fd >= 0)
		close(fd);
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void remove_tree(const char *dir)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
	char var[] = "/var/tmp/test_target.XXXXXX", tmp[] = "/tmp/test_target.XXXXXX";
	char shm[] = "/dev/shm/test_target.XXXXXX";
	struct tally t = { 0, 0 };

	test_null(&t);
	test_kernel_interfaces(&t);
	if (mkdtemp(var)) {
		test_files(&t, var);
		test_direct_maybe(&t, var);
		test_blockdev(&t, var);
		remove_tree(var);
	} else {
		skip("/var/tmp: cannot make a temporary directory");
	}
	if (mkdtemp(tmp)) {
		printf("# files in %s\n", tmp);
		test_new_file(&t, tmp, false);
		test_direct_maybe(&t, tmp);
		test_leftovers(&t, tmp);
		remove_tree(tmp);
	} else {
		skip("/tmp: cannot make a temporary directory");
	}
	/* a tmpfs under /dev that is no device directory; user xattrs since Linux 6.6 */
	if (mkdtemp(shm)) {
		printf("# files in %s\n", shm);
		test_new_file(&t, shm, false);
		test_leftovers(&t, shm);
		remove_tree(shm);
	} else {
		skip("/dev/shm: cannot make a temporary directory");
	}
	printf("# %d passed, %d failed\n", t.pass, t.fail);
	return t.fail ? 1 : t.pass ? 0 : 77;
}
