/*
 * fuzz_sim_ini.c — libFuzzer harness of INI device files of simulated drives
 * (sim/spec.c through inih), read by path as `--target sim:FILE` reads them,
 * then shown as `sim show FILE` shows them.
 */
#include "fuzz_common.h"
#include "sim/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_spec spec;
	struct errmsg err;

	if (!sim_spec_parse(&spec, fuzz_file(data, size), &err)) {
		sim_spec_show(fuzz_null_stream(), &spec);
		sim_spec_release(&spec);
	}
	return 0;
}
