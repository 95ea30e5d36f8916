#!/usr/bin/env python3
"""heldout.py — prediction error on points the fit never saw.

Fits the drive model to part of a grid of measured points (request size x
queue depth) with `iomodel fit`, predicts the points left out with
`iomodel predict`, and prints the error of each and their median and worst,
per scheme:

  checkerboard   every other cell of the size x depth grid held out
                 (sizes and depths both interleaved)
  depths         whole depths held out (every other depth measured;
                 the held-out ones come from the nearest fitted depth and
                 the queue-depth curve)
  fio-grid       the fio-plot iodepth x numjobs grids at 4 KiB: every other
                 outstanding-IO count held out (the queue-depth curve alone)

Inputs: simulated drives measured here with `iomodel sweep` (virtual time,
seconds of wall time), and the fio-plot folders given with --fio-plot.
Standard library only. Usage:

  bench/heldout.py [--iomodel build/iomodel] [--fio-plot DIR] [--sim PRESET ...]
"""
import argparse
import csv
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile

SIZES = "4k:1m"
DEPTHS = [1, 2, 4, 8, 16, 32]


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def sweep(iomodel, drive, rw):
    """Every (size, depth) cell of `drive`, as CSV rows (dicts)."""
    rows = []
    for q in DEPTHS:
        out = run([iomodel, "sweep", "--target", drive, "--rw", rw, "--bs", SIZES,
                   "--qd", str(q), "--point-ios", "4000", "--csv"])
        rows += list(csv.DictReader(io.StringIO(out)))
    return rows


def fit_predict(iomodel, fit_rows, test_rows, rw, tmp):
    """Relative IOPS errors of test_rows predicted from a model of fit_rows."""
    data = os.path.join(tmp, "fit.csv")
    model = os.path.join(tmp, "model.json")
    with open(data, "w") as f:
        w = csv.DictWriter(f, fieldnames=list(fit_rows[0].keys()))
        w.writeheader()
        w.writerows(fit_rows)
    run([iomodel, "fit", data, "-o", model])
    errs = []
    for r in test_rows:
        p = json.loads(run([iomodel, "predict", "--model", model, "--rw", rw, "--bs",
                            r["size"], "--qd", r["qd"], "--json"]))
        errs.append((int(r["size"]), int(r["qd"]), p["iops"] / float(r["iops"]) - 1))
    return errs


def summary(name, errs):
    a = [abs(e) for _, _, e in errs]
    print(f"{name:44s} n={len(a):3d}  median {100 * statistics.median(a):6.2f} %"
          f"  worst {100 * max(a):6.2f} %")


def sim_schemes(iomodel, drive, rw, tmp):
    rows = sweep(iomodel, drive, rw)
    sizes = sorted({int(r["size"]) for r in rows})
    depths = sorted({int(r["qd"]) for r in rows})
    idx = lambda r: (sizes.index(int(r["size"])), depths.index(int(r["qd"])))
    # checkerboard: 4 KiB keeps every depth so the depth curve stays fitted
    held = [r for r in rows if sum(idx(r)) % 2 and int(r["size"]) != sizes[0]]
    kept = [r for r in rows if r not in held]
    summary(f"{drive} {rw} checkerboard", fit_predict(iomodel, kept, held, rw, tmp))
    held = [r for r in rows if idx(r)[1] % 2 and int(r["size"]) != sizes[0]]
    kept = [r for r in rows if r not in held]
    summary(f"{drive} {rw} depths 2,8,32 held out",
            fit_predict(iomodel, kept, held, rw, tmp))


def fio_grid(iomodel, folder, rw, tmp):
    """Every other outstanding-IO count of a fio-plot folder held out."""
    files = sorted(f for f in os.listdir(folder) if f.startswith(rw + "-"))
    pts = []
    for f in files:
        path = os.path.join(folder, f)
        _, depth, jobs = f[:-5].split("-")
        pts.append((int(depth) * int(jobs), path))
    counts = sorted({q for q, _ in pts})
    held_q = set(counts[1::2])
    kept = [p for q, p in pts if q not in held_q]
    model = os.path.join(tmp, "fio.json")
    run([iomodel, "fit", *kept, "-o", model])
    errs = []
    for q, path in pts:
        if q not in held_q or q > 1024:	# predict takes depths up to 1024
            continue
        d = json.load(open(path))
        job = d["jobs"][0]
        measured = job["read" if rw == "randread" else "write"]["iops"]
        p = json.loads(run([iomodel, "predict", "--model", model, "--rw", rw, "--bs", "4k",
                            "--qd", str(q), "--json"]))
        errs.append((4096, q, p["iops"] / measured - 1))
    summary(f"fio-plot {os.path.basename(folder)} {rw}", errs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iomodel", default="build/iomodel")
    ap.add_argument("--fio-plot", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                         "shared", "data", "fio-plot"))
    ap.add_argument("--sim", nargs="*", default=["intel-x25m-g2", "wd6400aaks"])
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for preset in a.sim:
            for rw in ("randread", "randwrite"):
                sim_schemes(a.iomodel, "sim:" + preset, rw, tmp)
        if os.path.isdir(a.fio_plot):
            for sub in sorted(os.listdir(a.fio_plot)):
                folder = os.path.join(a.fio_plot, sub)
                if os.path.isdir(folder):
                    for rw in ("randread", "randwrite"):
                        fio_grid(a.iomodel, folder, rw, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
