/* trace.c — reading DiskSim, blkparse and DiskSim validation traces (trace.h). */
#include "trace.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/dynbuf.h"	/* array_grow */
#include "util/input_file.h"

#define MAX_FIELDS 12
#define MAX_LINE 4096
#define SECTOR 512ULL

struct line_fields {
	char *f[MAX_FIELDS];
	unsigned n;
};

int trace_format_parse(const char *name, enum trace_format *out)
{
	static const char *const names[] = { "disksim", "blkparse", "validate" };

	for (unsigned i = 0; i < 3; i++)
		if (!strcmp(name, names[i])) {
			*out = (enum trace_format)i;
			return 0;
		}
	return -EINVAL;
}

const char *trace_format_name(enum trace_format f)
{
	return f == TRACE_DISKSIM ? "disksim" : f == TRACE_BLKPARSE ? "blkparse" : "validate";
}

/* Split `line` (modified in place) at blanks. */
static void split(char *line, struct line_fields *lf)
{
	char *save = NULL;

	lf->n = 0;
	for (char *tok = strtok_r(line, " \t\r", &save); tok && lf->n < MAX_FIELDS;
	     tok = strtok_r(NULL, " \t\r", &save))
		lf->f[lf->n++] = tok;
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !errno && !*end;
}

/* A finite number >= 0 times `scale` in ns, below 2^63 (292 years: what llround() can hold). */
static bool parse_time(const char *s, double scale, uint64_t *ns)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || !isfinite(v) || v < 0 || !(v * scale < 0x1p63))
		return false;
	*ns = (uint64_t)llround(v * scale);
	return true;
}

/* Block and block count (512-byte units) to bytes, checked. */
static bool blocks_to_bytes(uint64_t block, uint64_t count, struct trace_req *r)
{
	if (!count || count > TRACE_MAX_LENGTH / SECTOR || block > UINT64_MAX / SECTOR - count)
		return false;
	r->offset = block * SECTOR;
	r->length = (uint32_t)(count * SECTOR);
	return true;
}

static int push(struct trace *t, const struct trace_req *r, const char *path,
		struct errmsg *err)
{
	int ret = array_grow((void **)&t->reqs, &t->alloc, t->n + 1, sizeof(*t->reqs),
			     TRACE_MAX_REQUESTS);

	if (ret == -E2BIG)
		return errmsg_set(err, -EINVAL, "%s:%u: more than %zu requests", path, r->line,
				  TRACE_MAX_REQUESTS);
	if (ret)
		return errmsg_set(err, ret, "out of memory for the trace");
	t->reqs[t->n++] = *r;
	return 0;
}

/* "TIME_MS DEVICE BLOCK BLOCKS FLAGS" */
static int disksim_line(const struct line_fields *lf, struct trace_req *r, const char *path,
			struct errmsg *err)
{
	uint64_t dev, block, count, flags;

	if (lf->n != 5)
		return errmsg_set(err, -EINVAL, "%s:%u: expected 5 fields (time_ms device block "
				  "blocks flags), found %u", path, r->line, lf->n);
	if (!parse_time(lf->f[0], 1e6, &r->time_ns))
		return errmsg_set(err, -EINVAL, "%s:%u: bad time '%s' (milliseconds, 0 to 292 "
				  "years)", path, r->line, lf->f[0]);
	if (!parse_u64(lf->f[1], &dev) || dev > UINT32_MAX)
		return errmsg_set(err, -EINVAL, "%s:%u: bad device number '%s'", path, r->line,
				  lf->f[1]);
	if (!parse_u64(lf->f[2], &block) || !parse_u64(lf->f[3], &count) ||
	    !blocks_to_bytes(block, count, r))
		return errmsg_set(err, -EINVAL, "%s:%u: bad block '%s' or size '%s' (blocks of "
				  "512 bytes, size 1 to %llu)", path, r->line, lf->f[2], lf->f[3],
				  TRACE_MAX_LENGTH / SECTOR);
	if (!parse_u64(lf->f[4], &flags))
		return errmsg_set(err, -EINVAL, "%s:%u: bad flags '%s' (1 read, 0 write)", path,
				  r->line, lf->f[4]);
	r->device = (unsigned)dev;
	r->op = flags & 1 ? IO_READ : IO_WRITE;
	return 1;
}

/* "R|W CACHE BLOCK BLOCKS SERVICE_US THINK_US"; *think: this line's think time. */
static int validate_line(const struct line_fields *lf, struct trace_req *r, uint64_t *think,
			 const char *path, struct errmsg *err)
{
	uint64_t block, count;

	if (lf->n != 6)
		return errmsg_set(err, -EINVAL, "%s:%u: expected 6 fields (R|W cache block blocks "
				  "service_us think_us), found %u", path, r->line, lf->n);
	if (strcmp(lf->f[0], "R") && strcmp(lf->f[0], "W"))
		return errmsg_set(err, -EINVAL, "%s:%u: bad direction '%s' (R or W)", path,
				  r->line, lf->f[0]);
	if (!parse_u64(lf->f[2], &block) || !parse_u64(lf->f[3], &count) ||
	    !blocks_to_bytes(block, count, r))
		return errmsg_set(err, -EINVAL, "%s:%u: bad block '%s' or size '%s'", path,
				  r->line, lf->f[2], lf->f[3]);
	if (!parse_time(lf->f[4], 1e3, &r->measured_ns) || !parse_time(lf->f[5], 1e3, think))
		return errmsg_set(err, -EINVAL, "%s:%u: bad service '%s' or think time '%s' "
				  "(microseconds, 0 to 292 years)", path, r->line, lf->f[4], lf->f[5]);
	r->op = lf->f[0][0] == 'R' ? IO_READ : IO_WRITE;
	return 1;
}

/*
 * One blkparse line: 1 and `r` filled for a read or write event of `action`,
 * 0 for a line to skip (another action, a flush or discard, the summary).
 */
static int blkparse_line(const struct line_fields *lf, char action, struct trace_req *r,
			 const char *path, struct errmsg *err)
{
	unsigned maj, min;
	uint64_t sector, count;
	const char *rwbs;
	char tail;

	if (lf->n < 7 || sscanf(lf->f[0], "%u,%u%c", &maj, &min, &tail) != 2 ||
	    strlen(lf->f[5]) != 1 || lf->f[5][0] != action)
		return 0;
	rwbs = lf->f[6];
	if (strchr(rwbs, 'D') || (!strchr(rwbs, 'R') && !strchr(rwbs, 'W')))
		return 0;	/* discard, flush or no data */
	if ((lf->n < 10 || strcmp(lf->f[8], "+")) && strchr(rwbs, 'F'))
		return 0;	/* a flush without data */
	if (lf->n < 10 || strcmp(lf->f[8], "+"))
		return errmsg_set(err, -EINVAL, "%s:%u: a %c event without 'SECTOR + COUNT'",
				  path, r->line, action);
	if (!parse_time(lf->f[3], 1e9, &r->time_ns))
		return errmsg_set(err, -EINVAL, "%s:%u: bad time '%s' (seconds, 0 to 292 years)",
				  path, r->line, lf->f[3]);
	if (!parse_u64(lf->f[7], &sector) || !parse_u64(lf->f[9], &count))
		return errmsg_set(err, -EINVAL, "%s:%u: bad sector '%s' or count '%s'", path,
				  r->line, lf->f[7], lf->f[9]);
	if (!count)
		return 0;	/* a zero-length (flush) request */
	if (!blocks_to_bytes(sector, count, r))
		return errmsg_set(err, -EINVAL, "%s:%u: sector '%s' + count '%s' out of range",
				  path, r->line, lf->f[7], lf->f[9]);
	/* Linux's 12-bit major and 20-bit minor: no two devices share a number */
	if (maj > 0xfff || min > 0xfffff || !isdigit((unsigned char)lf->f[0][0]))
		return errmsg_set(err, -EINVAL, "%s:%u: bad device '%s' (MAJOR,MINOR up to "
				  "4095,1048575)", path, r->line, lf->f[0]);
	r->device = (maj << 20) | min;
	r->op = strchr(rwbs, 'W') ? IO_WRITE : IO_READ;
	return 1;
}

/* One pass over the lines; `action` is the blkparse event kept. */
static int parse_lines(struct trace *t, const char *path, const char *text, char action,
		       struct errmsg *err)
{
	char line[MAX_LINE + 1];
	uint64_t think = 0;
	unsigned lineno = 0;
	int ret = 0;

	for (const char *p = text; *p && ret >= 0; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		struct trace_req r = { .line = ++lineno };
		struct line_fields lf;
		uint64_t next_think = 0;

		if (len > MAX_LINE)
			return errmsg_set(err, -EINVAL, "%s:%u: line longer than %d bytes", path,
					  lineno, MAX_LINE);
		memcpy(line, p, len);
		line[len] = '\0';
		p += len + (nl != NULL);
		split(line, &lf);
		if (!lf.n)
			continue;
		if (t->format == TRACE_DISKSIM)
			ret = disksim_line(&lf, &r, path, err);
		else if (t->format == TRACE_BLKPARSE)
			ret = blkparse_line(&lf, action, &r, path, err);
		else
			ret = validate_line(&lf, &r, &next_think, path, err);
		if (ret <= 0)
			continue;
		if (t->format == TRACE_VALIDATE) {
			r.time_ns = think;
			think = next_think;
		}
		ret = push(t, &r, path, err);
	}
	return ret < 0 ? ret : 0;
}

static int by_time(const void *a, const void *b)
{
	const struct trace_req *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

int trace_parse(struct trace *t, const char *path, const char *text, enum trace_format f,
		struct errmsg *err)
{
	int ret;

	*t = (struct trace){ .format = f, .closed = f == TRACE_VALIDATE,
			     .measured = f == TRACE_VALIDATE };
	ret = parse_lines(t, path, text, 'Q', err);
	if (!ret && !t->n && f == TRACE_BLKPARSE)
		ret = parse_lines(t, path, text, 'D', err);
	if (!ret && !t->n)
		ret = errmsg_set(err, -EINVAL, "%s: no requests in this %s trace", path,
				 trace_format_name(f));
	if (ret) {
		trace_release(t);
		return ret;
	}
	if (!t->closed)	/* blkparse merges CPUs; a stable sort keeps equal times in file order */
		qsort(t->reqs, t->n, sizeof(*t->reqs), by_time);
	return 0;
}

int trace_load(struct trace *t, const char *path, enum trace_format f, struct errmsg *err)
{
	char *text;
	size_t len;
	int ret = input_file_read(path, &text, &len, err);

	if (ret)
		return ret;
	if (strlen(text) != len)
		ret = errmsg_set(err, -EINVAL, "'%s': a NUL byte in a text trace", path);
	else
		ret = trace_parse(t, path, text, f, err);
	free(text);
	return ret;
}

int trace_keep_device(struct trace *t, const char *path, unsigned device, struct errmsg *err)
{
	size_t kept = 0;

	for (size_t i = 0; i < t->n; i++)
		if (t->reqs[i].device == device)
			t->reqs[kept++] = t->reqs[i];
	t->n = kept;
	if (!kept)
		return errmsg_set(err, -EINVAL, "--device %u: no requests for it in %s", device, path);
	return 0;
}

int trace_check_fits(const struct trace *t, const char *path, uint64_t size, uint32_t align,
		     struct errmsg *err)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct trace_req *r = &t->reqs[i];

		if (r->offset > size || r->length > size - r->offset)
			return errmsg_set(err, -EINVAL, "%s:%u: the request at byte %llu + %u goes "
					  "beyond the end of the target (%llu bytes)", path, r->line,
					  (unsigned long long)r->offset, r->length,
					  (unsigned long long)size);
		if (align > 1 && (r->offset % align || r->length % align))
			return errmsg_set(err, -EINVAL, "%s:%u: the request at byte %llu + %u is not "
					  "aligned to the target's %u bytes (O_DIRECT); use "
					  "--buffered", path, r->line, (unsigned long long)r->offset,
					  r->length, align);
	}
	return 0;
}

uint32_t trace_max_length(const struct trace *t)
{
	uint32_t max = 0;

	for (size_t i = 0; i < t->n; i++)
		if (t->reqs[i].length > max)
			max = t->reqs[i].length;
	return max;
}

void trace_release(struct trace *t)
{
	free(t->reqs);
	t->reqs = NULL;
	t->n = t->alloc = 0;
}
