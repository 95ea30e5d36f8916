/*
 * fault.h — fault injection for simulated devices, off by default. Any
 * sim: target accepts these keys next to the model's own:
 *
 *   fault_eio=START-END     IOs touching bytes [START, END) fail with EIO
 *                           (sizes with suffixes, e.g. fault_eio=1g-2g)
 *   fault_eio_rate=P        each IO fails with EIO with probability P
 *   fault_lost_write_rate=P a write is acknowledged but never stored
 *   fault_misdirect_rate=P  a write is stored 1 to 4 request lengths before
 *                           or after where it was meant to go
 *   fault_torn_rate=P       only the first 1..n-1 sectors of an n-sector
 *                           write are stored (writes of 2 sectors or more)
 *   fault_bitflip_rate=P    a read returns data with one bit flipped
 *   spike_rate=P, spike_ms=MS  an IO completes MS later than the model says
 *
 * A write suffers at most one of lost, misdirected, torn (drawn in that
 * order); only IOs that succeed suffer them. The silent faults are counted
 * always, and change data only when the drive keeps it (sim/store.h, in
 * verified runs): there a flip only hits a read of data that was written (a
 * flip in never-written data is invisible to any check, so it is not
 * drawn), and the backend applies sim_fault_effect to the stored data.
 * EIO and latency spikes change what the host sees in every run.
 */
#ifndef IOMODEL_SIM_FAULT_H
#define IOMODEL_SIM_FAULT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/io_request.h"
#include "util/errmsg.h"
#include "util/rng.h"

struct sim_fault_config {
	uint64_t eio_start;
	uint64_t eio_end;		/* eio_start == eio_end: no range */
	double eio_rate;
	double lost_write_rate;
	double misdirect_rate;
	double bitflip_rate;
	double torn_rate;
	double spike_rate;
	double spike_ms;
};

struct sim_fault_counters {
	uint64_t eio;
	uint64_t lost_writes;
	uint64_t misdirected_writes;
	uint64_t bit_flips;
	uint64_t torn_writes;
	uint64_t spikes;
};

enum sim_data_fault {
	SIM_DATA_INTACT,
	SIM_DATA_LOST,		/* write: store nothing */
	SIM_DATA_MISDIRECTED,	/* write: store at `where` instead */
	SIM_DATA_TORN,		/* write: store only the first `where` bytes */
	SIM_DATA_FLIPPED,	/* read: flip bit `where` of what was read */
};

struct sim_fault_effect {
	uint64_t extra_ns;	/* a latency spike; 0 for none */
	enum sim_data_fault data;
	uint64_t where;
};

/* What the drive knows of a request, for the faults that depend on it. */
struct sim_fault_scope {
	uint64_t capacity;	/* misdirected writes land inside it */
	uint32_t sector;	/* torn writes tear at a sector boundary */
	bool data_written;	/* a read returns written data (always true without a store) */
};

/* Whether `key` is a fault key; if so, set it (-EINVAL with a message if bad). */
bool sim_fault_is_key(const char *key);
int sim_fault_set(struct sim_fault_config *f, const char *key, const char *value,
		  struct errmsg *err);
void sim_fault_show(FILE *f, const struct sim_fault_config *cfg);
bool sim_fault_any(const struct sim_fault_config *cfg);
/* Whether any fault that changes data (lost, misdirected, torn, flipped) is on. */
bool sim_fault_data_any(const struct sim_fault_config *cfg);

/*
 * Draw the faults of a request the device has just completed: may set its
 * result to -EIO, counts what it injects, and says in `fx` what to do to the
 * data and how much later the request completes.
 */
void sim_fault_apply(const struct sim_fault_config *cfg, struct rng *rng,
		     struct io_request *req, const struct sim_fault_scope *scope,
		     struct sim_fault_counters *counts, struct sim_fault_effect *fx);

#endif
