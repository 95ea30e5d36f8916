/*
 * lat_keys.h — the one list of latency statistics iomodel reports for an
 * operation, in order: min, mean, the percentiles 50, 90, 95, 99, 99.9, max.
 * The run table, CSV and JSON writers, the report's reader and tables and
 * the fio importer all index their latency arrays by this order.
 *
 * Invariants: lat_pct_levels[i] is the level of statistic LAT_FIRST_PCT + i
 * and rises strictly with i; a name is unique in each list.
 */
#ifndef IOMODEL_LAT_KEYS_H
#define IOMODEL_LAT_KEYS_H

enum {
	LAT_KEYS = 8,		/* min, mean, p50, p90, p95, p99, p99.9, max */
	LAT_PCTS = 5,		/* the percentiles among them */
	LAT_FIRST_PCT = 2,	/* index of p50 in the LAT_KEYS order */
};

/* Keys of JSON objects and CSV columns: "min", "mean", "p50", …, "p999", "max". */
extern const char *const lat_key_names[LAT_KEYS];
/* Column heads for people: "min", "mean", "p50", …, "p99.9", "max". */
extern const char *const lat_key_labels[LAT_KEYS];
/* The percentile levels, in %: 50, 90, 95, 99, 99.9. */
extern const double lat_pct_levels[LAT_PCTS];

#endif
