#!/usr/bin/env bash
# check.sh — the whole test suite: installs what is missing, builds, runs the
# unit and end-to-end tests on the release build and again under
# AddressSanitizer + UndefinedBehaviorSanitizer (all but the reference-figure
# tests of suite 'accuracy', which the release build runs), and ends with one line
# "N passed, N failed, N skipped". Exit status 0 only when nothing failed.
#
# Time (2 cores): the sanitizer build and the fuzz harnesses' clang build
# (fuzz/build.sh, for the release pass's `fuzz` test) are compiled at nice 10
# while the release tests run, on the CPU those leave (beside the tests that
# run alone, tests/meson.build); each phase's wall time is printed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
t0=$(date +%s)
phase() { echo "== $1 ($(($(date +%s) - t0)) s since the start)"; }
scripts/install-deps.sh || exit 1
phase "release build"
scripts/build.sh release || exit 1

# the background builds: sanitizer tree, then the fuzz harnesses; their
# messages in a log, shown when they fail
bg_log=$(mktemp "${TMPDIR:-/tmp}/iomodel-check-build.XXXXXX")
trap 'rm -f "$bg_log"' EXIT
(
	nice -n 10 scripts/build.sh asan || exit 1
	# 77: no clang/libFuzzer; the fuzz test then skips and says why
	nice -n 10 fuzz/build.sh >/dev/null
	st=$?; [ $st -eq 0 ] || [ $st -eq 77 ]
) >"$bg_log" 2>&1 &
bg=$!

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
status=0 passed=0 failed=0 skipped=0
for dir in build build-asan; do
	only=()
	if [ "$dir" = build-asan ]; then
		phase "waiting for the sanitizer build"
		wait "$bg" || { cat "$bg_log" >&2; echo "check.sh: the sanitizer or fuzz build failed" >&2; exit 1; }
		# the sanitizer build leaves out the reference-figure tests (tests/meson.build);
		# its tests run 2-5x slower, so twice the timeouts
		only=(--no-suite accuracy --timeout-multiplier 2)
	fi
	phase "tests on $dir"
	meson test -C "$dir" --print-errorlogs --num-processes 2 "${only[@]}" | tee "$dir/check-summary.txt"
	[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
	count() { awk -v k="$1" '$0 ~ "^"k":" { n = $NF } END { print n + 0 }' "$dir/check-summary.txt"; }
	passed=$((passed + $(count Ok) + $(count "Expected Fail")))
	failed=$((failed + $(count Fail) + $(count "Unexpected Pass") + $(count Timeout)))
	skipped=$((skipped + $(count Skipped)))
done
phase "done"
# a run that counted nothing has failed, whatever meson said
[ $((passed + failed)) -gt 0 ] || status=1
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
