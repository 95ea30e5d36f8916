#!/usr/bin/env bash
# fuzz.sh — every libFuzzer harness of fuzz/ (CSV, result JSON, model JSON,
# sim specs, INI files, units, command line) replays its seeds, earlier
# crashes among them, then fuzzes for a bounded time (FUZZ_SECONDS, 2 s
# each). Skipped, with the reason, where clang or libFuzzer is missing.
set -u
. "$(dirname "$0")/lib.sh"
root=$(cd "${TESTS_DIR:-$(dirname "$0")/..}/.." && pwd)
seconds=${FUZZ_SECONDS:-2}
"$root/fuzz/run.sh" "$seconds" >"${TMPDIR:-/tmp}/iomodel-fuzz.$$" 2>&1
status=$?
cat "${TMPDIR:-/tmp}/iomodel-fuzz.$$"
rm -f "${TMPDIR:-/tmp}/iomodel-fuzz.$$"
[ $status -eq 77 ] && skip "fuzz/build.sh could not build the harnesses (see above)"
ok "every harness ran ${seconds}s without a crash, hang, leak or sanitizer report" [ $status -eq 0 ]
for name in units csv results model sim_spec sim_ini cli; do
	ok "harness $name exists" [ -x "$root/build-fuzz/fuzz_$name" ]
done
finish
