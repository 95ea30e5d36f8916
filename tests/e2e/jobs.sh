#!/usr/bin/env bash
# jobs.sh — `run --jobs N` through the CLI: merged results add up exactly to
# the jobs' own (IOs, histograms, timelines), --split gives disjoint slices,
# a simulated drive runs every job on its one clock, a failing job fails the
# run with its message, pinning, bad input (one line, exit 2), and the live
# status line: drawn on a terminal, absent when stderr is piped.
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

# --- null: the merged record is the sum of the jobs --------------------------
"$IOMODEL" run --target null --jobs 3 --qd 4 --ios 20000 --per-job --json >"$work/n.json"
ok "null --jobs 3 exits 0" [ $? -eq 0 ]
ok "merged IOs = 3 x --ios" [ "$(json "$work/n.json" 'd["results"][0]["ios"]')" = 60000 ]
ok "jobs object: count, qd per job, outstanding" \
	[ "$(json "$work/n.json" '(d["jobs"]["count"], d["jobs"]["qd_per_job"], d["jobs"]["outstanding_ios"])')" = "(3, 4, 12)" ]
ok "per-job IOs add up to the merged" \
	[ "$(json "$work/n.json" 'sum(j["results"][0]["ios"] for j in d["jobs"]["per_job"]) == d["results"][0]["ios"]')" = True ]
ok "merged histogram holds every IO" \
	[ "$(json "$work/n.json" 'sum(b[2] for b in d["results"][0]["histogram"]["buckets"])')" = 60000 ]
ok "merged timeline holds every IO" \
	[ "$(json "$work/n.json" 'sum(s["ios"] for s in d["results"][0]["timeline"])')" = 60000 ]
ok "jobs have seeds of their own" \
	[ "$(json "$work/n.json" 'len(set(j["seed"] for j in d["jobs"]["per_job"]))')" = 3 ]
ok "merged seconds is the longest job's" \
	[ "$(json "$work/n.json" 'd["seconds"] == max(j["seconds"] for j in d["jobs"]["per_job"])')" = True ]
ok "merged max latency is the largest job's" \
	[ "$(json "$work/n.json" 'd["results"][0]["lat_us"]["max"] == max(j["results"][0]["lat_us"]["max"] for j in d["jobs"]["per_job"])')" = True ]

"$IOMODEL" run --target null --jobs 2 --runtime 300ms --per-job --cpus 0 >"$work/t.txt"
ok "table run with --per-job exits 0" [ $? -eq 0 ]
ok "table names the jobs and outstanding IOs" \
	bash -c "grep -q 'queue depth 1 per job, ' '$work/t.txt' && grep -q '^2 jobs, 2 IOs outstanding' '$work/t.txt'"
ok "table has a row per job, pinned to cpu 0" [ "$(grep -cE '^[01] +0 read' "$work/t.txt")" = 2 ]

# --- NUMA: a pinned job's buffers are on its CPU's memory node -----------------
cpus=$(python3 -c 'import os; print(",".join(str(c) for c in sorted(os.sched_getaffinity(0))[:2]))')
"$IOMODEL" run --target "$work/numa.bin" --size 4m --jobs 2 --cpus "$cpus" --ios 50 --per-job \
	--json >"$work/numa.json"
ok "file --jobs 2 --cpus $cpus exits 0" [ $? -eq 0 ]
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
echo "note: this machine has $nodes memory node(s)"
for j in 0 1; do
	cpu=$(json "$work/numa.json" "d['jobs']['per_job'][$j]['cpu']")
	want=$(ls -d /sys/devices/system/cpu/cpu"$cpu"/node[0-9]* 2>/dev/null | sed 's/.*node//')
	ok "job $j on cpu $cpu: buffers on its node (${want:-?})" \
		[ "$(json "$work/numa.json" "d['jobs']['per_job'][$j]['numa_node']")" = "${want:-None}" ]
done

# --- a file, split into slices -------------------------------------------------
"$IOMODEL" run --target "$work/f.bin" --size 8m --rw read --bs 64k --jobs 2 --split \
	--ios 64 --per-job --json >"$work/f.json"
ok "file --jobs 2 --split exits 0" [ $? -eq 0 ]
ok "slices are disjoint halves" \
	[ "$(json "$work/f.json" '[(j["offset"], j["length"]) for j in d["jobs"]["per_job"]]')" = "[(0, 4194304), (4194304, 4194304)]" ]
ok "split recorded" [ "$(json "$work/f.json" 'd["jobs"]["split"]')" = True ]
ok "file: 128 IOs in all" [ "$(json "$work/f.json" 'd["results"][0]["ios"]')" = 128 ]
ok "scratch file removed" [ ! -e "$work/f.bin" ]

# --- a simulated drive: one clock for every job --------------------------------
"$IOMODEL" run --target sim:intel-x25m-g2 --jobs 4 --ios 500 --per-job --json >"$work/s.json"
ok "sim --jobs 4 exits 0" [ $? -eq 0 ]
ok "sim: 2000 IOs" [ "$(json "$work/s.json" 'd["results"][0]["ios"]')" = 2000 ]
ok "sim: the drive saw every job's reads" \
	[ "$(json "$work/s.json" 'd["device"]["host_read_bytes"]')" = $((2000 * 4096)) ]
"$IOMODEL" run --target sim:intel-x25m-g2 --ios 2000 --qd 4 --json >"$work/s4.json"
"$IOMODEL" run --target sim:intel-x25m-g2 --ios 500 --json >"$work/s1.json"
ok "sim: four QD1 jobs load the drive as one QD4 job does (IOPS within 5 %)" \
	[ "$(python3 -c 'import json,sys; a,b=(json.load(open(f))["results"][0]["iops"] for f in sys.argv[1:]); print(abs(a/b-1)<0.05)' "$work/s.json" "$work/s4.json")" = True ]
ok "sim: and more than one QD1 job" \
	[ "$(python3 -c 'import json,sys; a,b=(json.load(open(f))["results"][0]["iops"] for f in sys.argv[1:]); print(a>1.2*b)' "$work/s.json" "$work/s1.json")" = True ]

status=$(run_status "$IOMODEL" run --target 'sim:ssd,fault_eio=1g-2g' --length 4g --jobs 4 --split --ios 100000)
ok "a failing job fails the run (exit 1)" [ "$status" = 1 ]
ok "with that job's message" grep -q '^iomodel: job 1: read error at offset' "$work/err"
ok "and the results printed" grep -q '^read ' "$work/out"

# --- sweep --jobs: each point runs N jobs; its queue depth is the total --------
"$IOMODEL" sweep --target sim:intel-x25m-g2 --bs 4k --qd 1:2 --point-ios 300 --jobs 2 --split \
	--json >"$work/sw.json"
ok "sweep --jobs 2 exits 0" [ $? -eq 0 ]
ok "sweep: every point ran 2 jobs of 300 IOs" \
	[ "$(json "$work/sw.json" '[(r["jobs"]["count"], r["results"][0]["ios"]) for r in d["runs"]]')" = "[(2, 600), (2, 600)]" ]
"$IOMODEL" sweep --target null --bs 4k --qd 1:2 --point-ios 300 --jobs 2 --csv >"$work/sw.csv"
ok "sweep --csv: queue depth = outstanding IOs (2, 4)" \
	[ "$(cut -d, -f4 "$work/sw.csv" | tail -n +2 | tr '\n' ' ')" = "2 4 " ]

# --- bad input: one line, exit 2 -------------------------------------------------
bad_input() {	# bad_input WHAT PATTERN ARGS...
	local what=$1 pattern=$2; shift 2
	status=$(run_status "$IOMODEL" run "$@")
	ok "$what: exit 2" [ "$status" = 2 ]
	ok "$what: one line naming it" [ "$(wc -l <"$work/err")" = 1 ]
	ok "$what: message" grep -q -- "$pattern" "$work/err"
}
bad_input "--jobs 0" "--jobs '0'" --target null --jobs 0
bad_input "--jobs 1025" "--jobs '1025'" --target null --jobs 1025
bad_input "--split too small" "--split: the region" --target null --length 8k --jobs 3 --split
bad_input "--cpus of a missing CPU" "--cpus '1023'" --target null --cpus 1023
bad_input "--cpus backwards" "runs backwards" --target null --cpus 1-0
bad_input "--per-job with --csv" "--per-job" --target null --per-job --csv
status=$(run_status "$IOMODEL" sweep --target null --size 4k --bs 4k --jobs 2 --split)
ok "sweep --split of a too small target: exit 2, one line" [ "$status:$(wc -l <"$work/err")" = 2:1 ]
ok "sweep --jobs 0: exit 2" [ "$(run_status "$IOMODEL" sweep --target null --jobs 0)" = 2 ]

# --- live status: on a terminal only --------------------------------------------
if command -v script >/dev/null; then
	script -qec "$IOMODEL run --target null --runtime 2500ms --jobs 2 >$work/tty.out" \
		"$work/tty.log" >/dev/null 2>&1
	ok "status line drawn on a terminal" grep -q 'IOPS .*MiB/s .*mean .* 2/2 jobs .*elapsed .*ETA' "$work/tty.log"
	ok "and cleared before the results" grep -q $'\r *\r' "$work/tty.log"
	script -qec "$IOMODEL sweep --target null --bs 4k:8k --point-time 1200ms --point-ios 1000000000000 >$work/tty.out" \
		"$work/tty2.log" >/dev/null 2>&1
	ok "each point of a sweep shows its status" grep -q '1/2 randread 4 KiB QD1  [0-9]* IOPS' "$work/tty2.log"
	"$IOMODEL" run --target null --runtime 1500ms --jobs 2 >"$work/p.out" 2>"$work/p.err"
	ok "nothing on stderr when it is not a terminal" [ ! -s "$work/p.err" ]
else
	echo "note: no script(1): the status line on a terminal is not checked"
fi
finish
