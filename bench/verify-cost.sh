#!/usr/bin/env bash
# verify-cost.sh — what `run --verify` costs, with fio's verify=crc32c as the
# peer, side by side in one run.
#
# Workload: 4 KiB random writes at queue depth 8 (io_uring), BYTES written per
# run over a REGION, each case without and with verification, REPEAT rounds
# (plain and verified alternate, so drift hits both); figures are medians.
#   null  iomodel --target null for NULL_TIME (verify: each write's own buffer
#         is stamped and checked; nothing to read back): the CPU cost of
#         crc32c and stamps, with no device in the way
#   file  a REGION-sized file on /var/tmp, O_DIRECT: iomodel, and fio with
#         --verify=crc32c on the same file and workload
#   sim   a REGION-sized sim:ssd (virtual clock): IOPS and total in simulated
#         time, and the wall time of each run
#   x2    the same three with 2 jobs (--jobs 2, each its own half of the
#         region and HALF_BYTES of writes; with --verify each job verifies
#         its own half), fio with numjobs=2 on the two halves
#         (offset_increment), figures of both jobs together
# How to read it: "IOPS" is the write IOPS of the measured phase. With
# --verify, iomodel reads each block before overwriting it, so on a device
# its write IOPS fall to about half; fio writes first and reads everything
# back afterwards. "total s" is the whole job with its read-back: iomodel's
# measured seconds plus its pass; fio's write plus verify runtime. The ratio
# columns are verified / plain, and iomodel / fio for the file.
#
# Usage:   bench/verify-cost.sh
# Env:     BYTES=64m  HALF_BYTES=32m (per job of x2)  REGION=256m  NULL_TIME=2s  REPEAT=3
#          IOMODEL=build/iomodel  FIO=fio
#          FILE=/var/tmp/iomodel-verify-cost.dat (created, removed at exit)
# Needs:   fio, python3, a built build/iomodel. Installs nothing. About 2 min.
set -euo pipefail
cd "$(dirname "$0")/.."
IOMODEL=${IOMODEL:-build/iomodel}
FIO=${FIO:-fio}
BYTES=${BYTES:-64m}
HALF_BYTES=${HALF_BYTES:-32m}
REGION=${REGION:-256m}
REPEAT=${REPEAT:-3}
NULL_TIME=${NULL_TIME:-2s}
FILE=${FILE:-/var/tmp/iomodel-verify-cost.dat}
for tool in "$IOMODEL" "$FIO" python3; do
	command -v "$tool" >/dev/null || { echo "verify-cost: needs $tool" >&2; exit 2; }
done
[ -e "$FILE" ] && { echo "verify-cost: $FILE exists; remove it or set FILE" >&2; exit 2; }
out=$(mktemp -d /var/tmp/iomodel-verify-cost.XXXXXX)
trap 'rm -rf "$out" "$FILE"' EXIT
"$IOMODEL" run --target "$FILE" --size "$REGION" --rw write --bs 1m --ios 1 --keep >/dev/null

common=(--rw randwrite --bs 4k --qd 8)
iom() {	# iom NAME TARGET ARGS...: one iomodel run, its JSON in $out/NAME.json
	local name=$1 target=$2
	shift 2
	"$IOMODEL" run --target "$target" "${common[@]}" --json "$@" >"$out/$name.json" ||
		{ echo "verify-cost: iomodel $name failed" >&2; exit 1; }
}
fio_run() {	# fio_run NAME ARGS...
	local name=$1
	shift
	"$FIO" --name=cost --filename="$FILE" --direct=1 --ioengine=io_uring --rw=randwrite \
		--bs=4k --iodepth=8 --size="$REGION" --io_size="$BYTES" --verify_state_save=0 \
		--output-format=json --group_reporting "$@" \
		>"$out/$name.json" || { echo "verify-cost: fio $name failed" >&2; exit 1; }
}
sim="sim:ssd,capacity=$REGION,spare=0.5"
for r in $(seq "$REPEAT"); do
	echo "round $r of $REPEAT" >&2
	iom "null.plain.$r" null --size "$REGION" --runtime "$NULL_TIME" --seed "$r"
	iom "null.verify.$r" null --size "$REGION" --runtime "$NULL_TIME" --seed "$r" --verify
	iom "file.plain.$r" "$FILE" --bytes "$BYTES" --destroy-data --seed "$r"
	iom "file.verify.$r" "$FILE" --bytes "$BYTES" --destroy-data --seed "$r" --verify
	fio_run "fio.plain.$r" --randseed="$r"
	fio_run "fio.verify.$r" --randseed="$r" --verify=crc32c
	for v in plain verify; do
		flag=(); [ $v = verify ] && flag=(--verify)
		start=$(date +%s.%N)
		iom "sim.$v.$r" "$sim" --bytes "$BYTES" --seed "$r" "${flag[@]}"
		echo "$start $(date +%s.%N)" | awk '{print $2 - $1}' >"$out/sim.$v.$r.wall"
		start=$(date +%s.%N)
		iom "sim2.$v.$r" "$sim" --bytes "$HALF_BYTES" --seed "$r" --jobs 2 --split "${flag[@]}"
		echo "$start $(date +%s.%N)" | awk '{print $2 - $1}' >"$out/sim2.$v.$r.wall"
		iom "null2.$v.$r" null --size "$REGION" --runtime "$NULL_TIME" --seed "$r" --jobs 2 \
			--split "${flag[@]}"
		iom "file2.$v.$r" "$FILE" --bytes "$HALF_BYTES" --destroy-data --seed "$r" --jobs 2 \
			--split "${flag[@]}"
	done
	half=(--numjobs=2 --size="$(( $(numfmt --from=iec "${REGION^^}") / 2 ))"
	      --offset_increment="$(( $(numfmt --from=iec "${REGION^^}") / 2 ))" --io_size="$HALF_BYTES")
	fio_run "fio2.plain.$r" --randseed="$r" "${half[@]}"
	fio_run "fio2.verify.$r" --randseed="$r" --verify=crc32c "${half[@]}"
done

python3 - "$out" "$REPEAT" <<'PY'
import json, statistics, sys
out, repeat = sys.argv[1], int(sys.argv[2])
def load(name, r):	# fio prints a warning before its JSON with numjobs=2 and verify
    text = open(f"{out}/{name}.{r}.json").read()
    return json.loads(text[text.index("{"):])
def iom(name):
    iops, total, wall = [], [], []
    for r in range(1, repeat + 1):
        d = load(name, r)
        w = [x for x in d["results"] if x["op"] == "write"][0]
        iops.append(w["iops"])
        total.append(d["seconds"] + (d["verify"]["pass"]["seconds"] if d["verify"] else 0))
        try: wall.append(float(open(f"{out}/{name}.{r}.wall").read().split()[-1]))
        except OSError: pass
        if d["verify"] and d["verify"]["failures"]:
            sys.exit(f"verify-cost: {name} found {d['verify']['failures']} bad blocks")
    return statistics.median(iops), statistics.median(total), (statistics.median(wall) if wall else None)
def fio(name):
    iops, total = [], []
    for r in range(1, repeat + 1):
        j = load(name, r)["jobs"][0]
        if j.get("error"): sys.exit(f"verify-cost: fio {name} error {j['error']}")
        iops.append(j["write"]["iops"])
        total.append((j["write"]["runtime"] + j["read"]["runtime"]) / 1e3)
    return statistics.median(iops), statistics.median(total), None
rows = [("null", "iomodel", iom("null.plain"), iom("null.verify")),
        ("file", "iomodel", iom("file.plain"), iom("file.verify")),
        ("file", "fio", fio("fio.plain"), fio("fio.verify")),
        ("sim:ssd", "iomodel", iom("sim.plain"), iom("sim.verify")),
        ("null x2", "iomodel", iom("null2.plain"), iom("null2.verify")),
        ("file x2", "iomodel", iom("file2.plain"), iom("file2.verify")),
        ("file x2", "fio", fio("fio2.plain"), fio("fio2.verify")),
        ("sim x2", "iomodel", iom("sim2.plain"), iom("sim2.verify"))]
print(f"4 KiB random writes, QD 8, medians of {repeat} runs (total s and sim IOPS: simulated time on sim:)")
print(f"{'target':8} {'tool':8} {'IOPS':>11} {'IOPS verify':>12} {'ratio':>6} "
      f"{'total s':>8} {'verify s':>9} {'ratio':>6}   wall s (sim)")
for target, tool, p, v in rows:
    wall = f"   {p[2]:.2f} / {v[2]:.2f}" if p[2] is not None else ""
    print(f"{target:8} {tool:8} {p[0]:11.0f} {v[0]:12.0f} {v[0]/p[0]:6.2f} "
          f"{p[1]:8.3f} {v[1]:9.3f} {p[1]/v[1]:6.2f}{wall}")
for label, fi, ff in (("file", rows[1], rows[2]), ("file x2", rows[5], rows[6])):
    print(f"{label}, iomodel / fio: IOPS plain {fi[2][0]/ff[2][0]:.2f}, IOPS verify "
          f"{fi[3][0]/ff[3][0]:.2f}, total time verify {fi[3][1]/ff[3][1]:.2f} (below 1: iomodel faster)")
PY
