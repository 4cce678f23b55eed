// expect: barrier_divergence
// check: --kernel upper_lanes --grid 1 --block 64 --arg buf:i32:64:iota --arg buf:i32:64
// check: --kernel upper_lanes --grid 1 --block 33 --arg buf:i32:64:iota --arg buf:i32:64
// The upper eight lanes of each warp stage a value and meet at a barrier; the other lanes skip the
// block and write their own output meanwhile: a barrier executed by part of a warp.
__global__ void upper_lanes(const int* in, int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if ((t & 31) >= 24) {
        s[t] = in[t];
        __syncthreads();
        out[t] = s[t ^ 1];
    } else {
        out[t] = in[t];
    }
}
