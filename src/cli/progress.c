/* progress.c — the terminal progress bar of progress.h. */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"

#define BAR 24

void progress_init(struct progress *p, size_t total)
{
	memset(p, 0, sizeof(*p));
	p->on = isatty(STDERR_FILENO);
	p->total = total;
	p->start_ns = monotonic_ns();
}

void progress_format_eta(char *buf, size_t len, double s)
{
	long secs = (long)(s + 0.5);

	if (s < 0)
		snprintf(buf, len, "--");
	else if (secs < 60)
		snprintf(buf, len, "%lds", secs);
	else
		snprintf(buf, len, "%ldm%02lds", secs / 60, secs % 60);
}

void progress_update(struct progress *p, size_t done, const char *what)
{
	char bar[BAR + 1], eta[32], line[200];
	double elapsed = (double)(monotonic_ns() - p->start_ns) / 1e9;
	size_t fill = p->total ? done * BAR / p->total : BAR;

	if (!p->on)
		return;
	memset(bar, '#', fill);
	memset(bar + fill, '.', BAR - fill);
	bar[BAR] = '\0';
	progress_format_eta(eta, sizeof(eta),
			    done ? elapsed / (double)done * (double)(p->total - done) : -1);
	snprintf(line, sizeof(line), "[%s] %zu/%zu  %s  ETA %s", bar, done, p->total, what, eta);
	progress_show(p, line);
}

void progress_show(struct progress *p, const char *line)
{
	size_t len = strlen(line);

	if (!p->on)
		return;
	fprintf(stderr, "\r%s%*s", line, p->width > len ? (int)(p->width - len) : 0, "");
	p->width = len;
	fflush(stderr);
}

void progress_end(struct progress *p)
{
	if (!p->on || !p->width)
		return;
	fprintf(stderr, "\r%*s\r", (int)p->width, "");
	fflush(stderr);
	p->width = 0;
}
