#!/usr/bin/env bash
# raid_input.sh — `iomodel raid` refuses what it cannot plan, and says what
# it planned: every bad value (out of range, not a plain decimal number, a
# stripe larger than the members, a link so fast its figures overflow) gets
# one printable line on stderr naming the option, status 2, and no -o file
# (an existing one is left as it was); the figures a user reads are the
# ones given (no "0.0 MiB/s" for a rate nobody knows).
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

member=$work/wd.json
wd_member "$member"

# bad OPTION ARGS...: status 2, one printable line naming OPTION, -o not created
bad() {
	local opt=$1 status
	shift
	rm -f "$work/never.json"
	status=$(run_status "$IOMODEL" raid "$@" -o "$work/never.json")
	ok "raid $*: exit 2 (got $status)" [ "$status" -eq 2 ]
	ok "raid $*: one line on stderr" [ "$(wc -l <"$work/err")" -eq 1 ]
	ok "raid $*: printable" [ "$(LC_ALL=C tr -d '[:print:]\n' <"$work/err" | wc -c)" -eq 0 ]
	ok "raid $*: naming $opt" grep -qF -- "$opt" "$work/err"
	ok "raid $*: nothing on stdout" [ ! -s "$work/out" ]
	ok "raid $*: nothing written" [ ! -e "$work/never.json" ]
}
R5="--level 5 --disks 4 --member $member"
run_status_to_full() {	# as run_status, standard output to /dev/full
	"$@" >/dev/full 2>"$work/err"
	echo $?
}

# a model file whose measured points are absurd (1e308 IOPS: the plan printed "inf IOPS")
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
for p in d["model"]["read"]["points"]: p["iops"] = 1e308
json.dump(d, open(sys.argv[2], "w"))' "$member" "$work/huge.json"
bad --member --level 5 --disks 4 --member "$work/huge.json"
mkdir "$work/hugecsv"
printf 'op,random,size,qd,iops\nread,1,4096,1,1e300\nread,1,65536,1,100\n' >"$work/hugecsv/a.csv"
bad --member-fit --level 0 --disks 2 --member-fit "$work/hugecsv"

# --level has no default (without it the plan was RAID 0's, unasked)
bad --level --disks 4 --member "$member"

# numbers: plain decimals, in range
bad --afr $R5 --afr ' 5'
bad --afr $R5 --afr 0x5
bad --ure $R5 --ure 0x1p-47
bad --years $R5 --years +5
bad --link $R5 --link ' 1gbe'
bad --link $R5 --link 0x1gbe
# a link whose payload overflowed: printed inf and -nan, and --json exited 1 saying nothing
bad --link $R5 --link 1e300gbit
bad --link $R5 --link 1e300gbit --json
"$IOMODEL" raid $R5 --link 1000000gbit --json >"$work/fast.json" 2>&1
ok "--link 1000000gbit (the largest) plans, its JSON parses with finite figures" \
	json_true "$work/fast.json" "d['link']['payload_mib_s'] > 1e8"

# a stripe no member holds: the plan said "capacity unknown ... give --capacity" although given
bad --stripe $R5 --stripe 4t --capacity 640g
bad --stripe $R5 --stripe 2g
bad --capacity $R5 --capacity 100
bad --stripe --level 0 --disks 2 --member sim:wd6400aaks,capacity=64m --stripe 128m
ok "--stripe 1g (the largest, as sim:raid* takes it) plans" \
	"$IOMODEL" raid $R5 --stripe 1g --capacity 640g -o "$work/big.json" >/dev/null
# an existing -o file is left as it was on bad input
echo keep >"$work/keep.json"
"$IOMODEL" raid $R5 --capacity 100 -o "$work/keep.json" >/dev/null 2>&1
ok "bad input leaves an existing -o file as it was" [ "$(cat "$work/keep.json")" = keep ]

# members that differ: the plan names each (it named the first only, for the
# text and the array model's source alike)
"$IOMODEL" characterize --target sim:ocz-core --quick -o "$work/ocz.json" >/dev/null 2>&1
"$IOMODEL" raid --level 5 --disks 3 --member "$member" --member "$work/ocz.json" --member "$member" \
	--allow-mixed -o "$work/mixed.json" >"$work/mixed.txt" 2>&1
ok "a mixed array's plan names every member, in order" \
	grep -qF "RAID 5 of 3 members ($member; $work/ocz.json; $member)" "$work/mixed.txt"
ok "... and so does its model's source" \
	json_true "$work/mixed.json" "d['source'] == 'RAID 5 of 3 members: $member; $work/ocz.json; $member, 65536-byte stripe'"
"$IOMODEL" raid $R5 -o "$work/same.json" >"$work/same.txt" 2>&1
ok "one member for all: named once" grep -qF "RAID 5 of 4 members ($member)," "$work/same.txt"
ok "... and in the source" json_true "$work/same.json" "d['source'] == 'RAID 5 of 4 x $member, 65536-byte stripe'"

# --member-fit takes every .csv file, however short its name ("a.csv" was skipped:
# "no .json or .csv files in it")
mkdir "$work/csv"
"$IOMODEL" sweep --target sim:wd6400aaks --rw randread --bs 4k:64k --qd 1:4 --point-ios 200 --csv \
	>"$work/csv/a.csv" 2>/dev/null
"$IOMODEL" raid --level 0 --disks 2 --member-fit "$work/csv" --json >"$work/csv.json" 2>"$work/csv.err"
ok "--member-fit reads a.csv ($(head -c 200 "$work/csv.err"))" \
	json_true "$work/csv.json" "d['operations']['rand_read']['iops'] > 50"
mkdir "$work/none"
: >"$work/none/csv"
bad --member-fit --level 0 --disks 2 --member-fit "$work/none"

# what nobody knows is not printed as a figure: the link line read "0.0 MiB/s at
# the outer end, 0.0 at the inner" for members without a sequential rate; a
# RAID 0 has no rebuild (the plan printed its hours and read errors)
mx=${SHARED_DATA:-$(dirname "$0")/../../../shared/data}/fio-plot/crucial-mx200-ssd
if [ -d "$mx" ]; then
	"$IOMODEL" raid --level 0 --disks 3 --member-fit "$mx" --link 10gbe >"$work/mx.txt" 2>&1
	ok "no sequential rate: 'array sequential read: unknown'" \
		grep -qx '  array sequential read: unknown' "$work/mx.txt"
	ok "... and no 0.0 MiB/s" bash -c "! grep -q '0\.0 MiB/s' '$work/mx.txt'"
fi
if [ -d "$mx" ]; then	# a capacity given, no STR: the rate is what is missing, not the capacity
	"$IOMODEL" raid --level 1 --disks 2 --member-fit "$mx" --capacity 500g >"$work/mx1.txt" 2>&1
	ok "capacity given, no STR: asks for --rebuild-rate" grep -q 'give --rebuild-rate' "$work/mx1.txt"
	ok "... not for --capacity" bash -c "! grep -q 'give --capacity' '$work/mx1.txt'"
	ok "... and gives the read errors of the rebuild" grep -q 'unrecoverable read during a rebuild' \
		"$work/mx1.txt"
fi
"$IOMODEL" raid --level 0 --disks 2 --member "$member" --capacity 640g >"$work/r0.txt" 2>&1
ok "RAID 0: no repair" grep -q '^  repair: none (RAID 0' "$work/r0.txt"
ok "... and no rebuild to read" bash -c "! grep -q 'during a rebuild' '$work/r0.txt'"
"$IOMODEL" raid --level 6 --disks 4 --member "$member" >"$work/r6.txt" 2>&1
ok "RAID 6 of 4: '1 member read + 3 writes'" grep -q 'reconstruct-write, 1 member read + 3 writes' "$work/r6.txt"

# a simulated array as a member: planned as one hard disk of unknown size
# (kind, capacity and AFR are a drive's); refused, its model file still plans
bad --member --level 1 --disks 2 --member sim:raid0,member=ssd,member_capacity=1g
"$IOMODEL" characterize --quick --target sim:raid0,disks=2 -o "$work/r0model.json" >/dev/null 2>&1
ok "an array's model file is a member as any model is" \
	"$IOMODEL" raid --level 1 --disks 2 --member "$work/r0model.json" -o "$work/nested.json" \
	>/dev/null

# large random IOs at depth against the simulated arrays (disks without write
# cache): the plan read RAID 5/6 as keeping only the data members busy (RAID 6
# of 4, 1 MiB at QD16: +56 %) and held a disk's rate at sizes measured at QD1
# only (RAID 0 of 4, 256 KiB at QD4: -12 %)
"$IOMODEL" characterize --target sim:wd6400aaks,write_cache=off --quick -o "$work/wdnc.json" \
	>/dev/null 2>&1
for c in "0 4 256k 4" "6 4 1m 16" "5 4 256k 4" "10 4 1m 4"; do
	set -- $c
	"$IOMODEL" raid --level "$1" --disks "$2" --member "$work/wdnc.json" --bs "$3" --qd "$4" \
		--json >"$work/lp.json" 2>&1
	"$IOMODEL" run --target "sim:raid$1,disks=$2,member=wd6400aaks,member_write_cache=off" \
		--rw randread --bs "$3" --qd "$4" --ios 1500 --json >"$work/ls.json" 2>&1
	sim=$(json "$work/ls.json" "d['results'][0]['iops']")
	ok "RAID $1 of $2, $3 random reads at QD$4: plan within 8 % of the simulation ($sim IOPS)" \
		json_true "$work/lp.json" "abs(d['operations']['rand_read']['iops'] / $sim - 1) < 0.08"
done

# an n-way mirror reads from the nearest of its n heads (planned with two heads' figure: -10 % for 3)
for n in 3 4; do
	"$IOMODEL" raid --level 1 --disks "$n" --member "$work/wdnc.json" --json >"$work/m$n.json" 2>&1
	"$IOMODEL" run --target "sim:raid1,disks=$n,member=wd6400aaks,member_write_cache=off" \
		--rw randread --bs 4k --qd 1 --ios 3000 --json >"$work/ms$n.json" 2>&1
	sim=$(json "$work/ms$n.json" "d['results'][0]['iops']")
	ok "RAID 1 of $n: 4 KiB reads at QD1 within 4 % of the simulation ($sim IOPS)" \
		json_true "$work/m$n.json" "abs(d['operations']['rand_read']['iops'] / $sim - 1) < 0.04"
done

# output that does not reach standard output (a full disk) fails the command: it
# exited 0 with the plan lost (stdio wrote it at exit, unchecked)
if [ -w /dev/full ]; then
	for fmt in "" --json; do
		st=$(run_status_to_full "$IOMODEL" raid $R5 $fmt)
		ok "raid $fmt >/dev/full: exit 1 (got $st)" [ "$st" -eq 1 ]
		ok "raid $fmt >/dev/full: one line saying so" \
			bash -c "[ \$(wc -l <'$work/err') -eq 1 ] && grep -q 'standard output' '$work/err'"
	done
fi

finish
