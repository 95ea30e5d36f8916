#!/usr/bin/env python3
"""vsfio.py — helper of bench/vs-fio.sh (python3 standard library only).

Subcommands:
  quiet  --threshold F --max-wait S
        Wait until the machine is quiet: the share of all CPUs busy over
        0.5 s is below F (0..1), for at most S seconds. Prints the busy share
        and, when busy, the top other processes (to stderr). Exit 0 always.
  run    --records FILE --case C --tool T --rep N --kind fio|iomodel
         [--engine E] --raw FILE -- COMMAND...
        Run COMMAND once (its stdout goes to --raw; fio is expected to write
        its JSON there itself with --output), measure the whole process's CPU
        (user+sys of every thread and every child process, io_uring's
        iou-wrk workers included: getrusage(RUSAGE_CHILDREN) around it),
        sample the iou-wrk / iou-sqp threads while it runs, parse the tool's
        JSON and append one record (one JSON line) to --records. Exits
        non-zero, recording nothing, when the tool failed or (--engine) ran
        another engine than E.
  report --records FILE [--cases FILE]
        Print the table of medians (and min..max over the repeats), the ratios
        iomodel/fio, and one line per goal: met / NOT met.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------- quiet ---
def cpu_times():
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields[:8]), idle


def busy_share(interval=0.5):
    t0, i0 = cpu_times()
    time.sleep(interval)
    t1, i1 = cpu_times()
    total = t1 - t0
    return 0.0 if total <= 0 else 1.0 - (i1 - i0) / total


def top_others(n=3):
    """The processes that used the most CPU over 0.5 s (not this one)."""
    def snap():
        out = {}
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/stat") as f:
                    s = f.read()
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            except OSError:
                continue
            rest = s[s.rfind(")") + 2:].split()
            out[pid] = (int(rest[11]) + int(rest[12]), cmd or s[s.find("(") + 1:s.rfind(")")])
        return out
    a = snap()
    time.sleep(0.5)
    b = snap()
    me = str(os.getpid())
    use = sorted(((b[p][0] - a[p][0], b[p][1]) for p in b if p in a and p != me), reverse=True)
    return [(t / CLK_TCK / 0.5, c[:100]) for t, c in use[:n] if t > 0]


def cmd_quiet(args):
    waited = 0.0
    share = busy_share()
    while share > args.threshold and waited < args.max_wait:
        if waited == 0:
            others = ", ".join(f"{c} ({u:.0%} of a CPU)" for u, c in top_others())
            others = others or "short-lived processes"
            print(f"  machine busy ({share:.0%} of all CPUs: {others}); waiting up to "
                  f"{args.max_wait:.0f} s", file=sys.stderr)
        time.sleep(1.0)
        waited += 1.5
        share = busy_share()
    print(f"{share:.3f}")


# ------------------------------------------------------------------ run ---
def descendants(pid):
    """pid and all its descendants (via /proc/PID/task/TID/children)."""
    todo, seen = [pid], []
    while todo:
        p = todo.pop()
        seen.append(p)
        try:
            for tid in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{tid}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except OSError:
            pass
    return seen


def sample_io_threads(pid, acc):
    """acc[(pid, tid)] = (comm, utime+stime ticks) of iou-* threads."""
    for p in descendants(pid):
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{p}/task/{tid}/stat") as f:
                    s = f.read()
            except OSError:
                continue
            comm = s[s.find("(") + 1:s.rfind(")")]
            if not comm.startswith("iou-"):
                continue
            rest = s[s.rfind(")") + 2:].split()
            acc[(p, tid)] = (comm, int(rest[11]) + int(rest[12]))


FAST_NS = 10_000  # "fast" IO: under 10 us (the in-CPU path on zram)


def fio_fast_share(pct):
    """Coarse share of IOs under FAST_NS from fio's clat percentile list."""
    under = [float(p) for p, v in pct.items() if v < FAST_NS]
    return max(under) if under else 0.0


def iomodel_fast_share(hist, ios):
    """Share of IOs under FAST_NS from iomodel's histogram [low, width, count]."""
    n = sum(c for low, width, c in hist["buckets"] if low + width <= FAST_NS)
    return 100.0 * n / ios if ios else None


def parse_fio(path):
    with open(path) as f:
        text = f.read()
    d = json.loads(text[text.index("{"):])  # fio may print notes before the JSON
    job = d["jobs"][0]
    r = job["read"]
    runtime_s = job["job_runtime"] / 1000.0
    clat_pct = r["clat_ns"].get("percentile", {})
    # total latency (submission to completion) when fio ran with --lat_percentiles=1
    pct = r["lat_ns"].get("percentile", clat_pct)
    return {
        "ios": r["total_ios"],
        "iops": r["iops"],
        "lat_mean_us": r["lat_ns"]["mean"] / 1000.0,
        "clat_mean_us": r["clat_ns"]["mean"] / 1000.0,
        "p50_us": pct["50.000000"] / 1000.0 if "50.000000" in pct else None,
        "p99_us": pct["99.000000"] / 1000.0 if "99.000000" in pct else None,
        "fast_pct": fio_fast_share(pct),
        "clat_p50_us": clat_pct["50.000000"] / 1000.0 if "50.000000" in clat_pct else None,
        "self_cpu_s": (job["usr_cpu"] + job["sys_cpu"]) / 100.0 * runtime_s,
        "engine": job["job options"].get("ioengine", "?"),
        "error": job["error"],
    }


def parse_iomodel(path):
    with open(path) as f:
        d = json.load(f)
    r = d["results"][0]
    lat = r["lat_us"]
    return {
        "ios": r["ios"],
        "iops": r["iops"],
        "lat_mean_us": lat["mean"],
        "p50_us": lat["p50"],
        "p99_us": lat["p99"],
        "fast_pct": iomodel_fast_share(r["histogram"], r["ios"]),
        "self_cpu_s": r["cpu"]["user_s"] + r["cpu"]["sys_s"],
        "engine": d["job"]["engine"],
        "error": d["error"],
    }


def cmd_run(args):
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    io_threads = {}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    sys_before = cpu_times()
    t0 = time.monotonic()
    with open(args.raw, "w") as out, open(args.raw + ".stderr", "w") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        while proc.poll() is None:
            sample_io_threads(proc.pid, io_threads)
            time.sleep(0.2)
    wall = time.monotonic() - t0
    sys_after = cpu_times()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        with open(args.raw + ".stderr") as f:
            sys.stderr.write(f.read())
        sys.exit(f"vsfio: {args.tool} exited with status {proc.returncode}: {' '.join(cmd)}")
    rec = (parse_fio if args.kind == "fio" else parse_iomodel)(args.raw)
    if args.engine and rec["engine"] != args.engine:
        # e.g. a neighbour's test switched io_uring off and iomodel fell back
        sys.exit(f"vsfio: {args.tool} ran with engine {rec['engine']}, not {args.engine}")
    proc_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    busy_all = ((sys_after[0] - sys_before[0]) - (sys_after[1] - sys_before[1])) / CLK_TCK
    rec.update({
        "case": args.case, "tool": args.tool, "rep": args.rep, "kind": args.kind,
        "proc_cpu_s": proc_cpu,
        # CPU that the rest of the machine used meanwhile, in CPUs on average
        "others_cpus": max(0.0, busy_all - proc_cpu) / wall if wall else 0.0,
        "wall_s": wall,
        "iowq_cpu_s": sum(t for c, t in io_threads.values() if c.startswith("iou-wrk")) / CLK_TCK,
        "iowq_threads": sum(1 for c, _ in io_threads.values() if c.startswith("iou-wrk")),
        "busy_before": args.busy,
        "command": " ".join(cmd),
    })
    with open(args.records, "a") as f:
        f.write(json.dumps(rec) + "\n")
    print(f"  {args.case:<14} {args.tool:<9} rep {args.rep}: {rec['iops']:>12,.0f} IOPS  "
          f"mean {rec['lat_mean_us']:8.2f} us  p50 {rec['p50_us'] or 0:8.2f} us  "
          f"cpu {rec['proc_cpu_s']:6.2f} s  iou-wrk {rec['iowq_threads']} thr "
          f"{rec['iowq_cpu_s']:5.2f} s  others {rec['others_cpus']:.2f} CPU", file=sys.stderr)


# --------------------------------------------------------------- report ---
METRICS = [
    # key, label, format
    ("iops", "IOPS", "{:,.0f}"),
    ("lat_mean_us", "latency mean, us (fio: lat_ns)", "{:.2f}"),
    ("clat_mean_us", "fio only: clat mean, us", "{:.2f}"),
    ("p50_us", "latency p50, us (fio: lat_ns)", "{:.2f}"),
    ("p99_us", "latency p99, us (fio: lat_ns)", "{:.2f}"),
    ("clat_p50_us", "fio only: clat p50, us", "{:.2f}"),
    ("fast_pct", "% of IOs under 10 us (fio: coarse)", "{:.1f}"),
    ("proc_cpu_us_per_io", "CPU us/IO, whole process", "{:.3f}"),
    ("self_cpu_us_per_io", "CPU us/IO, tool's own report", "{:.3f}"),
    ("iowq_cpu_s", "CPU s in iou-wrk threads (sampled)", "{:.2f}"),
    ("iowq_threads", "iou-wrk threads seen", "{:.0f}"),
]


def load(records_path):
    recs = []
    with open(records_path) as f:
        for line in f:
            r = json.loads(line)
            r["proc_cpu_us_per_io"] = r["proc_cpu_s"] / r["ios"] * 1e6 if r["ios"] else None
            r["self_cpu_us_per_io"] = r["self_cpu_s"] / r["ios"] * 1e6 if r["ios"] else None
            recs.append(r)
    return recs


def values(recs, case, tool, key):
    return [r[key] for r in recs if r["case"] == case and r["tool"] == tool and r.get(key) is not None]


def med(recs, case, tool, key):
    v = values(recs, case, tool, key)
    return statistics.median(v) if v else None


def cell(recs, case, tool, key, fmt):
    v = values(recs, case, tool, key)
    if not v:
        return "-"
    m = fmt.format(statistics.median(v))
    if len(v) > 1 and key == "fast_pct":
        m = f"{min(v):.0f}..{max(v):.0f}" if max(v) - min(v) >= 1 else m
    elif len(v) > 1 and key not in ("iowq_threads",):
        lo, hi = min(v), max(v)
        spread = (hi - lo) / statistics.median(v) * 100 if statistics.median(v) else 0
        m += f" ±{spread / 2:.0f}%"
    return m


def ratio(a, b):
    return None if a is None or b in (None, 0) else a / b


def fmt_ratio(x):
    return "-" if x is None else f"{x:.2f}x"


def cmd_report(args):
    recs = load(args.records)
    cases = []
    with open(args.cases) as f:
        for line in f:
            if line.strip():
                case, title = line.rstrip("\n").split("\t", 1)
                cases.append((case, title))
    print()
    print("Each figure: median over the repeats, '±N%' = half the (max-min) spread "
          "relative to the median.")
    print("ratio = iomodel / fio (for IOPS higher is better for iomodel; for latency "
          "and CPU lower is better).")
    for case, title in cases:
        tools = [t for t in dict.fromkeys(r["tool"] for r in recs if r["case"] == case)]
        fios = [t for t in tools if t != "iomodel"]
        if not fios or "iomodel" not in tools:
            continue
        cols = fios + ["iomodel"]
        heads = cols + [f"iomodel/{t}" for t in fios]
        n = len(values(recs, case, "iomodel", "iops"))
        engines = sorted({r["engine"] for r in recs if r["case"] == case})
        print()
        print(f"== {title}   [{n} runs per tool; engines: {', '.join(engines)}]")
        w0 = 38
        print(f"{'':<{w0}}" + "".join(f"{h:>18}" for h in heads))
        for key, label, fmt in METRICS:
            if all(not values(recs, case, t, key) for t in cols):
                continue
            if key.startswith("iowq") and all((med(recs, case, t, key) or 0) == 0 for t in cols):
                continue
            if key == "fast_pct" and (all((med(recs, case, t, key) or 0) >= 99 for t in cols) or
                                      all((med(recs, case, t, key) or 0) <= 1 for t in cols)):
                continue  # not a mix of fast and slow IOs: nothing to show
            row = [cell(recs, case, t, key, fmt) for t in cols]
            if key in ("iowq_cpu_s", "iowq_threads", "clat_mean_us", "clat_p50_us", "fast_pct"):
                row += ["" for _ in fios]
            else:
                row += [fmt_ratio(ratio(med(recs, case, "iomodel", key), med(recs, case, t, key)))
                        for t in fios]
            print(f"{label:<{w0}}" + "".join(f"{c:>18}" for c in row))
    busy = [r for r in recs if r.get("busy_before", 0) > 0.25 or r.get("others_cpus", 0) > 0.2]
    if busy:
        print()
        print(f"note: in {len(busy)} of {len(recs)} runs other processes kept more than 0.2 CPU "
              f"busy (before or during the run); their figures are noisier:")
        print("      " + ", ".join(f"{r['case']}/{r['tool']}#{r['rep']} "
                                   f"({max(r.get('others_cpus', 0), r.get('busy_before', 0) * os.cpu_count()):.1f})"
                                   for r in busy))

    # ---- goals
    def g(case, tool, key):
        return med(recs, case, tool, key)

    def within(a, b, tol):
        r = ratio(a, b)
        return r is not None and abs(r - 1) <= tol, r

    goals = []

    def spread(case, tool, key):
        v = values(recs, case, tool, key)
        m = statistics.median(v) if v else 0
        return (max(v) - min(v)) / 2 / m * 100 if len(v) > 1 and m else 0.0

    def goal(name, ok, r, bounds, case, key, fio="fio"):
        """bounds: the ratio limits the goal is judged against."""
        goals.append(ok)
        sf, si = spread(case, fio, key), spread(case, "iomodel", key)
        note = ""
        if r is not None and any(abs(r / b - 1) * 100 < sf + si for b in bounds):
            note = (f"; within the run-to-run spread ({fio} ±{sf:.0f}%, iomodel ±{si:.0f}%):"
                    f" may flip between runs")
        print(f"GOAL {name}: {'met' if ok else 'NOT met'} (ratio {fmt_ratio(r)}{note})")

    print()
    r = ratio(g("null-qd1", "iomodel", "iops"), g("null-qd1", "fio", "iops"))
    goal("1  null 4k randread QD1: iomodel IOPS >= 2.0x fio --ioengine=null",
         r is not None and r >= 2.0, r, [2.0], "null-qd1", "iops")
    r = ratio(g("uring-qd32", "iomodel", "iops"), g("uring-qd32", "fio", "iops"))
    goal("2a io_uring 4k randread QD32: IOPS >= 2.0x fio defaults",
         r is not None and r >= 2.0, r, [2.0], "uring-qd32", "iops")
    r = ratio(g("uring-qd32", "iomodel", "iops"), g("uring-qd32", "fio-best", "iops"))
    goal("2b io_uring 4k randread QD32: IOPS >= 1.0x fio best flags",
         r is not None and r >= 1.0, r, [1.0], "uring-qd32", "iops", "fio-best")
    r = ratio(g("uring-qd32", "iomodel", "proc_cpu_us_per_io"),
              g("uring-qd32", "fio", "proc_cpu_us_per_io"))
    goal("2c io_uring 4k randread QD32: whole-process CPU s/IO <= 0.7x fio defaults",
         r is not None and r <= 0.7, r, [0.7], "uring-qd32", "proc_cpu_us_per_io")
    r = ratio(g("uring-qd1", "iomodel", "p50_us"), g("uring-qd1", "fio", "p50_us"))
    goal("3  io_uring 4k randread QD1: p50 latency <= 1.0x fio's (total latency)",
         r is not None and r <= 1.0, r, [1.0], "uring-qd1", "p50_us")
    ok, r = within(g("uring-qd1", "iomodel", "iops"), g("uring-qd1", "fio", "iops"), 0.10)
    goal("4a io_uring 4k randread QD1: IOPS within 10% of fio", ok, r, [0.9, 1.1],
         "uring-qd1", "iops")
    ok, r = within(g("uring-qd1", "iomodel", "lat_mean_us"),
                   g("uring-qd1", "fio", "lat_mean_us"), 0.10)
    goal("4b io_uring 4k randread QD1: mean latency within 10% of fio", ok, r, [0.9, 1.1],
         "uring-qd1", "lat_mean_us")
    file_goals(recs, goal, g)
    print(f"{sum(goals)} of {len(goals)} goals met")


FILE_ENGINES = ("io_uring", "libaio")
FILE_DEPTHS = (1, 8, 32)


def best_fio(recs, case, key, pick):
    """(tool, median) of the fio variant with the best median (pick: max or min)."""
    meds = [(med(recs, case, t, key), t) for t in ("fio", "fio-best")]
    meds = [(m, t) for m, t in meds if m is not None]
    if not meds:
        return None, None
    m, t = pick(meds)
    return t, m


def file_goals(recs, goal, g):
    """Goal 5: on the file, iomodel >= the better fio in IOPS, <= the better in p50."""
    cases = [(e, q, f"file-{e}-qd{q}") for e in FILE_ENGINES for q in FILE_DEPTHS]
    cases = [c for c in cases if values(recs, c[2], "iomodel", "iops")]
    if not cases:
        return
    print()
    print("file cases, iomodel / the better fio variant (fio defaults or fio-best) per point:")
    print(f"{'engine':<10}{'QD':>4}{'IOPS ratio':>12}{'vs':>10}{'p50 ratio':>12}{'vs':>10}"
          f"{'iomodel IOPS':>14}{'fio IOPS':>10}{'fio-best':>10}")
    rows = []
    for engine, qd, case in cases:
        ti, fi = best_fio(recs, case, "iops", max)
        tp, fp = best_fio(recs, case, "p50_us", min)
        ri = ratio(g(case, "iomodel", "iops"), fi)
        rp = ratio(g(case, "iomodel", "p50_us"), fp)
        rows.append((engine, qd, case, ti, ri, tp, rp))
        print(f"{engine:<10}{qd:>4}{fmt_ratio(ri):>12}{ti or '-':>10}{fmt_ratio(rp):>12}"
              f"{tp or '-':>10}{g(case, 'iomodel', 'iops') or 0:>14,.0f}"
              f"{g(case, 'fio', 'iops') or 0:>10,.0f}{g(case, 'fio-best', 'iops') or 0:>10,.0f}")
    print()
    for engine, qd, case, ti, ri, tp, rp in rows:
        goal(f"5  file {engine} 4k randread QD{qd}: IOPS >= 1.0x the better fio ({ti})",
             ri is not None and ri >= 1.0, ri, [1.0], case, "iops", ti or "fio")
        goal(f"5  file {engine} 4k randread QD{qd}: p50 <= 1.0x the better fio ({tp})",
             rp is not None and rp <= 1.0, rp, [1.0], case, "p50_us", tp or "fio")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    q = sub.add_parser("quiet")
    q.add_argument("--threshold", type=float, default=0.25)
    q.add_argument("--max-wait", type=float, default=20)
    q.set_defaults(fn=cmd_quiet)
    r = sub.add_parser("run")
    r.add_argument("--records", required=True)
    r.add_argument("--case", required=True)
    r.add_argument("--tool", required=True)
    r.add_argument("--rep", type=int, required=True)
    r.add_argument("--kind", choices=["fio", "iomodel"], required=True)
    r.add_argument("--raw", required=True)
    r.add_argument("--busy", type=float, default=0.0)
    r.add_argument("--engine", default="", help="fail when the tool ran another engine")
    r.add_argument("command", nargs=argparse.REMAINDER)
    r.set_defaults(fn=cmd_run)
    p = sub.add_parser("report")
    p.add_argument("--records", required=True)
    p.add_argument("--cases", required=True)
    p.set_defaults(fn=cmd_report)
    args = ap.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
