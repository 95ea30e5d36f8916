/*
 * verify.c — the per-job verification state of verify.h: what each slot of
 * the region should hold, the check of each block read, and the count of
 * failures by kind.
 *
 * A slot's map entry is the sequence number of the last write this run made
 * there (0: none) with BUSY_BIT set while an IO of the job is on it, and
 * REPORTED_BIT once a lost, misdirected or torn block was counted there (so
 * it counts once until it is rewritten or read back good). Each
 * request slot has a phase:
 *
 *   write drawn ──► CHECK_THEN_WRITE (a read of the slot) ──► WRITE ──► done
 *   read drawn  ──► READ ──► done
 *
 * verify_before_queue() enters the first phase, verify_after_complete()
 * checks a read and turns CHECK_THEN_WRITE into WRITE. Blocks found stale
 * and misdirected blocks are listed (verify_match.h) so that a misdirected
 * write counts once, not also as the lost write it leaves at the place it
 * was meant for: verify_finish() matches them for a job alone, the run's
 * ledger for several jobs. Request slots are the job's own numbers plus
 * first_slot (streams on one backend number their requests apart).
 */
#include "verify.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/verify_block.h"
#include "engine/verify_match.h"
#include "util/bug.h"

#define BUSY_BIT (1ULL << 63)		/* an IO of the job is on the slot */
#define REPORTED_BIT (1ULL << 62)	/* counted since last written or read good */
#define SEQ_MASK (REPORTED_BIT - 1)

enum phase { PHASE_READ, PHASE_CHECK_THEN_WRITE, PHASE_WRITE };

struct verify {
	struct verify_params p;
	bool learn;		/* read-only pass without a generation: take the first */
	uint64_t next_seq;
	uint64_t *map;		/* READ_BACK: per slot */
	uint8_t *phase;		/* per request slot */
	uint64_t *self_seq;	/* SELF: the sequence each request slot wrote */
	struct verify_result res;
	struct verify_match match;	/* stale and misdirected blocks found */
};

const char *verify_kind_name(enum verify_kind kind)
{
	static const char *const names[] = {
		[VERIFY_LOST] = "lost_write", [VERIFY_MISDIRECTED] = "misdirected_write",
		[VERIFY_TORN] = "torn_write", [VERIFY_CORRUPT] = "corruption",
	};

	return names[kind];
}

int verify_check_job(const struct verify_params *p, uint64_t align, bool storage,
		     struct errmsg *err)
{
	if (p->bs < VERIFY_MIN_BLOCK)
		return errmsg_set(err, -EINVAL, "--verify needs --bs of at least %u bytes "
				  "(each block carries a %u-byte header and trailer)",
				  VERIFY_MIN_BLOCK, VERIFY_STAMP_BYTES);
	if (align != p->bs)
		return errmsg_set(err, -EINVAL, "--verify needs --align equal to --bs: each "
				  "request is one verified block");
	if (!storage && !p->writes)
		return errmsg_set(err, -EINVAL, "--verify on null: null keeps no data to read "
				  "back, so only write workloads (which check their own buffers)");
	if (storage && p->slots < 2ULL * p->qd)
		return errmsg_set(err, -EINVAL, "--verify needs a region of at least 2 x --qd "
				  "blocks (%llu here) so that no two IOs in flight share a block",
				  (unsigned long long)p->slots);
	if (storage && p->slots > VERIFY_MAX_SLOTS)
		return errmsg_set(err, -EINVAL, "--verify keeps 8 bytes per block: at most %llu "
				  "blocks of --bs in the region (%llu here); use --length or a "
				  "larger --bs", VERIFY_MAX_SLOTS, (unsigned long long)p->slots);
	if (p->stream >= VERIFY_MAX_STREAMS)
		return errmsg_set(err, -EINVAL, "--verify numbers the writes of at most %u jobs "
				  "(over all ranks), not %u", VERIFY_MAX_STREAMS, p->stream + 1);
	return 0;
}

int verify_create(struct verify **out, const struct verify_params *p, struct errmsg *err)
{
	struct verify *v = calloc(1, sizeof(*v));

	if (!v)
		return errmsg_set(err, -ENOMEM, "out of memory for --verify");
	v->p = *p;
	v->learn = !p->writes && !p->generation;
	v->next_seq = (uint64_t)p->stream << VERIFY_STREAM_SHIFT;
	v->phase = calloc(p->qd, sizeof(*v->phase));
	v->self_seq = calloc(p->qd, sizeof(*v->self_seq));
	if (p->mode == VERIFY_READ_BACK)
		v->map = calloc(p->slots, sizeof(*v->map));	/* untouched pages cost nothing */
	if (!v->phase || !v->self_seq || (p->mode == VERIFY_READ_BACK && !v->map)) {
		verify_free(v);
		return errmsg_set(err, -ENOMEM, "out of memory for --verify of %llu blocks",
				  (unsigned long long)p->slots);
	}
	v->res.mode = p->mode;
	v->res.generation = p->generation;
	v->res.block_bytes = p->bs;
	*out = v;
	return 0;
}

void verify_free(struct verify *v)
{
	if (!v)
		return;
	free(v->map);
	free(v->phase);
	free(v->self_seq);
	verify_match_release(&v->match);
	free(v);
}

uint64_t verify_pass_ios(const struct verify *v)
{
	return v->p.mode == VERIFY_READ_BACK && v->p.writes ? v->p.slots : 0;
}

void verify_pass_done(struct verify *v, uint64_t ios, uint64_t ns)
{
	v->res.pass_ios = ios;
	v->res.pass_ns = ns;
}

static uint64_t slot_of(const struct verify *v, uint64_t offset)
{
	uint64_t slot = (offset - v->p.first) / v->p.bs;

	BUG_ON(slot >= v->p.slots);
	return slot;
}

/* The job's own number of a request (its slot less the job's first). */
static unsigned request_index(const struct verify *v, const struct io_request *req)
{
	BUG_ON(req->slot < v->p.first_slot || req->slot - v->p.first_slot >= v->p.qd);
	return req->slot - v->p.first_slot;
}

static void stamp(struct verify *v, struct io_request *req, uint64_t seq)
{
	struct verify_id id = { v->p.generation, seq, req->offset, req->length };

	verify_block_stamp(req->buf, &id);
	v->res.blocks_written++;
}

void verify_before_queue(struct verify *v, struct io_request *req, struct offset_gen *offsets)
{
	uint64_t slot;

	if (v->p.mode == VERIFY_SELF) {
		if (req->op == IO_WRITE) {
			v->self_seq[request_index(v, req)] = ++v->next_seq;
			stamp(v, req, v->next_seq);
		}
		return;
	}
	slot = slot_of(v, req->offset);
	while (v->map[slot] & BUSY_BIT) {
		req->offset = offset_gen_next(offsets);
		slot = slot_of(v, req->offset);
	}
	v->map[slot] |= BUSY_BIT;
	v->phase[request_index(v, req)] = req->op == IO_WRITE ? PHASE_CHECK_THEN_WRITE
							       : PHASE_READ;
	req->op = IO_READ;
}

static void fail(struct verify *v, enum verify_kind kind, const struct verify_failure *f)
{
	struct verify_result *r = &v->res;

	if (!r->count[kind])
		r->first_offset[kind] = f->offset;
	r->count[kind]++;
	if (!r->failures++) {
		r->first = *f;
		r->first.kind = kind;
	}
}

/* The job's index in the lists: its ledger's, or 0 alone (verify_finish settles them). */
static unsigned job_of(const struct verify *v)
{
	return v->p.ledger ? v->p.job : 0;
}

static void add_stale(struct verify *v, const struct verify_failure *f)
{
	verify_match_add_stale(&v->match, job_of(v), f, !v->res.failures);
	fail(v, VERIFY_LOST, f);
}

static void add_misdirected(struct verify *v, struct verify_failure *f)
{
	f->kind = VERIFY_MISDIRECTED;
	verify_match_add_misdirected(&v->match, job_of(v), f);
	fail(v, VERIFY_MISDIRECTED, f);
}

#define KIND_OK (-1)

/* An intact block at f->offset: is it the write this slot should hold? */
static int judge_intact(struct verify *v, struct verify_failure *f, bool expect_any)
{
	bool ours;

	if (v->learn && !v->res.generation)
		v->res.generation = f->found_generation;
	ours = f->found_generation == v->res.generation;
	f->expected_generation = v->res.generation;
	if (ours && f->found_offset != f->offset)
		return VERIFY_MISDIRECTED;
	if (!v->p.writes)
		return ours ? KIND_OK : VERIFY_LOST;
	if (!expect_any)
		return KIND_OK;		/* what was there before this run */
	/* another sequence number: an older write (of this run, or of an earlier
	 * run given the same --verify-generation) */
	return ours && f->found_sequence == f->expected_sequence ? KIND_OK : VERIFY_LOST;
}

static int classify(struct verify *v, enum verify_shape shape, struct verify_failure *f,
		    bool expect_any)
{
	switch (shape) {
	case BLOCK_INTACT:
		return judge_intact(v, f, expect_any);
	case BLOCK_UNSTAMPED:
		return expect_any ? VERIFY_LOST : KIND_OK;
	case BLOCK_TORN:
		return VERIFY_TORN;
	default:
		return VERIFY_CORRUPT;
	}
}

/*
 * Check a block read at `offset` whose slot entry is `*entry`. A lost,
 * misdirected or torn block counts once until it is rewritten or read back
 * good; corruption counts on every read that returns it (a flip in transit
 * and a bad sector look alike, and two flips in a row are two faults).
 */
static void check(struct verify *v, const void *buf, uint64_t offset, uint64_t *entry)
{
	uint64_t expected = *entry & SEQ_MASK;
	struct verify_failure f = { .offset = offset, .expected_sequence = expected };
	struct verify_id found;
	enum verify_shape shape = verify_block_inspect(buf, v->p.bs, &found);
	int kind;

	v->res.blocks_checked++;
	f.found_generation = found.generation;
	f.found_sequence = found.sequence;
	f.found_offset = found.offset;
	f.expected_generation = v->res.generation;
	kind = classify(v, shape, &f, !v->p.writes || expected);
	if (kind == KIND_OK) {
		*entry &= ~REPORTED_BIT;
		return;
	}
	if (kind == VERIFY_CORRUPT) {
		fail(v, kind, &f);
		return;
	}
	if (*entry & REPORTED_BIT)
		return;
	*entry |= REPORTED_BIT;
	if (kind == VERIFY_LOST)
		add_stale(v, &f);
	else if (kind == VERIFY_MISDIRECTED)
		add_misdirected(v, &f);
	else
		fail(v, kind, &f);
}

static int self_check(struct verify *v, struct io_request *req)
{
	struct verify_id found;

	if (req->op != IO_WRITE || req->result != req->length)
		return 0;
	v->res.blocks_checked++;
	if (verify_block_inspect(req->buf, req->length, &found) != BLOCK_INTACT ||
	    found.sequence != v->self_seq[request_index(v, req)] || found.offset != req->offset)
		fail(v, VERIFY_CORRUPT, &(struct verify_failure){ .offset = req->offset });
	return 0;
}

int verify_after_complete(struct verify *v, struct io_request *req, struct backend *be)
{
	uint64_t slot, *entry;
	int ret;

	if (v->p.mode == VERIFY_SELF)
		return self_check(v, req);
	slot = slot_of(v, req->offset);
	entry = &v->map[slot];
	if (req->result != req->length || v->phase[request_index(v, req)] == PHASE_WRITE) {
		*entry &= ~BUSY_BIT;	/* a failed IO is the engine's to report */
		return 0;
	}
	check(v, req->buf, req->offset, entry);
	if (v->phase[request_index(v, req)] == PHASE_READ) {
		*entry &= ~BUSY_BIT;
		return 0;
	}
	*entry = ++v->next_seq | BUSY_BIT;
	stamp(v, req, v->next_seq);
	v->phase[request_index(v, req)] = PHASE_WRITE;
	req->op = IO_WRITE;
	req->submit_ns = req->complete_ns;
	ret = backend_queue(be, req);
	return ret ? ret : 1;
}

/*
 * Alone, match the job's own lists; in a run of several jobs, leave them to
 * the ledger (settled once all jobs are done).
 */
void verify_finish(struct verify *v, struct verify_result *out)
{
	struct verify_result *r = &v->res;

	if (!v->p.ledger)
		verify_match_settle(&v->match, &r);
	else
		(void)verify_ledger_deposit(v->p.ledger, &v->match);	/* ENOMEM: left unmatched */
	*out = *r;
}

void verify_result_merge(struct verify_result *total, const struct verify_result *job)
{
	struct verify_result *t = total;

	if (!job->mode)
		return;
	if (!t->mode) {
		*t = *job;
		return;
	}
	if (!t->generation)
		t->generation = job->generation;
	t->blocks_written += job->blocks_written;
	t->blocks_checked += job->blocks_checked;
	t->pass_ios += job->pass_ios;
	if (job->pass_ns > t->pass_ns)
		t->pass_ns = job->pass_ns;
	for (int k = 0; k < VERIFY_KINDS; k++) {
		if (job->count[k] && (!t->count[k] || job->first_offset[k] < t->first_offset[k]))
			t->first_offset[k] = job->first_offset[k];
		t->count[k] += job->count[k];
	}
	if (job->failures && (!t->failures || job->first.offset < t->first.offset))
		t->first = job->first;
	t->failures += job->failures;
}
