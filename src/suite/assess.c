/* assess.c — the phases of a WinSAT-style assessment and its figures (assess.h). */
#include "suite/assess.h"

#include <string.h>

#include "util/bug.h"

static const char *const phase_names[ASSESS_PHASES] = {
	"sequential 64 KiB read", "random 16 KiB read", "sequential 64 KiB write",
	"reads with sequential writes", "reads with random writes",
};

static const char *const phase_rw[ASSESS_PHASES] = {
	"read", "randread", "write", "randread", "randread",
};

const char *assess_phase_name(enum assess_phase p)
{
	BUG_ON(p >= ASSESS_PHASES);
	return phase_names[p];
}

const char *assess_phase_rw(enum assess_phase p)
{
	BUG_ON(p >= ASSESS_PHASES);
	return phase_rw[p];
}

/* One job of the plan; seeds differ by phase and by job, so no phase rereads another's offsets. */
static struct job_spec one_job(const struct assess_plan *plan, enum assess_phase p, bool random,
			       bool read, uint64_t bs, unsigned qd, unsigned job)
{
	return (struct job_spec){ .random = random, .read_pct = read ? 100 : 0, .bs = bs,
				  .align = bs, .qd = qd, .runtime_ns = plan->runtime_ns,
				  .max_bytes = plan->max_bytes,
				  .seed = plan->seed + 2 * (uint64_t)p + job };
}

unsigned assess_phase_jobs(enum assess_phase p, const struct assess_plan *plan,
			   struct job_spec jobs[ASSESS_MAX_JOBS])
{
	BUG_ON(p >= ASSESS_PHASES || plan->writer_qd == 0);
	switch (p) {
	case ASSESS_SEQ_READ:
		jobs[0] = one_job(plan, p, false, true, ASSESS_SEQ_BS, ASSESS_QD, 0);
		return 1;
	case ASSESS_SEQ_WRITE:
		jobs[0] = one_job(plan, p, false, false, ASSESS_SEQ_BS, ASSESS_QD, 0);
		return 1;
	case ASSESS_RANDOM_READ:
	case ASSESS_READS_SEQ_WRITES:
	case ASSESS_READS_RANDOM_WRITES:
		/* the reader of every random-read phase is one job */
		jobs[0] = one_job(plan, p, true, true, ASSESS_RANDOM_BS, ASSESS_QD, 0);
		if (p == ASSESS_RANDOM_READ)
			return 1;
		jobs[1] = p == ASSESS_READS_SEQ_WRITES
			? one_job(plan, p, false, false, ASSESS_SEQ_BS, plan->writer_qd, 1)
			: one_job(plan, p, true, false, ASSESS_RANDOM_BS, plan->writer_qd, 1);
		return 2;
	case ASSESS_PHASES:
		break;
	}
	return 0;
}

void assess_init(struct assess *a)
{
	memset(a, 0, sizeof(*a));
	hist_init(&a->mixed_reads);
}

double assess_mb_s(const struct run_result *r, enum io_op op)
{
	double secs = (double)r->elapsed_ns / 1e9;

	return secs > 0 && r->op[op].ios ? (double)r->op[op].bytes / secs / 1e6 : 0;
}

static double mean_ms(const struct histogram *h)
{
	return h->count ? hist_mean(h) / 1e6 : 0;
}

void assess_add(struct assess *a, enum assess_phase p, const struct run_result *r, unsigned n)
{
	struct assess_figures *f = &a->f;
	const struct histogram *reads = &r[0].op[IO_READ].lat;

	BUG_ON(p != a->phases_done);
	BUG_ON(n != (p >= ASSESS_READS_SEQ_WRITES ? 2u : 1u));
	a->phases_done++;
	switch (p) {
	case ASSESS_SEQ_READ: f->seq_read_mb_s = assess_mb_s(&r[0], IO_READ); return;
	case ASSESS_RANDOM_READ:
		f->random_read_mb_s = assess_mb_s(&r[0], IO_READ);
		f->random_read_ms = mean_ms(reads);
		return;
	case ASSESS_SEQ_WRITE: f->seq_write_mb_s = assess_mb_s(&r[0], IO_WRITE); return;
	case ASSESS_READS_SEQ_WRITES: f->read_ms_seq_writes = mean_ms(reads); break;
	case ASSESS_READS_RANDOM_WRITES: f->read_ms_random_writes = mean_ms(reads); break;
	case ASSESS_PHASES: return;
	}
	f->writer_mb_s[p - ASSESS_READS_SEQ_WRITES] = assess_mb_s(&r[1], IO_WRITE);
	hist_merge(&a->mixed_reads, reads);
	f->mixed_reads = a->mixed_reads.count;
	f->latency_p95_ms = (double)hist_percentile(&a->mixed_reads, 95) / 1e6;
	f->latency_max_ms = a->mixed_reads.count ? (double)a->mixed_reads.max / 1e6 : 0;
}
