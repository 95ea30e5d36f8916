/*
 * inputs_assess.c — the results of iomodel assess (iomodel.assess/1) as a
 * report reads them: WinSAT's figures of every target in assess.targets[].
 * Every figure is range-checked (io/json_number.h); the target's name is
 * kept as printable ASCII without HTML's special characters, since it is
 * drawn into the page's charts. A file that lacks a figure is refused with
 * one line naming the target's index and the key.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "io/json_number.h"
#include "report/inputs.h"

/* The keys of iomodel.assess/1, in the order of enum report_assess_figure. */
static const char *const figure_keys[REPORT_ASSESS_FIGURES] = {
	"seq_read_mb_s", "random_read_mb_s", "seq_write_mb_s", "random_read_ms",
	"read_ms_with_seq_writes", "read_ms_with_random_writes", "latency_p95_ms",
	"latency_max_ms",
};

/* Largest figure taken: 10^12 MB/s or ms is no measurement. */
#define FIGURE_MAX 1e12

/* `in` as printable ASCII, each other byte and each of <>&"' as '?'. */
static void safe_name(char *out, size_t len, const char *in)
{
	size_t i = 0;

	for (; in && in[i] && i + 1 < len; i++) {
		unsigned char c = (unsigned char)in[i];

		out[i] = c < 0x20 || c > 0x7e || strchr("<>&\"'", c) ? '?' : (char)c;
	}
	out[i] = '\0';
}

static int load_target(struct assess_target_record *t, const json_t *o, const char *path,
		       size_t index, struct errmsg *err)
{
	const char *name = json_string_value(json_object_get(o, "target"));

	if (!name)
		return errmsg_set(err, -EINVAL, "%s: assess.targets[%zu]: no \"target\"", path,
				  index);
	safe_name(t->target, sizeof(t->target), name);
	for (size_t k = 0; k < REPORT_ASSESS_FIGURES; k++) {
		int ret = json_number_double(json_object_get(o, figure_keys[k]), 0, FIGURE_MAX,
					     &t->figure[k]);

		if (ret)
			return errmsg_set(err, -EINVAL, "%s: assess.targets[%zu].%s: %s", path,
					  index, figure_keys[k], json_number_strerror(ret));
	}
	if (t->figure[REPORT_ASSESS_P95_MS] > t->figure[REPORT_ASSESS_MAX_MS])
		return errmsg_set(err, -EINVAL, "%s: assess.targets[%zu]: latency_p95_ms above "
				  "latency_max_ms", path, index);
	return 0;
}

int report_assess_load(struct report_drive *d, const char *path, const json_t *root,
		       struct errmsg *err)
{
	const json_t *targets = json_object_get(json_object_get(root, "assess"), "targets");
	size_t n = json_array_size(targets);

	if (!json_is_array(targets) || !n || n > REPORT_ASSESS_MAX_TARGETS)
		return errmsg_set(err, -EINVAL, "%s: an iomodel.assess/1 file without "
				  "assess.targets (1 to %d of them)", path,
				  REPORT_ASSESS_MAX_TARGETS);
	d->assess.targets = calloc(n, sizeof(*d->assess.targets));
	if (!d->assess.targets)
		return errmsg_set(err, -ENOMEM, "%s: out of memory", path);
	for (size_t i = 0; i < n; i++) {
		int ret = load_target(&d->assess.targets[i], json_array_get(targets, i), path, i,
				      err);

		if (ret)
			return ret;
	}
	d->assess.n = n;
	return 0;
}

void report_assess_release(struct report_drive *d)
{
	free(d->assess.targets);
	d->assess.targets = NULL;
	d->assess.n = 0;
}
