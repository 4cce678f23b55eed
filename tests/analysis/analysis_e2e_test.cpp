// End to end: the kernels of data/global_races.cu, data/warp_divergence.cu, data/fences.cu and
// data/scoped_atomics.cu (compiled PTX, plain C++ names mangled) run in the simulator under every
// schedule and a few seeds, then analyze() must give what each kernel's comment says: a finding that must fire, and near-twins that stay
// silent. Also: findings merged over --reps keep count and message consistent.
#include "analysis/findings.h"
#include "gpu/gpu_run.h"
#include "ptx/instrument.h"
#include "ptx/parser.h"
#include "runner/runner.h"
#include "scenario/scenario.h"
#include "sim/simulator.h"
#include "trace/trace_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace synclab::analysis {
namespace {

using launch::Buffer;
using launch::KernelArg;
using launch::LaunchConfig;

std::string read_file(const std::string& name) {
    std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/tests/analysis/data/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

const ptx::Module& module(const std::string& name) {
    static std::map<std::string, ptx::Module> modules;
    auto it = modules.find(name);
    if (it == modules.end())
        it = modules.emplace(name, ptx::parse_module(read_file(name + ".ptx"), name + ".ptx")).first;
    return it->second;
}

// The text of 1-based line `line` of data/<name>.cu.
std::string source_line(const std::string& name, uint32_t line) {
    std::istringstream in(read_file(name + ".cu"));
    std::string text;
    for (uint32_t i = 0; i < line && std::getline(in, text); ++i) {
    }
    return text;
}

Buffer zeros(const std::string& name, size_t words) {
    Buffer b;
    b.name = name;
    b.bytes.assign(words * 4, 0);
    return b;
}

struct KernelRun {
    trace::Trace trace;
    std::vector<Finding> findings;
    std::vector<Buffer> buffers;
};

// Runs `kernel` of data/<file>.ptx over `grid` blocks of `block` threads with `words`-word zeroed
// buffers (one per pointer parameter) and the scalar `n` last when given.
KernelRun run(const std::string& file, const std::string& kernel, uint32_t grid, uint32_t block,
              std::vector<size_t> words, sim::Schedule schedule, uint64_t seed, int64_t n = -1,
              launch::MemoryModel memory = launch::MemoryModel::Sc) {
    KernelRun r;
    std::vector<KernelArg> args;
    for (size_t i = 0; i < words.size(); ++i) {
        r.buffers.push_back(zeros("b" + std::to_string(i), words[i]));
        args.push_back(KernelArg::pointer(uint32_t(i)));
    }
    if (n >= 0) args.push_back(KernelArg::scalar(uint64_t(n)));
    LaunchConfig launch;
    launch.grid = {grid, 1, 1};
    launch.block = {block, 1, 1};
    sim::Options options;
    options.schedule = schedule;
    options.seed = seed;
    options.memory = memory;
    const sim::Result result =
        sim::simulate(module(file), kernel, launch, r.buffers, args, options, &r.trace);
    EXPECT_EQ(result.status, trace::RunStatus::Ok) << kernel << ": " << result.message;
    r.findings = analyze(r.trace);
    return r;
}

// A trace as a traced GPU launch makes it, without a GPU: the kernel instrumented for tracing
// (ptx/instrument.h) runs in the simulator, which executes the recording code like any other PTX;
// the events are read back from the trace buffer's stripes, merged by %globaltimer, and the thread
// table is built from them as the GPU runner does (gpu::thread_table). Barrier phase numbers count
// each thread's own barriers, as on the GPU.
KernelRun run_gpu_format(const std::string& file, const std::string& kernel, uint32_t grid, uint32_t block,
                         std::vector<size_t> words, sim::Schedule schedule, uint64_t seed, int64_t n = -1) {
    KernelRun r;
    const std::string text = read_file(file + ".ptx");
    const ptx::InstrumentedKernel ik = ptx::instrument_kernel(text, module(file), kernel);
    const ptx::Module traced = ptx::parse_module(ik.ptx, file + ".traced.ptx");
    std::vector<KernelArg> args;
    for (size_t i = 0; i < words.size(); ++i) {
        r.buffers.push_back(zeros("b" + std::to_string(i), words[i]));
        args.push_back(KernelArg::pointer(uint32_t(i)));
    }
    if (n >= 0) args.push_back(KernelArg::scalar(uint64_t(n)));
    LaunchConfig launch;
    launch.grid = {grid, 1, 1};
    launch.block = {block, 1, 1};
    const trace::TraceBufferLayout layout =
        trace::TraceBufferLayout::for_capacity(1u << 20, trace::kDefaultStripes);
    const uint32_t own = uint32_t(r.buffers.size());
    const uint64_t warps = ptx::trace_warp_count(launch.grid, launch.block);
    r.buffers.push_back({"trace_events", std::vector<uint8_t>(layout.event_bytes(), 0)});
    r.buffers.push_back({"trace_cursor", std::vector<uint8_t>(layout.cursor_bytes(), 0)});
    r.buffers.push_back({"trace_warps", std::vector<uint8_t>(warps * 4, 0)});
    r.buffers.push_back({"trace_drops", std::vector<uint8_t>(warps * 8, 0)});
    args.push_back(KernelArg::pointer(own));
    args.push_back(KernelArg::pointer(own + 1));
    args.push_back(KernelArg::scalar(layout.stripe_capacity));
    args.push_back(KernelArg::pointer(own + 2));
    args.push_back(KernelArg::scalar(0)); // no block table: every block records, rank = block index
    args.push_back(KernelArg::pointer(own + 3));
    args.push_back(KernelArg::scalar(0)); // no shared-symbol table
    sim::Options options;
    options.schedule = schedule;
    options.seed = seed;
    options.record_trace = false;
    const sim::Result result = sim::simulate(traced, kernel, launch, r.buffers, args, options, nullptr);
    EXPECT_EQ(result.status, trace::RunStatus::Ok) << kernel << ": " << result.message;
    const std::vector<uint64_t> cursors = trace::read_cursors(r.buffers[own + 1].bytes.data(), layout);
    EXPECT_EQ(trace::cursor_totals(cursors, layout).dropped, 0u);
    r.trace.events = trace::complete_events(
        reinterpret_cast<const trace::Event*>(r.buffers[own].bytes.data()), layout, &cursors);
    trace::merge_by_time(r.trace.events);
    std::vector<uint32_t> warp_table(warps);
    std::memcpy(warp_table.data(), r.buffers[own + 2].bytes.data(), warps * 4);
    r.trace.meta.grid = launch.grid;
    r.trace.meta.block = launch.block;
    r.trace.threads = gpu::thread_table(launch.grid, launch.block, r.trace.events, warp_table, true);
    const ptx::Function* fn = nullptr;
    for (const ptx::Function& f : module(file).functions)
        if (f.name == kernel) fn = &f;
    EXPECT_NE(fn, nullptr);
    if (fn == nullptr) return r;
    for (size_t i = 0; i < fn->code.size(); ++i)
        r.trace.sites.push_back(
            {fn->code[i].ptx_line, fn->code[i].source_line, i < fn->text.size() ? fn->text[i] : ""});
    r.buffers.resize(own);
    r.findings = analyze(r.trace);
    return r;
}

std::string dump(const std::vector<Finding>& findings) {
    std::string out = std::to_string(findings.size()) + " finding(s):";
    for (const Finding& f : findings)
        out += "\n  [" + std::string(to_string(f.kind)) + " " + to_string(f.hazard) + "] " + f.message;
    return out;
}

constexpr sim::Schedule kSchedules[] = {sim::Schedule::RoundRobin, sim::Schedule::Random,
                                        sim::Schedule::Adversarial};
constexpr uint64_t kSeeds[] = {1, 2, 3};

// What one kernel must show: races on global with one of `hazards` (none: no race), and whether
// a lost update must be found. Every other kind must stay silent.
struct GlobalCase {
    const char* kernel;
    uint32_t grid;
    std::vector<size_t> words;
    int64_t n;
    std::vector<Hazard> hazards; // the race findings must have these hazards (empty: no race)
    bool lost_update;
};

std::vector<GlobalCase> global_cases() {
    return {
        {"_Z15read_next_blockIiEvPT_S1_i", 3, {300, 300}, 300, {Hazard::RAW, Hazard::WAR}, false},
        // Which hazard a pair shows depends on which warp ran first (schedule): either is right.
        {"_Z20neighbour_no_barrierPiS_", 3, {300, 300}, -1, {Hazard::RAW, Hazard::WAR}, false},
        {"_Z22neighbour_with_barrierPiS_", 3, {300, 300}, -1, {}, false},
        {"_Z19shift_left_in_placePi", 1, {100}, -1, {Hazard::WAR, Hazard::RAW}, false},
        {"_Z27every_block_writes_the_samePi", 3, {100}, -1, {Hazard::WAW}, false},
        {"_Z18count_with_atomicsPj", 3, {1}, -1, {}, false},
        {"_Z18increment_mod_fourPi", 3, {4}, -1, {}, true},
        {"_Z20slot_from_atomic_maxPiS_", 3, {1, 8}, -1, {Hazard::WAW}, false},
        {"_Z20slot_from_atomic_addPiS_", 3, {1, 300}, -1, {}, false},
    };
}

// Verdict, per kernel of global_races.cu: the race on global memory it has (RAW across blocks, RAW
// / WAR inside a block without a barrier, WAW of several blocks, WAW on an atomic's slot), nothing
// for its near-twins (a barrier, atomics only, atomicAdd slots), and a lost update with no race.
TEST(analysis_e2e, GlobalRacesAsEachKernelSays) {
    const std::vector<GlobalCase> cases = global_cases();
    for (const GlobalCase& c : cases) {
        for (const sim::Schedule schedule : kSchedules) {
            for (const uint64_t seed : kSeeds) {
                const KernelRun r = run("global_races", c.kernel, c.grid, 100, c.words, schedule, seed, c.n);
                const std::string where = std::string(c.kernel) + " schedule " + sim::to_string(schedule) +
                                          " seed " + std::to_string(seed) + ": " + dump(r.findings);
                size_t races = 0, lost = 0;
                for (const Finding& f : r.findings) {
                    if (f.kind == FindingKind::LostUpdate) {
                        ++lost;
                        continue;
                    }
                    if (f.kind == FindingKind::Contention) continue; // performance, not a verdict
                    ASSERT_EQ(f.kind, FindingKind::Race) << where;
                    ++races;
                    EXPECT_EQ(f.space, trace::Space::Global) << where;
                    EXPECT_NE(std::find(c.hazards.begin(), c.hazards.end(), f.hazard), c.hazards.end())
                        << where;
                    ASSERT_FALSE(f.lines.empty()) << where;
                    for (uint32_t line : f.lines)
                        EXPECT_NE(source_line("global_races", line).find("g_"), std::string::npos)
                            << where << ": line " << line << " is no global access";
                }
                EXPECT_EQ(races > 0, !c.hazards.empty()) << where;
                EXPECT_EQ(lost > 0, c.lost_update) << where;
            }
        }
    }
}

// Verdict: atomics count right (300) and the atomic slots are all distinct: the silence of those
// kernels is not for lack of the accesses.
TEST(analysis_e2e, AtomicKernelsDoTheirJob) {
    const KernelRun count =
        run("global_races", "_Z18count_with_atomicsPj", 3, 100, {1}, sim::Schedule::Random, 1);
    uint32_t total = 0;
    std::memcpy(&total, count.buffers[0].bytes.data(), 4);
    EXPECT_EQ(total, 300u);
    const KernelRun slots =
        run("global_races", "_Z20slot_from_atomic_addPiS_", 3, 100, {1, 300}, sim::Schedule::Random, 1);
    uint32_t next = 0;
    std::memcpy(&next, slots.buffers[0].bytes.data(), 4);
    EXPECT_EQ(next, 300u);
}

// Verdict, per kernel of warp_divergence.cu: part of a warp at a __syncthreads() while its other
// lanes go on, or return -> barrier_divergence at the __syncthreads() line, naming a warp; whole
// warps that return first, and a block-uniform condition -> no finding at all.
TEST(analysis_e2e, WarpDivergenceAsEachKernelSays) {
    // Kernel, and the warp phases that must show the divergence (0: none) over 2 blocks: warp 0 of
    // each block, or warps 0-2 (warp 3 has no lane >= 24).
    const std::pair<const char*, uint64_t> cases[] = {
        {"_Z20partial_warp_barrierPKiPi", 2}, {"_Z19upper_lanes_barrierPKiPi", 6},
        {"_Z18early_return_lanesPKiPi", 6},   {"_Z18whole_warps_returnPKiPi", 0},
        {"_Z17uniform_conditionPKiPi", 0},
    };
    for (const auto& [kernel, warp_phases] : cases) {
        const bool divergent = warp_phases > 0;
        for (const sim::Schedule schedule : kSchedules) {
            for (const uint64_t seed : kSeeds) {
                const KernelRun r = run("warp_divergence", kernel, 2, 100, {200, 200}, schedule, seed);
                const std::string where = std::string(kernel) + " schedule " + sim::to_string(schedule) +
                                          " seed " + std::to_string(seed) + ": " + dump(r.findings);
                if (!divergent) {
                    EXPECT_TRUE(r.findings.empty()) << where;
                    continue;
                }
                ASSERT_FALSE(r.findings.empty()) << where;
                // Under independent thread scheduling a random schedule may run part of a warp's
                // lanes ahead, so one run's divergent phases can name different lane sets and stay
                // separate findings: together they count every divergent warp phase once.
                uint64_t phases = 0;
                for (const Finding& f : r.findings) {
                    ASSERT_EQ(f.kind, FindingKind::BarrierDivergence) << where;
                    EXPECT_TRUE(f.message.starts_with("divergent threads in warp ")) << where;
                    ASSERT_FALSE(f.lines.empty()) << where;
                    EXPECT_NE(source_line("warp_divergence", f.lines[0]).find("__syncthreads()"),
                              std::string::npos)
                        << where << ": line " << f.lines[0];
                    phases += f.count;
                }
                EXPECT_EQ(phases, warp_phases) << where;
            }
        }
    }
}

// Verdict: `--reps 4` of the lost_update scenario: the merged finding's message states the merged
// count (with thousands separators), the lost updates and the number of runs.
TEST(analysis_e2e, MergedRepetitionsKeepCountAndMessageConsistent) {
    const scenario::Scenario* s = scenario::find_scenario("lost_update");
    ASSERT_NE(s, nullptr);
    const scenario::Variant* v = s->find_variant("plain_increment");
    ASSERT_NE(v, nullptr);
    runner::RunOptions options;
    options.reps = 4;
    options.schedule = sim::Schedule::Random;
    const runner::RunSummary summary = runner::run_scenario(*s, *v, options);
    ASSERT_EQ(summary.reps_run, 4u);
    ASSERT_FALSE(summary.findings.empty());
    for (const Finding& f : summary.findings) {
        EXPECT_EQ(f.runs, 4u) << f.message;
        EXPECT_NE(f.message.find("(" + with_thousands(f.count) + " "), std::string::npos) << f.message;
        EXPECT_NE(f.message.find(", " + with_thousands(f.lost) + " update"), std::string::npos) << f.message;
        EXPECT_EQ(f.harmful, f.lost) << "a lost update's harm is its lost updates, added over the runs";
        EXPECT_NE(f.message.find("in 4 runs)"), std::string::npos) << f.message;
    }
}

// Verdict: the same kernels traced as on a GPU (instrumented PTX run in the simulator: events
// merged by %globaltimer, phase numbers per thread, thread table from the events) give the same
// verdicts: races on global where the kernel has them, none for the near-twins, a lost update with
// no race, the warp-level divergence and its legal twins.
TEST(analysis_e2e, GpuFormatTracesGiveTheSameVerdicts) {
    auto kinds = [](const std::vector<Finding>& findings) {
        std::vector<FindingKind> out;
        for (const Finding& f : findings)
            if (std::find(out.begin(), out.end(), f.kind) == out.end()) out.push_back(f.kind);
        return out;
    };
    for (const sim::Schedule schedule : kSchedules) {
        for (const GlobalCase& c : global_cases()) {
            const KernelRun r =
                run_gpu_format("global_races", c.kernel, c.grid, 100, c.words, schedule, 4, c.n);
            std::vector<FindingKind> expected;
            if (!c.hazards.empty()) expected.push_back(FindingKind::Race);
            if (c.lost_update) expected.push_back(FindingKind::LostUpdate);
            EXPECT_EQ(kinds(r.findings), expected)
                << c.kernel << " " << sim::to_string(schedule) << ": " << dump(r.findings);
        }
        const std::pair<const char*, bool> warp_cases[] = {
            {"_Z20partial_warp_barrierPKiPi", true}, {"_Z19upper_lanes_barrierPKiPi", true},
            {"_Z18early_return_lanesPKiPi", true},   {"_Z18whole_warps_returnPKiPi", false},
            {"_Z17uniform_conditionPKiPi", false},
        };
        for (const auto& [kernel, divergent] : warp_cases) {
            const KernelRun r = run_gpu_format("warp_divergence", kernel, 2, 100, {200, 200}, schedule, 4);
            const std::vector<FindingKind> expected =
                divergent ? std::vector<FindingKind>{FindingKind::BarrierDivergence}
                          : std::vector<FindingKind>{};
            EXPECT_EQ(kinds(r.findings), expected)
                << kernel << " " << sim::to_string(schedule) << ": " << dump(r.findings);
        }
    }
}

// [SECTION] Fences (data/fences.cu)

// What one kernel of fences.cu must show: a stale_read at these lines (data store, flag write, flag
// read, data read) with these clauses in its message (none: no finding at all), and how many loads
// it counts.
struct FenceCase {
    const char* kernel;
    uint32_t grid;
    std::vector<uint32_t> lines;
    std::vector<std::string> clauses; // each must be in the stale_read's message
    std::vector<std::string> absent;  // none of these may be
    uint64_t count;
};

std::vector<FenceCase> fence_cases() {
    auto writer = [](int data, int flag) {
        return "no fence in the writer between the data store (line " + std::to_string(data) +
               ") and the atomic on the flag (line " + std::to_string(flag) + ")";
    };
    auto reader = [](int flag, int data) {
        return "no fence in the reader between seeing the flag (line " + std::to_string(flag) +
               ") and reading the data (line " + std::to_string(data) + ")";
    };
    const std::string any_writer = "no fence in the writer", any_reader = "no fence in the reader";
    return {
        {"_Z11mp_no_fencePiS_S_", 2, {18, 19, 21, 23}, {writer(18, 19), reader(21, 23)}, {}, 1},
        {"_Z20mp_writer_fence_onlyPiS_S_", 2, {32, 34, 36, 38}, {reader(36, 38)}, {any_writer}, 1},
        {"_Z20mp_reader_fence_onlyPiS_S_", 2, {47, 48, 50, 53}, {writer(47, 48)}, {any_reader}, 1},
        {"_Z14mp_both_fencesPiS_S_", 2, {}, {}, {}, 0},
        {"_Z15mp_block_fencesPiS_S_", 2, {78, 80, 82, 85},
         {"__threadfence_block() (line 79) orders nothing for block 1",
          "__threadfence_block() (line 84) orders nothing for block 0"},
         {"no fence"},
         1},
        {"_Z18mp_release_acquirePiS_S_", 2, {}, {}, {}, 0},
        // The last block reads the 3 partials of the other blocks (its own is program order).
        {"_Z19last_block_no_fencePiPjS_", 4, {113, 114, 118}, {writer(113, 114), reader(114, 118)}, {}, 3},
        {"_Z22last_block_with_fencesPiPjS_", 4, {}, {}, {}, 0},
    };
}

constexpr launch::MemoryModel kMemoryModels[] = {launch::MemoryModel::Sc, launch::MemoryModel::Relaxed};

// Verdict, per kernel of fences.cu, over seeds 1-10 of every schedule and memory model: the
// stale_read its comment names (the missing side, or the block scope), counted once per load of
// data that came after the flag, and nothing else; no finding for the fenced and release/acquire
// variants. Under sc the right values come out (message passing reads 42, the reduction sums 10) and
// no load reads the old value: harmful is 0, and the finding fires all the same. Under relaxed,
// harmful agrees with the output in every run, and some run of each unfenced kernel reads the old
// data (random and adversarial schedules).
TEST(analysis_e2e, FenceKernelsAsEachSays) {
    for (const FenceCase& c : fence_cases()) {
        uint64_t relaxed_harm = 0; // stale loads that read the old data under relaxed, over all runs
        for (const launch::MemoryModel memory : kMemoryModels) {
            for (const sim::Schedule schedule : kSchedules) {
                for (uint64_t seed = 1; seed <= 10; ++seed) {
                    const KernelRun r = run("fences", c.kernel, c.grid, 32, {8, 1, 1}, schedule, seed, -1, memory);
                    const std::string where = std::string(c.kernel) + " " + launch::to_string(memory) + " " +
                                              sim::to_string(schedule) + " seed " + std::to_string(seed) + ": " +
                                              dump(r.findings);
                    if (c.clauses.empty()) {
                        EXPECT_TRUE(r.findings.empty()) << where;
                        int32_t out = 0;
                        std::memcpy(&out, r.buffers[2].bytes.data(), 4);
                        EXPECT_EQ(out, c.grid == 2 ? 42 : 10) << where; // ordered: always right
                        continue;
                    }
                    ASSERT_EQ(r.findings.size(), 1u) << where;
                    const Finding& f = r.findings[0];
                    EXPECT_EQ(f.kind, FindingKind::StaleRead) << where;
                    EXPECT_EQ(f.check, "flag_without_fence") << where;
                    EXPECT_EQ(f.count, c.count) << where;
                    EXPECT_EQ(f.lines, c.lines) << where;
                    for (const std::string& clause : c.clauses)
                        EXPECT_NE(f.message.find(clause), std::string::npos) << where << "\n  missing: " << clause;
                    for (const std::string& clause : c.absent)
                        EXPECT_EQ(f.message.find(clause), std::string::npos) << where << "\n  unexpected: " << clause;
                    // harmful says whether a load read the old data: it agrees with the output
                    // (42 handed over; a total of 10, every partial being positive).
                    int32_t out = 0;
                    std::memcpy(&out, r.buffers[2].bytes.data(), 4);
                    const bool right = out == (c.grid == 2 ? 42 : 10);
                    EXPECT_EQ(f.harmful > 0, !right) << where << "\n  output " << out;
                    if (memory == launch::MemoryModel::Relaxed) relaxed_harm += f.harmful;
                    if (memory == launch::MemoryModel::Sc) {
                        EXPECT_TRUE(right) << where << "\n  output " << out;
                    }
                }
            }
        }
        // The relaxed model shows what the missing ordering allows: some run reads the old data.
        if (!c.clauses.empty()) {
            EXPECT_GT(relaxed_harm, 0u) << c.kernel << ": no relaxed run read the old data";
        }
    }
}

// The same verdicts from traces in the GPU's format (instrumented PTX, events merged by
// %globaltimer): the instrumentation records fences with their scope and the strong and ordered
// flags of each access, and a flag load may come before the write it read (sync_order.h,
// "Observes"). Not the fenced reduction: a GPU trace orders atomics by when each completed, not by
// the order the counter saw them (the ticket each drew is not recorded), so the last block may
// seem to have seen fewer releases than it did (a known limit).
TEST(analysis_e2e, FenceKernelsInGpuFormat) {
    for (const FenceCase& c : fence_cases()) {
        if (std::string(c.kernel) == "_Z22last_block_with_fencesPiPjS_") continue;
        for (const sim::Schedule schedule : kSchedules) {
            const KernelRun r = run_gpu_format("fences", c.kernel, c.grid, 32, {8, 1, 1}, schedule, 4);
            const std::string where = std::string(c.kernel) + " " + sim::to_string(schedule) + ": " + dump(r.findings);
            if (c.clauses.empty()) {
                EXPECT_TRUE(r.findings.empty()) << where;
                continue;
            }
            ASSERT_EQ(r.findings.size(), 1u) << where;
            EXPECT_EQ(r.findings[0].kind, FindingKind::StaleRead) << where;
            EXPECT_EQ(r.findings[0].lines, c.lines) << where;
            for (const std::string& clause : c.clauses)
                EXPECT_NE(r.findings[0].message.find(clause), std::string::npos) << where << "\n  missing: " << clause;
        }
    }
}

// [SECTION] Scoped atomics (data/scoped_atomics.cu)

// What one kernel of scoped_atomics.cu must show: scope races at these lines, each with one of
// `hazards` (which one depends on which block ran first), and no other finding of a bug (no lines:
// none at all; contention may fire, it is a cost); and the buffers it takes.
struct ScopeCase {
    const char* kernel;
    std::vector<size_t> words;
    std::vector<Hazard> hazards;
    std::vector<uint32_t> lines; // sorted
};

std::vector<ScopeCase> scope_cases() {
    return {
        {"_Z15ref_block_scopePi", {1}, {Hazard::WAW}, {12}},
        {"_Z16ref_device_scopePi", {1}, {}, {}},
        {"_Z19builtin_block_scopePi", {1}, {Hazard::WAW}, {25}},
        {"_Z12mixed_scopesPi", {1}, {Hazard::WAW}, {33, 35}},
        {"_Z18shared_block_scopePi", {1}, {}, {}},
        {"_Z28block_counter_read_elsewherePiS_", {1, 1}, {Hazard::RAW, Hazard::WAR}, {59, 62}},
    };
}

std::vector<Finding> bugs(const std::vector<Finding>& findings) {
    std::vector<Finding> out;
    for (const Finding& f : findings)
        if (f.kind != FindingKind::Contention) out.push_back(f);
    return out;
}

// Every finding is a scope race on global memory, at the case's lines, with one of its hazards,
// naming block scope.
void expect_scope_races(const ScopeCase& c, const std::vector<Finding>& found, const std::string& where) {
    ASSERT_FALSE(found.empty()) << where;
    for (const Finding& f : found) {
        EXPECT_EQ(f.check, "scope_race") << where;
        EXPECT_EQ(f.space, trace::Space::Global) << where;
        EXPECT_NE(std::find(c.hazards.begin(), c.hazards.end(), f.hazard), c.hazards.end()) << where;
        std::vector<uint32_t> lines = f.lines;
        std::sort(lines.begin(), lines.end());
        EXPECT_EQ(lines, c.lines) << where;
        EXPECT_NE(f.message.find("block scope (.cta)"), std::string::npos) << where;
    }
}

// Verdict, per kernel of scoped_atomics.cu, over seeds 1-3 of every schedule and both memory models:
// cuda::atomic_ref<int, cuda::thread_scope_block>, the built-in at __NV_THREAD_SCOPE_BLOCK through a
// generic pointer, and one block's atomicAdd_block() beside the others' atomicAdd() give one scope
// race naming the line(s); a device-scope load of a block-scope counter is a RAW or WAR scope race;
// device
// scope, and block scope on __shared__ memory through a generic pointer, give none.
TEST(analysis_e2e, ScopedAtomicsAsEachKernelSays) {
    for (const ScopeCase& c : scope_cases()) {
        for (const launch::MemoryModel memory : kMemoryModels) {
            for (const sim::Schedule schedule : kSchedules) {
                for (const uint64_t seed : kSeeds) {
                    const KernelRun r =
                        run("scoped_atomics", c.kernel, 3, 64, c.words, schedule, seed, -1, memory);
                    const std::string where = std::string(c.kernel) + " " + launch::to_string(memory) + " " +
                                              sim::to_string(schedule) + " seed " + std::to_string(seed) +
                                              ": " + dump(r.findings);
                    const std::vector<Finding> found = bugs(r.findings);
                    if (c.lines.empty()) {
                        EXPECT_TRUE(found.empty()) << where;
                        continue;
                    }
                    expect_scope_races(c, found, where);
                }
            }
        }
    }
}

// The same verdicts from traces in the GPU's format: the instrumentation records each atomic's and
// each strong load's scope, generic ones classified at run time.
TEST(analysis_e2e, ScopedAtomicsInGpuFormat) {
    for (const ScopeCase& c : scope_cases()) {
        for (const sim::Schedule schedule : kSchedules) {
            const KernelRun r = run_gpu_format("scoped_atomics", c.kernel, 3, 64, c.words, schedule, 4);
            const std::string where =
                std::string(c.kernel) + " " + sim::to_string(schedule) + ": " + dump(r.findings);
            const std::vector<Finding> found = bugs(r.findings);
            if (c.lines.empty()) {
                EXPECT_TRUE(found.empty()) << where;
                continue;
            }
            expect_scope_races(c, found, where);
        }
    }
}

} // namespace
} // namespace synclab::analysis
