/*
 * test_verify_jobs.c — --verify over several jobs below the command line:
 * two jobs' verification states (engine/verify.h) on disjoint halves of a
 * small in-memory disk, with a write of job 0 misdirected into job 1's half
 * by hand. With the run's ledger (engine/verify_match.h) the write counts
 * once, as misdirected (found by job 1), and job 0's stale block is not
 * also a lost write; without it both jobs count it. Job 1's sequence numbers
 * are its own (from 2^40 + 1). Then verify_result_merge: counts summed,
 * lowest first offsets, first failure of lowest offset, longest pass.
 * Last, jobs_run (suite/jobs.h) on a simulated drive: verified jobs whose
 * regions overlap are refused; 3 jobs on thirds of a misdirecting drive
 * find every misdirected write once, and the total is the jobs' sum.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/verify.h"
#include "engine/verify_block.h"
#include "engine/verify_match.h"
#include "suite/jobs.h"
#include "suite/measure.h"

#define BS 4096u
#define BLOCKS 128u	/* job 0: blocks 0-63, job 1: 64-127 */

/* A backend that only takes requests: the test plays the device itself. */
struct fake {
	struct backend be;
	unsigned queued;
};

static int fake_queue(struct backend *be, struct io_request *req)
{
	(void)req;
	((struct fake *)be)->queued++;
	return 0;
}

static const struct backend_ops fake_ops = { .name = "fake", .queue = fake_queue };

struct rig {
	struct fake fake;
	unsigned char *disk;
	unsigned char *buf;
	struct verify *v[2];
	struct offset_gen offsets[2];
	struct verify_ledger *ledger;
};

static int rig_open(struct rig *r, bool with_ledger)
{
	struct errmsg err;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	r->fake.be.ops = &fake_ops;
	r->disk = calloc(BLOCKS, BS);
	r->buf = aligned_alloc(4096, BS);
	if (!r->disk || !r->buf || (with_ledger && verify_ledger_create(&r->ledger)))
		return -ENOMEM;
	for (unsigned j = 0; j < 2 && !ret; j++) {
		struct verify_params p = {
			.mode = VERIFY_READ_BACK, .stream = j, .ledger = r->ledger, .job = j,
			.generation = 5, .writes = true, .first = j * 64ULL * BS, .slots = 64,
			.bs = BS, .qd = 1, .first_slot = j,
		};

		ret = offset_gen_init(&r->offsets[j], p.first, 64ULL * BS, BS, BS, false, 1, &err);
		if (!ret)
			ret = verify_create(&r->v[j], &p, &err);
	}
	return ret;
}

static void rig_close(struct rig *r)
{
	for (unsigned j = 0; j < 2; j++)
		verify_free(r->v[j]);
	verify_ledger_free(r->ledger);
	free(r->disk);
	free(r->buf);
}

/* Job j writes block `block` (check read first); the device stores it at `lands`. */
static int write_block(struct rig *r, unsigned j, unsigned block, unsigned lands)
{
	struct io_request req = { .op = IO_WRITE, .offset = (uint64_t)block * BS, .length = BS,
				  .buf = r->buf, .slot = j };

	verify_before_queue(r->v[j], &req, &r->offsets[j]);
	if (req.op != IO_READ || req.offset != (uint64_t)block * BS)
		return -EINVAL;
	memcpy(r->buf, r->disk + (size_t)block * BS, BS);
	req.result = BS;
	if (verify_after_complete(r->v[j], &req, &r->fake.be) != 1 || req.op != IO_WRITE)
		return -EINVAL;
	memcpy(r->disk + (size_t)lands * BS, r->buf, BS);
	return verify_after_complete(r->v[j], &req, &r->fake.be);
}

static int read_block(struct rig *r, unsigned j, unsigned block)
{
	struct io_request req = { .op = IO_READ, .offset = (uint64_t)block * BS, .length = BS,
				  .buf = r->buf, .slot = j, .result = BS };

	verify_before_queue(r->v[j], &req, &r->offsets[j]);
	memcpy(r->buf, r->disk + (size_t)block * BS, BS);
	return verify_after_complete(r->v[j], &req, &r->fake.be);
}

/* Job 0's write of block 62 lands on 65; job 1 then rewrites 65; job 0 reads 62 back. */
static int misdirected_across(struct rig *r, struct verify_result res[2])
{
	int ret = write_block(r, 0, 62, 65);

	if (!ret)
		ret = write_block(r, 1, 65, 65);
	if (!ret)
		ret = read_block(r, 0, 62);
	for (unsigned j = 0; j < 2; j++)
		verify_finish(r->v[j], &res[j]);
	if (r->ledger)
		verify_ledger_settle(r->ledger, (struct verify_result *[]){ &res[0], &res[1] });
	return ret;
}

static void across_jobs(struct check_state *st)
{
	struct verify_result res[2], alone[2];
	struct rig r;

	CHECK(st, rig_open(&r, true) == 0, "set up two jobs with a ledger");
	CHECK(st, misdirected_across(&r, res) == 0, "the IOs");
	CHECK(st, res[1].count[VERIFY_MISDIRECTED] == 1 && res[1].failures == 1 &&
		  res[1].first.offset == 65 * BS && res[1].first.found_offset == 62 * BS &&
		  res[1].first.found_sequence == 1,
	      "job 1 finds job 0's write (sequence 1) at block 65: %llu misdirected, found seq %llu",
	      (unsigned long long)res[1].count[VERIFY_MISDIRECTED],
	      (unsigned long long)res[1].first.found_sequence);
	CHECK(st, res[0].failures == 0 && res[0].count[VERIFY_LOST] == 0,
	      "with the ledger job 0's stale block is not also lost: %llu",
	      (unsigned long long)res[0].count[VERIFY_LOST]);
	CHECK(st, res[1].blocks_written == 1 && res[0].blocks_checked == 2,
	      "written %llu, checked %llu", (unsigned long long)res[1].blocks_written,
	      (unsigned long long)res[0].blocks_checked);
	rig_close(&r);

	CHECK(st, rig_open(&r, false) == 0, "set up two jobs without a ledger");
	CHECK(st, misdirected_across(&r, alone) == 0, "the IOs");
	CHECK(st, alone[0].count[VERIFY_LOST] == 1 && alone[1].count[VERIFY_MISDIRECTED] == 1,
	      "without it, counted twice: lost %llu, misdirected %llu",
	      (unsigned long long)alone[0].count[VERIFY_LOST],
	      (unsigned long long)alone[1].count[VERIFY_MISDIRECTED]);
	rig_close(&r);
}

static void job_sequences(struct check_state *st)
{
	struct verify_id id;
	struct rig r;

	CHECK(st, rig_open(&r, true) == 0, "set up");
	CHECK(st, write_block(&r, 1, 70, 70) == 0, "job 1 writes");
	CHECK(st, verify_block_inspect(r.disk + 70 * BS, BS, &id) == BLOCK_INTACT &&
		  id.sequence == (1ULL << VERIFY_STREAM_SHIFT) + 1 && id.generation == 5,
	      "job 1's first write is sequence 2^40 + 1: %llu", (unsigned long long)id.sequence);
	rig_close(&r);
}

static void merge(struct check_state *st)
{
	struct verify_result a = { .mode = VERIFY_READ_BACK, .generation = 9, .blocks_written = 10,
				   .blocks_checked = 20, .pass_ios = 5, .pass_ns = 100,
				   .count = { 2, 0, 1, 0 }, .first_offset = { 8192, 0, 4096, 0 },
				   .failures = 3, .first = { .kind = VERIFY_TORN, .offset = 4096 } };
	struct verify_result b = { .mode = VERIFY_READ_BACK, .generation = 9, .blocks_written = 1,
				   .blocks_checked = 2, .pass_ios = 7, .pass_ns = 300,
				   .count = { 1, 0, 0, 4 }, .first_offset = { 512, 0, 0, 1024 },
				   .failures = 5, .first = { .kind = VERIFY_CORRUPT, .offset = 1024 } };
	struct verify_result t = { 0 }, off = { 0 };

	verify_result_merge(&t, &off);
	CHECK(st, t.mode == VERIFY_OFF, "nothing from a job without --verify");
	verify_result_merge(&t, &a);
	verify_result_merge(&t, &b);
	CHECK(st, t.generation == 9 && t.blocks_written == 11 && t.blocks_checked == 22 &&
		  t.pass_ios == 12 && t.pass_ns == 300 && t.failures == 8,
	      "sums, the longest pass: %llu %llu %llu %llu", (unsigned long long)t.blocks_written,
	      (unsigned long long)t.pass_ios, (unsigned long long)t.pass_ns,
	      (unsigned long long)t.failures);
	CHECK(st, t.count[VERIFY_LOST] == 3 && t.first_offset[VERIFY_LOST] == 512 &&
		  t.count[VERIFY_TORN] == 1 && t.first_offset[VERIFY_TORN] == 4096 &&
		  t.count[VERIFY_CORRUPT] == 4 && t.first_offset[VERIFY_CORRUPT] == 1024,
	      "per kind: count summed, lowest first offset");
	CHECK(st, t.first.kind == VERIFY_CORRUPT && t.first.offset == 1024,
	      "the first failure of lowest offset: %llu", (unsigned long long)t.first.offset);
}

/* 3 verified random-write jobs of `length` bytes each from offset 0, every `stride` bytes. */
static int run_three(struct measure_target *m, uint64_t length, uint64_t stride,
		     struct jobs_result *res, struct errmsg *err)
{
	struct job_spec specs[3];
	struct jobs_options o = { 0 };
	struct run_info info = { .rw = "randwrite" };
	volatile sig_atomic_t stop = 0;
	int ret = 0;

	for (unsigned i = 0; i < 3 && !ret; i++) {
		specs[i] = (struct job_spec){
			.random = true, .bs = 4096, .align = 4096, .qd = 1, .offset = i * stride,
			.length = length, .max_ios = 700, .seed = 11 + i, .verify = VERIFY_READ_BACK,
			.verify_generation = 3, .verify_stream = i,
		};
		ret = measure_check_job(m, &specs[i], err);
	}
	if (!ret)
		ret = jobs_run(m, specs, 3, &o, &stop, res, &info, err);
	for (unsigned i = 0; i < 3; i++)
		if (specs[i].verify_ledger)
			ret = -EFAULT;	/* the caller's specs keep no pointer to the freed ledger */
	return ret;
}

static void through_jobs_run(struct check_state *st)
{
	struct target_request req = { .path = "sim:ssd,capacity=48m,spare=0.5,"
					      "fault_misdirect_rate=0.04",
				      .direct = true, .writes = true };
	struct measure_target m;
	struct jobs_result res;
	struct errmsg err = { 0 };
	uint64_t sum = 0;

	CHECK(st, measure_open(&m, &req, BACKEND_IO_URING, 1, &err) == 0, "open: %s", err.text);
	CHECK(st, jobs_result_init(&res, 3) == 0, "results");
	CHECK(st, run_three(&m, 16 << 20, 8 << 20, &res, &err) == -EINVAL &&
		  strstr(err.text, "share bytes"), "overlapping verified jobs refused: %s", err.text);
	jobs_result_release(&res);
	CHECK(st, jobs_result_init(&res, 3) == 0, "results");
	CHECK(st, run_three(&m, 16 << 20, 16 << 20, &res, &err) == 0, "three thirds: %s", err.text);
	for (unsigned i = 0; i < 3; i++)
		sum += res.job[i].verify.failures;
	CHECK(st, m.report.faults.misdirected_writes > 30 &&
		  res.merged.verify.count[VERIFY_MISDIRECTED] == m.report.faults.misdirected_writes &&
		  res.merged.verify.failures == res.merged.verify.count[VERIFY_MISDIRECTED] &&
		  sum == res.merged.verify.failures,
	      "misdirected %llu of %llu injected, %llu failures (jobs' sum %llu)",
	      (unsigned long long)res.merged.verify.count[VERIFY_MISDIRECTED],
	      (unsigned long long)m.report.faults.misdirected_writes,
	      (unsigned long long)res.merged.verify.failures, (unsigned long long)sum);
	jobs_result_release(&res);
	measure_close(&m);
}

int main(void)
{
	struct check_state st = { 0, 0 };

	across_jobs(&st);
	job_sequences(&st);
	merge(&st);
	through_jobs_run(&st);
	return check_exit(&st, "verify_jobs");
}
