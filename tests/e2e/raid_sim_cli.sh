#!/usr/bin/env bash
# raid_sim_cli.sh — simulated arrays through the command line: run, sweep,
# characterize and report work on them, their results carry each member's
# counters, `sim show raid5` describes the layout, and `iomodel raid`'s plan
# agrees within 10 % with characterize of the simulated array (members
# without write cache: see docs/raid.md for what does not agree and why).
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

# --- simulated arrays: every command works on them ------------------------------
arr='sim:raid5,disks=4,member=wd6400aaks,member_write_cache=off'
"$IOMODEL" run --target "$arr" --rw randwrite --bs 4k --ios 200 --json >"$work/run.json" 2>"$work/run.err"
ok "run on a simulated RAID 5 exits 0" [ $? -eq 0 ]
ok "its results carry the four members' counters" \
	json_true "$work/run.json" "len(d['device']['members']) == 4 and d['device']['model'] == 'raid5'"
ok "a small write costs the members 2 reads and 2 writes" \
	json_true "$work/run.json" "sum(m['host_write_bytes'] for m in d['device']['members']) == 2 * 200 * 4096 and sum(m['host_read_bytes'] for m in d['device']['members']) == 2 * 200 * 4096"
"$IOMODEL" sweep --target "$arr" --rw randread --bs 4k:64k --point-ios 100 --json >"$work/sweep.json" 2>"$work/sweep.err"
ok "sweep on a simulated RAID 5 exits 0" [ $? -eq 0 ]
"$IOMODEL" sim show raid5 >"$work/show.txt" 2>&1
ok "sim show raid5 names the parity layout" grep -q 'left-symmetric' "$work/show.txt"

# --- the plan against characterize of the simulated array (members without write cache)
"$IOMODEL" characterize --target sim:wd6400aaks,write_cache=off -o "$work/wdoff.json" >/dev/null 2>&1
ok "characterize of the member without write cache exits 0" [ $? -eq 0 ]
for level in 0 5; do
	"$IOMODEL" characterize --target "sim:raid$level,disks=4,member=wd6400aaks,member_write_cache=off" \
		-o "$work/sim$level.json" >/dev/null 2>&1
	ok "characterize of a simulated RAID $level exits 0" [ $? -eq 0 ]
	"$IOMODEL" raid --level $level --disks 4 --member "$work/wdoff.json" -o "$work/plan$level.json" >/dev/null 2>&1
	ok "the RAID $level plan exits 0" [ $? -eq 0 ]
done
# within 10 %: planned (a) against the simulated array's fitted model (s)
agree() {	# agree LEVEL EXPR-OF-a-AND-s...
	python3 - "$work/plan$1.json" "$work/sim$1.json" "$2" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["model"]
s = json.load(open(sys.argv[2]))["model"]
key = eval(sys.argv[3])
got, want = key(a), key(s)
print(f"plan {got:.4g}, simulation {want:.4g}")
sys.exit(0 if abs(got / want - 1) <= 0.10 else 1)
PY
}
for op in read write; do
	ok "RAID 0 $op STR within 10 %" agree 0 "lambda m: m['$op']['str_mib_s']"
	ok "RAID 0 $op penalty within 10 %" agree 0 "lambda m: m['$op']['penalty_ms']"
	ok "RAID 0 $op saturated IOPS within 10 %" agree 0 "lambda m: m['$op']['queue_depth']['sat_iops']"
	ok "RAID 5 $op STR within 10 %" agree 5 "lambda m: m['$op']['str_mib_s']"
done
ok "RAID 5 read penalty within 10 %" agree 5 "lambda m: m['read']['penalty_ms']"
ok "RAID 5 read saturated IOPS within 10 %" agree 5 "lambda m: m['read']['queue_depth']['sat_iops']"
"$IOMODEL" report "$work/sim0.json" "$work/plan0.json" -o "$work/both.html" >/dev/null 2>&1
ok "report draws the simulated array and its plan together" [ -s "$work/both.html" ]
finish
