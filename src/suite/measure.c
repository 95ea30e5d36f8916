/* measure.c — the target-once, jobs-many measuring loop of measure.h. */
#include "measure.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "backend/sim.h"
#include "engine/offsets.h"
#include "util/units.h"


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

uint64_t measure_sim_memory_default(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || page <= 0)
		return 1ULL << 30;
	return (uint64_t)pages * (uint64_t)page / 4;
}

/* Refuse a drive whose state would take more than the limit asked for. */
static int check_sim_memory(const struct measure_target *m, const struct target_request *req,
			    struct errmsg *err)
{
	uint64_t need = sim_spec_memory(&m->spec);
	uint64_t limit = req->sim_memory ? req->sim_memory : measure_sim_memory_default();
	char need_text[32], limit_text[32];

	if (need <= limit)
		return 0;
	format_size(need_text, sizeof(need_text), need);
	format_size(limit_text, sizeof(limit_text), limit);
	return errmsg_set(err, -EINVAL, "'%s': the simulated drive needs about %s of memory, "
			  "more than the limit of %s (%s); raise it with --sim-memory SIZE",
			  req->path, need_text, limit_text,
			  req->sim_memory ? "--sim-memory" : "a quarter of physical memory");
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
	m->t = (struct target){ .kind = TARGET_SIM, .fd = -1 };	/* measure_close knows it */
	ret = sim_spec_parse(&m->spec, path + 4, &why);
	if (ret)
		return errmsg_set(err, ret, "'%s': %s", path, why.text);
	ret = check_sim_memory(m, req, err);
	if (ret)
		return ret;
	ret = sim_spec_create(&m->spec, m->seed, &m->dev, &why);
	if (ret)
		return errmsg_set(err, ret, "'%s': %s", path, why.text);
	m->t = (struct target){ .kind = TARGET_SIM, .fd = -1, .dirfd = -1, .path = strdup(path),
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
	m->t = (struct target){ .fd = -1, .dirfd = -1 };	/* nothing open yet */
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
	sim_store_free(m->store);
	m->store = NULL;
	sim_spec_release(&m->spec);
	free(m->t.path);
	m->t.path = NULL;
	m->dev = NULL;
}

/* --verify: the null target checks its own buffers; every target needs what verify.h says. */
static int check_verify(const struct target *t, struct job_spec *s,
			const struct offset_gen *probe, struct errmsg *err)
{
	struct verify_params p = {
		.mode = s->verify, .writes = s->read_pct < 100, .first = probe->first,
		.slots = probe->positions, .bs = (uint32_t)s->bs, .qd = s->qd,
	};

	if (t->kind == TARGET_NULL)
		s->verify = VERIFY_SELF;
	if (s->bs * s->qd > VERIFY_MAX_BUFFERS)
		return errmsg_set(err, -EINVAL, "--verify needs a buffer of its own per IO in "
				  "flight: --bs x --qd at most 1GiB");
	return verify_check_job(&p, s->align, t->kind != TARGET_NULL, err);
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
	if (s->verify && t->kind == TARGET_SIM && m->dev->ops->keep_data &&
	    sim_fault_data_any(&m->spec.faults))
		return errmsg_set(err, -EINVAL, "'%s' keeps its data in its members: data faults "
				  "go to a member (bad_member_lost_write_rate, bad_member_bitflip_rate), "
				  "not to the whole array", t->path);
	return s->verify ? check_verify(t, s, &probe, err) : 0;
}

/* The backend for up to *qd requests; with `verify`, a simulated drive keeps its data. */
static int open_backend(struct measure_target *m, unsigned *qd, bool verify,
			const struct io_buffers *bufs, struct backend **be, struct errmsg *err)
{
	struct backend_params params = {
		.fd = m->t.fd, .queue_depth = *qd, .buffers = bufs->base,
		.buffer_count = bufs->count, .buffer_size = bufs->size,
	};
	struct errmsg notice;
	enum backend_kind kind = m->t.kind == TARGET_NULL ? BACKEND_NULL : m->engine;
	int ret;

	if (m->t.kind == TARGET_SIM && verify && m->dev->ops->keep_data) {
		if (m->dev->ops->keep_data(m->dev, SIM_STORE_LIMIT))
			return errmsg_set(err, -ENOMEM, "out of memory for the simulated drive's data");
	} else if (m->t.kind == TARGET_SIM && verify && !m->store &&
		   sim_store_create(&m->store, SIM_STORE_LIMIT)) {
		return errmsg_set(err, -ENOMEM, "out of memory for the simulated drive's data");
	}
	if (m->t.kind == TARGET_SIM)
		return sim_backend_open(be, &params, m->dev, m->store, &m->spec.faults, m->seed,
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

int measure_backend_open(struct measure_target *m, unsigned *qd, const struct io_buffers *bufs,
			 struct backend **be, struct errmsg *err)
{
	return open_backend(m, qd, false, bufs, be, err);
}

void measure_backend_close(struct measure_target *m, struct backend *be)
{
	if (m->t.kind == TARGET_SIM) {
		sim_backend_counters(be, &m->report.counters, &m->report.faults);
		m->report.n_members = sim_backend_member_counters(be, m->report.members,
								  SIM_MAX_MEMBERS);
		m->sim_clock_ns = backend_now_ns(be);
	}
	if (!strcmp(backend_name(be), "io_uring") && uring_worker_threads())
		add_notice(m, uring_workers_notice);
	backend_close(be);
}

int measure_job_open(struct measure_target *m, struct job_spec *spec, struct measure_job *j,
		     struct run_info *info, struct errmsg *err)
{
	bool real = m->t.kind == TARGET_FILE || m->t.kind == TARGET_BLOCK;
	bool own = real || spec->verify;
	int ret;

	/* only real devices and --verify look at the data: elsewhere one untouched buffer serves all */
	if (io_buffers_alloc(&j->bufs, spec->bs, spec->qd, own ? MEASURE_BUFFER_LIMIT : spec->bs,
			     spec->seed, own))
		return errmsg_set(err, -ENOMEM, "out of memory for %u buffers of %llu bytes",
				  spec->qd, (unsigned long long)spec->bs);
	ret = open_backend(m, &spec->qd, spec->verify, &j->bufs, &j->be, err);
	if (ret) {
		io_buffers_release(&j->bufs);
		return ret;
	}
	*info = (struct run_info){
		.target = m->t.path, .target_kind = measure_kind_name(m->t.kind),
		.target_size = m->t.size, .rw = info->rw, .engine = backend_name(j->be),
		.direct = m->direct && real, .spec = spec,
		.device = m->t.kind == TARGET_SIM ? &m->report : NULL, .jobs = 1,
		.total_qd = spec->qd,
	};
	return 0;
}

void measure_job_close(struct measure_target *m, struct measure_job *j, struct run_info *info)
{
	if (!strcmp(backend_name(j->be), "io_uring") && uring_worker_threads())
		info->notice = uring_workers_notice;
	measure_backend_close(m, j->be);
	io_buffers_release(&j->bufs);
	j->be = NULL;
}

int measure_run(struct measure_target *m, struct job_spec *spec,
		const volatile sig_atomic_t *stop, struct run_result *r,
		struct run_info *info, struct errmsg *err)
{
	struct measure_job j;
	int ret = measure_job_open(m, spec, &j, info, err);

	if (ret)
		return ret;
	err->text[0] = '\0';
	ret = engine_run(spec, j.be, &j.bufs, stop, r, err);
	measure_job_close(m, &j, info);
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
					  "(an HDD, an array of HDDs, or trim=off)", path);
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
