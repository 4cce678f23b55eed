// Scenario "loop_barrier": __syncthreads() inside a loop whose trip count differs between threads.
//
// Thread t owns a list of g_len[t] items (item i of thread t is g_items[i * n + t]). The block
// works in rounds: in round i every thread puts its i-th item into s_item[t], and each thread adds
// the item of its partner p = 255 - t (on the other side of the block) to its running sum. So
//     g_out[t] = the sum of the items of thread p.
// A round needs two barriers: one so that every item is in place before anyone reads it, one so
// that everyone has read before the next round overwrites it.
//
// The rule: every thread of the block must execute a barrier inside a loop the same number of
// times. Run the loop the same number of times for everyone and put the per-thread condition
// inside it, around the work.
//
// Launch: 256 threads per block (the tile is sized for it); max_len is the longest list.

// uniform_trip_count: every thread runs max_len rounds, the same for the whole block; a thread
// whose list is exhausted publishes 0 instead of an item, but still meets both barriers of every
// round. Results are exact under every schedule and no finding fires.
extern "C" __global__ void loop_barrier_uniform_trip_count(const int* g_len, const int* g_items, int* g_out,
                                                           int n, int max_len)
{
    __shared__ int s_item[256];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;
    int len = g_len[gid];
    int sum = 0;

    for (int i = 0; i < max_len; ++i) {
        s_item[tid] = (i < len) ? g_items[i * n + gid] : 0;
        __syncthreads();
        sum += s_item[blockDim.x - 1 - tid];
        __syncthreads();
    }
    __syncthreads();
    g_out[gid] = sum;
}

// per_thread_trip_count: the loop runs g_len[t] times, so threads leave it at different rounds.
// A thread that is done goes on to the __syncthreads() after the loop while its warp-mates still
// wait at the ones inside it, and nvcc unrolled the loop by four: the lanes of each warp end up at
// different bar.sync instructions, and a warp arrives only when all its lanes are at the same one.
// The block hangs, in the simulator as on an H200: the student sees status deadlock with the
// threads waiting at lines 57 and 61; deadlock and barrier_divergence must fire. (Only a bound
// that is the same for the whole block, with the work under if (i < len), lets every warp meet
// its barriers.)
extern "C" __global__ void loop_barrier_per_thread_trip_count(const int* g_len, const int* g_items, int* g_out,
                                                              int n, int max_len)
{
    __shared__ int s_item[256];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;
    int len = g_len[gid];
    int sum = 0;

    for (int i = 0; i < len; ++i) {
        s_item[tid] = g_items[i * n + gid];
        __syncthreads();
        sum += s_item[blockDim.x - 1 - tid];
        __syncthreads();
    }
    __syncthreads();
    g_out[gid] = sum;
}
