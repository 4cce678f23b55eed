// Scenario "warp_neighbour": each thread reads the value its neighbour in the warp has just stored.
//
// Thread t stores its g_in value in s_val[t] and then reads s_val[t ^ 1], the slot of the lane
// next to it (lanes 0 and 1 swap, 2 and 3, ...), and writes that to g_out: g_out[i] = g_in[i ^ 1].
// The two lanes of a pair are always in one warp, which is why this code was written without a
// barrier for years: on a lockstep warp every lane's store is done before any lane's load.
//
// The rule (CUDA C++ Programming Guide, Independent Thread Scheduling): since Volta the lanes of
// one warp may run at different points of the program; a lane that reads what another lane wrote
// through memory needs __syncwarp() between the store and the load.
//
// Launch: whole warps (blockDim.x a multiple of 32, at most 256).

// no_syncwarp: store, then load the neighbour's slot, nothing between. Nothing orders lane t ^ 1's
// store before lane t's load, so under independent thread scheduling lane t may load first and get
// the slot's old contents. The student sees a race finding "within a warp" on s_val (the store and
// the load lines) in every run, and wrong outputs where the schedule lets one lane of a pair run
// ahead (--warp-model its, random or adversarial); --warp-model lockstep shows the old promise: 0
// wrong. Must find: race.
extern "C" __global__ void warp_neighbour_no_syncwarp(const int* g_in, int* g_out)
{
    __shared__ int s_val[256];
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + t;
    s_val[t] = g_in[i];
    g_out[i] = s_val[t ^ 1];
}

// syncwarp: __syncwarp() between the store and the load. Every lane of the warp waits there until
// all 32 have arrived, and the stores before it are visible to the loads after it. The student
// sees right outputs under every schedule and warp model, and no race. Must not find: race.
extern "C" __global__ void warp_neighbour_syncwarp(const int* g_in, int* g_out)
{
    __shared__ int s_val[256];
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + t;
    s_val[t] = g_in[i];
    __syncwarp();
    g_out[i] = s_val[t ^ 1];
}
