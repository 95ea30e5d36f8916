#!/usr/bin/env bash
# docs_in_step.sh — the documentation keeps up with the program:
#  - every long option of `iomodel run --help` is described in man/iomodel.1;
#  - every option the man page's OPTIONS section names exists in --help;
#  - every field of the JSON of a real null run, and every CSV column, is
#    documented in docs/json-schema.md.
# Options missing from README.md are reported as notes, not failures (the
# README summarises; the man page is the reference).
# Env: IOMODEL = path to the iomodel binary. Exit status: 0 pass, 1 fail, 77 skip.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
man_page=$root/man/iomodel.1
schema_doc=$root/docs/json-schema.md
readme=$root/README.md
work=$(mktemp -d) || skip "cannot make a temporary directory"
trap 'rm -rf "$work"' EXIT

command -v python3 >/dev/null || skip "python3 is needed to read the JSON"
ok "man page at $man_page" [ -f "$man_page" ]
ok "schema document at $schema_doc" [ -f "$schema_doc" ]
[ "$failures" -eq 0 ] || finish

# long_options: the distinct --long-options named on stdin, one per line
long_options() {
	grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

# roff_text FILE: the man page as plain text, without comment lines: "\-"
# becomes "-", font changes and zero-width escapes are dropped
roff_text() {
	grep -v -e '^\.\\"' -e "^'\\\\\"" "$1" |
		sed -e 's/\\-/-/g' -e 's/\\(hy/-/g' -e 's/\\f[BIRP]//g' \
		    -e 's/\\f\[[^]]*\]//g' -e 's/\\[&%]//g'
}

# in_list WORD FILE: WORD is one of the lines of FILE
in_list() {
	grep -qxF -- "$1" "$2"
}

"$IOMODEL" run --help >"$work/help" 2>"$work/help.err"
ok "run --help exits 0" [ $? -eq 0 ]
long_options <"$work/help" >"$work/help.opts"
ok "run --help names its options ($(wc -l <"$work/help.opts") found)" \
	[ "$(wc -l <"$work/help.opts")" -ge 10 ]

roff_text "$man_page" >"$work/man.txt"
long_options <"$work/man.txt" >"$work/man.opts"
awk '/^\.SH /{ f = ($2 == "OPTIONS") } f' "$work/man.txt" | long_options >"$work/man_section.opts"
ok "man page has an OPTIONS section that names options" [ -s "$work/man_section.opts" ]
: >"$work/readme.opts"
[ -f "$readme" ] && long_options <"$readme" >"$work/readme.opts"

while read -r opt; do
	ok "$opt (from run --help) is in the man page's OPTIONS" in_list "$opt" "$work/man_section.opts"
	in_list "$opt" "$work/readme.opts" ||
		echo "note: $opt is not mentioned in README.md"
done <"$work/help.opts"

while read -r opt; do
	ok "$opt (from the man page's OPTIONS) exists in run --help" in_list "$opt" "$work/help.opts"
done <"$work/man_section.opts"

# Every field of a real run's JSON, as the paths docs/json-schema.md uses:
# "job.bs", "results[].lat_us.p50", "results[].timeline[].t_s".
"$IOMODEL" run --target null --rw randrw --ios 1000 --json >"$work/run.json" 2>"$work/run.err"
ok "null run with --json exits 0" [ $? -eq 0 ]
python3 - "$work/run.json" >"$work/json.paths" <<'EOF'
import json, sys

def walk(value, path):
    if path:
        yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from walk(child, path + "." + key if path else key)
    elif isinstance(value, list):
        for child in value:
            if isinstance(child, dict):
                for sub in walk(child, path + "[]"):
                    if sub != path + "[]":
                        yield sub

with open(sys.argv[1]) as f:
    paths = dict.fromkeys(walk(json.load(f), ""))
print("\n".join(paths))
EOF
ok "JSON of the null run parsed" [ -s "$work/json.paths" ]
ok "JSON has the top-level keys of iomodel.run/1" \
	[ "$(grep -cvF . "$work/json.paths")" -ge 10 ]

while read -r path; do
	ok "JSON field \`$path\` is documented in docs/json-schema.md" grep -qF -- "\`$path\`" "$schema_doc"
done <"$work/json.paths"

"$IOMODEL" run --target null --ios 10 --csv >"$work/run.csv" 2>"$work/csv.err"
ok "null run with --csv exits 0" [ $? -eq 0 ]
for column in $(head -n 1 "$work/run.csv" | tr ',' ' '); do
	ok "CSV column \`$column\` is documented in docs/json-schema.md" grep -qF -- "\`$column\`" "$schema_doc"
done
finish
