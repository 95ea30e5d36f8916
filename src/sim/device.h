/*
 * device.h — what every simulated drive model provides, and what the
 * virtual-clock backend (backend/sim.c) expects of it.
 *
 * A model is an event-driven timing model, not a data store: it decides when
 * each request completes, given the device's state, and keeps the state
 * (head position, caches, flash mapping) that later requests depend on. The
 * backend owns the virtual clock and drives a model with three calls:
 *
 *   submit(d, req, now)        the host hands over a request at time `now`
 *                              (non-decreasing from call to call);
 *   next_completion(d)         the earliest time at which a request already
 *                              submitted completes, UINT64_MAX if none (a
 *                              model may take here the scheduling decisions
 *                              that time depends on: not const);
 *   complete(d, now, out, max) hand back up to `max` requests whose
 *                              completion time is <= now, each with
 *                              complete_ns and result (bytes, or -errno) set;
 *                              the backend calls it with now equal to the
 *                              value next_completion() returned.
 *
 * Work a device does on its own (destaging a write cache, garbage collection)
 * is modelled as time the device's resources are busy; it shows up as later
 * completions, never as events of its own.
 *
 * Models return 0 / -errno and never print. Same configuration + same seed
 * gives the same completion times, bit for bit.
 */
#ifndef IOMODEL_SIM_DEVICE_H
#define IOMODEL_SIM_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/io_request.h"
#include "util/errmsg.h"

/* Device-side counters, reported in the "device" object of a sim run. */
struct sim_counters {
	uint64_t host_read_bytes;
	uint64_t host_write_bytes;
	uint64_t media_read_bytes;	/* flash pages or platter sectors read */
	uint64_t media_write_bytes;	/* flash pages programmed, sectors written */
	uint64_t erases;		/* flash erase-block erases */
	uint64_t merges;		/* block FTL read-modify-write merges */
	uint64_t gc_page_moves;		/* page FTL: valid pages copied by GC */
	uint64_t cache_hits;		/* reads served from the device cache */
	uint64_t seeks;			/* HDD: head movements */
};

struct sim_device;

struct sim_device_ops {
	int (*submit)(struct sim_device *d, struct io_request *req, uint64_t now);
	uint64_t (*next_completion)(struct sim_device *d);
	unsigned (*complete)(struct sim_device *d, uint64_t now,
			     struct io_request **out, unsigned max);
	void (*counters)(const struct sim_device *d, struct sim_counters *c);
	void (*destroy)(struct sim_device *d);
	/*
	 * Forget [offset, offset + length) (TRIM); takes no simulated time.
	 * NULL, or -EOPNOTSUPP, for a drive that does not take discards.
	 */
	int (*discard)(struct sim_device *d, uint64_t offset, uint64_t length);
	/*
	 * Optional (NULL: none): the counters of each member of an array, up to
	 * `max` of them; returns how many the device has.
	 */
	unsigned (*member_counters)(const struct sim_device *d, struct sim_counters *out,
				    unsigned max);
	/*
	 * Optional (NULL: the backend's store holds the data, sim/store.h): for
	 * verified runs, keep the data of every request from now on — fill each
	 * read's buffer and take each write's at completion (an array: in its
	 * members, its cache and parity), at most `limit` bytes per store.
	 * The backend then moves no data. 0 or -ENOMEM.
	 */
	int (*keep_data)(struct sim_device *d, uint64_t limit);
	/*
	 * Optional (NULL: none): a request for [offset, offset + length) is
	 * about to be submitted; the model may start loading the state it will
	 * look up (a map entry), so that the loads of several requests overlap,
	 * and keep the hint to load more for it at the next one. A hint only:
	 * it changes no result.
	 */
	void (*prefetch)(struct sim_device *d, uint64_t offset, uint32_t length);
	/*
	 * Optional (NULL: not offered): from now on the caller never calls
	 * next_completion() or complete(). submit() then sets the request's
	 * result and complete_ns (its completion time, which nothing later
	 * changes, and later than `now` for a request inside the capacity
	 * and not empty), keeps no use of the request once it
	 * returns, and the device forgets a request by itself once a later
	 * submission is at or past its time. An array whose members all take
	 * this keeps the times itself (raid.c). With `check_only`, change
	 * nothing, only answer. 0, or -EOPNOTSUPP when the device cannot
	 * promise it (its configuration lets a request complete at once).
	 */
	int (*detach)(struct sim_device *d, bool check_only);
};

/* The most members an array reports counters for. */
#define SIM_MAX_MEMBERS 64

/* Each model embeds this as the first member of its own state. */
struct sim_device {
	const struct sim_device_ops *ops;
	uint64_t capacity;		/* bytes the host sees */
	uint32_t sector;		/* smallest IO unit in bytes (512) */
};

/*
 * A model: its name, its configuration struct (described by a parameter
 * table, see params.h), how to check it and how to build a device from it.
 */
struct sim_param;

struct sim_model {
	const char *name;		/* "hdd", "ssd" */
	const char *summary;		/* one line for `sim list` */
	size_t config_size;
	const struct sim_param *params;	/* terminated by an entry with key NULL */
	/* Fill `config` with the model's defaults (every parameter set). */
	void (*defaults)(void *config);
	/* Reject impossible geometry with a one-line message. */
	int (*check)(const void *config, struct errmsg *err);
	/*
	 * Print quantities derived from the parameters, one "key value unit
	 * meaning" line each (e.g. the merge unit of a block FTL), for `sim show`.
	 */
	void (*describe)(FILE *f, const void *config);
	/*
	 * Bytes of state create() would allocate for a checked `config` (maps,
	 * block tables), so that an oversized drive is refused before it is
	 * built. NULL for a model whose state is small whatever its parameters.
	 */
	uint64_t (*memory)(const void *config);
	int (*create)(const void *config, uint64_t seed, struct sim_device **out,
		      struct errmsg *err);
};

extern const struct sim_model sim_hdd_model;
extern const struct sim_model sim_ssd_model;

/*
 * A preset: a model plus "key=value,key=value" settings applied over the
 * model's defaults, calibrated to a real drive. Each model file set keeps its
 * presets in a table ending with a NULL name.
 */
struct sim_preset {
	const char *name;		/* "wd6400aaks" */
	const struct sim_model *model;
	const char *settings;
	const char *summary;		/* one line for `sim list` */
};

extern const struct sim_preset sim_hdd_presets[];
extern const struct sim_preset sim_ssd_presets[];

#endif
