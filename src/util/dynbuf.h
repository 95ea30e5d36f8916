/*
 * dynbuf.h — a growable byte buffer with a hard size cap, in the manner of
 * curl's dynbuf: the caller owns the struct, dynbuf_init() sets its cap and
 * allocates nothing, appends grow the storage geometrically and fail with
 * -E2BIG past the cap (or -ENOMEM), and dynbuf_take() hands the storage to
 * the caller, who then frees it with free(3).
 *
 * The contents are always NUL-terminated (one byte past len), so text can be
 * handed to string functions without a copy; len never counts that byte.
 *
 * Invariants (checked with BUG_ON in debug builds): len < alloc whenever
 * mem is set; len <= cap; a buffer is initialised before use.
 */
#ifndef IOMODEL_DYNBUF_H
#define IOMODEL_DYNBUF_H

#include <stddef.h>

struct dynbuf {
	char *mem;
	size_t len;	/* bytes held, not counting the terminating NUL */
	size_t alloc;	/* bytes allocated at mem */
	size_t cap;	/* most bytes it may ever hold */
#ifndef NDEBUG
	unsigned init_magic;
#endif
};

void dynbuf_init(struct dynbuf *b, size_t cap);
/* Free the contents; the buffer may be used again (empty). */
void dynbuf_release(struct dynbuf *b);
/* Append `n` bytes. 0, -E2BIG past the cap, -ENOMEM. */
int dynbuf_add(struct dynbuf *b, const void *data, size_t n);
/* Make room for `n` more bytes and return where they go (NULL: see errno-style *ret). */
int dynbuf_reserve(struct dynbuf *b, size_t n, char **room);
/* Count `n` bytes written into the room dynbuf_reserve() gave. */
void dynbuf_commit(struct dynbuf *b, size_t n);
/* Hand over the storage (NUL-terminated; never NULL on success); the buffer is left empty. */
char *dynbuf_take(struct dynbuf *b, size_t *len);

static inline size_t dynbuf_len(const struct dynbuf *b) { return b->len; }
static inline const char *dynbuf_ptr(const struct dynbuf *b) { return b->mem ? b->mem : ""; }

/*
 * A growable array of fixed-size elements on top of the same rule: grow
 * `*items` (holding `*alloc` elements of `elem` bytes) so that it holds at
 * least `need` elements, doubling, never past `max_items`. 0, -E2BIG, -ENOMEM.
 * On failure *items and *alloc are unchanged.
 */
int array_grow(void **items, size_t *alloc, size_t need, size_t elem, size_t max_items);

#endif
