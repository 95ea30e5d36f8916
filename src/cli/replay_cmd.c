/*
 * replay_cmd.c — `iomodel replay`: a block trace (DiskSim ASCII, blkparse
 * text, DiskSim validation) replayed on a target (suite/replay.h): service
 * and response time distributions, IOPS, MiB/s; for a validation trace, the
 * demerit against the measured service times (model/demerit.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/commands.h"
#include "cli/run_options.h"
#include "cli/signals.h"
#include "io/output_file.h"
#include "io/run_output.h"
#include "io/trace.h"
#include "model/demerit.h"
#include "suite/replay.h"
#include "util/units.h"

struct replay_cli {
	struct target_request target;
	enum backend_kind engine;
	enum trace_format format;
	struct replay_options ro;
	uint64_t device;
	bool device_set;
	bool json;
	const char *trace_path;
	const char *log_path;	/* --log: one CSV line per request */
};

enum { OPT_FORMAT = OPTION_ID_OWN, OPT_SPEED, OPT_QD, OPT_DEVICE, OPT_LOG, OPT_JSON };

static const struct option replay_long_options[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "speed", required_argument, NULL, OPT_SPEED },
	{ "qd", required_argument, NULL, OPT_QD },
	{ "device", required_argument, NULL, OPT_DEVICE },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void cmd_replay_usage(FILE *f)
{
	fputs("usage: iomodel replay --target PATH|null|sim:DRIVE [options] TRACE\n"
	      "\n"
	      "Replay the requests of a block trace (arrival time, block, size, read or\n"
	      "write) on a target, most usefully a simulated drive: per-request service\n"
	      "time (completion - submission) and response time (completion - arrival),\n"
	      "IOPS and MiB/s. Every device of the trace goes to the one target unless\n"
	      "--device picks one. Writes need --destroy-data on existing data.\n"
	      "\n"
	      "  --target, --size, --destroy-data, --keep, --engine, --buffered, --seed\n"
	      "                       as for 'iomodel run'\n"
	      "  --format FMT         disksim (ASCII: time_ms device block blocks flags,\n"
	      "                       flags 1 read, 0 write, 512-byte blocks), blkparse\n"
	      "                       (blkparse's default text output, the Q events), or\n"
	      "                       validate (DiskSim valid/ traces: R|W cache block\n"
	      "                       blocks service_us think_us, one request at a time,\n"
	      "                       with the demerit against the measured times)\n"
	      "                       (disksim)\n"
	      "  --speed asfast|timed asfast: a closed loop at --qd; timed: each request\n"
	      "                       submitted at its trace time (virtual time on sim:),\n"
	      "                       at most --qd in flight (timed)\n"
	      "  --qd N               most requests in flight, 1 to 1024 (32)\n"
	      "  --device N           replay only the requests of device N (blkparse:\n"
	      "                       MAJ * 1048576 + MIN)\n"
	      "  --log FILE           write one CSV line per completed request: line of the\n"
	      "                       trace, op, offset, bytes, service_ms (and measured_ms\n"
	      "                       for a validation trace)\n"
	      "  --json               the result as JSON (schema iomodel.replay/1)\n", f);
}

static int apply_replay_option(void *ctx, int id, const char *arg)
{
	struct replay_cli *o = ctx;
	uint64_t v;
	int ret = 0;

	switch (id) {
	case OPT_JSON: o->json = true; break;
	case OPT_LOG: o->log_path = arg; break;
	case OPT_DEVICE:
		ret = count_opt("--device", arg, 0, UINT32_MAX, &o->device);
		o->device_set = true;
		break;
	case OPT_QD:
		ret = count_opt("--qd", arg, 1, 1024, &v);
		o->ro.qd = (unsigned)v;
		break;
	case OPT_FORMAT:
		if (trace_format_parse(arg, &o->format))
			ret = bad("--format '%s': expected disksim, blkparse or validate", arg);
		break;
	case OPT_SPEED:
		if (!strcmp(arg, "asfast"))
			o->ro.speed = REPLAY_ASFAST;
		else if (!strcmp(arg, "timed"))
			o->ro.speed = REPLAY_TIMED;
		else
			ret = bad("--speed '%s': expected asfast or timed", arg);
		break;
	default: ret = EXIT_BAD_INPUT; break;
	}
	return ret;
}

/* Mean, p50, p90, p99, p99.9, max in ms. */
static void dist_ms(const struct histogram *h, double out[6])
{
	static const double pct[4] = { 50, 90, 99, 99.9 };

	out[0] = hist_mean(h) / 1e6;
	for (int i = 0; i < 4; i++)
		out[1 + i] = (double)hist_percentile(h, pct[i]) / 1e6;
	out[5] = (double)h->max / 1e6;
}

/* The demerit (ms) of a validation replay, -1 when there is none. */
static double replay_demerit(const struct trace *t, const struct replay_result *r)
{
	double *sim, *meas, d;

	if (!t->measured || r->completed != t->n)
		return -1;
	sim = malloc(t->n * sizeof(*sim));
	meas = malloc(t->n * sizeof(*meas));
	for (size_t i = 0; sim && meas && i < t->n; i++) {
		sim[i] = (double)r->service_ns[i] / 1e6;
		meas[i] = (double)t->reqs[i].measured_ns / 1e6;
	}
	d = sim && meas ? demerit(sim, t->n, meas, t->n) : -1;
	free(sim);
	free(meas);
	return d;
}

static json_t *dist_json(const struct histogram *h)
{
	double v[6];

	dist_ms(h, v);
	return json_pack("{s:f,s:f,s:f,s:f,s:f,s:f}", "mean_ms", v[0], "p50_ms", v[1],
			 "p90_ms", v[2], "p99_ms", v[3], "p99_9_ms", v[4], "max_ms", v[5]);
}

static int print_json(const struct replay_cli *o, const struct measure_target *m,
		      const struct trace *t, const struct replay_result *r, double iops,
		      double mib_s, double dem)
{
	json_t *doc = json_pack("{s:s,s:s,s:{s:s,s:s,s:I},s:{s:s,s:s,s:I},s:s,s:I,s:s,"
				"s:I,s:I,s:I,s:I,s:I,s:f,s:f,s:f,s:b,s:o,s:o}",
				"schema", "iomodel.replay/1", "iomodel_version", IOMODEL_VERSION,
				"trace", "path", o->trace_path, "format",
				trace_format_name(t->format), "requests", (json_int_t)t->n,
				"target", "path", m->t.path, "kind", measure_kind_name(m->t.kind),
				"size", (json_int_t)m->t.size,
				"speed", o->ro.speed == REPLAY_TIMED ? "timed" : "asfast",
				"qd", (json_int_t)r->qd, "engine", r->engine,
				"completed", (json_int_t)r->completed,
				"reads", (json_int_t)r->ios[IO_READ],
				"writes", (json_int_t)r->ios[IO_WRITE],
				"read_bytes", (json_int_t)r->bytes[IO_READ],
				"write_bytes", (json_int_t)r->bytes[IO_WRITE],
				"seconds", (double)r->elapsed_ns / 1e9, "iops", iops, "mib_s", mib_s,
				"interrupted", r->interrupted, "service", dist_json(&r->service),
				"response", dist_json(&r->response));

	if (!doc)
		return -ENOMEM;
	if (dem >= 0 && json_object_set_new(doc, "demerit_ms", json_real(dem)))
		return -ENOMEM;
	return json_dump_document(stdout, doc);
}

static int print_result(const struct replay_cli *o, const struct measure_target *m,
			const struct trace *t, const struct replay_result *r)
{
	double secs = (double)r->elapsed_ns / 1e9, v[6];
	double iops = secs > 0 ? (double)r->completed / secs : 0;
	double mib_s = secs > 0 ? (double)(r->bytes[0] + r->bytes[1]) / secs / MIB : 0;
	double dem = replay_demerit(t, r);

	if (o->json)
		return print_json(o, m, t, r, iops, mib_s, dem);
	printf("replay of %s (%s, %zu requests) on %s, %s, QD %u\n", o->trace_path,
	       trace_format_name(t->format), t->n, m->t.path,
	       o->ro.speed == REPLAY_TIMED ? "timed" : "as fast as possible", r->qd);
	printf("completed %zu: %llu reads, %llu writes in %.6g s: %.5g IOPS, %.4g MiB/s\n",
	       r->completed, (unsigned long long)r->ios[IO_READ],
	       (unsigned long long)r->ios[IO_WRITE], secs, iops, mib_s);
	printf("%-9s %9s %9s %9s %9s %9s %9s\n", "ms", "mean", "p50", "p90", "p99", "p99.9",
	       "max");
	dist_ms(&r->service, v);
	printf("%-9s %9.4g %9.4g %9.4g %9.4g %9.4g %9.4g\n", "service", v[0], v[1], v[2], v[3],
	       v[4], v[5]);
	dist_ms(&r->response, v);
	printf("%-9s %9.4g %9.4g %9.4g %9.4g %9.4g %9.4g\n", "response", v[0], v[1], v[2], v[3],
	       v[4], v[5]);
	if (dem >= 0)
		printf("demerit %.4f ms (RMS horizontal distance between the simulated and the "
		       "measured service-time CDFs)\n", dem);
	return ferror(stdout) ? -EIO : 0;
}

/* --log: the per-request CSV into `f` (opened before the replay), closed. 0 or EXIT_FAILED. */
static int write_log(FILE *f, const char *path, const struct trace *t,
		     const struct replay_result *r)
{
	int bad_write;

	fprintf(f, t->measured ? "line,op,offset,bytes,service_ms,measured_ms\n"
			       : "line,op,offset,bytes,service_ms\n");
	for (size_t i = 0; i < t->n; i++) {
		const struct trace_req *q = &t->reqs[i];

		if (!r->service_ns[i])
			continue;	/* not completed */
		fprintf(f, "%u,%s,%llu,%u,%.6f", q->line, io_op_name(q->op),
			(unsigned long long)q->offset, q->length, (double)r->service_ns[i] / 1e6);
		if (t->measured)
			fprintf(f, ",%.6f", (double)q->measured_ns / 1e6);
		fputc('\n', f);
	}
	bad_write = ferror(f);
	if (fclose(f) || bad_write)
		return say("--log '%s': write failed", path), EXIT_FAILED;
	return 0;
}

static int replay_on(struct replay_cli *o, struct measure_target *m, struct trace *t,
		     const volatile sig_atomic_t *stop)
{
	struct replay_result *r;
	unsigned printed = 0;
	struct errmsg err;
	FILE *log = NULL;
	bool log_made = false;
	int ret, status;

	/* --log is opened before the replay: a bad path is bad input, found before any IO */
	if (o->log_path && output_file_is_target(o->log_path, m->t.fd))
		return bad("--log '%s': is the target of this replay", o->log_path);
	if (o->log_path && !(log = output_file_open(o->log_path, &log_made, &err)))
		return bad("--log: %s", err.text);
	r = malloc(sizeof(*r));
	ret = r ? replay_run(m, t, &o->ro, stop, r, &err) : -ENOMEM;
	print_new_notices(m, &printed);
	if (!r || (ret && !r->error.set && !r->service_ns)) {
		say("%s", r ? err.text : "out of memory");
		if (log && !fclose(log) && log_made)
			unlink(o->log_path);
		free(r);
		return exit_status_of_error(ret);
	}
	status = ret ? report_io_error(&r->error, &err)
		     : r->interrupted ? EXIT_INTERRUPTED : EXIT_OK;
	if (print_result(o, m, t, r) && status == EXIT_OK)
		status = EXIT_FAILED;
	if (log && write_log(log, o->log_path, t, r) && status == EXIT_OK)
		status = EXIT_FAILED;
	replay_result_release(r);
	free(r);
	return status;
}

static bool trace_writes(const struct trace *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->reqs[i].op == IO_WRITE)
			return true;
	return false;
}

static int load_trace(struct replay_cli *o, struct trace *t)
{
	struct errmsg err;
	int ret = trace_load(t, o->trace_path, o->format, &err);

	if (!ret && o->device_set) {
		ret = trace_keep_device(t, o->trace_path, (unsigned)o->device, &err);
		if (ret)
			trace_release(t);
	}
	if (ret)
		fprintf(stderr, "iomodel: %s\n", err.text);
	return ret ? exit_status_of_error(ret == -ENOMEM ? ret : -EINVAL) : EXIT_OK;
}

int cmd_replay(int argc, char **argv)
{
	const volatile sig_atomic_t *stop = signals_install_stop();
	struct replay_cli o = {
		.target = { .direct = true }, .engine = BACKEND_IO_URING,
		.format = TRACE_DISKSIM, .ro = { .speed = REPLAY_TIMED, .qd = 32, .seed = 1 },
	};
	struct command_line cl = { argv[0], replay_long_options, ":h", cmd_replay_usage,
				   apply_replay_option, &o };
	const struct target_options topts = {
		.which = TOPT_TARGET | TOPT_SIZE_OR_ZERO | TOPT_DESTROY | TOPT_KEEP | TOPT_ENGINE |
			 TOPT_BUFFERED | TOPT_SEED,
		.target = &o.target, .engine = &o.engine, .seed = &o.ro.seed };
	struct measure_target m;
	struct trace t;
	struct errmsg err;
	int first = 0, status = parse_target_command_line(&cl, &topts, argc, argv, &first);

	if (status)
		return status < 0 ? EXIT_OK : status;
	if (!o.target.path)
		return bad("replay: missing --target (a file, a block device, null, or sim:DRIVE)");
	if (first != argc - 1)
		return bad("replay: expected one TRACE file after the options, found %d",
			   argc - first);
	o.trace_path = argv[first];
	if ((status = load_trace(&o, &t)))
		return status;
	o.target.writes = trace_writes(&t);
	o.target.stop = stop;
	status = measure_open(&m, &o.target, o.engine, o.ro.seed, &err);
	if (!status) {
		uint32_t align = o.target.direct && m.t.kind != TARGET_NULL ? m.t.dio_align : 1;

		status = trace_check_fits(&t, o.trace_path, m.t.size, align, &err);
		status = status ? (fprintf(stderr, "iomodel: %s\n", err.text), EXIT_BAD_INPUT)
				: replay_on(&o, &m, &t, stop);
		measure_close(&m);
	} else {
		fprintf(stderr, "iomodel: %s\n", err.text);
		status = exit_status_of_error(status);
	}
	trace_release(&t);
	return status == EXIT_INTERRUPTED && *stop ? 128 + *stop : status;
}
