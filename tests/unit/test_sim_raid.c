/*
 * test_sim_raid.c — the simulated arrays (sim/raid.h): the member list
 * matches the presets; the left-symmetric layout, read-modify-write and
 * reconstruct-write seen in the members' counters; degraded reads; and the
 * seeds' ICH9R findings in simulation: RAID 10 sequential reads about twice
 * one disk, RAID 5 small random writes slower than one disk without cache, a
 * controller cache hiding the partial-stripe penalty of small writes and no
 * longer mattering for huge ones, the disks' cache helping less; the data of
 * verified runs through the cache, destaging and degraded reads; TRIM
 * passed to the members (RAID 5/6: whole rows). Same
 * seed, same completion times.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/raid.h"
#include "sim/raid_array.h"
#include "sim/spec.h"
#include "sim/ssd.h"
#include "util/rng.h"

static struct check_state st;

struct result {
	double iops, mean_ms;
	uint64_t fingerprint;
	struct sim_counters count, member[8];
};

struct workload {
	enum io_op op;
	bool random;
	uint64_t bs, ios, offset;	/* offset: first IO of a sequential run */
	unsigned qd;
};

static struct sim_device *make(const char *spec_text)
{
	struct sim_spec spec;
	struct sim_device *d = NULL;
	struct errmsg err;

	if (sim_spec_parse(&spec, spec_text, &err) || sim_spec_create(&spec, 7, &d, &err)) {
		printf("cannot build %s: %s\n", spec_text, err.text);
		exit(1);
	}
	sim_spec_release(&spec);
	return d;
}

static uint64_t next_offset(const struct workload *w, struct sim_device *d, struct rng *r,
			    uint64_t *seq)
{
	uint64_t slots = d->capacity / w->bs, o;

	if (w->random)
		return rng_below(r, slots) * w->bs;
	o = *seq;
	*seq = (*seq + w->bs) % (slots * w->bs);
	return o;
}

/* A closed loop of w->qd IOs over the device of `spec_text`. */
static struct result run(const char *spec_text, const struct workload *w)
{
	struct sim_device *d = make(spec_text);
	struct io_request *reqs = calloc(w->qd, sizeof(*reqs)), *out[64];
	struct result res = { .fingerprint = 0xcbf29ce484222325ULL };
	uint64_t issued = 0, done = 0, now = 0, seq = w->offset, first = UINT64_MAX, last = 0;
	double lat = 0;
	struct rng rng;

	rng_init(&rng, 11);
	for (unsigned i = 0; i < w->qd && issued < w->ios; i++, issued++) {
		reqs[i] = (struct io_request){ .offset = next_offset(w, d, &rng, &seq),
					       .length = (uint32_t)w->bs, .op = w->op, .slot = i };
		CHECK(&st, !d->ops->submit(d, &reqs[i], now), "submit");
	}
	while (done < w->ios) {
		unsigned n;

		now = d->ops->next_completion(d);
		n = d->ops->complete(d, now, out, 64);
		for (unsigned i = 0; i < n; i++, done++) {
			res.fingerprint = (res.fingerprint ^ out[i]->complete_ns) * 0x100000001b3ULL;
			CHECK(&st, out[i]->result == (int64_t)w->bs, "result %lld",
			      (long long)out[i]->result);
			lat += (double)(out[i]->complete_ns - out[i]->submit_ns);
			first = first < out[i]->submit_ns ? first : out[i]->submit_ns;
			last = out[i]->complete_ns;
			if (issued++ >= w->ios)
				continue;
			out[i]->offset = next_offset(w, d, &rng, &seq);
			out[i]->submit_ns = now;
			CHECK(&st, !d->ops->submit(d, out[i], now), "submit");
		}
	}
	res.iops = (double)w->ios / ((double)(last - first) * 1e-9);
	res.mean_ms = lat / (double)w->ios / 1e6;
	d->ops->counters(d, &res.count);
	if (d->ops->member_counters)
		CHECK(&st, d->ops->member_counters(d, res.member, 8) <= 8, "members");
	d->ops->destroy(d);
	free(reqs);
	return res;
}

static void member_names(void)
{
	const struct sim_preset *p;
	unsigned n = 0;

	for (unsigned i = 0; raid_member_names[i]; i++)
		CHECK(&st, sim_preset_find(raid_member_names[i]) || !strcmp(raid_member_names[i], "hdd")
			   || !strcmp(raid_member_names[i], "ssd"), "%s", raid_member_names[i]);
	for (unsigned i = 0; (p = sim_preset_at(i)); i++, n++) {
		bool listed = false;

		for (unsigned j = 0; raid_member_names[j]; j++)
			listed |= !strcmp(raid_member_names[j], p->name);
		CHECK(&st, listed, "preset %s is not a possible member", p->name);
	}
	CHECK(&st, n >= 5, "presets");
}

/* One 4 KiB write into chunk 0 of row 0 of a 4-disk RAID 5: P of row 0 is member 3. */
static void layout_rmw(void)
{
	struct workload w = { IO_WRITE, false, 4096, 1, 0, 1 };
	struct result r = run("raid5,disks=4,member=wd6400aaks,member_write_cache=off", &w);
	struct result r3;

	CHECK(&st, r.member[0].host_read_bytes == 4096 && r.member[0].host_write_bytes == 4096,
	      "data member 0: read %llu written %llu",
	      (unsigned long long)r.member[0].host_read_bytes,
	      (unsigned long long)r.member[0].host_write_bytes);
	CHECK(&st, r.member[3].host_read_bytes == 4096 && r.member[3].host_write_bytes == 4096,
	      "parity member 3");
	CHECK(&st, !r.member[1].host_read_bytes && !r.member[2].host_write_bytes, "others untouched");
	/* row 1 (offset one row = 192 KiB): P on member 2, data 0 on member 3 */
	w.offset = 3 * 65536;
	r = run("raid5,disks=4,member=wd6400aaks", &w);
	CHECK(&st, r.member[2].host_write_bytes == 4096 && r.member[3].host_write_bytes == 4096 &&
		   !r.member[0].host_write_bytes, "row 1: left-symmetric rotation");
	/* 3 disks: reconstruct-write reads the other data chunk instead of data + parity */
	w.offset = 0;
	r3 = run("raid5,disks=3,member=wd6400aaks", &w);
	CHECK(&st, r3.member[1].host_read_bytes == 4096 && !r3.member[0].host_read_bytes &&
		   !r3.member[2].host_read_bytes, "3-disk RAID 5: reconstruct-write");
	/* RAID 6 of 6, row 0: P on member 5, Q on member 0, data chunk 0 on member 1 */
	r = run("raid6,disks=6,member=wd6400aaks", &w);
	for (unsigned m = 0; m < 6; m++) {
		uint64_t want = m == 5 || m == 0 || m == 1 ? 4096 : 0;

		CHECK(&st, r.member[m].host_read_bytes == want && r.member[m].host_write_bytes == want,
		      "RAID 6 read-modify-write: member %u read %llu written %llu", m,
		      (unsigned long long)r.member[m].host_read_bytes,
		      (unsigned long long)r.member[m].host_write_bytes);
	}
	/* a full row: no reads */
	w.bs = 3 * 65536;
	r = run("raid5,disks=4,member=wd6400aaks", &w);
	CHECK(&st, !r.member[0].host_read_bytes && !r.member[3].host_read_bytes &&
		   r.member[3].host_write_bytes == 65536, "full row: parity written, nothing read");
}

static void degraded(void)
{
	struct workload w = { IO_READ, false, 4096, 1, 0, 1 };
	struct result r = run("raid5,disks=4,member=wd6400aaks,failed=1", &w);

	CHECK(&st, !r.member[0].host_read_bytes, "nothing goes to the failed member");
	CHECK(&st, r.member[1].host_read_bytes == 4096 && r.member[2].host_read_bytes == 4096 &&
		   r.member[3].host_read_bytes == 4096, "its chunk rebuilt from the rest of the row");
	w.random = true;
	w.ios = 400;
	r = run("raid5,disks=4,member=wd6400aaks,failed=1", &w);
	{
		uint64_t sum = 0;

		for (unsigned m = 0; m < 4; m++)
			sum += r.member[m].host_read_bytes;
		/* a quarter of the reads hit the failed member and read three */
		CHECK(&st, sum > 1.4 * 400 * 4096 && sum < 1.6 * 400 * 4096,
		      "degraded random reads: %llu member bytes for %d", (unsigned long long)sum,
		      400 * 4096);
	}
}

/* Sequential 16 MiB reads of `spec`, healthy and with `failed` members. */
static void degraded_stream(const char *spec, unsigned n, unsigned data, unsigned failed)
{
	struct workload w = { IO_READ, false, 16 << 20, 8, 0, 1 };
	char text[128];
	struct result ok = run(spec, &w), r;
	double share = 8.0 * (16 << 20) / data;	/* each member's chunks of the rows read */

	snprintf(text, sizeof(text), "%s,failed=%u", spec, failed);
	r = run(text, &w);
	for (unsigned m = 0; m < n; m++) {
		double got = (double)r.member[m].host_read_bytes;

		if (m < failed) {
			CHECK(&st, got == 0, "%s: failed member %u read", text, m);
			continue;
		}
		/* every chunk of each row once (RAID 6: Q when P is not enough; a few chunks again
		 * where one IO ends mid-row) */
		CHECK(&st, got >= 0.97 * share && got <= 1.02 * share,
		      "%s: member %u read %.0f bytes for %.0f", text, m, got, share);
		CHECK(&st, r.member[m].seeks <= 2, "%s: member %u made %llu seeks", text, m,
		      (unsigned long long)r.member[m].seeks);
	}
	/* the survivors stream the whole row as the healthy array streams through parity */
	CHECK(&st, r.iops >= 0.95 * ok.iops && r.iops >= (double)(n - 1) / n * ok.iops,
	      "%s: %.2f IO/s, healthy %.2f", text, r.iops, ok.iops);
}

/*
 * A degraded read reads each surviving chunk of a row once, the direct
 * reads and those for reconstruction merged; reconstruction reads the row's
 * data chunks, then P, then Q, as many as the row has data chunks.
 */
static void degraded_rows(void)
{
	struct workload w = { IO_READ, false, 3 * 65536, 1, 0, 1 };
	struct result r = run("raid5,disks=4,member=wd6400aaks,failed=1", &w);

	/* row 0: data on members 0 (failed), 1, 2; P on member 3 */
	for (unsigned m = 1; m < 4; m++)
		CHECK(&st, r.member[m].host_read_bytes == 65536, "row 0: member %u read %llu", m,
		      (unsigned long long)r.member[m].host_read_bytes);
	/* RAID 6 of 6, row 1: P on member 4, Q on 5, data 0..3 on members 0..3 */
	w.bs = 4096;
	w.offset = 4 * 65536;
	for (unsigned f = 1; f <= 2; f++) {
		char text[64];

		snprintf(text, sizeof(text), "raid6,disks=6,member=wd6400aaks,failed=%u", f);
		r = run(text, &w);
		for (unsigned m = f; m < 6; m++) {
			uint64_t want = m == 5 && f == 1 ? 0 : 4096;	/* Q only when P is not enough */

			CHECK(&st, r.member[m].host_read_bytes == want, "%s: member %u read %llu",
			      text, m, (unsigned long long)r.member[m].host_read_bytes);
		}
	}
	w.offset = 65536;		/* row 0, data 1: member 2, there */
	r = run("raid6,disks=6,member=wd6400aaks,failed=2", &w);
	for (unsigned m = 0; m < 6; m++)
		CHECK(&st, r.member[m].host_read_bytes == (m == 2 ? 4096 : 0u),
		      "a surviving chunk: one read (member %u read %llu)", m,
		      (unsigned long long)r.member[m].host_read_bytes);
	degraded_stream("raid5,disks=4,member=wd6400aaks", 4, 3, 1);
	degraded_stream("raid6,disks=6,member=wd6400aaks", 6, 4, 1);
	degraded_stream("raid6,disks=6,member=wd6400aaks", 6, 4, 2);
}

static void ich9r_findings(void)
{
	struct workload seq = { IO_READ, false, 1 << 20, 400, 0, 1 };
	struct workload small = { IO_WRITE, true, 4096, 400, 0, 1 };
	struct workload huge = { IO_WRITE, true, 64 << 20, 12, 0, 1 };
	double one = run("wd6400aaks", &seq).iops, r10 = run("raid10,disks=4,member=wd6400aaks", &seq).iops;
	double disk = run("wd6400aaks,write_cache=off", &small).iops;
	double r5 = run("raid5,disks=4,member=wd6400aaks,member_write_cache=off", &small).iops;
	struct result r5c = run("raid5,disks=4,member=wd6400aaks,member_write_cache=off,"
				"controller_cache=on,cache_mib=4", &small);
	struct workload many = { IO_WRITE, true, 4096, 2000, 0, 1 };	/* past the disk's cache */
	double diskc = run("wd6400aaks,write_cache=on", &many).iops;
	double h = run("raid5,disks=4,member=wd6400aaks,member_write_cache=off", &huge).iops;
	double hc = run("raid5,disks=4,member=wd6400aaks,member_write_cache=off,"
			"controller_cache=on,cache_mib=4", &huge).iops;
	double r5d = run("raid5,disks=4,member=wd6400aaks,member_write_cache=on", &small).iops;
	double hd = run("raid5,disks=4,member=wd6400aaks,member_write_cache=on", &huge).iops;

	CHECK(&st, r10 > 1.8 * one && r10 < 2.1 * one, "RAID 10 sequential reads %.1f vs one disk %.1f",
	      r10, one);
	CHECK(&st, r5 < disk, "RAID 5 small writes %.1f IOPS, one disk without cache %.1f", r5, disk);
	/* 400 writes of 4 KiB fit in the 4 MiB cache: each completes as it arrives */
	CHECK(&st, r5c.mean_ms < 0.01, "controller cache: %.3g ms a write against %.3g without",
	      r5c.mean_ms, 1e3 / r5);
	CHECK(&st, fabs(hc / h - 1) < 0.05, "64 MiB writes: %.3f IOPS cached, %.3f not", hc, h);
	/*
	 * The disks' own cache takes the writes of read-modify-write, not its
	 * reads: faster than without, still slower than one disk with its
	 * cache (the seed: "comparable, yet still worse than a single disc").
	 */
	CHECK(&st, r5d > 1.1 * r5 && r5d < diskc, "disk cache: RAID 5 %.1f IOPS, %.1f without, "
	      "one disk with its cache %.1f", r5d, r5, diskc);
	CHECK(&st, fabs(hd / h - 1) < 0.05, "64 MiB writes: %.3f IOPS with the disks' cache, %.3f "
	      "without", hd, h);
}

/*
 * RAID 1 and 10 read from the mirror whose head is nearer: random reads at
 * QD1 gain on one disk (a shorter seek), and both mirrors serve some.
 */
static void mirror_reads(void)
{
	struct workload w = { IO_READ, true, 4096, 400, 0, 1 };
	double one = run("wd6400aaks", &w).iops;
	struct result r1 = run("raid1,disks=2,member=wd6400aaks", &w);
	struct result r10 = run("raid10,disks=4,member=wd6400aaks", &w);

	CHECK(&st, r1.iops > 1.15 * one, "RAID 1 random reads %.1f IOPS, one disk %.1f", r1.iops,
	      one);
	CHECK(&st, r10.iops > 1.15 * one, "RAID 10 random reads %.1f IOPS", r10.iops);
	for (unsigned m = 0; m < 2; m++)
		CHECK(&st, r1.member[m].host_read_bytes > 400 * 4096 / 5,
		      "mirror %u served %llu bytes of reads", m,
		      (unsigned long long)r1.member[m].host_read_bytes);
}

/* Run one request on `d` from `now` to its completion; returns the completion time. */
static uint64_t one_io(struct sim_device *d, enum io_op op, uint64_t off, void *buf, uint64_t now)
{
	struct io_request req = { .offset = off, .length = 4096, .op = op, .buf = buf,
				  .submit_ns = now }, *out[8];

	CHECK(&st, !d->ops->submit(d, &req, now), "submit");
	for (;;) {
		unsigned n;

		now = d->ops->next_completion(d);
		n = d->ops->complete(d, now, out, 8);
		CHECK(&st, n == 1 && out[0] == &req, "one completion");
		if (n)
			return now;
	}
}

/* Let the array finish its own work (destaging) after `now`, with a read elsewhere. */
static uint64_t drain(struct sim_device *d, uint64_t now)
{
	unsigned char scratch[4096];

	for (int i = 0; i < 20; i++)
		now = one_io(d, IO_READ, (uint64_t)(i + 100) << 20, scratch, now);
	return now;
}

/*
 * The data of a verified run (raid_data.h): a read right after a cached
 * write finds the cache's data, the newest of two writes wins, destaging
 * takes it to the members (a member that drops every write shows it), a
 * failed member's chunk is rebuilt from parity.
 */
static void cache_data(void)
{
	const char *clean = "raid5,disks=4,member=wd6400aaks,member_capacity=1g,failed=1,"
			    "controller_cache=on";
	const char *lossy = "raid5,disks=4,member=wd6400aaks,member_capacity=1g,failed=1,"
			    "controller_cache=on,bad_member=1,bad_member_lost_write_rate=1";
	unsigned char a[4096], b[4096], got[4096], zero[4096] = { 0 };
	struct sim_device *d = make(clean);
	uint64_t x = 65536, now;	/* chunk 1: member 1; chunk 0 (member 0) has failed */

	memset(a, 0xaa, sizeof(a));
	memset(b, 0xbb, sizeof(b));
	CHECK(&st, !d->ops->keep_data(d, 1 << 26), "keep data");
	now = one_io(d, IO_WRITE, x, a, 0);
	now = one_io(d, IO_WRITE, x, b, now);
	now = one_io(d, IO_READ, x, got, now);
	CHECK(&st, !memcmp(got, b, 4096), "a read after two cached writes: the newer");
	now = one_io(d, IO_WRITE, 0, a, drain(d, now));
	now = one_io(d, IO_READ, 0, got, drain(d, now));
	CHECK(&st, !memcmp(got, a, 4096), "the failed member's chunk, rebuilt from parity");
	now = one_io(d, IO_READ, x, got, now);
	CHECK(&st, !memcmp(got, b, 4096), "destaged: the members hold the newer write");
	d->ops->destroy(d);

	d = make(lossy);
	CHECK(&st, !d->ops->keep_data(d, 1 << 26), "keep data");
	now = one_io(d, IO_WRITE, x, a, 0);
	now = one_io(d, IO_READ, x, got, now);
	CHECK(&st, !memcmp(got, a, 4096), "before its destage, the write is read from the cache");
	now = one_io(d, IO_READ, x, got, drain(d, now));
	CHECK(&st, !memcmp(got, zero, 4096), "after it, from member 1, which dropped it");
	d->ops->destroy(d);
}

/* Each member's valid pages (4 KiB pages of the bare "ssd") after discarding [off, +len). */
static int trimmed(const char *spec, uint64_t off, uint64_t len, uint64_t *drop)
{
	struct sim_device *d = make(spec);
	struct raid_array *a = (struct raid_array *)d;
	uint64_t before[8];
	int ret;

	for (unsigned m = 0; m < a->n; m++)
		before[m] = m < a->cfg.failed ? 0 : ssd_valid_count(a->member[m]);
	ret = d->ops->discard(d, off, len);
	for (unsigned m = 0; m < a->n; m++)
		drop[m] = m < a->cfg.failed ? 0 : (before[m] - ssd_valid_count(a->member[m])) * 4096;
	d->ops->destroy(d);
	return ret;
}

/* A TRIM of the array reaches the members' chunks it covers (RAID 5/6: whole rows only). */
static void trim(void)
{
	const uint64_t k64 = 65536;
	uint64_t drop[8];
	int ret;

	ret = trimmed("raid5,disks=4,member=ssd,member_capacity=256m,state=used", 4096, 3 * k64, drop);
	CHECK(&st, !ret && !drop[0] && !drop[1] && !drop[2] && !drop[3],
	      "RAID 5: no whole row, nothing trimmed (%d; %llu %llu)", ret,
	      (unsigned long long)drop[0], (unsigned long long)drop[1]);
	ret = trimmed("raid5,disks=4,member=ssd,member_capacity=256m,state=used,failed=1", 4096,
		      11 * 3 * k64, drop);
	for (unsigned m = 1; m < 4; m++)	/* rows 1 .. 10: data and parity */
		CHECK(&st, !ret && drop[m] == 10 * k64, "RAID 5 rows 1-10: member %u dropped %llu",
		      m, (unsigned long long)drop[m]);
	ret = trimmed("raid6,disks=6,member=ssd,member_capacity=256m,state=used", 0, 8 * k64, drop);
	for (unsigned m = 0; m < 6; m++)
		CHECK(&st, !ret && drop[m] == 2 * k64, "RAID 6 two rows: member %u dropped %llu", m,
		      (unsigned long long)drop[m]);
	ret = trimmed("raid0,disks=3,member=ssd,member_capacity=256m,state=used", k64 + 4096,
		      2 * k64, drop);
	CHECK(&st, !ret && drop[0] == 4096 && drop[1] == k64 - 4096 && drop[2] == k64,
	      "RAID 0: each member's chunks (%llu %llu %llu)", (unsigned long long)drop[0],
	      (unsigned long long)drop[1], (unsigned long long)drop[2]);
	ret = trimmed("raid10,disks=4,member=ssd,member_capacity=256m,state=used", k64, 8192, drop);
	CHECK(&st, !ret && !drop[0] && !drop[1] && drop[2] == 8192 && drop[3] == 8192,
	      "RAID 10: chunk 1 on both mirrors of pair 1");
	ret = trimmed("raid1,disks=2,member=ssd,member_capacity=256m,state=used,failed=1", 0, k64, drop);
	CHECK(&st, !ret && drop[1] == k64, "RAID 1: the surviving mirror");
	ret = trimmed("raid0,disks=2,member=ssd,member_capacity=256m", 256 << 20, 512 << 20, drop);
	CHECK(&st, ret == -EINVAL, "past the end: %d", ret);
	{
		struct sim_device *d = make("raid5,disks=4,member=wd6400aaks");

		CHECK(&st, d->ops->discard(d, 0, 3 * k64) == -EOPNOTSUPP, "HDD members take no TRIM");
		d->ops->destroy(d);
	}
}

static void determinism(void)
{
	struct workload w = { IO_WRITE, true, 16384, 300, 0, 8 };
	const char *spec = "raid6,disks=6,member=wd6400aaks,controller_cache=on";

	CHECK(&st, run(spec, &w).fingerprint == run(spec, &w).fingerprint, "same seed, same times");
	w.op = IO_READ;
	CHECK(&st, run("raid1,disks=3,member=ocz-core", &w).iops > 0, "RAID 1 of three SSDs");
}

static void refusals(void)
{
	static const char *const bad[] = {
		"raid5,disks=2", "raid10,disks=5", "raid6,disks=3", "raid5,stripe=1000",
		"raid0,failed=1", "raid5,failed=2", "raid5,member=floppy", "raid5,state=used",
	};
	struct sim_spec spec;
	struct errmsg err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = sim_spec_parse(&spec, bad[i], &err);

		CHECK(&st, ret, "%s accepted", bad[i]);
		if (!ret)
			sim_spec_release(&spec);
	}
}

int main(void)
{
	member_names();
	layout_rmw();
	degraded();
	degraded_rows();
	ich9r_findings();
	mirror_reads();
	cache_data();
	trim();
	determinism();
	refusals();
	return check_exit(&st, "test_sim_raid");
}
