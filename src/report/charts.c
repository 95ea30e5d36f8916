/*
 * charts.c — the table of chart kinds (charts.h) and what their builders
 * share: which points are a drive's size sweep (at depth 1, or at the depth
 * of its size model), the size range of a chart,
 * legend-only entries.
 */
#include <errno.h>
#include <math.h>

#include "report/charts.h"

const struct chart_kind chart_kinds[] = {
	{ "throughput-read", IO_READ,
	  "Random reads at queue depth 1 (or the depth of the drive's size sweep, named in the "
	  "legend): measured throughput, the first-order model "
	  "(access penalty + size/STR) and its asymptote, the average STR.",
	  size_chart_wants, throughput_chart_build },
	{ "throughput-write", IO_WRITE,
	  "Random writes at queue depth 1 (or the depth of the drive's size sweep): measured "
	  "throughput, the first-order model "
	  "and the STR asymptote.",
	  size_chart_wants, throughput_chart_build },
	{ "access-read", IO_READ,
	  "The access tax of reads: time per IO against request size. Small requests pay "
	  "the access penalty, large ones size/STR; the model is their sum.",
	  size_chart_wants, access_chart_build },
	{ "access-write", IO_WRITE,
	  "The access tax of writes, with the erase-block merge steps where the model found "
	  "them and the erase block it reports.",
	  size_chart_wants, access_chart_build },
	{ "merges-write", IO_WRITE,
	  "Random writes above the erase-block model's penalty + size/STR, on a linear scale: "
	  "the read-modify-write merges of the partly written erase blocks at each end, one "
	  "while a write fits inside a block, up to two once it spans one, whole blocks "
	  "merging nothing more.",
	  merges_chart_wants, merges_chart_build },
	{ "qd-iops-read", IO_READ,
	  "Read IOPS against IOs outstanding: measured, and the queue-depth model "
	  "(Little's law with a saturation level).",
	  qd_chart_wants, qd_iops_chart_build },
	{ "qd-iops-write", IO_WRITE,
	  "Write IOPS against IOs outstanding: measured, and the queue-depth model.",
	  qd_chart_wants, qd_iops_chart_build },
	{ "qd-latency-read", IO_READ,
	  "Mean read latency against IOs outstanding (measured; model: q / IOPS(q)).",
	  qd_chart_wants, qd_latency_chart_build },
	{ "qd-latency-write", IO_WRITE,
	  "Mean write latency against IOs outstanding (measured; model: q / IOPS(q)).",
	  qd_chart_wants, qd_latency_chart_build },
	{ "qd-p99-read", IO_READ,
	  "99th percentile read latency against IOs outstanding (measured); the dashed line "
	  "is the queue-depth model's mean response time q / IOPS(q), for scale: the model "
	  "has no tail of its own.",
	  qd_p99_chart_wants, qd_p99_chart_build },
	{ "qd-p99-write", IO_WRITE,
	  "99th percentile write latency against IOs outstanding (measured; dashed: the "
	  "model's mean response time).",
	  qd_p99_chart_wants, qd_p99_chart_build },
	{ "profile", IO_READ,
	  "Sequential transfer rate at evenly spaced positions from the start of the "
	  "device (an HDD's outer edge) to its end; the legend gives the random access "
	  "time and the burst rate (a small region read again and again).",
	  profile_chart_wants, profile_chart_build },
	{ "state", IO_WRITE,
	  "Random writes in three states: fresh (the span discarded), used (filled, then "
	  "overwritten with data deleted without TRIM) and after TRIM; each the mean of "
	  "its last five rounds.",
	  state_chart_wants, state_bars_chart_build },
	{ "state-rounds", IO_WRITE,
	  "The rate of every round of each state, and where the SNIA PTS steady-state "
	  "window (5 rounds: range within 20 %, excursion within 10 % of the mean) began.",
	  state_chart_wants, state_rounds_chart_build },
	{ "assess-rates", IO_READ,
	  "WinSAT's disk assessment (iomodel assess): sequential 64 KiB reads, random 16 KiB "
	  "reads and sequential 64 KiB writes, each at queue depth 1, in MB/s of 10^6 bytes.",
	  assess_chart_wants, assess_rates_chart_build },
	{ "assess-times", IO_READ,
	  "Mean time of random 16 KiB reads (queue depth 1) alone, beside sequential 64 KiB "
	  "writes and beside random 16 KiB writes; the 95th percentile and the maximum of "
	  "those read times under writes.",
	  assess_chart_wants, assess_times_chart_build },
	{ "latency-cdf", IO_READ,
	  "Latency distribution of each run, and of each fio json+ point: the share of "
	  "IOs that completed within a given time, from the run's latency histogram "
	  "(error at most 0.39 %) or fio's histogram bins (within 1.6 %); clat is fio's "
	  "completion latency, lat its total latency (submission included).",
	  cdf_chart_wants, cdf_chart_build },
	{ "timeline-iops", IO_READ,
	  "IOPS in each second of each run.",
	  timeline_chart_wants, timeline_iops_chart_build },
	{ "timeline-latency", IO_READ,
	  "The highest latency in each second of each run.",
	  timeline_chart_wants, timeline_latency_chart_build },
};

const size_t n_chart_kinds = sizeof(chart_kinds) / sizeof(chart_kinds[0]);

unsigned chart_sweep_qd(const struct report_drive *d, enum io_op op)
{
	const struct op_model *om = &d->model.op[op];

	return d->has_model && om->has_first_order ? om->fit_qd : 1;
}

bool chart_is_sweep_point(const struct report_drive *d, const struct perf_point *p,
			  enum io_op op, bool random)
{
	return p->op == op && p->qd == chart_sweep_qd(d, op) && p->random == random &&
	       p->iops > 0 && p->size;
}

bool chart_sweep_random(const struct report_drive *d, enum io_op op)
{
	for (size_t i = 0; i < d->points.len; i++)
		if (chart_is_sweep_point(d, &d->points.points[i], op, true))
			return true;
	return false;
}

bool chart_size_range(const struct report_drive *drives, size_t n, enum io_op op,
		      double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	for (size_t i = 0; i < n; i++) {
		bool random = chart_sweep_random(&drives[i], op);

		for (size_t j = 0; j < drives[i].points.len; j++) {
			const struct perf_point *p = &drives[i].points.points[j];

			if (!chart_is_sweep_point(&drives[i], p, op, random))
				continue;
			*lo = fmin(*lo, (double)p->size);
			*hi = fmax(*hi, (double)p->size);
		}
	}
	return *hi > 0;
}

int chart_key(struct plot_chart *c, const char *label, unsigned color, unsigned marker,
	      enum plot_style style)
{
	return plot_chart_add(c, label, color, marker, style) ? 0 : -ENOMEM;
}
