#!/usr/bin/env bash
# models.sh — sweep, fit, predict and characterize through the command line:
# the seeds' reference figures to the digits they give; characterize recovers
# each simulated preset's own figures (STR within 2 %, access penalty within
# 5 %, erase block within x1.25 of the merge unit `sim show` reports); fio's
# real queue-depth grids fit; predictions agree with measurement; bad input
# gets one line and status 2.
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT
shared=${SHARED_DATA:-$(dirname "$0")/../../../shared/data}

# --- the seeds' reference values, through `fit` on CSV tables -------------------
# RiDATA two-point (0.5 KiB and 700 MiB), read and write
cat >"$work/ridata.csv" <<'CSV'
op,size,qd,iops
randread,512,1,2170.88
randread,700MiB,1,0.174214
randwrite,512,1,4.04
randwrite,700MiB,1,0.097486
CSV
"$IOMODEL" fit "$work/ridata.csv" --json >"$work/ridata.json"
ok "fit of the RiDATA table exits 0" [ $? -eq 0 ]
ok "RiDATA read STR 124886.53 KiB/s" [ "$(json "$work/ridata.json" 'round(d["model"]["read"]["two_point"]["str_kib_s"], 2)')" = 124886.53 ]
ok "RiDATA read STR 121.96 MiB/s" [ "$(json "$work/ridata.json" 'round(d["model"]["read"]["str_mib_s"], 2)')" = 121.96 ]
ok "RiDATA read penalty 0.457 ms" [ "$(json "$work/ridata.json" 'round(d["model"]["read"]["penalty_ms"], 3)')" = 0.457 ]
ok "RiDATA write STR 71605.78 KiB/s" [ "$(json "$work/ridata.json" 'round(d["model"]["write"]["two_point"]["str_kib_s"], 2)')" = 71605.78 ]
ok "RiDATA write STR 69.93 MiB/s" [ "$(json "$work/ridata.json" 'round(d["model"]["write"]["str_mib_s"], 2)')" = 69.93 ]
ok "RiDATA write penalty 247.5 ms" [ "$(json "$work/ridata.json" 'round(d["model"]["write"]["penalty_ms"], 1)')" = 247.5 ]

# penalty = 1/IOPS(0.5 KiB) - 0.5 KiB / STR: a second point placed so that the
# two-point STR is the seeds' figure (size s2 = STR x 1 s)
penalty_of() {	# penalty_of IOPS STR_KIB_S OP -> ms from fit
	local iops=$1 str=$2 op=$3
	python3 - "$iops" "$str" "$op" >"$work/p.csv" <<'PY'
import sys
iops, str_kib, op = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
t1 = 1 / iops
s2 = str_kib * 1024                   # one second of transfer
t2 = t1 + (s2 - 512) / (str_kib * 1024)
print("op,size,qd,iops")
print(f"{op},512,1,{iops!r}")
print(f"{op},{int(s2)},1,{1 / t2!r}")
PY
	"$IOMODEL" fit "$work/p.csv" --json >"$work/p.json" &&
		json "$work/p.json" "d['model']['$op']['two_point']['penalty_ms']"
}
ok "OCZ Core read penalty 0.447 ms" [ "$(printf %.3f "$(penalty_of 2220 128000 read)")" = 0.447 ]
ok "WD6400AAKS read penalty 12.85 ms" [ "$(printf %.2f "$(penalty_of 77.77 87040 read)")" = 12.85 ]
ok "OCZ Core write penalty 245.7 ms" [ "$(printf %.1f "$(penalty_of 4.07 74514 write)")" = 245.7 ]
ok "WD6400AAKS write penalty, cache on, 6.99 ms" [ "$(printf %.2f "$(penalty_of 143 87040 write)")" = 6.99 ]
ok "WD6400AAKS write penalty, cache off, 17.06 ms" [ "$(printf %.2f "$(penalty_of 58.6 87040 write)")" = 17.06 ]

# OCZ Core cluster bound: penalty 245.7 ms, W 72.768 MiB/s, R 125 MiB/s -> 11.3 MiB
python3 >"$work/ocz.csv" <<'PY'
MiB = 2**20
print("op,size,qd,iops")
for op, pen, rate in (("read", 0.447e-3, 125 * MiB), ("write", 245.7e-3, 72.768 * MiB)):
    for size in (512, 512 * MiB):
        print(f"{op},{size},1,{1 / (pen + size / rate)!r}")
PY
"$IOMODEL" fit "$work/ocz.csv" --json >"$work/ocz.json"
ok "OCZ Core cluster size 11.3 MiB" [ "$(json "$work/ocz.json" 'round(d["model"]["write"]["erase_block_mib"], 1)')" = 11.3 ]

# --- characterize recovers each preset's own figures ----------------------------
truth() {	# truth PRESET KEY: a derived figure of `sim show`
	"$IOMODEL" sim show "$1" | awk -v k="$2" '$1 == k { print $2 }'
}
near() { python3 -c "import sys; g, w, tol = map(float, sys.argv[1:]); sys.exit(abs(g - w) > tol * w)" "$@"; }
for preset in ocz-core ridata-s25 wd6400aaks intel-x25m-g2 supertalent-gx; do
	start=$(date +%s%N)
	"$IOMODEL" characterize --target "sim:$preset" --json >"$work/$preset.json"
	status=$?
	wall=$(( ($(date +%s%N) - start) / 1000000 ))
	ok "characterize sim:$preset exits 0 ($wall ms of wall time)" [ "$status" -eq 0 ]
	str_key=read_str
	[ "$preset" = wd6400aaks ] && str_key=avg_rate
	got=$(json "$work/$preset.json" 'd["model"]["read"]["str_mib_s"]'); want=$(truth "$preset" "$str_key")
	ok "$preset read STR $got MiB/s within 2 % of $want" near "$got" "$want" 0.02
	got=$(json "$work/$preset.json" 'd["model"]["read"]["penalty_ms"]'); want=$(truth "$preset" read_penalty)
	ok "$preset read penalty $got ms within 5 % of $want" near "$got" "$want" 0.05
done
# Block-FTL writes: the first-order model fails between the smallest writes
# and the merge unit (a write inside one unit costs the same whatever its
# size: the seeds' "1 MiB region") and, with the JMF602's whole-unit merges,
# from 4 MiB on, where ragged ends pay two merges (the seeds' 0-1-2 steps), so
# the robust fit leans: the OCZ Core's lands 3.3 % low, the RiDATA's within
# 2.5 %; both checked at 4 %. The erase-block fit, made for those steps, finds
# the unit: the merge unit lies in its interval. The RiDATA's fit moves with
# the seed's offsets: 2.4-5.5 % low over --seed 1-6 with its time spread,
# 2.3-5.0 % without (the OCZ Core's 1.8-3.4 %, 2.3-7.5 %): it is checked at 6 %.
for preset in ocz-core ridata-s25; do
	tolerance=0.04
	[ "$preset" = ridata-s25 ] && tolerance=0.06
	got=$(json "$work/$preset.json" 'd["model"]["write"]["str_mib_s"]'); want=$(truth "$preset" write_str)
	ok "$preset write STR $got MiB/s within $tolerance of $want" near "$got" "$want" "$tolerance"
	got=$(json "$work/$preset.json" 'd["model"]["write"]["penalty_ms"]'); want=$(truth "$preset" write_penalty)
	ok "$preset write penalty $got ms within 5 % of $want" near "$got" "$want" 0.05
	got=$(json "$work/$preset.json" 'd["model"]["write"]["erase_block_mib"]')
	want=$("$IOMODEL" sim show "$preset" | awk '$1 == "merge_unit" { print $2 }')
	ok "$preset erase block $got MiB within x1.25 of the merge unit $want MiB" \
		python3 -c "import sys; sys.exit(not 0.8 <= $got / $want <= 1.25)"
	ok "$preset erase block fitted on the steps, the merge unit in its interval" python3 -c "
import json; w = json.load(open('$work/$preset.json'))['model']['write']; lo, hi = w['erase_block']['unit_ci_mib']
assert w['erase_block_method'] == 'fit' and w['erase_block']['whole_merge'] and lo <= $want <= hi, w"
done
# The estimate follows the device: variants with another erase block or channel count
for variant in erase_block_kib=1440 channels=8,capacity=62484480k channels=2,capacity=62490240k \
	erase_block_kib=768,capacity=62496768k; do
	"$IOMODEL" characterize --target "sim:ocz-core,$variant" --json >"$work/variant.json"
	got=$(json "$work/variant.json" 'd["model"]["write"]["erase_block_mib"]')
	want=$("$IOMODEL" sim show "ocz-core,$variant" | awk '$1 == "merge_unit" { print $2 }')
	ok "ocz-core,$variant: erase block $got MiB within x1.25 of the merge unit $want MiB" \
		python3 -c "import sys; sys.exit(not 0.8 <= $got / $want <= 1.25)"
done
st=$("$IOMODEL" sim show ocz-core,channels=8 2>&1 >/dev/null)
ok "a preset variant whose capacity no longer fits names the capacity to use" \
	grep -q "use capacity=62484480k" <<<"$st"
ok "no erase block on the hard disk" [ "$(json "$work/wd6400aaks.json" 'd["model"]["write"]["erase_block_mib"]')" = None ]
ok "the hard disk gains from queue depth" [ "$(json "$work/wd6400aaks.json" 'd["model"]["read"]["queue_depth"]["gain_qd32"] > 1.2')" = True ]
ok "the JMF602 barely does" [ "$(json "$work/ocz-core.json" 'd["model"]["read"]["queue_depth"]["gain_qd32"] < 1.2')" = True ]

# --- predict agrees with a measurement it was not fitted on --------------------
"$IOMODEL" characterize --target sim:wd6400aaks -o "$work/wd-model.json" >"$work/sheet.txt"
ok "characterize -o writes a model" [ "$(json "$work/wd-model.json" 'd["schema"]')" = iomodel.model/2 ]
ok "the spec sheet names STR and penalty" grep -q "average STR, MiB/s" "$work/sheet.txt"
"$IOMODEL" predict --model "$work/wd-model.json" --rw randread --bs 48k --qd 8 --json >"$work/pred.json"
"$IOMODEL" run --target sim:wd6400aaks --rw randread --bs 48k --qd 8 --ios 3000 --json >"$work/meas.json"
pred=$(json "$work/pred.json" 'd["iops"]'); meas=$(json "$work/meas.json" 'd["results"][0]["iops"]')
ok "predicted $pred IOPS for 48 KiB at QD8 within 15 % of measured $meas" near "$pred" "$meas" 0.15

# --- real fio output: the QD grids of a 7200 rpm disk --------------------------
if [ -d "$shared/fio-plot/hgst-7k2-hdd" ]; then
	"$IOMODEL" fit "$shared"/fio-plot/hgst-7k2-hdd/randread-*-1.json --json >"$work/hgst.json"
	ok "fio 3.1 files fit (exit $?)" [ -s "$work/hgst.json" ]
	gain=$(json "$work/hgst.json" 'd["model"]["read"]["queue_depth"]["gain_qd32"]')
	ok "HGST QD32/QD1 gain $gain in 1.2-1.6 (measured 82/58.6)" near "$gain" 1.4 0.15
	"$IOMODEL" fit "$shared"/fio-plot/crucial-mx200-ssd/*.json --json >"$work/mx200.json"
	ok "a whole fio grid (read and write, 49 depth x job cells each) fits" \
		[ "$(json "$work/mx200.json" 'd["model"]["write"]["queue_depth"] is not None')" = True ]
	ok "the SSD's reads gain from queue depth (real data: 7.9k -> 50k IOPS)" \
		[ "$(json "$work/mx200.json" 'd["model"]["read"]["queue_depth"]["gain_qd32"] > 3')" = True ]
else
	echo "note: $shared/fio-plot not found: fio data checks not run"
fi

# --- bad input -------------------------------------------------------------------
expect_bad() {	# expect_bad PATTERN ARGS...
	local pattern=$1; shift
	local status
	status=$(run_status "$IOMODEL" "$@")
	ok "exit 2 for: ${*:1:3}" [ "$status" -eq 2 ]
	ok "one line ($pattern): $(head -c 160 "$work/err")" one_line_matching "$pattern"
}
one_line_matching() { [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q -- "$1" "$work/err"; }
printf '{"schema": "iomodel.run/1", "results": [' >"$work/broken.json"
printf '{"hello": "world"}\n' >"$work/foreign.json"
printf 'op,size,iops\nread,4k,100\n' >"$work/nocol.csv"
printf 'op,size,qd,iops\nread,4k,1,100\nread,4k,1,110\n' >"$work/onesize.csv"
printf 'op,size,qd,iops\nread,4k,1,100\nread,8k,1,0\n' >"$work/zero.csv"
printf 'op,size,qd,iops\nread,4k,1,-5\n' >"$work/neg.csv"
expect_bad "broken.json:1" fit "$work/broken.json"
expect_bad "foreign.json" fit "$work/foreign.json"
expect_bad "missing column 'qd'" fit "$work/nocol.csv"
expect_bad "nothing to fit" fit "$work/onesize.csv"
expect_bad "zero.csv:3" fit "$work/zero.csv"
expect_bad "neg.csv:2" fit "$work/neg.csv"
expect_bad "no measurement file" fit
expect_bad "missing.json" fit "$work/missing.json"
expect_bad "not an iomodel model" predict --model "$work/foreign.json" --rw randread --bs 4k
expect_bad "needs --model" predict --rw randread --bs 4k
expect_bad "no queue-depth curve to go to depth 4" predict --model "$work/ridata.json" --rw randwrite --bs 4k --qd 4
expect_bad "--bs '4q'" sweep --target null --bs 4q
expect_bad "expected A:B" sweep --target null --bs 8k:4k
expect_bad "missing --target" sweep
ok "no model file was written by a failed fit" [ ! -e "$work/never.json" ] 
"$IOMODEL" fit "$work/onesize.csv" -o "$work/never.json" 2>/dev/null
ok "fit -o writes nothing on bad input" [ ! -e "$work/never.json" ]
finish
