#!/usr/bin/env bash
# docs_in_step.sh — the documentation keeps up with the program:
#  - every long option of `iomodel run --help` is described in the man page's
#    OPTIONS section, and every option that section names exists in --help;
#  - likewise for sweep, characterize, fit and predict, each against its own
#    section of the man page ("SWEEP OPTIONS", …; --help itself may be named
#    there although the commands' help texts do not list it);
#  - every command of `iomodel --help` is in the man page's SYNOPSIS and
#    COMMANDS;
#  - every field of the JSON of a real null run, and every CSV column, is
#    documented in docs/json-schema.md; so are the top-level keys of a sweep's
#    JSON and its CSV columns, every key of a real model JSON (top level,
#    model.read and model.write, and the objects and arrays inside them) and
#    of a prediction, each in the section of its schema;
#  - the fields scripts rely on exist in the model JSON and are named in the
#    schema document and in the man page.
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

# man_section TITLE: the lines of the man page's section .SH TITLE (quoted or
# not), up to the next .SH
man_section() {
	awk -v want="$1" '/^\.SH /{ t = substr($0, 5); gsub(/"/, "", t); f = (t == want) } f' \
		"$work/man.txt"
}

# md_section HEADING-TEXT: the lines of docs/json-schema.md from the "## "
# heading that contains HEADING-TEXT up to the next "## " heading
md_section() {
	awk -v want="$1" '/^## /{ f = index($0, want) > 0 } f' "$schema_doc"
}

# in_list WORD FILE: WORD is one of the lines of FILE
in_list() {
	grep -qxF -- "$1" "$2"
}

# documented TEXT FILE: `TEXT`, in backquotes, occurs in FILE
# (these two are called through `ok`, which shellcheck does not follow)
# shellcheck disable=SC2317
documented() {
	grep -qF -- "\`$1\`" "$2"
}

# documented_either TEXT1 TEXT2 FILE: `TEXT1` or `TEXT2` occurs in FILE
# shellcheck disable=SC2317
documented_either() {
	documented "$1" "$3" || documented "$2" "$3"
}

roff_text "$man_page" >"$work/man.txt"
: >"$work/readme.opts"
[ -f "$readme" ] && long_options <"$readme" >"$work/readme.opts"

# check_options COMMAND SECTION: the options of `iomodel COMMAND --help` and
# those of the man page's section SECTION are the same (--help aside)
check_options() {
	local cmd=$1 section=$2 opt
	"$IOMODEL" "$cmd" --help >"$work/help.$cmd" 2>"$work/help.$cmd.err"
	ok "$cmd --help exits 0" [ $? -eq 0 ]
	long_options <"$work/help.$cmd" >"$work/help.$cmd.opts"
	ok "$cmd --help names its options ($(wc -l <"$work/help.$cmd.opts") found)" \
		[ -s "$work/help.$cmd.opts" ]
	man_section "$section" | long_options >"$work/man.$cmd.opts"
	ok "man page has a $section section that names options" [ -s "$work/man.$cmd.opts" ]
	while read -r opt; do
		ok "$opt (from $cmd --help) is in the man page's $section" \
			in_list "$opt" "$work/man.$cmd.opts"
		in_list "$opt" "$work/readme.opts" ||
			echo "note: $opt ($cmd) is not mentioned in README.md"
	done <"$work/help.$cmd.opts"
	while read -r opt; do
		[ "$opt" = --help ] && [ "$cmd" != run ] && continue
		ok "$opt (from the man page's $section) exists in $cmd --help" \
			in_list "$opt" "$work/help.$cmd.opts"
	done <"$work/man.$cmd.opts"
}

check_options run OPTIONS
ok "run --help names at least 10 options" [ "$(wc -l <"$work/help.run.opts")" -ge 10 ]
check_options sweep "SWEEP OPTIONS"
check_options characterize "CHARACTERIZE OPTIONS"
check_options fit "FIT OPTIONS"
check_options predict "PREDICT OPTIONS"
check_options report "REPORT OPTIONS"
check_options state "STATE OPTIONS"
check_options qd "QD OPTIONS"
check_options profile "PROFILE OPTIONS"
check_options raid "RAID OPTIONS"
check_options replay "REPLAY OPTIONS"
check_options assess "ASSESS OPTIONS"

# Every command of `iomodel --help` is in the SYNOPSIS and has a COMMANDS entry.
"$IOMODEL" --help | awk '/^commands:/{ f = 1; next } /^$/{ f = 0 } f && /^  [a-z]/{ print $1 }' \
	>"$work/commands"
ok "iomodel --help lists commands ($(wc -l <"$work/commands") found)" \
	[ "$(wc -l <"$work/commands")" -ge 6 ]
man_section SYNOPSIS >"$work/man.synopsis"
man_section COMMANDS >"$work/man.commands"
while read -r cmd; do
	ok "command $cmd is in the man page's SYNOPSIS" grep -qE -- "iomodel $cmd( |$)" "$work/man.synopsis"
	ok "command $cmd has an entry in the man page's COMMANDS" \
		grep -qE -- "^\.B[IR]? \"?$cmd( |\"|$)" "$work/man.commands"
done <"$work/commands"

# json_paths FILE: every key path of the JSON document in FILE, as
# docs/json-schema.md writes them: "job.bs", "results[].lat_us.p50",
# "results[].timeline[].t_s".
json_paths() {
	python3 - "$1" <<'EOF'
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
}

# --- run ---------------------------------------------------------------------
"$IOMODEL" run --target null --rw randrw --ios 1000 --json >"$work/run.json" 2>"$work/run.err"
ok "null run with --json exits 0" [ $? -eq 0 ]
json_paths "$work/run.json" >"$work/json.paths"
ok "JSON of the null run parsed" [ -s "$work/json.paths" ]
ok "JSON has the top-level keys of iomodel.run/1" \
	[ "$(grep -cvF . "$work/json.paths")" -ge 10 ]
while read -r path; do
	ok "JSON field \`$path\` is documented in docs/json-schema.md" documented "$path" "$schema_doc"
done <"$work/json.paths"

"$IOMODEL" run --target null --ios 10 --csv >"$work/run.csv" 2>"$work/csv.err"
ok "null run with --csv exits 0" [ $? -eq 0 ]
for column in $(head -n 1 "$work/run.csv" | tr ',' ' '); do
	ok "CSV column \`$column\` is documented in docs/json-schema.md" documented "$column" "$schema_doc"
done

# --- sweep -------------------------------------------------------------------
"$IOMODEL" sweep --target null --bs 4k:8k --point-ios 10 --json >"$work/sweep.json" 2>"$work/sweep.err"
ok "null sweep with --json exits 0" [ $? -eq 0 ]
md_section "iomodel.sweep/1" >"$work/doc.sweep"
ok "docs/json-schema.md has a section on iomodel.sweep/1" [ -s "$work/doc.sweep" ]
for key in $(python3 -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))))' "$work/sweep.json"); do
	ok "sweep JSON key \`$key\` is documented in the iomodel.sweep/1 section" documented "$key" "$work/doc.sweep"
done

"$IOMODEL" sweep --target null --bs 4k --point-ios 10 --csv >"$work/sweep.csv" 2>"$work/sweep.err"
ok "null sweep with --csv exits 0" [ $? -eq 0 ]
md_section "iomodel sweep --csv" >"$work/doc.sweep_csv"
ok "docs/json-schema.md has a section on sweep --csv" [ -s "$work/doc.sweep_csv" ]
for column in $(head -n 1 "$work/sweep.csv" | tr ',' ' '); do
	ok "sweep CSV column \`$column\` is documented in the sweep --csv section" \
		documented "$column" "$work/doc.sweep_csv"
done

# --- model -------------------------------------------------------------------
# Top-level keys as themselves; keys of model.read and model.write as
# "model.OP.key" (both directions) or "model.read.key" / "model.write.key",
# and the same for the keys of the objects and arrays inside them.
"$IOMODEL" characterize --target sim:wd6400aaks --json -o "$work/wd.json" \
	>"$work/model.json" 2>"$work/model.err"
ok "characterize of sim:wd6400aaks with --json exits 0" [ $? -eq 0 ]
ok "characterize -o writes the same model as --json prints" cmp -s "$work/wd.json" "$work/model.json"
md_section "iomodel.model/2" >"$work/doc.model"
ok "docs/json-schema.md has a section on iomodel.model/2" [ -s "$work/doc.model" ]
json_paths "$work/model.json" >"$work/model.paths"
ok "model JSON has model.read and model.write keys" \
	[ "$(grep -c '^model\.\(read\|write\)\.[a-z_]*$' "$work/model.paths")" -ge 20 ]
while read -r path; do
	case $path in
	model.read.* | model.write.*)
		generic=model.OP.${path#model.*.}
		ok "model JSON field \`$path\` is documented in the iomodel.model/2 section" \
			documented_either "$path" "$generic" "$work/doc.model"
		;;
	*)
		ok "model JSON key \`$path\` is documented in the iomodel.model/2 section" \
			documented "$path" "$work/doc.model"
		;;
	esac
done <"$work/model.paths"

# The fields scripts rely on: in the JSON, in the schema document, in the man page.
for path in model.read.str_mib_s model.read.penalty_ms model.write.str_mib_s \
	model.write.penalty_ms model.write.erase_block_mib; do
	ok "contract field $path is in the model JSON" in_list "$path" "$work/model.paths"
	ok "contract field \`$path\` is named in the iomodel.model/2 section" \
		documented "$path" "$work/doc.model"
	ok "contract field $path is named in the man page" grep -qF -- "$path" "$work/man.txt"
done

# paths_documented NAME SCHEMA: docs/json-schema.md has SCHEMA's section, and it names
# every key path of $work/NAME.json
paths_documented() {
	local name=$1 schema=$2 path
	md_section "$schema" >"$work/doc.$name"
	ok "docs/json-schema.md has a section on $schema" [ -s "$work/doc.$name" ]
	json_paths "$work/$name.json" >"$work/$name.paths"
	while read -r path; do
		ok "$name JSON key \`$path\` is documented in the $schema section" \
			documented "$path" "$work/doc.$name"
	done <"$work/$name.paths"
}

# --- prediction ----------------------------------------------------------------
"$IOMODEL" predict --model "$work/wd.json" --rw randread --bs 48k --qd 8 --json \
	>"$work/prediction.json" 2>"$work/prediction.err"
ok "predict with --json exits 0" [ $? -eq 0 ]
paths_documented prediction iomodel.prediction/1

# --- raid --------------------------------------------------------------------
# Keys of each operation as "operations.OP.key" or with the operation named.
"$IOMODEL" raid --level 5 --disks 4 --member "$work/wd.json" --capacity 640g --link 1gbe \
	--json >"$work/raid.json" 2>"$work/raid.err"
ok "raid with --json exits 0" [ $? -eq 0 ]
md_section "iomodel.raid/1" >"$work/doc.raid"
ok "docs/json-schema.md has a section on iomodel.raid/1" [ -s "$work/doc.raid" ]
json_paths "$work/raid.json" >"$work/raid.paths"
while read -r path; do
	case $path in
	operations.*.*)
		generic=operations.OP.${path#operations.*.}
		ok "raid JSON field \`$path\` is documented in the iomodel.raid/1 section" \
			documented_either "$path" "$generic" "$work/doc.raid"
		;;
	*)
		ok "raid JSON key \`$path\` is documented in the iomodel.raid/1 section" \
			documented "$path" "$work/doc.raid"
		;;
	esac
done <"$work/raid.paths"
# --- assess ------------------------------------------------------------------
"$IOMODEL" assess --target sim:intel-x25m-g2 --time-per-phase 1s --json >"$work/assess.json" 2>/dev/null
ok "assess with --json exits 0" [ $? -eq 0 ]
paths_documented assess iomodel.assess/1
finish
