/*
 * trace.h — block traces read from text files, as the `replay` command
 * replays them: one request per record (arrival time, device, offset, length,
 * read or write), whatever tool wrote the file.
 *
 * Formats:
 *   disksim   DiskSim's ASCII trace: "TIME_MS DEVICE BLOCK BLOCKS FLAGS" per
 *             line, 512-byte blocks, flags bit 0 set = read (1), clear = write;
 *   blkparse  blkparse's default text output: the queue events (action Q;
 *             D, the issue, when a trace has no Q at all) of lines
 *             "MAJ,MIN CPU SEQ SECONDS PID ACTION RWBS SECTOR + COUNT [PROC]",
 *             RWBS holding R or W; every other line (other actions, the
 *             summary blkparse prints at the end) is skipped;
 *   validate  DiskSim's validation traces (its valid/ folder): "R|W CACHE
 *             BLOCK BLOCKS SERVICE_US THINK_US" per line, measured on a real
 *             drive one request at a time: each request arrives THINK_US
 *             after the previous one completed (a closed loop), and the
 *             measured service time is kept for comparison.
 *
 * Invariants: times are non-decreasing (an open trace), lengths are > 0,
 * every record names the line it came from. Bad lines are errors naming
 * "FILE:LINE". Nothing here does IO on a target.
 */
#ifndef IOMODEL_TRACE_H
#define IOMODEL_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/errmsg.h"
#include "util/io_request.h"

/* Most requests one trace may hold (16 Mi: 512 MiB of records). */
#define TRACE_MAX_REQUESTS ((size_t)1 << 24)
/* Longest request: the largest IO Linux carries in one call, rounded to MiB. */
#define TRACE_MAX_LENGTH (2047ULL << 20)

enum trace_format { TRACE_DISKSIM, TRACE_BLKPARSE, TRACE_VALIDATE };

struct trace_req {
	uint64_t time_ns;	/* arrival; in a closed trace: think time after the previous completion */
	uint64_t offset;	/* bytes */
	uint32_t length;	/* bytes, > 0 */
	enum io_op op;
	unsigned device;	/* 0 when the format has none */
	uint64_t measured_ns;	/* validate: the measured service time; else 0 */
	unsigned line;		/* where it was read */
};

struct trace {
	struct trace_req *reqs;
	size_t n;
	size_t alloc;
	enum trace_format format;
	bool closed;		/* arrivals follow completions (validate) */
	bool measured;		/* every record has measured_ns */
};

/* "disksim", "blkparse", "validate": 0, or -EINVAL. */
int trace_format_parse(const char *name, enum trace_format *out);
const char *trace_format_name(enum trace_format f);

/*
 * Parse `text` (the contents of `path`, which only names it in errors).
 * -EINVAL with "PATH:LINE: what is wrong" for a bad line, an empty trace or
 * one too large; -ENOMEM.
 */
int trace_parse(struct trace *t, const char *path, const char *text, enum trace_format f,
		struct errmsg *err);

/* Read `path` (util/input_file.h rules) and parse it. */
int trace_load(struct trace *t, const char *path, enum trace_format f, struct errmsg *err);

/* Keep only the requests of `device`; -EINVAL when none remain. */
int trace_keep_device(struct trace *t, const char *path, unsigned device, struct errmsg *err);

/*
 * Check every request against a target of `size` bytes that needs offsets and
 * lengths in multiples of `align`: -EINVAL naming "PATH:LINE" otherwise.
 */
int trace_check_fits(const struct trace *t, const char *path, uint64_t size, uint32_t align,
		     struct errmsg *err);

/* The longest request of the trace. */
uint32_t trace_max_length(const struct trace *t);

void trace_release(struct trace *t);

#endif
