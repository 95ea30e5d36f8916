/*
 * fuzz_sim_spec.c — libFuzzer harness of "sim:" target specs (sim/spec.c,
 * params.c, fault.c): presets, models and key=value overrides, then the
 * parameters and derived figures printed as `sim show` prints them.
 */
#include "fuzz_common.h"
#include "sim/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	struct sim_spec spec;
	struct errmsg err;

	if (!strchr(text, '/') && !sim_spec_parse(&spec, text, &err)) {	/* files: fuzz_sim_ini */
		sim_spec_show(fuzz_null_stream(), &spec);
		sim_spec_release(&spec);
	}
	free(text);
	return 0;
}
