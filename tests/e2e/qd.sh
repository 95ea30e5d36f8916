#!/usr/bin/env bash
# qd.sh — `iomodel qd` (IOMeter's outstanding-IOs sweep): the seed's HDD shapes on the
# simulated WD6400AAKS (reads gain from reordering, cached writes do not), the JSON read
# back by fit and report, a real file, and the refusals.
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

"$IOMODEL" qd --target sim:wd6400aaks --qd 1:32 --json >"$work/r.json" 2>"$work/err"
ok "qd of sim:wd6400aaks reads: status 0, nothing on stderr" bash -c "[ $? -eq 0 ] && [ ! -s '$work/err' ]"
"$IOMODEL" qd --target sim:wd6400aaks --rw randwrite --qd 1:32 --json >"$work/w.json"
ok "the seed's shapes: reads gain >= 1.3x from QD1 to QD32, cached writes < 1.1x" python3 - "$work/r.json" "$work/w.json" <<'PY'
import json, sys
def iops(path):
    d = json.load(open(path))
    assert d["schema"] == "iomodel.sweep/1" and d["command"] == "qd"
    return {r["job"]["qd"]: r["results"][0]["iops"] for r in d["runs"]}, d["qd_model"]
r, rm = iops(sys.argv[1]); w, wm = iops(sys.argv[2])
assert sorted(r) == [1, 2, 4, 8, 16, 32], sorted(r)
print("read gain", r[32] / r[1], "write gain", w[32] / w[1])
assert r[32] / r[1] >= 1.3 and w[32] / w[1] < 1.1
assert abs(rm["gain32"] - r[32] / r[1]) / (r[32] / r[1]) < 0.15, rm   # the model follows the data
assert rm["t1_ms"] > 5 and rm["sat_iops"] > r[1]
PY
ok "latency percentiles per depth are ordered (p50 <= p99 <= p99.9 <= max)" python3 - "$work/r.json" <<'PY'
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    l = run["results"][0]["lat_us"]
    assert l["min"] <= l["p50"] <= l["p99"] <= l["p999"] <= l["max"], l
PY
"$IOMODEL" fit "$work/r.json" --json >"$work/model.json" 2>"$work/err"
ok "fit reads qd's JSON: a queue-depth model comes back" python3 -c "
import json; d = json.load(open('$work/model.json')); assert d['model']['read']['queue_depth']['gain_qd32'] > 1.3, d['model']['read']"
"$IOMODEL" report "$work/r.json" -o "$work/r.html" --png-dir "$work/charts" 2>"$work/err"
ok "report of qd's JSON: IOPS, mean and p99 latency against depth, each a chart" \
	bash -c "ls '$work/charts' | tr '\n' ' ' | grep -q 'qd-iops-read.png .*qd-latency-read.png .*qd-p99-read.png'"
ok "the p99 chart has its axis, the model's dashed key and one legend entry per drive" python3 - "$work/r.html" <<'PY'
import re, sys, xml.etree.ElementTree as ET
html = open(sys.argv[1], encoding="utf-8").read()
svgs = [" | ".join("".join(t.itertext()) for t in ET.fromstring(s).iter("{http://www.w3.org/2000/svg}text"))
        for s in re.findall(r"<svg.*?</svg>", html, re.S)]
p99 = [t for t in svgs if "p99 latency (ms, log scale)" in t]
assert len(p99) == 1, svgs
assert "model: mean response time q / IOPS(q)" in p99[0] and "4 KiB" in p99[0], p99[0]
PY
python3 - "$work/r.json" >"$work/nop99.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for run in d["runs"]:
    for res in run["results"]:
        for k in ("p50", "p90", "p95", "p99", "p999"):
            res["lat_us"].pop(k, None)
print(json.dumps(d))
PY
"$IOMODEL" report "$work/nop99.json" -o "$work/n.html" --png-dir "$work/ncharts" 2>"$work/err"
ok "without percentiles in the runs: no p99 chart, the other two still drawn" \
	bash -c "[ -e '$work/ncharts/02-qd-latency-read.png' ] && ! ls '$work/ncharts' | grep -q p99"

"$IOMODEL" qd --target sim:wd6400aaks --qd 1:8 >"$work/table"
ok "the table has a row per depth and the model line" \
	bash -c "[ \$(grep -cE '^ +[0-9]+ ' '$work/table') -eq 4 ] && grep -q '^model: R(q)' '$work/table'"

st=$(run_status "$IOMODEL" qd --target "$work/f.bin" --size 16m --qd 1:4 --point-time 200ms)
ok "qd on a new file: status 0 and three depths" bash -c "[ $st -eq 0 ] && [ \$(grep -cE '^ +[0-9]+ ' '$work/out') -eq 3 ]"
ok "the scratch file is removed" [ ! -e "$work/f.bin" ]

refuse() {	# refuse WHAT WANT ARGS...
	local what=$1 want=$2; shift 2
	st=$(run_status "$IOMODEL" "$@")
	ok "$what: status 2, one line naming it" \
		bash -c "[ $st -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q -- '$want' '$work/err'"
}
refuse "no target" "missing --target" qd
refuse "--qd 0" "--qd" qd --target null --qd 0
refuse "--qd 8:4" "--qd" qd --target null --qd 8:4
refuse "--qd above 1024" "--qd" qd --target null --qd 1:2048
refuse "--rw rw is two directions" "--rw" qd --target null --rw rw
echo precious >"$work/precious"
refuse "writes to an existing file need --destroy-data" "destroy-data" qd --target "$work/precious" --rw randwrite
ok "the file is untouched" [ "$(cat "$work/precious")" = precious ]
finish
