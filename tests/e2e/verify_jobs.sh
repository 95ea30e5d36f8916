#!/usr/bin/env bash
# verify_jobs.sh — `run --verify` with --jobs and under mpirun: on a
# simulated drive with 2 and 4 jobs every injected fault (lost, misdirected,
# torn, bit flip) is detected and classified, checked against the drive's
# counters, the jobs' own counts add up to the total, each job verifies a
# slice of its own; a clean run reports zero and reads every block back; a
# file with 2 jobs on every engine, and null; a file written by 2 jobs and
# damaged by hand (a write of one job misdirected into the other's slice) is
# checked by a later read pass with 2 jobs and with 1, which agree; a loop
# device with 2 jobs (skipped, with the reason, without root or losetup);
# mpirun with 2 ranks (skipped, with the reason, without Open MPI).
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

ssd='sim:ssd,capacity=64m,spare=0.5'

# jobs_case LABEL JOBS FAULT-KEY COUNTER VERIFY-KIND RUN-ARGS...: 2000 IOs in all
jobs_case() {
	local label=$1 jobs=$2 key=$3 counter=$4 kind=$5 st injected detected others
	shift 5
	st=$(run_status "$IOMODEL" run --target "$ssd,$key=0.05" --verify --jobs "$jobs" \
		--ios $((2000 / jobs)) --per-job --json "$@")
	read -r injected detected others < <(json "$work/out" "'%d %d %d' % (d['device']['faults']['$counter'],
		d['verify']['kinds']['$kind']['count'],
		d['verify']['failures'] - d['verify']['kinds']['$kind']['count'])")
	echo "# $label: injected $injected, detected $detected as $kind, other failures $others"
	ok "$label: faults were injected ($injected)" [ "$injected" -gt 10 ]
	ok "$label: all $injected detected as $kind ($detected)" [ "$injected" = "$detected" ]
	ok "$label: nothing else reported ($others)" [ "$others" = 0 ]
	ok "$label: exit status 1, one line on stderr" \
		[ "$st" = 1 -a "$(wc -l <"$work/err")" = 1 -a -n "$(grep "verify: .* bad blocks" "$work/err")" ]
	ok "$label: the jobs' counts add up to the total" [ "$(json "$work/out" "(all(
		sum(j['verify']['kinds'][k]['count'] for j in d['jobs']['per_job']) == v['count']
		for k, v in d['verify']['kinds'].items()) and d['verify']['kinds']['$kind']['first_offset'] ==
		min(j['verify']['kinds']['$kind']['first_offset'] for j in d['jobs']['per_job']
		    if j['verify']['kinds']['$kind']['count']))")" = True ]
	ok "$label: $jobs disjoint slices covering the drive" [ "$(json "$work/out" "(d['jobs']['split'],
		[(j['offset'], j['length']) for j in d['jobs']['per_job']] ==
		[(i * (64 << 20) // $jobs, (64 << 20) // $jobs) for i in range($jobs)])")" = "(True, True)" ]
}

# label | jobs | fault key | drive counter | verify kind | workload
while IFS='|' read -r label jobs key counter kind workload; do
	# shellcheck disable=SC2086 # the workload is a list of words
	jobs_case "$label" "$jobs" $key $counter $kind $workload
done <<'CASES'
2 jobs randwrite qd8 lost|2|fault_lost_write_rate|lost_writes|lost_write|--rw randwrite --bs 4k --qd 8
4 jobs randwrite qd8 lost|4|fault_lost_write_rate|lost_writes|lost_write|--rw randwrite --bs 4k --qd 8
2 jobs randwrite qd1 misdirected|2|fault_misdirect_rate|misdirected_writes|misdirected_write|--rw randwrite --bs 4k --qd 1
4 jobs randwrite qd2 misdirected|4|fault_misdirect_rate|misdirected_writes|misdirected_write|--rw randwrite --bs 4k --qd 2
2 jobs randrw qd8 torn|2|fault_torn_rate|torn_writes|torn_write|--rw randrw --bs 8k --qd 8
4 jobs randrw qd4 torn|4|fault_torn_rate|torn_writes|torn_write|--rw randrw --bs 8k --qd 4
2 jobs randrw qd8 bit flips|2|fault_bitflip_rate|bit_flips|corruption|--rw randrw --bs 4k --qd 8
4 jobs randrw qd4 bit flips|4|fault_bitflip_rate|bit_flips|corruption|--rw randrw --bs 4k --qd 4
CASES

st=$(run_status "$IOMODEL" run --target "$ssd" --rw randrw --bs 4k --qd 8 --jobs 4 --ios 750 \
	--verify --per-job --json)
ok "clean run, 4 jobs: exit 0, zero failures" [ "$st" = 0 -a "$(json "$work/out" "d['verify']['failures']")" = 0 ]
ok "clean run: the passes read every block, each job its slice" [ "$(json "$work/out" \
	"(d['verify']['pass']['ios'], [j['verify']['pass']['ios'] for j in d['jobs']['per_job']])")" = \
	"(16384, [4096, 4096, 4096, 4096])" ]
ok "clean run: every write stamped, one generation" [ "$(json "$work/out" \
	"(d['verify']['blocks_written'] == d['results'][1]['ios'] and
	 len(set(j['verify']['generation'] for j in d['jobs']['per_job'])) == 1)")" = True ]
st=$(run_status "$IOMODEL" run --target "$ssd" --rw randwrite --qd 8 --jobs 4 --length 192k --verify --ios 10)
ok "refused: a slice under 2 x --qd blocks (exit 2, one line)" \
	[ "$st" = 2 -a "$(wc -l <"$work/err")" = 1 -a -n "$(grep -- "2 x --qd" "$work/err")" ]
st=$(run_status "$IOMODEL" run --target sim:ssd --rw randwrite --bs 4m --qd 64 --jobs 8 --verify --ios 1)
ok "refused: the streams of a simulated drive over 1GiB of buffers (exit 2, one line)" \
	[ "$st" = 2 -a "$(wc -l <"$work/err")" = 1 -a -n "$(grep -- "--bs x --qd x --jobs" "$work/err")" ]

for engine in io_uring libaio psync; do
	st=$(run_status "$IOMODEL" run --target "$work/e.img" --size 1m --keep --rw randrw --bs 4k --qd 4 \
		--ios 300 --jobs 2 --verify --destroy-data --engine "$engine" --per-job --json)
	ok "file, 2 jobs, --engine $engine: exit 0, nothing bad, every block checked" [ "$st" = 0 -a \
		"$(json "$work/out" "(d['verify']['failures'], d['verify']['pass']['ios'], d['verify']['blocks_checked'],
		[j['verify']['blocks_checked'] for j in d['jobs']['per_job']])")" = "(0, 256, 856, [428, 428])" ]
done
"$IOMODEL" run --target null --rw randwrite --verify --ios 10000 --qd 4 --jobs 2 --json >"$work/null.json"
ok "null, 2 jobs: writes check their own buffers" [ "$(json "$work/null.json" \
	"(d['verify']['mode'], d['verify']['blocks_checked'], d['verify']['failures'])")" = "('self', 20000, 0)" ]

# A file written by 2 jobs (each its half, in order), damaged by hand, read back.
img=$work/v.img
"$IOMODEL" run --target "$img" --size 1m --rw write --bs 4k --verify --verify-generation 7 \
	--ios 256 --keep >/dev/null
cp "$img" "$work/old.img"
st=$(run_status "$IOMODEL" run --target "$img" --rw write --bs 4k --verify --verify-generation 9 \
	--jobs 2 --ios 128 --destroy-data --json)
ok "file written by 2 jobs: exit 0, generation 9" [ "$st" = 0 -a "$(json "$work/out" "d['verify']['generation']")" = 9 ]
python3 - "$img" "$work/old.img" <<'PY'
import sys
new = bytearray(open(sys.argv[1], 'rb').read()); old = open(sys.argv[2], 'rb').read()
B = 4096
new[200*B:201*B] = new[20*B:21*B]            # job 0's write of block 20 landed on 200 (job 1's)
new[20*B:21*B] = old[20*B:21*B]              # ... so 20 holds what generation 7 left
new[150*B + 2048:151*B] = old[150*B + 2048:151*B]  # torn: half of block 150 new
new[40*B + 1000] ^= 0x10                     # a flipped bit in block 40
open(sys.argv[1], 'wb').write(new)
PY
expect="[('lost_write', 0, None), ('misdirected_write', 1, 819200), ('torn_write', 1, 614400), ('corruption', 1, 163840)]"
for jobs in 2 1; do
	st=$(run_status "$IOMODEL" run --target "$img" --rw read --bs 4k --verify --jobs $jobs --ios $((256 / jobs)) \
		--per-job --json)
	ok "read pass, $jobs job(s): exit 1, generation 9" [ "$st" = 1 -a "$(json "$work/out" "d['verify']['generation']")" = 9 ]
	ok "read pass, $jobs job(s): the misdirected write counted once, not also lost" [ "$(json "$work/out" \
		"[(k, v['count'], v['first_offset']) for k, v in d['verify']['kinds'].items()]")" = "$expect" ]
done

# A block device (a loop device over a file): 2 jobs, each its half, then a read pass
if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
	echo "# skipped the block device part: needs root and losetup to attach a loop device"
elif ! head -c 4M /dev/urandom >"$work/backing.img" ||
	! dev=$(losetup -f --show "$work/backing.img" 2>"$work/losetup.err"); then
	echo "# skipped the block device part: losetup failed: $(cat "$work/losetup.err" 2>/dev/null)"
else
	trap 'losetup -d "$dev"; rm -rf "$work"' EXIT
	st=$(run_status "$IOMODEL" run --target "$dev" --rw randrw --bs 4k --qd 4 --ios 400 --jobs 2 \
		--verify --destroy-data --per-job --json)
	ok "block device, 2 jobs: exit 0, nothing bad, each job read back its half" [ "$st" = 0 -a \
		"$(json "$work/out" "(d['verify']['failures'], [(j['offset'], j['verify']['pass']['ios'])
		for j in d['jobs']['per_job']])")" = "(0, [(0, 512), (2097152, 512)])" ]
	st=$(run_status "$IOMODEL" run --target "$dev" --rw write --bs 4k --ios 512 --jobs 2 --verify \
		--verify-generation 11 --destroy-data --json)
	st=$(run_status "$IOMODEL" run --target "$dev" --rw randread --bs 4k --qd 4 --ios 2000 --verify --json)
	ok "block device: a later read pass finds generation 11 everywhere" [ "$st" = 0 -a \
		"$(json "$work/out" "(d['verify']['generation'], d['verify']['failures'])")" = "(11, 0)" ]
fi

# mpirun: 2 ranks x 2 jobs; each rank its own drive, or a slice of one shared file
if ! "$IOMODEL" --version | grep -qx 'mpi: on'; then
	echo "# skipped the mpirun part: iomodel was built without Open MPI (mpi: off)"
elif ! command -v mpirun >/dev/null; then
	echo "# skipped the mpirun part: no mpirun (openmpi-bin)"
else
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	mpi() {	# as in mpi.sh: Open MPI's own start-up allocations are never freed
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			timeout 60 mpirun --oversubscribe -n 2 "$IOMODEL" run "$@"
	}
	st=$(run_status mpi --target "$ssd,fault_lost_write_rate=0.05" --rw randwrite --bs 4k --qd 4 \
		--jobs 2 --ios 750 --verify --per-job --json)
	ok "mpirun, lost writes: exit 1, rank 0's message" [ "$st" != 0 -a -n "$(grep "^iomodel: verify: " "$work/err")" ]
	ok "mpirun: rank 0 found every lost write its drive dropped, the total is the ranks' sum" \
		[ "$(json "$work/out" "(d['ranks']['per_rank'][0]['verify']['kinds']['lost_write']['count'] ==
		d['device']['faults']['lost_writes'] > 10, sum(r['verify']['failures'] for r in d['ranks']['per_rank'])
		== d['verify']['failures'] == d['verify']['kinds']['lost_write']['count'])")" = "(True, True)" ]
	"$IOMODEL" run --target "$work/shared" --size 2m --keep --ios 1 >/dev/null
	st=$(run_status mpi --target "$work/shared" --rw write --bs 4k --qd 2 --jobs 2 --ios 128 --verify \
		--destroy-data --per-job --json)
	ok "mpirun, shared file: exit 0, each rank its half, one generation" [ "$st" = 0 -a "$(json "$work/out" \
		"([(r['offset'], r['length']) for r in d['ranks']['per_rank']], len(set(r['verify']['generation']
		for r in d['ranks']['per_rank'])), d['verify']['pass']['ios'])")" = "([(0, 1048576), (1048576, 1048576)], 1, 512)" ]
	gen=$(json "$work/out" "d['verify']['generation']")
	st=$(run_status "$IOMODEL" run --target "$work/shared" --rw read --bs 4k --verify --ios 512 --json)
	ok "a later read pass of the whole shared file: every block of generation $gen" \
		[ "$st" = 0 -a "$(json "$work/out" "(d['verify']['generation'], d['verify']['failures'])")" = "($gen, 0)" ]
fi
finish
