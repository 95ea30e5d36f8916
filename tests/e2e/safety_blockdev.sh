#!/usr/bin/env bash
# safety_blockdev.sh — iomodel must not change a byte of a block device it was
# not allowed to write, and must never touch one that is in use. Proven on loop
# devices by comparing sha256sum of the whole device before and after:
#   (a) write without --destroy-data on a blank device: refused, exit 2
#   (b) write without --destroy-data on an ext4 device: refused, names ext4
#   (c) mounted device: refused even with --destroy-data, and for reads
#   (d) device with a holder (device-mapper): refused (skipped without dm)
#   (e) write with --destroy-data on an unmounted blank device: runs, data changes
# Needs root and loop devices. Env: IOMODEL = path to the iomodel binary.
# Exit status: 0 pass, 1 fail, 77 skip (the reason is printed).
# pass always succeeds, so "test && pass || fail" is an if-else; cleanup runs from a trap
# shellcheck disable=SC2015,SC2317
set -u

. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root to attach loop devices"
command -v losetup >/dev/null || skip "losetup is not installed"

LOOP_MB=32
LOOPS=()
DM_NAME=
WORK=$(mktemp -d /var/tmp/iomodel-safety-blockdev.XXXXXX) || skip "cannot make a directory in /var/tmp"
MNT=$WORK/mnt
mkdir "$MNT"

cleanup() {
	if mountpoint -q "$MNT"; then
		fsfreeze -u "$MNT" 2>/dev/null
		umount "$MNT"
	fi
	[ -n "$DM_NAME" ] && dmsetup remove "$DM_NAME" 2>/dev/null
	for dev in "${LOOPS[@]}"; do
		losetup -d "$dev"
	done
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# new_loop NAME: attach a fresh zero-filled backing file of LOOP_MB MiB; sets DEV
new_loop() {
	local img=$WORK/$1.img

	truncate -s "${LOOP_MB}M" "$img" || return 1
	DEV=$(losetup -f --show "$img" 2>"$WORK/losetup.err") || return 1
	LOOPS+=("$DEV")
}


# expect_refused WHAT DEV NEEDLE ARGS...: exit 2, one "iomodel: " line naming
# NEEDLE on stderr, and no byte of DEV changed
expect_refused() {
	local what=$1 dev=$2 needle=$3 before after
	shift 3

	before=$(checksum "$dev")
	run_iomodel run --target "$dev" "$@"
	[ "$RC" = 2 ] && pass "$what: exit 2" || fail "$what: exit $RC, expected 2"
	if [ "$(wc -l <"$WORK/err")" = 1 ] && grep -q '^iomodel: ' "$WORK/err" &&
	   grep -qF -- "$needle" "$WORK/err"; then
		pass "$what: says: $(cat "$WORK/err")"
	else
		fail "$what: stderr should be one 'iomodel: ' line naming '$needle', got: $(cat "$WORK/err")"
	fi
	after=$(checksum "$dev")
	[ "$before" = "$after" ] && pass "$what: no byte changed" ||
		fail "$what: the device changed ($before -> $after)"
}

WRITE=(--rw randwrite --bs 4k --qd 4 --ios 100)
READ=(--rw randread --bs 4k --qd 4 --ios 100)

new_loop blank || skip "losetup failed: $(cat "$WORK/losetup.err")"
BLANK=$DEV
echo "# (a) blank device $BLANK, no --destroy-data"
expect_refused "(a) randwrite" "$BLANK" "add --destroy-data" "${WRITE[@]}"
expect_refused "(a) sequential write" "$BLANK" "add --destroy-data" --rw write --bs 64k --ios 10
expect_refused "(a) randrw" "$BLANK" "add --destroy-data" --rw randrw --bs 4k --ios 100
before=$(checksum "$BLANK")
run_iomodel run --target "$BLANK" "${READ[@]}"
[ "$RC" = 0 ] && pass "(a) randread needs no flag" || fail "(a) randread: exit $RC: $(cat "$WORK/err")"
[ "$(checksum "$BLANK")" = "$before" ] && pass "(a) randread changed no byte" ||
	fail "(a) randread changed the device"

echo "# (b) and (c) ext4 device"
if ! command -v mkfs.ext4 >/dev/null; then
	echo "skip: (b), (c): mkfs.ext4 is not installed"
elif ! new_loop ext4; then
	echo "skip: (b), (c): losetup failed: $(cat "$WORK/losetup.err")"
else
	EXT4=$DEV
	# no lazy init: a mounted ext4 then leaves its device alone while idle
	mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$EXT4" ||
		fail "(b) mkfs.ext4 $EXT4 failed"
	expect_refused "(b) randwrite on ext4" "$EXT4" "ext4" "${WRITE[@]}"
	if mount "$EXT4" "$MNT" 2>"$WORK/mount.err"; then
		# A mounted ext4 writes its journal and superblock on its own; freeze it
		# (or, without fsfreeze, remount it read-only) so that any change to the
		# device can only come from iomodel. Either way it stays mounted.
		fsfreeze -f "$MNT" 2>/dev/null || mount -o remount,ro "$MNT" ||
			fail "(c) cannot quiesce the filesystem on $EXT4"
		expect_refused "(c) mounted, randwrite --destroy-data" "$EXT4" "mounted at $MNT" \
			"${WRITE[@]}" --destroy-data
		expect_refused "(c) mounted, randread" "$EXT4" "mounted at $MNT" "${READ[@]}"
		expect_refused "(c) mounted, write --destroy-data" "$EXT4" "mounted" \
			--rw write --bs 1m --ios 4 --destroy-data
		fsfreeze -u "$MNT" 2>/dev/null
		umount "$MNT"
	else
		echo "skip: (c): mount failed: $(cat "$WORK/mount.err")"
	fi
fi

echo "# (d) device with a holder"
if ! command -v dmsetup >/dev/null; then
	echo "skip: (d): no dmsetup; making a holder needs device-mapper (or md)"
elif ! new_loop held; then
	echo "skip: (d): losetup failed: $(cat "$WORK/losetup.err")"
elif ! dmsetup create "iomodel-test-$$" --table "0 $((LOOP_MB * 2048)) linear $DEV 0" \
		2>"$WORK/dm.err"; then
	echo "skip: (d): device-mapper is not usable here: $(head -1 "$WORK/dm.err")"
else
	DM_NAME=iomodel-test-$$
	expect_refused "(d) held, randread" "$DEV" "held by" "${READ[@]}"
	expect_refused "(d) held, randwrite --destroy-data" "$DEV" "held by" \
		"${WRITE[@]}" --destroy-data
fi

echo "# (e) blank device $BLANK with --destroy-data"
before=$(checksum "$BLANK")
run_iomodel run --target "$BLANK" "${WRITE[@]}" --destroy-data
[ "$RC" = 0 ] && pass "(e) randwrite --destroy-data: exit 0" ||
	fail "(e) randwrite --destroy-data: exit $RC: $(cat "$WORK/err")"
[ "$(checksum "$BLANK")" != "$before" ] && pass "(e) the device content changed" ||
	fail "(e) the device content did not change"
[ -b "$BLANK" ] && pass "(e) the device node is still there" || fail "(e) $BLANK is gone"

finish
