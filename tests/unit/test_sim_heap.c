/*
 * test_sim_heap.c — the request heap and the request FIFO of sim/heap.h
 * against a plain reference: the heap pops the earliest key, ties in push
 * order, whatever the mix of pushes and pops (many equal keys), and so with
 * a device's mostly in-order times, which it splits between its FIFO and
 * its heap part (ties across the two); the FIFO
 * pops in push order through its ring's wrap and growth, and its min is
 * the front's key; the event heap pops items by (key, tie), pushes and
 * replacements of the first mixed, equal keys told apart by their ties.
 */
#include <stdlib.h>

#include "check.h"
#include "sim/heap.h"
#include "util/rng.h"

#define N 5000

/* Index of the earliest (key, push order) among the live reference entries. */
static int ref_min(const uint64_t *key, const int *live, int n)
{
	int best = -1;

	for (int i = 0; i < n; i++)
		if (live[i] && (best < 0 || key[i] < key[best]))
			best = i;
	return best;
}

static void heap_against_reference(struct check_state *st, uint64_t spread)
{
	static struct io_request req[N];
	static uint64_t key[N];
	static int live[N];
	struct req_heap h;
	struct rng r;
	int pushed = 0, bad = 0, len = 0;

	rng_init(&r, spread);
	req_heap_init(&h);
	while (pushed < N || len) {
		if (pushed < N && (len == 0 || rng_below(&r, 3))) {
			key[pushed] = rng_below(&r, spread);
			live[pushed] = 1;
			bad += req_heap_push(&h, key[pushed], &req[pushed]) != 0;
			pushed++;
			len++;
		} else {
			int i = ref_min(key, live, pushed);
			uint64_t min = req_heap_min(&h);
			struct io_request *got = req_heap_pop(&h);

			bad += min != key[i] || got != &req[i];
			live[i] = 0;
			len--;
		}
	}
	CHECK(st, bad == 0, "%d pops out of order (keys below %llu)", bad,
	      (unsigned long long)spread);
	CHECK(st, req_heap_pop(&h) == NULL && req_heap_min(&h) == UINT64_MAX, "empty heap");
	req_heap_release(&h);
}

/*
 * A device's pattern: times from a clock that moves to each popped time,
 * plus a little (many equal, some earlier than the last push), so both the
 * heap's in-order FIFO and its heap part hold entries, with ties across the
 * two; pops must still come earliest first, ties in push order.
 */
static void heap_mostly_in_order(struct check_state *st)
{
	static struct io_request req[N];
	static uint64_t key[N];
	static int live[N];
	struct req_heap h;
	struct rng r;
	uint64_t now = 0;
	int pushed = 0, bad = 0, len = 0, mixed = 0;

	rng_init(&r, 11);
	req_heap_init(&h);
	while (pushed < N || len) {
		if (pushed < N && (len == 0 || rng_below(&r, 2))) {
			key[pushed] = now + rng_below(&r, 4);
			live[pushed] = 1;
			bad += req_heap_push(&h, key[pushed], &req[pushed]) != 0;
			pushed++;
			len++;
			mixed += h.nheap && h.run.len && h.entries[0].key == req_fifo_min(&h.run);
		} else {
			int i = ref_min(key, live, pushed);

			bad += req_heap_min(&h) != key[i];
			bad += req_heap_pop(&h) != &req[i];
			now = key[i];
			live[i] = 0;
			len--;
		}
		bad += req_heap_count(&h) != (unsigned)len;
	}
	CHECK(st, bad == 0, "%d pops out of order (mostly in-order times)", bad);
	CHECK(st, mixed > 100, "%d pushes left a tie between the FIFO and the heap part", mixed);
	req_heap_release(&h);
}

/*
 * Push up to `burst` of req[*pushed..N) at keys rising from *t by 0-2 (equal
 * keys too), each key in keys[]; how many pushes failed.
 */
static int push_burst(struct req_fifo *q, struct rng *r, unsigned burst, uint64_t *t,
		      uint64_t *keys, struct io_request *req, int *pushed)
{
	int bad = 0;

	for (unsigned k = 0; k < burst && *pushed < N; k++) {
		*t += rng_below(r, 3);
		keys[*pushed] = *t;
		bad += req_fifo_push(q, *t, &req[*pushed]) != 0;
		(*pushed)++;
	}
	return bad;
}

static void fifo_in_order(struct check_state *st)
{
	static struct io_request req[N];
	struct req_fifo q;
	struct rng r;
	uint64_t t = 0, keys[N];
	int pushed = 0, popped = 0, bad = 0;

	rng_init(&r, 7);
	req_fifo_init(&q);
	while (popped < N) {	/* bursts of pushes, then of pops: the ring wraps and grows */
		unsigned burst = 1 + (unsigned)rng_below(&r, 40);

		bad += push_burst(&q, &r, burst, &t, keys, req, &pushed);
		burst = 1 + (unsigned)rng_below(&r, 30);
		for (unsigned k = 0; k < burst && popped < pushed; k++) {
			bad += req_fifo_min(&q) != keys[popped];
			bad += req_fifo_pop(&q) != &req[popped];
			popped++;
		}
		if (pushed == N)
			while (popped < N) {
				bad += req_fifo_min(&q) != keys[popped];
				bad += req_fifo_pop(&q) != &req[popped++];
			}
	}
	CHECK(st, bad == 0, "%d FIFO pops out of push order", bad);
	CHECK(st, q.alloc >= 40, "the ring grew (%u entries)", q.alloc);
	CHECK(st, req_fifo_pop(&q) == NULL && req_fifo_min(&q) == UINT64_MAX, "empty FIFO");
	req_fifo_release(&q);
}

/* req_fifo_take: bursts of pushes, then takes of what is due, up to a few at a time. */
static void fifo_take(struct check_state *st)
{
	static struct io_request req[N];
	struct io_request *out[16];
	struct req_fifo q;
	struct rng r;
	uint64_t t = 0, keys[N];
	int pushed = 0, popped = 0, bad = 0;

	rng_init(&r, 9);
	req_fifo_init(&q);
	while (popped < N) {
		unsigned burst = 1 + (unsigned)rng_below(&r, 40), max = 1 + (unsigned)rng_below(&r, 16);
		uint64_t now = t + rng_below(&r, 4) - 2 * (t >= 2);
		unsigned want = 0, got;

		bad += push_burst(&q, &r, burst, &t, keys, req, &pushed);
		if (pushed == N)
			now = UINT64_MAX - 1;
		while (popped + (int)want < pushed && want < max && keys[popped + want] <= now)
			want++;
		got = req_fifo_take(&q, now, out, max);
		bad += got != want;
		for (unsigned k = 0; k < got && k < want; k++, popped++)
			bad += out[k] != &req[popped] || out[k]->complete_ns != keys[popped];
		if (!got && !want && pushed == N)
			break;
	}
	CHECK(st, bad == 0, "%d FIFO takes wrong (count, order or complete_ns)", bad);
	CHECK(st, popped == N && req_fifo_min(&q) == UINT64_MAX, "the takes emptied the FIFO");
	req_fifo_release(&q);
}

/*
 * The event heap against the reference: distinct (key, tie) pairs, many equal
 * keys; pushes, replaces, pops and lazy removals (vacate) mixed.
 */
static void events_against_reference(struct check_state *st)
{
	static uint64_t key[N], tie[N], items[N];	/* an item: its tie (tie_off 0) */
	static int live[N];
	struct event_heap h;
	struct rng r;
	int n = 0, bad = 0, left = 0;

	event_heap_init(&h, 0);
	rng_init(&r, 5);
	for (int step = 0; step < 4 * N; step++) {
		unsigned what = (unsigned)rng_below(&r, 4);
		int m = -1;

		for (int i = 0; i < n; i++)	/* the earliest live (key, tie) */
			if (live[i] && (m < 0 || key[i] < key[m] || (key[i] == key[m] && tie[i] < tie[m])))
				m = i;
		if (m >= 0 && event_heap_min(&h) != key[m])
			bad++;
		if (n < N && (what == 0 || m < 0)) {
			key[n] = (m >= 0 ? key[m] : 0) + rng_below(&r, 8);	/* no earlier than the first */
			tie[n] = rng_next(&r) >> 8 << 8 | (uint64_t)n % 256;	/* distinct */
			live[n] = 1;
			items[n] = tie[n];
			if (event_heap_push(&h, key[n], &items[n]))
				bad++;
			n++;
		} else if (m >= 0 && what == 1 && n < N) {	/* the first moves later */
			live[m] = 0;
			key[n] = key[m] + 1 + rng_below(&r, 8);
			tie[n] = rng_next(&r) >> 8 << 8 | (uint64_t)n % 256;
			live[n] = 1;
			items[n] = tie[n];
			event_heap_replace(&h, key[n], &items[n]);
			n++;
		} else if (m >= 0 && what == 3) {	/* lazily: the next push fills its place */
			bad += event_heap_first(&h) != &items[m];
			event_heap_vacate(&h);
			live[m] = 0;
		} else if (m >= 0) {
			bad += event_heap_pop(&h) != &items[m];
			live[m] = 0;
		}
	}
	for (int i = 0; i < n; i++)
		left += live[i];
	CHECK(st, bad == 0, "%d event heap pops or minima out of (key, tie) order", bad);
	CHECK(st, h.len - h.hole == (unsigned)left, "event heap holds %u, reference %d",
	      h.len - h.hole, left);
	event_heap_release(&h);
	CHECK(st, event_heap_min(&h) == UINT64_MAX, "released event heap is empty");
}

int main(void)
{
	struct check_state st = { 0, 0 };

	heap_against_reference(&st, 8);		/* mostly ties */
	heap_against_reference(&st, 1ULL << 40);
	heap_mostly_in_order(&st);
	fifo_in_order(&st);
	fifo_take(&st);
	events_against_reference(&st);
	return check_exit(&st, "sim_heap");
}
