#!/usr/bin/env bash
# check.sh — the whole test suite: installs what is missing, builds, runs the
# unit and end-to-end tests on the release build and again under
# AddressSanitizer + UndefinedBehaviorSanitizer (all but the reference-figure
# tests of suite 'accuracy', which the release build runs), and ends with one line
# "N passed, N failed, N skipped". Exit status 0 only when nothing failed.
#
# Time (2 cores): the sanitizer build runs in the background (nice 10)
# during the release tests, the fuzz harnesses' clang build (fuzz/build.sh)
# during the sanitizer tests, each on the CPU the tests leave (beside the
# tests that run alone, which come first: tests/meson.build); the release
# build's `fuzz` test (suite 'fuzz') runs last, when its harnesses are built.
# Each phase's start is printed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
t0=$(date +%s)
phase() { echo "== $1 ($(($(date +%s) - t0)) s since the start)"; }
scripts/install-deps.sh || exit 1
phase "release build"
scripts/build.sh release || exit 1

# the background builds, their messages in logs shown when they fail
logs=$(mktemp -d "${TMPDIR:-/tmp}/iomodel-check.XXXXXX")
trap 'rm -rf "$logs"' EXIT
nice -n 10 scripts/build.sh asan >"$logs/asan" 2>&1 &
asan_build=$!
fuzz_build=
start_fuzz_build() {	# 77: no clang/libFuzzer; the fuzz test then skips and says why
	( nice -n 10 fuzz/build.sh >/dev/null; st=$?; [ $st -eq 0 ] || [ $st -eq 77 ] ) >"$logs/fuzz" 2>&1 &
	fuzz_build=$!
}
wait_build() {	# wait_build PID LOG WHAT
	wait "$1" && return 0
	cat "$2" >&2
	echo "check.sh: the $3 build failed" >&2
	wait	# the other background build: nothing left running
	exit 1
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
status=0 passed=0 failed=0 skipped=0
count() { awk -v k="$1" '$0 ~ "^"k":" { n = $NF } END { print n + 0 }' "$2"; }
for pass in release asan fuzz; do
	case $pass in
	release) dir=build; only=(--no-suite fuzz) ;;
	asan)
		phase "waiting for the sanitizer build"
		wait_build "$asan_build" "$logs/asan" sanitizer
		start_fuzz_build	# beside the sanitizer pass's tests that run alone
		# the sanitizer build leaves out the reference-figure tests (tests/meson.build);
		# its tests run 2-5x slower, so twice the timeouts
		dir=build-asan; only=(--no-suite accuracy --timeout-multiplier 2) ;;
	fuzz)
		phase "waiting for the fuzz harnesses' build"
		wait_build "$fuzz_build" "$logs/fuzz" "fuzz harnesses'"
		dir=build; only=(--suite fuzz --logbase testlog-fuzz) ;;
	esac
	phase "tests on $dir${only[*]:+ (${only[*]})}"
	summary=$dir/check-summary-$pass.txt
	meson test -C "$dir" --print-errorlogs --num-processes 2 "${only[@]}" | tee "$summary"
	[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
	passed=$((passed + $(count Ok "$summary") + $(count "Expected Fail" "$summary")))
	failed=$((failed + $(count Fail "$summary") + $(count "Unexpected Pass" "$summary") +
		$(count Timeout "$summary")))
	skipped=$((skipped + $(count Skipped "$summary")))
done
phase "done"
# a run that counted nothing has failed, whatever meson said
[ $((passed + failed)) -gt 0 ] || status=1
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
