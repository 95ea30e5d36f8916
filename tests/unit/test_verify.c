/*
 * test_verify.c — --verify below the command line: the block format (the
 * crc32c check value; every single flipped bit of a stamped block is
 * corruption, never a tear or an unstamped block; a tear at every sector
 * boundary is torn), the simulated drive's data store, and jobs on one
 * simulated drive through suite/measure.h (ios == 4096: one sequential pass
 * of the 16 MiB drive, else random): a clean write job reports
 * nothing, a later read-only job on the same drive learns the generation and
 * finds the region intact, and one expecting another generation finds every
 * block lost; every misdirected write at queue depth 1 is counted once, as
 * misdirected, never also as the lost write it leaves behind.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/verify_block.h"
#include "sim/store.h"
#include "suite/measure.h"
#include "util/rng.h"

static void crc_check_value(struct check_state *st)
{
	CHECK(st, verify_crc32c("123456789", 9) == 0xe3069283U, "crc32c check value: %08x",
	      verify_crc32c("123456789", 9));
}

static void stamped(void *buf, uint32_t len, uint64_t seq, uint64_t seed)
{
	struct rng rng;
	struct verify_id id = { 77, seq, 1ULL << 20, len };

	rng_init(&rng, seed);
	for (uint32_t i = 0; i < len / 8; i++)
		((uint64_t *)buf)[i] = rng_next(&rng);
	verify_block_stamp(buf, &id);
}

static void every_bit_flip_is_corruption(struct check_state *st)
{
	unsigned char block[512];
	struct verify_id found;
	unsigned wrong = 0;

	stamped(block, sizeof(block), 5, 1);
	CHECK(st, verify_block_inspect(block, sizeof(block), &found) == BLOCK_INTACT, "intact");
	CHECK(st, found.generation == 77 && found.sequence == 5 && found.offset == 1ULL << 20 &&
		  found.length == 512, "identity read back");
	for (unsigned bit = 0; bit < sizeof(block) * 8; bit++) {
		block[bit / 8] ^= (unsigned char)(1u << (bit % 8));
		wrong += verify_block_inspect(block, sizeof(block), &found) != BLOCK_DAMAGED;
		block[bit / 8] ^= (unsigned char)(1u << (bit % 8));
	}
	CHECK(st, wrong == 0, "%u of 4096 single-bit flips not seen as corruption", wrong);
}

static void tears_are_torn(struct check_state *st)
{
	unsigned char old[4096], new[4096], mix[4096], zero[4096] = { 0 };
	struct verify_id found;

	stamped(old, sizeof(old), 1, 2);
	stamped(new, sizeof(new), 2, 3);
	for (unsigned k = 1; k < 8; k++) {
		memcpy(mix, old, sizeof(mix));
		memcpy(mix, new, k * 512);
		CHECK(st, verify_block_inspect(mix, sizeof(mix), &found) == BLOCK_TORN &&
			  found.sequence == 2, "new %u sectors over an old block: torn", k);
		memcpy(mix, zero, sizeof(mix));
		memcpy(mix, new, k * 512);
		CHECK(st, verify_block_inspect(mix, sizeof(mix), &found) == BLOCK_TORN,
		      "new %u sectors over zeros: torn", k);
		memcpy(mix, zero, sizeof(mix));
		memcpy(mix + k * 512, new + k * 512, sizeof(mix) - k * 512);
		CHECK(st, verify_block_inspect(mix, sizeof(mix), &found) == BLOCK_TORN,
		      "new tail from sector %u over zeros: torn", k);
	}
	CHECK(st, verify_block_inspect(zero, sizeof(zero), &found) == BLOCK_UNSTAMPED &&
		  found.generation == 0, "zeros: unstamped");
	memset(mix, 0xa5, sizeof(mix));
	CHECK(st, verify_block_inspect(mix, sizeof(mix), &found) == BLOCK_UNSTAMPED,
	      "other data: unstamped");
}

static void store(struct check_state *st)
{
	struct sim_store *s;
	unsigned char in[10000], out[12000];

	CHECK(st, sim_store_create(&s, 4 * SIM_STORE_CHUNK) == 0, "create");
	for (unsigned i = 0; i < sizeof(in); i++)
		in[i] = (unsigned char)(i * 7 + 1);
	CHECK(st, !sim_store_holds(s, 0, 1ULL << 40), "empty holds nothing");
	CHECK(st, sim_store_write(s, 3000, in, sizeof(in)) == 0, "write across 4 chunks");
	memset(out, 0xff, sizeof(out));
	sim_store_read(s, 2000, out, sizeof(out));
	CHECK(st, out[0] == 0 && out[999] == 0 && !memcmp(out + 1000, in, sizeof(in)) &&
		  out[11000] == 0 && out[11999] == 0, "read back; never written is zeros");
	CHECK(st, sim_store_holds(s, 12000, 10) && !sim_store_holds(s, 16384, 4096),
	      "holds what was written, chunk-wise");
	CHECK(st, sim_store_bytes(s) == 4 * SIM_STORE_CHUNK, "4 chunks in use");
	CHECK(st, sim_store_write(s, 1ULL << 30, in, 1) == -ENOMEM, "past the limit: -ENOMEM");
	sim_store_free(s);
	CHECK(st, sim_store_create(&s, 1ULL << 30) == 0, "create a larger one");
	for (uint64_t i = 0; i < 5000; i++)	/* grows the table several times */
		sim_store_write(s, i * 3 * SIM_STORE_CHUNK, &i, sizeof(i));
	for (uint64_t i = 0, v; i < 5000; i++) {
		sim_store_read(s, i * 3 * SIM_STORE_CHUNK, &v, sizeof(v));
		if (v != i) {
			CHECK(st, v == i, "chunk %llu after growth", (unsigned long long)i);
			break;
		}
	}
	sim_store_free(s);
}

struct drive {
	struct measure_target m;
	struct run_result r;
};

static int job(struct drive *d, unsigned read_pct, unsigned qd, uint64_t generation,
	       uint64_t ios)
{
	struct job_spec spec = {
		.random = ios != 4096, .read_pct = read_pct, .bs = 4096, .align = 4096, .qd = qd,
		.max_ios = ios, .seed = ios, .verify = VERIFY_READ_BACK,
		.verify_generation = generation,
	};
	struct run_info info = { .rw = "randrw" };
	struct errmsg err;
	volatile sig_atomic_t stop = 0;
	int ret = measure_check_job(&d->m, &spec, &err);

	run_result_release(&d->r);
	run_result_init(&d->r);
	return ret ? ret : measure_run(&d->m, &spec, &stop, &d->r, &info, &err);
}

static int open_drive(struct drive *d, const char *path)
{
	struct target_request req = { .path = path, .direct = true, .writes = true };
	struct errmsg err;

	return measure_open(&d->m, &req, BACKEND_IO_URING, 1, &err);
}

static void jobs_on_one_drive(struct check_state *st)
{
	struct drive *d = calloc(1, sizeof(*d));
	const struct verify_result *v = &d->r.verify;

	run_result_init(&d->r);
	CHECK(st, open_drive(d, "sim:ssd,capacity=16m,spare=0.5") == 0, "open");
	CHECK(st, job(d, 0, 8, 41, 3000) == 0, "write job");
	CHECK(st, v->failures == 0 && v->blocks_written == 3000 && v->pass_ios == 4096 &&
		  v->blocks_checked == 3000 + 4096, "clean: %llu failures, %llu written, %llu checked",
	      (unsigned long long)v->failures, (unsigned long long)v->blocks_written,
	      (unsigned long long)v->blocks_checked);
	CHECK(st, job(d, 0, 4, 42, 4096) == 0 && v->failures == 0,
	      "a sequential write job covers every block");
	CHECK(st, job(d, 100, 4, 0, 3000) == 0, "read job");
	CHECK(st, v->generation == 42 && v->failures == 0 && v->blocks_checked == 3000,
	      "learned generation 42: %llu, %llu failures", (unsigned long long)v->generation,
	      (unsigned long long)v->failures);
	CHECK(st, job(d, 100, 4, 41, 2000) == 0 && v->failures == v->count[VERIFY_LOST] &&
		  v->failures > 1000, "expecting generation 41: lost writes only (%llu)",
	      (unsigned long long)v->failures);
	CHECK(st, v->first.kind == VERIFY_LOST && v->first.found_generation == 42 &&
		  v->first.expected_generation == 41, "first failure names both generations: "
	      "kind %d found %llu expected %llu", v->first.kind,
	      (unsigned long long)v->first.found_generation,
	      (unsigned long long)v->first.expected_generation);
	measure_close(&d->m);

	CHECK(st, open_drive(d, "sim:ssd,capacity=32m,spare=0.5,fault_misdirect_rate=0.03") == 0,
	      "open a misdirecting drive");
	CHECK(st, job(d, 30, 1, 43, 2500) == 0, "randrw job at qd 1");
	CHECK(st, d->m.report.faults.misdirected_writes > 30 &&
		  v->count[VERIFY_MISDIRECTED] == d->m.report.faults.misdirected_writes &&
		  v->failures == v->count[VERIFY_MISDIRECTED],
	      "misdirected %llu of %llu injected, %llu failures in all",
	      (unsigned long long)v->count[VERIFY_MISDIRECTED],
	      (unsigned long long)d->m.report.faults.misdirected_writes,
	      (unsigned long long)v->failures);
	measure_close(&d->m);
	run_result_release(&d->r);
	free(d);
}

int main(void)
{
	struct check_state st = { 0, 0 };

	crc_check_value(&st);
	every_bit_flip_is_corruption(&st);
	tears_are_torn(&st);
	store(&st);
	jobs_on_one_drive(&st);
	return check_exit(&st, "verify");
}
