// Kernels for the simulator's unit tests (tests/sim/sim_test.cpp). Compiled once with
//   nvcc -ptx -lineinfo -O3 -arch=compute_75 sim_kernels.cu -o sim_kernels.ptx
// and the PTX is committed, so the tests need no CUDA toolkit. Each kernel has a CPU reference in
// the test.

// Thread and block indices over 3D launches.
extern "C" __global__ void indices(unsigned* g_out) {
    unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned tib = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
    unsigned gid = block * nthreads + tib;
    g_out[gid * 4 + 0] = block;
    g_out[gid * 4 + 1] = tib;
    g_out[gid * 4 + 2] = tib % 32 == (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32;
    g_out[gid * 4 + 3] = nthreads;
}

// Integer and float arithmetic mix.
extern "C" __global__ void arith(const int* g_a, const int* g_b, int* g_iout, float* g_fout, double* g_dout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int a = g_a[i], b = g_b[i];
    unsigned ua = (unsigned)a, ub = (unsigned)b;
    g_iout[i * 8 + 0] = a * b + (a >> 3) - (b << 2);
    g_iout[i * 8 + 1] = b != 0 ? a / b : -7;
    g_iout[i * 8 + 2] = b != 0 ? a % b : -9;
    g_iout[i * 8 + 3] = (int)(ua >> (ub & 31)) ^ (int)(ua * 2654435761u);
    g_iout[i * 8 + 4] = min(a, b) + max(a, b) * 3 + abs(a - b);
    g_iout[i * 8 + 5] = __popc(ua) + __clz(ub) * 100 + (int)__brev(ua) % 1000;
    g_iout[i * 8 + 6] = (int)(((long long)a * (long long)b) >> 20);
    g_iout[i * 8 + 7] = __umulhi(ua, ub) ^ (int)__mulhi(a, b);
    float fa = (float)a * 0.25f, fb = (float)b * 0.5f + 1.0f;
    g_fout[i * 4 + 0] = fa * fb + fa - fb;
    g_fout[i * 4 + 1] = fa / fb;
    g_fout[i * 4 + 2] = fminf(fa, fb) + fmaxf(fa, fb) + fabsf(fa);
    g_fout[i * 4 + 3] = (float)(int)(fa * 3.7f) + truncf(fb * 1.3f);
    double da = (double)a, db = (double)b * 0.125;
    g_dout[i] = da * db - da / (db == 0.0 ? 1.0 : db) + sqrt(fabs(da));
}

// Block-wide tree reduction in shared memory (dynamic shared memory, any block size).
extern "C" __global__ void block_sum(const unsigned* g_in, unsigned* g_out) {
    extern __shared__ unsigned s_data[];
    unsigned tid = threadIdx.x;
    s_data[tid] = g_in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned v = 0;
        if (tid % (2 * stride) == 0 && tid + stride < blockDim.x) v = s_data[tid + stride];
        __syncthreads();
        s_data[tid] += v;
        __syncthreads();
    }
    if (tid == 0) g_out[blockIdx.x] = s_data[0];
}

// Divergence inside warps: per-thread loop trip counts and branches, then a common store.
extern "C" __global__ void divergent_loops(unsigned* g_out) {
    unsigned tid = threadIdx.x;
    unsigned acc = 0;
    for (unsigned i = 0; i < tid % 7; ++i) {
        if ((i + tid) & 1) acc += i * 3;
        else acc ^= tid + i;
    }
    if (tid & 2) acc = acc * 5 + 1;
    else if (tid & 4) acc += 11;
    g_out[blockIdx.x * blockDim.x + tid] = acc;
}

// Every atomic on global and shared memory.
extern "C" __global__ void atomics(unsigned* g_u, int* g_i, float* g_f, unsigned long long* g_ull) {
    __shared__ unsigned s_count;
    if (threadIdx.x == 0) s_count = 0;
    __syncthreads();
    unsigned tid = threadIdx.x + blockIdx.x * blockDim.x;
    atomicAdd(&g_u[0], 1u);
    atomicSub(&g_u[1], 2u);
    atomicMax(&g_u[2], tid);
    atomicMin(&g_u[3], tid + 5);
    atomicOr(&g_u[4], 1u << (tid % 32));
    atomicAnd(&g_u[5], ~(1u << (tid % 31)));
    atomicXor(&g_u[6], tid);
    atomicInc(&g_u[7], 9u);
    atomicDec(&g_u[8], 6u);
    atomicExch(&g_u[9], 77u);
    unsigned old = atomicAdd(&s_count, 1u);
    atomicMax(&g_u[10], old);
    atomicAdd(&g_i[0], -3);
    atomicMin(&g_i[1], -(int)tid);
    atomicAdd(&g_f[0], 0.5f);
    atomicAdd(&g_ull[0], 1ull << 33);
    // A CAS loop: every thread adds its id through compare-and-swap.
    unsigned cur = g_u[11], assumed;
    do {
        assumed = cur;
        cur = atomicCAS(&g_u[11], assumed, assumed + tid);
    } while (cur != assumed);
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(&g_u[12], s_count);
}

// Warp collectives: shuffle-down sum, ballot, any/all, and a __syncwarp hand-off.
extern "C" __global__ void warp_ops(const int* g_in, int* g_out) {
    __shared__ int s_buf[1024];
    unsigned tid = threadIdx.x;
    int v = g_in[blockIdx.x * blockDim.x + tid];
    int sum = v;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    unsigned ballot = __ballot_sync(0xffffffffu, v & 1);
    int any = __any_sync(0xffffffffu, v > 90);
    int all = __all_sync(0xffffffffu, v >= 0);
    s_buf[tid] = v;
    __syncwarp();
    int neighbour = s_buf[tid ^ 1];
    int bcast = __shfl_sync(0xffffffffu, v, 3);
    int base = (blockIdx.x * blockDim.x + tid) * 6;
    g_out[base + 0] = sum;
    g_out[base + 1] = (int)ballot;
    g_out[base + 2] = any;
    g_out[base + 3] = all;
    g_out[base + 4] = neighbour;
    g_out[base + 5] = bcast;
}

// Vector loads/stores, 64-bit values and conversions.
extern "C" __global__ void vectors(const float4* g_in, float4* g_out, long long* g_wide, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = g_in[i];
    g_out[i] = make_float4(v.w, v.z * 2.0f, v.y + 1.0f, (float)(int)v.x);
    g_wide[i] = (long long)v.x * 1000000007ll + (long long)(unsigned char)(i * 37);
}

// A pointer into shared memory passed around generically.
extern "C" __global__ void generic_shared(unsigned* g_out) {
    __shared__ unsigned s_slots[64];
    unsigned* p = (threadIdx.x & 1) ? &s_slots[threadIdx.x] : &g_out[blockIdx.x * blockDim.x + threadIdx.x];
    *p = threadIdx.x;
    __syncthreads();
    if (threadIdx.x & 1) g_out[blockIdx.x * blockDim.x + threadIdx.x] = s_slots[threadIdx.x] * 10;
}

// Runs forever: the step budget must end it.
extern "C" __global__ void spin_forever(volatile unsigned* g_flag) {
    while (*g_flag == 0) {
    }
}

// Reads past the end of its buffer when n is too large.
extern "C" __global__ void out_of_bounds(const float* g_in, float* g_out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    g_out[i] = g_in[i + n];
}

// Shared-memory traffic for event tests: one store, one barrier, one load per thread.
extern "C" __global__ void store_barrier_load(unsigned* g_out) {
    __shared__ unsigned s_v[256];
    s_v[threadIdx.x] = threadIdx.x * 3;
    __syncthreads();
    g_out[blockIdx.x * blockDim.x + threadIdx.x] = s_v[(threadIdx.x + 1) % blockDim.x];
}
