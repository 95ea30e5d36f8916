#!/usr/bin/env bash
# cli_errors.sh — every kind of bad input gets one line on stderr saying what
# is wrong, exit status 2, and leaves nothing behind on disk.
set -u
. "$(dirname "$0")/lib.sh"
work=$(scratch_dir)
trap 'rm -rf "$work"' EXIT
cd "$work"

expect_bad() {	# expect_bad PATTERN ARGS...: exit 2, one stderr line matching PATTERN
	local pattern=$1; shift
	local status lines
	status=$(run_status "$IOMODEL" "$@")
	lines=$(wc -l <"$work/err")
	ok "exit 2 for: $*" [ "$status" -eq 2 ]
	ok "one stderr line for: $*" [ "$lines" -eq 1 ]
	ok "message names the problem ($pattern): $(cat "$work/err")" grep -q -- "$pattern" "$work/err"
	ok "nothing on stdout for: $*" [ ! -s "$work/out" ]
}

expect_bad "unknown command" frobnicate
expect_bad "missing --target" run
expect_bad "unknown option '--bogus'" run --target null --bogus
expect_bad "needs a value" run --target null --bs
expect_bad "unknown option '--tar'" run --tar null
expect_bad "--runtime: must be positive" run --target null --runtime 0
expect_bad "--bytes: expected" run --target null --bytes 0
expect_bad "--seed '9223372036854775808'" run --target null --seed 9223372036854775808
expect_bad "--bs '4q'" run --target null --bs 4q
expect_bad "--bs '-4k'" run --target null --bs -4k
expect_bad "--bs 0" run --target null --bs 0
expect_bad "2047MiB" run --target null --bs 3g
expect_bad "--qd '0'" run --target null --qd 0
expect_bad "--qd '1025'" run --target null --qd 1025
expect_bad "--qd 'x'" run --target null --qd x
expect_bad "--rw 'randomread'" run --target null --rw randomread
expect_bad "--runtime '10parsecs'" run --target null --runtime 10parsecs
expect_bad "--rwmix applies only" run --target null --rw randread --rwmix 30
expect_bad "--rwmix '101'" run --target null --rw randrw --rwmix 101
expect_bad "--engine 'spdk'" run --target null --engine spdk
expect_bad "multiples of 512" run --target ./f.bin --bs 1000
expect_bad "unexpected argument" run --target null extra
expect_bad "beyond the end" run --target null --size 1m --offset 2m
expect_bad "beyond the end" run --target null --size 1m --offset 512k --length 1m
expect_bad "holds no" run --target null --size 1m --bs 2m
expect_bad "--size '1.1k'" run --target ./f.bin --size 1.1k
expect_bad "is a directory, not a regular file or block device" run --target "$work"
expect_bad "/no/such/dir" run --target /no/such/dir/f.bin --size 1m --ios 1

ok "no scratch file left by any bad input" [ -z "$(ls -A "$work" | grep -v -e '^out$' -e '^err$')" ]

status=$(run_status "$IOMODEL" run --help)
ok "run --help exits 0" [ "$status" -eq 0 ]
ok "run --help lists --destroy-data" grep -q -- "--destroy-data" "$work/out"
status=$(run_status "$IOMODEL" --version)
ok "--version exits 0" [ "$status" -eq 0 ]
ok "--version prints the version" grep -q "^iomodel [0-9]" "$work/out"
finish
