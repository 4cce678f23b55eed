// Scenario "atomic_scope": every thread of the grid adds 1 to one global counter with an atomic,
// and the atomic's scope decides whether that is right.
//
// An atomic is indivisible only for the threads inside its scope. atomicAdd_block() has block
// scope (PTX atom.cta): between threads of one block it is a proper atomic, but two blocks' updates
// of one address are not atomic with respect to each other, and one of them can be lost.
// atomicAdd() has device scope (atom.gpu), atomicAdd_system() system scope (atom.sys): every block
// is inside them. Block scope is right where one block alone uses the memory.
//
// Launch: any 1-D grid; g_counter starts at 0 and should end at gridDim.x * blockDim.x;
// g_block_counts holds one counter per block, starting at 0 (used by block_scope_per_block only).
#include <cuda/atomic>

// block_scope_across_blocks: atomicAdd_block() on a counter every block shares. Wrong: the
// atomics of different blocks are not atomic with each other. The scope race finding must fire on
// this line (WAW, "block scope (.cta)", the blocks it names). The simulator's sc memory still applies
// every atomic indivisibly (the count is right there); under the relaxed memory model two blocks'
// atomics may read the same old value, and the student sees a count below the thread count.
extern "C" __global__ void atomic_scope_block_scope_across_blocks(unsigned int* g_counter,
                                                                  unsigned int* g_block_counts)
{
    atomicAdd_block(g_counter, 1u);
}

// device_scope: atomicAdd() is device scope, which holds every block of the launch. Right: the
// count is exact under every schedule and memory model, and no race fires (the contention finding
// may: every thread queues on one address).
extern "C" __global__ void atomic_scope_device_scope(unsigned int* g_counter,
                                                     unsigned int* g_block_counts)
{
    atomicAdd(g_counter, 1u);
}

// system_scope: atomicAdd_system() is system scope (the GPU, the host and peer GPUs). Right between
// blocks, as device_scope is; no race fires. It is the scope for memory the CPU or another GPU
// updates at the same time, and only there worth its cost.
extern "C" __global__ void atomic_scope_system_scope(unsigned int* g_counter,
                                                     unsigned int* g_block_counts)
{
    atomicAdd_system(g_counter, 1u);
}

// builtin_relaxed_device: the compiler's built-in with an explicit memory order and scope. Relaxed
// order is enough for a counter (nobody reads other data through it); device scope is what makes it
// atomic between blocks. Right; no race fires. The pointer is generic (atom.add.relaxed.gpu with no
// state space): it resolves to global memory at run time, which the trace records.
extern "C" __global__ void atomic_scope_builtin_relaxed_device(unsigned int* g_counter,
                                                               unsigned int* g_block_counts)
{
    __nv_atomic_fetch_add(g_counter, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
}

// block_scope_per_block: block scope used where it fits. Each block counts its threads on its own
// counter with atomicAdd_block(), which only its threads touch; after __syncthreads() one thread
// adds the block's count to the total with a device-scope atomicAdd(). Right: no race fires, and
// the count is exact under every schedule and memory model.
extern "C" __global__ void atomic_scope_block_scope_per_block(unsigned int* g_counter,
                                                              unsigned int* g_block_counts)
{
    atomicAdd_block(&g_block_counts[blockIdx.x], 1u);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(g_counter, g_block_counts[blockIdx.x]);
}
