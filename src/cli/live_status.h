/*
 * live_status.h — the one status line a measuring command shows on a
 * terminal while its jobs run: IOPS, MiB/s and mean latency over the last
 * second, jobs running, elapsed time and ETA, redrawn once a second. Silent
 * when stderr is not a terminal; cleared before results are printed. A sweep
 * puts its own progress ("[###...] 3/10 randread 4 KiB QD1") in front.
 *
 * On a simulated drive the jobs run on a virtual clock, so rates per wall
 * second mean nothing: the line shows the IOs done and their mean latency
 * (virtual, hence true) instead of IOPS and MiB/s.
 */
#ifndef IOMODEL_LIVE_STATUS_H
#define IOMODEL_LIVE_STATUS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/progress.h"
#include "suite/jobs.h"

struct live_status {
	struct progress *line;		/* where to draw (the sweep's bar, or our own) */
	struct progress own;
	bool virtual_clock;
	uint64_t expected_ns;		/* wall time the run should take, 0: unknown */
	char prefix[160];
	uint64_t start_ns, last_ns;
	uint64_t last_ios, last_bytes, last_lat_sum;
};

/*
 * Start the line for a run expected to take `expected_ns` of wall time (0 when
 * only IO or byte bounds, or a virtual clock, decide). `bar`: draw on a
 * sweep's progress line (keeping its "what" in `prefix`), or NULL for a line
 * of our own.
 */
void live_status_start(struct live_status *s, struct progress *bar, const char *prefix,
		       bool virtual_clock, uint64_t expected_ns);
/* The jobs_options tick: redraws at most once a second. `ctx` is the live_status. */
void live_status_tick(void *ctx, const struct jobs_status *st);
/* Clear the line (our own) before anything else is printed. */
void live_status_end(struct live_status *s);

#endif
