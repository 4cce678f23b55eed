// expect: clean
// check: --kernel 'shflScan<int>' --grid 2 --block 96 --arg buf:i32:192:random=1..999 --arg buf:i32:2
// check: --kernel 'shflScan<int>' --grid 3 --block 160 --arg buf:i32:480:random=1..999 --arg buf:i32:3
// A block-wide inclusive prefix sum built from warp shuffles, in the shape of the CUDA samples'
// shuffle scan (our code, written after reading it): each warp scans its lanes with
// __shfl_up_sync, the last lane of each warp leaves the warp's total in shared memory, warp 0 scans
// those totals with the same shuffles, and every thread adds the totals of the warps before its
// own. Whole warps only (full-mask shuffles): block sizes 96 and 160 are not powers of two. The
// block's total goes to partial_sums. A CPU gold checks every element (corpus_gold_test.cpp).
template <typename T> __global__ void shflScan(T* data, T* partial_sums) {
    __shared__ T sums[32];
    const int id = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane_id = threadIdx.x % warpSize;
    const int warp_id = threadIdx.x / warpSize;
    const int warps = blockDim.x / warpSize;

    T value = data[id];
    for (int i = 1; i < warpSize; i *= 2) {
        const T n = __shfl_up_sync(0xffffffffu, value, i);
        if (lane_id >= i) value += n;
    }
    if (lane_id == warpSize - 1) sums[warp_id] = value;
    __syncthreads();

    if (warp_id == 0) {
        T warp_sum = lane_id < warps ? sums[lane_id] : T(0);
        for (int i = 1; i < warpSize; i *= 2) {
            const T n = __shfl_up_sync(0xffffffffu, warp_sum, i);
            if (lane_id >= i) warp_sum += n;
        }
        if (lane_id < warps) sums[lane_id] = warp_sum;
    }
    __syncthreads();

    if (warp_id > 0) value += sums[warp_id - 1];
    data[id] = value;
    if (threadIdx.x == blockDim.x - 1) partial_sums[blockIdx.x] = value;
}
template __global__ void shflScan<int>(int*, int*);
