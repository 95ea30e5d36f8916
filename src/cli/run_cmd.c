/*
 * run_cmd.c — `iomodel run`: open the target safely, run the engine on the
 * right backend and print the results.
 *
 * Checks that need the target (O_DIRECT alignment, region inside the target)
 * run right after opening, and a file created for the run is removed again
 * if they fail. A "sim:" target is a simulated drive: no file is opened, the
 * engine runs on the virtual-clock backend, and the device's counters join
 * the results.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/sim.h"
#include "cli/commands.h"
#include "cli/run_options.h"
#include "cli/signals.h"
#include "engine/offsets.h"
#include "io/run_output.h"
#include "sim/spec.h"

/* Above this, queue slots share IO buffers (see io_buffers_alloc). */
#define BUFFER_MEMORY_LIMIT (1ULL << 30)

/* A simulated drive behind a "sim:" target. */
struct sim_target {
	struct sim_spec spec;
	struct sim_device *dev;
	struct sim_report report;
};

static const char *kind_name(enum target_kind kind)
{
	static const char *const names[] = {
		[TARGET_NULL] = "null", [TARGET_FILE] = "file",
		[TARGET_BLOCK] = "block", [TARGET_SIM] = "sim",
	};

	return names[kind];
}

static bool is_sim_path(const char *path)
{
	return !strncmp(path, "sim:", 4);
}

/* Describe the drive of a "sim:" target and build it; fills `t` like target_open. */
static int open_sim_target(const struct run_options *o, struct target *t,
			   struct sim_target *sim)
{
	const char *path = o->target.path;
	struct errmsg err;
	int ret;

	memset(sim, 0, sizeof(*sim));
	if (!o->target.direct)
		return bad("--buffered does not apply to '%s': a simulated drive has no page cache",
			   path);
	if (sim_spec_parse(&sim->spec, path + 4, &err))
		return bad("'%s': %s", path, err.text);
	ret = sim_spec_create(&sim->spec, o->spec.seed, &sim->dev, &err);
	if (ret) {
		sim_spec_release(&sim->spec);
		fprintf(stderr, "iomodel: '%s': %s\n", path, err.text);
		return ret == -ENOMEM ? EXIT_FAILED : EXIT_BAD_INPUT;
	}
	*t = (struct target){ .kind = TARGET_SIM, .fd = -1, .path = (char *)path,
			      .size = sim->dev->capacity, .dio_align = sim->dev->sector };
	if (o->target.size > t->size)
		return bad("'%s' holds %llu bytes, less than --size %llu", path,
			   (unsigned long long)t->size, (unsigned long long)o->target.size);
	if (o->target.size)
		t->size = o->target.size;
	sim->report.model = sim->spec.model->name;
	sim->report.preset = sim->spec.preset ? sim->spec.preset->name : NULL;
	return 0;
}

static void close_sim_target(struct sim_target *sim)
{
	if (sim->dev)
		sim->dev->ops->destroy(sim->dev);
	sim_spec_release(&sim->spec);
}

/* Checks that need the opened target; returns 0 or EXIT_BAD_INPUT. */
static int check_against_target(struct run_options *o, const struct target *t)
{
	struct job_spec *s = &o->spec;
	struct offset_gen probe;
	struct errmsg err;

	if (s->offset >= t->size)
		return bad("--offset %llu: beyond the end of '%s' (%llu bytes)",
			   (unsigned long long)s->offset, t->path, (unsigned long long)t->size);
	if (!o->length_set)
		s->length = t->size - s->offset;
	if (s->length > t->size - s->offset)
		return bad("--offset %llu + --length %llu: beyond the end of '%s' (%llu bytes)",
			   (unsigned long long)s->offset, (unsigned long long)s->length,
			   t->path, (unsigned long long)t->size);
	if (o->target.direct && t->kind != TARGET_NULL &&
	    (s->bs % t->dio_align || s->align % t->dio_align || s->offset % t->dio_align))
		return bad("'%s' needs --bs, --align and --offset in multiples of %u bytes "
			   "for O_DIRECT; use --buffered for other sizes", t->path, t->dio_align);
	if (offset_gen_init(&probe, s->offset, s->length, s->bs, s->align, s->random,
			    s->seed, &err))
		return bad("'%s': %s", t->path, err.text);
	return 0;
}

static int print_results(const struct run_options *o, const struct run_info *info,
			 const struct run_result *r)
{
	switch (o->format) {
	case OUTPUT_JSON:
		return run_output_json(stdout, info, r);
	case OUTPUT_CSV:
		return run_output_csv(stdout, info, r);
	case OUTPUT_TABLE:
		break;
	}
	return run_output_table(stdout, info, r);
}

static int status_of_target_error(int ret)
{
	if (ret == -EINTR)
		return EXIT_INTERRUPTED;	/* cmd_run turns it into 128 + signal */
	return ret == -EIO || ret == -ENOSPC || ret == -ENOMEM ? EXIT_FAILED : EXIT_BAD_INPUT;
}

/* Open the backend for `t`, reporting any fallback; NULL on failure. */
static struct backend *open_backend(struct run_options *o, const struct target *t,
				    struct sim_target *sim, const struct io_buffers *bufs)
{
	struct backend_params params = {
		.fd = t->fd, .queue_depth = o->spec.qd, .buffers = bufs->base,
		.buffer_count = bufs->count, .buffer_size = bufs->size,
	};
	struct errmsg notice, err;
	struct backend *be = NULL;
	enum backend_kind kind = t->kind == TARGET_NULL ? BACKEND_NULL : o->engine;

	if (sim) {
		if (!sim_backend_open(&be, &params, sim->dev, &sim->spec.faults, o->spec.seed, &err))
			return be;
		fprintf(stderr, "iomodel: %s\n", err.text);
		return NULL;
	}
	if (backend_open(&be, kind, &params, &notice, &err)) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		return NULL;
	}
	if (notice.text[0])
		fprintf(stderr, "iomodel: notice: %s\n", notice.text);
	if (!strcmp(backend_name(be), "psync") && o->spec.qd > 1) {
		fprintf(stderr, "iomodel: notice: psync does one IO at a time; "
			"running at queue depth 1, not %u\n", o->spec.qd);
		o->spec.qd = 1;
	}
	return be;
}

static int report_run_error(const struct run_result *r, const struct errmsg *err)
{
	const struct run_error *e = &r->error;

	if (!e->set) {
		fprintf(stderr, "iomodel: %s\n", err->text);
	} else if (e->result < 0) {
		fprintf(stderr, "iomodel: %s error at offset %llu: %s\n",
			e->op == IO_READ ? "read" : "write", (unsigned long long)e->offset,
			strerror((int)-e->result));
	} else {
		fprintf(stderr, "iomodel: short %s at offset %llu: %lld of %u bytes\n",
			e->op == IO_READ ? "read" : "write", (unsigned long long)e->offset,
			(long long)e->result, e->length);
	}
	return EXIT_FAILED;
}

static int run_on_target(struct run_options *o, const struct target *t,
			 struct sim_target *sim, const volatile sig_atomic_t *stop)
{
	bool real = t->kind == TARGET_FILE || t->kind == TARGET_BLOCK;
	struct run_info info = {
		.target = t->path, .target_kind = kind_name(t->kind),
		.target_size = t->size, .rw = o->rw,
		.direct = o->target.direct && real, .spec = &o->spec,
		.device = sim ? &sim->report : NULL,
	};
	struct io_buffers bufs;
	struct backend *be;
	struct run_result *r;
	struct errmsg err = { "" };
	int status, ret;

	/* only real devices look at the data: elsewhere one untouched buffer serves all */
	if (io_buffers_alloc(&bufs, o->spec.bs, o->spec.qd, real ? BUFFER_MEMORY_LIMIT : o->spec.bs,
			     o->spec.seed, real)) {
		fprintf(stderr, "iomodel: out of memory for %u buffers of %llu bytes\n",
			o->spec.qd, (unsigned long long)o->spec.bs);
		return EXIT_FAILED;
	}
	be = open_backend(o, t, sim, &bufs);
	r = malloc(sizeof(*r));
	if (!be || !r) {
		free(r);
		backend_close(be);
		io_buffers_release(&bufs);
		return EXIT_FAILED;
	}
	info.engine = backend_name(be);
	run_result_init(r);
	ret = engine_run(&o->spec, be, &bufs, stop, r, &err);
	if (sim)
		sim_backend_counters(be, &sim->report.counters, &sim->report.faults);
	if (!strcmp(info.engine, "io_uring") && uring_worker_threads()) {
		info.notice = "io_uring handed the IOs to kernel worker threads (the target "
			      "does not take non-blocking IO), so every latency includes a "
			      "thread hand-off; --engine psync or libaio may be faster here";
		fprintf(stderr, "iomodel: notice: %s\n", info.notice);
	}
	status = ret ? report_run_error(r, &err) : r->interrupted ? EXIT_INTERRUPTED : EXIT_OK;
	if (print_results(o, &info, r) && status == EXIT_OK)
		status = EXIT_FAILED;
	run_result_release(r);
	free(r);
	backend_close(be);
	io_buffers_release(&bufs);
	return status;
}

static int run_sim(struct run_options *o, const volatile sig_atomic_t *stop)
{
	struct sim_target sim;
	struct target t;
	int ret = open_sim_target(o, &t, &sim);

	if (!ret)
		ret = check_against_target(o, &t);
	if (!ret)
		ret = run_on_target(o, &t, &sim, stop);
	close_sim_target(&sim);
	return ret;
}

static int run_real(struct run_options *o, const volatile sig_atomic_t *stop)
{
	struct target t;
	struct errmsg err;
	int ret = target_open(&t, &o->target, &err);

	if (ret) {
		fprintf(stderr, "iomodel: %s\n", err.text);
		return status_of_target_error(ret);
	}
	ret = check_against_target(o, &t);
	if (!ret)
		ret = run_on_target(o, &t, NULL, stop);
	target_close(&t);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	const volatile sig_atomic_t *stop;
	struct run_options o;
	int ret;

	ret = parse_run_options(&o, argc, argv);
	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	stop = signals_install_stop();
	o.target.stop = stop;
	ret = is_sim_path(o.target.path) ? run_sim(&o, stop) : run_real(&o, stop);
	return ret == EXIT_INTERRUPTED && *stop ? 128 + *stop : ret;
}
