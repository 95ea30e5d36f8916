#!/usr/bin/env bash
# quickstart.sh — the newcomer's first command: installs what is missing
# (Debian packages), builds build/iomodel, and runs the main job: characterize
# the drive under the current directory through a 1 GiB scratch file there
# (removed afterwards), printing its spec sheet.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
"$here/scripts/install-deps.sh"
"$here/scripts/build.sh"
echo "iomodel: characterizing the drive under $(pwd) through a 1 GiB scratch file (about a minute)"
exec "$here/build/iomodel" characterize
