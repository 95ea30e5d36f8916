/*
 * test_engine.c — the engine against a scripted backend with a virtual clock:
 * every IO takes a fixed time, IOs run in parallel, and one offset can be made
 * to fail. Proves that the engine takes all its time from the backend, stops
 * on each rule, excludes warm-up, counts exactly, and reports errors.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/engine.h"
#include "util/units.h"

struct fake_backend {
	struct backend base;
	uint64_t now;
	uint64_t service_ns;
	uint64_t fail_offset;	/* UINT64_MAX: none */
	bool uneven;		/* service_ns times 1 to 5 by offset, and a reap takes all */
	unsigned inflight;
	unsigned peak_inflight;
	struct io_request *queue[1024];
	size_t logged;		/* what reap handed back: op, completion, latency */
	struct { enum io_op op; uint64_t done, lat; } log[1024];
};

static int fake_queue(struct backend *be, struct io_request *req)
{
	struct fake_backend *fb = (struct fake_backend *)be;

	req->complete_ns = req->submit_ns + fb->service_ns *
			   (fb->uneven ? 1 + req->offset / 4096 % 5 : 1);
	req->result = req->offset == fb->fail_offset ? -EIO : (int64_t)req->length;
	fb->queue[fb->inflight++] = req;
	if (fb->inflight > fb->peak_inflight)
		fb->peak_inflight = fb->inflight;
	return 0;
}

/* Advance the virtual clock to the earliest completion and hand back all due. */
static int fake_reap(struct backend *be, unsigned min, struct io_request **done, unsigned max)
{
	struct fake_backend *fb = (struct fake_backend *)be;
	uint64_t earliest = UINT64_MAX;
	unsigned n = 0, kept = 0;

	(void)min;
	for (unsigned i = 0; i < fb->inflight; i++)
		if (fb->queue[i]->complete_ns < earliest || (fb->uneven && earliest == UINT64_MAX))
			earliest = fb->queue[i]->complete_ns;
	for (unsigned i = 0; fb->uneven && i < fb->inflight; i++)
		if (fb->queue[i]->complete_ns > earliest)
			earliest = fb->queue[i]->complete_ns;	/* the latest: all are due */
	if (earliest != UINT64_MAX && earliest > fb->now)
		fb->now = earliest;
	for (unsigned i = 0; i < fb->inflight; i++) {
		if (fb->queue[i]->complete_ns <= fb->now && n < max)
			done[n++] = fb->queue[i];
		else
			fb->queue[kept++] = fb->queue[i];
	}
	fb->inflight = kept;
	for (unsigned i = 0; i < n && fb->logged < sizeof(fb->log) / sizeof(fb->log[0]); i++)
		fb->log[fb->logged++] = (__typeof__(fb->log[0])){ done[i]->op, done[i]->complete_ns,
			done[i]->complete_ns - done[i]->submit_ns };
	return (int)n;
}

static uint64_t fake_now(struct backend *be)
{
	return ((struct fake_backend *)be)->now;
}

static void fake_close(struct backend *be)
{
	(void)be;
}

static const struct backend_ops fake_ops = {
	"fake", fake_queue, fake_reap, fake_now, fake_close, NULL, NULL,
};

struct fixture {
	struct fake_backend fb;
	struct job_spec spec;
	struct io_buffers bufs;
	struct run_result r;
	struct errmsg err;
	volatile sig_atomic_t stop;
};

static void fixture_init(struct fixture *f, unsigned qd, uint64_t service_ns)
{
	memset(f, 0, sizeof(*f));
	f->fb.base.ops = &fake_ops;
	f->fb.now = 1000;	/* not zero: times must be relative to the start */
	f->fb.service_ns = service_ns;
	f->fb.fail_offset = UINT64_MAX;
	f->spec = (struct job_spec){ .random = true, .read_pct = 100, .bs = 4096,
		.align = 4096, .qd = qd, .length = 1ULL << 30, .seed = 1 };
	io_buffers_alloc(&f->bufs, 4096, qd, 1ULL << 30, 1, false);
	run_result_init(&f->r);
}

static int fixture_run(struct fixture *f)
{
	return engine_run(&f->spec, &f->fb.base, &f->bufs, &f->stop, &f->r, &f->err);
}

static void fixture_release(struct fixture *f)
{
	run_result_release(&f->r);
	io_buffers_release(&f->bufs);
}

static void stop_on_ios(struct check_state *st)
{
	struct fixture f;

	fixture_init(&f, 8, 100000);
	f.spec.max_ios = 1001;
	CHECK(st, fixture_run(&f) == 0, "run: %s", f.err.text);
	CHECK(st, f.r.op[IO_READ].ios == 1001, "ios %llu", (unsigned long long)f.r.op[IO_READ].ios);
	CHECK(st, f.r.op[IO_WRITE].ios == 0, "no writes");
	CHECK(st, f.fb.peak_inflight == 8, "queue depth kept: %u", f.fb.peak_inflight);
	/* 1001 IOs of 100 us, 8 at a time: ceil(1001/8) = 126 rounds */
	CHECK(st, f.r.elapsed_ns == 126 * 100000ULL, "virtual elapsed %llu",
	      (unsigned long long)f.r.elapsed_ns);
	CHECK(st, f.r.op[IO_READ].lat.min == 100000 && f.r.op[IO_READ].lat.max == 100000,
	      "every latency is the service time");
	CHECK(st, hist_percentile(&f.r.op[IO_READ].lat, 99) == 100000, "p99");
	fixture_release(&f);
}

static void stop_on_runtime_and_timeline(struct check_state *st)
{
	struct fixture f;
	const struct timeline *t;

	fixture_init(&f, 1, 250000);	/* 4000 IOPS */
	f.spec.runtime_ns = 3 * NSEC_PER_SEC;
	CHECK(st, fixture_run(&f) == 0, "run");
	CHECK(st, f.r.op[IO_READ].ios == 12000, "3 s at 4000 IOPS: %llu",
	      (unsigned long long)f.r.op[IO_READ].ios);
	t = &f.r.op[IO_READ].timeline;
	CHECK(st, t->len == 3 || t->len == 4, "timeline seconds %zu", t->len);
	CHECK(st, t->seconds[0].ios >= 3999 && t->seconds[1].ios == 4000,
	      "per second %llu %llu", (unsigned long long)t->seconds[0].ios,
	      (unsigned long long)t->seconds[1].ios);
	CHECK(st, t->seconds[1].max_lat_ns == 250000, "timeline max latency");
	fixture_release(&f);
}

/*
 * Reads and writes of uneven latencies, a reap taking every request in
 * flight (so that completions go back and forth across second boundaries):
 * each op's timeline holds each of its IOs in the second of its completion
 * (second k: (k s, k+1 s] after the start) with their highest latency, and
 * the histogram's maximum is the highest latency of all.
 */
static void timeline_of_uneven_mix(struct check_state *st)
{
	static struct fixture f;
	static struct timeline_second want[2][8];
	uint64_t max[2] = { 0, 0 };
	int bad = 0;

	fixture_init(&f, 16, 70 * 1000000ULL);	/* 70 to 350 ms */
	f.fb.uneven = true;
	f.spec.read_pct = 60;
	f.spec.runtime_ns = 5 * NSEC_PER_SEC;
	CHECK(st, fixture_run(&f) == 0, "run");
	for (size_t i = 0; i < f.fb.logged; i++) {
		struct timeline_second *w = &want[f.fb.log[i].op][(f.fb.log[i].done - 1000 - 1) /
								NSEC_PER_SEC];

		w->ios++;
		w->bytes += 4096;
		w->max_lat_ns = f.fb.log[i].lat > w->max_lat_ns ? f.fb.log[i].lat : w->max_lat_ns;
		max[f.fb.log[i].op] = f.fb.log[i].lat > max[f.fb.log[i].op] ? f.fb.log[i].lat
										: max[f.fb.log[i].op];
	}
	for (int k = 0; k < 2; k++) {
		const struct timeline *t = &f.r.op[k].timeline;

		for (size_t s = 0; s < 8 && !bad; s++) {
			struct timeline_second got = s < t->len ? t->seconds[s]
							: (struct timeline_second){ 0 };

			bad = memcmp(&got, &want[k][s], sizeof(got)) != 0;
			CHECK(st, !bad, "%s second %zu: %llu IOs max %llu, want %llu max %llu",
			      io_op_name(k), s, (unsigned long long)got.ios,
			      (unsigned long long)got.max_lat_ns, (unsigned long long)want[k][s].ios,
			      (unsigned long long)want[k][s].max_lat_ns);
		}
		CHECK(st, f.r.op[k].lat.max == max[k] && f.r.op[k].ios > 20, "%s: %llu IOs, max %llu",
		      io_op_name(k), (unsigned long long)f.r.op[k].ios,
		      (unsigned long long)f.r.op[k].lat.max);
	}
	fixture_release(&f);
}

static void stop_on_bytes_and_mixed(struct check_state *st)
{
	struct fixture f;
	uint64_t reads, writes;

	fixture_init(&f, 4, 1000);
	f.spec.read_pct = 70;
	f.spec.max_bytes = 4096ULL * 10000 - 1;	/* reached by the 10000th IO */
	CHECK(st, fixture_run(&f) == 0, "run");
	reads = f.r.op[IO_READ].ios;
	writes = f.r.op[IO_WRITE].ios;
	CHECK(st, reads + writes == 10000, "total %llu", (unsigned long long)(reads + writes));
	CHECK(st, fabs((double)reads / 10000 - 0.7) < 0.03, "read share %.3f", reads / 10000.0);
	fixture_release(&f);
}

static void ramp_is_excluded(struct check_state *st)
{
	struct fixture f;

	fixture_init(&f, 2, 1000000);	/* 1 ms per IO */
	f.spec.ramp_ns = 100 * 1000000ULL;
	f.spec.max_ios = 10;
	CHECK(st, fixture_run(&f) == 0, "run");
	CHECK(st, f.r.op[IO_READ].ios == 10, "only measured IOs counted: %llu",
	      (unsigned long long)f.r.op[IO_READ].ios);
	CHECK(st, f.r.elapsed_ns == 5 * 1000000ULL, "elapsed excludes the ramp: %llu",
	      (unsigned long long)f.r.elapsed_ns);
	fixture_release(&f);
}

static void io_error_reported(struct check_state *st)
{
	struct fixture f;
	int ret;

	fixture_init(&f, 4, 1000);
	f.spec.random = false;
	f.spec.max_ios = 100;
	f.fb.fail_offset = 20 * 4096;
	ret = fixture_run(&f);
	CHECK(st, ret == -EIO, "run returns -EIO: %d", ret);
	CHECK(st, f.r.error.set && f.r.error.offset == 20 * 4096 && f.r.error.result == -EIO,
	      "error names offset %llu", (unsigned long long)f.r.error.offset);
	CHECK(st, f.fb.inflight == 0, "queue drained after the error");
	CHECK(st, f.r.op[IO_READ].ios >= 20 && f.r.op[IO_READ].ios < 100,
	      "results up to the error kept: %llu", (unsigned long long)f.r.op[IO_READ].ios);
	fixture_release(&f);
}

static void stop_flag(struct check_state *st)
{
	struct fixture f;

	fixture_init(&f, 4, 1000);
	f.spec.runtime_ns = 10 * NSEC_PER_SEC;
	f.stop = 1;
	CHECK(st, fixture_run(&f) == 0, "interrupted run returns 0");
	CHECK(st, f.r.interrupted, "marked interrupted");
	CHECK(st, f.r.op[IO_READ].ios == 4, "in-flight IOs drained and counted: %llu",
	      (unsigned long long)f.r.op[IO_READ].ios);
	CHECK(st, f.fb.inflight == 0, "nothing left in flight");
	fixture_release(&f);
}

static void buffers_shared_beyond_limit(struct check_state *st)
{
	struct io_buffers b;
	const unsigned char *p;
	unsigned zeros = 0;

	CHECK(st, io_buffers_alloc(&b, 1 << 20, 64, 8 << 20, 3, true) == 0, "alloc");
	CHECK(st, b.count == 8, "64 slots share 8 buffers under an 8 MiB limit: %u", b.count);
	p = b.base;
	for (size_t i = 0; i < (8u << 20); i++)
		zeros += p[i] == 0;
	CHECK(st, zeros < (8u << 20) / 100, "buffers hold incompressible data (%u zero bytes)",
	      zeros);
	io_buffers_release(&b);
}

int main(void)
{
	struct check_state st = { 0, 0 };

	stop_on_ios(&st);
	stop_on_runtime_and_timeline(&st);
	stop_on_bytes_and_mixed(&st);
	timeline_of_uneven_mix(&st);
	ramp_is_excluded(&st);
	io_error_reported(&st);
	stop_flag(&st);
	buffers_shared_beyond_limit(&st);
	return check_exit(&st, "engine");
}
