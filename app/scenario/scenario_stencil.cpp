// Scenario "stencil" (kernels/stencil.cu): a missing __syncthreads() between writing a shared tile
// and reading the neighbours from it.
#include "scenario_util.h"

namespace synclab::scenario::detail {
namespace {

constexpr uint32_t kBlocks = 64;
constexpr uint32_t kThreads = 256; // the kernel's s_tile holds one element per thread
constexpr uint32_t kN = kBlocks * kThreads;

// g_in: small integers as floats, so every sum is exact; g_out starts at 0, which no correct output
// can be (every centre value is at least 1).
Inputs make_inputs(uint64_t seed) {
    Rng rng(mix_seed(seed, 0x57e4c11ull));
    std::vector<float> in(kN);
    for (float& value : in)
        value = static_cast<float>(rng.range(1, 9));
    Inputs inputs;
    inputs.buffers.push_back(make_buffer("g_in", in));
    inputs.buffers.push_back(make_buffer("g_out", std::vector<float>(kN, 0.0f)));
    inputs.args = {launch::KernelArg::pointer(0), launch::KernelArg::pointer(1), launch::KernelArg::scalar(kN)};
    return inputs;
}

// The CPU reference: out[i] = left + centre + right inside each block of kThreads elements; a
// neighbour outside the block reads 0 (summed in the kernel's order: (left + centre) + right).
CheckResult check(const Inputs& before, const std::vector<launch::Buffer>& after) {
    const std::vector<float> in =
        before.buffers.empty() ? std::vector<float>{} : read_buffer<float>(before.buffers[0]);
    std::vector<float> expected(in.size());
    for (size_t i = 0; i < in.size(); ++i) {
        const size_t t = i % kThreads;
        const float left = t > 0 ? in[i - 1] : 0.0f;
        const float right = (t + 1 < kThreads && i + 1 < in.size()) ? in[i + 1] : 0.0f;
        expected[i] = (left + in[i]) + right;
    }
    return compare_outputs(expected, result_buffer(after, 1), "g_out");
}

} // namespace

Scenario make_stencil() {
    Scenario s;
    s.id = "stencil";
    s.topic = "barriers";
    s.source_file = "stencil.cu";
    s.launch = {{kBlocks, 1, 1}, {kThreads, 1, 1}, 0};
    s.make_inputs = make_inputs;
    s.check = check;

    s.en = {
        .title = "Missing __syncthreads(): a 1D stencil reads its neighbours too early",
        .shows =
            "Each block copies 256 inputs into the shared array s_tile, one per thread. Then every thread "
            "adds its left neighbour, itself and its right neighbour (a neighbour outside the block counts "
            "as 0). The neighbours were stored by other threads, some of them in another warp, so the whole "
            "tile must be written before anyone reads it: that is the job of the one __syncthreads() between "
            "the store and the loads. The broken variant is the same kernel without that line.",
        .predict =
            "Without the barrier, which outputs will be wrong: all of them, none, or some? If some, at which "
            "thread indices? Will two runs with different seeds give the same count?",
        .look_at =
            "The wrong-output count, and where the wrong outputs sit: next to warp boundaries (threads "
            "31/32, 63/64, ...). The race finding names the line that stores into s_tile and the lines that "
            "load the neighbours. On the timeline, find a load of s_tile[tid + 1] that comes before the "
            "store of the thread that owns that slot.",
        .fix =
            "Put __syncthreads() between the store into s_tile and the neighbour loads. Every thread of the "
            "block must reach it, so it stays outside any branch.",
    };
    s.zh = {
        .title = "漏掉 __syncthreads()：一维模板计算过早读取邻居",
        .shows =
            "每个线程块把 256 个输入拷进共享数组 s_tile，每个线程负责一个。接着每个线程把左邻居、自己和右邻"
            "居相加（块外的邻居按 0 计）。邻居的值是别的线程写入的，其中一些线程属于另一个 warp，所以必须等"
            "整个 tile 写完才能读。写入和读取之间那一行 __syncthreads() 就是干这个的。出错的版本是删掉这一行"
            "后的同一个 kernel。",
        .predict =
            "去掉屏障后，哪些输出会出错：全部、一个都不会，还是一部分？如果是一部分，会出现在哪些线程编号上"
            "？换一个种子再跑，出错的个数会一样吗？",
        .look_at =
            "看错误输出的个数和位置：它们集中在 warp 边界附近（线程 31/32、63/64……）。race 发现会指出写入 "
            "s_tile 的那一行和读取邻居的那几行。在时间线上找一次对 s_tile[tid + 1] 的读取，它早于负责该位置"
            "的线程的写入。",
        .fix = "在写入 s_tile 和读取邻居之间加上 "
               "__syncthreads()。块内每个线程都必须执行到它，所以它不能放在任何分支里。",
    };

    Variant correct;
    correct.id = "correct";
    correct.kernel = "stencil_correct";
    correct.expect = expect_clean();
    correct.en = {
        .title = "correct: store, barrier, then load",
        .shows =
            "The barrier orders every store into s_tile before every neighbour load. Every sum is exact, "
            "under every schedule and every seed.",
        .predict = "Is there any schedule that could make an output wrong here?",
        .look_at =
            "0 wrong outputs and no findings. On the timeline, the threads of a block wait at the barrier "
            "until its last warp has stored.",
        .fix = "Nothing to fix: this is the reference version.",
    };
    correct.zh = {
        .title = "correct：先写入，再屏障，后读取",
        .shows = "屏障保证所有写入 s_tile "
                 "的操作都排在任何邻居读取之前。无论哪种调度、哪个种子，每个和都精确无误。",
        .predict = "这里有没有哪种调度能让某个输出出错？",
        .look_at = "错误输出为 0，没有任何发现。时间线上，一个块的线程都在屏障处等待，直到该块最后一个 warp "
                   "完成写入。",
        .fix = "无需修改：这是参考版本。",
    };

    Variant missing;
    missing.id = "missing_barrier";
    missing.kernel = "stencil_missing_barrier";
    missing.expect.must_find = {"race"};
    missing.expect.must_not_find = {"barrier_divergence", "lost_update", "deadlock"};
    missing.expect.wrong_outputs_possible = true;
    missing.en = {
        .title = "missing_barrier: the __syncthreads() is gone",
        .shows =
            "Nothing orders a thread's load of s_tile[tid - 1] or s_tile[tid + 1] after its neighbour's "
            "store. The lanes of a warp usually move together, so in the simulator the damage shows where "
            "two warps meet: a thread reads a slot the other warp has not written yet and adds whatever it "
            "held. On an H200 it is much worse: without the barrier, ptxas (below the PTX) moves both "
            "neighbour loads above the store, and over 90% of the outputs are wrong.",
        .predict =
            "Under the round-robin schedule, then under random and adversarial ones: how many outputs go "
            "wrong, and does the count change with the seed?",
        .look_at =
            "A race finding on shared memory between the store line and the neighbour load lines, and a "
            "nonzero wrong-output count under the random and adversarial schedules that changes from seed to "
            "seed.",
        .fix = "Add __syncthreads() right after the store into s_tile.",
    };
    missing.zh = {
        .title = "missing_barrier：__syncthreads() 不见了",
        .shows =
            "没有任何东西保证线程读取 s_tile[tid - 1] 或 s_tile[tid + 1] 时邻居已经写完。同一个 warp 的线程"
            "通常一起前进，所以在模拟器里出错的地方是两个 warp 的交界处：线程读到一个另一个 warp 还没写入的"
            "位置，把里面原有的值加了进去。在 H200 上情况糟得多：没有屏障时，ptxas（PTX 之下的编译器）会把两"
            "次邻居读取挪到写入之前，九成以上的输出都是错的。",
        .predict = "先用轮转（round-robin）调度，再用随机和对抗调度：各有多少输出出错？换种子后个数会变吗？",
        .look_at =
            "共享内存上的 race 发现，涉及写入那一行和读取邻居的那几行；在随机和对抗调度下错误输出个数不为 0"
            "，而且随种子变化。",
        .fix = "在写入 s_tile 之后紧接着加上 __syncthreads()。",
    };

    s.variants = {correct, missing};
    return s;
}

} // namespace synclab::scenario::detail
