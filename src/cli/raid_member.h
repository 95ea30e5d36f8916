/*
 * raid_member.h — the member drives of `iomodel raid`, loaded from what the
 * user has: a model file (`characterize -o`, `fit -o`), a directory of
 * measurements (fio JSON, iomodel JSON, CSV: fitted as `iomodel fit` does,
 * and the measured points kept for the rate at each queue depth), or a
 * simulated drive (`sim:PRESET`: characterized first, quickly, on its
 * virtual clock; its zone rates and capacity read from its parameters).
 *
 * The rate a member gives the planner (raid_member.iops_at) at a size and a
 * depth comes from measured points of that direction and size when there
 * are any (the mean of the points at each depth, linear between depths,
 * the deepest one beyond them), else from the fitted model
 * (drive_model_predict; a model without queue-depth data gives its QD1 rate
 * at every depth).
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

struct raid_member_src {
	struct raid_member m;		/* m.ctx points back here */
	char name[256];
	bool has_model;
	struct drive_model dm;
	struct point_set ps;		/* measured points, may be empty */
	double outer_bps, inner_bps;	/* zone rates of an HDD, 0 when unknown */
	bool simulated;			/* a sim: drive, or files that say they came from one */
};

/*
 * Load `spec`: "sim:..." a simulated drive, a directory when `is_dir`, else a
 * model file. Returns an exit status, after one line on stderr when it is
 * not EXIT_OK; release `src` in any case.
 */
int raid_member_load(struct raid_member_src *src, const char *spec, bool is_dir);
void raid_member_release(struct raid_member_src *src);

#endif
