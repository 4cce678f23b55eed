// Scenario "cg_tiles": cooperative groups split a block into tiles of 16 threads, and each tile
// sums its 16 values.
//
// cg::tiled_partition<16>(block) gives each thread its tile (threads 0-15, 16-31, ... of the
// block: two tiles per warp). tile.thread_rank() is the thread's place in it, tile.sync() waits for
// the tile's 16 threads only (a __syncwarp() with the tile's half of the warp as its mask), and
// tile.shfl_down(v, d) is a shuffle confined to the tile. Rank 0 of tile k writes its sum to
// g_out[k].
//
// The rule: a tile is a warp-level group. Lanes that exchange values through memory need the
// tile's barrier between the store and the load, exactly as a warp needs __syncwarp(); a tile's
// shuffle carries its own synchronisation.
//
// Launch: blockDim.x a multiple of 16, at most 256; g_out holds one sum per tile.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// tile_sync: a tree in shared memory, with tile.sync() before every step (all 16 threads of the
// tile execute it: it is outside the `if`). The student sees right sums and no race; the PTX has
// bar.warp.sync with a 16-lane mask. Must not find: race.
extern "C" __global__ void cg_tiles_tile_sync(const int* g_in, int* g_out)
{
    __shared__ int s_val[256];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    const unsigned t = block.thread_rank(), r = tile.thread_rank();
    const unsigned i = blockIdx.x * blockDim.x + t;
    s_val[t] = g_in[i];
    for (unsigned offset = 8; offset > 0; offset /= 2) {
        tile.sync();
        if (r < offset) s_val[t] += s_val[t + offset];
    }
    tile.sync();
    if (r == 0) g_out[i / 16] = s_val[t];
}

// no_tile_sync: the same tree with the tile.sync() calls left out: rank r reads rank r + offset's
// slot while that thread may not have stored its last step yet. The student sees a race "within a
// warp" on s_val, and wrong sums when the lanes interleave (--warp-model its); --warp-model
// lockstep hides it. Must find: race.
extern "C" __global__ void cg_tiles_no_tile_sync(const int* g_in, int* g_out)
{
    __shared__ int s_val[256];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    const unsigned t = block.thread_rank(), r = tile.thread_rank();
    const unsigned i = blockIdx.x * blockDim.x + t;
    s_val[t] = g_in[i];
    for (unsigned offset = 8; offset > 0; offset /= 2) {
        if (r < offset) s_val[t] += s_val[t + offset];
    }
    if (r == 0) g_out[i / 16] = s_val[t];
}

// tile_shuffle: the values stay in registers; tile.shfl_down reads rank r + offset's value within
// the tile (a rank whose r + offset is past 15 gets its own). The reduction of seed 000's cooperative-groups
// example, on a tile of 16. The student sees right sums, no shared memory and no race; the PTX has
// shfl.sync.down with the tile's mask and a segment of 16 lanes. Must not find: race.
__device__ int tile_sum(const cg::thread_block_tile<16>& tile, int v)
{
    for (unsigned offset = tile.size() / 2; offset > 0; offset /= 2)
        v += tile.shfl_down(v, offset);
    return v;
}

extern "C" __global__ void cg_tiles_tile_shuffle(const int* g_in, int* g_out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    const unsigned i = blockIdx.x * blockDim.x + block.thread_rank();
    const int sum = tile_sum(tile, g_in[i]);
    if (tile.thread_rank() == 0) g_out[i / 16] = sum;
}
