/*
 * test_backend.c — the kernel backends (io_uring, libaio) and how they hand
 * a batch of requests to the kernel.
 *
 * backend_submit_chunk(): a batch of n requests goes to the kernel in
 * chunks 1, 1, 2, 4, … — the first request alone (so the device starts at
 * once, issue 14), no chunk larger than what the batch already handed over,
 * and log2(n) + 1 system calls, not n. Then each kernel backend reads a
 * file whose every 4 KiB block holds its own number, in batches of 1 to 32
 * requests reusing the same request slots as the engine does: every request
 * must come back exactly once, complete, with its own block in its own
 * buffer. A kernel that refuses an interface skips that backend (exit 77
 * when it refuses both).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "check.h"

#define BLOCK 4096u
#define BLOCKS 256u
#define MAX_BATCH 32u

static unsigned calls_for(unsigned n)
{
	unsigned calls = 1;

	while ((1u << (calls - 1)) < n)
		calls++;
	return calls;	/* ceil(log2 n) + 1, and 1 for n = 1 */
}

static void chunks_grow_from_one(struct check_state *st)
{
	CHECK(st, backend_submit_chunk(0, 0) == 0, "nothing to hand over");
	for (unsigned n = 1; n <= 300; n++) {
		unsigned handed = 0, calls = 0, first = backend_submit_chunk(0, n);

		while (handed < n) {
			unsigned c = backend_submit_chunk(handed, n - handed);

			CHECK(st, c >= 1 && c <= (handed ? handed : 1),
			      "n %u: chunk %u after %u handed", n, c, handed);
			if (!c)
				break;
			handed += c;
			calls++;
		}
		CHECK(st, first == 1, "n %u: first chunk %u", n, first);
		CHECK(st, handed == n, "n %u: handed %u", n, handed);
		CHECK(st, calls == calls_for(n), "n %u: %u calls, want %u", n, calls, calls_for(n));
	}
}

/* A file of BLOCKS blocks; block i starts with the 64-bit number i. */
static int make_file(char *path)
{
	static char block[BLOCK];
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	unlink(path);
	for (uint64_t i = 0; i < BLOCKS; i++) {
		memset(block, (int)(i & 0xff), sizeof(block));
		memcpy(block, &i, sizeof(i));
		if (pwrite(fd, block, sizeof(block), (off_t)(i * BLOCK)) != (ssize_t)sizeof(block)) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* Queue `n` reads of distinct blocks in slots 0..n-1, collect all n back. */
static void one_batch(struct check_state *st, const char *name, struct backend *be,
		      struct io_request *reqs, unsigned n, unsigned round)
{
	struct io_request *done[MAX_BATCH];
	unsigned seen[MAX_BATCH] = { 0 }, got = 0, calls = 0;

	for (unsigned i = 0; i < n; i++) {
		reqs[i].op = IO_READ;
		reqs[i].length = BLOCK;
		reqs[i].offset = (uint64_t)((round * 37 + i * 7) % BLOCKS) * BLOCK;
		reqs[i].result = 0;
		memset(reqs[i].buf, 0xee, BLOCK);
		CHECK(st, backend_queue(be, &reqs[i]) == 0, "%s: queue %u of %u", name, i, n);
	}
	while (got < n && calls++ < 1000) {
		int r = backend_submit_and_reap(be, n - got, done, MAX_BATCH);

		if (r == -EINTR)
			continue;
		CHECK(st, r >= 0, "%s: submit_and_reap: %d", name, r);
		if (r < 0)
			return;
		for (int k = 0; k < r; k++)
			seen[done[k]->slot]++;
		got += (unsigned)r;
	}
	CHECK(st, got == n, "%s: batch of %u: %u came back", name, n, got);
	for (unsigned i = 0; i < n; i++) {
		uint64_t first;

		memcpy(&first, reqs[i].buf, sizeof(first));
		CHECK(st, seen[i] == 1, "%s: batch of %u: slot %u came back %u times",
		      name, n, i, seen[i]);
		CHECK(st, reqs[i].result == BLOCK, "%s: slot %u result %lld", name, i,
		      (long long)reqs[i].result);
		CHECK(st, first == reqs[i].offset / BLOCK, "%s: slot %u read block %llu, want %llu",
		      name, i, (unsigned long long)first,
		      (unsigned long long)(reqs[i].offset / BLOCK));
	}
}

/* Returns 1 when the backend ran, 0 when the kernel refused it. */
static int kernel_backend(struct check_state *st, enum backend_kind kind, const char *name,
			  int fd)
{
	struct io_request reqs[MAX_BATCH];
	struct backend_params p = { .fd = fd, .queue_depth = MAX_BATCH,
				    .buffer_count = MAX_BATCH, .buffer_size = BLOCK };
	struct errmsg notice, err;
	struct backend *be = NULL;
	unsigned round = 0;

	if (posix_memalign(&p.buffers, 4096, MAX_BATCH * BLOCK))
		return 0;
	if (backend_open(&be, kind, &p, &notice, &err) || strcmp(backend_name(be), name)) {
		printf("%s: skipped, the kernel refused it (%s)\n", name,
		       be ? notice.text : err.text);
		backend_close(be);
		free(p.buffers);
		return 0;
	}
	memset(reqs, 0, sizeof(reqs));
	for (unsigned i = 0; i < MAX_BATCH; i++) {
		reqs[i].slot = i;
		reqs[i].buf_index = i;
		reqs[i].buf = (char *)p.buffers + (size_t)i * BLOCK;
	}
	for (unsigned n = 1; n <= MAX_BATCH; n++)
		one_batch(st, name, be, reqs, n, round++);
	for (unsigned again = 0; again < 8; again++)	/* full batches, slots reused */
		one_batch(st, name, be, reqs, MAX_BATCH, round++);
	backend_close(be);
	free(p.buffers);
	return 1;
}

int main(void)
{
	struct check_state st = { 0, 0 };
	char path[] = "/tmp/iomodel-test-backend.XXXXXX";
	int fd, ran = 0;

	chunks_grow_from_one(&st);
	fd = make_file(path);
	CHECK(&st, fd >= 0, "cannot lay out a test file in /tmp: %s", strerror(errno));
	if (fd >= 0) {
		ran += kernel_backend(&st, BACKEND_IO_URING, "io_uring", fd);
		ran += kernel_backend(&st, BACKEND_LIBAIO, "libaio", fd);
		close(fd);
	}
	if (!ran && !st.failed) {
		printf("backend: the chunk rule passed, but neither io_uring nor libaio is "
		       "available here: skipping the kernel part\n");
		return 77;
	}
	return check_exit(&st, "backend");
}
