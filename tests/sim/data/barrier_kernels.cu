// Kernels for the simulator's aligned-barrier tests (tests/sim/barrier_test.cpp). Compiled once with
//   nvcc -ptx -lineinfo -O3 -arch=compute_75 barrier_kernels.cu -o barrier_kernels.ptx
// and the PTX is committed, so the tests need no CUDA toolkit. __syncthreads() is bar.sync 0, an
// aligned barrier: every non-exited lane of a warp must reach the same barrier instruction.

// Seed 002's loop: thread i syncs only in iteration i. nvcc unrolls the loop by four, so the lanes of
// a warp wait at four different bar.sync instructions for each other: it hangs an H200.
extern "C" __global__ void seed_loop(unsigned* g_out) {
    for (int i = 0; i < blockDim.x; ++i)
        if (i == threadIdx.x)
            __syncthreads();
    g_out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

// Odd lanes take an extra barrier: odd and even lanes of every warp wait at different instructions.
extern "C" __global__ void odd_lanes(unsigned* g_out) {
    if (threadIdx.x & 1)
        __syncthreads();
    __syncthreads();
    g_out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

// Threads below `split` take an extra barrier. With a split at a multiple of 32 every warp is
// uniform and the two barriers pair with each other (as on an H200): the block completes. With a
// split inside a warp, that warp's lanes wait at different instructions.
extern "C" __global__ void split_block(unsigned* g_out, unsigned split) {
    if (threadIdx.x < split)
        __syncthreads();
    __syncthreads();
    g_out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

// Threads below `limit` stop at a barrier; the others skip it, do more work and exit, after which
// the waiting lanes are all the warp has left: the block completes.
extern "C" __global__ void skip_then_exit(const unsigned* g_in, unsigned* g_out, unsigned limit) {
    __shared__ unsigned s_v[1024];
    unsigned tid = threadIdx.x;
    unsigned gid = blockIdx.x * blockDim.x + tid;
    s_v[tid] = g_in[gid] * 3;
    if (tid < limit)
        __syncthreads();
    g_out[gid] = s_v[tid] + 1;
}

// Only the upper lanes of each warp (24-31) run the block with the barrier; the others do other work
// and finish. The upper lanes read the value of the next warp's upper lane, written before the barrier.
extern "C" __global__ void upper_lanes(const unsigned* g_in, unsigned* g_out) {
    __shared__ unsigned s_v[1024];
    unsigned tid = threadIdx.x;
    unsigned gid = blockIdx.x * blockDim.x + tid;
    if ((tid & 31) >= 24) {
        s_v[tid] = g_in[gid];
        __syncthreads();
        unsigned next = tid + 32 < blockDim.x ? tid + 32 : tid;
        g_out[gid] = s_v[next];
    } else {
        g_out[gid] = g_in[gid] * 7;
    }
}

// Lanes 24-31 of every warp return first; the rest exchange values through shared memory.
extern "C" __global__ void early_return(const unsigned* g_in, unsigned* g_out) {
    __shared__ unsigned s_v[1024];
    unsigned tid = threadIdx.x;
    unsigned gid = blockIdx.x * blockDim.x + tid;
    if ((tid & 31) >= 24)
        return;
    s_v[tid] = g_in[gid];
    __syncthreads();
    unsigned prev = (tid & 31) == 0 ? tid + 23 : tid - 1; // a lane below 24 of the same warp
    if (prev >= blockDim.x) prev = tid;
    g_out[gid] = s_v[prev] + 100;
}

// Thread 0 skips the barrier (the seed's `if (threadIdx.x > 0) __syncthreads();`) and exits.
extern "C" __global__ void skip_thread0(const unsigned* g_in, unsigned* g_out) {
    __shared__ unsigned s_v[1024];
    unsigned tid = threadIdx.x;
    unsigned gid = blockIdx.x * blockDim.x + tid;
    s_v[tid] = g_in[gid];
    if (tid > 0) {
        __syncthreads();
        g_out[gid] = s_v[blockDim.x - tid];
    }
}

// __barrier_sync is barrier.sync without .aligned: arrivals are counted thread by thread, so odd and
// even lanes at different instructions pair up (no warp-level rule), and the block completes.
extern "C" __global__ void odd_lanes_unaligned(unsigned* g_out) {
    if (threadIdx.x & 1)
        __barrier_sync(0);
    __barrier_sync(0);
    g_out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}
