#!/usr/bin/env bash
# The README's run command: builds SyncLab if needed, then opens the desktop app. Without a display
# ($DISPLAY / $WAYLAND_DISPLAY unset: a server, a container, an SSH session) it prints the command
# line's table of every lesson's verdicts instead. Arguments go to the app (see synclab-app --help).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SYNCLAB_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" >/dev/null
if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
  if [[ -x "$build/synclab-app" ]]; then
    exec "$build/synclab-app" "$@"
  fi
  echo "the desktop app was not built (libimgui-dev, libglfw3-dev or python3-glad missing): showing the command-line table instead" >&2
else
  echo "no display: showing the command-line table instead" >&2
fi
exec "$build/synclab" table
