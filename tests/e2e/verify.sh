#!/usr/bin/env bash
# verify.sh — `run --verify` through the command line: every fault a
# simulated drive injects (lost, misdirected, torn writes, bit flips) is
# detected and classified, checked against the drive's own counters, and a
# clean run reports none; a file written with --verify --keep is checked by a
# later read pass that finds the damage done to it by hand, kind by kind,
# with its offset; every engine verifies; bad --verify jobs are refused with
# exit status 2.
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

ssd='sim:ssd,capacity=64m,spare=0.5'
hdd='sim:hdd,capacity=64m'

# table ROW: injected and detected per kind, and the exit status, as one line
table_row() {	# table_row LABEL JSON STATUS
	json "$2" '"%-34s injected lost %d misdirected %d torn %d flipped %d | detected lost %d misdirected %d torn %d corrupt %d" % ("'"$1"'",
		d["device"]["faults"]["lost_writes"], d["device"]["faults"]["misdirected_writes"],
		d["device"]["faults"]["torn_writes"], d["device"]["faults"]["bit_flips"],
		d["verify"]["kinds"]["lost_write"]["count"], d["verify"]["kinds"]["misdirected_write"]["count"],
		d["verify"]["kinds"]["torn_write"]["count"], d["verify"]["kinds"]["corruption"]["count"])'
}

# fault_case LABEL DRIVE FAULT-KEY COUNTER VERIFY-KIND RUN-ARGS...
fault_case() {
	local label=$1 drive=$2 key=$3 counter=$4 kind=$5 st injected detected others
	shift 5
	st=$(run_status "$IOMODEL" run --target "$drive,$key=0.05" --verify --json "$@")
	read -r injected detected others < <(json "$work/out" "'%d %d %d' % (d['device']['faults']['$counter'],
		d['verify']['kinds']['$kind']['count'],
		d['verify']['failures'] - d['verify']['kinds']['$kind']['count'])")
	table_row "$label" "$work/out" "$st"
	ok "$label: faults were injected ($injected)" [ "$injected" -gt 10 ]
	ok "$label: all $injected detected as $kind ($detected)" [ "$injected" = "$detected" ]
	ok "$label: nothing else reported ($others)" [ "$others" = 0 ]
	ok "$label: exit status 1" [ "$st" = 1 ]
	ok "$label: one line on stderr names the kind" \
		[ "$(wc -l <"$work/err")" = 1 -a -n "$(grep "verify: .* bad blocks" "$work/err")" ]
}

# label | drive | fault key | drive counter | verify kind | workload (3000 IOs each)
while IFS='|' read -r label drive key counter kind workload; do
	# shellcheck disable=SC2086 # the workload is a list of words
	fault_case "$label" "${!drive}" $key $counter $kind $workload --ios 3000
done <<'CASES'
ssd randwrite qd8 lost|ssd|fault_lost_write_rate|lost_writes|lost_write|--rw randwrite --bs 4k --qd 8
ssd randwrite qd1 misdirected|ssd|fault_misdirect_rate|misdirected_writes|misdirected_write|--rw randwrite --bs 4k --qd 1
ssd randrw qd8 torn|ssd|fault_torn_rate|torn_writes|torn_write|--rw randrw --bs 8k --qd 8
ssd randrw qd8 bit flips|ssd|fault_bitflip_rate|bit_flips|corruption|--rw randrw --bs 4k --qd 8
hdd write qd2 misdirected 16k|hdd|fault_misdirect_rate|misdirected_writes|misdirected_write|--rw write --bs 16k --qd 2
hdd write qd2 torn 16k|hdd|fault_torn_rate|torn_writes|torn_write|--rw write --bs 16k --qd 2
CASES

# all four at once, qd 8: faults meet (a flip on a torn block, a misdirected write
# landing where a write is in flight), so the table shows it, and only the sum is checked
st=$(run_status "$IOMODEL" run --target "$ssd,fault_lost_write_rate=0.02,fault_misdirect_rate=0.02,fault_torn_rate=0.02,fault_bitflip_rate=0.02" \
	--rw randrw --bs 8k --qd 8 --ios 3000 --verify --json)
table_row "ssd randrw qd8 all four at 2%" "$work/out" "$st"
ok "all four: failures found, exit 1" [ "$st" = 1 -a "$(json "$work/out" "d['verify']['failures'] > 0")" = True ]

st=$(run_status "$IOMODEL" run --target "$ssd" --rw randrw --bs 4k --qd 8 --ios 3000 --verify --json)
ok "clean run: exit 0" [ "$st" = 0 ]
ok "clean run: zero failures" [ "$(json "$work/out" "d['verify']['failures']")" = 0 ]
ok "clean run: the pass read the whole region" \
	[ "$(json "$work/out" "d['verify']['pass']['ios']")" = 16384 ]
ok "clean run: every write stamped" [ "$(json "$work/out" \
	"d['verify']['blocks_written'] == d['results'][1]['ios']")" = True ]
st=$(run_status "$IOMODEL" run --target "$ssd,fault_lost_write_rate=0.05" --rw randwrite --ios 500 --json)
ok "without --verify faults are only counted: exit 0" [ "$st" = 0 ]
ok "without --verify the verify object is null" [ "$(json "$work/out" "d['verify']")" = None ]

# A file: write it with --verify --keep (generation 9 over an image of generation 7),
# damage four blocks by hand, and let a later read pass find each.
img=$work/v.img
"$IOMODEL" run --target "$img" --size 1m --rw write --bs 4k --verify --verify-generation 7 \
	--ios 256 --keep >/dev/null
cp "$img" "$work/old.img"
st=$(run_status "$IOMODEL" run --target "$img" --rw write --bs 4k --verify \
	--verify-generation 9 --ios 256 --destroy-data --json)
ok "file write run with --verify: exit 0" [ "$st" = 0 ]
ok "file write run: generation 9 in the JSON" [ "$(json "$work/out" "d['verify']['generation']")" = 9 ]
python3 - "$img" "$work/old.img" <<'PY'
import sys
new = bytearray(open(sys.argv[1], 'rb').read()); old = open(sys.argv[2], 'rb').read()
B = 4096
new[3*B:4*B] = old[3*B:4*B]                  # lost: block 3 as generation 7 left it
new[10*B:11*B] = new[20*B:21*B]              # misdirected: block 20's write landed on 10
new[31*B + 2048:32*B] = old[31*B + 2048:32*B]  # torn: only the first half of block 31 new
new[40*B + 1000] ^= 0x10                     # a flipped bit in block 40
open(sys.argv[1], 'wb').write(new)
PY
for how in "--verify-generation 9" ""; do
	st=$(run_status "$IOMODEL" run --target "$img" --rw read --bs 4k --verify $how --ios 256 --json)
	ok "read pass ${how:-learning the generation}: exit 1" [ "$st" = 1 ]
	ok "read pass ${how:-learning}: generation 9" [ "$(json "$work/out" "d['verify']['generation']")" = 9 ]
	ok "read pass ${how:-learning}: one of each kind, at the offsets damaged" [ "$(json "$work/out" \
		"[(k, v['count'], v['first_offset']) for k, v in d['verify']['kinds'].items()]")" = \
		"[('lost_write', 1, 12288), ('misdirected_write', 1, 40960), ('torn_write', 1, 126976), ('corruption', 1, 163840)]" ]
done
ok "read pass: the first failure is the lowest offset read" \
	[ "$(json "$work/out" "(d['verify']['first']['kind'], d['verify']['first']['offset'], d['verify']['first']['found_generation'])")" = "('lost_write', 12288, 7)" ]
st=$(run_status "$IOMODEL" run --target "$img" --rw read --bs 4k --verify --verify-generation 9 \
	--offset 40k --length 8k --ios 2 --json)
ok "read pass: a misdirected block names where it belongs" [ "$(json "$work/out" \
	"(d['verify']['first']['kind'], d['verify']['first']['offset'], d['verify']['first']['found_offset'])")" = "('misdirected_write', 40960, 81920)" ]
st=$(run_status "$IOMODEL" run --target "$img" --rw randread --bs 4k --verify --verify-generation 9 \
	--ios 2000 --qd 4 --json)
ok "random read pass with repeats: lost, misdirected, torn once each; corruption per read" \
	[ "$(json "$work/out" "[d['verify']['kinds'][k]['count'] for k in ('lost_write', 'misdirected_write', 'torn_write')] + [d['verify']['kinds']['corruption']['count'] > 1]")" = "[1, 1, 1, True]" ]
for engine in io_uring libaio psync; do
	st=$(run_status "$IOMODEL" run --target "$work/e.img" --size 1m --keep --rw randrw --bs 4k --qd 4 --ios 600 --verify \
		--destroy-data --engine "$engine" --json)
	ok "file randrw --verify --engine $engine: exit 0, nothing bad, every block checked" [ "$st" = 0 -a \
		"$(json "$work/out" "(d['verify']['failures'], d['verify']['pass']['ios'], d['verify']['blocks_checked'])")" = "(0, 256, 856)" ]
done
"$IOMODEL" sim show ssd | grep -Eq '^ +fault_torn_rate '
ok "sim show lists fault_torn_rate" [ $? = 0 ]
"$IOMODEL" run --target null --rw randwrite --verify --ios 20000 --qd 4 --json >"$work/null.json"
ok "null: writes check their own buffers" [ "$(json "$work/null.json" \
	"(d['verify']['mode'], d['verify']['blocks_checked'], d['verify']['failures'])")" = "('self', 20000, 0)" ]

refused() {	# refused WHAT PATTERN ARGS...: exit 2, one line naming it, nothing created
	local what=$1 pattern=$2 st
	shift 2
	st=$(run_status "$IOMODEL" run "$@")
	ok "refused: $what (exit 2)" [ "$st" = 2 ]
	ok "refused: $what (one line: $pattern)" \
		[ "$(wc -l <"$work/err")" = 1 -a -n "$(grep -- "$pattern" "$work/err")" ]
}
refused "reads on null" "null keeps no data" --target null --rw randread --verify --ios 1
refused "--bs below 512" "at least 512" --target null --rw randwrite --bs 256 --verify --ios 1
refused "--align other than --bs" "align equal" --target "$ssd" --rw randwrite --bs 8k --align 4k --verify --ios 1
refused "region under 2 x qd blocks" "2 x --qd" --target "$ssd" --rw randwrite --length 16k --qd 4 --verify --ios 1
refused "--verify-generation alone" "only with --verify" --target "$ssd" --verify-generation 3 --ios 1
refused "--verify with --steady-state" "steady-state" --target "$ssd" --rw randwrite --verify --steady-state --ios 1
refused "--verify-generation 0" "verify-generation" --target "$ssd" --verify --verify-generation 0 --ios 1
refused "a file: --bs x --qd over 1GiB" "1GiB" --target "$work/big.img" --size 4g --rw randwrite --bs 1g --qd 2 --verify --ios 1
ok "refused: the file was not created" [ ! -e "$work/big.img" ]
finish
