/*
 * hdd_sched.c — the simulated disk's scheduler: the queue of commands that
 * need the head, their positioning times, and the picks of the next command
 * (aged SPTF weighed with the drive's own error, ncq_fuzz) and of the next
 * dirty extent to destage (pure SPTF).
 *
 * The queue keeps one array per field (struct hdd_queue, hdd.h, with its
 * invariants; hdd_queue_check() checks them in debug builds) and its arrival
 * order as a linked list. With ncq_fuzz every queued command's estimate has
 * its own error at every decision: u = hash × draw (mod 2^32), the command's
 * hash and the decision's odd draw, one multiply. On x86-64 CPUs with AVX2,
 * FMA and BMI2 the pick (pick_cmd_vector()) first bounds every command's
 * cost from below, eight at a time in float, without table lookups: the
 * access overhead, a line under the seek curve, the next pass of the
 * sector after that, estimated, plus the aging bias. Then it weighs exactly,
 * in the scalar pick's integer arithmetic, the command of the least bound and
 * those whose bound does not exceed that one's cost (for 4 KiB random reads
 * at QD32 about 0.7 of 31), so it chooses what the scalar pick
 * (pick_cmd_all()) chooses: the least (cost, arrival number). Debug builds
 * check that at every decision. Queues of two commands, a command not yet
 * ready and other CPUs take the scalar pick; the only command is taken
 * without one.
 *
 * Measured on the wd6400aaks preset, 4 KiB random reads at QD32 (AMD EPYC,
 * Zen 3), for whoever tries to make it faster:
 * - pruning by cylinder cannot pay: 20.5 of the 31 queued commands have an
 *   access overhead + exact seek + bias (no rotation, no fuzz) below the
 *   chosen cost, so only the rotation term of the bound excludes them;
 * - an upper bound of each cost from the same pass (lines over the seek
 *   curve), so that no exact cost waits for the bounds, weighs 3 commands
 *   instead of 1.7 and ran slower; so did taking the threshold from the
 *   first half of the slots while the second half is bounded;
 * - the pick must leave the upper halves of the ymm registers clean
 *   (vzeroupper): a variant whose compiler left it out ran the whole
 *   simulation at half speed; the scalar pick alone runs it at 0.55.
 */
#include "hdd.h"

#include <math.h>
#include <string.h>

#include "util/bug.h"
#include "util/rng.h"

#define ROT_TOLERANCE (1u << 20)	/* a sector reached < 2^-12 rev late still reads */
#define SEQ_NONE INT64_MAX		/* above every seq */

#ifndef NDEBUG
void hdd_queue_check(const struct hdd_queue *q)
{
	uint64_t seen[HDD_QUEUE_SLOTS / 64] = { 0 };
	unsigned n = 0, before = HDD_QUEUE_NONE;

	BUG_ON(q->len > HDD_QUEUE_MAX || q->span > HDD_QUEUE_SLOTS);
	for (unsigned s = q->len ? q->first : HDD_QUEUE_NONE; s != HDD_QUEUE_NONE;
	     before = s, s = q->next[s]) {
		BUG_ON(s >= q->span || seen[s / 64] >> (s % 64) & 1 || q->prev[s] != before);
		seen[s / 64] |= 1ULL << (s % 64);
		BUG_ON(before != HDD_QUEUE_NONE && q->seq[s] <= q->seq[before]);
		BUG_ON(q->seq[s] >= SEQ_NONE);
		n++;
	}
	BUG_ON(n != q->len || (n && q->tail != before) || (!n && q->span));
	BUG_ON(n && !(seen[(q->span - 1) / 64] >> ((q->span - 1) % 64) & 1));	/* span: the highest + 1 */
	for (unsigned w = 0; w < HDD_QUEUE_SLOTS / 64; w++)
		BUG_ON(seen[w] != q->used[w]);
	for (unsigned s = 0; s < HDD_QUEUE_SLOTS; s++) {
		if (!(seen[s / 64] >> (s % 64) & 1))
			BUG_ON(q->seq[s] != SEQ_NONE || q->ready[s] || q->bias_f[s] != INFINITY);
		else
			BUG_ON(q->bias[s] < q->bias_base ||
			       q->bias_f[s] > (double)(q->bias[s] - q->bias_base));
	}
}
#endif

/* Whether seek_lb + (d - 1) × slope (16.16) stays a nanosecond below d's seek. */
static bool seek_bound_holds(const struct hdd_geom *g, uint64_t lb, uint64_t slope, uint64_t d)
{
	return lb + (((d - 1) * slope) >> 16) < hdd_seek_ns(g, (uint32_t)d);
}

/*
 * A line under the seek curve: for d >= 1 cylinders, seek_lb + (d - 1) ×
 * seek_lb_slope / 2^16 <= hdd_seek_ns(d). Beyond the exact short seeks the
 * seek table interpolates linearly (rounding down by less than 1 ns) between
 * bucket edges, so holding a nanosecond below it at each bucket's first and
 * last distance holds in between.
 */
static void seek_bound(struct hdd_queue *q, const struct hdd_geom *g)
{
	uint64_t n = g->cylinders, lb = UINT64_MAX, slope = UINT32_MAX;

	for (uint64_t d = 1; d < n && d <= HDD_NEAR_SEEKS; d++)
		lb = hdd_seek_ns(g, (uint32_t)d) < lb ? hdd_seek_ns(g, (uint32_t)d) : lb;
	lb = lb == UINT64_MAX || !lb ? 0 : lb - 1;
	for (uint64_t d = 2; d < n; d++) {
		uint64_t t = hdd_seek_ns(g, (uint32_t)d);

		if (d >= HDD_NEAR_SEEKS) {	/* the first and last distance of each bucket */
			uint64_t i = (d * g->seek_mul) >> 32;
			uint64_t next = (((i + 1) << 32) + g->seek_mul - 1) / g->seek_mul;

			if (!seek_bound_holds(g, lb, slope, d))
				slope = t > lb + 1 ? ((t - lb - 1) << 16) / (d - 1) : 0;
			d = next - 1 > d && next - 1 < n ? next - 1 : n - 1 > d ? n - 1 : d;
			t = hdd_seek_ns(g, (uint32_t)d);
		}
		if (!seek_bound_holds(g, lb, slope, d))
			slope = t > lb + 1 ? ((t - lb - 1) << 16) / (d - 1) : 0;
	}
	q->seek_lb = lb;
	q->seek_lb_slope = slope;
	/* in 32 bits: ((d - 1) >> shift) × step <= (d - 1) × slope / 2^16, below 2^31 */
	for (q->seek_lb_shift = 0;; q->seek_lb_shift++) {
		q->seek_lb_step = (uint32_t)((slope << q->seek_lb_shift) >> 16);
		if ((n >> q->seek_lb_shift) * q->seek_lb_step < 1u << 31)
			break;
	}
}

void hdd_queue_init(struct hdd_queue *q, const struct hdd *h)
{
	*q = (struct hdd_queue){ .len = 0, .aging_fp = h->aging_fp };
	for (unsigned s = 0; s < HDD_QUEUE_SLOTS; s++) {
		q->seq[s] = SEQ_NONE;
		q->bias_f[s] = INFINITY;
	}
	seek_bound(q, &h->geom);
	q->fuzz_f = (float)h->fuzz_fp * 0x1p-40f;
	q->revs_f = (float)(0x1p24 / h->geom.rev_ns);
	q->rev_f = (float)(h->geom.rev_ns * 0x1p-24);
	q->t_max = h->geom.rev_ns * 64 < 0x1p30 ? (uint32_t)(h->geom.rev_ns * 64) : 1u << 30;
}

void hdd_queue_remove(struct hdd_queue *q, unsigned slot)
{
	unsigned p, n, w;

	BUG_ON(slot >= q->span || !(q->used[slot / 64] >> (slot % 64) & 1));
	q->len--;
	q->nwrite -= q->write[slot] != 0;
	p = q->prev[slot];
	n = q->next[slot];
	if (p == HDD_QUEUE_NONE)
		q->first = n;
	else
		q->next[p] = (uint16_t)n;
	if (!q->len)
		q->ready_ub = 0;
	if (n == HDD_QUEUE_NONE)
		q->tail = p;
	else
		q->prev[n] = (uint16_t)p;
	q->used[slot / 64] &= ~(1ULL << (slot % 64));
	q->seq[slot] = SEQ_NONE;	/* never eligible, never unready */
	q->ready[slot] = 0;
	q->bias_f[slot] = INFINITY;
	if (slot + 1 < q->span)
		return;
	for (w = slot / 64 + 1; w-- > 0 && !q->used[w];)	/* the highest used slot */
		;
	q->span = w < HDD_QUEUE_SLOTS / 64 ? w * 64 + 64 - (unsigned)__builtin_clzll(q->used[w]) : 0;
}

/* The head as a scheduling decision at time T sees it. */
struct sched_at {
	uint64_t T;
	uint64_t head_pos;
	uint32_t phase;			/* platter angle at T */
	uint32_t trk;			/* head's track */
	uint32_t cyl;			/* and cylinder */
};

static struct sched_at sched_at(const struct hdd *h, uint64_t T)
{
	return (struct sched_at){
		.T = T, .head_pos = h->head_pos, .trk = (uint32_t)(h->head_u >> 32),
		.cyl = hdd_cyl_of(&h->geom, (uint32_t)(h->head_u >> 32)),
		.phase = hdd_angle_in(&h->geom, T + h->phase0),
	};
}

/*
 * Time from b->T until the head is over the track of `pos` (cylinder cyl)
 * and ready to transfer: access overhead (host commands; a destage is
 * planned while the head is still busy), seek to the cylinder or, within
 * it, a head switch, and settling before a write on another track; nothing
 * for a transfer that continues where the head stopped.
 */
static inline uint64_t move_ns(const struct hdd *h, const struct sched_at *b, uint64_t pos,
			       uint32_t trk, uint32_t cyl, uint64_t overhead, bool write)
{
	uint32_t dist = cyl > b->cyl ? cyl - b->cyl : b->cyl - cyl;
	uint64_t s = overhead + hdd_seek_ns(&h->geom, dist);

	if (trk != b->trk) {
		s += dist ? 0 : h->switch_ns;
		s += write ? h->settle_ns : 0;
	}
	return pos == b->head_pos ? 0 : s;
}

/*
 * A move from b->T of a command whose data are in the buffer at data_at: a
 * write-through starts no earlier than write_watermark of them are.
 */
static inline uint64_t data_move_ns(const struct sched_at *b, uint64_t move, uint64_t data_at)
{
	uint64_t data = data_at > b->T ? data_at - b->T : 0;

	return move > data ? move : data;
}

/* move_ns() of the command in slot s, its data waited for (data_move_ns()). */
static inline uint64_t cmd_move_ns(const struct hdd *h, const struct sched_at *b, unsigned s)
{
	const struct hdd_queue *q = h->queue;

	return data_move_ns(b, move_ns(h, b, q->pos[s], (uint32_t)q->trk[s], (uint32_t)q->cyl[s],
				       q->access[s], q->write[s] != 0), q->data_at[s]);
}

/*
 * Then the rotational wait for the sector at angle `ang`. move + wait is the
 * positioning time: the picks compute it, and the transfer starts exactly
 * then (the scheduler's estimate is the actual time).
 */
static inline uint64_t wait_ns(const struct hdd *h, const struct sched_at *b, uint64_t move,
			       uint32_t ang)
{
	uint32_t w = ang - b->phase - hdd_angle_in(&h->geom, move);

	if (w > 0u - ROT_TOLERANCE)
		w = 0;			/* reached a hair late: rounding, not a miss */
	return hdd_rev_ns(&h->geom, w);
}

/*
 * The drive's estimate of positioning time `t` for a command weighed at time
 * T: t × (1 + ncq_fuzz × u), u uniform in [0, 1) from a hash of the command
 * (its key: arrival and position) and the moment (no state, so the same
 * history gives the same choices).
 * Firmware does not plan as well as exact SPTF would: with a few commands
 * queued the error hides most of what a choice could win, with many some are
 * close enough to win anyway, so the gain grows with the depth gradually, as
 * measured drives show; a command under the head (sequential) still costs
 * nothing and is still taken at once.
 */
static inline uint64_t estimate(uint64_t t, uint64_t m)
{
	return t + (uint64_t)(((unsigned __int128)t * m) >> 48);
}

/*
 * The decision's draw for the fuzz: a hash of T, odd. Multiplying by an odd
 * number permutes the 32-bit integers, so for a command's uniform hash
 * hash × draw (mod 2^32) is uniform at every decision, and it changes from
 * one decision to the next: one multiply per command and decision, not a
 * hash.
 */
static inline uint32_t fuzz_draw(uint64_t T)
{
	uint64_t x = T;

	return (uint32_t)(splitmix64(&x) >> 32) | 1;
}

/*
 * The multiplier m of estimate() for the command in slot s at the decision
 * whose draw is `draw`: ncq_fuzz × u in 16.16 × 0.32 fixed point (below 2^58,
 * so t × m is exact in 128 bits).
 */
static inline uint64_t fuzz_mul(const struct hdd *h, unsigned s, uint32_t draw)
{
	return h->fuzz_fp * (uint32_t)(h->queue->hash[s] * draw);
}

/* The aging credit at T of the command in slot s. */
static inline int64_t credit_at(const struct hdd *h, unsigned s, uint64_t T)
{
	return (int64_t)(((unsigned __int128)(T - h->queue->arrival[s]) * h->aging_fp) >> 16);
}

/*
 * hdd_pick_cmd() for a drive without fuzz: its estimates are the times, so the
 * lower bounds below skip most commands, and predictably. Readiness and
 * credit both fall along the arrival order, so the scan stops as soon as no
 * later command can win. Without aging, commands too far away to beat the
 * best so far are skipped before their seek is looked up.
 */
static int pick_cmd_pruned(const struct hdd *h, uint64_t T, uint64_t *best_reach)
{
	const struct hdd_queue *q = h->queue;
	struct sched_at b = sched_at(h, T);
	int64_t best_cost = INT64_MAX;
	uint32_t max_dist = UINT32_MAX;
	int best = -1;

	for (unsigned s = q->len ? q->first : HDD_QUEUE_NONE;
	     s != HDD_QUEUE_NONE && q->ready[s] <= T; s = q->next[s]) {
		int64_t credit = credit_at(h, s, T);
		uint32_t cyl = (uint32_t)q->cyl[s];
		uint32_t dist = cyl > b.cyl ? cyl - b.cyl : b.cyl - cyl;
		uint64_t move, reach;
		int64_t cost;

		if (-credit >= best_cost)
			break;
		if (dist > max_dist && q->pos[s] != b.head_pos)
			continue;
		move = cmd_move_ns(h, &b, s);
		if ((int64_t)move - credit >= best_cost)
			continue;
		reach = move + wait_ns(h, &b, move, (uint32_t)q->ang[s]);
		cost = (int64_t)reach - credit;
		if (cost < best_cost) {
			best_cost = cost;
			best = (int)s;
			*best_reach = reach;
			if (!h->aging_fp)
				max_dist = (uint64_t)best_cost > h->access_min_ns
						   ? hdd_seek_within(&h->geom,
								     (uint64_t)best_cost - h->access_min_ns)
						   : 0;
		}
	}
	return best;
}

/*
 * The cost of the command in slot s at the decision b (draw: fuzz_draw()),
 * and its positioning time (*reach): what pick_cmd_all() weighs.
 */
static inline int64_t exact_cost(const struct hdd *h, const struct sched_at *b, uint32_t draw,
				 unsigned s, uint64_t *reach)
{
	const struct hdd_queue *q = h->queue;
	uint64_t move = cmd_move_ns(h, b, s);

	*reach = move + wait_ns(h, b, move, (uint32_t)q->ang[s]);
	return (int64_t)(estimate(*reach, fuzz_mul(h, s, draw)) + q->bias[s]);
}

/*
 * hdd_pick_cmd() for a drive with fuzz, one command at a time: every ready
 * command's cost, and the first least one, without branches. With fuzz,
 * lower bounds would skip commands at random, and the mispredicted branches
 * cost more than the arithmetic they save. The aging credit at T of a
 * command is (T - arrival) × ncq_aging; the same T × ncq_aging for all, so
 * its cost counts only bias = arrival × ncq_aging (a larger bias: a smaller
 * credit).
 */
__attribute__((noinline)) static int pick_cmd_all(const struct hdd *h, uint64_t T,
						   uint64_t *best_reach)
{
	const struct hdd_queue *q = h->queue;
	struct sched_at b = sched_at(h, T);
	int64_t best_cost = INT64_MAX;
	uint64_t reach_of_best = 0;
	uint32_t draw = fuzz_draw(T);
	int best = -1;

	for (unsigned s = q->len ? q->first : HDD_QUEUE_NONE;
	     s != HDD_QUEUE_NONE && q->ready[s] <= T; s = q->next[s]) {
		uint64_t reach;
		int64_t cost = exact_cost(h, &b, draw, s, &reach);
		bool better = cost < best_cost;

		best_cost = better ? cost : best_cost;
		reach_of_best = better ? reach : reach_of_best;
		best = better ? (int)s : best;
	}
	*best_reach = reach_of_best;
	return best;
}

/*
 * exact_cost() where no write is queued and a cylinder has one track (no
 * settling, no data to wait for, no head switch), with the same arithmetic,
 * written so that the compiler needs no branch: the direction of a seek, a
 * short seek or a sector reached a hair late are as likely as not.
 */
static inline int64_t exact_cost_plain(const struct hdd *h, const struct sched_at *b,
				       uint32_t draw, unsigned s, uint64_t *reach)
{
	const struct hdd_queue *q = h->queue;
	const struct hdd_geom *g = &h->geom;
	int64_t d = (int64_t)q->cyl[s] - (int64_t)b->cyl, sign = d >> 63;
	uint32_t dist = (uint32_t)((d ^ sign) - sign);
	uint64_t pos = (uint64_t)dist * g->seek_mul;
	const uint32_t *e = &g->seek_tab[pos >> 32];
	uint32_t far = e[0] + (uint32_t)(((uint64_t)(e[1] - e[0]) * (uint32_t)pos) >> 32);
	uint32_t is_near = 0u - (uint32_t)(dist < HDD_NEAR_SEEKS);
	uint32_t near = g->near_seek[dist & (HDD_NEAR_SEEKS - 1)];
	uint64_t move = q->access[s] + ((near & is_near) | (far & ~is_near));
	uint32_t w;

	move &= 0 - (uint64_t)(q->pos[s] != b->head_pos);
	w = (uint32_t)q->ang[s] - b->phase - hdd_angle_in(g, move);
	w &= 0u - (uint32_t)(w <= 0u - ROT_TOLERANCE);
	*reach = move + hdd_rev_ns(g, w);
	return (int64_t)(estimate(*reach, fuzz_mul(h, s, draw)) + q->bias[s]);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,fma,bmi2")))
typedef __m256i v8;

bool hdd_pick_avx2_supported(void)
{
	return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
	       __builtin_cpu_supports("bmi2");
}

#define V_LOAD(a, j) _mm256_loadu_si256((const v8 *)((a) + (j)))

/* The figures of a decision every lane shares. */
struct v_at {
	v8 cyl, pos_lo, phase, lb_seek, lb_shift, lb_step, draw, one, t_max;
	__m256 fuzz;			/* ncq_fuzz / 2^24 */
	__m256 revs;			/* 2^24 / rev_ns: ns to 2^-24 revolutions */
	__m256 rev;			/* rev_ns / 2^24 */
};

#define V_TURN 0x1p24f			/* a revolution in the units of v_reach() */
#define V_AHEAD 8192.0f			/* 2^-11 revolution: twice ROT_TOLERANCE */
#define V_SLACK 2048.0f			/* more than the float error of x */

/*
 * A lower bound of the positioning time of commands at angles ang whose
 * move is at least t <= t_max (64 revolutions, at most 2^30 ns): the time
 * the sector passes next after t (that grows with t, and the tolerance of
 * wait_ns() is within it). The revolutions to wait, x = ang - phase - t /
 * rev_ns, in float to within 2^-16 revolution (x < 2^30 units); a sector that x puts less than V_AHEAD before the head
 * may be one just missed within the tolerance: no wait. Else the wait less
 * V_SLACK, which the float error cannot exceed.
 */
AVX2 static inline __m256 v_reach(const struct v_at *a, v8 ang, __m256 tf)
{
	__m256 angle = _mm256_cvtepi32_ps(_mm256_srli_epi32(_mm256_sub_epi32(ang, a->phase), 8));
	__m256 x = _mm256_fnmadd_ps(tf, a->revs, _mm256_add_ps(angle, _mm256_set1_ps(V_AHEAD)));
	__m256 turns = _mm256_floor_ps(_mm256_mul_ps(x, _mm256_set1_ps(1 / V_TURN)));
	__m256 wait = _mm256_fnmadd_ps(turns, _mm256_set1_ps(V_TURN), x);

	wait = _mm256_max_ps(_mm256_sub_ps(wait, _mm256_set1_ps(V_AHEAD + V_SLACK)),
			     _mm256_setzero_ps());
	return _mm256_fmadd_ps(wait, a->rev, tf);
}

/*
 * A lower bound of the cost of every queued command, eight at a time, in
 * float, into lb[] (not a number past len), and the slot of the least: the
 * cost less bias_base, with the access overhead and a bound under the seek
 * for its move, then v_reach(); the float rounding is covered by the
 * threshold it is compared with (pick_cmd_vector()). A bound may come out
 * lower than it could (a wrapped sum, a position's low half alike, a move
 * cut to t_max): that only costs an exact look at a command. The low 8 bits
 * of each bound (>= 0, so its bits order as an integer) hold its slot
 * instead: 2^-15 lower at most, and the least of them names its slot.
 */
_Static_assert(HDD_QUEUE_SLOTS <= 256, "a slot fits the low byte of a bound");
AVX2 static unsigned v_bounds(const struct hdd_queue *q, const struct v_at *a, float *lb)
{
	v8 lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), least = _mm256_set1_epi32(-1), m;
	v8 zero = _mm256_setzero_si256(), low = _mm256_set1_epi32(0xff);

	for (unsigned j = 0; j < q->span; j += 8, lane = _mm256_add_epi32(lane, _mm256_set1_epi32(8))) {
		v8 d = _mm256_sub_epi32(V_LOAD(q->cyl, j), a->cyl);
		v8 dist = _mm256_abs_epi32(d);
		v8 seek = _mm256_add_epi32(a->lb_seek, _mm256_mullo_epi32(
			_mm256_srlv_epi32(_mm256_sub_epi32(dist, a->one), a->lb_shift), a->lb_step));
		v8 t = _mm256_add_epi32(V_LOAD(q->access, j),
					_mm256_andnot_si256(_mm256_cmpeq_epi32(d, zero), seek));
		v8 u = _mm256_mullo_epi32(V_LOAD(q->hash, j), a->draw);
		__m256 fu = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(u, 8)), a->fuzz);
		__m256 tf;
		v8 bound;

		t = _mm256_andnot_si256(_mm256_cmpeq_epi32(V_LOAD(q->pos_lo, j), a->pos_lo), t);
		tf = v_reach(a, V_LOAD(q->ang, j), _mm256_cvtepi32_ps(_mm256_min_epu32(t, a->t_max)));
		bound = _mm256_castps_si256(
			_mm256_add_ps(_mm256_fmadd_ps(tf, fu, tf), _mm256_loadu_ps(q->bias_f + j)));
		bound = _mm256_or_si256(_mm256_andnot_si256(low, bound), lane);
		_mm256_store_si256((v8 *)(lb + j), bound);
		least = _mm256_min_epu32(bound, least);
	}
	/* the least over the lanes: its low byte is its slot */
	m = _mm256_min_epu32(least, _mm256_permute2x128_si256(least, least, 1));
	m = _mm256_min_epu32(m, _mm256_shuffle_epi32(m, 0x4e));
	m = _mm256_min_epu32(m, _mm256_shuffle_epi32(m, 0xb1));
	return (unsigned)_mm256_cvtsi256_si32(m) & 0xff;
}

/* The figures every lane shares, at the decision b. */
AVX2 static void v_at_init(const struct hdd *h, const struct sched_at *b, uint32_t draw,
			   struct v_at *a)
{
	const struct hdd_queue *q = h->queue;

	*a = (struct v_at){
		.cyl = _mm256_set1_epi32((int)b->cyl), .pos_lo = _mm256_set1_epi32((int)b->head_pos),
		.lb_seek = _mm256_set1_epi32((int)q->seek_lb),
		.lb_shift = _mm256_set1_epi32((int)q->seek_lb_shift),
		.lb_step = _mm256_set1_epi32((int)q->seek_lb_step),
		.draw = _mm256_set1_epi32((int)draw), .one = _mm256_set1_epi32(1),
		.t_max = _mm256_set1_epi32((int)q->t_max), .phase = _mm256_set1_epi32((int)b->phase),
		.fuzz = _mm256_set1_ps(q->fuzz_f), .revs = _mm256_set1_ps(q->revs_f),
		.rev = _mm256_set1_ps(q->rev_f),
	};
}

/*
 * The slots whose bound does not exceed `limit`, into list[], without
 * branches (the slot numbers of a block, one per byte, gathered by the
 * block's mask); their number.
 */
AVX2 static unsigned v_candidates(const struct hdd_queue *q, const float *lb, float limit,
				  uint8_t *list)
{
	const uint64_t bytes = 0x0101010101010101ULL;
	__m256 over_limit = _mm256_set1_ps(limit), any = _mm256_setzero_ps();
	unsigned n = 0;

	for (unsigned j = 0; j < q->span; j += 8)	/* usually none: the least bound wins */
		any = _mm256_or_ps(any, _mm256_cmp_ps(_mm256_load_ps(lb + j), over_limit, _CMP_LE_OQ));
	if (_mm256_testz_ps(any, any))
		return 0;
	for (unsigned j = 0; j < q->span; j += 8) {
		unsigned in = (unsigned)_mm256_movemask_ps(
			_mm256_cmp_ps(_mm256_load_ps(lb + j), over_limit, _CMP_LE_OQ));
		uint64_t slots = _pext_u64(0x0706050403020100ULL + j * bytes,
					   _pdep_u64(in, bytes) * 0xff);

		memcpy(list + n, &slots, 8);
		n += (unsigned)__builtin_popcount(in);
	}
	return n;
}

/* bias_f[] again from a bias_base that has fallen far behind the oldest command's bias. */
static void rebase(struct hdd_queue *q)
{
	q->bias_base = q->bias[q->first];
	for (unsigned s = q->first; s != HDD_QUEUE_NONE; s = q->next[s])	/* free slots stay */
		q->bias_f[s] = hdd_float_down(q->bias[s] - q->bias_base);
}

/*
 * pick_cmd_all()'s choice, from the bounds: the command of the least
 * bound is weighed exactly first, then only the commands whose bound does
 * not exceed its cost (for the random reads of a 32-deep queue, about 0.7
 * of 31 beyond it); least (cost, seq), as the scalar pick's first least in
 * arrival order. The bound of a float sum of float terms is within 2^-21 of the
 * real one; the threshold allows it 2^-18 and 256 ns. When a command is not
 * ready (rare: a command accepted less than its controller time ago) the
 * eligible ones are the prefix of the arrival order: the scalar pick. The
 * bounds hold for writes too (settling, a head switch and waiting for data
 * only add to the move).
 */
AVX2 static int pick_cmd_vector(const struct hdd *h, uint64_t T, uint64_t *best_reach)
{
	struct hdd_queue *q = h->queue;
	struct sched_at b = sched_at(h, T);
	uint32_t draw = fuzz_draw(T);
	uint64_t reach_of_best;
	_Alignas(32) float lb[HDD_QUEUE_SLOTS];
	uint8_t list[HDD_QUEUE_SLOTS + 8];
	int64_t best_cost;
	struct v_at a;
	unsigned best, n;
	bool plain;

	if (q->ready_ub > T)
		return pick_cmd_all(h, T, best_reach);
	if (q->bias[q->first] - q->bias_base > 1u << 26)
		rebase(q);
	v_at_init(h, &b, draw, &a);
	best = v_bounds(q, &a, lb);
	plain = !q->nwrite && h->geom.surfaces == 1;
	best_cost = plain ? exact_cost_plain(h, &b, draw, best, &reach_of_best)
			  : exact_cost(h, &b, draw, best, &reach_of_best);
	lb[best] = INFINITY;		/* weighed */
	n = v_candidates(q, lb, (float)(best_cost - (int64_t)q->bias_base) * (1 + 0x1p-18f) + 256,
			 list);
	for (unsigned k = 0; k < n; k++) {
		unsigned s = list[k];
		uint64_t reach;
		int64_t cost = plain ? exact_cost_plain(h, &b, draw, s, &reach)
				     : exact_cost(h, &b, draw, s, &reach);
		bool before = (cost < best_cost) | ((cost == best_cost) & (q->seq[s] < q->seq[best]));

		best_cost = before ? cost : best_cost;
		reach_of_best = before ? reach : reach_of_best;
		best = before ? s : best;
	}
	*best_reach = reach_of_best;
	return (int)best;
}
#else
bool hdd_pick_avx2_supported(void)
{
	return false;
}

static int pick_cmd_vector(const struct hdd *h, uint64_t T, uint64_t *best_reach)
{
	return pick_cmd_all(h, T, best_reach);
}
#endif

bool hdd_pick_solo(const struct hdd *h, const struct hdd_cmd *c, uint64_t T, uint64_t *reach)
{
	struct sched_at b = sched_at(h, T);
	uint64_t move;

	if (c->ready > T)
		return false;
	move = data_move_ns(&b, move_ns(h, &b, c->pos, c->trk, c->cyl, c->access, c->write),
			    c->data_at);
	*reach = move + wait_ns(h, &b, move, c->ang);
	return true;
}

int hdd_pick_cmd(const struct hdd *h, uint64_t T, uint64_t *best_reach)
{
	int best;

	if (!h->queue->len)
		return -1;
	if (h->queue->len == 1) {	/* the only one, once it is ready */
		struct sched_at b = sched_at(h, T);
		unsigned s = h->queue->first;
		uint64_t move;

		if (h->queue->ready[s] > T)
			return -1;
		move = cmd_move_ns(h, &b, s);
		*best_reach = move + wait_ns(h, &b, move, h->queue->ang[s]);
		return (int)s;
	}
	if (!h->fuzz_fp)
		return pick_cmd_pruned(h, T, best_reach);
	if (!h->pick_avx2 || h->queue->len < 3)	/* too few to pay for the set-up */
		return pick_cmd_all(h, T, best_reach);
	best = pick_cmd_vector(h, T, best_reach);
#ifndef NDEBUG
	{
		uint64_t reach = 0;

		BUG_ON(pick_cmd_all(h, T, &reach) != best || (best >= 0 && reach != *best_reach));
	}
#endif
	return best;
}

/* Best of dirty[i] so far (*best_cost, *best); false once past reach. */
static bool try_dirty(const struct hdd *h, const struct sched_at *b, unsigned i,
		      uint64_t *best_cost, int *best)
{
	const struct hdd_dirty *e = hdd_dirty_at(h, i);
	uint64_t move = move_ns(h, b, e->off, e->trk, e->cyl, 0, true), cost;

	if (move >= *best_cost)
		return false;		/* and every extent further out */
	if (e->ready > b->T)
		return true;
	cost = move + wait_ns(h, b, move, e->ang);
	if (cost < *best_cost) {
		*best_cost = cost;
		*best = (int)i;
	}
	return true;
}

/*
 * Extents are in track order, so the scan runs outwards from the head on
 * each side and stops where the seek alone is longer than the best.
 */
int hdd_pick_dirty(const struct hdd *h, uint64_t T, uint64_t *best_reach)
{
	struct sched_at b = sched_at(h, T);
	unsigned p = hdd_dirty_after(h, h->head_pos);
	uint64_t best_cost = UINT64_MAX;
	int best = -1;

	for (unsigned i = p; i-- > 0;)
		if (!try_dirty(h, &b, i, &best_cost, &best))
			break;
	for (unsigned i = p; i < h->ndirty; i++)
		if (!try_dirty(h, &b, i, &best_cost, &best))
			break;
	*best_reach = best_cost;
	return best;
}
