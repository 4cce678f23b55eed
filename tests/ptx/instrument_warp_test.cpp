// The PTX rewriter and warp collectives (bar.warp.sync, shfl.sync, vote.sync): the text it writes
// around them (the members computed before the instruction without a branch, the record after it),
// and, run in the simulator (which executes the recording code like any other PTX), the events it
// records: one per member lane, with the member mask, shfl's source lane and the lane's result.
// Where ptxas is installed the instrumented kernels must also assemble for sm_90.
#include "ptx_test_util.h"
#include "ptx/ptxas_check.h"

#include "ptx/instrument.h"
#include "sim/simulator.h"
#include "trace/trace_buffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <sstream>
#include <tuple>

namespace synclab::ptx {
namespace {

using trace::Collective;
using trace::EventKind;
using trace::kNoLane;

// Every lane computes a = lane * 3 + 1, then shuffles it in each mode (one with d the same register
// as b, one with a segmented clamp: width 8), votes on it, and meets at __syncwarp; it stores the
// results so that the test can check the kernel still computes them.
// A kernel of one u32 output per thread: `body` runs with %r1 = %tid.x and %rd2 = the output
// (global), and the thread stores `result`. sm_90: elect.sync needs it.
std::string one_output_kernel(const std::string& name, const std::string& body, const std::string& result) {
    return ".version 9.0\n.target sm_90\n.address_size 64\n\n.visible .entry " + name + "(\n\t.param .u64 " + name +
           "_param_0\n)\n{\n\t.reg .pred \t%p<6>;\n\t.reg .b32 \t%r<20>;\n\t.reg .b64 \t%rd<4>;\n\n\tld.param.u64 \t%rd1, [" +
           name + "_param_0];\n\tcvta.to.global.u64 \t%rd2, %rd1;\n\tmov.u32 \t%r1, %tid.x;\n" + body +
           "\tmul.wide.u32 \t%rd3, %r1, 4;\n\tadd.s64 \t%rd3, %rd2, %rd3;\n\tst.global.u32 \t[%rd3], " + result +
           ";\n\tret;\n}\n";
}

const std::string kWarpKernel = one_output_kernel("warp_ops", R"(	mad.lo.s32 	%r2, %r1, 3, 1;
	shfl.sync.down.b32 	%r3|%p1, %r2, 5, 31, -1;
	mov.u32 	%r4, 3;
	shfl.sync.up.b32 	%r4, %r2, %r4, 0, -1;
	shfl.sync.bfly.b32 	%r5, %r2, 9, 31, -1;
	shfl.sync.idx.b32 	%r6, %r2, 6, 6175, -1;
	setp.gt.u32 	%p2, %r2, 40;
	vote.sync.ballot.b32 	%r7, %p2, -1;
	vote.sync.any.pred 	%p3, %p2, -1;
	selp.u32 	%r8, 1, 0, %p3;
	bar.warp.sync 	-1;
	add.s32 	%r9, %r3, %r4;
	add.s32 	%r9, %r9, %r5;
	add.s32 	%r9, %r9, %r6;
	add.s32 	%r9, %r9, %r7;
	add.s32 	%r9, %r9, %r8;
)", "%r9");

// shfl.sync as the PTX ISA defines it, for lane `lane`: the source lane, or kNoLane where the lane
// keeps its own value.
uint32_t shfl_source(char mode, uint32_t lane, uint32_t b, uint32_t c) {
    const uint32_t bval = b & 31, segmask = (c >> 8) & 31, cval = c & 31;
    const int32_t max_lane = int32_t((lane & segmask) | (cval & ~segmask));
    const int32_t min_lane = int32_t(lane & segmask);
    int32_t j = 0;
    bool in_range = false;
    switch (mode) {
    case 'u':
        j = int32_t(lane) - int32_t(bval);
        in_range = j >= max_lane;
        break;
    case 'd':
        j = int32_t(lane + bval);
        in_range = j <= max_lane;
        break;
    case 'b':
        j = int32_t(lane ^ bval);
        in_range = j <= max_lane;
        break;
    default:
        j = min_lane | int32_t(bval & ~segmask);
        in_range = j <= max_lane;
        break;
    }
    return in_range ? uint32_t(j) : kNoLane;
}

struct Recorded {
    sim::Result result;
    std::vector<trace::Event> events;
    std::vector<uint32_t> out; // the kernel's own output
};

// `scalars`: the kernel's own parameters after the first (a pointer to the u32 output), as zeros.
Recorded run_instrumented(const std::string& text, const std::string& kernel, uint32_t threads,
                          bool aggregated = true, uint32_t scalars = 0) {
    const Module module = parse_module(text, "warp.ptx");
    InstrumentOptions io;
    io.warp_aggregated = aggregated;
    const InstrumentedKernel ik = instrument_kernel(text, module, kernel, io, "warp.ptx");
    const Module out = parse_module(ik.ptx, "warp.ptx");
    const trace::TraceBufferLayout layout = trace::TraceBufferLayout::for_capacity(1u << 16, io.stripes);
    const trace::Dim3 grid{1, 1, 1}, block{threads, 1, 1};
    const uint64_t warps = trace_warp_count(grid, block);
    std::vector<sim::Buffer> buffers;
    buffers.push_back({"out", std::vector<uint8_t>(threads * 4, 0)});
    buffers.push_back({"trace_events", std::vector<uint8_t>(layout.event_bytes(), 0)});
    buffers.push_back({"trace_cursor", std::vector<uint8_t>(layout.cursor_bytes(), 0)});
    buffers.push_back({"trace_warps", std::vector<uint8_t>(warps * 4, 0)});
    buffers.push_back({"trace_drops", std::vector<uint8_t>(warps * 8, 0)});
    std::vector<sim::KernelArg> args = {sim::KernelArg::pointer(0)};
    for (uint32_t k = 0; k < scalars; ++k)
        args.push_back(sim::KernelArg::scalar(0));
    args.insert(args.end(), {sim::KernelArg::pointer(1),
                                        sim::KernelArg::pointer(2),
                                        sim::KernelArg::scalar(layout.stripe_capacity),
                                        sim::KernelArg::pointer(3),
                                        sim::KernelArg::scalar(0),
                             sim::KernelArg::pointer(4),
                             sim::KernelArg::scalar(0)}); // no shared-symbol table
    sim::Options options;
    options.schedule = sim::Schedule::RoundRobin;
    options.record_trace = false;
    Recorded r;
    r.result = sim::simulate(out, kernel, {grid, block, 0}, buffers, args, options, nullptr);
    const std::vector<uint64_t> cursors = trace::read_cursors(buffers[2].bytes.data(), layout);
    r.events = trace::complete_events(reinterpret_cast<const trace::Event*>(buffers[1].bytes.data()), layout,
                                      &cursors);
    r.out.resize(threads);
    std::memcpy(r.out.data(), buffers[0].bytes.data(), threads * 4);
    return r;
}

// The instrumented text: each collective is a recording point, its members are read into the
// recording's own registers before it with no branch in between, and its record follows it.
TEST(InstrumentWarp, CollectivesAreRecordingPointsWrittenAfterTheInstruction) {
    const Module module = parse_module(kWarpKernel, "warp.ptx");
    const InstrumentedKernel ik = instrument_kernel(kWarpKernel, module, "warp_ops");
    const Function& fn = module.require_entry("warp_ops");
    std::vector<uint32_t> collective_sites;
    for (uint32_t i = 0; i < fn.code.size(); ++i)
        if (is_warp_collective(fn.code[i].op)) collective_sites.push_back(i);
    ASSERT_EQ(collective_sites.size(), 7u);
    std::vector<uint32_t> recorded;
    for (const RecordingPoint& p : ik.points)
        if (p.kind == EventKind::WarpCollective) {
            recorded.push_back(p.site);
            EXPECT_FALSE(p.before);
            EXPECT_EQ(p.events, 1u);
        }
    EXPECT_EQ(recorded, collective_sites);

    // Between "members of site N" and the instruction: straight-line code only (no branch, label or
    // guard), writing only the recording's registers.
    for (uint32_t site : collective_sites) {
        SCOPED_TRACE(fn.text[site]);
        const size_t at = ik.ptx.find("// SyncLab trace: members of site " + std::to_string(site) + "\n");
        ASSERT_NE(at, std::string::npos);
        const size_t own = ik.ptx.find(fn.text[site].substr(0, fn.text[site].find(' ')), at);
        ASSERT_NE(own, std::string::npos);
        std::istringstream lines(ik.ptx.substr(at, own - at));
        std::string line;
        std::getline(lines, line); // the comment
        int count = 0;
        while (std::getline(lines, line)) {
            const std::string t = line.substr(line.find_first_not_of(" \t") == std::string::npos
                                                  ? line.size()
                                                  : line.find_first_not_of(" \t"));
            if (t.empty()) continue;
            ++count;
            EXPECT_EQ(t.find("bra"), std::string::npos) << t;
            EXPECT_NE(t[0], '@') << t;
            EXPECT_NE(t.back(), ':') << t;
            EXPECT_EQ(t.find(' '), t.find(" %sl_")) << "writes a register of the kernel's: " << t;
        }
        EXPECT_GE(count, 2) << "the mask and source lane are read before the instruction";
        // The record is the next thing after the instruction's line.
        const size_t record = ik.ptx.find("// SyncLab trace: warp collective (", own);
        ASSERT_NE(record, std::string::npos);
        const std::string between = ik.ptx.substr(own, record - own);
        EXPECT_EQ(std::count(between.begin(), between.end(), '\n'), 1) << between;
    }
    // The record after each one writes the WarpCollective kind with its Collective in the flags.
    for (const auto& [collective, site] :
         std::map<Collective, uint32_t>{{Collective::Shfl, collective_sites[0]},
                                        {Collective::Vote, collective_sites[4]},
                                        {Collective::WarpSync, collective_sites[6]}}) {
        const uint32_t word = site | uint32_t(EventKind::WarpCollective) << 16 | uint32_t(collective) << 24;
        EXPECT_NE(ik.ptx.find("mov.u32 %sl_r12, " + std::to_string(word)), std::string::npos)
            << trace::to_string(collective);
    }
}

// Run in the simulator: one event per lane and collective, in program order; the mask; shfl's source
// lane as the ISA defines it (and the value the lane got is that lane's a: the simulator's shuffle
// agrees); the ballot's bits, the vote's 0/1; and the kernel still computes what it did.
TEST(InstrumentWarp, RecordsMaskSourceLaneAndResultPerLane) {
    for (const bool aggregated : {true, false}) {
        for (const uint32_t threads : {32u, 64u}) {
            SCOPED_TRACE(std::to_string(threads) + (aggregated ? " threads, warp-aggregated" : " threads"));
            const Recorded r = run_instrumented(kWarpKernel, "warp_ops", threads, aggregated);
            ASSERT_EQ(r.result.status, trace::RunStatus::Ok) << r.result.message;
            std::map<uint32_t, std::vector<trace::Event>> per_thread;
            for (const trace::Event& e : r.events)
                if (e.kind == EventKind::WarpCollective) per_thread[e.thread].push_back(e);
            ASSERT_EQ(per_thread.size(), threads);
            const auto a = [](uint32_t lane) { return lane * 3 + 1; };
            struct Shfl {
                char mode;
                uint32_t b, c;
            };
            const Shfl shuffles[] = {{'d', 5, 31}, {'u', 3, 0}, {'b', 9, 31}, {'i', 6, 6175}};
            for (const auto& [thread, events] : per_thread) {
                SCOPED_TRACE("thread " + std::to_string(thread));
                const uint32_t lane = thread % 32;
                ASSERT_EQ(events.size(), 7u);
                uint32_t ballot = 0;
                for (uint32_t l = 0; l < 32; ++l)
                    if (a(thread - lane + l) > 40) ballot |= 1u << l;
                for (const trace::Event& e : events)
                    EXPECT_EQ(uint32_t(e.address), 0xffffffffu);
                for (int s = 0; s < 4; ++s) {
                    const trace::Event& e = events[size_t(s)];
                    EXPECT_EQ(e.flags, uint8_t(Collective::Shfl));
                    const uint32_t source = shfl_source(shuffles[s].mode, lane, shuffles[s].b, shuffles[s].c);
                    EXPECT_EQ(uint32_t(e.address >> 32), source) << "shuffle " << s;
                    const uint32_t warp_base = thread - lane;
                    EXPECT_EQ(e.value, a(warp_base + (source == kNoLane ? lane : source))) << "shuffle " << s;
                }
                EXPECT_EQ(events[4].flags, uint8_t(Collective::Vote));
                EXPECT_EQ(events[4].value, ballot);
                EXPECT_EQ(uint32_t(events[4].address >> 32), kNoLane);
                EXPECT_EQ(events[5].flags, uint8_t(Collective::Vote));
                EXPECT_EQ(events[5].value, ballot != 0 ? 1u : 0u);
                EXPECT_EQ(events[6].flags, uint8_t(Collective::WarpSync));
                EXPECT_EQ(events[6].value, 0u);
                EXPECT_LT(events[5].time, events[6].time);
            }
            // What the kernel computes, from the events' values (the instrumentation leaves it as it was).
            for (uint32_t t = 0; t < threads; ++t) {
                const auto& ev = per_thread[t];
                uint32_t sum = 0;
                for (int s = 0; s < 6; ++s)
                    sum += ev[size_t(s)].value;
                EXPECT_EQ(r.out[t], sum) << "thread " << t;
            }
        }
    }
}

// d the same register as b (shfl.sync.up %r4, %r2, %r4, ...): the source lane comes from b as it was
// before the instruction overwrote it; a guarded collective records only where its guard holds.
TEST(InstrumentWarp, OperandsOverwrittenByTheResultAndGuards) {
    const std::string text = test::wrap(std::string(test::kRegs) +
                                        "mov.u32 %r1, %laneid;\n"
                                        "mov.u32 %r2, 2;\n"
                                        "shfl.sync.idx.b32 %r2, %r1, %r2, 31, -1;\n"
                                        "setp.lt.u32 %p1, %r1, 16;\n"
                                        "@%p1 bar.warp.sync 65535;\n"
                                        "ret;\n");
    const Recorded r = run_instrumented(text, "k", 32, true, 1);
    ASSERT_EQ(r.result.status, trace::RunStatus::Ok) << r.result.message;
    uint32_t shfl = 0, sync = 0;
    for (const trace::Event& e : r.events) {
        if (e.kind != EventKind::WarpCollective) continue;
        if (e.flags == uint8_t(Collective::Shfl)) {
            ++shfl;
            EXPECT_EQ(uint32_t(e.address >> 32), 2u) << "thread " << e.thread;
            EXPECT_EQ(e.value, 2u);
        } else {
            ++sync;
            EXPECT_EQ(e.flags, uint8_t(Collective::WarpSync));
            EXPECT_EQ(uint32_t(e.address), 0xffffu);
            EXPECT_LT(e.thread, 16u);
        }
    }
    EXPECT_EQ(shfl, 32u);
    EXPECT_EQ(sync, 16u);
}

// redux, match and elect (sm_90), and the kernel above: per thread, the instrumentation records
// the same WarpCollective events (site, mask, source lane, result, collective) as the simulator
// records for the original kernel. elect.sync _|p records the leader's lane as the simulator does.
const std::string kReduxMatchElect = one_output_kernel("rme", R"(	and.b32 	%r2, %r1, 3;
	redux.sync.add.u32 	%r3, %r1, -1;
	redux.sync.max.s32 	%r4, %r2, -1;
	match.any.sync.b32 	%r5, %r2, -1;
	elect.sync 	%r6|%p1, -1;
	elect.sync 	_|%p2, -1;
	selp.u32 	%r7, 1, 0, %p2;
	add.s32 	%r8, %r3, %r4;
	add.s32 	%r8, %r8, %r5;
	add.s32 	%r8, %r8, %r6;
	add.s32 	%r8, %r8, %r7;
)", "%r8");

using Key = std::tuple<uint16_t, uint64_t, uint32_t, uint8_t>; // site, address, value, flags

std::map<uint32_t, std::vector<Key>> collectives_per_thread(const std::vector<trace::Event>& events) {
    std::map<uint32_t, std::vector<Key>> m;
    for (const trace::Event& e : events)
        if (e.kind == EventKind::WarpCollective) m[e.thread].push_back({e.site, e.address, e.value, e.flags});
    return m;
}

TEST(InstrumentWarp, RecordsWhatTheSimulatorRecords) {
    for (const auto& [text, kernel] : {std::pair{kWarpKernel, "warp_ops"}, std::pair{kReduxMatchElect, "rme"}}) {
        for (const uint32_t threads : {32u, 64u}) {
            SCOPED_TRACE(std::string(kernel) + ", " + std::to_string(threads) + " threads");
            const Module module = parse_module(text, "warp.ptx");
            std::vector<sim::Buffer> buffers = {{"out", std::vector<uint8_t>(threads * 4, 0)}};
            sim::Options options;
            options.schedule = sim::Schedule::RoundRobin;
            trace::Trace own;
            const sim::Result plain = sim::simulate(module, kernel, {{1, 1, 1}, {threads, 1, 1}, 0}, buffers,
                                                    {sim::KernelArg::pointer(0)}, options, &own);
            ASSERT_EQ(plain.status, trace::RunStatus::Ok) << plain.message;
            const auto want = collectives_per_thread(own.events);
            ASSERT_EQ(want.size(), threads);
            const Recorded r = run_instrumented(text, kernel, threads);
            ASSERT_EQ(r.result.status, trace::RunStatus::Ok) << r.result.message;
            EXPECT_EQ(collectives_per_thread(r.events), want);
            std::vector<uint32_t> plain_out(threads);
            std::memcpy(plain_out.data(), buffers[0].bytes.data(), threads * 4);
            EXPECT_EQ(r.out, plain_out);
        }
    }
}

// ptxas accepts the rewritten kernels (the shuffles of the samples and of this file, both recording
// modes): what the lead's GPU run will load.
TEST(InstrumentWarp, InstrumentedShufflesAssembleWithPtxas) {
    const test::PtxasCheck ptxas("warp-ptxas");
    if (!ptxas.available()) GTEST_SKIP() << "no ptxas (CUDA toolkit) on this machine";
    const std::string sample = test::read_file(test::data_path("warp_sync.ptx"));
    const struct {
        const char* name;
        const std::string& text;
    } kernels[] = {{"warp_ops", kWarpKernel}, {"warp", sample}, {"fences", sample}, {"rme", kReduxMatchElect}};
    for (const bool aggregated : {true, false}) {
        InstrumentOptions io;
        io.warp_aggregated = aggregated;
        for (const auto& k : kernels)
            ptxas.assemble(std::string(k.name) + (aggregated ? "" : "_per_thread"),
                           instrument_kernel(k.text, parse_module(k.text, "warp.ptx"), k.name, io).ptx);
    }
}

} // namespace
} // namespace synclab::ptx
