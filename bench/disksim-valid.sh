#!/usr/bin/env bash
# disksim-valid.sh — the HDD model validated as DiskSim 4.0 was: DiskSim's valid/ folder
# holds traces of per-request service times measured on real drives (one request at a
# time, each after a think time) and the drives' parameters. This replays the traces of
# the HP C2247A and the Seagate Cheetah 9LP on sim: drives built from those published
# parameters (bench/disksim/*.ini) with `iomodel replay --format validate`, and prints
# the demerit — the RMS horizontal distance between the simulated and the measured
# service-time distributions, in ms — beside DiskSim's own (runvalid: 0.090 and 0.107).
# Two rows per drive: the INI files as committed (published geometry, zones, surfaces,
# head switch, track and cylinder skew, DiskSim's seek equation, rpm, bus rates, read
# water mark and cache; DiskSim's controller overheads, write disconnects and water marks
# mapped onto the model's), and the same with the overrides a coordinate search found
# (overheads, water marks and settling; for the HP also the write's least seek, the
# cylinder skew and the one-cylinder seek: a fit, said as such).
#
# Needs build/iomodel and a copy of the DiskSim 4.0 sources, which are not part of this
# repository (never commit them): e.g.
#   git clone https://github.com/nmsudatalab/disksim-4.0 /tmp/disksim
#   bench/disksim-valid.sh /tmp/disksim/build/disksim-4.0
# The argument is the folder that holds valid/ (hp_c2247a.trace, cheetah9LP.trace).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
iomodel=${IOMODEL:-$here/../build/iomodel}
[ $# -eq 1 ] || { echo "usage: bench/disksim-valid.sh DISKSIM_DIR (the folder holding valid/)" >&2; exit 2; }
valid=$1/valid
[ -x "$iomodel" ] || { echo "disksim-valid: no iomodel binary at $iomodel (run ./quickstart.sh)" >&2; exit 2; }
for f in hp_c2247a.trace cheetah9LP.trace; do
	[ -f "$valid/$f" ] || { echo "disksim-valid: no $valid/$f: give the disksim-4.0 folder that holds valid/" >&2; exit 2; }
done

# row DRIVE INI TRACE DISKSIM_FIGURE LABEL [OVERRIDES]
row() {
	local drive=$1 ini=$2 trace=$3 goal=$4 label=$5 over=${6:-}
	local json
	json=$("$iomodel" replay --target "sim:$here/disksim/$ini$over" --format validate --json "$valid/$trace")
	python3 - "$drive" "$goal" "$label" <<PY
import json, sys
d = json.loads('''$json''')
drive, goal, label = sys.argv[1], float(sys.argv[2]), sys.argv[3]
s = d["service"]
print("%-12s %-11s %6d %9.3f %9.3f %12.3f %9.3f  %s" % (drive, label, d["completed"],
      s["mean_ms"], s["p99_ms"], d["demerit_ms"], goal,
      "at most DiskSim's" if d["demerit_ms"] <= goal else "above DiskSim's"))
PY
	local m
	m=$(awk '{s += $5} END {printf "%.3f", s / NR / 1000}' "$valid/$trace")
	echo "             (measured mean service $m ms)"
}

printf "%-12s %-11s %6s %9s %9s %12s %9s\n" drive parameters IOs mean_ms p99_ms demerit_ms disksim
row hp_c2247a hp_c2247a.ini hp_c2247a.trace 0.090 published
row hp_c2247a hp_c2247a.ini hp_c2247a.trace 0.090 fitted \
	",cmd_overhead_ms=0.64,read_hit_overhead_ms=0.413,read_watermark=0.755,write_done_ms=0.063,write_seek_min_ms=1.6,write_settle_ms=0.416,cylinder_skew_ms=2.34,seek_track_ms=4.55"
row cheetah9lp cheetah9lp.ini cheetah9LP.trace 0.107 published
row cheetah9lp cheetah9lp.ini cheetah9LP.trace 0.107 fitted \
	",cmd_overhead_ms=0.126,after_write_hit_ms=0.557,write_overhead_ms=0.592"
