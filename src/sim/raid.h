/*
 * raid.h — the simulated RAID array (models "raid0", "raid1", "raid10",
 * "raid5", "raid6"): a controller in front of `disks` simulated members,
 * each a preset drive built through spec.h. Shared by raid.c (the array at
 * work), raid_config.c (parameters, check, describe, constructor) and the
 * unit test; the rest of the program sees device.h only.
 *
 *   sim:raid5,disks=4,stripe=64k,member=wd6400aaks,controller_cache=on,cache_mib=4
 *
 * Layout: chunks of `stripe` bytes, one per member in each row. RAID 0
 * stripes the chunks over all members; RAID 1 mirrors the whole volume on
 * every member; RAID 10 stripes over mirrored pairs (members 2k and 2k+1);
 * RAID 5 and 6 rotate parity left-symmetrically: in row r the P chunk is
 * on member n-1 - (r mod n), Q (RAID 6) on the member after it, and data
 * chunk i on member (P + 1 + i) mod n (RAID 6: P + 2 + i).
 */
#ifndef IOMODEL_SIM_RAID_H
#define IOMODEL_SIM_RAID_H

#include <stdbool.h>
#include <stdint.h>

#include "model/raid.h"
#include "sim/device.h"
#include "util/errmsg.h"

enum raid_member_cache { MEMBER_CACHE_PRESET, MEMBER_CACHE_ON, MEMBER_CACHE_OFF };

/* One field per entry of the parameter table (raid_config.c). */
struct raid_sim_config {
	unsigned level;			/* enum raid_level, fixed by the model's name */
	uint64_t disks;
	uint64_t stripe;		/* bytes per chunk */
	unsigned member;		/* index into raid_member_names */
	unsigned member_write_cache;	/* enum raid_member_cache */
	uint64_t member_capacity;	/* bytes; 0: the member's own */
	unsigned member_state;		/* SSD members' starting state: 0 the preset's, else
					 * raid_member_state_names[i] passed as state= */
	bool controller_cache;		/* write-back cache in the controller */
	uint64_t cache_mib;
	uint64_t destage_depth;		/* cached writes destaged at once */
	uint64_t failed;		/* members 0 .. failed-1 are gone */
	double controller_us;		/* controller time per host command */
	uint64_t bad_member;		/* the member the faults below hit (verified runs) */
	double bad_member_lost_write_rate;	/* a write to it acknowledged, not stored */
	double bad_member_bitflip_rate;		/* a read from it returns a flipped bit */
	bool poll_members;	/* no parameter (0): the unit test's reference, raid.c */
};

/*
 * Member j of a row whose P chunk is on member p0: P, Q (RAID 6), then the
 * data chunks, in member order round the n members (p0, j < n).
 */
static inline unsigned raid_sim_row_member(unsigned n, unsigned p0, unsigned j)
{
	return p0 + j < n ? p0 + j : p0 + j - n;
}

/* The P chunk of a row `cycle` rows into its cycle of n (row % n): left-symmetric. */
static inline unsigned raid_sim_p0(unsigned n, unsigned cycle)
{
	return n - 1 - cycle;
}

/* Parity member k (0: P, 1: Q) and data member i of row `row` (the layout above). */
static inline unsigned raid_sim_parity_member(unsigned n, uint64_t row, unsigned k)
{
	return raid_sim_row_member(n, raid_sim_p0(n, (unsigned)(row % n)), k);
}

static inline unsigned raid_sim_data_member(unsigned n, unsigned parity, uint64_t row, unsigned i)
{
	return raid_sim_row_member(n, raid_sim_parity_member(n, row, 0), parity + i);
}

/* Drives a member can be: presets of device.h and the bare models. */
extern const char *const raid_member_names[];
/* Values of the array's `state`: "preset", then the SSD's own states. */
extern const char *const raid_member_state_names[];

/* The layout of a configuration, for model/raid.h. */
static inline struct raid_layout raid_sim_layout(const struct raid_sim_config *c)
{
	return (struct raid_layout){ (enum raid_level)c->level, (unsigned)c->disks, c->stripe };
}

/*
 * The spec text of member i ("wd6400aaks,write_cache=off") into buf; the
 * array gives member i the seed seed + i.
 */
void raid_sim_member_spec(const struct raid_sim_config *c, char *buf, size_t len);

/* Build the array of a checked configuration (raid.c). */
int raid_sim_create(const struct raid_sim_config *c, uint64_t seed, struct sim_device **out,
		    struct errmsg *err);

extern const struct sim_model sim_raid0_model, sim_raid1_model, sim_raid10_model,
	sim_raid5_model, sim_raid6_model;

#endif
