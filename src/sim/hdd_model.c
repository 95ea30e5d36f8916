/*
 * hdd_model.c — the "hdd" model as device.h sees it: its parameters with
 * units and meanings, their defaults (a 7200 rpm 3.5-inch SATA drive of
 * 2008), the checks that refuse impossible geometry, the derived figures
 * `sim show` prints, and the constructor.
 */
#include "hdd.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "sim/params.h"

#define F(field) offsetof(struct hdd_config, field)

static const char *const read_ahead_names[] = { "segment", "track", "window", NULL };
static const char *const read_reconnect_names[] = { "share", "sectors", NULL };
static const char *const write_pace_names[] = { "watermark", "sector", NULL };

static const struct sim_param hdd_params[] = {
	{ "capacity", PARAM_BYTES, F(capacity), "bytes",
	  "capacity the host sees, a multiple of 512", 1 << 20, 1e18, NULL },
	{ "rpm", PARAM_COUNT, F(rpm), "rpm", "spindle speed", 3600, 15000, NULL },
	{ "outer_mib_s", PARAM_NUMBER, F(outer_mib_s), "MiB/s",
	  "media rate at the outer edge (LBA 0)", 1, 10000, NULL },
	{ "inner_mib_s", PARAM_NUMBER, F(inner_mib_s), "MiB/s",
	  "media rate at the inner edge (last LBA); linear in radius between", 1, 10000, NULL },
	{ "zones", PARAM_COUNT, F(zones), "",
	  "recording zones of equal radial width, one rate each", 1, HDD_MAX_ZONES, NULL },
	{ "zone_cyls", PARAM_LIST, F(zone_cyls), "cyl",
	  "a zone table, outer zone first: cylinders of each zone, their share of the tracks "
	  "(in place of equal widths and outer/inner_mib_s; - for none)", 1, 1e7, NULL },
	{ "zone_sectors", PARAM_LIST, F(zone_sectors), "",
	  "the zone table's sectors of 512 bytes per track in each zone", 1, 1e6, NULL },
	{ "zone_track_skew", PARAM_LIST, F(zone_track_skew), "sectors",
	  "DiskSim's layout (with the zone table; - for none): each zone's skew for a track "
	  "switch, in its sectors, in place of track_skew_ms and cylinder_skew_ms", 0, 1e6, NULL },
	{ "zone_cyl_skew", PARAM_LIST, F(zone_cyl_skew), "sectors",
	  "the layout's skew for a cylinder switch in each zone", 0, 1e6, NULL },
	{ "zone_first_sector", PARAM_LIST, F(zone_first_sector), "sectors",
	  "the layout's angle of each zone's first sector (DiskSim's offset of first block)",
	  0, 1e6, NULL },
	{ "zone_front_sectors", PARAM_LIST, F(zone_front_sectors), "sectors",
	  "the layout's empty sectors at each zone's front", 0, 1e9, NULL },
	{ "zone_spare_tracks", PARAM_LIST, F(zone_spare_tracks), "",
	  "the layout's spare tracks at each zone's end (DiskSim's track sparing)", 0, 1e9, NULL },
	{ "zone_slips", PARAM_LIST, F(zone_slips), "",
	  "the layout's slipped tracks in each zone: the tracks that follow move on one",
	  0, SIM_LIST_MAX, NULL },
	{ "slip_tracks", PARAM_LIST, F(slip_tracks), "",
	  "the slipped tracks, numbered from their zone's first, zone after zone", 0, 1e9, NULL },
	{ "seek_track_ms", PARAM_NUMBER, F(seek_track_ms), "ms",
	  "seek to the next track (cylinder)", 0.01, 100, NULL },
	{ "seek_avg_ms", PARAM_NUMBER, F(seek_avg_ms), "ms",
	  "mean seek between positions drawn uniformly over the capacity", 0.01, 200, NULL },
	{ "seek_full_ms", PARAM_NUMBER, F(seek_full_ms), "ms",
	  "seek across the full stroke", 0.01, 500, NULL },
	{ "surfaces", PARAM_COUNT, F(surfaces), "",
	  "tracks per cylinder (heads); seeks count cylinders", 1, 64, NULL },
	{ "head_switch_ms", PARAM_NUMBER, F(head_switch_ms), "ms",
	  "moving to another track of the same cylinder", 0, 50, NULL },
	{ "track_skew_ms", PARAM_NUMBER, F(track_skew_ms), "ms",
	  "a transfer crossing to the next track of a cylinder pauses this long (the next "
	  "track's first sector lies that far round); below one revolution", 0, 1000, NULL },
	{ "cylinder_skew_ms", PARAM_NUMBER, F(cylinder_skew_ms), "ms",
	  "the same for a transfer crossing to the next cylinder", 0, 1000, NULL },
	{ "seek_knee_cyl", PARAM_COUNT, F(seek_knee_cyl), "cyl",
	  "0: the curve through the three seek times; else seeks of d cylinders take "
	  "seek_eq_a + sqrt_ms x sqrt(d) below it, seek_eq_c + lin_ms x d from it", 0, 1e9, NULL },
	{ "seek_eq_a_ms", PARAM_NUMBER, F(seek_eq_a_ms), "ms",
	  "the equation's constant below the knee", 0, 500, NULL },
	{ "seek_eq_sqrt_ms", PARAM_NUMBER, F(seek_eq_sqrt_ms), "ms",
	  "the equation's factor of sqrt(cylinders) below the knee", 0, 500, NULL },
	{ "seek_eq_c_ms", PARAM_NUMBER, F(seek_eq_c_ms), "ms",
	  "the equation's constant from the knee", 0, 500, NULL },
	{ "seek_eq_lin_ms", PARAM_NUMBER, F(seek_eq_lin_ms), "ms",
	  "the equation's time per cylinder from the knee", 0, 500, NULL },
	{ "seek_first_ms", PARAM_LIST, F(seek_first_ms), "ms",
	  "measured seeks of 1, 2, ... cylinders (at most 63), in place of the curve's "
	  "(DiskSim's first ten seek times; - for none)", 0.01, 500, NULL },
	{ "write_settle_ms", PARAM_NUMBER, F(write_settle_ms), "ms",
	  "extra settling after a seek before writing", 0, 50, NULL },
	{ "cmd_overhead_ms", PARAM_NUMBER, F(cmd_overhead_ms), "ms",
	  "controller time per command, cache hits included", 0, 50, NULL },
	{ "access_overhead_ms", PARAM_NUMBER, F(access_overhead_ms), "ms",
	  "time to start a host command's media access (not a destage)", 0, 50, NULL },
	{ "write_overhead_ms", PARAM_NUMBER, F(write_overhead_ms), "ms",
	  "further controller time per write command", 0, 50, NULL },
	{ "read_hit_overhead_ms", PARAM_NUMBER, F(read_hit_overhead_ms), "ms",
	  "further controller time per read served from the buffer", 0, 50, NULL },
	{ "read_hit_jump_ms", PARAM_NUMBER, F(read_hit_jump_ms), "ms",
	  "further controller time per read hit after a read that it does not continue "
	  "(starts elsewhere than where that read ended)", 0, 50, NULL },
	{ "after_write_hit_ms", PARAM_NUMBER, F(after_write_hit_ms), "ms",
	  "change of a read hit's controller time when the command before was a write",
	  -50, 50, NULL },
	{ "after_write_miss_ms", PARAM_NUMBER, F(after_write_miss_ms), "ms",
	  "change of access_overhead_ms when the command before was a write", -50, 50, NULL },
	{ "after_write_write_ms", PARAM_NUMBER, F(after_write_write_ms), "ms",
	  "change of a write's controller time when the command before was a write",
	  -50, 50, NULL },
	{ "bus_mib_s", PARAM_NUMBER, F(bus_mib_s), "MiB/s",
	  "interface rate (SATA 1.5G 150, 3G 300, 6G 600)", 1, 100000, NULL },
	{ "bus_write_mib_s", PARAM_NUMBER, F(bus_write_mib_s), "MiB/s",
	  "interface rate of write data, host to drive (0: bus_mib_s)", 0, 100000, NULL },
	{ "read_watermark", PARAM_NUMBER, F(read_watermark), "",
	  "share of a read miss in the buffer before its transfer to the host starts "
	  "(0: as the media delivers)", 0, 1, NULL },
	{ "read_reconnect", PARAM_CHOICE, F(read_reconnect), "",
	  "a read miss's transfer to the host starts once read_watermark of its media time "
	  "passed (share), or once that share of its sectors, rounded down (at least one, of "
	  "a segment at most), were read, skews and gaps crossed before them counted in full "
	  "(sectors)", 0, 0, read_reconnect_names },
	{ "read_reselect_ms", PARAM_NUMBER, F(read_reselect_ms), "ms",
	  "controller time of a read miss from its water mark to the start of its transfer to "
	  "the host (reselect, data preparation)", 0, 50, NULL },
	{ "read_done_ms", PARAM_NUMBER, F(read_done_ms), "ms",
	  "controller time of a read miss from the end of its transfer to the host to its "
	  "completion (status)", 0, 50, NULL },
	{ "cache_mib", PARAM_COUNT, F(cache_mib), "MiB",
	  "drive buffer for read-ahead and the write-back cache", 1, 4096, NULL },
	{ "cache_segments", PARAM_COUNT, F(cache_segments), "",
	  "buffer segments; read-ahead runs one segment ahead of the host", 1, 256, NULL },
	{ "segment_size", PARAM_BYTES, F(segment_bytes), "bytes",
	  "a segment, a multiple of 512, at most cache / segments (0: cache / segments)", 0,
	  1e12, NULL },
	{ "read_ahead", PARAM_CHOICE, F(read_ahead), "",
	  "after a read miss read ahead one segment beyond the host, hits too (segment), to "
	  "the end of the track after it (track), or one segment past it over tracks, nothing "
	  "after a hit (window); track and window keep only what they read ahead", 0, 0,
	  read_ahead_names },
	{ "read_ahead_max", PARAM_BYTES, F(read_ahead_max), "bytes",
	  "read_ahead=segment: the stream stops this far past the end of what the host has "
	  "read, a multiple of 512 at most a segment (0: one segment)", 0, 1e12, NULL },
	{ "stream_takes_segment", PARAM_SWITCH, F(stream_takes_segment), "",
	  "a read miss's read-ahead stream takes the oldest read segment when it starts, its "
	  "data gone at once (DiskSim's segments), not when the stream stops", 0, 0, NULL },
	{ "write_cache", PARAM_SWITCH, F(write_cache), "",
	  "write-back: acknowledge a write once it is in the buffer", 0, 0, NULL },
	{ "write_watermark", PARAM_NUMBER, F(write_watermark), "",
	  "share of a write-through's data in the buffer before its media transfer may start "
	  "(0: at once)", 0, 1, NULL },
	{ "write_pace", PARAM_CHOICE, F(write_pace), "",
	  "a write-through's media transfer starts once write_watermark of its data came "
	  "(watermark), or writes each sector once its data came, losing a revolution where "
	  "the head would overtake the data (sector)", 0, 0, write_pace_names },
	{ "write_done_ms", PARAM_NUMBER, F(write_done_ms), "ms",
	  "controller time from the end of a write-through's media transfer to its completion "
	  "(reconnect, status)", 0, 50, NULL },
	{ "write_redisconnect_ms", PARAM_NUMBER, F(write_redisconnect_ms), "ms",
	  "a write after a write it does not continue gets its data this much later "
	  "(a further disconnect and reconnect)", 0, 50, NULL },
	{ "redisconnect_seek_ms", PARAM_NUMBER, F(redisconnect_seek_ms), "ms",
	  "a write whose data come write_redisconnect_ms late starts its seek this much "
	  "later (at most write_redisconnect_ms; its data do not move)", 0, 50, NULL },
	{ "redisconnect_done_ms", PARAM_NUMBER, F(redisconnect_done_ms), "ms",
	  "change of write_done_ms for a write whose data came write_redisconnect_ms late "
	  "(another reselect; may be negative)", -50, 50, NULL },
	{ "write_prep_ms", PARAM_NUMBER, F(write_prep_ms), "ms",
	  "a write-through's data start crossing the bus this long after its controller time "
	  "(data preparation; its seek is not held up)", 0, 50, NULL },
	{ "write_seek_min_ms", PARAM_NUMBER, F(write_seek_min_ms), "ms",
	  "a write-through's media transfer starts at least this long after its controller "
	  "time and access overhead, even where the head stopped (a least seek)", 0, 50, NULL },
	{ "write_start_sectors", PARAM_COUNT, F(write_start_sectors), "",
	  "a write-through's media transfer starts once this many of its sectors (all, if "
	  "fewer) came (0: no such wait)", 0, 1e6, NULL },
	{ "continue_switch", PARAM_SWITCH, F(continue_switch), "",
	  "a host command that starts where the head stopped, at the first sector of the "
	  "next track, still moves there from its start (head switch or one-cylinder seek, "
	  "a write's settling; DiskSim's seek per command) instead of only waiting for the "
	  "skew; exact at ncq_depth 1, the pick does not weigh it", 0, 0, NULL },
	{ "wcache_extents", PARAM_COUNT, F(wcache_extents), "",
	  "dirty extents the write cache holds; destaging reorders among them", 1, 4096, NULL },
	{ "ncq_depth", PARAM_COUNT, F(ncq_depth), "",
	  "commands the drive accepts and reorders (1: no reordering)", 1, 256, NULL },
	{ "ncq_aging", PARAM_NUMBER, F(ncq_aging), "ms/ms",
	  "positioning time forgiven per ms waited (0 pure SPTF, large FIFO)", 0, 1000, NULL },
	{ "ncq_fuzz", PARAM_NUMBER, F(ncq_fuzz), "",
	  "the drive weighs positioning time t as t x (1 + fuzz x u), u uniform in [0, 1) "
	  "(0: exact SPTF)", 0, 1000, NULL },
	{ NULL, 0, 0, NULL, NULL, 0, 0, NULL },
};

static void hdd_defaults(void *config)
{
	*(struct hdd_config *)config = (struct hdd_config){
		.capacity = 640135028736ULL,
		.rpm = 7200,
		.outer_mib_s = 108,
		.inner_mib_s = 62,
		.zones = 30,
		.seek_track_ms = 2.0,
		.seek_avg_ms = 8.9,
		.seek_full_ms = 21.0,
		.surfaces = 1,
		.write_settle_ms = 3.4,
		.cmd_overhead_ms = 0.03,
		.access_overhead_ms = 0.47,
		.bus_mib_s = 300,
		.cache_mib = 16,
		.cache_segments = 16,
		.write_cache = true,
		.wcache_extents = 512,
		.ncq_depth = 32,
		.ncq_aging = 0.17,
	};
}

/* The buffer's bytes per segment, cache_mib / cache_segments. */
static uint64_t buffer_share(const struct hdd_config *c)
{
	return (c->cache_mib << 20) / c->cache_segments;
}

/* A segment's bytes: segment_size, or (0) the buffer's share. */
static uint64_t segment_of(const struct hdd_config *c)
{
	return c->segment_bytes ? c->segment_bytes : buffer_share(c);
}

/* The controller times after a write stay at 0 or more. */
static int overheads_check(const struct hdd_config *c, struct errmsg *err)
{
	if (c->cmd_overhead_ms + c->read_hit_overhead_ms + c->after_write_hit_ms < 0)
		return errmsg_set(err, -EINVAL, "after_write_hit_ms %g below -(cmd_overhead_ms + "
				  "read_hit_overhead_ms) = %g", c->after_write_hit_ms,
				  -(c->cmd_overhead_ms + c->read_hit_overhead_ms));
	if (c->access_overhead_ms + c->after_write_miss_ms < 0)
		return errmsg_set(err, -EINVAL, "after_write_miss_ms %g below -access_overhead_ms "
				  "= %g", c->after_write_miss_ms, -c->access_overhead_ms);
	if (c->cmd_overhead_ms + c->write_overhead_ms + c->after_write_write_ms < 0)
		return errmsg_set(err, -EINVAL, "after_write_write_ms %g below -(cmd_overhead_ms + "
				  "write_overhead_ms) = %g", c->after_write_write_ms,
				  -(c->cmd_overhead_ms + c->write_overhead_ms));
	if (c->redisconnect_seek_ms > c->write_redisconnect_ms)
		return errmsg_set(err, -EINVAL, "redisconnect_seek_ms %g above write_redisconnect_ms "
				  "%g", c->redisconnect_seek_ms, c->write_redisconnect_ms);
	if (c->write_done_ms + c->redisconnect_done_ms < 0)
		return errmsg_set(err, -EINVAL, "redisconnect_done_ms %g below -write_done_ms = %g",
				  c->redisconnect_done_ms, -c->write_done_ms);
	return 0;
}

/* DiskSim's layout: one value per zone, the slips listed, capacity its block count. */
static int layout_check(const struct hdd_config *c, struct errmsg *err)
{
	const struct sim_list *per_zone[] = { &c->zone_cyl_skew, &c->zone_first_sector,
					      &c->zone_front_sectors, &c->zone_spare_tracks,
					      &c->zone_slips };
	double slips = 0;

	for (unsigned i = 0; !c->zone_track_skew.n && i < sizeof(per_zone) / sizeof(per_zone[0]); i++)
		if (per_zone[i]->n || c->slip_tracks.n)
			return errmsg_set(err, -EINVAL, "zone layout lists given without "
					  "zone_track_skew, which turns the layout on");
	if (!c->zone_track_skew.n)
		return 0;
	if (c->zone_track_skew.n != c->zone_cyls.n)
		return errmsg_set(err, -EINVAL, "zone_track_skew has %u zones, the zone table %u: "
				  "the layout needs both", c->zone_track_skew.n, c->zone_cyls.n);
	for (unsigned i = 0; i < sizeof(per_zone) / sizeof(per_zone[0]); i++)
		if (per_zone[i]->n && per_zone[i]->n != c->zone_cyls.n)
			return errmsg_set(err, -EINVAL, "zone layout: a list has %u values, not one "
					  "per zone (%u) nor none", per_zone[i]->n, c->zone_cyls.n);
	for (unsigned z = 0; z < c->zone_slips.n; z++)
		slips += c->zone_slips.v[z];
	if (slips != c->slip_tracks.n)
		return errmsg_set(err, -EINVAL, "zone_slips counts %.0f slips, slip_tracks lists %u",
				  slips, c->slip_tracks.n);
	if (c->capacity / 512 != hdd_layout_blocks(c))
		return errmsg_set(err, -EINVAL, "capacity %llu: the zone layout holds %llu blocks "
				  "(capacity = %llu)", (unsigned long long)c->capacity,
				  (unsigned long long)hdd_layout_blocks(c),
				  (unsigned long long)hdd_layout_blocks(c) * 512);
	return 0;
}

/* The zone table and the measured short seeks fit the drive. */
static int tables_check(const struct hdd_config *c, struct errmsg *err)
{
	double bytes = 0;

	if (c->seek_first_ms.n >= HDD_NEAR_SEEKS)
		return errmsg_set(err, -EINVAL, "seek_first_ms: %u seek times, at most %d",
				  c->seek_first_ms.n, HDD_NEAR_SEEKS - 1);
	if (!c->zone_cyls.n && !c->zone_sectors.n)
		return layout_check(c, err);	/* none without the table */
	if (c->zone_cyls.n != c->zones || c->zone_sectors.n != c->zones)
		return errmsg_set(err, -EINVAL, "zone table: zone_cyls has %u zones, zone_sectors %u, "
				  "zones %llu: give all three alike", c->zone_cyls.n,
				  c->zone_sectors.n, (unsigned long long)c->zones);
	for (unsigned z = 0; z < c->zone_cyls.n; z++)
		bytes += c->zone_cyls.v[z] * c->zone_sectors.v[z] * 512 * (double)c->surfaces;
	if ((double)c->capacity > bytes)
		return errmsg_set(err, -EINVAL, "capacity %llu above the zone table's %.0f bytes "
				  "(zone_cyls x zone_sectors x 512 x surfaces)",
				  (unsigned long long)c->capacity, bytes);
	return layout_check(c, err);
}

static int hdd_check(const void *config, struct errmsg *err)
{
	const struct hdd_config *c = config;
	struct hdd_seek_curve sc;
	uint64_t tracks;
	int ret;

	if (c->capacity % 512)
		return errmsg_set(err, -EINVAL, "capacity %llu is not a multiple of 512 bytes",
				  (unsigned long long)c->capacity);
	if (c->inner_mib_s > c->outer_mib_s)
		return errmsg_set(err, -EINVAL,
				  "inner_mib_s %g above outer_mib_s %g: the outer edge is the faster",
				  c->inner_mib_s, c->outer_mib_s);
	if (!c->seek_knee_cyl &&
	    !(c->seek_track_ms < c->seek_avg_ms && c->seek_avg_ms < c->seek_full_ms))
		return errmsg_set(err, -EINVAL,
				  "seek times out of order: need seek_track_ms %g < seek_avg_ms %g "
				  "< seek_full_ms %g", c->seek_track_ms, c->seek_avg_ms,
				  c->seek_full_ms);
	ret = tables_check(c, err);	/* before the tracks, which a zone table sets */
	if (ret)
		return ret;
	tracks = hdd_geom_tracks(c);
	if (tracks < c->zones)
		return errmsg_set(err, -EINVAL, "capacity %llu holds %llu tracks, fewer than zones %llu",
				  (unsigned long long)c->capacity, (unsigned long long)tracks,
				  (unsigned long long)c->zones);
	if (tracks > UINT32_MAX / 2)
		return errmsg_set(err, -EINVAL, "capacity %llu needs %llu tracks, more than 2^31",
				  (unsigned long long)c->capacity, (unsigned long long)tracks);
	if (tracks < 2 * c->surfaces)
		return errmsg_set(err, -EINVAL, "capacity %llu holds %llu tracks: too few for "
				  "two cylinders of surfaces %llu", (unsigned long long)c->capacity,
				  (unsigned long long)tracks, (unsigned long long)c->surfaces);
	if (c->segment_bytes % 512 || c->segment_bytes > buffer_share(c))
		return errmsg_set(err, -EINVAL, "segment_size %llu: not a multiple of 512 bytes at "
				  "most cache_mib / cache_segments (%llu)",
				  (unsigned long long)c->segment_bytes,
				  (unsigned long long)buffer_share(c));
	if (c->read_ahead_max % 512 || c->read_ahead_max > segment_of(c))
		return errmsg_set(err, -EINVAL, "read_ahead_max %llu: not a multiple of 512 bytes "
				  "at most a segment", (unsigned long long)c->read_ahead_max);
	ret = overheads_check(c, err);
	if (ret)
		return ret;
	if (c->track_skew_ms * c->rpm >= 60000 || c->cylinder_skew_ms * c->rpm >= 60000)
		return errmsg_set(err, -EINVAL, "track_skew_ms %g or cylinder_skew_ms %g not below "
				  "one revolution (%g ms)", c->track_skew_ms, c->cylinder_skew_ms,
				  60000.0 / (double)c->rpm);
	return c->seek_knee_cyl ? 0 : hdd_seek_fit(c, &sc, err);
}

static void line(FILE *f, const char *key, double v, const char *unit, const char *meaning)
{
	char value[32];

	snprintf(value, sizeof(value), "%.4g", v);
	fprintf(f, "  %-18s %-12s %-8s %s\n", key, value, unit, meaning);
}

/* Mean media rate over positions (what an HD Tune curve averages), MiB/s. */
static double positional_mean(const struct hdd_geom *g)
{
	double sum = 0;

	for (unsigned z = 0; z < g->nzones; z++) {
		uint64_t end = z + 1 < g->nzones ? g->zone[z + 1].s0 : g->capacity;

		sum += hdd_geom_zone_mib_s(g, z) * (double)(end - g->zone[z].s0);
	}
	return sum / (double)g->capacity;
}

/* Mean seek between positions drawn uniformly over the capacity (a grid of them), ms. */
static double mean_seek_ms(const struct hdd_geom *g)
{
	enum { N = 512 };
	uint32_t cyl[N];
	double sum = 0;

	for (unsigned i = 0; i < N; i++) {
		uint64_t s = (uint64_t)((double)g->capacity * (i + 0.5) / N) / 512 * 512;

		cyl[i] = hdd_cyl_of(g, (uint32_t)(hdd_u_of(g, s) >> 32));
	}
	for (unsigned i = 0; i < N; i++)
		for (unsigned j = 0; j < N; j++)
			sum += hdd_seek_ns(g, cyl[i] > cyl[j] ? cyl[i] - cyl[j] : cyl[j] - cyl[i]);
	return sum / ((double)N * N) / 1e6;
}

static void hdd_describe(FILE *f, const void *config)
{
	const struct hdd_config *c = config;
	struct hdd_geom *g = malloc(sizeof(*g));
	struct errmsg err;
	double rev_ms, xfer_ms, seek_ms;

	if (!g || hdd_check(c, &err) || hdd_geom_init(g, c, &err)) {
		fprintf(f, "  (no derived figures: %s)\n", g ? err.text : "out of memory");
		free(g);
		return;
	}
	rev_ms = g->rev_ns / 1e6;
	seek_ms = c->seek_knee_cyl ? mean_seek_ms(g) : c->seek_avg_ms;
	xfer_ms = 512 / (hdd_geom_harmonic_mib_s(g) * (1 << 20)) * 1e3;
	line(f, "revolution", rev_ms, "ms", "one turn of the platter");
	line(f, "rot_latency", rev_ms / 2, "ms", "mean rotational wait");
	line(f, "tracks", g->tracks, "", "logical tracks (one revolution of data each)");
	line(f, "outer_zone", hdd_geom_zone_mib_s(g, 0), "MiB/s", "media rate of the first zone");
	line(f, "inner_zone", hdd_geom_zone_mib_s(g, g->nzones - 1), "MiB/s",
	     "media rate of the last zone");
	line(f, "avg_rate", hdd_geom_harmonic_mib_s(g), "MiB/s",
	     "sustained rate of large random transfers (harmonic mean over capacity)");
	line(f, "avg_rate_curve", positional_mean(g), "MiB/s",
	     "mean of the rate-vs-position curve (HD Tune's average)");
	line(f, "cylinders", g->cylinders, "", "tracks / surfaces: the seek stroke");
	if (c->seek_knee_cyl) {
		line(f, "mean_seek", seek_ms, "ms", "the equation's mean over the capacity");
		line(f, "full_seek", hdd_seek_equation_ms(c, g->cylinders - 1), "ms",
		     "the equation across the stroke");
	} else {
		line(f, "seek_knee", g->curve.knee * 100, "%",
		     "seek distance (of the stroke) where seek time turns linear");
	}
	line(f, "read_penalty", c->cmd_overhead_ms + c->access_overhead_ms + seek_ms +
	     rev_ms / 2 + xfer_ms + c->read_reselect_ms + c->read_done_ms, "ms",
	     "mean random 512 B read at QD1");
	line(f, "write_penalty", c->cmd_overhead_ms + c->write_overhead_ms +
	     c->access_overhead_ms + seek_ms + c->write_settle_ms + rev_ms / 2 + xfer_ms +
	     c->write_done_ms, "ms", "mean random 512 B write at QD1 with write_cache off");
	line(f, "segment", (double)segment_of(c) / 1024, "KiB",
	     "buffer segment (read-ahead window)");
	free(g);
}

static int hdd_model_create(const void *config, uint64_t seed, struct sim_device **out,
			    struct errmsg *err)
{
	int ret = hdd_check(config, err);

	if (ret)
		return ret;
	return hdd_create(config, seed, out, err);
}

const struct sim_model sim_hdd_model = {
	.name = "hdd",
	.summary = "hard disk: zoned media rate, seek curve, rotation, buffer, NCQ",
	.config_size = sizeof(struct hdd_config),
	.params = hdd_params,
	.defaults = hdd_defaults,
	.check = hdd_check,
	.describe = hdd_describe,
	.create = hdd_model_create,
};
