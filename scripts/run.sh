#!/usr/bin/env bash
# The README's run command: builds SyncLab if needed, then runs every scenario variant on the
# simulator and prints the table of verdicts (the desktop app comes next).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SYNCLAB_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" >/dev/null
exec "$build/synclab" table "$@"
