#!/usr/bin/env bash
# fio_files.sh — iomodel and fio files both ways through the command line:
# --fio-job of run, sweep and characterize writes a job file that fio itself
# accepts (fio --parse-only) and that holds the plan (one section per point,
# stonewall, bs, iodepth, rw, rwmixread, region, stop rules, seed); a sweep's
# job file run by fio (null engine) measures those points, which iomodel then
# imports; fit and report print a skipped fio job as one warning and go on.
# Skips (77) when fio is not installed (scripts/install-deps.sh installs it).
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT
shared=${SHARED_DATA:-$(dirname "$0")/../../../shared/data}
corpus=$(dirname "$0")/data/fio
command -v fio >/dev/null || skip "fio is not installed (scripts/install-deps.sh)"

# --- run: one section -------------------------------------------------------------
"$IOMODEL" run --target null --rw randrw --rwmix 70 --bs 8k --qd 4 --ios 1000 --seed 7 \
	--fio-job "$work/run.fio" >/dev/null
ok "run --fio-job exits 0" [ $? -eq 0 ]
ok "fio accepts the run's job file" fio --parse-only "$work/run.fio"
for line in ioengine=null rw=randrw rwmixread=70 bs=8192 iodepth=4 number_ios=1000 \
	io_size=8192000 randseed=7 offset=0 size=1073741824; do
	ok "run job file has $line" grep -qx "$line" "$work/run.fio"
done
ok "run job file has one section after [global]" [ "$(grep -c '^\[' "$work/run.fio")" = 2 ]
ok "a time bound alone is time_based" sh -c "'$IOMODEL' run --target null --runtime 1500ms \
	--ramp 250ms --fio-job '$work/t.fio' >/dev/null && grep -qx runtime=1500ms '$work/t.fio' \
	&& grep -qx time_based=1 '$work/t.fio' && grep -qx ramp_time=250ms '$work/t.fio'"

# bad input writes nothing
status=$(run_status "$IOMODEL" run --target null --bs 0 --fio-job "$work/bad.fio")
ok "bad --bs with --fio-job exits 2" [ "$status" = 2 ]
ok "and writes no job file" [ ! -e "$work/bad.fio" ]
status=$(run_status "$IOMODEL" run --target null --ios 10 --fio-job "$work/no/such/dir.fio")
ok "an unwritable --fio-job exits 2" [ "$status" = 2 ]
ok "with one line" [ "$(wc -l <"$work/err")" = 1 ]

# --- sweep: a section per point, run by fio, imported back ------------------------
"$IOMODEL" sweep --target null --bs 4k:16k --qd 1:4 --point-ios 2000 --fio-job "$work/sweep.fio" \
	--json >"$work/sweep.json"
ok "sweep --fio-job exits 0" [ $? -eq 0 ]
ok "fio accepts the sweep's job file" fio --parse-only "$work/sweep.fio"
ok "9 points, 9 sections" [ "$(grep -c '^\[' "$work/sweep.fio")" = 10 ]
ok "every section but the first waits for the one before (stonewall)" \
	[ "$(grep -c '^stonewall$' "$work/sweep.fio")" = 8 ]
ok "sections in the plan's order, sizes fastest" [ "$(grep '^\[' "$work/sweep.fio" | tr -d '[]' | \
	tr '\n' ' ')" = "global randread-4k-qd1 randread-8k-qd1 randread-16k-qd1 randread-4k-qd2 \
randread-8k-qd2 randread-16k-qd2 randread-4k-qd4 randread-8k-qd4 randread-16k-qd4 " ]
fio "$work/sweep.fio" --output-format=json >"$work/fio.json" 2>"$work/fio.err"
ok "fio runs the sweep's job file" [ $? -eq 0 ]
ok "fio did each point's size and depth" [ "$(json "$work/fio.json" '[(j["jobname"], \
	j["read"]["io_bytes"] // j["read"]["total_ios"], int(j["job options"]["iodepth"]), \
	j["read"]["total_ios"]) for j in d["jobs"]]')" = "$(json "$work/sweep.json" '[("randread-%s-qd%d" \
	% ({4096: "4k", 8192: "8k", 16384: "16k"}[r["job"]["bs"]], r["job"]["qd"]), r["job"]["bs"], \
	r["job"]["qd"], 2000) for r in d["runs"]]')" ]
"$IOMODEL" report -o "$work/fio.html" "$work/fio.json" 2>"$work/report.err"
ok "iomodel reads fio's output of the job file back" [ $? -eq 0 ]
ok "and says nothing on stderr" [ ! -s "$work/report.err" ]

# --- characterize: four plans -----------------------------------------------------
"$IOMODEL" characterize --target sim:ocz-core --quick --fio-job "$work/char.fio" >/dev/null
ok "characterize --fio-job exits 0" [ $? -eq 0 ]
ok "fio accepts characterize's job file" fio --parse-only "$work/char.fio"
ok "a simulated drive: no filename, a comment says to set one" sh -c "! grep -q '^filename=' \
	'$work/char.fio' && grep -q 'add filename=' '$work/char.fio'"
ok "a 4k depth sweep" [ "$(grep -c '^\[randwrite-4k-qd32\]$' "$work/char.fio")" = 1 ]
ok "and a size sweep" grep -q '^\[randread-64m-qd1\]$' "$work/char.fio"

# a real file: filename escaped for fio's ':' list separator
"$IOMODEL" run --target "$work/a:b.bin" --size 1m --ios 10 --fio-job "$work/file.fio" >/dev/null
ok "a file target is the filename, ':' escaped" grep -qxF "filename=$work/a\\:b.bin" "$work/file.fio"
ok "and O_DIRECT is direct=1" grep -qx direct=1 "$work/file.fio"

# --- skipped fio jobs: a warning, and the set goes on -----------------------------
ssd=$shared/fio-plot/crucial-mx200-ssd
if [ -d "$ssd" ]; then
	"$IOMODEL" fit "$ssd/randread-1-1.json" "$ssd/randread-4-1.json" "$corpus/bssplit-mixed.json" \
		>/dev/null 2>"$work/fit.err"
	ok "fit goes on past a file whose job cannot be told" [ $? -eq 0 ]
	ok "with one warning naming file and job" [ "$(cat "$work/fit.err")" = "iomodel: warning: \
$corpus/bssplit-mixed.json: jobs[0] 'split-two': job options.bssplit '4k/50:64k/50': mixes \
request sizes; job skipped" ]
	"$IOMODEL" report -o "$work/r.html" "$ssd/randread-1-1.json" "$corpus/bsrange-4k-16k.json" \
		2>"$work/report.err"
	ok "report goes on past it too" [ $? -eq 0 ]
	ok "and writes its page" [ -s "$work/r.html" ]
	ok "and warns" grep -q "warning: .*bsrange-4k-16k.json: jobs\[0\] 'range': .*job skipped" \
		"$work/report.err"
fi
status=$(run_status "$IOMODEL" fit "$corpus/bssplit-mixed.json")
ok "a set of nothing but skipped jobs is still bad input" [ "$status" = 2 ]
finish
