// expect: race
// also: WAW
// check: --kernel claim --grid 1 --block 64 --arg buf:i32:1 --arg buf:i32:64
// Each thread claims a slot with atomicExch, but every thread writes 0 back, so most threads get
// slot 0 and store to the same element: a write-write race through an atomic's result.
__global__ void claim(int* next, int* slots) {
    int slot = atomicExch(next, 0);
    slots[slot] = threadIdx.x;
}
