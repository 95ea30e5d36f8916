/* lat_keys.c — the latency statistic names and levels of lat_keys.h. */
#include "lat_keys.h"

const char *const lat_key_names[LAT_KEYS] = {
	"min", "mean", "p50", "p90", "p95", "p99", "p999", "max",
};

const char *const lat_key_labels[LAT_KEYS] = {
	"min", "mean", "p50", "p90", "p95", "p99", "p99.9", "max",
};

const double lat_pct_levels[LAT_PCTS] = { 50, 90, 95, 99, 99.9 };
