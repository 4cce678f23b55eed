// Kernels SyncLab has never seen (not in the catalog), for `synclab check` tests.
// Compiled with: nvcc -ptx -lineinfo -O3 -arch=compute_75 user_kernels.cu -o user_kernels.ptx

// Reverses each block's slice through shared memory, but forgot the barrier between the write and
// the read: a thread reads s_buf[n - 1 - t] before its owner wrote it.
extern "C" __global__ void reverse_no_sync(const int* g_in, int* g_out) {
    __shared__ int s_buf[128];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    s_buf[t] = g_in[base + t];
    g_out[base + t] = s_buf[blockDim.x - 1 - t];
}

// The same with the barrier: correct.
extern "C" __global__ void reverse_sync(const int* g_in, int* g_out) {
    __shared__ int s_buf[128];
    int t = threadIdx.x;
    int base = blockIdx.x * blockDim.x;
    s_buf[t] = g_in[base + t];
    __syncthreads();
    g_out[base + t] = s_buf[blockDim.x - 1 - t];
}

// Scales a buffer by a float scalar (exercises scalar argument binding).
extern "C" __global__ void scale(float* g_data, float factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) g_data[i] *= factor;
}
