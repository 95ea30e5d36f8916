/*
 * pending.h — the list of queued requests kept by backends that hand them
 * on (or do their IO, or none) only inside submit_and_reap: null, psync
 * and io_uring. Fixed capacity, set to the queue depth; requests leave
 * in the order they came.
 */
#ifndef IOMODEL_PENDING_H
#define IOMODEL_PENDING_H

#include <errno.h>

#include "backend.h"

struct pending {
	unsigned count;
	unsigned capacity;
	struct io_request **items;	/* capacity slots, owned by the backend */
};

static inline int pending_push(struct pending *p, struct io_request *req)
{
	if (p->count == p->capacity)
		return -EBUSY;
	p->items[p->count++] = req;
	return 0;
}

/* Move up to `max` of the oldest requests to `out`; returns how many. */
static inline unsigned pending_take(struct pending *p, struct io_request **out, unsigned max)
{
	unsigned n = p->count < max ? p->count : max;

	for (unsigned i = 0; i < n; i++)
		out[i] = p->items[i];
	p->count -= n;
	for (unsigned i = 0; i < p->count; i++)
		p->items[i] = p->items[n + i];
	return n;
}

#endif
