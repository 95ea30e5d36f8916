/*
 * model_text.c — the spec sheet: a drive's model in the seeds' form, with the
 * statistics they did not have (confidence intervals, the residual of every
 * size, the sizes where the first-order model fails).
 */
#include <errno.h>
#include <math.h>

#include "model_output.h"
#include "util/units.h"

static void ci(char *buf, size_t len, double lo, double hi, double scale)
{
	if (isfinite(hi))
		snprintf(buf, len, "[%.4g, %.4g]", lo * scale, hi * scale);
	else
		snprintf(buf, len, "[%.4g, unbounded]", lo * scale);
}

static void print_first_order(FILE *f, const struct drive_model *m)
{
	const struct op_model *r = &m->op[IO_READ], *w = &m->op[IO_WRITE];
	char a[96], b[48];

	fprintf(f, "%-32s %-28s %-28s\n", "", "read", "write");
	for (int row = 0; row < 2; row++) {
		const char *label = row ? "access penalty, ms (95% CI)" : "average STR, MiB/s (95% CI)";

		fprintf(f, "%-32s", label);
		for (int op = 0; op < 2; op++) {
			const struct op_model *om = op ? w : r;
			const struct first_order *fo = &om->fit;
			double v = row ? fo->penalty_s * 1e3 : fo->str_bps / MIB;

			if (!om->has_first_order) {
				fprintf(f, " %-28s", "-");
				continue;
			}
			if (row)
				ci(b, sizeof(b), fo->penalty_lo_s, fo->penalty_hi_s, 1e3);
			else
				ci(b, sizeof(b), fo->str_lo_bps, fo->str_hi_bps, 1.0 / MIB);
			snprintf(a, sizeof(a), "%.4g %s", v, b);
			fprintf(f, " %-28s", a);
		}
		fputc('\n', f);
	}
	for (int op = 0; op < 2; op++) {
		const struct op_model *om = op ? w : r;
		char s1[32], s2[32];

		if (!om->has_first_order)
			continue;
		format_size(s1, sizeof(s1), om->two_point_sizes[0]);
		format_size(s2, sizeof(s2), om->two_point_sizes[1]);
		fprintf(f, "two-point (%s and %s), %s: STR %.2f MiB/s (%.2f KiB/s), penalty %.4g ms\n",
			s1, s2, io_op_name(op), om->two_point.str_bps / MIB,
			om->two_point.str_bps / 1024, om->two_point.penalty_s * 1e3);
	}
}

static void print_erase_block(FILE *f, const struct op_model *w)
{
	const struct erase_block_model *e = &w->erase_block;

	if (!w->has_erase_block)
		return;
	if (!w->erase_block_method) {
		fprintf(f, "erase block: none shows in the writes (first-order fit rms %.1f %%)\n",
			e->first_order_rms * 100);
	} else if (e->detected) {
		fprintf(f, "erase block: %.3g MiB [%.3g, %.3g], fitted on the merge steps (writes "
			"pay %.4g ms per partly covered block, %s; fit rms %.1f %% against %.1f %% "
			"without it)\n", w->erase_block_bytes / MIB, e->unit_lo_bytes / MIB,
			e->unit_hi_bytes / MIB, e->merge_s * 1e3,
			e->whole_merge ? "which is read whole" : "whose untouched part is read",
			e->rms_rel_residual * 100, e->first_order_rms * 100);
	} else {
		fprintf(f, "erase block: %.3g MiB, from the write penalty P/(1/W + 1/R): small "
			"writes pay a read-modify-write; the size sweep shows no 0-1-2 merge steps "
			"to fit the unit on\n", w->erase_block_bytes / MIB);
	}
}

static void print_qd(FILE *f, const struct drive_model *m)
{
	for (int op = 0; op < 2; op++) {
		const struct op_model *om = &m->op[op];
		char size[32];

		if (!om->has_qd)
			continue;
		format_size(size, sizeof(size), om->qd_size);
		fprintf(f, "queue depth, %s %s: QD32/QD1 gain %.2fx (QD1 %.4g ms per IO, ", size,
			io_op_name(op), om->qd.gain32, om->qd.t1_s * 1e3);
		if (isfinite(om->qd.sat_iops))
			fprintf(f, "saturates at %.4g IOPS)\n", om->qd.sat_iops);
		else
			fprintf(f, "no saturation within the depths measured)\n");
	}
}

static void print_residuals(FILE *f, const struct op_model *om, const char *name)
{
	if (!om->has_first_order)
		return;
	fprintf(f, "\n%s, queue depth 1: measured vs first-order model (* = the model fails, "
		"|residual| > %.0f %%)\n", name, FIRST_ORDER_FAIL_THRESHOLD * 100);
	fprintf(f, "  %10s %12s %12s %10s\n", "size", "IOPS", "model IOPS", "residual");
	for (size_t i = 0; i < om->n_points; i++) {
		const struct fit_residual *r = &om->residuals[i];
		char size[32];

		format_size(size, sizeof(size), om->points[i].size);
		fprintf(f, "  %10s %12.4g %12.4g %9.1f%%%s\n", size, om->points[i].iops,
			1.0 / r->predicted_s, r->rel_residual * 100, r->fails ? " *" : "");
	}
	if (om->n_failing)
		fprintf(f, "  the first-order model fails at %zu of %zu sizes\n", om->n_failing,
			om->n_points);
}

int model_output_sheet(FILE *f, const char *source, const struct drive_model *m)
{
	fprintf(f, "spec sheet of %s\n\n", source);
	print_first_order(f, m);
	print_erase_block(f, &m->op[IO_WRITE]);
	print_qd(f, m);
	for (int op = 0; op < 2; op++)
		if (m->op[op].note[0])
			fprintf(f, "note: %s\n", m->op[op].note);
	print_residuals(f, &m->op[IO_READ], "read");
	print_residuals(f, &m->op[IO_WRITE], "write");
	return ferror(f) ? -EIO : 0;
}
