/*
 * test_offsets.c — the offset generator: every offset inside the region and
 * aligned, random offsets uniform (chi-squared) and reproducible for a seed,
 * sequential offsets visiting each block once per pass; drawn in batches,
 * the same sequence as one draw at a time, with peek() seeing ahead.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/offsets.h"

static void range_and_alignment(struct check_state *st)
{
	struct offset_gen g;
	uint64_t region = 1000, length = 1 << 20, bs = 8192, align = 4096;
	uint64_t lo = UINT64_MAX, hi = 0;

	CHECK(st, offset_gen_init(&g, region, length, bs, align, true, 7, NULL) == 0, "init");
	for (int i = 0; i < 100000; i++) {
		uint64_t off = offset_gen_next(&g);

		if (off % align || off < region || off + bs > region + length) {
			CHECK(st, 0, "offset %llu outside or unaligned", (unsigned long long)off);
			return;
		}
		lo = off < lo ? off : lo;
		hi = off > hi ? off : hi;
	}
	CHECK(st, lo == 4096, "lowest offset %llu is the first aligned one", (unsigned long long)lo);
	CHECK(st, hi == (region + length - bs) / align * align, "highest offset %llu reached",
	      (unsigned long long)hi);
}

static void uniformity(struct check_state *st)
{
	enum { POSITIONS = 1000, DRAWS = 1000000 };
	unsigned *hits = calloc(POSITIONS, sizeof(*hits));
	struct offset_gen g;
	double chi2 = 0, expected = (double)DRAWS / POSITIONS;
	double limit = (POSITIONS - 1) + 5 * sqrt(2.0 * (POSITIONS - 1));

	offset_gen_init(&g, 0, POSITIONS * 4096ULL, 4096, 4096, true, 99, NULL);
	CHECK(st, g.positions == POSITIONS, "positions %llu", (unsigned long long)g.positions);
	for (int i = 0; i < DRAWS; i++)
		hits[offset_gen_next(&g) / 4096]++;
	for (int i = 0; i < POSITIONS; i++)
		chi2 += (hits[i] - expected) * (hits[i] - expected) / expected;
	CHECK(st, chi2 < limit, "chi-squared %.1f above %.1f (999 degrees of freedom)", chi2, limit);
	printf("chi-squared over %d positions: %.1f (limit %.1f)\n", POSITIONS, chi2, limit);
	free(hits);
}

static void reproducible(struct check_state *st)
{
	struct offset_gen a, b, c;
	int same = 1, differs = 0;

	offset_gen_init(&a, 0, 1ULL << 30, 4096, 4096, true, 5, NULL);
	offset_gen_init(&b, 0, 1ULL << 30, 4096, 4096, true, 5, NULL);
	offset_gen_init(&c, 0, 1ULL << 30, 4096, 4096, true, 6, NULL);
	for (int i = 0; i < 1000; i++) {
		uint64_t x = offset_gen_next(&a), y = offset_gen_next(&b), z = offset_gen_next(&c);

		same &= x == y;
		differs |= x != z;
	}
	CHECK(st, same, "same seed, same sequence");
	CHECK(st, differs, "another seed, another sequence");
}

static void sequential_no_repeats(struct check_state *st)
{
	struct offset_gen g;
	uint64_t bs = 65536, length = 100 * bs + 1000, count;
	unsigned char *seen;
	int repeats = 0;

	offset_gen_init(&g, 0, length, bs, bs, false, 1, NULL);
	count = (length - bs) / bs + 1;
	seen = calloc(count, 1);
	for (uint64_t i = 0; i < count; i++) {
		uint64_t off = offset_gen_next(&g);

		CHECK(st, off == i * bs, "offset %llu at step %llu", (unsigned long long)off,
		      (unsigned long long)i);
		repeats += seen[off / bs]++ != 0;
	}
	CHECK(st, repeats == 0, "%d repeats in one pass", repeats);
	CHECK(st, offset_gen_next(&g) == 0, "wraps to the start after one pass");
	free(seen);
}

/*
 * Across several batches (OFFSET_BATCH at a time), the offsets are the draws
 * of a generator seeded alike, one at a time, and peek() is always the
 * offset OFFSET_AHEAD calls away.
 */
static void batches_same_sequence(struct check_state *st)
{
	enum { N = 5 * OFFSET_BATCH + 3 };
	uint64_t want[2][N + OFFSET_AHEAD];
	struct offset_gen g[2];
	struct rng r;
	int bad = 0;

	offset_gen_init(&g[0], 8192, 1000 * 4096 + 100, 4096, 512, true, 42, NULL);
	offset_gen_init(&g[1], 4096, 7 * 65536, 65536, 65536, false, 42, NULL);
	rng_init(&r, 42);
	for (int i = 0; i < N + OFFSET_AHEAD; i++) {
		want[0][i] = 8192 + rng_below(&r, g[0].positions) * 512;
		want[1][i] = 65536ULL * (uint64_t)(1 + i % 6);	/* 6 aligned blocks fit */
	}
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < N && !bad; i++) {
			uint64_t ahead = offset_gen_peek(&g[k]), got = offset_gen_next(&g[k]);

			bad = got != want[k][i] || ahead != want[k][i + OFFSET_AHEAD - 1];
			CHECK(st, !bad, "%s offset %d: %llu (peek %llu), want %llu (%llu)",
			      k ? "sequential" : "random", i, (unsigned long long)got,
			      (unsigned long long)ahead, (unsigned long long)want[k][i],
			      (unsigned long long)want[k][i + OFFSET_AHEAD - 1]);
		}
	}
	CHECK(st, !bad, "batched draws are the one-at-a-time sequence");
}

static void bad_regions(struct check_state *st)
{
	struct offset_gen g;
	struct errmsg err;

	CHECK(st, offset_gen_init(&g, 0, 4095, 4096, 4096, true, 1, &err) == -EINVAL,
	      "region smaller than bs");
	CHECK(st, strstr(err.text, "holds no") != NULL, "message: %s", err.text);
	CHECK(st, offset_gen_init(&g, 100, 8000, 4096, 4096, true, 1, NULL) == -EINVAL,
	      "no aligned position fits");
	CHECK(st, offset_gen_init(&g, 0, 8192, 0, 4096, true, 1, NULL) == -EINVAL, "bs 0");
	CHECK(st, offset_gen_init(&g, 0, 4096, 4096, 4096, true, 1, NULL) == 0 &&
		  offset_gen_next(&g) == 0, "exactly one position");
}

int main(void)
{
	struct check_state st = { 0, 0 };

	range_and_alignment(&st);
	uniformity(&st);
	reproducible(&st);
	sequential_no_repeats(&st);
	batches_same_sequence(&st);
	bad_regions(&st);
	return check_exit(&st, "offsets");
}
