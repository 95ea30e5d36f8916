/*
 * import_fio_job.c — the workload of one fio jobs[] entry (import_fio.h):
 * its options ("job options", then "global options", then fio's defaults),
 * or for fio 2.x, which records no options, its job name ("rand-read-16k",
 * "seqwrite_4k_qd32") and its totals (io_bytes / total_ios). The rules are
 * listed in import.h.
 *
 * fio writes every option as a string, exactly as the job file or command
 * line spelled it, and only the options that were set.
 */
#include "import_fio.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"

#define FIO_DEFAULT_BS 4096	/* fio's default bs */
#define SIZE_TOLERANCE 0.01	/* a job's bytes per IO may differ this much from its bs */
#define MAX_IO_SIZE 0x1p40	/* bytes per IO beyond this are no request size */

static const char *const dir_names[2] = { [IO_READ] = "read", [IO_WRITE] = "write" };

/* What a job name says, where it says it; 0 for what it does not. */
struct name_hints {
	int random;		/* 1 "rand", 0 "seq", -1 neither */
	uint64_t size;
	unsigned depth;
};

/* An option the user set: its text, and its key path for messages. */
struct fio_opt {
	const char *value;	/* NULL when not set */
	char path[96];
};

static int skip(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int skip(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return 1;
}

static const json_t *entry_at(const struct fio_file *f, size_t i)
{
	return json_array_get(f->jobs, i);
}

static bool has_options(const struct fio_file *f, size_t i)
{
	return json_is_object(json_object_get(entry_at(f, i), "job options")) ||
	       fio_entry_global(f, i);
}

/*
 * Look up the option called `keys[0]` (or one of its aliases, the rest of the
 * NULL-terminated `keys`) in entry i's "job options", then in "global options".
 */
static int get_opt(const struct fio_file *f, size_t i, const char *const *keys,
		   struct fio_opt *o)
{
	const json_t *entry_opts = json_object_get(entry_at(f, i), "job options");
	const json_t *v = NULL;

	o->value = NULL;
	for (const char *const *k = keys; *k && !v; k++) {
		v = json_object_get(entry_opts, *k);
		snprintf(o->path, sizeof(o->path), "jobs[%zu].job options.%s", i, *k);
	}
	for (const char *const *k = keys; *k && !v; k++) {
		v = json_object_get(fio_entry_global(f, i), *k);
		snprintf(o->path, sizeof(o->path), "global options.%s", *k);
	}
	if (!v)
		return 0;
	if (!json_is_string(v))
		return errmsg_set(f->err, -EINVAL, "%s: %s: expected a string", f->name, o->path);
	o->value = json_string_value(v);
	return 0;
}

static int get_opt1(const struct fio_file *f, size_t i, const char *key, struct fio_opt *o)
{
	const char *const keys[] = { key, NULL };

	return get_opt(f, i, keys, o);
}

/* rw (alias readwrite): only whether it is random matters here. */
static int get_rw(const struct fio_file *f, size_t i, struct fio_job *job, char *why, size_t len)
{
	static const char *const keys[] = { "rw", "readwrite", NULL };
	static const char *const modes[] = {
		"read", "write", "trim", "rw", "readwrite", "trimwrite",
		"randread", "randwrite", "randtrim", "randrw", "randtrimwrite",
	};
	struct fio_opt o;
	size_t n;
	int ret = get_opt(f, i, keys, &o);

	if (ret || !o.value)	/* fio's default is read: sequential */
		return ret;
	n = strcspn(o.value, ":");	/* "randread:8" */
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		if (strlen(modes[m]) == n && !strncmp(o.value, modes[m], n)) {
			job->random = !strncmp(o.value, "rand", 4);
			return 0;
		}
	}
	return skip(why, len, "%s '%s': not a fio rw mode", o.path, o.value);
}

/* The n-th (0: reads, 1: writes) comma-separated entry of a per-direction option. */
static void dir_entry(const char *value, int d, const char **at, size_t *len)
{
	const char *p = value;
	size_t n = strcspn(p, ",");

	if (d == 1 && p[n] == ',') {	/* "4k,8k": writes have their own; "4k": the same */
		p += n + 1;
		n = strcspn(p, ",");
	}
	*at = p;
	*len = n;
}

/*
 * One size of a bs, bsrange or bssplit entry, which fio reads up to a
 * separator (':', '-', '/', ','): "4k-16k" as bs= is 4k to fio too.
 */
static int entry_size(const char *at, size_t len, unsigned kb_base, uint64_t *out)
{
	size_t n = strcspn(at, ":-/,");

	return parse_fio_size(at, n < len ? n : len, kb_base, out);
}

/* bssplit "4k/10:64k/90" of one direction: its size when only one share is non-zero. */
static int split_size(const char *at, size_t len, unsigned kb_base, uint64_t *out)
{
	unsigned sizes = 0;
	size_t pos = 0;

	while (pos < len) {
		size_t n = strcspn(at + pos, ":,");
		const char *slash = memchr(at + pos, '/', n < len - pos ? n : len - pos);
		uint64_t size;

		if (n > len - pos)
			n = len - pos;
		if (entry_size(at + pos, n, kb_base, &size))
			return -EINVAL;
		if (!slash || strtod(slash + 1, NULL) > 0) {
			sizes++;
			*out = size;
		}
		pos += n + 1;
	}
	return sizes == 1 ? 0 : -ERANGE;
}

/* bsrange "4k-16k" of one direction: its size when both ends are the same. */
static int range_size(const char *at, size_t len, unsigned kb_base, uint64_t *out)
{
	size_t n = strcspn(at, "-:");
	uint64_t lo, hi;

	if (n >= len || entry_size(at, n, kb_base, &lo) ||
	    entry_size(at + n + 1, len - n - 1, kb_base, &hi))
		return -EINVAL;
	if (lo != hi)
		return -ERANGE;
	*out = lo;
	return 0;
}

/* The sizes of direction d the options give: bssplit, else bsrange, else bs. */
static int option_size(const struct fio_file *f, size_t i, int d, unsigned kb_base,
		       uint64_t *out, char *why, size_t len)
{
	static const char *const split_keys[] = { "bssplit", NULL };
	static const char *const range_keys[] = { "bsrange", "blocksize_range", NULL };
	static const char *const bs_keys[] = { "bs", "blocksize", NULL };
	static const char *const *const kinds[] = { split_keys, range_keys, bs_keys };
	struct fio_opt o;
	const char *at;
	size_t n;
	int ret;

	*out = FIO_DEFAULT_BS;
	for (int k = 0; k < 3; k++) {
		if ((ret = get_opt(f, i, kinds[k], &o)))
			return ret;
		if (!o.value)
			continue;
		dir_entry(o.value, d, &at, &n);
		if (n == 0)	/* "bs=,8k": the default for reads */
			return 0;
		ret = k == 0 ? split_size(at, n, kb_base, out)
		      : k == 1 ? range_size(at, n, kb_base, out)
		      : entry_size(at, n, kb_base, out);
		if (ret == -ERANGE)
			return skip(why, len, "%s '%s': mixes request sizes", o.path, o.value);
		if (ret || *out == 0)
			return skip(why, len, "%s '%s': not a size", o.path, o.value);
		return 0;
	}
	return 0;
}

/*
 * Bytes per IO of direction d by the entry's totals: io_bytes / total_ios
 * (io_bytes is in KiB before fio 2.21, which has no io_kbytes), *exact set;
 * or bw (KiB/s) / iops for fio 2.1, which has no total_ios. 0 when unknown.
 */
static double measured_size(const json_t *entry, int d, bool *exact)
{
	const json_t *sec = json_object_get(entry, dir_names[d]);
	double bytes = json_number_value(json_object_get(sec, "io_bytes"));
	double ios = json_number_value(json_object_get(sec, "total_ios"));
	double bw = json_number_value(json_object_get(sec, "bw"));
	double iops = json_number_value(json_object_get(sec, "iops"));

	if (!json_object_get(sec, "io_kbytes"))
		bytes *= 1024;
	*exact = ios > 0 && bytes > 0 && json_object_get(sec, "io_kbytes");
	if (ios > 0 && bytes > 0)
		return bytes / ios;
	return bw > 0 && iops > 0 ? bw * 1024 / iops : 0;
}

static bool near(double a, double b, double tolerance)
{
	return fabs(a - b) <= tolerance * b;
}

/* A size in a job name: "16k", "4KiB", "bs4k", "1m" (a bare number is not one). */
static bool name_size(const char *tok, uint64_t *out)
{
	if (!strncmp(tok, "bs", 2))
		tok += 2;
	if (!isdigit((unsigned char)*tok) || !isalpha((unsigned char)tok[strlen(tok) - 1]))
		return false;
	return parse_size(tok, out) == 0 && *out > 0;
}

/* The count `text` spells as digits followed by exactly `suffix`; 0 otherwise. */
static unsigned name_count(const char *text, const char *suffix)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)*text))
		return 0;
	v = strtoul(text, &end, 10);
	if (strcmp(end, suffix) || v > UINT_MAX)
		return 0;
	return (unsigned)v;
}

/* A queue depth in a job name: "qd32", "iodepth16", "depth8", "q4", "32qd"; 0 if none. */
static unsigned name_depth(const char *tok)
{
	static const char *const words[] = { "iodepth", "depth", "qd", "q" };

	for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
		size_t n = strlen(words[w]);

		if (!strncmp(tok, words[w], n) && name_count(tok + n, ""))
			return name_count(tok + n, "");
	}
	return name_count(tok, "qd");
}

/* What a job name says of its workload: tokens between non-alphanumerics. */
static void read_name(const char *name, struct name_hints *h)
{
	char tok[48];
	size_t n;

	memset(h, 0, sizeof(*h));
	h->random = -1;
	while (name && *name) {
		n = 0;
		while (*name && !isalnum((unsigned char)*name))
			name++;
		while (isalnum((unsigned char)*name)) {
			if (n + 1 < sizeof(tok))
				tok[n++] = (char)tolower((unsigned char)*name);
			name++;
		}
		tok[n] = '\0';
		if (strstr(tok, "rand"))
			h->random = 1;
		else if (h->random < 0 && (strstr(tok, "seq") || !strcmp(tok, "read") ||
					   !strcmp(tok, "write")))
			h->random = 0;
		if (!h->size)
			name_size(tok, &h->size);
		if (!h->depth)
			h->depth = name_depth(tok);
	}
}

/*
 * Without options (fio 2.x): the size by the totals, checked against the
 * name's, or the name's alone; rounded to a multiple of 512 bytes when the
 * totals say it only to within 1 % (io_bytes in KiB, or bw / iops).
 */
static int settle_size(const struct fio_file *f, size_t i, int d, const struct name_hints *h,
		       uint64_t *out, char *why, size_t len)
{
	bool exact;
	double m = measured_size(entry_at(f, i), d, &exact);
	double sectors = round(m / 512);

	if (!(m < MAX_IO_SIZE))
		return skip(why, len, "%s: %g bytes per IO is no request size", dir_names[d], m);
	if (h->size && (m == 0 || near(m, (double)h->size, SIZE_TOLERANCE)))
		*out = h->size;
	else if (exact && m == floor(m))
		*out = (uint64_t)m;
	else if (sectors > 0 && near(m, sectors * 512, SIZE_TOLERANCE))
		*out = (uint64_t)sectors * 512;
	else if (m > 0)
		return skip(why, len, "%s: %.0f bytes per IO is no request size", dir_names[d], m);
	else
		return skip(why, len, "no request size in options, job name or totals");
	return 0;
}

/* With options: the job must have done IOs of the size they give. */
static int check_size(const struct fio_file *f, size_t i, int d, uint64_t size, char *why,
		      size_t len)
{
	bool exact;
	double m = measured_size(entry_at(f, i), d, &exact);

	if (exact && !near(m, (double)size, SIZE_TOLERANCE))
		return skip(why, len, "%s: the options say %llu bytes per IO, the totals %.0f",
			    dir_names[d], (unsigned long long)size, m);
	return 0;
}

static int get_kb_base(const struct fio_file *f, size_t i, unsigned *kb_base, char *why,
		       size_t len)
{
	struct fio_opt o;
	int ret = get_opt1(f, i, "kb_base", &o);

	*kb_base = 1024;
	if (ret || !o.value)
		return ret;
	if (strcmp(o.value, "1000") && strcmp(o.value, "1024"))
		return skip(why, len, "%s '%s': expected 1000 or 1024", o.path, o.value);
	*kb_base = (unsigned)atoi(o.value);
	return 0;
}

static int get_sizes(const struct fio_file *f, size_t i, const struct name_hints *h,
		     struct fio_job *job, char *why, size_t len)
{
	static const char *const ba_keys[] = { "ba", "blockalign", NULL };
	unsigned kb_base;
	int ret = get_kb_base(f, i, &kb_base, why, len);

	for (int d = 0; d < 2 && !ret; d++) {
		const json_t *sec = json_object_get(entry_at(f, i), dir_names[d]);
		bool did_io = json_number_value(json_object_get(sec, "iops")) > 0;
		struct fio_opt o;
		const char *at;
		size_t n;

		if (!has_options(f, i)) {
			job->bs[d] = job->ba[d] = FIO_DEFAULT_BS;
			if (did_io && !(ret = settle_size(f, i, d, h, &job->bs[d], why, len)))
				job->ba[d] = job->bs[d];
			continue;
		}
		ret = option_size(f, i, d, kb_base, &job->bs[d], why, len);
		if (ret > 0 && !did_io)	/* a direction without IO needs no size */
			ret = 0;
		if (ret || (did_io && (ret = check_size(f, i, d, job->bs[d], why, len))) ||
		    (ret = get_opt(f, i, ba_keys, &o)))
			break;
		job->ba[d] = job->bs[d];
		if (!o.value)
			continue;
		dir_entry(o.value, d, &at, &n);
		if (n && (entry_size(at, n, kb_base, &job->ba[d]) || !job->ba[d]))
			ret = skip(why, len, "%s '%s': not a size", o.path, o.value);
	}
	return ret;
}

static int get_count(const struct fio_file *f, size_t i, const char *key, unsigned *out,
		     char *why, size_t len)
{
	struct fio_opt o;
	uint64_t v;
	int ret = get_opt1(f, i, key, &o);

	*out = 1;
	if (ret || !o.value)
		return ret;
	if (parse_count(o.value, 1, UINT_MAX, &v))
		return skip(why, len, "%s '%s': expected a positive integer", o.path, o.value);
	*out = (unsigned)v;
	return 0;
}

/* fio runs the synchronous engines at depth 1 whatever iodepth says. */
static bool sync_engine(const char *engine)
{
	static const char *const sync[] = {
		"sync", "psync", "vsync", "pvsync", "pvsync2", "mmap", "splice",
	};

	if (!engine)		/* fio's default on Linux: psync */
		return true;
	for (size_t k = 0; k < sizeof(sync) / sizeof(sync[0]); k++) {
		if (!strcmp(engine, sync[k]))
			return true;
	}
	return false;
}

/*
 * Without options: the depth the name gives, else the iodepth_level bucket
 * that holds most of the IOs (fio's buckets are 1, 2, 4, … 32, ">=64").
 */
static unsigned depth_without_options(const json_t *entry, const struct name_hints *h)
{
	const json_t *levels = json_object_get(entry, "iodepth_level");
	const char *key;
	json_t *v;
	double best = 0;
	unsigned depth = 1;

	if (h->depth)
		return h->depth;
	json_object_foreach((json_t *)levels, key, v) {
		unsigned long level = strtoul(key + strspn(key, ">="), NULL, 10);

		if (json_number_value(v) > best && level > 0 && level <= UINT_MAX) {
			best = json_number_value(v);
			depth = (unsigned)level;
		}
	}
	return depth;
}

int fio_job_resolve(const struct fio_file *f, size_t i, struct fio_job *job, char *why,
		    size_t why_len)
{
	const json_t *entry = entry_at(f, i);
	struct fio_opt engine, gr;
	struct name_hints h;
	int ret;

	memset(job, 0, sizeof(*job));
	read_name(json_string_value(json_object_get(entry, "jobname")), &h);
	if ((ret = get_sizes(f, i, &h, job, why, why_len)))
		return ret;
	if (!has_options(f, i)) {
		job->random = h.random != 0;	/* unknown counts as random (points.h) */
		job->depth = depth_without_options(entry, &h);
		job->numjobs = 1;
		return 0;
	}
	if ((ret = get_rw(f, i, job, why, why_len)) ||
	    (ret = get_count(f, i, "iodepth", &job->depth, why, why_len)) ||
	    (ret = get_count(f, i, "numjobs", &job->numjobs, why, why_len)) ||
	    (ret = get_opt1(f, i, "ioengine", &engine)) ||
	    (ret = get_opt1(f, i, "group_reporting", &gr)))
		return ret;
	if (sync_engine(engine.value))
		job->depth = 1;
	/* a bare "group_reporting" flag is written as "" (or not at all) */
	job->group_reporting = gr.value && strcmp(gr.value, "0");
	return 0;
}
