// Scenario "lost_update" (kernels/lost_update.cu): every thread adds 1 to one global counter, with a
// plain read-modify-write or with atomicAdd.
#include "scenario_util.h"

namespace synclab::scenario::detail {
namespace {

constexpr uint32_t kBlocks = 16;
constexpr uint32_t kThreads = 256;
constexpr uint32_t kExpected = kBlocks * kThreads; // one increment per thread

// One counter, starting at 0. The inputs do not depend on the seed: the schedule is what varies.
Inputs make_inputs(uint64_t /*seed*/) {
    Inputs inputs;
    inputs.buffers.push_back(make_buffer("g_counter", std::vector<uint32_t>{0}));
    inputs.args = {launch::KernelArg::pointer(0)};
    return inputs;
}

// The CPU reference: the counter's start value plus one per thread of the launch.
CheckResult check(const Inputs& before, const std::vector<launch::Buffer>& after) {
    const std::vector<uint32_t> start =
        before.buffers.empty() ? std::vector<uint32_t>{} : read_buffer<uint32_t>(before.buffers[0]);
    const uint32_t expected = (start.empty() ? 0u : start[0]) + kExpected;
    CheckResult result;
    result.checked = 1;
    const launch::Buffer* buffer = result_buffer(after, 0);
    const std::vector<uint32_t> got = buffer ? read_buffer<uint32_t>(*buffer) : std::vector<uint32_t>{};
    if (got.empty()) {
        result.wrong = 1;
        result.summary = "counter missing, expected " + std::to_string(expected);
        return result;
    }
    result.wrong = got[0] == expected ? 0 : 1;
    result.summary = "counter = " + std::to_string(got[0]) + ", expected " + std::to_string(expected);
    return result;
}

} // namespace

Scenario make_lost_update() {
    Scenario s;
    s.id = "lost_update";
    s.topic = "atomics";
    s.source_file = "lost_update.cu";
    s.launch = {{kBlocks, 1, 1}, {kThreads, 1, 1}, 0};
    s.make_inputs = make_inputs;
    s.check = check;

    s.en = {
        .title = "Lost updates: every thread does counter += 1",
        .shows =
            "All 4096 threads of the grid (16 blocks of 256) add 1 to one counter in global memory, so it "
            "should end at 4096. *g_counter += 1 is three instructions: load, add, store. When two threads "
            "interleave them, both load the same old value, both store old + 1, and one increment is lost. "
            "atomicAdd performs the whole read-modify-write as one indivisible operation.",
        .predict =
            "What will the counter read after the plain version: 4096, a little less, or far less? The same "
            "number on every run?",
        .look_at =
            "The result line \"counter = X, expected 4096\". The lost_update finding: the load and store "
            "lines of the counter and how many threads overlapped. In the PTX: ld.global, add, st.global for "
            "the plain version, a single atom.global.add for the atomic one. On the timeline, the loads of "
            "many threads pile up before the first store.",
        .fix = "Use atomicAdd(g_counter, 1). It is correct, but all threads queue on one address; for a hot "
               "counter, add up inside a warp or a block first and issue one atomic per warp or block.",
    };
    s.zh = {
        .title = "丢失更新：每个线程都执行 counter += 1",
        .shows = "网格中全部 4096 个线程（16 个块，每块 256 个）都给全局内存里的同一个计数器加 "
                 "1，最后应该等于 4096。*g_counter += 1 其实是三条指令：读取、加法、写回。两个线程的这三步交"
                 "错时，它们读到同一个旧值，都写回旧值加 1，其中一次加法就丢了。atomicAdd 把整个“读-改-写”作"
                 "为一个不可分割的操作完成。",
        .predict = "普通版本跑完后计数器是多少：4096、略少一点，还是少得多？每次运行都一样吗？",
        .look_at =
            "看结果行“counter = X, expected 4096”。看 lost_update 发现：计数器的读取行和写回行，以及有多少线"
            "程相互重叠。PTX 中普通版本是 ld.global、add、st.global，原子版本只有一条 atom.global.add。时间"
            "线上可以看到许多线程的读取挤在第一次写回之前。",
        .fix = "改用 atomicAdd(g_counter, "
               "1)。这样是正确的，但所有线程都在同一个地址上排队；计数器竞争激烈时，先在 warp 或线程块内部求"
               "和，每个 warp 或每个块只发一次原子操作。",
    };

    Variant plain;
    plain.id = "plain_increment";
    plain.kernel = "lost_update_plain_increment";
    plain.expect.must_find = {"lost_update"};
    plain.expect.must_not_find = {"barrier_divergence", "deadlock"};
    plain.expect.wrong_outputs_possible = true;
    plain.en = {
        .title = "plain_increment: *g_counter += 1",
        .shows =
            "A load, an add and a store, with nothing to keep other threads out in between. The 32 lanes of "
            "a warp execute the load together, so they all read the same value and together add 1, not 32; "
            "and warps interleave with each other as well. On an H200 the counter ended at 1: every thread "
            "had loaded 0 before the first store landed.",
        .predict =
            "If the lanes of each warp load the counter together, what is the most the counter can reach?",
        .look_at =
            "counter far below 4096 (at most one increment per warp survives when the lanes move together: "
            "128), a lost_update finding, and a count that changes with the schedule and seed.",
        .fix = "Replace it with atomicAdd(g_counter, 1).",
    };
    plain.zh = {
        .title = "plain_increment：普通的 *g_counter += 1",
        .shows =
            "读取、加法、写回三步之间，没有任何东西能挡住其他线程。一个 warp 的 32 个线程同时执行读取，读到"
            "的是同一个值，于是它们合起来只加了 1 而不是 32；不同 warp 之间也会相互交错。在 H200 上计数器最"
            "后是 1：第一次写回生效之前，所有线程都已经读到了 0。",
        .predict = "如果每个 warp 的线程都是同时读取计数器，计数器最多能达到多少？",
        .look_at =
            "计数器远低于 4096（线程同步前进时，每个 warp 最多只留下一次加法：128），出现 lost_update 发现，"
            "而且计数随调度和种子变化。",
        .fix = "改成 atomicAdd(g_counter, 1)。",
    };

    Variant atomic;
    atomic.id = "atomic_add";
    atomic.kernel = "lost_update_atomic_add";
    atomic.expect = expect_clean();
    atomic.en = {
        .title = "atomic_add: atomicAdd(g_counter, 1)",
        .shows = "Each read-modify-write is indivisible: the updates to the one address are serialised. The "
                 "count is exact under every schedule.",
        .predict =
            "Correct, but at what cost? How would 4096 threads on one address compare with the same threads "
            "spread over many addresses?",
        .look_at = "counter = 4096 and no findings. In the PTX, atom.global.add.u32; its result is unused, "
                   "so on a GPU ptxas turns it into a fire-and-forget RED.",
        .fix = "Nothing to fix for correctness. For speed, aggregate first: one atomic per warp, or a "
               "shared-memory counter per block. On an H200, 16.8 M atomicAdds to one address took 12.3 ms; "
               "warp-aggregated, 0.39 ms.",
    };
    atomic.zh = {
        .title = "atomic_add：原子操作 atomicAdd(g_counter, 1)",
        .shows = "每一次读-改-写都不可分割：对这一个地址的更新被依次串行执行。无论哪种调度，计数都精确无误。",
        .predict = "结果正确，但代价是什么？4096 个线程挤在一个地址上，和把它们分散到许多地址上相比如何？",
        .look_at =
            "counter = 4096，没有任何发现。PTX 中是 atom.global.add.u32；它的返回值没有被使用，所以在 GPU 上 "
            "ptxas 会把它变成不等待结果的 RED 指令。",
        .fix = "就正确性而言无需修改。若要更快，先做聚合：每个 warp "
               "只发一次原子操作，或者每个块先在共享内存里计数。在 H200 上，对同一地址做 1680 万次 atomicAdd "
               "用时 12.3 ms；按 warp 聚合后只需 0.39 ms。",
    };

    s.variants = {plain, atomic};
    return s;
}

} // namespace synclab::scenario::detail
