/* histogram.c — percentiles and bucket geometry of the histogram in histogram.h. */
#include "histogram.h"

#include <math.h>
#include <string.h>

void hist_init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_merge(struct histogram *dst, const struct histogram *src)
{
	if (!src->count)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

uint64_t hist_bucket_low(unsigned index)
{
	unsigned shift;

	if (index < 2 * HIST_SUB_BUCKETS)
		return index;
	shift = index / HIST_SUB_BUCKETS - 1;
	return (uint64_t)(index - shift * HIST_SUB_BUCKETS) << shift;
}

uint64_t hist_bucket_width(unsigned index)
{
	if (index < 2 * HIST_SUB_BUCKETS)
		return 1;
	return 1ULL << (index / HIST_SUB_BUCKETS - 1);
}

static uint64_t bucket_value(unsigned index)
{
	return hist_bucket_low(index) + (hist_bucket_width(index) - 1) / 2;
}

uint64_t hist_percentile(const struct histogram *h, double p)
{
	uint64_t rank, seen = 0, v;

	if (!h->count)
		return 0;
	rank = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank) {
			v = bucket_value(i);
			if (v < h->min)
				return h->min;
			return v > h->max ? h->max : v;
		}
	}
	return h->max;
}

double hist_mean(const struct histogram *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}
