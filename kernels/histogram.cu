// Scenario "histogram": count n values into NUM_BINS bins, three ways. Every variant is correct;
// they differ in how many atomics they issue and where those atomics queue.
//
// The input is the lesson's parameter: uniform (values spread evenly over the bins) or skewed
// (every value in one bin, the worst case: every atomic of the launch lands on one address).
//
// Launch: any 1-D grid; each thread takes elements i, i + stride, ... (a grid-stride loop, so
// neighbouring lanes read neighbouring elements); g_hist holds NUM_BINS counters starting at 0.

#define NUM_BINS 8

// global_atomics: one global atomicAdd per element (8 per thread here). On uniform input 8 queues
// share the load; on skewed input all of them queue on one bin, the student sees the longest run
// of the three, and the contention finding should name this atomicAdd.
extern "C" __global__ void histogram_global_atomics(const unsigned int* g_data, unsigned int* g_hist,
                                                    unsigned int n)
{
    const unsigned int stride = gridDim.x * blockDim.x;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&g_hist[g_data[i] % NUM_BINS], 1u);
}

// shared_privatized: each block counts into its own histogram in shared memory (atomics served
// inside the SM, contended only by the block's own threads), then adds each non-empty bin to
// g_hist: NUM_BINS global atomics per block instead of one per element. On skewed input the shared
// counter of the one bin is still a queue of 256 threads, but a short and fast one. Contention, if
// any, should name the shared atomicAdd, with a far shorter queue than global_atomics.
extern "C" __global__ void histogram_shared_privatized(const unsigned int* g_data, unsigned int* g_hist,
                                                       unsigned int n)
{
    __shared__ unsigned int s_hist[NUM_BINS];
    if (threadIdx.x < NUM_BINS)
        s_hist[threadIdx.x] = 0;
    __syncthreads();
    const unsigned int stride = gridDim.x * blockDim.x;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&s_hist[g_data[i] % NUM_BINS], 1u);
    __syncthreads();
    if (threadIdx.x < NUM_BINS && s_hist[threadIdx.x] != 0)
        atomicAdd(&g_hist[threadIdx.x], s_hist[threadIdx.x]);
}

// per_thread_private: each thread counts its own elements in registers (the unrolled loops keep
// priv[] out of local memory), then adds each of its non-empty bins once. It pays when a thread
// sees many elements of the same bin: on skewed input one global atomic per thread instead of 8;
// on uniform input with 8 elements per thread most bins hold one, and it issues nearly as many
// atomics as global_atomics. The parameter shows both.
extern "C" __global__ void histogram_per_thread_private(const unsigned int* g_data, unsigned int* g_hist,
                                                        unsigned int n)
{
    unsigned int priv[NUM_BINS];
#pragma unroll
    for (int b = 0; b < NUM_BINS; ++b)
        priv[b] = 0;
    const unsigned int stride = gridDim.x * blockDim.x;
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const unsigned int v = g_data[i] % NUM_BINS;
#pragma unroll
        for (int b = 0; b < NUM_BINS; ++b)
            priv[b] += v == b ? 1u : 0u;
    }
#pragma unroll
    for (int b = 0; b < NUM_BINS; ++b)
        if (priv[b] != 0)
            atomicAdd(&g_hist[b], priv[b]);
}
