// expect: race
// also: shared
// check: --kernel reverse --grid 2 --block 64 --arg buf:i32:128:iota --arg buf:i32:128 --schedule adversarial
// check: --kernel reverse --grid 3 --block 33 --arg buf:i32:99:iota --arg buf:i32:99 --schedule adversarial
// Each block reverses its slice through shared memory, with no barrier between write and read.
__global__ void reverse(const int* in, int* out) {
    __shared__ int tile[64];
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * blockDim.x + t];
    out[blockIdx.x * blockDim.x + t] = tile[blockDim.x - 1 - t];
}
