/*
 * raid.h — planning a RAID array from its member drives, on paper: capacity,
 * throughput and latency, the partial-stripe write cost of parity RAID, the
 * odds of losing the volume, and whether a network link or the array limits
 * a large transfer. Pure functions: no files, no devices, no clock.
 *
 * Layout. `disks` members, each holding `stripe`-byte chunks (the "stripe
 * size" controllers ask for); a row is one chunk on every member. Data
 * members per row: RAID 0 n, RAID 1 1 (n-way mirror), RAID 10 n/2 (mirrored
 * pairs, striped), RAID 5 n-1, RAID 6 n-2 (parity rotating over the members).
 *
 * Performance. Each member is described by its first-order figures per
 * direction (penalty L, STR) and by a rate curve: IOPS of random IOs of a
 * size at each queue depth (raid_member.iops_at, filled by the caller from a
 * fitted model or from measured points). An array IO becomes member IOs
 * (raid_io_shape): `reads` and `writes` of `member_bytes` each, in one phase
 * or two (parity RAID reads old data or the rest of the row before it can
 * write). A parity RAID read of more chunks than a row's data chunks keeps
 * every member busy (left-symmetric parity puts consecutive data chunks on
 * the members in turn), each streaming through its own parity chunks
 * (exact for RAID 5, an approximation for RAID 6: raid.c). N array IOs
 * outstanding keep N * (reads + writes) / phases member
 * IOs in flight; those circulate over the members as a closed queueing
 * network with load-dependent stations (the member's own IOPS at each
 * depth), solved exactly by mean-value analysis (raid_mva_throughput). The
 * array's throughput is the members' divided by member IOs per array IO;
 * its mean latency is N / throughput (Little). A hard-disk member whose
 * head mechanics are known (struct raid_mech below) refines one array IO
 * alone: mirror reads from the nearer head, parallel phases as long as
 * their slowest IO, RMW rewrites one revolution after their reads. Members
 * that differ (--allow-mixed) serve an array IO alike: its time alone is
 * the mean over the members, so the plan does not depend on their order.
 *
 * Parity RAID writes that do not cover a row whole pay a partial-stripe
 * penalty per partly covered row: read-modify-write (read the old data and
 * parity, write both) or reconstruct-write (read the row's other data
 * chunks, write data and parity), whichever costs the members less time.
 * A large write pays one at each end, as in the seeds:
 *     seconds = L_write + E[partial rows] * P + size / ((n - p) * W).
 *
 * Failure. f is the annual failure rate of one member (0 < f < 1).
 *     RAID 0  1 - (1 - f)^n            RAID 1   f^n (two disks: f^2)
 *     RAID 10 1 - (1 - f^2)^(n/2)      RAID 5   P(2 or more of n fail)
 *     RAID 6  P(3 or more of n fail)   (binomial, failures independent)
 * Mean time to data loss with repair: MTTF = 8760 h / f; a failure is
 * repaired in MTTR = replacement delay + member bytes / rebuild rate, during
 * which the members that must be read (RAID 1/10: the mirror, RAID 5: n-1,
 * RAID 6 after two failures: n-2) may fail or return an unrecoverable read
 * error (P_ure = 1 - exp(-8 C k UBER) for k members of C bytes read):
 *     RAID 5   MTTDL = MTTF / (n [(n-1) MTTR / MTTF + P_ure(n-1)])
 *     RAID 1/10 the same with the mirror partner (1 member) in place of n-1
 *     RAID 6   MTTDL = MTTF / (n (n-1) MTTR / MTTF [(n-2) MTTR / MTTF + P_ure(n-2)])
 *     RAID 0   MTTF / n
 * and the loss over T: 1 - exp(-T / MTTDL). These under-state real losses
 * (correlated failures, latent errors): the caveat is raid_mttdl_caveat.
 */
#ifndef IOMODEL_RAID_H
#define IOMODEL_RAID_H

#include <stdbool.h>
#include <stdint.h>

#include "util/errmsg.h"
#include "util/io_request.h"

enum raid_level { RAID_0, RAID_1, RAID_10, RAID_5, RAID_6 };

struct raid_layout {
	enum raid_level level;
	unsigned disks;
	uint64_t stripe;		/* bytes per chunk on one member */
};

#define RAID_MAX_DISKS 64
#define RAID_MAX_STRIPE (1ULL << 30)	/* the largest chunk, as sim:raid* takes it */

/* "0", "1", "10", "5", "6" (also "raid5"); -EINVAL otherwise. */
int raid_level_parse(const char *text, enum raid_level *out);
const char *raid_level_name(enum raid_level level);	/* "RAID 5" */
unsigned raid_min_disks(enum raid_level level);

/*
 * Check a layout; -EINVAL with a message naming the option at fault
 * ("--disks 3: RAID 10 needs an even number of disks, at least 4",
 * "--stripe 1000: expected a multiple of 512", a stripe above
 * RAID_MAX_STRIPE).
 */
int raid_layout_check(const struct raid_layout *l, struct errmsg *err);

unsigned raid_data_disks(const struct raid_layout *l);	/* per row */
unsigned raid_parity_disks(const struct raid_layout *l);	/* RAID 5: 1, RAID 6: 2 */
/* Members that serve one large read in parallel (RAID 1: one). */
unsigned raid_read_disks(const struct raid_layout *l);
/* Copies of each chunk: RAID 1 its members, RAID 10 2, else 0 (no mirror). */
unsigned raid_copies(const struct raid_layout *l);
/* Members whose STR adds up in a large transfer of `op` (RAID 1 writes: one). */
unsigned raid_str_disks(const struct raid_layout *l, enum io_op op);
/* Bytes of user data: data members x the smallest member, whole chunks. */
uint64_t raid_capacity(const struct raid_layout *l, uint64_t smallest_member);

/* --- failure odds --- */

/* Annual probability of losing the volume, the seeds' formulas above. */
double raid_annual_loss(const struct raid_layout *l, double afr);

struct raid_reliability_in {
	double afr;			/* per member per year, 0..1 */
	double repair_s;		/* MTTR: delay + rebuild, seconds */
	double member_bytes;		/* C; 0: unknown (no read errors counted) */
	double uber;			/* unrecoverable errors per bit read */
	double years;			/* mission time for loss_over_years */
};

struct raid_reliability {
	double annual_loss;		/* raid_annual_loss (no repair) */
	double mttf_h;			/* one member */
	double mttr_h;
	double p_ure;			/* an unrecoverable read during the rebuild */
	double mttdl_h;			/* with repair and read errors */
	double mttdl_no_ure_h;		/* with repair, no read errors */
	double annual_loss_repaired;	/* 1 - exp(-8760 h / MTTDL) */
	double loss_over_years;		/* 1 - exp(-years * 8760 h / MTTDL) */
};

void raid_reliability(const struct raid_layout *l, const struct raid_reliability_in *in,
		      struct raid_reliability *out);

extern const char raid_mttdl_caveat[];

/* --- the seeds' partial-stripe derivation (RAID 5 on the ICH9R) --- */

/* Penalty = cacheless small-write latency of the array - one member's seek. */
double raid_partial_penalty(double array_small_write_s, double member_seek_s);
/* A large random write: one seek and a partial-stripe penalty at each end. */
double raid_large_write_latency(double member_seek_s, double penalty_s);
/* The write STR behind `iops` writes of `size` bytes that each pay `latency_s`. */
double raid_str_from_iops(uint64_t size, double iops, double latency_s);

/* --- performance --- */

/*
 * The head mechanics of a hard-disk member (raid_mech.c), when known
 * (rev_s > 0; 0 for an SSD or a member whose mechanics are not given): what
 * the member's own figures cannot tell about an array.
 *  - Nearer-mirror reads. With two mirrors, each read going to the mirror
 *    whose head is nearer, the seek is the nearer head's. For two heads at
 *    independent uniform positions X1, X2 and a target Y (stroke 1),
 *        P(D > d) = (1 - 2d)^3 + 2/3 [(1 - d)^3 - (1 - 2d)^3]   (d <= 1/2)
 *                   2/3 (1 - d)^3                              (d >  1/2)
 *    and E[D] = 5/24 against 1/3 for one head; but the heads are not
 *    independent: the head that reads stays where it read, so the two
 *    spread apart (E[D] = 0.162 in the stationary state). seek_nearer_s is
 *    the seek curve's mean over that stationary state; a mirror read at
 *    QD1 costs the member's own read less seek_mean_s - seek_nearer_s.
 *    An n-way mirror (RAID 1 of n > 2) reads from the nearest of n heads:
 *    seek_nearest_s, from a simulation of the n-head chain (48^n states
 *    are too many to iterate), raid_mech_nearest_seek.
 *  - Parallel member IOs. A phase of k member IOs at independent heads
 *    ends with the slowest: E[max of k (seek + rotational wait)] exceeds
 *    the mean by slowest_excess_s[k-1]. Mirrored writes move heads that are
 *    together (same seek): only the slowest rotational wait counts,
 *    rev x (k / (k + 1) - 1/2) (raid_mech_rotation_excess).
 *  - Rewrites. Read-modify-write writes the sectors it has just read: the
 *    head is on the track, the sectors come back one revolution after
 *    they were read: the write phase takes rev_s, not a random write.
 */
#define RAID_MECH_HEADS 8	/* mirrors whose nearest head is derived; more count as 8 */

struct raid_mech {
	double rev_s;			/* one revolution; 0: not known */
	double seek_mean_s;		/* between two independent positions */
	double seek_nearer_s;		/* the nearer of two mirrored heads */
	double slowest_excess_s[RAID_MAX_DISKS];
	/* the nearest of k heads, k = 3 .. nearest_heads (index k - 3), by simulating the chain */
	double seek_nearest_s[RAID_MECH_HEADS - 2];
	unsigned nearest_heads;		/* derived up to (2 .. RAID_MECH_HEADS) */
};

/*
 * Derive the figures from one revolution, the seek curve seek_s(ctx, x) in
 * seconds at distance fraction x of the stroke (0 < x <= 1), and the
 * ratio of the inner to the outer zone rate (positions are uniform over
 * the capacity: denser in track terms at the outer edge; 1 when unknown).
 * `heads`: the most mirrored heads a read chooses among (raid_copies; the
 * nearest of 3 or more is simulated, 100 000 reads each, so only as far as
 * asked). 0 or -ENOMEM.
 */
int raid_mech_derive(double rev_s, double inner_outer,
		     double (*seek_s)(const void *ctx, double x), const void *ctx,
		     unsigned heads, struct raid_mech *out);
/* slowest_excess_s at k parallel IOs (linear between whole k); 0 when k <= 1 or unknown. */
double raid_mech_slowest_excess(const struct raid_mech *m, double k);
double raid_mech_rotation_excess(const struct raid_mech *m, double k);
/*
 * The mean seek of the nearest of `heads` mirrored heads (2: seek_nearer_s;
 * more than RAID_MECH_HEADS count as that many; at most the heads derived);
 * 0 unknown.
 */
double raid_mech_nearest_seek(const struct raid_mech *m, unsigned heads);

/*
 * One member. iops_at(ctx, op, size, depth): random IOs of `size` bytes at
 * `depth` outstanding, IO/s (> 0), or 0 when the member's data cannot say.
 */
struct raid_member {
	const char *name;
	bool ssd;
	uint64_t capacity;		/* bytes; 0 unknown */
	double str_bps[2];		/* by enum io_op; 0 unknown */
	double penalty_s[2];
	double (*iops_at)(const void *ctx, enum io_op op, uint64_t size, unsigned depth);
	const void *ctx;
	struct raid_mech mech;		/* rev_s 0: no mechanics (SSD, or not known) */
	/*
	 * A hard disk whose write-back cache takes the writes: it acknowledges
	 * at once while it has room and destages on its own, so in an array its
	 * writes run at its deep-queue rate whatever the host's depth.
	 */
	bool write_cached;
};

/* What one array IO costs the members. */
struct raid_io_shape {
	double reads, writes;		/* expected member IOs per array IO */
	uint64_t member_bytes;		/* size of each */
	unsigned phases;		/* 1, or 2 when reads precede the writes */
	double partial_rows;		/* parity RAID writes: partly covered rows */
	bool reconstruct;		/* reconstruct-write chosen over RMW */
	bool nearer;			/* RAID 1/10 reads: the nearer mirror's head */
	double copies;			/* RAID 1/10: mirrors of each chunk */
	bool rewrite;			/* RMW: every write rewrites what was just read */
};

/*
 * The member IOs of one random array IO of `size` bytes at offsets that are
 * multiples of `align` (0: of size). Parity RAID picks RMW or
 * reconstruct-write by the member IOs each needs: both write the same, so
 * the one with fewer reads (RMW on ties).
 */
void raid_io_shape(const struct raid_layout *l, enum io_op op, uint64_t size, uint64_t align,
		   struct raid_io_shape *out);

/* Expected chunks of `unit` bytes that an IO of `size` at multiples of `align` spans. */
double raid_units_spanned(uint64_t size, uint64_t align, uint64_t unit);

/*
 * Exact mean-value analysis of `jobs` customers over `stations` identical
 * groups: group g has count[g] stations, each visited with probability
 * visit[g] per cycle and serving at rate mu[g][k-1] with k customers present
 * (k = 1..jobs; the caller gives jobs entries). Throughput in cycles/s.
 * -ENOMEM when out of memory.
 */
int raid_mva(unsigned groups, const unsigned *count, const double *visit,
	     const double *const *mu, unsigned jobs, double *throughput);

struct raid_perf {
	double iops, mib_s, mean_lat_s;
	struct raid_io_shape shape;
};

/*
 * Random IOs of `op`, `size` bytes, `qd` outstanding on the array whose
 * member i is members[i] (i < disks). -EINVAL with a message when a member
 * cannot give its rate at the size, -ENOMEM.
 *
 * `shared` reads each member's IOPS-vs-depth curve another way: the growth
 * of its latency with depth, below its peak rate, belongs to the path all
 * members share (host, driver, HBA), not to the member. Each member is then
 * an FCFS station at its peak rate, behind one delay station whose delay at
 * M IOs in flight is the one that makes a single member reproduce its own
 * curve at M (calibrated at doubling depths where the curve is below 90 %
 * of its peak, held beyond). Both readings give the member's own curve for
 * a one-member array; they differ in how the array gains from spreading.
 */
int raid_random_perf(const struct raid_layout *l, const struct raid_member *const *members,
		     enum io_op op, uint64_t size, uint64_t align, unsigned qd, bool shared,
		     struct raid_perf *out, struct errmsg *err);

/*
 * Large transfers on the array, first order: the penalty (the slowest
 * member's; writes on parity RAID add partial_s per partly covered row) and
 * the STR (members serving in parallel x the slowest member's STR).
 * partial_s < 0: derive it from the members (read phase L_read + chunk/R).
 * Fills 0 where a member lacks the direction's figures.
 */
struct raid_first_order {
	double penalty_s[2];
	double str_bps[2];
	double partial_s;		/* parity RAID writes; 0 otherwise */
	uint64_t row_bytes;		/* data per row: the partial-stripe unit */
};

void raid_first_order(const struct raid_layout *l, const struct raid_member *const *members,
		      double partial_s, struct raid_first_order *out);

/* Seconds per IO of `size` at queue depth 1 from the first-order figures. */
double raid_first_order_seconds(const struct raid_first_order *fo, enum io_op op,
				uint64_t size, uint64_t align);

/* --- the network --- */

/*
 * TCP payload bits per second over Ethernet at `line_bps` with `mtu`:
 * per frame MTU - 20 (IPv4) - 32 (TCP with timestamps, Linux's default) of
 * payload on MTU + 38 bytes of wire time (preamble and SFD 8, header 14,
 * FCS 4, inter-frame gap 12). 0 when the MTU is below 576 or above 65535.
 */
double raid_link_payload_bps(double line_bps, unsigned mtu);

/*
 * "100mbe", "1gbe", "10gbe", "25gbe" or a rate "2.5gbit", "800mbit": bits/s,
 * a plain decimal number (no blank, sign or hex) and a unit. -EINVAL for
 * other text, -ERANGE above RAID_LINK_MAX_BPS.
 */
#define RAID_LINK_MAX_BPS 1e15		/* 1000000gbit: far above any link, still finite */
int raid_link_parse(const char *text, double *line_bps);

#endif
