#!/usr/bin/env bash
# One session on the GPU machine (one H200; CUDA toolkit, CMake and ninja, no Debian packages):
# builds SyncLab without the GUI, runs the GPU tests, the GPU benchmark and CLI runs of every
# scenario on both backends, and writes the logs under $OUT (or ./gpu-session-logs).
#
# The machine has no nlohmann_json and no GoogleTest. Carry them from a Debian machine in
# .device-build/ (ignored by git), made there with:
#   mkdir -p .device-build/prefix/include .device-build/prefix/share/cmake
#   cp -r /usr/include/nlohmann .device-build/prefix/include/
#   cp -r /usr/share/cmake/nlohmann_json .device-build/prefix/share/cmake/
#   cp -r /usr/src/googletest .device-build/googletest
# Without them only the worker builds (the worker-only configuration is checked here too).
#
# Usage: scripts/gpu_session.sh [phases...]
#   phases: env build gputests bench cli fences ladder claims cputests sass sanitizer checker scale (default: all
#   but sass, sanitizer, checker and scale, in that order: the GPU's answers first, so that a session cut short still brings them
#   back). fences: every fence lesson variant with 1,024 reader/writer pairs x 50 launches on the
#   GPU beside the simulator (relaxed, 50 seeds), as outcome histograms (fences.log), and
#   fence_scope's CPU reader of host-mapped memory (its stale rate per variant). sanitizer:
#   compute-sanitizer racecheck and synccheck on every kernel of tests/corpus, beside SyncLab's own
#   verdict (sanitizer.tsv). ladder: the optimisation ladders of atomic_counter and histogram on the
#   GPU (median of 20 untraced launches per variant) and on the simulator (modelled cycles), as JSON
#   (ladder_LESSON_gpu.json, ladder_LESSON_sim.json) and tables (ladder.log). claims: every lesson's
#   GPU claims run here (claims.log), the figures written as lessons/LESSON/h200.json:
#   copy them over assets/lessons/ to refresh the recordings the CI checks (then `synclab claims
#   --recorded` says which still lack a figure). checker: every corpus kernel through `synclab check
#   --backend gpu` (traced) beside its expected verdict, and a cooperative launch of one's own kernel
#   (checker.tsv, checker.log). scale: the check-at-scale kernel (tests/corpus/kernels/tiled_matmul,
#   16 x 16 blocks of 16 x 16 threads, clean and racy) whole-process, side by side: compute-sanitizer
#   racecheck, synclab check on the GPU and on the simulator (wall seconds and peak RSS, scale.log).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/gpu-session-logs}
mkdir -p "$out"
build=${SYNCLAB_GPU_BUILD:-/tmp/synclab-gpu-build}
jobs=$(nproc)
phases=("$@")
[[ ${#phases[@]} -eq 0 ]] && phases=(env build gputests bench cli fences ladder claims cputests)
want() { local p; for p in "${phases[@]}"; do [[ $p == "$1" ]] && return 0; done; return 1; }
say() { printf '\n=== %s (%s)\n' "$*" "$(date -u +%T)"; }
export PATH=/usr/local/cuda/bin:$PATH

if want env; then
  {
    say "machine"
    date -u; uname -a; nproc
    nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
    nvcc --version | tail -2; g++ --version | head -1; cmake --version | head -1; ninja --version
  } >"$out/env.log" 2>&1
  cat "$out/env.log"
fi

if want build; then
  {
    t0=$(date +%s)
    say "worker only (no nlohmann_json: what a bare CUDA machine builds)"
    cmake -S "$root" -B "$build-worker" -G Ninja -DSYNCLAB_GUI=OFF -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON 2>&1 | tail -3
    cmake --build "$build-worker" -j "$jobs" 2>&1 | tail -2
    "$build-worker/synclab-gpu" info
    SYNCLAB_CUDA_DRIVER=/nonexistent/libcuda.so.1 "$build-worker/synclab-gpu" info; echo "exit $? (3 expected)"

    say "GoogleTest from the carried source"
    prefix=/tmp/synclab-deps
    if [[ -d "$root/.device-build/googletest" ]]; then
      cmake -S "$root/.device-build/googletest" -B /tmp/gtest-build -G Ninja -DBUILD_GMOCK=OFF \
            -DCMAKE_INSTALL_PREFIX=$prefix -DCMAKE_BUILD_TYPE=Release 2>&1 | tail -1
      cmake --build /tmp/gtest-build -j "$jobs" 2>&1 | tail -1 && cmake --install /tmp/gtest-build >/dev/null
    fi
    say "SyncLab (GUI off, Google Benchmark off)"
    deps="$root/.device-build/prefix"
    # This machine's g++ 13 may warn where the project's g++ 12 does not: warnings are errors first,
    # and if that fails the build is retried with them as warnings (counted in the log).
    cmake -S "$root" -B "$build" -G Ninja -DSYNCLAB_GUI=OFF -DSYNCLAB_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSYNCLAB_WERROR=ON \
          "-DCMAKE_PREFIX_PATH=$deps;$prefix" "-DCMAKE_CXX_FLAGS=-isystem $deps/include" 2>&1 | grep -v '^-- \(Looking\|Performing\|Check\|Detecting\)' | tail -8
    # -k 0: keep going past a failing target, so one session shows every error and still builds the rest.
    timeout 420 cmake --build "$build" -j "$jobs" -- -k 0 >/tmp/synclab-build.log 2>&1
    rc=$?
    grep -E 'error|FAILED' /tmp/synclab-build.log | head -40
    echo "$(grep -c 'warning:' /tmp/synclab-build.log) compiler warnings; by file:"
    grep -o '[a-z_/]*\.\(cpp\|h\):[0-9]*:[0-9]*: warning: .*\[-W[a-z-]*\]' /tmp/synclab-build.log | sed 's/:[0-9]*:[0-9]*: warning: .*\(\[-W[a-z-]*\]\)/ \1/' | sort | uniq -c
    if [[ $rc -ne 0 ]] && grep -q -- '-Werror' /tmp/synclab-build.log; then
      echo "build failed (exit $rc); this compiler's warnings above: retrying with SYNCLAB_WERROR=OFF"
      cmake -S "$root" -B "$build" -DSYNCLAB_WERROR=OFF >/dev/null
      timeout 300 cmake --build "$build" -j "$jobs" -- -k 0 >/tmp/synclab-build.log 2>&1
      rc=$?
      grep -E 'error|FAILED' /tmp/synclab-build.log | head -20
    fi
    echo "build exit $rc after $(( $(date +%s) - t0 )) s"
  } >"$out/build.log" 2>&1
  tail -15 "$out/build.log"
fi

if want gputests; then
  {
    say "synclab-gpu info"
    "$build/synclab-gpu" info
    say "GPU tests (label gpu), one at a time"
    (cd "$build" && timeout 300 ctest -L gpu --output-on-failure -V 2>&1)
  } >"$out/tests.log" 2>&1
  grep -E 'tests passed|Failed  |\*\*\*|^[0-9]+: [a-z_]+/[a-z_]+ +untraced|hang ended|^[0-9]+: live|missing_barrier on' "$out/tests.log" | tail -40
fi

if want bench; then
  (cd "$build" && timeout 200 ./tests/gpu/bench_gpu --reps "${SYNCLAB_BENCH_REPS:-30}") >"$out/bench.log" 2>&1
  tail -40 "$out/bench.log"
fi

if want sass; then
  # The machine code ptxas makes around barriers, for PTX files carried in .device-build/sass/
  # (e.g. instrumented kernels): where BAR.SYNC, WARPSYNC and the recording's atomics end up.
  {
    for f in "$root"/.device-build/sass/*.ptx; do
      [[ -f $f ]] || continue
      ptxas -arch=sm_90 "$f" -o /tmp/sass.cubin || continue
      for fun in divergent_barrier_loop_per_thread divergent_barrier_odd_lanes; do
        say "$(basename "$f"): $fun"
        cuobjdump -sass -fun "$fun" /tmp/sass.cubin | grep -E 'BAR|WARPSYNC|BSSY|BSYNC|ATOM|RED|SHFL|VOTE|BRA|EXIT|BPT|STS|LDS|STG|S2UR|CS2R' | head -60
      done
    done
  } >"$out/sass.log" 2>&1
  grep -c . "$out/sass.log"
fi

if want cli; then
  {
    s="$build/synclab"
    say "synclab table (simulator)"; timeout 120 "$s" table --seeds 2
    say "synclab table --backend gpu --seeds 1"; timeout 150 "$s" table --backend gpu --seeds 1 --timeout 3
    say "run stencil/missing_barrier --backend gpu --reps 5"; timeout 60 "$s" run stencil --variant missing_barrier --backend gpu --reps 5
    say "run divergent_barrier/loop_per_thread --backend gpu (hangs: timeout 3 s)"
    /usr/bin/time -f "wall %e s" timeout 60 "$s" run divergent_barrier --variant loop_per_thread --backend gpu --timeout 3
    say "the same, --live"; timeout 60 "$s" run divergent_barrier --variant loop_per_thread --backend gpu --timeout 2 --live 2>&1 | (head -5; echo ...; tail -8)
    say "run loop_barrier/per_thread_trip_count --backend gpu --untraced"; timeout 60 "$s" run loop_barrier --variant per_thread_trip_count --backend gpu --untraced --timeout 2
    say "run lost_update/plain_increment --backend gpu --json"; timeout 60 "$s" run lost_update --variant plain_increment --backend gpu --json | head -60
    say "check user kernel --backend gpu"
    timeout 60 "$s" check "$root/tests/cli/data/user_kernels.ptx" --kernel reverse_no_sync --grid 2 --block 128 \
      --arg buf:i32:256:iota --arg buf:i32:256 --backend gpu --reps 3
    say "no driver"; SYNCLAB_CUDA_DRIVER=/nonexistent/libcuda.so.1 "$s" run stencil --variant correct --backend gpu; echo "exit $?"
    say "nvidia-smi after everything"; nvidia-smi --query-gpu=name,utilization.gpu,memory.used --format=csv
  } >"$out/cli.log" 2>&1
  tail -30 "$out/cli.log"
fi

if want fences; then
  {
    s="$build/synclab"
    pairs=1024
    buf="--arg buf:u32:$pairs --arg buf:u32:$pairs --arg buf:u32:$pairs --arg buf:u32:$pairs --arg buf:u32:$((2 * pairs))"
    for lesson in message_passing fence_scope; do
      for kernel in $(grep -o "__global__ void ${lesson}_[a-z_]*" "$root/kernels/$lesson.cu" | sed 's/.* //'); do
        for backend in gpu sim; do
          say "$kernel: $pairs pairs x 50, $backend"
          extra="--backend gpu --untraced --timeout 10"
          [[ $backend == sim ]] && extra="--memory relaxed --schedule random"
          timeout 300 "$s" check "$root/kernels/$lesson.cu" --kernel "$kernel" --grid $((2 * pairs)) --block 1 $buf \
            --reps 50 --histogram arg4 --per 2 $extra 2>&1 | tail -6
        done
      done
    done
    say "last_block_reduction, 200 launches (GPU untraced) and the traced run's findings"
    for v in no_fence with_fence; do
      timeout 120 "$s" run last_block_reduction --variant $v --backend gpu --reps 200 --timeout 10 2>&1 | tail -8
      timeout 120 "$s" run last_block_reduction --variant $v --reps 50 2>&1 | tail -4
    done
    say "the lessons as shipped (32 pairs), GPU traced + untraced: findings on the hardware's trace"
    for v in no_fence writer_fence_only reader_fence_only both_fences release_acquire; do
      timeout 120 "$s" run message_passing --variant $v --backend gpu --reps 20 --timeout 10 2>&1 | tail -6
    done
    say "fence_scope's CPU reader: host-mapped g_flag/g_data read by a CPU thread while the kernel runs (1,024 pairs x 50)"
    timeout 600 "$build/tests/gpu/gpu_tests" --gtest_filter='HostReaderGpu.*' 2>&1 | grep -E 'CPU reader|OK|FAILED|SKIPPED|Failure|Expected|Which is|actual' | head -40
    say "the same, the lesson as shipped (32 pairs x 50), CLI; the simulator's note beside it"
    for v in system_fence device_fence_to_host; do
      timeout 120 "$s" run fence_scope --variant $v --backend gpu --untraced --reps 50 --timeout 10 2>&1 | grep -E '^status|^outputs|^note' | head -6
      timeout 120 "$s" run fence_scope --variant $v --reps 10 2>&1 | grep -E '^status|^note' | head -4
    done
    say "litmus files on the GPU (one pair a launch)"
    for k in mp mp_fence mp_release_acquire; do
      timeout 120 "$s" check "$root/tests/litmus/mp.cu" --kernel $k --grid 2 --block 32 --arg buf:u32:2 --arg buf:u32:64 \
        --backend gpu --untraced --reps 200 --histogram arg0 2>&1 | tail -6
    done
    for k in sb sb_fence; do
      timeout 120 "$s" check "$root/tests/litmus/sb.cu" --kernel $k --grid 2 --block 32 --arg buf:u32:2 --arg buf:u32:64 \
        --backend gpu --untraced --reps 200 --histogram arg0 2>&1 | tail -6
    done
  } >"$out/fences.log" 2>&1
  grep -E '^===|^ *"?[0-9],[0-9]|stale|wrong|1,0|0,0|CPU reader' "$out/fences.log" | head -140
fi

if want ladder; then
  # Each ladder at the lesson's size (launch-bound on a GPU) and at a size where the GPU's time is the
  # atomics' (the size parameters), beside the simulator modelling the GPU's SM count.
  sms=$(nvidia-smi --query-gpu=multiprocessor_count --format=csv,noheader 2>/dev/null | head -1 | tr -dc 0-9)
  [[ -z $sms ]] && sms=132
  {
    s="$build/synclab"
    while read -r lesson tag params; do
      say "ladder $lesson $params --backend gpu --reps 20"
      timeout 300 "$s" ladder $lesson $params --backend gpu --reps 20 --json >"$out/ladder_${lesson}_${tag}_gpu.json"
      echo "exit $?"
      timeout 300 "$s" ladder $lesson $params --backend gpu --reps 20
      say "ladder $lesson $params (simulator, modelled cycles on $sms SMs)"
      timeout 300 "$s" ladder $lesson $params --sm-count "$sms" --json >"$out/ladder_${lesson}_${tag}_sim.json"
      echo "exit $?"
      timeout 300 "$s" ladder $lesson $params --sm-count "$sms"
    done <<LADDERS
atomic_counter lesson
atomic_counter t1m --param threads=1048576
histogram lesson
histogram uniform1m --param items=1048576 --param input=uniform
histogram skewed1m --param items=1048576 --param input=skewed
LADDERS
  } >"$out/ladder.log" 2>&1
  grep -vE '^\s*$' "$out/ladder.log" | head -90
fi

if want claims; then
  # The lessons' GPU claims on this GPU, recorded as the lessons' h200.json files would hold them.
  {
    s="$build/synclab"
    say "synclab claims --backend gpu --record $out/lessons"
    timeout 1800 "$s" claims --backend gpu --record "$out/lessons"
    echo "exit $?"
  } >"$out/claims.log" 2>&1
  tail -5 "$out/claims.log"
fi

if want sanitizer; then
  # compute-sanitizer watches the worker's untraced launch of each corpus kernel (--target-processes
  # all: the kernels run in synclab-gpu, a child of synclab), so both checkers see the same SASS.
  {
    s="$build/synclab"
    printf 'kernel\tsynclab expects\tracecheck\tsynccheck\n' >"$out/sanitizer.tsv"
    for cu in "$root"/tests/corpus/kernels/*.cu; do
      name=$(basename "$cu" .cu)
      args=$(sed -n 's|^// check: ||p' "$cu" | sed 's/--schedule [a-z]*//')
      expect=$(sed -n 's|^// expect: ||p' "$cu")
      row="$name\t$expect"
      for tool in racecheck synccheck; do
        say "$tool $name"
        log=/tmp/sanitizer-$tool-$name.log
        eval timeout 60 compute-sanitizer --tool "$tool" --target-processes all --print-limit 4 \
          "$s" check "$root/tests/corpus/kernels/$name.ptx" $args --backend gpu --untraced --timeout 10 >"$log" 2>&1
        cat "$log"
        # racecheck: "RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)" and the lines of
        # "Race reported between Write access at ... in x.cu:8"; synccheck: "ERROR SUMMARY: N errors".
        summary=$(grep -oE 'RACECHECK SUMMARY: [0-9]+ hazards? displayed \([^)]*\)|ERROR SUMMARY: [0-9]+ errors?' "$log" | head -1)
        kinds=$(grep -oE 'in [A-Za-z0-9_]+\.cu:[0-9]+' "$log" | sort -u | sed 's/^in //' | tr '\n' ' ')
        grep -q 'did not finish' "$log" && kinds="$kinds(hung)"
        row="$row\t${summary:-no summary} ${kinds% }"
      done
      printf "$row\n" >>"$out/sanitizer.tsv"
    done
  } >"$out/sanitizer.log" 2>&1
  cat "$out/sanitizer.tsv"
fi

if want checker; then
  {
    s="$build/synclab"
    printf 'kernel\texpect\tgpu status\tgpu findings\n' >"$out/checker.tsv"
    for cu in "$root"/tests/corpus/kernels/*.cu; do
      name=$(basename "$cu" .cu)
      expect=$(sed -n 's|^// expect: ||p' "$cu")
      sed -n 's|^// check: ||p' "$cu" | sed 's/--schedule [a-z]*//' | while read -r args; do
        say "check $name $args --backend gpu"
        log=/tmp/checker-$name.log
        eval timeout 120 "$s" check "$root/tests/corpus/kernels/$name.ptx" $args --backend gpu --timeout 10 >"$log" 2>&1
        cat "$log"
        status=$(sed -n 's/^status: *//p' "$log" | head -1 | cut -c1-40)
        kinds=$(grep -oE '^  [a-z_]+ ' "$log" | sort | uniq -c | tr -s ' ' | tr '\n' ';')
        printf '%s\t%s\t%s\t%s\n' "$name" "$expect" "$status" "$kinds" >>"$out/checker.tsv"
      done
    done
    say "check --cooperative (grid.sync()) on the GPU"
    timeout 60 "$s" check "$root/assets/ptx/grid_sync.ptx" --kernel grid_sync_cooperative_launch --grid 64 --block 256 \
      --arg buf:f32:16384:iota --arg buf:f32:16384 --arg buf:f32:16384 --arg 16384 --arg buf:u32:1 --cooperative --backend gpu --timeout 10
    echo "exit $?"
    timeout 60 "$s" check "$root/assets/ptx/grid_sync.ptx" --kernel grid_sync_cooperative_launch --grid 64 --block 256 \
      --arg buf:f32:16384:iota --arg buf:f32:16384 --arg buf:f32:16384 --arg 16384 --arg buf:u32:1 --backend gpu --timeout 10
    echo "exit $? (no --cooperative)"
  } >"$out/checker.log" 2>&1
  cat "$out/checker.tsv"
fi

if want scale; then
  {
    s="$build/synclab"
    k="$root/tests/corpus/kernels"
    launch="--kernel tiled_matmul --grid 16,16 --block 16,16 --arg a:f32:65536:random --arg b:f32:65536:random --arg c:f32:65536"
    for v in tiled_matmul tiled_matmul_racy; do
      for i in 1 2 3; do
        say "$v: compute-sanitizer --tool racecheck (untraced GPU launch in the worker), run $i"
        /usr/bin/time -f "WALL %e s RSS %M KB" timeout 300 compute-sanitizer --tool racecheck --target-processes all --print-limit 4 \
          "$s" check "$k/$v.ptx" $launch --backend gpu --untraced --timeout 60 2>&1 | grep -E 'SUMMARY|WALL|status'
        say "$v: synclab check --backend gpu (traced), run $i"
        /usr/bin/time -f "WALL %e s RSS %M KB" timeout 300 "$s" check "$k/$v.ptx" $launch --backend gpu --timeout 60 2>&1 | grep -E '^status|^findings|^  race|^events|^traced|launches and events|WALL'
        say "$v: synclab check (simulator), run $i"
        /usr/bin/time -f "WALL %e s RSS %M KB" timeout 300 "$s" check "$k/$v.ptx" $launch 2>&1 | grep -E '^status|^findings|^  race|^events|WALL|analysed'
      done
    done
    # time's RSS is the largest one process reached; the runner and its worker (synclab-gpu) hold
    # memory at once, so their sum, sampled every 20 ms, is the figure to compare with racecheck's.
    peak_sum() {
      "$@" >/dev/null 2>&1 &
      local pid=$! peak=0 sum
      while kill -0 "$pid" 2>/dev/null; do
        sum=$(ps -o rss= -C synclab,synclab-gpu | awk '{t += $1} END {print t + 0}')
        ((sum > peak)) && peak=$sum
        sleep 0.02
      done
      wait "$pid"
      echo "PEAKSUM runner + worker: $peak KB"
    }
    for v in tiled_matmul tiled_matmul_racy; do
      say "$v: synclab check --backend gpu, runner and worker RSS summed"
      peak_sum "$s" check "$k/$v.ptx" $launch --backend gpu --timeout 60
    done
  } >"$out/scale.log" 2>&1
  grep -E '^===|WALL|SUMMARY|^findings|PEAKSUM|launches and events' "$out/scale.log" | head -120
fi

if want cputests; then
  {
    say "tests without a GPU (all but label gpu), in parallel"
    (cd "$build" && timeout 200 ctest -LE gpu -j "$jobs" --output-on-failure 2>&1 | tail -15)
  } >"$out/cputests.log" 2>&1
  tail -5 "$out/cputests.log"
fi
