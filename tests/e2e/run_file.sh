#!/usr/bin/env bash
# run_file.sh — runs on real files through every backend: a scratch file is
# created, laid out, measured and removed; region, buffered IO, --keep; an IO
# that comes back short (the file shrinks under the run) is reported with its
# offset and ends the run cleanly.
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT
f=$work/scratch.bin

for engine in io_uring libaio psync; do
	"$IOMODEL" run --target "$f" --size 32m --rw randread --bs 4k --qd 8 --ios 2000 \
		--engine "$engine" --json >"$work/$engine.json" 2>"$work/$engine.err"
	ok "$engine: randread exits 0" [ $? -eq 0 ]
	ok "$engine: 2000 reads" [ "$(json "$work/$engine.json" 'd["results"][0]["ios"]')" = 2000 ]
	ok "$engine: engine recorded" [ "$(json "$work/$engine.json" 'd["job"]["engine"]')" = "$engine" ]
	ok "$engine: O_DIRECT by default" [ "$(json "$work/$engine.json" 'd["job"]["direct"]')" = True ]
	ok "$engine: scratch file removed" [ ! -e "$f" ]
done
ok "psync says it runs at queue depth 1" grep -q "queue depth 1" "$work/psync.err"
ok "JSON has a notices list" [ "$(json "$work/io_uring.json" 'type(d["notices"]).__name__')" = list ]

"$IOMODEL" run --target "$f" --size 16m --rw write --bs 1m --qd 2 --bytes 16m --keep --json >"$work/w.json"
ok "sequential write on a new file exits 0" [ $? -eq 0 ]
ok "16 writes of 1 MiB" [ "$(json "$work/w.json" 'd["results"][0]["ios"]')" = 16 ]
ok "--keep keeps the file" [ -f "$f" ]
ok "kept file has the size asked" [ "$(stat -c %s "$f")" = 16777216 ]

"$IOMODEL" run --target "$f" --rw randread --bs 4k --offset 4m --length 4m --ios 500 --buffered --json >"$work/b.json"
ok "buffered read of an existing file exits 0" [ $? -eq 0 ]
ok "buffered recorded" [ "$(json "$work/b.json" 'd["job"]["direct"]')" = False ]
ok "region recorded" [ "$(json "$work/b.json" '(d["job"]["offset"], d["job"]["length"])')" = "(4194304, 4194304)" ]
ok "existing file is not removed by a read" [ -f "$f" ]

"$IOMODEL" run --target "$f" --rw read --bs 1k --ios 4 --buffered --json >"$work/odd.json"
ok "1 KiB buffered reads work" [ "$(json "$work/odd.json" 'd["results"][0]["ios"]')" = 4 ]

# A file that shrinks during the run: reads past its new end come back short.
cp "$f" "$work/shrinking.bin"
"$IOMODEL" run --target "$work/shrinking.bin" --rw randread --bs 4k --buffered \
	--runtime 20s --json >"$work/short.json" 2>"$work/short.err" &
pid=$!
sleep 0.5
truncate -s 0 "$work/shrinking.bin"
wait $pid
status=$?
ok "short read ends the run with status 1 (got $status)" [ "$status" -eq 1 ]
ok "stderr names the short read and its offset: $(cat "$work/short.err")" \
	grep -Eq "short read at offset [0-9]+: 0 of 4096 bytes" "$work/short.err"
ok "results still printed, with the error" [ "$(json "$work/short.json" 'd["error"]["op"]')" = read ]
ok "ended well before the 20 s runtime" [ "$(json "$work/short.json" 'd["seconds"] < 10')" = True ]
finish
