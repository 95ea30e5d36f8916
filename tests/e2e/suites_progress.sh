#!/usr/bin/env bash
# suites_progress.sh — profile, qd and state on a real target say up front, in one line on
# stderr, how long they take at most (also when stderr is not a terminal); the defaults of
# profile and qd stay within 3 minutes; the progress bar with its ETA is drawn on a terminal
# (a pseudo-terminal made by script(1)) and never when stderr is a file or a pipe.
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

head -c 16M /dev/urandom >"$work/f.bin"
truncate -s 128m "$work/big.bin"	# the 100 positions of the default profile fit

# no_control FILE: neither a carriage return nor an escape byte (no bar, no colours)
no_control() { ! grep -q $'[\r\033]' "$1"; }

# --- piped: the bound line, nothing else drawn ------------------------------------------
"$IOMODEL" profile --target "$work/f.bin" --points 4 --point-time 500ms --bs 64k \
	>"$work/out" 2>"$work/err"
ok "profile: status 0" [ $? -eq 0 ]
ok "profile: the bound first on stderr (4 x 0.5 s + 4.1 s of access time and burst)" \
	grep -qx "iomodel: profile of $work/f.bin: 4 points, at most 7 s" <(head -1 "$work/err")
ok "profile: no progress bar on a file, stdout and stderr free of control bytes" \
	bash -c "$(declare -f no_control); no_control '$work/err' && no_control '$work/out'"

"$IOMODEL" qd --target "$work/f.bin" --qd 1:4 --point-time 500ms 2>&1 >"$work/out" | cat >"$work/err"
ok "qd: the bound first on stderr, through a pipe (3 depths x 0.5 s)" \
	grep -qx "iomodel: qd of $work/f.bin: 3 depths, each 0.5 s or 20000 IOs at most: at most 2 s" \
	<(head -1 "$work/err")
ok "qd: no control bytes in the pipe or on stdout" \
	bash -c "$(declare -f no_control); no_control '$work/err' && no_control '$work/out'"

"$IOMODEL" state --target "$work/f.bin" --destroy-data --size 4m --round 200ms --max-rounds 5 \
	--json >"$work/out" 2>"$work/err"
ok "state: status 0" [ $? -eq 0 ]
ok "state: the bound of the rounds (3 x 5 x 0.2 s) and what the preconditioning writes" \
	grep -q "^iomodel: state of .*: rounds take at most 3 s (3 states x 5 rounds x 0.2 s); before the used state the 4 MiB span is written twice" \
	"$work/err"
ok "state: no control bytes" bash -c "$(declare -f no_control); no_control '$work/err' && no_control '$work/out'"

ok "sim: targets on a virtual clock state no wall-clock bound, stderr stays empty" \
	bash -c "'$IOMODEL' qd --target sim:intel-x25m-g2 --qd 1:2 --point-ios 200 2>&1 >/dev/null | wc -c | grep -qx 0"

# --- the defaults: within 3 minutes on a real drive (interrupted once stated) -----------
bound() {	# bound CMD...: the seconds of the "at most N s" that CMD states first
	timeout -s INT 3 "$IOMODEL" "$@" 2>&1 >/dev/null | head -1 | sed -n 's/.*at most \([0-9]*\) s$/\1/p'
}
secs=$(bound profile --target "$work/big.bin")
ok "profile's default bound is 100 x 1 s + 4.1 s, under 3 minutes (got '$secs')" [ "$secs" = 105 ]
secs=$(bound qd --target "$work/f.bin")
ok "qd's default bound is 9 depths x 2 s, under 3 minutes (got '$secs')" [ "$secs" = 18 ]

# --- on a terminal: the bar with its ETA --------------------------------------------------
if command -v script >/dev/null; then
	for cmd in "profile --target $work/f.bin --points 4 --point-time 200ms --bs 64k" \
		"qd --target $work/f.bin --qd 1:4 --point-time 200ms" \
		"state --target $work/f.bin --destroy-data --size 4m --round 100ms --max-rounds 5"; do
		name=${cmd%% *}
		script -qefc "'$IOMODEL' $cmd >/dev/null" /dev/null </dev/null >"$work/tty" 2>&1
		ok "$name on a terminal: status 0" [ $? -eq 0 ]
		ok "$name on a terminal: the bound, then a bar redrawn in place with an ETA" bash -c \
			"grep -aq 'at most [0-9]* s' '$work/tty' && grep -aq \$'\\r\\\\[[#.]*\\\\] [0-9]*/[0-9]* .*ETA ' '$work/tty'"
	done
else
	echo "SKIP (part): no script(1) for a pseudo-terminal; the piped cases above still ran"
fi
finish
