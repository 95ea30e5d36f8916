/*
 * engine.c — the run loop of engine.h.
 *
 * Hot path, per batch of completions: one backend call that submits what was
 * queued and reaps what finished, one clock reading for the submission time
 * of the IOs queued next, and per IO a histogram increment, a compare for
 * the second's highest latency (the timeline takes each second's tally
 * when the second changes) and the next offset (drawn 64 at a time). No
 * allocation, no division on the common path.
 */
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "engine/offsets.h"
#include "util/rng.h"
#include "util/units.h"

/*
 * The IOs an op completed in the current second since its timeline last took
 * them: op_result.ios and bytes beyond these counts, and their highest
 * latency. The timeline, and the latency histogram's count and maximum,
 * take them when the second changes and when the phase ends
 * (timeline_flush), so that an IO costs them one compare.
 */
struct second_tally {
	uint64_t ios_before;
	uint64_t bytes_before;
	uint64_t max_lat_ns;
};

#define MIX_BATCH 64	/* read/write draws of a mixed job made at a time */

/* The fields every IO touches come first, in as few cache lines as may be. */
struct engine {
	struct backend *be;
	struct io_request **done;
	struct run_result *r;
	const volatile sig_atomic_t *stop;
	uint64_t issued_ios;
	uint64_t issue_end;	/* issue while issued_ios < issue_end: 0 once a stop rule fired */
	uint64_t last_complete_ns;
	uint64_t second_start_ns;
	struct backend_ops calls;	/* *be->ops, one load away on the hot path (set at open) */
	struct verify *verify;	/* NULL without --verify */
	unsigned inflight;
	bool measuring;
	bool mixed;		/* each IO's op drawn from `mix`; else always `op` */
	enum io_op op;
	uint64_t start_ns;
	struct second_tally tally[2];	/* per op: the IOs of `second` not in the timeline yet */
	struct offset_gen offsets;

	const struct job_spec *spec;
	struct rng mix;
	unsigned mix_pos;	/* mixed: ops[mix_pos ..] drawn, not yet used */
	uint8_t mix_ops[MIX_BATCH];	/* enum io_op */
	struct io_request *reqs;
	uint64_t issue_limit;	/* IOs a measurement may issue (--ios, --bytes) */
	bool out_of_memory;	/* the timeline could not grow: the run ended early */
	size_t second;		/* timeline second of (second_start, second_start + 1 s] */
};

int io_buffers_alloc(struct io_buffers *b, uint64_t bs, unsigned qd,
		     uint64_t limit, uint64_t seed, bool fill)
{
	uint64_t count = qd, total;
	struct rng rng;
	uint64_t *words;

	if (bs * qd > limit)
		count = limit / bs ? limit / bs : 1;
	total = count * bs;
	if (posix_memalign(&b->base, 4096, total))
		return -ENOMEM;
	b->count = (unsigned)count;
	b->size = bs;
	if (!fill)
		return 0;
	rng_init(&rng, seed ^ 0x5eedb10cULL);
	words = b->base;
	for (uint64_t i = 0; i < total / 8; i++)
		words[i] = rng_next(&rng);
	for (uint64_t i = total / 8 * 8; i < total; i++)
		((unsigned char *)b->base)[i] = (unsigned char)rng_next(&rng);
	return 0;
}

void io_buffers_release(struct io_buffers *b)
{
	free(b->base);
	memset(b, 0, sizeof(*b));
}

void run_result_init(struct run_result *r)
{
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < 2; i++) {
		hist_init(&r->op[i].lat);
		timeline_init(&r->op[i].timeline);
	}
}

void run_result_release(struct run_result *r)
{
	for (int i = 0; i < 2; i++)
		timeline_release(&r->op[i].timeline);
}

/*
 * --ios and --bytes as one count of IOs to issue: every request is bs bytes,
 * so `issued bytes < max_bytes` is `issued IOs < ceil(max_bytes / bs)`.
 */
static uint64_t issue_limit(const struct job_spec *spec)
{
	uint64_t limit = spec->max_ios ? spec->max_ios : UINT64_MAX;
	uint64_t by_bytes = spec->max_bytes / spec->bs + (spec->max_bytes % spec->bs != 0);

	return spec->max_bytes && by_bytes < limit ? by_bytes : limit;
}

static inline bool may_issue(const struct engine *e)
{
	return e->issued_ios < e->issue_end;
}

/* A stop rule fired (or an error): issue no more in this phase. */
static inline void stop_issuing(struct engine *e)
{
	e->issue_end = 0;
}

/* A mixed job's next MIX_BATCH read/write draws, in one loop (the same sequence). */
static void draw_ops(struct engine *e)
{
	struct rng r = e->mix;	/* a local copy stays in registers */
	unsigned read_pct = e->spec->read_pct;

	for (unsigned i = 0; i < MIX_BATCH; i++)
		e->mix_ops[i] = rng_below(&r, 100) < read_pct ? IO_READ : IO_WRITE;
	e->mix = r;
	e->mix_pos = 0;
}

static inline __attribute__((always_inline)) int issue(struct engine *e, struct io_request *req,
							  uint64_t now)
{
	if (e->mixed) {
		if (__builtin_expect(e->mix_pos == MIX_BATCH, 0))
			draw_ops(e);
		req->op = e->mix_ops[e->mix_pos++];
	} else {
		req->op = e->op;
	}
	req->offset = offset_gen_next(&e->offsets);
	if (e->verify)
		verify_before_queue(e->verify, req, &e->offsets);
	if (e->calls.prefetch)
		e->calls.prefetch(e->be, offset_gen_peek(&e->offsets), req->length);
	req->submit_ns = now;
	e->issued_ios++;
	e->inflight++;
	return e->calls.queue(e->be, req);
}

static void record_error(struct engine *e, const struct io_request *req)
{
	struct run_error *err = &e->r->error;

	stop_issuing(e);
	if (err->set)
		return;
	err->set = true;
	err->op = req->op;
	err->offset = req->offset;
	err->length = req->length;
	err->result = req->result;
}

/* Out of memory for the timeline: end the run, keep what we have. */
static void timeline_failed(struct engine *e)
{
	stop_issuing(e);
	e->out_of_memory = true;
}

/* Give each op's timeline and histogram tally the IOs of `second` not taken yet. */
static void timeline_flush(struct engine *e)
{
	for (int i = 0; i < 2; i++) {
		struct op_result *op = &e->r->op[i];
		struct second_tally *t = &e->tally[i];
		uint64_t ios = op->ios - t->ios_before;

		if (!ios)
			continue;
		hist_add_tally(&op->lat, ios, t->max_lat_ns);
		if (timeline_add_ios(&op->timeline, e->second, ios, op->bytes - t->bytes_before,
				     t->max_lat_ns))
			timeline_failed(e);
		*t = (struct second_tally){ op->ios, op->bytes, 0 };
	}
}

/*
 * A completion at `done` outside the current second: the timeline takes the
 * old second's IOs, and the new second gets its place in the timeline of
 * `op`, whose IO it is (the other op's when its first IO there is taken).
 */
static void enter_second(struct engine *e, uint64_t done, enum io_op op)
{
	struct timeline *t = &e->r->op[op].timeline;

	timeline_flush(e);
	/* second k holds completions in (k s, k+1 s]: a run of exactly N s has N seconds */
	e->second = done > e->start_ns ? (done - e->start_ns - 1) / NSEC_PER_SEC : 0;
	e->second_start_ns = e->start_ns + e->second * NSEC_PER_SEC;
	if (e->second >= t->len && timeline_grow(t, e->second))
		timeline_failed(e);
}

static inline __attribute__((always_inline)) void account(struct engine *e,
							     const struct io_request *req)
{
	struct op_result *op = &e->r->op[req->op];
	struct second_tally *t = &e->tally[req->op];
	uint64_t done = req->complete_ns;
	uint64_t lat = done > req->submit_ns ? done - req->submit_ns : 0;

	/* done in (second_start, second_start + 1 s], in one compare */
	if (__builtin_expect(done - e->second_start_ns - 1 >= NSEC_PER_SEC, 0))
		enter_second(e, done, req->op);
	op->ios++;
	hist_add_untallied(&op->lat, lat);
	op->bytes += req->length;
	if (lat > t->max_lat_ns)
		t->max_lat_ns = lat;
	if (done > e->last_complete_ns)
		e->last_complete_ns = done;
}

/* A request came back (inflight already counts it out): its error, or its measurement. */
static inline __attribute__((always_inline)) void take(struct engine *e,
							  const struct io_request *req, bool measuring)
{
	if (__builtin_expect(req->result != (int64_t)req->length, 0))
		record_error(e, req);
	else if (measuring)
		account(e, req);
}

static inline __attribute__((always_inline)) void complete(struct engine *e,
							      const struct io_request *req)
{
	e->inflight--;
	take(e, req, e->measuring);
}

/* The `n` requests of done[] came back (no --verify). */
static inline __attribute__((always_inline)) void complete_batch(struct engine *e, int n)
{
	struct io_request *const *done = e->done;
	const bool measuring = e->measuring;

	e->inflight -= (unsigned)n;
	for (int i = 0; i < n; i++)
		take(e, done[i], measuring);
}

/*
 * --verify: each completion goes to verify.c first; a check read that went
 * back in flight as its write leaves done[]. Returns the requests done, or a
 * negative errno.
 */
static int complete_verified(struct engine *e, int n)
{
	int kept = 0;

	for (int i = 0; i < n; i++) {
		int ret = verify_after_complete(e->verify, e->done[i], e->be);

		if (ret < 0)
			return ret;
		if (ret == 0) {
			complete(e, e->done[i]);
			e->done[kept++] = e->done[i];
		}
	}
	return kept;
}

static void start_phase(struct engine *e, bool measuring, uint64_t now)
{
	e->measuring = measuring;
	e->issue_end = measuring ? e->issue_limit : UINT64_MAX;
	e->issued_ios = 0;
	e->start_ns = now;
	e->last_complete_ns = now;
	e->second = 0;
	e->second_start_ns = now;
	for (int i = 0; i < 2; i++)
		e->tally[i] = (struct second_tally){ e->r->op[i].ios, e->r->op[i].bytes, 0 };
}

/* Reissue the `n` requests in done[] at `now` while the stop rules let it. */
static inline __attribute__((always_inline)) int reissue(struct engine *e, int n, uint64_t now)
{
	for (int i = 0; i < n && may_issue(e); i++) {
		int ret = issue(e, e->done[i], now);

		if (ret)
			return ret;
	}
	return 0;
}

/*
 * After a reap of `n` (>= 0) requests: complete them, apply the stop rules
 * (the stop flag, the phase's time), reissue. 0 or a negative errno.
 */
static inline __attribute__((always_inline)) int after_reap(struct engine *e, int n,
							       uint64_t duration_ns)
{
	uint64_t now;

	if (!e->verify)
		complete_batch(e, n);
	else if ((n = complete_verified(e, n)) < 0)
		return n;
	if (*e->stop) {
		stop_issuing(e);
		e->r->interrupted = true;
	}
	now = e->calls.now_ns(e->be);
	if (duration_ns && now - e->start_ns >= duration_ns)
		stop_issuing(e);
	return reissue(e, n, now);
}

/*
 * The loop of run_phase: fill the queue, then reap and go on. A reap mostly
 * brings one request (always at QD 1; on a simulated drive, whose requests
 * rarely end at the same nanosecond, at any depth): after_reap() for n = 1
 * is compiled apart, without its loops.
 */
static inline __attribute__((always_inline)) int run_loop(struct engine *e,
							     uint64_t duration_ns, uint64_t now)
{
	unsigned qd = e->spec->qd;
	int ret = 0;

	for (unsigned i = 0; i < qd && may_issue(e) && !ret; i++)
		ret = issue(e, &e->reqs[i], now);
	while (!ret && e->inflight) {
		int n = e->calls.submit_and_reap(e->be, 1, e->done, qd);

		if (__builtin_expect(n == 1, 1))
			ret = after_reap(e, 1, duration_ns);
		else if (n >= 0 || n == -EINTR)
			ret = after_reap(e, n < 0 ? 0 : n, duration_ns);
		else
			return n;
	}
	return ret;
}

/* Run until `duration_ns` (0: no limit) or another stop rule, then drain. */
static int run_phase(struct engine *e, uint64_t duration_ns, bool measuring)
{
	uint64_t now = backend_now_ns(e->be);
	int ret;

	start_phase(e, measuring, now);
	ret = run_loop(e, duration_ns, now);
	if (measuring)
		timeline_flush(e);
	return ret;
}

static double timeval_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* --verify: read the region back after a job that wrote (verify.h). */
static int verify_pass(struct engine *e)
{
	struct job_spec pass = *e->spec;
	struct engine p = *e;
	struct run_result *scratch = malloc(sizeof(*scratch));
	struct errmsg err;
	int ret;

	if (!scratch)
		return -ENOMEM;
	pass.random = false;
	pass.read_pct = 100;
	pass.max_ios = verify_pass_ios(e->verify);
	pass.max_bytes = pass.runtime_ns = pass.ramp_ns = 0;
	run_result_init(scratch);
	p.spec = &pass;
	p.mixed = false;
	p.op = IO_READ;
	p.issue_limit = issue_limit(&pass);
	p.r = scratch;
	ret = offset_gen_init(&p.offsets, pass.offset, pass.length, pass.bs, pass.align, false,
			      pass.seed, &err);
	if (!ret)
		ret = run_phase(&p, 0, true);
	verify_pass_done(e->verify, scratch->op[IO_READ].ios, p.last_complete_ns - p.start_ns);
	e->r->interrupted = scratch->interrupted;
	e->r->error = scratch->error;
	if (!ret && p.out_of_memory)
		ret = -ENOMEM;
	run_result_release(scratch);
	free(scratch);
	return ret;
}

static int verify_setup(struct engine *e, const struct job_spec *spec, unsigned first_slot,
			struct errmsg *err)
{
	struct verify_params p = {
		.mode = spec->verify, .generation = spec->verify_generation,
		.writes = spec->read_pct < 100, .first = e->offsets.first,
		.slots = e->offsets.positions, .bs = (uint32_t)spec->bs, .qd = spec->qd,
		.stream = spec->verify_stream, .ledger = spec->verify_ledger,
		.job = spec->verify_job, .first_slot = first_slot,
	};
	int ret = verify_check_job(&p, spec->align, spec->verify == VERIFY_READ_BACK, err);

	return ret ? ret : verify_create(&e->verify, &p, err);
}

/* Requests get slots first_slot .. first_slot + qd - 1, a buffer each where there are enough. */
static int engine_setup(struct engine *e, const struct job_spec *spec,
			const struct io_buffers *bufs, unsigned first_slot, struct errmsg *err)
{
	int ret = offset_gen_init(&e->offsets, spec->offset, spec->length, spec->bs,
				  spec->align, spec->random, spec->seed, err);

	if (!ret && spec->verify)
		ret = verify_setup(e, spec, first_slot, err);
	if (ret)
		return ret;
	e->calls = *e->be->ops;
	rng_init(&e->mix, spec->seed ^ 0x6d6978ULL);
	e->mix_pos = MIX_BATCH;	/* the first IO draws a batch */
	e->mixed = spec->read_pct > 0 && spec->read_pct < 100;
	e->op = spec->read_pct ? IO_READ : IO_WRITE;
	e->issue_limit = issue_limit(spec);
	/* cache-line aligned: at QD 1 the request is one line, not two */
	if (posix_memalign((void **)&e->reqs, 64, spec->qd * sizeof(*e->reqs)))
		e->reqs = NULL;
	e->done = calloc(spec->qd, sizeof(*e->done));
	if (!e->reqs || !e->done)
		return errmsg_set(err, -ENOMEM, "out of memory for %u requests", spec->qd);
	memset(e->reqs, 0, spec->qd * sizeof(*e->reqs));
	for (unsigned i = 0; i < spec->qd; i++) {
		struct io_request *req = &e->reqs[i];

		req->slot = first_slot + i;
		/* no two streams' requests share a buffer (--verify writes stamp them) */
		req->buf_index = req->slot % bufs->count;
		req->buf = (char *)bufs->base + (size_t)req->buf_index * bufs->size;
		req->length = (uint32_t)spec->bs;
	}
	return 0;
}

int engine_run(const struct job_spec *spec, struct backend *be,
	       const struct io_buffers *bufs, const volatile sig_atomic_t *stop,
	       struct run_result *r, struct errmsg *err)
{
	struct engine e = { .spec = spec, .be = be, .stop = stop, .r = r };
	struct rusage before, after;
	int ret = engine_setup(&e, spec, bufs, 0, err);

	if (!ret && spec->ramp_ns)
		ret = run_phase(&e, spec->ramp_ns, false);
	if (!ret && !r->error.set && !r->interrupted) {
		getrusage(RUSAGE_SELF, &before);
		ret = run_phase(&e, spec->runtime_ns, true);
		getrusage(RUSAGE_SELF, &after);
		r->elapsed_ns = e.last_complete_ns - e.start_ns;
		r->cpu_user_s = timeval_s(after.ru_utime) - timeval_s(before.ru_utime);
		r->cpu_sys_s = timeval_s(after.ru_stime) - timeval_s(before.ru_stime);
	}
	if (!ret && e.verify && verify_pass_ios(e.verify) && !r->error.set && !r->interrupted)
		ret = verify_pass(&e);
	if (e.verify)
		verify_finish(e.verify, &r->verify);
	verify_free(e.verify);
	free(e.reqs);
	free(e.done);
	if (!ret && e.out_of_memory)
		ret = errmsg_set(err, -ENOMEM, "out of memory for the per-second timeline; "
				 "the run ended early");
	if (ret && ret != -ENOMEM && !err->text[0])
		errmsg_set(err, ret, "backend %s failed: %s", backend_name(be), strerror(-ret));
	if (!ret && r->error.set)
		ret = -EIO;
	return ret;
}

/* ---- one stream among several on a backend (stream.h, for streams.c) ---- */

int engine_stream_open(struct engine **out, const struct job_spec *spec, struct backend *be,
		       const struct io_buffers *bufs, unsigned first_slot,
		       struct run_result *r, struct errmsg *err)
{
	struct engine *e = calloc(1, sizeof(*e));
	int ret;

	if (!e)
		return errmsg_set(err, -ENOMEM, "out of memory for a stream");
	*e = (struct engine){ .spec = spec, .be = be, .r = r };
	ret = engine_setup(e, spec, bufs, first_slot, err);
	if (ret) {
		verify_free(e->verify);
		free(e->reqs);
		free(e->done);
		free(e);
		return ret;
	}
	*out = e;
	return 0;
}

int engine_stream_start(struct engine *e, bool measuring, uint64_t now)
{
	int ret = 0;

	start_phase(e, measuring, now);
	for (unsigned i = 0; i < e->spec->qd && may_issue(e) && !ret; i++)
		ret = issue(e, &e->reqs[i], now);
	return ret;
}

int engine_stream_complete(struct engine *e, struct io_request *req)
{
	int ret = e->verify ? verify_after_complete(e->verify, req, e->be) : 0;

	if (ret == 0)
		complete(e, req);
	return ret;
}

int engine_stream_verify_pass(struct engine *e, const volatile sig_atomic_t *stop)
{
	if (!e->verify || !verify_pass_ios(e->verify) || e->r->error.set || e->r->interrupted)
		return 0;
	e->stop = stop;
	return verify_pass(e);
}

int engine_stream_reissue(struct engine *e, struct io_request *req, uint64_t now)
{
	return may_issue(e) ? issue(e, req, now) : 0;
}

void engine_stream_stop(struct engine *e)
{
	stop_issuing(e);
}

void engine_stream_check_time(struct engine *e, uint64_t duration_ns, uint64_t now)
{
	if (duration_ns && now - e->start_ns >= duration_ns)
		stop_issuing(e);
}

unsigned engine_stream_inflight(const struct engine *e)
{
	return e->inflight;
}

void engine_stream_end_measurement(struct engine *e)
{
	timeline_flush(e);
	e->r->elapsed_ns = e->last_complete_ns - e->start_ns;
}

int engine_stream_close(struct engine *e, int ret, struct errmsg *err)
{
	if (!ret && e->out_of_memory)
		ret = errmsg_set(err, -ENOMEM, "out of memory for the per-second timeline; "
				 "the run ended early");
	if (!ret && e->r->error.set)
		ret = -EIO;
	if (e->verify)
		verify_finish(e->verify, &e->r->verify);
	verify_free(e->verify);
	free(e->reqs);
	free(e->done);
	free(e);
	return ret;
}
