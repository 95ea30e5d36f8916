# shellcheck shell=bash disable=SC2034  # sets variables for the sourcing script
# lib.sh — shared by the bench/ scripts (sourced, not run): tool checks and
# the read targets both tools measure — /dev/zram0 when it is free, otherwise
# a 1 GiB file on /var/tmp; and a 1 GiB file on the project's filesystem —
# filled once with incompressible data.
#
# After setup_target: TARGET_PATH (what both tools open), TARGET_KIND
# (block|file), TARGET_DESC (one line for the report). Call cleanup_target
# at exit: it resets zram0 only when setup_target sized it. setup_bench_file
# sets up the 1 GiB file of vs-fio.sh's file cases (FILE_PATH, FILE_DESC).

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$BENCH_DIR/.." && pwd)
IOMODEL=${IOMODEL:-$REPO_DIR/build/iomodel}
FIO=${FIO:-fio}
ZRAM=/dev/zram0
ZRAM_SYS=/sys/block/zram0
FALLBACK_FILE=${FALLBACK_FILE:-/var/tmp/iomodel-vs-fio.dat}
TARGET_SIZE_MIB=1024
zram_sized_here=0

die() {
	echo "$(basename "$0"): $*" >&2
	exit 2
}

note() {
	echo "$*" >&2
}

# need_tools: fio, python3 and a built iomodel must be there; nothing is installed.
need_tools() {
	command -v "$FIO" >/dev/null ||
		die "fio not found (Debian: apt-get install fio; or set FIO=/path/to/fio)"
	command -v python3 >/dev/null ||
		die "python3 not found (Debian: apt-get install python3)"
	[ -x "$IOMODEL" ] ||
		die "$IOMODEL not found: build it first with $REPO_DIR/scripts/build.sh (or set IOMODEL=)"
	IOMODEL=$(realpath "$IOMODEL")
	if [ -n "${IOMODEL_BASE:-}" ]; then
		[ -x "$IOMODEL_BASE" ] || die "IOMODEL_BASE=$IOMODEL_BASE is not an executable"
		IOMODEL_BASE=$(realpath "$IOMODEL_BASE")
	fi
	[ "$(id -u)" = 0 ] || die "needs root (zram setup, O_DIRECT reads of a block device)"
	if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" != 0 ]; then
		note "warning: io_uring is disabled (kernel.io_uring_disabled); the io_uring cases will fail"
	fi
}

# zram_busy: why /dev/zram0 cannot be used as it is (empty output: it can).
zram_busy() {
	if grep -q "^$ZRAM " /proc/swaps; then
		echo "in use as swap"
	elif [ -n "$(lsblk -no MOUNTPOINTS "$ZRAM" 2>/dev/null | tr -d '[:space:]')" ]; then
		echo "mounted"
	elif [ -n "$(ls -A "$ZRAM_SYS/holders" 2>/dev/null)" ]; then
		echo "held by $(echo "$ZRAM_SYS"/holders/* | xargs -n1 basename | tr '\n' ' ')"
	elif blkid -p "$ZRAM" >/dev/null 2>&1; then
		echo "carries a signature ($(blkid -p -o value -s TYPE "$ZRAM" 2>/dev/null || echo '?'))"
	fi
}

# zram_full_of_random: every page of the device is stored and none compressed
# (mm_stat: orig_data_size == disksize and compr_data_size >= 90 % of it).
zram_full_of_random() {
	local size orig compr
	size=$(cat "$ZRAM_SYS/disksize")
	read -r orig compr _ <"$ZRAM_SYS/mm_stat"
	[ "$orig" = "$size" ] && [ $((compr * 10)) -ge $((orig * 9)) ]
}

# fill_random PATH MIB: write MIB MiB of /dev/urandom to PATH with O_DIRECT.
fill_random() {
	note "filling $1 with $2 MiB of incompressible data (once)"
	dd if=/dev/urandom of="$1" bs=1M count="$2" oflag=direct status=none
}

setup_zram() {
	if [ "$(cat "$ZRAM_SYS/disksize")" = 0 ]; then
		echo "${TARGET_SIZE_MIB}M" >"$ZRAM_SYS/disksize"
		zram_sized_here=1
		fill_random "$ZRAM" "$TARGET_SIZE_MIB"
	elif [ "${FILL:-0}" = 1 ] || ! zram_full_of_random; then
		fill_random "$ZRAM" $(($(cat "$ZRAM_SYS/disksize") / 1048576))
	else
		note "$ZRAM already holds incompressible data on every page: not rewritten (FILL=1 forces)"
	fi
	TARGET_PATH=$ZRAM
	TARGET_KIND="block"
	TARGET_DESC="$ZRAM ($(($(cat "$ZRAM_SYS/disksize") / 1048576)) MiB zram, $(sed -n 's/.*\[\([^]]*\)\].*/\1/p' "$ZRAM_SYS/comp_algorithm"))"
}

# reuse_or_fill PATH: a 1 GiB file of random data at PATH, laid out once and
# kept (fio and iomodel then read the same blocks in every run).
reuse_or_fill() {
	local want=$((TARGET_SIZE_MIB * 1048576))
	if [ ! -f "$1" ] || [ "$(stat -c %s "$1")" != "$want" ]; then
		fill_random "$1" "$TARGET_SIZE_MIB"
	else
		note "reusing $1 (laid out by an earlier run; remove it to reclaim 1 GiB)"
	fi
}

# file_desc PATH: one line for the report (filesystem, device, extents).
file_desc() {
	echo "$1 (1 GiB file on $(df --output=fstype "$1" | tail -1) on $(df --output=source "$1" | tail -1), $(filefrag "$1" 2>/dev/null | sed 's/.*: //'), kept for later runs)"
}

setup_file() {
	reuse_or_fill "$FALLBACK_FILE"
	TARGET_PATH=$FALLBACK_FILE
	TARGET_KIND="file"
	TARGET_DESC=$(file_desc "$FALLBACK_FILE")
}

# setup_bench_file: FILE_PATH, FILE_DESC — the file of the file cases, on the
# filesystem that holds the project (FILE=PATH overrides): /var/tmp when it
# is that filesystem, else the project's build/ directory.
setup_bench_file() {
	FILE_PATH=${FILE:-}
	if [ -z "$FILE_PATH" ]; then
		if [ "$(stat -c %d /var/tmp)" = "$(stat -c %d "$REPO_DIR")" ]; then
			FILE_PATH=$FALLBACK_FILE
		else
			FILE_PATH=$REPO_DIR/build/iomodel-vs-fio.dat
		fi
	fi
	[ -b "$FILE_PATH" ] && die "FILE=$FILE_PATH is a block device; use TARGET= for devices"
	reuse_or_fill "$FILE_PATH"
	FILE_DESC=$(file_desc "$FILE_PATH")
}

# setup_target: TARGET=PATH overrides; else zram0 when free; else the file.
setup_target() {
	local why
	if [ -n "${TARGET:-}" ]; then
		[ -e "$TARGET" ] || die "TARGET=$TARGET does not exist"
		TARGET_PATH=$(realpath "$TARGET")
		if [ -b "$TARGET" ]; then TARGET_KIND="block"; else TARGET_KIND="file"; fi
		TARGET_DESC="$TARGET_PATH (given with TARGET=, used as it is)"
	elif [ ! -b "$ZRAM" ] || [ ! -w "$ZRAM_SYS/disksize" ]; then
		note "no usable $ZRAM (zram module not loaded?): using a file on /var/tmp"
		setup_file
	elif why=$(zram_busy) && [ -n "$why" ]; then
		note "$ZRAM is $why: not touching it, using a file on /var/tmp"
		setup_file
	else
		setup_zram
	fi
}

cleanup_target() {
	if [ "$zram_sized_here" = 1 ]; then
		echo 1 >"$ZRAM_SYS/reset" 2>/dev/null || note "warning: could not reset $ZRAM"
		zram_sized_here=0
	fi
}
