/*
 * steady.h — the SNIA Solid State Storage PTS steady-state rule, for any
 * tracked value (IOPS of a round, say) measured round after round.
 *
 * Over a measurement window of the last `window` rounds (5 in the PTS):
 *  - range:  max − min of the values ≤ `max_range` × their mean (0.20), and
 *  - slope:  the least-squares line through them changes by at most
 *            `max_excursion` × the mean across the window, that is
 *            |slope| × (window − 1) ≤ 0.10 × mean;
 * both at once. A run gives up after `max_rounds` rounds (25) and then says
 * that steady state was not reached: nothing is extrapolated.
 * Pure functions; no IO.
 */
#ifndef IOMODEL_STEADY_H
#define IOMODEL_STEADY_H

#include <stdbool.h>
#include <stddef.h>

struct steady_rule {
	unsigned window;	/* rounds in the measurement window (5) */
	unsigned max_rounds;	/* give up after this many rounds (25) */
	double max_range;	/* (max − min) / mean allowed (0.20) */
	double max_excursion;	/* |slope| × (window − 1) / mean allowed (0.10) */
};

/* The PTS rule: window 5, 25 rounds, 20 % range, 10 % excursion. */
void steady_rule_snia(struct steady_rule *rule);

struct steady_eval {
	bool reached;		/* both criteria hold over the window ending at `round` */
	size_t round;		/* 1-based index of the window's last round (0: none) */
	double mean;		/* of the window */
	double range_frac;	/* (max − min) / mean */
	double excursion_frac;	/* |slope| × (window − 1) / mean */
};

/*
 * Judge the window that ends with the last of `n` values (`y[0]` is round
 * 1). With fewer than `window` values, or a window whose mean is not
 * positive, nothing is reached; `out` still describes what was seen.
 */
void steady_state_check(const struct steady_rule *rule, const double *y, size_t n,
			struct steady_eval *out);

#endif
