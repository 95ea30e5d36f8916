/*
 * drive_key.c — which drive a result file is about, from what the tool that
 * wrote it recorded (inputs.h, report_drive_key): fio's hostname, the
 * filename or device of the job, and the stem of the job name (its name
 * without the workload words, sizes and numbers, so "rand-read-4k-qd8" and
 * "rand-write-64k" are both ""); iomodel's target path for runs, sweeps,
 * profiles and states (the label stays the first file's name). A fio grid
 * written one file per size or per depth thus comes out as one drive.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "report/inputs.h"

/* Workload words a job name carries besides the drive's name. */
static bool workload_word(const char *w, size_t n)
{
	static const char *const words[] = {
		"read", "write", "rand", "random", "randread", "randwrite", "randrw", "rw",
		"seq", "sequential", "mixed", "trim", "randtrim", "job", "test", "fio", "bs",
		"qd", "iodepth", "depth", "numjobs", "jobs", "direct", "sync", "libaio",
		"iouring", "io_uring", "psync",
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && !strncasecmp(w, words[i], n))
			return true;
	for (size_t i = 0; i < n; i++)
		if (isdigit((unsigned char)w[i]))
			return true;	/* 4k, 128KiB, qd32, 1m, 8 */
	return false;
}

/* The job name without its workload words, joined by '-'. */
static void job_stem(const char *name, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	while (name && *name) {
		size_t n = strcspn(name, "-_. :/");

		if (n && !workload_word(name, n) && used + n + 2 < len) {
			if (used)
				out[used++] = '-';
			memcpy(out + used, name, n);
			out[used += n] = '\0';
		}
		name += n + (name[n] != '\0');
	}
}

/* A string option of fio's job: the job's own, else the global one. */
static const char *fio_option(const json_t *root, const json_t *job, const char *key)
{
	const char *v = json_string_value(json_object_get(json_object_get(job, "job options"),
							  key));

	return v ? v : json_string_value(json_object_get(json_object_get(root, "global options"),
							 key));
}

static void fio_key(const json_t *root, const char *dir, char *key, size_t klen,
		    char *label, size_t llen)
{
	const json_t *job = json_array_get(json_object_get(root, "jobs"), 0);
	const char *host = json_string_value(json_object_get(root, "hostname"));
	const char *file = fio_option(root, job, "filename");
	char stem[96];

	if (!host)
		host = json_string_value(json_object_get(job, "hostname"));
	if (!file)
		file = fio_option(root, job, "directory");
	job_stem(json_string_value(json_object_get(job, "jobname")), stem, sizeof(stem));
	/* without a device or a stem, the files of one folder are one drive */
	snprintf(key, klen, "fio\n%s\n%s\n%s\n%s", host ? host : "", file ? file : "", stem,
		 file || stem[0] ? "" : dir);
	snprintf(label, llen, "%s%s%s%s%s", host ? host : "", host ? ":" : "", file ? file : "",
		 file && stem[0] ? " " : "", file || stem[0] ? stem : dir);
}

void report_drive_key(const json_t *root, const char *path, char *key, size_t klen,
		      char *label, size_t llen)
{
	const char *schema = json_string_value(json_object_get(root, "schema"));
	const char *slash = strrchr(path, '/');
	char dir[256];

	key[0] = '\0';
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	if (!root)
		return;
	if (schema && !strncmp(schema, "iomodel.", 8)) {
		const json_t *run = json_object_get(root, "target") ? root
			: json_array_get(json_object_get(root, "runs"), 0);
		const json_t *t = json_object_get(run, "target");
		/* runs and sweeps: {"path": ...}; profile and state: the path itself */
		const char *target = json_is_string(t) ? json_string_value(t)
				     : json_string_value(json_object_get(t, "path"));

		/* runs, sweeps, profiles and states of one target are one drive, labelled
		 * by the first file; a model file and an assessment (several targets)
		 * are drives of their own */
		if (target && strncmp(schema, "iomodel.model/", 14) &&
		    strcmp(schema, "iomodel.assess/1"))
			snprintf(key, klen, "iomodel\n%s", target);
		return;
	}
	if (json_object_get(root, "jobs"))
		fio_key(root, dir, key, klen, label, llen);
}
