/*
 * progress.h — a one-line progress bar with an ETA on stderr, drawn only when
 * stderr is a terminal (silent when piped or redirected), for the commands
 * that measure many points.
 */
#ifndef IOMODEL_PROGRESS_H
#define IOMODEL_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct progress {
	bool on;
	size_t total;
	uint64_t start_ns;
	size_t width;		/* of the last line drawn, to clear it */
};

void progress_init(struct progress *p, size_t total);
/* `done` points finished of `total`, now measuring `what`. */
void progress_update(struct progress *p, size_t done, const char *what);
/* Clear the line. */
void progress_end(struct progress *p);

/* Draw `line` in place of the last one (when on). */
void progress_show(struct progress *p, const char *line);
/* "7s", "2m05s", or "--" for a negative time. */
void progress_format_eta(char *buf, size_t len, double seconds);

#endif
