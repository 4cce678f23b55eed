// The opcode table (ptx/opcodes.h): one row per Op, names that lead back to their row, traits that
// agree with what the simulator and the instrumenter rely on, and a parser that dispatches through it.
#include "ptx/ir.h"
#include "ptx/opcodes.h"
#include "ptx/parser.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace synclab::ptx {
namespace {

TEST(Opcodes, EveryRowHasAUniqueNameThatLeadsBackToIt) {
    std::set<std::string_view> names;
    for (size_t i = 0; i < kOpCount; ++i) {
        const Op op = static_cast<Op>(i);
        EXPECT_TRUE(names.insert(info(op).name).second) << "duplicate name " << info(op).name;
        EXPECT_EQ(std::string(to_string(op)), std::string(info(op).name));
        if (info(op).name.find('.') != std::string_view::npos) continue; // reached through its decoder
        Op back = Op::Mov;
        ASSERT_TRUE(op_from_name(info(op).name, back)) << info(op).name;
        EXPECT_EQ(back, op) << info(op).name;
    }
}

TEST(Opcodes, AliasesAndUnsupportedNamesDoNotShadowRows) {
    Op op = Op::Mov;
    ASSERT_TRUE(op_from_name("fence", op));
    EXPECT_EQ(op, Op::Membar);
    ASSERT_TRUE(op_from_name("barrier", op));
    EXPECT_EQ(op, Op::Bar);
    EXPECT_FALSE(op_from_name("lop3", op));
    EXPECT_FALSE(op_from_name("call", op));
    for (std::string_view name : kUnsupportedOpcodes) {
        EXPECT_FALSE(op_from_name(name, op)) << name << " is both supported and unsupported";
        EXPECT_TRUE(is_unsupported_opcode(name));
    }
    EXPECT_FALSE(is_unsupported_opcode("ld"));
}

TEST(Opcodes, TraitsMatchTheInstructionsTheyDescribe) {
    for (Op op : {Op::Ld, Op::St, Op::Atom, Op::Red})
        EXPECT_TRUE(is_memory_access(op)) << to_string(op);
    for (Op op : {Op::Atom, Op::Red})
        EXPECT_TRUE(is_atomic(op)) << to_string(op);
    for (Op op : {Op::Ld, Op::St})
        EXPECT_FALSE(is_atomic(op)) << to_string(op);
    for (Op op : {Op::WarpSync, Op::Vote, Op::Shfl})
        EXPECT_TRUE(is_warp_collective(op)) << to_string(op);
    EXPECT_TRUE(is_barrier(Op::Bar));
    EXPECT_FALSE(is_barrier(Op::WarpSync));
    EXPECT_TRUE(is_fence(Op::Membar));
    for (Op op : {Op::Ret, Op::Exit})
        EXPECT_TRUE(is_exit(op)) << to_string(op);
    // Every memory access, fence, barrier and exit produces an event; nothing else does.
    for (size_t i = 0; i < kOpCount; ++i) {
        const Op op = static_cast<Op>(i);
        EXPECT_EQ(emits_event(op), is_memory_access(op) || is_fence(op) || is_barrier(op) || is_exit(op))
            << to_string(op);
    }
}

TEST(Opcodes, TheParserDispatchesThroughTheTable) {
    const Module m = parse_module(R"(
.version 8.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    and.b32 %r1, %r2, %r3;
    shr.u32 %r1, %r1, 2;
    popc.b32 %r1, %r1;
    fence.acq_rel.gpu;
    barrier.sync 0;
    bar.warp.sync -1;
    exit;
}
)",
                                  "table.ptx");
    const Function* fn = m.find_entry("k");
    ASSERT_NE(fn, nullptr);
    const Op expected[] = {Op::Ld, Op::And, Op::Shr, Op::Popc, Op::Membar, Op::Bar, Op::WarpSync, Op::Exit};
    ASSERT_EQ(fn->code.size(), std::size(expected));
    for (size_t i = 0; i < fn->code.size(); ++i)
        EXPECT_EQ(fn->code[i].op, expected[i]) << fn->text[i];
}

TEST(Opcodes, UnsupportedAndUnknownOpcodesAreToldApart) {
    auto message = [](const std::string& instruction) {
        try {
            parse_module(".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n"
                         "    .reg .b32 %r<4>;\n    " +
                             instruction + ";\n    exit;\n}\n",
                         "bad.ptx");
        } catch (const ParseError& e) {
            return std::string(e.what());
        }
        return std::string("(parsed)");
    };
    EXPECT_NE(message("lop3.b32 %r1, %r2, %r3, %r1, 0x96").find("unsupported instruction 'lop3'"),
              std::string::npos);
    EXPECT_NE(message("frobnicate.b32 %r1, %r2").find("unknown instruction 'frobnicate'"), std::string::npos);
    EXPECT_NE(message("call foo").find("device function calls are not supported"), std::string::npos);
}

} // namespace
} // namespace synclab::ptx
