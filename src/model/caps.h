/*
 * caps.h — throughput limits on top of the first-order model. Cloud volumes
 * and some controllers serve at most so many IOPS and so many MB/s whatever
 * the drive behind them could do, so a size sweep comes out slower than
 * penalty + size/STR at both ends: small IOs hit the IOPS cap, large ones
 * the MB/s cap. With q IOs outstanding, the time per IO per slot is then
 *
 *     t(s) = max(penalty + s / STR,  q / IOPS_cap,  q s / BW_cap)
 *
 * i.e. throughput = min(affine, IOPS cap, MB/s cap). The caps are the
 * aggregate limits of the volume (IO/s, bytes/s), the same at every depth.
 *
 * caps_fit() fits this to one depth's size sweep (sorted by size): every
 * split of the sweep into a leading run of sizes at the IOPS cap, a middle
 * on the straight line and a trailing run at the MB/s cap is solved in
 * closed form or by GSL's weighted least squares (first_order_wls) on
 * relative error, and the split with the smallest relative error whose caps
 * really bind where they were assigned is kept. A cap is reported only when
 * at least CAPS_MIN_POINTS sizes sit on it, the line keeps two sizes, the
 * penalty stays >= 0, and the capped model explains the sweep at least
 * twice as well (rms) as the straight line alone.
 */
#ifndef IOMODEL_CAPS_H
#define IOMODEL_CAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/first_order.h"
#include "model/points.h"

#define CAPS_MIN_POINTS 2

struct io_caps {
	double iops;		/* aggregate IO/s limit; INFINITY when none shows */
	double bps;		/* aggregate bytes/s limit; INFINITY when none shows */
};

/* No caps: both INFINITY. */
void caps_none(struct io_caps *c);
bool caps_any(const struct io_caps *c);

/* Seconds per IO per slot at depth `qd` with the line `m` and the caps `c`. */
double caps_seconds(const struct first_order *m, const struct io_caps *c, unsigned qd,
		    uint64_t size);

/*
 * Fit the capped model to `n` points of one op and depth, sorted by size,
 * whose straight-line fit has relative rms `line_rms`. On success (return
 * true) the points on the line are pts[*first .. *first + *count) (the
 * caller fits them with first_order_fit() for the intervals), `caps` holds
 * the limits. false when no split qualifies (see above); nothing is changed
 * then.
 */
bool caps_fit(const struct perf_point *pts, size_t n, double line_rms, size_t *first,
	      size_t *count, struct io_caps *caps);

#endif
