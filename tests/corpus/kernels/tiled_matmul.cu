// expect: clean
// check: --kernel tiled_matmul --grid 4,4 --block 16,16 --arg a:f32:65536:random --arg b:f32:65536:random --arg c:f32:65536
// A tiled matrix product C = A x B of 256 x 256 floats, one 16 x 16 tile of C per block, in the
// textbook shape of GPUVerify's C++AMP mxm_amp_tiled benchmark: each step loads a tile of A and of
// B into shared memory, waits, accumulates, and waits again before the next step overwrites them.
// At its own launch (grid 16,16) it records 42 million events: the check-at-scale benchmark
// (tests/bench/bench_check_scale.cpp) runs it there; the corpus test a corner of it.
#define TILE 16
#define SIZE 256

__global__ void tiled_matmul(const float* a, const float* b, float* c) {
    __shared__ float tile_a[TILE][TILE];
    __shared__ float tile_b[TILE][TILE];
    const int col = blockIdx.x * TILE + threadIdx.x;
    const int row = blockIdx.y * TILE + threadIdx.y;
    float sum = 0;
    for (int t = 0; t < SIZE; t += TILE) {
        tile_a[threadIdx.y][threadIdx.x] = a[row * SIZE + t + threadIdx.x];
        tile_b[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * SIZE + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            sum += tile_a[threadIdx.y][k] * tile_b[k][threadIdx.x];
        __syncthreads();
    }
    c[row * SIZE + col] = sum;
}
