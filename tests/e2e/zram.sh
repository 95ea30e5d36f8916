#!/usr/bin/env bash
# zram.sh — runs on a real block device: the zram disk, sized here when it is
# free, refused for writes without --destroy-data, measured with each engine.
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
dev=/dev/zram0
sized_here=0
cleanup() {
	[ "$sized_here" = 1 ] && echo 1 >/sys/block/zram0/reset 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

[ -b "$dev" ] || skip "no $dev on this machine (zram module not loaded)"
[ -w /sys/block/zram0/disksize ] || skip "cannot configure zram0 (needs root)"
if [ "$(cat /sys/block/zram0/disksize)" = 0 ]; then
	echo 256M >/sys/block/zram0/disksize 2>/dev/null || skip "cannot size zram0"
	sized_here=1
else
	grep -q "^$dev " /proc/swaps && skip "$dev is in use as swap"
	[ -z "$(lsblk -no MOUNTPOINT "$dev" 2>/dev/null)" ] || skip "$dev is mounted"
	[ "$(blkid -p "$dev" >/dev/null 2>&1; echo $?)" = 2 ] || skip "$dev holds data (a signature); not touching it"
fi

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
ok "device still there" [ -b "$dev" ]
finish
