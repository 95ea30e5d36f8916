#!/usr/bin/env bash
# raid_sim_cli.sh — simulated arrays through the command line: run and sweep
# work on them, their results carry each member's counters, and `sim show
# raid5` describes the layout (characterize and report on them, and the plan
# against them: raid_plan_sim_cli.sh).
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
# a size out of range gives its bounds as sizes are spelt ("1.07374e+09 bytes" before)
"$IOMODEL" sim show raid5,stripe=2g >"$work/out" 2>"$work/err"
ok "stripe=2g: exit 2, bounds 512 to 1g" \
	bash -c "[ $? -eq 2 ] && grep -qF \"stripe '2g': expected a size from 512 to 1g\" '$work/err'"
# a whole number too large for 64 bits is out of range, not "not a whole number"
"$IOMODEL" sim show raid5,cache_mib=99999999999999999999 >"$work/out" 2>"$work/err"
ok "cache_mib=99999999999999999999: exit 2, its range" \
	bash -c "[ $? -eq 2 ] && grep -qF 'expected a whole number from 1 to 65536 MiB' '$work/err'"
# a degraded array says what it still survives; a mirror's row is no parity row
"$IOMODEL" sim show raid6,failed=2 >"$work/show6.txt" 2>&1
ok "sim show raid6,failed=2: it survives no further failure" \
	grep -qE '^  survives_more +0 ' "$work/show6.txt"
"$IOMODEL" sim show raid10 >"$work/show10.txt" 2>&1
ok "sim show raid10: its row is not described as a parity row" \
	bash -c "grep -E '^  row ' '$work/show10.txt' | grep -qv parity"
# writes that all fit the controller's cache complete at once: no rate, and it says so
"$IOMODEL" run --target "$arr,controller_cache=on" --rw randwrite --bs 4k --ios 100 --json \
	>"$work/cached.json" 2>"$work/cached.err"
ok "100 writes into the controller cache take no virtual time: a notice says IOPS are not measured" \
	json_true "$work/cached.json" "d['seconds'] == 0 and any('no time' in n for n in d['notices'])"
ok "and stderr carries it" grep -q '^iomodel: notice: the IOs took no time' "$work/cached.err"

finish
