#!/usr/bin/env bash
# presets.sh — every preset against its reference figures: each row of
# data/preset-reference.tsv (the makers' spec sheets and the seeds' figures,
# with their source) is measured on the simulated drive with the row's run
# and held to the row's tolerance; every preset has rows; and docs/presets.md
# shows that very table (rendered from the file), so the docs cannot drift.
# `presets.sh --table` prints the rendered table for docs/presets.md.
set -u
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
tsv=$here/data/preset-reference.tsv
docs=$here/../../docs/presets.md

render() {	# the markdown table docs/presets.md holds
	python3 - "$tsv" <<'PY'
import sys
print("| preset | figure | reference | tolerance | measured with | source |")
print("|---|---|---|---|---|---|")
for line in open(sys.argv[1]):
    if line.startswith("#") or not line.strip():
        continue
    preset, figure, ref, unit, tol, target, run, source = line.rstrip("\n").split("\t")
    t = f"sim:{preset}" + ("" if target == "-" else f",{target}")
    print(f"| {preset} | {figure} | {ref} {unit} | {tol} | `--target {t} {run}` | {source} |")
PY
}
if [ "${1:-}" = --table ]; then
	render
	exit 0
fi

ok "docs/presets.md holds the table of data/preset-reference.tsv" python3 - "$docs" <(render) <<'PY'
import sys
docs, want = open(sys.argv[1]).read(), open(sys.argv[2]).read()
begin, end = "<!-- preset-reference: begin -->\n", "<!-- preset-reference: end -->"
got = docs.split(begin, 1)[1].split(end, 1)[0] if begin in docs and end in docs else ""
if got.strip() != want.strip():
    print("docs/presets.md table differs from `tests/e2e/presets.sh --table`")
    sys.exit(1)
PY

for preset in $("$IOMODEL" sim list | awk 'NR > 1 && $2 ~ /^(hdd|ssd)$/ {print $1}'); do
	ok "preset $preset has reference figures" grep -q "^$preset	" "$tsv"
done

# Measure every row; print reference, simulated and ratio; exit 1 on a miss.
python3 - "$IOMODEL" "$tsv" <<'PY'
import json, shlex, subprocess, sys
iomodel, tsv = sys.argv[1:3]
cache, misses = {}, 0
for line in open(tsv):
    if line.startswith("#") or not line.strip():
        continue
    preset, figure, ref, unit, tol, target, run, source = line.rstrip("\n").split("\t")
    t = f"sim:{preset}" + ("" if target == "-" else f",{target}")
    key = (t, run)
    if key not in cache:
        out = subprocess.run([iomodel, "run", "--target", t, *shlex.split(run), "--json"],
                             check=True, capture_output=True, text=True).stdout
        cache[key] = json.loads(out)["results"][0]
    r, ref = cache[key], float(ref)
    lat = r["lat_us"]
    stat = "p95" if "p95" in figure else "max" if "max" in figure else "mean"
    got = {"IOPS": r["iops"], "MB/s": r["mib_s"] * 1.048576, "MiB/s": r["mib_s"],
           "us": lat[stat], "ms": lat[stat] / 1e3}[unit]
    ratio = got / ref
    if tol.endswith("%"):
        good = abs(ratio - 1) <= float(tol[:-1]) / 100
    else:
        good = 1 / float(tol[1:]) <= ratio <= float(tol[1:])
    misses += not good
    print(f"{'ok  ' if good else 'FAIL'} {preset} {figure}: simulated {got:.4g} {unit}, "
          f"reference {ref:g} ({ratio:.3f}, tolerance {tol})")
sys.exit(misses > 0)
PY
ok "every preset within its reference figures' tolerances" [ $? -eq 0 ]
finish
