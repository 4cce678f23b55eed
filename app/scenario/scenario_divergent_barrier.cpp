// Scenario "divergent_barrier" (kernels/divergent_barrier.cu): __syncthreads() inside a branch, legal
// when the condition is the same for the whole block, undefined behaviour when it splits the block.
#include "scenario_util.h"

namespace synclab::scenario::detail {
namespace {

constexpr uint32_t kBlocks = 4;
constexpr uint32_t kThreads = 256; // the kernels' tiles hold one element per thread
constexpr uint32_t kN = kBlocks * kThreads;

// g_in: distinct-looking positive integers; g_out starts at 0, which no correct output can be.
Inputs make_inputs(uint64_t seed) {
    Rng rng(mix_seed(seed, 0xd17e46e47ull));
    std::vector<int32_t> in(kN);
    for (int32_t& value : in)
        value = rng.range(1, 999'999);
    Inputs inputs;
    inputs.buffers.push_back(make_buffer("g_in", in));
    inputs.buffers.push_back(make_buffer("g_out", std::vector<int32_t>(kN, 0)));
    inputs.args = {launch::KernelArg::pointer(0), launch::KernelArg::pointer(1)};
    return inputs;
}

// The CPU reference: block b rotates its tile by shift = 64 * b (mod 256), s_rot[t] = in[(t + shift)
// % 256], then writes it out reversed, out[t] = s_rot[255 - t].
CheckResult check(const Inputs& before, const std::vector<launch::Buffer>& after) {
    const std::vector<int32_t> in =
        before.buffers.empty() ? std::vector<int32_t>{} : read_buffer<int32_t>(before.buffers[0]);
    std::vector<int32_t> expected(in.size());
    for (size_t i = 0; i < in.size(); ++i) {
        const size_t block = i / kThreads, t = i % kThreads, base = block * kThreads;
        const size_t shift = (64 * block) % kThreads;
        const size_t source = base + (kThreads - 1 - t + shift) % kThreads;
        expected[i] = source < in.size() ? in[source] : 0;
    }
    return compare_outputs(expected, result_buffer(after, 1), "g_out");
}

Expectation expect_divergent() {
    Expectation e;
    e.must_find = {"barrier_divergence"};
    e.must_not_find = {"lost_update", "deadlock"};
    return e;
}

} // namespace

Scenario make_divergent_barrier() {
    Scenario s;
    s.id = "divergent_barrier";
    s.topic = "barriers";
    s.source_file = "divergent_barrier.cu";
    s.launch = {{kBlocks, 1, 1}, {kThreads, 1, 1}, 0};
    s.make_inputs = make_inputs;
    s.check = check;

    s.en = {
        .title = "__syncthreads() inside a branch: when is it legal?",
        .shows =
            "All six kernels do the same job in two steps through shared memory: each block rotates its 256 "
            "elements by 64 x blockIdx.x places into s_rot, then writes s_rot out reversed. Both steps read "
            "elements that other threads wrote, so each needs a barrier before it. The variants differ only "
            "in how the threads get to the first barrier: unconditionally; under a condition that is the "
            "same for the whole block; under a condition that splits the block in two halves or in odd and "
            "even lanes; after half of the block has returned; or in a loop where each thread syncs in its "
            "own turn.",
        .predict =
            "For each variant, decide before running it: legal or undefined behaviour? Will the results be "
            "right? Could it hang a real GPU?",
        .look_at =
            "The barrier_divergence finding: it names the __syncthreads() lines that completed one barrier "
            "together. On the timeline, compare when the two groups of a block arrive at and leave each "
            "barrier. Then the wrong-output count: after a mis-paired barrier one group runs a whole barrier "
            "ahead of the other.",
        .fix =
            "Let every thread of the block reach the same __syncthreads(): move the barrier out of the "
            "branch and keep only the work inside it. A condition with one value for the whole block "
            "(blockIdx, a kernel argument) is fine, and so is returning early: a barrier does not wait for "
            "exited threads.",
    };
    s.zh = {
        .title = "分支里的 __syncthreads()：什么时候合法？",
        .shows =
            "六个 kernel 做同一件事，分两步经过共享内存：每个线程块先把自己的 256 个元素循环移动 64 × "
            "blockIdx.x 个位置，存进 s_rot，再把 s_rot 倒序写出。两步读的都是别的线程写入的元素，所以每一步"
            "之前都要有一个屏障。各版本只在“线程怎样走到第一个屏障”上有区别：无条件到达；在对整个块取值相同"
            "的条件下到达；在把块分成前后两半或奇偶线程的条件下到达；一半线程先 return 之后到达；或者在循环"
            "里每个线程轮到自己时才同步。",
        .predict =
            "运行之前，先对每个版本做出判断：合法还是未定义行为？结果会正确吗？在真实 GPU 上会不会卡死？",
        .look_at =
            "看 barrier_divergence 发现：它会列出共同完成同一次屏障的那几行 __syncthreads()。在时间线上比较"
            "一个块中两组线程到达和离开每个屏障的时刻。再看错误输出个数：屏障配错对以后，一组线程会比另一组"
            "整整领先一个屏障。",
        .fix =
            "让块内每个线程都到达同一个 __syncthreads()：把屏障移出分支，分支里只留下工作本身。对整个块取值"
            "相同的条件（blockIdx、kernel 参数）没有问题；提前 return 也可以，因为屏障不会等待已经退出的线程"
            "。",
    };

    Variant correct;
    correct.id = "correct";
    correct.kernel = "divergent_barrier_correct";
    correct.expect = expect_clean();
    correct.en = {
        .title = "correct: both barriers outside any branch",
        .shows =
            "Every thread reaches both barriers. The first makes s_tile complete before the rotation reads "
            "it, the second makes s_rot complete before the reversed write-out reads it.",
        .predict = "Which elements does a thread read that it did not write itself?",
        .look_at =
            "0 wrong outputs and no findings; on the timeline, two barrier phases per block, each completed "
            "at one __syncthreads() line.",
        .fix = "Nothing to fix: this is the reference version.",
    };
    correct.zh = {
        .title = "correct：两个屏障都不在分支里",
        .shows =
            "每个线程都会到达两个屏障。第一个保证循环移位读取 s_tile 之前它已写完整，第二个保证倒序写出读取 "
            "s_rot 之前它已写完整。",
        .predict = "一个线程会读到哪些不是它自己写入的元素？",
        .look_at =
            "错误输出为 0，没有任何发现；时间线上每个块有两次屏障，每次都在同一行 __syncthreads() 完成。",
        .fix = "无需修改：这是参考版本。",
    };

    Variant uniform;
    uniform.id = "uniform_condition";
    uniform.kernel = "divergent_barrier_uniform_condition";
    uniform.expect = expect_clean();
    uniform.en = {
        .title = "uniform_condition: if (blockIdx.x > 0) __syncthreads(); (legal)",
        .shows =
            "The condition has one value for the whole block, so in each block either every thread reaches "
            "the barrier or none does. Block 0 skips it, and may: its shift is 0, so each of its threads "
            "reads back only the element it wrote itself.",
        .predict =
            "A __syncthreads() inside an if: will the checker complain? Is block 0 safe without the first "
            "barrier?",
        .look_at =
            "No findings and 0 wrong outputs. On the timeline, block 0 has one barrier phase and the other "
            "blocks have two.",
        .fix = "Nothing to fix. What matters is not whether the barrier is written inside an if, but whether "
               "the condition is the same for every thread of the block.",
    };
    uniform.zh = {
        .title = "uniform_condition：条件对整个块相同，if (blockIdx.x > 0) __syncthreads();（合法）",
        .shows =
            "这个条件对整个块只有一个取值，所以在每个块里，要么所有线程都到达屏障，要么都不到达。0 号块跳过"
            "了它，而且可以跳过：它的移位量是 0，每个线程读回的只是自己写入的那个元素。",
        .predict = "if 里面有一个 __syncthreads()：检查器会报错吗？0 号块少了第一个屏障还安全吗？",
        .look_at = "没有任何发现，错误输出为 0。时间线上 0 号块只有一次屏障，其他块有两次。",
        .fix = "无需修改。关键不在于屏障是否写在 if 里，而在于条件对块内每个线程是否相同。",
    };

    Variant half;
    half.id = "half_block";
    half.kernel = "divergent_barrier_half_block";
    half.expect = expect_divergent();
    half.expect.wrong_outputs_possible = true;
    half.en = {
        .title = "half_block: if (tid < 128) __syncthreads(); then a common one",
        .shows =
            "Only threads 0-127 reach the barrier in the branch. Threads 128-255 are waiting at the next "
            "one, and a barrier counts arrivals, not lines, so it completes with the two halves at different "
            "__syncthreads(). From then on the upper half is one barrier ahead: it reads s_rot while the "
            "lower half may still be writing it. An H200 pairs the two barriers the same way: it does not "
            "hang, and with this launch 512 of the 1024 outputs came out wrong in each of 20 runs.",
        .predict = "Does the block hang? If not, which half of each tile can come out wrong?",
        .look_at =
            "A barrier_divergence finding naming the two __syncthreads() lines; under random schedules, "
            "wrong outputs in the upper half of the tiles, and a race on s_rot. On a GPU, "
            "compute-sanitizer's synccheck reports this kernel as \"Divergent thread(s) in block\".",
        .fix =
            "Delete the barrier in the branch: the one __syncthreads() that every thread reaches is enough.",
    };
    half.zh = {
        .title = "half_block：只有前半块执行 if (tid < 128) __syncthreads();，之后再来一个公共屏障",
        .shows = "只有线程 0–127 到达分支里的屏障。线程 128–255 "
                 "正在下一个屏障处等待，而屏障只数到达的线程数、不看是哪一行，于是两半线程在不同的 "
                 "__syncthreads() 上共同完成了这次屏障。从此上半块领先一个屏障：它读取 s_rot 时，下半块可能"
                 "还在写。H200 也会这样把两个屏障配成一对：不会卡死，而且按这个配置运行 20 次，每次 1024 个"
                 "输出中都有 512 个是错的。",
        .predict = "这个块会卡死吗？如果不会，每个 tile 的哪一半可能出错？",
        .look_at = "barrier_divergence 发现，列出那两行 __syncthreads()；随机调度下，各 tile "
                   "的上半部分出现错误输出，s_rot 上还有 race。在 GPU 上，compute-sanitizer 的 synccheck 会"
                   "把这个 kernel 报告为 “Divergent thread(s) in block”。",
        .fix = "删掉分支里的屏障：所有线程都会到达的那一个 __syncthreads() 就够了。",
    };

    Variant odd;
    odd.id = "odd_lanes";
    odd.kernel = "divergent_barrier_odd_lanes";
    odd.expect = expect_divergent();
    odd.expect.wrong_outputs_possible = true;
    odd.en = {
        .title = "odd_lanes: if (tid & 1) __syncthreads(); then a common one",
        .shows =
            "The same mistake inside every warp: even and odd lanes of one warp wait at different barrier "
            "instructions. The odd threads end up one barrier behind, so even threads can read s_rot slots "
            "that odd threads have not written yet.",
        .predict = "The split now runs through every warp. Better or worse than half_block?",
        .look_at =
            "barrier_divergence, with lanes of the same warp at different lines, and wrong outputs under "
            "random schedules. On an H200 it neither hangs nor gives wrong results (200 runs), because ptxas "
            "made the branch a barrier predicated for the whole warp; compute-sanitizer's synccheck still "
            "reports \"Divergent thread(s) in warp\". Right results do not make it correct: run it on the "
            "GPU traced, and the recording code inside the branch stops ptxas predicating the barrier, so "
            "the traced launch hangs, odd lanes at line 92 and even lanes at line 93. The same source, "
            "compiled a little differently, hangs: that is what undefined behaviour means.",
        .fix = "Delete the barrier in the branch.",
    };
    odd.zh = {
        .title = "odd_lanes：只有奇数线程执行 if (tid & 1) __syncthreads();，之后再来一个公共屏障",
        .shows =
            "同样的错误发生在每个 warp 内部：同一个 warp 的奇数线程和偶数线程在不同的屏障指令处等待。奇数线"
            "程最后落后一个屏障，于是偶数线程可能读到奇数线程还没写入的 s_rot 位置。",
        .predict = "现在分裂发生在每个 warp 内部。比 half_block 更好还是更糟？",
        .look_at =
            "barrier_divergence 发现，同一个 warp 的线程停在不同的行；随机调度下出现错误输出。在 H200 上它既"
            "不卡死，结果也没错（运行 200 次），因为 ptxas 把分支变成了整个 warp 都执行的带谓词屏障；但 "
            "compute-sanitizer 的 synccheck 仍然报告“Divergent thread(s) in warp”。结果对，不等于代码对：在 "
            "GPU 上做带追踪的运行，分支里的记录代码让 ptxas 无法再给屏障加谓词，于是带追踪的那次启动卡死，"
            "奇数线程停在第 92 行，偶数线程停在第 93 行。同一份源码，编译方式稍有不同就会卡死：这就是未定义"
            "行为的含义。",
        .fix = "删掉分支里的屏障。",
    };

    Variant exited;
    exited.id = "exit_before_barrier";
    exited.kernel = "divergent_barrier_exit_before_barrier";
    exited.expect = expect_clean();
    exited.en = {
        .title = "exit_before_barrier: if (tid >= 128) return; before the barriers (legal)",
        .shows =
            "The upper half returns at once and the lower half handles two elements per thread. A barrier "
            "waits only for threads that have not exited, so the 128 remaining threads complete every "
            "barrier among themselves.",
        .predict = "Will the barriers wait forever for the 128 threads that returned?",
        .look_at =
            "No findings and 0 wrong outputs. On the timeline, threads 128-255 exit before the first barrier "
            "and every barrier completes with the lower half alone.",
        .fix = "Nothing to fix. Returning early is fine; a thread that is still running but skips a barrier "
               "is not.",
    };
    exited.zh = {
        .title = "exit_before_barrier：屏障之前先 if (tid >= 128) return;（合法）",
        .shows = "上半块线程一开始就返回，下半块每个线程处理两个元素。屏障只等待尚未退出的线程，所以剩下的 "
                 "128 个线程自己就能完成每一次屏障。",
        .predict = "屏障会不会一直等那 128 个已经 return 的线程？",
        .look_at = "没有任何发现，错误输出为 0。时间线上线程 128–255 "
                   "在第一个屏障之前就退出了，每次屏障都只由下半块完成。",
        .fix = "无需修改。提前返回没有问题；还在运行却跳过屏障的线程才有问题。",
    };

    Variant loop;
    loop.id = "loop_per_thread";
    loop.kernel = "divergent_barrier_loop_per_thread";
    loop.expect = expect_divergent();
    loop.en = {
        .title = "loop_per_thread: for (i...) if (i == threadIdx.x) __syncthreads();",
        .shows =
            "Every thread reaches a __syncthreads() exactly once, so the arrivals add up, but each thread at "
            "its own loop iteration and, since nvcc unrolled the loop by four, at one of four different "
            "bar.sync instructions. The simulator counts arrivals, completes the barrier, and the results "
            "come out right. A real H200 hangs on this kernel: all lanes of a warp must arrive at the same "
            "barrier instruction, and here they never do.",
        .predict = "Every thread calls __syncthreads() once. Is that enough?",
        .look_at =
            "barrier_divergence naming the __syncthreads() line inside the loop; in the PTX, the four "
            "bar.sync of the unrolled loop. The outputs are right in the simulator: here the finding, not "
            "the output, tells you the kernel is broken.",
        .fix = "Call __syncthreads() once, after the loop or instead of it, where every thread reaches the "
               "same one.",
    };
    loop.zh = {
        .title =
            "loop_per_thread：每个线程轮到自己时才同步，for (i...) if (i == threadIdx.x) __syncthreads();",
        .shows = "每个线程恰好执行一次 __syncthreads()，到达的数目凑得齐，但各自在自己那一轮循环里；而且 "
                 "nvcc 把循环展开了四次，线程会停在四条不同的 bar.sync 指令中的一条上。模拟器只数到达数，屏"
                 "障照样完成，结果也是对的。真实的 H200 上这个 kernel 会卡死：一个 warp 的所有线程必须到达同"
                 "一条屏障指令，而这里永远做不到。",
        .predict = "每个线程都调用了一次 __syncthreads()。这样够吗？",
        .look_at = "barrier_divergence 发现，指向循环里那一行 __syncthreads()；在 PTX 中可以看到展开后的四条 "
                   "bar.sync。模拟器里输出是对的：这里告诉你 kernel 有问题的是发现，而不是输出。",
        .fix = "只调用一次 __syncthreads()，放在循环之后或者干脆取代这个循环，让每个线程到达的是同一个屏障。",
    };

    s.variants = {correct, uniform, half, odd, exited, loop};
    return s;
}

} // namespace synclab::scenario::detail
