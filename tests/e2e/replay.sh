#!/usr/bin/env bash
# replay.sh — `iomodel replay`: DiskSim ASCII, blkparse text and DiskSim validation traces
# replayed on simulated drives (timed in virtual time, as fast as possible at a queue
# depth), on the null target and a real file (timed: service times of its own), the text
# the real blkparse prints, and the refusals (bad lines named FILE:LINE, requests beyond
# the target, writes over existing data).
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

# 200 random 4 KiB reads over the first 64 GiB, one every 50 ms
python3 - "$work/rand.trace" <<'PY'
import random, sys
random.seed(7)
with open(sys.argv[1], "w") as f:
    for i in range(200):
        f.write("%.3f 0 %d 8 1\n" % (i * 50.0, random.randrange(0, 64 << 21) // 8 * 8))
PY
"$IOMODEL" replay --target sim:wd6400aaks --json "$work/rand.trace" >"$work/timed.json" 2>"$work/err"
ok "timed replay on sim:wd6400aaks: status 0, nothing on stderr" bash -c "[ $? -eq 0 ] && [ ! -s '$work/err' ]"
ok "timed: 200 reads over >= 9.95 s of virtual time, IOPS = requests / seconds" python3 - "$work/timed.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "iomodel.replay/1" and d["speed"] == "timed", d
assert d["completed"] == 200 and d["reads"] == 200 and d["writes"] == 0
assert 9.95 <= d["seconds"] < 10.1, d["seconds"]
assert abs(d["iops"] - 200 / d["seconds"]) < 1e-6 * d["iops"]
s, r = d["service"], d["response"]
# one request at a time on a 7200 rpm disk: a few to ~25 ms each, spread
assert 3 < s["mean_ms"] < 25 and s["p50_ms"] < s["p99_ms"] <= s["max_ms"], s
assert r["mean_ms"] >= s["mean_ms"] - 1e-9
assert "demerit_ms" not in d
PY
"$IOMODEL" replay --target sim:wd6400aaks --speed asfast --qd 1 --json "$work/rand.trace" >"$work/q1.json"
"$IOMODEL" replay --target sim:wd6400aaks --speed asfast --qd 32 --json "$work/rand.trace" >"$work/q32.json"
ok "as fast: QD 32 beats QD 1 (the drive reorders), QD 1 far faster than timed" python3 - "$work/q1.json" "$work/q32.json" <<'PY'
import json, sys
q1, q32 = (json.load(open(p)) for p in sys.argv[1:])
print("QD1", q1["iops"], "QD32", q32["iops"])
assert q1["qd"] == 1 and q32["qd"] == 32 and q1["completed"] == q32["completed"] == 200
assert q32["iops"] > 1.2 * q1["iops"] and q1["seconds"] < 5
# queued: the response of a request includes its wait for a slot... here arrival = submission
assert abs(q1["response"]["mean_ms"] - q1["service"]["mean_ms"]) < 1e-6
PY

# blkparse text: hand-written in blkparse's documented default format (blktrace needs
# debugfs, which this VM does not have); Q events are replayed, the rest skipped
cat >"$work/blk.txt" <<'EOF2'
  8,0    1        1     0.000000000  4242  Q   R 2048 + 8 [dd]
  8,0    1        2     0.000001200  4242  G   R 2048 + 8 [dd]
  8,0    1        3     0.000003000  4242  D   R 2048 + 8 [dd]
  8,0    1        4     0.004100000     0  C   R 2048 + 8 [0]
  8,0    0        1     0.010000000  4243  Q  WS 409600 + 256 [kworker/u8:2]
  8,0    0        2     0.010002000  4243  D  WS 409600 + 256 [kworker/u8:2]
  8,0    1        5     0.020000000  4242  Q   R 2056 + 8 [dd]
  8,0    1        6     0.030000000  4242  Q FWS [jbd2/sda1-8]
CPU0 (8,0):
 Reads Queued:           0,        0KiB	 Writes Queued:           1,      128KiB
Total (8,0):
 Reads Queued:           2,        8KiB	 Writes Queued:           1,      128KiB
EOF2
"$IOMODEL" replay --target sim:wd6400aaks --format blkparse --json "$work/blk.txt" >"$work/blk.json"
ok "blkparse: the 3 queued requests (2 reads, 1 write of 128 KiB)" python3 - "$work/blk.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["trace"]["format"] == "blkparse" and d["completed"] == 3, d
assert d["reads"] == 2 and d["writes"] == 1 and d["write_bytes"] == 131072
assert d["read_bytes"] == 8192 and d["seconds"] >= 0.02
PY

# a DiskSim validation trace: closed loop with think times, demerit against the measured
printf 'R Miss 1000 8 9000 20000\nR Hit 1008 8 600 15000\nW Miss 500000 16 11000 10000\nR Miss 90000 8 14000 0\n' >"$work/v.trace"
"$IOMODEL" replay --target sim:wd6400aaks --format validate --json "$work/v.trace" >"$work/v.json"
ok "validate: one at a time, think times in the elapsed time, a demerit in ms" python3 - "$work/v.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["qd"] == 1 and d["completed"] == 4 and d["writes"] == 1, d
assert d["seconds"] * 1e3 >= 45 + 4 * d["service"]["mean_ms"] - 1e-6
assert 0 <= d["demerit_ms"] < 50, d["demerit_ms"]
PY
"$IOMODEL" replay --target sim:wd6400aaks --format validate "$work/v.trace" >"$work/v.txt"
ok "validate: the text output prints the demerit" grep -q "^demerit [0-9.]* ms" "$work/v.txt"
"$IOMODEL" replay --target sim:wd6400aaks --format validate --log "$work/v.csv" "$work/v.trace" >/dev/null
ok "--log: one CSV line per request, in trace order, with the measured time" python3 - "$work/v.csv" "$work/v.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))
assert [int(r["line"]) for r in rows] == [1, 2, 3, 4], rows
assert [r["op"] for r in rows] == ["read", "read", "write", "read"]
assert float(rows[2]["measured_ms"]) == 11.0 and int(rows[2]["bytes"]) == 8192
mean = sum(float(r["service_ms"]) for r in rows) / 4
assert abs(mean - d["service"]["mean_ms"]) < 1e-3, (mean, d["service"])
PY

ok "null target, as fast" bash -c "'$IOMODEL' replay --target null --size 64g --speed asfast '$work/rand.trace' | grep -q 'completed 200: 200 reads'"
# a real file: reads of a new file; writes over an existing one need --destroy-data
printf '0 0 0 8 1\n1 0 64 8 1\n2 0 128 8 0\n' >"$work/small.trace"
ok "a new file (created, 16 MiB): timed replay with a write" \
	bash -c "'$IOMODEL' replay --target '$work/f' --size 16m --keep '$work/small.trace' | grep -q 'completed 3: 2 reads, 1 writes'"
# (the kept file is iomodel's own, marked complete, so it may be written again;
# a file of the user's may not)
head -c 16777216 /dev/urandom >"$work/user.bin"
sum=$(sha256sum <"$work/user.bin")
st=$(run_status "$IOMODEL" replay --target "$work/user.bin" "$work/small.trace")
ok "writes over a user's file without --destroy-data: exit 2, one line, file untouched" \
	bash -c "[ $st -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q destroy-data '$work/err' && [ \"\$(sha256sum <'$work/user.bin')\" = '$sum' ]"
ok "... and with it: done" bash -c "'$IOMODEL' replay --target '$work/user.bin' --destroy-data '$work/small.trace' >/dev/null"
ok "iomodel's own kept file may be replayed on again" \
	bash -c "'$IOMODEL' replay --target '$work/f' '$work/small.trace' >/dev/null"

# timed on a real file: each request's service time is its own, not a wait until the
# queue fills (io_uring's deferred completions were seen only then: ~300 ms each here)
python3 -c 'print("".join("%d 0 %d 8 1\n" % (i * 50, i * 64) for i in range(12)))' >"$work/slow.trace"
"$IOMODEL" replay --target "$work/f" --json "$work/slow.trace" >"$work/slow.json"
ok "timed on a file, 12 reads 50 ms apart: median service time under 25 ms" \
	json_true "$work/slow.json" "d['completed'] == 12 and d['service']['p50_ms'] < 25"

# blkparse's own output: blk_io_trace records (blktrace_api.h, version 7) of a
# kernel's events per request (Q G I D C, a back merge, a flush, a discard) on two
# CPUs, formatted by the real blkparse (blktrace itself needs debugfs tracing)
if command -v blkparse >/dev/null; then
	python3 - "$work/bt" <<'PY'
import random, struct, sys
rnd, seq, recs = random.Random(3), [0, 0], [[], []]
def ev(cpu, t, sector, nbytes, act, cats):
    seq[cpu] += 1
    recs[cpu].append(struct.pack("<IIQQIIIIIHH", 0x65617407, seq[cpu], t, sector, nbytes,
                                 act | cats << 16, 4242, 8 << 20, cpu, 0, 0))
t = 0
for i in range(40):
    cpu, rw = i % 2, (2 | 8) if i % 3 == 0 else 1        # WRITE|SYNC or READ
    sector, nb = rnd.randrange(0, 1 << 20) // 8 * 8, rnd.choice([4096, 65536])
    t += rnd.randrange(100_000, 2_000_000)
    for dt, act, cat in ((0, 1, 16 | 256), (500, 4, 16), (900, 12, 16), (2000, 7, 64 | 256),
                         (300_000, 8, 128 | 256)):
        ev(cpu, t + dt, sector, nb, act, rw | cat)
    if i == 10:                                           # queued, then merged back
        ev(cpu, t + 3000, sector + nb // 512, 4096, 1, rw | 16 | 256)
        ev(cpu, t + 3100, sector + nb // 512, 4096, 2, rw | 16 | 256)
    if i == 20:                                           # a flush, no sectors
        ev(cpu, t + 5000, 0, 0, 1, 2 | 4 | 16)
    if i == 30:                                           # a discard
        ev(cpu, t + 5000, 65536, 1 << 20, 1, 2 | (1 << 13) | 16)
for cpu in (0, 1):
    open("%s.blktrace.%d" % (sys.argv[1], cpu), "wb").write(b"".join(recs[cpu]))
PY
	blkparse -i "$work/bt" >"$work/bt.txt" 2>/dev/null
	ok "blkparse formats the records: 43 Q lines" [ "$(grep -c ' Q ' "$work/bt.txt")" = 43 ]
	ok "and its summary" grep -q '^Total' "$work/bt.txt"
	"$IOMODEL" replay --target sim:wd6400aaks --format blkparse --json "$work/bt.txt" \
		>"$work/bt.json" 2>"$work/err"
	ok "replay of blkparse's output: the 41 queued reads and writes (not the flush, the discard)" \
		json_true "$work/bt.json" "d['completed'] == 41 and d['reads'] + d['writes'] == 41 \
		and d['writes'] == 14"
	"$IOMODEL" replay --target sim:wd6400aaks --format blkparse --device $((8 * 1048576)) \
		"$work/bt.txt" >/dev/null 2>&1
	ok "--device 8,0 as 8 * 1048576 + 0" [ $? -eq 0 ]
else
	echo "note: no blkparse (Debian package blktrace): its own output is not replayed"
fi

# refusals: one line on stderr naming FILE:LINE, exit 2
printf '0 0 0 8 1\n1.5 0 zz 8 1\n' >"$work/bad.trace"
st=$(run_status "$IOMODEL" replay --target sim:wd6400aaks "$work/bad.trace")
ok "a bad line: exit 2, one line naming bad.trace:2" \
	bash -c "[ $st -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q 'bad.trace:2: bad block' '$work/err'"
printf '0 0 0 8 1\n1 0 99999999999 8 1\n' >"$work/far.trace"
st=$(run_status "$IOMODEL" replay --target sim:wd6400aaks "$work/far.trace")
ok "a request beyond the end of the target: exit 2, names far.trace:2" \
	bash -c "[ $st -eq 2 ] && grep -q 'far.trace:2: .*beyond the end' '$work/err'"
st=$(run_status "$IOMODEL" replay --target sim:wd6400aaks --format blkparse "$work/rand.trace")
ok "a trace of another format: exit 2 (no requests)" bash -c "[ $st -eq 2 ] && grep -q 'no requests' '$work/err'"
st=$(run_status "$IOMODEL" replay --target sim:wd6400aaks --format ascii "$work/rand.trace")
ok "an unknown --format: exit 2" bash -c "[ $st -eq 2 ] && grep -q -- '--format' '$work/err'"
st=$(run_status "$IOMODEL" replay --target sim:wd6400aaks)
ok "no TRACE: exit 2" bash -c "[ $st -eq 2 ] && grep -q TRACE '$work/err'"
st=$(run_status "$IOMODEL" replay --target sim:wd6400aaks /dev/zero)
ok "/dev/zero as a trace: exit 2, not a regular file" bash -c "[ $st -eq 2 ] && grep -q 'regular file' '$work/err'"
st=$(run_status "$IOMODEL" replay --target sim:wd6400aaks --device 3 "$work/rand.trace")
ok "--device with no requests: exit 2" bash -c "[ $st -eq 2 ] && grep -q -- '--device 3: no requests' '$work/err'"
finish
