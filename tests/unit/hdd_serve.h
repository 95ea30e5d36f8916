/*
 * hdd_serve.h — helpers of the simulated hard disk's unit tests: a drive
 * from "hdd,BASE,EXTRA" settings as sim: parses them, and requests served
 * one at a time, each submitted when the one before completed (as DiskSim's
 * validation traces were measured). Header-only, for test programs.
 */
#ifndef IOMODEL_TEST_HDD_SERVE_H
#define IOMODEL_TEST_HDD_SERVE_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/device.h"
#include "sim/hdd.h"
#include "sim/spec.h"

/* The hdd model with `base` and `extra` (NULL: none) over its defaults. */
static inline int hdd_test_parse(const char *base, const char *extra, struct hdd_config *c,
				 struct errmsg *err)
{
	char text[1024];
	struct sim_spec spec;
	int ret;

	snprintf(text, sizeof(text), "hdd,%s%s%s", base, extra ? "," : "", extra ? extra : "");
	ret = sim_spec_parse(&spec, text, err);
	if (!ret && spec.model != &sim_hdd_model)
		ret = errmsg_set(err, -EINVAL, "not the hdd model");
	if (!ret)
		*c = *(const struct hdd_config *)spec.config;
	if (!ret)
		sim_spec_release(&spec);
	return ret;
}

/* The same, exiting the test when the settings are refused. */
static inline struct hdd_config hdd_test_drive(const char *base, const char *extra)
{
	struct hdd_config c;
	struct errmsg err;

	if (hdd_test_parse(base, extra, &c, &err)) {
		printf("settings refused: %s\n", err.text);
		exit(1);
	}
	return c;
}

/*
 * One request at a time: n requests (offset, length, op from the arrays), each
 * submitted think_ns after the one before completed; service ms each.
 */
static inline void hdd_test_serve_think(const struct hdd_config *c, unsigned n,
					const uint64_t *off, const uint32_t *len,
					const enum io_op *op, uint64_t think_ns, double *ms)
{
	struct sim_device *d;
	struct io_request r, *out[1];
	struct errmsg err;
	uint64_t now = 0;

	if (sim_hdd_model.create(c, 1, &d, &err)) {
		printf("cannot create the drive: %s\n", err.text);
		exit(1);
	}
	for (unsigned i = 0; i < n; i++) {
		r = (struct io_request){ .offset = off[i], .length = len[i], .op = op[i],
					 .submit_ns = now };
		if (d->ops->submit(d, &r, now)) {
			printf("submit refused\n");
			exit(1);
		}
		now = d->ops->next_completion(d);
		d->ops->complete(d, now, out, 1);
		ms[i] = (double)(now - r.submit_ns) / 1e6;
		now += think_ns;
	}
	d->ops->destroy(d);
}

/* hdd_test_serve_think() with no think time. */
static inline void hdd_test_serve(const struct hdd_config *c, unsigned n, const uint64_t *off,
				  const uint32_t *len, const enum io_op *op, double *ms)
{
	hdd_test_serve_think(c, n, off, len, op, 0, ms);
}

/* The first byte of track trk (of the drive's geometry). */
static inline uint64_t hdd_test_track_start(const struct hdd_geom *g, uint32_t trk)
{
	return hdd_s_of(g, (uint64_t)trk << 32);
}

#endif
