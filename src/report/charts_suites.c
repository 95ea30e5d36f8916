/*
 * charts_suites.c — the charts of the seeds' tools: the transfer rate
 * across the device (iomodel profile, HD Tune's graph), and the three
 * states of iomodel state as bars with, beside them, every round's rate and
 * the steady-state window of each state marked.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "report/charts.h"

static const char *const state_names[STATE_KINDS] = { "fresh", "used", "trimmed" };

bool profile_chart_wants(const struct report_drive *d, enum io_op op)
{
	(void)op;
	return d->profile.n > 0;
}

bool state_chart_wants(const struct report_drive *d, enum io_op op)
{
	(void)op;
	return d->state.set;
}

int profile_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			struct plot_chart *c)
{
	int ret = 0;

	(void)op;
	snprintf(c->title, sizeof(c->title), "Transfer rate across the device");
	plot_axis_set(&c->x, PLOT_LINEAR, "position (% of the capacity, from the start)");
	plot_axis_set(&c->y, PLOT_LINEAR, "sequential transfer rate (MiB/s)");
	c->x.fixed = true;
	c->x.lo = 0;
	c->x.hi = 100;
	c->y.fixed = true;
	c->y.lo = 0;
	c->y.hi = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < drives[i].profile.n; j++)
			c->y.hi = fmax(c->y.hi, 1.1 * drives[i].profile.mib_s[j]);
	for (size_t i = 0; i < n && !ret; i++) {
		const struct profile_record *p = &drives[i].profile;
		struct plot_series *s;
		char label[192], key[192];

		if (!p->n)
			continue;
		snprintf(label, sizeof(label), "%s (%s)", drives[i].label,
			 p->write ? "writes" : "reads");
		s = plot_chart_add(c, label, (unsigned)i, (unsigned)i,
				   p->n <= 30 ? PLOT_LINE_MARKS : PLOT_LINE);
		for (size_t j = 0; s && j < p->n && !ret; j++)
			ret = plot_series_push(s, p->position_pct[j], p->mib_s[j]);
		ret = s ? ret : -ENOMEM;
		/* a second legend line, in the drive's colour, with no points */
		snprintf(key, sizeof(key), "access %.3g ms, burst %.3g MiB/s", p->access_ms,
			 p->burst_mib_s);
		if (!ret)
			ret = chart_key(c, key, (unsigned)i, (unsigned)i, PLOT_DOTTED);
	}
	return ret;
}

int state_bars_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			   struct plot_chart *c)
{
	double width = 0.8 / (double)(n ? n : 1);
	int ret = 0;

	(void)op;
	snprintf(c->title, sizeof(c->title), "Random writes: fresh (1), used (2), after TRIM (3)");
	plot_axis_set(&c->x, PLOT_LINEAR, "state: 1 fresh, 2 used, 3 trimmed");
	plot_axis_set(&c->y, PLOT_LINEAR, "random write rate (MiB/s)");
	c->x.fixed = c->y.fixed = true;
	c->x.lo = 0.5;
	c->x.hi = 3.5;
	c->y.lo = c->y.hi = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < STATE_KINDS; k++)
			c->y.hi = fmax(c->y.hi, 1.15 * drives[i].state.mib_s[k]);
	for (size_t i = 0, shown = 0; i < n && !ret; i++) {
		const struct state_record *sr = &drives[i].state;
		struct plot_series *s;
		char label[192];

		if (!sr->set)
			continue;
		snprintf(label, sizeof(label), "%s: %.3g / %.3g / %.3g MiB/s", drives[i].label,
			 sr->mib_s[0], sr->mib_s[1], sr->mib_s[2]);
		s = plot_chart_add(c, label, (unsigned)i, (unsigned)i, PLOT_BARS);
		if (!s)
			return -ENOMEM;
		s->bar_width = width * 0.9;
		for (size_t k = 0; k < STATE_KINDS && !ret; k++)
			ret = plot_series_push(s, (double)k + 1 - 0.4 + width * ((double)shown + 0.5),
					       sr->mib_s[k]);
		shown++;
	}
	return ret;
}

int state_rounds_chart_build(const struct report_drive *drives, size_t n, enum io_op op,
			     struct plot_chart *c)
{
	int ret = 0;

	(void)op;
	snprintf(c->title, sizeof(c->title), "Every round, fresh then used then trimmed");
	plot_axis_set(&c->x, PLOT_LINEAR, "round (the states one after the other)");
	plot_axis_set(&c->y, PLOT_LINEAR, "random write rate of the round (MiB/s)");
	for (size_t i = 0; i < n && !ret; i++) {
		const struct state_record *sr = &drives[i].state;
		size_t first = 0;

		if (!sr->set)
			continue;
		for (size_t k = 0; k < STATE_KINDS && !ret; k++) {
			struct plot_series *s;
			char label[192], mark[64];

			snprintf(label, sizeof(label), "%s: %s", drives[i].label, state_names[k]);
			s = plot_chart_add(c, label, (unsigned)i, (unsigned)k, PLOT_LINE_MARKS);
			for (size_t j = 0; s && j < sr->n_rounds[k] && !ret; j++)
				ret = plot_series_push(s, (double)(first + j + 1), sr->round_mib_s[k][j]);
			ret = s ? ret : -ENOMEM;
			if (sr->steady_round[k] >= 5) {
				snprintf(mark, sizeof(mark), "%s window", state_names[k]);
				plot_chart_mark(c, (double)(first + sr->steady_round[k] - 4), mark,
						(unsigned)i);
			}
			first += sr->n_rounds[k];
		}
	}
	return ret;
}
