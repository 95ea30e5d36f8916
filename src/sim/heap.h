/*
 * heap.h — a binary min-heap of requests ordered by completion time, the
 * in-flight list of the simulated devices (and of delayed completions in the
 * fault layer). Ties leave in the order they came, so a simulation is
 * deterministic. Capacity grows on demand; push returns -ENOMEM when it
 * cannot.
 */
#ifndef IOMODEL_SIM_HEAP_H
#define IOMODEL_SIM_HEAP_H

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

#endif
