/*
 * test_replay.c — the trace readers (io/trace.h: DiskSim ASCII, blkparse text,
 * DiskSim validation), the demerit (model/demerit.h) on tiny synthetic
 * samples, and the replay driver (suite/replay.h) on simulated drives:
 * timed arrivals in virtual time, the as-fast closed loop, the closed
 * validation loop with think times.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "io/trace.h"
#include "model/demerit.h"
#include "suite/replay.h"

static void test_disksim(struct check_state *st)
{
	struct trace t;
	struct errmsg err;
	int ret = trace_parse(&t, "a.trace", "2.5 0 100 8 1\n\n1.0 1 0 16 0\n", TRACE_DISKSIM,
			      &err);

	CHECK(st, ret == 0, "%s", err.text);
	if (ret)
		return;
	CHECK(st, t.n == 2 && !t.closed, "n %zu", t.n);
	/* sorted by time: the second line comes first */
	CHECK(st, t.reqs[0].time_ns == 1000000 && t.reqs[0].op == IO_WRITE &&
		  t.reqs[0].length == 8192 && t.reqs[0].device == 1 && t.reqs[0].line == 3, "r0");
	CHECK(st, t.reqs[1].offset == 51200 && t.reqs[1].op == IO_READ &&
		  t.reqs[1].time_ns == 2500000, "r1");
	CHECK(st, trace_max_length(&t) == 8192, "max");
	CHECK(st, trace_check_fits(&t, "a.trace", 8192, 512, &err) == -EINVAL &&
		  strstr(err.text, "a.trace:1:"), "%s", err.text);
	CHECK(st, trace_keep_device(&t, "a.trace", 0, &err) == 0 && t.n == 1, "device");
	trace_release(&t);
	/* DiskSim's own files (valid/ascii.trace): tab-separated, times to the microsecond,
	 * flags with more bits than the read one */
	ret = trace_parse(&t, "ascii.trace", "13.191135\t30\t0\t5\t1\n25.911729\t18\t28601\t12\t0\n"
			  "29.792530\t16\t41822\t15\t5\n", TRACE_DISKSIM, &err);
	CHECK(st, ret == 0 && t.n == 3, "tabs: %s", ret ? err.text : "");
	if (ret)
		return;
	CHECK(st, t.reqs[0].time_ns == 13191135 && t.reqs[0].device == 30 &&
		  t.reqs[0].length == 2560 && t.reqs[0].op == IO_READ, "tabs r0");
	CHECK(st, t.reqs[1].offset == 28601ULL * 512 && t.reqs[1].op == IO_WRITE &&
		  t.reqs[2].op == IO_READ, "tabs r1, r2");
	trace_release(&t);
}

static void expect_error(struct check_state *st, const char *text, enum trace_format f,
			 const char *where)
{
	struct trace t;
	struct errmsg err = { "" };
	int ret = trace_parse(&t, "b.trace", text, f, &err);

	CHECK(st, ret == -EINVAL && strstr(err.text, where), "'%s': %d %s", text, ret, err.text);
	if (!ret)
		trace_release(&t);
}

static void test_errors(struct check_state *st)
{
	expect_error(st, "0 0 0 8 1\n0 0 0 8\n", TRACE_DISKSIM, "b.trace:2: expected 5");
	expect_error(st, "x 0 0 8 1\n", TRACE_DISKSIM, "b.trace:1: bad time");
	expect_error(st, "-1 0 0 8 1\n", TRACE_DISKSIM, "b.trace:1: bad time");
	expect_error(st, "0 0 0 0 1\n", TRACE_DISKSIM, "b.trace:1: bad block");
	expect_error(st, "0 0 18446744073709551615 8 1\n", TRACE_DISKSIM, "b.trace:1: bad block");
	expect_error(st, "nan 0 0 8 1\n", TRACE_DISKSIM, "bad time");
	expect_error(st, "\n\n", TRACE_DISKSIM, "no requests");
	expect_error(st, "X Hit 0 8 100 100\n", TRACE_VALIDATE, "b.trace:1: bad direction");
	expect_error(st, "8,0 0 1 0.1 5 Q R 8 9 [x]\n", TRACE_BLKPARSE, "b.trace:1:");
	expect_error(st, "8,0 0 1 0.1 5 Q R 8 + z [x]\n", TRACE_BLKPARSE, "bad sector");
}

static void test_blkparse(struct check_state *st)
{
	static const char text[] =
		"  8,0    1        1     0.000000000  4242  Q   R 2048 + 8 [dd]\n"
		"  8,0    1        2     0.000001000  4242  G   R 2048 + 8 [dd]\n"
		"  8,0    1        3     0.000002000  4242  D   R 2048 + 8 [dd]\n"
		"  8,0    1        4     0.000500000     0  C   R 2048 + 8 [0]\n"
		"  8,16   0        1     0.001000000  4243  Q  WS 4096 + 16 [kworker]\n"
		"  8,0    1        5     0.002000000  4242  Q  FWS [jbd2]\n"
		"  8,0    1        6     0.003000000  4242  Q   D 0 + 64 [fstrim]\n"
		"CPU1 (8,0):\n"
		" Reads Queued:           1,        4KiB  Writes Queued:           1,        8KiB\n"
		"Total (8,0):\n";
	struct trace t;
	struct errmsg err;
	int ret = trace_parse(&t, "c.txt", text, TRACE_BLKPARSE, &err);

	CHECK(st, ret == 0, "%s", err.text);
	if (ret)
		return;
	CHECK(st, t.n == 2, "n %zu", t.n);
	CHECK(st, t.reqs[0].offset == 2048 * 512 && t.reqs[0].length == 4096 &&
		  t.reqs[0].op == IO_READ && t.reqs[0].time_ns == 0 && t.reqs[0].line == 1, "q0");
	CHECK(st, t.reqs[1].op == IO_WRITE && t.reqs[1].length == 8192 &&
		  t.reqs[1].time_ns == 1000000 && t.reqs[1].device == ((8u << 20) | 16), "q1");
	trace_release(&t);
	/* no Q at all: the D (issue) events are taken */
	ret = trace_parse(&t, "d.txt", "8,0 1 3 0.5 1 D W 16 + 8 [x]\n", TRACE_BLKPARSE, &err);
	CHECK(st, ret == 0 && t.n == 1 && t.reqs[0].op == IO_WRITE, "D only: %s", err.text);
	if (!ret)
		trace_release(&t);
}

static void test_validate(struct check_state *st)
{
	struct trace t;
	struct errmsg err;
	int ret = trace_parse(&t, "v.trace", "R Miss 100 8 12000.5 3000\nW Hit 0 2 900 70\n",
			      TRACE_VALIDATE, &err);

	CHECK(st, ret == 0, "%s", err.text);
	if (ret)
		return;
	CHECK(st, t.closed && t.measured && t.n == 2, "flags");
	/* the think time of a line applies to the next request */
	CHECK(st, t.reqs[0].time_ns == 0 && t.reqs[1].time_ns == 3000000, "think");
	CHECK(st, t.reqs[0].measured_ns == 12000500 && t.reqs[1].measured_ns == 900000, "measured");
	trace_release(&t);
}

static void test_demerit(struct check_state *st)
{
	double a[4] = { 1, 2, 3, 4 }, b[4] = { 4.5, 1.5, 3.5, 2.5 }, c[2] = { 1, 3 };
	double same[4] = { 3, 1, 4, 2 }, d;

	CHECK(st, fabs(demerit(a, 4, same, 4)) < 1e-12, "identical samples: 0");
	d = demerit(a, 4, b, 4);
	CHECK(st, fabs(d - 0.5) < 1e-12, "shifted by 0.5: %g", d);
	/* {1,2,3,4} against {1,3}: quantiles differ by 1 on half the levels (2 vs 1... ) */
	d = demerit(a, 4, c, 2);
	CHECK(st, fabs(d - sqrt(0.5)) < 1e-3, "different sizes: %g", d);
	CHECK(st, demerit(a, 0, c, 2) < 0, "empty");
}

/* A fresh simulated WD6400AAKS and a result to fill; 0, or -1 after a failed check. */
static int setup(struct check_state *st, struct measure_target *m, struct replay_result **r)
{
	struct target_request req = { .path = "sim:wd6400aaks", .direct = true, .writes = true };
	struct errmsg err;
	int ret;

	*r = malloc(sizeof(**r));
	ret = *r ? measure_open(m, &req, BACKEND_IO_URING, 1, &err) : -ENOMEM;
	CHECK(st, ret == 0, "setup: %s", *r ? err.text : "out of memory");
	if (ret)
		free(*r);
	return ret ? -1 : 0;
}

/* Timed: two requests 100 ms apart on a drive that serves each in ~ms. */
static void test_replay_timed(struct check_state *st)
{
	struct replay_options o = { REPLAY_TIMED, 8, 1 };
	struct replay_result *r;
	struct measure_target m;
	struct trace t;
	struct errmsg err;

	if (setup(st, &m, &r))
		return;
	CHECK(st, trace_parse(&t, "t", "0 0 0 8 1\n100 0 99999 8 1\n200 0 5000000 64 0\n",
			      TRACE_DISKSIM, &err) == 0, "%s", err.text);
	CHECK(st, replay_run(&m, &t, &o, NULL, r, &err) == 0, "%s", err.text);
	CHECK(st, r->completed == 3 && r->ios[IO_READ] == 2 && r->ios[IO_WRITE] == 1, "counts");
	/* the last arrives at 200 ms: the replay lasts at least that, in virtual time */
	CHECK(st, r->elapsed_ns >= 200000000 && r->elapsed_ns < 250000000, "elapsed %llu",
	      (unsigned long long)r->elapsed_ns);
	CHECK(st, r->service.count == 3 && r->service.max < 50000000, "service");
	replay_result_release(r);
	/* as fast: the same requests back to back take far less than 200 ms */
	o.speed = REPLAY_ASFAST;
	CHECK(st, replay_run(&m, &t, &o, NULL, r, &err) == 0, "%s", err.text);
	CHECK(st, r->completed == 3 && r->elapsed_ns < 100000000, "asfast %llu",
	      (unsigned long long)r->elapsed_ns);
	replay_result_release(r);
	trace_release(&t);
	measure_close(&m);
	free(r);
}

/* Validation traces: one at a time, each after its think time. */
static void test_replay_closed(struct check_state *st)
{
	struct replay_options o = { REPLAY_TIMED, 32, 1 };
	struct replay_result *r;
	struct measure_target m;
	struct trace t;
	struct errmsg err;

	if (setup(st, &m, &r))
		return;
	CHECK(st, trace_parse(&t, "v", "R Miss 0 8 10000 50000\nR Miss 900000 8 10000 50000\n"
			      "W Miss 400000 8 10000 0\n", TRACE_VALIDATE, &err) == 0, "%s", err.text);
	CHECK(st, replay_run(&m, &t, &o, NULL, r, &err) == 0, "%s", err.text);
	CHECK(st, r->qd == 1 && r->completed == 3, "qd %u", r->qd);
	/* two think times of 50 ms plus three services */
	CHECK(st, r->elapsed_ns > 100000000 + r->service.sum - 1000 &&
		  r->elapsed_ns < 100000000 + r->service.sum + 1000, "elapsed %llu sum %llu",
	      (unsigned long long)r->elapsed_ns, (unsigned long long)r->service.sum);
	CHECK(st, r->service_ns[0] && r->service_ns[1] && r->service_ns[2], "per request");
	replay_result_release(r);
	trace_release(&t);
	measure_close(&m);
	free(r);
}

int main(void)
{
	struct check_state st = { 0, 0 };

	test_disksim(&st);
	test_errors(&st);
	test_blkparse(&st);
	test_validate(&st);
	test_demerit(&st);
	test_replay_timed(&st);
	test_replay_closed(&st);
	return check_exit(&st, "replay");
}
