/*
 * streams.c — the one-thread, many-streams loop of streams.h. It has the
 * shape of engine_run's loop (engine.c): reap a batch, hand each request to
 * the stream that owns its slot, apply the stop rules, reissue; the per-IO
 * steps are the streams' own (engine/stream.h). With --verify, each stream's
 * read-back pass follows the measurement, one stream at a time.
 */
#include "streams.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "engine/stream.h"
#include "util/bug.h"

struct streams {
	const struct job_spec *specs;
	unsigned n;
	struct engine **s;
	unsigned *owner;		/* slot -> stream */
	unsigned total_qd;
	struct io_request **done;
	struct backend *be;
	const volatile sig_atomic_t *stop;
	struct run_result *results;
};

static unsigned total_inflight(const struct streams *ss)
{
	unsigned sum = 0;

	for (unsigned i = 0; i < ss->n; i++)
		sum += engine_stream_inflight(ss->s[i]);
	return sum;
}

static void stop_all(struct streams *ss, bool interrupted)
{
	for (unsigned i = 0; i < ss->n; i++) {
		engine_stream_stop(ss->s[i]);
		if (interrupted)
			ss->results[i].interrupted = true;
	}
}

static uint64_t phase_length(const struct job_spec *s, bool measuring)
{
	return measuring ? s->runtime_ns : s->ramp_ns;
}

/*
 * Complete a reaped batch of `*n`: a --verify check read that went back in
 * flight as its write leaves done[] (`*n` is what is left to reissue).
 * Returns 1 when one of the IOs failed, else 0, or a negative errno.
 */
static int complete_batch(struct streams *ss, int *n)
{
	bool failed = false;
	int kept = 0;

	for (int k = 0; k < *n; k++) {
		unsigned owner = ss->owner[ss->done[k]->slot];
		int ret = engine_stream_complete(ss->s[owner], ss->done[k]);

		if (ret < 0)
			return ret;
		if (ret == 0)
			ss->done[kept++] = ss->done[k];
		failed |= ss->results[owner].error.set;
	}
	*n = kept;
	return failed;
}

static int run_phase(struct streams *ss, bool measuring)
{
	uint64_t now = backend_now_ns(ss->be);
	int ret = 0, failed;

	for (unsigned i = 0; i < ss->n && !ret; i++) {
		if (measuring || ss->specs[i].ramp_ns)
			ret = engine_stream_start(ss->s[i], measuring, now);
	}
	while (!ret && total_inflight(ss)) {
		int n = backend_submit_and_reap(ss->be, 1, ss->done, ss->total_qd);

		if (n < 0 && n != -EINTR)
			return n;
		if (n < 0)
			n = 0;
		failed = complete_batch(ss, &n);
		if (failed < 0)
			return failed;
		if (failed || *ss->stop)
			stop_all(ss, *ss->stop != 0);
		now = backend_now_ns(ss->be);
		for (unsigned i = 0; i < ss->n; i++)
			engine_stream_check_time(ss->s[i], phase_length(&ss->specs[i], measuring),
						 now);
		for (int k = 0; k < n && !ret; k++)
			ret = engine_stream_reissue(ss->s[ss->owner[ss->done[k]->slot]],
						    ss->done[k], now);
	}
	return ret;
}

static int streams_setup(struct streams *ss, const struct io_buffers *bufs, struct errmsg *err)
{
	unsigned slot = 0;

	for (unsigned i = 0; i < ss->n; i++)
		ss->total_qd += ss->specs[i].qd;
	ss->s = calloc(ss->n, sizeof(*ss->s));
	ss->owner = calloc(ss->total_qd, sizeof(*ss->owner));
	ss->done = calloc(ss->total_qd, sizeof(*ss->done));
	if (!ss->s || !ss->owner || !ss->done)
		return errmsg_set(err, -ENOMEM, "out of memory for %u streams", ss->n);
	for (unsigned i = 0; i < ss->n; i++) {
		int ret = engine_stream_open(&ss->s[i], &ss->specs[i], ss->be, bufs, slot,
					     &ss->results[i], err);

		if (ret)
			return ret;
		for (unsigned q = 0; q < ss->specs[i].qd; q++)
			ss->owner[slot++] = i;
	}
	return 0;
}

static bool any_ended(const struct streams *ss)
{
	for (unsigned i = 0; i < ss->n; i++)
		if (ss->results[i].error.set || ss->results[i].interrupted)
			return true;
	return false;
}

static double timeval_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* The measured phase, with the process's CPU time around it given to every stream. */
static int measure(struct streams *ss)
{
	struct rusage before, after;
	int ret;

	getrusage(RUSAGE_SELF, &before);
	ret = run_phase(ss, true);
	getrusage(RUSAGE_SELF, &after);
	for (unsigned i = 0; i < ss->n; i++) {
		engine_stream_end_measurement(ss->s[i]);
		ss->results[i].cpu_user_s = timeval_s(after.ru_utime) - timeval_s(before.ru_utime);
		ss->results[i].cpu_sys_s = timeval_s(after.ru_stime) - timeval_s(before.ru_stime);
	}
	return ret;
}

int engine_run_streams(const struct job_spec *specs, unsigned n, struct backend *be,
		       const struct io_buffers *bufs, const volatile sig_atomic_t *stop,
		       struct run_result *results, struct errmsg *err)
{
	struct streams ss = { .specs = specs, .n = n, .be = be, .stop = stop,
			      .results = results };
	bool ramp = false;
	int ret, first = 0;

	BUG_ON(n == 0 || n > STREAMS_MAX);
	ret = streams_setup(&ss, bufs, err);
	for (unsigned i = 0; i < n; i++)
		ramp |= specs[i].ramp_ns > 0;
	if (!ret && ramp)
		ret = run_phase(&ss, false);
	if (!ret && !any_ended(&ss))
		ret = measure(&ss);
	/* --verify: each stream's pass, one after the other (any_ended: none at all) */
	for (unsigned i = 0; i < n && !ret && !any_ended(&ss); i++)
		ret = engine_stream_verify_pass(ss.s[i], stop);
	if (ret && ret != -ENOMEM && !err->text[0])
		errmsg_set(err, ret, "backend %s failed: %s", backend_name(be), strerror(-ret));
	for (unsigned i = 0; i < n; i++) {
		int r = ss.s && ss.s[i] ? engine_stream_close(ss.s[i], ret, err) : ret;

		if (r && !first)
			first = r;
	}
	free(ss.s);
	free(ss.owner);
	free(ss.done);
	return first;
}
