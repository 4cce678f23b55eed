#!/usr/bin/env bash
# Builds and runs the benchmarks; prints their figures (medians over repetitions).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SYNCLAB_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" >/dev/null
for b in "$build"/tests/bench/bench_*; do
  [[ -x "$b" ]] || continue
  echo "== $(basename "$b")"
  "$b" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true "$@"
done
