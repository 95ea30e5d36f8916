/*
 * assess.h — a disk assessment in the manner of WinSAT's `winsat disk`: the
 * plan of its five phases and the figures drawn from their results, with
 * WinSAT's names and units (MB/s of 10^6 bytes, milliseconds). Pure: no IO;
 * the caller runs each phase's jobs (suite/jobs.h) on one opened target, in
 * order, and hands the results back.
 *
 * Phases, each bounded by the same time:
 *   1 sequential 64 KiB reads, QD1            -> Disk Sequential 64.0 Read
 *   2 random 16 KiB reads, QD1                -> Disk Random 16.0 Read
 *   3 sequential 64 KiB writes, QD1           -> Disk Sequential 64.0 Write
 *   4 a reader (random 16 KiB reads, QD1) beside a writer (sequential
 *     64 KiB writes, QD1 unless the plan says otherwise), two concurrent
 *     jobs                                    -> Average Read Time with
 *                                                Sequential Writes
 *   5 the same reader beside random 16 KiB writes
 *                                             -> Average Read Time with
 *                                                Random Writes
 * The latency figures (95th percentile, maximum) are of the reader's reads
 * of phases 4 and 5 together: their histograms are added bucket by bucket,
 * so the percentile is exact to the histogram's bound. The reader is the
 * random-read job of phase 2 (new offsets: seed + 2 x phase), so its mean read time under load
 * compares directly with phase 2's (`random_read_ms`, idle).
 *
 * Invariants: phases are taken in order, each once; a mixed phase has two
 * jobs (reader first), the others one.
 */
#ifndef IOMODEL_ASSESS_H
#define IOMODEL_ASSESS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

#define ASSESS_SEQ_BS (64u << 10)
#define ASSESS_RANDOM_BS (16u << 10)
#define ASSESS_QD 1		/* the single-stream phases and the mixed phases' reader */
#define ASSESS_WRITER_QD 1	/* the mixed phases' writer */
#define ASSESS_MAX_JOBS 2

enum assess_phase {
	ASSESS_SEQ_READ,
	ASSESS_RANDOM_READ,
	ASSESS_SEQ_WRITE,
	ASSESS_READS_SEQ_WRITES,
	ASSESS_READS_RANDOM_WRITES,
	ASSESS_PHASES,
};

/* "sequential 64 KiB read", …, "reads with random writes". */
const char *assess_phase_name(enum assess_phase p);
/* The workload name of the phase (its first job's): "read", "randread", "write". */
const char *assess_phase_rw(enum assess_phase p);

struct assess_plan {
	uint64_t runtime_ns;	/* each phase's time bound */
	uint64_t max_bytes;	/* and byte bound of each job, 0: none */
	uint64_t seed;
	unsigned writer_qd;	/* of the mixed phases' writer (ASSESS_WRITER_QD) */
};

/*
 * The jobs of phase `p` of `plan`, over the whole target (region length 0:
 * to be completed by measure_check_job): returns 1, or 2 for a mixed phase
 * (reader in jobs[0]).
 */
unsigned assess_phase_jobs(enum assess_phase p, const struct assess_plan *plan,
			   struct job_spec jobs[ASSESS_MAX_JOBS]);

struct assess_figures {
	double seq_read_mb_s;		/* Disk Sequential 64.0 Read */
	double random_read_mb_s;	/* Disk Random 16.0 Read */
	double random_read_ms;		/* its mean read time: the reader's, idle */
	double seq_write_mb_s;		/* Disk Sequential 64.0 Write */
	double read_ms_seq_writes;	/* Average Read Time with Sequential Writes */
	double read_ms_random_writes;	/* Average Read Time with Random Writes */
	double latency_p95_ms;		/* Latency: 95th Percentile (phases 4 and 5) */
	double latency_max_ms;		/* Latency: Maximum (phases 4 and 5) */
	double writer_mb_s[2];		/* the writers' rates in phases 4 and 5 */
	uint64_t mixed_reads;		/* reads behind the two latency figures */
};

/* The assessment of one target, filled phase by phase. */
struct assess {
	struct assess_figures f;
	unsigned phases_done;
	struct histogram mixed_reads;	/* the reader's latencies, phases 4 and 5 */
};

void assess_init(struct assess *a);
/*
 * Take phase `p`'s results: `r[i]` of job i as assess_phase_jobs made them
 * (`n` of them). The latency figures are up to date after each mixed phase.
 */
void assess_add(struct assess *a, enum assess_phase p, const struct run_result *r, unsigned n);

/* MB/s (10^6 bytes per second) of one operation type of `r`; 0 without IOs. */
double assess_mb_s(const struct run_result *r, enum io_op op);

#endif
