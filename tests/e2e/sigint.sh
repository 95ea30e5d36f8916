#!/usr/bin/env bash
# sigint.sh — SIGINT (and SIGTERM) end a run cleanly: partial results printed, exit 130,
# the scratch file removed; also when it arrives while the file is laid out.
set -u
# job control: background jobs keep SIGINT and SIGQUIT (a plain script's are
# ignored, and iomodel leaves a signal it started with ignored as it is)
set -m
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT
f=$work/scratch.bin

"$IOMODEL" run --target "$f" --size 16m --rw randread --qd 4 --runtime 60s --json \
	>"$work/r.json" 2>"$work/r.err" &
pid=$!
for _ in $(seq 50); do [ -e "$f" ] && break; sleep 0.1; done
sleep 1
kill -INT $pid
wait $pid
status=$?
ok "interrupted run exits 130 (got $status)" [ "$status" -eq 130 ]
ok "partial results are valid JSON marked interrupted" [ "$(json "$work/r.json" 'd["interrupted"]')" = True ]
ok "partial results counted IOs" [ "$(json "$work/r.json" 'd["results"][0]["ios"] > 0')" = True ]
ok "measured less than the 60 s asked" [ "$(json "$work/r.json" 'd["seconds"] < 30')" = True ]
ok "scratch file removed" [ ! -e "$f" ]

# SIGTERM: the same clean end, with the customary status 143.
"$IOMODEL" run --target null --runtime 60s --json >"$work/t.json" 2>/dev/null &
pid=$!
sleep 0.5
kill -TERM $pid
wait $pid
status=$?
ok "terminated run exits 143 (got $status)" [ "$status" -eq 143 ]
ok "terminated run still prints its results" [ "$(json "$work/t.json" 'd["interrupted"]')" = True ]

# Interrupt during layout of a large file.
"$IOMODEL" run --target "$f" --size 8g --rw randread --ios 10 >"$work/l.out" 2>"$work/l.err" &
pid=$!
for _ in $(seq 50); do [ -e "$f" ] && break; sleep 0.05; done
sleep 0.2
kill -INT $pid
wait $pid
status=$?
ok "interrupted layout exits 130 (got $status)" [ "$status" -eq 130 ]
ok "half-written scratch file removed" [ ! -e "$f" ]
ok "one line on stderr: $(cat "$work/l.err")" [ "$(wc -l <"$work/l.err")" -eq 1 ]
finish
