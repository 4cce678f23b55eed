// Litmus tests for the simulator's memory models: the tests (MP, SB, LB, CoRR, IRIW, 2+2W, WRC) as
// data, a generator that writes the PTX of (test, variant), the SC outcome set computed here by
// enumerating interleavings (independent of the simulator), and the runners that collect the
// simulator's outcome sets (exhaustive and sampled). Shared by litmus_test.cpp and
// tests/bench/bench_litmus.cpp.
//
// [SECTION] Tests as data
// [SECTION] Variants
// [SECTION] PTX generator
// [SECTION] SC outcomes (reference interleavings)
// [SECTION] Running a test in the simulator
#pragma once

#include "launch/launch.h"
#include "ptx/parser.h"
#include "sim/simulator.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::litmus {

// [SECTION] Tests as data

// One memory operation of a litmus thread. Locations are numbered 0 (x), 1 (y); every location
// starts at 0. Every access is strong: the generator emits ld.relaxed.gpu / st.relaxed.gpu (see
// emit_ptx for why), upgraded to st.release / ld.acquire where `upgrade` is set and the variant is
// a release/acquire one.
struct Op {
    enum Kind : uint8_t { Load, Store } kind = Load;
    uint32_t loc = 0;
    uint32_t value = 0; // Store: the value written
    uint32_t reg = 0;   // Load: the output slot (r0, r1, ...) it fills
    bool upgrade = false; // the release/acquire variants make this access st.release / ld.acquire
};

struct Test {
    std::string name;                     // "MP"
    std::vector<std::vector<Op>> threads; // thread r is role r
    uint32_t regs = 0;                    // output registers r0 .. r(regs-1)
    std::vector<uint32_t> finals;         // locations whose final values follow the registers
    std::vector<uint32_t> weak;           // the weak (non-SC) outcome: registers, then finals
    std::string shape;                    // the test in one line, for messages
};

inline Op ld(uint32_t loc, uint32_t reg, bool upgrade = false) { return {Op::Load, loc, 0, reg, upgrade}; }
inline Op st(uint32_t loc, uint32_t value, bool upgrade = false) { return {Op::Store, loc, value, 0, upgrade}; }

constexpr uint32_t X = 0, Y = 1;

// The seven tests. `upgrade` marks the accesses a release/acquire variant strengthens: the write
// that publishes (release) and the read that observes it (acquire).
inline const std::vector<Test>& tests() {
    static const std::vector<Test> all = {
        {"MP", {{st(X, 1), st(Y, 1, true)}, {ld(Y, 0, true), ld(X, 1)}}, 2, {}, {1, 0},
         "T0: x=1; y=1 | T1: r0=y; r1=x  (weak: r0=1 r1=0)"},
        {"SB", {{st(X, 1, true), ld(Y, 0, true)}, {st(Y, 1, true), ld(X, 1, true)}}, 2, {}, {0, 0},
         "T0: x=1; r0=y | T1: y=1; r1=x  (weak: r0=0 r1=0)"},
        {"LB", {{ld(X, 0, true), st(Y, 1, true)}, {ld(Y, 1, true), st(X, 1, true)}}, 2, {}, {1, 1},
         "T0: r0=x; y=1 | T1: r1=y; x=1  (weak: r0=1 r1=1)"},
        {"CoRR", {{st(X, 1, true)}, {ld(X, 0, true), ld(X, 1)}}, 2, {X}, {1, 0, 1},
         "T0: x=1 | T1: r0=x; r1=x  (weak: r0=1 r1=0; final x)"},
        {"IRIW",
         {{st(X, 1, true)}, {st(Y, 1, true)}, {ld(X, 0, true), ld(Y, 1)}, {ld(Y, 2, true), ld(X, 3)}},
         4, {}, {1, 0, 1, 0},
         "T0: x=1 | T1: y=1 | T2: r0=x; r1=y | T3: r2=y; r3=x  (weak: 1,0,1,0)"},
        {"2+2W", {{st(X, 1), st(Y, 2, true)}, {st(Y, 1), st(X, 2, true)}}, 0, {X, Y}, {1, 1},
         "T0: x=1; y=2 | T1: y=1; x=2  (weak: final x=1 y=1)"},
        {"WRC", {{st(X, 1, true)}, {ld(X, 0), st(Y, 1, true)}, {ld(Y, 1, true), ld(X, 2)}}, 3, {}, {1, 1, 0},
         "T0: x=1 | T1: r0=x; y=1 | T2: r1=y; r2=x  (weak: 1,1,0)"},
    };
    return all;
}

// By value: a reference parameter bound to a temporary would make g++ 13 warn that the returned
// reference may dangle (-Wdangling-reference), though it refers into tests().
inline const Test& find_test(std::string_view name) {
    for (const Test& t : tests())
        if (t.name == name) return t;
    throw std::invalid_argument("no litmus test named '" + std::string(name) + "'");
}

// [SECTION] Variants

enum class Variant : uint8_t { NoFence, AcqRelCta, AcqRelGpu, ScCta, ScGpu, RelAcqCta, RelAcqGpu };
inline constexpr Variant kVariants[] = {Variant::NoFence,   Variant::AcqRelCta, Variant::AcqRelGpu, Variant::ScCta,
                                        Variant::ScGpu,     Variant::RelAcqCta, Variant::RelAcqGpu};

inline const char* to_string(Variant v) {
    switch (v) {
    case Variant::NoFence: return "no_fence";
    case Variant::AcqRelCta: return "fence_acq_rel_cta";
    case Variant::AcqRelGpu: return "fence_acq_rel_gpu";
    case Variant::ScCta: return "fence_sc_cta";
    case Variant::ScGpu: return "fence_sc_gpu";
    case Variant::RelAcqCta: return "release_acquire_cta";
    case Variant::RelAcqGpu: return "release_acquire_gpu";
    }
    return "?";
}

// Where the roles run: role r is thread 0 of warp r of one block, or thread 0 of block r.
enum class Placement : uint8_t { SameBlock, DifferentBlocks };
inline const char* to_string(Placement p) { return p == Placement::SameBlock ? "same_block" : "different_blocks"; }

// [SECTION] PTX generator

// The scope of an access: release/acquire accesses take the variant's scope; relaxed ones are .gpu.
inline const char* scope_for(bool upgraded, const char* variant_scope) { return upgraded ? variant_scope : "gpu"; }

// The PTX of one (test, variant). One kernel serves both placements: role = %ctaid.x + %tid.x / 32,
// and every lane but lane 0 of its warp exits at once (same block: 1 block of 32*R threads;
// different blocks: R blocks of 32 threads).
//
// Accesses: ld.relaxed.gpu / st.relaxed.gpu, not plain ld/st. The verdicts rest on the accesses
// being morally strong (PTX ISA, "Morally strong operations": both strong, each in the other's
// scope); plain (weak) conflicting accesses are a data race and PTX promises nothing for them, so
// even CoRR would be allowed and no fence could forbid anything. .gpu scope contains both
// placements, so the only thing that changes the verdict is the fence or release/acquire under test
// and its scope. Locations sit 128 bytes apart (own cache line each). The results go to `out` as
// u32 each, one store per thread at the end (.v2 where aligned) to keep the exhaustive search small.
inline std::string emit_ptx(const Test& test, Variant variant) {
    const bool release_acquire = variant == Variant::RelAcqCta || variant == Variant::RelAcqGpu;
    const char* scope =
        (variant == Variant::AcqRelCta || variant == Variant::ScCta || variant == Variant::RelAcqCta) ? "cta" : "gpu";
    std::string fence;
    if (variant == Variant::AcqRelCta || variant == Variant::AcqRelGpu) fence = std::string("fence.acq_rel.") + scope + ";";
    if (variant == Variant::ScCta || variant == Variant::ScGpu) fence = std::string("fence.sc.") + scope + ";";

    std::string p;
    p += "// litmus " + test.name + " / " + to_string(variant) + ": " + test.shape + "\n";
    p += ".version 8.0\n.target sm_90\n.address_size 64\n\n";
    p += ".visible .entry litmus(\n\t.param .u64 litmus_param_mem,\n\t.param .u64 litmus_param_out\n)\n{\n";
    p += "\t.reg .pred %p<4>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<8>;\n";
    p += "\tld.param.u64 %rd1, [litmus_param_mem];\n\tld.param.u64 %rd2, [litmus_param_out];\n";
    p += "\tcvta.to.global.u64 %rd3, %rd1;\n\tcvta.to.global.u64 %rd4, %rd2;\n";
    p += "\tmov.u32 %r1, %tid.x;\n\tand.b32 %r2, %r1, 31;\n\tsetp.ne.u32 %p1, %r2, 0;\n\t@%p1 bra DONE;\n";
    p += "\tshr.u32 %r3, %r1, 5;\n\tmov.u32 %r4, %ctaid.x;\n\tadd.u32 %r5, %r4, %r3;\n";
    for (size_t r = 0; r < test.threads.size(); ++r) {
        p += "\tsetp.eq.u32 %p2, %r5, " + std::to_string(r) + ";\n\t@%p2 bra ROLE" + std::to_string(r) + ";\n";
    }
    p += "\tbra DONE;\n";
    for (size_t r = 0; r < test.threads.size(); ++r) {
        p += "ROLE" + std::to_string(r) + ":\n";
        const std::vector<Op>& ops = test.threads[r];
        std::vector<uint32_t> loaded;
        for (size_t i = 0; i < ops.size(); ++i) {
            const Op& op = ops[i];
            if (i > 0 && !fence.empty()) p += "\t" + fence + "\n";
            const std::string addr = "[%rd3+" + std::to_string(op.loc * 128) + "]";
            const bool up = release_acquire && op.upgrade;
            if (op.kind == Op::Store) {
                p += "\tmov.u32 %r6, " + std::to_string(op.value) + ";\n";
                p += std::string("\tst.") + (up ? "release." : "relaxed.") + scope_for(up, scope) + ".global.u32 " + addr +
                     ", %r6;\n";
            } else {
                p += std::string("\tld.") + (up ? "acquire." : "relaxed.") + scope_for(up, scope) + ".global.u32 %r" +
                     std::to_string(10 + op.reg) + ", " + addr + ";\n";
                loaded.push_back(op.reg);
            }
        }
        // The results: consecutive registers starting at an even slot go out as one .v2 store.
        for (size_t i = 0; i < loaded.size();) {
            const uint32_t reg = loaded[i];
            const std::string at = "[%rd4+" + std::to_string(reg * 4) + "]";
            if (i + 1 < loaded.size() && loaded[i + 1] == reg + 1 && reg % 2 == 0) {
                p += "\tst.global.v2.u32 " + at + ", {%r" + std::to_string(10 + reg) + ", %r" +
                     std::to_string(11 + reg) + "};\n";
                i += 2;
            } else {
                p += "\tst.global.u32 " + at + ", %r" + std::to_string(10 + reg) + ";\n";
                i += 1;
            }
        }
        p += "\tbra DONE;\n";
    }
    p += "DONE:\n\tret;\n}\n";
    return p;
}

inline uint32_t locations(const Test& test) {
    uint32_t n = 0;
    for (const auto& t : test.threads)
        for (const Op& op : t)
            n = std::max(n, op.loc + 1);
    return n;
}

// [SECTION] SC outcomes (reference interleavings)

using Outcome = std::string; // launch::format_values of registers then final values: "1,0"

inline Outcome format_outcome(const std::vector<uint32_t>& values) {
    std::vector<uint8_t> bytes(values.size() * 4);
    if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    return launch::format_values(bytes, launch::ElemType::U32, 0, values.size());
}

// Every outcome of some interleaving of the threads' operations over one memory (sequential
// consistency), computed by brute force: the reference the simulator is checked against.
inline std::set<Outcome> sc_outcomes(const Test& test) {
    std::set<Outcome> out;
    const size_t n = test.threads.size();
    std::vector<size_t> pc(n, 0);
    std::vector<uint32_t> mem(locations(test), 0), regs(test.regs, 0);
    std::function<void()> go = [&] {
        bool any = false;
        for (size_t t = 0; t < n; ++t) {
            if (pc[t] == test.threads[t].size()) continue;
            any = true;
            const Op& op = test.threads[t][pc[t]];
            const uint32_t saved_mem = mem[op.loc];
            const uint32_t saved_reg = op.kind == Op::Load ? regs[op.reg] : 0;
            if (op.kind == Op::Store) mem[op.loc] = op.value;
            else regs[op.reg] = mem[op.loc];
            ++pc[t];
            go();
            --pc[t];
            mem[op.loc] = saved_mem;
            if (op.kind == Op::Load) regs[op.reg] = saved_reg;
        }
        if (!any) {
            std::vector<uint32_t> v = regs;
            for (uint32_t loc : test.finals)
                v.push_back(mem[loc]);
            out.insert(format_outcome(v));
        }
    };
    go();
    return out;
}

// [SECTION] Running a test in the simulator

struct Launch {
    ptx::Module module;
    launch::LaunchConfig config;
    std::vector<launch::Buffer> buffers; // mem, out
    std::vector<launch::KernelArg> args;
};

inline Launch make_launch(const Test& test, Variant variant, Placement placement) {
    Launch l;
    const std::string name = test.name + "_" + to_string(variant) + ".ptx";
    l.module = ptx::parse_module(emit_ptx(test, variant), name);
    const uint32_t roles = static_cast<uint32_t>(test.threads.size());
    if (placement == Placement::SameBlock) {
        l.config.grid = {1, 1, 1};
        l.config.block = {32 * roles, 1, 1};
    } else {
        l.config.grid = {roles, 1, 1};
        l.config.block = {32, 1, 1};
    }
    l.buffers.push_back({"mem", std::vector<uint8_t>(locations(test) * 128, 0)});
    l.buffers.push_back({"out", std::vector<uint8_t>(std::max<uint32_t>(test.regs, 1) * 4, 0)});
    l.args = {launch::KernelArg::pointer(0), launch::KernelArg::pointer(1)};
    return l;
}

// The outcome a finished run left in its buffers: the registers, then the final values.
inline Outcome outcome_of(const Test& test, const std::vector<launch::Buffer>& after) {
    std::vector<uint32_t> v(test.regs);
    if (test.regs) std::memcpy(v.data(), after[1].bytes.data(), test.regs * 4);
    for (uint32_t loc : test.finals) {
        uint32_t x = 0;
        std::memcpy(&x, after[0].bytes.data() + loc * 128, 4);
        v.push_back(x);
    }
    return format_outcome(v);
}

struct Explored {
    std::set<Outcome> outcomes;
    sim::Exploration exploration;
    std::string error; // the first run that did not end Ok, in words
};

inline Explored explore(const Test& test, const Launch& l, launch::MemoryModel memory, uint64_t bound) {
    Explored e;
    sim::Options o;
    o.memory = memory;
    o.record_trace = false;
    sim::ExploreOptions eo;
    eo.max_executions = bound;
    e.exploration = sim::explore(l.module, "litmus", l.config, l.buffers, l.args, o, eo,
                                 [&](const sim::Result& r, const std::vector<launch::Buffer>& after, trace::Trace*) {
                                     if (r.status != trace::RunStatus::Ok) {
                                         if (e.error.empty()) e.error = r.message.empty() ? "status not ok" : r.message;
                                         return true;
                                     }
                                     e.outcomes.insert(outcome_of(test, after));
                                     return true;
                                 });
    return e;
}

// One run under a seeded schedule; "" with `error` set when the run did not end Ok.
inline Outcome sample(const Test& test, const Launch& l, launch::MemoryModel memory, sim::Schedule schedule,
                      uint64_t seed, std::string* error = nullptr) {
    sim::Options o;
    o.memory = memory;
    o.schedule = schedule;
    o.seed = seed;
    o.record_trace = false;
    std::vector<launch::Buffer> buffers = l.buffers;
    const sim::Result r = sim::simulate(l.module, "litmus", l.config, buffers, l.args, o, nullptr);
    if (r.status != trace::RunStatus::Ok) {
        if (error) *error = r.message.empty() ? "status not ok" : r.message;
        return "";
    }
    return outcome_of(test, buffers);
}

} // namespace synclab::litmus
