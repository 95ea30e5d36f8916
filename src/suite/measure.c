/* measure.c — the target-once, jobs-many measuring loop of measure.h. */
#include "measure.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "backend/sim.h"
#include "engine/offsets.h"


static const char uring_workers_notice[] =
	"io_uring handed the IOs to kernel worker threads (the target does not take "
	"non-blocking IO), so every latency includes a thread hand-off; --engine psync "
	"or libaio may be faster here";

const char *measure_kind_name(enum target_kind kind)
{
	static const char *const names[] = {
		[TARGET_NULL] = "null", [TARGET_FILE] = "file",
		[TARGET_BLOCK] = "block", [TARGET_SIM] = "sim",
	};

	return names[kind];
}

static void add_notice(struct measure_target *m, const char *text)
{
	for (unsigned i = 0; i < m->n_notices; i++)
		if (!strcmp(m->notices[i].text, text))
			return;
	if (m->n_notices < MEASURE_MAX_NOTICES)
		errmsg_set(&m->notices[m->n_notices++], 0, "%s", text);
}

static int open_sim(struct measure_target *m, const struct target_request *req,
		    struct errmsg *err)
{
	const char *path = req->path;
	struct errmsg why;
	int ret;

	if (!req->direct)
		return errmsg_set(err, -EINVAL, "--buffered does not apply to '%s': a simulated "
				  "drive has no page cache", path);
	ret = sim_spec_parse(&m->spec, path + 4, &why);
	if (!ret)
		ret = sim_spec_create(&m->spec, m->seed, &m->dev, &why);
	if (ret)
		return errmsg_set(err, ret, "'%s': %s", path, why.text);
	m->t = (struct target){ .kind = TARGET_SIM, .fd = -1, .path = strdup(path),
				.size = m->dev->capacity, .dio_align = m->dev->sector };
	if (!m->t.path)
		return errmsg_set(err, -ENOMEM, "out of memory");
	if (req->size > m->t.size)
		return errmsg_set(err, -EINVAL, "'%s' holds %llu bytes, less than --size %llu",
				  path, (unsigned long long)m->t.size,
				  (unsigned long long)req->size);
	if (req->size)
		m->t.size = req->size;
	m->report.model = m->spec.model->name;
	m->report.preset = m->spec.preset ? m->spec.preset->name : NULL;
	return 0;
}

int measure_open(struct measure_target *m, const struct target_request *req,
		 enum backend_kind engine, uint64_t seed, struct errmsg *err)
{
	int ret;

	memset(m, 0, sizeof(*m));
	m->engine = engine;
	m->direct = req->direct;
	m->writable = req->writes;
	m->seed = seed;
	if (strncmp(req->path, "sim:", 4))
		return target_open(&m->t, req, err);
	ret = open_sim(m, req, err);
	if (ret)
		measure_close(m);
	return ret;
}

void measure_close(struct measure_target *m)
{
	if (m->t.kind != TARGET_SIM) {
		target_close(&m->t);
		return;
	}
	if (m->dev)
		m->dev->ops->destroy(m->dev);
	sim_spec_release(&m->spec);
	free(m->t.path);
	m->t.path = NULL;
	m->dev = NULL;
}

int measure_check_job(const struct measure_target *m, struct job_spec *s, struct errmsg *err)
{
	const struct target *t = &m->t;
	struct offset_gen probe;
	struct errmsg why;

	if (s->offset >= t->size)
		return errmsg_set(err, -EINVAL, "--offset %llu: beyond the end of '%s' (%llu bytes)",
				  (unsigned long long)s->offset, t->path,
				  (unsigned long long)t->size);
	if (!s->length)
		s->length = t->size - s->offset;
	if (s->length > t->size - s->offset)
		return errmsg_set(err, -EINVAL,
				  "--offset %llu + --length %llu: beyond the end of '%s' (%llu bytes)",
				  (unsigned long long)s->offset, (unsigned long long)s->length,
				  t->path, (unsigned long long)t->size);
	if (m->direct && t->kind != TARGET_NULL &&
	    (s->bs % t->dio_align || s->align % t->dio_align || s->offset % t->dio_align))
		return errmsg_set(err, -EINVAL, "'%s' needs --bs, --align and --offset in multiples "
				  "of %u bytes for O_DIRECT; use --buffered for other sizes",
				  t->path, t->dio_align);
	if (offset_gen_init(&probe, s->offset, s->length, s->bs, s->align, s->random, s->seed,
			    &why))
		return errmsg_set(err, -EINVAL, "'%s': %s", t->path, why.text);
	return 0;
}

int measure_backend_open(struct measure_target *m, unsigned *qd, const struct io_buffers *bufs,
			 struct backend **be, struct errmsg *err)
{
	struct backend_params params = {
		.fd = m->t.fd, .queue_depth = *qd, .buffers = bufs->base,
		.buffer_count = bufs->count, .buffer_size = bufs->size,
	};
	struct errmsg notice;
	enum backend_kind kind = m->t.kind == TARGET_NULL ? BACKEND_NULL : m->engine;
	int ret;

	if (m->t.kind == TARGET_SIM)
		return sim_backend_open(be, &params, m->dev, &m->spec.faults, m->seed,
					m->sim_clock_ns, err);
	ret = backend_open(be, kind, &params, &notice, err);
	if (ret)
		return ret;
	if (notice.text[0])
		add_notice(m, notice.text);
	if (!strcmp(backend_name(*be), "psync") && *qd > 1) {
		errmsg_set(&notice, 0, "psync does one IO at a time; running at queue depth 1, "
			   "not %u", *qd);
		add_notice(m, notice.text);
		*qd = 1;
	}
	return 0;
}

void measure_backend_close(struct measure_target *m, struct backend *be)
{
	if (m->t.kind == TARGET_SIM) {
		sim_backend_counters(be, &m->report.counters, &m->report.faults);
		m->sim_clock_ns = backend_now_ns(be);
	}
	if (!strcmp(backend_name(be), "io_uring") && uring_worker_threads())
		add_notice(m, uring_workers_notice);
	backend_close(be);
}

int measure_run(struct measure_target *m, struct job_spec *spec,
		const volatile sig_atomic_t *stop, struct run_result *r,
		struct run_info *info, struct errmsg *err)
{
	bool real = m->t.kind == TARGET_FILE || m->t.kind == TARGET_BLOCK;
	struct io_buffers bufs;
	struct backend *be = NULL;
	int ret;

	/* only real devices look at the data: elsewhere one untouched buffer serves all */
	if (io_buffers_alloc(&bufs, spec->bs, spec->qd, real ? MEASURE_BUFFER_LIMIT : spec->bs,
			     spec->seed, real))
		return errmsg_set(err, -ENOMEM, "out of memory for %u buffers of %llu bytes",
				  spec->qd, (unsigned long long)spec->bs);
	ret = measure_backend_open(m, &spec->qd, &bufs, &be, err);
	if (ret) {
		io_buffers_release(&bufs);
		return ret;
	}
	*info = (struct run_info){
		.target = m->t.path, .target_kind = measure_kind_name(m->t.kind),
		.target_size = m->t.size, .rw = info->rw, .engine = backend_name(be),
		.direct = m->direct && real, .spec = spec,
		.device = m->t.kind == TARGET_SIM ? &m->report : NULL,
	};
	err->text[0] = '\0';
	ret = engine_run(spec, be, &bufs, stop, r, err);
	if (!strcmp(info->engine, "io_uring") && uring_worker_threads())
		info->notice = uring_workers_notice;
	measure_backend_close(m, be);
	io_buffers_release(&bufs);
	return ret;
}

int measure_discard(struct measure_target *m, uint64_t offset, uint64_t length,
		    struct errmsg *err)
{
	const char *path = m->t.path;
	uint64_t range[2] = { offset, length };
	int ret = 0;

	if (!m->writable)
		return errmsg_set(err, -EPERM, "'%s': not opened for writes, so no discard", path);
	switch (m->t.kind) {
	case TARGET_NULL:
		return 0;
	case TARGET_SIM:
		ret = m->dev->ops->discard ? m->dev->ops->discard(m->dev, offset, length)
					   : -EOPNOTSUPP;
		if (ret == -EOPNOTSUPP)
			return errmsg_set(err, ret, "'%s': the simulated drive takes no TRIM "
					  "(an HDD, or trim=off)", path);
		break;
	case TARGET_BLOCK:
		if (ioctl(m->t.fd, BLKDISCARD, range))
			ret = -errno;
		if (ret == -EOPNOTSUPP)
			return errmsg_set(err, ret, "'%s': the device takes no discard", path);
		break;
	case TARGET_FILE:
		if (fallocate(m->t.fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset,
			      (off_t)length))
			ret = -errno;
		if (ret == -EOPNOTSUPP)
			return errmsg_set(err, ret, "'%s': the filesystem cannot punch holes", path);
		break;
	}
	if (ret)
		return errmsg_set(err, ret, "discard of '%s' failed: %s", path, strerror(-ret));
	return 0;
}

int measure_sim_relayout(struct measure_target *m, const char *key, const char *value,
			 struct errmsg *err)
{
	struct sim_device *dev;
	struct errmsg why;
	int ret;

	if (m->t.kind != TARGET_SIM)
		return errmsg_set(err, -EINVAL, "'%s': only a simulated drive can be laid out "
				  "directly", m->t.path);
	ret = sim_spec_set(&m->spec, key, value, &why);
	if (!ret && m->spec.model->check)
		ret = m->spec.model->check(m->spec.config, &why);
	if (!ret)
		ret = sim_spec_create(&m->spec, m->seed, &dev, &why);
	if (ret)
		return errmsg_set(err, ret, "'%s': %s", m->t.path, why.text);
	m->dev->ops->destroy(m->dev);
	m->dev = dev;
	return 0;
}
