// Real nvcc output (tests/ptx/data/*.ptx, generated from the .cu files beside them): every sample
// parses into consistent IR, spot checks per sample, robustness against truncated and corrupted
// input, and parse speed.
#include "ptx_test_util.h"

#include <algorithm>
#include <random>
#include <set>

namespace synclab::ptx {
namespace {

using test::data_path;
using test::read_file;

const char* const kSamples[] = {
    "shared_basic.ptx", "atomics.ptx",    "warp_sync.ptx", "memory_sm90.ptx",
    "module_vars.ptx",  "hints_sm90.ptx", "bits.ptx",      "inlined.ptx",
};

Module parse_sample(const char* name) {
    return parse_module(read_file(data_path(name)), name);
}

// Internal consistency that the simulator relies on; returns "" when all holds.
std::string check_consistency(const Module& m) {
    for (const Function& fn : m.functions) {
        if (fn.text.size() != fn.code.size()) return fn.name + ": text/code size mismatch";
        uint32_t last_line = 0;
        for (size_t i = 0; i < fn.code.size(); ++i) {
            const Instruction& inst = fn.code[i];
            const std::string where = fn.name + "[" + std::to_string(i) + "] " + fn.text[i] + ": ";
            if (inst.ptx_line <= last_line) return where + "ptx_line not increasing";
            last_line = inst.ptx_line;
            if (inst.op == Op::Bra && inst.target >= fn.code.size())
                return where + "branch target out of range";
            if (inst.guard != Operand::kNoReg &&
                (inst.guard >= fn.registers.size() || fn.registers[inst.guard].type != Type::Pred)) {
                return where + "bad guard";
            }
            if (inst.source_file >= m.files.size()) return where + "source_file out of range";
            if (inst.inlined >= fn.inlined.size()) return where + "inlined out of range";
            for (const InlinedCall& call : fn.inlined[inst.inlined])
                if (call.file >= m.files.size() || call.line == 0) return where + "bad inlined call";
            if (inst.operand_count > 6) return where + "operand_count > 6";
            if (inst.vector != 1 && inst.vector != 2 && inst.vector != 4) return where + "bad vector count";
            for (uint8_t k = 0; k < 6; ++k) {
                const Operand& op = inst.ops[k];
                if (k >= inst.operand_count && op.kind != Operand::Kind::None)
                    return where + "operand beyond operand_count";
                const bool reg_used = op.kind == Operand::Kind::Reg ||
                                      (op.kind == Operand::Kind::Address && op.reg != Operand::kNoReg);
                if (reg_used && op.reg >= fn.registers.size()) return where + "register slot out of range";
                const bool sym_used = op.kind == Operand::Kind::Symbol ||
                                      (op.kind == Operand::Kind::Address && op.symbol != Operand::kNoSymbol);
                if (sym_used && op.symbol >= m.globals.size()) return where + "symbol out of range";
                if (op.kind == Operand::Kind::Vector) {
                    if (op.vec_count != 2 && op.vec_count != 4) return where + "bad vec_count";
                    for (uint8_t v = 0; v < op.vec_count; ++v) {
                        if (op.vec[v] != Operand::kNoReg && op.vec[v] >= fn.registers.size())
                            return where + "vector slot out of range";
                    }
                }
            }
        }
        if (fn.shared_dynamic_offset < fn.shared_static_bytes)
            return fn.name + ": dynamic shared overlaps static";
        uint32_t end = 0;
        for (const Param& p : fn.params) {
            if (p.align == 0 || p.offset % p.align != 0 || p.offset < end)
                return fn.name + ": bad param layout";
            end = p.offset + p.size;
        }
        if (fn.param_bytes != end) return fn.name + ": param_bytes";
    }
    for (const GlobalVar& g : m.globals) {
        if (!g.init.empty() && g.init.size() != g.size) return g.name + ": init size";
    }
    return {};
}

TEST(ptx_samples, EverySampleParsesConsistently) {
    for (const char* name : kSamples) {
        SCOPED_TRACE(name);
        Module m;
        ASSERT_NO_THROW(m = parse_sample(name));
        EXPECT_EQ(m.version, "9.0");
        EXPECT_EQ(m.address_size, 64u);
        EXPECT_FALSE(m.entry_names().empty());
        EXPECT_EQ(check_consistency(m), "");
        ASSERT_GE(m.files.size(), 2u);
        EXPECT_EQ(m.files[1], std::string(name).substr(0, std::string(name).size() - 4) + ".cu");
        for (const Function& fn : m.functions) {
            ASSERT_FALSE(fn.code.empty());
            EXPECT_EQ(fn.code.back().op, Op::Ret);
            for (const Instruction& inst : fn.code)
                EXPECT_LE(inst.source_line, 60u); // CUDA lines, not header lines
        }
    }
}

template <typename Pred> size_t count_if(const Function& fn, Pred pred) {
    return static_cast<size_t>(std::count_if(fn.code.begin(), fn.code.end(), pred));
}

TEST(ptx_samples, SharedBasic) {
    const Module m = parse_sample("shared_basic.ptx");
    EXPECT_EQ(m.target, "sm_75");
    const Function* k = m.find_entry("k");
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->params.size(), 3u);
    EXPECT_EQ(k->params[2].offset, 16u);
    EXPECT_EQ(k->param_bytes, 20u);
    EXPECT_EQ(k->shared_static_bytes, 1024u);
    EXPECT_EQ(k->decl_line, 16u);
    size_t bars = 0;
    for (size_t i = 0; i < k->code.size(); ++i) {
        const Instruction& inst = k->code[i];
        if (k->text[i] == "mov.u32 %r3, _ZZ1kE1s") {
            EXPECT_EQ(inst.ops[1].kind, Operand::Kind::Imm);
            EXPECT_EQ(inst.ops[1].imm, 0u);
            EXPECT_EQ(inst.ptx_line, 39u);
        }
        if (inst.op == Op::Bar) {
            ++bars;
            EXPECT_EQ(inst.ptx_line, 42u);
            EXPECT_EQ(inst.mods, mod::kAligned);
            EXPECT_EQ(inst.source_file, 1u);
            EXPECT_EQ(inst.source_line, 2u);
        }
    }
    EXPECT_EQ(bars, 1u);
    EXPECT_EQ(k->code[0].source_line, 2u); // `.loc 1 2 0` precedes the first instruction
}

TEST(ptx_samples, Atomics) {
    const Module m = parse_sample("atomics.ptx");
    EXPECT_EQ(m.entry_names(), (std::vector<std::string>{"atom_used", "atom_unused"}));
    ASSERT_EQ(m.globals.size(), 6u);
    EXPECT_EQ(m.globals[0].name, "g_counter");
    EXPECT_EQ(m.globals[1].name, "g_arr");
    EXPECT_EQ(m.globals[1].init, (std::vector<uint8_t>{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0}));
    EXPECT_EQ(m.globals[4].space, Space::Const);
    EXPECT_EQ(m.files.size(), 6u);
    EXPECT_EQ(m.files[2], "device_atomic_functions.hpp");
    const Function& used = *m.find_entry("atom_used");
    std::set<AtomOp> ops;
    for (const Instruction& inst : used.code) {
        if (inst.op != Op::Atom) continue;
        ops.insert(inst.atom_op);
        EXPECT_EQ(inst.source_file, 1u); // inlined from the atomic headers: mapped to the kernel's lines
        EXPECT_GE(inst.source_line, 10u);
        EXPECT_LE(inst.source_line, 19u);
    }
    EXPECT_EQ(ops.size(), 10u); // add min max inc dec and or xor exch cas
    EXPECT_EQ(count_if(used, [](const Instruction& i) { return i.op == Op::Atom && i.type == Type::F32; }),
              1u);
    EXPECT_EQ(count_if(used,
                       [](const Instruction& i) {
                           return i.op == Op::Atom && i.ops[1].symbol == Operand::kNoSymbol &&
                                  i.ops[1].reg != Operand::kNoReg;
                       }),
              19u); // 18 through pointer parameters + atomicAdd(&g_counter) through `mov.u64 %rd, g_counter`
    const Function& unused = *m.find_entry("atom_unused");
    EXPECT_EQ(unused.shared_static_bytes, 4u);
    EXPECT_EQ(count_if(unused, [](const Instruction& i) { return i.op == Op::Atom && i.type == Type::F64; }),
              1u);
    EXPECT_EQ(
        count_if(unused, [](const Instruction& i) { return i.op == Op::Atom && i.space == Space::Shared; }),
        1u);
    EXPECT_EQ(count_if(unused,
                       [](const Instruction& i) {
                           return (i.op == Op::Ld || i.op == Op::St) && i.space == Space::Global &&
                                  i.ops[i.op == Op::Ld ? 1 : 0].symbol == 3;
                       }),
              2u); // g_ull += 1
}

TEST(ptx_samples, WarpSync) {
    const Module m = parse_sample("warp_sync.ptx");
    const Function& fences = *m.find_entry("fences");
    std::vector<MemScope> scopes;
    for (const Instruction& inst : fences.code) {
        if (inst.op == Op::Membar) scopes.push_back(inst.scope);
    }
    EXPECT_EQ(scopes, (std::vector<MemScope>{MemScope::Gpu, MemScope::Cta, MemScope::Sys}));
    EXPECT_EQ(count_if(fences, [](const Instruction& i) { return i.order == MemOrder::Volatile; }), 2u);
    std::vector<uint64_t> masks;
    for (const Instruction& inst : fences.code) {
        if (inst.op == Op::WarpSync) masks.push_back(inst.ops[0].imm & 0xffffffffu);
    }
    EXPECT_EQ(masks, (std::vector<uint64_t>{0xffffffffu, 0xffffu}));

    const Function& warp = *m.find_entry("warp");
    std::set<ShflMode> shfl;
    std::set<VoteMode> votes;
    for (const Instruction& inst : warp.code) {
        if (inst.op == Op::Shfl) {
            shfl.insert(inst.shfl);
            EXPECT_EQ(inst.ops[1].kind, Operand::Kind::Reg); // %r|%p
        }
        if (inst.op == Op::Vote) votes.insert(inst.vote);
    }
    EXPECT_EQ(shfl.size(), 4u);
    EXPECT_EQ(votes, (std::set<VoteMode>{VoteMode::All, VoteMode::Any, VoteMode::Ballot}));
    EXPECT_EQ(count_if(warp, [](const Instruction& i) { return i.op == Op::Activemask; }), 1u);
    EXPECT_EQ(count_if(warp,
                       [](const Instruction& i) {
                           return i.op == Op::Mov && i.ops[1].kind == Operand::Kind::Special &&
                                  i.ops[1].special == SpecialReg::Clock64;
                       }),
              1u);
    EXPECT_EQ(count_if(warp,
                       [](const Instruction& i) {
                           return i.op == Op::Mov && i.ops[1].kind == Operand::Kind::Special &&
                                  i.ops[1].special == SpecialReg::LaneId;
                       }),
              1u);
}

TEST(ptx_samples, MemorySm90) {
    const Module m = parse_sample("memory_sm90.ptx");
    EXPECT_EQ(m.target, "sm_90");
    const Function& vec = *m.find_entry("vec");
    EXPECT_EQ(vec.shared_static_bytes, 128u);
    EXPECT_EQ(vec.shared_dynamic_offset, 128u);
    EXPECT_EQ(count_if(vec, [](const Instruction& i) { return i.op == Op::Ld && i.vector == 4; }), 1u);
    EXPECT_EQ(count_if(vec, [](const Instruction& i) { return i.op == Op::St && i.vector == 2; }), 1u);
    // `mov.u32 %r9, dyn;` is the dynamic window's start.
    EXPECT_EQ(count_if(vec,
                       [](const Instruction& i) {
                           return i.op == Op::Mov && i.ops[1].kind == Operand::Kind::Imm &&
                                  i.ops[1].imm == 128u;
                       }),
              1u);

    const Function& acqrel = *m.find_entry("acqrel");
    auto find = [&](std::string_view text) -> const Instruction& {
        for (size_t i = 0; i < acqrel.text.size(); ++i) {
            if (acqrel.text[i] == text) return acqrel.code[i];
        }
        ADD_FAILURE() << "no instruction " << text;
        return acqrel.code[0];
    };
    EXPECT_EQ(find("st.release.gpu.b32 [%rd3],%r2").order, MemOrder::Release);
    EXPECT_EQ(find("ld.acquire.gpu.b32 %r4,[%rd3]").scope, MemScope::Gpu);
    EXPECT_EQ(find("atom.add.acq_rel.cta.s32 %r5,[%rd4],%r6").order, MemOrder::AcqRel);
    EXPECT_EQ(find("fence.sc.cta").order, MemOrder::Sc);
    // Deep inlining chains through the cuda::atomic_ref headers map back to the kernel's lines.
    EXPECT_EQ(find("st.release.gpu.b32 [%rd3],%r2").source_file, 1u);
    EXPECT_EQ(find("st.release.gpu.b32 [%rd3],%r2").source_line, 14u);
    EXPECT_EQ(find("ld.acquire.gpu.b32 %r4,[%rd3]").source_line, 15u);
    EXPECT_EQ(find("fence.sc.gpu").source_line, 18u);

    const Function& local = *m.find_entry("localarr");
    EXPECT_EQ(local.local_bytes, 64u);
    EXPECT_EQ(count_if(local, [](const Instruction& i) { return i.op == Op::St && i.space == Space::Local; }),
              4u);

    const Function& arith = *m.find_entry("arith");
    EXPECT_GT(count_if(arith, [](const Instruction& i) { return i.op == Op::Fma && i.type == Type::F64; }),
              0u);
    EXPECT_EQ(count_if(arith, [](const Instruction& i) { return i.op == Op::Div && i.type == Type::F64; }),
              1u);
    EXPECT_EQ(
        count_if(arith, [](const Instruction& i) { return i.op == Op::Cvt && (i.mods & mod::kRoundInt); }),
        8u);
    EXPECT_EQ(count_if(arith, [](const Instruction& i) { return i.op == Op::Prmt; }), 1u);
}

TEST(ptx_samples, ModuleVars) {
    const Module m = parse_sample("module_vars.ptx");
    const Function& both = *m.find_entry("uses_both");
    ASSERT_EQ(both.params.size(), 4u);
    EXPECT_EQ(both.params[0].size, 16u);
    EXPECT_EQ(both.params[0].align, 8u);
    EXPECT_EQ(both.params[3].offset, 26u);
    EXPECT_EQ(both.param_bytes, 28u);
    EXPECT_EQ(both.shared_static_bytes, 256u);
    EXPECT_EQ(both.shared_dynamic_offset, 256u);
    const Function& also = *m.find_entry("also_uses");
    EXPECT_EQ(also.shared_static_bytes, 256u);
    const Function& divergent = *m.find_entry("divergent");
    EXPECT_EQ(divergent.shared_static_bytes, 0u);
    EXPECT_EQ(count_if(divergent, [](const Instruction& i) { return i.op == Op::Bar; }), 6u);
    EXPECT_EQ(count_if(divergent,
                       [](const Instruction& i) { return i.op == Op::Bra && i.guard != Operand::kNoReg; }),
              11u);
    ASSERT_EQ(m.globals.size(), 3u);
    EXPECT_EQ(m.globals[2].init.size(), 16u);
    EXPECT_EQ(m.globals[2].init[8], 255u);
}

TEST(ptx_samples, HintsSm90) {
    const Module m = parse_sample("hints_sm90.ptx");
    const Function& fn = *m.find_entry("hints");
    EXPECT_EQ(count_if(fn, [](const Instruction& i) { return i.op == Op::Ld && i.space == Space::Global; }),
              6u);
    EXPECT_EQ(count_if(fn, [](const Instruction& i) { return i.op == Op::Nanosleep; }), 1u);
    EXPECT_EQ(count_if(fn, [](const Instruction& i) { return i.op == Op::Trap; }), 1u);
    EXPECT_EQ(count_if(fn, [](const Instruction& i) { return i.op == Op::Atom && i.scope == MemScope::Cta; }),
              1u);
    EXPECT_EQ(count_if(fn, [](const Instruction& i) { return i.op == Op::Atom && i.scope == MemScope::Sys; }),
              1u);
    EXPECT_EQ(count_if(fn, [](const Instruction& i) { return i.op == Op::Atom && i.scope == MemScope::Gpu; }),
              2u);
}

TEST(ptx_samples, Bits) {
    const Module m = parse_sample("bits.ptx");
    const Function& fn = *m.find_entry("bits");
    std::vector<std::pair<uint16_t, uint64_t>> bars;
    for (const Instruction& inst : fn.code) {
        if (inst.op == Op::Bar) bars.emplace_back(inst.mods, inst.ops[0].imm);
    }
    const std::vector<std::pair<uint16_t, uint64_t>> expected = {
        {mod::kAligned, 1}, {0, 2}, {mod::kAligned | mod::kArrive, 3}, {mod::kAligned, 4}};
    EXPECT_EQ(bars, expected);
    EXPECT_EQ(count_if(fn,
                       [](const Instruction& i) {
                           return i.op == Op::Mov && i.ops[0].kind == Operand::Kind::Vector;
                       }),
              2u);
    EXPECT_EQ(count_if(fn,
                       [](const Instruction& i) {
                           return i.op == Op::Mov && i.ops[1].kind == Operand::Kind::Vector;
                       }),
              1u);
    EXPECT_EQ(count_if(fn, [](const Instruction& i) { return i.op == Op::Brev; }), 2u);
    EXPECT_EQ(count_if(fn, [](const Instruction& i) { return i.op == Op::Popc; }), 2u);
}

// Truncated and byte-corrupted samples: always a Module (with consistent IR) or a ParseError;
// never a crash, a hang or another exception.
// inlined.cu at -O3: every helper is inlined, and each access keeps its own line (the helper's)
// with the calls that lead there, as nvcc's `.loc ..., function_name, inlined_at` say.
TEST(ptx_samples, InlinedHelpersKeepTheirLines) {
    const Module m = parse_sample("inlined.ptx");
    const Function* k = m.find_entry("_Z14inlined_kernelPKiPiS1_");
    ASSERT_NE(k, nullptr);
    ASSERT_EQ(m.files.size(), 4u);
    EXPECT_EQ(m.files[2], "inlined_helpers.cuh");
    EXPECT_EQ(k->source_file, 1u);
    auto find = [&](std::string_view text) -> size_t {
        for (size_t i = 0; i < k->text.size(); ++i)
            if (k->text[i] == text) return i;
        ADD_FAILURE() << "no instruction '" << text << "'";
        return 0;
    };
    struct Expect {
        std::string_view text;
        uint32_t file, line;
        std::vector<InlinedCall> calls;
    };
    const Expect expected[] = {
        // The kernel's own store, not inlined.
        {"st.shared.u32 [%r1], %r3", 1, 25, {}},
        // The template, once per instantiation: reduce_step<true> at line 9, reduce_step<false> at 11.
        {"ld.shared.u32 %r7, [%r1+128]", 1, 9, {{"reduce_step<true>", 1, 27}}},
        {"st.shared.u32 [%r1], %r8", 1, 9, {{"reduce_step<true>", 1, 27}}},
        {"ld.shared.u32 %r11, [%r1+64]", 1, 11, {{"reduce_step<false>", 1, 29}}},
        // load_neighbour called from the kernel (line 31) and from twice() (line 19, called at 32).
        {"ld.shared.u32 %r15, [%r1+4]", 1, 15, {{"load_neighbour", 1, 31}}},
        {"ld.shared.u32 %r13, [%r1+20]", 1, 15, {{"load_neighbour", 1, 19}, {"twice", 1, 32}}},
        // The header's helper: its line is one of inlined_helpers.cuh.
        {"ld.shared.u32 %r17, [%r1+8]", 2, 6, {{"header_load", 1, 33}}},
        // atomicAdd is the toolkit's: at the kernel's line.
        {"atom.global.add.u32 %r19, [%rd11], 1", 1, 35, {}},
    };
    for (const Expect& e : expected) {
        SCOPED_TRACE(std::string(e.text));
        const Instruction& in = k->code[find(e.text)];
        EXPECT_EQ(in.source_file, e.file);
        EXPECT_EQ(in.source_line, e.line);
        EXPECT_EQ(k->inlined.at(in.inlined), e.calls);
    }
    // The site table the traces carry: the header by name, the kernel's file as "".
    const std::vector<trace::Site> sites = site_table(*k, &m);
    const trace::Site& header = sites[find("ld.shared.u32 %r17, [%r1+8]")];
    EXPECT_EQ(header.origin.file, "inlined_helpers.cuh");
    EXPECT_EQ(header.origin.inlined, (std::vector<trace::InlinedCall>{{"header_load", "", 33}}));
    EXPECT_EQ(header.kernel_file_line(), 33u);
    const trace::Site& nested = sites[find("ld.shared.u32 %r13, [%r1+20]")];
    EXPECT_TRUE(nested.origin.file.empty());
    EXPECT_EQ(nested.kernel_file_line(), 15u) << "a helper of the kernel's file lights its own line";
    EXPECT_EQ(nested.outermost_line(), 32u);
}

TEST(ptx_samples, CorruptedInputNeverCrashes) {
    std::mt19937 rng(12345);
    const char kBytes[] = "{}[]();:,.%$@!|+-_0123456789abcdefxXU\" \n\t/*<>=";
    size_t parsed = 0, rejected = 0;
    for (const char* name : kSamples) {
        const std::string original = read_file(data_path(name));
        auto attempt = [&](const std::string& text) {
            try {
                const Module m = parse_module(text, name);
                EXPECT_EQ(check_consistency(m), "") << name;
                ++parsed;
            } catch (const ParseError& e) {
                EXPECT_NE(std::string(e.what()).find(std::string(name) + ":"), std::string::npos);
                ++rejected;
            }
        };
        const size_t step = std::max<size_t>(1, original.size() / 150);
        for (size_t cut = 0; cut < original.size(); cut += step)
            attempt(original.substr(0, cut));
        for (int round = 0; round < 300; ++round) {
            std::string text = original;
            const int flips = 1 + static_cast<int>(rng() % 3);
            for (int f = 0; f < flips; ++f) {
                const size_t at = rng() % text.size();
                text[at] =
                    (rng() % 4 == 0) ? static_cast<char>(rng() % 256) : kBytes[rng() % (sizeof(kBytes) - 1)];
            }
            attempt(text);
        }
    }
    EXPECT_GT(parsed, 0u);
    EXPECT_GT(rejected, 0u);
}

// A 5,000+ line kernel parses completely (its speed is measured by tests/bench/bench_sim.cpp, not here:
// timed tests are noise on shared machines).
TEST(ptx_samples, ParsesFiveThousandLines) {
    std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n"
                       ".visible .entry big(.param .u64 big_param_0)\n{\n"
                       ".reg .pred %p<4>;\n.reg .f32 %f<8>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                       "ld.param.u64 %rd1, [big_param_0];\n";
    const int kBlocks = 850;
    for (int i = 0; i < kBlocks; ++i) {
        const std::string n = std::to_string(i);
        text += "$L__BB0_" + n + ":\n";
        text += "\t.loc\t1 " + n + " 3\n";
        text += "\tld.global.f32 \t%f1, [%rd1+" + std::to_string(4 * i) + "];\n";
        text += "\tfma.rn.f32 \t%f2, %f1, 0f3F800000, %f2;\n";
        text += "\tsetp.lt.f32 \t%p1, %f2, %f1;\n";
        text += "\t@%p1 bra \t$L__BB0_" + std::to_string(i + 1) + ";\n";
    }
    text += "$L__BB0_" + std::to_string(kBlocks) + ":\n\tret;\n}\n\t.file\t1 \"big.cu\"\n";
    ASSERT_GT(std::count(text.begin(), text.end(), '\n'), 5000);
    const Module m = parse_module(text, "big.ptx");
    ASSERT_EQ(m.functions.at(0).code.size(), 4u * kBlocks + 2);
    EXPECT_EQ(m.functions.at(0).code.back().op, Op::Ret);
    EXPECT_EQ(m.functions.at(0).code[5].source_line, 1u);
}

} // namespace
} // namespace synclab::ptx
