#!/usr/bin/env bash
# raid_plan_sim_cli.sh — characterize and report work on simulated arrays of
# HDDs, and `iomodel raid`'s plan agrees within 10 % with characterize of the
# simulated array (members without write cache: see docs/raid.md for what
# does not agree and why); with cached members, RAID 0 and 10 random writes
# agree too; an X25-M G2 member is rebuilt at its write cap. Suite accuracy:
# the release build only.
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

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
# (moved here from raid_cli.sh: numeric agreement, on the release build only)
wd_member "$work/wd.json"
# members with their write cache on (the preset's): their caches take the writes, so
# an array that only writes (RAID 0, 10) writes at the members' deep-queue rate from QD1 on
for level in 0 10; do
	"$IOMODEL" characterize --quick --target "sim:raid$level,disks=4,member=wd6400aaks" \
		-o "$work/c$level.json" >/dev/null 2>&1
	"$IOMODEL" raid --level "$level" --disks 4 --member "$work/wd.json" --json >"$work/p$level.json" 2>&1
	ok "RAID $level of 4 cached members: planned 4 KiB random writes at QD1 within 10 % of the simulation's" \
		python3 - "$work/p$level.json" "$work/c$level.json" <<'PY'
import json, statistics, sys
plan = json.load(open(sys.argv[1]))["operations"]["rand_write"]["iops"]
sim = statistics.median(p["iops"] for p in json.load(open(sys.argv[2]))["model"]["write"]["points"]
                        if p["size_bytes"] == 4096)
print("plan", plan, "simulation", sim)
sys.exit(abs(plan / sim - 1) > 0.10)
PY
done

# an SSD whose writes fit a capped line (X25-M G2: the line's STR far above its
# 100 MB/s cap): the rebuild runs at the cap, not at the line's STR
"$IOMODEL" raid --level 1 --disks 2 --member sim:intel-x25m-g2 --json >"$work/x25.json" 2>&1
ok "an X25-M G2 member is rebuilt at its sustained write rate (~100 MB/s)" \
	json_true "$work/x25.json" "90 < d['raid']['rebuild_mib_s'] < 110"

finish
