/*
 * store.c — the sparse chunk store of store.h: an open-addressing hash
 * table (linear probing) from chunk index + 1 (0 marks an empty entry) to a
 * chunk of SIM_STORE_CHUNK bytes. The table doubles when half full.
 */
#include "store.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/bug.h"

struct entry {
	uint64_t key;		/* chunk index + 1; 0: empty */
	unsigned char *data;
};

struct sim_store {
	struct entry *table;
	uint64_t size;		/* entries in table, a power of two */
	uint64_t used;
	uint64_t limit;		/* most chunk bytes */
};

#define FIRST_SIZE 1024

static uint64_t home(uint64_t key, uint64_t size)
{
	return (key * 0x9e3779b97f4a7c15ULL) >> 17 & (size - 1);
}

int sim_store_create(struct sim_store **out, uint64_t limit)
{
	struct sim_store *s = calloc(1, sizeof(*s));

	if (s)
		s->table = calloc(FIRST_SIZE, sizeof(*s->table));
	if (!s || !s->table) {
		free(s);
		return -ENOMEM;
	}
	s->size = FIRST_SIZE;
	s->limit = limit;
	*out = s;
	return 0;
}

void sim_store_free(struct sim_store *s)
{
	if (!s)
		return;
	for (uint64_t i = 0; i < s->size; i++)
		free(s->table[i].data);
	free(s->table);
	free(s);
}

static struct entry *slot_for(struct entry *table, uint64_t size, uint64_t key)
{
	uint64_t i = home(key, size);

	while (table[i].key && table[i].key != key)
		i = (i + 1) & (size - 1);
	return &table[i];
}

static int grow(struct sim_store *s)
{
	uint64_t size = s->size * 2;
	struct entry *table = calloc(size, sizeof(*table));

	if (!table)
		return -ENOMEM;
	for (uint64_t i = 0; i < s->size; i++)
		if (s->table[i].key)
			*slot_for(table, size, s->table[i].key) = s->table[i];
	free(s->table);
	s->table = table;
	s->size = size;
	return 0;
}

static unsigned char *chunk(const struct sim_store *s, uint64_t index)
{
	return slot_for(s->table, s->size, index + 1)->data;
}

static int new_chunk(struct sim_store *s, uint64_t index, unsigned char **out)
{
	struct entry *e;

	if ((s->used + 1) * SIM_STORE_CHUNK > s->limit)
		return -ENOMEM;
	if ((s->used + 1) * 2 > s->size && grow(s))
		return -ENOMEM;
	e = slot_for(s->table, s->size, index + 1);
	BUG_ON(e->key);
	e->data = calloc(1, SIM_STORE_CHUNK);
	if (!e->data)
		return -ENOMEM;
	e->key = index + 1;
	s->used++;
	*out = e->data;
	return 0;
}

int sim_store_write(struct sim_store *s, uint64_t offset, const void *buf, uint64_t len)
{
	const unsigned char *src = buf;

	while (len) {
		uint64_t index = offset / SIM_STORE_CHUNK, at = offset % SIM_STORE_CHUNK;
		uint64_t n = SIM_STORE_CHUNK - at < len ? SIM_STORE_CHUNK - at : len;
		unsigned char *c = chunk(s, index);

		if (!c && new_chunk(s, index, &c))
			return -ENOMEM;
		memcpy(c + at, src, n);
		src += n;
		offset += n;
		len -= n;
	}
	return 0;
}

void sim_store_read(const struct sim_store *s, uint64_t offset, void *buf, uint64_t len)
{
	unsigned char *dst = buf;

	while (len) {
		uint64_t index = offset / SIM_STORE_CHUNK, at = offset % SIM_STORE_CHUNK;
		uint64_t n = SIM_STORE_CHUNK - at < len ? SIM_STORE_CHUNK - at : len;
		const unsigned char *c = chunk(s, index);

		if (c)
			memcpy(dst, c + at, n);
		else
			memset(dst, 0, n);
		dst += n;
		offset += n;
		len -= n;
	}
}

bool sim_store_holds(const struct sim_store *s, uint64_t offset, uint64_t len)
{
	for (uint64_t i = offset / SIM_STORE_CHUNK; len && i <= (offset + len - 1) / SIM_STORE_CHUNK;
	     i++)
		if (chunk(s, i))
			return true;
	return false;
}

uint64_t sim_store_bytes(const struct sim_store *s)
{
	return s->used * SIM_STORE_CHUNK;
}
