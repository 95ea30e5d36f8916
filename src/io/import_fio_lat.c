/*
 * import_fio_lat.c — the latency percentiles and distribution of one
 * direction of a fio job (import_fio.h), over the entries that report it:
 * from json+'s histogram bins when every entry has them, exact as fio
 * computes its percentiles, with the CDF reduced to the steps of struct
 * lat_cdf (model/points.h); else the percentiles fio printed, from a single
 * entry; else unknown.
 *
 * Where fio puts them, by version and options:
 *  - fio 3: clat_ns.percentile and clat_ns.bins {"<ns>": count, ...} (the
 *    key is the bucket's value in ns; json+ writes the non-empty buckets);
 *    with lat_percentiles=1 the same under lat_ns, and with
 *    clat_percentiles=0 only there: then the point's latency is the total
 *    (POINT_LAT_TOTAL). slat_ns bins (slat_percentiles=1) are not read:
 *    submission latency is a part of the total, not an IO's latency.
 *  - fio 2: clat.percentile in µs, and json+'s clat.bins in µs keyed by
 *    bucket index, {"FIO_IO_U_PLAT_BITS": 6, "FIO_IO_U_PLAT_VAL": 64,
 *    "FIO_IO_U_PLAT_NR": 1216, "0": count, ...}, the value of index i
 *    being fio's plat_idx_to_val(i): i below 2 x VAL, else the middle of
 *    its bucket, base + (k + 1/2) x 2^e with e = i / VAL - 1,
 *    base = 2^(e + BITS), k = i mod VAL.
 * fio's buckets are 1/64 of their group wide: a value is within 1.6 % of
 * the latencies it stands for.
 */
#include "import_fio.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BINS (1u << 20)	/* fio has 1856 buckets per direction; clones add up */

void fio_lat_release(struct fio_lat *l)
{
	free(l->bins);
	memset(l, 0, sizeof(*l));
}

/* A fio percentile key ("99.900000") is level `level` of lat_keys.h. */
static bool key_is_level(const char *key, double level)
{
	char *end;
	double v = strtod(key, &end);

	return end != key && !*end && fabs(v - level) < 1e-6;
}

/* The percentiles in `list` (scaled to s by `scale`); whether all of ours were there. */
static bool read_percentiles(const json_t *list, double scale, double pct_s[LAT_PCTS])
{
	const char *key;
	json_t *v;
	unsigned found = 0;

	for (int k = 0; k < LAT_PCTS; k++) {
		pct_s[k] = 0;
		json_object_foreach((json_t *)list, key, v) {
			if (key_is_level(key, lat_pct_levels[k]) && json_is_number(v) &&
			    json_number_value(v) > 0) {
				pct_s[k] = json_number_value(v) * scale;
				found++;
				break;
			}
		}
	}
	return found == LAT_PCTS;
}

/* The value of fio 2's bucket `idx` with `bits` index bits, in the unit of the bins. */
static double fio2_bucket_value(unsigned long idx, unsigned bits)
{
	unsigned long val = 1ul << bits, e, base;

	if (idx < 2 * val)
		return (double)idx;
	e = (idx >> bits) - 1;
	base = 1ul << (e + bits);
	return (double)base + ((double)(idx % val) + 0.5) * (double)(1ul << e);
}

static int push_bin(struct fio_lat *l, double s, double count)
{
	int ret;

	if (count <= 0)
		return 0;	/* an empty bucket changes no percentile and no step */
	ret = array_grow((void **)&l->bins, &l->alloc_bins, l->n_bins + 1, sizeof(*l->bins),
			 MAX_BINS);
	if (ret)
		return ret == -E2BIG ? -ENOMEM : ret;
	l->bins[l->n_bins++] = (struct fio_lat_bin){ s, count };
	return 0;
}

/*
 * Append the buckets of `bins` (scaled to s by `scale`) to l->bins; fio 2's
 * index form when it names FIO_IO_U_PLAT_BITS. Keys that are not buckets
 * are left out.
 */
static int add_bins(struct fio_lat *l, const json_t *bins, double scale)
{
	const json_t *bits = json_object_get(bins, "FIO_IO_U_PLAT_BITS");
	bool indexed = bits != NULL;
	const char *key;
	json_t *v;
	int ret = 0;

	if (indexed && (!json_is_integer(bits) || json_integer_value(bits) < 1 ||
			json_integer_value(bits) > 16))
		return 0;	/* not a histogram we know: no bins */
	json_object_foreach((json_t *)bins, key, v) {
		char *end;
		double at = strtod(key, &end);

		if (end == key || *end || !(at >= 0) || !json_is_number(v) ||
		    !(json_number_value(v) >= 0) || (indexed && (at != floor(at) || at > 1e6)))
			continue;
		if (indexed)
			at = fio2_bucket_value((unsigned long)at, (unsigned)json_integer_value(bits));
		if ((ret = push_bin(l, at * scale, json_number_value(v))))
			break;
	}
	return ret;
}

/*
 * The latency object of a direction that has percentiles or bins, clat
 * first, and its kind and scale to seconds; NULL when neither has them.
 */
static const json_t *latency_object(const json_t *sec, enum point_lat_kind *kind,
				    double *scale)
{
	static const struct { const char *key; enum point_lat_kind kind; double scale; } objs[] = {
		{ "clat_ns", POINT_LAT_CLAT, 1e-9 }, { "clat", POINT_LAT_CLAT, 1e-6 },
		{ "lat_ns", POINT_LAT_TOTAL, 1e-9 }, { "lat", POINT_LAT_TOTAL, 1e-6 },
	};

	for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		const json_t *o = json_object_get(sec, objs[i].key);

		if (json_is_object(json_object_get(o, "percentile")) ||
		    json_is_object(json_object_get(o, "bins"))) {
			*kind = objs[i].kind;
			*scale = objs[i].scale;
			return o;
		}
	}
	return NULL;
}

int fio_lat_add(struct fio_lat *l, const json_t *sec)
{
	enum point_lat_kind kind;
	double scale, pct[LAT_PCTS];
	const json_t *o = latency_object(sec, &kind, &scale), *bins;
	size_t before = l->n_bins;
	int ret;

	l->entries++;
	if (!o)
		return 0;
	if (l->entries > 1 && (!l->kinds || kind != l->kind))
		l->mixed = true;	/* entries measured different latencies */
	l->kind = kind;
	l->kinds++;
	if (read_percentiles(json_object_get(o, "percentile"), scale, pct) && !l->pct_entries++)
		memcpy(l->pct_s, pct, sizeof(pct));
	bins = json_object_get(o, "bins");
	if (!json_is_object(bins))
		return 0;
	if ((ret = add_bins(l, bins, scale)))
		return ret;
	l->bin_entries += l->n_bins > before;
	return 0;
}

static int compare_bins(const void *a, const void *b)
{
	const struct fio_lat_bin *x = a, *y = b;

	return (x->s > y->s) - (x->s < y->s);
}

/* Sort the bins by value and merge those of one value (clones' entries); the IO count. */
static double merge_bins(struct fio_lat *l)
{
	double total = 0;
	size_t n = 0;

	qsort(l->bins, l->n_bins, sizeof(*l->bins), compare_bins);
	for (size_t k = 0; k < l->n_bins; k++) {
		total += l->bins[k].count;
		if (n && l->bins[n - 1].s == l->bins[k].s)
			l->bins[n - 1].count += l->bins[k].count;
		else
			l->bins[n++] = l->bins[k];
	}
	l->n_bins = n;
	return total;
}

/*
 * The value of the first bucket at which the count so far reaches `level`
 * (a fraction) of `total`, as fio takes its percentiles; *b and *seen carry
 * the walk from one rising level to the next, *seen ending with the count
 * through bucket *b.
 */
static double bins_level(const struct fio_lat *l, double level, double total, size_t *b,
			 double *seen)
{
	while (*b + 1 < l->n_bins && *seen + l->bins[*b].count < level * total)
		*seen += l->bins[(*b)++].count;
	return l->bins[*b].s;
}

/* The percentiles and CDF steps from the merged bins (total > 0). */
static void bins_result(const struct fio_lat *l, double total, struct perf_point *p)
{
	struct lat_cdf *c = &p->cdf;
	double seen = 0;
	size_t b = 0;

	for (int k = 0; k < LAT_PCTS; k++)
		p->clat_pct_s[k] = bins_level(l, lat_pct_levels[k] / 100, total, &b, &seen);
	b = 0;
	seen = 0;
	c->n = 0;
	for (int k = 0; k < LAT_CDF_MAX; k++) {
		double s = bins_level(l, lat_cdf_levels[k], total, &b, &seen);
		double frac = b + 1 == l->n_bins ? 1 : (seen + l->bins[b].count) / total;

		if (!(s > 0) || (c->n && s <= c->lat_s[c->n - 1]))
			continue;	/* a 0 ns bucket has no place on a log axis */
		c->lat_s[c->n] = s;
		c->frac[c->n++] = frac;
	}
}

void fio_lat_result(struct fio_lat *l, struct perf_point *p)
{
	double total;

	memset(p->clat_pct_s, 0, sizeof(p->clat_pct_s));
	memset(&p->cdf, 0, sizeof(p->cdf));
	p->lat_kind = l->kind;
	if (l->mixed || !l->kinds)
		return;
	if (l->bin_entries == l->entries && (total = merge_bins(l)) > 0) {
		bins_result(l, total, p);
		return;
	}
	if (l->pct_entries == 1 && l->entries == 1)
		memcpy(p->clat_pct_s, l->pct_s, sizeof(p->clat_pct_s));
}
