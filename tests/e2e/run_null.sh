#!/usr/bin/env bash
# run_null.sh — runs on the null target through the CLI: stop rules, the JSON
# contract, CSV, the table, mixed workloads and the queue depth.
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

"$IOMODEL" run --target null --rw randread --bs 4k --qd 32 --ios 100000 --json >"$work/r.json"
ok "json run exits 0" [ $? -eq 0 ]
ok "schema named" [ "$(json "$work/r.json" 'd["schema"]')" = "iomodel.run/1" ]
ok "one result, a read" [ "$(json "$work/r.json" '[r["op"] for r in d["results"]]')" = "['read']" ]
ok "ios exactly --ios" [ "$(json "$work/r.json" 'd["results"][0]["ios"]')" = 100000 ]
ok "bytes = ios * bs" [ "$(json "$work/r.json" 'd["results"][0]["bytes"]')" = 409600000 ]
ok "iops = ios / seconds" [ "$(json "$work/r.json" 'abs(d["results"][0]["iops"]*d["results"][0]["seconds"]-100000)<1')" = True ]
ok "mib_s consistent" [ "$(json "$work/r.json" 'abs(d["results"][0]["mib_s"]-d["results"][0]["iops"]*4096/1048576)<1e-6*d["results"][0]["mib_s"]+1e-9')" = True ]
ok "latency keys" [ "$(json "$work/r.json" 'sorted(d["results"][0]["lat_us"])')" = "['max', 'mean', 'min', 'p50', 'p90', 'p95', 'p99', 'p999']" ]
ok "latencies ordered" [ "$(json "$work/r.json" '(lambda l: l["min"]<=l["p50"]<=l["p90"]<=l["p95"]<=l["p99"]<=l["p999"]<=l["max"] and l["min"]<=l["mean"]<=l["max"])(d["results"][0]["lat_us"])')" = True ]
ok "cpu keys" [ "$(json "$work/r.json" 'sorted(d["results"][0]["cpu"])')" = "['sys_s', 'user_s']" ]
ok "histogram layout and bound" [ "$(json "$work/r.json" '(lambda h: h["layout"]=="log-linear" and h["max_relative_error"]<=0.01 and sum(b[2] for b in h["buckets"])==100000)(d["results"][0]["histogram"])')" = True ]
ok "timeline counts add up" [ "$(json "$work/r.json" 'sum(s["ios"] for s in d["results"][0]["timeline"])')" = 100000 ]
ok "job records qd 32" [ "$(json "$work/r.json" 'd["job"]["qd"]')" = 32 ]
ok "engine is null" [ "$(json "$work/r.json" 'd["job"]["engine"]')" = null ]

"$IOMODEL" run --target null --rw randrw --rwmix 70 --bs 8k --qd 4 --bytes 80m --json >"$work/m.json"
ok "mixed run exits 0" [ $? -eq 0 ]
ok "mixed: read and write" [ "$(json "$work/m.json" '[r["op"] for r in d["results"]]')" = "['read', 'write']" ]
ok "mixed: --bytes reached exactly (10240 IOs of 8k)" [ "$(json "$work/m.json" 'sum(r["ios"] for r in d["results"])')" = 10240 ]
ok "mixed: about 70 % reads" [ "$(json "$work/m.json" 'abs(d["results"][0]["ios"]/10240-0.7)<0.03')" = True ]

start=$(date +%s%N)
"$IOMODEL" run --target null --runtime 700ms --ramp 200ms --json >"$work/t.json"
ok "runtime run exits 0" [ $? -eq 0 ]
wall=$(( ($(date +%s%N) - start) / 1000000 ))
ok "measured seconds ~0.7" [ "$(json "$work/t.json" 'abs(d["seconds"]-0.7)<0.05')" = True ]
ok "wall time covers ramp + runtime ($wall ms)" [ "$wall" -ge 880 ] 

"$IOMODEL" run --target null --ios 1000 --csv >"$work/r.csv"
ok "csv header" grep -q '^op,random,size,qd,ios,bytes,seconds,iops,mib_s,lat_min_us' "$work/r.csv"
ok "csv row" grep -q '^read,1,4096,1,1000,4096000,' "$work/r.csv"
"$IOMODEL" run --target sim:ocz-core --rw randread --bs 4k --ios 100 --csv >"$work/a.csv"
"$IOMODEL" run --target sim:ocz-core --rw randread --bs 1m --ios 20 --csv >"$work/b.csv"
"$IOMODEL" fit "$work/a.csv" "$work/b.csv" --json >"$work/fit.json"
ok "run --csv output feeds fit" [ "$(json "$work/fit.json" 'd["model"]["read"]["str_mib_s"] > 0')" = True ]

"$IOMODEL" run --target null --ios 1000 >"$work/r.txt"
ok "table names the columns and units" grep -q 'latency in us' "$work/r.txt"
ok "table has a read row with 1000 IOs" grep -Eq '^read +1000 ' "$work/r.txt"
"$IOMODEL" run --target null --rw randrw --qd 256 --bs 64m --ios 10000000 >"$work/wide.txt"
"$IOMODEL" run --target 'sim:ocz-core,fault_eio=1m-2m' --rw randrw --bs 64k --ios 100 \
	>>"$work/wide.txt" 2>/dev/null
"$IOMODEL" run --target sim:wd6400aaks --rw randwrite --bs 512 --ios 40 >>"$work/wide.txt"
"$IOMODEL" run --target null --rw randrw --qd 64 --ios 100000 --jobs 16 --split --per-job \
	>>"$work/wide.txt"
"$IOMODEL" run --target 'sim:ssd,capacity=64m,spare=0.5,fault_lost_write_rate=0.1' --rw randwrite \
	--qd 4 --ios 2000 --verify >>"$work/wide.txt" 2>/dev/null
ok "tables fit 80 columns ($(awk '{ if (length > n) n = length } END { print n }' "$work/wide.txt") at most)" \
	awk 'length > 80 { exit 1 }' "$work/wide.txt"
ok "wide table still has its rows" [ "$(grep -Ec '^(read|write) ' "$work/wide.txt")" -ge 8 ]

"$IOMODEL" run --target null --rwmix 20 --rw randrw --ios 10000 --json >"$work/order.json"
ok "--rwmix before --rw still counts" [ "$(json "$work/order.json" 'd["job"]["read_pct"]')" = 20 ]
"$IOMODEL" run --target=null --bs=8k --ios=7 --json >"$work/eq.json"
ok "--option=value spelling" [ "$(json "$work/eq.json" '(d["job"]["bs"], d["results"][0]["ios"])')" = "(8192, 7)" ]
"$IOMODEL" run --target null --rw write --ios 10 --json >"$work/w.json"
ok "write-only run has one write result" [ "$(json "$work/w.json" '[r["op"] for r in d["results"]]')" = "['write']" ]
finish
