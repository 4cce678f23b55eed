// Scenario "last_block_reduction": a whole-array sum in one launch; the last block to finish adds up
// the partial sums of all the others.
//
// Every block sums its 256 elements in shared memory, then its thread 0 writes the block's partial
// sum to g_partial[blockIdx.x] and takes a ticket: atomicInc(g_counter, gridDim.x - 1) returns how
// many blocks came before it. The block whose ticket is gridDim.x - 1 came last: every partial has
// been written by then, so its thread 0 reads them all (with volatile loads, as the CUDA Programming
// Guide's example does) and writes the total to g_total. atomicInc wraps at its limit, so the last
// ticket also puts the counter back to 0 for the next launch; a plain `*g_counter = 0` would be a
// weak store racing with the other blocks' atomics.
//
// "Every partial has been written" is about time; what the last block may read is about order.
// The PTX memory model lets the last block read g_partial[b] = 0 (its old value) unless block b's
// store is released before its ticket (a fence before the atomic) and the last block acquires after
// its own ticket (a fence after the atomic, before the reads). The atomics in between pass the
// ordering along from ticket to ticket.
//
// Launch: 256 threads per block (the shared tile); n = gridDim.x * 256 elements in g_in; g_partial
// holds gridDim.x values; g_counter and g_total one each, all starting at 0.

// The block's sum of its 256 elements: a tree in shared memory, a barrier between the levels.
// Both variants share it: the lesson is in what comes after.
__device__ unsigned int block_sum(const unsigned int* g_in, unsigned int n)
{
    __shared__ unsigned int s_sum[256];
    const unsigned int tid = threadIdx.x;
    const unsigned int gid = blockIdx.x * blockDim.x + tid;
    s_sum[tid] = gid < n ? g_in[gid] : 0u;
    __syncthreads();
    for (unsigned int half = blockDim.x / 2; half > 0; half /= 2) {
        if (tid < half)
            s_sum[tid] += s_sum[tid + half];
        __syncthreads();
    }
    return s_sum[0];
}

// no_fence: the partial's store and the ticket are not ordered, and neither are the last block's
// ticket and its reads. The last block may add a partial that is still 0 for it. The H200 gave the
// right total in 200 launches of 4,096 blocks, and so does the simulator's rr schedule: there the
// student sees a right total and, all the same, a stale_read finding on the load of g_partial. The
// random and adversarial schedules take what the PTX model allows and show wrong totals. It passed
// on the hardware; it is still wrong.
extern "C" __global__ void last_block_reduction_no_fence(const unsigned int* g_in, unsigned int* g_partial,
                                                         unsigned int* g_counter, unsigned int* g_total,
                                                         unsigned int n)
{
    const unsigned int sum = block_sum(g_in, n);
    if (threadIdx.x == 0) {
        g_partial[blockIdx.x] = sum;
        const unsigned int ticket = atomicInc(g_counter, gridDim.x - 1);
        if (ticket == gridDim.x - 1) {
            const volatile unsigned int* partial = g_partial;
            unsigned int total = 0;
            for (unsigned int b = 0; b < gridDim.x; ++b)
                total += partial[b];
            *g_total = total;
        }
    }
}

// with_fence: __threadfence() before the ticket releases the partial (the seeds' fence), and a
// second __threadfence() after the ticket, in the last block only, acquires everything the earlier
// tickets released. The second fence is the one the seeds leave out: volatile loads are strong but
// not acquires, so without it nothing orders them after the atomic. The total is right under every
// schedule and no finding fires.
extern "C" __global__ void last_block_reduction_with_fence(const unsigned int* g_in, unsigned int* g_partial,
                                                           unsigned int* g_counter, unsigned int* g_total,
                                                           unsigned int n)
{
    const unsigned int sum = block_sum(g_in, n);
    if (threadIdx.x == 0) {
        g_partial[blockIdx.x] = sum;
        __threadfence();
        const unsigned int ticket = atomicInc(g_counter, gridDim.x - 1);
        if (ticket == gridDim.x - 1) {
            __threadfence();
            const volatile unsigned int* partial = g_partial;
            unsigned int total = 0;
            for (unsigned int b = 0; b < gridDim.x; ++b)
                total += partial[b];
            *g_total = total;
        }
    }
}
