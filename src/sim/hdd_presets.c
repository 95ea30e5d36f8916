/*
 * hdd_presets.c — hard disks calibrated against what was measured on them,
 * as settings over the hdd model's defaults (see hdd_model.c for meanings).
 *
 * wd6400aaks: WD Caviar Blue 640 GB (2 platters, 16 MB buffer, SATA 3G).
 * Spec sheet: 8.9 ms average read seek (10.9 ms write: 2 ms more settling),
 * 2.0 ms track to track, 21 ms full stroke, 4.2 ms average latency. The
 * remaining figures reproduce the seeds' measurements: 0.5 KiB random reads
 * at QD1 13.6 ms; 512 MiB random transfers at 85 MiB/s (outer + inner = 2 ×
 * 85, ~108 MiB/s at the outer edge as measured); 0.5 KiB random writes 7 ms
 * with the write cache on, 17 ms with it off (write_settle_ms); 4 KiB random
 * reads ~1.4× faster at QD32 than at QD1, and gradually so: the reordering
 * (ncq_aging, ncq_fuzz_ms) follows the gain of a measured 7200 rpm disk (the
 * HGST fio data in shared/data/fio-plot: 1.00 1.02 1.10 1.22 1.31 1.39 from QD1
 * to QD32; the preset gives 1.00 1.00 1.09 1.19 1.30 1.37). Exact SPTF would
 * gain 2.3× and all of it by QD8.
 */
#include "hdd.h"

const struct sim_preset sim_hdd_presets[] = {
	{ "wd6400aaks", &sim_hdd_model,
	  "capacity=640135028736,rpm=7200,outer_mib_s=108,inner_mib_s=62,zones=30,"
	  "seek_track_ms=2,seek_avg_ms=8.9,seek_full_ms=21,write_settle_ms=3.4,"
	  "cmd_overhead_ms=0.03,access_overhead_ms=0.47,bus_mib_s=300,"
	  "cache_mib=16,cache_segments=16,write_cache=on,wcache_extents=512,"
	  "ncq_depth=32,ncq_aging=0.04,ncq_fuzz=16",
	  "WD Caviar Blue 640 GB, 7200 rpm" },
	{ NULL, NULL, NULL, NULL },
};
