#!/usr/bin/env bash
# safety_file.sh — iomodel and regular files: an existing non-empty file is
# never written without --destroy-data (checksum unchanged, one line on
# stderr, exit 2) and never removed, even with it; a file created by the run
# is removed afterwards unless --keep; a target in a missing directory is
# refused and nothing is created; a new file can be read.
# Env: IOMODEL = path to the iomodel binary.
# Exit status: 0 pass, 1 fail, 77 skip (the reason is printed).
# pass always succeeds, so "test && pass || fail" is an if-else; cleanup runs from a trap
# shellcheck disable=SC2015,SC2317
set -u

. "$(dirname "$0")/lib.sh"

# /var/tmp: a disk filesystem (O_DIRECT works), unlike a tmpfs /tmp on some systems
WORK=$(mktemp -d /var/tmp/iomodel-safety-file.XXXXXX) || skip "cannot make a directory in /var/tmp"
trap 'rm -rf "$WORK"' EXIT
trap 'exit 1' INT TERM

WRITE=(--rw randwrite --bs 4k --qd 4 --ios 100)
READ=(--rw randread --bs 4k --qd 4 --ios 100)


# expect_status WHAT CODE: the last run exited CODE
expect_status() {
	[ "$RC" = "$2" ] && pass "$1: exit $2" || fail "$1: exit $RC, expected $2: $(cat "$WORK/err")"
}

# expect_one_line WHAT NEEDLE: stderr is one "iomodel: " line containing NEEDLE
expect_one_line() {
	if [ "$(wc -l <"$WORK/err")" = 1 ] && grep -q '^iomodel: ' "$WORK/err" &&
	   grep -qF -- "$2" "$WORK/err"; then
		pass "$1: says: $(cat "$WORK/err")"
	else
		fail "$1: stderr should be one 'iomodel: ' line naming '$2', got: $(cat "$WORK/err")"
	fi
}

echo "# existing non-empty file"
USER_FILE=$WORK/user-data
head -c 4M /dev/urandom >"$USER_FILE" || skip "cannot write in /var/tmp"
before=$(checksum "$USER_FILE")
run_iomodel run --target "$USER_FILE" "${WRITE[@]}"
expect_status "write without --destroy-data" 2
expect_one_line "write without --destroy-data" "--destroy-data"
[ "$(checksum "$USER_FILE")" = "$before" ] && pass "write without --destroy-data: file unchanged" ||
	fail "write without --destroy-data: the file changed"

run_iomodel run --target "$USER_FILE" "${WRITE[@]}" --size 8M --destroy-data
expect_status "--size larger than the file" 2
expect_one_line "--size larger than the file" "less than --size"

run_iomodel run --target "$USER_FILE" "${READ[@]}"
expect_status "read of the existing file" 0
[ "$(checksum "$USER_FILE")" = "$before" ] && pass "read of the existing file: file unchanged" ||
	fail "read of the existing file: the file changed"

run_iomodel run --target "$USER_FILE" "${WRITE[@]}" --destroy-data
expect_status "write with --destroy-data" 0
if [ -f "$USER_FILE" ] && [ "$(stat -c %s "$USER_FILE")" = $((4 << 20)) ]; then
	pass "write with --destroy-data: the file is still there, same size (not created by the run)"
else
	fail "write with --destroy-data: the user's file was removed or resized"
fi
[ "$(checksum "$USER_FILE")" != "$before" ] && pass "write with --destroy-data: the data was written" ||
	fail "write with --destroy-data: the file did not change"

echo "# existing empty file: not free space without --destroy-data"
EMPTY=$WORK/empty
: >"$EMPTY"
for rw in randread randwrite; do
	run_iomodel run --target "$EMPTY" --rw "$rw" --bs 4k --ios 10 --size 8M
	expect_status "$rw of an existing empty file" 2
	expect_one_line "$rw of an existing empty file" "--destroy-data"
	[ "$(stat -c %s "$EMPTY")" = 0 ] && pass "$rw of an existing empty file: still empty" ||
		fail "$rw of an existing empty file: it was written"
done
run_iomodel run --target "$EMPTY" "${WRITE[@]}" --size 8M --destroy-data
expect_status "write to an empty file with --destroy-data" 0
[ -f "$EMPTY" ] && pass "empty file: still there after the run (the user made it)" ||
	fail "empty file: removed by the run"

echo "# files created by the run"
NEW=$WORK/new
run_iomodel run --target "$NEW" "${WRITE[@]}" --size 8M
expect_status "write to a new file" 0
[ ! -e "$NEW" ] && pass "new file: removed after the run" || fail "new file: left behind"

run_iomodel run --target "$NEW" "${WRITE[@]}" --size 8M --keep
expect_status "write to a new file with --keep" 0
if [ -f "$NEW" ] && [ "$(stat -c %s "$NEW")" = $((8 << 20)) ]; then
	pass "new file with --keep: kept, 8 MiB"
else
	fail "new file with --keep: missing or wrong size"
fi
rm -f "$NEW"

run_iomodel run --target "$NEW" "${READ[@]}" --size 8M
expect_status "read of a new file" 0
[ ! -e "$NEW" ] && pass "read of a new file: removed after the run" || fail "read of a new file: left behind"

echo "# refused targets"
for missing in /nonexistent-dir/x "$WORK/missing/x"; do
	dir=${missing%/*}
	if [ -e "$dir" ]; then
		echo "skip: '$dir' exists here"
		continue
	fi
	run_iomodel run --target "$missing" "${WRITE[@]}" --size 8M
	expect_status "target in missing directory $dir" 2
	expect_one_line "target in missing directory $dir" "$missing"
	[ ! -e "$dir" ] && pass "target in missing directory $dir: nothing created" ||
		fail "target in missing directory: '$dir' was created"
done

run_iomodel run --target "$WORK" "${READ[@]}"
expect_status "directory as target" 2
expect_one_line "directory as target" "not a regular file or block device"

echo "# kernel interfaces and device nodes: never written, nothing created"
# harmless pseudo-files only; a write here would change a kernel setting
for pseudo in /proc/sys/kernel/domainname /sys/kernel/uevent_seqnum; do
	[ -r "$pseudo" ] || { echo "skip: no $pseudo here"; continue; }
	before=$(checksum "$pseudo")
	for args in "--rw randread" "--rw randwrite --destroy-data"; do
		# shellcheck disable=SC2086
		run_iomodel run --target "$pseudo" $args --size 1m --ios 1
		expect_status "$pseudo, $args" 2
		expect_one_line "$pseudo, $args" "a kernel interface, not storage"
	done
	[ "$(checksum "$pseudo")" = "$before" ] && pass "$pseudo: content unchanged" ||
		fail "$pseudo: content changed"
done
run_iomodel run --target /dev/null "${WRITE[@]}" --destroy-data
expect_status "character device /dev/null" 2
expect_one_line "character device /dev/null" "is a character device"
mkfifo "$WORK/fifo"
run_iomodel run --target "$WORK/fifo" "${READ[@]}"
expect_status "fifo (must not block)" 2
expect_one_line "fifo" "is a fifo"
for typo in /dev/iomodel-typo /proc/iomodel-typo /sys/iomodel-typo; do
	[ -e "$typo" ] && { echo "skip: '$typo' exists"; continue; }
	run_iomodel run --target "$typo" "${WRITE[@]}" --size 1m
	expect_status "new file $typo" 2
	expect_one_line "new file $typo" "refusing to create '$typo'"
	[ ! -e "$typo" ] && pass "new file $typo: not created" || { fail "new file $typo: created"; rm -f "$typo"; }
done

finish
