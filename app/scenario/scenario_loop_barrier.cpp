// Scenario "loop_barrier" (kernels/loop_barrier.cu): __syncthreads() inside a loop whose trip count
// differs between the threads of a block.
#include "scenario_util.h"

#include <algorithm>

namespace synclab::scenario::detail {
namespace {

constexpr uint32_t kBlocks = 4;
constexpr uint32_t kThreads = 256; // the kernels' s_item holds one element per thread
constexpr uint32_t kN = kBlocks * kThreads;
constexpr int32_t kLongestList = 7; // lists hold 0..7 items (7 = 4 + 3: both the unrolled body and
                                    // the remainder loop that nvcc emits get used)

// g_len: each thread's list length; g_items: item i of thread t at [i * n + t], max_len rows (items
// past a thread's length are filled too, so reading them would show); g_out starts at 0.
Inputs make_inputs(uint64_t seed) {
    Rng rng(mix_seed(seed, 0x100bba7ull));
    std::vector<int32_t> len(kN);
    for (int32_t& value : len)
        value = rng.range(0, kLongestList);
    const int32_t max_len = *std::max_element(len.begin(), len.end());
    std::vector<int32_t> items(size_t(max_len) * kN);
    for (int32_t& value : items)
        value = rng.range(1, 99);
    Inputs inputs;
    inputs.buffers.push_back(make_buffer("g_len", len));
    inputs.buffers.push_back(make_buffer("g_items", items));
    inputs.buffers.push_back(make_buffer("g_out", std::vector<int32_t>(kN, 0)));
    inputs.args = {launch::KernelArg::pointer(0), launch::KernelArg::pointer(1), launch::KernelArg::pointer(2),
                   launch::KernelArg::scalar(kN), launch::KernelArg::scalar(static_cast<uint32_t>(max_len))};
    return inputs;
}

// The CPU reference: thread t of a block gets the sum of the list of its partner p = 255 - t.
CheckResult check(const Inputs& before, const std::vector<launch::Buffer>& after) {
    const std::vector<int32_t> len =
        before.buffers.size() > 0 ? read_buffer<int32_t>(before.buffers[0]) : std::vector<int32_t>{};
    const std::vector<int32_t> items =
        before.buffers.size() > 1 ? read_buffer<int32_t>(before.buffers[1]) : std::vector<int32_t>{};
    const size_t n = len.size();
    std::vector<int32_t> expected(n, 0);
    for (size_t i = 0; i < n; ++i) {
        const size_t partner = (i / kThreads) * kThreads + (kThreads - 1 - i % kThreads);
        if (partner >= n) continue;
        for (int32_t k = 0; k < len[partner]; ++k) {
            const size_t index = size_t(k) * n + partner;
            expected[i] += index < items.size() ? items[index] : 0;
        }
    }
    return compare_outputs(expected, result_buffer(after, 2), "g_out");
}

} // namespace

Scenario make_loop_barrier() {
    Scenario s;
    s.id = "loop_barrier";
    s.topic = "barriers";
    s.source_file = "loop_barrier.cu";
    s.launch = {{kBlocks, 1, 1}, {kThreads, 1, 1}, 0};
    s.make_inputs = make_inputs;
    s.check = check;

    s.en = {
        .title = "__syncthreads() in a loop: every thread must run it equally often",
        .shows =
            "Thread t owns a list of g_len[t] items (0 to 7). The block works in rounds: in round i every "
            "thread puts its i-th item into s_item[t] and adds the item of its partner on the other side of "
            "the block (thread 255 - t), so each output is the sum of the partner's list. A round needs two "
            "barriers: one after the items are stored, one after they have been read. In the broken variant "
            "the loop runs g_len[t] times, a different number in every thread.",
        .predict =
            "Threads with short lists leave the loop early and wait at the __syncthreads() after it, while "
            "the others still wait inside the loop. What happens: a hang, wrong sums, or nothing at all?",
        .look_at =
            "The barrier_divergence finding: one barrier completed by threads waiting inside the loop "
            "together with threads waiting after it. The timeline shows threads dropping out of the loop at "
            "different rounds. The wrong-output count: the rounds of different threads no longer line up, "
            "and threads add stale items.",
        .fix =
            "Run the loop the same number of times in every thread (here max_len, the longest list) and put "
            "the per-thread condition inside it: if (i < len) decides whether a thread publishes an item or "
            "a 0, but every thread meets every barrier.",
    };
    s.zh = {
        .title = "循环里的 __syncthreads()：每个线程执行的次数必须相同",
        .shows =
            "线程 t 拥有一个长度为 g_len[t]（0 到 7）的列表。线程块按轮次工作：第 i 轮里每个线程把自己的第 i "
            "个元素放进 s_item[t]，再把块另一侧搭档（线程 255 - t）的元素加到自己的和上，所以每个输出就是搭"
            "档列表的总和。每一轮需要两个屏障：元素写好之后一个，元素读完之后一个。出错的版本里循环执行 "
            "g_len[t] 次，每个线程的次数都不一样。",
        .predict =
            "列表短的线程提前离开循环，停在循环后面的 __syncthreads() 上，而其他线程还在循环里的屏障处等待。"
            "会发生什么：卡死、和算错，还是什么事都没有？",
        .look_at =
            "看 barrier_divergence 发现：同一次屏障由循环内等待的线程和循环后等待的线程一起完成。时间线上可"
            "以看到线程在不同轮次退出循环。再看错误输出个数：不同线程的轮次对不上了，有的线程加上了过期的元"
            "素。",
        .fix = "让每个线程的循环次数相同（这里取最长列表的长度 max_len），把和线程有关的条件放进循环里面："
               "if (i < len) 决定线程这一轮写入元素还是写入 0，但每个线程都会经过每一个屏障。",
    };

    Variant uniform;
    uniform.id = "uniform_trip_count";
    uniform.kernel = "loop_barrier_uniform_trip_count";
    uniform.expect = expect_clean();
    uniform.en = {
        .title = "uniform_trip_count: loop to max_len, guard the work",
        .shows = "Every thread runs max_len rounds. A thread whose list is used up publishes 0 instead of an "
                 "item, and still meets both barriers of every round.",
        .predict = "Threads with short lists now run rounds that do nothing for them. Is that the price of a "
                   "correct barrier, and is it a big one?",
        .look_at =
            "0 wrong outputs and no findings; every barrier completes at a single line, for all threads.",
        .fix = "Nothing to fix: this is the repaired loop.",
    };
    uniform.zh = {
        .title = "uniform_trip_count：循环到 max_len，用条件保护工作",
        .shows = "每个线程都执行 max_len 轮。列表已经用完的线程写入 0 代替元素，但仍然经过每一轮的两个屏障。",
        .predict = "列表短的线程现在要陪着空转几轮。这是正确使用屏障的代价吗？代价大不大？",
        .look_at = "错误输出为 0，没有任何发现；每次屏障都由所有线程在同一行完成。",
        .fix = "无需修改：这就是修好的循环。",
    };

    Variant per_thread;
    per_thread.id = "per_thread_trip_count";
    per_thread.kernel = "loop_barrier_per_thread_trip_count";
    per_thread.expect.must_find = {"barrier_divergence"};
    per_thread.expect.must_not_find = {"lost_update", "deadlock"};
    per_thread.expect.wrong_outputs_possible = true;
    per_thread.en = {
        .title = "per_thread_trip_count: for (i = 0; i < g_len[t]; ++i) with barriers inside",
        .shows =
            "Threads leave the loop at different rounds. A thread that is done waits at the barrier after "
            "the loop, and that barrier completes together with threads still inside the loop, so the rounds "
            "of different threads stop lining up. nvcc unrolled the loop by four, so even two threads that "
            "are both still looping can wait at different bar.sync instructions. The simulator counts "
            "arrivals and carries on, but the sums go wrong: a thread with a long list keeps adding the last "
            "item its partner left in s_item, and a thread with a short list misses its partner's later "
            "items. A real H200 hangs on this kernel: lanes of one warp wait at different barrier "
            "instructions and never meet.",
        .predict = "Which threads' sums can still be right?",
        .look_at = "barrier_divergence naming the barrier lines inside the loop and the one after it, and "
                   "many wrong outputs.",
        .fix = "Loop to a bound that is the same for the whole block and guard the work with if (i < len).",
    };
    per_thread.zh = {
        .title = "per_thread_trip_count：循环次数因线程而异，for (i = 0; i < g_len[t]; ++i) 里有屏障",
        .shows =
            "线程在不同的轮次离开循环。做完的线程停在循环后面的屏障上，这个屏障和仍在循环里的线程一起完成，"
            "于是不同线程的轮次就错开了。nvcc 把循环展开了四次，所以即使两个线程都还在循环里，也可能停在不同"
            "的 bar.sync 指令上。模拟器只数到达数，照常往下跑，但和是错的：列表长的线程会反复加上搭档留在 "
            "s_item 里的最后一个元素，列表短的线程则漏掉了搭档后面的元素。真实的 H200 上这个 kernel 会卡死："
            "同一个 warp 的线程停在不同的屏障指令上，永远等不到彼此。",
        .predict = "哪些线程的和仍然可能是对的？",
        .look_at = "barrier_divergence 发现，列出循环内的屏障行和循环后的那一行；大量错误输出。",
        .fix = "让循环上界对整个块相同，再用 if (i < len) 保护循环里的工作。",
    };

    s.variants = {uniform, per_thread};
    return s;
}

} // namespace synclab::scenario::detail
