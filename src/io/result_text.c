/*
 * result_text.c — the readable table and the CSV form of a run's results.
 * The table fits an 80-column terminal: throughput and latencies are two
 * blocks, and long lines (device counters, faults) are broken in two.
 */
#include <errno.h>
#include <string.h>

#include "run_output.h"
#include "util/units.h"

static void print_error(FILE *f, const struct run_result *r)
{
	const struct run_error *e = &r->error;
	const char *op = io_op_name(e->op);

	if (!e->set)
		return;
	if (e->result < 0)
		fprintf(f, "error: %s of %u bytes at offset %llu failed: %s (errno %lld)\n",
			op, e->length, (unsigned long long)e->offset,
			strerror((int)-e->result), (long long)-e->result);
	else
		fprintf(f, "error: short %s at offset %llu: %lld of %u bytes\n", op,
			(unsigned long long)e->offset, (long long)e->result, e->length);
}

static void print_device(FILE *f, const struct sim_report *d)
{
	const struct sim_counters *c;
	char host[32], media[32];

	if (!d)
		return;
	c = &d->counters;
	format_size(host, sizeof(host), c->host_write_bytes);
	format_size(media, sizeof(media), c->media_write_bytes);
	fprintf(f, "device: host writes %s, media writes %s\n"
		"        write amplification %.2f, erases %llu, merges %llu\n"
		"        GC page moves %llu, cache hits %llu, seeks %llu\n",
		host, media, sim_report_write_amplification(d), (unsigned long long)c->erases,
		(unsigned long long)c->merges, (unsigned long long)c->gc_page_moves,
		(unsigned long long)c->cache_hits, (unsigned long long)c->seeks);
	if (d->faults.eio || d->faults.spikes || d->faults.lost_writes ||
	    d->faults.misdirected_writes || d->faults.bit_flips || d->faults.torn_writes)
		fprintf(f, "faults injected: EIO %llu, latency spikes %llu, lost writes %llu,\n"
			"        misdirected writes %llu, torn writes %llu, bit flips %llu\n",
			(unsigned long long)d->faults.eio, (unsigned long long)d->faults.spikes,
			(unsigned long long)d->faults.lost_writes,
			(unsigned long long)d->faults.misdirected_writes,
			(unsigned long long)d->faults.torn_writes,
			(unsigned long long)d->faults.bit_flips);
}

/* "no IO", "virtual clock", "O_DIRECT" or "buffered" */
static const char *run_mode(const struct run_info *info)
{
	if (!strcmp(info->target_kind, "null"))
		return "no IO";
	if (!strcmp(info->target_kind, "sim"))
		return "virtual clock";
	return info->direct ? "O_DIRECT" : "buffered";
}

static const char *job_label(const struct run_info *info)
{
	return info->job_label ? info->job_label : "job";
}

static void print_us(FILE *f, double us);

/* One row per job (or rank) and operation type (--per-job). */
static void print_rows(FILE *f, const struct run_info *info, const char *label, unsigned count,
		       const struct job_spec *specs, const struct run_result *results,
		       const int *cpus)
{
	/* 80 columns: 44 of IOs and throughput, four latencies of 9 (in us) */
	fprintf(f, "\n%-4s %3s %-5s %9s %10s %8s %8s %8s %8s %8s\n", label, "cpu", "op", "IOs",
		"IOPS", "MiB/s", "mean us", "p50 us", "p99 us", "max us");
	for (unsigned j = 0; j < count; j++) {
		struct run_info one = *info;
		struct op_summary sum[2];
		enum io_op idx[2];
		unsigned n;

		one.spec = &specs[j];
		n = run_summaries(&one, &results[j], sum, idx);
		for (unsigned i = 0; i < n; i++) {
			fprintf(f, "%-4u ", j);
			if (cpus)
				fprintf(f, "%3d ", cpus[j]);
			else
				fprintf(f, "%3s ", "-");
			fprintf(f, "%-5s %9llu %10.*f %8.*f", sum[i].op,
				(unsigned long long)sum[i].ios, sum[i].iops < 100 ? 3 : 0, sum[i].iops,
				sum[i].mib_s < 1 ? 4 : sum[i].mib_s < 100 ? 2 : 0, sum[i].mib_s);
			print_us(f, sum[i].lat_us[1]);
			print_us(f, sum[i].lat_us[2]);
			print_us(f, sum[i].lat_us[5]);
			print_us(f, sum[i].lat_us[7]);
			fputc('\n', f);
		}
	}
}

static void print_per_job(FILE *f, const struct run_info *info)
{
	const struct ranks_report *rr = info->ranks;

	if (info->job_results)
		print_rows(f, info, job_label(info), info->jobs, info->job_specs,
			   info->job_results, info->job_cpus);
	if (!rr)
		return;
	fprintf(f, "\nranks: %u (%u IOs outstanding in all); fastest rank %u (%.3f s), "
		"slowest rank %u (%.3f s): stonewall %.3f ms\n", rr->count, rr->outstanding,
		rr->fastest, (double)rr->fastest_ns / 1e9, rr->slowest,
		(double)rr->slowest_ns / 1e9, (double)(rr->slowest_ns - rr->fastest_ns) / 1e6);
	if (rr->results)
		print_rows(f, info, "rank", rr->count, rr->specs, rr->results, NULL);
}

/*
 * Latencies span ns to s: keep about four significant digits in 8 columns
 * (9 with the space before), so that 8 of them and the op fit in 80.
 */
static void print_us(FILE *f, double us)
{
	if (us < 10)
		fprintf(f, " %8.3f", us);
	else if (us < 10000)
		fprintf(f, " %8.1f", us);
	else if (us < 1e8)
		fprintf(f, " %8.0f", us);
	else
		fprintf(f, " %8.2e", us);
}

/* The two blocks of the table: IOs and throughput, then latencies in µs. */
static void print_summaries(FILE *f, const struct op_summary *sum, unsigned n)
{
	fprintf(f, "%-6s %14s %14s %12s\n", "op", "IOs", "IOPS", "MiB/s");
	for (unsigned i = 0; i < n; i++)
		/* slow drives (0.5 KiB writes at 4 IOPS) still show significant digits */
		fprintf(f, "%-6s %14llu %14.*f %12.*f\n", sum[i].op,
			(unsigned long long)sum[i].ios, sum[i].iops < 100 ? 3 : 1, sum[i].iops,
			sum[i].mib_s < 1 ? 5 : 2, sum[i].mib_s);
	fprintf(f, "\nlatency in us:\n%-6s", "op");
	for (int k = 0; k < LAT_KEYS; k++)
		fprintf(f, " %8s", lat_key_labels[k]);
	fputc('\n', f);
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "%-6s", sum[i].op);
		for (int k = 0; k < LAT_KEYS; k++)
			print_us(f, sum[i].lat_us[k]);
		fputc('\n', f);
	}
}

int run_output_table(FILE *f, const struct run_info *info, const struct run_result *r)
{
	const struct job_spec *s = info->spec;
	struct op_summary sum[2];
	enum io_op idx[2];
	unsigned n = run_summaries(info, r, sum, idx);
	char bs[32], size[32], region[32], target[1024];
	uint64_t ios = 0;

	format_size(bs, sizeof(bs), s->bs);
	format_size(size, sizeof(size), info->target_size);
	format_size(region, sizeof(region), s->length);
	fprintf(f, "%s %s, queue depth %u", info->rw, bs, s->qd);
	fprintf(f, "%s%s, %s, %s%s\n", info->jobs > 1 ? " per " : "",
		info->jobs > 1 ? job_label(info) : "", info->engine, run_mode(info),
		r->interrupted ? " (interrupted)" : "");
	if (info->jobs > 1)		/* a line of its own: the header stays in 80 columns */
		fprintf(f, "%u %ss%s, %u IOs outstanding\n", info->jobs, job_label(info),
			info->split ? " on slices of the region" : "", info->total_qd);
	errmsg_escape(target, sizeof(target), info->target);
	fprintf(f, "target %s (%s, %s)\nregion %s at offset %llu, %.3f s measured\n\n",
		target, info->target_kind, size, region,
		(unsigned long long)s->offset, (double)r->elapsed_ns / 1e9);
	print_summaries(f, sum, n);
	for (unsigned i = 0; i < n; i++)
		ios += sum[i].ios;
	fprintf(f, "\ncpu: user %.3f s, system %.3f s", r->cpu_user_s, r->cpu_sys_s);
	if (ios)
		fprintf(f, ", %.3f us per IO", (r->cpu_user_s + r->cpu_sys_s) * 1e6 / (double)ios);
	fputc('\n', f);
	print_per_job(f, info);
	print_device(f, info->device);
	verify_output_table(f, &r->verify);
	if (info->notice)
		fprintf(f, "note: %s\n", info->notice);
	print_error(f, r);
	return ferror(f) ? -EIO : 0;
}

int run_output_csv(FILE *f, const struct run_info *info, const struct run_result *r)
{
	struct op_summary sum[2];
	enum io_op idx[2];
	unsigned n = run_summaries(info, r, sum, idx);

	/* op,random,size,qd,iops come first, as `iomodel fit` reads them back */
	fputs("op,random,size,qd,ios,bytes,seconds,iops,mib_s", f);
	for (int k = 0; k < LAT_KEYS; k++)
		fprintf(f, ",lat_%s_us", lat_key_names[k]);
	fputs(",cpu_user_s,cpu_sys_s,jobs\n", f);
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "%s,%d,%llu,%u,%llu,%llu,%.6f,%.3f,%.3f", sum[i].op,
			info->spec->random, (unsigned long long)info->spec->bs, info->spec->qd,
			(unsigned long long)sum[i].ios, (unsigned long long)sum[i].bytes,
			sum[i].seconds, sum[i].iops, sum[i].mib_s);
		for (int k = 0; k < LAT_KEYS; k++)
			fprintf(f, ",%.3f", sum[i].lat_us[k]);
		fprintf(f, ",%.6f,%.6f,%u\n", r->cpu_user_s, r->cpu_sys_s,
			info->jobs ? info->jobs : 1);
	}
	return ferror(f) ? -EIO : 0;
}
