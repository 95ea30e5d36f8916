#!/usr/bin/env bash
# raid-mx200.sh — `iomodel raid` against a real array: from the fio runs of
# one Crucial MX200 (../shared/data/fio-plot/crucial-mx200-ssd, 4 KiB random
# reads at iodepth x numjobs from 1 to 4096), predict the 3-disk RAID 0 of the
# same drives at each total queue depth and compare with fio's runs of that
# array (crucial-mx200x3-raid0; the mean of the runs with the same total
# depth), both ways the planner reads the member's curve: the default for an
# SSD measured on a host (shared latency: the latency growth with depth is
# the host's path, shared by the members) and --no-shared-latency (each
# member queues on its own curve, the default for HDDs and simulated drives).
# Prints a Markdown table, the median and the largest error of each.
# Usage: bench/raid-mx200.sh [build/iomodel]
set -eu
iomodel=${1:-build/iomodel}
data=${SHARED_DATA:-$(dirname "$0")/../../shared/data}/fio-plot
[ -d "$data/crucial-mx200-ssd" ] || { echo "no fio-plot data under $data" >&2; exit 77; }
python3 - "$iomodel" "$data" <<'PY'
import glob, json, os, statistics, subprocess, sys

iomodel, data = sys.argv[1], sys.argv[2]

def measured(folder):
    by_depth = {}
    for f in glob.glob(os.path.join(data, folder, "randread-*.json")):
        iodepth, numjobs = map(int, os.path.basename(f)[:-5].split("-")[1:])
        with open(f) as fh:
            jobs = json.load(fh)["jobs"]
        by_depth.setdefault(iodepth * numjobs, []).append(sum(j["read"]["iops"] for j in jobs))
    return {q: statistics.mean(v) for q, v in by_depth.items()}

one, array = measured("crucial-mx200-ssd"), measured("crucial-mx200x3-raid0")
print("| total QD | one MX200 (fio) | RAID 0 x3 measured (fio) | predicted (default) | error | predicted, `--no-shared-latency` | error |")
print("|---:|---:|---:|---:|---:|---:|---:|")
errors = {False: [], True: []}

def predict(q, own_curve):
    cmd = [iomodel, "raid", "--level", "0", "--disks", "3", "--member-fit",
           os.path.join(data, "crucial-mx200-ssd"), "--bs", "4k", "--qd", str(q), "--json"]
    out = subprocess.run(cmd + (["--no-shared-latency"] if own_curve else []), check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["operations"]["rand_read"]["iops"]

for q in sorted(array):
    row = [f"{q}", f"{one.get(q, float('nan')):.0f}", f"{array[q]:.0f}"]
    for own_curve in (False, True):
        pred = predict(q, own_curve)
        err = pred / array[q] - 1
        errors[own_curve].append(abs(err))
        row += [f"{pred:.0f}", f"{100 * err:+.1f} %"]
    print("| " + " | ".join(row) + " |")
for own_curve, name in ((False, "default (shared latency)"), (True, "--no-shared-latency")):
    e = errors[own_curve]
    print(f"\n{name}: median |error| {100 * statistics.median(e):.1f} %, largest {100 * max(e):.1f} %"
          f" over {len(e)} depths")
PY
