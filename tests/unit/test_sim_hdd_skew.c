/*
 * test_sim_hdd_skew.c — the simulated hard disk's layout and write phases as
 * DiskSim's drive descriptions give them (sim/hdd*.c): track and cylinder
 * skew (a transfer crossing a track pays it; the inverse of that timing), a
 * zone table and measured short seeks, a write's data paced sector by sector
 * over a slow bus, the sectors a write waits for before its media transfer,
 * the extra disconnect of a write after a write it does not continue, the
 * controller time after a write's media transfer and a write's least seek;
 * DiskSim's layout (per-zone skews and first sector, empty front, slipped and
 * spare tracks);
 * the list values these take. Requests go one at a time, each submitted when
 * the one before completed.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hdd_serve.h"

/* A small drive: 5400 rpm (11.11 ms a turn), 2 surfaces, cache off, fast bus. */
static const char *const BASE =
	"capacity=256m,rpm=5400,outer_mib_s=8,inner_mib_s=6,zones=4,seek_track_ms=1,"
	"seek_avg_ms=6,seek_full_ms=12,write_settle_ms=0,cmd_overhead_ms=0.5,"
	"access_overhead_ms=0,bus_mib_s=300,cache_mib=1,cache_segments=1,write_cache=off,"
	"ncq_depth=1,ncq_aging=0,surfaces=2,head_switch_ms=0.5,write_watermark=0";

static void geom(const struct hdd_config *c, struct hdd_geom *g)
{
	struct errmsg err;

	if (hdd_geom_init(g, c, &err)) {
		printf("geometry: %s\n", err.text);
		exit(1);
	}
}

/* The timing functions: crossings cost the skew, u_after inverts xfer_u. */
static void skew_timing(struct check_state *st)
{
	static struct hdd_geom g;
	struct hdd_config c = hdd_test_drive(BASE, "track_skew_ms=2,cylinder_skew_ms=4");
	double rev = 60000.0 / 5400, ts = 2 / rev, cs = 4 / rev;
	uint64_t half = 1ULL << 31, u;
	double r_in, r_trk, r_cyl;

	geom(&c, &g);
	/* track 2 → 3 is within cylinder 1, track 3 → 4 crosses to cylinder 2 */
	r_in = (double)hdd_xfer_u(&g, 2ULL << 32, (2ULL << 32) + half) / 4294967296.0;
	r_trk = (double)hdd_xfer_u(&g, (2ULL << 32) + half, (3ULL << 32) + half) / 4294967296.0;
	r_cyl = (double)hdd_xfer_u(&g, (3ULL << 32) + half, (4ULL << 32) + half) / 4294967296.0;
	CHECK(st, fabs(r_in - 0.5) < 1e-9, "half a track in %.6f rev, want 0.5", r_in);
	CHECK(st, fabs(r_trk - 1 - ts) < 1e-6, "a track crossing %.6f rev, want %.6f", r_trk,
	      1 + ts);
	CHECK(st, fabs(r_cyl - 1 - cs) < 1e-6, "a cylinder crossing %.6f rev, want %.6f", r_cyl,
	      1 + cs);
	CHECK(st, hdd_xfer_u(&g, 5ULL << 32, 6ULL << 32) == 1ULL << 32,
	      "a whole track, ending at the next one's start, pays no skew");
	u = (2ULL << 32) + half;
	CHECK(st, hdd_u_after(&g, u, hdd_xfer_u(&g, u, (4ULL << 32) + 12345)) ==
			  (4ULL << 32) + 12345, "u_after undoes xfer_u across two crossings");
	CHECK(st, hdd_u_after(&g, u, half + (1ULL << 20)) == 3ULL << 32,
	      "in the skew the transfer waits at the next track's start");
	CHECK(st, hdd_angle_of(&g, 3ULL << 32) == (uint32_t)hdd_skew_of(&g, 3) &&
			  hdd_skew_of(&g, 3) == hdd_skew_of(&g, 2) + g.track_skew &&
			  hdd_skew_of(&g, 4) == hdd_skew_of(&g, 3) + g.cyl_skew,
	      "track 3's first sector lies a track skew after track 2's, track 4's a cylinder "
	      "skew after track 3's");
}

/*
 * Write track a whole, then track a + 1 whole, the second submitted as the
 * first completes: it starts when the next track's first sector comes round,
 * the skew after the first ended (less the controller time, which the skew
 * hides). Service of the second, ms.
 */
static double next_track_write(const char *extra, uint32_t a)
{
	static struct hdd_geom g;
	struct hdd_config c = hdd_test_drive(BASE, extra);
	uint64_t off[2];
	uint32_t len[2];
	enum io_op op[2] = { IO_WRITE, IO_WRITE };
	double ms[2];

	geom(&c, &g);
	for (unsigned i = 0; i < 2; i++) {
		off[i] = hdd_test_track_start(&g, a + i);
		len[i] = (uint32_t)(hdd_test_track_start(&g, a + i + 1) - off[i]);
	}
	hdd_test_serve(&c, 2, off, len, op, ms);
	return ms[1];
}

static void skew_crossing(struct check_state *st)
{
	double rev = 60000.0 / 5400;
	double trk = next_track_write("track_skew_ms=2,cylinder_skew_ms=4", 2);
	double cyl = next_track_write("track_skew_ms=2,cylinder_skew_ms=4", 3);
	double none = next_track_write(NULL, 2);
	double floor_ = next_track_write("track_skew_ms=2,cylinder_skew_ms=4,write_seek_min_ms=3", 2);

	CHECK(st, fabs(trk - (2 + rev)) < 0.01, "next track: %.4f ms, want skew 2 + a turn %.4f",
	      trk, 2 + rev);
	CHECK(st, fabs(cyl - (4 + rev)) < 0.01, "next cylinder: %.4f ms, want skew 4 + a turn %.4f",
	      cyl, 4 + rev);
	CHECK(st, none > 1.9 * rev, "no skew: %.4f ms, want a missed turn (> %.4f)", none, 1.9 * rev);
	/* a least seek longer than the skew misses the first sector: a turn more */
	CHECK(st, fabs(floor_ - (2 + 2 * rev)) < 0.01,
	      "write_seek_min_ms=3 over a 2 ms skew: %.4f ms, want %.4f", floor_, 2 + 2 * rev);
}

/*
 * A whole-track write whose data come at half the media rate, after a write
 * that leaves the head at its start: watermark 0 lets the head run ahead of
 * the data (the write ends when the data end); sector pacing starts late
 * enough, in whole turns, that the head never overtakes the data, so the
 * media transfer ends within a turn after them. Service of the second, ms.
 */
static void write_pace(struct check_state *st)
{
	static struct hdd_geom g;
	struct hdd_config c = hdd_test_drive(BASE, NULL);
	double rev = 60000.0 / 5400, wm, sec, bus_ms;
	uint64_t off[2];
	uint32_t len[2];
	enum io_op op[2] = { IO_WRITE, IO_WRITE };
	char slow[128];
	double ms[2];

	geom(&c, &g);
	off[1] = hdd_test_track_start(&g, 6);
	len[1] = (uint32_t)(hdd_test_track_start(&g, 7) - off[1]);
	off[0] = off[1] - 4096;
	len[0] = 4096;
	snprintf(slow, sizeof(slow), "bus_write_mib_s=%.6f", hdd_geom_zone_mib_s(&g, 0) / 2);
	bus_ms = 2 * rev;
	c = hdd_test_drive(BASE, slow);
	hdd_test_serve(&c, 2, off, len, op, ms);
	wm = ms[1];
	strcat(slow, ",write_pace=sector");
	c = hdd_test_drive(BASE, slow);
	hdd_test_serve(&c, 2, off, len, op, ms);
	sec = ms[1];
	CHECK(st, fabs(wm - (0.5 + bus_ms)) < 0.01,
	      "watermark 0: %.4f ms, want command + data %.4f", wm, 0.5 + bus_ms);
	CHECK(st, sec >= 0.5 + bus_ms - 0.01 && sec <= 0.5 + bus_ms + rev + 0.01,
	      "sector pace: %.4f ms, want within a turn after the data (%.4f to %.4f)", sec,
	      0.5 + bus_ms, 0.5 + bus_ms + rev);
	/* with a fast bus the head never waits for data: both paces agree */
	c = hdd_test_drive(BASE, "write_pace=sector");
	hdd_test_serve(&c, 2, off, len, op, ms);
	sec = ms[1];
	c = hdd_test_drive(BASE, NULL);
	hdd_test_serve(&c, 2, off, len, op, ms);
	CHECK(st, fabs(sec - ms[1]) < 0.002, "fast bus: sector pace %.4f ms, watermark 0 %.4f",
	      sec, ms[1]);
}

/*
 * A slow write bus, so that each write completes when its data have come:
 * the extra disconnect delays exactly the writes after a write they do not
 * continue; write_done_ms adds to a write whose media transfer ends last.
 */
static void write_phases(struct check_state *st)
{
	enum { N = 5 };
	const uint64_t off[N] = { 1 << 20, 9 << 20, (9 << 20) + 65536, 3 << 20, 5 << 20 };
	const uint32_t len[N] = { 65536, 65536, 65536, 4096, 65536 };
	const enum io_op op[N] = { IO_WRITE, IO_WRITE, IO_WRITE, IO_READ, IO_WRITE };
	const double want[N] = { 0, 0.7, 0, 0, 0 };	/* the read's turn shifts: not checked */
	double a[N], b[N];
	struct hdd_config c = hdd_test_drive(BASE, "bus_write_mib_s=1");

	hdd_test_serve(&c, N, off, len, op, a);
	c = hdd_test_drive(BASE, "bus_write_mib_s=1,write_redisconnect_ms=0.7");
	hdd_test_serve(&c, N, off, len, op, b);
	for (unsigned i = 0; i < N; i++)
		CHECK(st, op[i] == IO_READ || fabs(b[i] - a[i] - want[i]) < 0.001,
		      "request %u: %.4f ms with the extra disconnect, %.4f without, want +%.1f", i,
		      b[i], a[i], want[i]);
	c = hdd_test_drive(BASE, NULL);
	hdd_test_serve(&c, 1, off, len, op, a);
	c = hdd_test_drive(BASE, "write_done_ms=0.3");
	hdd_test_serve(&c, 1, off, len, op, b);
	CHECK(st, fabs(b[0] - a[0] - 0.3) < 0.001, "write_done_ms=0.3: %.4f ms, %.4f without",
	      b[0], a[0]);
}

/* A zone table sets the zones' shares and track sizes; measured short seeks replace the
 * curve's. */
static void zone_table(struct check_state *st)
{
	static struct hdd_geom g;
	struct hdd_config c = hdd_test_drive(BASE, "zones=3,zone_cyls=3000:2000:1000,"
					     "zone_sectors=80:60:40,seek_first_ms=2:3.5:3");
	double r0, r1, r2;
	uint32_t d;
	int bad = 0;

	geom(&c, &g);
	r0 = hdd_geom_zone_mib_s(&g, 0);
	r1 = hdd_geom_zone_mib_s(&g, 1);
	r2 = hdd_geom_zone_mib_s(&g, 2);
	CHECK(st, g.cylinders == 6000 && g.tracks == 12000, "cylinders %u tracks %u, want 6000, "
	      "12000", g.cylinders, g.tracks);
	CHECK(st, g.zone[1].u0 == 6000ULL << 32 && g.zone[2].u0 == 10000ULL << 32,
	      "zones start at tracks %llu and %llu, want 6000 and 10000",
	      (unsigned long long)(g.zone[1].u0 >> 32), (unsigned long long)(g.zone[2].u0 >> 32));
	CHECK(st, fabs(r1 / r0 - 0.75) < 1e-4 && fabs(r2 / r0 - 0.5) < 1e-4,
	      "zone rates %.4f %.4f %.4f MiB/s, want in the ratio 80:60:40", r0, r1, r2);
	/* the table holds 409.6 MB, the drive 256 MiB: every zone's tracks shrink alike */
	CHECK(st, fabs(g.zone[0].track_bytes / (80 * 512.0) - g.zone[2].track_bytes / (40 * 512.0)) <
			  1e-4, "one scale for every zone's tracks");
	CHECK(st, hdd_seek_ns(&g, 1) == 2000000 && hdd_seek_ns(&g, 2) == 3500000 &&
			  hdd_seek_ns(&g, 3) == 3000000,
	      "short seeks %u %u %u ns, want 2, 3.5 and 3 ms as given", hdd_seek_ns(&g, 1),
	      hdd_seek_ns(&g, 2), hdd_seek_ns(&g, 3));
	/* the scheduler's bound still holds with a seek table out of order */
	for (uint64_t ns = 500000; ns < 12000000; ns += 250000) {
		uint32_t w = hdd_seek_within(&g, ns);

		for (d = w + 1; d < 200 && d > w; d++)
			bad += hdd_seek_ns(&g, d) < ns;
	}
	CHECK(st, !bad, "%d seeks beyond hdd_seek_within() faster than its bound", bad);
}

/* Track 2 whole, then track 3 with its data over a 20 MiB/s bus: waiting for 100 sectors
 * (2.4 ms) misses the skew of 2 ms, so the write starts a turn later. */
static void write_start(struct check_state *st)
{
	double rev = 60000.0 / 5400;
	double none = next_track_write("track_skew_ms=2,bus_write_mib_s=20", 2);
	double wait = next_track_write("track_skew_ms=2,bus_write_mib_s=20,write_start_sectors=100", 2);
	double few = next_track_write("track_skew_ms=2,bus_write_mib_s=20,write_start_sectors=10", 2);

	CHECK(st, fabs(none - (2 + rev)) < 0.01, "no wait: %.4f ms, want %.4f", none, 2 + rev);
	CHECK(st, fabs(wait - (2 + 2 * rev)) < 0.01, "100 sectors first: %.4f ms, want %.4f", wait,
	      2 + 2 * rev);
	CHECK(st, fabs(few - none) < 0.001, "10 sectors (0.24 ms) within the skew: %.4f ms, want "
	      "%.4f", few, none);
}

/* List values: separators, "-" for none, and refusals. */
static void lists(struct check_state *st)
{
	struct hdd_config c = hdd_test_drive(BASE, "seek_first_ms=1 2:3");
	struct errmsg err = { 0 };
	char many[1024] = "seek_first_ms=";

	CHECK(st, c.seek_first_ms.n == 3 && c.seek_first_ms.v[2] == 3, "'1 2:3': %u numbers",
	      c.seek_first_ms.n);
	c = hdd_test_drive(BASE, "seek_first_ms=-");
	CHECK(st, c.seek_first_ms.n == 0, "'-': %u numbers, want none", c.seek_first_ms.n);
	for (int i = 0; i < 65; i++)
		strcat(many, "1:");
	CHECK(st, hdd_test_parse(BASE, many, &c, &err) == -EINVAL && strstr(err.text, "more than 64"),
	      "65 numbers: '%s'", err.text);
}

static void refuse(struct check_state *st, const char *settings, const char *want)
{
	struct hdd_config c;
	struct errmsg err = { 0 };
	int ret = hdd_test_parse(BASE, settings, &c, &err);

	CHECK(st, ret == -EINVAL && strstr(err.text, want), "'%s': %d '%s', want '%s'", settings,
	      ret, err.text, want);
}

/* 64 seek times: one more than the drive looks up exactly. */
static void refuse_many(struct check_state *st)
{
	char text[256] = "seek_first_ms=1";

	for (int i = 1; i < 64; i++)
		strcat(text, ":1");
	refuse(st, text, "at most 63");
}

/*
 * DiskSim's layout on a small drive: two zones of 40 cylinders, 2 surfaces,
 * 40 and 32 sectors a track. Zone 0 leaves its first track empty, slips its
 * track 3 and keeps 2 spare tracks at its end (one taken by the slip); zone 1
 * starts at track 80, its first sector 5 sectors round.
 */
static const char *const LAYOUT =
	"capacity=2871296,zones=2,zone_cyls=40:40,zone_sectors=40:32,zone_track_skew=4:3,"
	"zone_cyl_skew=10:8,zone_first_sector=0:5,zone_front_sectors=40:0,"
	"zone_spare_tracks=2:1,zone_slips=1:0,slip_tracks=3,seek_avg_ms=5";

static double angle_sectors(const struct hdd_geom *g, uint64_t lbn, double spt)
{
	return hdd_angle_of(g, hdd_u_of(g, lbn * 512)) / 4294967296.0 * spt;
}

/* A sector's angle follows its zone's skews and first-sector offset. */
static void layout_angles(struct check_state *st)
{
	static struct hdd_geom g;
	struct hdd_config c = hdd_test_drive(BASE, LAYOUT);
	double a0, a1, a40, a80, z1;

	geom(&c, &g);
	a0 = angle_sectors(&g, 0, 40);		/* track 1: one track switch */
	a1 = angle_sectors(&g, 1, 40);
	a40 = angle_sectors(&g, 40, 40);	/* track 2 = cylinder 1: + a cylinder switch */
	a80 = angle_sectors(&g, 80, 40);	/* track 4 (3 slipped): 2 track, 2 cylinder switches */
	z1 = angle_sectors(&g, 3080, 32);	/* zone 1's first sector */
	CHECK(st, g.layout && fabs(a0 - 4) < 1e-3 && fabs(a1 - 5) < 1e-3,
	      "first LBN at %.3f sectors, the next at %.3f: want 4 and 5 (a track skew)", a0, a1);
	CHECK(st, fabs(a40 - 14) < 1e-3, "LBN 40 at %.3f sectors, want 4 + 10", a40);
	CHECK(st, fabs(a80 - 28) < 1e-3, "LBN 80 at %.3f sectors, want 2 x 4 + 2 x 10", a80);
	CHECK(st, fabs(z1 - 5) < 1e-3, "zone 1 starts at %.3f of its sectors, want 5", z1);
}

/* The empty front, a slip and the spares move the LBNs after them; timing skips the gaps. */
static void layout_slips(struct check_state *st)
{
	static struct hdd_geom g;
	struct hdd_config c = hdd_test_drive(BASE, LAYOUT);
	uint64_t u60, u100;
	double r;

	geom(&c, &g);
	CHECK(st, hdd_u_of(&g, 0) >> 32 == 1 && hdd_u_of(&g, 79 * 512) >> 32 == 2 &&
			  hdd_u_of(&g, 80 * 512) >> 32 == 4,
	      "LBN 0 on track %llu (want 1), 79 on %llu (2), 80 on %llu (4: 3 slipped)",
	      (unsigned long long)(hdd_u_of(&g, 0) >> 32),
	      (unsigned long long)(hdd_u_of(&g, 79 * 512) >> 32),
	      (unsigned long long)(hdd_u_of(&g, 80 * 512) >> 32));
	CHECK(st, hdd_u_of(&g, 3080 * 512) == 80ULL << 32 &&
			  hdd_u_of(&g, 3079 * 512) >> 32 == 78,
	      "zone 1's first LBN at track %.4f (want 80), zone 0's last on %llu (78)",
	      hdd_u_of(&g, 3080 * 512) / 4294967296.0,
	      (unsigned long long)(hdd_u_of(&g, 3079 * 512) >> 32));
	CHECK(st, hdd_s_of(&g, 3ULL << 32) == 80 * 512, "the slipped track reads as LBN %llu, "
	      "want 80 (the next)", (unsigned long long)(hdd_s_of(&g, 3ULL << 32) / 512));
	/* half of track 2, the wait to track 4's first sector (28 − 14 sectors), half of it */
	u60 = hdd_u_of(&g, 60 * 512);
	u100 = hdd_u_of(&g, 100 * 512);
	r = (double)hdd_xfer_u(&g, u60, u100) / 4294967296.0;
	CHECK(st, fabs(r - (0.5 + 14.0 / 40 + 0.5)) < 1e-6,
	      "across the slipped track %.6f rev, want %.6f", r, 0.5 + 14.0 / 40 + 0.5);
	CHECK(st, hdd_u_after(&g, u60, hdd_xfer_u(&g, u60, u100)) == u100,
	      "u_after undoes xfer_u across the slipped track");
	refuse(st, "capacity=2871296,zones=2,zone_cyls=40:40,zone_sectors=40:32,"
	       "zone_track_skew=4:3,zone_front_sectors=40:0,seek_avg_ms=5", "layout holds 5720 blocks");
	refuse(st, "capacity=2928640,zones=2,zone_cyls=40:40,zone_sectors=40:32,"
	       "zone_track_skew=4:3,zone_slips=1:0,seek_avg_ms=5", "zone_slips counts 1 slips");
	refuse(st, "zone_track_skew=4:3", "the layout needs both");
	refuse(st, "zone_spare_tracks=1", "without zone_track_skew");
}

int main(void)
{
	struct check_state st = { 0 };

	skew_timing(&st);
	skew_crossing(&st);
	write_pace(&st);
	write_phases(&st);
	zone_table(&st);
	write_start(&st);
	lists(&st);
	refuse(&st, "track_skew_ms=12", "one revolution");
	refuse(&st, "write_pace=late", "watermark or sector");
	refuse(&st, "zone_cyls=300:x", "not a list of numbers");
	refuse(&st, "zone_cyls=0.5", "from 1 to");
	refuse(&st, "zones=2,zone_cyls=300:200,zone_sectors=80", "give all three alike");
	refuse(&st, "zones=2,zone_cyls=30:20,zone_sectors=80:60", "above the zone table");
	refuse_many(&st);
	layout_angles(&st);
	layout_slips(&st);
	return check_exit(&st, "test_sim_hdd_skew");
}
