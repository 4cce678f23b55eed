// The memory-system seam (app/sim/memory_system.h): ScMemory on its own, atomic semantics, and a
// whole run through models that record or alter what the executor hands them.
#include "sim/atomic_ops.h"
#include "sim/memory_system.h"
#include "sim/run.h"
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace synclab::sim {
namespace {

using namespace synclab::sim::testing;

WarpAccess access_of(std::vector<uint32_t>& words, AccessKind kind, uint32_t mask,
                     uint32_t word_of_lane(uint32_t)) {
    WarpAccess a;
    a.kind = kind;
    a.size = 4;
    a.type = ptx::Type::U32;
    a.mask = mask;
    for (uint32_t l = 0; l < kWarpSize; ++l) {
        a.space[l] = trace::Space::Global;
        a.address[l] = word_of_lane(l) * 4;
        a.host[l] = reinterpret_cast<uint8_t*>(&words[word_of_lane(l)]);
        a.value[l] = 0xabcd0000u + l;
        a.operand_c[l] = 0;
    }
    return a;
}

// [SECTION] ScMemory

TEST(ScMemory, LoadsAndStoresTouchOnlyTheLanesOfTheMask) {
    std::vector<uint32_t> words(32);
    for (uint32_t i = 0; i < 32; ++i)
        words[i] = i * 10;
    ScMemory sc;
    EXPECT_STREQ(sc.name(), "sc");
    WarpAccess load = access_of(words, AccessKind::Load, 0b101, [](uint32_t l) { return l; });
    sc.load(load);
    EXPECT_EQ(load.value[0], 0u);
    EXPECT_EQ(load.value[1], 0xabcd0001u) << "lane 1 is not in the mask";
    EXPECT_EQ(load.value[2], 20u);
    WarpAccess store = access_of(words, AccessKind::Store, 0x80000002u, [](uint32_t l) { return l; });
    sc.store(store);
    EXPECT_EQ(words[1], 0xabcd0001u);
    EXPECT_EQ(words[31], 0xabcd001fu);
    EXPECT_EQ(words[0], 0u);
    EXPECT_EQ(words[2], 20u);
}

TEST(ScMemory, AtomicsApplyLaneByLaneInLaneOrder) {
    std::vector<uint32_t> words = {5};
    ScMemory sc;
    // Every lane of 0b1011 exchanges its own value into word 0: each gets the previous lane's.
    WarpAccess exch = access_of(words, AccessKind::Atomic, 0b1011, [](uint32_t) { return 0u; });
    exch.atom_op = ptx::AtomOp::Exch;
    sc.atomic(exch);
    EXPECT_EQ(exch.value[0], 5u);
    EXPECT_EQ(exch.value[1], 0xabcd0000u);
    EXPECT_EQ(exch.value[3], 0xabcd0001u);
    EXPECT_EQ(words[0], 0xabcd0003u);
    // A full warp adding 1 to one word: the old values are 0..31 in lane order.
    words[0] = 0;
    WarpAccess add = access_of(words, AccessKind::Atomic, kFullMask, [](uint32_t) { return 0u; });
    add.atom_op = ptx::AtomOp::Add;
    for (uint64_t& v : add.value)
        v = 1;
    sc.atomic(add);
    for (uint32_t l = 0; l < kWarpSize; ++l)
        EXPECT_EQ(add.value[l], l);
    EXPECT_EQ(words[0], 32u);
}

TEST(AtomicOps, SemanticsAndWhatIsNotSupported) {
    uint64_t r = 0;
    EXPECT_TRUE(apply_atomic(ptx::Type::U32, ptx::AtomOp::Cas, 4, 4, 9, r));
    EXPECT_EQ(r, 9u);
    EXPECT_TRUE(apply_atomic(ptx::Type::U32, ptx::AtomOp::Cas, 4, 5, 9, r));
    EXPECT_EQ(r, 4u);
    EXPECT_TRUE(apply_atomic(ptx::Type::S32, ptx::AtomOp::Min, uint32_t(-3), 2, 0, r));
    EXPECT_EQ(uint32_t(r), uint32_t(-3));
    EXPECT_TRUE(apply_atomic(ptx::Type::U32, ptx::AtomOp::Inc, 9, 9, 0, r));
    EXPECT_EQ(r, 0u) << "inc wraps to 0 at the limit";
    EXPECT_TRUE(apply_atomic(ptx::Type::U64, ptx::AtomOp::Add, uint64_t(1) << 40, 1, 0, r));
    EXPECT_EQ(r, (uint64_t(1) << 40) + 1);
    EXPECT_FALSE(atomic_supported(ptx::Type::F32, ptx::AtomOp::Inc));
    EXPECT_FALSE(atomic_supported(ptx::Type::F64, ptx::AtomOp::Xor));
    EXPECT_TRUE(atomic_supported(ptx::Type::F32, ptx::AtomOp::Add));
}

// [SECTION] A run through the seam

struct Log {
    std::vector<WarpAccess> loads, stores, atomics;
    std::vector<FenceRequest> fences;
    std::vector<std::pair<BarrierRelease, std::vector<uint32_t>>> barriers;
    std::vector<uint32_t> exited;
    int ended = 0;
};

// Sequential consistency, recording every call. With `stale_global` set, every global load returns
// that value instead of the backing bytes (what a relaxed model's stale line would do).
class Recording final : public MemorySystem {
  public:
    Recording(Log& log, std::optional<uint64_t> stale_global = {}) : log_(log), stale_(stale_global) {}
    const char* name() const override { return "recording"; }
    void load(WarpAccess& a) override {
        sc_.load(a);
        if (stale_)
            for (uint32_t l = 0; l < kWarpSize; ++l)
                if ((a.mask >> l & 1) && a.space[l] == trace::Space::Global) a.value[l] = *stale_;
        log_.loads.push_back(a);
    }
    void store(WarpAccess& a) override {
        log_.stores.push_back(a);
        sc_.store(a);
    }
    void atomic(WarpAccess& a) override {
        sc_.atomic(a);
        log_.atomics.push_back(a);
    }
    void fence(const FenceRequest& f) override { log_.fences.push_back(f); }
    void barrier_completed(const BarrierRelease& r) override {
        std::vector<uint32_t> threads;
        for (const Waiter& w : r.released)
            for (uint32_t l = 0; l < kWarpSize; ++l)
                if (w.lanes >> l & 1) threads.push_back(r.first_thread + w.warp * kWarpSize + l);
        log_.barriers.push_back({r, threads});
    }
    void thread_exited(uint32_t t) override { log_.exited.push_back(t); }
    void kernel_ended() override { ++log_.ended; }

  private:
    Log& log_;
    std::optional<uint64_t> stale_;
    ScMemory sc_;
};

const ptx::Module& sim_kernels() {
    static const ptx::Module module = load_module("sim_kernels");
    return module;
}

Result run_with(std::unique_ptr<MemorySystem> memory, const std::string& kernel, const LaunchConfig& l,
                std::vector<Buffer>& buffers, const std::vector<KernelArg>& args, trace::Trace* t,
                const ptx::Module& module = sim_kernels()) {
    const Options o;
    Run run(module, module.require_entry(kernel), l, buffers, args, o, t, std::move(memory));
    return run.execute();
}

TEST(MemorySystemSeam, EveryAccessHookAndDrainIsCalledWithWhoAndWhere) {
    Log log;
    std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>(2 * 96))};
    trace::Trace t;
    const Result r = run_with(std::make_unique<Recording>(log), "store_barrier_load",
                              launch({2, 1, 1}, {96, 1, 1}), buffers, {KernelArg::pointer(0)}, &t);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    EXPECT_EQ(t.meta.memory_model, "recording");
    // One call per warp-instruction: 2 blocks x 3 warps, one shared and one global store each.
    ASSERT_EQ(log.stores.size(), 12u);
    std::map<trace::Space, uint32_t> lanes_by_space;
    for (const WarpAccess& a : log.stores) {
        EXPECT_EQ(a.mask, kFullMask);
        EXPECT_EQ(a.who.first_thread, a.who.block * 96 + a.who.warp * 32);
        EXPECT_EQ(a.who.sm, a.who.block % 8);
        EXPECT_EQ(a.order, ptx::MemOrder::Weak);
        for (uint32_t l = 0; l < kWarpSize; ++l) {
            ++lanes_by_space[a.space[l]];
            if (a.space[l] == trace::Space::Shared) {
                EXPECT_EQ(a.address[l], (a.who.warp * 32 + l) * 4);
                EXPECT_EQ(a.value[l], (a.who.warp * 32 + l) * 3);
            }
        }
    }
    EXPECT_EQ(lanes_by_space[trace::Space::Shared], 192u);
    EXPECT_EQ(lanes_by_space[trace::Space::Global], 192u);
    // One barrier phase per block, releasing its 96 threads.
    ASSERT_EQ(log.barriers.size(), 2u);
    std::set<uint32_t> released;
    for (const auto& [release, threads] : log.barriers) {
        EXPECT_EQ(release.barrier, 0u);
        EXPECT_EQ(release.phase, 0u);
        EXPECT_EQ(threads.size(), 96u);
        for (uint32_t g : threads) {
            EXPECT_EQ(g / 96, release.block);
            released.insert(g);
        }
    }
    EXPECT_EQ(released.size(), 192u);
    EXPECT_EQ(std::set<uint32_t>(log.exited.begin(), log.exited.end()).size(), 192u);
    EXPECT_EQ(log.exited.size(), 192u);
    EXPECT_EQ(log.ended, 1);
}

TEST(MemorySystemSeam, TheValueALoadReturnsComesFromTheModel) {
    Log log;
    std::vector<Buffer> buffers = {make_buffer("g_in", std::vector<uint32_t>(64, 1)),
                                   make_buffer("g_out", std::vector<uint32_t>(64, 0))};
    trace::Trace t;
    // out_of_bounds with n = 0 copies g_in to g_out; the model serves every global load as 7.
    const Result r =
        run_with(std::make_unique<Recording>(log, 7u), "out_of_bounds", launch({2, 1, 1}, {32, 1, 1}),
                 buffers, {KernelArg::pointer(0), KernelArg::pointer(1), KernelArg::scalar(0)}, &t);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    for (uint32_t v : values_of<uint32_t>(buffers[1]))
        EXPECT_EQ(v, 7u);
    for (const trace::Event& e : t.events) {
        if (e.kind == trace::EventKind::Load) {
            EXPECT_EQ(e.value, 7u) << "the trace shows the value the model returned";
        }
    }
}

TEST(MemorySystemSeam, GenericAccessesReachBothSpacesInOneCall) {
    Log log;
    std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>(64, 0))};
    const Result r = run_with(std::make_unique<Recording>(log), "generic_shared",
                              launch({1, 1, 1}, {64, 1, 1}), buffers, {KernelArg::pointer(0)}, nullptr);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    bool mixed = false;
    for (const WarpAccess& a : log.stores) {
        if (a.mask != kFullMask) continue;
        bool odd_shared = true, even_global = true;
        for (uint32_t l = 0; l < kWarpSize; ++l) {
            if (l & 1)
                odd_shared = odd_shared && a.space[l] == trace::Space::Shared;
            else
                even_global = even_global && a.space[l] == trace::Space::Global;
        }
        mixed = mixed || (odd_shared && even_global);
    }
    EXPECT_TRUE(mixed) << "the generic store reaches shared memory in odd lanes, global in even ones";
}

const char* kFencePtx = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry fences(.param .u64 out)
{
    .reg .b64 %rd<3>;
    .reg .b32 %r<2>;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd2, %rd1;
    st.relaxed.gpu.global.u32 [%rd2], 1;
    membar.gl;
    fence.acq_rel.cta;
    fence.sc.sys;
    atom.acquire.gpu.global.add.u32 %r1, [%rd2], 1;
    ret;
}
)";

TEST(MemorySystemSeam, OrdersAndScopesReachTheModel) {
    Log log;
    const ptx::Module m = ptx::parse_module(kFencePtx, "fences.ptx");
    std::vector<Buffer> buffers = {make_buffer("out", std::vector<uint32_t>(1, 0))};
    const Result r = run_with(std::make_unique<Recording>(log), "fences", launch({1, 1, 1}, {32, 1, 1}),
                              buffers, {KernelArg::pointer(0)}, nullptr, m);
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    ASSERT_EQ(log.fences.size(), 3u);
    EXPECT_EQ(log.fences[0].order, ptx::MemOrder::Sc);
    EXPECT_EQ(log.fences[0].scope, ptx::MemScope::Gpu);
    EXPECT_EQ(log.fences[1].order, ptx::MemOrder::AcqRel);
    EXPECT_EQ(log.fences[1].scope, ptx::MemScope::Cta);
    EXPECT_EQ(log.fences[2].scope, ptx::MemScope::Sys);
    EXPECT_EQ(log.fences[0].mask, kFullMask);
    ASSERT_EQ(log.stores.size(), 1u);
    EXPECT_EQ(log.stores[0].order, ptx::MemOrder::Relaxed);
    EXPECT_EQ(log.stores[0].scope, ptx::MemScope::Gpu);
    ASSERT_EQ(log.atomics.size(), 1u);
    EXPECT_EQ(log.atomics[0].order, ptx::MemOrder::Acquire);
    EXPECT_EQ(log.atomics[0].atom_op, ptx::AtomOp::Add);
    EXPECT_EQ(values_of<uint32_t>(buffers[0])[0], 33u);
}

} // namespace
} // namespace synclab::sim
