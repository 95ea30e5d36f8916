#!/usr/bin/env bash
# raid_plan_sim.sh — the analytical plan (`iomodel raid --member sim:DRIVE`)
# against `characterize` of the simulated array (`sim:raidL,member=DRIVE`)
# at every level, for a hard disk without write cache and an SSD: random
# 4 KiB read and write IOPS at QD1 (the plan's default) and at QD32 (raid
# --qd 32), and sequential read and write MiB/s, each within 10 %. Prints
# the table docs/raid.md shows:
#     tests/e2e/raid_plan_sim.sh            (IOMODEL=path/to/iomodel to choose)
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

# member spec for the plan | member settings of the array | label
members=(
	"wd6400aaks,write_cache=off|member=wd6400aaks,member_write_cache=off|HDD wd6400aaks, no write cache"
	"ocz-core|member=ocz-core|SSD ocz-core"
)
: >"$work/rows"
for entry in "${members[@]}"; do
	IFS='|' read -r plan_member array_member label <<<"$entry"
	for level in 0 1 10 5 6; do
		disks=4
		[ "$level" = 1 ] && disks=2
		"$IOMODEL" characterize --target "sim:raid$level,disks=$disks,$array_member" \
			-o "$work/sim.json" >/dev/null 2>"$work/err"
		ok "characterize of $label RAID $level ($disks disks) exits 0" [ $? -eq 0 ]
		"$IOMODEL" raid --level "$level" --disks "$disks" --member "sim:$plan_member" --json \
			>"$work/plan.json" 2>"$work/err"
		ok "the plan of $label RAID $level exits 0" [ $? -eq 0 ]
		"$IOMODEL" raid --level "$level" --disks "$disks" --member "sim:$plan_member" --json \
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
		python3 -c "import sys; sys.exit(abs(float(sys.argv[1])) > 10)" "$err"
done <"$work/rows"
finish
