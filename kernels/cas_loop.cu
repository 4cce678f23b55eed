// Scenario "cas_loop": atomicCAS as the universal atomic. Each thread adds its element of g_in to
// one of SLOTS sums (element i to slot i % SLOTS) with a compare-and-swap loop: read the sum,
// compute sum + v, and swap it in only if the sum is still what was read; otherwise retry with the
// value the CAS returned. Under contention a CAS loop retries, and each retry is another atomic.
//
// The input holds one corrupted sample: element *g_nan_at reads as NaN (think of a 0/0 upstream).
// The lesson's parameter `input` makes it `one_nan` (element 100, slot 0) or `finite` (none).
//
// Launch: any 1-D grid; g_in one element per thread; g_sum SLOTS floats and g_dsum SLOTS doubles,
// all 0; a variant adds into one of them and leaves the other at 0.

#define SLOTS 4

__device__ float sample(const float* g_in, const unsigned int* g_nan_at, unsigned int i)
{
    return i == *g_nan_at ? __int_as_float(0x7fffffff) : g_in[i];
}

// int_compare: float addition by CAS on the float's bit pattern, the loop ending when the bits the
// CAS returned are the bits it expected. A NaN's bits equal themselves, so the loop ends even once
// the slot holds NaN: slot 0 comes out NaN (right: NaN + x is NaN) and the run completes. No
// finding fires; the CAS retries are what the cost model counts.
extern "C" __global__ void cas_loop_int_compare(const float* g_in, const unsigned int* g_nan_at, float* g_sum,
                                                double* g_dsum)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float v = sample(g_in, g_nan_at, i);
    int* bits = reinterpret_cast<int*>(&g_sum[i % SLOTS]);
    int old = atomicCAS(bits, 0, 0); // read atomically: a plain load beside the CASes would race
    int assumed;
    do {
        assumed = old;
        old = atomicCAS(bits, assumed, __float_as_int(__int_as_float(assumed) + v));
    } while (assumed != old);
}

// float_compare_nan: the same loop, but it compares the floats instead of their bits. Once slot 0
// holds NaN, every thread adding to it swaps NaN for NaN + v = NaN, succeeds, and then finds
// assumed != old true, because NaN != NaN: it retries forever. In the simulator the lesson's step
// budget ends the run with status budget and names the loop's line and how many threads spin
// there; on the GPU the watchdog (--timeout) stops the kernel. With --param input=finite the same
// code completes and is right: the bug waits for its NaN.
extern "C" __global__ void cas_loop_float_compare_nan(const float* g_in, const unsigned int* g_nan_at,
                                                      float* g_sum, double* g_dsum)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float v = sample(g_in, g_nan_at, i);
    int* bits = reinterpret_cast<int*>(&g_sum[i % SLOTS]);
    float old = __int_as_float(atomicCAS(bits, 0, 0));
    float assumed;
    do {
        assumed = old;
        old = __int_as_float(atomicCAS(bits, __float_as_int(assumed), __float_as_int(assumed + v)));
    } while (assumed != old);
}

// double_add: atomicAdd on double built from atomicCAS on unsigned long long (how it was done
// before GPUs had a double atomicAdd), comparing the 64-bit patterns, so NaN cannot trap it. The
// sums go to g_dsum; slot 0 comes out NaN with the one_nan input. No finding fires.
__device__ double atomic_add_double(double* addr, double val)
{
    unsigned long long* bits = reinterpret_cast<unsigned long long*>(addr);
    unsigned long long old = atomicCAS(bits, 0ull, 0ull);
    unsigned long long assumed;
    do {
        assumed = old;
        old = atomicCAS(bits, assumed, __double_as_longlong(__longlong_as_double(assumed) + val));
    } while (assumed != old);
    return __longlong_as_double(old);
}

extern "C" __global__ void cas_loop_double_add(const float* g_in, const unsigned int* g_nan_at, float* g_sum,
                                               double* g_dsum)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomic_add_double(&g_dsum[i % SLOTS], static_cast<double>(sample(g_in, g_nan_at, i)));
}
