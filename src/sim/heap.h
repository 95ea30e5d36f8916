/*
 * heap.h — a min-heap of requests ordered by completion time, the in-flight
 * list of the simulated devices (and of delayed completions in the fault
 * layer), and a FIFO for requests whose times come in order (which the heap
 * uses for its in-order pushes). Ties leave in the order they came, so a
 * simulation is deterministic. Capacity grows on demand; push returns -ENOMEM when it
 * cannot. An event heap (the last part) orders items of any kind by (time,
 * tie) pairs that are all distinct, so that ties need no push order.
 */
#ifndef IOMODEL_SIM_HEAP_H
#define IOMODEL_SIM_HEAP_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "util/bug.h"
#include "util/io_request.h"

struct req_heap_entry {
	uint64_t key;			/* completion time */
	uint64_t order;			/* tie-breaker: push order */
	struct io_request *req;
};

/*
 * A FIFO of requests whose completion times are pushed in non-decreasing
 * order (an array's host completions: its clock plus a constant). It pops
 * them in the order a req_heap would (ties in push order) at a fraction of
 * the cost; a push earlier than the last one is a bug (BUG_ON). A ring that
 * grows on demand; push returns -ENOMEM when it cannot.
 */
struct req_fifo_entry {
	uint64_t key;
	struct io_request *req;
};

struct req_fifo {
	struct req_fifo_entry *entries;	/* ring: entries[head], then len - 1 more */
	unsigned head, len, alloc;
	uint64_t last;			/* the latest key pushed (kept when it empties) */
};

void req_fifo_init(struct req_fifo *q);
void req_fifo_release(struct req_fifo *q);
/* Make room for `n` entries in all, so that pushes up to n cannot fail. */
int req_fifo_reserve(struct req_fifo *q, unsigned n);

static inline int req_fifo_push(struct req_fifo *q, uint64_t key, struct io_request *req)
{
	unsigned tail;

	BUG_ON(q->len && key < q->last);
	if (q->len == q->alloc && req_fifo_reserve(q, q->len + 1))
		return -ENOMEM;
	tail = q->head + q->len < q->alloc ? q->head + q->len : q->head + q->len - q->alloc;
	q->entries[tail] = (struct req_fifo_entry){ key, req };
	q->len++;
	q->last = key;
	return 0;
}

static inline uint64_t req_fifo_min(const struct req_fifo *q)
{
	return q->len ? q->entries[q->head].key : UINT64_MAX;
}

/* Remove and return the earliest request; NULL when empty. */
static inline struct io_request *req_fifo_pop(struct req_fifo *q)
{
	struct io_request *req;

	if (!q->len)
		return NULL;
	req = q->entries[q->head].req;
	q->head = q->head + 1 == q->alloc ? 0 : q->head + 1;
	q->len--;
	return req;
}

/*
 * Pop the requests due at `now` (key <= now), up to `max`, into out, each
 * with complete_ns set to its key; how many. req_fifo_pop() written out,
 * the ring's place in registers.
 */
static inline unsigned req_fifo_take(struct req_fifo *q, uint64_t now, struct io_request **out,
				     unsigned max)
{
	unsigned n = 0, head = q->head, len = q->len;

	while (n < max && len && q->entries[head].key <= now) {
		struct io_request *req = q->entries[head].req;

		req->complete_ns = q->entries[head].key;
		out[n++] = req;
		head = head + 1 == q->alloc ? 0 : head + 1;
		len--;
	}
	q->head = head;
	q->len = len;
	return n;
}

/*
 * The request heap: a push no earlier than every push before it that went
 * to `run` (most of a device's: its completions mostly come in order) goes
 * to that FIFO, any other to the binary heap `entries`. Invariant: every
 * entry of `entries` is earlier than every entry pushed to `run` after it
 * (run.last never decreases), so on equal times run's front is the older
 * and the earliest of the two fronts is the earliest of all, ties in push
 * order.
 */
struct req_heap {
	struct req_fifo run;		/* pushes in time order */
	struct req_heap_entry *entries;	/* the others: binary min-heap */
	unsigned nheap;			/* entries in the heap part (not in run) */
	unsigned alloc;
	uint64_t pushes;		/* to the heap part: its tie-breaker */
	uint64_t min;			/* the earliest time held; UINT64_MAX if none */
};

void req_heap_init(struct req_heap *h);
void req_heap_release(struct req_heap *h);
/* Make room for `n` entries in all, so that pushes up to n cannot fail. */
int req_heap_reserve(struct req_heap *h, unsigned n);
/* The heap part's push and pop, for req_heap_push() and req_heap_pop(). */
int req_heap_push_heap(struct req_heap *h, uint64_t key, struct io_request *req);
struct io_request *req_heap_pop_heap(struct req_heap *h);

static inline uint64_t req_heap_min(const struct req_heap *h)
{
	return h->min;
}

static inline void req_heap_set_min(struct req_heap *h)
{
	uint64_t heap = h->nheap ? h->entries[0].key : UINT64_MAX, run = req_fifo_min(&h->run);

	h->min = heap < run ? heap : run;
}

static inline int req_heap_push(struct req_heap *h, uint64_t key, struct io_request *req)
{
	if (key < h->run.last)
		return req_heap_push_heap(h, key, req);
	if (req_fifo_push(&h->run, key, req))
		return -ENOMEM;
	h->min = key < h->min ? key : h->min;
	return 0;
}

/* Remove and return the earliest request; NULL when empty. */
static inline struct io_request *req_heap_pop(struct req_heap *h)
{
	struct io_request *req;

	if (h->nheap && (!h->run.len || h->entries[0].key < h->run.entries[h->run.head].key))
		return req_heap_pop_heap(h);	/* equal times: run's is the older */
	req = req_fifo_pop(&h->run);
	req_heap_set_min(h);
	return req;
}

/* Requests held. */
static inline unsigned req_heap_count(const struct req_heap *h)
{
	return h->nheap + h->run.len;
}

/* The time of the i-th request held (i < req_heap_count), in no set order. */
static inline uint64_t req_heap_key_at(const struct req_heap *h, unsigned i)
{
	unsigned r;

	if (i < h->nheap)
		return h->entries[i].key;
	r = h->run.head + (i - h->nheap);
	return h->run.entries[r < h->run.alloc ? r : r - h->run.alloc].key;
}

/*
 * The event heap: a binary min-heap of items by (key, tie), for an array's
 * phase ends (raid.c, whose ties name the member request that ends each
 * phase, so no two are equal). An entry is the key and the item, 16 bytes;
 * the tie is the uint64_t at offset tie_off in the item, set before the
 * item is pushed and kept while it is held, read only when two keys are
 * equal. Grows on demand; push returns -ENOMEM when it cannot. The earliest
 * item can leave lazily (event_heap_vacate): its root entry stays as a hole
 * (hole = 1) that the next push fills in one sift, instead of a pop's sift
 * now and a push's rise then; every other operation first removes a hole
 * the push did not fill (event_heap_settle).
 * Invariant: entries[hole .. len) are the items held.
 */
struct event_entry {
	uint64_t key;
	void *item;
};

struct event_heap {
	struct event_entry *entries;
	unsigned len, alloc;
	unsigned hole;			/* 1: entries[0] is vacant (event_heap_vacate) */
	size_t tie_off;			/* where an item holds its tie */
	uint64_t min;			/* the earliest key held; UINT64_MAX if none */
};

void event_heap_init(struct event_heap *h, size_t tie_off);
void event_heap_release(struct event_heap *h);
/* Push item at key (its tie set, see above). */
int event_heap_push(struct event_heap *h, uint64_t key, void *item);
/* Remove and return the earliest item; the heap must not be empty. */
void *event_heap_pop(struct event_heap *h);
/* Pop, then push item at key, no earlier than what it pops, in one pass. */
void event_heap_replace(struct event_heap *h, uint64_t key, void *item);
/* Remove the hole (see above): the earliest item is then at entries[0]. */
void event_heap_drop_hole(struct event_heap *h);

static inline void event_heap_settle(struct event_heap *h)
{
	if (h->hole)
		event_heap_drop_hole(h);
}

/* The earliest item, then at entries[0]; the heap must not be empty. */
static inline void *event_heap_first(struct event_heap *h)
{
	event_heap_settle(h);
	BUG_ON(!h->len);
	return h->entries[0].item;
}

/* Remove the earliest item, which must be at entries[0] (event_heap_first), lazily. */
static inline void event_heap_vacate(struct event_heap *h)
{
	uint64_t k1 = h->len > 1 ? h->entries[1].key : UINT64_MAX;	/* the hole's children */
	uint64_t k2 = h->len > 2 ? h->entries[2].key : UINT64_MAX;

	BUG_ON(h->hole || !h->len);
	h->hole = 1;
	h->min = k1 < k2 ? k1 : k2;
}

/* The earliest key held; UINT64_MAX if none. */
static inline uint64_t event_heap_min(const struct event_heap *h)
{
	return h->min;
}

#endif
