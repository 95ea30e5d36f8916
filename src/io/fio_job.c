/*
 * fio_job.c — writing the fio job file of a plan (fio_job.h). Sizes are
 * written in bytes, without suffixes, so that fio's kb_base cannot change
 * them; times in ms, or in µs when they are not whole ms.
 */
#include "fio_job.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "util/errmsg.h"
#include "util/units.h"

static const char *rw_mode(const struct job_spec *s)
{
	if (s->read_pct == 100)
		return s->random ? "randread" : "read";
	if (s->read_pct == 0)
		return s->random ? "randwrite" : "write";
	return s->random ? "randrw" : "rw";
}

void fio_job_name(const struct job_spec *spec, char name[64])
{
	char bs[32];
	const char *rw = rw_mode(spec);

	format_size_exact(bs, sizeof(bs), spec->bs);
	if (spec->read_pct > 0 && spec->read_pct < 100)
		snprintf(name, 64, "%s%u-%s-qd%u", rw, spec->read_pct, bs, spec->qd);
	else
		snprintf(name, 64, "%s-%s-qd%u", rw, bs, spec->qd);
}

static bool valid_name(const char *name)
{
	if (!*name || !strcmp(name, "global"))
		return false;
	for (const char *p = name; *p; p++) {
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
			return false;
	}
	return true;
}

static void put_time(FILE *f, const char *key, uint64_t ns)
{
	uint64_t us = (ns + 500) / 1000;

	if (us % 1000 == 0)
		fprintf(f, "%s=%llums\n", key, (unsigned long long)(us / 1000));
	else
		fprintf(f, "%s=%lluus\n", key, (unsigned long long)(us ? us : 1));
}

static void put_stop_rules(FILE *f, const struct job_spec *s)
{
	if (!s->max_ios && !s->max_bytes) {
		put_time(f, "runtime", s->runtime_ns);
		fputs("time_based=1\n", f);
		return;
	}
	if (s->max_ios)
		fprintf(f, "number_ios=%llu\n", (unsigned long long)s->max_ios);
	/* io_size: without it fio stops after one pass over the region */
	fprintf(f, "io_size=%llu\n", (unsigned long long)(s->max_bytes ? s->max_bytes
							  : s->max_ios * s->bs));
	if (s->runtime_ns)
		put_time(f, "runtime", s->runtime_ns);
}

static void put_section(FILE *f, const struct fio_job_section *j, bool first, bool sync)
{
	const struct job_spec *s = &j->spec;

	fprintf(f, "\n[%s]\n", j->name);
	if (!first)
		fputs("stonewall\n", f);
	fprintf(f, "rw=%s\n", rw_mode(s));
	if (s->read_pct > 0 && s->read_pct < 100)
		fprintf(f, "rwmixread=%u\n", s->read_pct);
	fprintf(f, "bs=%llu\n", (unsigned long long)s->bs);
	if (s->align && s->align != s->bs)
		fprintf(f, "blockalign=%llu\n", (unsigned long long)s->align);
	fprintf(f, "iodepth=%u\n", sync ? 1 : s->qd);
	fprintf(f, "offset=%llu\nsize=%llu\n", (unsigned long long)s->offset,
		(unsigned long long)s->length);
	put_stop_rules(f, s);
	if (s->ramp_ns)
		put_time(f, "ramp_time", s->ramp_ns);
	fprintf(f, "randseed=%llu\n", (unsigned long long)s->seed);
}

static void put_global(FILE *f, const struct fio_job_target *t)
{
	char text[1024];
	bool null = !strcmp(t->path, "null");
	bool sim = !strncmp(t->path, "sim:", 4);

	errmsg_escape(text, sizeof(text), t->command ? t->command : "iomodel");
	fprintf(f, "; fio job file written by iomodel %s for: %s\n", IOMODEL_VERSION, text);
	fputs("; run it with: fio THIS-FILE --output-format=json (iomodel fit reads the output)\n",
	      f);
	errmsg_escape(text, sizeof(text), t->path);
	if (sim)
		fprintf(f, "; iomodel measured a simulated drive (%s), which fio cannot run:\n"
			"; add filename=DEVICE-OR-FILE below to measure a real one\n", text);
	fputs("\n[global]\n", f);
	if (null)
		fputs("ioengine=null\n", f);
	else
		fprintf(f, "ioengine=%s\n", t->ioengine);
	if (!null && !sim) {
		fputs("filename=", f);
		for (const char *c = text; *c; c++)	/* ':' separates file names in fio */
			fprintf(f, "%s%c", *c == ':' ? "\\" : "", *c);
		fputc('\n', f);
	}
	fprintf(f, "direct=%d\n", t->direct && !null);
}

int fio_job_write(FILE *f, const struct fio_job_target *t, const struct fio_job_section *jobs,
		  size_t n)
{
	bool sync = !strcmp(t->ioengine, "psync");

	for (size_t i = 0; i < n; i++) {
		const struct job_spec *s = &jobs[i].spec;

		if (!valid_name(jobs[i].name) || !s->length || !s->bs || !s->qd ||
		    (!s->runtime_ns && !s->max_ios && !s->max_bytes))
			return -EINVAL;
	}
	put_global(f, t);
	for (size_t i = 0; i < n; i++)
		put_section(f, &jobs[i], i == 0, sync);
	return ferror(f) ? -EIO : 0;
}
