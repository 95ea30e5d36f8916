/* backend.c — choosing a backend by name, with the io_uring → libaio → psync fallback. */
#include "backend.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "util/clock.h"

static const char *const kind_names[] = {
	[BACKEND_IO_URING] = "io_uring",
	[BACKEND_LIBAIO] = "libaio",
	[BACKEND_PSYNC] = "psync",
	[BACKEND_NULL] = "null",
};

int backend_kind_parse(const char *name, enum backend_kind *out)
{
	for (unsigned i = 0; i < BACKEND_NULL; i++) {
		if (strcmp(name, kind_names[i]) == 0) {
			*out = (enum backend_kind)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *backend_name(const struct backend *be)
{
	return be->ops->name;
}

uint64_t backend_wall_now_ns(struct backend *be)
{
	(void)be;
	return monotonic_ns();
}

/* Longest sleep between two polls of a wall-clock backend waiting for a deadline. */
#define POLL_SLEEP_NS 100000ULL
/* Longest wait of one call, so that its caller sees a stop flag (SIGINT) in time. */
#define MAX_WAIT_NS 10000000ULL

int backend_reap_until(struct backend *be, uint64_t deadline_ns, struct io_request **done,
		       unsigned max_done)
{
	uint64_t give_up = monotonic_ns() + MAX_WAIT_NS;

	if (be->ops->reap_until)
		return be->ops->reap_until(be, deadline_ns, done, max_done);
	if (deadline_ns > give_up)
		deadline_ns = give_up;
	for (;;) {
		int n = be->ops->submit_and_reap(be, 0, done, max_done);
		uint64_t now = monotonic_ns();
		uint64_t nap;

		if (n || now >= deadline_ns)
			return n;
		nap = deadline_ns - now < POLL_SLEEP_NS ? deadline_ns - now : POLL_SLEEP_NS;
		nanosleep(&(struct timespec){ .tv_nsec = (long)nap }, NULL);
	}
}

static int open_one(struct backend **out, enum backend_kind kind,
		    const struct backend_params *p, struct errmsg *err)
{
	switch (kind) {
	case BACKEND_IO_URING:
		return uring_backend_open(out, p, err);
	case BACKEND_LIBAIO:
		return aio_backend_open(out, p, err);
	case BACKEND_PSYNC:
		return psync_backend_open(out, p, err);
	case BACKEND_NULL:
		return null_backend_open(out, p, err);
	}
	return -EINVAL;
}

/* Failures that mean "this kernel interface is not available here". */
static bool unavailable(int ret)
{
	return ret == -ENOSYS || ret == -EPERM || ret == -EOPNOTSUPP ||
	       ret == -EAGAIN;
}

int backend_open(struct backend **out, enum backend_kind kind,
		 const struct backend_params *p, struct errmsg *notice,
		 struct errmsg *err)
{
	struct errmsg why;
	int ret;

	notice->text[0] = '\0';
	ret = open_one(out, kind, p, &why);
	while (ret && unavailable(ret) &&
	       (kind == BACKEND_IO_URING || kind == BACKEND_LIBAIO)) {
		enum backend_kind next = kind == BACKEND_IO_URING ? BACKEND_LIBAIO : BACKEND_PSYNC;

		errmsg_set(notice, 0, "%s unavailable (%s); using %s",
			   kind_names[kind], why.text, kind_names[next]);
		kind = next;
		ret = open_one(out, kind, p, &why);
	}
	if (ret)
		return errmsg_set(err, ret, "%s", why.text);
	return 0;
}
