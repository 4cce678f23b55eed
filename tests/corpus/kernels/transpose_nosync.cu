// expect: race
// also: shared
// check: --kernel 'transpose<16>' --grid 2,2 --block 16,16 --arg buf:f32:1024:iota --arg buf:f32:1024 --arg 32 --schedule adversarial
// The tiled transpose without its barrier: a thread reads a tile element another warp has not
// written yet.
template <int TILE> __global__ void transpose(const float* in, float* out, int width) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * width + x] = tile[threadIdx.x][threadIdx.y];
}
template __global__ void transpose<16>(const float*, float*, int);
