/*
 * mpi_run.c — ranks.h with Open MPI: joining the job, agreement on
 * statuses, the common start, and the gathering of results to rank 0.
 * The only file that includes mpi.h; ranks_none.c stands in for it in a
 * build without MPI. Not launched by mpirun, it behaves as ranks_none.c.
 *
 * A rank's result travels as one array of uint64 words: a fixed header
 * (counts, elapsed time, the error, CPU time, timeline lengths, histogram
 * count/min/max/sum, the spec's region, seed and depth, what --verify
 * found: engine/verify.h's verify_result word by word), then both
 * histograms' buckets, then both timelines (ios, bytes, max latency per
 * second). MPI_Gather of the lengths, MPI_Gatherv of the words.
 */
#include "ranks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "engine/merge.h"

#define START_DELAY_NS 50000000LL	/* the common start: rank 0's clock + 50 ms */

/* the verify_result's words (verify.h), in the order of pack_verify */
enum { V_WORDS = 7 + 2 * VERIFY_KINDS + 1 + 7 };

enum { H_IOS = 0, H_ELAPSED = 4, H_INTERRUPTED, H_ERR_SET, H_ERR_OP, H_ERR_OFFSET,
       H_ERR_LENGTH, H_ERR_RESULT, H_CPU_USER, H_CPU_SYS, H_TL_LEN, H_HIST = H_TL_LEN + 2,
       H_SPEC = H_HIST + 8, H_VERIFY = H_SPEC + 4, H_WORDS = H_VERIFY + V_WORDS };

bool ranks_available(void)
{
	return true;
}

static bool launched_by_mpirun(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_SIZE");
}

/* Only rank 0 prints: the others' output goes to /dev/null. */
static void silence(void)
{
	int fd = open("/dev/null", O_WRONLY);

	if (fd < 0)
		return;
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
}

int ranks_init(struct ranks *r, int *argc, char ***argv, struct errmsg *err)
{
	int provided;

	*r = (struct ranks){ .rank = 0, .size = 1, .mpi = false };
	if (!launched_by_mpirun())
		return 0;
	/* the jobs' worker threads never call MPI: only the main thread does */
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
		return errmsg_set(err, -EIO, "cannot join the MPI job (MPI_Init_thread failed)");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &r->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &r->size);
	r->mpi = true;
	if (r->rank)
		silence();
	return 0;
}

void ranks_finalize(struct ranks *r)
{
	if (r->mpi)
		MPI_Finalize();
	r->mpi = false;
}

int ranks_agree(const struct ranks *r, int status, bool primary, struct errmsg *err)
{
	int mine[2] = { status, status && primary }, *all = NULL, worst = status;
	char *texts = NULL;
	int pick = -1;

	if (!r->mpi)
		return status;
	if (!r->rank) {
		all = malloc(2 * sizeof(int) * (size_t)r->size);
		texts = malloc(sizeof(err->text) * (size_t)r->size);
	}
	MPI_Gather(mine, 2, MPI_INT, all, 2, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Gather(err->text, sizeof(err->text), MPI_CHAR, texts, sizeof(err->text), MPI_CHAR, 0,
		   MPI_COMM_WORLD);
	for (int i = 0; !r->rank && all && i < r->size; i++) {
		if (all[2 * i] > worst)
			worst = all[2 * i];
		if (all[2 * i] && (pick < 0 || (all[2 * i + 1] && !all[2 * pick + 1])))
			pick = i;
	}
	if (pick >= 0 && texts)
		errmsg_set(err, -EIO, "rank %d: %s", pick, texts + (size_t)pick * sizeof(err->text));
	MPI_Bcast(&worst, 1, MPI_INT, 0, MPI_COMM_WORLD);
	free(all);
	free(texts);
	return worst;
}

void ranks_share(const struct ranks *r, uint64_t *value)
{
	if (r->mpi)
		MPI_Bcast(value, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
}

static long long realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int ranks_gate(void *ctx, int status, struct errmsg *err)
{
	const struct ranks *r = ctx;
	int failed = status != 0, any;
	long long start;
	struct timespec at;

	if (!r->mpi)
		return status;
	MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (status)
		return status;
	if (any)
		return errmsg_set(err, -ECANCELED, "another rank could not start");
	MPI_Barrier(MPI_COMM_WORLD);
	start = realtime_ns() + START_DELAY_NS;
	MPI_Bcast(&start, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
	at = (struct timespec){ .tv_sec = start / 1000000000LL, .tv_nsec = start % 1000000000LL };
	while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, NULL) == EINTR)
		;
	return 0;
}

static void pack_verify(const struct verify_result *v, uint64_t *w)
{
	const struct verify_failure *f = &v->first;
	uint64_t head[7] = { v->mode, v->generation, v->block_bytes, v->blocks_written,
			     v->blocks_checked, v->pass_ios, v->pass_ns };
	uint64_t first[7] = { f->kind, f->offset, f->expected_generation, f->expected_sequence,
			      f->found_generation, f->found_sequence, f->found_offset };

	memcpy(w, head, sizeof(head));
	w += 7;
	for (int k = 0; k < VERIFY_KINDS; k++) {
		*w++ = v->count[k];
		*w++ = v->first_offset[k];
	}
	*w++ = v->failures;
	memcpy(w, first, sizeof(first));
}

static void unpack_verify(const uint64_t *w, struct verify_result *v)
{
	*v = (struct verify_result){ .mode = (enum verify_mode)w[0], .generation = w[1],
		.block_bytes = w[2], .blocks_written = w[3], .blocks_checked = w[4],
		.pass_ios = w[5], .pass_ns = w[6] };
	w += 7;
	for (int k = 0; k < VERIFY_KINDS; k++) {
		v->count[k] = *w++;
		v->first_offset[k] = *w++;
	}
	v->failures = *w++;
	v->first = (struct verify_failure){ .kind = (enum verify_kind)w[0], .offset = w[1],
		.expected_generation = w[2], .expected_sequence = w[3], .found_generation = w[4],
		.found_sequence = w[5], .found_offset = w[6] };
}

static size_t packed_words(const struct run_result *res)
{
	return H_WORDS + 2 * (size_t)HIST_BUCKETS +
	       3 * (res->op[0].timeline.len + res->op[1].timeline.len);
}

static void pack(const struct run_result *res, const struct job_spec *spec, uint64_t *w)
{
	uint64_t *p = w + H_WORDS;

	memset(w, 0, H_WORDS * sizeof(*w));
	for (int k = 0; k < 2; k++) {
		const struct op_result *op = &res->op[k];
		const struct histogram *h = &op->lat;

		w[H_IOS + 2 * k] = op->ios;
		w[H_IOS + 2 * k + 1] = op->bytes;
		w[H_TL_LEN + k] = op->timeline.len;
		memcpy(&w[H_HIST + 4 * k], (uint64_t[4]){ h->count, h->min, h->max, h->sum },
		       4 * sizeof(uint64_t));
		memcpy(p, h->buckets, sizeof(h->buckets));
		p += HIST_BUCKETS;
	}
	for (int k = 0; k < 2; k++)
		for (size_t s = 0; s < res->op[k].timeline.len; s++, p += 3)
			memcpy(p, (uint64_t[3]){ res->op[k].timeline.seconds[s].ios,
						 res->op[k].timeline.seconds[s].bytes,
						 res->op[k].timeline.seconds[s].max_lat_ns },
			       3 * sizeof(uint64_t));
	w[H_ELAPSED] = res->elapsed_ns;
	w[H_INTERRUPTED] = res->interrupted;
	w[H_ERR_SET] = res->error.set;
	w[H_ERR_OP] = (uint64_t)res->error.op;
	w[H_ERR_OFFSET] = res->error.offset;
	w[H_ERR_LENGTH] = res->error.length;
	w[H_ERR_RESULT] = (uint64_t)res->error.result;
	w[H_CPU_USER] = (uint64_t)(res->cpu_user_s * 1e9);
	w[H_CPU_SYS] = (uint64_t)(res->cpu_sys_s * 1e9);
	memcpy(&w[H_SPEC], (uint64_t[4]){ spec->offset, spec->length, spec->seed, spec->qd },
	       4 * sizeof(uint64_t));
	pack_verify(&res->verify, &w[H_VERIFY]);
}

static int unpack(const uint64_t *w, struct run_result *res, struct job_spec *spec)
{
	const uint64_t *p = w + H_WORDS + 2 * (size_t)HIST_BUCKETS;

	for (int k = 0; k < 2; k++) {
		struct op_result *op = &res->op[k];
		size_t len = w[H_TL_LEN + k];

		op->ios = w[H_IOS + 2 * k];
		op->bytes = w[H_IOS + 2 * k + 1];
		op->lat.count = w[H_HIST + 4 * k];
		op->lat.min = w[H_HIST + 4 * k + 1];
		op->lat.max = w[H_HIST + 4 * k + 2];
		op->lat.sum = w[H_HIST + 4 * k + 3];
		memcpy(op->lat.buckets, w + H_WORDS + (size_t)k * HIST_BUCKETS,
		       sizeof(op->lat.buckets));
		if (len && timeline_grow(&op->timeline, len - 1))
			return -ENOMEM;
		for (size_t s = 0; s < len; s++, p += 3)
			op->timeline.seconds[s] = (struct timeline_second){ p[0], p[1], p[2] };
	}
	res->elapsed_ns = w[H_ELAPSED];
	res->interrupted = w[H_INTERRUPTED];
	res->error = (struct run_error){ .set = w[H_ERR_SET], .op = (enum io_op)w[H_ERR_OP],
		.offset = w[H_ERR_OFFSET], .length = (uint32_t)w[H_ERR_LENGTH],
		.result = (int64_t)w[H_ERR_RESULT] };
	res->cpu_user_s = (double)w[H_CPU_USER] / 1e9;
	res->cpu_sys_s = (double)w[H_CPU_SYS] / 1e9;
	spec->offset = w[H_SPEC];
	spec->length = w[H_SPEC + 1];
	spec->seed = w[H_SPEC + 2];
	spec->qd = (unsigned)w[H_SPEC + 3];
	unpack_verify(&w[H_VERIFY], &res->verify);
	return 0;
}

/* Rank 0's share of the gathering: lengths to displacements, then unpack. */
static int gather_root(const struct ranks *r, const uint64_t *mine, int n,
		       struct run_result *all, struct job_spec *specs)
{
	int *counts = calloc((size_t)r->size, sizeof(int)), *displs = calloc((size_t)r->size, sizeof(int));
	uint64_t *words = NULL;
	long long total = 0;
	int ret = 0;

	MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
	for (int i = 0; counts && displs && i < r->size; i++) {
		displs[i] = (int)total;
		total += counts[i];
	}
	if (counts && displs && total < INT32_MAX)
		words = malloc((size_t)total * sizeof(*words));
	/* every rank takes part in the Gatherv even when rank 0 is out of memory */
	MPI_Gatherv(mine, n, MPI_UINT64_T, words, counts, displs, MPI_UINT64_T, 0,
		    MPI_COMM_WORLD);
	for (int i = 0; words && i < r->size && !ret; i++) {
		specs[i] = specs[0];
		ret = unpack(words + displs[i], &all[i], &specs[i]);
	}
	if (!words)
		ret = -ENOMEM;
	free(words);
	free(counts);
	free(displs);
	return ret;
}

int ranks_gather(const struct ranks *r, const struct run_result *mine,
		 const struct job_spec *spec, struct run_result *all, struct job_spec *specs)
{
	size_t n = packed_words(mine);
	uint64_t *words = malloc(n * sizeof(*words));
	int count = words ? (int)n : 0, ret = 0;

	if (!r->mpi) {
		free(words);
		specs[0] = *spec;
		return run_result_merge(&all[0], mine);
	}
	if (words)
		pack(mine, spec, words);
	if (!r->rank) {
		specs[0] = *spec;
		ret = gather_root(r, words, count, all, specs);
	} else {
		MPI_Gather(&count, 1, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
		MPI_Gatherv(words, count, MPI_UINT64_T, NULL, NULL, NULL, MPI_UINT64_T, 0,
			    MPI_COMM_WORLD);
	}
	free(words);
	return ret;
}
