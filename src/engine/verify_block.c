/*
 * verify_block.c — stamping and inspecting the blocks of verify_block.h.
 *
 * The checksum is crc32c from ISA-L (Debian libisal): a maintained library
 * that picks, at run time, the fastest of its SSE4.2 crc32-instruction,
 * PCLMULQDQ-folding and AVX-512 versions, with a table version for CPUs
 * that have none of them; hand-writing the intrinsics and a table fallback
 * would give the same thing with more code to keep. crc32_iscsi() is the
 * Castagnoli polynomial without the final inversion, hence the two `~`.
 * zlib's crc32 is the IEEE polynomial, not crc32c, so it would not be
 * comparable with fio's verify=crc32c (bench/verify-cost.sh).
 */
#include "verify_block.h"

#include <string.h>

#include <isa-l/crc.h>

#define HEAD_MAGIC 0x31444145484d4f49ULL	/* "IOMHEAD1" */
#define TAIL_MAGIC 0x314c494154564d49ULL	/* "IMVTAIL1" */
#define MAGIC_SLACK 3				/* bits a damaged magic may differ by */

struct stamp {
	uint64_t magic;
	uint64_t generation;
	uint64_t sequence;
	uint64_t offset;
	uint32_t length;
	uint32_t payload_crc;
	uint32_t reserved;
	uint32_t stamp_crc;	/* crc32c of the 44 bytes before it */
};
_Static_assert(sizeof(struct stamp) == VERIFY_STAMP_BYTES, "stamp layout");

enum stamp_state { STAMP_ABSENT, STAMP_DAMAGED, STAMP_VALID };

uint32_t verify_crc32c(const void *buf, size_t len)
{
	return ~crc32_iscsi((unsigned char *)buf, (int)len, 0xffffffffU);
}

static uint32_t payload_crc(const unsigned char *buf, uint32_t len)
{
	return verify_crc32c(buf + VERIFY_STAMP_BYTES, len - 2 * VERIFY_STAMP_BYTES);
}

static void put_stamp(unsigned char *at, uint64_t magic, const struct verify_id *id,
		      uint32_t crc)
{
	struct stamp s = { magic, id->generation, id->sequence, id->offset, id->length, crc,
			   0, 0 };

	s.stamp_crc = verify_crc32c(&s, offsetof(struct stamp, stamp_crc));
	memcpy(at, &s, sizeof(s));
}

void verify_block_stamp(void *buf, const struct verify_id *id)
{
	unsigned char *b = buf;
	uint32_t crc = payload_crc(b, id->length);

	put_stamp(b, HEAD_MAGIC, id, crc);
	put_stamp(b + id->length - VERIFY_STAMP_BYTES, TAIL_MAGIC, id, crc);
}

static enum stamp_state get_stamp(const unsigned char *at, uint64_t magic, struct stamp *s)
{
	memcpy(s, at, sizeof(*s));
	if (__builtin_popcountll(s->magic ^ magic) > MAGIC_SLACK)
		return STAMP_ABSENT;
	if (s->magic != magic || verify_crc32c(s, offsetof(struct stamp, stamp_crc)) != s->stamp_crc)
		return STAMP_DAMAGED;
	return STAMP_VALID;
}

static void id_of(const struct stamp *s, struct verify_id *id)
{
	*id = (struct verify_id){ s->generation, s->sequence, s->offset, s->length };
}

static int same_write(const struct stamp *a, const struct stamp *b)
{
	return a->generation == b->generation && a->sequence == b->sequence &&
	       a->offset == b->offset && a->length == b->length &&
	       a->payload_crc == b->payload_crc;
}

enum verify_shape verify_block_inspect(const void *buf, uint32_t len, struct verify_id *found)
{
	const unsigned char *b = buf;
	struct stamp h, t;
	enum stamp_state hs = get_stamp(b, HEAD_MAGIC, &h);
	enum stamp_state ts = get_stamp(b + len - VERIFY_STAMP_BYTES, TAIL_MAGIC, &t);

	memset(found, 0, sizeof(*found));
	if (hs != STAMP_ABSENT)
		id_of(&h, found);
	else if (ts != STAMP_ABSENT)
		id_of(&t, found);
	if (hs == STAMP_ABSENT && ts == STAMP_ABSENT)
		return BLOCK_UNSTAMPED;
	if (hs == STAMP_DAMAGED || ts == STAMP_DAMAGED)
		return BLOCK_DAMAGED;
	if (hs == STAMP_ABSENT || ts == STAMP_ABSENT || !same_write(&h, &t))
		return BLOCK_TORN;
	if (h.length != len || payload_crc(b, len) != h.payload_crc)
		return BLOCK_DAMAGED;
	return BLOCK_INTACT;
}
