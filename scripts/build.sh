#!/usr/bin/env bash
# build.sh — configures (once) and builds iomodel into build/ (release) or,
# with "asan", into build-asan/ (AddressSanitizer + UndefinedBehaviorSanitizer).
set -eu
cd "$(dirname "$0")/.."
case "${1:-release}" in
release) dir=build; opts=() ;;
asan) dir=build-asan; opts=(-Db_sanitize=address,undefined -Dbuildtype=debug -Db_lundef=false) ;;
*) echo "usage: scripts/build.sh [release|asan]" >&2; exit 2 ;;
esac
[ -f "$dir/build.ninja" ] || meson setup "$dir" "${opts[@]}" >/dev/null
ninja -C "$dir" >/dev/null
