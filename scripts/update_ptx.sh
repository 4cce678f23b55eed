#!/usr/bin/env bash
# Recompiles kernels/*.cu to PTX exactly as the build does (the nvcc flags of CMakeLists.txt, then
# scripts/normalize_ptx.cmake) and refreshes the copies kept in assets/ptx/, which a machine without
# the CUDA toolkit builds and simulates from. Run it after editing a kernel, and commit the result.
#
# Usage: scripts/update_ptx.sh [build-dir]     (default: build-ptx, a build tree of its own)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build-ptx"}

cmake -S "$root" -B "$build" -G Ninja -DSYNCLAB_TESTS=OFF -DSYNCLAB_BENCH=OFF >/dev/null
nvcc=$(sed -n 's/^SYNCLAB_NVCC:FILEPATH=//p' "$build/CMakeCache.txt")
if [[ -z "$nvcc" || "$nvcc" == *NOTFOUND ]]; then
  echo "update_ptx: no nvcc found (set CUDA_HOME or put nvcc on PATH); assets/ptx/ left as it is" >&2
  exit 1
fi

# synclab_kernels: every kernels/NAME.cu -> build/ptx/NAME.ptx (normalized), plus the embedding.
cmake --build "$build" --target synclab_kernels

mkdir -p "$root/assets/ptx"
shopt -s nullglob
for ptx in "$build"/ptx/*.ptx; do
  name=$(basename "$ptx")
  if cmp -s "$ptx" "$root/assets/ptx/$name"; then
    echo "unchanged  assets/ptx/$name"
  else
    cp "$ptx" "$root/assets/ptx/$name"
    echo "updated    assets/ptx/$name"
  fi
done
for kept in "$root"/assets/ptx/*.ptx; do
  name=$(basename "$kept")
  [[ -f "$build/ptx/$name" ]] || echo "stale      assets/ptx/$name (no kernels/${name%.ptx}.cu is built any more)" >&2
done
echo "nvcc: $("$nvcc" --version | tail -n 2 | head -n 1)"
