#!/usr/bin/env bash
# fio_cdf.sh — fio json+ latency histograms through import, fit, the model
# JSON, predict and report: each point keeps iodepth, numjobs, the
# percentiles from the bins (equal to the list fio printed) and the latency
# CDF (rising, ending at 1); the depth models keep iodepth and numjobs;
# predict says which split its depth was fitted on; report draws the CDF of
# every json+ point, from the fio files and from the model file alike; a
# model file whose CDF or split is broken is refused with one line. The
# files of tests/e2e/data/fio/jsonplus are real fio 3.33 runs; with fio
# installed, the same is checked on json+ files measured here and now (null
# engine, several sizes and depths, clones without group_reporting).
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT
corpus=$(cd "$(dirname "$0")/data/fio" && pwd)

# check_model MODEL FIO_FILE...: every point of the model has the split and
# the percentiles of the fio file it came from (matched by size and qd),
# and a sound CDF; prints what failed, exits 1 then
check_model() {
	python3 - "$@" <<'PY'
import json, sys
model = json.load(open(sys.argv[1]))["model"]
keys = {"p50": "50.000000", "p90": "90.000000", "p95": "95.000000", "p99": "99.000000",
        "p999": "99.900000"}
fio = {}
for name in sys.argv[2:]:
    text = open(name).read()
    d = json.loads(text[text.index("{"):])
    for op in ("read", "write"):
        entries = [j[op] for j in d["jobs"] if j[op]["iops"] > 0]
        if not entries:
            continue
        bs = int(entries[0]["io_bytes"] // entries[0]["total_ios"])
        opts = {**d.get("global options", {}), **d["jobs"][0].get("job options", {})}
        qd = int(opts.get("iodepth", 1)) * len(entries)
        fio[(op, bs, qd)] = entries
bad = []
for op in ("read", "write"):
    for p in (model[op] or {}).get("points", []):
        where = "%s %d B qd %d" % (op, p["size_bytes"], p["qd"])
        entries = fio.get((op, p["size_bytes"], p["qd"]))
        if entries is None:
            bad.append(where + ": no fio file")
            continue
        if p["iodepth"] * p["numjobs"] != p["qd"] or p["numjobs"] != len(entries):
            bad.append(where + ": iodepth %s numjobs %s" % (p["iodepth"], p["numjobs"]))
        kind = p["latency_kind"]
        obj = "lat_ns" if kind == "total" else "clat_ns"
        for k, level in keys.items():
            printed = [e[obj]["percentile"][level] / 1e6 for e in entries]
            if not min(printed) - 1e-9 <= p["lat_pct_ms"][k] <= max(printed) + 1e-9:
                bad.append(where + ": %s %g ms, fio printed %s" % (k, p["lat_pct_ms"][k], printed))
        cdf = p["lat_cdf"]
        lat, frac = cdf["lat_ms"], cdf["frac"]
        if (len(lat) != len(frac) or len(lat) < 2 or frac[-1] != 1 or
                any(b <= a for a, b in zip(lat, lat[1:])) or
                any(b <= a for a, b in zip(frac, frac[1:]))):
            bad.append(where + ": CDF %s %s" % (lat, frac))
        top = max(e[obj]["max"] for e in entries) / 1e6
        if abs(lat[-1] - top) > top / 64:
            bad.append(where + ": CDF ends at %g ms, fio's max %g ms" % (lat[-1], top))
    for d in (model[op] or {}).get("depths", []):
        if d["iodepth"] is None or d["iodepth"] * d["numjobs"] != d["qd"]:
            bad.append("%s depth %d: iodepth %s numjobs %s" % (op, d["qd"], d["iodepth"],
                                                               d["numjobs"]))
print("\n".join(bad) if bad else "all points and depths as fio recorded them")
sys.exit(1 if bad else 0)
PY
}

# svg_text HTML: the text of the report's charts, one line per chart
svg_text() {
	python3 - "$1" <<'PY'
import re, sys, xml.etree.ElementTree as ET
html = open(sys.argv[1], encoding="utf-8").read()
for s in re.findall(r"<svg.*?</svg>", html, re.S):
    root = ET.fromstring(s)
    print(" | ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")))
PY
}

# cdf_chart TEXT: the line of the latency distribution chart
cdf_chart() { grep "| Latency distribution |" "$1"; }
# curves TEXT: the chart's legends, sorted, one a line
curves() { cdf_chart "$1" | grep -o '[a-z]* [0-9]* KiB QD[0-9]* ([a-z]*)' | sort; }
# has_curve TEXT LABEL: the chart has a curve of that legend
has_curve() { cdf_chart "$1" | grep -qF "| $2"; }

# --- the corpus: fit, model JSON, predict ------------------------------------------
grid=("$corpus"/jsonplus/randread-*.json)
"$IOMODEL" fit "${grid[@]}" -o "$work/model.json" >/dev/null 2>"$work/fit.err"
ok "fit of the json+ grid exits 0" [ $? -eq 0 ]
ok "and says nothing on stderr" [ ! -s "$work/fit.err" ]
check_model "$work/model.json" "${grid[@]}" >"$work/check" 2>&1
ok "model points and depths keep iodepth, numjobs, fio's percentiles, a CDF ($(tail -1 "$work/check"))" \
	[ $? -eq 0 ]
ok "4 points, 2 depth models (qd 1 and 8)" [ "$(json "$work/model.json" '(len(d["model"]["read"]["points"]),
	[x["qd"] for x in d["model"]["read"]["depths"]])')" = "(4, [1, 8])" ]
"$IOMODEL" predict --model "$work/model.json" --rw randread --bs 16k --qd 8 --json >"$work/p.json"
ok "predict reads the depth's split back" [ "$(json "$work/p.json" '(d["from_qd"], d["from_iodepth"],
	d["from_numjobs"])')" = "(8, 8, 1)" ]

# --- report: from the fio files and from the model ---------------------------------
"$IOMODEL" report -o "$work/fio.html" "${grid[@]}" 2>"$work/r.err"
ok "report of the json+ grid exits 0" [ $? -eq 0 ]
ok "and says nothing on stderr" [ ! -s "$work/r.err" ]
svg_text "$work/fio.html" >"$work/fio.txt"
ok "it draws the latency distribution" grep -q "| Latency distribution |" "$work/fio.txt"
for label in "randread 4 KiB QD1 (clat)" "randread 64 KiB QD8 (clat)"; do
	ok "with a curve '$label'" has_curve "$work/fio.txt" "$label"
done
"$IOMODEL" report -o "$work/model.html" "$work/model.json" 2>"$work/rm.err"
ok "report of the model file exits 0" [ $? -eq 0 ]
ok "and says nothing on stderr" [ ! -s "$work/rm.err" ]
svg_text "$work/model.html" >"$work/model.txt"
ok "it draws the same curves" [ "$(curves "$work/model.txt")" = "$(curves "$work/fio.txt")" ]
ok "four of them" [ "$(curves "$work/fio.txt" | wc -l)" = 4 ]
"$IOMODEL" report -o "$work/kinds.html" "$corpus/jsonplus-numjobs2-randread-8k-qd2.json" \
	"$corpus/jsonplus-total-randwrite-16k-qd4.json" \
	"$corpus/handmade/fio-2.15-jsonplus-randread-4k-qd8.json" 2>"$work/rk.err"
ok "report of clones, total latency and fio 2 json+ exits 0" [ $? -eq 0 ]
svg_text "$work/kinds.html" >"$work/kinds.txt"
ok "clones: one curve of the merged bins, split named" \
	has_curve "$work/kinds.txt" "randread 8 KiB QD4 (2 jobs x 2, clat)"
ok "lat_percentiles alone: total latency" \
	has_curve "$work/kinds.txt" "randwrite 16 KiB QD4 (lat)"
ok "fio 2's indexed bins" has_curve "$work/kinds.txt" "randread 4 KiB QD8 (clat)"

# --- a model file with a broken CDF or split: one line, exit 2 ---------------------
python3 - "$work/model.json" "$work" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
p = m["model"]["read"]["points"][0]
p["lat_cdf"]["frac"][1] = p["lat_cdf"]["frac"][0]
json.dump(m, open(sys.argv[2] + "/flat.json", "w"))
m = json.load(open(sys.argv[1]))
m["model"]["read"]["points"][1]["numjobs"] = 3
json.dump(m, open(sys.argv[2] + "/split.json", "w"))
m = json.load(open(sys.argv[1]))
m["model"]["read"]["depths"][0]["iodepth"] = 0.5
json.dump(m, open(sys.argv[2] + "/depth.json", "w"))
PY
status=$(run_status "$IOMODEL" report -o "$work/bad.html" "$work/flat.json")
ok "a CDF that does not rise: exit 2" [ "$status" = 2 ]
ok "one line" [ "$(wc -l <"$work/err")" = 1 ]
ok "naming the key" grep -q "model.read.points\[0\].lat_cdf" "$work/err"
ok "and no report written" [ ! -e "$work/bad.html" ]
status=$(run_status "$IOMODEL" report -o "$work/bad.html" "$work/split.json")
ok "iodepth x numjobs other than qd: exit 2" [ "$status" = 2 ]
ok "naming the point" grep -q "points\[1\]: iodepth .* x numjobs 3 is not qd" "$work/err"
status=$(run_status "$IOMODEL" predict --model "$work/depth.json" --rw randread --bs 4k)
ok "a fractional depth iodepth: predict exits 2" [ "$status" = 2 ]
ok "naming it" grep -q "depths\[0\].iodepth" "$work/err"

# --- json+ measured now ---------------------------------------------------------------
if command -v fio >/dev/null; then
	live=()
	for bs in 4k 32k 256k; do
		for qd in 1 4 16; do
			f="$work/live-$bs-qd$qd.json"
			fio --name="live-$bs" --ioengine=null --size=64m --rw=randread --bs="$bs" \
				--iodepth="$qd" --output-format=json+ >"$f" 2>&1 && live+=("$f")
		done
	done
	fio --name=live-clones --ioengine=null --size=32m --rw=randread --bs=4k --iodepth=2 \
		--numjobs=3 --output-format=json+ >"$work/live-clones.json" 2>&1 &&
		live+=("$work/live-clones.json")
	ok "fio wrote 10 json+ files" [ "${#live[@]}" = 10 ]
	"$IOMODEL" fit "${live[@]}" -o "$work/live.json" >/dev/null 2>"$work/live.err"
	ok "fit of them exits 0" [ $? -eq 0 ]
	check_model "$work/live.json" "${live[@]}" >"$work/check" 2>&1
	ok "each point as fio recorded it, clones too ($(tail -1 "$work/check"))" [ $? -eq 0 ]
	ok "10 points" [ "$(json "$work/live.json" 'len(d["model"]["read"]["points"])')" = 10 ]
else
	echo "note: fio is not installed (scripts/install-deps.sh): json+ files measured now not checked"
fi
finish
