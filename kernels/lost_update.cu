// Scenario "lost_update": every thread of the grid adds 1 to one counter in global memory.
//
// After the launch the counter should equal the number of threads. `*g_counter += 1` is three
// steps (load, add, store); when two threads interleave them, both load the same old value and
// one increment is lost. An atomic read-modify-write cannot be interleaved.
//
// Launch: any shape; the counter starts at 0 and should end at gridDim.x * blockDim.x.

// plain_increment: a plain load, add and store. Threads that load the counter before another
// thread's store all write back the same value: the final count falls short of the thread count
// (in the simulator the 32 lanes of a warp even load together, so a warp adds 1, not 32). The
// lost_update finding must fire and the one checked output is wrong.
extern "C" __global__ void lost_update_plain_increment(unsigned int* g_counter)
{
    *g_counter += 1;
}

// atomic_add: atomicAdd makes each read-modify-write indivisible. The count is exact under every
// schedule and no finding fires. It is correct, not fast: every thread of the grid queues on one
// address (the "atomics" lessons show how to spread or aggregate the updates).
extern "C" __global__ void lost_update_atomic_add(unsigned int* g_counter)
{
    atomicAdd(g_counter, 1u);
}
