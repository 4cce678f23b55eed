// expect: clean
// check: --kernel testKernel --grid 2 --block 64 --arg buf:i32:11
// check: --kernel testKernel --grid 3 --block 33 --arg buf:i32:11
// check: --kernel 'sharedAtomics<int>' --grid 2 --block 97 --arg buf:i32:22
// Every atomic function once per thread on its own slot, the way the CUDA samples' atomic-intrinsics
// test exercises them (our code, written after reading it): slot k takes only atomic k, so nothing
// races; what the slots end with is checked against a CPU gold (corpus_gold_test.cpp). The
// order-independent slots have one right value; exch and cas depend on the order the threads ran in,
// and the gold checks that they hold a value some order gives.
__global__ void testKernel(int* g_odata) {
    const unsigned int tid = blockDim.x * blockIdx.x + threadIdx.x;
    atomicAdd(&g_odata[0], 10);
    atomicSub(&g_odata[1], 10);
    atomicExch(&g_odata[2], (int)tid);
    atomicMax(&g_odata[3], (int)tid);
    atomicMin(&g_odata[4], (int)tid);
    atomicInc((unsigned int*)&g_odata[5], 17);  // wraps to 0 past 17
    atomicDec((unsigned int*)&g_odata[6], 137); // wraps to 137 below 0 (and above 137)
    atomicCAS(&g_odata[7], (int)tid - 1, (int)tid);
    atomicAnd(&g_odata[8], 2 * (int)tid + 7);
    atomicOr(&g_odata[9], 1 << (tid % 32));
    atomicXor(&g_odata[10], (int)tid);
}

// The same functions on shared memory: each block starts its own 11 slots (the gold's start values),
// applies them, and writes them to its 11 elements of out.
template <typename T> __global__ void sharedAtomics(T* out) {
    __shared__ T s[11];
    if (threadIdx.x == 0) {
        for (int k = 0; k < 11; ++k) s[k] = 0;
        s[4] = 1 << 20; // min: start above every thread index
        s[8] = 0xff;    // and: start with the low byte set
    }
    __syncthreads();
    const T tid = threadIdx.x;
    atomicAdd(&s[0], T(10));
    atomicSub(&s[1], T(10));
    atomicExch(&s[2], tid);
    atomicMax(&s[3], tid);
    atomicMin(&s[4], tid);
    atomicInc((unsigned int*)&s[5], 17u);
    atomicDec((unsigned int*)&s[6], 137u);
    atomicCAS(&s[7], tid - 1, tid);
    atomicAnd(&s[8], 2 * tid + 7);
    atomicOr(&s[9], T(1) << (threadIdx.x % 32));
    atomicXor(&s[10], tid);
    __syncthreads();
    for (unsigned k = threadIdx.x; k < 11; k += blockDim.x) out[blockIdx.x * 11 + k] = s[k];
}
template __global__ void sharedAtomics<int>(int*);
