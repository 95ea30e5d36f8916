/*
 * verify_block.h — the on-disk format of a verified block, and reading it
 * back. A verified block is one IO request: --verify writes each request as
 * one block and reads it back whole, so a tear anywhere inside a request
 * shows as a disagreement between its two ends.
 *
 *   offset 0            48                          len-48        len
 *   | header stamp      | payload (what the buffer  | trailer stamp |
 *   |                   |  held: incompressible)    |               |
 *
 * Each stamp (48 bytes, host byte order) holds a magic (different for the
 * header and the trailer), the writing run's generation, the write's
 * sequence number within that run, the byte offset the block was written
 * to, the block length, the crc32c of the payload, and a crc32c of the stamp
 * itself. A block is at least VERIFY_MIN_BLOCK bytes.
 *
 * What a block read back looks like (verify_block_inspect):
 *   INTACT     both stamps valid, equal, payload checksum right: `found`
 *              says which write it is (the caller compares it with what it
 *              expects: generation, sequence, offset);
 *   UNSTAMPED  neither end carries a stamp: never written by --verify;
 *   TORN       the two ends come from different writes (both stamps valid
 *              but different, or one end stamped and the other not);
 *   DAMAGED    a stamp whose magic is within 3 bits of ours fails its own
 *              checksum, or the payload fails its checksum: corruption.
 * A single flipped bit anywhere in a stamped block is DAMAGED, never TORN
 * or UNSTAMPED: a magic 1-3 bits off still counts as ours.
 */
#ifndef IOMODEL_VERIFY_BLOCK_H
#define IOMODEL_VERIFY_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#define VERIFY_STAMP_BYTES 48
#define VERIFY_MIN_BLOCK 512

struct verify_id {
	uint64_t generation;	/* the writing run's id, never 0 */
	uint64_t sequence;	/* the write's number within the run, from 1 */
	uint64_t offset;	/* where the block was meant to go */
	uint32_t length;	/* block bytes */
};

enum verify_shape {
	BLOCK_INTACT,
	BLOCK_UNSTAMPED,
	BLOCK_TORN,
	BLOCK_DAMAGED,
};

/* crc32c (Castagnoli) of `len` bytes, as iSCSI, ext4 and fio's verify=crc32c. */
uint32_t verify_crc32c(const void *buf, size_t len);

/* Stamp `buf` (id->length bytes, >= VERIFY_MIN_BLOCK) as the block `id`. */
void verify_block_stamp(void *buf, const struct verify_id *id);

/*
 * Inspect `len` bytes read back. `found` receives the identity of the
 * header stamp (INTACT, TORN with a valid header, DAMAGED with a readable
 * header), else of the trailer stamp, else zeros.
 */
enum verify_shape verify_block_inspect(const void *buf, uint32_t len, struct verify_id *found);

#endif
