#!/usr/bin/env bash
# fuzz.sh — every libFuzzer harness of fuzz/ (CSV, result JSON, model JSON,
# sim specs, INI files, units, command line, replay traces, raid options)
# replays its seeds, earlier crashes among them, then fuzzes for a bounded
# time (FUZZ_SECONDS, 2 s), all harnesses at once, in a directory of its own
# (kept when something failed). Skipped, with the reason, where clang or
# libFuzzer is missing.
set -u
. "$(dirname "$0")/lib.sh"
root=$(cd "${TESTS_DIR:-$(dirname "$0")/..}/.." && pwd)
seconds=${FUZZ_SECONDS:-2}
out=$(mktemp -d "${TMPDIR:-/tmp}/iomodel-fuzz.XXXXXX")
FUZZ_OUT=$out FUZZ_PARALLEL=1 "$root/fuzz/run.sh" "$seconds" >"$out/summary" 2>&1
status=$?
cat "$out/summary"
[ $status -eq 77 ] && { rm -rf "$out"; skip "fuzz/build.sh could not build the harnesses (see above)"; }
ok "every harness ran ${seconds}s without a crash, hang, leak or sanitizer report" [ $status -eq 0 ]
for name in units csv results model sim_spec sim_ini cli trace raid; do
	ok "harness $name ran" grep -q "^$name: .* runs in" "$out/summary"
done
[ $status -eq 0 ] && rm -rf "$out" || echo "logs and crashing inputs kept in $out"
finish
