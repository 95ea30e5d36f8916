/*
 * dynbuf.c — the growable, capped buffer of dynbuf.h.
 */
#include "util/dynbuf.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/bug.h"

#define DYNBUF_MAGIC 0xd1b0f5edu
#define DYNBUF_FIRST 256

static void check(const struct dynbuf *b)
{
#ifndef NDEBUG
	BUG_ON(b->init_magic != DYNBUF_MAGIC);
#endif
	BUG_ON(b->len > b->cap);
	BUG_ON(b->mem && b->len >= b->alloc);
	(void)b;
}

void dynbuf_init(struct dynbuf *b, size_t cap)
{
	memset(b, 0, sizeof(*b));
	b->cap = cap;
#ifndef NDEBUG
	b->init_magic = DYNBUF_MAGIC;
#endif
}

void dynbuf_release(struct dynbuf *b)
{
	check(b);
	free(b->mem);
	b->mem = NULL;
	b->len = b->alloc = 0;
}

int dynbuf_reserve(struct dynbuf *b, size_t n, char **room)
{
	size_t need, alloc;
	char *p;

	check(b);
	if (n > b->cap - b->len)
		return -E2BIG;
	need = b->len + n + 1;			/* + the NUL */
	if (need > b->alloc) {
		alloc = b->alloc ? b->alloc : DYNBUF_FIRST;
		while (alloc < need)
			alloc = alloc > SIZE_MAX / 2 ? need : alloc * 2;
		if (alloc > b->cap + 1)
			alloc = b->cap + 1;
		p = realloc(b->mem, alloc);
		if (!p)
			return -ENOMEM;
		if (!b->mem)
			p[0] = '\0';
		b->mem = p;
		b->alloc = alloc;
	}
	*room = b->mem + b->len;
	return 0;
}

void dynbuf_commit(struct dynbuf *b, size_t n)
{
	check(b);
	BUG_ON(!b->mem || n >= b->alloc - b->len);
	b->len += n;
	b->mem[b->len] = '\0';
}

int dynbuf_add(struct dynbuf *b, const void *data, size_t n)
{
	char *room;
	int ret = dynbuf_reserve(b, n, &room);

	if (ret)
		return ret;
	memcpy(room, data, n);
	dynbuf_commit(b, n);
	return 0;
}

char *dynbuf_take(struct dynbuf *b, size_t *len)
{
	char *mem, *room;

	check(b);
	if (!b->mem && dynbuf_reserve(b, 0, &room))
		return NULL;
	mem = b->mem;
	if (len)
		*len = b->len;
	b->mem = NULL;
	b->len = b->alloc = 0;
	return mem;
}

int array_grow(void **items, size_t *alloc, size_t need, size_t elem, size_t max_items)
{
	size_t n = *alloc ? *alloc : 16;
	void *p;

	if (need <= *alloc)
		return 0;
	if (need > max_items || elem == 0 || max_items > SIZE_MAX / elem)
		return -E2BIG;
	while (n < need)
		n = n > max_items / 2 ? max_items : n * 2;
	p = realloc(*items, n * elem);
	if (!p)
		return -ENOMEM;
	*items = p;
	*alloc = n;
	return 0;
}
