/*
 * inputs_suites.c — the results of the seeds' tools as a report reads them:
 * iomodel profile (iomodel.profile/1: rate against position, access time,
 * burst rate) and iomodel state (iomodel.state/1: fresh, used, trimmed and
 * their rounds). Every number is checked before use; a file that lacks
 * them is refused with one line.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "report/inputs.h"

/* A finite, non-negative number at `key` of `o`; false otherwise. */
static bool number_at(const json_t *o, const char *key, double *out)
{
	const json_t *v = json_object_get(o, key);

	*out = json_number_value(v);
	return json_is_number(v) && isfinite(*out) && *out >= 0;
}

static int load_profile(struct report_drive *d, const char *path, const json_t *root,
			struct errmsg *err)
{
	const json_t *p = json_object_get(root, "profile"), *points = json_object_get(p, "points");
	struct profile_record *pr = &d->profile;
	size_t n = json_array_size(points);

	if (!n || !number_at(p, "access_ms", &pr->access_ms) ||
	    !number_at(p, "burst_mib_s", &pr->burst_mib_s))
		return errmsg_set(err, -EINVAL, "%s: an iomodel.profile/1 file without "
				  "profile.points, access_ms or burst_mib_s", path);
	pr->position_pct = calloc(n, sizeof(double));
	pr->mib_s = calloc(n, sizeof(double));
	if (!pr->position_pct || !pr->mib_s)
		return errmsg_set(err, -ENOMEM, "%s: out of memory", path);
	for (size_t i = 0; i < n; i++) {
		const json_t *q = json_array_get(points, i);

		if (!number_at(q, "position_pct", &pr->position_pct[i]) ||
		    pr->position_pct[i] > 100 || !number_at(q, "mib_s", &pr->mib_s[i]))
			return errmsg_set(err, -EINVAL, "%s: profile.points[%zu]: position_pct "
					  "(0 to 100) or mib_s missing or out of range", path, i);
	}
	pr->n = n;
	pr->write = !strcmp(json_string_value(json_object_get(root, "op")) ?: "", "write");
	return 0;
}

static int load_state(struct report_drive *d, const char *path, const json_t *root,
		      struct errmsg *err)
{
	static const char *const names[STATE_KINDS] = { "fresh", "used", "trimmed" };
	const json_t *states = json_object_get(root, "states");
	struct state_record *sr = &d->state;

	if (json_array_size(states) != STATE_KINDS)
		return errmsg_set(err, -EINVAL, "%s: an iomodel.state/1 file without its three "
				  "states", path);
	for (size_t k = 0; k < STATE_KINDS; k++) {
		const json_t *s = json_array_get(states, k), *rounds = json_object_get(s, "rounds");
		const json_t *steady = json_object_get(s, "steady_state");
		size_t n = json_array_size(rounds);
		double round;

		if (strcmp(json_string_value(json_object_get(s, "state")) ?: "", names[k]) ||
		    !number_at(s, "mib_s", &sr->mib_s[k]) ||
		    !number_at(steady, "round", &round) || round > (double)n)
			return errmsg_set(err, -EINVAL, "%s: states[%zu]: expected state \"%s\" "
					  "with mib_s, rounds and steady_state.round", path, k,
					  names[k]);
		sr->steady_round[k] = (size_t)round;
		sr->round_mib_s[k] = calloc(n ? n : 1, sizeof(double));
		if (!sr->round_mib_s[k])
			return errmsg_set(err, -ENOMEM, "%s: out of memory", path);
		for (size_t i = 0; i < n; i++)
			if (!number_at(json_array_get(rounds, i), "mib_s", &sr->round_mib_s[k][i]))
				return errmsg_set(err, -EINVAL, "%s: states[%zu].rounds[%zu]: no "
						  "mib_s", path, k, i);
		sr->n_rounds[k] = n;
	}
	sr->set = true;
	return 0;
}

int report_suite_load(struct report_drive *d, const char *path, const json_t *root,
		      const char *schema, struct errmsg *err)
{
	int ret;

	if (schema && !strcmp(schema, "iomodel.profile/1"))
		ret = load_profile(d, path, root, err);
	else if (schema && !strcmp(schema, "iomodel.state/1"))
		ret = load_state(d, path, root, err);
	else if (schema && !strcmp(schema, "iomodel.assess/1"))
		ret = report_assess_load(d, path, root, err);
	else
		return 1;
	if (!ret) {
		snprintf(d->origin, sizeof(d->origin), "%s (%s)", path, schema);
		report_drive_key(root, path, d->key, sizeof(d->key), d->label, sizeof(d->label));
		d->n_files = 1;
	}
	snprintf(d->model_note, sizeof(d->model_note), "%s results carry no drive model",
		 !strcmp(schema, "iomodel.profile/1") ? "profile"
		 : !strcmp(schema, "iomodel.assess/1") ? "assess" : "state");
	return ret;
}

void report_suite_release(struct report_drive *d)
{
	free(d->profile.position_pct);
	free(d->profile.mib_s);
	for (size_t k = 0; k < STATE_KINDS; k++)
		free(d->state.round_mib_s[k]);
	report_assess_release(d);
}
