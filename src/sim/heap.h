/*
 * heap.h — a binary min-heap of requests ordered by completion time, the
 * in-flight list of the simulated devices (and of delayed completions in the
 * fault layer), and a FIFO for requests whose times come in order. Ties leave in the order they came, so a simulation is
 * deterministic. Capacity grows on demand; push returns -ENOMEM when it
 * cannot.
 */
#ifndef IOMODEL_SIM_HEAP_H
#define IOMODEL_SIM_HEAP_H

#include <stddef.h>
#include <stdint.h>

#include "util/io_request.h"

struct req_heap_entry {
	uint64_t key;			/* completion time */
	uint64_t order;			/* tie-breaker: push order */
	struct io_request *req;
};

struct req_heap {
	struct req_heap_entry *entries;
	unsigned len;
	unsigned alloc;
	uint64_t pushes;
};

void req_heap_init(struct req_heap *h);
void req_heap_release(struct req_heap *h);
int req_heap_push(struct req_heap *h, uint64_t key, struct io_request *req);
/* Make room for `n` entries in all, so that pushes up to n cannot fail. */
int req_heap_reserve(struct req_heap *h, unsigned n);
/* Remove and return the earliest request; NULL when empty. */
struct io_request *req_heap_pop(struct req_heap *h);

static inline uint64_t req_heap_min(const struct req_heap *h)
{
	return h->len ? h->entries[0].key : UINT64_MAX;
}

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
	uint64_t last;			/* the latest key pushed */
};

void req_fifo_init(struct req_fifo *q);
void req_fifo_release(struct req_fifo *q);
int req_fifo_push(struct req_fifo *q, uint64_t key, struct io_request *req);

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

#endif
