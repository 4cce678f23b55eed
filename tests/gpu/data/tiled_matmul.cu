// A tiled matrix product C = A * B written the way public test suites and the CUDA samples write
// it: a template on the tile size, plain C++ kernel names (mangled in the PTX), one block per TILE x
// TILE tile of C, the tiles of A and B staged through shared memory. Not in the catalog: the GPU
// tests run it at 16 x 16 blocks of 16 x 16 threads (about 42 M events traced), more than a small
// trace buffer holds, to check that no finding rests on a block whose history is partial.
// Compiled with: nvcc -ptx -lineinfo -O3 -arch=compute_75 -std=c++17 tiled_matmul.cu (regenerate.sh)

// Correct: a barrier after loading the tiles (every thread's element is in before anyone reads the
// row and column it needs) and one after using them (nobody overwrites a tile still being read).
template <int TILE>
__global__ void TiledMatMul(float* C, float* A, float* B, int widthA, int widthB) {
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int rowA = blockIdx.y * TILE * widthA; // first element of the block's band of A
    const int colB = blockIdx.x * TILE;          // first column of the block's band of B
    float sum = 0;
    for (int a = rowA, b = colB; a < rowA + widthA; a += TILE, b += TILE * widthB) {
        __shared__ float s_a[TILE][TILE];
        __shared__ float s_b[TILE][TILE];
        s_a[ty][tx] = A[a + widthA * ty + tx];
        s_b[ty][tx] = B[b + widthB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            sum += s_a[ty][k] * s_b[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TILE + ty) * widthB + blockIdx.x * TILE + tx] = sum;
}

// Broken: no barrier between loading the tiles and using them, so a thread reads s_a[ty][k] and
// s_b[k][tx] before the threads that own them wrote them (a shared-memory RAW race in every block).
template <int TILE>
__global__ void TiledMatMulNoLoadBarrier(float* C, float* A, float* B, int widthA, int widthB) {
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int rowA = blockIdx.y * TILE * widthA;
    const int colB = blockIdx.x * TILE;
    float sum = 0;
    for (int a = rowA, b = colB; a < rowA + widthA; a += TILE, b += TILE * widthB) {
        __shared__ float s_a[TILE][TILE];
        __shared__ float s_b[TILE][TILE];
        s_a[ty][tx] = A[a + widthA * ty + tx];
        s_b[ty][tx] = B[b + widthB * ty + tx];
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            sum += s_a[ty][k] * s_b[k][tx];
        __syncthreads();
    }
    C[(blockIdx.y * TILE + ty) * widthB + blockIdx.x * TILE + tx] = sum;
}

template __global__ void TiledMatMul<16>(float*, float*, float*, int, int);
template __global__ void TiledMatMulNoLoadBarrier<16>(float*, float*, float*, int, int);
