/* test_assess.c — the plan and the figures of a WinSAT-style assessment (suite/assess.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "suite/assess.h"

static void plan_checks(struct check_state *st)
{
	struct assess_plan plan = { .runtime_ns = 2000000000ULL, .seed = 7, .writer_qd = 3 };
	struct job_spec j[ASSESS_MAX_JOBS];
	uint64_t seeds[2 * ASSESS_PHASES];
	size_t n_seeds = 0;

	for (int p = 0; p < ASSESS_PHASES; p++) {
		unsigned n = assess_phase_jobs(p, &plan, j);

		CHECK(st, n == (p >= ASSESS_READS_SEQ_WRITES ? 2u : 1u), "phase %d: %u jobs", p, n);
		for (unsigned i = 0; i < n; i++) {
			CHECK(st, j[i].runtime_ns == plan.runtime_ns && j[i].align == j[i].bs &&
				  j[i].length == 0 && j[i].offset == 0, "phase %d job %u bounds", p, i);
			seeds[n_seeds++] = j[i].seed;
		}
		if (p == ASSESS_SEQ_READ || p == ASSESS_SEQ_WRITE)
			CHECK(st, !j[0].random && j[0].bs == 65536 && j[0].qd == 1 &&
				  j[0].read_pct == (p == ASSESS_SEQ_READ ? 100u : 0u), "phase %d", p);
		else	/* the reader: random 16 KiB reads at QD1 */
			CHECK(st, j[0].random && j[0].bs == 16384 && j[0].qd == 1 &&
				  j[0].read_pct == 100, "phase %d reader", p);
		if (n == 2)
			CHECK(st, j[1].read_pct == 0 && j[1].qd == 3 &&
				  j[1].random == (p == ASSESS_READS_RANDOM_WRITES) &&
				  j[1].bs == (p == ASSESS_READS_RANDOM_WRITES ? 16384u : 65536u),
			      "phase %d writer", p);
	}
	for (size_t a = 0; a < n_seeds; a++)
		for (size_t b = a + 1; b < n_seeds; b++)
			CHECK(st, seeds[a] != seeds[b], "jobs %zu and %zu share a seed", a, b);
	CHECK(st, !strcmp(assess_phase_rw(ASSESS_SEQ_WRITE), "write") &&
		  !strcmp(assess_phase_rw(ASSESS_READS_SEQ_WRITES), "randread"), "workload names");
}

/* `n` IOs of `bytes` each, every one taking `ns`, added to op `op` of `r`. */
static void add_ios(struct run_result *r, enum io_op op, unsigned n, uint64_t bytes, uint64_t ns)
{
	for (unsigned i = 0; i < n; i++)
		hist_add(&r->op[op].lat, ns);
	r->op[op].ios += n;
	r->op[op].bytes += (uint64_t)n * bytes;
}

static void figure_checks(struct check_state *st)
{
	struct run_result *r = malloc(2 * sizeof(*r));
	struct assess *a = malloc(sizeof(*a));

	if (!r || !a) {
		CHECK(st, 0, "out of memory");
		free(r);
		free(a);
		return;
	}
	assess_init(a);
	for (int p = 0; p < ASSESS_PHASES; p++) {
		unsigned n = p >= ASSESS_READS_SEQ_WRITES ? 2 : 1;

		run_result_init(&r[0]);
		run_result_init(&r[1]);
		r[0].elapsed_ns = r[1].elapsed_ns = 1000000000ULL;	/* 1 s */
		if (p == ASSESS_SEQ_READ)
			add_ios(&r[0], IO_READ, 1000, 65536, 300000);
		if (p == ASSESS_RANDOM_READ)
			add_ios(&r[0], IO_READ, 1000, 16384, 100000);		/* 0.1 ms */
		if (p == ASSESS_SEQ_WRITE)
			add_ios(&r[0], IO_WRITE, 500, 65536, 600000);
		if (p == ASSESS_READS_SEQ_WRITES) {
			add_ios(&r[0], IO_READ, 100, 16384, 1000000);		/* 1 ms */
			add_ios(&r[1], IO_WRITE, 200, 65536, 2000000);
		}
		if (p == ASSESS_READS_RANDOM_WRITES) {
			add_ios(&r[0], IO_READ, 100, 16384, 3000000);		/* 3 ms */
			add_ios(&r[0], IO_READ, 10, 16384, 50000000);		/* 50 ms */
			add_ios(&r[1], IO_WRITE, 100, 16384, 2000000);
		}
		assess_add(a, p, r, n);
		run_result_release(&r[0]);
		run_result_release(&r[1]);
	}
	const struct assess_figures *f = &a->f;
	/* MB/s are 10^6 bytes per second */
	CHECK(st, fabs(f->seq_read_mb_s - 65.536) < 1e-9, "seq read %g", f->seq_read_mb_s);
	CHECK(st, fabs(f->random_read_mb_s - 16.384) < 1e-9, "random read %g", f->random_read_mb_s);
	CHECK(st, fabs(f->seq_write_mb_s - 32.768) < 1e-9, "seq write %g", f->seq_write_mb_s);
	CHECK(st, fabs(f->random_read_ms - 0.1) < 1e-3, "idle read %g", f->random_read_ms);
	CHECK(st, fabs(f->read_ms_seq_writes - 1.0) < 0.004, "with seq writes %g",
	      f->read_ms_seq_writes);
	/* (100 x 3 + 10 x 50) / 110 */
	CHECK(st, fabs(f->read_ms_random_writes - 800.0 / 110) < 0.03, "with random writes %g",
	      f->read_ms_random_writes);
	/* 210 reads of both phases: the 200th smallest (95 %) is a 3 ms one, the largest 50 ms */
	CHECK(st, f->mixed_reads == 210, "mixed reads %llu", (unsigned long long)f->mixed_reads);
	CHECK(st, fabs(f->latency_p95_ms - 3.0) < 3.0 * HIST_MAX_RELATIVE_ERROR, "p95 %g",
	      f->latency_p95_ms);
	CHECK(st, f->latency_max_ms == 50.0, "max %g", f->latency_max_ms);
	CHECK(st, fabs(f->writer_mb_s[0] - 13.1072) < 1e-9 && fabs(f->writer_mb_s[1] - 1.6384) < 1e-9,
	      "writers %g %g", f->writer_mb_s[0], f->writer_mb_s[1]);
	CHECK(st, a->phases_done == ASSESS_PHASES, "phases done %u", a->phases_done);
	free(r);
	free(a);
}

int main(void)
{
	struct check_state st = { 0, 0 };

	plan_checks(&st);
	figure_checks(&st);
	return check_exit(&st, "assess");
}
