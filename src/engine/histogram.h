/*
 * histogram.h — latency histogram with a stated error bound.
 *
 * Layout (log-linear, as in HdrHistogram): values below 256 ns have a bucket
 * each; above that every power-of-two range [2^k, 2^(k+1)) is cut into
 * HIST_SUB_BUCKETS = 128 equal buckets. A bucket's representative value is
 * its midpoint, so any reported value is within 1/256 (0.39 %) of the true
 * one, over the whole uint64 range of nanoseconds. Memory: HIST_BUCKETS
 * counters of 8 bytes (58 KiB). Recording is a count-leading-zeros, a shift
 * and an increment: cheap enough for every IO.
 *
 * Minimum, maximum and the sum (for the mean) are kept exactly.
 */
#ifndef IOMODEL_HISTOGRAM_H
#define IOMODEL_HISTOGRAM_H

#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB_BUCKETS (1u << HIST_SUB_BITS)
/* indices up to shift 56 (values near 2^64) */
#define HIST_BUCKETS ((64 - HIST_SUB_BITS - 1) * HIST_SUB_BUCKETS + 2 * HIST_SUB_BUCKETS)
#define HIST_MAX_RELATIVE_ERROR (1.0 / (2.0 * HIST_SUB_BUCKETS))

struct histogram {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	uint64_t sum;		/* of all values; wraps only past 584 years of latency */
	uint64_t buckets[HIST_BUCKETS];
};

/*
 * Without a branch: below 256, value | 255 is 255, the shift 0 and the index
 * the value itself; from 256 up, value | 255 has the top bit of value.
 */
static inline unsigned hist_index(uint64_t value)
{
	unsigned shift = 63 - (unsigned)__builtin_clzll(value | (2 * HIST_SUB_BUCKETS - 1)) -
			 HIST_SUB_BITS;

	return shift * HIST_SUB_BUCKETS + (unsigned)(value >> shift);
}

/*
 * The bucket, sum and minimum of hist_add(), for a caller that counts the
 * values and keeps their maximum on its own hot path, and adds those to
 * `count` and `max` (hist_add_tally) before h is read.
 */
static inline void hist_add_untallied(struct histogram *h, uint64_t value)
{
	h->buckets[hist_index(value)]++;
	h->sum += value;
	if (value < h->min)
		h->min = value;
}

/* `count` more values, the highest `max`, were added with hist_add_untallied(). */
static inline void hist_add_tally(struct histogram *h, uint64_t count, uint64_t max)
{
	h->count += count;
	if (max > h->max)
		h->max = max;
}

static inline void hist_add(struct histogram *h, uint64_t value)
{
	hist_add_untallied(h, value);
	hist_add_tally(h, 1, value);
}

void hist_init(struct histogram *h);
void hist_merge(struct histogram *dst, const struct histogram *src);

/* Lowest value of bucket `index`, and the number of values it spans. */
uint64_t hist_bucket_low(unsigned index);
uint64_t hist_bucket_width(unsigned index);

/*
 * The value at percentile p (0 < p <= 100): the representative of the bucket
 * holding the ceil(p/100 * count)-th smallest value, clamped to [min, max].
 * Returns 0 for an empty histogram.
 */
uint64_t hist_percentile(const struct histogram *h, double p);
double hist_mean(const struct histogram *h);

#endif
