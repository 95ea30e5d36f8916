/*
 * test_import.c — reading measured points from iomodel JSON, fio JSON and
 * CSV (io/import.h): the real fio 3.1 outputs of ../shared/data/fio-plot
 * (found through $SHARED_DATA), fio 3.33 and iomodel outputs kept in
 * tests/e2e/data (see its README.md), and CSV and broken input written here.
 * Exit 0 pass, 1 fail, 77 when all ran but the fio-plot data are absent.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"
#include "io/import.h"

struct dirs {
	char root[PATH_MAX / 2];	/* the repository */
	char data[PATH_MAX];	/* tests/e2e/data */
	char fio_plot[PATH_MAX];	/* $SHARED_DATA/fio-plot */
};

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b);
}

/* The repository root from this file's path as the compiler saw it. */
static void find_dirs(struct dirs *d)
{
	const char *file = __FILE__;
	const char *tail = strstr(file, "tests/unit/test_import.c");
	const char *shared = getenv("SHARED_DATA");
	int len = tail ? (int)(tail - file) : 0;

	if (len > 1)
		snprintf(d->root, sizeof(d->root), "%.*s", len - 1, file);	/* no '/' */
	else
		snprintf(d->root, sizeof(d->root), "%s", len == 1 ? "/" : ".");
	snprintf(d->data, sizeof(d->data), "%s/tests/e2e/data", d->root);
	if (shared && *shared)
		snprintf(d->fio_plot, sizeof(d->fio_plot), "%s/fio-plot", shared);
	else
		snprintf(d->fio_plot, sizeof(d->fio_plot), "%s/../shared/data/fio-plot", d->root);
}

static int import_str(struct point_set *ps, const char *name, const char *text,
		      struct errmsg *err)
{
	err->text[0] = '\0';
	return import_points_text(ps, name, text, strlen(text), err);
}

static int import_at(struct point_set *ps, const char *dir, const char *file,
		     struct errmsg *err)
{
	char path[PATH_MAX * 2];

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	err->text[0] = '\0';
	return import_points_file(ps, path, err);
}

/* Whether p is (op, random, size, qd, iops, mean latency in s). */
static bool is_point(const struct perf_point *p, enum io_op op, bool random, uint64_t size,
		     unsigned qd, double iops, double lat_s)
{
	return p->op == op && p->random == random && p->size == size && p->qd == qd &&
	       near(p->iops, iops) && near(p->mean_lat_s, lat_s);
}

/* jobs[0].read.iops or .write.iops of a file, read with jansson alone; -1 on failure. */
static double file_iops(const char *dir, const char *name, enum io_op op)
{
	char path[PATH_MAX * 2];
	json_t *root;
	double iops;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	root = json_load_file(path, 0, NULL);
	iops = json_number_value(json_object_get(json_object_get(json_array_get(
		json_object_get(root, "jobs"), 0), io_op_name(op)), "iops"));
	json_decref(root);
	return root ? iops : -1;
}

/* fio-plot file `name` = "<rw>-<iodepth>-<numjobs>.json": one point that says so. */
static void fio_plot_file(struct check_state *st, const char *dir, const char *name)
{
	struct point_set ps;
	struct errmsg err;
	char rw[16];
	unsigned depth, jobs;
	int ret;

	if (sscanf(name, "%15[a-z]-%u-%u.json", rw, &depth, &jobs) != 3) {
		CHECK(st, 0, "unexpected file name %s/%s", dir, name);
		return;
	}
	point_set_init(&ps);
	ret = import_at(&ps, dir, name, &err);
	CHECK(st, ret == 0 && ps.len == 1, "%s/%s: %d %zu %s", dir, name, ret, ps.len, err.text);
	if (ps.len == 1) {
		const struct perf_point *p = &ps.points[0];
		/* Little's law: IOs in flight = IOPS x mean latency, within a few % */
		double in_flight = p->iops * p->mean_lat_s / p->qd;

		CHECK(st, p->op == (strcmp(rw, "randread") ? IO_WRITE : IO_READ) && p->random &&
		      p->size == 4096 && p->align == 4096 && p->qd == depth * jobs,
		      "%s/%s: op %d random %d size %llu qd %u", dir, name, p->op, p->random,
		      (unsigned long long)p->size, p->qd);
		CHECK(st, in_flight > 0.8 && in_flight < 1.01, "%s/%s: iops %g x lat %g / qd %u = %g",
		      dir, name, p->iops, p->mean_lat_s, p->qd, in_flight);
		CHECK(st, p->iodepth == depth && p->jobs == jobs, "%s/%s: iodepth %u jobs %u", dir,
		      name, p->iodepth, p->jobs);
		CHECK(st, near(p->iops, file_iops(dir, name, p->op)), "%s/%s: iops %g, file says %g",
		      dir, name, p->iops, file_iops(dir, name, p->op));
		CHECK(st, p->clat_pct_s[0] > 0 && p->clat_pct_s[0] <= p->clat_pct_s[LAT_PCTS - 1],
		      "%s/%s: clat p50 %g p99.9 %g", dir, name, p->clat_pct_s[0],
		      p->clat_pct_s[LAT_PCTS - 1]);
	}
	point_set_release(&ps);
}

/* Every file of every folder of fio-plot; returns how many. */
static unsigned fio_plot_all(struct check_state *st, const char *top)
{
	static const char *const folders[] = {
		"crucial-mx200-ssd", "crucial-mx200x3-raid0", "hgst-7k2-hdd",
	};
	unsigned total = 0;

	for (size_t f = 0; f < sizeof(folders) / sizeof(folders[0]); f++) {
		char dir[PATH_MAX * 2];
		struct dirent *de;
		unsigned n = 0;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/%s", top, folders[f]);
		d = opendir(dir);
		CHECK(st, d != NULL, "cannot open %s", dir);
		while (d && (de = readdir(d))) {
			size_t len = strlen(de->d_name);

			if (len > 5 && !strcmp(de->d_name + len - 5, ".json")) {
				fio_plot_file(st, dir, de->d_name);
				n++;
			}
		}
		if (d)
			closedir(d);
		CHECK(st, n > 0, "no fio files in %s", dir);
		total += n;
	}
	return total;
}

/* Values read with python3 from the files named (json.load(f)["jobs"][0]). */
static void fio_plot_values(struct check_state *st, const char *top)
{
	static const struct {
		const char *file;
		enum io_op op;
		unsigned qd;
		double iops, lat_ns;
	} want[] = {
		{ "hgst-7k2-hdd/randread-1-1.json", IO_READ, 1, 58.581449, 17044808.959613 },
		{ "hgst-7k2-hdd/randread-16-4.json", IO_READ, 64, 85.975831, 743333966.797778 },
		{ "crucial-mx200x3-raid0/randread-1-1.json", IO_READ, 1, 6575.457076, 148399.856071 },
		{ "crucial-mx200x3-raid0/randwrite-32-8.json", IO_WRITE, 256, 20337.931494,
		  12583035.104562 },
		{ "crucial-mx200-ssd/randread-64-64.json", IO_READ, 4096, 47656.146899,
		  85869706.568449 },
	};
	struct point_set ps;
	struct errmsg err;

	point_set_init(&ps);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int ret = import_at(&ps, top, want[i].file, &err);

		CHECK(st, ret == 0 && ps.len == i + 1, "%s: %d %s", want[i].file, ret, err.text);
		if (ps.len == i + 1)
			CHECK(st, is_point(&ps.points[i], want[i].op, true, 4096, want[i].qd,
					   want[i].iops, want[i].lat_ns / 1e9),
			      "%s: qd %u iops %.6f lat %.9g", want[i].file, ps.points[i].qd,
			      ps.points[i].iops, ps.points[i].mean_lat_s);
	}
	point_set_release(&ps);
}

/* fio 3.33 outputs in tests/e2e/data; values read with python3 from each file. */
static void fio_333_files(struct check_state *st, const char *data)
{
	struct point_set ps;
	struct errmsg err;
	const struct perf_point *p;
	int ret;

	point_set_init(&ps);
	/* fio-3.33-clones.json: reads 727000 + 1219000 (lat 356.825309, 266.820345 ns),
	 * writes 758000 + 1296000 (259.296834, 263.266975 ns), 4 deep x 2 entries */
	ret = import_at(&ps, data, "fio-3.33-clones.json", &err);
	CHECK(st, ret == 0 && ps.len == 2, "clones: %d %zu %s", ret, ps.len, err.text);
	p = ps.points;
	if (ps.len == 2) {
		CHECK(st, is_point(&p[0], IO_READ, true, 4096, 8, 1946000,
				   (727000 * 356.825309 + 1219000 * 266.820345) / 1946000 / 1e9),
		      "clones read: qd %u iops %g lat %g", p[0].qd, p[0].iops, p[0].mean_lat_s);
		CHECK(st, is_point(&p[1], IO_WRITE, true, 8192, 8, 2054000,
				   (758000 * 259.296834 + 1296000 * 263.266975) / 2054000 / 1e9),
		      "clones write: size %llu qd %u iops %g", (unsigned long long)p[1].size,
		      p[1].qd, p[1].iops);
	}
	/* fio-3.33-groups.json: bare group_reporting, numjobs=3 and iodepth=2 in [global] */
	ps.len = 0;
	ret = import_at(&ps, data, "fio-3.33-groups.json", &err);
	CHECK(st, ret == 0 && ps.len == 2, "groups: %d %zu %s", ret, ps.len, err.text);
	if (ps.len == 2) {
		CHECK(st, is_point(&p[0], IO_WRITE, false, 65536, 6, 384000, 697.122396e-9) &&
		      p[0].align == 65536, "groups seqw: qd %u size %llu", p[0].qd,
		      (unsigned long long)p[0].size);
		CHECK(st, is_point(&p[1], IO_READ, true, 4096, 6, 6144000, 253.584961e-9),
		      "groups rr: qd %u iops %g", p[1].qd, p[1].iops);
	}
	/* fio-3.33-psync-note.json: a note line first; psync with iodepth=8 runs at 1 */
	ps.len = 0;
	ret = import_at(&ps, data, "fio-3.33-psync-note.json", &err);
	CHECK(st, ret == 0 && ps.len == 1 &&
	      is_point(&ps.points[0], IO_READ, false, 16384, 1, 64000, 12342.09375e-9),
	      "psync: %d %zu %s", ret, ps.len, err.text);
	point_set_release(&ps);
}

/*
 * Jobs that cannot be told are skipped with one warning line each and the
 * rest imported; a size that mixes only in a direction without IO is no
 * reason to skip.
 */
static void fio_skips(struct check_state *st)
{
	static const char two_jobs[] =
		"{\"fio version\": \"fio-3.33\", \"jobs\": ["
		"{\"jobname\": \"mix\", \"job options\": {\"bssplit\": \"4k/50:64k/50\"},"
		" \"read\": {\"iops\": 10}},"
		"{\"jobname\": \"ok\", \"job options\": {\"rw\": \"randread\","
		" \"bssplit\": \"8k/100,4k/50:64k/50\"}, \"read\": {\"iops\": 20},"
		" \"write\": {\"iops\": 0}}]}";
	static const char none[] =
		"{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"r\","
		" \"job options\": {\"bsrange\": \"4k-16k\"}, \"read\": {\"iops\": 10}}]}";
	static const char huge[] =
		"{\"fio version\": \"fio-2.1\", \"jobs\": [{\"jobname\": \"x\", \"read\":"
		" {\"io_bytes\": 1e300, \"total_ios\": 1, \"iops\": 5}}, {\"jobname\": \"y\","
		" \"job options\": {}, \"read\": {\"iops\": 1e308}}, {\"jobname\": \"y\","
		" \"job options\": {}, \"read\": {\"iops\": 1e308}}]}";
	struct import_warnings w;
	struct point_set ps;
	struct errmsg err = { "" };
	int ret;

	point_set_init(&ps);
	import_warnings_init(&w);
	ret = import_points_text_warn(&ps, "t.json", two_jobs, strlen(two_jobs), &w, &err);
	CHECK(st, ret == 0 && ps.len == 1 && ps.points[0].size == 8192 && ps.points[0].iops == 20,
	      "one job skipped, one read: %d %zu %s", ret, ps.len, err.text);
	CHECK(st, w.skipped == 1 && !strcmp(dynbuf_ptr(&w.lines), "t.json: jobs[0] 'mix': job "
	      "options.bssplit '4k/50:64k/50': mixes request sizes; job skipped\n"), "%u %s",
	      w.skipped, dynbuf_ptr(&w.lines));
	ret = import_points_text_warn(&ps, "n.json", none, strlen(none), &w, &err);
	CHECK(st, ret == 0 && ps.len == 1 && w.skipped == 2,
	      "a file of skipped jobs is no error when warnings are taken: %d %zu", ret, ps.len);
	ret = import_points_text(&ps, "n.json", none, strlen(none), &err);
	CHECK(st, ret == -EINVAL && !strcmp(err.text, "n.json: no measurements found (jobs[0] 'r': "
	      "job options.bsrange '4k-16k': mixes request sizes; job skipped)"), "%d %s", ret,
	      err.text);
	ret = import_points_text_warn(&ps, "h.json", huge, strlen(huge), &w, &err);
	CHECK(st, ret == -EINVAL && ps.len == 1 && w.skipped == 3 &&
	      !strcmp(err.text, "h.json: jobs[1].read: iops or latency too large") &&
	      strstr(dynbuf_ptr(&w.lines), "h.json: jobs[0] 'x': read: 1.024e+303 bytes per IO is "
		     "no request size; job skipped"), "%d %zu %u %s %s", ret, ps.len, w.skipped,
	      err.text, dynbuf_ptr(&w.lines));
	import_warnings_release(&w);
	point_set_release(&ps);
}

/*
 * fio --client: client_stats[] instead of jobs[], one server's entries never
 * clones of another's, "All clients" (their sum) left out, and one "global
 * options" per server when it is an array.
 */
static void fio_client(struct check_state *st)
{
	static const char text[] =
		"{\"fio version\": \"fio-3.33\", \"global options\": [{\"bs\": \"8k\"},"
		" {\"bs\": \"16k\"}], \"client_stats\": ["
		"{\"jobname\": \"j\", \"hostname\": \"a\", \"port\": 8765, \"job options\": {},"
		" \"read\": {\"iops\": 10}},"
		"{\"jobname\": \"j\", \"hostname\": \"b\", \"port\": 8765, \"job options\": {},"
		" \"read\": {\"iops\": 20}},"
		"{\"jobname\": \"j\", \"hostname\": \"a\", \"port\": 8765, \"job options\": {},"
		" \"read\": {\"iops\": 5}},"
		"{\"jobname\": \"All clients\", \"hostname\": \"b\", \"port\": 8765,"
		" \"read\": {\"iops\": 35}}]}";
	struct point_set ps;
	struct errmsg err;
	int ret;

	point_set_init(&ps);
	ret = import_str(&ps, "c.json", text, &err);
	CHECK(st, ret == 0 && ps.len == 2, "client_stats: %d %zu %s", ret, ps.len, err.text);
	if (ps.len == 2) {
		CHECK(st, ps.points[0].size == 8192 && ps.points[0].iops == 15 &&
		      ps.points[0].jobs == 2, "server a: its two entries, its options: %llu %g %u",
		      (unsigned long long)ps.points[0].size, ps.points[0].iops, ps.points[0].jobs);
		CHECK(st, ps.points[1].size == 16384 && ps.points[1].iops == 20 &&
		      ps.points[1].jobs == 1, "server b: %llu %g %u",
		      (unsigned long long)ps.points[1].size, ps.points[1].iops, ps.points[1].jobs);
	}
	point_set_release(&ps);
}

/* fio 2.x without options: the workload from the job name and the totals. */
static void fio2_names(struct check_state *st)
{
	static const struct {
		const char *name;
		bool random;
		unsigned long long size;	/* 0: from io_bytes / total_ios (8 KiB) */
		unsigned depth;
	} cases[] = {
		{ "4k_randwrite_iodepth16", true, 4096, 16 }, { "seq-read-32qd", false, 8192, 32 },
		{ "Rand.Read.BS64KiB.Q8", true, 65536, 8 }, { "job1", true, 8192, 1 },
		{ "write-depth4-1m", false, 1 << 20, 4 },
	};
	char text[512];
	struct point_set ps;
	struct errmsg err;

	point_set_init(&ps);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned long long size = cases[i].size;
		int ret;

		/* io_bytes in KiB and total_ios as fio 2.2 writes them */
		snprintf(text, sizeof(text), "{\"fio version\": \"fio-2.2.10\", \"jobs\": ["
			 "{\"jobname\": \"%s\", \"groupid\": 0, \"read\": {\"io_bytes\": %llu,"
			 " \"total_ios\": 1000, \"iops\": 500.0}}]}", cases[i].name, size * 1000 / 1024);
		ps.len = 0;
		ret = import_str(&ps, "n.json", text, &err);
		CHECK(st, ret == 0 && ps.len == 1 && ps.points[0].random == cases[i].random &&
		      ps.points[0].size == size && ps.points[0].iodepth == cases[i].depth &&
		      ps.points[0].qd == cases[i].depth && ps.points[0].jobs == 1,
		      "'%s': %d %s random %d size %llu depth %u", cases[i].name, ret, err.text,
		      ps.len ? ps.points[0].random : -1,
		      ps.len ? (unsigned long long)ps.points[0].size : 0ULL,
		      ps.len ? ps.points[0].iodepth : 0);
	}
	point_set_release(&ps);
}

/* fio JSON written here: options, defaults and errors. */
static void fio_text(struct check_state *st)
{
	static const char global_gr[] =
		"{\"fio version\": \"fio-3.20\", \"global options\": {\"bs\": \"64k\","
		" \"iodepth\": \"8\", \"group_reporting\": \"1\", \"ioengine\": \"libaio\"},"
		" \"jobs\": [{\"jobname\": \"j\", \"groupid\": 0, \"job options\": {\"rw\": \"randrw\","
		" \"blocksize\": \",8k\", \"numjobs\": \"4\"},"
		" \"read\": {\"iops\": 100.5, \"lat_ns\": {\"mean\": 2e6}},"
		" \"write\": {\"iops\": 50, \"lat_ns\": {\"mean\": 1e6}}}]}";
	static const char fio2[] =
		"{\"fio version\": \"fio-2.2.10\", \"jobs\": [{\"jobname\": \"a\", \"groupid\": 0,"
		" \"job options\": {\"rw\": \"read:4k\", \"iodepth\": \"32\", \"ioengine\": \"io_uring\"},"
		" \"read\": {\"iops\": 10, \"lat\": {\"mean\": 250}}}]}";
	struct point_set ps;
	struct errmsg err;
	int ret;

	point_set_init(&ps);
	ret = import_str(&ps, "g.json", global_gr, &err);
	CHECK(st, ret == 0 && ps.len == 2, "global options: %d %zu %s", ret, ps.len, err.text);
	if (ps.len == 2) {
		CHECK(st, is_point(&ps.points[0], IO_READ, true, 4096, 32, 100.5, 2e-3),
		      "read: size %llu qd %u", (unsigned long long)ps.points[0].size, ps.points[0].qd);
		CHECK(st, is_point(&ps.points[1], IO_WRITE, true, 8192, 32, 50, 1e-3),
		      "write: size %llu qd %u", (unsigned long long)ps.points[1].size, ps.points[1].qd);
	}
	ps.len = 0;
	ret = import_str(&ps, "old.json", fio2, &err);
	CHECK(st, ret == 0 && ps.len == 1 &&
	      is_point(&ps.points[0], IO_READ, false, 4096, 32, 10, 250e-6),
	      "fio 2 lat in us, default bs: %d %zu %s", ret, ps.len, err.text);
	ret = import_str(&ps, "b.json", "{\"fio version\": \"fio-3.1\", \"jobs\": [{\"job options\":"
			 " {\"bs\": \"4q\"}, \"read\": {\"iops\": 1}}]}", &err);
	CHECK(st, ret == -EINVAL && !strcmp(err.text, "b.json: no measurements found (jobs[0]: "
	      "job options.bs '4q': not a size; job skipped)"), "%d %s", ret, err.text);
	ret = import_str(&ps, "b.json", "{\"fio version\": \"fio-3.1\", \"jobs\": [{\"job options\":"
			 " {\"rw\": \"randomread\"}, \"read\": {\"iops\": 1}}]}", &err);
	CHECK(st, ret == -EINVAL && strstr(err.text, "rw 'randomread': not a fio rw mode"), "%s",
	      err.text);
	ret = import_str(&ps, "b.json", "{\"fio version\": \"fio-3.1\", \"jobs\": {}}", &err);
	CHECK(st, ret == -EINVAL && !strcmp(err.text, "b.json: jobs: expected an array"), "%s",
	      err.text);
	CHECK(st, ps.len == 1, "failed imports leave the set alone: %zu", ps.len);
	point_set_release(&ps);
	fio_skips(st);
	fio2_names(st);
	fio_client(st);
}

/* CSV with iops, with mib_s, suffixes, comments, CRLF, blanks, column order. */
static void csv_good(struct check_state *st)
{
	static const char with_iops[] =
		"op,size,qd,iops\nrandread,4k,1,100\nwrite,1m,32,50.5\n";
	static const char with_mib[] =
		"# measured by hand\n\n qd , MiB_s ,size,op,random,lat_ms,note\r\n"
		"4,400,1m,read,1,2.5,x\r\n  # an indented comment\n1,1,4k,write,false,,y\n"
		"2,8,512,randwrite,true,0.125,z";
	/* as `iomodel sweep --csv` writes it */
	static const char sweep_csv[] =
		"op,random,size,qd,iops,mib_s,lat_mean_us\nread,1,4096,1,1.43133e+07,55911.4,0.03244\n";
	struct point_set ps;
	struct errmsg err;
	const struct perf_point *p;
	int ret;

	point_set_init(&ps);
	ret = import_str(&ps, "a.csv", with_iops, &err);
	CHECK(st, ret == 0 && ps.len == 2, "%d %zu %s", ret, ps.len, err.text);
	p = ps.points;
	if (ps.len == 2) {
		CHECK(st, is_point(&p[0], IO_READ, true, 4096, 1, 100, 0) && p[0].align == 0,
		      "randread row");
		CHECK(st, is_point(&p[1], IO_WRITE, false, 1 << 20, 32, 50.5, 0), "write row");
	}
	ret = import_str(&ps, "b.csv", with_mib, &err);
	CHECK(st, ret == 0 && ps.len == 5, "%d %zu %s", ret, ps.len, err.text);
	p = ps.points;
	if (ps.len == 5) {
		CHECK(st, is_point(&p[2], IO_READ, true, 1 << 20, 4, 400, 2.5e-3),
		      "mib_s row 1: iops %g", p[2].iops);
		CHECK(st, is_point(&p[3], IO_WRITE, false, 4096, 1, 256, 0),
		      "mib_s row 2: iops %g", p[3].iops);
		CHECK(st, is_point(&p[4], IO_WRITE, true, 512, 2, 8 * 2048, 0.125e-3),
		      "mib_s row 3: iops %g", p[4].iops);
	}
	ret = import_str(&ps, "s.csv", sweep_csv, &err);
	CHECK(st, ret == 0 && ps.len == 6 &&
	      is_point(&ps.points[5], IO_READ, true, 4096, 1, 1.43133e7, 0.03244e-6),
	      "sweep csv: %d %zu %s", ret, ps.len, err.text);
	point_set_release(&ps);
}

/* Each CSV error: text, and the message it gives (whole, or a part after '~'). */
static void csv_errors(struct check_state *st)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "op,size,iops\nread,4k,1\n", "w.csv:1: missing column 'qd' (header: op,size,iops)" },
		{ "op,size,qd,iops\n# one\nread,4k,1,5\n\nwrite,4k,1,5\n# two\nread,4q,1,5\n",
		  "w.csv:7: size '4q': not a size" },
		{ "op,size,qd,iops\nread,4k,1,5\nread,4k,1,-5\n",
		  "w.csv:3: iops '-5': expected a positive number" },
		{ "op,size,qd,iops\n\n\nread,4k,1\n", "w.csv:4: 3 fields, expected 4" },
		{ "op,size,qd\nread,4k,1\n", "~missing column 'iops' or 'mib_s' (header: op,size,qd)" },
		{ "op,size,qd,iops\ntrim,4k,1,5\n",
		  "~:2: op 'trim': expected read, write, randread or randwrite" },
		{ "op,size,qd,iops\nread,4k,0,5\n", "~:2: qd '0': expected a positive integer" },
		{ "op,size,qd,iops\nread,0,1,5\n", "~:2: size '0': expected a positive size" },
		{ "op,size,qd,mib_s\nread,4k,1,fast\n", "~:2: mib_s 'fast': expected a positive" },
		{ "op,size,qd,iops,lat_ms\nread,4k,1,5,-1\n", "~:2: lat_ms '-1': expected a non-neg" },
		{ "op,size,qd,iops,lat_mean_us\nread,4k,1,5,x\n", "~:2: lat_mean_us 'x': expected a" },
		{ "op,size,qd,iops,random\nread,4k,1,5,maybe\n", "~random 'maybe': expected 0, 1" },
		{ "op,size,qd,iops,random\nrandread,4k,1,5,0\n",
		  "~:2: random '0' contradicts op 'randread'" },
		{ "op,size,qd,iops,QD\n", "~:1: column 'qd' given twice" },
		{ "op,size,qd,iops\n# nothing\n", "w.csv: no measurements found" },
		{ "", "w.csv: no measurements found" },
		{ " \n\t\n", "w.csv: no measurements found" },
	};
	struct point_set ps;
	struct errmsg err;

	point_set_init(&ps);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *want = bad[i].msg;
		int ret = import_str(&ps, "w.csv", bad[i].text, &err);
		bool ok = want[0] == '~' ? strstr(err.text, want + 1) != NULL : !strcmp(err.text, want);

		CHECK(st, ret == -EINVAL && ok && ps.len == 0, "case %zu: %d '%s', want '%s'", i, ret,
		      err.text, want);
	}
	point_set_release(&ps);
}

/* iomodel-run.json and iomodel-sweep.json; values read with python3 from each. */
static void iomodel_files(struct check_state *st, const char *data)
{
	struct point_set ps;
	struct errmsg err;
	const struct perf_point *p;
	int ret;

	point_set_init(&ps);
	ret = import_at(&ps, data, "iomodel-run.json", &err);
	CHECK(st, ret == 0 && ps.len == 2, "run: %d %zu %s", ret, ps.len, err.text);
	p = ps.points;
	if (ps.len == 2) {
		CHECK(st, is_point(&p[0], IO_READ, true, 4096, 1, 5202000.444, 0.05016463415e-6) &&
		      p[0].align == 4096, "run read: iops %.3f", p[0].iops);
		CHECK(st, is_point(&p[1], IO_WRITE, true, 4096, 1, 5371171.19, 0.04941732283e-6),
		      "run write: iops %.3f", p[1].iops);
	}
	/* two runs; the second's write result has ios 0 and gives no point */
	ret = import_at(&ps, data, "iomodel-sweep.json", &err);
	CHECK(st, ret == 0 && ps.len == 4, "sweep: %d %zu %s", ret, ps.len, err.text);
	p = ps.points;
	if (ps.len == 4) {
		CHECK(st, is_point(&p[2], IO_READ, false, 65536, 4, 25006251.56, 0.078112e-6) &&
		      p[2].align == 65536, "sweep run 0: qd %u iops %.3f", p[2].qd, p[2].iops);
		CHECK(st, is_point(&p[3], IO_READ, true, 4096, 1, 5797101.449, 0.0681e-6),
		      "sweep run 1: iops %.3f", p[3].iops);
	}
	point_set_release(&ps);
}

/* iomodel JSON that is wrong in one place each. */
static void iomodel_errors(struct check_state *st)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "{\"schema\": \"iomodel.run/2\"}",
		  "x.json: schema 'iomodel.run/2': not supported (iomodel.run/1 or iomodel.sweep/1)" },
		{ "{\"schema\": \"iomodel.run/1\", \"job\": {\"bs\": \"4k\"}}",
		  "x.json: job.bs: expected a whole number from 1 to 9007199254740992" },
		{ "{\"schema\": \"iomodel.run/1\", \"job\": {\"bs\": 4096, \"qd\": 1, \"align\": 0,"
		  " \"random\": true}, \"results\": [{\"op\": \"read\", \"ios\": 5}]}",
		  "x.json: results[0].iops: missing" },
		{ "{\"schema\": \"iomodel.sweep/1\", \"runs\": [7]}", "x.json: runs[0]: expected an object" },
		{ "{\"schema\": \"iomodel.sweep/1\", \"runs\": [{\"job\": {\"bs\": 4096, \"qd\": 1,"
		  " \"align\": 0, \"random\": 1}}]}", "x.json: runs[0].job.random: expected true or false" },
	};
	struct point_set ps;
	struct errmsg err;

	point_set_init(&ps);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = import_str(&ps, "x.json", bad[i].text, &err);

		CHECK(st, ret == -EINVAL && !strcmp(err.text, bad[i].msg), "case %zu: %d '%s'", i, ret,
		      err.text);
	}
	point_set_release(&ps);
}

/* Broken JSON, JSON of another tool, trailing text. */
static void bad_json(struct check_state *st)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "{\n  \"schema\": \"iomodel.run/1\",\n  \"job\": {\n    \"bs\": 4096,,\n",
		  "b.json:4: invalid JSON: " },
		{ "note: one\nnote: two\n{\n \"fio version\": \"fio-3.33\",\n \"jobs\": [ }\n",
		  "b.json:5: invalid JSON: " },
		{ "{\"name\": \"x\", \"values\": [1, 2]}",
		  "b.json: JSON from neither iomodel nor fio (no 'schema' or 'fio version' key)" },
		{ "{\"schema\": \"other/1\"}", "b.json: JSON from neither iomodel nor fio (schema 'other/1')" },
		{ "{\"schema\": \"iomodel.sweep/1\", \"runs\": []}\n\nmore\n",
		  "b.json:3: invalid JSON: text after the end of the JSON" },
		{ "{\"fio version\": \"fio-3.33\", \"jobs\": [{\"read\": {\"iops\": 0}, "
		  "\"write\": {\"iops\": 0.0}}]}", "b.json: no measurements found" },
	};
	struct point_set ps;
	struct errmsg err;

	point_set_init(&ps);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = import_str(&ps, "b.json", bad[i].text, &err);

		CHECK(st, ret == -EINVAL && !strncmp(err.text, bad[i].msg, strlen(bad[i].msg)),
		      "case %zu: %d '%s'", i, ret, err.text);
	}
	point_set_release(&ps);
}

/* Files that are missing, empty, a directory, or a fio run that measured nothing. */
static void bad_files(struct check_state *st, const char *data)
{
	char empty[] = "/tmp/test_import_XXXXXX", want[PATH_MAX * 2];
	struct point_set ps;
	struct errmsg err;
	int fd, ret;

	point_set_init(&ps);
	ret = import_at(&ps, data, "no-such-file.csv", &err);
	CHECK(st, ret == -ENOENT && strstr(err.text, "no-such-file.csv': No such file"), "%d %s",
	      ret, err.text);
	ret = import_at(&ps, data, ".", &err);
	CHECK(st, ret == -EINVAL && strstr(err.text, "not a regular file"), "directory: %d %s", ret,
	      err.text);
	fd = mkstemp(empty);
	CHECK(st, fd >= 0, "mkstemp: %s", strerror(errno));
	if (fd >= 0) {
		close(fd);
		ret = import_points_file(&ps, empty, &err);
		snprintf(want, sizeof(want), "%s: no measurements found", empty);
		CHECK(st, ret == -EINVAL && !strcmp(err.text, want), "empty: %d %s", ret, err.text);
		unlink(empty);
	}
	ret = import_at(&ps, data, "fio-3.33-trim-only.json", &err);
	CHECK(st, ret == -EINVAL && strstr(err.text, "trim-only.json: no measurements found"),
	      "trim only: %d %s", ret, err.text);
	CHECK(st, ps.len == 0, "nothing added: %zu", ps.len);
	point_set_release(&ps);
}

int main(void)
{
	struct check_state st = { 0 };
	struct dirs d;
	struct stat sb;
	bool have_fio_plot;

	find_dirs(&d);
	have_fio_plot = stat(d.fio_plot, &sb) == 0 && S_ISDIR(sb.st_mode);
	CHECK(&st, stat(d.data, &sb) == 0, "no %s: run from where the test was compiled", d.data);
	csv_good(&st);
	csv_errors(&st);
	fio_text(&st);
	iomodel_errors(&st);
	bad_json(&st);
	iomodel_files(&st, d.data);
	fio_333_files(&st, d.data);
	bad_files(&st, d.data);
	if (have_fio_plot) {
		unsigned n = fio_plot_all(&st, d.fio_plot);

		printf("fio-plot: %u files in %s\n", n, d.fio_plot);
		CHECK(&st, n == 268, "fio-plot holds 268 files, found %u", n);
		fio_plot_values(&st, d.fio_plot);
	}
	if (check_exit(&st, "import") || have_fio_plot)
		return st.failed ? 1 : 0;
	printf("skip: fio-plot data not found at %s (set SHARED_DATA)\n", d.fio_plot);
	return 77;
}
