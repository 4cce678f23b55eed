#include "analysis/finding_kinds.h"

#include <array>
#include <cstdlib>

namespace synclab::analysis {
namespace {

// In enum order (checked below): info() indexes it by the enum's value.
constexpr std::array<FindingKindInfo, 7> kKinds{{
    {FindingKind::Race, "race", 3, false, FindingLook::Race, "race", "a race", "数据竞争",
     "{hazard} hazard on __{space}__ memory",
     "race: two threads access the same address, at least one writes, and nothing (no barrier, no "
     "atomic) orders the two accesses.",
     "数据竞争：两个线程访问同一个地址，至少有一个在写，而且没有任何东西（屏障或原子操作）规定"
     "两次访问的先后。"},
    {FindingKind::BarrierDivergence, "barrier_divergence", 2, false, FindingLook::Divergence,
     "barrier divergence", "barrier divergence", "屏障不一致", "Barrier divergence",
     "barrier divergence: the threads of a block (or lanes of a warp) reached different barrier "
     "instructions, or some never reached it, so the barrier did not separate what the code says it "
     "separates.",
     "屏障不一致：一个块的线程（或一个线程束的通道）到达了不同的屏障指令，或者有的线程根本没有到达，"
     "所以屏障没有把代码想分开的部分分开。"},
    {FindingKind::LostUpdate, "lost_update", 5, false, FindingLook::LostUpdate, "lost update",
     "a lost update", "丢失更新", "Lost update (non-atomic read-modify-write)",
     "lost update: several threads did a non-atomic read-modify-write of one global address; "
     "increments that overlap overwrite each other.",
     "丢失更新：多个线程对同一个全局地址做了非原子的读-改-写；重叠的累加会互相覆盖。"},
    {FindingKind::Deadlock, "deadlock", 0, false, FindingLook::Deadlock, "deadlock", "a deadlock", "死锁",
     "Deadlock", "deadlock: the run ended with threads waiting at a barrier that can never complete.",
     "死锁：运行结束时还有线程在一个永远无法完成的屏障处等待。"},
    {FindingKind::StaleRead, "stale_read", 4, false, FindingLook::Race, "stale read", "a stale read",
     "过期读取", "Stale read on __{space}__ memory (missing fence)",
     "stale read: a thread saw another thread's flag, but no fence (or only one whose scope leaves the "
     "other thread out) orders the data written before the flag before the reads after it, so it may "
     "read the old data.",
     "过期读取：一个线程看到了另一个线程写的标志，但没有栅栏（或栅栏的作用域不包括对方）把"
     "标志之前的数据写入排在它之后的读取之前，所以它可能读到旧的数据。"},
    {FindingKind::Contention, "contention", 6, true, FindingLook::LostUpdate, "atomic contention",
     "atomic contention", "原子争用", "Atomic contention on __{space}__ memory (performance)",
     "atomic contention: many atomics hit the same address and can only complete one after another; "
     "they wait in a queue and that one address slows the whole kernel. The result is right, but slow.",
     "原子争用：许多原子操作落在同一个地址上，只能一个接一个地完成；它们排队等待，整个"
     "内核被这一个地址拖慢。结果是对的，但很慢。"},
    // Right after deadlock: like a hang, a fault ends the kernel (the simulator's run, often the
    // GPU's), and what follows it cannot be trusted. Drawn as a deadlock is: the run stops there.
    {FindingKind::OutOfBounds, "out_of_bounds", 1, false, FindingLook::Deadlock, "out-of-bounds access",
     "an out-of-bounds access", "越界访问", "Out-of-bounds access to __{space}__ memory",
     "out-of-bounds access: a thread read or wrote global memory outside every buffer and variable of "
     "the launch (past the end of an array, before its start, or through a wild pointer); it may "
     "corrupt another allocation, read garbage, or stop the kernel with an illegal-address error.",
     "越界访问：一个线程读写了本次启动的所有缓冲区和变量之外的全局内存（越过数组末尾、在数组开头"
     "之前，或者通过野指针）；它可能破坏别的内存分配、读到无意义的数据，或者让内核因非法地址错误而停止。"},
}};

constexpr bool rows_in_enum_order() {
    for (size_t i = 0; i < kKinds.size(); ++i)
        if (static_cast<size_t>(kKinds[i].kind) != i) return false;
    return true;
}
static_assert(rows_in_enum_order(), "kKinds must list the kinds in enum order");
static_assert(kKinds.size() == static_cast<size_t>(FindingKind::OutOfBounds) + 1, "a kind without a row");

} // namespace

std::span<const FindingKindInfo> finding_kinds() { return kKinds; }

const FindingKindInfo& info(FindingKind kind) {
    const size_t i = static_cast<size_t>(kind);
    if (i >= kKinds.size()) std::abort(); // not a FindingKind: a cast from bad data upstream
    return kKinds[i];
}

bool parse_finding_kind(std::string_view id, FindingKind& out) {
    for (const FindingKindInfo& row : kKinds)
        if (id == row.id) {
            out = row.kind;
            return true;
        }
    return false;
}

std::string report_title(const Finding& finding) {
    std::string out = info(finding.kind).report_en;
    const auto fill = [&out](const std::string& key, const std::string& value) {
        for (size_t at; (at = out.find(key)) != std::string::npos;)
            out.replace(at, key.size(), value);
    };
    fill("{hazard}", to_string(finding.hazard));
    fill("{space}", trace::to_string(finding.space));
    return out;
}

} // namespace synclab::analysis
