/* heap.c — the request min-heap of heap.h. */
#include "heap.h"

#include <errno.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#include "util/dynbuf.h"

void req_heap_init(struct req_heap *h)
{
	memset(h, 0, sizeof(*h));
}

void req_heap_release(struct req_heap *h)
{
	free(h->entries);
	req_heap_init(h);
}

/* Branch-free: completion times are random, a branch on them mispredicts. */
static unsigned before(const struct req_heap_entry *a, const struct req_heap_entry *b)
{
	return (unsigned)(a->key < b->key) | ((unsigned)(a->key == b->key) & (unsigned)(a->order < b->order));
}

int req_heap_reserve(struct req_heap *h, unsigned n)
{
	size_t alloc = h->alloc;

	if (array_grow((void **)&h->entries, &alloc, n, sizeof(*h->entries), UINT_MAX))
		return -ENOMEM;
	h->alloc = (unsigned)alloc;
	return 0;
}

int req_heap_push(struct req_heap *h, uint64_t key, struct io_request *req)
{
	struct req_heap_entry e = { key, h->pushes++, req };
	unsigned i;

	if (h->len == h->alloc && req_heap_reserve(h, h->len + 1))
		return -ENOMEM;
	i = h->len++;
	while (i > 0 && before(&e, &h->entries[(i - 1) / 2])) {
		h->entries[i] = h->entries[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->entries[i] = e;
	return 0;
}

struct io_request *req_heap_pop(struct req_heap *h)
{
	struct io_request *top;
	struct req_heap_entry last;
	unsigned i = 0;

	if (!h->len)
		return NULL;
	top = h->entries[0].req;
	last = h->entries[--h->len];
	for (;;) {
		unsigned child = 2 * i + 1;

		if (child >= h->len)
			break;
		if (child + 1 < h->len)
			child += before(&h->entries[child + 1], &h->entries[child]);
		if (!before(&h->entries[child], &last))
			break;
		h->entries[i] = h->entries[child];
		i = child;
	}
	if (h->len)
		h->entries[i] = last;
	return top;
}
