/*
 * raid_config.c — the RAID models as device.h sees them: one parameter table
 * shared by raid0, raid1, raid10, raid5 and raid6 (which differ in their
 * level and default member count), the checks, the figures `sim show`
 * derives, and the constructor (raid.c builds the array).
 */
#include "raid.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "sim/params.h"
#include "sim/spec.h"
#include "util/units.h"

#define F(field) offsetof(struct raid_sim_config, field)

/* Kept equal to the preset tables by tests/unit/test_sim_raid.c. */
const char *const raid_member_names[] = {
	"wd6400aaks", "ocz-core", "ridata-s25", "intel-x25m-g2", "supertalent-gx", "hdd", "ssd",
	NULL,
};

static const char *const member_cache_names[] = { "preset", "on", "off", NULL };
const char *const raid_member_state_names[] = { "preset", "fresh", "used", "trimmed", NULL };

static const struct sim_param raid_params[] = {
	{ "disks", PARAM_COUNT, F(disks), "", "members (RAID 0, 1: 2+; 10: even, 4+; 5: 3+; 6: 4+)",
	  2, RAID_MAX_DISKS, NULL },
	{ "stripe", PARAM_BYTES, F(stripe), "bytes", "chunk per member in a row, a multiple of 512",
	  512, 1 << 30, NULL },
	{ "member", PARAM_CHOICE, F(member), "", "the drive every member is (a preset or model)",
	  0, 0, raid_member_names },
	{ "member_write_cache", PARAM_CHOICE, F(member_write_cache), "",
	  "the members' own write cache: as the preset has it, on or off", 0, 0, member_cache_names },
	{ "member_capacity", PARAM_BYTES, F(member_capacity), "bytes",
	  "each member's capacity (0: the member's own)", 0, 1e18, NULL },
	{ "state", PARAM_CHOICE, F(member_state), "",
	  "SSD members' starting state: as the preset has it, fresh, used or trimmed", 0, 0,
	  raid_member_state_names },
	{ "controller_cache", PARAM_SWITCH, F(controller_cache), "",
	  "write-back cache in the controller: a write completes once cached", 0, 0, NULL },
	{ "cache_mib", PARAM_COUNT, F(cache_mib), "MiB",
	  "controller cache (the ICH9R took a few MiB of host memory)", 1, 65536, NULL },
	{ "destage_depth", PARAM_COUNT, F(destage_depth), "",
	  "cached writes the controller destages at once", 1, 1024, NULL },
	{ "failed", PARAM_COUNT, F(failed), "",
	  "failed members (the first ones): degraded mode, reconstruction reads", 0, 2, NULL },
	{ "controller_us", PARAM_NUMBER, F(controller_us), "us",
	  "controller time per host command", 0, 100000, NULL },
	{ "bad_member", PARAM_COUNT, F(bad_member), "",
	  "verified runs: the member (0 = first) the two faults below hit", 0, RAID_MAX_DISKS - 1,
	  NULL },
	{ "bad_member_lost_write_rate", PARAM_NUMBER, F(bad_member_lost_write_rate), "",
	  "verified runs: probability that a write to bad_member is not stored", 0, 1, NULL },
	{ "bad_member_bitflip_rate", PARAM_NUMBER, F(bad_member_bitflip_rate), "",
	  "verified runs: probability that a read from bad_member returns a flipped bit", 0, 1,
	  NULL },
	{ NULL, 0, 0, NULL, NULL, 0, 0, NULL },
};

static void defaults_of(void *config, enum raid_level level)
{
	*(struct raid_sim_config *)config = (struct raid_sim_config){
		.level = level, .disks = level == RAID_1 ? 2 : 4, .stripe = 65536,
		.member = 0, .member_write_cache = MEMBER_CACHE_PRESET, .controller_cache = false,
		.cache_mib = 4, .destage_depth = 32, .failed = 0, .controller_us = 0,
	};
}

static void defaults0(void *c) { defaults_of(c, RAID_0); }
static void defaults1(void *c) { defaults_of(c, RAID_1); }
static void defaults10(void *c) { defaults_of(c, RAID_10); }
static void defaults5(void *c) { defaults_of(c, RAID_5); }
static void defaults6(void *c) { defaults_of(c, RAID_6); }

/* Member failures the level survives. */
static unsigned tolerance(const struct raid_sim_config *c)
{
	switch (c->level) {
	case RAID_0: return 0;
	case RAID_1: return (unsigned)c->disks - 1;
	case RAID_10: return 1;
	case RAID_5: return 1;
	default: return 2;
	}
}

static int raid_check(const void *config, struct errmsg *err)
{
	const struct raid_sim_config *c = config;
	struct raid_layout l = raid_sim_layout(c);

	if (c->disks < raid_min_disks(l.level) || (l.level == RAID_10 && c->disks % 2))
		return errmsg_set(err, -EINVAL, "disks %llu: %s needs %s%u", (unsigned long long)c->disks,
				  raid_level_name(l.level), l.level == RAID_10 ? "an even count, at least "
				  : "at least ", raid_min_disks(l.level));
	if (c->stripe % 512)
		return errmsg_set(err, -EINVAL, "stripe %llu: expected a multiple of 512",
				  (unsigned long long)c->stripe);
	if (c->member_capacity && c->member_capacity < c->stripe)
		return errmsg_set(err, -EINVAL, "member_capacity %llu: smaller than a stripe",
				  (unsigned long long)c->member_capacity);
	if ((c->bad_member_lost_write_rate > 0 || c->bad_member_bitflip_rate > 0) &&
	    (c->bad_member >= c->disks || c->bad_member < c->failed))
		return errmsg_set(err, -EINVAL, "bad_member %llu: expected a member that is there "
				  "(%llu to %llu)", (unsigned long long)c->bad_member,
				  (unsigned long long)c->failed, (unsigned long long)c->disks - 1);
	{	/* the members' own checks, named as the array's (member_capacity, state) */
		char member[160];
		struct sim_spec spec;
		struct errmsg why;

		raid_sim_member_spec(c, member, sizeof(member));
		if (sim_spec_parse(&spec, member, &why)) {
			if (c->member_state)
				return errmsg_set(err, -EINVAL, "state %s: member %s: %s",
						  raid_member_state_names[c->member_state], member,
						  why.text);
			return errmsg_set(err, -EINVAL, "member %s%s: %s", member,
					  c->member_capacity ? " (capacity from member_capacity)" : "",
					  why.text);
		}
		sim_spec_release(&spec);
	}
	if (c->failed > tolerance(c))
		return errmsg_set(err, -EINVAL, "failed %llu: %s of %llu members survives %u failure%s",
				  (unsigned long long)c->failed, raid_level_name(l.level),
				  (unsigned long long)c->disks, tolerance(c), tolerance(c) == 1 ? "" : "s");
	return 0;
}

void raid_sim_member_spec(const struct raid_sim_config *c, char *buf, size_t len)
{
	char cap[48] = "", state[32] = "";

	if (c->member_capacity)
		snprintf(cap, sizeof(cap), ",capacity=%llu", (unsigned long long)c->member_capacity);
	if (c->member_state)
		snprintf(state, sizeof(state), ",state=%s", raid_member_state_names[c->member_state]);
	snprintf(buf, len, "%s%s%s%s", raid_member_names[c->member],
		 c->member_write_cache == MEMBER_CACHE_ON ? ",write_cache=on"
		 : c->member_write_cache == MEMBER_CACHE_OFF ? ",write_cache=off" : "", cap, state);
}

static void line(FILE *f, const char *key, const char *value, const char *meaning)
{
	fprintf(f, "  %-22s %-12s %s\n", key, value, meaning);
}

static void raid_describe(FILE *f, const void *config)
{
	const struct raid_sim_config *c = config;
	struct raid_layout l = raid_sim_layout(c);
	struct sim_spec spec;
	struct errmsg err;
	char member[160], v[64];
	uint64_t cap = 0;

	raid_sim_member_spec(c, member, sizeof(member));
	if (!raid_check(c, &err) && !sim_spec_parse(&spec, member, &err)) {
		struct sim_device *d;

		if (!sim_spec_create(&spec, 1, &d, &err)) {
			cap = raid_capacity(&l, d->capacity);
			d->ops->destroy(d);
		}
		sim_spec_release(&spec);
	}
	line(f, "member_spec", member, "what each member is (see 'iomodel sim show' of it)");
	snprintf(v, sizeof(v), "%u", raid_data_disks(&l));
	line(f, "data_disks", v, "data chunks per row");
	format_size_exact(v, sizeof(v), (uint64_t)raid_data_disks(&l) * c->stripe);
	line(f, "row", v, l.level == RAID_5 || l.level == RAID_6
	     ? "data per row: a parity write covering less of a row reads first"
	     : "data per row: one chunk of each data member");
	snprintf(v, sizeof(v), "%llu", (unsigned long long)cap);
	line(f, "capacity", cap ? v : "-", "bytes the host sees: data disks x member, whole chunks");
	snprintf(v, sizeof(v), "%u", tolerance(c));
	line(f, "survives", v, "member failures the volume survives");
	if (c->failed) {	/* degraded: what is left of that */
		snprintf(v, sizeof(v), "%u", tolerance(c) - (unsigned)c->failed);
		line(f, "survives_more", v, "further failures it survives, failed members out");
	}
	if (l.level == RAID_5 || l.level == RAID_6)
		line(f, "parity", l.level == RAID_5 ? "P" : "P+Q",
		     "left-symmetric: P of row r on member n-1-(r mod n), data after it");
}

/* State of the whole array: every member's (the memory limit holds for their sum), the cache. */
static uint64_t raid_memory(const void *config)
{
	const struct raid_sim_config *c = config;
	uint64_t one = 0, cache = c->cache_mib << 20;
	struct sim_spec spec;
	struct errmsg err;
	char member[160];

	raid_sim_member_spec(c, member, sizeof(member));
	if (!sim_spec_parse(&spec, member, &err)) {
		one = sim_spec_memory(&spec);
		sim_spec_release(&spec);
	}
	if (one > (UINT64_MAX - cache) / c->disks)
		return UINT64_MAX;
	return one * c->disks + cache;
}

static int raid_model_create(const void *config, uint64_t seed, struct sim_device **out,
			     struct errmsg *err)
{
	int ret = raid_check(config, err);

	return ret ? ret : raid_sim_create(config, seed, out, err);
}

#define RAID_MODEL(sym, nm, defaults_fn, what) \
	const struct sim_model sym = { \
		.name = nm, .summary = what, .config_size = sizeof(struct raid_sim_config), \
		.params = raid_params, .defaults = defaults_fn, .check = raid_check, \
		.describe = raid_describe, .memory = raid_memory, .create = raid_model_create, \
	}

RAID_MODEL(sim_raid0_model, "raid0", defaults0, "RAID 0 of simulated members: striping");
RAID_MODEL(sim_raid1_model, "raid1", defaults1, "RAID 1: every member a mirror");
RAID_MODEL(sim_raid10_model, "raid10", defaults10, "RAID 10: striped mirrored pairs");
RAID_MODEL(sim_raid5_model, "raid5", defaults5,
	   "RAID 5: rotating parity, read-modify-write or reconstruct-write");
RAID_MODEL(sim_raid6_model, "raid6", defaults6, "RAID 6: rotating P and Q parity");
