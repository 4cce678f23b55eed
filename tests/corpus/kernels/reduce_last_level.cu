// expect: race
// also: shared
// check: --kernel 'reduce<128>' --grid 2 --block 128 --arg buf:i32:256:iota --arg buf:i32:2 --schedule adversarial
// A tree reduction that unrolls the last warp without __syncwarp() or volatile (the classic
// warp-synchronous shortcut that independent thread scheduling breaks).
template <unsigned BLOCK> __global__ void reduce(const int* in, int* out) {
    __shared__ int s[BLOCK];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 32; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        s[t] += s[t + 32];
        s[t] += s[t + 16];
        s[t] += s[t + 8];
        s[t] += s[t + 4];
        s[t] += s[t + 2];
        s[t] += s[t + 1];
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
template __global__ void reduce<128>(const int*, int*);
