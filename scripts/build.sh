#!/usr/bin/env bash
# build.sh — configures (once) and builds iomodel into build/ (release) or,
# with "asan", into build-asan/ (AddressSanitizer + UndefinedBehaviorSanitizer,
# with float-cast-overflow, which gcc's -fsanitize=undefined leaves out; at -O1,
# as the sanitizers' authors advise: half the CPU time of -O0 on the e2e tests, and
# the debug build's invariant checks stay on).
set -eu
cd "$(dirname "$0")/.."
case "${1:-release}" in
release) dir=build; opts=() ;;
asan) dir=build-asan; opts=(-Db_sanitize=address,undefined -Dbuildtype=debug -Db_lundef=false
	-Doptimization=1 -Dc_args=-fsanitize=float-cast-overflow -Dc_link_args=-fsanitize=float-cast-overflow) ;;
*) echo "usage: scripts/build.sh [release|asan]" >&2; exit 2 ;;
esac
if [ ! -f "$dir/build.ninja" ]; then
	meson setup "$dir" "${opts[@]}" >/dev/null
elif [ "$dir" = build-asan ] && ! grep -q -- '-O1 .*float-cast-overflow' "$dir/build.ninja"; then
	meson configure "$dir" "${opts[@]}" >/dev/null	# a tree set up before these options
fi
ninja -C "$dir" >/dev/null
