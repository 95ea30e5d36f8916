/*
 * fuzz_trace.c — libFuzzer harness of the block-trace reader of `iomodel
 * replay` (io/trace.c): the first byte picks the format (DiskSim ASCII,
 * blkparse text, DiskSim validation trace), a device to keep and the target
 * the trace must fit; the rest is the file, read through input_file_read()
 * as replay reads it, then filtered and checked as replay does.
 */
#include "fuzz_common.h"
#include "io/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum trace_format formats[] = { TRACE_DISKSIM, TRACE_BLKPARSE,
						     TRACE_VALIDATE };
	static const uint32_t aligns[] = { 1, 512, 4096, 3 };
	struct trace t = { 0 };
	struct errmsg err;
	uint8_t pick;

	if (!size)
		return 0;
	pick = data[0];
	if (trace_load(&t, fuzz_file(data + 1, size - 1), formats[pick % 3], &err))
		return 0;
	(void)trace_max_length(&t);
	if ((pick & 0x08) && trace_keep_device(&t, "fuzz", (pick >> 4) & 3, &err)) {
		trace_release(&t);
		return 0;
	}
	(void)trace_check_fits(&t, "fuzz", (pick & 0x80) ? UINT64_MAX : 1ULL << 30,
			       aligns[(pick >> 5) & 3], &err);
	trace_release(&t);
	return 0;
}
