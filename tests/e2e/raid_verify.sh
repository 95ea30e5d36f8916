#!/usr/bin/env bash
# raid_verify.sh — `run --verify` on simulated arrays that keep their data
# in their members (sim/raid_data.h): with the controller's write-back cache
# on and a member failed, a clean run reports no failure at every level that
# survives it; a member that loses writes or flips bits is caught; data
# faults given to the whole array are refused.
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

base='member=wd6400aaks,controller_cache=on,member_capacity=1g'
verify() {	# verify TARGET: a mixed verified run; its JSON in $work/v.json
	"$IOMODEL" run --target "$1" --rw randrw --bs 4k --qd 4 --ios 1500 --size 32m --verify \
		--json >"$work/v.json" 2>"$work/v.err"
}
failures() { json "$work/v.json" "d['verify']['failures']"; }

for arr in "raid5,disks=4,failed=1" "raid6,disks=5,failed=2" "raid10,disks=4,failed=1" \
	"raid1,disks=2,failed=1" "raid0,disks=3"; do
	verify "sim:$arr,$base"
	ok "verified run on $arr with the controller cache exits 0" [ $? -eq 0 ]
	ok "  and reports no failure" [ "$(failures)" = 0 ]
done

verify "sim:raid5,disks=4,failed=1,$base,bad_member=2,bad_member_lost_write_rate=0.05"
ok "degraded RAID 5 whose member 2 loses writes: the run fails" [ $? -eq 1 ]
ok "  and verify reports lost or misplaced blocks" [ "$(json "$work/v.json" \
	"d['verify']['failures'] > 0 and d['verify']['kinds']['corruption']['count'] == 0")" = True ]
verify "sim:raid5,disks=4,$base,bad_member=1,bad_member_bitflip_rate=0.01"
ok "RAID 5 whose member 1 flips bits on reads: the run fails" [ $? -eq 1 ]
ok "  and verify reports corrupt blocks" \
	[ "$(json "$work/v.json" "d['verify']['kinds']['corruption']['count'] > 0")" = True ]

verify "sim:raid5,disks=4,$base,fault_lost_write_rate=0.1"
ok "data faults of the whole array are refused (exit 2)" [ $? -eq 2 ]
ok "  naming the member faults to use instead" grep -q 'bad_member_lost_write_rate' "$work/v.err"
verify "sim:raid5,disks=4,failed=1,$base,bad_member=0,bad_member_lost_write_rate=0.1"
ok "a bad member that has failed is refused (exit 2)" [ $? -eq 2 ]
ok "  with one line" [ "$(wc -l <"$work/v.err")" -eq 1 ]
ok "  naming bad_member" grep -q '^iomodel: .*bad_member 0' "$work/v.err"
finish
