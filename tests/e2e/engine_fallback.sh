#!/usr/bin/env bash
# engine_fallback.sh — when the kernel refuses io_uring, the default engine
# falls back to libaio with a notice on stderr, and the results name the
# engine that really ran. io_uring is switched off for the test with the
# kernel.io_uring_disabled sysctl (Linux 6.6+) and restored afterwards.
set -u
. "$(dirname "$0")/lib.sh"
knob=/proc/sys/kernel/io_uring_disabled
work=$(scratch_dir)
saved=
restore() {
	[ -n "$saved" ] && echo "$saved" >"$knob"
	rm -rf "$work"
}
trap restore EXIT

[ -w "$knob" ] || skip "cannot switch io_uring off here ($knob missing or not writable)"
saved=$(cat "$knob")
echo 2 >"$knob" || skip "the kernel refused to switch io_uring off"

"$IOMODEL" run --target "$work/f.bin" --size 8m --ios 200 --json >"$work/r.json" 2>"$work/r.err"
status=$?
echo "$saved" >"$knob"
ok "run without io_uring exits 0 (got $status)" [ "$status" -eq 0 ]
ok "notice names the fallback: $(cat "$work/r.err")" grep -q "notice: io_uring unavailable.*using libaio" "$work/r.err"
ok "results name libaio" [ "$(json "$work/r.json" 'd["job"]["engine"]')" = libaio ]
ok "all 200 IOs done" [ "$(json "$work/r.json" 'd["results"][0]["ios"]')" = 200 ]
finish
