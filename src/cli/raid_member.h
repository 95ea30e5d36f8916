/*
 * raid_member.h — the member drives of `iomodel raid`, loaded from what the
 * user has: a model file (`characterize -o`, `fit -o`; one measured on a
 * sim: drive also gives its points and, from its "source", that drive's
 * zone rates and mechanics as a sim: member does), a directory of
 * measurements (fio JSON, iomodel JSON, CSV: fitted as `iomodel fit` does,
 * and the measured points kept for the rate at each queue depth), or a
 * simulated drive (`sim:PRESET`: characterized first, as `characterize`
 * does, on its virtual clock; its zone rates, capacity and, for a disk, its
 * head mechanics (model/raid.h, struct raid_mech) read from its parameters).
 *
 * The rate a member gives the planner (raid_member.iops_at) at a size and a
 * depth comes from measured points of that direction and size when there
 * are any (the mean of the points at each depth, linear between depths,
 * the deepest one beyond them), else from the fitted model
 * (drive_model_predict; a model without queue-depth data gives its QD1 rate
 * at every depth). A hard disk asked for a depth its points at that size do
 * not reach (characterize measures depth at 4 KiB only) takes its QD1 time
 * at the size, linear between the measured sizes, less the time its
 * measured depth curve saves at that depth: reordering a queue shortens
 * seeks and rotational waits, not transfers.
 *
 * `simulated` tells the planner whether the member's curve was measured
 * through a host (a real drive: its latency growth with depth includes the
 * host's path) or on a simulated drive, which has none: a sim: member, a
 * model file whose "source" is a sim: drive, or a directory whose iomodel
 * JSON files all ran on sim: targets.
 */
#ifndef IOMODEL_RAID_MEMBER_H
#define IOMODEL_RAID_MEMBER_H

#include <stdbool.h>

#include "model/drive_model.h"
#include "model/points.h"
#include "model/raid.h"
#include "sim/hdd.h"

struct raid_member_src {
	struct raid_member m;		/* m.ctx points back here */
	char name[256];
	bool has_model;
	struct drive_model dm;
	struct point_set ps;		/* measured points, may be empty */
	double outer_bps, inner_bps;	/* zone rates of an HDD, 0 when unknown */
	struct hdd_seek_curve seek_curve;	/* a simulated HDD's (m.mech) */
	double seek_x1;			/* one track as a fraction of the stroke */
	bool simulated;			/* a sim: drive, or files that say they came from one */
	unsigned mirror_heads;		/* the most mirrored heads a read chooses among */
};

/*
 * Load `spec`: "sim:..." a simulated drive, a directory when `is_dir`, else a
 * model file; `mirror_heads`: the array's copies of each chunk (raid_copies),
 * how far a simulated disk's nearest-head seek is derived. Returns an exit
 * status, after one line on stderr when it is not EXIT_OK; release `src` in
 * any case.
 */
int raid_member_load(struct raid_member_src *src, const char *spec, bool is_dir,
		     unsigned mirror_heads);
void raid_member_release(struct raid_member_src *src);

/*
 * The STR (bytes/s) `characterize` would fit to an array that splits each
 * IO of size S into k member IOs of S/k in parallel: the member's measured QD1 times
 * at S/k (linear between its sizes), at each of its own sizes S, fitted
 * first-order; its times are not always linear in the size (a block-FTL
 * SSD's small writes run slower than its large ones). 0 when the member
 * has no measured QD1 points of `op`.
 */
double raid_member_split_str(const struct raid_member_src *src, enum io_op op, unsigned k);

/* What a member's profile (`iomodel profile --json`, schema iomodel.profile/1) gives the plan. */
struct raid_profile {
	double outer_bps, inner_bps;	/* mean rate of the first and last tenth of its points */
	uint64_t size;			/* the profiled target's bytes */
};

/*
 * Read the read profile at `path` (--profile). Returns an exit status,
 * after one line on stderr naming the file and what is wrong.
 */
int raid_member_profile_load(const char *path, struct raid_profile *out);

#endif
