// expect: barrier_divergence deadlock
// status: deadlock
// check: --kernel take_turns --grid 1 --block 64 --arg buf:i32:64:iota --arg buf:i32:64
// check: --kernel take_turns --grid 1 --block 33 --arg buf:i32:64:iota --arg buf:i32:64
// Each thread syncs in its own turn (seed 002's loop); nvcc unrolls the loop, so the lanes of a warp
// wait at different barrier instructions: it hangs an H200.
__global__ void take_turns(const int* in, int* out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    for (int i = 0; i < blockDim.x; ++i)
        if (i == t) __syncthreads();
    out[t] = s[(t + 1) % blockDim.x];
}
