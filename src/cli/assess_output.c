/* assess_output.c — the table and the JSON of `iomodel assess` (assess_output.h). */
#include "cli/assess_output.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "io/json_text.h"
#include "io/run_output.h"
#include "util/errmsg.h"

/* The figures, in the order WinSAT prints them, with its names. */
struct figure {
	const char *name;	/* WinSAT's */
	const char *key;	/* ours, in JSON */
	const char *unit;
	size_t offset;		/* in struct assess_figures */
};

#define FIGURE(name, key, unit, field) { name, key, unit, offsetof(struct assess_figures, field) }

static const struct figure figures[] = {
	FIGURE("Disk  Sequential 64.0 Read", "seq_read_mb_s", "MB/s", seq_read_mb_s),
	FIGURE("Disk  Random 16.0 Read", "random_read_mb_s", "MB/s", random_read_mb_s),
	FIGURE("Disk  Sequential 64.0 Write", "seq_write_mb_s", "MB/s", seq_write_mb_s),
	FIGURE("Average Read Time with Sequential Writes", "read_ms_with_seq_writes", "ms",
	       read_ms_seq_writes),
	FIGURE("Latency: 95th Percentile", "latency_p95_ms", "ms", latency_p95_ms),
	FIGURE("Latency: Maximum", "latency_max_ms", "ms", latency_max_ms),
	FIGURE("Average Read Time with Random Writes", "read_ms_with_random_writes", "ms",
	       read_ms_random_writes),
	/* not WinSAT's: the reader alone, to compare the two above with */
	FIGURE("(iomodel) Average Read Time, no writes", "random_read_ms", "ms", random_read_ms),
};

#define N_FIGURES (sizeof(figures) / sizeof(figures[0]))
#define NAME_WIDTH 41
#define COLUMN_MIN 10
#define COLUMN_MAX 32

static double figure_value(const struct assess_figures *f, size_t i)
{
	return *(const double *)((const char *)f + figures[i].offset);
}

static const char *const roles[2] = { "reader", "writer" };

json_t *assess_phase_json(enum assess_phase p, const struct job_spec *specs,
			  const struct run_result *r, unsigned n)
{
	json_t *jobs = json_array(), *phase;

	for (unsigned i = 0; jobs && i < n; i++) {
		enum io_op op = specs[i].read_pct ? IO_READ : IO_WRITE;
		const struct histogram *h = &r[i].op[op].lat;

		if (json_array_append_new(jobs, json_pack(
			"{s:s,s:s,s:b,s:I,s:I,s:I,s:f,s:f,s:f,s:f,s:f}",
			"role", n > 1 ? roles[i] : "alone", "op", io_op_name(op),
			"random", specs[i].random, "bs", (json_int_t)specs[i].bs,
			"qd", (json_int_t)specs[i].qd, "ios", (json_int_t)r[i].op[op].ios,
			"seconds", (double)r[i].elapsed_ns / 1e9, "mb_s", assess_mb_s(&r[i], op),
			"mean_ms", h->count ? hist_mean(h) / 1e6 : 0.0,
			"p95_ms", (double)hist_percentile(h, 95) / 1e6,
			"max_ms", h->count ? (double)h->max / 1e6 : 0.0))) {
			json_decref(jobs);
			return NULL;
		}
	}
	phase = json_pack("{s:s,s:o}", "phase", assess_phase_name(p), "jobs", jobs);
	return phase;
}

static json_t *target_json(const struct assess_target *t)
{
	json_t *o = json_pack("{s:o,s:s,s:I,s:f,s:I,s:I,s:I,s:f,s:f}", "target",
			      json_text(t->m.t.path), "kind", measure_kind_name(t->m.t.kind),
			      "size_bytes", (json_int_t)t->m.t.size,
			      "time_per_phase_s", (double)t->plan.runtime_ns / 1e9,
			      "writer_qd", (json_int_t)t->plan.writer_qd,
			      "phases_done", (json_int_t)t->a.phases_done,
			      "mixed_reads", (json_int_t)t->a.f.mixed_reads,
			      "writer_mb_s_with_reads_seq", t->a.f.writer_mb_s[0],
			      "writer_mb_s_with_reads_random", t->a.f.writer_mb_s[1]);
	bool failed = !o;

	for (size_t i = 0; !failed && i < N_FIGURES; i++)
		failed = json_object_set_new(o, figures[i].key, json_real(figure_value(&t->a.f, i)));
	if (!failed)
		failed = json_object_set(o, "phases", t->phases ? t->phases : json_null());
	if (failed) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int print_json(FILE *f, const struct assess_target *t, unsigned n)
{
	json_t *targets = json_array(), *doc;

	for (unsigned i = 0; targets && i < n; i++)
		if (json_array_append_new(targets, target_json(&t[i]))) {
			json_decref(targets);
			targets = NULL;
		}
	if (!targets)
		return -ENOMEM;
	doc = json_pack("{s:s,s:s,s:s,s:{s:I,s:I,s:I,s:o}}", "schema", "iomodel.assess/1",
			"iomodel_version", IOMODEL_VERSION, "command", "assess", "assess",
			"seq_bs", (json_int_t)ASSESS_SEQ_BS, "random_bs", (json_int_t)ASSESS_RANDOM_BS,
			"qd", (json_int_t)ASSESS_QD,
			"targets", targets);
	return doc ? json_dump_document(f, doc) : -ENOMEM;
}

/* Each target's column header: its name, or "[i]" (explained below) when too long. */
static void column_header(char *buf, size_t len, const struct assess_target *t, unsigned i,
			  bool *footnote)
{
	char path[1024];

	errmsg_escape(path, sizeof(path), t->m.t.path);
	if (strlen(path) <= COLUMN_MAX) {
		snprintf(buf, len, "%.*s", COLUMN_MAX, path);	/* the bound: for gcc -O1's check */
		return;
	}
	snprintf(buf, len, "[%u]", i + 1);
	*footnote = true;
}

static int print_table(FILE *f, const struct assess_target *t, unsigned n)
{
	char head[ASSESS_MAX_TARGETS][COLUMN_MAX + 1], path[1024];
	int width[ASSESS_MAX_TARGETS];
	bool footnote = false;

	fprintf(f, "disk assessment as WinSAT's (MB/s: 10^6 bytes per second)\n");
	fprintf(f, "%-*s %-4s", NAME_WIDTH, "", "");
	for (unsigned i = 0; i < n; i++) {
		column_header(head[i], sizeof(head[i]), &t[i], i, &footnote);
		width[i] = (int)strlen(head[i]) < COLUMN_MIN ? COLUMN_MIN : (int)strlen(head[i]);
		fprintf(f, "  %*s", width[i], head[i]);
	}
	fputc('\n', f);
	for (size_t k = 0; k < N_FIGURES; k++) {
		fprintf(f, "%-*s %-4s", NAME_WIDTH, figures[k].name, figures[k].unit);
		for (unsigned i = 0; i < n; i++) {
			if (t[i].a.phases_done < ASSESS_PHASES && figure_value(&t[i].a.f, k) == 0)
				fprintf(f, "  %*s", width[i], "-");
			else
				fprintf(f, "  %*.*f", width[i], figures[k].unit[0] == 'm' ? 3 : 2,
					figure_value(&t[i].a.f, k));
		}
		fputc('\n', f);
	}
	fprintf(f, "%-*s %-4s", NAME_WIDTH, "(iomodel) Time per phase", "s");
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "  %*.3g", width[i], (double)t[i].plan.runtime_ns / 1e9);
	fputc('\n', f);
	for (unsigned i = 0; footnote && i < n; i++) {
		if (head[i][0] != '[')
			continue;
		errmsg_escape(path, sizeof(path), t[i].m.t.path);
		fprintf(f, "[%u] %s\n", i + 1, path);
	}
	return 0;
}

int assess_print(FILE *f, const struct assess_target *t, unsigned n, bool json)
{
	int ret = json ? print_json(f, t, n) : print_table(f, t, n);

	if (!ret && (fflush(f) || ferror(f)))
		ret = -EIO;
	return ret;
}
