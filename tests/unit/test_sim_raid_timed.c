/*
 * test_sim_raid_timed.c — an array whose members hand over their completion
 * times at submission (device.h detach, raid.c "timed") completes every host
 * request at the same time, in the same order and with the same result as
 * the same array polling its members (poll_members), and leaves the members
 * in the same state: on RAID 0, 5 and 6 of page-FTL SSDs, with depths past
 * the members' NCQ, a controller cache, a failed member, spread and stalls,
 * and hosts that submit before the completion the array announced (as after
 * a latency spike), which the array's clock must absorb the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sim/raid.h"
#include "sim/spec.h"
#include "util/rng.h"

static struct check_state st;

static struct sim_device *make(const char *text, bool poll)
{
	struct sim_spec spec;
	struct sim_device *d = NULL;
	struct errmsg err;
	struct raid_sim_config c;

	if (sim_spec_parse(&spec, text, &err)) {
		printf("cannot parse %s: %s\n", text, err.text);
		exit(1);
	}
	c = *(const struct raid_sim_config *)spec.config;
	c.poll_members = poll;
	if (raid_sim_create(&c, 7, &d, &err)) {
		printf("cannot build %s: %s\n", text, err.text);
		exit(1);
	}
	sim_spec_release(&spec);
	return d;
}

struct host {
	struct sim_device *d;
	struct io_request *reqs;
	uint64_t fingerprint;
};

static void mix(uint64_t *f, uint64_t v)
{
	*f = (*f ^ v) * 0x100000001b3ULL;
}

/* A request of bs bytes, or (bs2 != 0) of bs or bs2 at random. */
static void submit_new(struct host *h, struct rng *r, unsigned slot, uint64_t now, uint64_t bs,
		       uint64_t bs2)
{
	struct io_request *q = &h->reqs[slot];
	uint64_t len = bs2 && rng_below(r, 2) ? bs2 : bs;

	*q = (struct io_request){ .offset = rng_below(r, h->d->capacity / len) * len,
				  .length = (uint32_t)len, .slot = slot,
				  .op = rng_below(r, 100) < 60 ? IO_WRITE : IO_READ };
	CHECK(&st, !h->d->ops->submit(h->d, q, now), "submit");
}

/*
 * Drive the timed and the polling array of `text` with one random closed
 * loop of `qd` IOs of `bs` bytes (or of bs and bs2 mixed), each step on
 * both; `early` percent of the steps, a free slot is filled before the
 * announced completion.
 */
static void compare(const char *text, unsigned qd, uint64_t bs, uint64_t bs2, unsigned early,
		    unsigned ios)
{
	struct host h[2] = { { make(text, false), NULL, 0 }, { make(text, true), NULL, 0 } };
	struct rng r[2], ctl;	/* each host's requests; the steps */
	unsigned free_slots = 0, *slots = calloc(qd, sizeof(*slots)), done = 0, issued = 0;
	uint64_t now = 0, diverged = 0;

	rng_init(&ctl, 9);
	for (int k = 0; k < 2; k++) {
		h[k].reqs = calloc(qd, sizeof(*h[k].reqs));
		rng_init(&r[k], 5);
	}
	for (unsigned i = 0; i < qd; i++, issued++)
		for (int k = 0; k < 2; k++)
			submit_new(&h[k], &r[k], i, now, bs, bs2);
	while (done < ios && !diverged) {
		uint64_t t[2] = { h[0].d->ops->next_completion(h[0].d),
				  h[1].d->ops->next_completion(h[1].d) };
		struct io_request *out[2][64];
		unsigned n[2];

		diverged = t[0] != t[1];
		if (diverged || (t[0] == UINT64_MAX && !free_slots))
			break;
		if (free_slots && (t[0] == UINT64_MAX || (t[0] > now && rng_below(&ctl, 100) < early))) {
			if (t[0] != UINT64_MAX)
				now += rng_below(&ctl, t[0] - now);	/* before t */
			free_slots--;
			for (int k = 0; k < 2; k++)
				submit_new(&h[k], &r[k], slots[free_slots], now, bs, bs2);
			continue;
		}
		now = t[0] > now ? t[0] : now;
		for (int k = 0; k < 2; k++)
			n[k] = h[k].d->ops->complete(h[k].d, now, out[k], 64);
		diverged = n[0] != n[1];
		for (unsigned i = 0; i < n[0] && !diverged; i++) {
			for (int k = 0; k < 2; k++) {
				mix(&h[k].fingerprint, out[k][i]->slot);
				mix(&h[k].fingerprint, out[k][i]->complete_ns);
				mix(&h[k].fingerprint, (uint64_t)out[k][i]->result);
			}
			done++;
			if (issued < ios && rng_below(&ctl, 100) >= early) {
				issued++;
				for (int k = 0; k < 2; k++)
					submit_new(&h[k], &r[k], out[k][i]->slot, now, bs, bs2);
			} else if (issued < ios) {
				issued++;
				slots[free_slots++] = out[0][i]->slot;	/* filled early, later */
			}
		}
	}
	CHECK(&st, !diverged && done == ios, "%s qd %u: diverged after %u IOs", text, qd, done);
	CHECK(&st, h[0].fingerprint == h[1].fingerprint, "%s qd %u: completions differ", text, qd);
	for (unsigned m = 0; m < 8; m++) {
		struct sim_counters c[2][8];
		unsigned nm = h[0].d->ops->member_counters(h[0].d, c[0], 8);

		h[1].d->ops->member_counters(h[1].d, c[1], 8);
		CHECK(&st, m >= nm || !memcmp(&c[0][m], &c[1][m], sizeof(c[0][m])),
		      "%s: member %u's counters differ", text, m);
	}
	for (int k = 0; k < 2; k++) {
		h[k].d->ops->destroy(h[k].d);
		free(h[k].reqs);
	}
	free(slots);
}

int main(void)
{
	const char *m = "member=ssd,member_capacity=256m";
	char text[256];
	static const struct {
		const char *array;
		unsigned qd;
		uint64_t bs, bs2;
		unsigned early;
	} cases[] = {
		{ "raid6,disks=8", 32, 4096, 0, 0 },
		{ "raid6,disks=8,controller_us=30", 32, 4096, 0, 30 },	/* the host lags the array */
		{ "raid0,disks=2", 200, 4096, 0, 20 },	/* past each member's NCQ */
		{ "raid5,disks=3", 128, 16384, 0, 20 },
		{ "raid5,disks=4,stripe=16k", 16, 65536, 0, 20 },	/* several chunks and rows */
		{ "raid5,disks=4,failed=1", 24, 8192, 0, 20 },
		{ "raid6,disks=5,controller_cache=on,cache_mib=1,controller_us=5", 48, 4096, 0, 20 },
		{ "raid6,disks=6,member_write_cache=off", 32, 4096, 0, 20 },
		/* operations whose lists outgrow their own room, then small ones again (raid_array.h) */
		{ "raid6,disks=8,stripe=8k", 32, 4096, 196608, 20 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "%s,%s", cases[i].array, m);
		compare(text, cases[i].qd, cases[i].bs, cases[i].bs2, cases[i].early, 20000);
	}
	return check_exit(&st, "test_sim_raid_timed");
}
