// expect: clean
// check: --kernel 'warpTree<int>' --grid 1 --block 32 --arg buf:i32:64:random=1..999
// check: --kernel 'warpTree<int>' --grid 3 --block 32 --arg buf:i32:64:random=1..999
// A warp's tree reduction over a buffer, in the shape of the race-freedom examples of GPU
// race-checker suites (our code, written after reading them): each lane keeps its running sum in a
// register, and every read of a partner's element and every write of its own is separated from
// the next by __syncwarp(), so no two lanes ever touch one element between the same two warp
// barriers. The gold (corpus_gold_test.cpp) runs the same phases on the CPU and checks all 64
// elements. Only block 0 works; the other blocks return.
template <typename T> __global__ void warpTree(T* buf) {
    if (blockIdx.x != 0) return;
    const unsigned tid = threadIdx.x;
    T v = buf[tid];
    __syncwarp();
    v += buf[tid + 16]; __syncwarp();
    buf[tid] = v;       __syncwarp();
    v += buf[tid + 8];  __syncwarp();
    buf[tid] = v;       __syncwarp();
    v += buf[tid + 4];  __syncwarp();
    buf[tid] = v;       __syncwarp();
    v += buf[tid + 2];  __syncwarp();
    buf[tid] = v;       __syncwarp();
    v += buf[tid + 1];  __syncwarp();
    buf[tid] = v;
}
template __global__ void warpTree<int>(int*);
