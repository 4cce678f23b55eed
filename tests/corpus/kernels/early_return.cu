// expect: barrier_divergence
// check: --kernel tail_sum --grid 2 --block 100 --arg buf:i32:200:iota --arg buf:i32:2
// check: --kernel tail_sum --grid 3 --block 95 --arg buf:i32:285:iota --arg buf:i32:3
// check: --kernel tail_sum --grid 1 --block 97 --arg buf:i32:97:iota --arg buf:i32:1
// Lanes past the end return before the barrier, and the warp they leave (threads 64-95) reaches it
// in part: every thread of a block must reach a __syncthreads() (a GPU does not wait for exited
// lanes, so it seems to work; synccheck and GPUVerify report it). Whole warps that return are fine.
__global__ void tail_sum(const int* in, int* out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    if (t >= 90) return;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    if (t == 0) {
        int sum = 0;
        for (int i = 0; i < 90; ++i) sum += s[i];
        out[blockIdx.x] = sum;
    }
}
