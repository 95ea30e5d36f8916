/*
 * verify_match.h — the misdirected writes a verification found and the
 * lost-looking blocks it found, matched so that a misdirected write counts
 * once (as misdirected where it landed), not also as the lost write it
 * leaves where it was meant to go. Used by verify.c for one job, and as the
 * ledger of a run's jobs (verify_ledger below), where a write of one job
 * that went astray into another job's slice is found there by the other
 * job and its stale block by its own.
 *
 * Entries carry the index of the job (0 .. jobs-1) whose count they are in;
 * verify_match_settle() corrects each job's verify_result.
 *
 * Invariants: a stale block is explained by at most one misdirected write
 * and a misdirected write explains at most one stale block; each list holds
 * at most VERIFY_MATCH_MAX entries (beyond that a failure is counted but
 * cannot be matched).
 */
#ifndef IOMODEL_VERIFY_MATCH_H
#define IOMODEL_VERIFY_MATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/verify.h"

#define VERIFY_MATCH_MAX (1u << 20)

struct verify_stale {
	uint64_t offset;
	uint64_t sequence;	/* expected; 0 = any of the generation */
	unsigned job;
	bool first;		/* the job's first failure */
	bool explained;		/* a misdirected write accounts for it */
};

struct verify_astray {
	struct verify_failure f;
	unsigned job;
	bool matched;
};

struct verify_match {
	struct verify_stale *stale;
	size_t n_stale, alloc_stale;
	struct verify_astray *mis;
	size_t n_mis, alloc_mis;
};

void verify_match_init(struct verify_match *m);
void verify_match_release(struct verify_match *m);

/* Record a stale block / a misdirected one (dropped silently past the cap). */
void verify_match_add_stale(struct verify_match *m, unsigned job, const struct verify_failure *f,
			    bool first);
void verify_match_add_misdirected(struct verify_match *m, unsigned job,
				  const struct verify_failure *f);

/* Move every entry of `from` to the end of `into`; 0 or -ENOMEM (from is released). */
int verify_match_take(struct verify_match *into, struct verify_match *from);

/*
 * Match the lists and correct `results[job]` for each job named in them:
 * one count off lost_write for each stale block explained, one off
 * misdirected_write for a write seen astray twice, the first lost offset
 * moved to the first unexplained one, and a job's first failure, if it was
 * an explained stale block, replaced by the misdirected write.
 */
void verify_match_settle(struct verify_match *m, struct verify_result *const *results);

/*
 * The ledger of a run's jobs: each job's verify_finish() deposits its lists
 * (from its own thread: deposits are serialised by a lock), and once every
 * job has finished the caller settles them all at once.
 */
struct verify_ledger;

int verify_ledger_create(struct verify_ledger **out);
void verify_ledger_free(struct verify_ledger *l);
/* Thread-safe; `m` is released. 0 or -ENOMEM (the entries are then lost, not matched). */
int verify_ledger_deposit(struct verify_ledger *l, struct verify_match *m);
/* After the last deposit: verify_match_settle over every job's entries. */
void verify_ledger_settle(struct verify_ledger *l, struct verify_result *const *results);

#endif
