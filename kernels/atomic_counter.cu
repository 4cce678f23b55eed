// Scenario "atomic_counter": every thread of the grid takes a ticket from a counter with atomicAdd,
// four ways, from one hot address to one global atomic per block.
//
// Each thread records three things: its ticket (the value its increment returned: the tickets of
// one counter are 0, 1, 2, ... with none twice and none missing), the clock64() cycles its
// increment took, and the SM it ran on (%smid). The ticket is the atomic's result put to use: an
// atomic whose result is dropped compiles to a fire-and-forget RED, which does not wait for the
// queue at the address and so hides the very contention this lesson measures. The cycles and SMs
// are the latency heatmaps' data (lesson.toml [latency]); in the simulator %clock64 reads the cost
// model's clock, so the same kernel gives modelled latencies.
//
// Every variant is correct: the lesson is about time, not about wrong answers.
//
// Launch: any 1-D grid of whole warps; g_counters holds at least k counters starting at 0;
// g_ticket, g_cycles and g_smid one element per thread.

__device__ unsigned int sm_id()
{
    unsigned int id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

// Every thread stores its ticket before it reads the clock again: the store needs the atomic's
// result, so on the GPU the second clock64() cannot be read before the atomic has come back (its
// issue alone takes a few cycles whatever the queue). Then the cycles and the SM.
__device__ long long ticket_then_clock(unsigned int* g_ticket, unsigned int ticket)
{
    g_ticket[blockIdx.x * blockDim.x + threadIdx.x] = ticket;
    return clock64();
}

__device__ void record(long long* g_cycles, unsigned int* g_smid, long long t0, long long t1)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    g_cycles[i] = t1 - t0;
    g_smid[i] = sm_id();
}

// one_address: every thread increments g_counters[0]; updates to one address are serialised (the
// PTX holds one atom per thread; the contention finding must name it). But ptxas proves the address
// and the 1 warp-uniform and emits the warp aggregation itself (VOTEU.ANY, POPC, one ATOMG per
// warp, SHFL.IDX: cuobjdump, H200 2026-12-01): at 1 M threads 0.058 ms, as warp_aggregated.
// The cost model times it so too (cost_model.h); a run-time-only hot address does queue.
extern "C" __global__ void atomic_counter_one_address(unsigned int* g_counters, unsigned int* g_ticket,
                                                      long long* g_cycles, unsigned int* g_smid, unsigned int k)
{
    const long long t0 = clock64();
    const unsigned int old = atomicAdd(&g_counters[0], 1u);
    const long long t1 = ticket_then_clock(g_ticket, old);
    record(g_cycles, g_smid, t0, t1);
}

// k_addresses: thread i increments g_counters[i % k], so k queues share the load (k is the lesson's
// parameter: --param k=1 is one_address again, k=1024 nearly contention-free). On an H200, 32
// addresses ran 10x faster than one and 1,024 addresses 77x. Neighbouring lanes hit different
// counters, so a warp's 32 increments go to up to 32 queues at once. Contention should fire for
// k = 1 and fade as k grows.
extern "C" __global__ void atomic_counter_k_addresses(unsigned int* g_counters, unsigned int* g_ticket,
                                                      long long* g_cycles, unsigned int* g_smid, unsigned int k)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    const long long t0 = clock64();
    const unsigned int old = atomicAdd(&g_counters[i % k], 1u);
    const long long t1 = ticket_then_clock(g_ticket, old);
    record(g_cycles, g_smid, t0, t1);
}

// warp_aggregated: the warp's active lanes (__activemask) elect a leader (__ffs: the lowest), the
// leader adds the whole warp's count (__popc) in one atomicAdd, __shfl_sync hands its result to
// every lane, and each lane's ticket is that base plus its rank among the active lanes. One atomic
// per warp instead of 32: on an H200, 0.39 ms instead of 12.3. The queue at g_counters[0] is 32
// times shorter; contention may still fire, with a lower depth than one_address.
extern "C" __global__ void atomic_counter_warp_aggregated(unsigned int* g_counters, unsigned int* g_ticket,
                                                          long long* g_cycles, unsigned int* g_smid,
                                                          unsigned int k)
{
    const long long t0 = clock64();
    const unsigned int active = __activemask();
    const int leader = __ffs(active) - 1;
    const unsigned int lane = threadIdx.x % 32;
    unsigned int base = 0;
    if (lane == leader)
        base = atomicAdd(&g_counters[0], __popc(active));
    base = __shfl_sync(active, base, leader);
    const unsigned int ticket = base + __popc(active & ((1u << lane) - 1));
    const long long t1 = ticket_then_clock(g_ticket, ticket);
    record(g_cycles, g_smid, t0, t1);
}

// block_hierarchical: three levels, each with fewer contenders. The warp sums its lanes' 1s with
// __shfl_down_sync (no atomic); lane 0 adds the warp's count to a shared counter (one shared-memory
// atomic per warp, served inside the SM); after a barrier thread 0 adds the block's count to
// g_counters[0] (one global atomic per block) and, after another barrier, every thread's ticket is
// the block's base + its warp's base + its lane. On an H200: 0.052 ms, 240x faster than
// one_address. The barriers make each thread wait for its whole block, which the latency heatmap
// shows as even bands per block. No contention finding should fire.
extern "C" __global__ void atomic_counter_block_hierarchical(unsigned int* g_counters, unsigned int* g_ticket,
                                                             long long* g_cycles, unsigned int* g_smid,
                                                             unsigned int k)
{
    __shared__ unsigned int s_count; // the block's count so far: one shared atomic per warp
    __shared__ unsigned int s_base;  // the block's first ticket: one global atomic per block
    if (threadIdx.x == 0)
        s_count = 0;
    __syncthreads();
    const long long t0 = clock64();
    const unsigned int lane = threadIdx.x % 32;
    unsigned int warp_count = 1;
    for (int offset = 16; offset > 0; offset /= 2)
        warp_count += __shfl_down_sync(0xffffffffu, warp_count, offset);
    unsigned int warp_base = 0;
    if (lane == 0)
        warp_base = atomicAdd(&s_count, warp_count);
    warp_base = __shfl_sync(0xffffffffu, warp_base, 0);
    __syncthreads();
    if (threadIdx.x == 0)
        s_base = atomicAdd(&g_counters[0], s_count);
    __syncthreads();
    const unsigned int ticket = s_base + warp_base + lane;
    const long long t1 = ticket_then_clock(g_ticket, ticket);
    record(g_cycles, g_smid, t0, t1);
}
