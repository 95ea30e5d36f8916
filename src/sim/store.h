/*
 * store.h — the data a simulated drive holds, kept only for verified runs
 * (`run --verify`): the timing models store no data, so without a store a
 * read returns whatever the buffer held. A sparse map of 4 KiB chunks,
 * allocated on first write; bytes never written read as zeros. It holds at
 * most `limit` bytes of chunks (SIM_STORE_LIMIT by default): a write that
 * would need more fails with -ENOMEM.
 *
 * Invariants: a chunk index appears at most once; the table is at most half
 * full; chunk memory <= limit.
 */
#ifndef IOMODEL_SIM_STORE_H
#define IOMODEL_SIM_STORE_H

#include <stdbool.h>
#include <stdint.h>

#define SIM_STORE_CHUNK 4096
#define SIM_STORE_LIMIT (1ULL << 30)

struct sim_store;

int sim_store_create(struct sim_store **out, uint64_t limit);
void sim_store_free(struct sim_store *s);

/* Store `len` bytes at `offset`. 0 or -ENOMEM. */
int sim_store_write(struct sim_store *s, uint64_t offset, const void *buf, uint64_t len);
/* Read `len` bytes at `offset` into `buf`; what was never written is zeros. */
void sim_store_read(const struct sim_store *s, uint64_t offset, void *buf, uint64_t len);
/* Whether any byte of [offset, offset + len) was ever written. */
bool sim_store_holds(const struct sim_store *s, uint64_t offset, uint64_t len);
/* Bytes of chunk memory in use. */
uint64_t sim_store_bytes(const struct sim_store *s);

#endif
