/* heap.c — the request min-heap, the request FIFO and the event heap of heap.h. */
#include "heap.h"

#include <errno.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include "util/bug.h"
#include "util/dynbuf.h"

void req_heap_init(struct req_heap *h)
{
	memset(h, 0, sizeof(*h));
	req_fifo_init(&h->run);
	h->min = UINT64_MAX;
}

void req_heap_release(struct req_heap *h)
{
	req_fifo_release(&h->run);
	free(h->entries);
	req_heap_init(h);
}

/* (key, order) as one number: one compare, no branch (the times are random). */
static unsigned before(const struct req_heap_entry *a, const struct req_heap_entry *b)
{
	__extension__ typedef unsigned __int128 rank;

	return ((rank)a->key << 64 | a->order) < ((rank)b->key << 64 | b->order);
}

int req_heap_reserve(struct req_heap *h, unsigned n)
{
	size_t alloc = h->alloc;

	if (array_grow((void **)&h->entries, &alloc, n, sizeof(*h->entries), UINT_MAX))
		return -ENOMEM;
	h->alloc = (unsigned)alloc;
	return req_fifo_reserve(&h->run, n);
}

/* Put x in the hole at i, after moving up the entries it comes before: the sift-up. */
static inline void rise(struct req_heap_entry *e, unsigned i, struct req_heap_entry x)
{
	while (i > 0 && before(&x, &e[(i - 1) / 2])) {
		e[i] = e[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	e[i] = x;
}

int req_heap_push_heap(struct req_heap *h, uint64_t key, struct io_request *req)
{
	struct req_heap_entry e = { key, h->pushes++, req };

	BUG_ON(key >= h->run.last);	/* that one goes to run */
	if (h->nheap == h->alloc && req_heap_reserve(h, h->nheap + 1))
		return -ENOMEM;
	rise(h->entries, h->nheap++, e);
	h->min = key < h->min ? key : h->min;
	return 0;
}

/*
 * Put x in the root's place among the n entries of e and restore the order,
 * bottom-up: the hole at the root goes down to a leaf along the earlier
 * child (one compare a level), then x rises from there (it comes from the
 * bottom, or is later than the root was, so it seldom rises far).
 */
static inline __attribute__((always_inline)) void sift(struct req_heap_entry *e, unsigned n,
							 uint64_t key, uint64_t order,
							 struct io_request *req)
{
	struct req_heap_entry x = { key, order, req };
	unsigned i = 0, c;

	for (; (c = 2 * i + 1) + 1 < n; i = c) {
		c += before(&e[c + 1], &e[c]);
		e[i] = e[c];
	}
	if (c < n) {
		e[i] = e[c];
		i = c;
	}
	/* rise(e, i, x), written out: GCC makes this hot loop 4 % longer through rise() */
	while (i > 0 && before(&x, &e[(i - 1) / 2])) {
		e[i] = e[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	e[i] = x;
}

static struct io_request *heap_pop(struct req_heap *h)
{
	struct io_request *top = h->entries[0].req;

	if (--h->nheap)
		sift(h->entries, h->nheap, h->entries[h->nheap].key, h->entries[h->nheap].order,
		     h->entries[h->nheap].req);
	return top;
}

struct io_request *req_heap_pop_heap(struct req_heap *h)
{
	struct io_request *req = heap_pop(h);

	req_heap_set_min(h);
	return req;
}

void req_fifo_init(struct req_fifo *q)
{
	memset(q, 0, sizeof(*q));
}

void req_fifo_release(struct req_fifo *q)
{
	free(q->entries);
	req_fifo_init(q);
}

int req_fifo_reserve(struct req_fifo *q, unsigned n)
{
	size_t alloc = q->alloc;
	unsigned old = q->alloc;

	if (n <= old)
		return 0;
	if (array_grow((void **)&q->entries, &alloc, n, sizeof(*q->entries), UINT_MAX))
		return -ENOMEM;
	if (q->head + q->len > old)	/* unwrap the part past the old end */
		memcpy(q->entries + old, q->entries, (q->head + q->len - old) * sizeof(*q->entries));
	q->alloc = (unsigned)alloc;
	return 0;
}

void event_heap_init(struct event_heap *h, size_t tie_off)
{
	memset(h, 0, sizeof(*h));
	h->tie_off = tie_off;
	h->min = UINT64_MAX;
}

void event_heap_release(struct event_heap *h)
{
	free(h->entries);
	event_heap_init(h, h->tie_off);
}

static inline uint64_t tie_of(const struct event_heap *h, const void *item)
{
	uint64_t tie;

	memcpy(&tie, (const char *)item + h->tie_off, sizeof(tie));
	return tie;
}

/* Entry a before entry b: the keys, and on equal keys (seldom) the items' ties. */
static inline unsigned ev_before(const struct event_heap *h, const struct event_entry *a,
				 const struct event_entry *b)
{
	if (__builtin_expect(a->key != b->key, 1))
		return a->key < b->key;
	return tie_of(h, a->item) < tie_of(h, b->item);
}

/* The entry `off` bytes into the heap counted from 1 (e - 1): children of off at 2 off and next. */
static inline struct event_entry *at(struct event_entry *e, size_t off)
{
	return (struct event_entry *)(void *)((char *)(e - 1) + off);
}

/*
 * sift() of the event heap: x = (key, item) in the root's place, bottom-up,
 * walking byte offsets of the heap counted from 1 (a child's is twice its
 * parent's, and the next), which spares the index arithmetic a level.
 */
static inline __attribute__((always_inline)) void ev_sift(struct event_heap *h, uint64_t key,
							    void *item)
{
	struct event_entry *e = h->entries, x = { key, item };
	const size_t one = sizeof(*e), end = h->len * one;
	size_t i = one, c;

	for (; (c = 2 * i) < end; i = c) {	/* both children there: c + one <= end */
		c += ev_before(h, at(e, c + one), at(e, c)) * one;
		*at(e, i) = *at(e, c);
	}
	if (c == end) {
		*at(e, i) = *at(e, c);
		i = c;
	}
	for (size_t p; i > one; i = p) {
		p = i / one / 2 * one;
		if (!ev_before(h, &x, at(e, p)))
			break;
		*at(e, i) = *at(e, p);
	}
	*at(e, i) = x;
	h->min = e[0].key;
}

int event_heap_push(struct event_heap *h, uint64_t key, void *item)
{
	struct event_entry x = { key, item };
	unsigned i;

	if (h->hole) {		/* the vacated root: fill it, in one sift */
		h->hole = 0;
		ev_sift(h, key, item);
		return 0;
	}
	if (h->len == h->alloc) {
		size_t alloc = h->alloc;

		if (array_grow((void **)&h->entries, &alloc, h->len + 1, sizeof(*h->entries),
			       UINT_MAX))
			return -ENOMEM;
		h->alloc = (unsigned)alloc;
	}
	for (i = h->len++; i > 0 && ev_before(h, &x, &h->entries[(i - 1) / 2]); i = (i - 1) / 2)
		h->entries[i] = h->entries[(i - 1) / 2];
	h->entries[i] = x;
	h->min = h->entries[0].key;
	return 0;
}

/* Remove entries[0], the hole or the earliest item. */
static void remove_root(struct event_heap *h)
{
	if (--h->len)
		ev_sift(h, h->entries[h->len].key, h->entries[h->len].item);
	else
		h->min = UINT64_MAX;
}

void event_heap_drop_hole(struct event_heap *h)
{
	BUG_ON(!h->hole || !h->len);
	h->hole = 0;
	remove_root(h);
}

void *event_heap_pop(struct event_heap *h)
{
	void *top;

	event_heap_settle(h);
	BUG_ON(!h->len);
	top = h->entries[0].item;
	remove_root(h);
	return top;
}

void event_heap_replace(struct event_heap *h, uint64_t key, void *item)
{
	event_heap_settle(h);
	BUG_ON(!h->len || ev_before(h, &(struct event_entry){ key, item }, &h->entries[0]));
	ev_sift(h, key, item);
}
