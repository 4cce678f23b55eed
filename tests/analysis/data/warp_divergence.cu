// Kernels for the end-to-end tests of the warp-level barrier rule (analysis_e2e_test.cpp): a warp
// must execute __syncthreads() (bar.sync, an aligned barrier) with all its live lanes. Plain C++
// names (mangled in the PTX), -O3. Launch: 2 blocks of 100 threads (the fourth warp has 4 lanes).
//   nvcc -ptx -lineinfo -O3 -arch=compute_75 warp_divergence.cu -o warp_divergence.ptx

// barrier_divergence: lanes 0-19 of warp 0 reach the barrier, lanes 20-31 skip it and go on to
// the store below (compute-sanitizer synccheck: "Divergent thread(s) in warp").
__global__ void partial_warp_barrier(const int* g_in, int* g_out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = g_in[t];
    if (t < 20)
        __syncthreads();
    g_out[blockIdx.x * blockDim.x + t] = s[t] + 1;
}

// barrier_divergence: in every full warp, lanes 24-31 take the barrier inside the branch while
// lanes 0-23 do other work and finish.
__global__ void upper_lanes_barrier(const int* g_in, int* g_out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    int v = g_in[t];
    if ((t & 31) >= 24) {
        s[t] = v;
        __syncthreads();
        v = s[t ^ 1];
    } else {
        v = v * 2;
    }
    g_out[blockIdx.x * blockDim.x + t] = v;
}

// barrier_divergence: lanes 24-31 of each warp return, so their warp reaches the barrier in part.
__global__ void early_return_lanes(const int* g_in, int* g_out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    if ((t & 31) >= 24)
        return;
    s[t] = g_in[t];
    __syncthreads();
    g_out[blockIdx.x * blockDim.x + t] = s[t ^ 1];
}

// no finding: whole warps (threads 64-99) return before the barrier.
__global__ void whole_warps_return(const int* g_in, int* g_out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    if (t >= 64)
        return;
    s[t] = g_in[t];
    __syncthreads();
    g_out[blockIdx.x * blockDim.x + t] = s[63 - t];
}

// no finding: a block-uniform condition.
__global__ void uniform_condition(const int* g_in, int* g_out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = g_in[t];
    if (blockIdx.x > 0)
        __syncthreads();
    g_out[blockIdx.x * blockDim.x + t] = blockIdx.x > 0 ? s[blockDim.x - 1 - t] : s[t];
}
