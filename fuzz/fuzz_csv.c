/*
 * fuzz_csv.c — libFuzzer harness of the CSV importer (io/import_csv.c) and
 * of the models fitted to what it reads (model/drive_model.c).
 */
#include "fuzz_common.h"
#include "io/import.h"
#include "model/drive_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct point_set ps;
	struct drive_model m;
	struct errmsg err;

	point_set_init(&ps);
	if (!import_csv(&ps, "fuzz.csv", (const char *)data, size, &err) && ps.len &&
	    !drive_model_fit(&ps, &m, &err))
		drive_model_release(&m);
	point_set_release(&ps);
	return 0;
}
