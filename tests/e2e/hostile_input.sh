#!/usr/bin/env bash
# hostile_input.sh — malformed and hostile input (issue 8): numbers out of
# range in model JSON, a simulated drive too large for memory, --size 0,
# over-long INI lines, newlines and control bytes in options and files,
# files that are not regular files (read or written), markup in report
# labels, bad replay traces, non-finite raid figures in JSON. Each bad input
# is one printable line on stderr, exit status 2, and no output file.
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT
cd "$work"

expect_bad() {	# expect_bad PATTERN ARGS...: exit 2, one printable stderr line matching PATTERN
	local pattern=$1; shift
	local status
	status=$(run_status "$IOMODEL" "$@")
	ok "exit 2 for: ${*@Q}" [ "$status" -eq 2 ]
	ok "one stderr line for: ${*@Q}" [ "$(wc -l <"$work/err")" -eq 1 ]
	ok "only printable bytes on stderr for: ${*@Q}" \
		python3 -c 'import sys; b=open(sys.argv[1],"rb").read(); sys.exit(any(c<32 and c!=10 or c>126 for c in b))' "$work/err"
	ok "message names the problem ($pattern): $(cat "$work/err")" grep -q -- "$pattern" "$work/err"
	ok "nothing on stdout for: ${*@Q}" [ ! -s "$work/out" ]
}

# --- a model JSON whose sizes are negative, fractional or huge ---------------
printf 'op,size,qd,iops\nrandread,4k,1,1000\nrandread,64k,1,600\nrandread,1m,1,90\nrandread,4k,4,2500\nrandread,4k,16,4000\nrandwrite,4k,1,900\nrandwrite,64k,1,500\nrandwrite,1m,1,80\n' >pts.csv
"$IOMODEL" fit pts.csv -o model.json >/dev/null
ok "fit wrote a model with points" [ "$(json model.json "len(d['model']['read']['points']) > 0")" = True ]
edit() {	# edit OUT PYTHON-STATEMENT-ON-m
	python3 -c 'import json,sys; m=json.load(open("model.json")); exec(sys.argv[2]); json.dump(m, open(sys.argv[1], "w"))' "$@"
}
edit neg.json 'm["model"]["read"]["points"][0]["size_bytes"] = -4096'
edit frac.json 'm["model"]["read"]["points"][1]["size_bytes"] = 4096.5'
edit huge.json 'm["model"]["write"]["points"][0]["size_bytes"] = 1e300'
edit tp.json 'm["model"]["read"]["two_point"]["size_bytes"][1] = -1'
edit qd.json 'm["model"]["read"]["queue_depth"]["size_bytes"] = 1.8446744073709552e19'
expect_bad "model.read.points\[0\].size_bytes: out of range" report neg.json -o r.html
expect_bad "model.read.points\[1\].size_bytes: not a whole number" report frac.json -o r.html
expect_bad "model.write.points\[0\].size_bytes: out of range" report huge.json -o r.html
expect_bad "model.read.two_point.size_bytes\[1\]: out of range" report tp.json -o r.html
expect_bad "model.read.queue_depth.size_bytes" report qd.json -o r.html
ok "no report written from a bad model" [ ! -e r.html ]
edit str.json 'm["model"]["read"]["depths"][0]["str_mib_s"] = 1e300'
expect_bad "model.read.depths\[0\].str_mib_s: expected a positive number" predict --model str.json --rw randread --bs 4k
printf 'op,size,qd,iops\nrandread,17179869184g,1,1000\n' >bigsize.csv
expect_bad "bigsize.csv:2: size '17179869184g': too large" fit bigsize.csv
printf 'op,size,qd,mib_s\nrandread,512,1,1e308\n' >bigrate.csv
expect_bad "bigrate.csv:2: mib_s '1e308': too large" fit bigrate.csv

# --- a simulated drive whose state would not fit in memory -------------------
expect_bad "needs about 29.41 GiB of memory, more than the limit .*--sim-memory" \
	run --target sim:ssd,capacity=14t --ios 1
expect_bad "more than the limit of 1 MiB (--sim-memory)" \
	run --target sim:ssd,capacity=64g --ios 1 --sim-memory 1m
expect_bad "--sim-memory" characterize --target sim:ssd,capacity=64g --sim-memory 1m --quick
ok "a drive within --sim-memory runs" \
	"$IOMODEL" run --target sim:ssd,capacity=1g --ios 10 --sim-memory 64m --json >/dev/null
expect_bad "--sim-memory '0': must be positive" run --target sim:ocz-core --sim-memory 0
# a capacity below one merge unit: the suggestion is one unit (it was capacity=0k),
# and in an array the error says the member's capacity came from member_capacity
expect_bad "use capacity=11520k" run --target sim:ocz-core,capacity=1m --ios 1
expect_bad "member ocz-core,capacity=1048576 (capacity from member_capacity): .*use capacity=11520k" \
	run --target sim:raid5,member=ocz-core,member_capacity=1m --ios 1
# an array counts all its members (64 SSDs of 2 TB each were accepted: 3.4 GB, 37 s for 1 IO)
expect_bad "needs about 252.26 GiB of memory, more than the limit .*--sim-memory" \
	run --target sim:raid0,disks=64,member=ssd,member_capacity=2t --ios 1
expect_bad "more than the limit of 64 MiB (--sim-memory)" \
	run --target sim:raid5,disks=4,member=ssd,member_capacity=16g --ios 1 --sim-memory 64m
ok "an array within --sim-memory runs" \
	"$IOMODEL" run --target sim:raid5,disks=4,member=ssd,member_capacity=1g --ios 10 --sim-memory 64m --json >/dev/null

# --- --size 0 and other zeros that meant the default -------------------------
expect_bad "--size '0': must be positive" run --target null --size 0 --ios 1
expect_bad "--point-time '0': must be positive" qd --target null --qd 1:2 --point-time 0
expect_bad "--point-time '0s': must be positive" sweep --target null --point-time 0s
expect_bad "--round '0': must be positive" state --target sim:ssd,capacity=64m --destroy-data --round 0
expect_bad "--size '0': must be positive" sweep --target null --size 0
expect_bad "--size '0': must be positive" characterize --target sim:ocz-core --size 0
for cmd in qd profile; do
	expect_bad "--size '0': must be positive" $cmd --target sim:ocz-core --size 0
done
expect_bad "--size '0': must be positive" state --target sim:ocz-core --destroy-data --size 0
expect_bad "--sim-memory" profile --target sim:ssd,capacity=14t

# --- INI lines longer than inih's buffer -------------------------------------
long=$(printf '%0300d' 0)
printf '# %s\n[device]\npreset = wd6400aaks\nrpm = 5400 ; %s\n' "$long" "$long" >long-comment.ini
ok "a 300-byte comment and inline comment are accepted" \
	sh -c "'$IOMODEL' sim show ./long-comment.ini | grep -q 'rpm  *5400'"
printf '[device]\npreset = wd6400aaks\nrpm = 5400%s\n' "$(printf '%300s' '')" >long-line.ini
expect_bad "long-line.ini:3: line longer than 198 bytes" sim show ./long-line.ini

# --- newlines and control bytes in what is echoed ----------------------------
expect_bad "--rw 'rand\\\\nread'" run --target null --rw $'rand\nread'
expect_bad "unknown parameter 'capa\\\\ncity'" run --target $'sim:ssd,capa\ncity=1g' --ios 1
expect_bad "unknown command" $'fr\x1b[31mob'
printf '{"schema": "iomodel.run/1\\n\\u001b[2J"}' >schema.json
expect_bad "schema 'iomodel.run/1\\\\n\\\\x1b\[2J': not supported" fit schema.json
printf 'op,size,qd,iops\n\x1b[31mread,4k,1,100\n' >esc.csv
expect_bad "esc.csv:2: op '\\\\x1b\[31mread'" fit esc.csv
bell=$'bell\a.csv'
printf 'op,size,qd,iops\nrandread,4k,1,1000\nrandread,64k,1,500\n' >"$bell"
"$IOMODEL" fit "$bell" >sheet.txt
ok "a control byte in a file name is escaped in the spec sheet" grep -q 'spec sheet of bell\\x07.csv' sheet.txt

ffname=$'x\xff.csv'
cp pts.csv "$ffname"
ok "fit --json of a file name that is not UTF-8 writes its JSON" \
	sh -c "'$IOMODEL' fit \"\$1\" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(d[\"source\"] != \"x\\\\xff.csv\")'" _ "$ffname"
ok "run --json on a target path that is not UTF-8 writes its JSON" \
	sh -c "'$IOMODEL' run --target \"\$1\" --size 1m --ios 1 --json | python3 -c 'import json,sys; json.load(sys.stdin)'" _ "./$ffname.bin"

# --- input files that are not regular files ----------------------------------
mkfifo fifo
expect_bad "'fifo': not a regular file" fit fifo
expect_bad "not a regular file" fit /dev/zero
expect_bad "not a regular file" run --target sim:/dev/zero --ios 1
expect_bad "not a regular file" run --target sim:./fifo --ios 1

# --- output files that are not regular files --------------------------------
# (a FIFO would hang the open: each command has a timeout; procfs and /dev
# hold kernel settings and devices, never a result)
real_iomodel=$IOMODEL
IOMODEL=$work/iomodel-timeout
printf '#!/bin/sh\nexec timeout -k 5 20 "%s" "$@"\n' "$real_iomodel" >"$IOMODEL"
chmod +x "$IOMODEL"
printf '0 0 0 8 1\n1 0 64 8 0\n' >ok.trace
for out in fifo /proc/self/comm /dev/full; do
	expect_bad "--fio-job: '$out': .*not" run --target null --ios 10 --fio-job "$out"
	expect_bad "--log: '$out': .*not" replay --target null ok.trace --log "$out"
	expect_bad "^iomodel: -o: '$out': .*not" fit pts.csv -o "$out"
	expect_bad "^iomodel: -o: '$out': .*not" raid --level 1 --disks 2 --member model.json -o "$out"
done
expect_bad "in /dev, not a place" run --target null --ios 10 --fio-job /dev/iomodel-typo
ok "no file created in /dev" [ ! -e /dev/iomodel-typo ]
expect_bad "--log: cannot write 'no/such/dir/a.nb'" replay --target null ok.trace --log $'no/such/dir/a\nb'
echo keep >kept.csv
ok "replay --log into an existing file works" \
	sh -c "'$IOMODEL' replay --target null ok.trace --log kept.csv >/dev/null && grep -q '^1,read,0,4096,' kept.csv && ! grep -q keep kept.csv"
# a result file that is the target itself (a read-only run truncated its own target)
head -c 1048576 /dev/urandom >data.bin
sum=$(checksum data.bin)
expect_bad "--fio-job 'data.bin': is the target" run --target data.bin --ios 10 --fio-job data.bin
expect_bad "--fio-job './data.bin': is the target" run --target data.bin --ios 10 --fio-job ./data.bin
printf '0 0 0 8 1\n' >read.trace
expect_bad "--log 'data.bin': is the target" replay --target data.bin read.trace --log data.bin
ln -s data.bin data.link
expect_bad "^iomodel: -o 'data.link': is the target" characterize --target data.bin --quick --destroy-data -o data.link
expect_bad "--report 'data.bin': is the target" characterize --target data.bin --quick --destroy-data --report data.bin
ok "the target is left as it was" [ "$(checksum data.bin)" = "$sum" ]
IOMODEL=$real_iomodel

# --- replay traces with times beyond what the clock holds -------------------
IOMODEL=$work/iomodel-timeout
# (1e13 ms = 1e19 ns came out as 2^63 ns; every format, every time field)
bad_trace() {	# bad_trace FORMAT TEXT PATTERN: replay of TEXT as a FORMAT trace is bad input
	printf "$2" >"bad.$1"
	expect_bad "bad.$1:$3" replay --format "$1" --target null "bad.$1"
}
bad_trace disksim '0 0 0 8 1\n1e13 0 8 8 1\n' "2: bad time '1e13'"
bad_trace blkparse '  8,0 1 1 0.0 1 Q R 0 + 8 [dd]\n  8,0 1 2 1e10 1 Q R 8 + 8 [dd]\n' "2: bad time '1e10'"
bad_trace validate 'R Miss 0 8 1e16 0\n' "1: bad service '1e16'"
printf '0 0 0 8 1\n9.2e12 0 8 8 1\n' >near.trace
ok "a time just below 2^63 ns is read" sh -c "'$IOMODEL' replay --target sim:hdd --speed asfast near.trace >/dev/null"
IOMODEL=$real_iomodel
# blkparse devices out of Linux's range (-1,0 and 4096,0 were read, and 4096,0 was 0,0)
bad_trace blkparse '  8,0 1 1 0.0 1 Q R 0 + 8 [dd]\n  4096,0 1 2 0.1 1 Q R 8 + 8 [dd]\n' "2: bad device '4096,0'"
bad_trace blkparse '  -1,0 1 1 0.0 1 Q R 0 + 8 [dd]\n' "1: bad device '-1,0'"
printf '  8,16 1 1 0.0 1 Q R 0 + 8 [dd]\n  8,0 1 2 0.1 1 Q W 8 + 8 [dd]\n' >dev.blk
ok "--device 8388624 is blkparse's 8,16" sh -c "'$IOMODEL' replay --format blkparse --target null --device 8388624 --json dev.blk | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(d[\"reads\"] != 1 or d[\"writes\"] != 0)'"
# a timed replay waiting 1000 s for its next arrival still stops on SIGINT/SIGTERM
printf '0 0 0 8 1\n1000000 0 8 8 1\n' >gap.trace
for sig in INT TERM; do
	timeout -k 5 20 "$IOMODEL" replay --target null --speed timed gap.trace >gap.out 2>&1 &
	pid=$!
	sleep 1
	kill -$sig $pid 2>/dev/null
	wait $pid
	status=$?
	ok "timed replay in a long gap stops on SIG$sig (status $status, 128 + signal)" \
		[ $status -eq $((128 + $(kill -l $sig))) ]
done

# --- raid figures that are not finite ---------------------------------------
# (an instant repair or a vanishing AFR: infinite MTTF/MTTDL made --json
# print nothing and exit 1)
for a in "--mttr 0" "--afr 1e-320"; do
	ok "raid --json $a: exit 0 and JSON" sh -c "'$IOMODEL' raid --level 5 --disks 4 --member model.json $a --json >raid.json"
	ok "raid --json $a: infinite figures are null, finite ones numbers" python3 -c '
import json, math, sys
r = json.load(open("raid.json"))["raid"]
a = sys.argv[1]
inf = ["mttdl_hours", "mttdl_no_ure_hours"] + (["mttf_hours"] if "afr" in a else [])
assert all(r[k] is None for k in inf), r
assert all(isinstance(r[k], float) and math.isfinite(r[k]) for k in ("afr_percent", "years", "loss_over_years_percent")), r' "$a"
done

# --- markup and PLplot escapes in a report label -----------------------------
edit label.json 'm["source"] = "<script>alert(1)</script>#d\u001b[31m"'
ok "report of a model with markup in its source" "$IOMODEL" report label.json -o label.html
ok "the label is HTML-escaped" grep -q '&lt;script&gt;alert(1)&lt;/script&gt;#d\\x1b\[31m' label.html
ok "no raw <script> or ESC in the page" sh -c "! grep -q -e '<script>' -e $'\x1b' label.html"
finish
