#!/usr/bin/env bash
# profile.sh — `iomodel profile` (HD Tune): on the simulated WD6400AAKS the rate falls from
# the outer to the inner edge in the concave shape of zoned recording (rate linear in
# radius, against the share of the data), on an SSD preset it is flat; a real file; refusals.
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

"$IOMODEL" profile --target sim:wd6400aaks --points 50 --json >"$work/wd.json" 2>"$work/err"
ok "profile of sim:wd6400aaks: status 0, silent stderr" bash -c "[ $? -eq 0 ] && [ ! -s '$work/err' ]"
ok "HDD: falling, outer/inner about 1.6, concave (the middle above the straight line)" \
	python3 - "$work/wd.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); p = d["profile"]
assert d["schema"] == "iomodel.profile/1" and len(p["points"]) == 50
pos = [q["position_pct"] for q in p["points"]]; rate = [q["mib_s"] for q in p["points"]]
assert pos == sorted(pos) and pos[0] == 0 and 95 <= pos[-1] < 100, pos
assert all(a >= b * 0.98 for a, b in zip(rate, rate[1:])), rate       # never rises
assert p["verdict"] == "falling" and 1.4 < p["outer_inner_ratio"] < 2.0, p["outer_inner_ratio"]
# rate ~ r and data share ~ (Ro^2 - r^2): the middle lies ~3 % above the line between the ends
assert 0.01 < p["mid_excess"] < 0.08, p["mid_excess"]
assert 10 < p["access_ms"] < 20, p["access_ms"]                       # seek + half a turn
assert p["burst_mib_s"] > rate[0], (p["burst_mib_s"], rate[0])          # served from the cache
print("outer/inner", p["outer_inner_ratio"], "mid excess", p["mid_excess"], "access", p["access_ms"])
PY
"$IOMODEL" profile --target sim:intel-x25m-g2 --points 20 --json >"$work/ssd.json"
ok "SSD: flat, access well under a millisecond" python3 -c "
import json; p = json.load(open('$work/ssd.json'))['profile']
assert p['verdict'] == 'flat' and p['outer_inner_ratio'] < 1.05 and p['access_ms'] < 1, p"
"$IOMODEL" profile --target sim:wd6400aaks --points 10 >"$work/table"
ok "the table: ten positions, the access line and the verdict" bash -c \
	"[ \$(grep -cE '^ +[0-9.]+% ' '$work/table') -eq 10 ] && grep -q '^access time' '$work/table' && grep -q '^verdict: falling' '$work/table'"

st=$(run_status "$IOMODEL" profile --target "$work/f.bin" --size 32m --points 8 --point-time 100ms --json)
ok "profile of a new file: status 0, eight positive points" bash -c "[ $st -eq 0 ] && python3 -c \"
import json; p = json.load(open('$work/out'))['profile']; assert len(p['points']) == 8 and min(q['mib_s'] for q in p['points']) > 0\""
ok "the scratch file is removed" [ ! -e "$work/f.bin" ]

"$IOMODEL" report "$work/wd.json" "$work/ssd.json" -o "$work/p.html" --png-dir "$work/png" 2>"$work/err"
ok "report of two profiles: the profile chart, both drives in the page" bash -c \
	"[ -s '$work/png/01-profile.png' ] && grep -q 'Sequential transfer rate at evenly spaced' '$work/p.html' && grep -q 'ssd' '$work/p.html'"
# a profile and a sweep of one target are one drive; a second profile of it is a drive of its own
"$IOMODEL" sweep --target sim:wd6400aaks --bs 4k:64k --point-ios 300 --json >"$work/sweep.json"
cp "$work/wd.json" "$work/wd2.json"
"$IOMODEL" report "$work/wd.json" "$work/wd2.json" "$work/sweep.json" -o "$work/m.html" 2>"$work/err"
ok "report: the sweep joins the first profile of its target, the second profile stays apart" bash -c \
	"[ \$(grep -c '^<li>' '$work/m.html') -eq 2 ] && grep -q '<li><b>wd</b> from .*wd.json (iomodel.profile/1) and 1 more file</li>' '$work/m.html' && grep -q '<li><b>wd2</b> from .*wd2.json (iomodel.profile/1)</li>' '$work/m.html'"
st=$(run_status "$IOMODEL" report --drive "x=$work/wd.json,$work/wd2.json" -o "$work/x.html")
ok "report --drive with two profiles in one drive: status 2, one line, no page" bash -c \
	"[ $st -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q 'one profile' '$work/err' && [ ! -e '$work/x.html' ]"
python3 -c "
import json; d = json.load(open('$work/wd.json')); d['profile']['points'][3]['position_pct'] = 150
json.dump(d, open('$work/bad.json', 'w'))"
st=$(run_status "$IOMODEL" report "$work/bad.json" -o "$work/bad.html")
ok "report of a profile with a position of 150 %: status 2, one line, no page" bash -c \
	"[ $st -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q 'points\[3\]' '$work/err' && [ ! -e '$work/bad.html' ]"

refuse() {	# refuse WHAT WANT ARGS...
	local what=$1 want=$2; shift 2
	st=$(run_status "$IOMODEL" "$@")
	ok "$what: status 2, one line naming it" \
		bash -c "[ $st -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q -- '$want' '$work/err'"
}
echo precious >"$work/precious"
refuse "--write on an existing file needs --destroy-data" "destroy-data" profile --target "$work/precious" --write
ok "the file is untouched" [ "$(cat "$work/precious")" = precious ]
refuse "--destroy-data without --write" "goes with --write" profile --target sim:wd6400aaks --destroy-data
refuse "null target" "null target" profile --target null
refuse "--points 1" "--points" profile --target sim:wd6400aaks --points 1
refuse "--bs not a multiple of 512" "--bs" profile --target sim:wd6400aaks --bs 1000
refuse "more points than the target holds" "fewer than" profile --target "$work/precious" --points 2 --bs 4k
finish
