#!/usr/bin/env bash
# safety_stacked.sh — block devices stacked on or under something in use are
# refused like mounted ones, even with --destroy-data, and no byte of them
# changes; the same stacks with nothing in use are still measured:
#   (a) loop over loop: the lower loop is mounted      → upper refused
#   (b) loop over loop: the upper loop is mounted      → lower refused
#   (c) two loops on one image file, one mounted       → the other refused,
#       and the image file itself refused as a target
#   (d) an active swap file as a loop's backing file   → loop refused, and
#       the swap file itself refused as a target
#   (e) control: loop over an unmounted loop, written with --destroy-data
# Needs root, losetup, mkfs.ext4, mkswap, swapon. Cleans up (umount, swapoff,
# losetup -d) from a trap, also on failure.
# Exit status: 0 pass, 1 fail, 77 skip (the reason is printed).
# pass always succeeds, so "test && pass || fail" is an if-else; cleanup runs from a trap
# shellcheck disable=SC2015,SC2317
set -u

. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root to attach loop devices"
for tool in losetup mkfs.ext4 mount; do
	command -v "$tool" >/dev/null || skip "$tool is not installed"
done

LOOPS=()
MOUNTS=()
SWAPS=()
WORK=$(mktemp -d /var/tmp/iomodel-safety-stacked.XXXXXX) || skip "cannot make a directory in /var/tmp"

cleanup() {
	local i
	for m in "${MOUNTS[@]}"; do mountpoint -q "$m" && umount "$m"; done
	for s in "${SWAPS[@]}"; do swapoff "$s" 2>/dev/null; done
	for ((i = ${#LOOPS[@]} - 1; i >= 0; i--)); do losetup -d "${LOOPS[i]}" 2>/dev/null; done
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# attach BACKING [losetup options]: sets DEV
attach() {
	DEV=$(losetup -f --show "${@:2}" "$1" 2>"$WORK/losetup.err") || return 1
	LOOPS+=("$DEV")
}

# mount_ext4 DEV NAME: make an idle ext4 (no lazy init) on DEV and mount it;
# syncfs commits the mount's own journal write now, not up to 5 s later
# while a check sums the device
mount_ext4() {
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$1" >/dev/null 2>&1 || return 1
	mkdir -p "$WORK/$2"
	mount -o noatime "$1" "$WORK/$2" 2>"$WORK/mount.err" || return 1
	sync -f "$WORK/$2"
	MOUNTS+=("$WORK/$2")
	MNT=$WORK/$2
}


# expect_refused WHAT TARGET NEEDLE: refused for a write with --destroy-data
# and for a read: exit 2, one "iomodel: " line naming NEEDLE, no byte changed
expect_refused() {
	local what=$1 target=$2 needle=$3 before args
	before=$(checksum "$target")
	for args in "--rw randwrite --destroy-data" "--rw randread"; do
		# shellcheck disable=SC2086
		run_iomodel run --target "$target" $args --bs 4k --ios 50 --size 1m
		[ "$RC" = 2 ] && pass "$what, $args: exit 2" || fail "$what, $args: exit $RC, expected 2"
		if [ "$(wc -l <"$WORK/err")" = 1 ] && grep -qF -- "$needle" "$WORK/err"; then
			pass "$what: says: $(cat "$WORK/err")"
		else
			fail "$what: stderr should be one line naming '$needle', got: $(cat "$WORK/err")"
		fi
	done
	[ "$(checksum "$target")" = "$before" ] && pass "$what: no byte changed" ||
		fail "$what: '$target' changed"
}

truncate -s 32M "$WORK/lower.img" "$WORK/shared.img" "$WORK/free.img" || skip "cannot write in /var/tmp"

echo "# (a) loop over loop, the lower one mounted"
attach "$WORK/lower.img" || skip "losetup failed: $(cat "$WORK/losetup.err")"
LOWER=$DEV
attach "$LOWER" || skip "losetup of a loop device failed: $(cat "$WORK/losetup.err")"
UPPER=$DEV
mount_ext4 "$LOWER" lower || skip "cannot mount ext4 on $LOWER: $(cat "$WORK/mount.err")"
expect_refused "(a) $UPPER over mounted $LOWER" "$UPPER" "${LOWER#/dev/} (a backing device below it) is mounted at $MNT"
umount "$MNT"

echo "# (b) loop over loop, the upper one mounted"
mount_ext4 "$UPPER" upper || skip "cannot mount ext4 on $UPPER: $(cat "$WORK/mount.err")"
expect_refused "(b) $LOWER under mounted $UPPER" "$LOWER" "${UPPER#/dev/} (a loop device stacked on it) is mounted at $MNT"
umount "$MNT"

echo "# (c) one image file behind two loop devices, one mounted"
attach "$WORK/shared.img" && MOUNTED=$DEV && mount_ext4 "$MOUNTED" shared ||
	skip "cannot mount the shared image: $(cat "$WORK/mount.err" "$WORK/losetup.err")"
if attach "$WORK/shared.img"; then
	expect_refused "(c) second loop $DEV on the image of mounted $MOUNTED" "$DEV" \
		"${MOUNTED#/dev/} (on the same backing file) is mounted at $MNT"
else
	echo "skip: (c) losetup refuses a second loop on one file here"
fi
expect_refused "(c) the image file of mounted $MOUNTED" "$WORK/shared.img" \
	"${MOUNTED#/dev/} (backed by it) is mounted at $MNT"

echo "# (d) an active swap file"
if ! command -v mkswap >/dev/null || ! command -v swapon >/dev/null; then
	echo "skip: (d) mkswap or swapon is not installed"
elif ! { dd if=/dev/zero of="$WORK/swap.file" bs=1M count=16 status=none &&
	 chmod 600 "$WORK/swap.file" && mkswap "$WORK/swap.file" >/dev/null 2>&1 &&
	 swapon "$WORK/swap.file" 2>"$WORK/swapon.err"; }; then
	echo "skip: (d) swapon of a file failed here: $(cat "$WORK/swapon.err" 2>/dev/null)"
else
	SWAPS+=("$WORK/swap.file")
	expect_refused "(d) the active swap file itself" "$WORK/swap.file" "in use as swap"
	if attach "$WORK/swap.file" -r; then
		expect_refused "(d) loop $DEV on the active swap file" "$DEV" "in use as swap"
	else
		echo "skip: (d) losetup refuses an active swap file here: $(cat "$WORK/losetup.err")"
	fi
	swapoff "$WORK/swap.file"
fi

echo "# (e) control: the same stack with nothing in use is measured"
attach "$WORK/free.img" && FREE=$DEV && attach "$FREE" || skip "losetup failed"
run_iomodel run --target "$DEV" --rw randwrite --bs 4k --ios 50 --destroy-data
[ "$RC" = 0 ] && pass "(e) $DEV over unmounted $FREE: written with --destroy-data" ||
	fail "(e) $DEV over unmounted $FREE: exit $RC: $(cat "$WORK/err")"
run_iomodel run --target "$WORK/free.img" --rw randread --bs 4k --ios 50
[ "$RC" = 0 ] && pass "(e) the image of an unmounted loop: read" ||
	fail "(e) the image of an unmounted loop: exit $RC: $(cat "$WORK/err")"
finish
