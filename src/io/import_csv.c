/*
 * import_csv.c — points from a CSV table: a header line naming the columns
 * (op, size, qd, iops or mib_s, optionally random and a latency, in any order),
 * then one point per line. The format is described in import.h.
 */
#include "import.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/units.h"

enum csv_col {
	COL_OP, COL_SIZE, COL_QD, COL_IOPS, COL_MIB_S, COL_RANDOM, COL_LAT_MS, COL_LAT_US,
	COL_COUNT
};

static const char *const col_names[COL_COUNT] = {
	"op", "size", "qd", "iops", "mib_s", "random", "lat_ms", "lat_mean_us",
};

struct csv {
	struct point_set *ps;
	const char *name;
	struct errmsg *err;
	unsigned line;		/* 1-based number of the line being read */
	char *header;		/* copy of the header line, NULL before it */
	int col[COL_COUNT];	/* field index of each column, -1 when absent */
	unsigned nfields;	/* fields of the header, hence of every row */
	char **fields;		/* the current row's fields, nfields of them */
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Cut blanks off both ends of the NUL-terminated `s`, in place. */
static char *trim(char *s)
{
	char *end = s + strlen(s);

	while (is_blank(*s))
		s++;
	while (end > s && is_blank(end[-1]))
		end--;
	*end = '\0';
	return s;
}

static unsigned count_fields(const char *line)
{
	unsigned n = 1;

	for (; *line; line++)
		n += *line == ',';
	return n;
}

/* Split `line` at its commas into c->fields (which has room for all of them). */
static void split(struct csv *c, char *line)
{
	unsigned i = 0;

	for (;;) {
		char *comma = strchr(line, ',');

		if (comma)
			*comma = '\0';
		c->fields[i++] = trim(line);
		if (!comma)
			break;
		line = comma + 1;
	}
}

static int parse_header(struct csv *c, char *line)
{
	c->header = strdup(line);
	c->nfields = count_fields(line);
	c->fields = calloc(c->nfields, sizeof(*c->fields));
	if (!c->header || !c->fields)
		return -ENOMEM;
	split(c, line);
	for (unsigned i = 0; i < c->nfields; i++) {
		for (int k = 0; k < COL_COUNT; k++) {
			if (strcasecmp(c->fields[i], col_names[k]))
				continue;
			if (c->col[k] >= 0)
				return errmsg_set(c->err, -EINVAL, "%s:%u: column '%s' given twice",
						  c->name, c->line, col_names[k]);
			c->col[k] = (int)i;
		}
	}
	for (int k = COL_OP; k <= COL_QD; k++) {
		if (c->col[k] < 0)
			return errmsg_set(c->err, -EINVAL, "%s:%u: missing column '%s' (header: %s)",
					  c->name, c->line, col_names[k], c->header);
	}
	if (c->col[COL_IOPS] < 0 && c->col[COL_MIB_S] < 0)
		return errmsg_set(c->err, -EINVAL,
				  "%s:%u: missing column 'iops' or 'mib_s' (header: %s)",
				  c->name, c->line, c->header);
	return 0;
}

/* The current row's field of column `k`, "" for an absent optional column. */
static const char *field(const struct csv *c, enum csv_col k)
{
	return c->col[k] >= 0 ? c->fields[c->col[k]] : "";
}

static int field_error(const struct csv *c, enum csv_col k, const char *what)
{
	return errmsg_set(c->err, -EINVAL, "%s:%u: %s '%s': %s", c->name, c->line,
			  col_names[k], field(c, k), what);
}

/* A whole field that is a finite number; false otherwise. */
static bool parse_number(const char *text, double *out)
{
	char *end;

	if (!*text)
		return false;
	*out = strtod(text, &end);
	return *end == '\0' && isfinite(*out);
}

static int parse_op(const struct csv *c, struct perf_point *p)
{
	static const char *const ops[] = { "read", "write", "randread", "randwrite" };
	const char *text = field(c, COL_OP);

	for (unsigned i = 0; i < 4; i++) {
		if (!strcasecmp(text, ops[i])) {
			p->op = i % 2 ? IO_WRITE : IO_READ;
			p->random = i >= 2;
			return 0;
		}
	}
	return field_error(c, COL_OP, "expected read, write, randread or randwrite");
}

/* The optional random column: it may set random for read/write, not contradict randread. */
static int parse_random(const struct csv *c, struct perf_point *p)
{
	const char *text = field(c, COL_RANDOM);
	bool random;

	if (c->col[COL_RANDOM] < 0)
		return 0;
	if (!strcmp(text, "1") || !strcasecmp(text, "true"))
		random = true;
	else if (!strcmp(text, "0") || !strcasecmp(text, "false"))
		random = false;
	else
		return field_error(c, COL_RANDOM, "expected 0, 1, true or false");
	if (p->random && !random)
		return errmsg_set(c->err, -EINVAL, "%s:%u: random '%s' contradicts op '%s'",
				  c->name, c->line, text, field(c, COL_OP));
	p->random = random;
	return 0;
}

static int parse_size_qd(const struct csv *c, struct perf_point *p)
{
	uint64_t qd;
	int ret = parse_size(field(c, COL_SIZE), &p->size);

	if (ret == -ERANGE)
		return field_error(c, COL_SIZE, "too large");
	if (ret)
		return field_error(c, COL_SIZE, "not a size");
	if (p->size == 0 || p->size > POINT_SIZE_MAX)
		return field_error(c, COL_SIZE, "expected a positive size up to 8PiB");
	if (parse_count(field(c, COL_QD), 1, UINT_MAX, &qd))
		return field_error(c, COL_QD, "expected a positive integer");
	p->qd = (unsigned)qd;
	return 0;
}

/* iops, or mib_s converted to iops; then the optional lat_ms or lat_mean_us. */
static int parse_rate(const struct csv *c, struct perf_point *p)
{
	enum csv_col k = c->col[COL_IOPS] >= 0 ? COL_IOPS : COL_MIB_S;
	double v, lat = 0;

	if (!parse_number(field(c, k), &v) || v <= 0)
		return field_error(c, k, "expected a positive number");
	p->iops = k == COL_IOPS ? v : v * MIB / (double)p->size;
	if (!isfinite(p->iops))
		return field_error(c, k, "too large");
	k = *field(c, COL_LAT_MS) ? COL_LAT_MS : COL_LAT_US;
	if (*field(c, k) && (!parse_number(field(c, k), &lat) || lat < 0))
		return field_error(c, k, "expected a non-negative number");
	p->mean_lat_s = lat / (k == COL_LAT_MS ? 1e3 : 1e6);
	return 0;
}

static int parse_row(struct csv *c, char *line)
{
	struct perf_point p = { 0 };
	unsigned n = count_fields(line);
	int ret;

	if (n != c->nfields)
		return errmsg_set(c->err, -EINVAL, "%s:%u: %u field%s, expected %u", c->name,
				  c->line, n, n == 1 ? "" : "s", c->nfields);
	split(c, line);
	if ((ret = parse_op(c, &p)) || (ret = parse_random(c, &p)) ||
	    (ret = parse_size_qd(c, &p)) || (ret = parse_rate(c, &p)))
		return ret;
	return point_set_add(c->ps, &p);
}

/* Feed each line of `buf` (NUL-terminated, `len` bytes) to the header or row parser. */
static int parse_lines(struct csv *c, char *buf, size_t len)
{
	char *p = buf, *end = buf + len;
	int ret = 0;

	while (!ret && p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *line;

		if (nl)
			*nl = '\0';
		c->line++;
		line = trim(p);
		p = nl ? nl + 1 : end;
		if (!*line || *line == '#')
			continue;
		ret = c->header ? parse_row(c, line) : parse_header(c, line);
	}
	return ret;
}

int import_csv(struct point_set *ps, const char *name, const char *text, size_t len,
	       struct errmsg *err)
{
	struct csv c = { .ps = ps, .name = name, .err = err };
	char *buf = malloc(len + 1);
	int ret;

	if (!buf)
		return -ENOMEM;
	if (len)
		memcpy(buf, text, len);
	buf[len] = '\0';
	for (int k = 0; k < COL_COUNT; k++)
		c.col[k] = -1;
	ret = parse_lines(&c, buf, len);
	free(c.fields);
	free(c.header);
	free(buf);
	return ret;
}
