/*
 * test_sim_hdd_phases.c — the controller phases of the simulated hard disk
 * that DiskSim's drive descriptions give and that are off by default
 * (sim/hdd*.c): a read miss's water mark counted in sectors, its controller
 * time after the water mark and after its transfer, the read-ahead's limit
 * and the segment it takes,
 * a write's data preparation, a command that continues onto the next track,
 * and the seek and end of a write with a further disconnect. Requests go one
 * at a time, each submitted when the one before completed (plus a think time).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "hdd_serve.h"

/* A small drive: 5400 rpm (11.11 ms a turn), 2 surfaces, cache off, fast bus. */
static const char *const BASE =
	"capacity=256m,rpm=5400,outer_mib_s=8,inner_mib_s=6,zones=4,seek_track_ms=1,"
	"seek_avg_ms=6,seek_full_ms=12,write_settle_ms=0,cmd_overhead_ms=0.5,"
	"access_overhead_ms=0,bus_mib_s=300,cache_mib=1,cache_segments=2,write_cache=off,"
	"ncq_depth=1,ncq_aging=0,surfaces=2,head_switch_ms=0.5,write_watermark=0";

static const double REV = 60000.0 / 5400;

/* Service (ms) of n requests on the drive BASE + extra, think_ms between them. */
static void serve(const char *extra, unsigned n, const uint64_t *off, const uint32_t *len,
		  const enum io_op *op, double think_ms, double *ms)
{
	struct hdd_config c = hdd_test_drive(BASE, extra);

	hdd_test_serve_think(&c, n, off, len, op, (uint64_t)(think_ms * 1e6), ms);
}

/* The first byte of track trk of the drive BASE + extra. */
static uint64_t track_start(const char *extra, uint32_t trk)
{
	static struct hdd_geom g;
	struct hdd_config c = hdd_test_drive(BASE, extra);
	struct errmsg err;

	if (hdd_geom_init(&g, &c, &err)) {
		printf("geometry: %s\n", err.text);
		exit(1);
	}
	return hdd_test_track_start(&g, trk);
}

/*
 * One and a half tracks read from track 2's start over a slow bus (its
 * transfer to the host ends after the media's): by media time the host
 * transfer starts at 0.75 of (1.5 turns + skew); by sectors at 1.125 turns +
 * the whole skew, crossed before 75 % of the sectors: a quarter skew later
 * (within a sector, 0.06 ms: the count is rounded down to whole sectors).
 */
static void reconnect_sectors(struct check_state *st)
{
	const char *drive = "track_skew_ms=4,bus_mib_s=2,read_watermark=0.75";
	uint64_t t2 = track_start(drive, 2), t3 = track_start(drive, 3);
	uint64_t off[1] = { t2 };
	uint32_t len[1] = { (uint32_t)((t3 - t2) * 3 / 2 / 512 * 512) };
	enum io_op op[1] = { IO_READ };
	double share, sectors;
	char more[128];

	serve(drive, 1, off, len, op, 0, &share);
	snprintf(more, sizeof(more), "%s,read_reconnect=sectors", drive);
	serve(more, 1, off, len, op, 0, &sectors);
	CHECK(st, fabs(sectors - share - 1.0) < 0.07,
	      "read_reconnect=sectors: %.4f ms, by media time %.4f: want a quarter of the 4 ms "
	      "skew later", sectors, share);
}

/*
 * A read miss over a bus slower than the media, then a hit on what it read
 * ahead: the miss alone pays both phases.
 */
static void read_phases(struct check_state *st)
{
	const char *drive = "bus_mib_s=2";
	uint64_t off[2] = { 1 << 20, (1 << 20) + 4096 };
	uint32_t len[2] = { 4096, 4096 };
	enum io_op op[2] = { IO_READ, IO_READ };
	double a[2], b[2];

	serve(drive, 2, off, len, op, 20, a);
	serve("bus_mib_s=2,read_reselect_ms=0.2,read_done_ms=0.1", 2, off, len, op, 20, b);
	CHECK(st, fabs(b[0] - a[0] - 0.3) < 0.001, "read miss %.4f ms, without the phases %.4f: "
	      "want 0.3 ms more", b[0], a[0]);
	CHECK(st, a[1] < 3 && fabs(b[1] - a[1]) < 0.001, "the hit after it %.4f ms, want %.4f",
	      b[1], a[1]);
}

/*
 * A read, 50 ms idle, then a read 200 sectors past it: a segment (1024
 * sectors) of read-ahead holds it, 128 sectors do not.
 */
static void ahead_max(struct check_state *st)
{
	uint64_t off[2] = { 1 << 20, (1 << 20) + 4096 + 200 * 512 };
	uint32_t len[2] = { 4096, 4096 };
	enum io_op op[2] = { IO_READ, IO_READ };
	double seg[2], max[2];
	struct hdd_config c;
	struct errmsg err = { 0 };

	serve(NULL, 2, off, len, op, 50, seg);
	serve("read_ahead_max=64k", 2, off, len, op, 50, max);
	CHECK(st, seg[1] < 1, "within a segment of read-ahead: %.4f ms, want a hit", seg[1]);
	CHECK(st, max[1] > 1.5, "beyond read_ahead_max: %.4f ms, want a miss", max[1]);
	CHECK(st, hdd_test_parse(BASE, "read_ahead_max=1m", &c, &err) == -EINVAL &&
			  strstr(err.text, "at most a segment"),
	      "read_ahead_max above a segment: '%s'", err.text);
}

/*
 * Reads at 1 MiB, at 100 MiB, at 1 MiB again, on a drive of two segments (a
 * read segment and the stream's): the third is a hit on the segment the
 * first left, unless the second's stream took that segment when it started.
 */
static void takes_segment(struct check_state *st)
{
	uint64_t off[3] = { 1 << 20, 100 << 20, 1 << 20 };
	uint32_t len[3] = { 4096, 4096, 4096 };
	enum io_op op[3] = { IO_READ, IO_READ, IO_READ };
	double kept[3], taken[3];

	serve(NULL, 3, off, len, op, 20, kept);
	serve("stream_takes_segment=on", 3, off, len, op, 20, taken);
	CHECK(st, kept[2] < 1, "the first read's segment kept: %.4f ms, want a hit", kept[2]);
	CHECK(st, taken[2] > 1.5, "taken by the second read's stream: %.4f ms, want a miss",
	      taken[2]);
}

/*
 * Track 2 whole, then track 3 whole (its first sector comes 2 ms, the skew,
 * after track 2's end). Service of the second, ms.
 */
static double next_track(const char *extra)
{
	char drive[256];
	uint64_t off[2];
	uint32_t len[2];
	enum io_op op[2] = { IO_WRITE, IO_WRITE };
	double ms[2];

	snprintf(drive, sizeof(drive), "track_skew_ms=2%s%s", extra ? "," : "", extra ? extra : "");
	for (unsigned i = 0; i < 2; i++) {
		off[i] = track_start(drive, 2 + i);
		len[i] = (uint32_t)(track_start(drive, 3 + i) - off[i]);
	}
	serve(drive, 2, off, len, op, 0, ms);
	return ms[1];
}

/*
 * write_prep_ms holds the data (10 sectors over 20 MiB/s, 0.24 ms) past the
 * skew: a turn later. continue_switch moves the head to track 3 from the
 * second write's start: a head switch of 0.5 ms fits in the skew (less the
 * 0.5 ms controller time), one of 1.8 ms does not.
 */
static void write_phases(struct check_state *st)
{
	const char *slow = "bus_write_mib_s=20,write_start_sectors=10";
	char prep[128];
	double none = next_track(slow), late, sw, sw_long, no_sw;

	snprintf(prep, sizeof(prep), "%s,write_prep_ms=1.5", slow);
	late = next_track(prep);
	CHECK(st, fabs(none - (2 + REV)) < 0.01, "data in time: %.4f ms, want %.4f", none, 2 + REV);
	CHECK(st, fabs(late - (2 + 2 * REV)) < 0.01, "write_prep_ms=1.5: %.4f ms, want %.4f", late,
	      2 + 2 * REV);
	sw = next_track("continue_switch=on");
	sw_long = next_track("continue_switch=on,head_switch_ms=1.8");
	no_sw = next_track("head_switch_ms=1.8");
	CHECK(st, fabs(sw - (2 + REV)) < 0.01, "continue_switch, 0.5 ms switch: %.4f ms, want %.4f",
	      sw, 2 + REV);
	CHECK(st, fabs(sw_long - (2 + 2 * REV)) < 0.01,
	      "continue_switch, 1.8 ms switch: %.4f ms, want %.4f", sw_long, 2 + 2 * REV);
	CHECK(st, fabs(no_sw - (2 + REV)) < 0.01, "no continue_switch: %.4f ms, want %.4f", no_sw,
	      2 + REV);
}

/*
 * Track 2 whole, then the second half of track 3 (a write it does not
 * continue: its data come 6.8 ms late). Its sector comes 2 + REV/2 ms after
 * track 2's end: the data (0.5 + 6.8 ms) are in time; a seek held up as long
 * (redisconnect_seek_ms, then the 0.5 ms head switch) is not.
 */
static void redisconnect(struct check_state *st)
{
	const char *drive = "track_skew_ms=2,write_redisconnect_ms=6.8,write_done_ms=0.2";
	char more[192];
	uint64_t off[2], t3 = track_start(drive, 3), t4 = track_start(drive, 4);
	uint32_t len[2];
	enum io_op op[2] = { IO_WRITE, IO_WRITE };
	double base[2], seek[2], done[2];
	struct hdd_config c;
	struct errmsg err = { 0 };

	off[0] = track_start(drive, 2);
	len[0] = (uint32_t)(t3 - off[0]);
	off[1] = t3 + (t4 - t3) / 2 / 512 * 512;
	len[1] = (uint32_t)(t4 - off[1]);
	serve(drive, 2, off, len, op, 0, base);
	snprintf(more, sizeof(more), "%s,redisconnect_seek_ms=6.8", drive);
	serve(more, 2, off, len, op, 0, seek);
	snprintf(more, sizeof(more), "%s,redisconnect_done_ms=-0.1", drive);
	serve(more, 2, off, len, op, 0, done);
	CHECK(st, fabs(base[1] - (2 + REV)) < 0.02, "data 6.8 ms late: %.4f ms, want %.4f", base[1],
	      2 + REV);
	CHECK(st, fabs(seek[1] - base[1] - REV) < 0.01,
	      "its seek 6.8 ms late: %.4f ms, want a turn more than %.4f", seek[1], base[1]);
	CHECK(st, fabs(done[1] - base[1] + 0.1) < 0.001,
	      "redisconnect_done_ms=-0.1: %.4f ms, want 0.1 ms less than %.4f", done[1], base[1]);
	CHECK(st, fabs(done[0] - base[0]) < 0.001, "the first write (no further disconnect) "
	      "%.4f ms, want %.4f", done[0], base[0]);
	CHECK(st, hdd_test_parse(BASE, "write_redisconnect_ms=0.2,redisconnect_seek_ms=0.3", &c,
				 &err) == -EINVAL && strstr(err.text, "above write_redisconnect_ms"),
	      "redisconnect_seek_ms above write_redisconnect_ms: '%s'", err.text);
	CHECK(st, hdd_test_parse(BASE, "redisconnect_done_ms=-0.1", &c, &err) == -EINVAL &&
			  strstr(err.text, "below -write_done_ms"),
	      "redisconnect_done_ms below -write_done_ms: '%s'", err.text);
}

int main(void)
{
	struct check_state st = { 0 };

	reconnect_sectors(&st);
	read_phases(&st);
	ahead_max(&st);
	takes_segment(&st);
	write_phases(&st);
	redisconnect(&st);
	return check_exit(&st, "test_sim_hdd_phases");
}
