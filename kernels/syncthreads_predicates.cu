// Scenario "syncthreads_predicates": __syncthreads_count, __syncthreads_and and __syncthreads_or,
// a barrier that also combines one predicate from every thread of the block.
//
// Each is a __syncthreads() (every thread of the block waits until all have arrived, and memory
// before it is visible after it) that also evaluates `predicate` in every thread and hands every
// thread the same result: how many were non-zero (count), whether all were (and), whether any was
// (or). In the PTX it is bar.red.popc.u32 / bar.red.and.pred / bar.red.or.pred: one reduction done
// by the barrier hardware, no shared memory. Each thread writes the result it got to its own
// element, so every thread of a block must show the same value.
//
// Launch: any block size (the lesson uses 100, so the last warp has 4 lanes: the reduction covers
// the threads of the block, not whole warps); every thread of the block must reach the call. The
// buffers a variant does not write keep their start value (-1).

// count: how many values of the block are odd. The student sees every thread of block b holding
// the same count, and the reference's count for b. Must not find: any finding.
extern "C" __global__ void syncthreads_predicates_count(const int* g_in, int* g_count, int* g_all, int* g_any)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    g_count[i] = __syncthreads_count(g_in[i] % 2 != 0);
}

// and: is every value of the block non-zero (1), or is one 0 (0)? The student sees every thread of a
// block holding its answer: 1 in about a third of the blocks (values 0..99). Must not find: any finding.
extern "C" __global__ void syncthreads_predicates_and(const int* g_in, int* g_count, int* g_all, int* g_any)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    g_all[i] = __syncthreads_and(g_in[i] != 0) ? 1 : 0;
}

// or: does the block hold a 0 anywhere? The complement of `and` on the same input: the student sees 1
// exactly where `and` gives 0, in every thread of the block. Must not find: any finding.
extern "C" __global__ void syncthreads_predicates_or(const int* g_in, int* g_count, int* g_all, int* g_any)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    g_any[i] = __syncthreads_or(g_in[i] == 0) ? 1 : 0;
}
