#!/usr/bin/env bash
# zram.sh — runs on a real block device: a zram disk added for the test and
# removed after it, refused for writes without --destroy-data, measured with each engine.
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
dev=
cleanup() {
	[ -n "$dev" ] && zram_remove "$dev"
	rm -rf "$work"
}
trap cleanup EXIT

# A zram device of our own (hot_add), so no zram disk someone else set up is touched.
dev=$(zram_add 64M) || { why=$dev; dev=; skip "$why"; }

before=$(sha256sum <"$dev")
status=$(run_status "$IOMODEL" run --target "$dev" --rw randwrite --ios 100)
ok "write without --destroy-data refused with status 2 (got $status)" [ "$status" -eq 2 ]
ok "refusal asks for --destroy-data" grep -q -- "--destroy-data" "$work/err"
ok "device unchanged" [ "$(sha256sum <"$dev")" = "$before" ]

for engine in io_uring libaio psync; do
	"$IOMODEL" run --target "$dev" --rw randwrite --bs 4k --qd 16 --ios 5000 --engine "$engine" \
		--destroy-data --json >"$work/w-$engine.json" 2>/dev/null
	ok "$engine: randwrite with --destroy-data exits 0" [ $? -eq 0 ]
	ok "$engine: 5000 writes" [ "$(json "$work/w-$engine.json" 'd["results"][0]["ios"]')" = 5000 ]
	"$IOMODEL" run --target "$dev" --rw randread --bs 4k --qd 16 --ios 5000 --engine "$engine" \
		--json >"$work/r-$engine.json" 2>/dev/null
	ok "$engine: randread exits 0" [ $? -eq 0 ]
	ok "$engine: target kind block" [ "$(json "$work/r-$engine.json" 'd["target"]["kind"]')" = block ]
	ok "$engine: size is the device's" [ "$(json "$work/r-$engine.json" 'd["target"]["size_bytes"]')" = "$(blockdev --getsize64 "$dev")" ]
done
# io_uring on zram: the kernel hands each IO to a worker thread; when it
# does, the results must say so (stderr and JSON agree)
"$IOMODEL" run --target "$dev" --ios 2000 --json >"$work/n.json" 2>"$work/n.err"
notices=$(json "$work/n.json" 'len(d["notices"])')
ok "notices in the JSON match the notice on stderr ($notices)" \
	[ "$notices" = "$(grep -c "notice: io_uring handed" "$work/n.err")" ]
ok "device still there" [ -b "$dev" ]
finish
