#!/usr/bin/env bash
# check.sh — the whole test suite: installs what is missing, builds, runs the
# unit and end-to-end tests on the release build and again under
# AddressSanitizer + UndefinedBehaviorSanitizer (all but the reference-figure
# tests of suite 'accuracy', which the release build runs), and ends with one line
# "N passed, N failed, N skipped". Exit status 0 only when nothing failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
scripts/install-deps.sh || exit 1
scripts/build.sh release || exit 1
scripts/build.sh asan || exit 1

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
status=0 passed=0 failed=0 skipped=0
for dir in build build-asan; do
	echo "== tests on $dir"
	# the sanitizer build leaves out the reference-figure tests (tests/meson.build)
	only=(); [ "$dir" = build-asan ] && only=(--no-suite accuracy)
	meson test -C "$dir" --print-errorlogs --num-processes 2 "${only[@]}" | tee "$dir/check-summary.txt"
	[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
	count() { awk -v k="$1" '$0 ~ "^"k":" { n = $NF } END { print n + 0 }' "$dir/check-summary.txt"; }
	passed=$((passed + $(count Ok) + $(count "Expected Fail")))
	failed=$((failed + $(count Fail) + $(count "Unexpected Pass") + $(count Timeout)))
	skipped=$((skipped + $(count Skipped)))
done
# a run that counted nothing has failed, whatever meson said
[ $((passed + failed)) -gt 0 ] || status=1
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
