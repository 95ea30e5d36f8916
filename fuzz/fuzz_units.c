/*
 * fuzz_units.c — libFuzzer harness of util/units.h: sizes, durations and
 * counts as the command line spells them. Checks that whatever parse_size()
 * accepts, format_size_exact() spells so that it reads back the same.
 */
#include <errno.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "util/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), buf[64];
	uint64_t v = 0, back = 0;

	if (!parse_size(text, &v)) {
		format_size(buf, sizeof(buf), v);
		format_size_exact(buf, sizeof(buf), v);
		if (parse_size(buf, &back) || back != v)
			abort();	/* the exact spelling must read back */
	}
	(void)parse_duration_ns(text, &v);
	(void)parse_count(text, 1, 1024, &v);
	(void)parse_count(text, 0, UINT64_MAX, &v);
	free(text);
	return 0;
}
