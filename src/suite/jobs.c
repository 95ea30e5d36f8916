/*
 * jobs.c — the N jobs of a run (jobs.h): worker threads, their start gate,
 * the caller's watch loop, and the merge of their results.
 *
 * Threads and what they share: each worker writes only its own `struct
 * worker` and the run_results of its own jobs; measure_job_open/close (which
 * touch the measure_target: notices, a simulated drive's clock) run under
 * `lock`. The start gate is `lock` + `cond`: workers count themselves ready
 * and wait for `go`, which the caller sets once all are ready (or when one
 * could not be created) after the caller's `gate`; `finished` (under `lock`,
 * signalled on `cond`) wakes the caller as soon as the last worker ends.
 * The workers' stop flag `stop` is set by the caller (signal) or by a worker
 * that failed; it is written and read with __atomic builtins, as are the
 * live counts the caller reads for `tick` (relaxed: a count may be a batch
 * old).
 */
#include "jobs.h"

#include <errno.h>
#include <linux/mempolicy.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "engine/merge.h"
#include "engine/offsets.h"
#include "engine/streams.h"
#include "engine/verify_match.h"
#include "util/bug.h"

#define WATCH_INTERVAL_NS 20000000L	/* how often the caller polls and ticks */

struct jobs;

struct worker {
	struct jobs *js;
	unsigned first;		/* its first job */
	unsigned count;		/* jobs it runs: 1, or every job as streams on a sim drive */
	pthread_t thread;
	bool created;
	struct measure_job mj;
	struct run_info info;
	struct errmsg err;
	int ret;
	unsigned done;		/* set (atomically) when the worker ends */
};

struct jobs {
	struct measure_target *m;
	struct job_spec *specs;
	unsigned n;
	const struct jobs_options *o;
	struct jobs_result *res;
	struct job_spec combined;	/* the one backend of a sim drive's streams */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned ready;
	bool go, start;
	volatile sig_atomic_t stop;	/* the workers' stop flag */
	unsigned finished;
	struct worker *w;
	unsigned n_workers;
	struct verify_ledger *ledger;	/* --verify with several jobs */
};

int jobs_specs_from(const struct job_spec *base, unsigned n, bool split,
		    struct job_spec *specs, struct errmsg *err)
{
	uint64_t slice = split ? base->length / n / base->align * base->align : 0;

	BUG_ON(n == 0 || n > JOBS_MAX);
	if (split && slice < base->bs)
		return errmsg_set(err, -EINVAL, "--split: the region of %llu bytes cannot give "
				  "%u jobs %llu bytes each (--bs)",
				  (unsigned long long)base->length, n,
				  (unsigned long long)base->bs);
	for (unsigned i = 0; i < n; i++) {
		struct offset_gen probe;
		struct errmsg why;

		specs[i] = *base;
		specs[i].seed = (base->seed + i * 0x9e3779b97f4a7c15ULL) & INT64_MAX;
		specs[i].verify_stream = base->verify_stream + i;
		if (!split)
			continue;
		specs[i].offset = base->offset + i * slice;
		specs[i].length = i + 1 < n ? slice : base->length - i * slice;
		if (offset_gen_init(&probe, specs[i].offset, specs[i].length, specs[i].bs,
				    specs[i].align, specs[i].random, specs[i].seed, &why))
			return errmsg_set(err, -EINVAL, "--split: slice %u of %u: %s", i, n,
					  why.text);
	}
	return 0;
}

int jobs_allowed_cpus(int *cpus, unsigned max)
{
	cpu_set_t set;
	unsigned n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return (int)n;
}

int jobs_result_init(struct jobs_result *res, unsigned n)
{
	memset(res, 0, sizeof(*res));
	res->job = calloc(n, sizeof(*res->job));
	res->node = calloc(n, sizeof(*res->node));
	if (!res->job || !res->node) {
		free(res->job);
		free(res->node);
		return -ENOMEM;
	}
	res->n = n;
	for (unsigned i = 0; i < n; i++)
		run_result_init(&res->job[i]);
	run_result_init(&res->merged);
	return 0;
}

void jobs_result_release(struct jobs_result *res)
{
	for (unsigned i = 0; i < res->n; i++)
		run_result_release(&res->job[i]);
	run_result_release(&res->merged);
	free(res->job);
	free(res->node);
	memset(res, 0, sizeof(*res));
}

static int pin(struct worker *w)
{
	const struct jobs_options *o = w->js->o;
	cpu_set_t set;
	int cpu, ret;

	if (!o->cpus || !o->n_cpus)
		return 0;
	cpu = o->cpus[w->first % o->n_cpus];
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	return ret ? errmsg_set(&w->err, -ret, "job %u: cannot run on cpu %d: %s",
				w->first, cpu, strerror(ret)) : 0;
}

/*
 * The memory node holding the page at `addr` (faulting it in from this
 * thread if it was never touched), or -1 when the kernel does not say.
 */
static int memory_node(void *addr)
{
	int node = -1;

	if (syscall(SYS_get_mempolicy, &node, NULL, 0UL, addr, MPOL_F_NODE | MPOL_F_ADDR))
		return -1;
	return node;
}

/* Count this worker ready, then wait for the caller's word; true: run. */
static bool wait_for_start(struct jobs *js)
{
	bool start;

	pthread_mutex_lock(&js->lock);
	js->ready++;
	pthread_cond_broadcast(&js->cond);
	while (!js->go)
		pthread_cond_wait(&js->cond, &js->lock);
	start = js->start;
	pthread_mutex_unlock(&js->lock);
	return start;
}

static int run_worker_jobs(struct worker *w)
{
	struct jobs *js = w->js;

	w->err.text[0] = '\0';
	if (w->count == 1)
		return engine_run(&js->specs[w->first], w->mj.be, &w->mj.bufs, &js->stop,
				  &js->res->job[w->first], &w->err);
	return engine_run_streams(js->specs, js->n, w->mj.be, &w->mj.bufs, &js->stop,
				  js->res->job, &w->err);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct jobs *js = w->js;
	struct job_spec *spec = w->count == 1 ? &js->specs[w->first] : &js->combined;

	w->ret = pin(w);
	pthread_mutex_lock(&js->lock);
	if (!w->ret)
		w->ret = measure_job_open(js->m, spec, &w->mj, &w->info, &w->err);
	pthread_mutex_unlock(&js->lock);
	for (unsigned i = 0; i < w->count; i++)
		js->res->node[w->first + i] = w->ret ? -1 : memory_node(w->mj.bufs.base);
	if (wait_for_start(js) && !w->ret)
		w->ret = run_worker_jobs(w);
	pthread_mutex_lock(&js->lock);
	if (w->mj.be)
		measure_job_close(js->m, &w->mj, &w->info);
	pthread_mutex_unlock(&js->lock);
	if (w->ret)
		__atomic_store_n(&js->stop, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&js->lock);
	js->finished++;
	pthread_cond_broadcast(&js->cond);
	pthread_mutex_unlock(&js->lock);
	return NULL;
}


static void live_status(const struct jobs *js, struct jobs_status *st)
{
	uint64_t bound_ios = 0, bound_bytes = 0;
	bool ios_bounded = true, bytes_bounded = true;

	*st = (struct jobs_status){ .jobs = js->n, .done_fraction = -1 };
	for (unsigned i = 0; i < js->n; i++) {
		const struct run_result *r = &js->res->job[i];

		for (int k = 0; k < 2; k++) {
			st->ios += __atomic_load_n(&r->op[k].ios, __ATOMIC_RELAXED);
			st->bytes += __atomic_load_n(&r->op[k].bytes, __ATOMIC_RELAXED);
			st->lat_sum_ns += __atomic_load_n(&r->op[k].lat.sum, __ATOMIC_RELAXED);
		}
		bound_ios += js->specs[i].max_ios;
		bound_bytes += js->specs[i].max_bytes;
		ios_bounded &= js->specs[i].max_ios > 0;
		bytes_bounded &= js->specs[i].max_bytes > 0;
	}
	if (ios_bounded)
		st->done_fraction = (double)st->ios / (double)bound_ios;
	if (bytes_bounded && (double)st->bytes / (double)bound_bytes > st->done_fraction)
		st->done_fraction = (double)st->bytes / (double)bound_bytes;
	for (unsigned i = 0; i < js->n_workers; i++)
		if (js->w[i].created && !__atomic_load_n(&js->w[i].done, __ATOMIC_ACQUIRE))
			st->running += js->w[i].count;
}

/* Wait for every created worker to be ready, decide, and let them go. */
static int open_gate(struct jobs *js, unsigned created, struct errmsg *err)
{
	int ret = created < js->n_workers ? errmsg_set(err, -EAGAIN, "cannot start %u threads",
							js->n_workers) : 0;

	pthread_mutex_lock(&js->lock);
	while (js->ready < created)
		pthread_cond_wait(&js->cond, &js->lock);
	pthread_mutex_unlock(&js->lock);
	for (unsigned i = 0; i < created && !ret; i++)
		if (js->w[i].ret)
			ret = errmsg_set(err, js->w[i].ret, "%s", js->w[i].err.text);
	if (js->o->gate)
		ret = js->o->gate(js->o->gate_ctx, ret, err);
	pthread_mutex_lock(&js->lock);
	js->go = true;
	js->start = !ret;
	pthread_cond_broadcast(&js->cond);
	pthread_mutex_unlock(&js->lock);
	return ret;
}

/* Wait until every worker ends (woken at once by the last), or WATCH_INTERVAL_NS. */
static bool wait_a_while(struct jobs *js, unsigned created)
{
	struct timespec until;
	bool all_done;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += WATCH_INTERVAL_NS;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&js->lock);
	if (js->finished < created)
		pthread_cond_timedwait(&js->cond, &js->lock, &until);
	all_done = js->finished >= created;
	pthread_mutex_unlock(&js->lock);
	return all_done;
}

/* Until every worker ends: pass the stop flag on, tick. */
static void watch(struct jobs *js, unsigned created, const volatile sig_atomic_t *stop)
{
	struct jobs_status st;

	while (!wait_a_while(js, created)) {
		if (*stop)
			__atomic_store_n(&js->stop, 1, __ATOMIC_RELAXED);
		if (js->o->tick) {
			live_status(js, &st);
			js->o->tick(js->o->tick_ctx, &st);
		}
	}
}

/* The first failure in job order, and the merged result. */
static int collect(struct jobs *js, bool signalled, struct run_info *info, struct errmsg *err)
{
	struct jobs_result *res = js->res;
	int ret = 0;

	for (unsigned i = 0; i < js->n_workers && !ret; i++) {
		if (js->w[i].ret) {
			ret = js->w[i].ret;
			errmsg_set(err, ret, "%s", js->w[i].err.text);
		}
	}
	for (unsigned i = 0; i < js->n; i++) {
		if (!signalled)
			res->job[i].interrupted = false;	/* stopped by another job's error */
		if (res->job[i].error.set && !res->merged.error.set)
			res->failed_job = i;
		if (run_result_merge(&res->merged, &res->job[i]) && !ret)
			ret = errmsg_set(err, -ENOMEM, "out of memory merging the jobs' timelines");
	}
	*info = js->w[0].info;
	for (unsigned i = 1; i < js->n_workers; i++)
		if (js->w[i].info.notice)
			info->notice = js->w[i].info.notice;
	info->spec = &js->specs[0];
	info->jobs = js->n;
	info->total_qd = 0;
	for (unsigned i = 0; i < js->n; i++)
		info->total_qd += js->specs[i].qd;
	return ret;
}

/* The spec of the one backend that carries every stream of a sim drive. */
static void combine(struct jobs *js)
{
	js->combined = js->specs[0];
	js->combined.qd = 0;
	for (unsigned i = 0; i < js->n; i++) {
		js->combined.qd += js->specs[i].qd;
		if (js->specs[i].bs > js->combined.bs)
			js->combined.bs = js->specs[i].bs;
	}
}

static int by_offset(const void *a, const void *b)
{
	const struct job_spec *x = *(const struct job_spec *const *)a;
	const struct job_spec *y = *(const struct job_spec *const *)b;

	return (x->offset > y->offset) - (x->offset < y->offset);
}

/* --verify: jobs that keep data on the target must each have a region of its own. */
static int check_disjoint(struct job_spec *specs, unsigned n, struct errmsg *err)
{
	const struct job_spec **by = calloc(n, sizeof(*by));
	unsigned k = 0;
	int ret = 0;

	if (!by)
		return errmsg_set(err, -ENOMEM, "out of memory for %u jobs", n);
	for (unsigned i = 0; i < n; i++)
		if (specs[i].verify == VERIFY_READ_BACK)
			by[k++] = &specs[i];
	qsort(by, k, sizeof(*by), by_offset);
	for (unsigned i = 1; i < k && !ret; i++)
		if (by[i - 1]->offset + by[i - 1]->length > by[i]->offset)
			ret = errmsg_set(err, -EINVAL, "--verify: jobs %u and %u share bytes of "
					 "the target (each job verifies a region of its own: --split)",
					 (unsigned)(by[i - 1] - specs), (unsigned)(by[i] - specs));
	free(by);
	return ret;
}

int jobs_check_verify(const struct measure_target *m, struct job_spec *specs, unsigned n,
		      struct errmsg *err)
{
	uint64_t bs = 0, qd = 0;
	bool any = false;

	for (unsigned i = 0; i < n; i++) {
		any |= specs[i].verify != VERIFY_OFF;
		bs = specs[i].bs > bs ? specs[i].bs : bs;
		qd += specs[i].qd;
	}
	if (!any || n == 1)
		return 0;
	/* the streams on one simulated drive share its one set of buffers */
	if (m->t.kind == TARGET_SIM && bs * qd > VERIFY_MAX_BUFFERS)
		return errmsg_set(err, -EINVAL, "--verify needs a buffer of its own per IO in "
				  "flight: on a simulated drive --bs x --qd x --jobs at most 1GiB");
	return check_disjoint(specs, n, err);
}

/*
 * --verify with several jobs: regions disjoint, one ledger to match what
 * they find (a write of one job may go astray into another's region).
 */
static int verify_setup(struct jobs *js, struct errmsg *err)
{
	bool any = false;
	int ret;

	for (unsigned i = 0; i < js->n; i++)
		any |= js->specs[i].verify != VERIFY_OFF;
	if (!any || js->n == 1)
		return 0;
	ret = jobs_check_verify(js->m, js->specs, js->n, err);
	if (!ret && verify_ledger_create(&js->ledger))
		ret = errmsg_set(err, -ENOMEM, "out of memory for --verify");
	for (unsigned i = 0; !ret && i < js->n; i++) {
		js->specs[i].verify_ledger = js->ledger;
		js->specs[i].verify_job = i;
	}
	return ret;
}

/*
 * Every job done: settle the ledger, and the run's total of what the jobs
 * found (pass time: the longest pass of jobs in threads, the sum of streams').
 */
static int verify_collect(struct jobs *js, struct errmsg *err)
{
	struct verify_result **each;

	if (js->ledger) {
		each = calloc(js->n, sizeof(*each));
		if (!each)
			return errmsg_set(err, -ENOMEM, "out of memory for --verify");
		for (unsigned i = 0; i < js->n; i++)
			each[i] = &js->res->job[i].verify;
		verify_ledger_settle(js->ledger, each);
		free(each);
	}
	memset(&js->res->merged.verify, 0, sizeof(js->res->merged.verify));
	for (unsigned i = 0; i < js->n; i++)
		verify_result_merge(&js->res->merged.verify, &js->res->job[i].verify);
	if (js->n_workers == 1 && js->n > 1) {
		/* streams on one drive: their passes ran one after the other */
		js->res->merged.verify.pass_ns = 0;
		for (unsigned i = 0; i < js->n; i++)
			js->res->merged.verify.pass_ns += js->res->job[i].verify.pass_ns;
	}
	return 0;
}

int jobs_run(struct measure_target *m, struct job_spec *specs, unsigned n,
	     const struct jobs_options *o, const volatile sig_atomic_t *stop,
	     struct jobs_result *res, struct run_info *info, struct errmsg *err)
{
	struct jobs js = { .m = m, .specs = specs, .n = n, .o = o, .res = res };
	bool streams = m->t.kind == TARGET_SIM && n > 1;
	const char *rw = info->rw;
	pthread_condattr_t attr;
	unsigned created = 0;
	int ret, vret;

	BUG_ON(n == 0 || n > JOBS_MAX || res->n != n);
	if ((ret = verify_setup(&js, err)))
		return ret;
	js.n_workers = streams ? 1 : n;
	js.w = calloc(js.n_workers, sizeof(*js.w));
	if (!js.w) {
		verify_ledger_free(js.ledger);
		return errmsg_set(err, -ENOMEM, "out of memory for %u jobs", n);
	}
	if (streams)
		combine(&js);
	pthread_mutex_init(&js.lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&js.cond, &attr);
	pthread_condattr_destroy(&attr);
	for (unsigned i = 0; i < js.n_workers; i++) {
		struct worker *w = &js.w[i];

		*w = (struct worker){ .js = &js, .first = i, .count = streams ? n : 1,
				      .info = { .rw = rw } };
		w->created = !pthread_create(&w->thread, NULL, worker_main, w);
		if (!w->created)
			break;
		created++;
	}
	ret = open_gate(&js, created, err);
	watch(&js, created, stop);
	for (unsigned i = 0; i < created; i++)
		pthread_join(js.w[i].thread, NULL);
	if (!ret) {
		ret = collect(&js, *stop != 0, info, err);
		vret = verify_collect(&js, err);
		ret = ret ? ret : vret;
	}
	for (unsigned i = 0; i < n; i++)
		specs[i].verify_ledger = NULL;
	verify_ledger_free(js.ledger);
	pthread_cond_destroy(&js.cond);
	pthread_mutex_destroy(&js.lock);
	free(js.w);
	return ret;
}
