/* live_status.c — the once-a-second status line of live_status.h. */
#include "live_status.h"

#include <stdio.h>
#include <string.h>

#include "util/clock.h"
#include "util/units.h"

void live_status_start(struct live_status *s, struct progress *bar, const char *prefix,
		       bool virtual_clock, uint64_t expected_ns)
{
	memset(s, 0, sizeof(*s));
	if (!bar) {
		progress_init(&s->own, 1);
		bar = &s->own;
	}
	s->line = bar;
	s->virtual_clock = virtual_clock;
	s->expected_ns = virtual_clock ? 0 : expected_ns;
	snprintf(s->prefix, sizeof(s->prefix), "%s", prefix ? prefix : "");
	s->start_ns = s->last_ns = monotonic_ns();
}

static void format_rates(char *buf, size_t len, const struct live_status *s,
			 const struct jobs_status *st, double interval_s)
{
	uint64_t ios = st->ios - s->last_ios;
	double mean_us = ios ? (double)(st->lat_sum_ns - s->last_lat_sum) / (double)ios / 1e3 : 0;

	if (s->virtual_clock)
		snprintf(buf, len, "%llu IOs  mean %.1f us (simulated)",
			 (unsigned long long)st->ios, mean_us);
	else
		snprintf(buf, len, "%.0f IOPS  %.1f MiB/s  mean %.1f us",
			 (double)ios / interval_s,
			 (double)(st->bytes - s->last_bytes) / MIB / interval_s, mean_us);
}

void live_status_tick(void *ctx, const struct jobs_status *st)
{
	struct live_status *s = ctx;
	uint64_t now = monotonic_ns();
	double elapsed = (double)(now - s->start_ns) / 1e9, eta = -1;
	char rates[96], eta_text[32], line[400];

	if (!s->line->on || now - s->last_ns < NSEC_PER_SEC)
		return;
	format_rates(rates, sizeof(rates), s, st, (double)(now - s->last_ns) / 1e9);
	/* whichever bound comes first: the time, or the IOs/bytes at the rate so far */
	if (st->done_fraction > 0)
		eta = elapsed / st->done_fraction * (1 - st->done_fraction);
	if (s->expected_ns && (eta < 0 || (double)s->expected_ns / 1e9 - elapsed < eta))
		eta = (double)s->expected_ns / 1e9 - elapsed;
	if (eta < 0 && (st->done_fraction > 0 || s->expected_ns))
		eta = 0;
	progress_format_eta(eta_text, sizeof(eta_text), eta);
	snprintf(line, sizeof(line), "%s%s%s  %u/%u jobs  %.0fs elapsed  ETA %s", s->prefix,
		 s->prefix[0] ? "  " : "", rates, st->running, st->jobs, elapsed, eta_text);
	progress_show(s->line, line);
	s->last_ns = now;
	s->last_ios = st->ios;
	s->last_bytes = st->bytes;
	s->last_lat_sum = st->lat_sum_ns;
}

void live_status_end(struct live_status *s)
{
	if (s->line == &s->own)
		progress_end(&s->own);
}
