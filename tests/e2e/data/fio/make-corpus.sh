#!/usr/bin/env bash
# make-corpus.sh — how the fio outputs in this folder were made: each file is
# what fio wrote, unchanged. Run from this folder to measure them again (the
# figures will differ; tests/unit/test_fio_corpus.c reads its expectations
# from tests/e2e/data/fio/expected.csv, which this script rewrites).
# Needs fio (scripts/install-deps.sh) and ~100 MiB in /var/tmp.
set -eu
cd "$(dirname "$0")"
scratch=$(mktemp -d /var/tmp/iomodel-fio-corpus.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
file="$scratch/data"
common=(--filename="$file" --size=16m --runtime=1 --ioengine=libaio --direct=1)

# one job per call: name, output format, output file, options...
one() {
	local name=$1 format=$2 out=$3
	shift 3
	fio --name="$name" "${common[@]}" "$@" --output-format="$format" >"$out" 2>&1
}

one iec-randread json json-iec-randread-4Ki-qd4.json --rw=randread --bs=4Ki --iodepth=4
one plus-randread json+ jsonplus-randread-16k-qd8.json --rw=randread --bs=16k --iodepth=8
# json+ (latency histogram bins): a size x depth grid, total latency alone, clones
mkdir -p jsonplus
for bs in 4k 64k; do
	for qd in 1 8; do
		one plus-grid json+ "jsonplus/randread-$bs-qd$qd.json" --rw=randread --bs="$bs" \
			--iodepth="$qd"
	done
done
one plus-total json+ jsonplus-total-randwrite-16k-qd4.json --rw=randwrite --bs=16k --iodepth=4 \
	--clat_percentiles=0 --lat_percentiles=1
one plus-clones json+ jsonplus-numjobs2-randread-8k-qd2.json --rw=randread --bs=8k --iodepth=2 \
	--numjobs=2
one normal-write normal,json normal-json-write-128Ki-qd2.txt --rw=write --bs=128Ki --iodepth=2
one clones json numjobs3-randread-8k-qd2.json --rw=randread --bs=8k --iodepth=2 --numjobs=3
one grouped json numjobs3-group-randwrite-4KB-qd4.json --rw=randwrite --bs=4KB --iodepth=4 \
	--numjobs=3 --group_reporting
one pair json randrw70-4k-64k-qd4.json --rw=randrw --rwmixread=70 --bs=4k,64k --iodepth=4
one split-one json bssplit-8k-only.json --rw=randread --bssplit=8k/100 --iodepth=1
one split-two json bssplit-mixed.json --rw=randread --bssplit=4k/50:64k/50 --iodepth=1
one range json bsrange-4k-16k.json --rw=randread --bsrange=4k-16k --iodepth=1
one dash json bs-dash-4k-16k.json --rw=randread --bs=4k-16k --iodepth=1
# fio's kb_base=1024 (its default) reads "KiB" as 1000 bytes: buffered, as
# 4000-byte IOs cannot be O_DIRECT
fio --name=kib --filename="$file" --size=4m --ioengine=psync --rw=read --bs=4KiB \
	--output-format=json >kib-means-1000-4KiB.json 2>&1
fio --name=kb1000 --kb_base=1000 --filename="$file" --size=4m --ioengine=psync --rw=read \
	--bs=4KiB --output-format=json >kb-base-1000-4KiB.json 2>&1

# several workloads in one file, options in [global]
cat >"$scratch/mixed.fio" <<JOB
[global]
filename=$file
size=16m
runtime=1
ioengine=libaio
direct=1
iodepth=2
bs=8k

[seq-read-64k]
rw=read
bs=64k

[rand-write]
stonewall
rw=randwrite

[rand-read-2jobs]
stonewall
rw=randread
numjobs=2
JOB
fio "$scratch/mixed.fio" --output-format=json >mixed-workloads-global.json 2>&1

# a grid of sizes x depths, one file per point (as fio-plot and most scripts do)
mkdir -p grid
for bs in 4Ki 16k 64K 256kb; do
	for qd in 1 4 16; do
		one grid json "grid/randread-$bs-qd$qd.json" --rw=randread --bs="$bs" --iodepth="$qd"
	done
done

# fio's client/server mode (client_stats, hostname and port per entry, an
# "All clients" sum): servers on this host, one or two of them
fio --server=ip:127.0.0.1,8799 --daemonize="$scratch/srv1.pid"
fio --server=ip:127.0.0.1,8798 --daemonize="$scratch/srv2.pid"
sleep 1
for n in 1 2; do
	cat >"$scratch/cs$n.fio" <<JOB
[global]
ioengine=libaio
direct=1
size=16m
runtime=1
filename=$scratch/cs$n.data
bs=4k

[cs-randread-qd4]
rw=randread
iodepth=4
JOB
done
fio --client=ip:127.0.0.1,8799 "$scratch/cs1.fio" --output-format=json \
	>client-1server-randread-4k-qd4.json
fio --client=ip:127.0.0.1,8799 "$scratch/cs1.fio" --client=ip:127.0.0.1,8798 "$scratch/cs2.fio" \
	--output-format=json >client-2servers-randread-4k-qd4.json
kill "$(cat "$scratch/srv1.pid")" "$(cat "$scratch/srv2.pid")"
