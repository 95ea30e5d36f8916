#!/usr/bin/env bash
# suites_devices.sh — profile, qd and state on real block devices: a loop device over a file
# in /var/tmp and a zram disk of the test's own (hot_add, sized, reset and removed after),
# each where this machine has one (a part that cannot run says why; none at all: skip).
# Writes only with --destroy-data, refused without it and the device then unchanged.
# Each command runs with few points and short bounds: seconds in all. Files: profile.sh,
# qd.sh and state.sh run the same commands on a file and on simulated drives.
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
loopdev= zramdev= zram_added=
cleanup() {
	[ -n "$loopdev" ] && losetup -d "$loopdev" 2>/dev/null
	if [ -n "$zram_added" ]; then
		zram_remove "$zramdev"
	elif [ -n "$zramdev" ]; then
		echo 1 >"/sys/block/${zramdev#/dev/}/reset" 2>/dev/null
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# A loop device over a 32 MiB file of random data (reads do not hit holes).
setup_loop() {
	[ "$(id -u)" = 0 ] || { echo "SKIP (part): loop device: needs root"; return; }
	command -v losetup >/dev/null || { echo "SKIP (part): loop device: no losetup"; return; }
	head -c 32M /dev/urandom >"$work/loop.img"
	loopdev=$(losetup --find --show "$work/loop.img" 2>"$work/losetup.err") ||
		{ loopdev=; echo "SKIP (part): loop device: losetup: $(cat "$work/losetup.err")"; }
}

# A zram disk: one of our own through zram-control, else /sys/block/zram0 while unused
# (no disksize yet); 32 MiB.
setup_zram() {
	local why
	if zramdev=$(zram_add 32M); then
		zram_added=1
	elif why=$zramdev; [ -w /sys/block/zram0/disksize ] && [ "$(cat /sys/block/zram0/disksize)" = 0 ]; then
		zramdev=/dev/zram0
		if ! echo 32M >/sys/block/zram0/disksize 2>/dev/null; then
			echo "SKIP (part): zram: cannot set up $zramdev"
			return
		fi
	else
		zramdev=
		echo "SKIP (part): zram: $why, and no unused /sys/block/zram0"
		return
	fi
	head -c 32M /dev/urandom >"$zramdev"
}

# refuse_write DEV WHAT ARGS...: a writing command without --destroy-data: status 2, one line
# asking for it, the device unchanged
refuse_write() {
	local dev=$1 what=$2 before st; shift 2
	before=$(checksum "$dev")
	st=$(run_status timeout 60 "$IOMODEL" "$@")
	ok "$what without --destroy-data: status 2, one line asking for it" bash -c \
		"[ $st -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q -- '--destroy-data' '$work/err'"
	ok "$what refused: the device is unchanged" [ "$(checksum "$dev")" = "$before" ]
}

# on_device KIND DEV: the three commands, each on the device
on_device() {
	local kind=$1 dev=$2 st before
	echo "# $kind: $dev ($(blockdev --getsize64 "$dev") bytes)"

	st=$(run_status timeout 60 "$IOMODEL" profile --target "$dev" --points 4 --point-time 100ms --json)
	ok "$kind: profile reads: status 0" [ "$st" -eq 0 ]
	ok "$kind: profile: 4 positions from 0 %, positive rates, access time and burst rate" \
		python3 - "$work/out" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["profile"]
pos = [q["position_pct"] for q in p["points"]]
assert pos == [0, 25, 50, 75], pos
assert min(q["mib_s"] for q in p["points"]) > 0 and p["access_ms"] > 0 and p["burst_mib_s"] > 0, p
assert p["verdict"] in ("flat", "falling", "rising", "uneven"), p["verdict"]
PY
	refuse_write "$dev" "$kind: profile --write" profile --target "$dev" --write --points 2
	before=$(checksum "$dev")
	st=$(run_status timeout 60 "$IOMODEL" profile --target "$dev" --write --destroy-data --points 2 \
		--point-time 100ms)
	ok "$kind: profile --write --destroy-data: status 0, the verdict printed" \
		bash -c "[ $st -eq 0 ] && grep -q '^verdict: ' '$work/out'"
	ok "$kind: profile --write changed the device" [ "$(checksum "$dev")" != "$before" ]

	st=$(run_status timeout 60 "$IOMODEL" qd --target "$dev" --qd 1:4 --point-time 100ms --json)
	ok "$kind: qd reads: status 0" [ "$st" -eq 0 ]
	ok "$kind: qd: depths 1, 2, 4 with IOPS and ordered percentiles; a model or the reason" \
		python3 - "$work/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"]
assert [r["job"]["qd"] for r in runs] == [1, 2, 4], [r["job"]["qd"] for r in runs]
for r in runs:
    res = r["results"][0]; l = res["lat_us"]
    assert res["iops"] > 0 and l["p50"] <= l["p99"] <= l["max"], res
assert "t1_ms" in d["qd_model"] or "note" in d["qd_model"], d["qd_model"]
PY
	refuse_write "$dev" "$kind: qd --rw randwrite" qd --target "$dev" --rw randwrite --qd 1:2
	st=$(run_status timeout 60 "$IOMODEL" qd --target "$dev" --rw randwrite --destroy-data --qd 1:2 \
		--point-time 100ms)
	ok "$kind: qd randwrite --destroy-data: status 0, two depths and the model line" bash -c \
		"[ $st -eq 0 ] && [ \$(grep -cE '^ +[0-9]+ ' '$work/out') -eq 2 ] && grep -q '^model: ' '$work/out'"

	refuse_write "$dev" "$kind: state" state --target "$dev"
	st=$(run_status timeout 60 "$IOMODEL" state --target "$dev" --destroy-data --round 100ms \
		--max-rounds 5 --json)
	ok "$kind: state --destroy-data (BLKDISCARD): status 0" [ "$st" -eq 0 ]
	ok "$kind: state: fresh, used, trimmed, each 5 rounds or more and a positive rate" \
		python3 - "$work/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [s["state"] for s in d["states"]] == ["fresh", "used", "trimmed"], d["states"]
for s in d["states"]:
    assert s["mib_s"] > 0 and len(s["rounds"]) >= 5, s
PY
	ok "$kind: the device node is still there" [ -b "$dev" ]
}

setup_loop
setup_zram
[ -n "$loopdev" ] || [ -n "$zramdev" ] || skip "neither a loop device nor a zram disk can be set up here (see above)"
[ -n "$loopdev" ] && on_device loop "$loopdev"
[ -n "$zramdev" ] && on_device zram "$zramdev"
finish
