#!/usr/bin/env bash
# raid_plan_sim.sh — the analytical plan (`iomodel raid --member sim:DRIVE`)
# against `characterize` of the simulated array (`sim:raidL,member=DRIVE`)
# at every level, for a hard disk without write cache and an SSD: random
# 4 KiB read and write IOPS at QD1 (the plan's default) and at QD32 (raid
# --qd 32), and sequential read and write MiB/s, each within 10 %. The
# member is characterized once (characterize -o): a model file measured on
# a sim: drive plans exactly as --member sim:DRIVE does (checked on RAID 5).
# Prints the table docs/raid.md shows:
#     tests/e2e/raid_plan_sim.sh            (IOMODEL=path/to/iomodel to choose)
# or a part of it: raid_plan_sim.sh hdd|ssd [LEVEL...] (the suite runs three
# parts, raid_plan_sim_{hdd_mirror,hdd_parity,ssd}.sh, in parallel).
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

# member spec for the plan | member settings of the array | label
hdd="wd6400aaks,write_cache=off|member=wd6400aaks,member_write_cache=off|HDD wd6400aaks, no write cache"
ssd="ocz-core|member=ocz-core|SSD ocz-core"
case "${1:-all}" in
hdd) members=("$hdd") ;;
ssd) members=("$ssd") ;;
*) members=("$hdd" "$ssd") ;;
esac
shift
levels=${*:-0 1 10 5 6}
: >"$work/rows"
for entry in "${members[@]}"; do
	IFS='|' read -r plan_member array_member label <<<"$entry"
	"$IOMODEL" characterize --target "sim:$plan_member" -o "$work/member.json" >/dev/null 2>"$work/err"
	ok "characterize of the $label member exits 0" [ $? -eq 0 ]
	"$IOMODEL" raid --level 5 --disks 4 --member "sim:$plan_member" --json >"$work/direct.json" 2>&1
	"$IOMODEL" raid --level 5 --disks 4 --member "$work/member.json" --json >"$work/file.json" 2>&1
	ok "$label: the plan from its model file is the plan from sim:$plan_member" \
		python3 - "$work/direct.json" "$work/file.json" <<'PY'
import json, sys
def same(a, b):	# equal to a millionth (the model file rounds its figures to 10 digits)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= 1e-6 * max(abs(a), abs(b))
    return a == b
a, b = (json.load(open(f))["operations"] for f in sys.argv[1:])
sys.exit(not same(a, b))
PY
	for level in $levels; do
		disks=4
		[ "$level" = 1 ] && disks=2
		"$IOMODEL" characterize --target "sim:raid$level,disks=$disks,$array_member" \
			-o "$work/sim.json" >/dev/null 2>"$work/err"
		ok "characterize of $label RAID $level ($disks disks) exits 0" [ $? -eq 0 ]
		"$IOMODEL" raid --level "$level" --disks "$disks" --member "$work/member.json" --json \
			>"$work/plan.json" 2>"$work/err"
		ok "the plan of $label RAID $level exits 0" [ $? -eq 0 ]
		"$IOMODEL" raid --level "$level" --disks "$disks" --member "$work/member.json" --json \
			--qd 32 >"$work/plan32.json" 2>"$work/err"
		ok "the plan of $label RAID $level at QD32 exits 0" [ $? -eq 0 ]
		python3 - "$work/plan.json" "$work/sim.json" "$label" "$level" "$disks" "$work/plan32.json" \
			>>"$work/rows" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))["operations"]
sim = json.load(open(sys.argv[2]))["model"]
label, level, disks = sys.argv[3:6]
plan32 = json.load(open(sys.argv[6]))["operations"]

def at(op, qd):
    pts = [p["iops"] for p in sim[op]["points"]
           if p["size_bytes"] == 4096 and p["qd"] == qd and p["random"]]
    return sum(pts) / len(pts)

figures = [("random read IOPS QD1", plan["rand_read"]["iops"], at("read", 1)),
           ("random write IOPS QD1", plan["rand_write"]["iops"], at("write", 1)),
           ("random read IOPS QD32", plan32["rand_read"]["iops"], at("read", 32)),
           ("random write IOPS QD32", plan32["rand_write"]["iops"], at("write", 32)),
           ("sequential read MiB/s", plan["seq_read"]["mib_s"], sim["read"]["str_mib_s"]),
           ("sequential write MiB/s", plan["seq_write"]["mib_s"], sim["write"]["str_mib_s"])]
for what, p, s in figures:
    print(f"{label}\t{level}\t{disks}\t{what}\t{p:.4g}\t{s:.4g}\t{100 * (p / s - 1):+.1f}")
PY
	done
done

echo
echo "| member | level | disks | figure | plan | simulation | error |"
echo "|---|---|---:|---|---:|---:|---:|"
while IFS=$'\t' read -r label level disks what p s err; do
	echo "| $label | RAID $level | $disks | $what | $p | $s | $err % |"
done <"$work/rows"
echo
while IFS=$'\t' read -r label level disks what p s err; do
	ok "$label RAID $level $what: plan $p, simulation $s ($err %) within 10 %" \
		awk -v e="$err" 'BEGIN { exit !(e + 0 <= 10 && e + 0 >= -10) }'
done <"$work/rows"
finish
