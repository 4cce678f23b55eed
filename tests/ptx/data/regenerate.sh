#!/bin/sh
# Regenerates the PTX samples from the .cu files beside them (needs nvcc 13). The tests only read
# the .ptx files. `.file` paths are reduced to base names, as scripts/normalize_ptx.cmake does.
set -e
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}
for cu in *.cu; do
  name=${cu%.cu}
  case $name in
    *_sm90) arch=sm_90 ;;
    *) arch=compute_75 ;;
  esac
  "$NVCC" -ptx -lineinfo -O3 -arch=$arch -std=c++17 "$cu" -o "$name.ptx"
  sed -i -E 's#(\.file[ \t]+[0-9]+[ \t]+")[^"]*/([^"/]+")#\1\2#' "$name.ptx"
done
