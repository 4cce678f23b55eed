// Every rejected construct produces a ParseError naming the PTX line and the problem.
#include "ptx_test_util.h"

namespace synclab::ptx {
namespace {

using test::expect_error;
using test::expect_instruction_error;
using test::kBodyLine;
using test::kHeader;
using test::kRegs;
using test::wrap;

constexpr uint32_t kInstrLine = kBodyLine + 1; // where expect_instruction_error puts the instruction

TEST(ptx_errors, MessageFormatAndInstructionText) {
    try {
        parse_module(wrap(std::string(kRegs) + "mov.u32 %r1, 1;\n\tfrobnicate.u32   %r1,\t%r2 ;\n"),
                     "stencil.ptx");
        FAIL() << "expected a ParseError";
    } catch (const ParseError& e) {
        EXPECT_EQ(e.source_name(), "stencil.ptx");
        EXPECT_EQ(e.line(), kBodyLine + 2);
        EXPECT_EQ(e.instruction(), "frobnicate.u32 %r1, %r2");
        EXPECT_EQ(std::string(e.what()),
                  "stencil.ptx:" + std::to_string(kBodyLine + 2) +
                      ": unknown instruction 'frobnicate'\n    frobnicate.u32 %r1, %r2");
    }
}

TEST(ptx_errors, UnknownAndUnsupportedOpcodes) {
    expect_instruction_error("frobnicate.u32 %r1, %r2", "unknown instruction 'frobnicate'");
    expect_instruction_error("dp4a.u32.u32 %r1, %r2, %r3, %r4", "unsupported instruction 'dp4a'");
    expect_instruction_error("addc.u32 %r1, %r2, %r3", "unsupported instruction 'addc'");
    expect_instruction_error("mul24.lo.s32 %r1, %r2, %r3", "unsupported instruction 'mul24'");
    expect_instruction_error("lop3.b32 %r1, %r2, %r3, %r4, 0x96", "unsupported instruction 'lop3'");
    expect_instruction_error("griddepcontrol.wait", "unsupported instruction 'griddepcontrol'");
    // The warp reductions and matches SyncLab runs, with their forms checked.
    expect_instruction_error("redux.add.u32 %r1, %r2, -1", "redux without .sync is not supported");
    expect_instruction_error("redux.sync.add.f32 %f1, %f2, -1", "redux.sync.add/.min/.max need .u32 or .s32");
    expect_instruction_error("redux.sync.xor.u32 %r1, %r2, -1", "redux.sync.and/.or/.xor need .b32");
    expect_instruction_error("redux.sync.mul.u32 %r1, %r2, -1", "redux.sync needs .add, .min, .max");
    expect_instruction_error("match.any.sync.b32 %r1|%p1, %r2, -1", "only match.all.sync has a predicate");
    expect_instruction_error("match.all.sync.b16 %r1, %rs1, -1", "match.sync needs .b32 or .b64");
    expect_instruction_error("elect.sync %r1, -1", "elect.sync needs a destination pair d|p");
    expect_instruction_error("vote.ballot.b32 %r1, %p1",
                             "unsupported instruction 'vote.ballot.b32' (vote without .sync");
    expect_instruction_error("vote.all.pred %p1, %p2", "use vote.sync");
    expect_instruction_error("shfl.down.b32 %r1, %r2, 1, 31",
                             "shfl without .sync is not supported on sm_70+");
    expect_instruction_error("fence.proxy.async",
                             "unsupported instruction 'fence.proxy.async' (proxy fences");
    expect_instruction_error("fence.proxy.alias", "proxy fences are not supported");
    expect_instruction_error("membar.proxy.alias", "proxy fences are not supported");
    expect_instruction_error("bar.red.popc.pred %p2, 0, %p1", "bar.red.popc needs .u32");
    expect_instruction_error("bar.red.and.u32 %r2, 0, %p1", "bar.red.and/.or need .pred");
    expect_instruction_error("bar.red.min.u32 %r2, 0, %p1", "needs .popc, .and or .or");
    expect_instruction_error("barrier.cluster.arrive", "cluster barriers are not supported");
    expect_instruction_error("prmt.b32.f4e %r1, %r2, %r3, %r4", "prmt mode '.f4e' is not supported");
    expect_instruction_error("add.cc.u32 %r1, %r2, %r3", "carry arithmetic");
    expect_instruction_error("ld.mmio.relaxed.sys.global.u32 %r1, [%rd1]", "ld.mmio is not supported");
    expect_instruction_error("bra %r1", "indirect branches are not supported");
}

TEST(ptx_errors, DeviceFunctionCall) {
    const std::string text = test::read_file(test::data_path("device_call.ptx"));
    try {
        parse_module(text, "device_call.ptx");
        FAIL() << "a call must be rejected";
    } catch (const ParseError& e) {
        const std::string what = e.what();
        EXPECT_EQ(e.line(), 48u) << what; // the line of `call.uni (retval0),` in the sample
        EXPECT_NE(what.find("unsupported instruction 'call'"), std::string::npos) << what;
        EXPECT_NE(what.find("(device function calls are not supported; inline the function)"),
                  std::string::npos)
            << what;
        EXPECT_EQ(e.instruction().rfind("call.uni (retval0), _Z6helperi, ", 0), 0u) << e.instruction();
    }
}

TEST(ptx_errors, UnsupportedModifiersAndTypes) {
    expect_instruction_error("ld.global.foo.u32 %r1, [%rd1]",
                             "unsupported modifier '.foo' in 'ld.global.foo.u32'");
    expect_instruction_error("add.f16x2 %r1, %r2, %r3", "unsupported type '.f16x2'");
    expect_instruction_error("cvt.rn.bf16.f32 %rs1, %f1", "unsupported type '.bf16'");
    expect_instruction_error("min.NaN.f32 %f1, %f2, %f3", "unsupported modifier '.NaN'");
    expect_instruction_error("add.u32.u32 %r1, %r2, %r3", "more than one type");
    expect_instruction_error("add %r1, %r2, %r3", "missing type in 'add'");
    expect_instruction_error("ld.global.v8.u32 {%r1, %r2}, [%rd1]", ".v8 vectors are not supported");
    expect_instruction_error("ld.relaxed.global.u32 %r1, [%rd1]", "needs a scope");
    expect_instruction_error("ld.gpu.global.u32 %r1, [%rd1]", "a scope on ld needs .relaxed or .acquire");
    expect_instruction_error("ld.release.gpu.u32 %r1, [%rd1]", "invalid memory order for ld");
    expect_instruction_error("st.acquire.gpu.u32 [%rd1], %r1", "invalid memory order for st");
    expect_instruction_error("ld.volatile.relaxed.gpu.u32 %r1, [%rd1]",
                             "more than one memory-order qualifier");
    expect_instruction_error("ld.shared::cluster.u32 %r1, [%r2]", ".shared::cluster) is not supported");
    expect_instruction_error("red.global.cas.b32 [%rd1], %r1", "red has no .cas");
    expect_instruction_error("red.acquire.gpu.global.add.u32 [%rd1], %r1",
                             "red takes .relaxed or .release only");
    expect_instruction_error("atom.global.inc.s32 %r1, [%rd1], 1", "atom.inc/.dec need .u32");
    expect_instruction_error("atom.global.min.f32 %f1, [%rd1], %f2", "atom.min/.max need");
    expect_instruction_error("atom.local.add.u32 %r1, [%rd1], 1", "works on .global, .shared or generic");
    expect_instruction_error("atom.global.u32 %r1, [%rd1], 1", "atom needs an operation");
    expect_instruction_error("atom.global.v2.add.f32 %f1, [%rd1], %f2", "vector atom is not supported");
    expect_instruction_error("atom.global.add.noftz.f16 %rs1, [%rd1], %rs2", "half-precision atomics");
    expect_instruction_error("setp.ltu.s32 %p1, %r1, %r2",
                             "unordered comparisons need a floating-point type");
    expect_instruction_error("setp.lo.f32 %p1, %f1, %f2", "unsigned comparisons");
    expect_instruction_error("setp.lt.b32 %p1, %r1, %r2", "bit types (.b*) only compare with .eq or .ne");
    expect_instruction_error("setp.s32 %p1, %r1, %r2", "setp needs a comparison operator");
    expect_instruction_error("setp.lt.and.or.s32 %p1, %r1, %r2, %p2", "two boolean operators on setp");
    expect_instruction_error("rem.f32 %f1, %f2, %f3", "rem needs an integer type");
    expect_instruction_error("fma.rn.s32 %r1, %r2, %r3, %r4", "fma needs a floating-point type");
    expect_instruction_error("mul.lo.hi.s32 %r1, %r2, %r3", "takes one of .lo, .hi, .wide");
    expect_instruction_error("mul.wide.s64 %rd1, %rd2, %rd3", "needs a 16- or 32-bit type");
    expect_instruction_error("add.sat.u32 %r1, %r2, %r3", "add.sat needs .s32");
    expect_instruction_error("and.u32 %r1, %r2, %r3", "and needs .pred, .b16, .b32 or .b64");
    expect_instruction_error("popc.u32 %r1, %r2", "popc needs .b32 or .b64");
    expect_instruction_error("cvta.global.u16 %rs1, %rs2", "cvta size must be .u32 or .u64");
    expect_instruction_error("cvta.u64 %rd1, %rd2", "cvta needs a state space");
    expect_instruction_error("cvt.f32 %f1, %r1", "cvt needs a destination and a source type");
    expect_instruction_error("vote.sync.ballot.pred %p1, %p2, -1", "vote.sync.ballot needs .b32");
    expect_instruction_error("vote.sync.all.b32 %r1, %p2, -1", "need .pred");
    expect_instruction_error("vote.sync.b32 %r1, %p2, -1", "vote.sync needs .all, .any, .uni or .ballot");
    expect_instruction_error("shfl.sync.down.b64 %rd1, %rd2, 1, 31, -1", "shfl.sync needs .b32");
    expect_instruction_error("bar.wait 0", "bar needs .sync or .arrive");
    expect_instruction_error("membar.gpu", "membar needs .cta, .gl or .sys");
    expect_instruction_error("fence.sc", "fence needs a scope");
    expect_instruction_error("nanosleep.u64 %rd1", "nanosleep needs .u32");
    expect_instruction_error("activemask.b64 %rd1", "activemask needs .b32");
}

TEST(ptx_errors, MalformedOperands) {
    expect_instruction_error("add.s32 %r1, %r2 %r3, 1", "malformed operand '%r2 %r3'");
    expect_instruction_error("add.s32 %r1, , %r3", "empty operand");
    expect_instruction_error("ld.global.u32 %r1, [%rd1+]", "malformed address '[%rd1+]'");
    expect_instruction_error("ld.global.u32 %r1, [%rd1+%rd2]", "malformed address");
    expect_instruction_error("ld.global.u32 %r1, [%rd1", "malformed address");
    expect_instruction_error("ld.global.v2.u32 {%r1 %r2}, [%rd1]", "malformed vector operand");
    expect_instruction_error("ld.global.v4.u32 {%r1, %r2, %r3, %r4, %r5}, [%rd1]", "more than 4 elements");
    expect_instruction_error("ld.global.v2.u32 {%r1, 0}, [%rd1]", "malformed vector operand");
    expect_instruction_error("ld.global.v2.u32 {%r1, %r2, %r3}, [%rd1]", "must have 2 or 4 elements");
    expect_instruction_error("ld.global.v4.u32 {%r1, %r2}, [%rd1]", "needs a vector operand of 4 registers");
    expect_instruction_error("ld.global.u32 {%r1, %r2}, [%rd1]", "vector operand needs .v2");
    expect_instruction_error("ld.global.u32 %r1, %rd1", "expected an address '[...]'");
    expect_instruction_error("mov.u32 %r1, [%rd1]", "mov cannot read memory");
    expect_instruction_error("add.s32 5, %r2, %r3", "destination must be a register");
    expect_instruction_error("add.s32 %p1, %r2, %r3", "is a predicate register; expected a data register");
    expect_instruction_error("add.s32 %r1, %p2, %r3", "predicate register '%p2' used as a data operand");
    expect_instruction_error("add.s32 %r1, !%r2, %r3", "'!' applies only to predicate registers");
    expect_instruction_error("and.pred %p1, !%p2, %p3", "'!' negation is not allowed here");
    expect_instruction_error("add.s32 %r1, %tid.x, 1", "special register '%tid.x' can only be read with mov");
    expect_instruction_error("add.s32 %r1, %r2, 1.5", "floating-point literal used with integer type .s32");
    expect_instruction_error("add.u32 %r1, %r2, 0f3F800000",
                             "floating-point literal used with integer type .u32");
    expect_instruction_error("add.s64 %rd1, %rd2, 99999999999999999999", "malformed number");
    expect_instruction_error("setp.lt.s32 %r1, %r2, %r3", "expected a predicate register as destination");
    expect_instruction_error("setp.lt.s32 %p1|, %r2, %r3", "malformed operand");
    expect_instruction_error("selp.b32 %r1, %r2, %r3, %r4", "expected a predicate register");
    expect_instruction_error("mov.u32 %r1, %pm0", "unsupported special register '%pm0'");
    expect_instruction_error("mov.u32 %r1, %tid", "unsupported special register '%tid'");
    expect_instruction_error("bar.sync 16", "barrier id must be 0..15");
    expect_instruction_error("mov.b64 {%r1, %r2}, {%r3, %r4}", "vector operands on both sides");
}

TEST(ptx_errors, WrongOperandCount) {
    expect_instruction_error("add.s32 %r1, %r2", "'add.s32' expects 3 operands, got 2");
    expect_instruction_error("mov.u32 %r1", "'mov.u32' expects 2 operands, got 1");
    expect_instruction_error("ret %r1", "'ret' expects 0 operands, got 1");
    expect_instruction_error("atom.global.cas.b32 %r1, [%rd1], %r2", "expects 4 operands, got 3");
    expect_instruction_error("setp.lt.and.s32 %p1, %r1, %r2", "expects 4 operands, got 3");
    expect_instruction_error("bar.arrive 1", "expects 2 operands, got 1");
    expect_instruction_error("bar.sync 1, 2, 3", "expects 1 or 2 operands, got 3");
    expect_instruction_error("shfl.sync.idx.b32 %r1, %r2, 0, 31", "expects 5 operands, got 4");
    expect_instruction_error("ld.global.L2::cache_hint.u32 %r1, [%rd1]", "expects 3 operands, got 2");
}

TEST(ptx_errors, NamesAndDeclarations) {
    expect_instruction_error("add.s32 %r1, %r99, 1", "register '%r99' is not declared");
    expect_instruction_error("mov.u64 %rd1, nowhere", "unknown name 'nowhere'");
    expect_instruction_error("@%r1 ret", "guard '%r1' is not a .pred register");
    expect_instruction_error("@%nope ret", "guard '%nope' is not a declared register");
    expect_error(wrap(".reg .b32 %r<3>;\n.reg .b32 %r1;\n"), kBodyLine + 1,
                 "'%r1' is already declared in this scope");
    expect_error(wrap(".reg .v4 .f32 %v;\n"), kBodyLine, "vector registers (.reg .v2/.v4) are not supported");
    expect_error(wrap(".reg .b128 %q;\n"), kBodyLine, "unsupported register type '.b128'");
    expect_error(wrap(".reg .b32 %r<300000>;\n"), kBodyLine, "register count");
    expect_error(wrap(".reg .b32 %r<200000>;\n.reg .b32 %s<200000>;\n"), kBodyLine + 1, "too many registers");
    expect_error(wrap("ret;\n$L__a:\nret;\n$L__a:\nret;\n"), kBodyLine + 3,
                 "duplicate label '$L__a' (first defined on line 7)");
    expect_error(wrap("ret;\nbra $L__nowhere;\n"), kBodyLine + 1, "unknown label '$L__nowhere'");
    expect_error(wrap("bra $L__end;\n$L__end:\n"), kBodyLine + 1,
                 "label '$L__end' is not followed by an instruction");
    expect_error(wrap(".reg .b32 %r<2>;\nmov.u32 %r1, k;\n"), kBodyLine + 1, "'k' is a function");
}

TEST(ptx_errors, SymbolSpaces) {
    const std::string header = ".version 9.0\n.target sm_75\n.address_size 64\n"
                               ".global .u32 g;\n.shared .align 4 .b8 s[16];\n"
                               ".visible .entry k(.param .u32 p)\n{\n.reg .b32 %r<3>; .reg .b64 %rd<3>;\n";
    const uint32_t line = 9;
    expect_error(header + "ld.shared.u32 %r1, [g];\n}\n", line,
                 "'g' is a .global variable but 'ld.shared.u32' accesses .shared");
    expect_error(header + "ld.u32 %r1, [s];\n}\n", line, "convert it with cvta first");
    expect_error(header + "ld.global.u32 %r1, [p];\n}\n", line, "'p' is a .param variable");
    expect_error(header + "add.u64 %rd1, g, 4;\n}\n", line,
                 "variable 'g' can only be used in mov, cvta or an address");
    expect_error(header + "cvta.shared.u64 %rd1, g;\n}\n", line, "'g' is a .global variable, not .shared");
    expect_error(header + "cvta.to.global.u64 %rd1, g;\n}\n", line, "cvta.to takes a generic address");
}

TEST(ptx_errors, PerformanceDirectives) {
    const std::string h = ".version 9.0\n.target sm_75\n.address_size 64\n";
    for (const char* d : {".maxntid", ".reqntid", ".minnctapersm", ".maxnctapersm", ".maxnreg", ".noreturn",
                          ".explicitcluster", ".reqnctapercluster", ".maxclusterrank"}) {
        SCOPED_TRACE(d);
        expect_error(h + d + " 1\n", 4,
                     std::string("performance directive '") + d + "' outside a function declaration");
    }
    // Between signature and body: the counted ones need integers, .noreturn / .explicitcluster none.
    expect_error(h + ".entry k()\n.maxntid\n{\nret;\n}\n", 6,
                 "expected a number after the performance directive, found '{'");
    expect_error(h + ".entry k()\n.reqnctapercluster 2,\n{\nret;\n}\n", 6,
                 "expected a number after the performance directive, found '{'");
    expect_error(h + ".entry k()\n.noreturn 3\n{\nret;\n}\n", 5,
                 "expected '{' to start the body of 'k', found '3'");
    expect_error(h + ".entry k()\n.maxntid 4\n.frob\n{\nret;\n}\n", 6,
                 "unexpected directive '.frob' before the function body");
}

TEST(ptx_errors, ModuleLevel) {
    const std::string h = ".version 9.0\n.target sm_75\n.address_size 64\n";
    expect_error(h + ".frobnicate 3\n", 4, "unknown or unsupported directive '.frobnicate'");
    expect_error(h + "mov.u32 %r1, 1;\n", 4, "instructions must be inside a function body");
    expect_error(h + ".address_size 48\n", 4, ".address_size must be 32 or 64");
    expect_error(h + ".maxntid 128\n", 4, "outside a function declaration");
    expect_error(h + ".extern .global .align 4 .u32 ext;\n", 4,
                 "is not supported (it has no definition in this module)");
    expect_error(h + ".local .align 4 .b8 l[4];\n", 4, "module-scope .local variables are not supported");
    expect_error(h + ".global .u64 tbl[2] = {g_a, g_b};\n", 4,
                 "address initialisers ('g_a') are not supported");
    expect_error(h + ".global .u32 a[2] = {1, 2, 3};\n", 4, "too many initialisers for 'a'");
    expect_error(h + ".global .u32 a = 1.5;\n", 4, "floating-point literal used with integer type .u32");
    expect_error(h + ".global .u32 a;\n.global .u32 a;\n", 5, "'a' is already declared in this module");
    expect_error(h + ".global .u32 a[];\n", 4, "needs a size or an initialiser");
    expect_error(h + ".global .texref tex;\n", 4, "texture/sampler/surface references are not supported");
    expect_error(h + ".global .align 3 .u32 a;\n", 4, ".align must be a power of two");
    expect_error(h + ".global .b8 big[2000000000];\n", 4, "is too large");
    expect_error(h + ".global .b8 a[65536][65536];\n", 4, "is too large");
    expect_error(h + ".global .u32 a = {{{{{{{{{{1}}}}}}}}}};\n", 4, "initialiser nested too deeply");
    expect_error(h + ".section .debug_str\n{\n.b8 1\n", 4, "unterminated .section block");
    expect_error(h + ".file 0 \"x.cu\"\n", 4, "file numbers start at 1");
    expect_error(h + ".file 1 x.cu\n", 4, "expected a quoted file name");
    expect_error(h + ".loc 1 2\n", 5, "expected a column number in .loc");
    expect_error(h + ".entry k()\n{\nret;\n}\n.entry k()\n{\nret;\n}\n", 8, "function 'k' is defined twice");
    expect_error(h + ".entry k()\n{\nret;\n", 4, "missing '}' at the end of function 'k'");
    expect_error(h + ".entry k()\nret;\n", 5, "expected '{' to start the body of 'k'");
    expect_error(h + ".entry k(.param .u32 a, .param .u32 a)\n{\nret;\n}\n", 4, "'a' is already declared");
    expect_error(h + ".entry k(.param .pred a)\n{\nret;\n}\n", 4, "missing or invalid parameter type");
    expect_error(h + ".entry k()\n{\n.global .u32 x;\nret;\n}\n", 6,
                 "function-scope .global variables are not supported");
    expect_error(h + ".entry k()\n{\n.maxnreg 4\nret;\n}\n", 6,
                 "unexpected directive '.maxnreg' inside function 'k'");
    expect_error(h + ".entry k()\n{\n.shared .b8 s[];\nret;\n}\n", 6,
                 "shared array 's[]' needs a size or .extern");
    expect_error(h + ".shared .align 4 .b8 s_mod[];\n", 4, "shared array 's_mod[]' needs a size or .extern");
    expect_error(h + ".entry k(.param .align 3 .u64 p)\n{\nret;\n}\n", 4, ".align must be a power of two");
    expect_error(h + ".global .align 0 .u32 g;\n", 4, ".align must be a power of two");
    expect_error(h + ".func f(.reg .b32)\n{\nret;\n}\n", 4, "expected a register name");
    expect_error(h + ".func f(.reg .s4 r)\n{\nret;\n}\n", 4, "unsupported register type '.s4'");
    expect_error(h + ".func f(.reg r)\n{\nret;\n}\n", 4, "expected a type after .reg");
    expect_error(h + ".func f(.reg .b32 r, .reg .b32 r)\n{\nret;\n}\n", 4,
                 "'r' is already declared in this scope");
}

TEST(ptx_errors, MissingSemicolonAndTruncation) {
    expect_error(wrap(std::string(kRegs) + "add.s32 %r1, %r2, 1\nret;\n"), kInstrLine,
                 "malformed operand '1 ret'");
    expect_error(std::string(kHeader) + std::string(kRegs) + "add.s32 %r1, %r2, 1", kInstrLine,
                 "missing ';' at the end of the instruction");
    expect_error(std::string(kHeader) + "ret;\n", 4,
                 "missing '}' at the end of function 'k'"); // the .entry line
}

TEST(ptx_errors, TooManyInstructions) {
    std::string body(kRegs);
    body.reserve(body.size() + 70000 * 6);
    for (int i = 0; i < 65536; ++i)
        body += "exit;\n";
    expect_error(wrap(body), kBodyLine + 1 + 65535, "has more than 65535 instructions");
    // Exactly the limit is fine.
    std::string ok(kRegs);
    for (int i = 0; i < 65535; ++i)
        ok += "exit;\n";
    EXPECT_EQ(test::parse(wrap(ok)).functions.at(0).code.size(), 65535u);
}

} // namespace
} // namespace synclab::ptx
