/*
 * verify.h — data verification for a job (`run --verify`), beside the
 * engine: the engine calls verify_before_queue() on each IO it is about to
 * queue and verify_after_complete() on each IO the backend hands back; the
 * backends never see it. Blocks are one request each (verify_block.h).
 *
 * Modes:
 *   VERIFY_READ_BACK  a target that keeps data (file, device, sim:). A job
 *     that writes stamps every write with this run's generation and the next
 *     sequence number, and first reads the slot it is about to overwrite,
 *     checking what the last write left there, so no fault is hidden by a
 *     later write; after the measurement the engine reads the whole region
 *     back (the pass). A read-only job checks that every block read is one
 *     of generation G (--verify-generation, else the generation of the first
 *     stamped block read): the later pass over a region a --verify write
 *     run left.
 *   VERIFY_SELF  the null target, which keeps nothing: each write is stamped
 *     and its own buffer checked on completion, which measures the CPU cost
 *     of verifying and nothing else. Reads are refused (verify_check_job).
 *
 * Each block read is classified: a lost write (a block of an older
 * generation or sequence, or no stamp, where this run's write should be), a
 * misdirected write (a stamped block of the checked generation whose header
 * offset is not where it was read; the lost-looking block it left behind is
 * matched to it by offset and sequence and not counted again), a torn write
 * (header and trailer from different writes), corruption (a checksum).
 *
 * A lost, misdirected or torn block counts once until it is rewritten or
 * read back good; corruption counts on every read that returns it.
 *
 * Several jobs (suite/jobs.h): each has its own state over a region of its
 * own, all stamp the run's generation, and job k's sequence numbers start
 * at k x 2^40 + 1 (`stream`), so that a block says which job wrote it. A
 * write of one job misdirected into another's region is found by the other
 * job; the ledger (verify_match.h) matches it with the stale block its own
 * job found, as verify_finish() does within one job.
 *
 * Invariants: IOs in flight never share a slot (a drawn offset whose slot is
 * busy is drawn again; the region holds at least 2 x qd slots); every slot
 * written in this run holds its last sequence number in the map; failures
 * is the sum of count[].
 */
#ifndef IOMODEL_VERIFY_H
#define IOMODEL_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "engine/offsets.h"
#include "util/errmsg.h"

enum verify_mode {
	VERIFY_OFF = 0,
	VERIFY_READ_BACK,
	VERIFY_SELF,
};

enum verify_kind {
	VERIFY_LOST,
	VERIFY_MISDIRECTED,
	VERIFY_TORN,
	VERIFY_CORRUPT,
	VERIFY_KINDS,
};

/* "lost_write", "misdirected_write", "torn_write", "corruption" */
const char *verify_kind_name(enum verify_kind kind);

struct verify_failure {
	enum verify_kind kind;
	uint64_t offset;		/* where the bad block was read */
	uint64_t expected_generation;	/* 0: not known */
	uint64_t expected_sequence;	/* 0: any */
	uint64_t found_generation;	/* 0: no stamp */
	uint64_t found_sequence;
	uint64_t found_offset;		/* the offset its header names */
};

struct verify_result {
	enum verify_mode mode;		/* VERIFY_OFF: no verification */
	uint64_t generation;		/* written, or checked (0: none found) */
	uint64_t block_bytes;
	uint64_t blocks_written;
	uint64_t blocks_checked;
	uint64_t pass_ios;		/* reads of the pass after the measurement */
	uint64_t pass_ns;
	uint64_t count[VERIFY_KINDS];
	uint64_t first_offset[VERIFY_KINDS];	/* valid where count > 0 */
	uint64_t failures;		/* sum of count[] */
	struct verify_failure first;	/* the first failure found; valid if failures */
};

/* Most slots (region / bs) a job may verify: 8 bytes each, 1 GiB. */
#define VERIFY_MAX_SLOTS (1ULL << 27)
/* Most bytes of IO buffers (bs x qd) of a verified job: no slot may share one. */
#define VERIFY_MAX_BUFFERS (1ULL << 30)

/*
 * A run's jobs (of all its ranks) are its streams: stream k numbers its
 * writes from k x 2^40 + 1, so a stamp says which job wrote it.
 */
#define VERIFY_STREAM_SHIFT 40
#define VERIFY_MAX_STREAMS (1u << 22)

struct verify_ledger;

struct verify_params {
	enum verify_mode mode;
	unsigned stream;	/* < VERIFY_MAX_STREAMS: the top bits of its sequence numbers */
	struct verify_ledger *ledger;	/* NULL: the job alone; else the run's (verify_match.h) */
	unsigned job;		/* its index in the ledger */
	uint64_t generation;	/* writes: this run's (non-zero); reads: 0 = learn */
	bool writes;		/* the job writes (read_pct < 100) */
	uint64_t first;		/* lowest offset (offset_gen.first) */
	uint64_t slots;		/* offset_gen.positions; align == bs */
	uint32_t bs;
	unsigned qd;
	unsigned first_slot;	/* the job's requests carry slots first_slot .. + qd - 1 */
};

/*
 * Whether a job can be verified: bs >= VERIFY_MIN_BLOCK, align == bs, at
 * least 2 x qd slots, at most VERIFY_MAX_SLOTS; no reads on a target
 * without storage. 0 or -EINVAL with a message naming the option.
 */
int verify_check_job(const struct verify_params *p, uint64_t align, bool storage,
		     struct errmsg *err);

struct verify;

int verify_create(struct verify **out, const struct verify_params *p, struct errmsg *err);
void verify_free(struct verify *v);

/* Slots the pass reads; 0 when the job needs no pass (read-only, or SELF). */
uint64_t verify_pass_ios(const struct verify *v);
void verify_pass_done(struct verify *v, uint64_t ios, uint64_t ns);

/*
 * Before `req` (op and offset drawn, buffer its own) is queued: move it off
 * a busy slot (drawing again from `offsets`), stamp a write, or turn a write
 * into the check read of its slot (READ_BACK).
 */
void verify_before_queue(struct verify *v, struct io_request *req, struct offset_gen *offsets);

/*
 * After `req` completed: check what was read. Returns 0 when `req` is done
 * (account it as usual), 1 when it was a check read and is back in flight
 * as its write (queued on `be`), or a negative errno from backend_queue.
 */
int verify_after_complete(struct verify *v, struct io_request *req, struct backend *be);

/*
 * Fill `out`. Alone (no ledger), misdirected writes are first matched with
 * the blocks they left stale; with a ledger the job's lists go to it, and
 * `out` is corrected by verify_ledger_settle() once every job is done.
 */
void verify_finish(struct verify *v, struct verify_result *out);

/*
 * Add a job's (or a rank's) result to a run's total: counts summed, the
 * lowest first offset of each kind, the first failure of lowest offset, the
 * longest pass. `total` starts zeroed (mode VERIFY_OFF) and takes `job`'s
 * mode and generation.
 */
void verify_result_merge(struct verify_result *total, const struct verify_result *job);

#endif
