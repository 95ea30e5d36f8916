#!/usr/bin/env bash
# quickstart.sh — the newcomer's first command: installs what is missing
# (Debian packages), builds build/iomodel, and runs the main job on a scratch
# file in the current directory (removed afterwards).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
"$here/scripts/install-deps.sh"
"$here/scripts/build.sh"
echo "iomodel: 4 KiB random reads at queue depth 32 for 10 s on a 1 GiB scratch file"
exec "$here/build/iomodel" run --target ./iomodel-scratch.bin --size 1g \
	--rw randread --bs 4k --qd 32 --runtime 10s
