/*
 * fault.h — fault injection for simulated devices, off by default. Any
 * sim: target accepts these keys next to the model's own:
 *
 *   fault_eio=START-END     IOs touching bytes [START, END) fail with EIO
 *                           (sizes with suffixes, e.g. fault_eio=1g-2g)
 *   fault_eio_rate=P        each IO fails with EIO with probability P
 *   fault_lost_write_rate=P a write is acknowledged but never stored
 *   fault_misdirect_rate=P  a write is stored at another place
 *   fault_bitflip_rate=P    a read returns data with a flipped bit
 *   spike_rate=P, spike_ms=MS  an IO completes MS later than the model says
 *
 * The models store no data, so lost, misdirected and flipped data are
 * counted (they are silent on a real drive too) for the verification work
 * that will read them; EIO and latency spikes change what the host sees.
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
	double spike_rate;
	double spike_ms;
};

struct sim_fault_counters {
	uint64_t eio;
	uint64_t lost_writes;
	uint64_t misdirected_writes;
	uint64_t bit_flips;
	uint64_t spikes;
};

/* Whether `key` is a fault key; if so, set it (-EINVAL with a message if bad). */
bool sim_fault_is_key(const char *key);
int sim_fault_set(struct sim_fault_config *f, const char *key, const char *value,
		  struct errmsg *err);
void sim_fault_show(FILE *f, const struct sim_fault_config *cfg);
bool sim_fault_any(const struct sim_fault_config *cfg);

/*
 * Apply the faults to a request the device has just completed: may set its
 * result to -EIO and count silent corruptions. Returns the extra latency in
 * ns (a spike), 0 for none.
 */
uint64_t sim_fault_apply(const struct sim_fault_config *cfg, struct rng *rng,
			 struct io_request *req, struct sim_fault_counters *counts);

#endif
