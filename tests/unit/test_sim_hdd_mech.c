/*
 * test_sim_hdd_mech.c — the simulated hard disk's finer mechanics and
 * controller, the parameters DiskSim's drive descriptions need (sim/hdd*.c):
 * cylinders of several surfaces with a head switch, DiskSim's seek
 * equation, the read and write water marks, the controller times of read
 * hits and after a write, read-ahead to the track's end or one segment past
 * a miss (window), the further time of a read hit that jumps, the refusals
 * that keep them sane, and the cylinder of a track found without a division.
 * Requests go one at a time, each submitted when the one before completed
 * (as DiskSim's validation traces were measured).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hdd_serve.h"

#define KIB 1024ULL
#define MIB (1ULL << 20)

/* A small drive: 5400 rpm, 2 surfaces, no read-ahead worth the name, cache off. */
static const char *const BASE =
	"capacity=256m,rpm=5400,outer_mib_s=8,inner_mib_s=6,zones=4,seek_track_ms=1,"
	"seek_avg_ms=6,seek_full_ms=12,write_settle_ms=0,cmd_overhead_ms=0.5,"
	"access_overhead_ms=0,bus_mib_s=300,cache_mib=1,cache_segments=1,write_cache=off,"
	"ncq_depth=1,ncq_aging=0";

static int parse(const char *extra, struct hdd_config *c, struct errmsg *err)
{
	return hdd_test_parse(BASE, extra, c, err);
}

static struct hdd_config drive(const char *extra)
{
	return hdd_test_drive(BASE, extra);
}

#define serve hdd_test_serve
#define serve_think hdd_test_serve_think
#define track_start hdd_test_track_start

static double mean(const double *v, unsigned n, unsigned from)
{
	double s = 0;

	for (unsigned i = from; i < n; i++)
		s += v[i];
	return s / (n - from);
}

enum { N = 200 };

/*
 * Pairs of reads, track lo + gap then track lo, with lo falling pair by pair:
 * each read lies behind every one before it, so neither the read-ahead nor
 * a segment holds it. Mean service time of the second of each pair, ms.
 */
static double pairs(const struct hdd_config *c, uint32_t gap)
{
	static struct hdd_geom g;
	uint64_t off[N];
	uint32_t len[N];
	enum io_op op[N];
	double ms[N];
	struct errmsg err;

	if (hdd_geom_init(&g, c, &err)) {
		printf("geometry: %s\n", err.text);
		exit(1);
	}
	for (unsigned i = 0; i < N; i++) {
		uint32_t lo = 2000 - 4 * (i / 2);

		off[i] = track_start(&g, i % 2 ? lo : lo + gap) + 512 * (i % 7);
		len[i] = 512;
		op[i] = IO_READ;
	}
	serve(c, N, off, len, op, ms);
	for (unsigned i = 1; i < N / 2; i++)
		ms[i] = ms[2 * i + 1];
	return mean(ms, N / 2, 1);
}

static void head_switch(struct check_state *st)
{
	struct hdd_config one = drive("surfaces=2"), sw = drive("surfaces=2,head_switch_ms=20");
	double rev = 60e3 / 5400;
	/* with two surfaces tracks 2k and 2k + 1 are one cylinder, 2k + 2 the next */
	double same0 = pairs(&one, 1), same20 = pairs(&sw, 1);
	double next0 = pairs(&one, 2), next20 = pairs(&sw, 2);

	printf("  reads after one on the other surface: %.2f ms, with a 20 ms head switch %.2f ms;"
	       " next cylinder %.2f / %.2f ms\n", same0, same20, next0, next20);
	CHECK(st, same20 - same0 > 20 - rev && same20 - same0 < 20 + rev,
	      "head switch of 20 ms adds %.2f ms", same20 - same0);
	CHECK(st, next20 == next0, "a head switch charged on a seek: %.3f vs %.3f ms", next20,
	      next0);
}

static void seek_equation(struct check_state *st)
{
	struct hdd_config c = drive("surfaces=4,seek_knee_cyl=300,seek_eq_a_ms=3.81,"
				    "seek_eq_sqrt_ms=0.33,seek_eq_c_ms=7.75,seek_eq_lin_ms=0.0059,"
				    "seek_track_ms=2.89");
	static struct hdd_geom g;
	const uint32_t d[] = { 1, 2, 3, 100, 299, 300, 600 };
	const double want[] = { 2.89, 3.81 + 0.33 * M_SQRT2, 3.81 + 0.33 * sqrt(3), 3.81 + 3.3,
				3.81 + 0.33 * sqrt(299), 7.75 + 0.0059 * 300, 7.75 + 0.0059 * 600 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(st, hdd_geom_init(&g, &c, NULL) == 0, "geometry with the seek equation");
	CHECK(st, g.cylinders == (g.tracks + 3) / 4, "%u cylinders of %u tracks", g.cylinders,
	      g.tracks);
	for (unsigned i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		CHECK(st, fabs(hdd_seek_ns(&g, d[i]) / 1e6 - want[i]) < 0.03,
		      "seek of %u cylinders %.3f ms, want %.3f", d[i], hdd_seek_ns(&g, d[i]) / 1e6,
		      want[i]);
	f = open_memstream(&text, &len);
	if (f) {
		sim_hdd_model.describe(f, &c);
		fclose(f);
		CHECK(st, text && strstr(text, "mean_seek") && strstr(text, "cylinders"),
		      "describe of the equation: %s", text ? text : "");
		free(text);
	}
}

/* Mean service of n requests of `bytes` at spread offsets, all `o`, after `first`. */
static double same_op(const struct hdd_config *c, enum io_op o, uint32_t bytes, enum io_op first,
		      bool sequential)
{
	uint64_t off[N];
	uint32_t len[N];
	enum io_op op[N];
	double ms[N];

	for (unsigned i = 0; i < N; i++) {
		off[i] = sequential ? (uint64_t)i * bytes : (uint64_t)(i * 7919 % 997) * 256 * KIB;
		len[i] = bytes;
		op[i] = i ? o : first;
	}
	serve(c, N, off, len, op, ms);
	return mean(ms, N, 1);
}

static void water_marks(struct check_state *st)
{
	/* a slow bus (1 MiB/s) under an 8 MiB/s platter: 64 KiB take 62.5 ms on the bus */
	struct hdd_config r0 = drive("bus_mib_s=1"), r1 = drive("bus_mib_s=1,read_watermark=1");
	struct hdd_config w1 = drive("bus_mib_s=1,write_watermark=1");
	double media = 64.0 / 1024 / 7 * 1e3;	/* about: 64 KiB at ~7 MiB/s */
	double rd0 = same_op(&r0, IO_READ, 64 * KIB, IO_READ, false);
	double rd1 = same_op(&r1, IO_READ, 64 * KIB, IO_READ, false);
	double wr0 = same_op(&r0, IO_WRITE, 64 * KIB, IO_WRITE, false);
	double wr1 = same_op(&w1, IO_WRITE, 64 * KIB, IO_WRITE, false);

	printf("  64 KiB over a 1 MiB/s bus: reads %.2f ms, %.2f with the read water mark at 1;"
	       " writes %.2f, %.2f with the write water mark at 1\n", rd0, rd1, wr0, wr1);
	CHECK(st, rd1 - rd0 > 0.7 * media && rd1 - rd0 < 1.3 * media,
	      "read water mark 1 adds %.2f ms, want the media time ~%.1f", rd1 - rd0, media);
	CHECK(st, wr1 > 62.5 + media && wr1 > wr0 + 0.5 * media,
	      "write water mark 1: %.2f ms, not after the bus (62.5) and the media", wr1);
	CHECK(st, wr0 < 62.5 + 0.5 + 25 && rd0 < 62.5 + 0.5 + 25,
	      "without water marks the bus hides the media: reads %.2f, writes %.2f", rd0, wr0);
}

static void controller_times(struct check_state *st)
{
	struct hdd_config c = drive("write_cache=on,read_hit_overhead_ms=0.3");
	struct hdd_config aw = drive("write_cache=on,read_hit_overhead_ms=0.3,"
				     "after_write_write_ms=-0.2,after_write_hit_ms=0.4");
	double ww = same_op(&c, IO_WRITE, 4 * KIB, IO_WRITE, true);
	double ww2 = same_op(&aw, IO_WRITE, 4 * KIB, IO_WRITE, true);
	double bus = 4.0 / 1024 / 300 * 1e3;

	/* sequential 4 KiB reads: the read-ahead holds them, all hits after the first */
	double rr = same_op(&c, IO_READ, 4 * KIB, IO_READ, true);

	printf("  cached 4 KiB writes %.4f ms (%.4f with -0.2 ms after a write); sequential read"
	       " hits %.4f ms\n", ww, ww2, rr);
	CHECK(st, fabs(ww - (0.5 + bus)) < 1e-4, "cached write %.4f ms, want %.4f", ww, 0.5 + bus);
	CHECK(st, fabs(ww - ww2 - 0.2) < 1e-4, "write after a write %.4f ms, want %.4f", ww2,
	      ww - 0.2);
	CHECK(st, rr > 0.8 + bus - 1e-4 && rr < 0.8 + bus + 0.3, "read hit %.4f ms, want ~%.4f", rr,
	      0.8 + bus);
}

/* Reads (of n, `bytes` each, at offsets off[]) that took longer than 1 ms: misses. */
static unsigned misses(const struct hdd_config *c, unsigned n, const uint64_t *off, uint32_t bytes)
{
	uint32_t len[N];
	enum io_op op[N];
	double ms[N];
	unsigned k = 0;

	for (unsigned i = 0; i < N; i++) {	/* all N: gcc -O1 cannot tell n <= N */
		len[i] = bytes;
		op[i] = IO_READ;
	}
	serve(c, n, off, len, op, ms);
	for (unsigned i = 0; i < n; i++)
		k += ms[i] > 1;
	return k;
}

static void read_ahead_track(struct check_state *st)
{
	struct hdd_config seg = drive(NULL), trk = drive("read_ahead=track");
	static struct hdd_geom g;
	uint64_t off[N];
	double per_track;
	unsigned m_seg, m_trk, again_seg, again_trk;

	CHECK(st, hdd_geom_init(&g, &trk, NULL) == 0, "geometry");
	per_track = g.zone[0].track_bytes / (4 * KIB);
	for (unsigned i = 0; i < N; i++)
		off[i] = (uint64_t)i * 4 * KIB;
	m_seg = misses(&seg, N, off, 4 * KIB);
	m_trk = misses(&trk, N, off, 4 * KIB);
	for (unsigned i = 0; i < N; i++)	/* far apart, each read twice */
		off[i] = (uint64_t)(i / 2 * 7919 % 997) * 256 * KIB;
	again_seg = misses(&seg, N, off, 4 * KIB);
	again_trk = misses(&trk, N, off, 4 * KIB);
	printf("  %u sequential 4 KiB reads (%.1f a track): %u misses reading a segment ahead, %u"
	       " to the track's end; %u far reads each twice: %u and %u misses\n", N, per_track,
	       m_seg, m_trk, N / 2, again_seg, again_trk);
	CHECK(st, m_seg == 1, "a segment ahead: %u misses, want the first only", m_seg);
	/* a miss that crosses a track reads to the end of the next one */
	CHECK(st, m_trk >= N / per_track / 2 && m_trk <= N / per_track + 1,
	      "to the track's end: %u misses, want %.1f to %.1f", m_trk, N / per_track / 2,
	      N / per_track + 1);
	CHECK(st, again_seg == N / 2 && again_trk == N,
	      "re-reads: %u and %u misses (a segment keeps the host's data, a track's read-ahead"
	      " only what it read ahead)", again_seg, again_trk);
}

/*
 * Reads of 4 KiB, 20 ms apart, the first a miss at track 100: then the next 4 KiB (a hit
 * that continues it), 4 KiB further (a hit that jumps), the next (continues again).
 */
static void hit_jump(struct check_state *st)
{
	struct hdd_config c = drive("read_ahead=window,read_hit_jump_ms=0.2");
	static struct hdd_geom g;
	uint64_t off[4];
	const uint32_t len[4] = { 4 * KIB, 4 * KIB, 4 * KIB, 4 * KIB };
	const enum io_op op[4] = { IO_READ, IO_READ, IO_READ, IO_READ };
	double ms[4], hit = 0.5 + 4.0 / 1024 / 300 * 1e3;

	CHECK(st, hdd_geom_init(&g, &c, NULL) == 0, "geometry");
	off[0] = track_start(&g, 100);
	off[1] = off[0] + 4 * KIB;
	off[2] = off[0] + 12 * KIB;
	off[3] = off[0] + 16 * KIB;
	serve_think(&c, 4, off, len, op, 20000000, ms);
	printf("  read hits after a miss: continuing %.4f ms, jumping 4 KiB %.4f ms, continuing"
	       " %.4f ms (read_hit_jump_ms=0.2)\n", ms[1], ms[2], ms[3]);
	CHECK(st, fabs(ms[1] - hit) < 1e-4 && fabs(ms[3] - hit) < 1e-4,
	      "continuing hits %.4f and %.4f ms, want %.4f", ms[1], ms[3], hit);
	CHECK(st, fabs(ms[2] - hit - 0.2) < 1e-4, "jumping hit %.4f ms, want %.4f", ms[2],
	      hit + 0.2);
}

/*
 * read_ahead=window reads one segment past a miss, over the track's end; a read
 * that starts in what it has not read yet waits only for its remaining sectors.
 */
static void read_ahead_window(struct check_state *st)
{
	/* a miss costs a further 3 ms of access overhead, a hit does not */
	struct hdd_config win = drive("read_ahead=window,cache_segments=4,access_overhead_ms=3");
	struct hdd_config trk = drive("read_ahead=track,cache_segments=4,access_overhead_ms=3");
	static struct hdd_geom g;
	uint64_t off[2];
	const uint32_t len[2] = { 4 * KIB, 4 * KIB };
	const enum io_op op[2] = { IO_READ, IO_READ };
	double w[2], t[2], late[2], late_trk[2], tb, media;

	CHECK(st, hdd_geom_init(&g, &win, NULL) == 0, "geometry");
	tb = g.zone[0].track_bytes;
	/* the miss ends 8 KiB before track 11; the second read starts 8 KiB into it */
	off[0] = track_start(&g, 11) - 12 * KIB;
	off[1] = off[0] + 20 * KIB;
	serve_think(&win, 2, off, len, op, 0, w);
	serve_think(&trk, 2, off, len, op, 0, t);
	serve_think(&win, 2, off, len, op, 40000000, late);
	serve_think(&trk, 2, off, len, op, 40000000, late_trk);
	/* from the miss's end to the second read's end, at the zone's rate */
	media = (double)(off[1] + 4 * KIB - off[0] - 4 * KIB) / tb * 60e3 / 5400;
	printf("  a read on the track after a miss, right after it: %.3f ms with window read-ahead"
	       " (the media needs %.3f), %.3f with track; 40 ms later %.4f and %.3f ms\n", w[1],
	       media, t[1], late[1], late_trk[1]);
	CHECK(st, w[1] > media - 0.7 && w[1] < media + 0.1,
	      "a hit on data being read ahead took %.3f ms, want the rest of the media time %.3f"
	      " less the controller time", w[1], media);
	CHECK(st, t[1] > media + 2, "track read-ahead: %.3f ms, want a miss", t[1]);
	CHECK(st, fabs(late[1] - (0.5 + 4.0 / 1024 / 300 * 1e3)) < 1e-4,
	      "40 ms later the window holds it: %.4f ms", late[1]);
	CHECK(st, late_trk[1] > 1, "40 ms later track read-ahead hit it: %.3f ms", late_trk[1]);
}

static void refuse(struct check_state *st, const char *settings, const char *want)
{
	struct hdd_config c;
	struct errmsg err = { 0 };
	int ret = parse(settings, &c, &err);

	CHECK(st, ret == -EINVAL && strstr(err.text, want), "'%s': %d '%s', want '%s'", settings,
	      ret, err.text, want);
}

static void refusals(struct check_state *st)
{
	refuse(st, "after_write_write_ms=-5", "after_write_write_ms -5 below");
	refuse(st, "after_write_miss_ms=-1", "below -access_overhead_ms");
	refuse(st, "after_write_hit_ms=-1", "after_write_hit_ms -1 below");
	refuse(st, "segment_size=1000", "segment_size 1000");
	refuse(st, "segment_size=2m", "at most");
	refuse(st, "read_watermark=1.5", "read_watermark");
	refuse(st, "surfaces=0", "surfaces");
	refuse(st, "read_ahead=cylinder", "segment or track");
	refuse(st, "capacity=1m,zones=1,surfaces=64", "two cylinders");
}

/*
 * The cylinder of a track is found by a multiply and a shift, not a
 * division: exact for every count of surfaces and the tracks a drive can
 * have (below 2^31), the first ones, those next to multiples of it and the
 * last ones checked.
 */
static void cylinder_of(struct check_state *st)
{
	static struct hdd_geom g;
	unsigned long long bad = 0, n = 0;
	char extra[32];

	for (unsigned s = 1; s <= 64; s++) {
		struct hdd_config c;

		snprintf(extra, sizeof(extra), "surfaces=%u", s);
		c = drive(extra);
		CHECK(st, hdd_geom_init(&g, &c, NULL) == 0, "geometry of %u surfaces", s);
		for (uint32_t k = 0; k < 4096; k++) {
			uint32_t t[] = { k, k * s - (k > 0), 0x7fffffffu - k,
					 (uint32_t)(((uint64_t)k * 2654435761u) % 0x80000000u) };

			for (unsigned i = 0; i < sizeof(t) / sizeof(*t); i++, n++)
				bad += hdd_cyl_of(&g, t[i]) != t[i] / s;
		}
	}
	CHECK(st, !bad, "%llu of %llu cylinders differ from the division", bad, n);
}

int main(void)
{
	struct check_state st = { 0 };

	cylinder_of(&st);
	head_switch(&st);
	seek_equation(&st);
	water_marks(&st);
	controller_times(&st);
	read_ahead_track(&st);
	hit_jump(&st);
	read_ahead_window(&st);
	refusals(&st);
	return check_exit(&st, "test_sim_hdd_mech");
}
