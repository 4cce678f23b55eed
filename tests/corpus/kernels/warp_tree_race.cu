// expect: race
// also: global
// check: --kernel warpFold --grid 1 --block 64 --arg buf:i32:64:random=1..999 --schedule adversarial
// check: --kernel warpFold --grid 2 --block 33 --arg buf:i32:64:random=1..999 --schedule random
// Folding a buffer within warp 0 on global memory, in the shape of the warp tests of GPU
// race-checker suites (our code, written after reading them): the __syncwarp() after each step
// orders step one before step two, but inside step two lane t < 16 reads val[t + 16] while lane
// t + 16 writes it, with no warp barrier between: a read-write race within a warp.
__global__ void warpFold(int* val) {
    if (blockIdx.x == 0)
        if (threadIdx.x < 32) {
            val[threadIdx.x] = val[threadIdx.x] + val[threadIdx.x + 32];
            __syncwarp();
            val[threadIdx.x] = val[threadIdx.x] + val[threadIdx.x + 16];
            __syncwarp();
        }
}
