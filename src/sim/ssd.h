/*
 * ssd.h — the simulated flash SSD (model "ssd", sim_ssd_model in device.h):
 * its configuration, the geometry derived from it, and the few functions
 * that reach past the device interface (TRIM of a range, the state set-up,
 * tests that look at the flash mapping).
 *
 * The drive is a controller in front of `channels` flash channels. Pages
 * are read and programmed, erase blocks erased, each taking a channel's
 * time; the host interface moves data at `bus_mib_s`. The controller's front
 * end takes one command at a time: a read's data starts to move `cmd_us`
 * after it enters; a command that does not continue the previous one of its
 * direction (a scattered address: mapping work) holds the front end
 * `cmd_busy_us`, a continuing one its latency (write_cmd_us, write_busy_us
 * for writes). Busy = latency (the default) serializes the commands; busy <
 * latency is a pipelined front end; busy > latency is firmware work after
 * the data moves, which limits random IOPS at depth but not the latency of
 * a sequential stream at QD1. Two flash translation
 * layers decide what flash work a host write costs:
 *   block  whole merge units (erase block x channels, striped page by page
 *          over the channels) are mapped; a write that does not cover a
 *          unit whole merges it: read the rest, erase, program it all.
 *   page   every page is mapped on its own; writes go to an open block per
 *          channel, and greedy garbage collection reclaims the block with
 *          the fewest valid pages when a channel runs out of free blocks.
 *
 * `spare` is the fraction of the raw flash the host does not see:
 *   raw = capacity / (1 - spare), rounded up to whole erase blocks on every
 *   channel. Write-amplification theory uses the over-provisioning ratio
 *   rho = (raw - capacity) / capacity = spare / (1 - spare).
 *
 * The files: ssd.c (device interface, timing), ssd_config.c (parameters,
 * check, describe), ssd_block_ftl.c, ssd_page_ftl.c, ssd_page_state.c
 * (fresh/used/trimmed set-up of the page FTL), ssd_presets.c.
 */
#ifndef IOMODEL_SIM_SSD_H
#define IOMODEL_SIM_SSD_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/device.h"
#include "util/errmsg.h"

enum ssd_ftl {
	SSD_FTL_BLOCK,
	SSD_FTL_PAGE,
};

/* What a block FTL reads to merge a partly written unit. */
enum ssd_merge {
	SSD_MERGE_UNTOUCHED,	/* only the pages the write leaves (newer controllers) */
	SSD_MERGE_WHOLE,	/* the whole unit, then merged and rewritten (JMF602) */
};

enum ssd_state {
	SSD_FRESH,		/* never written: every block erased */
	SSD_USED,		/* filled, then overwritten at random (steady state) */
	SSD_TRIMMED,		/* used, then all but `live` of it trimmed */
};

/* The configuration behind the parameter table (see ssd_config.c). */
struct ssd_config {
	uint64_t capacity;		/* bytes the host sees */
	uint64_t page_kib;
	uint64_t erase_block_kib;
	uint64_t channels;
	double read_us;			/* per page, per channel */
	double program_us;		/* per page, per channel */
	double erase_ms;		/* per erase block, per channel */
	double bus_mib_s;
	double cmd_us;			/* controller time before a read's data moves */
	double write_cmd_us;		/* the same for a write; < 0: cmd_us */
	double cmd_busy_us;		/* a scattered read holds the front end; < 0: cmd_us */
	double write_busy_us;		/* a scattered write holds it; < 0: write_cmd_us */
	uint64_t ncq;			/* commands in service at once */
	double spare;			/* fraction of raw flash hidden */
	bool trim;
	bool write_cache;
	uint64_t cache_kib;
	unsigned ftl;			/* enum ssd_ftl */
	unsigned merge;			/* enum ssd_merge: block FTL, partial writes */
	unsigned state;			/* enum ssd_state */
	double live;			/* trimmed state: fraction kept */
	double time_spread;		/* command and flash op times uniform in [1 - s, 1 + s] x nominal */
	double stall_rate;		/* chance per command of a controller stall */
	double stall_ms;		/* how long a stall holds the controller */
	bool lockstep;			/* block FTL: one spread draw times every channel */
	double merge_stall_rate;	/* block FTL: chance that a merge of a mapped unit stalls */
	double merge_stall_ms;		/* how long such a stall holds the unit's channels */
};

/* Sizes that follow from a configuration; all counts, sizes in bytes. */
struct ssd_geometry {
	uint64_t page;			/* flash page */
	uint64_t ppb;			/* pages per erase block */
	uint64_t channels;
	uint64_t user_pages;		/* capacity / page */
	uint64_t user_blocks;		/* capacity / erase block */
	uint64_t blocks_per_chan;	/* raw erase blocks on one channel */
	uint64_t blocks;		/* raw erase blocks on the drive */
	uint64_t raw_pages;
	uint64_t unit;			/* block FTL merge unit: erase block x channels */
	uint64_t units;			/* merge units the host sees */
	unsigned map_bits;		/* page FTL: bits of one L2P or P2L entry (32: plain) */
};

/* The least spare erase blocks per channel the page FTL works with. */
#define SSD_MIN_SPARE_BLOCKS 4

/*
 * The page FTL keeps its two maps (logical -> physical, physical -> logical)
 * as 32-bit words while together they take at most this many bytes (drives
 * up to about 490 GiB at 4 KiB pages and 7 % spare), and packed to the
 * bits a page number needs beyond that: slower to read, but a 512 GiB drive
 * then fits in 1 GiB.
 */
#define SSD_PLAIN_MAPS (1ULL << 30)

/*
 * A page-FTL drive whose tables take at most this many bytes together
 * (drives up to about 15 GiB at 4 KiB pages) has its maps, block table and
 * live bits faulted in when it is built: the kernel zeroes fresh memory on
 * first touch, and otherwise did so in the measured run of a fresh drive
 * (15 % of the time of an 8-member RAID 6 of 4 GiB SSDs, and as system
 * time that varied from run to run). A run that writes touches these
 * nearly whole anyway. Reads of a fresh drive's never-written L2P regions
 * do not load the map (ssd_dev.h, SSD_L2P_GROUP_SHIFT), as a lazy L2P
 * served them from the kernel's zero page, always in cache (faulted in
 * without that, the RAID 6's random reads were 8-14 % slower).
 * Larger tables stay lazy, so a fresh 512 GiB drive builds at once and
 * takes only the memory its writes reach.
 */
#define SSD_PREFAULT_MAX (32ULL << 20)

/*
 * Derive `g` from `c`; -EINVAL with a one-line message when the geometry is
 * impossible (this is the model's check()).
 */
int ssd_geometry(const struct ssd_config *c, struct ssd_geometry *g, struct errmsg *err);

/* Bytes of memory a device of this geometry allocates (maps, block table). */
uint64_t ssd_memory_bytes(const struct ssd_geometry *g, unsigned ftl);

/*
 * Steady-state write amplification of uniform random page writes under
 * FIFO garbage collection with over-provisioning ratio `rho` (spare / user):
 * WA = a / (a + W0(-a e^-a)), a = 1 + rho; 0 when rho <= 0. Greedy
 * collection, as the page FTL does it, comes out a few percent below.
 */
double ssd_wa_theory(double rho);

/*
 * TRIM [offset, offset + length) of an ssd device: the drive forgets the
 * data of every page (page FTL) or merge unit (block FTL) the range covers
 * whole. Takes no simulated time. -EOPNOTSUPP when the drive has trim=off,
 * -EINVAL outside the capacity. state=trimmed is a used drive after this
 * (laid out directly by the page FTL); the engine has no trim op yet.
 */
int ssd_trim(struct sim_device *dev, uint64_t offset, uint64_t length);

/* Pages (page FTL) or merge units (block FTL) holding host data. */
uint64_t ssd_valid_count(const struct sim_device *dev);

/*
 * Walk the page FTL's structures and verify its invariants (see
 * ssd_page_ftl.c); 0, or -EUCLEAN naming the first broken one in `err`.
 * For tests: it reads every map entry.
 */
int ssd_verify(const struct sim_device *dev, struct errmsg *err);

#endif
