/*
 * raid_data.h — the data of a simulated array, kept only for verified runs
 * (device.h keep_data): each member's own store (sim/store.h), the
 * controller's write-back cache holding the data of the writes it has
 * acknowledged and not yet destaged, parity computed from the data, and the
 * faults of one bad member. raid.c does the timing and calls these at the
 * moments data moves:
 *
 *   host write, cache on ── raid_data_cache() ──▶ DIRTY (an entry, FIFO order)
 *        │                                          │ merged ops: raid_data_merge()
 *        │ cache off or too large                   ▼ destage done
 *        ▼ host write done                     raid_data_destage(): the entries'
 *   raid_data_write(): members' data            data to the members, entries freed
 *
 *   host read done ── raid_data_read(): members' data (a failed member's
 *                     chunk reconstructed from the rest of its row), then
 *                     the cache's dirty data over it, oldest first
 *
 * A write to a row recomputes the row's parity (P: XOR; RAID 6 Q: the sum
 * of g^i · D_i in GF(2^8), g = 2, ISA-L's field) from the row's data as it
 * now is: a failed member's chunk is first reconstructed, then the new data
 * laid over, then the surviving data chunks written and P and Q. So the
 * parity stays consistent whatever order writes to one row complete in.
 *
 * Faults (bad_member): a write to that member is dropped with probability
 * bad_member_lost_write_rate, a read from it returns one flipped bit with
 * probability bad_member_bitflip_rate; the rng is seeded from the array's
 * seed, so the same run gives the same faults.
 *
 * Invariants: entries are in arrival order; every entry belongs to exactly
 * one array operation (queued or destaging) until raid_data_destage() frees
 * it; a failed member's store is never written or read.
 */
#ifndef IOMODEL_SIM_RAID_DATA_H
#define IOMODEL_SIM_RAID_DATA_H

#include <stdint.h>

#include "sim/raid.h"

struct raid_data;
struct raid_dirty;		/* one cached write's data */

int raid_data_create(struct raid_data **out, const struct raid_sim_config *c, uint64_t limit,
		     uint64_t seed);
void raid_data_free(struct raid_data *d);

/* A host write of [off, off + len) taken into the cache: its data copied. 0 or -ENOMEM. */
int raid_data_cache(struct raid_data *d, uint64_t off, uint64_t len, const void *buf,
		    struct raid_dirty **out);
/* Append `tail`'s entries to `head`'s (cached writes merged into one destage). */
void raid_data_merge(struct raid_dirty **head, struct raid_dirty *tail);
/* The entries of a finished destage to the members, in order; frees them. 0 or -ENOMEM. */
int raid_data_destage(struct raid_data *d, struct raid_dirty *entries);

/*
 * A host write that did not go through the cache, done: to the members;
 * the cache's older entries over the same bytes take the newer data. 0 or -ENOMEM.
 */
int raid_data_write(struct raid_data *d, uint64_t off, uint64_t len, const void *buf);
/* A host read done: [off, off + len) into buf. 0 or -ENOMEM. */
int raid_data_read(struct raid_data *d, uint64_t off, uint64_t len, void *buf);

#endif
