/*
 * hdd_geom.c — the simulated disk's geometry: recording zones, the mapping
 * between byte offsets and track coordinates (see hdd.h), the platter's
 * rotation and the seek curve with its lookup tables.
 *
 * Zones. The media rate is linear in radius, from outer_mib_s at the outer
 * edge to inner_mib_s at the inner one (constant linear density). Tracks are
 * spread evenly over the stroke and cut into `zones` zones of (nearly) equal
 * radial width; each zone records at one rate, sampled at evenly spaced
 * radii from the outer rate (first zone) to the inner rate (last zone). A
 * track holds rate × revolution bytes, so the capacity outside radius r grows
 * as R_o² − r²: the rate against % of capacity is the square-root curve HD
 * Tune shows, not a straight line. Reading any track takes one revolution,
 * so the whole disk reads in `tracks` revolutions and the harmonic mean rate
 * over the capacity (what large random transfers see) is the mean of the
 * outer and inner rates.
 *
 * Skew. Track t's first sector lies track_skew (cylinder_skew when t starts
 * a cylinder) after track t − 1's, so a transfer that crosses to the next
 * track pauses that long while the head switches (hdd_xfer_u, hdd_u_after):
 * the u coordinate stays one revolution per track, the skew only shifts the
 * angle each track's sectors pass under the head (hdd_angle_of).
 *
 * DiskSim's layout (zone_track_skew given, with a zone table). The zones
 * become extents: runs of LBNs on consecutive tracks that hold exactly their
 * zone's sectors, placed by DiskSim's rules for track sparing — a zone's
 * empty front, its slipped tracks (the tracks after a slip move on by one)
 * and its spare tracks at the end hold no data, so track coordinate has gaps
 * between extents. Each zone's skews and first-sector angle are in its own
 * sectors; hdd_skew_of takes the gaps' whole revolutions off (modulo 2^64)
 * and adds the wait for the next data track's first sector (a turn more
 * where the seek or head switch takes longer), so hdd_xfer_u and
 * hdd_u_after time a transfer across a gap as the head switch, not a turn
 * per skipped track.
 *
 * All of this runs once per device; the per-IO functions are the inline ones
 * in hdd.h: a table lookup, a multiply and a shift each.
 */
#include "hdd.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define TWO32 4294967296.0
#define TWO64 18446744073709551616.0
#define MEAN_CELLS 1024			/* radial cells for the mean seek */

static double rev_seconds(const struct hdd_config *c)
{
	return 60.0 / (double)c->rpm;
}

/* A zone table's cylinders, and its bytes per cylinder-weighted track. */
static double table_cyls(const struct hdd_config *c, double *track_bytes)
{
	double cyls = 0, bytes = 0;

	for (unsigned z = 0; z < c->zone_cyls.n; z++) {
		cyls += c->zone_cyls.v[z];
		bytes += c->zone_cyls.v[z] * c->zone_sectors.v[z] * 512;
	}
	*track_bytes = bytes / cyls;
	return cyls;
}

uint64_t hdd_geom_tracks(const struct hdd_config *c)
{
	double track = rev_seconds(c) * (c->outer_mib_s + c->inner_mib_s) / 2 * (1 << 20);

	if (c->zone_cyls.n)
		return (uint64_t)llround(table_cyls(c, &track)) * c->surfaces;
	return (uint64_t)llround((double)c->capacity / track);
}

uint64_t hdd_geom_cylinders(const struct hdd_config *c)
{
	return (hdd_geom_tracks(c) + c->surfaces - 1) / c->surfaces;
}

/* Zone z's share of the stroke in tracks: the remainder goes to the first zones. */
static uint64_t zone_tracks(uint64_t tracks, unsigned nzones, unsigned z)
{
	return tracks / nzones + (z < tracks % nzones);
}

static double zone_rate(const struct hdd_config *c, unsigned nzones, unsigned z)
{
	if (nzones == 1)
		return (c->outer_mib_s + c->inner_mib_s) / 2;
	return c->outer_mib_s - (c->outer_mib_s - c->inner_mib_s) * z / (nzones - 1);
}

/*
 * With a zone table: zone z's share of the tracks is its share of the
 * table's cylinders (spare and unused cylinders left out in proportion), and
 * its tracks hold zone_sectors sectors each.
 */
static void table_zones(const struct hdd_geom *g, const struct hdd_config *c, uint64_t *tracks,
			double *rate)
{
	double track, cyls = table_cyls(c, &track);
	uint64_t left = g->tracks;

	for (unsigned z = 0; z < g->nzones; z++) {
		tracks[z] = z + 1 < g->nzones ? (uint64_t)((double)g->tracks * c->zone_cyls.v[z] / cyls)
					      : left;
		left -= tracks[z];
		rate[z] = c->zone_sectors.v[z];
	}
}

static int build_zones(struct hdd_geom *g, const struct hdd_config *c, struct errmsg *err)
{
	double ideal[HDD_MAX_ZONES], rate[HDD_MAX_ZONES], sum = 0, scale;
	uint64_t tracks[HDD_MAX_ZONES], s = 0, u = 0;

	for (unsigned z = 0; z < g->nzones; z++) {
		tracks[z] = zone_tracks(g->tracks, g->nzones, z);
		rate[z] = zone_rate(c, g->nzones, z);
	}
	if (c->zone_cyls.n)
		table_zones(g, c, tracks, rate);
	for (unsigned z = 0; z < g->nzones; z++) {
		ideal[z] = (double)tracks[z] * rate[z];
		sum += ideal[z];
	}
	scale = (double)c->capacity / sum;
	for (unsigned z = 0; z < g->nzones; z++) {
		struct hdd_zone *zn = &g->zone[z];
		uint64_t t = tracks[z];
		uint64_t bytes = z + 1 < g->nzones ? (uint64_t)(ideal[z] * scale) / 512 * 512
						   : c->capacity - s;

		if (!bytes || bytes > c->capacity - s || (double)bytes / (double)t < 512)
			return errmsg_set(err, -EINVAL, "capacity %llu too small for %u zones",
					  (unsigned long long)c->capacity, g->nzones);
		zn->s0 = s;
		zn->u0 = u << 32;
		zn->u1 = (u + t) << 32;
		zn->track_bytes = (double)bytes / (double)t;
		zn->u_per_byte = (uint64_t)(TWO64 / zn->track_bytes);
		zn->bytes_per_u = (uint64_t)(zn->track_bytes * TWO32);
		s += bytes;
		u += t;
	}
	return 0;
}

static void build_zone_lut(struct hdd_geom *g)
{
	uint64_t u_end = (uint64_t)g->tracks << 32;
	unsigned z = 0;

	for (unsigned i = 0; i < g->nzones; i++)
		g->zhot[i] = (struct hdd_zone_hot){ g->zone[i].s0, g->zone[i].u0, g->zone[i].u_per_byte,
						    g->zone[i].bytes_per_u };
	/* Denominators one past the largest value: no index reaches HDD_ZONE_LUT. */
	g->lut_mul = (uint64_t)(((unsigned __int128)HDD_ZONE_LUT << 64) / (g->capacity + 1));
	for (unsigned i = 0; i < HDD_ZONE_LUT; i++) {
		uint64_t s = (uint64_t)((unsigned __int128)g->capacity * i / HDD_ZONE_LUT);

		while (z + 1 < g->nzones && s >= g->zone[z + 1].s0)
			z++;
		g->zone_lut[i] = (uint8_t)z;
	}
	g->ulut_mul = (uint64_t)(((unsigned __int128)HDD_ZONE_LUT << 64) / (u_end + 1));
	z = 0;
	for (unsigned i = 0; i < HDD_ZONE_LUT; i++) {
		uint64_t u = (uint64_t)((unsigned __int128)u_end * i / HDD_ZONE_LUT);

		while (z + 1 < g->nzones && u >= g->zone[z + 1].u0)
			z++;
		g->zone_ulut[i] = (uint8_t)z;
	}
}

double hdd_geom_harmonic_mib_s(const struct hdd_geom *g)
{
	return (double)g->capacity / (g->tracks * g->rev_ns * 1e-9) / (1 << 20);
}

double hdd_geom_zone_mib_s(const struct hdd_geom *g, unsigned z)
{
	return g->zone[z].track_bytes / (g->rev_ns * 1e-9) / (1 << 20);
}

/* --- the seek curve --- */

double hdd_seek_curve_ms(const struct hdd_seek_curve *sc, double x)
{
	return x <= sc->knee ? sc->a + sc->b * sqrt(x) : sc->c + sc->d * x;
}

/* The curve through (x1, st) and (1, sf) with its knee at xk. */
static struct hdd_seek_curve curve_with_knee(double xk, double x1, double st, double sf)
{
	struct hdd_seek_curve sc = { .knee = xk };
	double rk = sqrt(xk);

	sc.b = (sf - st) / (rk - sqrt(x1) + (1 - xk) / (2 * rk));
	sc.a = st - sc.b * sqrt(x1);
	sc.d = sc.b / (2 * rk);
	sc.c = sf - sc.d;
	return sc;
}

/*
 * Weights of radial distances m cells apart between two positions drawn
 * uniformly over the capacity (density ∝ radius).
 */
static void distance_weights(const struct hdd_config *c, double *wm)
{
	double w[MEAN_CELLS], k = c->inner_mib_s / c->outer_mib_s, sum = 0;

	for (int i = 0; i < MEAN_CELLS; i++) {
		w[i] = 1 - (i + 0.5) / MEAN_CELLS * (1 - k);
		sum += w[i];
	}
	for (int i = 0; i < MEAN_CELLS; i++)
		w[i] /= sum;
	for (int m = 0; m < MEAN_CELLS; m++) {
		double acc = 0;

		for (int i = 0; i + m < MEAN_CELLS; i++)
			acc += w[i] * w[i + m];
		wm[m] = m ? 2 * acc : acc;
	}
}

static double curve_mean(const struct hdd_seek_curve *sc, const double *wm, double x1)
{
	double h = 1.0 / MEAN_CELLS, mean = 0;

	for (int m = 0; m < MEAN_CELLS; m++) {
		double x = m ? m * h : h / 3;

		mean += wm[m] * hdd_seek_curve_ms(sc, x < x1 ? x1 : x);
	}
	return mean;
}

int hdd_seek_fit(const struct hdd_config *c, struct hdd_seek_curve *out, struct errmsg *err)
{
	double wm[MEAN_CELLS], x1, lo, hi, mlo, mhi;
	struct hdd_seek_curve sc;
	double st = c->seek_track_ms, sf = c->seek_full_ms, avg = c->seek_avg_ms;
	uint64_t tracks = hdd_geom_cylinders(c);

	if (tracks < 2) {
		*out = (struct hdd_seek_curve){ .a = st, .c = sf, .knee = 1 };
		return 0;
	}
	x1 = 1.0 / (double)tracks;
	distance_weights(c, wm);
	lo = x1 * 1.000001;
	hi = 1;
	sc = curve_with_knee(lo, x1, st, sf);
	mlo = curve_mean(&sc, wm, x1);
	sc = curve_with_knee(hi, x1, st, sf);
	mhi = curve_mean(&sc, wm, x1);
	if (avg < mlo || avg > mhi)
		return errmsg_set(err, -EINVAL,
				  "seek_avg_ms %g out of reach: with seek_track_ms %g and seek_full_ms %g "
				  "the average seek lies between %.2f and %.2f ms", avg, st, sf, mlo, mhi);
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		sc = curve_with_knee(mid, x1, st, sf);
		if (curve_mean(&sc, wm, x1) < avg)
			lo = mid;
		else
			hi = mid;
	}
	*out = curve_with_knee((lo + hi) / 2, x1, st, sf);
	return 0;
}

static uint32_t ms_to_ns32(double ms)
{
	return (uint32_t)llround(ms * 1e6);
}

/*
 * DiskSim's "HPL" seek equation: seek_track_ms for one cylinder, then
 * a + b·√d below the knee and c + e·d from it on.
 */
double hdd_seek_equation_ms(const struct hdd_config *c, double d)
{
	if (d <= 1)
		return c->seek_track_ms;
	if (d < (double)c->seek_knee_cyl)
		return c->seek_eq_a_ms + c->seek_eq_sqrt_ms * sqrt(d);
	return c->seek_eq_c_ms + c->seek_eq_lin_ms * d;
}

static void build_seek_table(struct hdd_geom *g, const struct hdd_config *c)
{
	double n = g->cylinders;

	g->seek_mul = (uint64_t)(TWO32 * HDD_SEEK_BUCKETS / n);
	g->bucket_tracks = (uint64_t)(TWO32 * n / HDD_SEEK_BUCKETS) + 1;
	for (unsigned i = 0; i <= HDD_SEEK_BUCKETS; i++) {
		double x = (double)i / HDD_SEEK_BUCKETS;

		if (c->seek_knee_cyl)
			g->seek_tab[i] = ms_to_ns32(hdd_seek_equation_ms(c, x * n));
		else
			g->seek_tab[i] = ms_to_ns32(hdd_seek_curve_ms(&g->curve,
								     x < 1 / n ? 1 / n : x));
		/* the equation may dip at its knee: keep the table monotone */
		if (i && g->seek_tab[i] < g->seek_tab[i - 1])
			g->seek_tab[i] = g->seek_tab[i - 1];
	}
	g->seek_tab[HDD_SEEK_BUCKETS + 1] = g->seek_tab[HDD_SEEK_BUCKETS];
	/* the curve's short seeks as the buckets give them (so a curve's drive is unchanged) */
	for (uint32_t d = 0; d < HDD_NEAR_SEEKS; d++) {
		uint64_t pos = (uint64_t)d * g->seek_mul;
		/* a drive of fewer cylinders: its full stroke (the table's last edge) */
		const uint32_t *e = &g->seek_tab[pos >> 32 < HDD_SEEK_BUCKETS ? pos >> 32
									: HDD_SEEK_BUCKETS];

		g->near_seek[d] = !d ? 0
			: c->seek_knee_cyl ? ms_to_ns32(hdd_seek_equation_ms(c, d))
			: e[0] + (uint32_t)(((uint64_t)(e[1] - e[0]) * (uint32_t)pos) >> 32);
		if (d > 1 && g->near_seek[d] < g->near_seek[d - 1])
			g->near_seek[d] = g->near_seek[d - 1];
		/* measured short seeks as given, even out of order (seek_within_exact copes) */
		if (d && d <= c->seek_first_ms.n)
			g->near_seek[d] = ms_to_ns32(c->seek_first_ms.v[d - 1]);
	}
}

static uint32_t seek_within_exact(const struct hdd_geom *g, uint64_t ns)
{
	unsigned lo = 0, hi = HDD_SEEK_BUCKETS + 1;
	uint64_t d;

	/* The first edge at or above ns: every bucket from there on is too. */
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;

		if (g->seek_tab[mid] >= ns)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo > HDD_SEEK_BUCKETS)
		return UINT32_MAX;
	d = (((uint64_t)lo * g->bucket_tracks) >> 32) + 1;
	for (uint32_t j = 0; j < HDD_NEAR_SEEKS; j++)
		d = g->near_seek[j] < ns && j > d ? j : d;	/* short seeks come from their table */
	return d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
}

/* The inverse table behind hdd_seek_within(), at slices of the full stroke. */
static void build_within_table(struct hdd_geom *g)
{
	double step = (double)g->seek_tab[HDD_SEEK_BUCKETS] / HDD_WITHIN_SLICES;

	g->within_mul = (uint64_t)(TWO32 / step);
	for (unsigned j = 0; j <= HDD_WITHIN_SLICES; j++)
		g->seek_within[j] = j < HDD_WITHIN_SLICES
					    ? seek_within_exact(g, (uint64_t)(j * step))
					    : UINT32_MAX;
}

/* --- DiskSim's layout (zone_track_skew given) --- */

/* Skew within a zone from its first track to the one rel tracks on (f in hdd.h). */
static uint64_t zone_skew_f(const struct hdd_geom *g, const struct hdd_zone *zn, uint32_t rel)
{
	uint64_t cyls = hdd_cyl_of(g, rel);

	return (uint64_t)(rel - cyls) * zn->tskew + cyls * zn->cskew;
}

uint64_t hdd_layout_skew_of(const struct hdd_geom *g, uint32_t trk)
{
	const struct hdd_zone *zn;

	if (trk >= g->tracks)
		trk = g->tracks - 1;
	/* the track's last angle: an extent that starts within the track has its skew */
	zn = &g->zone[hdd_zone_at(g, (uint64_t)trk << 32 | UINT32_MAX)];
	return zn->skew_base + zone_skew_f(g, zn, trk - zn->trk0);
}

uint64_t hdd_layout_xfer_u(const struct hdd_geom *g, uint64_t u, uint64_t u_end)
{
	const struct hdd_zone *zn = &g->zone[hdd_zone_at(g, u_end - 1)];
	uint32_t first, last;

	if (u_end - 1 >= zn->u1)	/* ends at an extent's end, before a gap */
		u_end = zn->u1;
	if (u_end <= u)
		return 0;
	first = hdd_skew_track(g, u);
	last = (uint32_t)((u_end - 1) >> 32);
	return u_end - u + (last > first ? hdd_skew_of(g, last) - hdd_skew_of(g, first) : 0);
}

/* The next track after trk that holds data: trk + 1 unless a gap follows. */
static uint32_t next_data_track(const struct hdd_geom *g, uint32_t trk)
{
	uint64_t u = (uint64_t)(trk + 1) << 32;
	unsigned z;

	if (!g->layout || trk + 1 >= g->tracks)
		return trk + 1;
	z = hdd_zone_at(g, u);
	if (u < g->zone[z].u1 || z + 1 >= g->nzones || g->zone[z + 1].u0 >> 32 <= trk + 1)
		return trk + 1;
	return (uint32_t)(g->zone[z + 1].u0 >> 32);
}

/* The physical track (in its zone) of logical track q: DiskSim's track slipping. */
static uint32_t slipped_track(const double *slip, unsigned nslips, uint32_t q)
{
	for (unsigned i = 0; i < nslips; i++)
		if (slip[i] <= q)
			q++;
	return q;
}

/* One zone's layout while it is built: where its data lie, their sectors. */
struct layout_zone {
	uint32_t trk0, ntracks, spt;
	uint64_t front, sectors;	/* empty sectors at its front, data sectors */
	uint64_t tskew, cskew, first;	/* revolutions (32.32) */
	const double *slip;
	unsigned nslips;
};

static double list_or_0(const struct sim_list *l, unsigned z)
{
	return z < l->n ? l->v[z] : 0;
}

static uint64_t sectors_u(double sectors, uint32_t spt)
{
	return (uint64_t)llround(sectors * TWO32 / spt);
}

/* Zone z of the table, and the slips it takes (*slips on to the next zone's). */
static struct layout_zone layout_zone(const struct hdd_config *c, unsigned z, uint32_t trk0,
				      unsigned *slips)
{
	struct layout_zone lz = { .trk0 = trk0, .spt = (uint32_t)c->zone_sectors.v[z] };

	lz.ntracks = (uint32_t)c->zone_cyls.v[z] * (uint32_t)c->surfaces;
	lz.front = (uint64_t)list_or_0(&c->zone_front_sectors, z);
	lz.tskew = sectors_u(list_or_0(&c->zone_track_skew, z), lz.spt);
	lz.cskew = sectors_u(list_or_0(&c->zone_cyl_skew, z), lz.spt);
	lz.first = sectors_u(list_or_0(&c->zone_first_sector, z), lz.spt);
	lz.nslips = (unsigned)list_or_0(&c->zone_slips, z);
	lz.slip = &c->slip_tracks.v[*slips];
	*slips += lz.nslips;
	lz.sectors = (uint64_t)lz.ntracks * lz.spt - lz.front -
		     (uint64_t)list_or_0(&c->zone_spare_tracks, z) * lz.spt;
	return lz;
}

/* Blocks the layout holds: DiskSim's block count, which capacity must match. */
uint64_t hdd_layout_blocks(const struct hdd_config *c)
{
	uint64_t blocks = 0;
	unsigned slips = 0;

	for (unsigned z = 0; z < c->zone_cyls.n; z++) {
		struct layout_zone lz = layout_zone(c, z, 0, &slips);

		blocks += lz.sectors;
	}
	return blocks;
}

/*
 * The wait (revolutions, 32.32) from the end of track `last`'s data to the
 * data at u0 on track `next`: to the angle, a turn more while the seek or
 * head switch takes longer.
 */
static uint64_t gap_wait(const struct hdd_geom *g, const struct hdd_config *c, uint32_t last,
			 uint32_t angle_end, uint32_t next, uint32_t angle_next)
{
	uint32_t d = hdd_cyl_of(g, next) - hdd_cyl_of(g, last);
	double need = d ? hdd_seek_ns(g, d) : next != last ? c->head_switch_ms * 1e6 : 0;
	uint64_t w = (uint32_t)(angle_next - angle_end);

	while ((double)hdd_rev_ns(g, w) < need)
		w += 1ULL << 32;
	return w;
}

/* Append an extent of `sectors` from logical sector l of zone lz (its tracks consecutive). */
static int add_extent(struct hdd_geom *g, const struct hdd_config *c, const struct layout_zone *lz,
		      uint64_t l, uint64_t sectors, uint64_t *s, struct errmsg *err)
{
	struct hdd_zone *zn = &g->zone[g->nzones], *prev = g->nzones ? zn - 1 : NULL;
	uint32_t p = slipped_track(lz->slip, lz->nslips, (uint32_t)(l / lz->spt));
	uint32_t trk = lz->trk0 + p, sec = (uint32_t)(l % lz->spt);
	uint32_t angle = (uint32_t)(lz->first + zone_skew_f(g, &(struct hdd_zone){
		.tskew = lz->tskew, .cskew = lz->cskew }, p));
	uint64_t from = (uint64_t)trk << 32, skew;

	if (g->nzones >= HDD_MAX_ZONES || p + (sec + sectors - 1) / lz->spt >= lz->ntracks)
		return errmsg_set(err, -EINVAL, "zone layout: more than %d extents, or a zone's "
				  "data, slips and spares exceed its tracks", HDD_MAX_ZONES);
	zn->s0 = *s;
	zn->u0 = from + sectors_u(sec, lz->spt);
	zn->u1 = from + sectors_u((double)(sec + sectors), lz->spt);
	zn->track_bytes = lz->spt * 512.0;
	zn->u_per_byte = (uint64_t)(TWO64 / zn->track_bytes);
	zn->bytes_per_u = (uint64_t)(zn->track_bytes * TWO32);
	zn->tskew = lz->tskew;
	zn->cskew = lz->cskew;
	zn->trk0 = lz->trk0;
	skew = angle;
	if (prev) {
		uint32_t last = (uint32_t)((prev->u1 - 1) >> 32);
		uint64_t s_last = prev->skew_base + zone_skew_f(g, prev, last - prev->trk0);
		uint32_t end = (uint32_t)(s_last + prev->u1), at = angle + (uint32_t)(zn->u0 - from);

		/* the u from prev's end to this start is the wait, not a turn per track */
		skew = s_last + gap_wait(g, c, last, end, trk, at) - (zn->u0 - from) -
		       (from - prev->u1);
	}
	zn->skew_base = skew - zone_skew_f(g, zn, p);
	*s += sectors * 512;
	g->nzones++;
	return 0;
}

/* Zone lz's extents: runs of logical tracks whose physical tracks follow each other. */
static int layout_extents(struct hdd_geom *g, const struct hdd_config *c,
			  const struct layout_zone *lz, uint64_t *s, struct errmsg *err)
{
	uint64_t l = lz->front, end = lz->front + lz->sectors;

	while (l < end) {
		uint32_t q = (uint32_t)(l / lz->spt), p = slipped_track(lz->slip, lz->nslips, q);
		uint32_t run = 1;
		uint64_t n;
		int ret;

		while ((uint64_t)(q + run) * lz->spt < end &&
		       slipped_track(lz->slip, lz->nslips, q + run) == p + run)
			run++;
		n = (uint64_t)(q + run) * lz->spt;
		n = (n < end ? n : end) - l;
		ret = add_extent(g, c, lz, l, n, s, err);
		if (ret)
			return ret;
		l += n;
	}
	return 0;
}

static int build_layout(struct hdd_geom *g, const struct hdd_config *c, struct errmsg *err)
{
	uint64_t s = 0;
	uint32_t trk0 = 0;
	unsigned slips = 0;

	g->nzones = 0;
	for (unsigned z = 0; z < c->zone_cyls.n; z++) {
		struct layout_zone lz = layout_zone(c, z, trk0, &slips);
		int ret = layout_extents(g, c, &lz, &s, err);

		if (ret)
			return ret;
		trk0 += lz.ntracks;
	}
	if (s != g->capacity)
		return errmsg_set(err, -EINVAL, "zone layout holds %llu blocks, capacity %llu "
				  "bytes is %llu", (unsigned long long)(s / 512),
				  (unsigned long long)g->capacity,
				  (unsigned long long)(g->capacity / 512));
	return 0;
}

uint64_t hdd_skewed_u_after(const struct hdd_geom *g, uint64_t u, uint64_t revs)
{
	uint32_t trk;

	trk = hdd_skew_track(g, u);
	/* track by track: its data, then the skew to the next (the head waits at its start) */
	for (;;) {
		uint64_t end = (uint64_t)(trk + 1) << 32, gap;
		uint32_t next;

		if (revs <= end - u || trk + 1 >= g->tracks)
			return u + revs;
		revs -= end - u;
		next = next_data_track(g, trk);	/* past slipped and spare tracks */
		gap = ((uint64_t)(next - trk - 1) << 32) + hdd_skew_of(g, next) - hdd_skew_of(g, trk);
		if (revs <= gap)
			return end;
		revs -= gap;
		u = (uint64_t)next << 32;
		trk = next;
	}
}

/*
 * trk / surfaces without a division: m = floor(2^(31 + l) / s) + 1 with
 * 2^(l-1) < s <= 2^l gives trk × m / 2^(31 + l) within 1/s above trk / s for
 * every trk < 2^31 (Granlund and Montgomery), so its floor is exact; the
 * product stays below 2^64.
 */
static void set_cyl_divisor(struct hdd_geom *g)
{
	unsigned l = 0;

	while (1u << l < g->surfaces)
		l++;
	g->cyl_shift = 31 + l;
	g->cyl_mul = ((uint64_t)1 << g->cyl_shift) / g->surfaces + 1;
}

int hdd_geom_init(struct hdd_geom *g, const struct hdd_config *c, struct errmsg *err)
{
	uint64_t tracks = hdd_geom_tracks(c);
	int ret;

	memset(g, 0, sizeof(*g));
	if (tracks < c->zones || tracks > UINT32_MAX / 2)
		return errmsg_set(err, -EINVAL, "%llu tracks cannot hold %llu zones",
				  (unsigned long long)tracks, (unsigned long long)c->zones);
	g->capacity = c->capacity;
	g->tracks = (uint32_t)tracks;
	g->surfaces = (uint32_t)c->surfaces;
	set_cyl_divisor(g);
	g->cylinders = (uint32_t)hdd_geom_cylinders(c);
	g->nzones = (unsigned)c->zones;
	g->rev_ns = rev_seconds(c) * 1e9;
	g->rev_fp = (uint64_t)llround(g->rev_ns * TWO32);
	g->phase_k = (uint64_t)(TWO64 / g->rev_ns);
	g->track_skew = (uint64_t)llround(c->track_skew_ms * 1e6 / g->rev_ns * TWO32);
	g->cyl_skew = (uint64_t)llround(c->cylinder_skew_ms * 1e6 / g->rev_ns * TWO32);
	g->skewed = g->track_skew || g->cyl_skew;
	g->layout = c->zone_track_skew.n;
	/* the seek tables first: the layout's gaps wait for seeks */
	ret = c->seek_knee_cyl ? 0 : hdd_seek_fit(c, &g->curve, err);
	if (ret)
		return ret;
	build_seek_table(g, c);
	build_within_table(g);
	ret = g->layout ? build_layout(g, c, err) : build_zones(g, c, err);
	if (ret)
		return ret;
	build_zone_lut(g);
	g->skewed |= g->layout;
	/* whole sectors per track with the layout: the slack covers rounding only */
	g->skew_slack = g->layout ? 1 << 16
		      : g->skewed ? (uint64_t)(511 * TWO32 / g->zone[g->nzones - 1].track_bytes) : 0;
	return 0;
}
