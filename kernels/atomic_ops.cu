// Scenario "atomic_ops": the table of CUDA's atomic functions, each applied by every thread of a
// block to one word of the block's work area, on shared memory or on global memory.
//
// Each word's final value is fixed by the inputs whatever the threads' order, so each can be
// checked: add, sub, min, max, and, or, xor commute; inc and dec do the same step every time (inc
// counts 0, 1, ..., 99, 0, ...: it wraps to 0 past its limit; dec counts 0, 99, 98, ...: from 0 or
// above the limit it wraps to the limit). Two need their results: exch's final value is whichever
// thread came last, but the values that came out plus the one left behind are exactly the values
// that went in; cas(0 -> tid + 1) succeeds for exactly one thread, whichever comes first. Their
// results are summed into two more words, so both results are consumed (an unused result would
// compile to a RED, and exch and cas have none).
//
// Launch: any 1-D grid; g_in one value per thread; g_out kOps words per block; g_work kWords
// words per block (the global variant's work area).

enum Slot : unsigned int {
    kAdd, kSub, kMin, kMax, kExch, kCas, kAnd, kOr, kXor, kInc, kDec, // the outputs, in g_out order
    kOps,
    kExchOut = kOps, // the sum of the values atomicExch returned
    kCasWins,        // how many atomicCAS found 0
    kWords
};

__device__ void init_work(unsigned int* w)
{
    if (threadIdx.x < kWords)
        w[threadIdx.x] = (threadIdx.x == kMin || threadIdx.x == kAnd) ? 0xffffffffu : 0u;
}

__device__ void apply_all(unsigned int* w, unsigned int x)
{
    atomicAdd(&w[kAdd], x);
    atomicSub(&w[kSub], x);
    atomicMin(&w[kMin], x);
    atomicMax(&w[kMax], x);
    const unsigned int out = atomicExch(&w[kExch], x);
    atomicAdd(&w[kExchOut], out);
    const unsigned int seen = atomicCAS(&w[kCas], 0u, threadIdx.x + 1);
    atomicAdd(&w[kCasWins], seen == 0 ? 1u : 0u);
    atomicAnd(&w[kAnd], x);
    atomicOr(&w[kOr], x);
    atomicXor(&w[kXor], x);
    atomicInc(&w[kInc], 99u);
    atomicDec(&w[kDec], 99u);
}

// After the block's barrier: one output word per operation (exch: what came out plus what stayed;
// cas: the number of winners, which must be 1).
__device__ void write_results(const unsigned int* w, unsigned int* g_out)
{
    const unsigned int t = threadIdx.x;
    if (t < kOps) {
        unsigned int value = w[t];
        if (t == kExch)
            value += w[kExchOut];
        if (t == kCas)
            value = w[kCasWins];
        g_out[blockIdx.x * kOps + t] = value;
    }
}

// shared: the work area is in shared memory, so each atomic is served inside the SM
// (atom.shared.*). Every thread of the block queues on the same 13 words: the contention finding,
// if it fires, names shared addresses with short service times. No other finding fires.
extern "C" __global__ void atomic_ops_shared(const unsigned int* g_in, unsigned int* g_out, unsigned int* g_work)
{
    __shared__ unsigned int s_work[kWords];
    init_work(s_work);
    __syncthreads();
    apply_all(s_work, g_in[blockIdx.x * blockDim.x + threadIdx.x]);
    __syncthreads();
    write_results(s_work, g_out);
}

// global: the same table on the block's words of g_work in global memory (atom.global.*, served
// at the L2), the same results, a longer queue per word. Contention should fire here before it
// does for shared. No other finding fires.
extern "C" __global__ void atomic_ops_global(const unsigned int* g_in, unsigned int* g_out, unsigned int* g_work)
{
    unsigned int* w = g_work + blockIdx.x * kWords;
    init_work(w);
    __syncthreads();
    apply_all(w, g_in[blockIdx.x * blockDim.x + threadIdx.x]);
    __syncthreads();
    write_results(w, g_out);
}
