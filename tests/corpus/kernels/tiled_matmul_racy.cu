// expect: race
// check: --kernel tiled_matmul --grid 4,4 --block 16,16 --arg a:f32:65536:random --arg b:f32:65536:random --arg c:f32:65536
// also: shared
// at: line 22
// tiled_matmul.cu (a tiled matrix product in the shape of GPUVerify's mxm_amp_tiled) without the
// barrier between loading the tiles and reading them, the mutation GPUVerify injects: a thread reads
// tile_a[y][k] and tile_b[k][x] that other threads of its block may not have written yet (RAW), and
// a fast warp overwrites the tiles of the next step while slower ones still read them (WAR).
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
        for (int k = 0; k < TILE; ++k)
            sum += tile_a[threadIdx.y][k] * tile_b[k][threadIdx.x];
        __syncthreads();
    }
    c[row * SIZE + col] = sum;
}
