/*
 * hdd_sched.c — the simulated disk's scheduler: the queue of commands that
 * need the head, their positioning times, and the picks of the next command
 * (aged SPTF weighed with the drive's own error, ncq_fuzz) and of the next
 * dirty extent to destage (pure SPTF).
 *
 * The queue keeps one array per field (struct hdd_queue, hdd.h, with its
 * invariants; hdd_queue_check() checks them in debug builds), so that on
 * x86-64 CPUs with AVX2 the pick weighs four commands at a time, branch-free
 * (pick_cmd_vector()): with ncq_fuzz every queued command's estimate needs
 * its own hash at every decision (of its key and the decision's time), and
 * the vector pass does the scalar pick's (pick_cmd_all()) integer arithmetic
 * lane by lane, so it chooses the same command: the least (cost, arrival
 * number). Debug builds check that at every decision. Where a lane's figures
 * leave the range the vector arithmetic is exact for (a positioning time of
 * 2^32 ns or more), the decision is taken by the scalar pick; so it is for
 * queues of one or two commands, and on other CPUs.
 */
#include "hdd.h"

#include <string.h>

#include "util/bug.h"
#include "util/rng.h"

#define ROT_TOLERANCE (1u << 20)	/* a sector reached < 2^-12 rev late still reads */
#define SEQ_NONE INT64_MAX		/* above every seq */

void hdd_queue_check(const struct hdd_queue *q)
{
#ifndef NDEBUG
	uint64_t seen[HDD_QUEUE_SLOTS / 64] = { 0 };
	unsigned n = 0, before = HDD_QUEUE_NONE;

	BUG_ON(q->len > HDD_QUEUE_MAX);
	for (unsigned s = q->len ? q->first : HDD_QUEUE_NONE; s != HDD_QUEUE_NONE;
	     before = s, s = q->next[s]) {
		BUG_ON(s >= q->len || seen[s / 64] >> (s % 64) & 1 || q->prev[s] != before);
		seen[s / 64] |= 1ULL << (s % 64);
		BUG_ON(before != HDD_QUEUE_NONE && q->seq[s] <= q->seq[before]);
		BUG_ON(q->seq[s] >= SEQ_NONE);
		n++;
	}
	BUG_ON(n != q->len || (n && q->tail != before));
	for (unsigned s = q->len; s < HDD_QUEUE_SLOTS; s++)
		BUG_ON(q->seq[s] != SEQ_NONE || q->ready[s]);
#else
	(void)q;
#endif
}

void hdd_queue_init(struct hdd_queue *q, uint64_t aging_fp)
{
	*q = (struct hdd_queue){ .len = 0, .aging_fp = aging_fp };
	for (unsigned s = 0; s < HDD_QUEUE_SLOTS; s++)
		q->seq[s] = SEQ_NONE;
}

/* Copy slot `from` into slot `to`, and point its neighbours in arrival order at `to`. */
static void queue_move(struct hdd_queue *q, unsigned to, unsigned from)
{
	unsigned p = q->prev[from], n = q->next[from];

	q->ready[to] = q->ready[from];
	q->arrival[to] = q->arrival[from];
	q->data_at[to] = q->data_at[from];
	q->pos[to] = q->pos[from];
	q->hash[to] = q->hash[from];
	q->bias[to] = q->bias[from];
	q->seq[to] = q->seq[from];
	q->cyl[to] = q->cyl[from];
	q->trk[to] = q->trk[from];
	q->ang[to] = q->ang[from];
	q->access[to] = q->access[from];
	q->write[to] = q->write[from];
	q->redisconnect[to] = q->redisconnect[from];
	q->req[to] = q->req[from];
	q->prev[to] = (uint16_t)p;
	q->next[to] = (uint16_t)n;
	if (p == HDD_QUEUE_NONE)
		q->first = to;
	else
		q->next[p] = (uint16_t)to;
	if (n == HDD_QUEUE_NONE)
		q->tail = to;
	else
		q->prev[n] = (uint16_t)to;
}

void hdd_queue_remove(struct hdd_queue *q, unsigned slot)
{
	unsigned last, p, n;

	BUG_ON(slot >= q->len);
	last = --q->len;
	q->nwrite -= q->write[slot] != 0;
	p = q->prev[slot];
	n = q->next[slot];
	if (p == HDD_QUEUE_NONE)
		q->first = n;
	else
		q->next[p] = (uint16_t)n;
	if (n == HDD_QUEUE_NONE)
		q->tail = p;
	else
		q->prev[n] = (uint16_t)p;
	if (slot != last)
		queue_move(q, slot, last);
	q->seq[last] = SEQ_NONE;	/* never eligible, never unready */
	q->ready[last] = 0;
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
 * move_ns() of the command in slot s; a write-through starts no earlier
 * than write_watermark of its data are in the buffer.
 */
static inline uint64_t cmd_move_ns(const struct hdd *h, const struct sched_at *b, unsigned s)
{
	const struct hdd_queue *q = h->queue;
	uint64_t move = move_ns(h, b, q->pos[s], (uint32_t)q->trk[s], (uint32_t)q->cyl[s],
				q->access[s], q->write[s] != 0);
	uint64_t data = q->data_at[s] > b->T ? q->data_at[s] - b->T : 0;

	return move > data ? move : data;
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
 * number permutes the 64-bit integers, so for a command's uniform hash the
 * high 32 bits of hash × draw are uniform at every decision, and they change
 * from one decision to the next: one multiply per command and decision, not
 * a hash.
 */
static inline uint64_t fuzz_draw(uint64_t T)
{
	uint64_t x = T;

	return splitmix64(&x) | 1;
}

/*
 * The multiplier m of estimate() for the command in slot s at the decision
 * whose draw is `draw`: ncq_fuzz × u in 16.16 × 0.32 fixed point (below 2^58,
 * so t × m is exact in 128 bits).
 */
static inline uint64_t fuzz_mul(const struct hdd *h, unsigned s, uint64_t draw)
{
	return h->fuzz_fp * (uint32_t)((h->queue->hash[s] * draw) >> 32);
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
 * hdd_pick_cmd() for a drive with fuzz, one command at a time: every ready
 * command's cost, and the first least one, without branches. With fuzz,
 * lower bounds would skip commands at random, and the mispredicted branches
 * cost more than the arithmetic they save. The aging credit at T of a
 * command is (T - arrival) × ncq_aging; the same T × ncq_aging for all, so
 * its cost counts only bias = arrival × ncq_aging (a larger bias: a smaller
 * credit).
 */
static inline __attribute__((always_inline)) int
pick_cmd_all_inline(const struct hdd *h, uint64_t T, uint64_t *best_reach)
{
	const struct hdd_queue *q = h->queue;
	struct sched_at b = sched_at(h, T);
	int64_t best_cost = INT64_MAX;
	uint64_t reach_of_best = 0;
	uint64_t draw = fuzz_draw(T);
	int best = -1;

	for (unsigned s = q->len ? q->first : HDD_QUEUE_NONE;
	     s != HDD_QUEUE_NONE && q->ready[s] <= T; s = q->next[s]) {
		uint64_t move = cmd_move_ns(h, &b, s);
		uint64_t reach = move + wait_ns(h, &b, move, (uint32_t)q->ang[s]);
		int64_t cost = (int64_t)(estimate(reach, fuzz_mul(h, s, draw)) + q->bias[s]);
		bool better = cost < best_cost;

		best_cost = better ? cost : best_cost;
		reach_of_best = better ? reach : reach_of_best;
		best = better ? (int)s : best;
	}
	*best_reach = reach_of_best;
	return best;
}

static int pick_cmd_all(const struct hdd *h, uint64_t T, uint64_t *best_reach)
{
	return pick_cmd_all_inline(h, T, best_reach);
}

/* The seq of the first command in arrival order not ready at T, SEQ_NONE if all are. */
static uint64_t first_unready_seq(const struct hdd_queue *q, uint64_t T)
{
	for (unsigned s = q->len ? q->first : HDD_QUEUE_NONE; s != HDD_QUEUE_NONE; s = q->next[s])
		if (q->ready[s] > T)
			return q->seq[s];
	return SEQ_NONE;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))
typedef __m256i v4;

bool hdd_pick_avx2_supported(void)
{
	return __builtin_cpu_supports("avx2");
}

AVX2 static inline v4 v_set(uint64_t x)
{
	return _mm256_set1_epi64x((long long)x);
}

/* Low 64 bits of a × b, b given as (b, b >> 32): what a 64-bit multiply gives. */
AVX2 static inline v4 v_mul64(v4 a, v4 b, v4 b_hi)
{
	v4 cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), b),
				    _mm256_mul_epu32(a, b_hi));

	return _mm256_add_epi64(_mm256_mul_epu32(a, b), _mm256_slli_epi64(cross, 32));
}

/* (a × b) >> s for a < 2^32, s >= 32, b given as (b, b >> 32), if it fits 64 bits. */
AVX2 static inline v4 v_mulhi(v4 a, v4 b, v4 b_hi, int s)
{
	v4 hi = _mm256_add_epi64(_mm256_mul_epu32(a, b_hi),
				 _mm256_srli_epi64(_mm256_mul_epu32(a, b), 32));

	return _mm256_srli_epi64(hi, s - 32);
}

/* The figures of a decision every lane shares. */
struct v_at {
	v4 T, T_x, head_pos, phase, trk, cyl;
	v4 seek_mul, seek_mul_hi, phase_k, phase_k_hi, rev_fp, rev_fp_hi;
	v4 switch_ns, settle_ns, fuzz, draw, draw_hi, cutoff;
};

#define V_SIGN v_set(1ULL << 63)	/* xor both sides: unsigned compare by signed */
#define V_LO32 v_set(UINT32_MAX)
#define V_LOAD(a, j) _mm256_loadu_si256((const v4 *)((a) + (j)))

/* hdd_seek_ns() of dist < 2^32 in four lanes. */
AVX2 static inline v4 v_seek(const struct hdd_geom *g, const struct v_at *a, v4 dist)
{
	v4 pos = _mm256_add_epi64(_mm256_mul_epu32(dist, a->seek_mul),
				  _mm256_slli_epi64(_mm256_mul_epu32(dist, a->seek_mul_hi), 32));
	/* seek_tab[i] and seek_tab[i + 1] as one 8-byte load */
	v4 e = _mm256_i64gather_epi64((const long long *)(const void *)g->seek_tab,
				      _mm256_srli_epi64(pos, 32), 4);
	v4 e0 = _mm256_and_si256(e, V_LO32);
	v4 diff = _mm256_and_si256(_mm256_sub_epi64(_mm256_srli_epi64(e, 32), e0), V_LO32);
	v4 t = _mm256_add_epi64(e0, _mm256_srli_epi64(_mm256_mul_epu32(diff, pos), 32));
	v4 near = _mm256_cmpgt_epi64(v_set(HDD_NEAR_SEEKS), dist);

	t = _mm256_and_si256(t, V_LO32);
	if (!_mm256_testz_si256(near, near)) {
		__m128i n = _mm256_i64gather_epi32((const int *)(const void *)g->near_seek,
						   _mm256_and_si256(dist, near), 4);

		t = _mm256_blendv_epi8(t, _mm256_cvtepu32_epi64(n), near);
	}
	return t;
}

/*
 * cmd_move_ns() of slots j .. j + 3. plain: no write is queued (no settling,
 * no data to wait for) and a cylinder has one track (no head switch).
 */
AVX2 static inline __attribute__((always_inline)) v4
v_move(const struct hdd *h, const struct v_at *a, unsigned j, bool plain)
{
	const struct hdd_queue *q = h->queue;
	v4 zero = _mm256_setzero_si256();
	v4 d = _mm256_sub_epi64(V_LOAD(q->cyl, j), a->cyl);
	v4 dist = _mm256_blendv_epi8(d, _mm256_sub_epi64(zero, d), _mm256_cmpgt_epi64(zero, d));
	v4 s = _mm256_add_epi64(V_LOAD(q->access, j), v_seek(&h->geom, a, dist));
	v4 same_trk, sw, st, data_at, data;

	if (plain)
		return _mm256_andnot_si256(_mm256_cmpeq_epi64(V_LOAD(q->pos, j), a->head_pos), s);
	same_trk = _mm256_cmpeq_epi64(V_LOAD(q->trk, j), a->trk);
	sw = _mm256_and_si256(_mm256_cmpeq_epi64(dist, zero), a->switch_ns);
	st = _mm256_and_si256(V_LOAD(q->write, j), a->settle_ns);
	s = _mm256_add_epi64(s, _mm256_andnot_si256(same_trk, _mm256_add_epi64(sw, st)));
	s = _mm256_andnot_si256(_mm256_cmpeq_epi64(V_LOAD(q->pos, j), a->head_pos), s);
	data_at = V_LOAD(q->data_at, j);
	data = _mm256_and_si256(_mm256_cmpgt_epi64(_mm256_xor_si256(data_at, V_SIGN), a->T_x),
				_mm256_sub_epi64(data_at, a->T));
	return _mm256_blendv_epi8(s, data,
				  _mm256_cmpgt_epi64(_mm256_xor_si256(data, V_SIGN),
						     _mm256_xor_si256(s, V_SIGN)));
}

/* wait_ns() after move < 2^32 for angles ang. */
AVX2 static inline v4 v_wait(const struct v_at *a, v4 move, v4 ang)
{
	v4 turned = _mm256_add_epi64(_mm256_srli_epi64(_mm256_mul_epu32(move, a->phase_k), 32),
				     _mm256_mul_epu32(move, a->phase_k_hi));
	v4 w = _mm256_and_si256(_mm256_sub_epi64(_mm256_sub_epi64(ang, a->phase), turned), V_LO32);

	w = _mm256_andnot_si256(_mm256_cmpgt_epi64(w, v_set(0xffffffffULL - ROT_TOLERANCE)), w);
	return v_mulhi(w, a->rev_fp, a->rev_fp_hi, 64);
}

/* fuzz_mul(): the high half of the low 64 bits of hash × draw, × fuzz_fp. */
AVX2 static inline v4 v_fuzz(const struct v_at *a, v4 hash)
{
	v4 hi = _mm256_add_epi64(_mm256_srli_epi64(_mm256_mul_epu32(hash, a->draw), 32),
				 _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(hash, 32), a->draw),
						  _mm256_mul_epu32(hash, a->draw_hi)));

	return _mm256_mul_epu32(hi, a->fuzz);	/* its low 32 bits */
}

/* Best (cost, seq, slot, reach) per lane over the queue, and what the scan saw. */
struct v_best {
	v4 cost, seq, slot, reach;
	v4 unready, wide;		/* a lane not ready; a positioning time >= 2^32 ns */
};

/*
 * Slots past len have seq SEQ_NONE (never eligible: seq < cutoff fails) and
 * ready 0 (never unready), so whole blocks are read without a length mask.
 */
AVX2 static inline __attribute__((always_inline)) void
v_scan(const struct hdd *h, const struct v_at *a, struct v_best *out, bool plain)
{
	const struct hdd_queue *q = h->queue;
	const unsigned len = q->len;
	v4 lane = _mm256_set_epi64x(3, 2, 1, 0), zero = _mm256_setzero_si256();
	struct v_best r = { v_set(INT64_MAX), zero, zero, zero, zero, zero };
	_Alignas(32) uint64_t moves[HDD_QUEUE_SLOTS];

	/*
	 * The moves first: their seeks wait for table loads, and blocks that do
	 * not depend on each other overlap better than whole picks (~10 % faster).
	 */
	for (unsigned j = 0; j < len; j += 4)
		_mm256_store_si256((v4 *)(moves + j), v_move(h, a, j, plain));
	for (unsigned j = 0; j < len; j += 4, lane = _mm256_add_epi64(lane, v_set(4))) {
		v4 seq = V_LOAD(q->seq, j), m = v_fuzz(a, V_LOAD(q->hash, j));
		v4 move = _mm256_load_si256((const v4 *)(moves + j));
		v4 reach = _mm256_add_epi64(move, v_wait(a, move, V_LOAD(q->ang, j)));
		v4 est = _mm256_add_epi64(reach, v_mulhi(reach, m, _mm256_srli_epi64(m, 32), 48));
		v4 cost = _mm256_add_epi64(est, V_LOAD(q->bias, j));
		v4 late = _mm256_cmpgt_epi64(_mm256_xor_si256(V_LOAD(q->ready, j), V_SIGN), a->T_x);
		v4 ok = _mm256_andnot_si256(late, _mm256_cmpgt_epi64(a->cutoff, seq));
		v4 better = _mm256_or_si256(_mm256_cmpgt_epi64(r.cost, cost),
					    _mm256_and_si256(_mm256_cmpeq_epi64(r.cost, cost),
							     _mm256_cmpgt_epi64(r.seq, seq)));

		better = _mm256_and_si256(better, ok);
		r.unready = _mm256_or_si256(r.unready, late);
		r.wide = _mm256_or_si256(r.wide, _mm256_and_si256(reach, ok));
		r.cost = _mm256_blendv_epi8(r.cost, cost, better);
		r.seq = _mm256_blendv_epi8(r.seq, seq, better);
		r.slot = _mm256_blendv_epi8(r.slot, lane, better);
		r.reach = _mm256_blendv_epi8(r.reach, reach, better);
	}
	*out = r;
}

AVX2 static void v_scan_plain(const struct hdd *h, const struct v_at *a, struct v_best *r)
{
	v_scan(h, a, r, true);
}

AVX2 static void v_scan_any(const struct hdd *h, const struct v_at *a, struct v_best *r)
{
	v_scan(h, a, r, false);
}

/* The figures every lane shares, at T. */
AVX2 static void v_at_init(const struct hdd *h, uint64_t T, struct v_at *a)
{
	const struct hdd_geom *g = &h->geom;
	uint32_t trk = (uint32_t)(h->head_u >> 32);
	uint64_t draw = fuzz_draw(T);

	*a = (struct v_at){
		.T = v_set(T), .T_x = v_set(T ^ 1ULL << 63), .head_pos = v_set(h->head_pos),
		.phase = v_set(hdd_angle_in(g, T + h->phase0)), .trk = v_set(trk),
		.cyl = v_set(hdd_cyl_of(g, trk)),
		.seek_mul = v_set(g->seek_mul), .seek_mul_hi = v_set(g->seek_mul >> 32),
		.phase_k = v_set(g->phase_k), .phase_k_hi = v_set(g->phase_k >> 32),
		.rev_fp = v_set(g->rev_fp), .rev_fp_hi = v_set(g->rev_fp >> 32),
		.switch_ns = v_set(h->switch_ns), .settle_ns = v_set(h->settle_ns),
		.fuzz = v_set(h->fuzz_fp), .draw = v_set(draw), .draw_hi = v_set(draw >> 32),
		.cutoff = v_set(SEQ_NONE),
	};
}

/*
 * pick_cmd_all()'s choice, four slots at a time: each lane keeps the least
 * (cost, seq) of its slots; the ready prefix of the arrival order is the
 * commands before the first one not ready (cutoff), found only when a lane
 * saw one. A lane that needed 2^32 ns or more leaves the decision to the
 * scalar pick.
 */
AVX2 static int pick_cmd_vector(const struct hdd *h, uint64_t T, uint64_t *best_reach)
{
	void (*scan)(const struct hdd *, const struct v_at *, struct v_best *) =
		!h->queue->nwrite && h->geom.surfaces == 1 ? v_scan_plain : v_scan_any;
	struct v_at a;
	struct v_best r;
	uint64_t cost[4], seq[4], slot[4], reach[4], wide[4];
	int64_t best_cost = INT64_MAX;
	uint64_t best_seq = SEQ_NONE;
	int best = -1;

	v_at_init(h, T, &a);
	scan(h, &a, &r);
	if (!_mm256_testz_si256(r.unready, r.unready)) {
		a.cutoff = v_set(first_unready_seq(h->queue, T));
		scan(h, &a, &r);
	}
	_mm256_storeu_si256((v4 *)wide, _mm256_srli_epi64(r.wide, 32));
	if (wide[0] | wide[1] | wide[2] | wide[3])
		return pick_cmd_all(h, T, best_reach);
	_mm256_storeu_si256((v4 *)cost, r.cost);
	_mm256_storeu_si256((v4 *)seq, r.seq);
	_mm256_storeu_si256((v4 *)slot, r.slot);
	_mm256_storeu_si256((v4 *)reach, r.reach);
	*best_reach = 0;
	for (unsigned l = 0; l < 4; l++) {
		int64_t c = (int64_t)cost[l];

		if (c < best_cost || (c == best_cost && best >= 0 && seq[l] < best_seq)) {
			best_cost = c;
			best_seq = seq[l];
			best = (int)slot[l];
			*best_reach = reach[l];
		}
	}
	return best;
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

int hdd_pick_cmd(const struct hdd *h, uint64_t T, uint64_t *best_reach)
{
	int best;

	if (!h->queue->len)
		return -1;
	if (!h->fuzz_fp)
		return pick_cmd_pruned(h, T, best_reach);
	if (!h->pick_avx2 || h->queue->len < 3)	/* too few to pay for the set-up */
		return pick_cmd_all_inline(h, T, best_reach);
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
