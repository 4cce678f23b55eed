// Kernels written as public race-checker suites and the CUDA samples write them: plain C++ names
// (mangled in the PTX), templates, overloads, -O3. For `synclab check --kernel NAME` tests
// (tests/cli/cpp_kernels_test.cpp). Compiled with:
//   nvcc -ptx -lineinfo -O3 -arch=compute_75 -std=c++17 cpp_kernels.cu -o cpp_kernels.ptx

// A block-wide tree reduction in shared memory, in the style of the samples' first reduction
// kernel: correct (a barrier between every level).
__global__ void block_sum(const int* g_in, int* g_out) {
    __shared__ int s_data[128];
    unsigned t = threadIdx.x;
    s_data[t] = g_in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) s_data[t] += s_data[t + stride];
        __syncthreads();
    }
    if (t == 0) g_out[blockIdx.x] = s_data[0];
}

// The same as a template on the block size, instantiated twice; the 64-thread one forgot the barrier
// inside the loop (a race between levels).
template <unsigned BLOCK, bool SYNC> __global__ void block_sum_t(const int* g_in, int* g_out) {
    __shared__ int s_data[BLOCK];
    unsigned t = threadIdx.x;
    s_data[t] = g_in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) s_data[t] += s_data[t + stride];
        if (SYNC) __syncthreads();
    }
    if (t == 0) g_out[blockIdx.x] = s_data[0];
}
template __global__ void block_sum_t<128, true>(const int*, int*);
template __global__ void block_sum_t<64, false>(const int*, int*);

// Two overloads of one name.
__global__ void scale(float* g_data, float factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) g_data[i] *= factor;
}
__global__ void scale(int* g_data, int factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) g_data[i] *= factor;
}

namespace lab {
// A kernel in a namespace.
__global__ void fill(int* g_out, int value) { g_out[blockIdx.x * blockDim.x + threadIdx.x] = value; }
} // namespace lab

// Writes shared memory that nothing reads back: at -O3 nvcc removes the stores (and the array), so
// the compiled kernel has no shared access and nothing to race on. synclab check says so.
__global__ void dead_shared(int* g_out) {
    __shared__ int s_tile[128];
    s_tile[threadIdx.x] = threadIdx.x;
    s_tile[(threadIdx.x + 1) % 128] = 0;
    if (threadIdx.x == 0) g_out[blockIdx.x] = 1;
}
