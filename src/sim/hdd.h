/*
 * hdd.h — internals of the simulated hard disk (sim_hdd_model), shared by
 * its files and its unit test; the rest of the program sees only device.h.
 *
 *   hdd_model.c   the configuration: parameter table, defaults, check, describe
 *   hdd_geom.c    geometry: zones, position ↔ track coordinate, rotation, seek curve
 *   hdd_cache.c   the buffer: read-ahead stream, read segments, write-back cache
 *   hdd.c         the drive: queueing, the head's work, the device operations
 *   hdd_sched.c   scheduling: the command queue, positioning times, the picks
 *   hdd_presets.c calibrated drives
 *
 * Positions on the platter are "track coordinates" u in 32.32 fixed point:
 * the high 32 bits count logical tracks from the outer edge (a logical track
 * is what passes under the heads in one revolution), the low 32 bits are the
 * angle as a fraction of a revolution. Because a drive reads one track per
 * revolution whatever the zone, reading from u to u' takes exactly
 * (u' − u) revolutions, and the sector at u passes under the head whenever the
 * platter's phase equals the low 32 bits of u. LBA 0 is at u = 0.
 */
#ifndef IOMODEL_SIM_HDD_H
#define IOMODEL_SIM_HDD_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/device.h"
#include "sim/heap.h"
#include "sim/params.h"
#include "util/bug.h"
#include "util/errmsg.h"

/* The configuration, one field per entry of hdd_params[] (hdd_model.c). */
struct hdd_config {
	uint64_t capacity;		/* bytes, a multiple of 512 */
	uint64_t rpm;
	double outer_mib_s;		/* media rate at LBA 0 */
	double inner_mib_s;		/* media rate at the last LBA */
	uint64_t zones;
	struct sim_list zone_cyls;	/* a zone table: cylinders per zone, outer first … */
	struct sim_list zone_sectors;	/* … and sectors per track in each (n = 0: none) */
	double seek_track_ms;
	double seek_avg_ms;
	double seek_full_ms;
	uint64_t surfaces;		/* tracks per cylinder */
	double head_switch_ms;
	double track_skew_ms;		/* a transfer crossing to the next track of a cylinder */
	double cylinder_skew_ms;	/* … to the next cylinder */
	/* DiskSim's layout (zone_track_skew given; hdd_geom.c): per zone, in sectors */
	struct sim_list zone_track_skew, zone_cyl_skew, zone_first_sector, zone_front_sectors;
	struct sim_list zone_spare_tracks;	/* spare tracks at each zone's end */
	struct sim_list zone_slips;		/* slipped tracks in each zone … */
	struct sim_list slip_tracks;		/* … their numbers in their zone, zone by zone */
	uint64_t seek_knee_cyl;		/* 0: the fitted curve; else DiskSim's HPL equation */
	double seek_eq_a_ms, seek_eq_sqrt_ms, seek_eq_c_ms, seek_eq_lin_ms;
	struct sim_list seek_first_ms;	/* seeks of 1, 2, … cylinders, in place of the curve */
	double write_settle_ms;
	double cmd_overhead_ms;
	double access_overhead_ms;
	double write_overhead_ms;
	double read_hit_overhead_ms;
	double read_hit_jump_ms;	/* a read hit that does not continue the read before */
	double after_write_hit_ms, after_write_miss_ms, after_write_write_ms;
	double bus_mib_s;
	double bus_write_mib_s;		/* 0: bus_mib_s */
	double read_watermark;
	unsigned read_reconnect;	/* enum hdd_read_reconnect */
	double read_reselect_ms;	/* a read miss: from its water mark to its data's transfer */
	double read_done_ms;		/* … from the end of that transfer to its completion */
	uint64_t cache_mib;
	uint64_t cache_segments;
	uint64_t segment_bytes;		/* 0: cache / segments */
	unsigned read_ahead;		/* enum hdd_read_ahead */
	uint64_t read_ahead_max;	/* bytes the stream runs past the host (0: a segment) */
	bool stream_takes_segment;	/* a new stream drops the oldest read segment at once */
	bool write_cache;
	double write_watermark;
	unsigned write_pace;		/* enum hdd_write_pace */
	double write_done_ms;
	double write_redisconnect_ms;
	double redisconnect_seek_ms;	/* such a write's seek starts this much later */
	double redisconnect_done_ms;	/* change of write_done_ms after a further disconnect */
	double write_prep_ms;		/* a write's data cross the bus this long after its overhead */
	double write_seek_min_ms;
	uint64_t write_start_sectors;
	bool continue_switch;		/* a command continuing onto the next track switches heads */
	uint64_t wcache_extents;
	uint64_t ncq_depth;
	double ncq_aging;
	double ncq_fuzz;
};

/* How far the drive reads ahead after a read miss (read_ahead). */
enum hdd_read_ahead {
	HDD_AHEAD_SEGMENT,		/* one segment beyond what the host has read, hits too */
	HDD_AHEAD_TRACK,		/* to the end of the track after the read (and of the
					   next one when the read crossed a track), no further */
	HDD_AHEAD_WINDOW,		/* one segment past the read, over tracks, no further */
};

/* When a read miss's transfer to the host starts (read_reconnect). */
enum hdd_read_reconnect {
	HDD_RECONNECT_SHARE,		/* read_watermark of its media time has passed */
	HDD_RECONNECT_SECTORS,		/* read_watermark of its sectors (rounded down, at
					   least one) are read: DiskSim's water mark by size */
};

/* When a write-through's media transfer may start (write_pace). */
enum hdd_write_pace {
	HDD_PACE_WATERMARK,		/* once write_watermark of its data came */
	HDD_PACE_SECTOR,		/* each sector once its data came: a head that would
					   overtake the data loses a revolution */
};

/* --- geometry (hdd_geom.c) --- */

#define HDD_MAX_ZONES 256
#define HDD_ZONE_LUT 1024		/* zone lookup slices of the LBA range */
#define HDD_SEEK_BUCKETS 2048		/* seek table: buckets over the full stroke */
#define HDD_WITHIN_SLICES 256		/* inverse seek table: slices of the full stroke time */
#define HDD_NEAR_SEEKS 64		/* seeks this short (cylinders) are looked up exactly */

/*
 * The seek curve, in ms, of x = distance / full stroke (0 < x <= 1):
 * a + b·√x up to the knee, c + d·x beyond it, continuous with a continuous
 * slope, through seek_track at one track and seek_full at the full stroke,
 * and averaging seek_avg over pairs of positions drawn uniformly over the
 * capacity.
 */
struct hdd_seek_curve {
	double a, b, c, d;
	double knee;			/* x where the curve turns linear */
};

/*
 * A zone, or with DiskSim's layout an extent: a run of sectors on consecutive
 * tracks. Extents may leave gaps of track coordinate between them (slipped
 * and spare tracks): u1 ends the extent's data, the next u0 may lie beyond.
 */
struct hdd_zone {
	uint64_t s0;			/* first byte */
	uint64_t u0;			/* track coordinate of s0 */
	uint64_t u1;			/* end of its data (the next u0 without layout) */
	uint64_t skew_base;		/* layout: hdd_skew_of(t) = skew_base + f(t - trk0) */
	uint64_t tskew, cskew;		/* layout: the zone's skews, revolutions (32.32) */
	uint32_t trk0;			/* layout: the zone's first track (starts a cylinder) */
	uint64_t u_per_byte;		/* 2^64 / bytes per track */
	uint64_t bytes_per_u;		/* bytes per track · 2^32 */
	double track_bytes;
};

/* What the per-IO lookups read of a zone (struct hdd_zone's fields): two to a cache line. */
struct hdd_zone_hot {
	uint64_t s0, u0, u_per_byte, bytes_per_u;
};

struct hdd_geom {
	uint64_t capacity;
	uint32_t tracks;		/* logical tracks over the stroke */
	uint32_t cylinders;		/* tracks / surfaces, rounded up: seek distances count these */
	uint32_t surfaces;
	uint32_t cyl_shift;		/* trk / surfaces = trk × cyl_mul >> cyl_shift (trk < 2^31) */
	uint64_t cyl_mul;
	double rev_ns;			/* one revolution */
	uint64_t rev_fp;		/* rev_ns · 2^32: revolutions (32.32) → ns via >> 64 */
	uint64_t phase_k;		/* 2^64 / rev_ns: ns → revolutions (32.32) via >> 32 */
	unsigned nzones;
	uint64_t lut_mul;		/* byte → slice of zone_lut via multiply-shift */
	uint64_t ulut_mul;		/* track coordinate → slice of zone_ulut */
	struct hdd_zone_hot zhot[HDD_MAX_ZONES];	/* zone[]'s fields the lookups read */
	uint8_t zone_lut[HDD_ZONE_LUT];	/* zones fit a byte: HDD_MAX_ZONES is 256 */
	uint8_t zone_ulut[HDD_ZONE_LUT];
	struct hdd_zone zone[HDD_MAX_ZONES];
	/* skews in revolutions (32.32): track t's first sector lies hdd_skew_of(t) after track 0's */
	bool skewed;
	bool layout;			/* DiskSim's layout: per-extent skews, gaps in u */
	uint64_t track_skew, cyl_skew;
	uint64_t skew_slack;		/* a sector (of the inner zone) less a byte, in u */
	struct hdd_seek_curve curve;
	uint64_t seek_mul;		/* tracks → bucket (32.32) via multiply */
	uint64_t bucket_tracks;		/* bucket → tracks (32.32) via multiply */
	uint64_t within_mul;		/* ns → slice of seek_within via multiply */
	uint32_t seek_within[HDD_WITHIN_SLICES + 1];
	uint32_t seek_tab[HDD_SEEK_BUCKETS + 2];	/* ns at bucket edges (+1 spare) */
	uint32_t near_seek[HDD_NEAR_SEEKS];	/* ns of the shortest seeks, 0 for 0 */
};

/* Tracks over the stroke for `c` (at least one per zone), 0 if it has none. */
uint64_t hdd_geom_tracks(const struct hdd_config *c);
/* Cylinders over the stroke: tracks / surfaces, rounded up. */
uint64_t hdd_geom_cylinders(const struct hdd_config *c);
/* DiskSim's HPL seek equation of `c` (seek_knee_cyl set) at d >= 1 cylinders, in ms. */
double hdd_seek_equation_ms(const struct hdd_config *c, double d);
/*
 * Fit the seek curve of `c` (whose other figures are valid). -EINVAL with a
 * message when seek_avg cannot be reached between the one-track and the
 * full-stroke times with a curve of this shape.
 */
int hdd_seek_fit(const struct hdd_config *c, struct hdd_seek_curve *out, struct errmsg *err);
/* The curve at distance fraction x, in ms. */
double hdd_seek_curve_ms(const struct hdd_seek_curve *sc, double x);
/* Blocks of 512 bytes DiskSim's layout of `c` holds (zone table, fronts, spares). */
uint64_t hdd_layout_blocks(const struct hdd_config *c);
/* Build the tables of a checked configuration. */
int hdd_geom_init(struct hdd_geom *g, const struct hdd_config *c, struct errmsg *err);

/* Mean media rate over the capacity, harmonic (what big random IOs see), MiB/s. */
double hdd_geom_harmonic_mib_s(const struct hdd_geom *g);
/* Media rate of zone z, MiB/s. */
double hdd_geom_zone_mib_s(const struct hdd_geom *g, unsigned z);

static inline unsigned hdd_zone_of(const struct hdd_geom *g, uint64_t s)
{
	unsigned z = g->zone_lut[(uint64_t)(((unsigned __int128)s * g->lut_mul) >> 64)];

	while (z + 1 < g->nzones && s >= g->zhot[z + 1].s0)
		z++;
	return z;
}

/* Track coordinate of byte offset s in zone z (hdd_zone_of(g, s)). */
static inline uint64_t hdd_u_in_zone(const struct hdd_geom *g, uint64_t s, unsigned z)
{
	const struct hdd_zone_hot *zn = &g->zhot[z];

	return zn->u0 + (uint64_t)(((unsigned __int128)(s - zn->s0) * zn->u_per_byte) >> 32);
}

/* Track coordinate of byte offset s (0 <= s <= capacity). */
static inline uint64_t hdd_u_of(const struct hdd_geom *g, uint64_t s)
{
	return hdd_u_in_zone(g, s, hdd_zone_of(g, s));
}

/* The zone (extent) at track coordinate u < tracks << 32: the last whose u0 <= u. */
static inline unsigned hdd_zone_at(const struct hdd_geom *g, uint64_t u)
{
	unsigned z = g->zone_ulut[(uint64_t)(((unsigned __int128)u * g->ulut_mul) >> 64)];

	while (z + 1 < g->nzones && u >= g->zhot[z + 1].u0)
		z++;
	return z;
}

/* hdd_s_of(g, u) for u < tracks << 32 in zone z (hdd_zone_at(g, u)). */
static inline uint64_t hdd_s_in_zone(const struct hdd_geom *g, uint64_t u, unsigned z)
{
	uint64_t s;

	if (g->layout && u >= g->zone[z].u1)	/* in a gap: the next extent's first byte */
		return z + 1 < g->nzones ? g->zone[z + 1].s0 : g->capacity;
	/* One byte of slack: s_of(u_of(s)) is s, not the sector before. */
	s = g->zhot[z].s0 + 1 +
	    (uint64_t)(((unsigned __int128)(u - g->zhot[z].u0) * g->zhot[z].bytes_per_u) >> 64);
	return s >= g->capacity ? g->capacity : s / 512 * 512;
}

/* Byte offset (sector aligned, rounded down) at track coordinate u. */
static inline uint64_t hdd_s_of(const struct hdd_geom *g, uint64_t u)
{
	if (u >= (uint64_t)g->tracks << 32)
		return g->capacity;
	return hdd_s_in_zone(g, u, hdd_zone_at(g, u));
}

/*
 * hdd_s_of(g, u) where zone z starts at or before u (zhot[z].u0 <= u): the
 * zone found from z onwards, without the lookup table (whose line a
 * position just read may not have in the cache).
 */
static inline uint64_t hdd_s_of_from(const struct hdd_geom *g, uint64_t u, unsigned z)
{
	BUG_ON(g->zhot[z].u0 > u);
	if (u >= (uint64_t)g->tracks << 32)
		return g->capacity;
	while (z + 1 < g->nzones && u >= g->zhot[z + 1].u0)
		z++;
	BUG_ON(z != hdd_zone_at(g, u));
	return hdd_s_in_zone(g, u, z);
}

/* Time to pass du of track coordinate under the head, in ns (rounded down). */
/* The cylinder of track trk. */
static inline uint32_t hdd_cyl_of(const struct hdd_geom *g, uint32_t trk)
{
	uint32_t cyl = (uint32_t)(((uint64_t)trk * g->cyl_mul) >> g->cyl_shift);

	BUG_ON(trk >= 1u << 31 || cyl != trk / g->surfaces);
	return cyl;
}

static inline uint64_t hdd_rev_ns(const struct hdd_geom *g, uint64_t du)
{
	return (uint64_t)(((unsigned __int128)du * g->rev_fp) >> 64);
}

/*
 * Skew accumulated from track 0 to track trk, in revolutions (32.32): each
 * crossing to the next track costs track_skew, to the next cylinder (every
 * `surfaces` tracks) cyl_skew. 0 without skew. With DiskSim's layout the
 * zone's skews, and the gaps' whole revolutions taken off (modulo 2^64): the
 * low 32 bits are still the angle of the track's first sector, and
 * hdd_xfer_u's difference the time from one track's data to the next's.
 */
uint64_t hdd_layout_skew_of(const struct hdd_geom *g, uint32_t trk);
uint64_t hdd_layout_xfer_u(const struct hdd_geom *g, uint64_t u, uint64_t u_end);

static inline uint64_t hdd_skew_of(const struct hdd_geom *g, uint32_t trk)
{
	uint64_t cyls = hdd_cyl_of(g, trk);

	if (g->layout)
		return hdd_layout_skew_of(g, trk);

	return (uint64_t)(trk - cyls) * g->track_skew + cyls * g->cyl_skew;
}

/*
 * The track whose skew a sector starting at u takes: tracks do not hold whole
 * sectors, and a sector that starts less than a sector before a track's start
 * counts as that track's (its data are mostly there).
 */
static inline uint32_t hdd_skew_track(const struct hdd_geom *g, uint64_t u)
{
	return (uint32_t)((u + g->skew_slack) >> 32);
}

/* Platter angle of the sector at track coordinate u (the skew of its track added). */
static inline uint32_t hdd_angle_of(const struct hdd_geom *g, uint64_t u)
{
	return (uint32_t)u + (g->skewed ? (uint32_t)hdd_skew_of(g, hdd_skew_track(g, u)) : 0);
}

/*
 * Revolutions (32.32) a transfer from u to u_end (> u) takes: u_end − u, and
 * the skew of every track crossed (the track of the byte before u_end counts).
 */
static inline uint64_t hdd_xfer_u(const struct hdd_geom *g, uint64_t u, uint64_t u_end)
{
	uint32_t first, last;

	if (!g->skewed || u_end <= u)
		return u_end - u;
	if (g->layout)
		return hdd_layout_xfer_u(g, u, u_end);
	first = hdd_skew_track(g, u);
	last = (uint32_t)((u_end - 1) >> 32);
	return u_end - u + (last > first ? hdd_skew_of(g, last) - hdd_skew_of(g, first) : 0);
}

/* Where a transfer from u reaches after `revs` revolutions (32.32), skews counted. */
uint64_t hdd_skewed_u_after(const struct hdd_geom *g, uint64_t u, uint64_t revs);

static inline uint64_t hdd_u_after(const struct hdd_geom *g, uint64_t u, uint64_t revs)
{
	return g->skewed ? hdd_skewed_u_after(g, u, revs) : u + revs;
}

/* Revolutions made in `ns`, in 32.32 track coordinate units. */
static inline uint64_t hdd_revs_in(const struct hdd_geom *g, uint64_t ns)
{
	return (uint64_t)(((unsigned __int128)ns * g->phase_k) >> 32);
}

/* The angle part of hdd_revs_in(g, ns): (uint32_t)hdd_revs_in(), from a 64-bit product. */
static inline uint32_t hdd_angle_in(const struct hdd_geom *g, uint64_t ns)
{
	return (uint32_t)((ns * g->phase_k) >> 32);
}

/*
 * Seek time for a distance in cylinders, in ns; 0 for 0. The shortest from a
 * table of their own (exact: DiskSim's equation jumps after one cylinder),
 * the others by linear interpolation between bucket edges: within 0.04 ms
 * of the curve for a 640 GB disk, and monotone like it.
 */
static inline uint32_t hdd_seek_ns(const struct hdd_geom *g, uint32_t dist)
{
	uint64_t pos = (uint64_t)dist * g->seek_mul;
	const uint32_t *e = &g->seek_tab[pos >> 32];
	uint32_t t = e[0] + (uint32_t)(((uint64_t)(e[1] - e[0]) * (uint32_t)pos) >> 32);

	return dist < HDD_NEAR_SEEKS ? g->near_seek[dist] : t;
}

/* A distance in cylinders beyond which every seek takes at least `ns`. */
static inline uint32_t hdd_seek_within(const struct hdd_geom *g, uint64_t ns)
{
	uint64_t j = ((ns * g->within_mul) >> 32) + 2;	/* a slice at or above ns */

	return g->seek_within[j < HDD_WITHIN_SLICES ? j : HDD_WITHIN_SLICES];
}

/* --- the drive (hdd.c, hdd_cache.c) --- */

/* A host command that needs the head: a read miss or a write-through. */
struct hdd_cmd {
	uint64_t ready;			/* arrival + command overhead */
	uint64_t arrival;		/* when the drive accepted it */
	uint64_t data_at;		/* a write's media transfer starts no earlier (0: any time) */
	uint64_t pos;			/* first byte */
	uint32_t cyl;
	uint32_t access;		/* its access overhead, ns */
	uint64_t key;			/* arrival · 2^64/φ ^ pos, hashed into its part of the NCQ error */
	uint32_t trk, ang;		/* start position: track, platter angle (hdd_angle_of) */
	bool write;
	bool redisconnect;		/* a write whose data come write_redisconnect_ms late */
	struct io_request *req;
};

#define HDD_QUEUE_MAX 256		/* ncq_depth's bound */
#define HDD_QUEUE_SLOTS HDD_QUEUE_MAX	/* a multiple of 8: the pick reads blocks of 8 slots */
/*
 * An array of the queue: its slots and a cache line more, unused. Arrays of
 * exactly 1 or 2 KiB would start in the same few cache sets (every 4 KiB),
 * so the fields of the first slots, which every queue uses, would evict
 * each other; a line apart they fall in distinct sets (at most two of the
 * first 32 slots' lines in a set).
 */
#define HDD_QROW(type) (HDD_QUEUE_SLOTS + 64 / sizeof(type))

/*
 * The queued hdd_cmds, one array per field so that the vector pick bounds
 * eight at a time (hdd_sched.c). Invariants (checked by hdd_queue_check() in debug
 * builds):
 *  - the slots whose bit is set in used[] hold the queued commands, len of
 *    them (<= HDD_QUEUE_MAX), all below span, the highest used slot + 1 (0
 *    when none): a command keeps its slot while queued, and a new one takes
 *    the lowest free slot, so the pick reads [0, span), not all slots;
 *  - first, next[] list those slots in arrival order, each once, and prev[]
 *    and tail list them backwards (HDD_QUEUE_NONE ends both);
 *  - seq[] grows strictly along that list (arrival numbers, below 2^63);
 *  - hash[] is a hash of the command's key (its part of the NCQ error: the
 *    high half of key × an odd constant),
 *    bias[] its arrival × ncq_aging (the aging credit, counted from time 0),
 *    bias_f[] bias - bias_base as a float rounded down, pos_lo[] the low half
 *    of pos (the pick's lower bounds, hdd_sched.c);
 *  - the other slots hold seq INT64_MAX, ready 0 and bias_f +infinity, and
 *    zeros or a former command's other fields (so in-range cylinders): a
 *    free slot or a block read past span has no eligible and no unready
 *    command, and no finite bound.
 */
#define HDD_QUEUE_NONE 0xffff
struct hdd_queue {
	uint64_t ready[HDD_QROW(uint64_t)], arrival[HDD_QROW(uint64_t)];
	uint64_t data_at[HDD_QROW(uint64_t)], pos[HDD_QROW(uint64_t)];
	uint64_t seq[HDD_QROW(uint64_t)], bias[HDD_QROW(uint64_t)], trk[HDD_QROW(uint64_t)];
	uint32_t ang[HDD_QROW(uint32_t)], cyl[HDD_QROW(uint32_t)], access[HDD_QROW(uint32_t)];
	uint32_t hash[HDD_QROW(uint32_t)], pos_lo[HDD_QROW(uint32_t)];
	float bias_f[HDD_QROW(float)];
	uint64_t write[HDD_QROW(uint64_t)];	/* all ones for a write, 0 for a read */
	bool redisconnect[HDD_QROW(bool)];
	struct io_request *req[HDD_QROW(struct io_request *)];
	uint16_t next[HDD_QROW(uint16_t)], prev[HDD_QROW(uint16_t)];
	uint64_t used[HDD_QUEUE_SLOTS / 64];	/* the slots that hold a command */
	unsigned first, tail;		/* oldest and newest slot */
	unsigned len;
	unsigned span;			/* the highest used slot + 1 */
	unsigned nwrite;		/* writes among them */
	uint64_t next_seq;
	uint64_t aging_fp;		/* ncq_aging, 16.16, for bias[] */
	uint64_t bias_base;		/* at most every queued bias */
	uint64_t ready_ub;		/* at least every queued ready */
	/* a bound under the seek curve (hdd_sched.c): seek_lb + (d - 1) × seek_lb_slope / 2^16 … */
	uint64_t seek_lb, seek_lb_slope;
	uint32_t seek_lb_shift, seek_lb_step;	/* … >= seek_lb + ((d - 1) >> shift) × step */
	float fuzz_f, revs_f, rev_f;	/* ncq_fuzz / 2^24, 2^24 / rev_ns, rev_ns / 2^24 */
	uint32_t t_max;			/* the bounds' longest move: 64 revolutions, <= 2^30 ns */
};

/* A float no greater than x: x with its bits below the float's 24 cleared. */
static inline float hdd_float_down(uint64_t x)
{
	int drop = x >> 24 ? 40 - __builtin_clzll(x) : 0;

	return (float)(x >> drop << drop);
}

/* A dirty extent of the write-back cache (kept in offset order). */
struct hdd_dirty {
	uint64_t off, len;
	uint64_t ready;			/* its data are all in the buffer */
	uint32_t trk, ang, cyl;
};

#define HDD_SEG_REGIONS 256		/* regions of the capacity counted for the read segments */

/* A write waiting for room in the write-back cache. */
struct hdd_waiter {
	struct io_request *req;
	uint64_t ready;
};

/*
 * The read-ahead stream: after a media read ends at `start` (time t0,
 * position u0) the head goes on reading while it has nothing else to do,
 * up to one segment beyond what the host has read (`consumed`), and never
 * beyond `limit`. It stops when the head is given other work.
 */
struct hdd_stream {
	bool active;
	uint64_t lo;			/* first byte of the read that began it */
	uint64_t start;
	uint64_t u0, t0;
	uint64_t consumed;
	uint64_t limit;			/* TRACK, WINDOW: the end of what it reads ahead */
	unsigned zone;			/* the zone of start: at or before all it reads */
};

/* Requests the host has handed over but the drive has not yet accepted. */
struct hdd_backlog {
	struct hdd_waiter *w;		/* ring; ready holds the submission time */
	unsigned alloc, head, len;
};

struct hdd {
	struct sim_device dev;
	struct hdd_config cfg;
	struct hdd_geom geom;
	/* fixed costs, ns */
	uint64_t cmd_ns, settle_ns, switch_ns;
	/* controller time of a read hit, a media access, a write: [1] after a write */
	uint64_t hit_ns[2], access_ns[2], write_ns[2];
	uint64_t jump_ns;		/* read_hit_jump_ms */
	uint64_t read_end;		/* byte after the last host read accepted */
	uint64_t access_min_ns;
	bool last_write;		/* the host command accepted last was a write */
	uint64_t watermark_fp;		/* read_watermark, 0.32 */
	uint64_t write_mark_fp;		/* write_watermark, 0.32 */
	uint64_t bus_fp;		/* ns per byte, 32.32 */
	uint64_t bus_w_fp;		/* the same for write data */
	uint64_t write_done_ns, redisconnect_ns, write_seek_min_ns;
	uint64_t reseek_ns;		/* redisconnect_seek_ms */
	uint64_t redone_ns;		/* write_done_ns of a write with a further disconnect */
	uint64_t read_reselect_ns, read_done_ns, write_prep_ns;
	uint64_t last_write_end;	/* byte after the last host write */
	uint64_t phase0;		/* platter angle at time 0, as ns of rotation */
	uint64_t aging_fp;		/* ncq_aging, 16.16 */
	uint64_t fuzz_fp;		/* ncq_fuzz, 16.16: error of the drive's estimates */
	uint64_t seg_bytes, cache_bytes;
	uint64_t ahead_bytes;		/* the stream stops this far past the host's reads */
	/* head */
	uint64_t head_free;		/* the head is busy until then */
	uint64_t head_pos;		/* byte after the last one transferred */
	uint64_t head_u;
	bool destaging;			/* the head's current work is a destage */
	uint64_t destage_off, destage_len;
	/* buffer */
	struct hdd_stream stream;
	/*
	 * The read segments: [seg_lo[i], seg_hi[i]) recently read, i < nseg, and
	 * after them zeros (none) up to an even count, so the test reads pairs.
	 */
	uint64_t *seg_lo, *seg_hi;
	unsigned nseg, seg_next;
	/*
	 * seg_count[r]: read segments that hold a byte of region r (bytes
	 * r << seg_shift onwards; capacity >> seg_shift < HDD_SEG_REGIONS), so a
	 * read whose region holds none misses without a look at them.
	 */
	unsigned seg_shift;
	uint8_t seg_count[HDD_SEG_REGIONS];
	struct hdd_dirty *dirty;	/* wcache_extents slots, in no order (hdd_dirty_at()) */
	uint16_t *dirty_order;		/* the slots of the dirty extents in offset (so track) order */
	uint16_t *dirty_free;		/* [0, wcache_extents - ndirty): the free slots */
	unsigned ndirty;
	uint64_t dirty_bytes;		/* includes the extent being destaged */
	struct hdd_waiter *wait;	/* ring of ncq_depth */
	unsigned wait_head, nwait;
	/* command queue */
	struct hdd_queue *queue;
	/*
	 * The lone command that needs the head, kept beside the queue (solo_on),
	 * never both: at QD 1 the queue's arrays are never touched. A second
	 * command moves it into the queue first (arrival order kept).
	 */
	struct hdd_cmd solo;
	bool solo_on;
	bool pick_avx2;			/* bound queued commands eight at a time (x86-64 AVX2) */
	unsigned tags;			/* accepted commands not yet handed back */
	struct hdd_backlog backlog;
	/*
	 * Commands whose completion time is known: done_solo alone while `done`
	 * is empty (QD 1 never touches the heap), else all in `done`, which has
	 * room for done_room (at least tags) entries.
	 */
	struct io_request *done_solo;
	uint64_t done_solo_at;
	unsigned done_room;
	struct req_heap done;
	uint64_t clock;			/* latest time the host has shown us */
	struct sim_counters count;
};

/* hdd_cache.c */
/* Time to move `bytes` over the interface, ns. */
static inline uint64_t hdd_bus_ns(const struct hdd *h, uint64_t bytes)
{
	return (uint64_t)(((unsigned __int128)bytes * h->bus_fp) >> 32);
}

/* hdd.c: the same for write data (bus_write_mib_s). */
uint64_t hdd_bus_write_ns(const struct hdd *h, uint64_t bytes);
/* A media read of [lo, start) ended at t0, head at u0 (in zone z): read ahead from start. */
void hdd_stream_start(struct hdd *h, uint64_t lo, uint64_t start, uint64_t u0, unsigned z,
		      uint64_t t0);
/* The head is given other work at t: keep what the stream read, move the head. */
void hdd_stream_stop(struct hdd *h, uint64_t t);
/* Bytes the active stream has read ahead by time t (0 when none). */
uint64_t hdd_stream_read(const struct hdd *h, uint64_t t);
/*
 * Serve a read from the buffer (dirty data, the data being destaged, the
 * read-ahead stream, a read segment): its completion time, or UINT64_MAX on
 * a miss. A hit ahead of the stream keeps the head on it (moves head_free).
 * after_write: the host command before it was a write (its controller time).
 */
uint64_t hdd_read_hit(struct hdd *h, const struct io_request *req, uint64_t now,
		      bool after_write);
/* Index of the first dirty extent that starts after byte c. */
unsigned hdd_dirty_after(const struct hdd *h, uint64_t c);
/* A new dirty extent at index i of the offset order (ndirty < wcache_extents). */
struct hdd_dirty *hdd_dirty_insert(struct hdd *h, unsigned i);
/* Take the dirty extent at index i out of the offset order. */
struct hdd_dirty hdd_dirty_remove(struct hdd *h, unsigned i);

/*
 * The dirty extent at index i of the offset order. The order is an array of
 * 16-bit slots, so an insertion or removal moves 2 bytes per later extent,
 * not a whole extent.
 */
static inline struct hdd_dirty *hdd_dirty_at(const struct hdd *h, unsigned i)
{
	return &h->dirty[h->dirty_order[i]];
}
/* Take a write into the write-back cache at time t; false when there is no room. */
bool hdd_cache_put(struct hdd *h, struct io_request *req, uint64_t t);
/* A destage has ended (at head_free): release its room, let waiting writes in. */
void hdd_destage_done(struct hdd *h);
/* The earliest known completion, UINT64_MAX when none. */
static inline uint64_t hdd_done_min(const struct hdd *h)
{
	return h->done_solo ? h->done_solo_at : req_heap_min(&h->done);
}

/* Record that req completes at t (room in `done` is kept by hdd.c). */
static inline void hdd_push_done(struct hdd *h, struct io_request *req, uint64_t t)
{
	req->complete_ns = t;
	req->result = req->length;
	if (!h->done_solo && !req_heap_count(&h->done)) {
		h->done_solo = req;
		h->done_solo_at = t;
		return;
	}
	/* Cannot fail: hdd.c keeps room for every accepted command. */
	if (h->done_solo) {		/* the older first: ties leave in push order */
		(void)req_heap_push(&h->done, h->done_solo_at, h->done_solo);
		h->done_solo = NULL;
	}
	(void)req_heap_push(&h->done, t, req);
}

/* hdd_sched.c */
/* An empty queue for drive h (its geometry and costs set). */
void hdd_queue_init(struct hdd_queue *q, const struct hdd *h);
/* Queue c (its seq is given here); the queue has room (fewer than ncq_depth). */
static inline void hdd_queue_push(struct hdd_queue *q, const struct hdd_cmd *c)
{
	unsigned w = 0, s, n = q->len++;

	while (!~q->used[w])		/* the lowest free slot */
		w++;
	s = w * 64 + (unsigned)__builtin_ctzll(~q->used[w]);
	q->used[w] |= 1ULL << (s % 64);
	q->span = s + 1 > q->span ? s + 1 : q->span;

	q->ready[s] = c->ready;
	q->ready_ub = c->ready > q->ready_ub ? c->ready : q->ready_ub;
	q->arrival[s] = c->arrival;
	q->data_at[s] = c->data_at;
	q->pos[s] = c->pos;
	q->hash[s] = (uint32_t)((c->key * 0xbf58476d1ce4e5b9ULL) >> 32);	/* mixes every bit */
	q->pos_lo[s] = (uint32_t)c->pos;
	q->bias[s] = (uint64_t)(((unsigned __int128)c->arrival * q->aging_fp) >> 16);
	if (!n)
		q->bias_base = q->bias[s];
	q->bias_f[s] = hdd_float_down(q->bias[s] - q->bias_base);
	q->seq[s] = q->next_seq++;
	q->cyl[s] = c->cyl;
	q->trk[s] = c->trk;
	q->ang[s] = c->ang;
	q->access[s] = c->access;
	q->write[s] = c->write ? UINT64_MAX : 0;
	q->nwrite += c->write;
	q->redisconnect[s] = c->redisconnect;
	q->req[s] = c->req;
	q->next[s] = HDD_QUEUE_NONE;	/* the newest: last in arrival order */
	q->prev[s] = n ? (uint16_t)q->tail : HDD_QUEUE_NONE;
	if (n)
		q->next[q->tail] = (uint16_t)s;
	else
		q->first = s;
	q->tail = s;
}

/* Take the command in `slot` out of the queue. */
void hdd_queue_remove(struct hdd_queue *q, unsigned slot);
/* When the oldest queued command is ready (the queue is not empty). */
static inline uint64_t hdd_queue_first_ready(const struct hdd_queue *q)
{
	return q->ready[q->first];
}
/* The invariants of struct hdd_queue, checked with BUG_ON (debug builds). */
#ifdef NDEBUG
static inline void hdd_queue_check(const struct hdd_queue *q)
{
	(void)q;
}
#else
void hdd_queue_check(const struct hdd_queue *q);
#endif
/* Whether this CPU runs the vector pick (AVX2, FMA, BMI2). */
bool hdd_pick_avx2_supported(void);
/*
 * The slot of the queued command to run at time T, or -1 when none is ready:
 * least estimated positioning time less the aging credit, the oldest of
 * equals; *reach is its positioning time.
 */
int hdd_pick_cmd(const struct hdd *h, uint64_t T, uint64_t *reach);
/* The same for the lone command c beside an empty queue (h->solo): whether it is ready. */
bool hdd_pick_solo(const struct hdd *h, const struct hdd_cmd *c, uint64_t T, uint64_t *reach);
/* The dirty extent to destage at time T, or -1 when none is ready (pure SPTF). */
int hdd_pick_dirty(const struct hdd *h, uint64_t T, uint64_t *reach);

/* hdd.c: build a drive from a checked configuration. */
int hdd_create(const struct hdd_config *c, uint64_t seed, struct sim_device **out,
	       struct errmsg *err);

#endif
