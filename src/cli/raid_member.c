/* raid_member.c — loading the members of `iomodel raid` (raid_member.h). */
#include "raid_member.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "io/import.h"
#include "io/json_file.h"
#include "io/json_number.h"
#include "io/model_output.h"
#include "model/first_order.h"
#include "sim/hdd.h"
#include "sim/params.h"
#include "sim/spec.h"
#include "util/units.h"

/* Mean IOPS of the points of (op, size) at depth `qd`, preferring random ones; 0 if none. */
static double points_at(const struct point_set *ps, enum io_op op, uint64_t size, unsigned qd,
			bool random)
{
	double sum = 0;
	unsigned n = 0;

	for (size_t i = 0; i < ps->len; i++) {
		const struct perf_point *p = &ps->points[i];

		if (p->op == op && p->size == size && p->qd == qd && p->random == random) {
			sum += p->iops;
			n++;
		}
	}
	return n ? sum / n : 0;
}

/* The measured depths just below and above `depth` (0 when none). */
static void depth_bracket(const struct point_set *ps, enum io_op op, uint64_t size, bool random,
			  unsigned depth, unsigned *lo, unsigned *hi)
{
	*lo = *hi = 0;
	for (size_t i = 0; i < ps->len; i++) {
		const struct perf_point *p = &ps->points[i];

		if (p->op != op || p->size != size || p->random != random)
			continue;
		if (p->qd <= depth && p->qd > *lo)
			*lo = p->qd;
		if (p->qd >= depth && (!*hi || p->qd < *hi))
			*hi = p->qd;
	}
}

static double measured_iops(const struct point_set *ps, enum io_op op, uint64_t size,
			    unsigned depth)
{
	for (int random = 1; random >= 0; random--) {
		unsigned lo, hi;
		double a, b;

		depth_bracket(ps, op, size, random, depth, &lo, &hi);
		if (!lo && !hi)
			continue;
		if (!hi)	/* deeper than measured: the deepest rate */
			return points_at(ps, op, size, lo, random);
		if (!lo)	/* shallower: the same latency, fewer IOs in flight */
			return points_at(ps, op, size, hi, random) * depth / hi;
		a = points_at(ps, op, size, lo, random);
		b = points_at(ps, op, size, hi, random);
		return lo == hi ? a : a + (b - a) * (double)(depth - lo) / (double)(hi - lo);
	}
	return 0;
}

/* Seconds of one random `op` of `size` at QD1, linear between the measured sizes; 0: none. */
static double qd1_seconds(const struct point_set *ps, enum io_op op, double size);

/* The deepest measured depth of random (op, size) points; 0 when none. */
static unsigned deepest_measured(const struct point_set *ps, enum io_op op, uint64_t size)
{
	unsigned deepest = 0;

	for (size_t i = 0; i < ps->len; i++) {
		const struct perf_point *p = &ps->points[i];

		if (p->op == op && p->size == size && p->random && p->qd > deepest)
			deepest = p->qd;
	}
	return deepest;
}

/* The size of op's random points measured at the most depths (characterize: 4 KiB); 0: none. */
static uint64_t depth_curve_size(const struct point_set *ps, enum io_op op)
{
	uint64_t best = 0;
	unsigned best_n = 1;

	for (size_t i = 0; i < ps->len; i++) {
		const struct perf_point *p = &ps->points[i];
		unsigned n = 0;

		if (p->op != op || !p->random || p->size == best)
			continue;
		for (unsigned qd = 1; qd <= 4096; qd *= 2)
			n += points_at(ps, op, p->size, qd, true) > 0;
		if (n > best_n) {
			best_n = n;
			best = p->size;
		}
	}
	return best;
}

/*
 * A hard disk's random IOPS of `size` at `depth`, from its QD1 time at that
 * size and its measured curve at another size (characterize measures depth
 * at 4 KiB only): a disk gains with depth by reordering its queue, which
 * shortens the seek and rotational wait, not the transfer, so the time an IO
 * saves at `depth` is the same at every size: t(size, q) = t(size, 1) -
 * [t(ref, 1) - t(ref, q)] (on sim:wd6400aaks within 2 % of the simulated disk
 * at 256 KiB and 1 MiB, QD 2-8, where holding the QD1 rate was 11 % low at
 * QD4 and the fitted curve's gain 10 % high), never a larger gain than
 * the curve's own. 0 when it cannot say: no curve, the curve's own size, a
 * size outside the measured ones.
 */
static double hdd_iops_at_depth(const struct point_set *ps, enum io_op op, uint64_t size,
				unsigned depth)
{
	uint64_t ref = depth_curve_size(ps, op), lo = UINT64_MAX, hi = 0;
	double t1, saved, t, ref1, refq;

	for (size_t i = 0; i < ps->len; i++) {	/* QD1 sizes: interpolate, never extrapolate */
		const struct perf_point *p = &ps->points[i];

		if (p->op == op && p->random && p->qd == 1) {
			lo = p->size < lo ? p->size : lo;
			hi = p->size > hi ? p->size : hi;
		}
	}
	if (!ref || ref == size || size < lo || size > hi)
		return 0;	/* the curve's own size: its points as they are */
	t1 = qd1_seconds(ps, op, (double)size);
	ref1 = measured_iops(ps, op, ref, 1);
	refq = measured_iops(ps, op, ref, depth);
	if (!(t1 > 0) || !(ref1 > 0) || !(refq > 0))
		return 0;
	saved = 1 / ref1 - 1 / refq;
	t = t1 - (saved > 0 ? saved : 0);
	/* no more gain than the curve's own (a size below the curve's: its time is shorter) */
	return 1 / fmax(t, t1 * ref1 / refq);
}

static double member_iops(const void *ctx, enum io_op op, uint64_t size, unsigned depth)
{
	const struct raid_member_src *src = ctx;
	const struct op_model *om = &src->dm.op[op];
	struct prediction p;
	struct errmsg err;
	double v;

	/* a disk at a depth its points at this size do not reach: its QD1 time less what depth saves */
	if (!src->m.ssd && depth > 1 && deepest_measured(&src->ps, op, size) < depth) {
		v = hdd_iops_at_depth(&src->ps, op, size, depth);
		if (v > 0)
			return v;
	}
	v = measured_iops(&src->ps, op, size, depth);
	if (v > 0 || !src->has_model)
		return v;
	if (drive_model_predict(&src->dm, op, size, om->has_qd ? depth : 1, size, &p, &err))
		return 0;
	return p.iops;
}

static double qd1_seconds(const struct point_set *ps, enum io_op op, double size)
{
	double lo_s = 0, hi_s = INFINITY, lo_t = 0, hi_t = 0, first_s = INFINITY, first_t = 0;

	for (size_t i = 0; i < ps->len; i++) {
		const struct perf_point *p = &ps->points[i];
		double s = (double)p->size;

		if (p->op != op || p->qd != 1 || !p->random)
			continue;
		if (s < first_s) {
			first_s = s;
			first_t = 1 / points_at(ps, op, p->size, 1, true);
		}
		if (s <= size && s > lo_s) {
			lo_s = s;
			lo_t = 1 / points_at(ps, op, p->size, 1, true);
		}
		if (s >= size && s < hi_s) {
			hi_s = s;
			hi_t = 1 / points_at(ps, op, p->size, 1, true);
		}
	}
	if (!isfinite(first_s))
		return 0;
	if (!(lo_s > 0))
		return first_t;		/* below the smallest size: its time */
	if (!isfinite(hi_s) || hi_s == lo_s)
		return lo_t;
	return lo_t + (hi_t - lo_t) * (size - lo_s) / (hi_s - lo_s);
}

double raid_member_split_str(const struct raid_member_src *src, enum io_op op, unsigned k)
{
	struct perf_point *pts = calloc(src->ps.len ? src->ps.len : 1, sizeof(*pts));
	struct first_order fo;
	struct errmsg err;
	size_t n = 0;
	double str = 0;

	for (size_t i = 0; pts && i < src->ps.len; i++) {
		const struct perf_point *p = &src->ps.points[i];
		double t = qd1_seconds(&src->ps, op, (double)p->size / k);

		if (p->op == op && p->qd == 1 && p->random && t > 0)
			pts[n++] = (struct perf_point){ .op = op, .random = true, .size = p->size,
							.qd = 1, .iops = 1 / t };
	}
	if (n >= 2 && !first_order_fit(pts, n, &fo, NULL, &err))
		str = fo.str_bps;
	free(pts);
	return str;
}

/* First-order figures, kind, and the rate callback, once dm and ps are filled. */
static void member_finish(struct raid_member_src *src)
{
	struct raid_member *m = &src->m;
	double qd1 = measured_iops(&src->ps, IO_READ, 4096, 1);

	m->name = src->name;
	m->iops_at = member_iops;
	m->ctx = src;
	for (int op = IO_READ; op <= IO_WRITE && src->has_model; op++) {
		const struct op_model *om = &src->dm.op[op];

		if (!om->has_first_order)
			continue;
		/* a capped fit's line runs past the cap: the member's sustained rate is the cap */
		m->str_bps[op] = om->depths[0].has_caps ? fmin(om->fit.str_bps, om->depths[0].caps.bps)
							: om->fit.str_bps;
		m->penalty_s[op] = om->fit.penalty_s;
	}
	if (m->penalty_s[IO_READ] > 0)
		m->ssd = m->penalty_s[IO_READ] < 1e-3;
	else
		m->ssd = qd1 > 1000;	/* 4 KiB reads at QD1 under 1 ms */
	/* a disk's write without cache costs a read and more (settling): far less, a cache took it */
	m->write_cached = !m->ssd && m->penalty_s[IO_WRITE] > 0 &&
			  m->penalty_s[IO_WRITE] < 0.75 * m->penalty_s[IO_READ];
}

/*
 * Whether the JSON file at `path` says it came from a simulated drive: a
 * model whose "source", or a run whose "target"."kind", is sim. Files that
 * cannot be read or say nothing (fio JSON, CSV) count as measured.
 */
static bool from_sim(const char *path)
{
	struct errmsg err;
	json_t *root;
	const char *source, *kind;
	bool sim;

	json_file_load(path, &root, &err);	/* unread or not JSON: root NULL, measured */
	source = json_string_value(json_object_get(root, "source"));
	kind = json_string_value(json_object_get(json_object_get(root, "target"), "kind"));
	sim = (source && !strncmp(source, "sim:", 4)) || (kind && !strcmp(kind, "sim"));
	json_decref(root);
	return sim;
}

/* Every regular file in `dir` whose name ends in .json or .csv, in name order. */
static int load_dir(struct raid_member_src *src, const char *dir)
{
	struct dirent **names;
	struct errmsg err;
	int n = scandir(dir, &names, NULL, alphasort), status = EXIT_OK, used = 0, sim = 0;

	if (n < 0)
		return bad("--member-fit '%s': %s", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		size_t len = strlen(nm);
		char path[4096];

		bool json = len > 5 && !strcmp(nm + len - 5, ".json");

		/* "a.csv" is 5 bytes long: a CSV file's name needs only one more than its suffix */
		if (status == EXIT_OK && (json || (len > 4 && !strcmp(nm + len - 4, ".csv")))) {
			snprintf(path, sizeof(path), "%s/%s", dir, nm);
			if (import_points_file(&src->ps, path, &err))
				status = bad("--member-fit: %s", err.text);
			used++;
			sim += json && from_sim(path);
		}
		free(names[i]);
	}
	free(names);
	if (status == EXIT_OK && !used)
		return bad("--member-fit '%s': no .json or .csv files in it", dir);
	src->simulated = sim == used;
	return status;
}

/* The seek curve of a simulated disk in seconds (ctx: struct raid_member_src). */
static double sim_seek_s(const void *ctx, double x)
{
	const struct raid_member_src *src = ctx;

	return hdd_seek_curve_ms(&src->seek_curve, x < src->seek_x1 ? src->seek_x1 : x) / 1e3;
}

/* A simulated disk's mechanics for the planner: revolution, seek curve, zone rates. */
static int sim_mechanics(struct raid_member_src *src, const struct hdd_config *c,
			 const char *spec_text)
{
	struct errmsg err;
	uint64_t tracks = hdd_geom_tracks(c);

	if (!c->rpm || tracks < 2 || hdd_seek_fit(c, &src->seek_curve, &err))
		return EXIT_OK;		/* no usable mechanics: plan without them */
	src->seek_x1 = 1.0 / (double)tracks;
	if (raid_mech_derive(60.0 / (double)c->rpm, c->inner_mib_s / c->outer_mib_s, sim_seek_s,
			     src, src->mirror_heads, &src->m.mech))
		return bad("--member '%s': out of memory", spec_text);
	return EXIT_OK;
}

/*
 * Capacity, zone rates and mechanics of a simulated drive, from its
 * parameters; `from_model`: the "source" of a model file, which may be an
 * array the user characterized (a sim: member itself must be a drive).
 */
static int sim_figures(struct raid_member_src *src, const char *spec_text, bool from_model)
{
	struct sim_spec spec;
	struct errmsg err;
	const struct sim_param *p;
	int status;

	if (sim_spec_parse(&spec, spec_text + 4, &err))
		return bad("--member '%s': %s", spec_text, err.text);
	if (strcmp(spec.model->name, "hdd") && strcmp(spec.model->name, "ssd") && !from_model) {
		/* an array has no capacity, zone rates, kind or AFR of one drive to plan with */
		sim_spec_release(&spec);
		return bad("--member '%s': an array, not a drive (characterize it with -o and give "
			   "the file to plan an array of arrays)", spec_text);
	}
	p = sim_param_find(spec.model->params, "capacity");
	if (p)
		src->m.capacity = *(const uint64_t *)((const char *)spec.config + p->offset);
	p = sim_param_find(spec.model->params, "outer_mib_s");
	if (p)
		src->outer_bps = *(const double *)((const char *)spec.config + p->offset) * MIB;
	p = sim_param_find(spec.model->params, "inner_mib_s");
	if (p)
		src->inner_bps = *(const double *)((const char *)spec.config + p->offset) * MIB;
	src->m.ssd = !strcmp(spec.model->name, "ssd");
	status = spec.model == &sim_hdd_model ? sim_mechanics(src, spec.config, spec_text) : EXIT_OK;
	sim_spec_release(&spec);
	return status;
}

/* The random points of one op of a model file's "model" object into src->ps. */
static int model_file_op_points(struct raid_member_src *src, const json_t *om, enum io_op op)
{
	size_t i;
	const json_t *p;

	json_array_foreach(json_object_get(om, "points"), i, p) {
		json_t *size = json_object_get(p, "size_bytes"), *qd = json_object_get(p, "qd");
		double iops = json_number_value(json_object_get(p, "iops"));
		struct perf_point pt = { .op = op, .random = json_is_true(json_object_get(p, "random")) };

		if (!json_is_integer(size) || !json_is_integer(qd) || json_integer_value(size) <= 0 ||
		    json_integer_value(qd) <= 0 || json_integer_value(qd) > 1 << 20 || !(iops > 0) ||
		    !isfinite(iops))
			continue;	/* not a usable point: model_load_file checked the rest */
		pt.size = (uint64_t)json_integer_value(size);
		pt.qd = (unsigned)json_integer_value(qd);
		pt.iops = iops;
		pt.align = pt.size;
		if (point_set_add(&src->ps, &pt))
			return bad("--member: out of memory");
	}
	return EXIT_OK;
}

/*
 * A model file written by characterize: its measured points, and, when it
 * was measured on a simulated drive ("source": "sim:..." that still
 * parses), that drive's zone rates and mechanics, as for a sim: member
 * (not its capacity: a model file leaves that to --capacity).
 */
static int model_file_extras(struct raid_member_src *src, const char *path)
{
	struct errmsg err;
	json_t *root, *model;
	const char *source;
	int ret = json_file_load(path, &root, &err), status;

	if (ret == -EBADMSG)
		return EXIT_OK;		/* model_load_file read it: nothing more to take */
	if (ret)
		return bad("--member: %s", err.text);
	model = json_object_get(root, "model");
	status = model_file_op_points(src, json_object_get(model, "read"), IO_READ);
	if (status == EXIT_OK)
		status = model_file_op_points(src, json_object_get(model, "write"), IO_WRITE);
	source = json_string_value(json_object_get(root, "source"));
	if (status == EXIT_OK && source && !strncmp(source, "sim:", 4)) {
		struct sim_spec spec;

		if (!sim_spec_parse(&spec, source + 4, &err)) {	/* a drive that is still there */
			sim_spec_release(&spec);
			status = sim_figures(src, source, true);
			src->m.capacity = 0;	/* a model file does not say: --capacity */
		}
	}
	json_decref(root);
	return status;
}

/* The IOPS a measured point may have: beyond them a plan's sums overflow or vanish. */
#define POINT_IOPS_MIN 1e-6		/* one IO in eleven days */
#define POINT_IOPS_MAX 1e10		/* a thousand times the fastest drives' */

/*
 * Every measured point within POINT_IOPS_MIN..MAX (a file's 1e308 IOPS made
 * the plan print "inf IOPS"). An exit status, after one line naming it.
 */
static int check_points(const struct raid_member_src *src, const char *spec, bool is_dir)
{
	for (size_t i = 0; i < src->ps.len; i++) {
		const struct perf_point *p = &src->ps.points[i];

		if (!(p->iops >= POINT_IOPS_MIN && p->iops <= POINT_IOPS_MAX))
			return bad("%s '%s': a %s point of %g IOPS (%llu bytes at QD %u): expected "
				   "%g to %g", is_dir ? "--member-fit" : "--member", spec,
				   io_op_name(p->op), p->iops, (unsigned long long)p->size, p->qd,
				   POINT_IOPS_MIN, POINT_IOPS_MAX);
	}
	return EXIT_OK;
}

int raid_member_load(struct raid_member_src *src, const char *spec, bool is_dir,
		     unsigned mirror_heads)
{
	struct errmsg err;
	int status = EXIT_OK;
	bool sim = !strncmp(spec, "sim:", 4);

	memset(src, 0, sizeof(*src));
	src->mirror_heads = mirror_heads;
	point_set_init(&src->ps);
	snprintf(src->name, sizeof(src->name), "%s", spec);
	if (sim && (status = sim_figures(src, spec, false)) == EXIT_OK)
		status = characterize_points(spec, &src->ps);
	else if (!sim && is_dir)
		status = load_dir(src, spec);
	else if (!sim && model_load_file(spec, &src->dm, &err))
		return bad("--member: %s", err.text);
	else if (!sim)
		src->has_model = (status = model_file_extras(src, spec)) == EXIT_OK;
	if (!sim && !is_dir)
		src->simulated = from_sim(spec);
	src->simulated |= sim;
	if (status == EXIT_OK)
		status = check_points(src, spec, is_dir);
	if (status)
		return status;
	if ((sim || is_dir) && !drive_model_fit(&src->ps, &src->dm, &err))
		src->has_model = true;
	else if (sim || is_dir)
		return bad("%s '%s': %s", is_dir ? "--member-fit" : "--member", spec, err.text);
	{
		bool ssd = src->m.ssd;

		member_finish(src);
		if (sim)
			src->m.ssd = ssd;
	}
	return EXIT_OK;
}

void raid_member_release(struct raid_member_src *src)
{
	if (src->has_model)
		drive_model_release(&src->dm);
	point_set_release(&src->ps);
}

static int profile_from_json(const char *path, const json_t *root, struct raid_profile *out)
{
	const json_t *prof = json_object_get(root, "profile");
	const json_t *points = json_object_get(prof, "points");
	const char *schema = json_string_value(json_object_get(root, "schema"));
	const char *op = json_string_value(json_object_get(root, "op"));
	size_t n = json_array_size(points), tenth = n / 10 ? n / 10 : 1;
	double outer = 0, inner = 0;
	int ret;

	if (!schema || strcmp(schema, "iomodel.profile/1"))
		return bad("--profile: %s: not an iomodel profile (schema \"iomodel.profile/1\"); "
			   "make one with 'iomodel profile --json'", path);
	if (!op || strcmp(op, "read"))
		return bad("--profile: %s: op: a profile of reads is needed", path);
	ret = json_number_u64(json_object_get(root, "target_size"), 1, UINT64_MAX / 2, &out->size);
	if (ret)
		return bad("--profile: %s: target_size: %s", path, json_number_strerror(ret));
	if (n < 2)
		return bad("--profile: %s: profile.points: expected 2 points or more", path);
	for (size_t i = 0; i < n; i++) {
		double v;

		ret = json_number_double(json_object_get(json_array_get(points, i), "mib_s"),
					 1e-9, 1e9, &v);
		if (ret)
			return bad("--profile: %s: profile.points[%zu].mib_s: %s", path, i,
				   json_number_strerror(ret));
		outer += i < tenth ? v : 0;		/* the first and the last tenth */
		inner += i >= n - tenth ? v : 0;
	}
	out->outer_bps = outer / (double)tenth * MIB;
	out->inner_bps = inner / (double)tenth * MIB;
	return EXIT_OK;
}

int raid_member_profile_load(const char *path, struct raid_profile *out)
{
	struct errmsg err;
	json_t *root;
	int status;

	if (json_file_load(path, &root, &err))
		return bad("--profile: %s", err.text);
	status = profile_from_json(path, root, out);
	json_decref(root);
	return status;
}
