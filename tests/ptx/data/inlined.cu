// __device__ helpers inlined at -O3 (nvcc -lineinfo writes `.loc ..., function_name L, inlined_at
// ...`): a template instantiated twice, a plain helper called from two lines and from another helper,
// a helper in a header, and atomicAdd (the toolkit's own inline function).
#include "inlined_helpers.cuh"

template <bool kAdd>
__device__ void reduce_step(int* s, unsigned t, unsigned offset) {
    if (kAdd)
        s[t] += s[t + offset];
    else
        s[t] = max(s[t], s[t + offset]);
}

__device__ int load_neighbour(const int* s, unsigned t) {
    return s[t + 1];
}

__device__ int twice(const int* s, unsigned t) {
    return 2 * load_neighbour(s, t);
}

__global__ void inlined_kernel(const int* in, int* out, int* count) {
    __shared__ int s[128]; // room for t + 5 at 64 threads
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32) reduce_step<true>(s, t, 32);
    __syncthreads();
    if (t < 16) reduce_step<false>(s, t, 16);
    __syncthreads();
    int v = load_neighbour(s, t);
    v += twice(s, t + 4);
    v += header_load(s, t);
    out[t] = v;
    atomicAdd(count, 1);
}
