#!/usr/bin/env bash
# report.sh — `iomodel report`: one self-contained HTML file with SVG charts
# from models, sweeps and runs of simulated drives (two models, a sweep and a
# run overlaid), the erase-block merge steps drawn for the drive that has them; PNG copies with --png-dir; nothing left in $TMPDIR; bad input
# gets one line on stderr, status 2 and no output file; the page rendered by
# headless Chromium is not blank (skipped, status 77, when chromium is missing).
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT
IOMODEL=$(realpath "$IOMODEL")
cd "$work" || exit 1
lacks() { ! grep -qiF -- "$1" "$2"; }	# lacks TEXT FILE

# PLplot's PNG driver goes through cairo and fontconfig, whose font caches live
# until exit: not iomodel's leaks (matters under the ASan build's detect_leaks)
printf 'leak:libfontconfig.so\nleak:libpango\nleak:libcairo.so\n' >lsan.supp
export LSAN_OPTIONS="suppressions=$work/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# --- inputs, made by iomodel itself on simulated drives ----------------------------
"$IOMODEL" characterize --target sim:ocz-core -o ocz.json >/dev/null &&
	"$IOMODEL" characterize --target sim:wd6400aaks -o wd.json >/dev/null &&
	"$IOMODEL" sweep --target sim:ocz-core --rw randwrite --bs 512:64m --json >w.json &&
	"$IOMODEL" run --target sim:wd6400aaks --qd 8 --ios 20000 --json >run.json
ok "inputs made on simulated drives" [ $? -eq 0 ]

# --- the report ----------------------------------------------------------------------
mkdir tmp
TMPDIR=$work/tmp "$IOMODEL" report ocz.json wd.json w.json run.json -o r.html \
	--png-dir charts >out 2>err
ok "report exits 0" [ $? -eq 0 ]
ok "report writes r.html" [ -s r.html ]
ok "temporary chart files removed" [ -z "$(ls -A tmp)" ]
ok "no temporary HTML left" [ -z "$(ls r.html.* 2>/dev/null)" ]
for pat in 'src="http' '<script src' '<link' 'url(http' '@import' 'src="//'; do
	ok "r.html has no '$pat'" lacks "$pat" r.html
done
ok "r.html has no script at all" lacks '<script' r.html
ok "r.html inlines several SVG charts" [ "$(grep -o '<svg' r.html | wc -l)" -ge 6 ]
ok "r.html names sim:ocz-core" grep -qF 'sim:ocz-core' r.html
ok "r.html names sim:wd6400aaks" grep -qF 'sim:wd6400aaks' r.html
ok "r.html names the sweep and the run by file name" grep -q '<b>w</b>.*<b>run</b>' \
	<(tr -d '\n' <r.html)
ok "spec sheet table with confidence intervals" grep -qF '95 % CI' r.html
ok "spec sheet: OCZ erase block fitted on the merge steps" grep -qF '10.8 MiB (fit)' r.html
ok "run table with percentiles" grep -qF 'p99.9, ms' r.html
# the steps the merge chart draws are in the model it draws them from: writes inside one
# erase block pay one merge, writes spanning blocks two (more above penalty + size/STR)
python3 - ocz.json >steps 2>&1 <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))["model"]["write"]
eb = w["erase_block"]
unit = eb["unit_mib"] * 2**20
above = lambda p: p["mean_lat_ms"] - eb["penalty_ms"] - p["size_bytes"] / (eb["write_str_mib_s"] * 2**20) * 1e3
one = [above(p) for p in w["points"] if p["qd"] == 1 and p["size_bytes"] <= unit / 64]
two = [above(p) for p in w["points"] if p["qd"] == 1 and 2 * unit <= p["size_bytes"] <= 16 * unit]
print("inside a block %.0f ms, spanning blocks %.0f ms" % (min(one), min(two)))
sys.exit(0 if one and two and min(two) > 1.25 * max(one) else 1)
PY
ok "OCZ writes step from one merge to two ($(tail -1 steps))" [ $? -eq 0 ]

# each inlined SVG is well-formed XML; legends and axis titles as the brief says
python3 - r.html >svg-check 2>&1 <<'PY'
import re, sys, xml.etree.ElementTree as ET
html = open(sys.argv[1], encoding="utf-8").read()
svgs = re.findall(r"<svg.*?</svg>", html, re.S)
texts = []
for s in svgs:
    root = ET.fromstring(s)      # raises on malformed XML
    texts.append(" | ".join("".join(t.itertext())
                 for t in root.iter("{http://www.w3.org/2000/svg}text")))
allt = "\n".join(texts)
need = ["sim:ocz-core", "sim:wd6400aaks", "request size (bytes, log scale)",
        "throughput (MiB/s, log scale)", "time per IO (ms, log scale)",
        "throughput (IOPS, log scale)", "mean latency (ms, log scale)",
        "IOs outstanding (queue depth, log scale)", "4 KiB", "1 MiB", "100",
        "Latency distribution", "run: randread 4 KiB QD8", "erase block 10.8 MiB"]
missing = [n for n in need if n not in allt]
# the erase-block merge steps: one chart, for the drive whose model found an erase block
steps = [t for t in texts if "time above penalty + size/STR (ms)" in t]
if len(steps) != 1 or "erase block 10.8 MiB" not in steps[0] or \
   "erase-block model: merges of partly written units" not in steps[0] or \
   "sim:wd6400aaks" in steps[0]:
    missing.append("one merge-steps chart of sim:ocz-core (%d)" % len(steps))
ids = re.findall(r'id="([^"]+)"', html)
print("svgs", len(svgs), "missing", missing, "duplicate ids", len(ids) - len(set(ids)))
sys.exit(1 if missing or len(ids) != len(set(ids)) else 0)
PY
st=$?
ok "SVGs parse, carry the labels and units, ids unique ($(tail -1 svg-check))" [ "$st" -eq 0 ]

pngs=(charts/*.png)
ok "--png-dir holds a PNG per chart" [ "${#pngs[@]}" -eq "$(grep -o '<svg' r.html | wc -l)" ]
bad_magic=0
for p in "${pngs[@]}"; do
	[ "$(head -c 8 "$p" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || bad_magic=1
done
ok "every chart file starts with the PNG magic" [ "$bad_magic" -eq 0 ]

# --- bad input: one line, status 2, no output file -------------------------------------
echo '{"schema": "iomodel.run/1", "job": {' >broken.json
echo '{"name": "another tool", "values": [1, 2, 3]}' >foreign.json
bad_case() {	# bad_case WHAT EXPECTED-IN-STDERR ARGS...
	local what=$1 want=$2; shift 2
	rm -f bad.html
	"$IOMODEL" report "$@" >out 2>err
	local st=$?
	ok "$what: status 2" [ "$st" -eq 2 ]
	ok "$what: one line on stderr" [ "$(wc -l <err)" -eq 1 ]
	ok "$what: the line says '$want'" grep -qF "iomodel: $want" err
	ok "$what: no output file" [ ! -e bad.html ]
	ok "$what: nothing on stdout" [ ! -s out ]
}
bad_case "broken JSON" "broken.json:" ocz.json broken.json -o bad.html
bad_case "foreign JSON" "foreign.json:" foreign.json -o bad.html
bad_case "missing file" "cannot read 'nothere.json': No such file" nothere.json -o bad.html
bad_case "no -o" "report: no output file" ocz.json
bad_case "no file" "report: no result file" -o bad.html
bad_case "unknown option" "report: unknown option" ocz.json -o bad.html --colour
ok "no temporary HTML left after failures" [ -z "$(ls bad.html.* 2>/dev/null)" ]
"$IOMODEL" report --help >out 2>err
ok "report --help exits 0 and names --png-dir" grep -q -- '--png-dir' out

# --- the page in a browser ---------------------------------------------------------------
[ "$failures" -eq 0 ] || finish
command -v chromium >/dev/null ||
	skip "chromium not installed (scripts/install-deps.sh installs it): page not rendered"
profile=$(mktemp -d "$work/chromium.XXXXXX")
timeout 60 chromium --headless --no-sandbox --disable-gpu --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$profile" --screenshot="$work/shot.png" --window-size=1200,3000 \
	"file://$work/r.html" >chromium.log 2>&1
ok "chromium renders r.html to a screenshot" [ -s shot.png ]
python3 - shot.png >shot-check 2>&1 <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6) and not interlace, (depth, ctype, interlace)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, colours, ink = bytearray(stride), set(), 0
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        px = bytes(line[x:x + 3])
        colours.add(px)
        ink += px != b"\xff\xff\xff"
    prev = line
share = ink / (w * h)
print(f"{w}x{h}, {len(colours)} colours, {100 * share:.1f} % not white")
sys.exit(0 if len(colours) >= 16 and share > 0.03 else 1)
PY
st=$?
ok "the screenshot is not blank ($(tail -1 shot-check))" [ "$st" -eq 0 ]
finish
