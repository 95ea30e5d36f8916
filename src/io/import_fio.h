/*
 * import_fio.h — internal to import_fio.c, import_fio_job.c and
 * import_fio_lat.c: the file being read, the workload of one of its jobs[]
 * entries, as told by its options, by fio's defaults, by its name (fio 2.x
 * records no options) and by its own totals, and the latency distribution
 * of a direction. The rules are in import.h.
 */
#ifndef IOMODEL_IMPORT_FIO_H
#define IOMODEL_IMPORT_FIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "import.h"

struct fio_file {
	struct point_set *ps;
	const char *name;		/* the input, first in every message */
	struct errmsg *err;
	struct import_warnings *warn;	/* may be NULL */
	const json_t *jobs;		/* jobs[], or client_stats[] of fio --client */
	const json_t *global;		/* "global options": an object, an array
					   (one per server, fio --client), or NULL */
	size_t *server;			/* with an array: entry i's server, else NULL */
};

/*
 * The global options of entry i: the object, or for fio --client with
 * several servers the element of the entry's server (servers numbered by
 * their first entry); NULL when there are none.
 */
const json_t *fio_entry_global(const struct fio_file *f, size_t i);

/* A jobs[] entry's workload. */
struct fio_job {
	bool random;
	uint64_t bs[2];		/* indexed by enum io_op */
	uint64_t ba[2];
	unsigned depth;		/* IOs in flight per job: iodepth, 1 for sync engines */
	unsigned numjobs;
	bool group_reporting;
};

/*
 * Tell the workload of entry i. Returns 0 with *job filled; 1 when it
 * cannot be told (mixed request sizes, no size anywhere, an option fio
 * would not have taken), with the reason in why[]; -errno with f->err
 * filled for malformed JSON.
 */
int fio_job_resolve(const struct fio_file *f, size_t i, struct fio_job *job, char *why,
		    size_t why_len);

/* One bucket of a fio latency histogram (json+ bins). */
struct fio_lat_bin {
	double s;		/* the bucket's value, in s */
	double count;		/* > 0 */
};

/*
 * The latency figures of one direction of a job, over its entries
 * (import_fio_lat.c): zeroed by the caller, fio_lat_add() for each entry
 * that did IO that way, then fio_lat_result(), then fio_lat_release().
 */
struct fio_lat {
	unsigned entries;		/* entries added */
	unsigned kinds;			/* of those, with percentiles or bins */
	enum point_lat_kind kind;	/* clat, or total when an entry has only lat_ns */
	bool mixed;			/* entries of different kinds: no result */
	double pct_s[LAT_PCTS];		/* the percentiles fio printed for the first entry */
	unsigned pct_entries;		/* entries with all of them */
	struct fio_lat_bin *bins;	/* every entry's buckets; owned */
	size_t n_bins, alloc_bins;
	unsigned bin_entries;		/* entries with buckets */
};

/* Add a direction object (jobs[i].read or .write). 0 or -ENOMEM. */
int fio_lat_add(struct fio_lat *l, const json_t *sec);
/*
 * Fill p->clat_pct_s, p->lat_kind and p->cdf: from the bins when every entry
 * had them, else fio's own percentiles when there was one entry, else zero.
 */
void fio_lat_result(struct fio_lat *l, struct perf_point *p);
void fio_lat_release(struct fio_lat *l);

#endif
