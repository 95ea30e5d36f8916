/* raid.c — the array planner of raid.h: layout, failure odds, member IOs, MVA, link. */
#include "raid.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/erase_block.h"
#include "util/bug.h"

#define HOURS_PER_YEAR 8760.0

static const char *const level_names[] = { "RAID 0", "RAID 1", "RAID 10", "RAID 5", "RAID 6" };

const char raid_mttdl_caveat[] =
	"MTTDL assumes independent failures at a constant rate and repairs that always start; "
	"field data show more double failures than it predicts (Elerath and Pecht 2009; "
	"Greenan, Plank and Wylie 2010, \"Mean time to meaningless\")";

int raid_level_parse(const char *text, enum raid_level *out)
{
	static const char *const spell[] = { "0", "1", "10", "5", "6" };

	if (!strncmp(text, "raid", 4))
		text += 4;
	for (unsigned i = 0; i < 5; i++)
		if (!strcmp(text, spell[i])) {
			*out = (enum raid_level)i;
			return 0;
		}
	return -EINVAL;
}

const char *raid_level_name(enum raid_level level)
{
	return level_names[level];
}

unsigned raid_min_disks(enum raid_level level)
{
	static const unsigned min[] = { 2, 2, 4, 3, 4 };

	return min[level];
}

int raid_layout_check(const struct raid_layout *l, struct errmsg *err)
{
	if (l->disks < raid_min_disks(l->level) || l->disks > RAID_MAX_DISKS)
		return errmsg_set(err, -EINVAL, "--disks %u: %s needs %u to %u disks", l->disks,
				  raid_level_name(l->level), raid_min_disks(l->level), RAID_MAX_DISKS);
	if (l->level == RAID_10 && l->disks % 2)
		return errmsg_set(err, -EINVAL, "--disks %u: RAID 10 needs an even number of disks",
				  l->disks);
	if (!l->stripe || l->stripe % 512)
		return errmsg_set(err, -EINVAL, "--stripe %llu: expected a positive multiple of 512",
				  (unsigned long long)l->stripe);
	if (l->stripe > RAID_MAX_STRIPE)
		return errmsg_set(err, -EINVAL, "--stripe %llu: at most %llu (1 GiB), as the "
				  "simulated arrays take", (unsigned long long)l->stripe,
				  (unsigned long long)RAID_MAX_STRIPE);
	return 0;
}

unsigned raid_parity_disks(const struct raid_layout *l)
{
	return l->level == RAID_5 ? 1 : l->level == RAID_6 ? 2 : 0;
}

unsigned raid_data_disks(const struct raid_layout *l)
{
	switch (l->level) {
	case RAID_1: return 1;
	case RAID_10: return l->disks / 2;
	default: return l->disks - raid_parity_disks(l);
	}
}

unsigned raid_read_disks(const struct raid_layout *l)
{
	return raid_data_disks(l);
}

unsigned raid_copies(const struct raid_layout *l)
{
	return l->level == RAID_1 ? l->disks : l->level == RAID_10 ? 2 : 0;
}

unsigned raid_str_disks(const struct raid_layout *l, enum io_op op)
{
	return op == IO_READ ? raid_read_disks(l) : l->level == RAID_1 ? 1 : raid_data_disks(l);
}

uint64_t raid_capacity(const struct raid_layout *l, uint64_t smallest_member)
{
	return (uint64_t)raid_data_disks(l) * (smallest_member / l->stripe * l->stripe);
}

/* --- failure odds --- */

/* P(at least k of n fail), each with probability f, independently. */
static double at_least(unsigned n, unsigned k, double f)
{
	double below = 0, term = pow(1 - f, n);	/* P(0 fail) */

	for (unsigned j = 0; j < k && j <= n; j++) {
		below += term;
		term *= (double)(n - j) / (j + 1) * f / (1 - f);
	}
	return below >= 1 ? 0 : 1 - below;
}

double raid_annual_loss(const struct raid_layout *l, double f)
{
	switch (l->level) {
	case RAID_0: return 1 - pow(1 - f, l->disks);
	case RAID_1: return pow(f, l->disks);
	case RAID_10: return 1 - pow(1 - f * f, l->disks / 2);
	case RAID_5: return at_least(l->disks, 2, f);
	case RAID_6: return at_least(l->disks, 3, f);
	}
	return NAN;
}

/* An unrecoverable read while reading `members` whole members. */
static double p_ure(const struct raid_reliability_in *in, unsigned members)
{
	return -expm1(-8.0 * in->member_bytes * members * in->uber);
}

/*
 * MTTDL in hours; `ure` false: without read errors. A volume that survives
 * t failures loses data when t more members fail, one after another, each
 * within the repair of the previous ones; the last of them is instead an
 * unrecoverable read of the `last` members the final rebuild reads:
 *     MTTDL = MTTF / (n * prod_{j=1}^{t-1} (n-j) r * (last r + P_ure(last)))
 * with r = MTTR / MTTF. RAID 10's partner is the only member whose failure
 * counts (last = 1, t = 1).
 */
static double mttdl_h(const struct raid_layout *l, const struct raid_reliability_in *in,
		      double mttf, double mttr, bool ure)
{
	unsigned n = l->disks, t, last;
	double r = mttr / mttf, d = n;

	switch (l->level) {
	case RAID_0: return mttf / n;
	case RAID_1: t = n - 1; last = 1; break;
	case RAID_10: t = 1; last = 1; break;
	case RAID_5: t = 1; last = n - 1; break;
	default: t = 2; last = n - 2; break;
	}
	for (unsigned j = 1; j < t; j++)
		d *= (n - j) * r;
	d *= last * r + (ure ? p_ure(in, last) : 0);
	return mttf / d;
}

void raid_reliability(const struct raid_layout *l, const struct raid_reliability_in *in,
		      struct raid_reliability *out)
{
	BUG_ON(!(in->afr > 0 && in->afr < 1));
	memset(out, 0, sizeof(*out));
	out->annual_loss = raid_annual_loss(l, in->afr);
	out->mttf_h = HOURS_PER_YEAR / in->afr;
	out->mttr_h = in->repair_s / 3600.0;
	switch (l->level) {
	case RAID_0: out->p_ure = 0; break;
	case RAID_1: case RAID_10: out->p_ure = p_ure(in, 1); break;
	case RAID_5: out->p_ure = p_ure(in, l->disks - 1); break;
	case RAID_6: out->p_ure = p_ure(in, l->disks - 2); break;
	}
	out->mttdl_h = mttdl_h(l, in, out->mttf_h, out->mttr_h, true);
	out->mttdl_no_ure_h = mttdl_h(l, in, out->mttf_h, out->mttr_h, false);
	out->annual_loss_repaired = -expm1(-HOURS_PER_YEAR / out->mttdl_h);
	out->loss_over_years = -expm1(-in->years * HOURS_PER_YEAR / out->mttdl_h);
}

/* --- the seeds' derivation --- */

double raid_partial_penalty(double array_small_write_s, double member_seek_s)
{
	return array_small_write_s - member_seek_s;
}

double raid_large_write_latency(double member_seek_s, double penalty_s)
{
	return member_seek_s + 2 * penalty_s;
}

double raid_str_from_iops(uint64_t size, double iops, double latency_s)
{
	return (double)size / (1.0 / iops - latency_s);
}

/* --- member IOs --- */

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

double raid_units_spanned(uint64_t size, uint64_t align, uint64_t unit)
{
	uint64_t g, q, t, slots, late;

	if (!size)
		return 0;
	g = gcd64(align ? align : size, unit);
	q = (size - 1) / unit;
	t = (size - 1) % unit;
	slots = unit / g;
	/* offsets mod unit are uniform over the multiples of g; those >= unit - t spill over */
	late = slots - (unit - t + g - 1) / g;
	return 1.0 + (double)q + (double)late / (double)slots;
}

static uint64_t round_up_512(double bytes)
{
	uint64_t b = (uint64_t)ceil(bytes / 512.0) * 512;

	return b ? b : 512;
}

/* Parity RAID writes: data and parity writes, and the reads of partial rows. */
static void parity_write_shape(const struct raid_layout *l, uint64_t size, uint64_t align,
			       double chunks, struct raid_io_shape *out)
{
	unsigned n = l->disks, d = raid_data_disks(l), p = raid_parity_disks(l);
	uint64_t row = (uint64_t)d * l->stripe;
	double rows = raid_units_spanned(size, align, row);
	double partial = erase_block_expected_merges(size, align ? align : size, (double)row);
	double full = rows - partial > 0 ? rows - partial : 0;
	double touched = partial > 0 ? (chunks - d * full) / partial : 0;
	double rmw, rec;

	touched = touched < 1 ? 1 : touched > d ? d : touched;
	rmw = partial * (touched + p);
	rec = partial * (d - touched);
	out->partial_rows = partial;
	out->reconstruct = rec < rmw;
	out->reads = out->reconstruct ? rec : rmw;
	out->writes = fmin((double)n, chunks + p * rows);
	out->member_bytes = round_up_512((double)size / fmin(chunks, (double)d));
	if (out->member_bytes > size)
		out->member_bytes = size;
	out->phases = out->reads > 0 ? 2 : 1;
	out->rewrite = !out->reconstruct && out->reads > 0 && out->reads >= out->writes - 1e-9;
}

/*
 * Parity RAID reads of more chunks than a row has data chunks. Left-symmetric
 * parity puts consecutive data chunks on the members in turn: on RAID 5 data
 * chunk c is on member c mod n (a row's last data chunk is on the member
 * before its P, the next row's first on that P's member), so such a read
 * keeps min(chunks, n) members busy, each reading its chunks and streaming
 * through any parity chunk of its own between two of them. With per =
 * chunks / n chunks a member (per >= 1), per - 1 gaps each hold a parity
 * chunk p / d of the time: stripe x (per + (per - 1) p / d), which tends to
 * size / d. Exact for RAID 5 (test_raid checks it against the layout).
 *
 * RAID 6 takes the same rule as an approximation: there each row boundary
 * skips a member (row r's P is row r + 1's Q), so an aligned read of n
 * chunks on 6 members touches 5.25 of them on average, 1.14 chunks each,
 * where the rule says 6 of 1. The layout's own counts were tried and made
 * the plan agree less with sim:raid6 of wd6400aaks (4 members, 256 KiB
 * random reads at QD16: +13.0 % against +1.6 %; 18 cases of 4 and 6
 * members, 256 KiB-4 MiB, QD 1/4/16: no case better by more than 2 points):
 * a read ends with its slowest member, which one mean member IO does not
 * carry, and the rule's extra IOs stand in for it.
 */
static void parity_read_shape(const struct raid_layout *l, uint64_t size, double chunks,
			      struct raid_io_shape *out)
{
	double n = l->disks, d = raid_data_disks(l), p = raid_parity_disks(l);
	double per = chunks / n;

	out->reads = fmin(chunks, n);
	out->member_bytes = chunks <= n ? round_up_512((double)size / chunks)
			  : round_up_512((double)l->stripe * (per + (per - 1) * p / d));
	if (out->member_bytes > size)
		out->member_bytes = size;
}

void raid_io_shape(const struct raid_layout *l, enum io_op op, uint64_t size, uint64_t align,
		   struct raid_io_shape *out)
{
	double chunks = raid_units_spanned(size, align, l->stripe);
	double c;

	memset(out, 0, sizeof(*out));
	out->phases = 1;
	if (op == IO_WRITE && raid_parity_disks(l)) {
		parity_write_shape(l, size, align, chunks, out);
		return;
	}
	if (op == IO_READ && raid_parity_disks(l) && chunks > raid_data_disks(l)) {
		parity_read_shape(l, size, chunks, out);
		return;
	}
	if (op == IO_READ) {
		c = l->level == RAID_1 ? 1 : fmin(chunks, (double)raid_read_disks(l));
		out->reads = c;
		out->nearer = l->level == RAID_1 || l->level == RAID_10;
		out->copies = raid_copies(l);
	} else if (l->level == RAID_1) {
		c = 1;
		out->writes = l->disks;
		out->copies = raid_copies(l);
	} else if (l->level == RAID_10) {
		c = fmin(chunks, (double)(l->disks / 2));
		out->writes = 2 * c;
		out->copies = raid_copies(l);
	} else {
		c = fmin(chunks, (double)l->disks);
		out->writes = c;
	}
	out->member_bytes = round_up_512((double)size / c);
	if (out->member_bytes > size)
		out->member_bytes = size;
}

/* --- mean-value analysis --- */

int raid_mva(unsigned groups, const unsigned *count, const double *visit,
	     const double *const *mu, unsigned jobs, double *throughput)
{
	double *p = calloc((size_t)groups * (jobs + 1), sizeof(*p));
	double x = 0;

	if (!p)
		return -ENOMEM;
	for (unsigned g = 0; g < groups; g++)
		p[(size_t)g * (jobs + 1)] = 1;	/* p_g(0 | 0) */
	for (unsigned n = 1; n <= jobs; n++) {
		double r = 0;

		for (unsigned g = 0; g < groups; g++) {
			const double *pg = &p[(size_t)g * (jobs + 1)];
			double rg = 0;

			for (unsigned j = 1; j <= n; j++)
				rg += j / mu[g][j - 1] * pg[j - 1];
			r += count[g] * visit[g] * rg;
		}
		x = n / r;
		for (unsigned g = 0; g < groups; g++) {
			double *pg = &p[(size_t)g * (jobs + 1)], busy = 0;

			for (unsigned j = n; j >= 1; j--) {	/* in place: p(j|n) from p(j-1|n-1) */
				pg[j] = visit[g] * x / mu[g][j - 1] * pg[j - 1];
				busy += pg[j];
			}
			pg[0] = busy < 1 ? 1 - busy : 0;
		}
	}
	free(p);
	BUG_ON(!(x > 0));
	*throughput = x;
	return 0;
}

/* The distinct members (by pointer) and how many of each. */
static unsigned member_groups(const struct raid_layout *l, const struct raid_member *const *m,
			      const struct raid_member **kind, unsigned *count)
{
	unsigned groups = 0;

	for (unsigned i = 0; i < l->disks; i++) {
		unsigned g = 0;

		while (g < groups && kind[g] != m[i])
			g++;
		if (g == groups) {
			kind[groups] = m[i];
			count[groups++] = 0;
		}
		count[g]++;
	}
	return groups;
}

/* mu[k-1] of a member serving the shape's mix of reads and writes. */
static int member_rates(const struct raid_member *m, const struct raid_io_shape *s,
			unsigned jobs, double *mu, struct errmsg *err)
{
	double c = s->reads + s->writes;

	/* nearer-mirror reads: a member's j reads lie as densely as copies x j over the stroke */
	unsigned spread = s->nearer && m->mech.rev_s > 0 ? (unsigned)s->copies : 1;

	for (unsigned k = 1; k <= jobs; k++) {
		double r = s->reads > 0 ? m->iops_at(m->ctx, IO_READ, s->member_bytes, k * spread) : 1;
		double w = s->writes > 0 ? m->iops_at(m->ctx, IO_WRITE, s->member_bytes, k) : 1;

		if (!(r > 0) || !(w > 0))
			return errmsg_set(err, -EINVAL, "member %s: no random %s rate for %llu-byte IOs",
					  m->name, r > 0 ? "write" : "read",
					  (unsigned long long)s->member_bytes);
		mu[k - 1] = c / (s->reads / r + s->writes / w);
	}
	return 0;
}

/*
 * Exact MVA of load-independent stations (group g: count[g] stations of
 * demand d[g] seconds per cycle each) behind a delay of z seconds per cycle.
 */
static double mva_fcfs(unsigned groups, const unsigned *count, const double *d, double z,
		       unsigned jobs)
{
	double q[RAID_MAX_DISKS + 1] = { 0 }, x = 0;

	for (unsigned n = 1; n <= jobs; n++) {
		double r = z;

		for (unsigned g = 0; g < groups; g++)
			r += count[g] * d[g] * (1 + q[g]);
		x = n / r;
		for (unsigned g = 0; g < groups; g++)
			q[g] = x * d[g] * (1 + q[g]);
	}
	return x;
}

/* The delay z that makes one station of service s behind it deliver mu at k in flight. */
static double calibrate_delay(double s, double mu, unsigned k)
{
	double lo = 0, hi = k / mu;

	for (int i = 0; i < 60; i++) {
		double mid = (lo + hi) / 2;
		unsigned one = 1;

		if (mva_fcfs(1, &one, &s, mid, k) > mu)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

#define SHARED_PEAK_DEPTH 1024		/* depths searched for a member's peak rate */
#define SHARED_KNEE 0.9			/* delays are calibrated below this share of the peak */

/*
 * The shared-latency reading of member m's curve: an FCFS station at the
 * member's peak rate (*service = 1 / peak) behind a delay that depends on
 * the IOs in flight, calibrated so that one such member reproduces its own
 * curve at each doubling depth up to `jobs` where it is below its knee (and
 * held beyond): *delay is that delay at `jobs`.
 */
static int shared_figures(const struct raid_member *m, const struct raid_io_shape *s,
			  unsigned jobs, double *service, double *delay, struct errmsg *err)
{
	unsigned depth = jobs > SHARED_PEAK_DEPTH ? jobs : SHARED_PEAK_DEPTH;
	double *mu = malloc(depth * sizeof(double)), peak = 0, z = 0;
	int ret = mu ? member_rates(m, s, depth, mu, err) : errmsg_set(err, -ENOMEM, "out of memory");

	for (unsigned k = 0; !ret && k < depth; k++)
		peak = mu[k] > peak ? mu[k] : peak;
	*service = ret ? 0 : 1 / peak;
	for (unsigned k = 1; !ret && k <= jobs; k = k < jobs && 2 * k > jobs ? jobs : 2 * k) {
		double zk = mu[k - 1] < SHARED_KNEE * peak ? calibrate_delay(*service, mu[k - 1], k) : 0;

		z = zk > z ? zk : z;
		if (k == jobs)
			break;
	}
	*delay = z;
	free(mu);
	return ret;
}

/* Member IO throughput with `jobs` member IOs in flight. */
static int members_throughput(const struct raid_layout *l, const struct raid_member *const *m,
			      const struct raid_io_shape *s, unsigned jobs, bool shared,
			      double *x, struct errmsg *err)
{
	const struct raid_member *kind[RAID_MAX_DISKS];
	unsigned count[RAID_MAX_DISKS];
	double visit[RAID_MAX_DISKS], *mu[RAID_MAX_DISKS] = { NULL }, d[RAID_MAX_DISKS], z = 0;
	unsigned groups = member_groups(l, m, kind, count);
	int ret = 0;

	for (unsigned g = 0; g < groups && !ret && shared; g++) {
		double zg;

		ret = shared_figures(kind[g], s, jobs, &d[g], g ? &zg : &z, err);
		d[g] /= l->disks;	/* demand per cycle: visited 1/n of the time */
	}
	if (shared) {
		if (!ret)
			*x = mva_fcfs(groups, count, d, z, jobs);
		return ret;
	}
	for (unsigned g = 0; g < groups && !ret; g++) {
		visit[g] = 1.0 / l->disks;
		mu[g] = malloc(jobs * sizeof(double));
		ret = mu[g] ? member_rates(kind[g], s, jobs, mu[g], err)
			    : errmsg_set(err, -ENOMEM, "out of memory");
	}
	if (!ret)
		ret = raid_mva(groups, count, visit, (const double *const *)mu, jobs, x);
	if (ret == -ENOMEM)
		errmsg_set(err, ret, "out of memory");
	for (unsigned g = 0; g < groups; g++)
		free(mu[g]);
	return ret;
}

/* Member IO throughput with `jobs` (not whole) member IOs in flight: linear between. */
static int members_throughput_at(const struct raid_layout *l, const struct raid_member *const *m,
				 const struct raid_io_shape *s, double jobs, bool shared, double *x,
				 struct errmsg *err)
{
	unsigned lo = jobs < 1 ? 1 : (unsigned)floor(jobs);
	double frac = jobs - lo, lo_x, hi_x;
	int ret = members_throughput(l, m, s, lo, shared, &lo_x, err);

	hi_x = lo_x;
	if (!ret && frac > 1e-9)
		ret = members_throughput(l, m, s, lo + 1, shared, &hi_x, err);
	*x = lo_x + (frac > 0 ? frac : 0) * (hi_x - lo_x);
	return ret;
}

/*
 * One array IO alone: its phases one after the other, the IOs of a phase in
 * parallel, each phase as long as its slowest IO when the member's
 * mechanics are known (raid_mech): mirror reads from the nearer head,
 * mirrored writes waiting for the slowest platter, RMW rewrites one
 * revolution after their reads.
 */
static double alone_seconds(const struct raid_member *m, const struct raid_io_shape *s)
{
	const struct raid_mech *h = &m->mech;
	double t = 0;

	if (s->reads > 0) {
		t += 1 / m->iops_at(m->ctx, IO_READ, s->member_bytes, 1);
		if (s->nearer && h->rev_s > 0)
			t -= h->seek_mean_s - raid_mech_nearest_seek(h, (unsigned)s->copies);
		else
			t += raid_mech_slowest_excess(h, s->reads);
	}
	if (s->writes > 0 && s->rewrite && h->rev_s > 0)
		t += h->rev_s;
	else if (s->writes > 0)
		t += 1 / m->iops_at(m->ctx, IO_WRITE, s->member_bytes, 1) +
		     (s->copies > 1 ? raid_mech_rotation_excess(h, s->copies)
				    : raid_mech_slowest_excess(h, s->writes));
	return t;
}

/*
 * alone_seconds over the members, each as likely to serve an array IO: the
 * first member's time plus the mean of the others' differences from it, so
 * that identical members give exactly its time and mixed ones (HDDs and SSDs,
 * --allow-mixed) the same time in any order.
 */
static double alone_mean_seconds(const struct raid_layout *l, const struct raid_member *const *m,
				 const struct raid_io_shape *s)
{
	double first = alone_seconds(m[0], s), diff = 0;

	for (unsigned i = 1; i < l->disks; i++)
		diff += alone_seconds(m[i], s) - first;
	return first + diff / l->disks;
}

/* Whether any member's head mechanics are known (raid_mech). */
static bool any_mechanics(const struct raid_layout *l, const struct raid_member *const *m)
{
	for (unsigned i = 0; i < l->disks; i++)
		if (m[i]->mech.rev_s > 0)
			return true;
	return false;
}

/*
 * Array IOs per second of writes that only write (RAID 0, 1, 10) on
 * members that all cache them: each member destages at its deep-queue rate
 * (QD 32) while the host's writes, acknowledged from the caches, keep every
 * member busy; `writes` member writes per array IO. 0 when a member does not
 * cache its writes.
 */
static double cached_writes_iops(const struct raid_layout *l,
				 const struct raid_member *const *m, const struct raid_io_shape *s)
{
	double sum = 0;

	if (s->reads > 0 || !(s->writes > 0))
		return 0;
	for (unsigned i = 0; i < l->disks; i++) {
		if (!m[i]->write_cached)
			return 0;
		sum += m[i]->iops_at(m[i]->ctx, IO_WRITE, s->member_bytes, 32);
	}
	return sum / s->writes;
}

int raid_random_perf(const struct raid_layout *l, const struct raid_member *const *members,
		     enum io_op op, uint64_t size, uint64_t align, unsigned qd, bool shared,
		     struct raid_perf *out, struct errmsg *err)
{
	struct raid_io_shape *s = &out->shape;
	double per_io, x, x1, excess, r, alone;
	int ret;

	raid_io_shape(l, op, size, align, s);
	per_io = s->reads + s->writes;
	ret = members_throughput_at(l, members, s, qd * per_io / s->phases, shared, &x, err);
	if (!ret)
		ret = members_throughput_at(l, members, s, per_io / s->phases, shared, &x1, err);
	if (ret)
		return ret;
	/*
	 * The network routes an array IO's member IOs at random, so alone they
	 * may share a member; in the array they never do, but a phase waits for
	 * its slowest IO, a mirror read takes the nearer head and a rewrite
	 * waits one revolution (alone_seconds). The network's response time at
	 * queue depth 1 differs from that by `excess`: taken off at every depth.
	 */
	alone = alone_mean_seconds(l, members, s);
	excess = per_io / x1 - alone;
	if (excess < 0 && !any_mechanics(l, members))
		excess = 0;	/* no mechanics: the network's overlap only */
	r = qd * per_io / x - excess;
	if (!(r > 0))
		r = alone;
	if (op == IO_WRITE) {
		double cached = cached_writes_iops(l, members, s);

		if (cached > qd / r)
			r = qd / cached;
	}
	out->iops = qd / r;
	out->mib_s = out->iops * (double)size / (1024.0 * 1024.0);
	out->mean_lat_s = r;
	return 0;
}

/* --- first order --- */

void raid_first_order(const struct raid_layout *l, const struct raid_member *const *members,
		      double partial_s, struct raid_first_order *out)
{
	unsigned factor[2] = { raid_str_disks(l, IO_READ), raid_str_disks(l, IO_WRITE) };

	memset(out, 0, sizeof(*out));
	for (int op = IO_READ; op <= IO_WRITE; op++) {
		double pen = 0, str = INFINITY;

		for (unsigned i = 0; i < l->disks; i++) {
			pen = fmax(pen, members[i]->penalty_s[op]);
			str = fmin(str, members[i]->str_bps[op]);
		}
		out->penalty_s[op] = pen;
		out->str_bps[op] = str > 0 && isfinite(str) ? str * factor[op] : 0;
	}
	out->row_bytes = (uint64_t)raid_data_disks(l) * l->stripe;
	if (!raid_parity_disks(l))
		return;
	if (partial_s >= 0)
		out->partial_s = partial_s;
	else
		out->partial_s = out->penalty_s[IO_READ];
}

double raid_first_order_seconds(const struct raid_first_order *fo, enum io_op op,
				uint64_t size, uint64_t align)
{
	double t = fo->penalty_s[op] + (double)size / fo->str_bps[op];

	if (op == IO_WRITE && fo->partial_s > 0)
		t += erase_block_expected_merges(size, align ? align : size, (double)fo->row_bytes) *
		     fo->partial_s;
	return t;
}

/* --- the network --- */

double raid_link_payload_bps(double line_bps, unsigned mtu)
{
	if (mtu < 576 || mtu > 65535)
		return 0;
	return line_bps * (double)(mtu - 20 - 32) / (double)(mtu + 38);
}

int raid_link_parse(const char *text, double *line_bps)
{
	char *end;
	double v = strtod(text, &end), mult;
	char unit[8] = "";
	size_t i;

	/* plain decimal only: strtod would also take blanks, a sign, hex and "inf" */
	if ((!isdigit((unsigned char)text[0]) && text[0] != '.') ||
	    strspn(text, "0123456789.eE+-") < (size_t)(end - text))
		return -EINVAL;
	if (end == text || !(v > 0) || !isfinite(v) || strlen(end) >= sizeof(unit))
		return -EINVAL;
	for (i = 0; end[i]; i++)
		unit[i] = (char)tolower((unsigned char)end[i]);
	unit[i] = '\0';
	mult = unit[0] == 'k' ? 1e3 : unit[0] == 'm' ? 1e6 : unit[0] == 'g' ? 1e9 : 0;
	if (!mult || (strcmp(unit + 1, "be") && strcmp(unit + 1, "bit") && strcmp(unit + 1, "bit/s")))
		return -EINVAL;
	if (!(v * mult <= RAID_LINK_MAX_BPS))
		return -ERANGE;		/* the payload and its JSON stay finite */
	*line_bps = v * mult;
	return 0;
}
