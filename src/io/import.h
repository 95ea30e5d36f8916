/*
 * import.h — reading measured performance points (model/points.h) from the
 * files other tools and iomodel itself write, so that the models can be fit
 * to measurements taken elsewhere.
 *
 * Three formats, told apart by the text itself (not by the file name):
 *
 *  - iomodel JSON: the output of `iomodel run --json` (schema
 *    "iomodel.run/1", docs/json-schema.md), or a sweep, schema
 *    "iomodel.sweep/1": {"schema": "iomodel.sweep/1", "runs": [run, ...]}
 *    where each run is a run object as above. One point per element of
 *    results[]: op from results[].op, size job.bs, qd job.qd, random
 *    job.random, align job.align, iops results[].iops, mean latency
 *    results[].lat_us.mean. Elements with ios 0 are skipped.
 *
 *  - fio JSON (`fio --output-format=json` or json+, fio 2.x and 3.x).
 *    Each entry of jobs[] has its options in "job options", falling back
 *    to the top-level "global options", falling back to fio's defaults
 *    (import_fio_job.c):
 *      rw       read; "rand..." modes are random; a ":N" suffix is ignored
 *      bs       4096 (fio's default); "r,w[,t]" gives reads and writes their
 *               own sizes, an empty entry means the default; alias
 *               blocksize. Sizes are read as fio does (parse_fio_size(),
 *               kb_base), each up to a separator: bs=4k-16k is 4k to fio
 *      bsrange  (alias blocksize_range) "lo-hi": taken when lo = hi
 *      bssplit  "size/pct:...": taken when one size has a share; bssplit
 *               wins over bsrange, which wins over bs
 *      ba       the block size of the direction; alias blockalign
 *      iodepth  1; counted as 1 for the synchronous engines (sync, psync,
 *               vsync, pvsync, pvsync2, mmap, splice, and a missing ioengine,
 *               fio's default being psync), as fio itself caps them
 *      numjobs  1
 *    The size of a direction that did IO must agree within 1 % with the
 *    entry's io_bytes / total_ios (io_bytes is in KiB before fio 2.21,
 *    which has no io_kbytes).
 *    fio 2.x records no options at all: then the random flag comes from
 *    the job name ("rand" random, "seq"/"read"/"write" sequential, else
 *    random), the size from io_bytes / total_ios (bw / iops for fio 2.1,
 *    rounded to 512 bytes when within 1 %) or a size token of the name
 *    ("16k", "4KiB", binary units), the depth from a name token ("qd32",
 *    "iodepth16", "depth8", "q4") else the iodepth_level bucket with the
 *    most IOs, numjobs 1.
 *    qd is depth x jobs; the point keeps iodepth and jobs too. An entry
 *    stands for all `numjobs` jobs when group_reporting is set to anything
 *    but "0", or when fewer entries than numjobs share its jobname, groupid
 *    and options (fio 3.x omits a bare `group_reporting` flag from its
 *    JSON). Otherwise entries that share them are one point: IOPS added,
 *    mean latencies weighted by IOPS, jobs = number of entries. One point
 *    per direction (read, write) with iops > 0; the mean latency is
 *    lat_ns.mean (lat.mean, µs, before fio 3); the completion latency
 *    percentiles (util/lat_keys.h levels) are computed from json+'s
 *    clat_ns.bins when every entry has them (exact as fio computes them),
 *    and so is the latency distribution (struct lat_cdf), else the
 *    percentiles are taken from clat_ns.percentile (clat.percentile, µs)
 *    of a single entry, else unknown (0); lat_ns (total latency) stands in
 *    for clat_ns when only it has them, and fio 2's json+ clat.bins (µs,
 *    keyed by bucket index) are read too (import_fio_lat.c). Trims are ignored, and so are "fio version"
 *    and a job's "error". A group_reporting entry that mixes job sections
 *    carries the options of its first job only: such files come out with
 *    the qd of that job.
 *    fio --client output has client_stats[] for jobs[]: entries of different
 *    servers (hostname, port) are never clones, the "All clients" sum is
 *    left out, and "global options" may be an array, one per server in the
 *    order of their first entries.
 *    A job whose workload cannot be told (sizes mixed by bsrange or
 *    bssplit, no size anywhere, an option value fio would refuse,
 *    unified_rw_reporting's "mixed" alone) is skipped with one warning
 *    line (struct import_warnings below), not an error.
 *
 *  - CSV: a header line naming the columns in any order, then one point per
 *    line; fields are separated by ',' and trimmed of blanks, without
 *    quoting. Columns (names compared without case; unknown ones ignored):
 *      op      read, write, randread or randwrite (rand... is random)
 *      size    bytes per IO, as parse_size() reads it: 4096, 4k, 1m
 *      qd      IOs outstanding, a positive integer
 *      iops    IO/s, or
 *      mib_s   MiB/s (2^20 bytes), iops = mib_s * 2^20 / size; iops wins
 *              when both are given
 *      random  optional, 0/1/true/false: whether the read and write rows
 *              are random (default 0); randread with random 0 is an error
 *      lat_ms  optional mean latency in ms; empty or absent: unknown
 *      lat_mean_us  the same in µs (as `iomodel sweep --csv` writes it),
 *              used when lat_ms is absent or empty
 *    The alignment of CSV points is unknown (0).
 *    Blank lines and lines whose first non-blank is '#' are skipped; CRLF
 *    line ends are accepted.
 *
 * Detection: a text whose first non-blank character is '{', or that has a
 * line starting with '{' after lines of other text (fio's notes, iomodel's
 * notices when stderr went to the same file), is JSON from there on;
 * anything else is CSV. JSON is iomodel's when "schema" starts with
 * "iomodel.", fio's when it has a "fio version" or "jobs" key. Text after
 * the JSON is allowed in fio's output only. A UTF-8 byte order mark is
 * skipped.
 *
 * Errors are one line naming the input first: "w.csv:7: size '4q': not a
 * size" (line of the CSV), "run.json: results[1].iops: missing"
 * (key path of the JSON), "f.json:12: invalid JSON: ..." (syntax errors),
 * "f.json: no measurements found" (nothing usable in it).
 */
#ifndef IOMODEL_IMPORT_H
#define IOMODEL_IMPORT_H

#include <stddef.h>

#include "model/points.h"
#include "util/dynbuf.h"
#include "util/errmsg.h"

/*
 * The largest request size a point read from a file may have: 2^53 bytes
 * (8 PiB), so that sizes stay exact in a double, the type the models and
 * charts compute in. Larger sizes are refused as out of range.
 */
#define POINT_SIZE_MAX (1ULL << 53)

/*
 * What an import skipped without failing: one line per fio job whose
 * workload cannot be told ("f.json: jobs[2] 'mix': bssplit '4k/50:64k/50':
 * mixes request sizes; job skipped"), each one printable line ending in
 * '\n'. The caller owns the struct: import_warnings_init() before use,
 * import_warnings_release() after.
 */
struct import_warnings {
	struct dynbuf lines;	/* the lines, NUL-terminated; capped at 1 MiB, then dropped */
	unsigned skipped;	/* jobs skipped, whether their line fitted or not */
};

void import_warnings_init(struct import_warnings *w);
void import_warnings_release(struct import_warnings *w);
/* Internal (import*.c): add one line (the '\n' is appended). 0 or -ENOMEM. */
int import_warnings_add(struct import_warnings *w, const char *line);

/*
 * Append the points in the file at `path` to `ps` (initialised by the
 * caller, who keeps owning it), detecting the format as described above.
 * Returns 0, or on failure leaves `ps` as it was, fills `err` (may be NULL)
 * and returns:
 *   -ENOENT  the file does not exist
 *   -EIO     it cannot be opened or read for another reason (the message
 *            says which)
 *   -EINVAL  its content is malformed, of another tool, or has no usable
 *            point
 *   -ENOMEM  out of memory
 */
int import_points_file(struct point_set *ps, const char *path, struct errmsg *err);

/*
 * The same for `len` bytes of text already in memory (no terminating NUL
 * needed); `name` stands for the input in messages.
 */
int import_points_text(struct point_set *ps, const char *name, const char *text,
		       size_t len, struct errmsg *err);

/*
 * The same as import_points_file() and import_points_text(), and what was
 * skipped added to `warn` (may be NULL: not kept). A file whose jobs were
 * all skipped is no error: it adds no point, returns 0 and its lines say
 * why, so that a set of files goes on without it.
 */
int import_points_file_warn(struct point_set *ps, const char *path,
			    struct import_warnings *warn, struct errmsg *err);
int import_points_text_warn(struct point_set *ps, const char *name, const char *text,
			    size_t len, struct import_warnings *warn, struct errmsg *err);

/*
 * Internal: the readers behind import_points_text(), one per format, for
 * import*.c only. Each appends what it finds and returns 0 or -errno with
 * `err` filled; none rolls `ps` back, none complains about finding nothing.
 */
struct json_t;
int import_csv(struct point_set *ps, const char *name, const char *text, size_t len,
	       struct errmsg *err);
int import_fio(struct point_set *ps, const char *name, const struct json_t *root,
	       struct import_warnings *warn, struct errmsg *err);
int import_iomodel(struct point_set *ps, const char *name, const struct json_t *root,
		   struct errmsg *err);

#endif
