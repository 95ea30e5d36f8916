#!/usr/bin/env bash
# safety_race.sh — the check-then-open race: while iomodel runs against a
# path, a flipper swaps that path (atomically, by rename) between a symbolic
# link to a victim file, an empty regular file and nothing. Whatever the
# timing, the victim must never be written: without --destroy-data it is
# only ever read. RUNS read runs and RUNS write runs; after each the victim's
# sha256 is compared (and the victim restored if it changed, so the count is
# per run). The flipper stops after FLIPS swaps at most, or when killed.
# Env: IOMODEL, RUNS (default 30), FLIPS (default 2000000).
# Exit status: 0 pass, 1 fail, 77 skip (the reason is printed).
# pass always succeeds, so "test && pass || fail" is an if-else; cleanup runs from a trap
# shellcheck disable=SC2015,SC2317
set -u

. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is needed for the flipper"
RUNS=${RUNS:-30}
FLIPS=${FLIPS:-2000000}
FLIPPER=
WORK=$(mktemp -d /var/tmp/iomodel-safety-race.XXXXXX) || skip "cannot make a directory in /var/tmp"
cleanup() {
	[ -n "$FLIPPER" ] && kill "$FLIPPER" 2>/dev/null && wait "$FLIPPER" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

VICTIM=$WORK/victim
TARGET=$WORK/target
head -c 1M /dev/urandom >"$WORK/victim.orig" || skip "cannot write in /var/tmp"
cp "$WORK/victim.orig" "$VICTIM"
good=$(sha256sum <"$VICTIM" | cut -d' ' -f1)

# the interpreter itself, not lib.sh's python3 function: $! must be its pid
"$PYTHON3" - "$TARGET" "$VICTIM" "$FLIPS" <<'EOF' &
import os, sys
target, victim, flips = sys.argv[1], sys.argv[2], int(sys.argv[3])
tmp = target + ".flip"
for i in range(flips):
    try:
        kind = i % 4  # link, empty, link, nothing: empty -> link is the worst case
        if kind in (0, 2):
            os.symlink(victim, tmp)
        elif kind == 1:
            open(tmp, "w").close()
        if kind == 3:
            os.unlink(target)
        else:
            os.rename(tmp, target)
    except OSError:
        pass
EOF
FLIPPER=$!

# raced RW: run RUNS times; count the runs after which the victim changed
raced() {
	local rw=$1 changed=0 statuses=" "
	for _ in $(seq "$RUNS"); do
		timeout 30 "$IOMODEL" run --target "$TARGET" --rw "$rw" --bs 4k --ios 20 \
			--size 1m --buffered >/dev/null 2>>"$WORK/$rw.err"
		statuses="$statuses$? "
		if [ "$(sha256sum <"$VICTIM" | cut -d' ' -f1)" != "$good" ]; then
			changed=$((changed + 1))
			cp "$WORK/victim.orig" "$VICTIM"
		fi
	done
	echo "# $rw: victim overwritten in $changed of $RUNS raced runs; exit statuses:" \
		"$(echo "$statuses" | tr ' ' '\n' | sort | uniq -c | tr -s ' \n' ' ')"
	[ "$changed" = 0 ] && pass "$rw: victim never written in $RUNS raced runs" ||
		fail "$rw: victim overwritten in $changed of $RUNS raced runs"
	# every refusal is one of the expected one-line errors
	if grep -v -e "add --destroy-data" -e "replaced while being opened" \
		-e "name was taken" -e "^iomodel: cannot open" -e "^iomodel: notice" "$WORK/$rw.err" |
		grep -q .; then
		fail "$rw: unexpected messages: $(grep -v "add --destroy-data" "$WORK/$rw.err" | sort | uniq -c | head -5)"
	else
		pass "$rw: every refusal says why in one line"
	fi
}

raced randread
raced randwrite
kill -0 "$FLIPPER" 2>/dev/null && pass "the flipper ran during all the runs" ||
	fail "the flipper ended early (raise FLIPS): the runs were not all raced"
finish
