/*
 * fuzz_results.c — libFuzzer harness of result files as `fit` and `report`
 * read them: the format told from the text (io/import.c), fio JSON
 * (import_fio.c), iomodel run and sweep JSON (import_iomodel.c), CSV; then
 * the models fitted to the points, and the report's own reading of the file
 * (report/inputs.c: runs, histograms, timelines).
 */
#include "fuzz_common.h"
#include "io/import.h"
#include "model/drive_model.h"
#include "report/inputs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_drive d;
	struct point_set ps;
	struct drive_model m;
	struct errmsg err;

	point_set_init(&ps);
	if (!import_points_text(&ps, "fuzz.json", (const char *)data, size, &err) &&
	    !drive_model_fit(&ps, &m, &err))
		drive_model_release(&m);
	point_set_release(&ps);
	if (!report_drive_load(&d, fuzz_file(data, size), NULL, &err))
		report_drive_release(&d);
	return 0;
}
