#!/usr/bin/env bash
# fuzz/run.sh [SECONDS] [HARNESS...] — builds the harnesses (fuzz/build.sh)
# and runs each for SECONDS (60) of wall time: all of them, or those named
# (units, csv, results, model, sim_spec, sim_ini, cli, trace, raid). With
# FUZZ_PARALLEL=1 they all run at once, each at nice FUZZ_NICE (19), from
# a copy of the binaries in $FUZZ_OUT/bin (a rebuild meanwhile leaves a long
# run alone); else one after the other. Seeds are read from fuzz/corpus/NAME;
# what libFuzzer finds new is kept in $FUZZ_OUT/corpus/NAME (FUZZ_OUT:
# build-fuzz), a crashing input in $FUZZ_OUT/crashes/, the log of each
# harness in $FUZZ_OUT/NAME.log. Prints one line per harness (runs, wall
# seconds, corpus files, result) and exits 1 when any crashed, leaked, hung
# or broke a sanitizer rule; 77 when clang/libFuzzer is missing. SIGINT or
# SIGTERM stops the harnesses early; their stats are still printed.
set -u
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift $(($# > 0 ? 1 : 0))
names=("$@")
harnesses=$(fuzz/build.sh) || exit $?
[ ${#names[@]} -gt 0 ] || names=($(echo "$harnesses" | sed 's/^fuzz_//'))
out=${FUZZ_OUT:-build-fuzz}
parallel=${FUZZ_PARALLEL:-0}
bindir=build-fuzz
mkdir -p "$out/crashes"
for name in "${names[@]}"; do
	[ -x "build-fuzz/fuzz_$name" ] || { echo "fuzz/run.sh: no harness '$name'" >&2; exit 2; }
done
if [ "$parallel" = 1 ]; then
	bindir=$out/bin
	mkdir -p "$bindir"
	for name in "${names[@]}"; do cp "build-fuzz/fuzz_$name" "$bindir/"; done
fi

# run_one NAME: fuzz it, write "RC WALL_SECONDS" to $out/NAME.rc; with
# FUZZ_KEEP_GOING=1 a harness that crashed starts again for the time left
# (each crash kept in $out/crashes/), RC the first failure
run_one() {
	local name=$1 dict=() start left rc first=0
	mkdir -p "$out/corpus/$name"
	[ -f "fuzz/dict/$name.dict" ] && dict=(-dict="fuzz/dict/$name.dict")
	start=$(date +%s)
	: >"$out/$name.log"
	while :; do
		left=$((seconds - ($(date +%s) - start)))
		# -close_fd_mask=3: the harness' own messages (bad input) are not shown;
		# libFuzzer and the sanitizers still report on stderr, kept in the log
		nice -n "${FUZZ_NICE:-19}" "$bindir/fuzz_$name" -max_total_time="$((left > 1 ? left : 1))" \
			-timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 -print_final_stats=1 \
			-error_exitcode=1 "${dict[@]}" -artifact_prefix="$out/crashes/$name-" \
			"$out/corpus/$name" "fuzz/corpus/$name" >>"$out/$name.log" 2>&1
		rc=$?
		[ $rc -ne 0 ] && [ $first -eq 0 ] && first=$rc
		[ $rc -ne 0 ] && [ "${FUZZ_KEEP_GOING:-0}" = 1 ] && [ ! -e "$out/$name.stop" ] &&
			[ $((seconds - ($(date +%s) - start))) -gt 5 ] || break
	done
	echo "$first $(($(date +%s) - start))" >"$out/$name.rc"
}

# summary NAME: one line; returns 1 when it failed
summary() {
	local name=$1 log=$out/$1.log rc wall runs files
	read -r rc wall <"$out/$name.rc" 2>/dev/null || { rc=? wall=?; }
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{ n += $1 } END { print n }')
	files=$(find "$out/corpus/$name" "fuzz/corpus/$name" -type f | wc -l)
	# 72/130/143: stopped by SIGINT/SIGTERM (libFuzzer still prints its stats)
	if [ "$rc" = 0 ] || { [ "${stopped:-0}" = 1 ] && ! grep -qE "ERROR: |runtime error" "$log"; }; then
		echo "$name: ${runs:-?} runs in ${wall}s, corpus $files files, no crash"
		return 0
	fi
	echo "$name: FAILED (exit $rc) after ${runs:-?} runs in ${wall}s; see $log:"
	grep -E "ERROR|runtime error|SUMMARY|Test unit written" "$log" | head -5 | sed 's/^/  /'
	return 1
}

failed=0 stopped=0
if [ "$parallel" = 1 ]; then
	pids=()
	for name in "${names[@]}"; do
		run_one "$name" &
		pids+=($!)
	done
	# on a signal: stop the harnesses (each prints its final stats), then summarise
	trap 'stopped=1; for n in "${names[@]}"; do : >"$out/$n.stop"; done
		for p in "${pids[@]}"; do pkill -INT -P "$p" 2>/dev/null; done' INT TERM
	for p in "${pids[@]}"; do
		while kill -0 "$p" 2>/dev/null; do wait "$p"; done
	done
	trap - INT TERM
	for n in "${names[@]}"; do rm -f "$out/$n.stop"; done
else
	for name in "${names[@]}"; do run_one "$name"; done
fi
for name in "${names[@]}"; do summary "$name" || failed=1; done
exit $failed
