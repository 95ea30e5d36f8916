#!/usr/bin/env bash
# fuzz/build.sh — builds the libFuzzer harnesses of fuzz/ with clang into
# build-fuzz/ (fuzz_units, fuzz_csv, …), with AddressSanitizer and
# UndefinedBehaviorSanitizer including float-cast-overflow, every finding
# fatal. Not part of the meson build. Needs clang and libclang-rt-dev
# (scripts/install-deps.sh). Prints the harnesses built, one a line.
# Builds run one at a time (a lock in build-fuzz/).
# Exit 77 when clang or libFuzzer is missing (the reason on stderr).
set -eu
cd "$(dirname "$0")/.."
out=build-fuzz
cc=${FUZZ_CC:-clang}
command -v "$cc" >/dev/null || { echo "fuzz/build.sh: no $cc (apt-get install clang)" >&2; exit 77; }
san=(-fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all)
mkdir -p "$out/obj"
# one build at a time (check.sh builds in the background while the fuzz test
# may start one): a second waits for the first, then finds everything built
exec 9>"$out/.lock"
flock 9
# libFuzzer present? (libclang-rt-NN-dev)
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){(void)d;(void)n;return 0;}\n' \
	>"$out/probe.c"
if ! "$cc" -fsanitize=fuzzer "${san[@]}" "$out/probe.c" -o "$out/probe" 2>/dev/null; then
	echo "fuzz/build.sh: $cc cannot link -fsanitize=fuzzer (apt-get install libclang-rt-dev)" >&2
	exit 77
fi
pkgs="liburing blkid mount jansson inih gsl plplot libisal"
cflags=(-std=c11 -D_GNU_SOURCE -DIOMODEL_VERSION='"fuzz"' -g -O1 -Isrc
	$(pkg-config --cflags $pkgs) -fsanitize=fuzzer-no-link "${san[@]}")
libs=($(pkg-config --libs $pkgs) -laio -lm -pthread)

# every source but the command's main(); each rebuilt when it or a header is newer
objs=() stale=()
# (without Open MPI: the harnesses run no ranks)
for src in $(find src -name '*.c' ! -path src/cli/main.c ! -path src/cli/mpi_run.c | sort); do
	obj="$out/obj/$(echo "${src#src/}" | tr / _ | sed 's/\.c$/.o/')"
	objs+=("$obj")
	if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] ||
	   [ -n "$(find src -name '*.h' -newer "$obj" -print -quit)" ]; then
		stale+=("$src" "$obj")
	fi
done
if [ ${#stale[@]} -gt 0 ]; then
	printf '%s\n' "${cflags[@]}" | sed 's/"/\\"/g' >"$out/cflags.rsp"
	printf '%s\n' "${stale[@]}" | xargs -P "$(nproc)" -n 2 sh -c \
		'"$0" @"$1" -c "$2" -o "$3" || exit 255' "$cc" "$out/cflags.rsp"
fi

for h in fuzz/fuzz_*.c; do
	name=$(basename "$h" .c)
	if [ ! -x "$out/$name" ] || [ -n "$(find "$h" fuzz/fuzz_common.h "$out/obj" -newer "$out/$name" -print -quit)" ]; then
		"$cc" "${cflags[@]}" -fsanitize=fuzzer "$h" "${objs[@]}" "${libs[@]}" -o "$out/$name"
	fi
	echo "$name"
done
