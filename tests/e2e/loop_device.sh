#!/usr/bin/env bash
# loop_device.sh — iomodel runs against a real block device: randread, and
# randwrite with --destroy-data, on a loop device, each with --json; the run
# must succeed and its JSON must report exactly the IOs asked for (--ios),
# with bytes = ios * bs, a positive IOPS and latency percentiles.
# Needs root, losetup and python3. Env: IOMODEL = path to the iomodel binary.
# Exit status: 0 pass, 1 fail, 77 skip (the reason is printed).
# pass always succeeds, so "test && pass || fail" is an if-else; cleanup runs from a trap
# shellcheck disable=SC2015,SC2317
set -u

. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root to attach loop devices"
command -v losetup >/dev/null || skip "losetup is not installed"
command -v python3 >/dev/null || skip "python3 is needed to read the JSON"

DEV=
WORK=$(mktemp -d /var/tmp/iomodel-loop-device.XXXXXX) || skip "cannot make a directory in /var/tmp"

cleanup() {
	[ -n "$DEV" ] && losetup -d "$DEV"
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Real data on the backing file, so reads do not all hit holes.
head -c 64M /dev/urandom >"$WORK/backing.img" || skip "cannot write the backing file in /var/tmp"
DEV=$(losetup -f --show "$WORK/backing.img" 2>"$WORK/losetup.err") ||
	{ DEV=; skip "losetup failed: $(cat "$WORK/losetup.err")"; }
echo "# using $DEV"

# check_json FILE OP IOS BS: the "results" entry for OP reports IOS ios, IOS*BS
# bytes, iops > 0 and latency percentiles; prints what is wrong, if anything
check_json() {
	python3 - "$@" <<'EOF'
import json, sys
path, op, ios, bs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
try:
    doc = json.load(open(path))
except ValueError as e:
    sys.exit("stdout is not JSON: %s" % e)
results = doc.get("results")
if not isinstance(results, list):
    sys.exit("no top-level 'results' array")
mine = [r for r in results if r.get("op") == op]
if len(mine) != 1:
    sys.exit("expected one '%s' entry in results, found %d: %s"
             % (op, len(mine), [r.get("op") for r in results]))
r = mine[0]
problems = []
if r.get("ios") != ios:
    problems.append("ios %r, expected %d" % (r.get("ios"), ios))
if r.get("bytes") != ios * bs:
    problems.append("bytes %r, expected %d" % (r.get("bytes"), ios * bs))
if not isinstance(r.get("iops"), (int, float)) or r["iops"] <= 0:
    problems.append("iops %r is not positive" % r.get("iops"))
lat = r.get("lat_us")
if not isinstance(lat, dict) or not lat or \
        not all(isinstance(v, (int, float)) and v >= 0 for v in lat.values()):
    problems.append("lat_us %r is not a set of percentiles" % lat)
others = sum(x.get("ios", 0) for x in results if x is not r)
if others:
    problems.append("%d ios reported for other ops" % others)
if problems:
    sys.exit("; ".join(problems))
print("%s: %d ios, %d bytes, %.0f iops, lat_us %s" % (op, r["ios"], r["bytes"], r["iops"],
      ", ".join("%s=%s" % kv for kv in sorted(lat.items()))))
EOF
}

# run_case WHAT OP ARGS...: run with --json, expect exit 0 and a JSON report of 100 4k IOs
run_case() {
	local what=$1 op=$2 summary
	shift 2

	timeout 60 "$IOMODEL" run --target "$DEV" --bs 4k --qd 4 --ios 100 --json "$@" \
		>"$WORK/out.json" 2>"$WORK/err"
	local rc=$?
	if [ "$rc" != 0 ]; then
		fail "$what: exit $rc: $(cat "$WORK/err")"
		return
	fi
	pass "$what: exit 0"
	if summary=$(check_json "$WORK/out.json" "$op" 100 4096 2>&1); then
		pass "$what: JSON reports $summary"
	else
		fail "$what: JSON: $summary"
	fi
}

run_case "randread" read --rw randread
before=$(sha256sum <"$DEV")
run_case "randwrite --destroy-data" write --rw randwrite --destroy-data
[ "$(sha256sum <"$DEV")" != "$before" ] && pass "randwrite changed the device content" ||
	fail "randwrite did not change the device content"
[ -b "$DEV" ] && pass "the device node is still there" || fail "$DEV is gone"

finish
