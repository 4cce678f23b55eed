// The memory map of a traced GPU run (issue 19's weak point, issue 20), without a GPU:
// - gpu::memory_map, the helper gpu_run.cpp fills a traced run's map with from where the worker
//   placed the memory: the same regions as the simulator's map of the same launch (one pair of
//   helpers, launch::buffer_regions and ptx::kernel_regions, builds both), complete only where the
//   worker reported every address and the launch is not cooperative;
// - the runner's GPU side over synclab-sim-worker (tests/gpu/sim_worker.cpp, which reports where it
//   placed buffers and `__device__` variables as the real worker does, and answers an access out of
//   bounds as a GPU that faulted): the traced run's map names the buffers, and a launch that faults
//   with its events in device memory is traced again into host-mapped memory, whose events are read
//   up to the fault.
#include "analysis/bounds_kernels.h"
#include "gpu/gpu_run.h"
#include "ptx/parser.h"
#include "runner/runner.h"
#include "sim/simulator.h"
#include "trace/naming.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

namespace synclab {
namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A module with every kind of named memory: two `__device__` variables, a `__constant__` one, a
// static `__shared__` array and an `extern __shared__` one.
constexpr const char* kPtx = R"(.version 8.0
.target sm_75
.address_size 64

.global .align 4 .u32 g_hits;
.global .align 4 .b8 g_table[12];
.const .align 4 .u32 c_limit;
.shared .align 4 .b8 _ZZ1kPiS_E6s_tile[256];
.extern .shared .align 16 .b8 dyn[];

.visible .entry k(
	.param .u64 k_param_0,
	.param .u64 k_param_1
)
{
	.reg .b32 	%r<3>;
	mov.u32 	%r1, _ZZ1kPiS_E6s_tile;
	mov.u32 	%r2, dyn;
	ret;
}
)";

const ptx::Module& module() {
    static const ptx::Module m = ptx::parse_module(kPtx, "k.ptx");
    return m;
}

std::vector<launch::Buffer> buffers() {
    launch::Buffer a{"a", std::vector<uint8_t>(64), launch::ElemType::I32};
    launch::Buffer unnamed{"", std::vector<uint8_t>(32), std::nullopt};
    return {a, unnamed};
}

launch::LaunchConfig config() {
    launch::LaunchConfig c;
    c.grid = {2, 1, 1};
    c.block = {64, 1, 1};
    c.dynamic_shared_bytes = 128;
    return c;
}

// What the real worker answers: cuMemAlloc's addresses, then cuModuleGetGlobal's for the names the
// request asked for (gpu::global_names: the .global variables, not the .const one).
gpu::RunResult placed() {
    gpu::RunResult r;
    r.buffer_addresses = {0x7f4a00000000, 0x7f4a00000200};
    r.global_addresses = {0x7f4a00200000, 0x7f4a00200100};
    return r;
}

TEST(GpuMemoryMap, TheWorkersAddressesNameEveryRegion) {
    EXPECT_EQ(gpu::global_names(module()), (std::vector<std::string>{"g_hits", "g_table"}));
    const ptx::Function& fn = *module().find_entry("k");
    const trace::MemoryMap map = gpu::memory_map(module(), fn, config(), buffers(), placed());
    EXPECT_TRUE(map.complete());
    const trace::MemoryRegion* a = map.find(trace::Space::Global, 0x7f4a00000000 + 60);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->name, "a");
    EXPECT_EQ(a->bytes, 64u);
    EXPECT_EQ(a->element_type, "s32");
    EXPECT_EQ(a->element_size, 4u);
    const trace::MemoryRegion* unnamed = map.find(trace::Space::Global, 0x7f4a00000200);
    ASSERT_NE(unnamed, nullptr);
    EXPECT_EQ(unnamed->name, "buffer 1");
    const trace::MemoryRegion* hits = map.find(trace::Space::Global, 0x7f4a00200000);
    ASSERT_NE(hits, nullptr);
    EXPECT_EQ(hits->name, "g_hits");
    EXPECT_EQ(hits->element_type, "u32");
    const trace::MemoryRegion* table = map.find(trace::Space::Global, 0x7f4a00200100 + 11);
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table->name, "g_table");
    // Shared regions are window offsets on both backends; the extern array as big as the launch's
    // dynamic shared memory.
    const trace::MemoryRegion* tile = map.find(trace::Space::Shared, 255);
    ASSERT_NE(tile, nullptr);
    EXPECT_EQ(tile->name, "s_tile");
    const trace::MemoryRegion* dyn = map.find(trace::Space::Shared, 256);
    ASSERT_NE(dyn, nullptr);
    EXPECT_EQ(dyn->name, "dyn");
    EXPECT_EQ(dyn->bytes, 128u);
    EXPECT_EQ(map.regions().size(), 6u) << "no region for the __constant__ variable";
}

// The simulator's map of the same launch holds the same regions (names, spaces, sizes, types); only
// where each runner placed global memory differs.
TEST(GpuMemoryMap, TheSameRegionsAsTheSimulatorsMap) {
    std::vector<launch::Buffer> sim_buffers = buffers();
    trace::Trace sim_trace;
    const std::vector<launch::KernelArg> args = {launch::KernelArg::pointer(0),
                                                 launch::KernelArg::pointer(1)};
    const sim::Result run =
        sim::simulate(module(), "k", config(), sim_buffers, args, sim::Options{}, &sim_trace);
    ASSERT_EQ(run.status, trace::RunStatus::Ok) << run.message;
    const trace::MemoryMap gpu_map =
        gpu::memory_map(module(), *module().find_entry("k"), config(), buffers(), placed());
    auto shape = [](const trace::MemoryMap& map) {
        std::vector<std::tuple<std::string, trace::Space, uint64_t, std::string, uint32_t>> out;
        for (const trace::MemoryRegion& r : map.regions())
            out.emplace_back(r.name, r.space, r.bytes, r.element_type, r.element_size);
        std::sort(out.begin(), out.end());
        return out;
    };
    EXPECT_EQ(shape(gpu_map), shape(sim_trace.memory));
    EXPECT_EQ(gpu_map.complete(), sim_trace.memory.complete());
}

// A variable the loaded module lacks (address 0) cannot be reached: no region, still complete.
// Missing answers (a request that failed before placing its buffers) or a cooperative launch (its
// grid barrier's workspace is the driver's): the map only names.
TEST(GpuMemoryMap, CompleteOnlyWithEveryAddress) {
    const ptx::Function& fn = *module().find_entry("k");
    gpu::RunResult dropped = placed();
    dropped.global_addresses[1] = 0;
    trace::MemoryMap map = gpu::memory_map(module(), fn, config(), buffers(), dropped);
    EXPECT_TRUE(map.complete());
    EXPECT_EQ(map.find(trace::Space::Global, 0x7f4a00200100), nullptr);

    map = gpu::memory_map(module(), fn, config(), buffers(), gpu::RunResult{});
    EXPECT_FALSE(map.complete());
    EXPECT_EQ(map.regions().size(), 2u) << "the shared window is known without the worker";

    gpu::RunResult short_answer = placed();
    short_answer.global_addresses.pop_back();
    EXPECT_FALSE(gpu::memory_map(module(), fn, config(), buffers(), short_answer).complete());

    launch::LaunchConfig cooperative = config();
    cooperative.cooperative = true;
    map = gpu::memory_map(module(), fn, cooperative, buffers(), placed());
    EXPECT_FALSE(map.complete());
    EXPECT_EQ(map.regions().size(), 6u);
}

// The GPU places shared variables where it likes (sm_90 after a reserved first kilobyte); the
// traced kernel's thread 0 writes where (ptx::kTraceParamShared), and the map names the traced
// addresses by those, not by the parser's offsets. A table still all zero (thread 0 never got to
// its prologue) or of another length leaves the parser's offsets.
TEST(GpuMemoryMap, SharedVariablesWhereTheGpuPlacedThem) {
    const ptx::Function& fn = *module().find_entry("k");
    ASSERT_EQ(fn.shared_symbols.size(), 2u);
    gpu::RunResult r = placed();
    r.shared_addresses = {0x400, 0x500}; // s_tile at 1 KB, dyn after it
    const trace::MemoryMap map = gpu::memory_map(module(), fn, config(), buffers(), r);
    const trace::MemoryRegion* tile = map.find(trace::Space::Shared, 0x400 + 255);
    ASSERT_NE(tile, nullptr);
    EXPECT_EQ(tile->name, "s_tile");
    EXPECT_EQ(tile->base, 0x400u);
    const trace::MemoryRegion* dyn = map.find(trace::Space::Shared, 0x500 + 127);
    ASSERT_NE(dyn, nullptr);
    EXPECT_EQ(dyn->name, "dyn");
    EXPECT_EQ(dyn->bytes, 128u);
    EXPECT_EQ(map.find(trace::Space::Shared, 0), nullptr) << "nothing at the parser's offsets";
    const trace::MemoryPlace place = trace::memory_place(map, trace::Space::Shared, 0x400 + 8, 4);
    ASSERT_EQ(place.region, tile);
    EXPECT_EQ(place.element, 2u) << "the third 4-byte element of the untyped array";

    for (const std::vector<uint32_t>& unusable : {std::vector<uint32_t>{0, 0}, std::vector<uint32_t>{0x400}}) {
        r.shared_addresses = unusable;
        const trace::MemoryMap parser = gpu::memory_map(module(), fn, config(), buffers(), r);
        const trace::MemoryRegion* at_zero = parser.find(trace::Space::Shared, 0);
        ASSERT_NE(at_zero, nullptr);
        EXPECT_EQ(at_zero->name, "s_tile");
    }
}

runner::RunOptions sim_worker() {
    runner::RunOptions o;
    o.backend = "gpu";
    o.reps = 1;
    o.gpu.worker = SYNCLAB_SIM_WORKER;
    o.gpu.untraced = false;
    o.gpu.timeout_s = 20;
    return o;
}

// A traced run over the worker protocol: the map names the buffers where the worker placed them.
TEST(GpuMemoryMap, ATracedRunNamesTheBuffers) {
    const runner::RunSummary r = runner::run_job(
        analysis::testing::bounds_job("_Z12write_insidePii", 2, 64, {{"a", 16}}, 16), sim_worker());
    ASSERT_EQ(r.status, trace::RunStatus::Ok) << r.message;
    EXPECT_EQ(r.trace.meta.backend, "gpu");
    EXPECT_TRUE(r.trace.memory.complete());
    ASSERT_EQ(r.trace.memory.regions().size(), 1u);
    EXPECT_EQ(r.trace.memory.regions()[0].name, "a");
    size_t stores = 0;
    for (const trace::Event& e : r.trace.events) {
        if (e.kind != trace::EventKind::Store) continue;
        ++stores;
        EXPECT_EQ(trace::memory_name(r.trace, e.space(), e.address), "a[" + std::to_string(e.value) + "]");
    }
    EXPECT_EQ(stores, 16u);
    EXPECT_TRUE(r.findings.empty()) << r.findings.front().message;
}

// A launch that faults with its events in device memory leaves nothing to read; the runner traces
// it once more into host-mapped memory and reads that up to the fault. (The simulator worker stops
// at the faulting instruction, before the instrumentation records it, so here the trace holds the
// loads before the fault; a GPU goes on a little, and may record the out-of-bounds writes that did
// not fault themselves: the GPU test.)
TEST(GpuMemoryMap, AFaultIsTracedAgainIntoMappedMemory) {
    const runner::RunSummary r = runner::run_job(
        analysis::testing::bounds_job("_Z21copy_far_past_the_endPKiPi", 2, 64, {{"in", 128}, {"a", 16}}),
        sim_worker());
    EXPECT_EQ(r.status, trace::RunStatus::Error);
    const runner::GpuSide& t = r.gpu_traced;
    EXPECT_TRUE(contains(t.message, "CUDA_ERROR_ILLEGAL_ADDRESS")) << t.message;
    EXPECT_TRUE(
        contains(t.message, "traced again into host-mapped memory after the first traced launch failed"))
        << t.message;
    EXPECT_EQ(t.trace_buffer, "mapped") << "the kept trace's buffer";
    EXPECT_TRUE(t.partial_trace);
    ASSERT_GT(r.trace.events.size(), 0u) << "the events before the fault";
    EXPECT_TRUE(r.trace.memory.complete());
    size_t loads = 0;
    for (const trace::Event& e : r.trace.events)
        if (e.kind == trace::EventKind::Load) {
            ++loads;
            EXPECT_EQ(trace::region_name(r.trace, e.space(), e.address), "in");
        }
    EXPECT_GT(loads, 0u);
}

} // namespace
} // namespace synclab
