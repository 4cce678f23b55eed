// expect: barrier_divergence
// check: --kernel partial_sync --grid 1 --block 96 --arg buf:i32:96:iota --arg buf:i32:96
// check: --kernel partial_sync --grid 1 --block 33 --arg buf:i32:33:iota --arg buf:i32:33
// check: --kernel partial_sync --grid 1 --block 65 --arg buf:i32:65:iota --arg buf:i32:65
// Lanes 0-19 of warp 0 reach a __syncthreads() the other lanes of their warp skip; those go on and
// write their output (compute-sanitizer synccheck: "Divergent thread(s) in warp").
__global__ void partial_sync(const int* in, int* out) {
    __shared__ int s[96];
    int t = threadIdx.x;
    s[t] = in[t];
    if (t < 20) __syncthreads();
    out[t] = s[t] * 2;
}
