/*
 * fuzz_model.c — libFuzzer harness of model JSON ("iomodel.model/1") as
 * `predict` reads it (io/model_json.c, then predictions over sizes and
 * depths) and as `report` reads it (report/inputs.c, report_model.c).
 */
#include "fuzz_common.h"
#include "io/model_output.h"
#include "model/drive_model.h"
#include "report/inputs.h"

static void predict_some(const struct drive_model *m)
{
	static const uint64_t sizes[] = { 512, 4096, 65536, 1 << 20, 1ULL << 40 };
	static const unsigned depths[] = { 1, 32, 1024 };

	for (int op = IO_READ; op <= IO_WRITE; op++) {
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			for (size_t k = 0; k < sizeof(depths) / sizeof(depths[0]); k++) {
				struct prediction p;
				struct errmsg err;

				(void)drive_model_predict(m, (enum io_op)op, sizes[i], depths[k],
							  sizes[i], &p, &err);
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size);
	struct report_drive d;
	struct drive_model m;
	struct errmsg err;

	if (!model_load_file(path, &m, &err)) {
		predict_some(&m);
		model_output_sheet(fuzz_null_stream(), "fuzz", &m);
		drive_model_release(&m);
	}
	if (!report_drive_load(&d, path, NULL, &err))
		report_drive_release(&d);
	return 0;
}
