/*
 * ssd_config.c — the "ssd" model's parameters: the table that names, bounds
 * and explains each one, the defaults, the geometry check that refuses
 * impossible drives, and the derived figures `sim show` prints (raw
 * capacity, erase blocks, STRs, the block FTL's merge unit and penalty, the
 * page FTL's steady-state write amplification and memory).
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "sim/params.h"
#include "sim/ssd.h"
#include "sim/ssd_dev.h"
#include "util/units.h"

static const char *const ftl_names[] = { "block", "page", NULL };
static const char *const merge_names[] = { "untouched", "whole", NULL };
static const char *const state_names[] = { "fresh", "used", "trimmed", NULL };

#define P(key, type, field, unit, meaning, lo, hi) \
	{ key, type, offsetof(struct ssd_config, field), unit, meaning, lo, hi, NULL }

static const struct sim_param ssd_params[] = {
	P("capacity", PARAM_BYTES, capacity, "bytes", "what the host sees", 1 << 20, 1ULL << 50),
	P("page_kib", PARAM_COUNT, page_kib, "KiB",
	  "flash page: the unit read or programmed", 1, 1024),
	P("erase_block_kib", PARAM_COUNT, erase_block_kib, "KiB",
	  "flash erase block, a multiple of the page", 1, 1 << 20),
	P("channels", PARAM_COUNT, channels, "",
	  "flash channels working in parallel; pages stripe over them", 1, 256),
	P("read_us", PARAM_NUMBER, read_us, "us", "read one page (per channel)", 0, 1e6),
	P("program_us", PARAM_NUMBER, program_us, "us", "program one page (per channel)", 0, 1e6),
	P("erase_ms", PARAM_NUMBER, erase_ms, "ms", "erase one erase block (per channel)", 0, 1e4),
	P("bus_mib_s", PARAM_NUMBER, bus_mib_s, "MiB/s", "host interface transfer rate", 1, 1e6),
	P("cmd_us", PARAM_NUMBER, cmd_us, "us",
	  "controller time from a read command's arrival until its data moves", 0, 1e6),
	P("write_cmd_us", PARAM_NUMBER, write_cmd_us, "us",
	  "the same for a write command (-1: cmd_us)", -1, 1e6),
	P("cmd_busy_us", PARAM_NUMBER, cmd_busy_us, "us",
	  "a read not continuing the last one holds the controller this long, the next "
	  "command waits (-1: cmd_us; less: pipelined; more: work after the data moves)",
	  -1, 1e6),
	P("write_busy_us", PARAM_NUMBER, write_busy_us, "us",
	  "the same for a write command (-1: write_cmd_us)", -1, 1e6),
	P("ncq", PARAM_COUNT, ncq, "", "commands worked on at once (1: no NCQ)", 1, 256),
	P("spare", PARAM_NUMBER, spare, "",
	  "fraction of raw flash hidden: raw = capacity/(1-spare), rho = spare/(1-spare)",
	  0, 0.9),
	{ "trim", PARAM_SWITCH, offsetof(struct ssd_config, trim), "",
	  "honour TRIM: trimmed data is dropped, not kept", 0, 0, NULL },
	{ "write_cache", PARAM_SWITCH, offsetof(struct ssd_config, write_cache), "",
	  "acknowledge writes once in the cache (flash work goes on behind)", 0, 0, NULL },
	P("cache_kib", PARAM_COUNT, cache_kib, "KiB",
	  "write cache: flash work of this much data can be pending", 0, 1ULL << 24),
	{ "ftl", PARAM_CHOICE, offsetof(struct ssd_config, ftl), "",
	  "block: unit mapping, partial writes merge; page: page mapping, greedy GC", 0, 0,
	  ftl_names },
	{ "merge", PARAM_CHOICE, offsetof(struct ssd_config, merge), "",
	  "block FTL, a write covering part of a unit: read the untouched pages only, or read "
	  "the whole unit, merge and rewrite it (JMF602)", 0, 0, merge_names },
	{ "state", PARAM_CHOICE, offsetof(struct ssd_config, state), "",
	  "start: fresh (never written), used (filled, overwritten at random), trimmed", 0,
	  0, state_names },
	P("live", PARAM_NUMBER, live, "",
	  "state=trimmed: fraction of capacity (from 0) kept; the rest is trimmed", 0, 1),
	P("time_spread", PARAM_NUMBER, time_spread, "",
	  "each controller command and flash read, program and erase takes its nominal "
	  "time x (1 +- s), uniform", 0, 0.9),
	P("stall_rate", PARAM_NUMBER, stall_rate, "",
	  "chance per command that firmware housekeeping stalls the controller", 0, 0.1),
	P("stall_ms", PARAM_NUMBER, stall_ms, "ms", "how long such a stall lasts", 0, 1e4),
	{ "lockstep", PARAM_SWITCH, offsetof(struct ssd_config, lockstep), "",
	  "block FTL: the channels work in lockstep, one time_spread draw per merge unit "
	  "(per read: its first page) times every channel's share, so the spread keeps the mean",
	  0, 0, NULL },
	P("merge_stall_rate", PARAM_NUMBER, merge_stall_rate, "",
	  "block FTL: chance per write that merges a mapped unit that it stalls (JMF602 stutter)",
	  0, 0.1),
	P("merge_stall_ms", PARAM_NUMBER, merge_stall_ms, "ms",
	  "how long such a stall holds the unit's channels", 0, 1e4),
	{ NULL, 0, 0, NULL, NULL, 0, 0, NULL },
};

static void ssd_defaults(void *config)
{
	*(struct ssd_config *)config = (struct ssd_config){
		.capacity = 64ULL << 30,
		.page_kib = 4,
		.erase_block_kib = 512,
		.channels = 8,
		.read_us = 50,
		.program_us = 400,
		.erase_ms = 2,
		.bus_mib_s = 250,
		.cmd_us = 100,
		.write_cmd_us = -1,
		.cmd_busy_us = -1,
		.write_busy_us = -1,
		.ncq = 32,
		.spare = 0.07,
		.trim = true,
		.write_cache = true,
		.cache_kib = 1024,
		.ftl = SSD_FTL_PAGE,
		.state = SSD_FRESH,
		.live = 0,
	};
}

static unsigned bits_for(uint64_t v)
{
	unsigned n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

/* The page FTL's spare-block rule; fills the message when it fails. */
static int check_page_spare(const struct ssd_config *c, const struct ssd_geometry *g,
			    struct errmsg *err)
{
	uint64_t per_chan = (g->user_pages + g->channels - 1) / g->channels;
	uint64_t need = (per_chan + g->ppb - 1) / g->ppb + SSD_MIN_SPARE_BLOCKS;
	double least;

	if (g->blocks_per_chan * g->ppb >= per_chan + SSD_MIN_SPARE_BLOCKS * g->ppb)
		return 0;
	least = 1.0 - (double)g->user_blocks / (double)(need * g->channels);
	return errmsg_set(err, -EINVAL,
			  "spare %g is too small for the page FTL: it needs %d spare erase blocks "
			  "per channel (spare >= %.4f)",
			  c->spare, SSD_MIN_SPARE_BLOCKS, ceil(least * 1e4) / 1e4);
}

static int check_page_ftl(const struct ssd_config *c, struct ssd_geometry *g,
			  struct errmsg *err)
{
	uint64_t most = g->raw_pages > g->user_pages ? g->raw_pages : g->user_pages;

	if (g->ppb > UINT16_MAX)
		return errmsg_set(err, -EINVAL,
				  "erase block of %llu pages: the page FTL handles at most %u",
				  (unsigned long long)g->ppb, UINT16_MAX);
	if (g->blocks + g->channels * (g->ppb + 1) >= UINT32_MAX)
		return errmsg_set(err, -EINVAL,
				  "%llu erase blocks: the page FTL numbers at most 2^32 - 1",
				  (unsigned long long)g->blocks);
	g->map_bits = bits_for(most);
	if (g->map_bits > 32)
		return errmsg_set(err, -EINVAL,
				  "%llu flash pages: the page FTL maps at most 2^32 - 1",
				  (unsigned long long)most);
	if ((g->user_pages + g->raw_pages) * 4 <= SSD_PLAIN_MAPS)
		g->map_bits = 32;
	return check_page_spare(c, g, err);
}

/* The capacity to suggest: `capacity` rounded down to whole units; one unit if less. */
static uint64_t whole_units(uint64_t capacity, uint64_t unit)
{
	return capacity < unit ? unit : capacity / unit * unit;
}

static int check_capacity(const struct ssd_config *c, const struct ssd_geometry *g,
			  uint64_t eb, struct errmsg *err)
{
	char cap[32], unit[32];

	format_size(cap, sizeof(cap), c->capacity);
	if (c->ftl == SSD_FTL_BLOCK && c->capacity % g->unit) {
		format_size(unit, sizeof(unit), g->unit);
		return errmsg_set(err, -EINVAL,
				  "capacity %s is not a multiple of the merge unit %s "
				  "(erase_block_kib x channels): use capacity=%lluk", cap, unit,
				  (unsigned long long)(whole_units(c->capacity, g->unit) / 1024));
	}
	if (c->capacity % eb) {
		format_size(unit, sizeof(unit), eb);
		return errmsg_set(err, -EINVAL,
				  "capacity %s is not a multiple of the erase block %s: use "
				  "capacity=%lluk", cap, unit,
				  (unsigned long long)(whole_units(c->capacity, eb) / 1024));
	}
	return 0;
}

int ssd_geometry(const struct ssd_config *c, struct ssd_geometry *g, struct errmsg *err)
{
	uint64_t eb = c->erase_block_kib * 1024;
	double raw_blocks;
	int ret;

	*g = (struct ssd_geometry){ .page = c->page_kib * 1024, .channels = c->channels };
	if (!c->page_kib || !c->channels || c->erase_block_kib % c->page_kib || !eb)
		return errmsg_set(err, -EINVAL,
				  "erase_block_kib %llu is not a multiple of page_kib %llu",
				  (unsigned long long)c->erase_block_kib,
				  (unsigned long long)c->page_kib);
	if (c->spare < 0 || c->spare >= 1)
		return errmsg_set(err, -EINVAL, "spare %g: expected a fraction below 1", c->spare);
	g->ppb = eb / g->page;
	g->unit = eb * c->channels;
	ret = check_capacity(c, g, eb, err);
	if (ret)
		return ret;
	g->user_pages = c->capacity / g->page;
	g->user_blocks = c->capacity / eb;
	g->units = c->capacity / g->unit;
	raw_blocks = (double)g->user_blocks / (1.0 - c->spare);
	g->blocks_per_chan = (uint64_t)ceil(raw_blocks / (double)c->channels - 1e-9);
	g->blocks = g->blocks_per_chan * c->channels;
	g->raw_pages = g->blocks * g->ppb;
	return c->ftl == SSD_FTL_PAGE ? check_page_ftl(c, g, err) : 0;
}

static uint64_t map_bytes(uint64_t entries, unsigned bits)
{
	return SSD_MAP_LEAD + (entries * bits + 7) / 8 + 8;
}

uint64_t ssd_memory_bytes(const struct ssd_geometry *g, unsigned ftl)
{
	uint64_t fixed = sizeof(struct ssd_dev) + g->channels * sizeof(struct ssd_chan);

	if (ftl == SSD_FTL_BLOCK)
		return fixed + g->units;
	return fixed + map_bytes(g->user_pages, g->map_bits) +
	       map_bytes(g->raw_pages, g->map_bits) +
	       (g->blocks + g->channels * (g->ppb + 1)) * sizeof(struct ssd_block) +
	       ssd_live_bytes(g) + ssd_l2p_set_bytes(g->user_pages);
}

double ssd_wa_theory(double rho)
{
	double a = 1.0 + rho, lo = 1e-12, hi = 1.0;

	if (rho <= 0)
		return 0;
	/* x = 1/WA solves e^(-a x) = 1 - x, the non-zero root, in (0, 1). */
	for (int i = 0; i < 200; i++) {
		double mid = 0.5 * (lo + hi);

		if (exp(-a * mid) - 1.0 + mid < 0)
			lo = mid;
		else
			hi = mid;
	}
	return 1.0 / (0.5 * (lo + hi));
}

static int ssd_check(const void *config, struct errmsg *err)
{
	struct ssd_geometry g;

	return ssd_geometry(config, &g, err);
}

static uint64_t ssd_memory(const void *config)
{
	const struct ssd_config *c = config;
	struct ssd_geometry g;

	return ssd_geometry(c, &g, NULL) ? 0 : ssd_memory_bytes(&g, c->ftl);
}

static void line(FILE *f, const char *key, const char *value, const char *unit,
		 const char *meaning)
{
	fprintf(f, "  %-18s %-12s %-8s %s\n", key, value, unit, meaning);
}

static void line_num(FILE *f, const char *key, double v, const char *unit, const char *meaning)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.4g", v);
	line(f, key, buf, unit, meaning);
}

static void line_size(FILE *f, const char *key, uint64_t v, const char *meaning)
{
	char buf[32];

	format_size(buf, sizeof(buf), v);
	line(f, key, buf, "bytes", meaning);
}

/* Seconds for `bytes` at `mib_s`. */
static double secs(double bytes, double mib_s)
{
	return bytes / (mib_s * MIB);
}

/* The controller times with their defaults resolved (us). */
struct cmd_times {
	double read, write, read_busy, write_busy;
};

static struct cmd_times cmd_times(const struct ssd_config *c)
{
	struct cmd_times t = { c->cmd_us, c->write_cmd_us < 0 ? c->cmd_us : c->write_cmd_us, 0, 0 };

	t.read_busy = c->cmd_busy_us < 0 ? t.read : c->cmd_busy_us;
	t.write_busy = c->write_busy_us < 0 ? t.write : c->write_busy_us;
	return t;
}

static double least(double a, double b)
{
	return a < b ? a : b;
}

/*
 * 4 KiB random IOPS at depth (ncq > 1: as many commands as ncq in service):
 * the least of the front end (1 / busy), the bus and the channels' page
 * reads or programs (a fresh page-FTL drive: no garbage collection). At QD1
 * the latency adds up instead; with ncq = 1 the ceiling is 1 / (latency
 * + flash + transfer), the QD1 figure.
 */
static void describe_iops(FILE *f, const struct ssd_config *c, const struct ssd_geometry *g)
{
	struct cmd_times t = cmd_times(c);
	double bus = secs(4096, c->bus_mib_s) * 1e6, pages = (4096.0 + (double)g->page - 1) /
			(double)g->page, rd, wr;

	rd = least(1e6 / (t.read_busy > 0 ? t.read_busy : 1e-9),
		   least(1e6 / bus, 1e6 * (double)c->channels / (pages * c->read_us + 1e-9)));
	wr = least(1e6 / (t.write_busy > 0 ? t.write_busy : 1e-9),
		   least(1e6 / bus, 1e6 * (double)c->channels / (pages * c->program_us + 1e-9)));
	if (c->ncq <= 1) {
		rd = least(rd, 1e6 / (t.read + pages * c->read_us + bus));
		wr = least(wr, 1e6 / (t.write + bus));
	}
	line_num(f, "read_iops_max", rd, "IOPS",
		 "4 KiB random reads at depth: least of front end, bus, channels");
	if (c->ftl == SSD_FTL_BLOCK)
		return;		/* a small write merges: write_penalty says it */
	line_num(f, "write_iops_max", wr, "IOPS",
		 "4 KiB random writes at depth, fresh drive: front end, bus, channels");
	line_num(f, "write_latency", (t.write + bus) * 1e-3, "ms",
		 "4 KiB write at QD1: command, transfer (flash work follows)");
}

static void describe_block(FILE *f, const struct ssd_config *c, const struct ssd_geometry *g)
{
	double merge = (double)g->ppb * (c->read_us + c->program_us) * 1e-3 + c->erase_ms;
	double flash = c->erase_ms * 1e-3 + (double)g->ppb * c->program_us * 1e-6;
	double bus = secs((double)g->unit, c->bus_mib_s);

	line_num(f, "write_str", (double)g->unit / (flash > bus ? flash : bus) / MIB, "MiB/s",
		 "large aligned writes: program and erase of whole units");
	line_size(f, "merge_unit", g->unit,
		  "a partial write reads, erases and reprograms this much");
	line_num(f, "merge_penalty", merge, "ms",
		 "flash time of one merge: unit/read + erase + unit/program");
	line_num(f, "write_penalty",
		 merge + (cmd_times(c).write + secs(512, c->bus_mib_s) * 1e6) * 1e-3,
		 "ms", "0.5 KiB random write: command, transfer, one merge");
}

static void describe_page(FILE *f, const struct ssd_config *c, const struct ssd_geometry *g)
{
	double prog = secs((double)(g->page * g->channels), 1) / (c->program_us * 1e-6);
	double rho = (double)g->raw_pages / (double)g->user_pages - 1.0;

	line_num(f, "write_str", prog < c->bus_mib_s ? prog : c->bus_mib_s, "MiB/s",
		 "large writes to a fresh drive, pages on all channels");
	line_num(f, "steady_wa", ssd_wa_theory(rho), "",
		 "write amplification of random page writes, steady state (theory)");
	line_size(f, "map_memory", ssd_memory_bytes(g, SSD_FTL_PAGE),
		  "memory of the maps, block table and live bits");
}

static void ssd_describe(FILE *f, const void *config)
{
	const struct ssd_config *c = config;
	struct ssd_geometry g;
	double rd;
	char buf[32];

	if (ssd_geometry(c, &g, NULL)) {
		line(f, "geometry", "invalid", "", "see the check's message");
		return;
	}
	rd = secs((double)(g.page * g.channels), 1) / (c->read_us * 1e-6);
	line_size(f, "raw_capacity", g.raw_pages * g.page, "flash on the drive, spare included");
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)g.blocks);
	line(f, "erase_blocks", buf, "", "raw erase blocks, spread evenly over the channels");
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)g.ppb);
	line(f, "pages_per_block", buf, "", "flash pages in one erase block");
	line_num(f, "rho", (double)g.raw_pages / (double)g.user_pages - 1.0, "",
		 "over-provisioning: (raw - capacity) / capacity");
	line_num(f, "read_str", rd < c->bus_mib_s ? rd : c->bus_mib_s, "MiB/s",
		 "large reads, pages on all channels");
	line_num(f, "read_penalty", (c->cmd_us + c->read_us + secs(512, c->bus_mib_s) * 1e6) * 1e-3,
		 "ms", "0.5 KiB random read: command, one page read, transfer");
	line_num(f, "read_latency",
		 (c->cmd_us + c->read_us + secs(4096, c->bus_mib_s) * 1e6) * 1e-3, "ms",
		 "4 KiB read at QD1: command, one page read, transfer");
	if (c->ftl == SSD_FTL_BLOCK)
		describe_block(f, c, &g);
	else
		describe_page(f, c, &g);
	describe_iops(f, c, &g);
}

const struct sim_model sim_ssd_model = {
	.name = "ssd",
	.summary = "flash SSD: channels, pages, erase blocks; block FTL merges or page FTL with GC",
	.config_size = sizeof(struct ssd_config),
	.params = ssd_params,
	.defaults = ssd_defaults,
	.check = ssd_check,
	.describe = ssd_describe,
	.memory = ssd_memory,
	.create = ssd_create,
};
