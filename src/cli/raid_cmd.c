/*
 * raid_cmd.c — `iomodel raid`: plan an array from its member drives
 * (model/raid.h does the arithmetic, raid_member.c loads the members):
 * capacity, throughput and latency, the partial-stripe write cost, the odds
 * of losing the volume, the link verdict, and the array's own drive model
 * for `predict` and `report` (-o).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/raid_member.h"
#include "cli/run_options.h"
#include "io/model_output.h"
#include "io/output_file.h"
#include "io/run_output.h"
#include "model/erase_block.h"
#include "model/raid.h"
#include "util/units.h"

#define HDD_AFR 0.015	/* Backblaze drive stats 2023-2025: 1.4-1.7 % a year */
#define SSD_AFR 0.007	/* Backblaze SSD boot drives: under 1 % a year */
#define DEFAULT_UBER 1e-14	/* consumer HDD spec sheets: 1 error per 10^14 bits read */
#define MAX_MEMBERS RAID_MAX_DISKS

void cmd_raid_usage(FILE *f)
{
	fputs("usage: iomodel raid --level 0|1|10|5|6 --disks N (--member M ... | --member-fit DIR)\n"
	      "                    [options]\n"
	      "\n"
	      "Plan an array from its member drives: capacity, sequential MiB/s, random IOPS\n"
	      "and latency at a size and queue depth, the RAID 5/6 partial-stripe write cost,\n"
	      "the odds of losing the volume, and whether a network link or the array limits\n"
	      "a large transfer.\n"
	      "\n"
	      "array:\n"
	      "  --level L            0, 1, 10, 5 or 6\n"
	      "  --disks N            members (RAID 0, 1: 2+; 10: even, 4+; 5: 3+; 6: 4+)\n"
	      "  --stripe SIZE        chunk per member, a multiple of 512 up to 1g (64k)\n"
	      "  --member M           a member: a model file (characterize -o, fit -o) or\n"
	      "                       sim:DRIVE (a drive, not an array; characterized first);\n"
	      "                       once for all members, or once per member\n"
	      "  --member-fit DIR     a member fitted from the measurements in DIR (fio JSON,\n"
	      "                       iomodel JSON or CSV files); its measured IOPS at each\n"
	      "                       queue depth are used as they are\n"
	      "  --allow-mixed        allow HDD and SSD members in one array\n"
	      "  --capacity SIZE      bytes per member when the member does not say\n"
	      "  --profile FILE       the members' transfer rate across the disk ('iomodel\n"
	      "                       profile --json'): its outer and inner end for --link,\n"
	      "                       its size as the capacity, where a member does not say\n"
	      "workload:\n"
	      "  --bs SIZE            random IO size (4k)\n"
	      "  --qd N               random IOs in flight on the array, 1-4096 (1)\n"
	      "  --large SIZE         the large random transfer (512m)\n"
	      "  --shared-latency     the members' latency growth with depth is the shared\n"
	      "                       path's (host, HBA): members queue at their peak rate\n"
	      "                       behind one depth-dependent delay (default for SSD\n"
	      "                       members measured on a host: fio or iomodel runs of a\n"
	      "                       real drive, whose latency grows with the host's depth)\n"
	      "  --no-shared-latency  each member queues on its own curve (default for HDDs,\n"
	      "                       whose latency growth is their own, and simulated drives)\n"
	      "  --stripe-penalty TIME\n"
	      "                       RAID 5/6: the partial-stripe penalty as measured\n"
	      "                       (default: one member read, L_read)\n"
	      "failure:\n"
	      "  --afr PCT            annual failure rate of one member, in (0, 100) %\n"
	      "                       (default HDD 1.5 %, Backblaze drive stats 2023-2025;\n"
	      "                       SSD 0.7 %, Backblaze SSD boot drives; the seeds used 5 %)\n"
	      "  --mttr TIME          time until a failed member is replaced and its rebuild\n"
	      "                       starts (24h); the repair time adds capacity / rebuild rate\n"
	      "  --rebuild-rate SIZE  bytes per second rebuilt (the member's write STR)\n"
	      "  --ure X              unrecoverable read errors per bit read (1e-14: consumer\n"
	      "                       HDD spec sheets; 1e-15 enterprise, 1e-16 SSD)\n"
	      "  --years N            mission time for the loss probability (5)\n"
	      "network:\n"
	      "  --link L             100mbe, 1gbe, 10gbe or a rate such as 2.5gbit\n"
	      "  --mtu N              1500 (standard) or 9000 (jumbo) frames (1500)\n"
	      "output:\n"
	      "  --json               print the plan as JSON (schema iomodel.raid/1)\n"
	      "  -o, --output FILE    write the array's drive model (iomodel.model/2) for\n"
	      "                       'iomodel predict' and 'iomodel report'\n"
	      "\n"
	      "MTTDL under-states real double failures; the figures assume independent\n"
	      "failures (see iomodel(1)).\n", f);
}

struct raid_options {
	struct raid_layout layout;
	const char *member[MAX_MEMBERS];
	unsigned n_members;
	const char *member_fit;
	bool allow_mixed, json;
	bool level_given;		/* --level has no default: RAID 0 is no guess to make */
	int shared;			/* --shared-latency 1, --no-shared-latency 0, -1: by the members */
	uint64_t capacity, bs, qd, large, mtu, rebuild_bps, delay_ns;
	double afr, uber, years, stripe_penalty_s, link_bps;
	const char *link, *output;
	const char *profile;		/* --profile FILE, or NULL */
};

enum { OPT_LEVEL = 256, OPT_DISKS, OPT_STRIPE, OPT_MEMBER, OPT_MEMBER_FIT, OPT_MIXED,
       OPT_CAPACITY, OPT_BS, OPT_QD, OPT_LARGE, OPT_PENALTY, OPT_AFR, OPT_MTTR, OPT_REBUILD,
       OPT_URE, OPT_YEARS, OPT_LINK, OPT_MTU, OPT_JSON, OPT_SHARED, OPT_NO_SHARED, OPT_PROFILE };

/*
 * Whether strtod read `arg` up to `end` as a plain decimal number ("5",
 * ".5", "1e-14"): strtod alone would also take leading blanks, a sign, hex
 * ("0x5") and "inf".
 */
static bool plain_decimal(const char *arg, const char *end)
{
	return ((*arg >= '0' && *arg <= '9') || *arg == '.') &&
	       strspn(arg, "0123456789.eE+-") >= (size_t)(end - arg);
}

static int number_opt(const char *name, const char *arg, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(arg, &end);

	if (!plain_decimal(arg, end) || end == arg || *end || !(v > lo) || !(v < hi))
		return bad("%s '%s': expected a number above %g and below %g", name, arg, lo, hi);
	*out = v;
	return 0;
}

static int afr_opt(const char *arg, double *out)
{
	char *end;
	double v = strtod(arg, &end);
	bool plain = plain_decimal(arg, end);

	if (end != arg && *end == '%')
		end++;
	if (!plain || end == arg || *end || !(v > 0) || !(v < 100))
		return bad("--afr '%s': expected a percentage above 0 and below 100 (5%%)", arg);
	*out = v / 100;
	return 0;
}

static int rate_opt(const char *arg, uint64_t *out)
{
	char buf[64];
	size_t len = strlen(arg);

	snprintf(buf, sizeof(buf), "%s", arg);
	if (len > 2 && len < sizeof(buf) && !strcmp(buf + len - 2, "/s"))
		buf[len - 2] = '\0';
	if (size_opt("--rebuild-rate", buf, out))
		return EXIT_BAD_INPUT;
	return *out ? 0 : bad("--rebuild-rate '%s': must be positive", arg);
}

static int apply_layout_option(struct raid_options *o, int id, const char *arg)
{
	uint64_t v;

	switch (id) {
	case OPT_LEVEL:
		o->level_given = true;
		return raid_level_parse(arg, &o->layout.level)
			? bad("--level '%s': expected 0, 1, 10, 5 or 6", arg) : 0;
	case OPT_DISKS:
		if (count_opt("--disks", arg, 1, RAID_MAX_DISKS, &v))
			return EXIT_BAD_INPUT;
		o->layout.disks = (unsigned)v;
		return 0;
	case OPT_STRIPE: return size_opt("--stripe", arg, &o->layout.stripe);
	case OPT_MEMBER:
		if (o->n_members == MAX_MEMBERS)
			return bad("--member: at most %d members", MAX_MEMBERS);
		o->member[o->n_members++] = arg;
		return 0;
	case OPT_MEMBER_FIT: o->member_fit = arg; return 0;
	case OPT_MIXED: o->allow_mixed = true; return 0;
	case OPT_PROFILE: o->profile = arg; return 0;
	case OPT_CAPACITY:
		if (size_opt("--capacity", arg, &o->capacity))
			return EXIT_BAD_INPUT;
		return o->capacity ? 0 : bad("--capacity '%s': must be positive", arg);
	}
	return -1;
}

static int apply_raid_option(void *ctx, int id, const char *arg)
{
	struct raid_options *o = ctx;
	int ret = apply_layout_option(o, id, arg);

	if (ret >= 0)
		return ret;
	switch (id) {
	case OPT_BS: return size_opt("--bs", arg, &o->bs);
	case OPT_QD: return count_opt("--qd", arg, 1, 4096, &o->qd);
	case OPT_LARGE: return size_opt("--large", arg, &o->large);
	case OPT_PENALTY: {
		uint64_t ns;

		if (time_opt("--stripe-penalty", arg, &ns))
			return EXIT_BAD_INPUT;
		o->stripe_penalty_s = ns / 1e9;
		return 0;
	}
	case OPT_AFR: return afr_opt(arg, &o->afr);
	case OPT_MTTR: return time_opt("--mttr", arg, &o->delay_ns);
	case OPT_REBUILD: return rate_opt(arg, &o->rebuild_bps);
	case OPT_URE: return number_opt("--ure", arg, 0, 1, &o->uber);
	case OPT_YEARS: return number_opt("--years", arg, 0, 1000, &o->years);
	case OPT_LINK: {
		int ret = raid_link_parse(arg, &o->link_bps);

		o->link = arg;
		if (ret == -ERANGE)
			return bad("--link '%s': faster than %.0fgbit", arg, RAID_LINK_MAX_BPS / 1e9);
		return ret ? bad("--link '%s': expected 100mbe, 1gbe, 10gbe or a rate like 2.5gbit",
				 arg) : 0;
	}
	case OPT_MTU: return count_opt("--mtu", arg, 576, 65535, &o->mtu);
	case OPT_JSON: o->json = true; return 0;
	case OPT_SHARED: o->shared = 1; return 0;
	case OPT_NO_SHARED: o->shared = 0; return 0;
	case 'o': o->output = arg; return 0;
	}
	return EXIT_BAD_INPUT;
}

static int check_raid_options(struct raid_options *o)
{
	struct errmsg err;

	if (!o->layout.disks || !o->level_given)
		return bad("raid: needs --level, --disks and --member or --member-fit "
			   "(see 'iomodel raid --help')");
	if (raid_layout_check(&o->layout, &err))
		return bad("%s", err.text);
	if (!o->n_members == !o->member_fit)
		return bad("--member, --member-fit: give one of them (see 'iomodel raid --help')");
	if (o->n_members > 1 && o->n_members != o->layout.disks)
		return bad("--member: %u given for %u disks: give one for all, or one per disk",
			   o->n_members, o->layout.disks);
	if (!o->bs || o->bs % 512)
		return bad("--bs %llu: expected a positive multiple of 512", (unsigned long long)o->bs);
	if (!o->large || o->large % 512)
		return bad("--large %llu: expected a positive multiple of 512",
			   (unsigned long long)o->large);
	return 0;
}

static int parse_raid_args(struct raid_options *o, int argc, char **argv)
{
	static const struct option table[] = {
		{ "level", required_argument, NULL, OPT_LEVEL },
		{ "disks", required_argument, NULL, OPT_DISKS },
		{ "stripe", required_argument, NULL, OPT_STRIPE },
		{ "member", required_argument, NULL, OPT_MEMBER },
		{ "member-fit", required_argument, NULL, OPT_MEMBER_FIT },
		{ "allow-mixed", no_argument, NULL, OPT_MIXED },
		{ "capacity", required_argument, NULL, OPT_CAPACITY },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "bs", required_argument, NULL, OPT_BS },
		{ "qd", required_argument, NULL, OPT_QD },
		{ "large", required_argument, NULL, OPT_LARGE },
		{ "shared-latency", no_argument, NULL, OPT_SHARED },
		{ "no-shared-latency", no_argument, NULL, OPT_NO_SHARED },
		{ "stripe-penalty", required_argument, NULL, OPT_PENALTY },
		{ "afr", required_argument, NULL, OPT_AFR },
		{ "mttr", required_argument, NULL, OPT_MTTR },
		{ "rebuild-rate", required_argument, NULL, OPT_REBUILD },
		{ "ure", required_argument, NULL, OPT_URE },
		{ "years", required_argument, NULL, OPT_YEARS },
		{ "link", required_argument, NULL, OPT_LINK },
		{ "mtu", required_argument, NULL, OPT_MTU },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct command_line cl = { "raid", table, ":ho:", cmd_raid_usage, apply_raid_option, o };
	int ret = parse_command_line(&cl, argc, argv, NULL);

	return ret ? ret : check_raid_options(o);
}

/* Everything the plan computes, for the printers. */
struct raid_plan {
	const struct raid_options *o;
	const struct raid_member *m[MAX_MEMBERS];
	const struct raid_member_src *src[MAX_MEMBERS];
	uint64_t smallest;		/* 0: unknown */
	uint64_t capacity;
	struct raid_first_order fo;
	struct raid_perf rand[2];
	bool has_rand[2];
	char rand_note[2][sizeof(struct errmsg)];
	double large_s[2];		/* QD1 seconds of the large transfer, 0 unknown */
	struct raid_io_shape large_shape;
	bool afr_default;
	bool all_ssd;		/* every member an SSD: the SSD default AFR, no zones */
	bool shared, shared_default;	/* the queueing reading used; chosen by the members */
	double afr, rebuild_bps;
	struct raid_reliability rel;
	double link_payload_bps, outer_bps, inner_bps;	/* array sequential read */
	bool zones_known;
};

/* Members all of one kind unless --allow-mixed: an exit status. */
static int check_kinds(const struct raid_plan *p)
{
	for (unsigned i = 1; i < p->o->layout.disks; i++)
		if (p->m[i]->ssd != p->m[0]->ssd && !p->o->allow_mixed)
			return bad("--member: '%s' is an %s, '%s' an %s: give --allow-mixed to mix them",
				   p->m[0]->name, p->m[0]->ssd ? "SSD" : "HDD", p->m[i]->name,
				   p->m[i]->ssd ? "SSD" : "HDD");
	return 0;
}

/*
 * Every member holds at least one chunk: a member smaller than the stripe
 * would leave the array no capacity at all. An exit status.
 */
static int check_member_capacity(const struct raid_plan *p)
{
	const struct raid_options *o = p->o;

	for (unsigned i = 0; i < o->layout.disks; i++) {
		uint64_t c = p->m[i]->capacity;

		if (c && c < o->layout.stripe)
			return bad("--stripe %llu: larger than member '%s' (%llu bytes)",
				   (unsigned long long)o->layout.stripe, p->m[i]->name,
				   (unsigned long long)c);
		if (!c && o->capacity && o->capacity < o->layout.stripe)
			return bad("--capacity %llu: smaller than the stripe (%llu bytes)",
				   (unsigned long long)o->capacity,
				   (unsigned long long)o->layout.stripe);
	}
	return 0;
}

static void plan_capacity(struct raid_plan *p)
{
	p->smallest = 0;
	for (unsigned i = 0; i < p->o->layout.disks; i++) {
		uint64_t c = p->m[i]->capacity ? p->m[i]->capacity : p->o->capacity;

		if (!c) {
			p->smallest = 0;
			break;
		}
		if (!p->smallest || c < p->smallest)
			p->smallest = c;
	}
	p->capacity = p->smallest ? raid_capacity(&p->o->layout, p->smallest) : 0;
}

/*
 * Which reading of the members' curves (raid.h, raid_random_perf): given, or
 * shared latency when every member is an SSD measured on a host. An SSD
 * serves a few IOs in parallel in about the time of one, so the growth of
 * its measured latency with depth, well below its peak rate, is mostly the
 * host's per-IO path (submission, interrupts, the driver), which the
 * members of an array behind that host share: three MX200s at 8 IOs in
 * flight deliver what one does at 8, not three at 2.7 each. An HDD's
 * latency grows in its own queue (seeks, rotation); a simulated drive has
 * no host path at all: each of them queues on its own curve.
 */
static void choose_queue_model(struct raid_plan *p)
{
	bool ssd_on_host = true;

	for (unsigned i = 0; i < p->o->layout.disks; i++)
		ssd_on_host &= p->m[i]->ssd && !p->src[i]->simulated;
	p->shared_default = p->o->shared < 0;
	p->shared = p->shared_default ? ssd_on_host : p->o->shared == 1;
}

static void plan_performance(struct raid_plan *p)
{
	const struct raid_options *o = p->o;

	raid_first_order(&o->layout, p->m, o->stripe_penalty_s, &p->fo);
	for (int op = IO_READ; op <= IO_WRITE; op++) {
		unsigned k = raid_str_disks(&o->layout, (enum io_op)op);
		double split = INFINITY;
		struct errmsg err;

		/* with measured points: the STR characterize would fit to the array */
		for (unsigned i = 0; i < o->layout.disks && k > 1; i++)
			split = fmin(split, raid_member_split_str(p->src[i], (enum io_op)op, k));
		if (split > 0 && isfinite(split))
			p->fo.str_bps[op] = split;

		p->has_rand[op] = !raid_random_perf(&o->layout, p->m, (enum io_op)op, o->bs, o->bs,
						    (unsigned)o->qd, p->shared, &p->rand[op], &err);
		if (!p->has_rand[op])
			snprintf(p->rand_note[op], sizeof(p->rand_note[op]), "%s", err.text);
		p->large_s[op] = p->fo.str_bps[op] > 0
			? raid_first_order_seconds(&p->fo, (enum io_op)op, o->large, 4096) : 0;
	}
	raid_io_shape(&o->layout, IO_WRITE, o->large, 4096, &p->large_shape);
}

/* The slowest member's zone rate at each end (its average STR when zones are unknown). */
static void plan_zones(struct raid_plan *p)
{
	double outer = INFINITY, inner = INFINITY;
	unsigned k = raid_read_disks(&p->o->layout);

	p->zones_known = true;
	for (unsigned i = 0; i < p->o->layout.disks; i++) {
		const struct raid_member_src *s = p->src[i];
		double avg = p->m[i]->str_bps[IO_READ];

		if (!(s->outer_bps > 0))
			p->zones_known = false;
		outer = fmin(outer, s->outer_bps > 0 ? s->outer_bps : avg);
		inner = fmin(inner, s->inner_bps > 0 ? s->inner_bps : avg);
	}
	p->outer_bps = outer > 0 && isfinite(outer) ? outer * k : 0;
	p->inner_bps = inner > 0 && isfinite(inner) ? inner * k : 0;
	if (p->o->link)
		p->link_payload_bps = raid_link_payload_bps(p->o->link_bps, (unsigned)p->o->mtu) / 8;
}

static void plan_reliability(struct raid_plan *p)
{
	const struct raid_options *o = p->o;
	struct raid_reliability_in in = { 0 };
	double w = INFINITY;

	p->afr_default = !(o->afr > 0);
	p->all_ssd = true;	/* the SSD default only when no member is an HDD (--allow-mixed) */
	for (unsigned i = 0; i < o->layout.disks; i++)
		p->all_ssd &= p->m[i]->ssd;
	p->afr = p->afr_default ? (p->all_ssd ? SSD_AFR : HDD_AFR) : o->afr;
	for (unsigned i = 0; i < o->layout.disks; i++) {
		double s = p->m[i]->str_bps[IO_WRITE] > 0 ? p->m[i]->str_bps[IO_WRITE]
							   : p->m[i]->str_bps[IO_READ];
		w = s > 0 ? fmin(w, s) : w;
	}
	p->rebuild_bps = o->rebuild_bps ? (double)o->rebuild_bps : isfinite(w) ? w : 0;
	in.afr = p->afr;
	in.member_bytes = (double)p->smallest;
	in.repair_s = o->delay_ns / 1e9;
	if (p->smallest && p->rebuild_bps > 0)
		in.repair_s += (double)p->smallest / p->rebuild_bps;
	in.uber = o->uber;
	in.years = o->years;
	raid_reliability(&o->layout, &in, &p->rel);
}

/*
 * --profile: the zone rates of the members that have none, and the
 * capacity of those that do not say (unless --capacity gives it).
 */
static int apply_profile(const struct raid_options *o, struct raid_member_src *srcs,
			 unsigned loaded)
{
	struct raid_profile prof;
	int status = raid_member_profile_load(o->profile, &prof);

	for (unsigned i = 0; i < loaded && status == EXIT_OK; i++) {
		if (!(srcs[i].outer_bps > 0)) {
			srcs[i].outer_bps = prof.outer_bps;
			srcs[i].inner_bps = prof.inner_bps;
		}
		if (!srcs[i].m.capacity && !o->capacity)
			srcs[i].m.capacity = prof.size;
	}
	return status;
}

static int load_members(struct raid_options *o, struct raid_member_src *srcs, unsigned *loaded)
{
	unsigned distinct = o->member_fit ? 1 : o->n_members;
	int status = EXIT_OK;

	for (unsigned i = 0; i < distinct && status == EXIT_OK; i++, (*loaded)++)
		status = raid_member_load(&srcs[i], o->member_fit ? o->member_fit : o->member[i],
					  o->member_fit != NULL, raid_copies(&o->layout));
	if (status == EXIT_OK && o->profile)
		status = apply_profile(o, srcs, *loaded);
	return status;
}

static const char *write_method(const struct raid_plan *p)
{
	if (!raid_parity_disks(&p->o->layout) || !(p->rand[IO_WRITE].shape.reads > 0))
		return NULL;
	return p->rand[IO_WRITE].shape.reconstruct ? "reconstruct-write" : "read-modify-write";
}

/*
 * The array's first-order model as the one fitted depth of a drive model
 * (drive_model.h: has_first_order holds exactly when there is a depth).
 * 0 or -ENOMEM.
 */
static int array_depth(struct op_model *om)
{
	om->depths = calloc(1, sizeof(*om->depths));
	if (!om->depths)
		return -ENOMEM;
	om->n_depths = 1;
	om->fit_qd = 1;
	om->depths[0] = (struct depth_fit){ .qd = 1, .random = true, .fit = om->fit,
					    .caps = { INFINITY, INFINITY } };
	return 0;
}

/* The plan's random IOs of --bs at depths 1 .. 64 into pts; how many (7 unless one failed). */
static size_t array_depth_points(const struct raid_plan *p, enum io_op op, struct perf_point *pts)
{
	static const unsigned depths[] = { 1, 2, 4, 8, 16, 32, 64 };
	const struct raid_options *o = p->o;
	size_t n = 0;

	for (size_t i = 0; i < 7; i++) {
		struct raid_perf r;
		struct errmsg err;

		if (raid_random_perf(&o->layout, p->m, op, o->bs, o->bs, depths[i], p->shared, &r,
				     &err))
			break;
		pts[n++] = (struct perf_point){ .op = op, .random = true, .size = o->bs,
						.qd = depths[i], .iops = r.iops,
						.mean_lat_s = r.mean_lat_s, .align = o->bs };
	}
	return n;
}

/*
 * The access penalty of the array's model for op: the one that gives the
 * plan's own time per IO of --bs at QD1 (t1), less its transfer and, for a
 * parity write, its expected partial-row merges. The members' penalty alone
 * would miss what the layout does to it: RAID 1/10 reads from the nearer
 * head, mirrored and parity writes waiting for the slowest of their
 * members. The members' penalty where the plan has no QD1 figure.
 */
static double array_penalty(const struct raid_plan *p, enum io_op op, double t1)
{
	const struct raid_first_order *fo = &p->fo;
	double merges = 0, pen;

	if (op == IO_WRITE && fo->partial_s > 0)
		merges = erase_block_expected_merges(p->o->bs, p->o->bs, (double)fo->row_bytes);
	pen = t1 - merges * fo->partial_s - (double)p->o->bs / fo->str_bps[op];
	return t1 > 0 && pen > 0 ? pen : fo->penalty_s[op];
}

/* The array as a drive model: first order, the row as "erase block", QD from the MVA. */
static int array_drive_model(const struct raid_plan *p, struct drive_model *dm)
{
	const struct raid_options *o = p->o;

	memset(dm, 0, sizeof(*dm));
	for (int op = IO_READ; op <= IO_WRITE; op++) {
		struct op_model *om = &dm->op[op];
		struct perf_point pts[7];
		struct errmsg err;
		size_t n = array_depth_points(p, (enum io_op)op, pts);
		double pen = 0;

		if (p->fo.str_bps[op] > 0) {
			pen = array_penalty(p, (enum io_op)op, n ? pts[0].mean_lat_s : 0);
			om->has_first_order = true;
			om->fit.penalty_s = pen + (op == IO_WRITE ? p->fo.partial_s : 0);
			om->fit.str_bps = p->fo.str_bps[op];
			om->fit.str_lo_bps = om->fit.str_hi_bps = om->fit.str_bps;
			om->fit.penalty_lo_s = om->fit.penalty_hi_s = om->fit.penalty_s;
			if (array_depth(om))
				return -ENOMEM;
		}
		if (op == IO_WRITE && p->fo.partial_s > 0 && om->has_first_order) {
			struct erase_block_model *e = &om->erase_block;

			om->has_erase_block = e->detected = true;
			e->unit_bytes = (double)p->fo.row_bytes;
			e->penalty_s = pen;
			e->write_bps = e->read_bps = p->fo.str_bps[op];
			if (p->fo.str_bps[IO_READ] > 0)
				e->read_bps = p->fo.str_bps[IO_READ];
			e->merge_s = p->fo.partial_s;
			om->erase_block_bytes = e->unit_bytes;
			om->erase_block_method = "raid row";
		}
		om->qd_size = o->bs;
		om->has_qd = n == 7 && !qd_fit(pts, n, &om->qd, &err);
		snprintf(om->note, sizeof(om->note), "%s array planned by iomodel raid",
			 raid_level_name(o->layout.level));
	}
	return 0;
}

/* JSON numbers: null where a figure is unknown (0) or not finite. */
static json_t *pos(double v)
{
	return v > 0 && isfinite(v) ? json_real(v) : json_null();
}

/* Any JSON number: null where it is not finite (an MTTDL without losses, a tiny AFR). */
static json_t *real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *raid_json(const struct raid_plan *p)
{
	const struct raid_options *o = p->o;
	const struct raid_reliability *r = &p->rel;
	json_t *members = json_array();

	for (unsigned i = 0; i < o->layout.disks; i++)
		json_array_append_new(members, json_pack("{s:s,s:s,s:o}", "name", p->m[i]->name,
			"kind", p->m[i]->ssd ? "ssd" : "hdd",
			"capacity_bytes", p->m[i]->capacity ? json_integer((json_int_t)p->m[i]->capacity)
							     : json_null()));
	return json_pack("{s:s,s:I,s:I,s:I,s:I,s:o,s:o,s:o,s:b,s:o,s:o,s:o,s:o,s:f,s:o,s:o,"
			 "s:o,s:o,s:f,s:o,s:s,s:b,s:b}",
		"level", raid_level_name(o->layout.level) + 5, "disks", (json_int_t)o->layout.disks,
		"stripe_bytes", (json_int_t)o->layout.stripe, "row_bytes", (json_int_t)p->fo.row_bytes,
		"data_disks", (json_int_t)raid_data_disks(&o->layout), "members", members,
		"capacity_bytes", p->capacity ? json_integer((json_int_t)p->capacity) : json_null(),
		"afr_percent", real(100 * r->annual_loss), "member_afr_default", p->afr_default,
		"member_afr_percent", real(100 * p->afr), "mttf_hours", real(r->mttf_h),
		"mttr_hours", real(r->mttr_h), "rebuild_mib_s", pos(p->rebuild_bps / MIB),
		"ure_per_bit", o->uber, "p_ure_rebuild", p->capacity ? real(r->p_ure) : json_null(),
		"mttdl_hours", pos(r->mttdl_h), "mttdl_no_ure_hours", real(r->mttdl_no_ure_h),
		"annual_loss_repaired_percent", real(100 * r->annual_loss_repaired), "years", o->years,
		"loss_over_years_percent", real(100 * r->loss_over_years),
		"mttdl_caveat", raid_mttdl_caveat,
		"shared_latency", p->shared, "shared_latency_default", p->shared_default);
}

static json_t *op_json(uint64_t bs, unsigned qd, double iops, double lat_s)
{
	return json_pack("{s:I,s:I,s:o,s:o,s:o}", "bs", (json_int_t)bs, "qd", (json_int_t)qd,
			 "iops", pos(iops), "mib_s", pos(iops * (double)bs / MIB),
			 "mean_lat_ms", pos(lat_s * 1e3));
}

static json_t *operations_json(const struct raid_plan *p)
{
	const struct raid_options *o = p->o;
	json_t *ops = json_object();
	uint64_t row = p->fo.row_bytes;

	for (int op = IO_READ; op <= IO_WRITE; op++) {
		const struct raid_perf *r = &p->rand[op];
		double str = p->fo.str_bps[op];
		json_t *rnd = op_json(o->bs, (unsigned)o->qd, p->has_rand[op] ? r->iops : 0,
				      p->has_rand[op] ? r->mean_lat_s : 0);

		json_object_set_new(ops, op ? "seq_write" : "seq_read",
				    op_json(row, 1, str / (double)row, (double)row / str));
		json_object_set_new(rnd, "member_reads", json_real(r->shape.reads));
		json_object_set_new(rnd, "member_writes", json_real(r->shape.writes));
		json_object_set_new(rnd, "member_bytes", json_integer((json_int_t)r->shape.member_bytes));
		json_object_set_new(rnd, "note", json_string(p->rand_note[op]));
		if (op == IO_WRITE)
			json_object_set_new(rnd, "method", write_method(p) ? json_string(write_method(p))
									   : json_null());
		json_object_set_new(ops, op ? "rand_write" : "rand_read", rnd);
		json_object_set_new(ops, op ? "large_write" : "large_read",
				    op_json(o->large, 1, p->large_s[op] > 0 ? 1 / p->large_s[op] : 0,
					    p->large_s[op]));
	}
	json_object_set_new(json_object_get(ops, "large_write"), "partial_rows",
			    json_real(raid_parity_disks(&o->layout) ? p->large_shape.partial_rows : 0));
	json_object_set_new(ops, "partial_stripe_penalty_ms", raid_parity_disks(&o->layout)
			    ? json_real(p->fo.partial_s * 1e3) : json_null());
	return ops;
}

static const char *link_verdict(const struct raid_plan *p, char *buf, size_t len)
{
	double link = p->link_payload_bps, hi = p->outer_bps, lo = p->inner_bps;

	if (!(hi > 0))
		snprintf(buf, len, "unknown: the members have no sequential read rate");
	else if (lo >= link)
		snprintf(buf, len, "the link limits a large sequential transfer: the array reads "
			 "%.1f-%.1f MiB/s, the link carries %.1f MiB/s", lo / MIB, hi / MIB, link / MIB);
	else if (hi <= link)
		snprintf(buf, len, "the array limits a large sequential transfer: it reads "
			 "%.1f-%.1f MiB/s, the link carries %.1f MiB/s", lo / MIB, hi / MIB, link / MIB);
	else
		snprintf(buf, len, "the link limits at the outer end (%.1f MiB/s), the array at the "
			 "inner end (%.1f MiB/s); the link carries %.1f MiB/s", hi / MIB, lo / MIB,
			 link / MIB);
	return buf;
}

static json_t *link_json(const struct raid_plan *p)
{
	char verdict[240];

	if (!p->o->link)
		return json_null();
	return json_pack("{s:s,s:f,s:I,s:f,s:f,s:f,s:o,s:o,s:b,s:s}", "link", p->o->link,
		"line_bits_s", p->o->link_bps, "mtu", (json_int_t)p->o->mtu,
		"payload_bits_s", p->link_payload_bps * 8, "payload_mib_s", p->link_payload_bps / MIB,
		"efficiency", p->link_payload_bps * 8 / p->o->link_bps,
		"array_outer_mib_s", pos(p->outer_bps / MIB), "array_inner_mib_s", pos(p->inner_bps / MIB),
		"zones_known", p->zones_known, "verdict", link_verdict(p, verdict, sizeof(verdict)));
}

static int print_json(const struct raid_plan *p)
{
	json_t *doc = json_pack("{s:s,s:s,s:o,s:o,s:o}", "schema", "iomodel.raid/1",
				"iomodel_version", IOMODEL_VERSION, "raid", raid_json(p),
				"operations", operations_json(p), "link", link_json(p));

	if (!doc) {	/* out of memory, or a figure json_pack refused: say so, not exit mute */
		fprintf(stderr, "iomodel: raid: cannot build the plan's JSON\n");
		return EXIT_FAILED;
	}
	return json_dump_document(stdout, doc) ? EXIT_FAILED : EXIT_OK;
}

static void print_op_line(const char *what, double iops, double bs, double lat_s)
{
	if (!(iops > 0)) {
		printf("  %-32s -\n", what);
		return;
	}
	printf("  %-32s %10.4g IOPS %10.4g MiB/s %10.4g ms\n", what, iops, iops * bs / MIB,
	       lat_s * 1e3);
}

static void print_performance(const struct raid_plan *p)
{
	const struct raid_options *o = p->o;
	char bs[32], large[32], rows[32], what[64];

	format_size(bs, sizeof(bs), o->bs);
	format_size(large, sizeof(large), o->large);
	format_size(rows, sizeof(rows), p->fo.row_bytes);
	printf("\nperformance (members' figures through the layout; queueing: %s%s):\n",
	       p->shared ? "shared latency" : "each member's own curve",
	       p->shared_default ? ", by the members' kind" : "");
	for (int op = IO_READ; op <= IO_WRITE; op++) {
		double str = p->fo.str_bps[op], row = (double)p->fo.row_bytes;

		snprintf(what, sizeof(what), "sequential %s %s rows", op ? "write" : "read", rows);
		print_op_line(what, str / row, row, row / str);
		snprintf(what, sizeof(what), "random %s %s QD%llu", op ? "write" : "read", bs,
			 (unsigned long long)o->qd);
		if (p->has_rand[op])
			print_op_line(what, p->rand[op].iops, (double)o->bs, p->rand[op].mean_lat_s);
		else
			printf("  %-32s - (%s)\n", what, p->rand_note[op]);
		snprintf(what, sizeof(what), "random %s %s QD1", op ? "write" : "read", large);
		print_op_line(what, p->large_s[op] > 0 ? 1 / p->large_s[op] : 0, (double)o->large,
			      p->large_s[op]);
	}
	if (write_method(p))
		printf("  small writes: %s, %.3g member read%s + %.3g writes per write\n",
		       write_method(p), p->rand[IO_WRITE].shape.reads,
		       p->rand[IO_WRITE].shape.reads == 1 ? "" : "s", p->rand[IO_WRITE].shape.writes);
	if (raid_parity_disks(&o->layout) && p->large_s[IO_WRITE] > 0)
		printf("  partial-stripe penalty %.4g ms per partly written row (%s); a %s write "
		       "pays %.3g of them:\n    %.4g ms + %.3g x %.4g ms + %s / %.4g MiB/s = %.4g ms\n",
		       p->fo.partial_s * 1e3, o->stripe_penalty_s >= 0 ? "--stripe-penalty"
		       : "one member read", large, p->large_shape.partial_rows,
		       p->fo.penalty_s[IO_WRITE] * 1e3, p->large_shape.partial_rows,
		       p->fo.partial_s * 1e3, large, p->fo.str_bps[IO_WRITE] / MIB,
		       p->large_s[IO_WRITE] * 1e3);
}

static void print_reliability(const struct raid_plan *p)
{
	const struct raid_reliability *r = &p->rel;
	char cap[32];

	printf("\nfailure (member AFR %.3g %%%s):\n", 100 * p->afr, p->afr_default
	       ? (p->all_ssd ? ", SSD default: Backblaze SSD boot drives"
			       : ", HDD default: Backblaze drive stats 2023-2025") : "");
	printf("  annual loss without repair  %.4g %%\n", 100 * r->annual_loss);
	if (p->o->layout.level == RAID_0) {	/* no redundancy: nothing to rebuild, nothing read */
		printf("  repair: none (RAID 0 survives no failure: the first one loses the volume)\n");
	} else if (p->smallest && p->rebuild_bps > 0) {
		format_size(cap, sizeof(cap), p->smallest);
		printf("  repair: %.4g h = replacement %.4g h + %s at %.4g MiB/s\n", r->mttr_h,
		       p->o->delay_ns / 3.6e12, cap, p->rebuild_bps / MIB);
		printf("  unrecoverable read during a rebuild: %.4g %% (URE %.3g per bit)\n",
		       100 * r->p_ure, p->o->uber);
	} else if (p->smallest) {	/* the capacity is known, the rate it is rebuilt at not */
		printf("  repair: %.4g h (rebuild rate unknown, the members have no write or read "
		       "STR: give --rebuild-rate for the rebuild time)\n", r->mttr_h);
		printf("  unrecoverable read during a rebuild: %.4g %% (URE %.3g per bit)\n",
		       100 * r->p_ure, p->o->uber);
	} else {
		printf("  repair: %.4g h (member capacity unknown: give --capacity for the rebuild "
		       "time and read errors)\n", r->mttr_h);
	}
	printf("  MTTDL %.4g h (%.4g h without read errors); loss %.4g %% a year, %.4g %% over "
	       "%g years\n", r->mttdl_h, r->mttdl_no_ure_h, 100 * r->annual_loss_repaired,
	       100 * r->loss_over_years, p->o->years);
	printf("  caveat: %s\n", raid_mttdl_caveat);
}

/*
 * The members' names into buf: the one name when every member is the same,
 * else each member's in order, separated by "; " (a sim: member's name may
 * hold commas), cut short with "..." when they do not fit. Whether they are
 * all the same.
 */
static bool member_names(const struct raid_plan *p, char *buf, size_t len)
{
	bool same = true;
	size_t used;

	for (unsigned i = 1; i < p->o->layout.disks; i++)
		same &= !strcmp(p->m[i]->name, p->m[0]->name);
	snprintf(buf, len, "%s", p->m[0]->name);
	for (unsigned i = 1; i < p->o->layout.disks && !same; i++) {
		used = strlen(buf);
		if (snprintf(buf + used, len - used, "; %s", p->m[i]->name) >= (int)(len - used)) {
			snprintf(buf + (len > 4 ? len - 4 : 0), len > 4 ? 4 : len, "...");
			break;
		}
	}
	return same;
}

static int print_text(const struct raid_plan *p)
{
	const struct raid_options *o = p->o;
	char stripe[32], cap[32], row[32], verdict[240], names[1024];

	format_size(stripe, sizeof(stripe), o->layout.stripe);
	format_size(row, sizeof(row), p->fo.row_bytes);
	member_names(p, names, sizeof(names));
	printf("%s of %u members (%s), %s stripe, %s of data per row\n",
	       raid_level_name(o->layout.level), o->layout.disks, names, stripe, row);
	if (p->capacity) {
		format_size(cap, sizeof(cap), p->capacity);
		printf("capacity %s (%llu bytes): %u of %u members' capacity is usable\n", cap,
		       (unsigned long long)p->capacity, raid_data_disks(&o->layout), o->layout.disks);
	} else {
		printf("capacity unknown (%u of %u members' capacity is usable; give --capacity)\n",
		       raid_data_disks(&o->layout), o->layout.disks);
	}
	print_performance(p);
	print_reliability(p);
	if (o->link) {
		printf("\nlink %s, MTU %llu: %.1f Mbit/s of TCP payload (%.1f %%) = %.1f MiB/s\n",
		       o->link, (unsigned long long)o->mtu, p->link_payload_bps * 8 / 1e6,
		       100 * p->link_payload_bps * 8 / o->link_bps, p->link_payload_bps / MIB);
		if (!(p->outer_bps > 0))	/* the verdict says why */
			printf("  array sequential read: unknown\n");
		else
			printf("  array sequential read: %.1f MiB/s at the outer end, %.1f at the "
			       "inner%s\n", p->outer_bps / MIB, p->inner_bps / MIB,
			       p->zones_known ? "" : p->all_ssd ? " (SSDs: one rate across)"
					   : " (zone rates unknown: average STR; see --profile)");
		printf("verdict: %s\n", link_verdict(p, verdict, sizeof(verdict)));
	}
	return ferror(stdout) ? EXIT_FAILED : EXIT_OK;
}

static int write_array_model(const struct raid_plan *p)
{
	char source[1200], names[1024];
	struct errmsg err;
	struct drive_model dm;
	json_t *doc;
	FILE *f;
	int ret;
	bool same = member_names(p, names, sizeof(names));

	snprintf(source, sizeof(source), "%s of %u %s %s, %llu-byte stripe",
		 raid_level_name(p->o->layout.level), p->o->layout.disks, same ? "x" : "members:",
		 names, (unsigned long long)p->o->layout.stripe);
	doc = array_drive_model(p, &dm) ? NULL : model_to_json(source, &dm);
	drive_model_release(&dm);
	if (!doc) {
		fprintf(stderr, "iomodel: out of memory\n");
		return EXIT_FAILED;
	}
	if (doc)
		json_object_set_new(doc, "raid", raid_json(p));
	f = output_file_open(p->o->output, NULL, &err);
	if (!f)
		return json_decref(doc), bad("-o: %s", err.text);
	ret = json_dump_document(f, doc);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		fprintf(stderr, "iomodel: cannot write '%s': %s\n", p->o->output, strerror(-ret));
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

int cmd_raid(int argc, char **argv)
{
	struct raid_options o = { .layout = { RAID_0, 0, 65536 }, .bs = 4096, .qd = 1,
				  .large = 512ULL << 20, .mtu = 1500, .uber = DEFAULT_UBER,
				  .years = 5, .stripe_penalty_s = -1, .shared = -1,
				  .delay_ns = 24 * 3600 * NSEC_PER_SEC };
	struct raid_member_src *srcs = NULL;
	struct raid_plan p = { .o = &o };
	unsigned loaded = 0;
	int status = parse_raid_args(&o, argc, argv);

	if (status)
		return status < 0 ? EXIT_OK : status;
	srcs = calloc(MAX_MEMBERS, sizeof(*srcs));
	if (!srcs)
		return bad("out of memory");
	status = load_members(&o, srcs, &loaded);
	for (unsigned i = 0; i < o.layout.disks && !status; i++) {
		p.src[i] = &srcs[loaded == 1 ? 0 : i];
		p.m[i] = &p.src[i]->m;
	}
	if (!status)
		status = check_kinds(&p);
	if (!status)
		status = check_member_capacity(&p);
	if (!status) {
		plan_capacity(&p);
		choose_queue_model(&p);
		plan_performance(&p);
		plan_zones(&p);
		plan_reliability(&p);
		if (o.output)
			status = write_array_model(&p);
	}
	if (!status)
		status = o.json ? print_json(&p) : print_text(&p);
	for (unsigned i = 0; i < loaded; i++)
		raid_member_release(&srcs[i]);
	free(srcs);
	return status;
}
