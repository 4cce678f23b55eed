#!/bin/sh
# Regenerates the PTX of the GPU tests' kernels from the .cu files beside them (needs nvcc 13), with
# the build's kernel flags. The tests only read the .ptx files. `.file` paths are reduced to base
# names, as scripts/normalize_ptx.cmake does.
set -e
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
for cu in *.cu; do
  name=${cu%.cu}
  "$NVCC" -ptx -lineinfo -O3 -arch=compute_75 -std=c++17 "$cu" -o "$name.ptx"
  sed -i -E 's#(\.file[ \t]+[0-9]+[ \t]+")[^"]*/([^"/]+")#\1\2#' "$name.ptx"
done
