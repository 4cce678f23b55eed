#!/usr/bin/env bash
# Recompiles the kernel corpus (tests/corpus/kernels/*.cu) to the PTX kept beside it, with the
# flags the build uses for kernels/ (nvcc -ptx -lineinfo -O3 -arch=compute_75 -std=c++17) and the
# path normalisation of scripts/normalize_ptx.cmake. Run it after editing a corpus kernel.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[[ -x "$nvcc" ]] || { echo "update_corpus_ptx: no nvcc (set NVCC or put it on PATH)" >&2; exit 1; }
cd "$root/tests/corpus/kernels"
for cu in *.cu; do
  ptx=${cu%.cu}.ptx
  "$nvcc" -ptx -lineinfo -O3 -arch=compute_75 -std=c++17 -diag-suppress 550 "$cu" -o "$ptx"
  cmake -DPTX="$ptx" -P "$root/scripts/normalize_ptx.cmake"
  echo "compiled $cu"
done
