#!/usr/bin/env bash
# vs-fio.sh — iomodel against fio on the same target in the same run.
#
# What it does: 4 KiB random reads, measured by fio and by iomodel in turn
# (fio, iomodel, fio, iomodel…, the order rotating each round so drift hits
# both), REPEAT rounds of RUNTIME seconds each; the figures are the medians.
#   null    QD1   fio --ioengine=null  vs  iomodel --target null
#   io_uring QD32 fio defaults, fio with its best flags, iomodel — on zram
#   io_uring QD1  fio vs iomodel — on zram
#   psync QD1, libaio QD1 and QD32 (informational; INFO=0 skips them)
#   file cases: io_uring and libaio at QD 1, 8 and 32 on a 1 GiB file on the
#     filesystem that holds the project — fio defaults, fio best flags,
#     iomodel (FILE_CASES=0 skips them; FILE=PATH picks the file)
# The target is /dev/zram0 (sized to 1 GiB and reset at exit when it was
# unsized; used as it is when sized and unused), or, when zram is missing or
# in use, a 1 GiB file on /var/tmp; it is filled once with random data so
# both tools read the same incompressible data. iomodel runs with its
# defaults: only --target --rw --bs --qd --runtime (and --engine for the
# psync/libaio cases). CPU is measured the same way for both tools: user+sys
# of the whole process tree, every thread included (io_uring's iou-wrk
# workers too), from getrusage(RUSAGE_CHILDREN) around each run.
#
# How to read the output: progress lines (one per run) go to stderr; then a
# table per case: one column per tool with "median ±half-spread%", then
# ratio columns iomodel/fio. For IOPS a ratio above 1 favours iomodel; for
# latency and CPU a ratio below 1 does. "CPU us/IO, tool's own report" is
# what each tool says about itself (fio: usr_cpu+sys_cpu % of its runtime)
# and is informational only. The last lines say, per goal, met / NOT met.
# Raw JSON of every run stays in OUTDIR (printed at the end).
#
# Usage:   sudo bench/vs-fio.sh
# Env:     RUNTIME=5 (s per run)  REPEAT=3  INFO=1  TARGET=/dev/X|FILE
#          FILE_CASES=1  FILE=PATH (the file of the file cases)
#          OUTDIR=dir  QUIET_WAIT=20 (s to wait for an idle machine per run)
#          FILL=1 (rewrite zram even if it already holds random data)
#          IOMODEL=build/iomodel  FIO=fio
#          IOMODEL_BASE=other/iomodel (another build measured in the same
#            rounds as one more tool, "iomodel-base": before/after figures)
# Needs:   root, fio, python3, a built build/iomodel. Installs nothing.
# Default run time: about 10 minutes (4 without the file cases).
set -euo pipefail

# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

RUNTIME=${RUNTIME:-5}
REPEAT=${REPEAT:-3}
INFO=${INFO:-1}
FILE_CASES=${FILE_CASES:-1}
QUIET_WAIT=${QUIET_WAIT:-20}
HELPER=$BENCH_DIR/vsfio.py
FIO_BEST_FLAGS=(--fixedbufs --registerfiles --iodepth_batch_submit=8 --iodepth_batch_complete_min=8)
FIO_BEST_FLAGS_LIBAIO=(--iodepth_batch_submit=8 --iodepth_batch_complete_min=8)

# ---- one run of one tool ------------------------------------------------

# run_measured CASE TOOL REP KIND ENGINE COMMAND...: wait for a quiet
# machine, run the command under the helper (CPU, io-wq sampling, JSON
# parsing). A run that fails or ran another engine than ENGINE (neighbours'
# tests switch io_uring off for a moment: fio then fails, iomodel falls back)
# is tried again, up to 3 times in all.
run_measured() {
	local case=$1 tool=$2 rep=$3 kind=$4 engine=$5 busy try
	shift 5
	for try in 1 2 3; do
		busy=$(python3 "$HELPER" quiet --threshold 0.25 --max-wait "$QUIET_WAIT")
		python3 "$HELPER" run --records "$OUTDIR/records.jsonl" --case "$case" \
			--tool "$tool" --rep "$rep" --kind "$kind" --engine "$engine" --busy "$busy" \
			--raw "$OUTDIR/$case.$tool.$rep.json" -- "$@" && return 0
		note "  $case $tool rep $rep: attempt $try failed"
		sleep 2
	done
	die "$case $tool rep $rep failed 3 times"
}

# fio_target_args ENGINE: what fio needs to reach the target.
fio_target_args() {
	if [ "$1" = null ]; then
		echo "--size=1g"
	elif [ "$TARGET_KIND" = block ]; then
		echo "--filename=$TARGET_PATH --direct=1"
	else
		echo "--filename=$TARGET_PATH --size=1g --direct=1"
	fi
}

# run_fio CASE TOOL REP ENGINE QD [EXTRA FIO FLAGS...]
# --lat_percentiles=1: fio's percentiles of total latency (submission to
# completion), which is what iomodel measures; clat leaves out submission.
run_fio() {
	local case=$1 tool=$2 rep=$3 engine=$4 qd=$5
	shift 5
	# shellcheck disable=SC2046 # fio_target_args is a list of flags
	run_measured "$case" "$tool" "$rep" fio "$engine" \
		"$FIO" --name=vsfio --output-format=json --output="$OUTDIR/$case.$tool.$rep.json" \
		--ioengine="$engine" $(fio_target_args "$engine") --rw=randread --bs=4k \
		--iodepth="$qd" --time_based --runtime="$RUNTIME" --lat_percentiles=1 "$@"
}

# run_iomodel CASE REP ENGINE QD [TOOL BINARY]: iomodel with its defaults
# (io_uring is the default engine, so --engine is given only for the other
# ones); TOOL BINARY: iomodel-base "$IOMODEL_BASE".
run_iomodel() {
	local case=$1 rep=$2 engine=$3 qd=$4 tool=${5:-iomodel} binary=${6:-$IOMODEL}
	local target=$TARGET_PATH extra=()
	[ "$engine" = null ] && target=null
	[ "$engine" = null ] || [ "$engine" = io_uring ] || extra=(--engine "$engine")
	run_measured "$case" "$tool" "$rep" iomodel "$engine" \
		"$binary" run --target "$target" --rw randread --bs 4k --qd "$qd" \
		--runtime "${RUNTIME}s" "${extra[@]}" --json
}

# run_tool CASE TOOL REP ENGINE QD: TOOL is fio, fio-best, iomodel or iomodel-base.
run_tool() {
	local case=$1 tool=$2 rep=$3 engine=$4 qd=$5
	case $tool in
	fio) run_fio "$case" fio "$rep" "$engine" "$qd" ;;
	fio-best)
		if [ "$engine" = libaio ]; then
			run_fio "$case" fio-best "$rep" "$engine" "$qd" "${FIO_BEST_FLAGS_LIBAIO[@]}"
		else
			run_fio "$case" fio-best "$rep" "$engine" "$qd" "${FIO_BEST_FLAGS[@]}"
		fi ;;
	iomodel) run_iomodel "$case" "$rep" "$engine" "$qd" ;;
	iomodel-base) run_iomodel "$case" "$rep" "$engine" "$qd" iomodel-base "$IOMODEL_BASE" ;;
	esac
}

# ---- one measurement kind: a case, one round ----------------------------

# measure CASE TITLE ENGINE QD REP TOOL...: one run of each tool, the order
# rotated by the round number, so that each tool goes first in turn.
measure() {
	local case=$1 title=$2 engine=$3 qd=$4 rep=$5
	shift 5
	local tools=("$@") n i
	[ -n "${IOMODEL_BASE:-}" ] && tools+=(iomodel-base)
	n=${#tools[@]}
	[ "$rep" = 1 ] && printf '%s\t%s\n' "$case" "$title" >>"$OUTDIR/cases.tsv"
	for ((i = 0; i < n; i++)); do
		run_tool "$case" "${tools[$(((i + rep - 1) % n))]}" "$rep" "$engine" "$qd"
	done
}

measure_null() {
	measure null-qd1 "null target, 4 KiB randread, QD1 (fio --ioengine=null, size=1g)" \
		null 1 "$1" fio iomodel
}

# measure_device CASE ENGINE QD REP [fio-best]
measure_device() {
	local case=$1 engine=$2 qd=$3 rep=$4
	shift 4
	measure "$case" "$engine 4 KiB randread, QD$qd, O_DIRECT on $TARGET_DESC" \
		"$engine" "$qd" "$rep" fio "$@" iomodel
}

# measure_file ENGINE QD REP: the file case of ENGINE at QD, on FILE_PATH
# (the run functions read TARGET_PATH/TARGET_KIND, switched for the case).
measure_file() {
	local engine=$1 qd=$2 rep=$3
	local saved_path=$TARGET_PATH saved_kind=$TARGET_KIND
	TARGET_PATH=$FILE_PATH
	TARGET_KIND=file
	measure "file-$engine-qd$qd" "FILE $engine 4 KiB randread, QD$qd, O_DIRECT on $FILE_DESC" \
		"$engine" "$qd" "$rep" fio fio-best iomodel
	TARGET_PATH=$saved_path
	TARGET_KIND=$saved_kind
}

# iomodel_build_id: version, git commit and binary time, to notice a rebuild
# during the run (another developer may rebuild while this runs).
iomodel_build_id() {
	echo "$("$IOMODEL" --version 2>/dev/null || echo 'iomodel ?')" \
		"(git $(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo '?')," \
		"binary of $(date -u -r "$IOMODEL" '+%H:%M:%S UTC'))"
}

# ---- main -----------------------------------------------------------------

main() {
	local rep qd
	need_tools
	OUTDIR=${OUTDIR:-$(mktemp -d /var/tmp/iomodel-vs-fio.XXXXXX)}
	mkdir -p "$OUTDIR"
	OUTDIR=$(cd "$OUTDIR" && pwd)	# absolute: the runs happen from inside it
	: >"$OUTDIR/records.jsonl"
	: >"$OUTDIR/cases.tsv"
	trap cleanup_target EXIT
	trap 'exit 130' INT TERM
	setup_target
	if [ "$FILE_CASES" = 1 ]; then setup_bench_file; fi
	cd "$OUTDIR"	# fio would lay out stray files in the current directory
	iomodel_id=$(iomodel_build_id)
	note "iomodel vs fio: $REPEAT rounds of ${RUNTIME} s runs on $TARGET_DESC; raw results in $OUTDIR"
	for ((rep = 1; rep <= REPEAT; rep++)); do
		note "round $rep of $REPEAT"
		measure_null "$rep"
		measure_device uring-qd32 io_uring 32 "$rep" fio-best
		measure_device uring-qd1 io_uring 1 "$rep"
		if [ "$INFO" = 1 ]; then
			measure_device psync-qd1 psync 1 "$rep"
			measure_device libaio-qd1 libaio 1 "$rep"
			measure_device libaio-qd32 libaio 32 "$rep"
		fi
		if [ "$FILE_CASES" = 1 ]; then
			for qd in 1 8 32; do
				measure_file io_uring "$qd" "$rep"
				measure_file libaio "$qd" "$rep"
			done
		fi
	done
	echo "iomodel vs fio — $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(nproc) CPUs, $("$FIO" --version), $iomodel_id"
	echo "target: $TARGET_DESC; $REPEAT runs x ${RUNTIME} s per tool and case"
	if [ "$FILE_CASES" = 1 ]; then echo "file cases: $FILE_DESC"; fi
	echo "fio best flags (fio-best): ${FIO_BEST_FLAGS[*]} (libaio: ${FIO_BEST_FLAGS_LIBAIO[*]})"
	python3 "$HELPER" report --records "$OUTDIR/records.jsonl" --cases "$OUTDIR/cases.tsv"
	echo "raw results: $OUTDIR"
	if [ "$(iomodel_build_id)" != "$iomodel_id" ]; then
		echo "warning: $IOMODEL was rebuilt during the run (now $(iomodel_build_id)): its figures mix two builds"
	fi
}

main "$@"
