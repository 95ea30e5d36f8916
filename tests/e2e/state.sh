#!/usr/bin/env bash
# state.sh — `iomodel state` (fresh / used / after TRIM, each to SNIA PTS steady state)
# and `run --steady-state`: the table and JSON on a small simulated SuperTalent (the
# seed's figures on the whole drive: state_seed.sh), the discards on a real file
# and a loop device, an array of SSDs, and the refusals.
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
loopdev=
cleanup() { [ -n "$loopdev" ] && losetup -d "$loopdev" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# the table and stderr: the seed's drive at a fifteenth of its capacity (the same
# shape, 0.545 used/clean against 0.548; a tenth of the CPU time; the whole
# drive against the seed's figures: state_seed.sh)
"$IOMODEL" state --target sim:supertalent-gx,capacity=4000m --destroy-data --json >"$work/gx.json" 2>"$work/err"
st=$?
ok "state --json on sim:supertalent-gx (4000m) runs, silent on stderr" bash -c "[ $st -eq 0 ] && [ ! -s '$work/err' ]"
"$IOMODEL" state --target sim:supertalent-gx,capacity=4000m --destroy-data >"$work/out" 2>"$work/err"
ok "the table names the three states and the rule" \
	bash -c "grep -q '^fresh' '$work/out' && grep -q '^used' '$work/out' && grep -q '^trimmed' '$work/out' && grep -q 'SNIA PTS' '$work/out'"
ok "silent on stderr when not a terminal" [ ! -s "$work/err" ]

"$IOMODEL" report "$work/gx.json" -o "$work/s.html" --png-dir "$work/png" 2>"$work/err"
ok "report of a state run: the bars and the rounds charts" bash -c \
	"ls '$work/png' | grep -q -- '-state.png' && ls '$work/png' | grep -q -- '-state-rounds.png' && grep -q 'after TRIM' '$work/s.html'"

# --- an array of SSDs: the TRIM passed on to the members, state=used to each of them --------
"$IOMODEL" state --target 'sim:raid5,disks=4,member=ssd,member_capacity=256m' --destroy-data --json \
	>"$work/r5.json" 2>"$work/err"
ok "state on sim:raid5 of SSDs runs" [ $? -eq 0 ]
ok "RAID 5 of SSDs: used well below fresh, trimmed back near fresh" python3 - "$work/r5.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("raid5 of ssd: used/fresh %.3f, trimmed/fresh %.3f" % (d["used_over_fresh"], d["trimmed_over_fresh"]))
assert d["used_over_fresh"] < 0.5 and d["trimmed_over_fresh"] > 0.9, d
PY

# --- a round limit that the rule cannot meet is reported, not extrapolated ---------------
"$IOMODEL" run --target 'sim:supertalent-gx,state=used,capacity=4000m' --rw randwrite --ios 300 --steady-state \
	--max-rounds 5 --json >"$work/ss.json" 2>/dev/null
ok "run --steady-state: JSON has every round and the verdict" python3 - "$work/ss.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ss = d["steady_state"]
assert ss["rule"] == "snia-pts" and ss["window"] == 5 and ss["max_rounds"] == 5
assert len(ss["rounds"]) == 5 and all(r["iops"] > 0 for r in ss["rounds"])
assert ss["reached"] == (ss["range_pct"] <= 20 and ss["excursion_pct"] <= 10)
assert ss["reached"] or ss["round"] == 0
PY
"$IOMODEL" run --target sim:supertalent-gx --rw randwrite --ios 2000 --steady-state >"$work/out"
ok "run --steady-state on a fresh drive: reached, said in the table" grep -q "reached in round 5" "$work/out"

# --- real targets: a file (punched holes) and a loop device (BLKDISCARD) ------------------
st=$(run_status "$IOMODEL" state --target "$work/s.bin" --size 8m --destroy-data --round 200ms --max-rounds 5 --json)
ok "state on a new file: status 0" [ "$st" -eq 0 ]
ok "state on a file: three states with positive rates" python3 -c "
import json; d=json.load(open('$work/out')); assert all(s['mib_s'] > 0 and len(s['rounds']) >= 5 for s in d['states'])"
ok "the scratch file is removed" [ ! -e "$work/s.bin" ]
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	truncate -s 16m "$work/loop.img"
	loopdev=$(losetup --find --show "$work/loop.img" 2>/dev/null)
fi
if [ -n "$loopdev" ]; then
	st=$(run_status "$IOMODEL" state --target "$loopdev" --destroy-data --round 200ms --max-rounds 5)
	ok "state on a loop device (BLKDISCARD): status 0" [ "$st" -eq 0 ]
	ok "state on a loop device prints the three states" grep -q '^trimmed' "$work/out"
else
	echo "SKIP (part): no loop device here (needs root and losetup); the sim and file cases cover the logic"
fi

# --- refusals: one line, status 2 -------------------------------------------------------
refuse() {	# refuse WHAT WANT ARGS...
	local what=$1 want=$2; shift 2
	st=$(run_status "$IOMODEL" "$@")
	ok "$what: status 2" [ "$st" -eq 2 ]
	ok "$what: one line naming it" bash -c "[ \$(wc -l <'$work/err') -eq 1 ] && grep -q -- '$want' '$work/err'"
}
echo keep >"$work/precious"
refuse "no --destroy-data" "--destroy-data" state --target "$work/precious"
ok "the file is untouched" [ "$(cat "$work/precious")" = keep ]
refuse "null target" "no state" state --target null --destroy-data
refuse "an HDD takes no TRIM" "takes no TRIM" state --target sim:wd6400aaks --destroy-data
refuse "nor an array of HDDs" "an array of HDDs" \
	state --target sim:raid5,disks=3,member=wd6400aaks --destroy-data
refuse "--max-rounds below a window" "--max-rounds" state --target sim:supertalent-gx --destroy-data --max-rounds 4
refuse "--max-rounds without --steady-state" "goes with --steady-state" run --target null --max-rounds 9
refuse "--bs not a multiple of 512" "--bs" state --target sim:supertalent-gx --destroy-data --bs 1000
finish
