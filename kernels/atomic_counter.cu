// Scenario "atomic_counter": many threads, one total. Every thread of the grid holds one value of
// g_in and the grid's sum must end up in g_sum[0]; the variants climb from one atomic per thread on
// one address to one atomic per block (seed 000, section 6: hierarchical reduction, shared-memory
// atomics, warp aggregation). The last variant is a surprise: an integer atomicAdd(&c, 1) on one
// address that the compiler below PTX (ptxas) aggregates by itself.
//
// The values are whole numbers as floats (1..9), so every partial sum is a whole number below 2^24:
// exact in any order, and the float total can be checked exactly whichever thread adds first.
//
// No per-thread latency timing here: a sum never uses the value its atomicAdd returns, so the
// compiler emits a fire-and-forget RED, and a clock64() around it measures ~260 cycles whatever the
// queue (GPU_FACTS.md, Atomics). Making the sum keep the returned value only to time it would
// change the kernel under test. The contention heatmap shows where the queue forms instead (in the
// simulator, each atomic's modelled queue).
//
// Every variant is correct: the lesson is about time, not about wrong answers.
//
// Launch: any 1-D grid of whole warps (the reductions assume full warps); g_in one value per
// thread; g_sum[0], g_count[0] start at 0; g_ticket one element per thread (int_ticket only).

// per_thread_atomics: every thread adds its value to g_sum[0] with a float atomicAdd. The updates
// to one address are served one after another at the L2, and ptxas cannot merge them: float adds
// are not associative, and it leaves one RED.ADD.F32 per lane (on an H200 1 M threads took 1.87 ms,
// 16 K threads 0.038 ms against 0.010-0.020 for the others). The student sees the slowest rung of the
// ladder by far; the contention finding must name this atomicAdd and its queue.
extern "C" __global__ void atomic_counter_per_thread_atomics(const float* g_in, float* g_sum,
                                                             unsigned int* g_count, unsigned int* g_ticket)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&g_sum[0], g_in[i]);
}

// The sum of v over the 32 lanes of a full warp, in lane 0 (the other lanes hold partial sums).
__device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

// warp_shuffle: the warp adds its 32 values in registers with __shfl_down_sync (no memory, no
// atomic), then lane 0 adds the warp's sum to g_sum[0]: one atomic per warp, 32 times fewer on the
// hot address (H200, 1 M threads: 0.082 ms, 23x faster than per_thread_atomics). The queue is still
// one address wide; contention may still fire, far shallower.
extern "C" __global__ void atomic_counter_warp_shuffle(const float* g_in, float* g_sum, unsigned int* g_count,
                                                       unsigned int* g_ticket)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float warp_total = warp_sum(g_in[i]);
    if (threadIdx.x % 32 == 0)
        atomicAdd(&g_sum[0], warp_total);
}

// shared_atomics: privatisation. Every thread adds its value to the block's own total in shared
// memory (served inside the SM, contended only by the block's threads), and after a barrier thread 0
// adds the block's total to g_sum[0]: one global atomic per block (H200, 1 M threads: 0.078 ms, as
// slow as warp_shuffle: a float add on one shared word is not cheap). No contention on g_sum.
extern "C" __global__ void atomic_counter_shared_atomics(const float* g_in, float* g_sum, unsigned int* g_count,
                                                         unsigned int* g_ticket)
{
    __shared__ float s_sum;
    if (threadIdx.x == 0)
        s_sum = 0.0f;
    __syncthreads();
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&s_sum, g_in[i]);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(&g_sum[0], s_sum);
}

// block_hierarchical: seed 000's hierarchical_reduce. Three levels, each with fewer contenders: the
// warp sums in registers (shuffle), lane 0 of each warp adds the warp's sum to a shared total (one
// shared atomic per warp), and after a barrier thread 0 adds the block's total to g_sum[0] (one
// global atomic per block). The fastest rung on an H200 (1 M threads: 0.032 ms, 58x faster than
// per_thread_atomics). No contention finding should fire.
extern "C" __global__ void atomic_counter_block_hierarchical(const float* g_in, float* g_sum,
                                                             unsigned int* g_count, unsigned int* g_ticket)
{
    __shared__ float s_sum;
    if (threadIdx.x == 0)
        s_sum = 0.0f;
    __syncthreads();
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float warp_total = warp_sum(g_in[i]);
    if (threadIdx.x % 32 == 0)
        atomicAdd(&s_sum, warp_total);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(&g_sum[0], s_sum);
}

// int_ticket: the surprise. Every thread takes a ticket with an integer atomicAdd(&g_count[0], 1)
// and stores the value it got back (the tickets are 0, 1, 2, ... once each). The PTX holds one
// atom.global.add.u32 per thread, but ptxas sees that every lane adds the same 1 to the same address
// and writes the warp aggregation itself: its SASS is VOTEU.ANY (which lanes are active), POPC (how
// many), one ATOMG per warp by the leader, and SHFL.IDX handing the old value to every lane, which
// adds its rank (cuobjdump, H200 2026-12-01). So on the GPU it runs at the speed of one atomic per
// warp, not of per_thread_atomics. The simulator runs PTX, so its cost model times such a
// provably warp-uniform integer add as one atomic per warp too (cost_model.h). Contention may fire
// (the PTX queues one atom per thread in the trace); the time is what differs from the float sum.
extern "C" __global__ void atomic_counter_int_ticket(const float* g_in, float* g_sum, unsigned int* g_count,
                                                     unsigned int* g_ticket)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    g_ticket[i] = atomicAdd(&g_count[0], 1u);
}
