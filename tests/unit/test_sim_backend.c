/*
 * test_sim_backend.c — the virtual-clock backend with a model written here
 * (every IO takes a fixed time, IOs in parallel): the engine runs in
 * simulated time, an hour of it in a blink; results repeat exactly; fault
 * injection fails the IOs of a byte range, delays IOs by a spike without
 * losing or reordering the others; the short reap path (no faults, no data
 * store) and the general one give the same times.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/sim.h"
#include "check.h"
#include "engine/engine.h"
#include "sim/heap.h"
#include "util/units.h"

struct fixed_device {
	struct sim_device base;
	struct req_heap inflight;
	uint64_t service_ns;
	uint64_t submitted;
};

static int fixed_submit(struct sim_device *d, struct io_request *req, uint64_t now)
{
	struct fixed_device *fd = (struct fixed_device *)d;

	fd->submitted++;
	req->complete_ns = now + fd->service_ns;
	req->result = req->length;
	return req_heap_push(&fd->inflight, req->complete_ns, req);
}

static uint64_t fixed_next(struct sim_device *d)
{
	return req_heap_min(&((struct fixed_device *)d)->inflight);
}

static unsigned fixed_complete(struct sim_device *d, uint64_t now, struct io_request **out,
			       unsigned max)
{
	struct fixed_device *fd = (struct fixed_device *)d;
	unsigned n = 0;

	while (n < max && req_heap_min(&fd->inflight) <= now)
		out[n++] = req_heap_pop(&fd->inflight);
	return n;
}

static void fixed_counters(const struct sim_device *d, struct sim_counters *c)
{
	memset(c, 0, sizeof(*c));
	c->seeks = ((const struct fixed_device *)d)->submitted;
}

static void fixed_destroy(struct sim_device *d)
{
	req_heap_release(&((struct fixed_device *)d)->inflight);
}

static const struct sim_device_ops fixed_ops = {
	fixed_submit, fixed_next, fixed_complete, fixed_counters, fixed_destroy, NULL, NULL, NULL, NULL, NULL,
};

struct outcome {
	int ret;
	struct run_result r;
	struct sim_counters counters;
	struct sim_fault_counters faults;
};

static void run_on(struct outcome *o, const struct job_spec *spec,
		   const struct sim_fault_config *faults, uint64_t service_ns,
		   struct sim_store *store)
{
	struct fixed_device dev = { .base = { &fixed_ops, 1ULL << 30, 512 }, .service_ns = service_ns };
	struct backend_params params = { -1, spec->qd, NULL, 0, 0 };
	struct io_buffers bufs;
	struct backend *be;
	struct errmsg err = { "" };
	volatile sig_atomic_t stop = 0;

	req_heap_init(&dev.inflight);
	io_buffers_alloc(&bufs, spec->bs, spec->qd, spec->bs, 1, false);
	run_result_init(&o->r);
	sim_backend_open(&be, &params, &dev.base, store, faults, spec->seed, 0, &err);
	o->ret = engine_run(spec, be, &bufs, &stop, &o->r, &err);
	sim_backend_counters(be, &o->counters, &o->faults);
	backend_close(be);
	fixed_destroy(&dev.base);
	io_buffers_release(&bufs);
}

static void run(struct outcome *o, const struct job_spec *spec,
		const struct sim_fault_config *faults, uint64_t service_ns)
{
	run_on(o, spec, faults, service_ns, NULL);
}

static const struct job_spec base_spec = {
	.random = true, .read_pct = 100, .bs = 4096, .align = 4096, .qd = 4,
	.length = 1ULL << 30, .seed = 1,
};

static void an_hour_in_a_blink(struct check_state *st)
{
	struct job_spec spec = base_spec;
	struct sim_fault_config none = { 0 };
	struct outcome *o = calloc(1, sizeof(*o));
	struct timespec t0, t1;
	double wall;

	spec.runtime_ns = 3600 * NSEC_PER_SEC;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	run(o, &spec, &none, 10 * 1000 * 1000);	/* 10 ms per IO, 4 at a time: 400 IOPS */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	CHECK(st, o->ret == 0, "run");
	CHECK(st, o->r.op[IO_READ].ios == 3600 * 400, "IOs in a simulated hour: %llu",
	      (unsigned long long)o->r.op[IO_READ].ios);
	CHECK(st, o->r.elapsed_ns == 3600 * NSEC_PER_SEC, "elapsed %llu",
	      (unsigned long long)o->r.elapsed_ns);
	CHECK(st, o->r.op[IO_READ].timeline.len == 3600, "3600 timeline seconds: %zu",
	      o->r.op[IO_READ].timeline.len);
	/*
	 * Virtual time costs no real time: under 1 % of the hour simulated even on a
	 * loaded machine under ASan (its speed is bench/sim-speed.sh's business).
	 */
	CHECK(st, wall < 36.0, "a simulated hour took %.3f s of wall time", wall);
	CHECK(st, o->counters.seeks == 3600 * 400, "device counters reach the caller");
	printf("simulated hour: %.3f s wall\n", wall);
	run_result_release(&o->r);
	free(o);
}

static void faults(struct check_state *st)
{
	struct job_spec spec = base_spec;
	struct sim_fault_config eio = { .eio_start = 512ULL << 20, .eio_end = (512ULL << 20) + 4096 };
	struct sim_fault_config spikes = { .spike_rate = 0.01, .spike_ms = 50 };
	struct outcome *o = calloc(1, sizeof(*o));
	uint64_t max_ok;

	spec.random = false;
	spec.offset = (512ULL << 20) - 40960;	/* the 11th IO hits the range */
	spec.length = 1ULL << 20;
	spec.max_ios = 100;
	run(o, &spec, &eio, 100000);
	CHECK(st, o->ret == -EIO && o->r.error.set, "EIO range ends the run: %d", o->ret);
	CHECK(st, o->r.error.offset == 512ULL << 20, "at the range's offset %llu",
	      (unsigned long long)o->r.error.offset);
	CHECK(st, o->faults.eio == 1, "one EIO injected: %llu", (unsigned long long)o->faults.eio);
	run_result_release(&o->r);

	spec = base_spec;
	spec.max_ios = 100000;
	memset(o, 0, sizeof(*o));
	run(o, &spec, &spikes, 100000);
	max_ok = o->r.op[IO_READ].lat.max;
	CHECK(st, o->ret == 0 && o->r.op[IO_READ].ios == 100000, "no IO lost to spikes: %llu",
	      (unsigned long long)o->r.op[IO_READ].ios);
	CHECK(st, o->faults.spikes > 700 && o->faults.spikes < 1300, "about 1 %% spiked: %llu",
	      (unsigned long long)o->faults.spikes);
	CHECK(st, max_ok == 100000 + 50000000ULL, "a spike adds 50 ms: max %llu",
	      (unsigned long long)max_ok);
	CHECK(st, hist_percentile(&o->r.op[IO_READ].lat, 90) <= 100000 * (1 + HIST_MAX_RELATIVE_ERROR),
	      "p90 is the service time: %llu",
	      (unsigned long long)hist_percentile(&o->r.op[IO_READ].lat, 90));
	run_result_release(&o->r);
	free(o);
}

static void repeatable(struct check_state *st)
{
	struct job_spec spec = base_spec;
	struct sim_fault_config f = { .eio_rate = 0.001, .spike_rate = 0.01, .spike_ms = 5 };
	struct outcome *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));

	spec.max_ios = 20000;
	run(a, &spec, &f, 250000);
	run(b, &spec, &f, 250000);
	CHECK(st, a->ret == b->ret && a->r.elapsed_ns == b->r.elapsed_ns &&
		  a->r.op[IO_READ].ios == b->r.op[IO_READ].ios &&
		  a->r.error.offset == b->r.error.offset &&
		  a->faults.spikes == b->faults.spikes,
	      "same seed, same results (%llu vs %llu ns)", (unsigned long long)a->r.elapsed_ns,
	      (unsigned long long)b->r.elapsed_ns);
	run_result_release(&a->r);
	run_result_release(&b->r);
	free(a);
	free(b);
}

/*
 * Without faults and data store the backend reaps by a shorter loop of its
 * own (sim_reap_plain); with a store (and no faults) by the general one: the
 * same requests complete at the same times either way.
 */
static void plain_and_general_reap_agree(struct check_state *st)
{
	struct job_spec spec = base_spec;
	struct sim_fault_config none = { 0 };
	struct outcome *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	struct sim_store *store;

	spec.read_pct = 50;
	spec.qd = 7;
	spec.max_ios = 5000;
	spec.length = 8ULL << 20;	/* what the store may hold */
	CHECK(st, sim_store_create(&store, 64ULL << 20) == 0, "store");
	run_on(a, &spec, &none, 123457, NULL);
	run_on(b, &spec, &none, 123457, store);
	for (int k = 0; k < 2; k++)
		CHECK(st, a->r.op[k].ios == b->r.op[k].ios && a->r.op[k].ios > 2000 &&
			  a->r.op[k].lat.sum == b->r.op[k].lat.sum &&
			  a->r.op[k].lat.max == b->r.op[k].lat.max,
		      "%s: %llu IOs, latency sum %llu, and with the store %llu, %llu", io_op_name(k),
		      (unsigned long long)a->r.op[k].ios, (unsigned long long)a->r.op[k].lat.sum,
		      (unsigned long long)b->r.op[k].ios, (unsigned long long)b->r.op[k].lat.sum);
	CHECK(st, a->ret == 0 && b->ret == 0 && a->r.elapsed_ns == b->r.elapsed_ns,
	      "same elapsed %llu and %llu", (unsigned long long)a->r.elapsed_ns,
	      (unsigned long long)b->r.elapsed_ns);
	CHECK(st, sim_store_bytes(store) > 0, "the general reap moved the writes' data");
	sim_store_free(store);
	run_result_release(&a->r);
	run_result_release(&b->r);
	free(a);
	free(b);
}

int main(void)
{
	struct check_state st = { 0, 0 };

	an_hour_in_a_blink(&st);
	faults(&st);
	repeatable(&st);
	plain_and_general_reap_agree(&st);
	return check_exit(&st, "sim_backend");
}
