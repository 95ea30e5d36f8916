#!/usr/bin/env bash
# jobs-vs-fio.sh — several submitters: iomodel --jobs against fio --numjobs
# (and iomodel under mpirun), side by side in the same run.
#
# What it does: REPEAT rounds, each running every case once in turn (the
# order rotating each round so drift hits every case); the figures are the
# medians. Each run goes through bench/vsfio.py, which measures the CPU of
# the whole process tree and samples io_uring's kernel workers (iou-wrk).
#   null1      iomodel --target null, 4 KiB, QD1, one job
#   null2      iomodel --target null, 4 KiB, QD1, --jobs 2
#   fio-null2  fio --ioengine=null --numjobs=2 --group_reporting, QD1
#   uring2     iomodel on zram (or the file of lib.sh), io_uring, QD32, --jobs 2
#   fio-uring2 fio io_uring QD32 --numjobs=2 --group_reporting, its defaults
#   fio-best2  the same with fio's best flags (fixed buffers, registered
#              files, batched submission and completion)
# Then one MPI run (when iomodel was built with Open MPI and mpirun exists):
# mpirun -n 2 iomodel run --target null --runtime MPI_RUNTIME: the IOs lost
# to the ranks' start/stop skew, 1 - (aggregate IOPS over the common
# interval) / (sum of each rank's own IOPS).
#
# How to read the output: progress lines (one per run) on stderr; then one
# line per case (median IOPS, CPU us per IO, iou-wrk threads seen), the
# ratios with their goals (met / NOT met), what limits the io_uring case,
# and the MPI loss. The machine has 2 cores shared with other work: the
# "others" column of the progress lines says how busy the rest was.
#
# Usage:   sudo bench/jobs-vs-fio.sh
# Env:     RUNTIME=5 (s per run)  REPEAT=3  MPI_RUNTIME=10  QUIET_WAIT=5
#          TARGET=/dev/X|FILE  OUTDIR=dir  IOMODEL=build/iomodel  FIO=fio
# Needs:   root, fio, python3, a built build/iomodel. Installs nothing.
# Default run time: about 2 minutes.
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

RUNTIME=${RUNTIME:-5}
REPEAT=${REPEAT:-3}
MPI_RUNTIME=${MPI_RUNTIME:-10}
QUIET_WAIT=${QUIET_WAIT:-5}
HELPER=$BENCH_DIR/vsfio.py
FIO_BEST_FLAGS=(--fixedbufs --registerfiles --iodepth_batch_submit=8 --iodepth_batch_complete_min=8)
CASES=(null1 null2 fio-null2 uring2 fio-uring2 fio-best2)

need_tools
OUTDIR=${OUTDIR:-$(mktemp -d /var/tmp/iomodel-jobs-vs-fio.XXXXXX)}
mkdir -p "$OUTDIR"
trap cleanup_target EXIT
setup_target

fio_target() {
	if [ "$TARGET_KIND" = block ]; then
		echo "--filename=$TARGET_PATH --direct=1"
	else
		echo "--filename=$TARGET_PATH --size=1g --direct=1"
	fi
}

# run_case CASE REP
run_case() {
	local case=$1 rep=$2 kind=iomodel busy cmd
	local fio=("$FIO" --name=jobs --output-format=json --output="$OUTDIR/$case.$rep.json"
		--rw=randread --bs=4k --time_based --runtime="$RUNTIME" --numjobs=2
		--group_reporting --lat_percentiles=1)
	local iom=("$IOMODEL" run --rw randread --bs 4k --runtime "${RUNTIME}s" --json)
	case $case in
	null1) cmd=("${iom[@]}" --target null --qd 1) ;;
	null2) cmd=("${iom[@]}" --target null --qd 1 --jobs 2) ;;
	uring2) cmd=("${iom[@]}" --target "$TARGET_PATH" --qd 32 --jobs 2) ;;
	fio-null2) kind=fio; cmd=("${fio[@]}" --ioengine=null --size=1g --iodepth=1) ;;
	# shellcheck disable=SC2046 # fio_target is a list of flags
	fio-uring2) kind=fio; cmd=("${fio[@]}" --ioengine=io_uring $(fio_target) --iodepth=32) ;;
	# shellcheck disable=SC2046
	fio-best2) kind=fio
		cmd=("${fio[@]}" --ioengine=io_uring $(fio_target) --iodepth=32 "${FIO_BEST_FLAGS[@]}") ;;
	esac
	busy=$(python3 "$HELPER" quiet --threshold 0.25 --max-wait "$QUIET_WAIT")
	python3 "$HELPER" run --records "$OUTDIR/records.jsonl" --case "$case" --tool "$kind" \
		--rep "$rep" --kind "$kind" --busy "$busy" --raw "$OUTDIR/$case.$rep.json" \
		-- "${cmd[@]}"
}

note "target: $TARGET_DESC; $REPEAT rounds of ${#CASES[@]} runs of ${RUNTIME}s; raw JSON in $OUTDIR"
for ((rep = 0; rep < REPEAT; rep++)); do
	for ((i = 0; i < ${#CASES[@]}; i++)); do
		run_case "${CASES[$(((i + rep) % ${#CASES[@]}))]}" "$rep"
	done
done

mpi_json=
if "$IOMODEL" --version | grep -qx 'mpi: on' && command -v mpirun >/dev/null; then
	mpi_json=$OUTDIR/mpi.json
	note "mpirun -n 2: ${MPI_RUNTIME}s on null"
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe -n 2 \
		"$IOMODEL" run --target null --runtime "${MPI_RUNTIME}s" --per-job --json >"$mpi_json"
else
	note "iomodel without Open MPI (or no mpirun): the MPI case is skipped"
fi

python3 - "$OUTDIR/records.jsonl" "$mpi_json" <<'PYEOF'
import json, statistics, sys

recs = [json.loads(l) for l in open(sys.argv[1])]
def med(case, key):
    return statistics.median(r[key] for r in recs if r["case"] == case)
def spread(case):
    v = [r["iops"] for r in recs if r["case"] == case]
    return (max(v) - min(v)) / 2 / statistics.median(v) * 100
print(f"{'case':<11} {'IOPS':>14} {'±%':>5} {'CPU us/IO':>10} {'iou-wrk':>8} {'others CPU':>10}")
for c in ["null1", "null2", "fio-null2", "uring2", "fio-uring2", "fio-best2"]:
    cpu = statistics.median(r["proc_cpu_s"] / r["ios"] * 1e6 for r in recs if r["case"] == c)
    print(f"{c:<11} {med(c, 'iops'):>14,.0f} {spread(c):>5.1f} {cpu:>10.3f} "
          f"{med(c, 'iowq_threads'):>8.0f} {med(c, 'others_cpus'):>10.2f}")
def ratio(name, a, b, goal=None):
    r = med(a, "iops") / med(b, "iops")
    verdict = "" if goal is None else ("  goal >= %.1f: %s" % (goal, "met" if r >= goal else "NOT met"))
    print(f"{name:<44} {r:6.2f}{verdict}")
print()
ratio("null: --jobs 2 / one job", "null2", "null1", 1.8)
ratio("null: iomodel --jobs 2 / fio --numjobs=2", "null2", "fio-null2", 2.0)
cpu1 = statistics.median(r["proc_cpu_s"] / r["ios"] for r in recs if r["case"] == "null1")
cpu2 = statistics.median(r["proc_cpu_s"] / r["ios"] for r in recs if r["case"] == "null2")
print(f"{'null: CPU per IO, one job / --jobs 2':<44} {cpu1 / cpu2:6.2f}  (1.0: a second job costs "
      f"no CPU per IO, so --jobs 2 scales with the CPUs the machine leaves free)")
ratio("io_uring QD32: iomodel --jobs 2 / fio defaults", "uring2", "fio-uring2")
ratio("io_uring QD32: iomodel --jobs 2 / fio best flags", "uring2", "fio-best2")
wrk = med("uring2", "iowq_threads")
print("io_uring limit: " + ("zram takes no non-blocking IO, so the kernel hands every IO to "
      "io-wq workers (iou-wrk threads seen: %d); both tools queue on those kernel threads, "
      "whose CPU (column CPU us/IO) is most of the cost" % wrk if wrk else
      "no iou-wrk threads seen: the submitting threads and the device are the limit"))
if sys.argv[2]:
    d = json.load(open(sys.argv[2]))
    ranks = d["ranks"]["per_rank"]
    own = sum(r["results"][0]["iops"] for r in ranks)
    agg = d["results"][0]["iops"]
    loss = (1 - agg / own) * 100
    print(f"MPI, 2 ranks, {d['seconds']:.3f} s: aggregate {agg:,.0f} IOPS, sum of ranks {own:,.0f}; "
          f"stonewall {d['ranks']['stonewall_s'] * 1e3:.3f} ms; IOs lost to skew {loss:.3f} %"
          f"  goal < 1 %: {'met' if loss < 1 else 'NOT met'}")
PYEOF
echo "raw results: $OUTDIR"
