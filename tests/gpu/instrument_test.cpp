// The PTX rewriter for traced GPU runs, tested without a GPU: the instrumented PTX still parses, keeps
// the kernel's own instructions in order, records every event site exactly once, and — run in the
// simulator itself, which executes the recording code like any other PTX — writes the same events,
// thread by thread, as the simulator records for the original kernel. Where ptxas is installed the
// instrumented kernels must also assemble for sm_90.
#include "ptx/instrument.h"
#include "ptx/parser.h"
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "sim/simulator.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <unistd.h>

namespace synclab {
namespace {

using trace::EventKind;

struct Case {
    const scenario::Scenario* scenario;
    const scenario::Variant* variant;
    std::string name() const { return scenario->id + "/" + variant->id; }
};

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (const scenario::Scenario& s : scenario::catalog())
        for (const scenario::Variant& v : s.variants)
            cases.push_back({&s, &v});
    return cases;
}

std::string ptx_name(const scenario::Scenario& s) {
    return s.source_file.substr(0, s.source_file.size() - 3) + ".ptx";
}

// The event kinds the simulator records at an instruction (ptx::Op), in the order it records them.
std::vector<EventKind> expected_kinds(const ptx::Instruction& in) {
    using ptx::Op;
    switch (in.op) {
    case Op::Ld:
    case Op::St:
        if (in.space == ptx::Space::Global || in.space == ptx::Space::Shared ||
            in.space == ptx::Space::Const || in.space == ptx::Space::Generic)
            return {in.op == Op::Ld ? EventKind::Load : EventKind::Store};
        return {};
    case Op::Atom:
        return {EventKind::Atomic};
    case Op::Red:
        return {EventKind::Reduction};
    case Op::Bar:
        if (in.mods & ptx::mod::kArrive) return {EventKind::BarrierArrive};
        return {EventKind::BarrierArrive, EventKind::BarrierLeave};
    case Op::Membar:
        return {EventKind::Fence};
    case Op::Ret:
    case Op::Exit:
        return {EventKind::Exit};
    default:
        return {};
    }
}

TEST(Instrument, EveryScenarioKernelStillParsesAndRecordsEverySiteOnce) {
    for (const Case& c : all_cases()) {
        SCOPED_TRACE(c.name());
        const ptx::Module& module = runner::scenario_module(*c.scenario);
        const std::string text(c.scenario->ptx_source());
        const ptx::InstrumentedKernel ik = ptx::instrument_kernel(text, module, c.variant->kernel);
        ptx::Module out;
        ASSERT_NO_THROW(out = ptx::parse_module(ik.ptx, ptx_name(*c.scenario))) << ik.ptx;
        const ptx::Function& before = module.require_entry(c.variant->kernel);
        const ptx::Function& after = out.require_entry(c.variant->kernel);
        ASSERT_EQ(after.params.size(), before.params.size() + ptx::kTraceParamCount);
        EXPECT_EQ(after.params[before.params.size()].name, ptx::kTraceParamEvents);
        EXPECT_EQ(after.params.back().name, ptx::kTraceParamWarps);
        for (size_t i = 0; i < before.params.size(); ++i)
            EXPECT_EQ(after.params[i].offset, before.params[i].offset);
        // The kernel's own instructions survive, in order (a subsequence of the rewritten code).
        size_t k = 0;
        for (const std::string& line : after.text)
            if (k < before.text.size() && line == before.text[k]) ++k;
        EXPECT_EQ(k, before.text.size())
            << "instruction " << k
            << " of the original is missing: " << before.text[std::min(k, before.text.size() - 1)];
        // Recording points: exactly the sites and kinds the simulator records, each once.
        std::multiset<std::pair<uint32_t, EventKind>> want, got;
        for (uint32_t i = 0; i < before.code.size(); ++i)
            for (EventKind kind : expected_kinds(before.code[i]))
                want.insert({i, kind});
        for (const ptx::RecordingPoint& p : ik.points)
            got.insert({p.site, p.kind});
        EXPECT_EQ(got, want);
        // Other kernels of the module are left as they were.
        for (const ptx::Function& f : module.functions)
            if (f.name != c.variant->kernel) {
                EXPECT_EQ(out.require_entry(f.name).text, f.text) << f.name;
            }
    }
}

// Runs the instrumented kernel in the simulator and decodes the events it wrote into its buffer.
struct Recorded {
    sim::Result result;
    uint64_t cursor = 0; // the stripes' cursors added up: events attempted
    uint64_t dropped = 0;
    std::vector<uint64_t> cursors;    // per stripe
    std::vector<trace::Event> events; // each stripe's slots [0, min(cursor, capacity)), stripe by stripe
    std::vector<uint64_t> unwritten;  // per stripe: slots at or past its cursor that are not zero (must be 0)
    std::vector<uint8_t> guard;       // bytes past the buffer (must stay zero)
    std::vector<uint32_t> warps;
    std::vector<launch::Buffer> outputs; // the scenario's own buffers afterwards
};

// `capacity`: slots in all (rounded up to whole stripes).
Recorded run_instrumented(const Case& c, uint64_t capacity, uint64_t seed, bool aggregated = true,
                          uint32_t stripes = trace::kDefaultStripes) {
    const ptx::Module& module = runner::scenario_module(*c.scenario);
    ptx::InstrumentOptions io;
    io.warp_aggregated = aggregated;
    io.stripes = stripes;
    const trace::TraceBufferLayout layout = trace::TraceBufferLayout::for_capacity(capacity, stripes);
    const ptx::InstrumentedKernel ik =
        ptx::instrument_kernel(c.scenario->ptx_source(), module, c.variant->kernel, io);
    const ptx::Module out = ptx::parse_module(ik.ptx, ptx_name(*c.scenario));
    scenario::Inputs inputs = c.scenario->make_inputs(seed);
    std::vector<launch::Buffer> buffers = inputs.buffers;
    std::vector<launch::KernelArg> args = inputs.args;
    const uint32_t own = static_cast<uint32_t>(buffers.size());
    const size_t guard_bytes = 4096;
    buffers.push_back({"trace_events", std::vector<uint8_t>(layout.event_bytes() + guard_bytes, 0)});
    buffers.push_back({"trace_cursor", std::vector<uint8_t>(layout.cursor_bytes(), 0)});
    const uint64_t warps = ptx::trace_warp_count(c.scenario->launch.grid, c.scenario->launch.block);
    buffers.push_back({"trace_warps", std::vector<uint8_t>(warps * 4, 0)});
    args.push_back(launch::KernelArg::pointer(own));
    args.push_back(launch::KernelArg::pointer(own + 1));
    args.push_back(launch::KernelArg::scalar(layout.stripe_capacity));
    args.push_back(launch::KernelArg::pointer(own + 2));
    sim::Options options;
    options.schedule = sim::Schedule::RoundRobin;
    options.record_trace = false;
    Recorded r;
    r.result = sim::simulate(out, c.variant->kernel, c.scenario->launch, buffers, args, options, nullptr);
    r.cursors = trace::read_cursors(buffers[own + 1].bytes.data(), layout);
    const trace::CursorTotals totals = trace::cursor_totals(r.cursors, layout);
    r.cursor = totals.attempted;
    r.dropped = totals.dropped;
    const auto* slots = reinterpret_cast<const trace::Event*>(buffers[own].bytes.data());
    for (uint32_t s = 0; s < layout.stripes; ++s) {
        const uint64_t used = std::min(r.cursors[s], layout.stripe_capacity);
        const trace::Event* stripe = slots + layout.stripe_first_slot(s);
        r.events.insert(r.events.end(), stripe, stripe + used);
        uint64_t stray = 0;
        for (uint64_t i = used; i < layout.stripe_capacity; ++i)
            stray += trace::is_complete_event(stripe[i]) ? 1 : 0;
        r.unwritten.push_back(stray);
    }
    r.guard.assign(buffers[own].bytes.begin() + static_cast<std::ptrdiff_t>(layout.event_bytes()),
                   buffers[own].bytes.end());
    r.warps.resize(warps);
    std::memcpy(r.warps.data(), buffers[own + 2].bytes.data(), warps * 4);
    r.outputs.assign(buffers.begin(), buffers.begin() + own);
    return r;
}

using Key = std::tuple<uint16_t, EventKind, uint64_t, uint32_t, uint8_t>; // site, kind, address, value, flags

std::map<uint32_t, std::vector<Key>> per_thread(const std::vector<trace::Event>& events, bool with_data) {
    std::map<uint32_t, std::vector<Key>> m;
    for (const trace::Event& e : events)
        m[e.thread].push_back(with_data ? Key{e.site, e.kind, e.address, e.value, e.flags}
                                        : Key{e.site, e.kind, 0, 0, e.flags});
    return m;
}

TEST(Instrument, RecordsWhatTheSimulatorRecordsThreadByThread) {
    for (const Case& c : all_cases()) {
        SCOPED_TRACE(c.name());
        // The simulator's own trace of the original kernel.
        runner::RunOptions o;
        o.schedule = sim::Schedule::RoundRobin;
        o.seed = 5;
        const runner::RunSummary sim_run = runner::run_scenario(*c.scenario, *c.variant, o);
        if (sim_run.status != trace::RunStatus::Ok) continue; // a variant that deadlocks in the simulator
        const Recorded rec = run_instrumented(c, 1u << 22, 5);
        ASSERT_EQ(rec.result.status, trace::RunStatus::Ok) << rec.result.message;
        ASSERT_EQ(rec.cursor, sim_run.trace.events.size());
        EXPECT_EQ(rec.dropped, 0u);
        EXPECT_EQ(rec.unwritten, std::vector<uint64_t>(rec.unwritten.size(), 0))
            << "an event past a stripe's cursor";
        // The same events per thread, in program order. Data (addresses, values, phases) must match
        // where the outcome does not depend on the interleaving: the variants that are always right.
        const bool with_data = c.variant->expect.always_correct();
        EXPECT_EQ(per_thread(rec.events, with_data), per_thread(sim_run.trace.events, with_data));
        // The instrumentation does not change what the kernel computes (deterministic variants).
        if (with_data) {
            for (size_t b = 0; b < rec.outputs.size(); ++b)
                EXPECT_EQ(rec.outputs[b].bytes, sim_run.final_buffers[b].bytes) << rec.outputs[b].name;
        }
        // Every warp wrote its SM (+1) into the warp table.
        for (uint32_t w : rec.warps) {
            EXPECT_GE(w, 1u);
        }
    }
}

TEST(Instrument, PerThreadAtomicsAndOneCursorRecordTheSameEvents) {
    const Case c{scenario::find_scenario("stencil"),
                 scenario::find_scenario("stencil")->find_variant("correct")};
    const Recorded a = run_instrumented(c, 1u << 20, 3, true);
    const Recorded b = run_instrumented(c, 1u << 20, 3, false);
    const Recorded one = run_instrumented(c, 1u << 20, 3, true, 1);
    const Recorded per_thread_one = run_instrumented(c, 1u << 20, 3, false, 1);
    EXPECT_EQ(a.cursor, b.cursor);
    EXPECT_EQ(a.cursor, one.cursor);
    EXPECT_EQ(per_thread(a.events, true), per_thread(b.events, true));
    EXPECT_EQ(per_thread(a.events, true), per_thread(one.events, true));
    EXPECT_EQ(per_thread(a.events, true), per_thread(per_thread_one.events, true));
}

// Warp w of the launch writes only into stripe w % stripes (trace/trace_buffer.h).
TEST(Instrument, EachWarpWritesIntoItsOwnStripe) {
    const Case c{scenario::find_scenario("stencil"),
                 scenario::find_scenario("stencil")->find_variant("correct")};
    const uint32_t stripes = 8;
    const Recorded r = run_instrumented(c, 1u << 16, 2, true, stripes);
    ASSERT_EQ(r.result.status, trace::RunStatus::Ok) << r.result.message;
    ASSERT_EQ(r.cursors.size(), stripes);
    const trace::Dim3 block = c.scenario->launch.block;
    const uint64_t threads_per_block = block.count();
    const uint64_t warps_per_block = (threads_per_block + 31) / 32;
    size_t at = 0;
    uint32_t stripes_used = 0;
    for (uint32_t s = 0; s < stripes; ++s) {
        const uint64_t used = std::min<uint64_t>(r.cursors[s], (1u << 16) / stripes);
        stripes_used += used > 0 ? 1 : 0;
        for (uint64_t i = 0; i < used; ++i, ++at) {
            const trace::Event& e = r.events[at];
            const uint64_t warp =
                e.thread / threads_per_block * warps_per_block + e.thread % threads_per_block / 32;
            ASSERT_EQ(warp % stripes, s) << "thread " << e.thread << " wrote into stripe " << s;
        }
    }
    EXPECT_EQ(at, r.events.size());
    EXPECT_EQ(stripes_used,
              std::min<uint64_t>(stripes, ptx::trace_warp_count(c.scenario->launch.grid, block)));
}

TEST(Instrument, OverflowIsCountedAndNeverWrittenOutOfBounds) {
    const Case c{scenario::find_scenario("stencil"),
                 scenario::find_scenario("stencil")->find_variant("correct")};
    for (const uint32_t stripes : {1u, 4u, trace::kDefaultStripes}) {
        SCOPED_TRACE("stripes " + std::to_string(stripes));
        const uint64_t capacity = 1024;
        const uint64_t per_stripe = capacity / stripes;
        const Recorded r = run_instrumented(c, capacity, 1, true, stripes);
        ASSERT_EQ(r.result.status, trace::RunStatus::Ok) << r.result.message;
        EXPECT_GT(r.dropped, 0u);
        // Attempted = written + dropped; every stripe holds min(cursor, capacity) complete events.
        uint64_t written = 0;
        for (uint64_t cursor : r.cursors)
            written += std::min(cursor, per_stripe);
        EXPECT_EQ(r.events.size(), written);
        EXPECT_EQ(r.cursor, written + r.dropped);
        if (stripes == 1) {
            EXPECT_EQ(r.events.size(), capacity); // one stripe: exactly the old single-cursor picture
        }
        for (const trace::Event& e : r.events) {
            EXPECT_TRUE(trace::is_complete_event(e));
        }
        EXPECT_EQ(r.unwritten, std::vector<uint64_t>(r.unwritten.size(), 0))
            << "an event past a stripe's cursor";
        EXPECT_EQ(r.guard, std::vector<uint8_t>(r.guard.size(), 0)) << "a write past the buffer";
    }
}

TEST(Instrument, RefusesStripeCountsThatAreNotAPowerOfTwo) {
    const Case c{scenario::find_scenario("stencil"),
                 scenario::find_scenario("stencil")->find_variant("correct")};
    ptx::InstrumentOptions io;
    for (const uint32_t bad : {0u, 3u, 2048u}) {
        io.stripes = bad;
        EXPECT_THROW(ptx::instrument_kernel(c.scenario->ptx_source(), runner::scenario_module(*c.scenario),
                                            c.variant->kernel, io),
                     std::invalid_argument)
            << bad;
    }
}

const char* kHandWritten = R"(.version 8.0
.target sm_75
.address_size 64

.visible .entry generic_and_guarded(
	.param .u64 p_out,
	.param .u64 p_ptr
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	.reg .b64 %rd<6>;
	.shared .align 4 .b8 tile[128];

	ld.param.u64 %rd1, [p_out];
	ld.param.u64 %rd2, [p_ptr];
	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 16;
	ld.u32 %r2, [%rd2];
	st.u32 [%rd2+4], %r2;
	@%p1 st.shared.u32 [tile+8], %r1;
	@!%p1 ld.volatile.shared.v2.u32 {%r3, %r4}, [tile];
	cvta.to.global.u64 %rd3, %rd1;
	atom.global.add.u32 %r5, [%rd3], %r5;
	red.global.add.u32 [%rd3+4], 1;
	membar.gl;
	bar.sync 0;
	@%p1 ret;
	exit;
}
)";

TEST(Instrument, GenericAccessesGuardsVectorsAndAtomics) {
    const ptx::Module module = ptx::parse_module(kHandWritten, "hand.ptx");
    const ptx::InstrumentedKernel ik = ptx::instrument_kernel(kHandWritten, module, "generic_and_guarded");
    // Generic accesses are classified at run time; guarded ones skip their recording when the guard is false.
    EXPECT_NE(ik.ptx.find("isspacep.shared"), std::string::npos);
    EXPECT_NE(ik.ptx.find("@!%p1 bra $__sl_skip"), std::string::npos);
    EXPECT_NE(ik.ptx.find("@%p1 bra $__sl_skip"), std::string::npos);
    // A shared symbol in the address is taken as written (its real shared-window address).
    EXPECT_NE(ik.ptx.find("mov.u32 %sl_r13, tile"), std::string::npos);
    // The atomic's operand b is read before the atomic overwrites it (d and b are both %r5).
    const size_t read_b = ik.ptx.find("mov.b32 %sl_r3, %r5");
    const size_t atom = ik.ptx.find("atom.global.add.u32 %r5");
    ASSERT_NE(read_b, std::string::npos);
    EXPECT_LT(read_b, atom);
    uint32_t vector_loads = 0, exits = 0;
    for (const ptx::RecordingPoint& p : ik.points) {
        if (p.kind == EventKind::Load && p.events == 2) ++vector_loads;
        if (p.kind == EventKind::Exit) ++exits;
    }
    EXPECT_EQ(vector_loads, 1u);
    EXPECT_EQ(exits, 2u);
}

TEST(Instrument, RefusesTwoInstructionsOnOneLine) {
    const std::string text = ".version 8.0\n.target sm_75\n.address_size 64\n"
                             ".visible .entry two(.param .u64 p)\n{\n.reg .b64 %rd<3>;\n.reg .b32 %r<3>;\n"
                             "ld.param.u64 %rd1, [p]; ld.global.u32 %r1, [%rd1];\nret;\n}\n";
    const ptx::Module module = ptx::parse_module(text, "two.ptx");
    try {
        ptx::instrument_kernel(text, module, "two", {}, "two.ptx");
        FAIL() << "no error";
    } catch (const ptx::InstrumentError& e) {
        EXPECT_EQ(e.line(), 8u);
        EXPECT_NE(std::string(e.what()).find("two.ptx:8:"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("several instructions on one line"), std::string::npos)
            << e.what();
    }
}

// ptxas, where the CUDA toolkit is installed: the rewritten kernels must assemble for the H200.
std::string find_ptxas() {
    for (const char* p : {"/usr/local/cuda/bin/ptxas", "/usr/bin/ptxas"})
        if (access(p, X_OK) == 0) return p;
    if (const char* home = std::getenv("CUDA_HOME")) {
        const std::string p = std::string(home) + "/bin/ptxas";
        if (access(p.c_str(), X_OK) == 0) return p;
    }
    return "";
}

TEST(Instrument, InstrumentedKernelsAssembleWithPtxas) {
    const std::string ptxas = find_ptxas();
    if (ptxas.empty()) GTEST_SKIP() << "no ptxas (CUDA toolkit) on this machine";
    const auto dir = std::filesystem::temp_directory_path() / ("synclab-ptxas-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    auto assemble = [&](const std::string& name, const std::string& ptx) {
        const auto file = dir / (name + ".ptx");
        std::ofstream(file) << ptx;
        const std::string log = (dir / (name + ".log")).string();
        const std::string cmd =
            "'" + ptxas + "' -arch=sm_90 '" + file.string() + "' -o /dev/null >'" + log + "' 2>&1";
        const int rc = std::system(cmd.c_str());
        std::ifstream in(log);
        const std::string messages((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_EQ(rc, 0) << name << ":\n" << messages;
    };
    std::set<std::string> done;
    for (const Case& c : all_cases()) {
        const ptx::Module& module = runner::scenario_module(*c.scenario);
        assemble(c.variant->kernel,
                 ptx::instrument_kernel(c.scenario->ptx_source(), module, c.variant->kernel).ptx);
        ptx::InstrumentOptions per_thread;
        per_thread.warp_aggregated = false;
        if (done.insert(c.scenario->id).second)
            assemble(
                c.variant->kernel + "_per_thread",
                ptx::instrument_kernel(c.scenario->ptx_source(), module, c.variant->kernel, per_thread).ptx);
    }
    const ptx::Module hand = ptx::parse_module(kHandWritten, "hand.ptx");
    assemble("hand", ptx::instrument_kernel(kHandWritten, hand, "generic_and_guarded").ptx);
    std::filesystem::remove_all(dir);
}

} // namespace
} // namespace synclab
