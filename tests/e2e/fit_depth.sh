#!/usr/bin/env bash
# fit_depth.sh — fitting what people measure, through the command line:
#  - a size sweep taken at queue depth 4 (and a depth sweep at 4 KiB) of a
#    simulated drive: fit, predict at QD 4 gives back what was measured, the
#    model JSON keeps every point with its depth, and a (size, depth) cell
#    never measured is predicted from the nearest depth and the depth curve;
#  - a fio iodepth grid at 4 KiB (one file per depth): predict answers 4 KiB
#    at any depth and refuses another size with one line;
#  - non-physical models: the two-row fit that used to give a negative
#    penalty now holds it at 0; predict refuses hand-made models with a
#    negative penalty, zero STR or negative saturation (one line, status 2);
#  - iomodel.model/1 files are still read; `source` is never cut;
#  - caps and a write cache are named on the spec sheet;
#  - report of a fio grid makes one drive; --drive NAME=FILE,... overrides.
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT
shared=${SHARED_DATA:-$(dirname "$0")/../../../shared/data}
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"

one_line() { [ "$(wc -l <"$work/err")" -eq 1 ] && [ "$(tail -c1 "$work/err" | od -An -c | tr -d ' ')" = '\n' ]; }
expect_bad() {	# expect_bad PATTERN ARGS...
	local pattern=$1; shift
	local status
	status=$(run_status "$IOMODEL" "$@")
	ok "exit 2 for: ${*:1:3}" [ "$status" -eq 2 ]
	ok "one line ending in a newline ($pattern): $(head -c 160 "$work/err")" one_line
	ok "it says '$pattern'" grep -q -- "$pattern" "$work/err"
}

# --- a sweep at QD 4 -----------------------------------------------------------------
# (a drive the per-slot first-order model describes at QD 4: the X25-M G2 preset's
# controller, pipelined since its spec-sheet calibration, is capped there instead)
drive=sim:supertalent-gx
{ "$IOMODEL" sweep --target $drive --rw randread --bs 4k:256k --qd 4 --point-ios 4000 --csv &&
	"$IOMODEL" sweep --target $drive --rw randread --bs 4k --qd 1:32 --point-ios 4000 --csv |
		tail -n +2; } >"$work/qd4.csv"
ok "sweeps at QD 4 and over depths" [ "$(wc -l <"$work/qd4.csv")" -eq 14 ]
"$IOMODEL" fit "$work/qd4.csv" -o "$work/qd4.json" >"$work/qd4.sheet"
ok "fit exits 0" [ $? -eq 0 ]
ok "the size model is at queue depth 4" [ "$(json "$work/qd4.json" 'd["model"]["read"]["fit_qd"]')" = 4 ]
ok "spec sheet names the depth" grep -q "read at queue depth 4 (8 sizes)" "$work/qd4.sheet"
ok "model JSON keeps all 13 points with their depths" \
	[ "$(json "$work/qd4.json" 'sorted(set(p["qd"] for p in d["model"]["read"]["points"])), len(d["model"]["read"]["points"])')" = "([1, 2, 4, 8, 16, 32], 13)" ]
worst=0
while IFS=, read -r op random size qd iops rest; do
	[ "$qd" = 4 ] || continue
	pred=$("$IOMODEL" predict --model "$work/qd4.json" --rw randread --bs "$size" --qd 4 --json) || fail "predict $size"
	err=$(python3 -c 'import json,sys; p=json.loads(sys.argv[1]); print(abs(p["iops"]/float(sys.argv[2])-1))' "$pred" "$iops")
	worst=$(python3 -c "print(max($worst, $err))")
done <"$work/qd4.csv"
ok "predict at QD 4 gives back every measured size within 2 % (worst $worst)" \
	python3 -c "import sys; sys.exit(not $worst < 0.02)"
"$IOMODEL" sweep --target $drive --rw randread --bs 64k --qd 16 --point-ios 4000 --csv | tail -1 >"$work/cell.csv"
measured=$(cut -d, -f5 "$work/cell.csv")
"$IOMODEL" predict --model "$work/qd4.json" --rw randread --bs 64k --qd 16 --json >"$work/cell.json"
ok "64 KiB at QD 16, never measured for the fit: within 10 % ($(json "$work/cell.json" 'round(d["iops"])') vs $measured)" \
	python3 -c "import json; p=json.load(open('$work/cell.json')); exit(not (abs(p['iops']/$measured-1) < 0.10 and p['from_qd'] == 4))"

# --- a fio iodepth grid at 4 KiB -------------------------------------------------------------
grid=$shared/fio-plot/crucial-mx200-ssd
if [ -d "$grid" ]; then
	"$IOMODEL" fit "$grid"/randread-*-1.json -o "$work/grid.json" >/dev/null
	ok "fit of a fio iodepth grid" [ $? -eq 0 ]
	ok "predict 4 KiB at depth 3 from the depth curve alone" \
		"$IOMODEL" predict --model "$work/grid.json" --rw randread --bs 4k --qd 3
	expect_bad "only a queue-depth curve at 4096 bytes" predict --model "$work/grid.json" --rw randread --bs 8k --qd 3
	"$IOMODEL" report "$grid"/*.json -o "$work/grid.html" 2>"$work/err"
	ok "report of the grid exits 0" [ $? -eq 0 ]
	ok "the grid is one drive, named by its device" \
		[ "$(grep -o '<li><b>[^<]*</b>' "$work/grid.html" | tr '\n' ' ')" = '<li><b>/dev/sdb</b> ' ]
	ok "its queue-depth charts are drawn" grep -q 'Read IOPS against IOs outstanding' "$work/grid.html"
	"$IOMODEL" report --drive "both=$grid/randread-1-1.json,$shared/fio-plot/hgst-7k2-hdd/randread-1-1.json" \
		"$grid/randread-1-1.json" "$grid/randread-2-1.json" -o "$work/named.html" 2>"$work/err"
	ok "--drive: the named drive and the rest of the grid" \
		[ "$(grep -o '<li><b>[^<]*</b>' "$work/named.html" | tr '\n' ' ')" = '<li><b>both</b> <li><b>/dev/sdb</b> ' ]
	expect_bad "expected NAME=FILE" report --drive nofiles= -o "$work/x.html"
else
	echo "note: no fio-plot data at $grid; its checks skipped"
fi

# --- physical parameters only -------------------------------------------------------------
printf 'op,size,qd,iops\nrandread,4k,1,1000\nrandread,8k,1,250\n' >"$work/two.csv"
"$IOMODEL" fit "$work/two.csv" -o "$work/two.json" >"$work/two.sheet"
ok "the two-row fit holds the penalty at 0" \
	[ "$(json "$work/two.json" 'd["model"]["read"]["penalty_ms"], d["model"]["read"]["penalty_clamped"]')" = "(0.0, True)" ]
ok "and says why" grep -q "negative access penalty" "$work/two.sheet"
ok "its predictions are positive" \
	python3 -c "import json,subprocess; p=json.loads(subprocess.run(['$IOMODEL','predict','--model','$work/two.json','--rw','randread','--bs','512','--json'],capture_output=True).stdout); exit(not (p['iops'] > 0 and p['mean_lat_ms'] > 0))"
edit() {	# edit OUT PYTHON-STATEMENT: the QD 4 model with one value changed
	python3 -c "import json; d=json.load(open('$work/qd4.json')); m=d['model']['read']; $2; json.dump(d, open('$1','w'))"
}
edit "$work/neg.json" 'm["depths"][0]["penalty_ms"] = -1'
expect_bad "not physical" predict --model "$work/neg.json" --rw randread --bs 4k
edit "$work/zero.json" 'm["depths"][0]["str_mib_s"] = 0'
expect_bad "str_mib_s" predict --model "$work/zero.json" --rw randread --bs 4k
edit "$work/sat.json" 'm["queue_depth"]["sat_iops"] = -5'
expect_bad "saturation" predict --model "$work/sat.json" --rw randread --bs 4k --qd 8
edit "$work/cap.json" 'm["depths"][0]["caps"] = {"iops": -3, "mib_s": None}'
expect_bad "IOPS cap" predict --model "$work/cap.json" --rw randread --bs 4k

# --- iomodel.model/1 still read; source never cut -------------------------------------------
python3 -c "import json; d=json.load(open('$work/two.json')); d['schema']='iomodel.model/1'; del d['model']['read']['depths']; json.dump(d, open('$work/v1.json','w'))"
ok "an iomodel.model/1 file predicts" "$IOMODEL" predict --model "$work/v1.json" --rw randread --bs 4k
long=$work/$(printf 'd%.0s' $(seq 200))
mkdir -p "$long" && cp "$work/two.csv" "$long/a.csv" && cp "$work/two.csv" "$long/b.csv" &&
	cp "$work/two.csv" "$long/c.csv"
"$IOMODEL" fit "$long/a.csv" "$long/b.csv" "$long/c.csv" --json >"$work/long.json"
ok "source keeps every file name ($(json "$work/long.json" 'len(d["source"])') bytes)" \
	[ "$(json "$work/long.json" 'd["source"]')" = "$long/a.csv $long/b.csv $long/c.csv" ]

# --- caps and caches on the spec sheet --------------------------------------------------------
python3 >"$work/caps.csv" <<'PY'
print("op,size,qd,iops")
for i in range(14):
    s = 512 << i
    print(f"randread,{s},1,{1 / max(200e-6 + s / 200e6, 1 / 3000, s / 125e6)}")
    print(f"randwrite,{s},1,{1 / (20e-6 + s / 2e9)}")
PY
"$IOMODEL" fit "$work/caps.csv" >"$work/caps.sheet"
ok "caps named on the spec sheet" grep -q "capped: throughput = min(penalty + size/STR, 3000 IOPS, 119.2 MiB/s)" "$work/caps.sheet"
ok "a write cache named on the spec sheet" grep -q "^write cache: writes stream at" "$work/caps.sheet"
finish
