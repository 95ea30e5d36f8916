/* run_summary.c — the per-operation figures shared by every output format. */
#include "run_output.h"

#include "util/lat_keys.h"
#include "util/units.h"

static void summarize(struct op_summary *s, const char *name,
		      const struct op_result *op, uint64_t elapsed_ns)
{
	const struct histogram *h = &op->lat;

	s->op = name;
	s->ios = op->ios;
	s->bytes = op->bytes;
	s->seconds = (double)elapsed_ns / 1e9;
	s->iops = s->seconds > 0 ? (double)op->ios / s->seconds : 0;
	s->mib_s = s->seconds > 0 ? (double)op->bytes / MIB / s->seconds : 0;
	s->lat_us[0] = h->count ? (double)h->min / 1e3 : 0;
	s->lat_us[1] = hist_mean(h) / 1e3;
	for (int i = 0; i < LAT_PCTS; i++)
		s->lat_us[LAT_FIRST_PCT + i] = (double)hist_percentile(h, lat_pct_levels[i]) / 1e3;
	s->lat_us[LAT_KEYS - 1] = (double)h->max / 1e3;
}

unsigned run_summaries(const struct run_info *info, const struct run_result *r,
		       struct op_summary out[2], enum io_op op_index[2])
{
	unsigned n = 0;

	if (info->spec->read_pct > 0) {
		op_index[n] = IO_READ;
		summarize(&out[n++], "read", &r->op[IO_READ], r->elapsed_ns);
	}
	if (info->spec->read_pct < 100) {
		op_index[n] = IO_WRITE;
		summarize(&out[n++], "write", &r->op[IO_WRITE], r->elapsed_ns);
	}
	return n;
}

double sim_report_write_amplification(const struct sim_report *d)
{
	const struct sim_counters *c = &d->counters;

	return c->host_write_bytes ? (double)c->media_write_bytes / (double)c->host_write_bytes : 0;
}
