// expect: barrier_divergence
// check: --kernel upper_lanes_only --grid 1 --block 64 --arg buf:i32:64:iota --arg buf:i32:64
// The issue's second example taken literally: the upper eight lanes of each warp stage a value and
// meet at a barrier, and the other lanes skip the block and simply finish. nvcc compiles the skip to a
// branch to the kernel's `ret`, the same PTX as `if ((t & 31) < 24) return;` before the barrier. Both
// leave part of each warp at the barrier while the other lanes exit: every thread of the block must
// reach it (compute-sanitizer's synccheck: "Divergent thread(s) in warp" on an H200), so both are
// flagged, as is the near-twin whose skipping lanes do work before they finish (lane_barrier.cu).
__global__ void upper_lanes_only(const int* in, int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if ((t & 31) >= 24) {
        s[t] = in[t];
        __syncthreads();
        out[t] = s[t ^ 1];
    }
}
