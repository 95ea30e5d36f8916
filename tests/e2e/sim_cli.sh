#!/usr/bin/env bash
# sim_cli.sh — simulated drives through the command line: `sim list` and
# `sim show`, sim: targets from presets, overrides and INI files, the device
# counters in the results, identical results for the same seed, an hour of
# simulated time in well under a second, and one-line errors for bad specs.
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT

"$IOMODEL" sim list >"$work/list"
ok "sim list exits 0" [ $? -eq 0 ]
for preset in ocz-core wd6400aaks ridata-s25 intel-x25m-g2 supertalent-gx; do
	ok "sim list names $preset" grep -q "^$preset " "$work/list"
done

"$IOMODEL" sim show ocz-core >"$work/show"
ok "sim show exits 0" [ $? -eq 0 ]
for key in capacity page_kib erase_block_kib channels read_us program_us erase_ms bus_mib_s spare trim write_cache ftl fault_eio; do
	ok "sim show ocz-core lists $key" grep -Eq "^ +$key " "$work/show"
done
"$IOMODEL" sim show wd6400aaks >"$work/show-hdd"
for key in capacity rpm inner_mib_s outer_mib_s seek_track_ms seek_avg_ms seek_full_ms cache_mib write_cache ncq_depth; do
	ok "sim show wd6400aaks lists $key" grep -Eq "^ +$key " "$work/show-hdd"
done
"$IOMODEL" sim show 'sim:wd6400aaks,write_cache=off' >"$work/show-off"
ok "sim show applies overrides" grep -Eq "^ +write_cache +off " "$work/show-off"
# every value sim show prints reads back as an override and changes nothing
settings=$(awk '/^parameters:/ {p = 1; next} /^$/ {p = 0} p {printf ",%s=%s", $1, $2}' "$work/show")
"$IOMODEL" sim show "ocz-core$settings" >"$work/show-again"
ok "sim show's values read back unchanged" cmp -s "$work/show" "$work/show-again"

# Same seed, same numbers; a simulated hour costs no real time (under 1 % of it,
# however loaded the machine: its speed is measured by bench/sim-speed.sh).
run_json() { "$IOMODEL" run --target "$1" --rw randread --bs 4k --qd 32 "${@:2}" --json; }
run_json sim:wd6400aaks --ios 20000 --seed 7 >"$work/a.json"
run_json sim:wd6400aaks --ios 20000 --seed 7 >"$work/b.json"
run_json sim:wd6400aaks --ios 20000 --seed 8 >"$work/c.json"
strip='{k: v for k, v in d["results"][0].items() if k != "cpu"}'
ok "same seed, identical results" [ "$(json "$work/a.json" "$strip")" = "$(json "$work/b.json" "$strip")" ]
ok "another seed, other results" [ "$(json "$work/a.json" "$strip")" != "$(json "$work/c.json" "$strip")" ]
ok "device object present" [ "$(json "$work/a.json" 'd["device"]["model"]')" = hdd ]
ok "engine is sim" [ "$(json "$work/a.json" 'd["job"]["engine"]')" = sim ]
start=$(date +%s%N)
run_json sim:wd6400aaks --runtime 1h >"$work/hour.json"
wall=$(( ($(date +%s%N) - start) / 1000000 ))
ok "a simulated hour: $(json "$work/hour.json" 'd["seconds"]') s in $wall ms of wall time" [ "$wall" -lt 36000 ]
ok "the hour is measured in simulated seconds" [ "$(json "$work/hour.json" 'abs(d["seconds"] - 3600) < 1')" = True ]

"$IOMODEL" run --target sim:ocz-core --rw randwrite --bs 512 --qd 1 --ios 50 --json >"$work/w.json"
ok "ocz-core random writes exit 0" [ $? -eq 0 ]
for key in host_write_bytes flash_write_bytes erases write_amplification; do
	ok "device.$key reported" [ "$(json "$work/w.json" "'$key' in d['device']")" = True ]
done
ok "host writes counted" [ "$(json "$work/w.json" 'd["device"]["host_write_bytes"]')" = 25600 ]
ok "a block FTL amplifies small writes" [ "$(json "$work/w.json" 'd["device"]["write_amplification"] > 100')" = True ]

# Fault injection: an EIO range ends the run cleanly, naming the offset.
status=$(run_status "$IOMODEL" run --target 'sim:ocz-core,fault_eio=1m-2m' --rw read --bs 64k --ios 100 --json)
ok "an injected EIO ends the run with status 1 (got $status)" [ "$status" -eq 1 ]
ok "stderr names the failing offset: $(cat "$work/err")" grep -q "read error at offset 1048576: Input/output error" "$work/err"
ok "results count the injected fault" [ "$(json "$work/out" 'd["device"]["faults"]["eio"]')" = 1 ]
"$IOMODEL" run --target 'sim:ocz-core,spike_rate=0.05,spike_ms=100' --rw randread --bs 4k --ios 2000 --json >"$work/spike.json"
ok "latency spikes show in the tail" [ "$(json "$work/spike.json" 'd["results"][0]["lat_us"]["max"] > 100000 > d["results"][0]["lat_us"]["p50"]')" = True ]

# INI device files, with overrides after them.
cat >"$work/drive.ini" <<'INI'
# my drive
[device]
preset = wd6400aaks
rpm = 5400   ; slower spindle
INI
"$IOMODEL" sim show "$work/drive.ini,write_cache=off" >"$work/ini-show"
ok "INI file read" grep -Eq "^ +rpm +5400 " "$work/ini-show"
ok "override after an INI file" grep -Eq "^ +write_cache +off " "$work/ini-show"

one_line_matching() { [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q -- "$1" "$work/err"; }
expect_bad() {	# expect_bad PATTERN ARGS...
	local pattern=$1; shift
	local status
	status=$(run_status "$IOMODEL" "$@")
	ok "exit 2 for: $*" [ "$status" -eq 2 ]
	ok "one line naming the problem ($pattern): $(head -c 200 "$work/err")" \
		one_line_matching "$pattern"
}
expect_bad "unknown drive 'nope'" run --target sim:nope
expect_bad "unknown parameter 'warp'" run --target sim:ocz-core,warp=9
expect_bad "rpm 'fast'" run --target sim:wd6400aaks,rpm=fast
expect_bad "expected key=value" run --target sim:ocz-core,trim
expect_bad "trim 'maybe': expected on or off" run --target sim:ocz-core,trim=maybe
expect_bad "ftl 'hybrid'" run --target sim:ocz-core,ftl=hybrid
expect_bad "fault_eio '5g'" run --target sim:ocz-core,fault_eio=5g
expect_bad "erase_block_kib" run --target sim:ssd,erase_block_kib=6
expect_bad "inner_mib_s" run --target sim:wd6400aaks,inner_mib_s=200
expect_bad "--buffered does not apply" run --target sim:ocz-core --buffered
expect_bad "less than --size" run --target sim:ocz-core --size 1t
printf '[device]\npreset = ocz-core\nwarp = 9\n' >"$work/bad.ini"
expect_bad "bad.ini:3: unknown parameter 'warp'" run --target "sim:$work/bad.ini"
printf 'rpm = 7200\n' >"$work/nomodel.ini"
expect_bad "nomodel.ini:1: 'rpm' before 'preset' or 'model'" sim show "$work/nomodel.ini"
expect_bad "cannot read device file" sim show "$work/missing.ini"
expect_bad "sim: expected 'list' or 'show DRIVE'" sim frob
# Latency spread: every preset, and every array of the default members, gives
# distinct and plausible percentiles of 4 KiB random reads and writes at QD1
# and QD32 (a preset without spread has p50 = p99 = max and fails), mean kept
# near the body of the distribution, and the same for a seed.
lat() {	# lat TARGET QD IOS [RW]: the lat_us object of a 4 KiB random run
	"$IOMODEL" run --target "$1" --rw "${4:-randread}" --qd "$2" --ios "$3" --json | python3 -c \
		'import json,sys; print(json.dumps(json.load(sys.stdin)["results"][0]["lat_us"]))'
}
presets=$(awk 'NR > 1 && ($2 == "ssd" || $2 == "hdd") {print $1}' "$work/list")
ok "the spread test covers every preset sim list names ($(echo $presets))" \
	[ "$(echo $presets | wc -w)" -eq "$(awk 'NR > 1 && NF > 2 && $1 != "models" && $1 != "arrays" {n++} END {print n}' "$work/list")" ]
for drive in $presets raid0 raid1 raid10 raid5 raid6; do
	for rw in randread randwrite; do
		for qd in 1 32; do
			l=$(lat "sim:$drive" $qd 5000 $rw)	# enough to fill a disk's write cache
			ok "sim:$drive $rw QD$qd: p50 < p95 < p99 < max, min < mean < p99 ($l)" python3 -c "
import json; l = json.loads('$l')
assert l['p50'] < l['p95'] < l['p99'] < l['max'] and l['min'] < l['mean'] < l['p99']"
		done
	done
done
for case in "sim:intel-x25m-g2 1" "sim:intel-x25m-g2 32" "sim:supertalent-gx 1" "sim:wd6400aaks 4" \
	"sim:ocz-core 1 randwrite" "sim:ridata-s25 1" "sim:ocz-core 32"; do
	set -- $case
	l=$(lat "$1" "$2" 20000 "${3:-randread}")
	ok "$1 ${3:-randread} QD$2: p99 within 5x p50 ($l)" python3 -c "
import json; l = json.loads('$l'); assert l['p50'] < l['p99'] < l['max'] and l['p99'] < 5 * l['p50']"
	ok "$1 ${3:-randread} QD$2: the same seed gives the same percentiles" \
		[ "$(lat "$1" "$2" 20000 "${3:-randread}")" = "$l" ]
done
l=$(lat "sim:intel-x25m-g2,time_spread=0,stall_rate=0" 1 2000)
ok "time_spread=0: every read takes the nominal time (p50 = p99)" python3 -c "
import json; l = json.loads('$l'); assert l['p50'] == l['p99'] == l['max'], l"
l=$(lat "sim:intel-x25m-g2" 32 200000)
ok "X25-M G2: a firmware stall shows as a maximum near the WinSAT seed's 207 ms" python3 -c "
import json; l = json.loads('$l'); assert 150e3 < l['max'] < 260e3, l"
l=$(lat "sim:ocz-core,merge_stall_rate=0.001,merge_stall_ms=1500" 1 5000 randwrite)
ok "OCZ Core with merge stalls: the maximum near AnandTech's 2 s JMF602 write ($l)" python3 -c "
import json; l = json.loads('$l'); assert 1.5e6 < l['max'] < 2.1e6 and l['p99'] < 0.35e6, l"
l=$(lat "sim:ocz-core,time_spread=0" 1 200 randwrite)
ok "OCZ Core without spread and stalls: every write takes the nominal merge ($l)" python3 -c "
import json; l = json.loads('$l'); assert l['p50'] == l['p99'] == l['max'], l"
finish
