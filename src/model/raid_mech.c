/*
 * raid_mech.c — the head mechanics of a hard-disk member that the array
 * planner needs beyond the member's own figures (raid.h, struct raid_mech):
 * the mean seek, the mean seek of the nearer of two mirrored heads (and of
 * the nearest of up to RAID_MECH_HEADS), and the expected slowest of k
 * member IOs that run in parallel.
 *
 * Positions are drawn over the stroke with a density that falls linearly
 * from the outer edge to the inner one (inner/outer = the ratio of the zone
 * rates: uniform over the capacity, more bytes per outer track), on a grid
 * of MECH_CELLS cells; a distance of 0 cells counts as a third of a cell.
 */
#include "raid.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/bug.h"

#define MECH_CELLS 48			/* positions over the stroke */
#define MECH_ITERATIONS 200		/* power iterations of the two-head chain */
#define MECH_TIME_STEPS 4000		/* time grid of the slowest-of-k integral */

struct mech_grid {
	double w[MECH_CELLS];			/* density of a position, sums to 1 */
	double seek[MECH_CELLS];		/* seek seconds over a distance of i cells */
};

static void grid_init(struct mech_grid *g, double inner_outer,
		      double (*seek_s)(const void *ctx, double x), const void *ctx)
{
	double k = inner_outer > 0 && inner_outer <= 1 ? inner_outer : 1, sum = 0;

	for (int i = 0; i < MECH_CELLS; i++) {
		g->w[i] = 1 - (i + 0.5) / MECH_CELLS * (1 - k);
		sum += g->w[i];
		g->seek[i] = seek_s(ctx, i ? (double)i / MECH_CELLS : 1.0 / (3 * MECH_CELLS));
	}
	for (int i = 0; i < MECH_CELLS; i++)
		g->w[i] /= sum;
}

/* E[seek] between two independent positions. */
static double mean_seek(const struct mech_grid *g)
{
	double m = 0;

	for (int i = 0; i < MECH_CELLS; i++)
		for (int j = 0; j < MECH_CELLS; j++)
			m += g->w[i] * g->w[j] * g->seek[abs(i - j)];
	return m;
}

/*
 * E[seek of the nearer head] for reads spread over two mirrors, each read
 * going to the mirror whose head is nearer, that head then staying where
 * it read: the stationary distribution of the heads' pair of positions
 * (a Markov chain on MECH_CELLS² states, solved by power iteration from
 * two independent heads), and the nearer head's seek from it.
 */
static int nearer_seek(const struct mech_grid *g, double *out)
{
	size_t n = MECH_CELLS;
	double *p = malloc(2 * n * n * sizeof(*p)), *q, s = 0;

	if (!p)
		return -ENOMEM;
	q = p + n * n;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			p[i * n + j] = g->w[i] * g->w[j];
	for (int it = 0; it < MECH_ITERATIONS; it++) {
		double *t;

		memset(q, 0, n * n * sizeof(*q));
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				for (size_t y = 0; y < n; y++) {
					int di = abs((int)y - (int)i), dj = abs((int)y - (int)j);

					q[di <= dj ? y * n + j : i * n + y] += p[i * n + j] * g->w[y];
				}
		t = p;
		p = q;
		q = t;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			for (size_t y = 0; y < n; y++) {
				int di = abs((int)y - (int)i), dj = abs((int)y - (int)j);

				s += p[i * n + j] * g->w[y] * g->seek[di < dj ? di : dj];
			}
	free(p < q ? p : q);
	*out = s;
	return 0;
}

#define MECH_CHAIN_STEPS 100000	/* reads simulated for the nearest of 3 or more heads */
#define MECH_CHAIN_SETTLE 10000		/* reads first, to forget the independent start */

/* xorshift64*: the simulation's random stream, seeded the same way every time (same plan). */
static uint64_t mech_rand(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 2685821657736338717ULL;
}

/* A position drawn with the grid's density (cum: its running sum). */
static int mech_draw(const double *cum, uint64_t *state)
{
	double u = (double)(mech_rand(state) >> 11) / 9007199254740992.0;
	int lo = 0, hi = MECH_CELLS - 1;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (cum[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * E[seek of the nearest head] of `heads` mirrored heads (3 or more), each
 * read going to the nearest, that head staying where it read: the chain
 * nearer_seek solves for two, here simulated (MECH_CHAIN_STEPS reads after
 * MECH_CHAIN_SETTLE from independent heads; a tie goes to the lowest head).
 */
static double nearest_seek_simulated(const struct mech_grid *g, unsigned heads)
{
	double cum[MECH_CELLS], acc = 0, s = 0;
	int pos[RAID_MECH_HEADS];
	uint64_t state = 0x9E3779B97F4A7C15ULL ^ heads;

	BUG_ON(heads < 3 || heads > RAID_MECH_HEADS);
	for (int i = 0; i < MECH_CELLS; i++)
		cum[i] = acc += g->w[i];
	cum[MECH_CELLS - 1] = 1.0;
	for (unsigned h = 0; h < heads; h++)
		pos[h] = mech_draw(cum, &state);
	for (long step = 0; step < MECH_CHAIN_SETTLE + MECH_CHAIN_STEPS; step++) {
		int y = mech_draw(cum, &state), best = 0, d = abs(y - pos[0]);

		for (unsigned h = 1; h < heads; h++)
			if (abs(y - pos[h]) < d) {
				d = abs(y - pos[h]);
				best = (int)h;
			}
		pos[best] = y;
		if (step >= MECH_CHAIN_SETTLE)
			s += g->seek[d];
	}
	return s / MECH_CHAIN_STEPS;
}

/*
 * excess[k-1] = E[max of k independent T] - E[T], T = seek between two
 * independent positions + a rotational wait uniform over one revolution:
 * integral of 1 - F(t)^k over t, F the distribution of T.
 */
static void slowest_excess(const struct mech_grid *g, double rev_s, double *excess)
{
	double pd[MECH_CELLS] = { 0 }, top = g->seek[MECH_CELLS - 1] + rev_s, dt, mean = 0;
	double e[RAID_MAX_DISKS] = { 0 };

	for (int i = 0; i < MECH_CELLS; i++)
		for (int j = 0; j < MECH_CELLS; j++)
			pd[abs(i - j)] += g->w[i] * g->w[j];
	for (int d = 0; d < MECH_CELLS; d++)
		top = fmax(top, g->seek[d] + rev_s);
	dt = top / MECH_TIME_STEPS;
	for (int s = 0; s < MECH_TIME_STEPS; s++) {
		double t = (s + 0.5) * dt, f = 0, fk = 1;

		for (int d = 0; d < MECH_CELLS; d++)
			f += pd[d] * fmin(fmax((t - g->seek[d]) / rev_s, 0), 1);
		for (int k = 0; k < RAID_MAX_DISKS; k++) {
			fk *= f;
			e[k] += (1 - fk) * dt;
		}
	}
	mean = e[0];
	for (int k = 0; k < RAID_MAX_DISKS; k++)
		excess[k] = e[k] - mean;
}

int raid_mech_derive(double rev_s, double inner_outer,
		     double (*seek_s)(const void *ctx, double x), const void *ctx,
		     unsigned heads, struct raid_mech *out)
{
	struct mech_grid g;
	int ret;

	BUG_ON(!(rev_s > 0) || !seek_s);
	memset(out, 0, sizeof(*out));
	grid_init(&g, inner_outer, seek_s, ctx);
	out->rev_s = rev_s;
	out->seek_mean_s = mean_seek(&g);
	ret = nearer_seek(&g, &out->seek_nearer_s);
	if (ret)
		return ret;
	out->nearest_heads = heads < 2 ? 2 : heads < RAID_MECH_HEADS ? heads : RAID_MECH_HEADS;
	for (unsigned k = 3; k <= out->nearest_heads; k++)
		out->seek_nearest_s[k - 3] = nearest_seek_simulated(&g, k);
	slowest_excess(&g, rev_s, out->slowest_excess_s);
	return 0;
}

double raid_mech_slowest_excess(const struct raid_mech *m, double k)
{
	unsigned lo;
	double frac;

	if (!(m->rev_s > 0) || k <= 1)
		return 0;
	if (k >= RAID_MAX_DISKS)
		return m->slowest_excess_s[RAID_MAX_DISKS - 1];
	lo = (unsigned)floor(k);
	frac = k - lo;
	return m->slowest_excess_s[lo - 1] + frac * (m->slowest_excess_s[lo] -
						     m->slowest_excess_s[lo - 1]);
}

double raid_mech_nearest_seek(const struct raid_mech *m, unsigned heads)
{
	if (!(m->rev_s > 0) || heads < 2)
		return heads == 1 ? m->seek_mean_s : 0;
	if (heads == 2)
		return m->seek_nearer_s;
	heads = heads < RAID_MECH_HEADS ? heads : RAID_MECH_HEADS;
	BUG_ON(heads > m->nearest_heads);	/* derived for fewer mirrors than asked of */
	return m->seek_nearest_s[heads - 3];
}

double raid_mech_rotation_excess(const struct raid_mech *m, double k)
{
	/* the slowest of k waits uniform over a revolution: k / (k + 1) of it, against 1/2 */
	return m->rev_s > 0 && k > 1 ? m->rev_s * (k / (k + 1) - 0.5) : 0;
}
