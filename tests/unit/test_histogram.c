/*
 * test_histogram.c — the latency histogram keeps its stated error bound
 * (≤ 1 %, by design 0.39 %) for every value from 1 ns to 100 s, its bucket
 * geometry tiles the number line, and percentiles match exact ones.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "engine/histogram.h"
#include "util/rng.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Every single value from 1 ns to 100 s, sampled densely: one-value histograms. */
static void error_bound(struct check_state *st)
{
	double worst = 0;
	uint64_t worst_at = 0;
	struct histogram *h = malloc(sizeof(*h));

	for (uint64_t v = 1; v <= 100000000000ULL; v = v < 4096 ? v + 1 : v + v / 997 + 1) {
		double rel;
		uint64_t got;
		unsigned idx = hist_index(v);

		hist_init(h);
		hist_add(h, v);
		/* bypass the min/max clamp to test the bucket itself */
		h->min = 0;
		h->max = UINT64_MAX;
		got = hist_percentile(h, 50);
		rel = fabs((double)got - (double)v) / (double)v;
		if (rel > worst) {
			worst = rel;
			worst_at = v;
		}
		if (v < hist_bucket_low(idx) || v >= hist_bucket_low(idx) + hist_bucket_width(idx)) {
			CHECK(st, 0, "value %llu outside its bucket %u", (unsigned long long)v, idx);
			break;
		}
	}
	CHECK(st, worst <= HIST_MAX_RELATIVE_ERROR, "worst error %.5f at %llu", worst,
	      (unsigned long long)worst_at);
	CHECK(st, HIST_MAX_RELATIVE_ERROR <= 0.01, "stated bound %.4f", HIST_MAX_RELATIVE_ERROR);
	printf("worst relative error over 1 ns - 100 s: %.5f (bound %.5f)\n", worst,
	       HIST_MAX_RELATIVE_ERROR);
	free(h);
}

static void geometry(struct check_state *st)
{
	for (unsigned i = 0; i + 1 < HIST_BUCKETS; i++) {
		if (hist_bucket_low(i) + hist_bucket_width(i) != hist_bucket_low(i + 1)) {
			CHECK(st, 0, "bucket %u does not end where %u starts", i, i + 1);
			return;
		}
	}
	CHECK(st, hist_index(UINT64_MAX) == HIST_BUCKETS - 1, "last bucket %u",
	      hist_index(UINT64_MAX));
	CHECK(st, hist_index(0) == 0, "zero");
}

static void percentiles_vs_exact(struct check_state *st)
{
	enum { N = 200000 };
	static const double ps[] = { 1, 50, 90, 95, 99, 99.9, 100 };
	uint64_t *values = malloc(N * sizeof(*values));
	struct histogram *h = malloc(sizeof(*h));
	struct rng rng;
	long double sum = 0;

	rng_init(&rng, 42);
	hist_init(h);
	for (int i = 0; i < N; i++) {
		/* log-uniform from 1 us to 1 s, like real latencies */
		values[i] = (uint64_t)(1000.0 * pow(1e6, (double)rng_next(&rng) / 0x1p64));
		hist_add(h, values[i]);
		sum += values[i];
	}
	qsort(values, N, sizeof(*values), cmp_u64);
	for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		uint64_t rank = (uint64_t)ceil(ps[k] / 100.0 * N);
		uint64_t exact = values[rank - 1];
		uint64_t got = hist_percentile(h, ps[k]);

		CHECK(st, fabs((double)got - (double)exact) <= exact * HIST_MAX_RELATIVE_ERROR + 1,
		      "p%g: got %llu exact %llu", ps[k], (unsigned long long)got,
		      (unsigned long long)exact);
	}
	CHECK(st, h->min == values[0] && h->max == values[N - 1], "exact min and max");
	CHECK(st, fabs(hist_mean(h) - (double)(sum / N)) < 1e-6 * hist_mean(h), "exact mean");
	CHECK(st, hist_percentile(h, 100) == values[N - 1], "p100 is the max");
	free(values);
	free(h);
}

static void merge_and_empty(struct check_state *st)
{
	struct histogram *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));

	hist_init(a);
	hist_init(b);
	CHECK(st, hist_percentile(a, 50) == 0 && hist_mean(a) == 0, "empty histogram");
	hist_add(a, 100);
	hist_add(b, 1000000);
	hist_merge(a, b);
	CHECK(st, a->count == 2 && a->min == 100 && a->max == 1000000, "merge");
	CHECK(st, hist_percentile(a, 50) == 100, "p50 of two values");
	free(a);
	free(b);
}

int main(void)
{
	struct check_state st = { 0, 0 };

	error_bound(&st);
	geometry(&st);
	percentiles_vs_exact(&st);
	merge_and_empty(&st);
	return check_exit(&st, "histogram");
}
