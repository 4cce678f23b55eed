#!/usr/bin/env bash
# The README's test command: installs what is missing, configures, builds and runs every test.
# GPU tests (label gpu) skip by themselves where there is no GPU.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SYNCLAB_BUILD_DIR:-$root/build}
"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure --parallel "$(nproc)" --timeout 900 "$@"
