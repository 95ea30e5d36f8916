/*
 * test_streams.c — several jobs at once: streams on one simulated drive
 * (engine/streams.h), the merge of their results (engine/merge.h) and the
 * job specs of a run (suite/jobs.h). Proves that one stream alone measures
 * exactly what engine_run measures, that streams keep their own depths and
 * stop rules on one clock, that an IO error in one stops all, that merged
 * percentiles equal those of one histogram fed every value, and that split
 * slices are disjoint, aligned and cover the region.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend/sim.h"
#include "check.h"
#include "engine/merge.h"
#include "engine/streams.h"
#include "sim/spec.h"
#include "suite/jobs.h"
#include "util/rng.h"

struct drive {
	struct sim_spec spec;
	struct sim_device *dev;
	struct backend *be;
	struct io_buffers bufs;
};

static int drive_open(struct drive *d, const char *text, unsigned qd)
{
	struct backend_params p = { .fd = -1, .queue_depth = qd };
	struct errmsg err;

	memset(d, 0, sizeof(*d));
	if (sim_spec_parse(&d->spec, text, &err) || sim_spec_create(&d->spec, 7, &d->dev, &err))
		return printf("drive %s: %s\n", text, err.text), -1;
	io_buffers_alloc(&d->bufs, 65536, 1, 65536, 1, false);
	p.buffers = d->bufs.base;
	p.buffer_count = 1;
	p.buffer_size = 65536;
	return sim_backend_open(&d->be, &p, d->dev, NULL, &d->spec.faults, 7, 0, &err);
}

static void drive_close(struct drive *d)
{
	backend_close(d->be);
	d->dev->ops->destroy(d->dev);
	sim_spec_release(&d->spec);
	io_buffers_release(&d->bufs);
}

static struct run_result *results_new(unsigned n)
{
	struct run_result *r = malloc(n * sizeof(*r));

	for (unsigned i = 0; i < n; i++)
		run_result_init(&r[i]);
	return r;
}

static void results_free(struct run_result *r, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		run_result_release(&r[i]);
	free(r);
}

static struct job_spec reads(unsigned qd, uint64_t ios, uint64_t seed)
{
	return (struct job_spec){ .random = true, .read_pct = 100, .bs = 4096, .align = 4096,
				  .qd = qd, .length = 1ULL << 30, .max_ios = ios, .seed = seed };
}

static bool same_result(const struct run_result *a, const struct run_result *b)
{
	return a->elapsed_ns == b->elapsed_ns && a->op[0].ios == b->op[0].ios &&
	       a->op[0].lat.sum == b->op[0].lat.sum &&
	       !memcmp(a->op[0].lat.buckets, b->op[0].lat.buckets, sizeof(a->op[0].lat.buckets));
}

static void one_stream_is_engine_run(struct check_state *st)
{
	struct job_spec spec = reads(4, 3000, 5);
	struct run_result *r = results_new(2);
	volatile sig_atomic_t stop = 0;
	struct drive d;
	struct errmsg err = { 0 };

	CHECK(st, !drive_open(&d, "ssd", 4), "drive");
	CHECK(st, engine_run(&spec, d.be, &d.bufs, &stop, &r[0], &err) == 0, "%s", err.text);
	drive_close(&d);
	CHECK(st, !drive_open(&d, "ssd", 4), "drive");
	CHECK(st, engine_run_streams(&spec, 1, d.be, &d.bufs, &stop, &r[1], &err) == 0, "%s",
	      err.text);
	drive_close(&d);
	CHECK(st, same_result(&r[0], &r[1]), "one stream = engine_run: %llu vs %llu ns",
	      (unsigned long long)r[0].elapsed_ns, (unsigned long long)r[1].elapsed_ns);
	results_free(r, 2);
}

static void streams_share_one_clock(struct check_state *st)
{
	struct job_spec specs[2] = { reads(2, 500, 1), reads(3, 800, 2) };
	struct run_result *r = results_new(3);
	volatile sig_atomic_t stop = 0;
	struct errmsg err = { 0 };
	struct drive d;
	uint64_t before;

	specs[1].read_pct = 0;	/* a writer beside a reader */
	CHECK(st, !drive_open(&d, "ssd", 5), "drive");
	before = backend_now_ns(d.be);
	CHECK(st, engine_run_streams(specs, 2, d.be, &d.bufs, &stop, r, &err) == 0, "%s",
	      err.text);
	CHECK(st, r[0].op[IO_READ].ios == 500 && r[0].op[IO_WRITE].ios == 0, "reader: %llu",
	      (unsigned long long)r[0].op[IO_READ].ios);
	CHECK(st, r[1].op[IO_WRITE].ios == 800 && r[1].op[IO_READ].ios == 0, "writer: %llu",
	      (unsigned long long)r[1].op[IO_WRITE].ios);
	CHECK(st, backend_now_ns(d.be) - before >= r[0].elapsed_ns &&
	      backend_now_ns(d.be) - before >= r[1].elapsed_ns, "one clock from a common start");
	run_result_merge(&r[2], &r[0]);
	run_result_merge(&r[2], &r[1]);
	CHECK(st, r[2].op[IO_READ].ios + r[2].op[IO_WRITE].ios == 1300, "merged IOs");
	CHECK(st, r[2].elapsed_ns == (r[0].elapsed_ns > r[1].elapsed_ns ? r[0].elapsed_ns
								      : r[1].elapsed_ns),
	      "merged elapsed is the longest");
	drive_close(&d);
	results_free(r, 3);
}

static void error_stops_all(struct check_state *st)
{
	struct job_spec specs[2] = { reads(1, 100000, 1), reads(1, 100000, 2) };
	struct run_result *r = results_new(2);
	volatile sig_atomic_t stop = 0;
	struct errmsg err = { 0 };
	struct drive d;
	int ret;

	specs[1].offset = 1ULL << 30;	/* only this one touches the failing range */
	CHECK(st, !drive_open(&d, "ssd,fault_eio=1g-2g", 2), "drive");
	ret = engine_run_streams(specs, 2, d.be, &d.bufs, &stop, r, &err);
	CHECK(st, ret == -EIO, "returns -EIO: %d", ret);
	CHECK(st, !r[0].error.set && r[1].error.set && r[1].error.offset >= 1ULL << 30,
	      "the failing stream holds the error");
	CHECK(st, r[0].op[IO_READ].ios < 100000, "the other stream stopped too: %llu",
	      (unsigned long long)r[0].op[IO_READ].ios);
	drive_close(&d);
	results_free(r, 2);
}

static void merged_percentiles_exact(struct check_state *st)
{
	struct histogram *h = malloc(3 * sizeof(*h));
	static const double ps[] = { 1, 50, 90, 99, 99.9, 100 };
	struct rng rng;

	rng_init(&rng, 3);
	for (int i = 0; i < 3; i++)
		hist_init(&h[i]);
	for (int i = 0; i < 100000; i++) {
		uint64_t v = rng_below(&rng, i % 2 ? 1000000 : 50000) + 100;

		hist_add(&h[i % 2], v);
		hist_add(&h[2], v);
	}
	hist_merge(&h[0], &h[1]);
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		CHECK(st, hist_percentile(&h[0], ps[i]) == hist_percentile(&h[2], ps[i]),
		      "p%g merged %llu, direct %llu", ps[i],
		      (unsigned long long)hist_percentile(&h[0], ps[i]),
		      (unsigned long long)hist_percentile(&h[2], ps[i]));
	CHECK(st, h[0].count == h[2].count && h[0].sum == h[2].sum && h[0].min == h[2].min &&
	      h[0].max == h[2].max, "count, sum, min, max");
	free(h);
}

static void split_slices(struct check_state *st)
{
	struct job_spec base = reads(1, 10, 9), specs[3];
	struct errmsg err;

	base.offset = 8192;
	base.length = 10 * 4096 + 512;
	CHECK(st, jobs_specs_from(&base, 3, true, specs, &err) == 0, "%s", err.text);
	CHECK(st, specs[0].offset == 8192 && specs[0].length == 3 * 4096, "slice 0");
	CHECK(st, specs[1].offset == 8192 + 3 * 4096 && specs[1].length == 3 * 4096, "slice 1");
	CHECK(st, specs[2].offset == 8192 + 6 * 4096 && specs[2].length == 4 * 4096 + 512,
	      "the last slice takes the rest");
	CHECK(st, specs[0].seed == 9 && specs[1].seed != 9 && specs[2].seed != specs[1].seed,
	      "seeds of their own, job 0 keeps the run's");
	CHECK(st, jobs_specs_from(&base, 3, false, specs, &err) == 0 &&
	      specs[2].offset == 8192 && specs[2].length == base.length, "unsplit: all the region");
	base.length = 3 * 4096 - 1;
	CHECK(st, jobs_specs_from(&base, 3, true, specs, &err) == -EINVAL, "too small to split");
}

int main(void)
{
	struct check_state st = { 0 };

	one_stream_is_engine_run(&st);
	streams_share_one_clock(&st);
	error_stops_all(&st);
	merged_percentiles_exact(&st);
	split_slices(&st);
	return check_exit(&st, "streams");
}
