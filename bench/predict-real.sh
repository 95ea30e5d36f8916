#!/usr/bin/env bash
# predict-real.sh — how well the first-order model predicts a real device:
# sweep random reads and writes over request sizes (512 B or the device's
# sector .. 64 MiB, QD1),
# fit the model on every other size, predict the sizes left out with
# `iomodel predict`, and print the relative error of each prediction and the
# median per device and direction (goal: median <= 15 %). Devices: a file on
# the disk under /var/tmp (ext4 here), and a zram disk of its own when the
# machine has zram-control (root). Needs build/iomodel and python3.
# Usage: bench/predict-real.sh   (MAX_BS=256m POINT_TIME=2s to change the sweep)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
iomodel=${IOMODEL:-$here/../build/iomodel}
max_bs=${MAX_BS:-64m}
point_time=${POINT_TIME:-1s}
work=$(mktemp -d /var/tmp/iomodel-predict.XXXXXX)
zram=
cleanup() {
	if [ -n "$zram" ]; then
		echo 1 >"/sys/block/zram$zram/reset" 2>/dev/null || true
		echo "$zram" >/sys/class/zram-control/hot_remove 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT
[ -x "$iomodel" ] || { echo "predict-real: no iomodel binary at $iomodel" >&2; exit 2; }

# evaluate NAME TARGET MIN_BS [FLAGS...]: sweep reads and writes, fit half, predict half
evaluate() {
	local name=$1 target=$2 min_bs=$3; shift 3
	for rw in randread randwrite; do
		"$iomodel" sweep --target "$target" --rw "$rw" --bs "$min_bs:$max_bs" --point-time "$point_time" \
			--csv "$@" >"$work/$name-$rw.csv"
	done
	python3 - "$iomodel" "$work" "$name" <<'PY'
import csv, json, statistics, subprocess, sys
iomodel, work, name = sys.argv[1:]
rows = {}
for rw in ("randread", "randwrite"):
    rows[rw] = sorted(csv.DictReader(open(f"{work}/{name}-{rw}.csv")), key=lambda r: int(r["size"]))
fit_rows = [r for rw in rows for i, r in enumerate(rows[rw]) if i % 2 == 0]
with open(f"{work}/{name}-fit.csv", "w") as f:
    w = csv.DictWriter(f, fieldnames=list(fit_rows[0].keys()))
    w.writeheader()
    w.writerows(fit_rows)
subprocess.run([iomodel, "fit", f"{work}/{name}-fit.csv", "-o", f"{work}/{name}-model.json"],
               check=True, stdout=subprocess.DEVNULL)
model = json.load(open(f"{work}/{name}-model.json"))["model"]
for rw, op in (("randread", "read"), ("randwrite", "write")):
    m = model[op]
    print(f"\n{name} {rw}: fitted on {len(rows[rw][0::2])} sizes: STR {m['str_mib_s']:.1f} MiB/s, "
          f"penalty {m['penalty_ms']:.4f} ms")
    print(f"  {'size':>10} {'measured IOPS':>14} {'predicted':>12} {'error':>8}")
    errors = []
    for r in rows[rw][1::2]:
        size, meas = int(r["size"]), float(r["iops"])
        out = subprocess.run([iomodel, "predict", "--model", f"{work}/{name}-model.json",
                              "--rw", rw, "--bs", str(size), "--json"],
                             check=True, capture_output=True, text=True).stdout
        pred = json.loads(out)["iops"]
        err = (pred - meas) / meas
        errors.append(abs(err))
        flag = "  <- model fails" if abs(err) > 0.20 else ""
        print(f"  {size:>10} {meas:>14.5g} {pred:>12.5g} {err * 100:>7.1f}%{flag}")
    print(f"  median |error| {statistics.median(errors) * 100:.1f} % over {len(errors)} sizes "
          f"(goal <= 15 %): {'met' if statistics.median(errors) <= 0.15 else 'NOT met'}")
PY
}

evaluate ext4-file "$work/scratch.bin" 512 --size 1g
if [ -w /sys/class/zram-control/hot_add ]; then
	zram=$(cat /sys/class/zram-control/hot_add)
	echo 1G >"/sys/block/zram$zram/disksize"
	evaluate zram "/dev/zram$zram" 4k --destroy-data	# zram's sectors are 4 KiB
else
	echo "zram: no zram-control here (needs root and the zram module); skipped"
fi
