# lib.sh — shared by the end-to-end test scripts: assertions that count, a
# scratch directory on a filesystem with O_DIRECT, and JSON field access.
# Each script sources this, calls its checks, and ends with `finish`.
# Exit status: 0 pass, 1 fail, 77 skip (meson's convention).

IOMODEL=${IOMODEL:-$(dirname "${BASH_SOURCE[0]}")/../../build/iomodel}
checks=0
failures=0

pass() { checks=$((checks + 1)); echo "ok   $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL $*"; }

ok() {	# ok DESCRIPTION COMMAND...: the command must succeed
	local what=$1; shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}

skip() {
	echo "SKIP: $*"
	exit 77
}

[ -x "$IOMODEL" ] || skip "no iomodel binary at '$IOMODEL' (set IOMODEL)"

# python3 is Debian's (scripts/install-deps.sh) where it is installed, not a
# version manager's shim that may come first in PATH: a pyenv shim costs
# ~0.13 CPU s a start, Debian's interpreter ~0.03, and the tests start it
# hundreds of times. Overridden by PYTHON3=path.
# Run in the background through "$PYTHON3" (a function's $! is a subshell's).
PYTHON3=${PYTHON3:-$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3)}
[ -n "$PYTHON3" ] && python3() { command "$PYTHON3" "$@"; }

finish() {
	echo "$checks checks, $failures failed"
	[ "$failures" -eq 0 ]
	exit $?
}

# A scratch directory on a disk filesystem (tmpfs may refuse O_DIRECT).
scratch_dir() {
	mktemp -d /var/tmp/iomodel-test.XXXXXX
}

# json FILE EXPR: evaluate a Python expression over the parsed document `d`.
json() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# zram_add SIZE: a zram disk of the test's own (zram-control hot_add), its node
# waited for and sized; prints its path. Otherwise prints why not, leaves no
# disk behind and fails. zram_remove DEV resets and removes it again.
zram_add() {
	local id dev
	[ -w /sys/class/zram-control/hot_add ] ||
		{ echo "no zram-control on this machine (zram module not loaded, or not root)"; return 1; }
	id=$(cat /sys/class/zram-control/hot_add 2>/dev/null) || { echo "cannot add a zram device"; return 1; }
	dev=/dev/zram$id
	for _ in $(seq 50); do [ -b "$dev" ] && break; sleep 0.1; done
	[ -b "$dev" ] || { zram_remove "$dev"; echo "$dev did not appear"; return 1; }
	echo "$1" >"/sys/block/zram$id/disksize" 2>/dev/null ||
		{ zram_remove "$dev"; echo "cannot size $dev"; return 1; }
	echo "$dev"
}
zram_remove() {
	echo 1 >"/sys/block/${1#/dev/}/reset" 2>/dev/null
	echo "${1#/dev/zram}" >/sys/class/zram-control/hot_remove 2>/dev/null
}

# json_true FILE EXPR: succeeds only when EXPR over the file's JSON `d` is true
# (for `ok`; `json` prints and always succeeds)
json_true() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not eval(sys.argv[2]))' "$1" "$2"
}

# run_status CMD...: run, keep stdout/stderr in $out/$err files, echo status
run_status() {
	"$@" >"$work/out" 2>"$work/err"
	echo $?
}

# checksum FILE: sha256 of a file or a whole device
checksum() { sha256sum <"$1" | cut -d' ' -f1; }

# run_iomodel ARGS...: stdout to $WORK/out, stderr to $WORK/err, status in RC
run_iomodel() {
	timeout 60 "$IOMODEL" "$@" >"$WORK/out" 2>"$WORK/err"
	RC=$?
}

# wd_member FILE: characterize --quick of sim:wd6400aaks (its write cache on) into
# FILE, checked: the member model the raid tests plan arrays of
wd_member() {
	"$IOMODEL" characterize --target sim:wd6400aaks --quick -o "$1" >/dev/null 2>&1
	ok "characterize of the member exits 0" [ $? -eq 0 ]
}
