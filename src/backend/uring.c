/*
 * uring.c — io_uring backend (liburing).
 *
 * Set up for the fewest system calls and the least kernel work per IO:
 * the file is registered (IOSQE_FIXED_FILE) and so are the buffers
 * (read_fixed / write_fixed), each when the kernel allows it; the ring uses
 * single-issuer + deferred task work where the kernel has them (6.1+),
 * cooperative task work otherwise. Queued requests become SQEs only in
 * submit_and_reap, which hands them to the kernel in growing chunks
 * (backend_submit_chunk()); the io_uring_enter() of the last chunk also
 * waits for completions (so a batch of one is one system call; a poll, with
 * none to wait for, still asks for events), and all
 * completions present are reaped in one batch and stamped with one clock
 * reading.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <liburing.h>

#include "backend.h"
#include "pending.h"
#include "util/clock.h"

struct uring_backend {
	struct backend base;
	struct io_uring ring;
	int fd;			/* index 0 when the file is registered */
	bool fixed_file;
	bool fixed_buffers;
	struct pending queued;	/* not yet SQEs */
	struct io_request *slots[];
};

static int uring_queue(struct backend *be, struct io_request *req)
{
	return pending_push(&((struct uring_backend *)be)->queued, req);
}

/* Fill one SQE for `req`; -EBUSY when the ring is full (never expected). */
static int prep_sqe(struct uring_backend *ub, struct io_request *req)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ub->ring);

	if (!sqe)
		return -EBUSY;
	if (ub->fixed_buffers) {
		if (req->op == IO_READ)
			io_uring_prep_read_fixed(sqe, ub->fd, req->buf, req->length,
						 req->offset, (int)req->buf_index);
		else
			io_uring_prep_write_fixed(sqe, ub->fd, req->buf, req->length,
						  req->offset, (int)req->buf_index);
	} else if (req->op == IO_READ) {
		io_uring_prep_read(sqe, ub->fd, req->buf, req->length, req->offset);
	} else {
		io_uring_prep_write(sqe, ub->fd, req->buf, req->length, req->offset);
	}
	if (ub->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data(sqe, req);
	return 0;
}

/*
 * Turn the queued requests into SQEs and submit them chunk by chunk; the
 * last chunk's io_uring_enter() also waits for `min_complete` completions.
 */
static int submit_chunks(struct uring_backend *ub, unsigned min_complete)
{
	struct pending *q = &ub->queued;
	unsigned handed = 0;
	int ret = 0;

	for (;;) {
		unsigned end = handed + backend_submit_chunk(handed, q->count - handed);

		for (; handed < end && !ret; handed++)
			ret = prep_sqe(ub, q->items[handed]);
		if (ret || handed == q->count)
			break;
		ret = io_uring_submit(&ub->ring);
		if (ret < 0)
			break;
		ret = 0;
	}
	q->count = 0;
	if (ret < 0)
		return ret;
	/*
	 * Nothing to wait for (a poll: backend_reap_until): still enter for
	 * events, since with deferred task work the kernel posts completions
	 * only then; io_uring_submit alone left them unseen until a later
	 * wait, and a timed replay's IOs "took" until its queue filled.
	 */
	return min_complete ? io_uring_submit_and_wait(&ub->ring, min_complete)
			    : io_uring_submit_and_get_events(&ub->ring);
}

static int uring_submit_and_reap(struct backend *be, unsigned min_complete,
				 struct io_request **done, unsigned max_done)
{
	struct uring_backend *ub = (struct uring_backend *)be;
	struct io_uring_cqe *cqe;
	unsigned head, n = 0;
	uint64_t now;
	int ret;

	ret = submit_chunks(ub, min_complete);
	if (ret < 0)
		return ret;
	now = monotonic_ns();
	io_uring_for_each_cqe(&ub->ring, head, cqe) {
		struct io_request *req = io_uring_cqe_get_data(cqe);

		if (n == max_done)
			break;
		req->result = cqe->res;
		req->complete_ns = now;
		done[n++] = req;
	}
	io_uring_cq_advance(&ub->ring, n);
	return (int)n;
}

static void uring_close(struct backend *be)
{
	struct uring_backend *ub = (struct uring_backend *)be;

	/*
	 * The kernel tears a ring down in a worker after io_uring_queue_exit()
	 * returns, and the registered file goes with it: until then the target
	 * stays open, so a block device stays claimed and the next run's
	 * exclusive open fails. Unregistering first drops it here and now.
	 */
	if (ub->fixed_file)
		io_uring_unregister_files(&ub->ring);
	io_uring_queue_exit(&ub->ring);
	free(ub);
}

static const struct backend_ops uring_ops = {
	.name = "io_uring",
	.queue = uring_queue,
	.submit_and_reap = uring_submit_and_reap,
	.now_ns = backend_wall_now_ns,
	.close = uring_close,
};

/* Try the cheapest ring flags first, then older kernels' subsets. */
static int ring_init(struct io_uring *ring, unsigned entries)
{
	static const unsigned flag_sets[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	int ret = -EINVAL;

	for (unsigned i = 0; i < sizeof(flag_sets) / sizeof(flag_sets[0]); i++) {
		struct io_uring_params params;

		memset(&params, 0, sizeof(params));
		params.flags = flag_sets[i];
		ret = io_uring_queue_init_params(entries, ring, &params);
		if (ret != -EINVAL)
			return ret;
	}
	return ret;
}

static void register_buffers(struct uring_backend *ub, const struct backend_params *p)
{
	struct iovec *iov = calloc(p->buffer_count, sizeof(*iov));

	if (!iov)
		return;
	for (unsigned i = 0; i < p->buffer_count; i++) {
		iov[i].iov_base = (char *)p->buffers + (size_t)i * p->buffer_size;
		iov[i].iov_len = p->buffer_size;
	}
	ub->fixed_buffers = io_uring_register_buffers(&ub->ring, iov, p->buffer_count) == 0;
	free(iov);
}

int uring_backend_open(struct backend **out, const struct backend_params *p,
		       struct errmsg *err)
{
	struct uring_backend *ub = calloc(1, sizeof(*ub) + p->queue_depth * sizeof(ub->slots[0]));
	int ret;

	if (!ub)
		return errmsg_set(err, -ENOMEM, "out of memory for the io_uring backend");
	ub->queued = (struct pending){ 0, p->queue_depth, ub->slots };
	ret = ring_init(&ub->ring, p->queue_depth);
	if (ret) {
		free(ub);
		return errmsg_set(err, ret, "io_uring_queue_init: %s", strerror(-ret));
	}
	ub->base.ops = &uring_ops;
	ub->fd = p->fd;
	if (io_uring_register_files(&ub->ring, &p->fd, 1) == 0) {
		ub->fd = 0;
		ub->fixed_file = true;
	}
	if (p->buffer_size <= (1ULL << 30))
		register_buffers(ub, p);
	*out = &ub->base;
	return 0;
}

unsigned uring_worker_threads(void)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *de;
	unsigned workers = 0;

	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		char path[300], comm[32] = "";
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "iou-wrk-", 8))
			workers++;
		fclose(f);
	}
	closedir(dir);
	return workers;
}
