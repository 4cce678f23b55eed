// Kernels for the cost model's tests (tests/sim/cost_model_test.cpp). Compiled once with
//   nvcc -ptx -lineinfo -O3 -arch=compute_75 cost_kernels.cu -o cost_kernels.ptx
// and the PTX is committed, so the tests need no CUDA toolkit. Each is the smallest kernel that
// shows one behaviour of the model; the lessons' kernels live in kernels/.

// Every thread adds 1 to one counter (result unused: a fire-and-forget RED, which ptxas aggregates
// per warp since the address and the 1 are the same in every lane).
extern "C" __global__ void one_address(unsigned* g_count) {
    atomicAdd(g_count, 1u);
}

// Every thread adds 1 to one of k counters.
extern "C" __global__ void k_addresses(unsigned* g_counts, unsigned k) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&g_counts[i % k], 1u);
}

// One atomic per warp: the leader adds the number of active lanes.
extern "C" __global__ void warp_aggregated(unsigned* g_count) {
    unsigned active = __activemask();
    unsigned leader = __ffs(active) - 1;
    if ((threadIdx.x & 31) == leader) atomicAdd(g_count, __popc(active));
}

// Shuffle within the warp, one shared atomic per warp, one global atomic per block.
extern "C" __global__ void block_hierarchical(unsigned* g_count) {
    __shared__ unsigned s_count;
    if (threadIdx.x == 0) s_count = 0;
    __syncthreads();
    unsigned v = 1;
    for (int d = 16; d > 0; d >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, d);
    if ((threadIdx.x & 31) == 0) atomicAdd(&s_count, v);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(g_count, s_count);
}

// Each thread times its own atomicAdd (the result is used, so it is a real atom) and records
// the cycles and its SM.
extern "C" __global__ void timed_atomic(unsigned* g_counts, unsigned k, long long* g_cycles, unsigned* g_smid,
                                        unsigned* g_old) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    long long t0 = clock64();
    unsigned old = atomicAdd(&g_counts[i % k], 1u);
    g_old[i] = old;
    long long t1 = clock64();
    g_cycles[i] = t1 - t0;
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    g_smid[i] = sm;
}

// The same on shared memory: k counters per block.
extern "C" __global__ void timed_shared_atomic(unsigned k, long long* g_cycles, unsigned* g_out) {
    __shared__ unsigned s_counts[32];
    if (threadIdx.x < 32) s_counts[threadIdx.x] = 0;
    __syncthreads();
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    long long t0 = clock64();
    unsigned old = atomicAdd(&s_counts[threadIdx.x % k], 1u);
    g_out[i] = old;
    long long t1 = clock64();
    g_cycles[i] = t1 - t0;
}

// A float sum by compare-and-swap on the bit pattern: lanes that lose the race retry.
extern "C" __global__ void cas_add(float* g_sum, const float* g_in) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned* p = reinterpret_cast<unsigned*>(g_sum);
    unsigned old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __float_as_uint(__uint_as_float(assumed) + g_in[i]));
    } while (old != assumed);
}

// Warp 0 works for a while before the barrier; every thread records its clock after it.
extern "C" __global__ void barrier_wait(unsigned rounds, long long* g_after, unsigned* g_sink) {
    unsigned x = threadIdx.x;
    if (threadIdx.x < 32)
        for (unsigned r = 0; r < rounds; ++r)
            x = x * 1664525u + 1013904223u;
    g_sink[blockIdx.x * blockDim.x + threadIdx.x] = x;
    __syncthreads();
    g_after[blockIdx.x * blockDim.x + threadIdx.x] = clock64();
}

// Times a global load and a shared load.
extern "C" __global__ void timed_loads(const unsigned* g_in, long long* g_cycles, unsigned* g_out) {
    __shared__ unsigned s_v[64];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    s_v[threadIdx.x % 64] = threadIdx.x;
    __syncthreads();
    long long t0 = clock64();
    unsigned a = *(volatile const unsigned*)&g_in[i];
    long long t1 = clock64();
    unsigned b = *(volatile unsigned*)&s_v[(threadIdx.x + 1) % 64];
    long long t2 = clock64();
    g_out[i] = a + b;
    g_cycles[2 * i] = t1 - t0;
    g_cycles[2 * i + 1] = t2 - t1;
}
