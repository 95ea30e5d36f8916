/*
 * sim.h — the virtual-clock backend: IOs go to a simulated device model
 * (sim/device.h) instead of the kernel, and time is the simulation's. The
 * clock starts at 0 and jumps from one completion to the next, so an hour of
 * simulated drive time takes as long as the model's arithmetic.
 */
#ifndef IOMODEL_BACKEND_SIM_H
#define IOMODEL_BACKEND_SIM_H

#include "backend/backend.h"
#include "sim/device.h"
#include "sim/fault.h"
#include "sim/store.h"

/*
 * Open a backend on `dev` (which it does not own: destroy it after
 * backend_close). With `store` (not owned either; NULL for none) the drive
 * keeps the data written and returns it on reads, faults applied. `faults`
 * is copied; `seed` drives the fault draws. The
 * virtual clock starts at `start_ns`: 0 for a new drive, or the time the
 * previous job on the same drive ended (read it with backend_now_ns()), so
 * the drive's own notion of time never runs backwards.
 */
int sim_backend_open(struct backend **out, const struct backend_params *p,
		     struct sim_device *dev, struct sim_store *store,
		     const struct sim_fault_config *faults, uint64_t seed, uint64_t start_ns,
		     struct errmsg *err);

/* The device's counters and the faults injected so far. */
/* The counters of each member of a simulated array (0 for a single drive). */
unsigned sim_backend_member_counters(struct backend *be, struct sim_counters *out,
				     unsigned max);
void sim_backend_counters(struct backend *be, struct sim_counters *c,
			  struct sim_fault_counters *f);

#endif
