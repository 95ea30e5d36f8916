#!/usr/bin/env bash
# mpi.sh — `mpirun -n 3 iomodel run …` (Open MPI, oversubscribed on this
# machine): rank 0 prints one record whose IOs, histogram and timeline are
# exactly the sum of the ranks'; per-rank targets (%r), one shared file in
# disjoint slices, null and sim: targets; a rank that fails fails the run
# with that rank's message; %r outside mpirun is bad input. Skipped when
# the binary was built without MPI or mpirun is missing.
set -u
. "$(dirname "$0")/lib.sh"
"$IOMODEL" --version | grep -qx 'mpi: on' || skip "iomodel was built without Open MPI (mpi: off)"
command -v mpirun >/dev/null || skip "no mpirun (openmpi-bin)"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT
# Open MPI refuses root unless told twice (its documented override)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI's own start-up allocations (in components it dlopens and unloads,
# so LeakSanitizer cannot even name them) are never freed: in an ASan build
# the ranks check memory errors but not leaks. iomodel's own code on these
# paths is leak-checked standalone, where ranks.h takes the same calls.
mpi() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		timeout 60 mpirun --oversubscribe -n 3 "$IOMODEL" run "$@"
}

status=$(run_status "$IOMODEL" run --target "$work/f.%r" --ios 10)
ok "%r outside mpirun: exit 2" [ "$status" = 2 ]
ok "%r outside mpirun: one line" [ "$(wc -l <"$work/err")" = 1 ]
ok "%r outside mpirun: says why" grep -q 'not started by mpirun' "$work/err"

# --- null: the record is the sum of the ranks ------------------------------------
mpi --target null --jobs 2 --qd 2 --ios 5000 --per-job --json >"$work/n.json" 2>"$work/n.err"
ok "null on 3 ranks exits 0" [ $? -eq 0 ]
ok "one record (rank 0 only)" [ "$(grep -c '"schema"' "$work/n.json")" = 1 ]
ok "aggregate IOs = 3 ranks x 2 jobs x 5000" [ "$(json "$work/n.json" 'd["results"][0]["ios"]')" = 30000 ]
ok "per-rank IOs add up to the aggregate" \
	[ "$(json "$work/n.json" 'sum(r["results"][0]["ios"] for r in d["ranks"]["per_rank"]) == d["results"][0]["ios"]')" = True ]
ok "merged histogram and timeline hold every IO" \
	[ "$(json "$work/n.json" '(sum(b[2] for b in d["results"][0]["histogram"]["buckets"]), sum(s["ios"] for s in d["results"][0]["timeline"]))')" = "(30000, 30000)" ]
ok "ranks: count, outstanding IOs" \
	[ "$(json "$work/n.json" '(d["ranks"]["count"], d["ranks"]["outstanding_ios"])')" = "(3, 12)" ]
ok "stonewall = slowest - fastest, the slowest's time is the record's" \
	[ "$(json "$work/n.json" '(lambda r: abs(r["stonewall_s"] - (r["slowest"]["seconds"] - r["fastest"]["seconds"])) < 1e-9 and r["slowest"]["seconds"] == d["seconds"])(d["ranks"])')" = True ]
ok "every rank its own seed" \
	[ "$(json "$work/n.json" 'len(set(r["seed"] for r in d["ranks"]["per_rank"]))')" = 3 ]

# --- files: one per rank, and one shared in slices --------------------------------
mpi --target "$work/f.%r" --size 4m --ios 100 --json >"$work/f.json" 2>"$work/f.err"
ok "per-rank files: exit 0" [ $? -eq 0 ]
ok "per-rank files: 300 IOs" [ "$(json "$work/f.json" 'd["results"][0]["ios"]')" = 300 ]
ok "per-rank files: the files were created and removed" [ ! -e "$work/f.0" -a ! -e "$work/f.1" -a ! -e "$work/f.2" ]
"$IOMODEL" run --target "$work/shared" --size 6m --keep --ios 1 >/dev/null
mpi --target "$work/shared" --rw read --bs 64k --split --ios 40 --per-job --json >"$work/s.json" 2>"$work/s.err"
ok "shared file in slices: exit 0" [ $? -eq 0 ]
ok "shared file: each rank its third" \
	[ "$(json "$work/s.json" '[(r["offset"], r["length"]) for r in d["ranks"]["per_rank"]]')" = "[(0, 2097152), (2097152, 2097152), (4194304, 2097152)]" ]
ok "shared file: 120 IOs" [ "$(json "$work/s.json" 'd["results"][0]["ios"]')" = 120 ]

# --- sim: every rank its own drive ------------------------------------------------
mpi --target sim:intel-x25m-g2 --ios 400 --per-job --json >"$work/sim.json" 2>"$work/sim.err"
ok "sim on 3 ranks: exit 0" [ $? -eq 0 ]
ok "sim: 1200 IOs, each rank 400" \
	[ "$(json "$work/sim.json" '(d["results"][0]["ios"], [r["results"][0]["ios"] for r in d["ranks"]["per_rank"]])')" = "(1200, [400, 400, 400])" ]

# --- a failing rank fails the run with its message -------------------------------
mkdir "$work/d0" "$work/d2"
status=$(run_status mpi --target "$work/d%r/f" --size 1m --ios 10)
ok "a rank that cannot open its target fails the run" [ "$status" != 0 ]
ok "with rank 1's message, once" [ "$(grep -c '^iomodel: rank 1: ' "$work/err")" = 1 ]
status=$(run_status mpi --target 'sim:ssd,fault_eio=1g-2g' --length 3g --split --ios 100000)
ok "an IO error on one rank: exit 1" [ "$status" = 1 ]
ok "with that rank's message" grep -q '^iomodel: rank 1: read error at offset' "$work/err"
ok "and the aggregate record printed" grep -q '^read ' "$work/out"
finish
