/* fio_job_file.c — `--fio-job FILE` (fio_job_file.h). */
#include "cli/fio_job_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "io/fio_job.h"
#include "io/output_file.h"
#include "util/dynbuf.h"

#define MAX_FIO_JOBS 100000

static const char *fio_engine(enum backend_kind kind)
{
	switch (kind) {
	case BACKEND_LIBAIO: return "libaio";
	case BACKEND_PSYNC: return "psync";
	case BACKEND_NULL: return "null";
	case BACKEND_IO_URING: break;
	}
	return "io_uring";
}

/* "iomodel sweep --target 'a b'": the command line, arguments with blanks quoted. */
static int command_line(struct dynbuf *b, int argc, char **argv)
{
	int ret = dynbuf_add(b, "iomodel", 7);

	for (int i = 0; i < argc && !ret; i++) {
		bool quote = !*argv[i] || strpbrk(argv[i], " \t'\"") != NULL;

		ret = dynbuf_add(b, quote ? " '" : " ", quote ? 2 : 1);
		if (!ret)
			ret = dynbuf_add(b, argv[i], strlen(argv[i]));
		if (!ret && quote)
			ret = dynbuf_add(b, "'", 1);
	}
	return ret;
}

/* The job file's text in a malloc'ed buffer: 0, -EINVAL (a job fio cannot run) or -ENOMEM. */
static int render(const struct fio_job_target *t, const struct fio_job_section *jobs, size_t n,
		  char **text, size_t *len)
{
	FILE *mem = open_memstream(text, len);
	int ret;

	if (!mem)
		return -ENOMEM;
	ret = fio_job_write(mem, t, jobs, n);
	if (fclose(mem) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(*text);
		*text = NULL;
	}
	return ret == -EIO ? -ENOMEM : ret;
}

/* The whole file is made before `path` is opened, so that bad input leaves it untouched. */
static int write_sections(const char *path, const struct measure_target *m,
			  const struct fio_job_section *jobs, size_t n, int argc, char **argv)
{
	struct fio_job_target t = { .path = m->t.path, .ioengine = fio_engine(m->engine),
				    .direct = m->direct };
	struct errmsg err;
	struct dynbuf cmd;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (output_file_is_target(path, m->t.fd))
		return bad("--fio-job '%s': is the target of this run", path);
	dynbuf_init(&cmd, 1 << 16);
	if (command_line(&cmd, argc, argv))
		return bad("--fio-job: command line too long");
	t.command = dynbuf_ptr(&cmd);
	ret = render(&t, jobs, n, &text, &len);
	dynbuf_release(&cmd);
	if (ret == -EINVAL)
		return bad("--fio-job: a job of this plan cannot be written for fio");
	if (ret)
		return fputs("iomodel: --fio-job: out of memory\n", stderr), EXIT_FAILED;
	f = output_file_open(path, NULL, &err);
	if (!f) {
		free(text);
		return bad("--fio-job: %s", err.text);
	}
	ret = fwrite(text, 1, len, f) == len ? 0 : -EIO;
	free(text);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		return say("--fio-job: cannot write '%s': %s", path, strerror(-ret)), EXIT_FAILED;
	return EXIT_OK;
}

int write_fio_job_file(const char *path, const struct measure_target *m,
		       const struct job_spec *specs, size_t n, int argc, char **argv)
{
	struct fio_job_section *jobs = calloc(n ? n : 1, sizeof(*jobs));
	int status;

	if (!jobs) {
		fputs("iomodel: out of memory\n", stderr);
		return EXIT_FAILED;
	}
	for (size_t i = 0; i < n; i++) {
		jobs[i].spec = specs[i];
		fio_job_name(&specs[i], jobs[i].name);
	}
	status = write_sections(path, m, jobs, n, argc, argv);
	free(jobs);
	return status;
}

int write_fio_job_plans(const char *path, const struct measure_target *m,
			const struct sweep_plan *plans, size_t nplans, int argc, char **argv)
{
	struct job_spec *specs = NULL;
	size_t n = 0, alloc = 0;
	struct errmsg err;
	int status = EXIT_OK;

	for (size_t p = 0; p < nplans && status == EXIT_OK; p++) {
		for (size_t i = 0; i < sweep_count(&plans[p]) && status == EXIT_OK; i++) {
			if (array_grow((void **)&specs, &alloc, n + 1, sizeof(*specs), MAX_FIO_JOBS)) {
				fputs("iomodel: --fio-job: too many jobs\n", stderr);
				status = EXIT_FAILED;
				break;
			}
			sweep_job(&plans[p], i, &specs[n]);
			if (measure_check_job(m, &specs[n++], &err))
				status = bad("%s", err.text);
		}
	}
	if (status == EXIT_OK)
		status = write_fio_job_file(path, m, specs, n, argc, argv);
	free(specs);
	return status;
}
