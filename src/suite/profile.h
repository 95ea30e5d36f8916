/*
 * profile.h — the transfer rate across a device, as HD Tune draws it: where
 * each point of a profile reads (evenly spaced from the start of the device,
 * the outer edge of a hard disk, to its end), and the verdict on the curve:
 *   falling  zoned recording, whose rate is linear in the radius and so,
 *            against the share of the data, falls slowly at first and faster
 *            towards the inner edge (outer/inner >= 1.15, trend downwards);
 *   rising   the mirror image (inner/outer >= 1.15, trend upwards): a device
 *            that numbers its blocks from the inner edge, or a file or volume
 *            whose end is cached or laid out on a faster device;
 *   uneven   no such trend, but the points spread by 30 % of the mean or more
 *            (dips: remapped or shingled regions, throttling, a shared device);
 *   flat     none of these (an SSD, or anything without zones).
 * The shapes exclude each other; the first that applies, in this order, wins.
 * Pure functions; no IO.
 */
#ifndef IOMODEL_PROFILE_H
#define IOMODEL_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where point `i` of `n` starts and how long its region is, in a device of `size` bytes. */
void profile_point_region(uint64_t size, uint64_t bs, unsigned n, unsigned i,
			  uint64_t *offset, uint64_t *length);

enum profile_shape { PROFILE_FLAT, PROFILE_FALLING, PROFILE_RISING, PROFILE_UNEVEN };

/* "flat", "falling", "rising" or "uneven". */
const char *profile_shape_name(enum profile_shape shape);

struct profile_verdict {
	double min, max, mean;		/* of the points' rates */
	double outer, inner;		/* mean rate of the first and last 10 % of points */
	double outer_inner_ratio;
	double mid_excess;		/* rate at the middle over the straight line between
					   the ends, as a fraction of that line (> 0: concave) */
	double spread;			/* (max - min) / mean */
	enum profile_shape shape;
};

/* Judge the rates of `n` points in order (n >= 2); rates in any one unit. */
void profile_judge(const double *rate, size_t n, struct profile_verdict *v);

#endif
