#!/usr/bin/env bash
# fuzz/run.sh [SECONDS] [HARNESS...] — builds the harnesses (fuzz/build.sh)
# and runs each for SECONDS (60) of wall time, one after the other: all of
# them, or those named (units, csv, results, model, sim_spec, sim_ini, cli).
# Seeds are read from fuzz/corpus/NAME; what libFuzzer finds new is kept in
# $FUZZ_OUT/corpus/NAME (FUZZ_OUT: build-fuzz), a crashing input in
# $FUZZ_OUT/crashes/, the log of each harness in $FUZZ_OUT/NAME.log. Prints one
# line per harness (runs, seconds, result) and exits 1 when any crashed,
# leaked, hung or broke a sanitizer rule; 77 when clang/libFuzzer is missing.
set -u
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift $(($# > 0 ? 1 : 0))
names=("$@")
harnesses=$(fuzz/build.sh) || exit $?
[ ${#names[@]} -gt 0 ] || names=($(echo "$harnesses" | sed 's/^fuzz_//'))
out=${FUZZ_OUT:-build-fuzz}
mkdir -p "$out/crashes"
failed=0
for name in "${names[@]}"; do
	bin=build-fuzz/fuzz_$name
	[ -x "$bin" ] || { echo "fuzz/run.sh: no harness '$name'" >&2; exit 2; }
	mkdir -p "$out/corpus/$name"
	log=$out/$name.log
	dict=()
	[ -f "fuzz/dict/$name.dict" ] && dict=(-dict="fuzz/dict/$name.dict")
	# -close_fd_mask=3: the harness' own messages (bad input) are not shown;
	# libFuzzer and the sanitizers still report on stderr, kept in the log
	"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 \
		-print_final_stats=1 -error_exitcode=1 "${dict[@]}" \
		-artifact_prefix="$out/crashes/$name-" \
		"$out/corpus/$name" "fuzz/corpus/$name" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	if [ $rc -eq 0 ]; then
		echo "$name: ${runs:-?} runs in ${seconds}s, no crash"
	else
		failed=1
		echo "$name: FAILED (exit $rc) after ${runs:-?} runs; see $log:"
		grep -E "ERROR|runtime error|SUMMARY|Test unit written" "$log" | head -5 | sed 's/^/  /'
	fi
done
exit $failed
