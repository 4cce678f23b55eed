// One test per instruction family: op, type(s), space, modifiers, memory order/scope and operand
// layout as documented in ir.h.
#include "ptx_test_util.h"

namespace synclab::ptx {
namespace {

using test::parse_body;
using test::parse_one;
using test::slot;

bool has(const Instruction& inst, uint16_t bits) {
    return (inst.mods & bits) == bits;
}

TEST(ptx_instructions, Mov) {
    Instruction i = parse_one("mov.u32 %r1, %r2");
    EXPECT_EQ(i.op, Op::Mov);
    EXPECT_EQ(i.type, Type::U32);
    EXPECT_EQ(i.operand_count, 2u);
    EXPECT_EQ(i.ops[1].kind, Operand::Kind::Reg);

    i = parse_one("mov.pred %p1, %p2");
    EXPECT_EQ(i.type, Type::Pred);
    EXPECT_EQ(i.ops[0].reg, slot("%p1"));
    EXPECT_EQ(parse_one("mov.pred %p1, 1").ops[1].imm, 1u);

    i = parse_one("mov.b64 %rd1, {%r1, %r2}"); // pack
    EXPECT_EQ(i.ops[1].kind, Operand::Kind::Vector);
    EXPECT_EQ(i.ops[1].vec_count, 2u);
    i = parse_one("mov.b64 {%r1, %r2}, %fd1"); // unpack
    EXPECT_EQ(i.ops[0].kind, Operand::Kind::Vector);
    EXPECT_EQ(i.ops[1].reg, slot("%fd1"));
    EXPECT_EQ(parse_one("mov.u64 %rd1, %clock64").ops[1].special, SpecialReg::Clock64);
}

TEST(ptx_instructions, Cvt) {
    struct Case {
        const char* text;
        Type dst, src;
        Rounding rounding;
        uint16_t mods;
    };
    const Case cases[] = {
        {"cvt.rn.f32.s32 %f1, %r1", Type::F32, Type::S32, Rounding::Nearest, 0},
        {"cvt.rz.f32.f64 %f1, %fd1", Type::F32, Type::F64, Rounding::Zero, 0},
        {"cvt.rm.f64.u32 %fd1, %r1", Type::F64, Type::U32, Rounding::Down, 0},
        {"cvt.rp.f32.u64 %f1, %rd1", Type::F32, Type::U64, Rounding::Up, 0},
        {"cvt.rzi.s32.f32 %r1, %f1", Type::S32, Type::F32, Rounding::Zero, mod::kRoundInt},
        {"cvt.rni.f32.f32 %f1, %f2", Type::F32, Type::F32, Rounding::Nearest, mod::kRoundInt},
        {"cvt.rmi.f32.f32 %f1, %f2", Type::F32, Type::F32, Rounding::Down, mod::kRoundInt},
        {"cvt.rpi.f64.f64 %fd1, %fd2", Type::F64, Type::F64, Rounding::Up, mod::kRoundInt},
        {"cvt.ftz.sat.f32.f32 %f1, %f2", Type::F32, Type::F32, Rounding::Default, mod::kFtz | mod::kSat},
        {"cvt.u32.u64 %r1, %rd1", Type::U32, Type::U64, Rounding::Default, 0},
        {"cvt.s64.s32 %rd1, %r1", Type::S64, Type::S32, Rounding::Default, 0},
        {"cvt.u16.u32 %rs1, %r1", Type::U16, Type::U32, Rounding::Default, 0},
        {"cvt.rn.f16.f32 %rs1, %f1", Type::F16, Type::F32, Rounding::Nearest, 0},
        {"cvt.f32.f16 %f1, %rs1", Type::F32, Type::F16, Rounding::Default, 0},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.text);
        const Instruction i = parse_one(c.text);
        EXPECT_EQ(i.op, Op::Cvt);
        EXPECT_EQ(i.type, c.dst);
        EXPECT_EQ(i.type2, c.src);
        EXPECT_EQ(i.rounding, c.rounding);
        EXPECT_EQ(i.mods, c.mods);
        EXPECT_EQ(i.operand_count, 2u);
    }
}

TEST(ptx_instructions, Cvta) {
    Instruction i = parse_one("cvta.to.global.u64 %rd1, %rd2");
    EXPECT_EQ(i.op, Op::Cvta);
    EXPECT_EQ(i.space, Space::Global);
    EXPECT_EQ(i.type, Type::U64);
    EXPECT_TRUE(has(i, mod::kToSpace));
    i = parse_one("cvta.shared.u64 %rd1, %rd2");
    EXPECT_EQ(i.space, Space::Shared);
    EXPECT_FALSE(has(i, mod::kToSpace));
    EXPECT_EQ(parse_one("cvta.local.u64 %rd1, %rd2").space, Space::Local);
    EXPECT_EQ(parse_one("cvta.const.u64 %rd1, %rd2").space, Space::Const);
    EXPECT_EQ(parse_one("cvta.param.u64 %rd1, %rd2").space, Space::Param);
    i = parse_one("cvta.to.shared.u32 %r1, %rd2");
    EXPECT_EQ(i.type, Type::U32);
    EXPECT_EQ(i.space, Space::Shared);
}

TEST(ptx_instructions, Ld) {
    Instruction i = parse_one("ld.global.f32 %f1, [%rd1]");
    EXPECT_EQ(i.op, Op::Ld);
    EXPECT_EQ(i.space, Space::Global);
    EXPECT_EQ(i.type, Type::F32);
    EXPECT_EQ(i.order, MemOrder::Weak);
    EXPECT_EQ(i.scope, MemScope::None);
    EXPECT_EQ(i.vector, 1u);
    EXPECT_EQ(i.ops[0].reg, slot("%f1"));
    EXPECT_EQ(i.ops[1].kind, Operand::Kind::Address);
    EXPECT_EQ(i.ops[1].reg, slot("%rd1"));

    EXPECT_EQ(parse_one("ld.u32 %r1, [%rd1]").space, Space::Generic);
    EXPECT_EQ(parse_one("ld.shared.u32 %r1, [%r2]").space, Space::Shared);
    EXPECT_EQ(parse_one("ld.shared::cta.u32 %r1, [%r2]").space, Space::Shared);
    EXPECT_EQ(parse_one("ld.local.u32 %r1, [%rd2]").space, Space::Local);
    EXPECT_EQ(parse_one("ld.const.u32 %r1, [%rd2]").space, Space::Const);
    EXPECT_EQ(parse_one("ld.param.u32 %r1, [%rd2]").space, Space::Param);

    i = parse_one("ld.volatile.global.u32 %r1, [%rd1]");
    EXPECT_EQ(i.order, MemOrder::Volatile);
    i = parse_one("ld.acquire.gpu.b32 %r4,[%rd3]");
    EXPECT_EQ(i.order, MemOrder::Acquire);
    EXPECT_EQ(i.scope, MemScope::Gpu);
    EXPECT_EQ(i.space, Space::Generic);
    i = parse_one("ld.relaxed.cta.shared.u32 %r1, [%r2]");
    EXPECT_EQ(i.order, MemOrder::Relaxed);
    EXPECT_EQ(i.scope, MemScope::Cta);
    EXPECT_EQ(parse_one("ld.acquire.sys.global.u32 %r1, [%rd1]").scope, MemScope::Sys);
    EXPECT_EQ(parse_one("ld.relaxed.cluster.global.u32 %r1, [%rd1]").scope, MemScope::Cluster);
    EXPECT_EQ(parse_one("ld.weak.global.u32 %r1, [%rd1]").order, MemOrder::Weak);

    // Cache operators and eviction hints are accepted and have no effect on the IR.
    for (const char* text :
         {"ld.global.nc.f32 %f1, [%rd1]", "ld.global.ca.f32 %f1, [%rd1]", "ld.global.cg.f32 %f1, [%rd1]",
          "ld.global.cs.f32 %f1, [%rd1]", "ld.global.lu.f32 %f1, [%rd1]", "ld.global.cv.f32 %f1, [%rd1]",
          "ld.global.nc.L1::no_allocate.f32 %f1, [%rd1]", "ld.global.L1::evict_last.L2::256B.f32 %f1, [%rd1]",
          "ld.global.L2::cache_hint.f32 %f1, [%rd1], %rd2"}) {
        SCOPED_TRACE(text);
        i = parse_one(text);
        EXPECT_EQ(i.space, Space::Global);
        EXPECT_EQ(i.type, Type::F32);
        EXPECT_EQ(i.order, MemOrder::Weak);
        EXPECT_EQ(i.mods, 0u);
        EXPECT_EQ(i.operand_count, 2u); // the cache-policy operand is dropped with the hint
    }

    i = parse_one("ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd8+16]");
    EXPECT_EQ(i.vector, 4u);
    EXPECT_EQ(i.ops[0].vec_count, 4u);
    EXPECT_EQ(i.ops[1].imm, 16u);
    i = parse_one("ld.global.v2.u32 {%r3, %r4}, [%rd9]");
    EXPECT_EQ(i.vector, 2u);
    EXPECT_EQ(i.ops[0].vec[1], slot("%r4"));
}

TEST(ptx_instructions, St) {
    Instruction i = parse_one("st.global.u32 [%rd1+4], %r1");
    EXPECT_EQ(i.op, Op::St);
    EXPECT_EQ(i.space, Space::Global);
    EXPECT_EQ(i.type, Type::U32);
    EXPECT_EQ(i.ops[0].kind, Operand::Kind::Address);
    EXPECT_EQ(i.ops[0].imm, 4u);
    EXPECT_EQ(i.ops[1].reg, slot("%r1"));

    i = parse_one("st.release.gpu.b32 [%rd3],%r2");
    EXPECT_EQ(i.order, MemOrder::Release);
    EXPECT_EQ(i.scope, MemScope::Gpu);
    i = parse_one("st.relaxed.cta.b32 [%rd4],%r5");
    EXPECT_EQ(i.order, MemOrder::Relaxed);
    EXPECT_EQ(i.scope, MemScope::Cta);
    EXPECT_EQ(parse_one("st.volatile.shared.u32 [%r7], %r1").order, MemOrder::Volatile);
    for (const char* text : {"st.global.wb.f32 [%rd1], %f1", "st.global.wt.f32 [%rd1], %f1",
                             "st.global.cg.f32 [%rd1], %f1", "st.global.cs.f32 [%rd1], %f1"}) {
        SCOPED_TRACE(text);
        EXPECT_EQ(parse_one(text).space, Space::Global);
    }
    i = parse_one("st.local.v4.u32 [%rd5+48], {%r1, %r2, %r3, %r4}");
    EXPECT_EQ(i.vector, 4u);
    EXPECT_EQ(i.ops[1].kind, Operand::Kind::Vector);
    i = parse_one("st.shared.u32 [%r1], 0");
    EXPECT_EQ(i.ops[1].kind, Operand::Kind::Imm);
    EXPECT_EQ(parse_one("st.global.f32 [%rd1], 0f3F800000").ops[1].imm, 0x3F800000u);
}

TEST(ptx_instructions, Selp) {
    const Instruction i = parse_one("selp.b32 %r6, %r7, 9, %p4");
    EXPECT_EQ(i.op, Op::Selp);
    EXPECT_EQ(i.type, Type::B32);
    EXPECT_EQ(i.operand_count, 4u);
    EXPECT_EQ(i.ops[1].reg, slot("%r7"));
    EXPECT_EQ(i.ops[2].imm, 9u);
    EXPECT_EQ(i.ops[3].reg, slot("%p4"));
    EXPECT_EQ(parse_one("selp.f32 %f1, 0f3F800000, %f2, %p1").ops[1].imm, 0x3F800000u);
}

TEST(ptx_instructions, IntegerArithmetic) {
    struct Case {
        const char* text;
        Op op;
        Type type;
        uint16_t mods;
        uint8_t operands;
    };
    const Case cases[] = {
        {"add.s32 %r1, %r2, %r3", Op::Add, Type::S32, 0, 3},
        {"add.u64 %rd5, %rd1, 0", Op::Add, Type::U64, 0, 3},
        {"add.sat.s32 %r1, %r2, %r3", Op::Add, Type::S32, mod::kSat, 3},
        {"sub.s64 %rd1, %rd2, %rd3", Op::Sub, Type::S64, 0, 3},
        {"mul.lo.s32 %r1, %r2, 3", Op::Mul, Type::S32, mod::kLo, 3},
        {"mul.hi.u32 %r1, %r2, %r3", Op::Mul, Type::U32, mod::kHi, 3},
        {"mul.hi.u64 %rd1, %rd2, %rd3", Op::Mul, Type::U64, mod::kHi, 3},
        {"mul.wide.s32 %rd1, %r1, 4", Op::Mul, Type::S32, mod::kWide, 3},
        {"mul.wide.u16 %r1, %rs1, %rs2", Op::Mul, Type::U16, mod::kWide, 3},
        {"mul.s32 %r1, %r2, %r3", Op::Mul, Type::S32, mod::kLo, 3}, // omitted .lo
        {"mad.lo.s32 %r1, %r2, %r3, 1", Op::Mad, Type::S32, mod::kLo, 4},
        {"mad.wide.u32 %rd1, %r2, %r3, %rd4", Op::Mad, Type::U32, mod::kWide, 4},
        {"mad.hi.sat.s32 %r1, %r2, %r3, %r4", Op::Mad, Type::S32, mod::kHi | mod::kSat, 4},
        {"div.s32 %r1, %r2, %r3", Op::Div, Type::S32, 0, 3},
        {"div.u64 %rd1, %rd2, %rd3", Op::Div, Type::U64, 0, 3},
        {"rem.u32 %r1, %r2, %r3", Op::Rem, Type::U32, 0, 3},
        {"rem.s64 %rd1, %rd2, 7", Op::Rem, Type::S64, 0, 3},
        {"abs.s32 %r1, %r2", Op::Abs, Type::S32, 0, 2},
        {"neg.s32 %r1, %r2", Op::Neg, Type::S32, 0, 2},
        {"min.s32 %r1, %r2, %r3", Op::Min, Type::S32, 0, 3},
        {"max.u32 %r1, %r2, %r3", Op::Max, Type::U32, 0, 3},
        {"min.u64 %rd1, %rd2, %rd3", Op::Min, Type::U64, 0, 3},
        {"add.u16 %rs1, %rs2, %rs3", Op::Add, Type::U16, 0, 3},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.text);
        const Instruction i = parse_one(c.text);
        EXPECT_EQ(i.op, c.op);
        EXPECT_EQ(i.type, c.type);
        EXPECT_EQ(i.mods, c.mods);
        EXPECT_EQ(i.rounding, Rounding::Default);
        EXPECT_EQ(i.operand_count, c.operands);
        for (uint8_t k = 0; k < c.operands; ++k)
            EXPECT_NE(i.ops[k].kind, Operand::Kind::None) << k;
    }
}

TEST(ptx_instructions, FloatArithmetic) {
    struct Case {
        const char* text;
        Op op;
        Type type;
        Rounding rounding;
        uint16_t mods;
        uint8_t operands;
    };
    const Case cases[] = {
        {"add.f32 %f1, %f2, %f3", Op::Add, Type::F32, Rounding::Default, 0, 3},
        {"add.rn.ftz.f32 %f1, %f2, %f3", Op::Add, Type::F32, Rounding::Nearest, mod::kFtz, 3},
        {"sub.rz.f64 %fd1, %fd2, %fd3", Op::Sub, Type::F64, Rounding::Zero, 0, 3},
        {"mul.rm.sat.f32 %f1, %f2, %f3", Op::Mul, Type::F32, Rounding::Down, mod::kSat, 3},
        {"mad.rn.f32 %f1, %f2, %f3, %f4", Op::Mad, Type::F32, Rounding::Nearest, 0, 4},
        {"fma.rn.f32 %f1, %f2, %f3, %f4", Op::Fma, Type::F32, Rounding::Nearest, 0, 4},
        {"fma.rp.ftz.sat.f32 %f1, %f2, %f3, %f4", Op::Fma, Type::F32, Rounding::Up, mod::kFtz | mod::kSat, 4},
        {"fma.rn.f64 %fd1, %fd2, 0d3FF8000000000000, %fd3", Op::Fma, Type::F64, Rounding::Nearest, 0, 4},
        {"div.rn.f64 %fd1, %fd2, %fd3", Op::Div, Type::F64, Rounding::Nearest, 0, 3},
        {"div.approx.f32 %f1, %f2, %f3", Op::Div, Type::F32, Rounding::Default, 0, 3},
        {"div.full.ftz.f32 %f1, %f2, %f3", Op::Div, Type::F32, Rounding::Default, mod::kFtz, 3},
        {"abs.f32 %f1, %f2", Op::Abs, Type::F32, Rounding::Default, 0, 2},
        {"abs.ftz.f32 %f1, %f2", Op::Abs, Type::F32, Rounding::Default, mod::kFtz, 2},
        {"neg.f64 %fd1, %fd2", Op::Neg, Type::F64, Rounding::Default, 0, 2},
        {"min.f32 %f1, %f2, %f3", Op::Min, Type::F32, Rounding::Default, 0, 3},
        {"max.ftz.f32 %f1, %f2, %f3", Op::Max, Type::F32, Rounding::Default, mod::kFtz, 3},
        {"sqrt.rn.f32 %f1, %f2", Op::Sqrt, Type::F32, Rounding::Nearest, 0, 2},
        {"sqrt.approx.ftz.f32 %f1, %f2", Op::Sqrt, Type::F32, Rounding::Default, mod::kFtz, 2},
        {"sqrt.rn.f64 %fd1, %fd2", Op::Sqrt, Type::F64, Rounding::Nearest, 0, 2},
        {"rsqrt.approx.f32 %f1, %f2", Op::Rsqrt, Type::F32, Rounding::Default, 0, 2},
        {"rsqrt.approx.ftz.f64 %fd1, %fd2", Op::Rsqrt, Type::F64, Rounding::Default, mod::kFtz, 2},
        {"rcp.rn.f64 %fd1, %fd2", Op::Rcp, Type::F64, Rounding::Nearest, 0, 2},
        {"rcp.approx.ftz.f32 %f1, %f2", Op::Rcp, Type::F32, Rounding::Default, mod::kFtz, 2},
        {"ex2.approx.f32 %f1, %f2", Op::Ex2, Type::F32, Rounding::Default, 0, 2},
        {"ex2.approx.ftz.f32 %f1, %f2", Op::Ex2, Type::F32, Rounding::Default, mod::kFtz, 2},
        {"lg2.approx.f32 %f1, %f2", Op::Lg2, Type::F32, Rounding::Default, 0, 2},
        {"sin.approx.f32 %f1, %f2", Op::Sin, Type::F32, Rounding::Default, 0, 2},
        {"cos.approx.ftz.f32 %f1, %f2", Op::Cos, Type::F32, Rounding::Default, mod::kFtz, 2},
        {"copysign.f32 %f1, %f2, %f3", Op::Copysign, Type::F32, Rounding::Default, 0, 3},
        {"copysign.f64 %fd1, %fd2, %fd3", Op::Copysign, Type::F64, Rounding::Default, 0, 3},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.text);
        const Instruction i = parse_one(c.text);
        EXPECT_EQ(i.op, c.op);
        EXPECT_EQ(i.type, c.type);
        EXPECT_EQ(i.rounding, c.rounding);
        EXPECT_EQ(i.mods, c.mods);
        EXPECT_EQ(i.operand_count, c.operands);
    }
}

TEST(ptx_instructions, Logic) {
    Instruction i = parse_one("and.b32 %r1, %r2, 1073741568");
    EXPECT_EQ(i.op, Op::And);
    EXPECT_EQ(i.type, Type::B32);
    EXPECT_EQ(i.ops[2].imm, 1073741568u);
    i = parse_one("or.pred %p1, %p2, %p3");
    EXPECT_EQ(i.op, Op::Or);
    EXPECT_EQ(i.type, Type::Pred);
    EXPECT_EQ(i.ops[0].reg, slot("%p1"));
    EXPECT_EQ(i.ops[2].reg, slot("%p3"));
    i = parse_one("xor.b64 %rd1, %rd2, -1");
    EXPECT_EQ(i.op, Op::Xor);
    EXPECT_EQ(i.type, Type::B64);
    i = parse_one("not.b32 %r1, %r2");
    EXPECT_EQ(i.op, Op::Not);
    EXPECT_EQ(i.operand_count, 2u);
    i = parse_one("not.pred %p1, %p2");
    EXPECT_EQ(i.type, Type::Pred);
    EXPECT_EQ(parse_one("and.b16 %rs1, %rs2, %rs3").type, Type::B16);
}

TEST(ptx_instructions, BitManipulation) {
    Instruction i = parse_one("shl.b32 %r2, %r1, 2");
    EXPECT_EQ(i.op, Op::Shl);
    EXPECT_EQ(i.type, Type::B32);
    i = parse_one("shr.s32 %r6, %r5, 31");
    EXPECT_EQ(i.op, Op::Shr);
    EXPECT_EQ(i.type, Type::S32);
    EXPECT_EQ(parse_one("shr.u64 %rd4, %rd3, 33").type, Type::U64);
    EXPECT_EQ(parse_one("shl.b64 %rd6, %rd2, %r1").ops[2].reg, slot("%r1"));

    EXPECT_EQ(parse_one("popc.b32 %r1, %r2").op, Op::Popc);
    EXPECT_EQ(parse_one("popc.b64 %r1, %rd2").type, Type::B64);
    EXPECT_EQ(parse_one("clz.b32 %r1, %r2").op, Op::Clz);
    EXPECT_EQ(parse_one("brev.b64 %rd1, %rd2").op, Op::Brev);

    i = parse_one("bfe.u32 %r1, %r2, 4, 8");
    EXPECT_EQ(i.op, Op::Bfe);
    EXPECT_EQ(i.type, Type::U32);
    EXPECT_EQ(i.operand_count, 4u);
    EXPECT_EQ(i.ops[2].imm, 4u);
    EXPECT_EQ(i.ops[3].imm, 8u);
    EXPECT_EQ(parse_one("bfe.s64 %rd1, %rd2, %r1, %r2").type, Type::S64);

    i = parse_one("bfi.b32 %r1, %r2, %r3, 4, 8");
    EXPECT_EQ(i.op, Op::Bfi);
    EXPECT_EQ(i.operand_count, 5u);
    EXPECT_EQ(i.ops[1].reg, slot("%r2"));
    EXPECT_EQ(i.ops[2].reg, slot("%r3"));
    EXPECT_EQ(i.ops[3].imm, 4u);
    EXPECT_EQ(i.ops[4].imm, 8u);

    i = parse_one("prmt.b32 %r3, %r4, %r2, 21520");
    EXPECT_EQ(i.op, Op::Prmt);
    EXPECT_EQ(i.type, Type::B32);
    EXPECT_EQ(i.operand_count, 4u);
    EXPECT_EQ(i.ops[3].imm, 21520u);
}

TEST(ptx_instructions, Setp) {
    const std::pair<const char*, Cmp> int_cmps[] = {
        {"eq", Cmp::Eq}, {"ne", Cmp::Ne}, {"lt", Cmp::Lt}, {"le", Cmp::Le}, {"gt", Cmp::Gt},
        {"ge", Cmp::Ge}, {"lo", Cmp::Lo}, {"ls", Cmp::Ls}, {"hi", Cmp::Hi}, {"hs", Cmp::Hs},
    };
    for (const auto& [name, cmp] : int_cmps) {
        SCOPED_TRACE(name);
        const Instruction i = parse_one(std::string("setp.") + name + ".u32 %p1, %r1, 7");
        EXPECT_EQ(i.op, Op::Setp);
        EXPECT_EQ(i.cmp, cmp);
        EXPECT_EQ(i.type, Type::U32);
        EXPECT_EQ(i.bool_op, BoolOp::None);
        EXPECT_EQ(i.ops[0].reg, slot("%p1"));
        EXPECT_EQ(i.ops[1].kind, Operand::Kind::None);
        EXPECT_EQ(i.ops[2].reg, slot("%r1"));
        EXPECT_EQ(i.ops[3].imm, 7u);
        EXPECT_EQ(i.ops[4].kind, Operand::Kind::None);
        EXPECT_EQ(i.operand_count, 4u);
    }
    const std::pair<const char*, Cmp> float_cmps[] = {
        {"eq", Cmp::Eq},   {"ne", Cmp::Ne},   {"lt", Cmp::Lt},   {"le", Cmp::Le},   {"gt", Cmp::Gt},
        {"ge", Cmp::Ge},   {"equ", Cmp::Equ}, {"neu", Cmp::Neu}, {"ltu", Cmp::Ltu}, {"leu", Cmp::Leu},
        {"gtu", Cmp::Gtu}, {"geu", Cmp::Geu}, {"num", Cmp::Num}, {"nan", Cmp::Nan},
    };
    for (const auto& [name, cmp] : float_cmps) {
        SCOPED_TRACE(name);
        const Instruction i = parse_one(std::string("setp.") + name + ".ftz.f32 %p1, %f1, %f2");
        EXPECT_EQ(i.cmp, cmp);
        EXPECT_EQ(i.type, Type::F32);
        EXPECT_TRUE(has(i, mod::kFtz));
    }
    const std::pair<const char*, BoolOp> bools[] = {
        {"and", BoolOp::And}, {"or", BoolOp::Or}, {"xor", BoolOp::Xor}};
    for (const auto& [name, op] : bools) {
        SCOPED_TRACE(name);
        const Instruction i = parse_one(std::string("setp.ne.") + name + ".s64 %p1|%p2, %rd1, 0, %p3");
        EXPECT_EQ(i.bool_op, op);
        EXPECT_EQ(i.type, Type::S64);
        EXPECT_EQ(i.ops[1].reg, slot("%p2"));
        EXPECT_EQ(i.ops[4].reg, slot("%p3"));
        EXPECT_FALSE(i.ops[4].negate);
        EXPECT_EQ(i.operand_count, 5u);
    }
    EXPECT_EQ(parse_one("setp.eq.b32 %p1, %r1, %r2").type, Type::B32);
    EXPECT_EQ(parse_one("setp.lt.f64 %p1, %fd1, 0d0000000000000000").type, Type::F64);
}

TEST(ptx_instructions, Atom) {
    const std::pair<const char*, AtomOp> ops[] = {
        {"add.u32", AtomOp::Add}, {"min.s32", AtomOp::Min}, {"max.u64", AtomOp::Max},
        {"inc.u32", AtomOp::Inc}, {"dec.u32", AtomOp::Dec}, {"and.b32", AtomOp::And},
        {"or.b64", AtomOp::Or},   {"xor.b32", AtomOp::Xor}, {"exch.b32", AtomOp::Exch},
        {"add.f32", AtomOp::Add}, {"add.f64", AtomOp::Add}, {"add.u64", AtomOp::Add},
    };
    for (const auto& [suffix, op] : ops) {
        SCOPED_TRACE(suffix);
        const bool wide = std::string(suffix).find("64") != std::string::npos;
        const bool fp = std::string(suffix).find(".f") != std::string::npos;
        const std::string dst = fp ? (wide ? "%fd1" : "%f1") : (wide ? "%rd1" : "%r1");
        const Instruction i = parse_one(std::string("atom.global.") + suffix + " " + dst + ", [%rd2], " +
                                        (wide ? "%rd3" : "7"));
        EXPECT_EQ(i.op, Op::Atom);
        EXPECT_EQ(i.atom_op, op);
        EXPECT_EQ(i.space, Space::Global);
        EXPECT_EQ(i.order, MemOrder::Relaxed); // PTX default
        EXPECT_EQ(i.scope, MemScope::Gpu);     // PTX default
        EXPECT_EQ(i.operand_count, 3u);
        EXPECT_EQ(i.ops[1].kind, Operand::Kind::Address);
        EXPECT_EQ(i.ops[1].reg, slot("%rd2"));
    }
    Instruction i = parse_one("atom.global.add.f32 %f1, [%rd8], 0f3FC00000");
    EXPECT_EQ(i.type, Type::F32);
    EXPECT_TRUE(is_float(i.type)); // a float add
    EXPECT_EQ(i.ops[2].imm, 0x3FC00000u);

    i = parse_one("atom.global.cas.b32 %r7, [%rd9], %r1, %r6");
    EXPECT_EQ(i.atom_op, AtomOp::Cas);
    EXPECT_EQ(i.operand_count, 4u);
    EXPECT_EQ(i.ops[2].reg, slot("%r1"));
    EXPECT_EQ(i.ops[3].reg, slot("%r6"));
    EXPECT_EQ(parse_one("atom.global.cas.b64 %rd4, [%rd7], %rd1, %rd3").type, Type::B64);

    i = parse_one("atom.shared.add.u32 %r6, [%r5], 1");
    EXPECT_EQ(i.space, Space::Shared);
    i = parse_one("atom.add.acq_rel.cta.s32 %r5,[%rd4],%r6");
    EXPECT_EQ(i.space, Space::Generic);
    EXPECT_EQ(i.order, MemOrder::AcqRel);
    EXPECT_EQ(i.scope, MemScope::Cta);
    EXPECT_EQ(i.type, Type::S32);
    i = parse_one("atom.exch.acquire.gpu.b32 %r9,[%rd3],%r8");
    EXPECT_EQ(i.order, MemOrder::Acquire);
    EXPECT_EQ(i.atom_op, AtomOp::Exch);
    i = parse_one("atom.global.cta.add.u32 %r3, [%rd1], 1");
    EXPECT_EQ(i.scope, MemScope::Cta);
    EXPECT_EQ(i.order, MemOrder::Relaxed);
    EXPECT_EQ(parse_one("atom.global.sys.add.u32 %r4, [%rd2], 1").scope, MemScope::Sys);
    EXPECT_EQ(parse_one("atom.release.gpu.global.or.b32 %r1, [%rd1], 1").order, MemOrder::Release);
    EXPECT_EQ(parse_one("atom.relaxed.cluster.shared::cta.max.s32 %r1, [%r2], 1").scope, MemScope::Cluster);
    EXPECT_EQ(parse_one("atom.sc.sys.global.add.u32 %r1, [%rd1], 1").order, MemOrder::Sc);
}

TEST(ptx_instructions, Red) {
    Instruction i = parse_one("red.global.add.u32 [%rd1], %r1");
    EXPECT_EQ(i.op, Op::Red);
    EXPECT_EQ(i.atom_op, AtomOp::Add);
    EXPECT_EQ(i.space, Space::Global);
    EXPECT_EQ(i.order, MemOrder::Relaxed);
    EXPECT_EQ(i.scope, MemScope::Gpu);
    EXPECT_EQ(i.operand_count, 2u);
    EXPECT_EQ(i.ops[0].kind, Operand::Kind::Address);
    EXPECT_EQ(i.ops[1].reg, slot("%r1"));
    const std::pair<const char*, AtomOp> ops[] = {
        {"add.f32 [%rd1], %f1", AtomOp::Add}, {"min.s32 [%rd1], %r1", AtomOp::Min},
        {"max.u32 [%rd1], %r1", AtomOp::Max}, {"inc.u32 [%rd1], 5", AtomOp::Inc},
        {"dec.u32 [%rd1], 5", AtomOp::Dec},   {"and.b32 [%rd1], %r1", AtomOp::And},
        {"or.b64 [%rd1], %rd2", AtomOp::Or},  {"xor.b32 [%rd1], %r1", AtomOp::Xor},
    };
    for (const auto& [text, op] : ops) {
        SCOPED_TRACE(text);
        EXPECT_EQ(parse_one(std::string("red.global.") + text).atom_op, op);
    }
    i = parse_one("red.release.sys.shared.add.u64 [%r1], %rd1");
    EXPECT_EQ(i.order, MemOrder::Release);
    EXPECT_EQ(i.scope, MemScope::Sys);
    EXPECT_EQ(i.space, Space::Shared);
    EXPECT_EQ(parse_one("red.add.u32 [%rd1], 1").space, Space::Generic);
}

TEST(ptx_instructions, MembarAndFence) {
    struct Case {
        const char* text;
        MemOrder order;
        MemScope scope;
    };
    const Case cases[] = {
        {"membar.cta", MemOrder::Sc, MemScope::Cta},
        {"membar.gl", MemOrder::Sc, MemScope::Gpu},
        {"membar.sys", MemOrder::Sc, MemScope::Sys},
        {"fence.sc.cta", MemOrder::Sc, MemScope::Cta},
        {"fence.sc.gpu", MemOrder::Sc, MemScope::Gpu},
        {"fence.acq_rel.gpu", MemOrder::AcqRel, MemScope::Gpu},
        {"fence.acq_rel.sys", MemOrder::AcqRel, MemScope::Sys},
        {"fence.cluster", MemOrder::AcqRel, MemScope::Cluster},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.text);
        const Instruction i = parse_one(c.text);
        EXPECT_EQ(i.op, Op::Membar);
        EXPECT_EQ(i.order, c.order);
        EXPECT_EQ(i.scope, c.scope);
        EXPECT_EQ(i.operand_count, 0u);
    }
}

TEST(ptx_instructions, Barriers) {
    Instruction i = parse_one("bar.sync 0");
    EXPECT_EQ(i.op, Op::Bar);
    EXPECT_EQ(i.mods, mod::kAligned);
    EXPECT_EQ(i.ops[0].kind, Operand::Kind::Imm);
    EXPECT_EQ(i.ops[0].imm, 0u);
    EXPECT_EQ(i.ops[1].kind, Operand::Kind::None);
    EXPECT_EQ(i.operand_count, 1u);

    i = parse_one("bar.sync 1, 64");
    EXPECT_EQ(i.ops[0].imm, 1u);
    EXPECT_EQ(i.ops[1].imm, 64u);
    EXPECT_EQ(i.operand_count, 2u);

    i = parse_one("barrier.sync 2");
    EXPECT_EQ(i.op, Op::Bar);
    EXPECT_EQ(i.mods, 0u); // not aligned
    i = parse_one("barrier.sync.aligned 4, 32");
    EXPECT_EQ(i.mods, mod::kAligned);
    EXPECT_EQ(i.ops[1].imm, 32u);

    i = parse_one("bar.arrive 3, 64");
    EXPECT_EQ(i.mods, mod::kArrive | mod::kAligned);
    i = parse_one("barrier.arrive %r1, %r2");
    EXPECT_EQ(i.mods, mod::kArrive);
    EXPECT_EQ(i.ops[0].reg, slot("%r1"));
    EXPECT_EQ(i.ops[1].reg, slot("%r2"));
    EXPECT_EQ(parse_one("bar.cta.sync 0").mods, mod::kAligned);
    EXPECT_EQ(parse_one("barrier.cta.sync.aligned 0").mods, mod::kAligned);
}

TEST(ptx_instructions, WarpSync) {
    Instruction i = parse_one("bar.warp.sync -1");
    EXPECT_EQ(i.op, Op::WarpSync);
    EXPECT_EQ(i.ops[0].kind, Operand::Kind::Imm);
    EXPECT_EQ(i.ops[0].imm & 0xffffffffu, 0xffffffffu);
    EXPECT_EQ(i.operand_count, 1u);
    i = parse_one("bar.warp.sync %r3");
    EXPECT_EQ(i.ops[0].reg, slot("%r3"));
}

TEST(ptx_instructions, Vote) {
    Instruction i = parse_one("vote.sync.ballot.b32 %r2, %p3, %r7");
    EXPECT_EQ(i.op, Op::Vote);
    EXPECT_EQ(i.vote, VoteMode::Ballot);
    EXPECT_EQ(i.type, Type::B32);
    EXPECT_EQ(i.ops[0].reg, slot("%r2"));
    EXPECT_EQ(i.ops[1].reg, slot("%p3"));
    EXPECT_FALSE(i.ops[1].negate);
    EXPECT_EQ(i.ops[2].reg, slot("%r7"));
    EXPECT_EQ(i.operand_count, 3u);

    i = parse_one("vote.sync.all.pred %p1, %p2, -1");
    EXPECT_EQ(i.vote, VoteMode::All);
    EXPECT_EQ(i.type, Type::Pred);
    EXPECT_EQ(i.ops[0].reg, slot("%p1"));
    EXPECT_EQ(i.ops[1].reg, slot("%p2"));
    EXPECT_EQ(i.ops[2].kind, Operand::Kind::Imm);
    i = parse_one("vote.sync.any.pred %p1, !%p2, %r1");
    EXPECT_EQ(i.vote, VoteMode::Any);
    EXPECT_TRUE(i.ops[1].negate);
    EXPECT_EQ(i.ops[2].reg, slot("%r1"));
    EXPECT_EQ(parse_one("vote.sync.uni.pred %p1, %p2, 0xffff").vote, VoteMode::Uni);
}

TEST(ptx_instructions, Shfl) {
    const std::pair<const char*, ShflMode> modes[] = {
        {"up", ShflMode::Up}, {"down", ShflMode::Down}, {"bfly", ShflMode::Bfly}, {"idx", ShflMode::Idx}};
    for (const auto& [name, mode] : modes) {
        SCOPED_TRACE(name);
        const Instruction i =
            parse_one(std::string("shfl.sync.") + name + ".b32 %r8|%p1, %r4, %r6, %r5, %r7");
        EXPECT_EQ(i.op, Op::Shfl);
        EXPECT_EQ(i.shfl, mode);
        EXPECT_EQ(i.type, Type::B32);
        EXPECT_EQ(i.ops[0].reg, slot("%r8"));
        EXPECT_EQ(i.ops[1].reg, slot("%p1"));
        EXPECT_EQ(i.ops[2].reg, slot("%r4"));
        EXPECT_EQ(i.ops[3].reg, slot("%r6"));
        EXPECT_EQ(i.ops[4].reg, slot("%r5"));
        EXPECT_EQ(i.ops[5].reg, slot("%r7"));
        EXPECT_EQ(i.operand_count, 6u);
    }
    const Instruction i = parse_one("shfl.sync.bfly.b32 %r1, %r2, 16, 31, -1");
    EXPECT_EQ(i.ops[1].kind, Operand::Kind::None); // no predicate output
    EXPECT_EQ(i.ops[3].imm, 16u);
    EXPECT_EQ(i.ops[4].imm, 31u);
    EXPECT_EQ(i.ops[5].kind, Operand::Kind::Imm);
}

TEST(ptx_instructions, Redux) {
    const std::pair<const char*, AtomOp> ops[] = {{"add.u32", AtomOp::Add}, {"min.s32", AtomOp::Min},
                                                  {"max.u32", AtomOp::Max}, {"and.b32", AtomOp::And},
                                                  {"or.b32", AtomOp::Or},   {"xor.b32", AtomOp::Xor}};
    for (const auto& [name, op] : ops) {
        SCOPED_TRACE(name);
        const Instruction i = parse_one(std::string("redux.sync.") + name + " %r1, %r2, %r3");
        EXPECT_EQ(i.op, Op::Redux);
        EXPECT_EQ(i.atom_op, op);
        EXPECT_EQ(i.ops[0].reg, slot("%r1"));
        EXPECT_EQ(i.ops[1].reg, slot("%r2"));
        EXPECT_EQ(i.ops[2].reg, slot("%r3"));
        EXPECT_TRUE(ptx::is_warp_collective(i.op));
    }
    EXPECT_EQ(parse_one("redux.sync.min.s32 %r1, %r2, -1").type, Type::S32);
}

TEST(ptx_instructions, MatchAndElect) {
    Instruction i = parse_one("match.any.sync.b32 %r1, %r2, %r3");
    EXPECT_EQ(i.op, Op::Match);
    EXPECT_EQ(i.vote, VoteMode::Any);
    EXPECT_EQ(i.type, Type::B32);
    EXPECT_EQ(i.ops[1].kind, Operand::Kind::None);
    EXPECT_EQ(i.ops[2].reg, slot("%r2"));
    EXPECT_EQ(i.ops[3].reg, slot("%r3"));
    i = parse_one("match.all.sync.b64 %r1|%p1, %rd2, -1");
    EXPECT_EQ(i.vote, VoteMode::All);
    EXPECT_EQ(i.type, Type::B64);
    EXPECT_EQ(i.ops[1].reg, slot("%p1"));
    EXPECT_EQ(i.ops[3].kind, Operand::Kind::Imm);
    i = parse_one("elect.sync %r1|%p1, -1");
    EXPECT_EQ(i.op, Op::Elect);
    EXPECT_EQ(i.ops[0].reg, slot("%r1"));
    EXPECT_EQ(i.ops[1].reg, slot("%p1"));
    EXPECT_EQ(i.ops[2].kind, Operand::Kind::Imm);
    i = parse_one("elect.sync _|%p1, %r3");
    EXPECT_EQ(i.ops[0].kind, Operand::Kind::None); // the sink: no lane id written
    EXPECT_EQ(i.ops[2].reg, slot("%r3"));
}

TEST(ptx_instructions, BarRed) {
    Instruction i = parse_one("bar.red.popc.u32 %r1, 0, %p1");
    EXPECT_EQ(i.op, Op::Bar);
    EXPECT_TRUE(i.mods & mod::kRed);
    EXPECT_TRUE(i.mods & mod::kAligned);
    EXPECT_EQ(i.atom_op, AtomOp::Add);
    EXPECT_EQ(i.ops[0].imm, 0u);
    EXPECT_EQ(i.ops[1].kind, Operand::Kind::None);
    EXPECT_EQ(i.ops[2].reg, slot("%r1"));
    EXPECT_EQ(i.ops[3].reg, slot("%p1"));
    i = parse_one("bar.red.and.pred %p2, 1, 64, !%p1");
    EXPECT_EQ(i.atom_op, AtomOp::And);
    EXPECT_EQ(i.ops[1].imm, 64u);
    EXPECT_EQ(i.ops[2].reg, slot("%p2"));
    EXPECT_TRUE(i.ops[3].negate);
    i = parse_one("barrier.red.or.pred %p2, 0, %p1");
    EXPECT_EQ(i.atom_op, AtomOp::Or);
    EXPECT_FALSE(i.mods & mod::kAligned); // barrier.red without .aligned counts threads one by one
}

TEST(ptx_instructions, ControlAndMisc) {
    Instruction i = parse_one("activemask.b32 %r1");
    EXPECT_EQ(i.op, Op::Activemask);
    EXPECT_EQ(i.type, Type::B32);
    EXPECT_EQ(i.ops[0].reg, slot("%r1"));
    EXPECT_EQ(parse_one("ret").op, Op::Ret);
    EXPECT_EQ(parse_one("exit").op, Op::Exit);
    EXPECT_EQ(parse_one("trap").op, Op::Trap);
    i = parse_one("nanosleep.u32 %r3");
    EXPECT_EQ(i.op, Op::Nanosleep);
    EXPECT_EQ(i.ops[0].reg, slot("%r3"));
    EXPECT_EQ(parse_one("nanosleep.u32 100").ops[0].imm, 100u);
    const Function fn = parse_body("$L__top:\nbra.uni $L__top;\n@%p1 bra $L__top;\n");
    EXPECT_EQ(fn.code[0].op, Op::Bra);
    EXPECT_TRUE(has(fn.code[0], mod::kUni));
    EXPECT_EQ(fn.code[0].target, 0u);
    EXPECT_EQ(fn.code[1].target, 0u);
    EXPECT_EQ(fn.code[0].operand_count, 0u);
}

TEST(ptx_ir, Names) {
    EXPECT_STREQ(to_string(Op::WarpSync), "bar.warp.sync");
    EXPECT_STREQ(to_string(Op::Atom), "atom");
    EXPECT_STREQ(to_string(Type::F32), "f32");
    EXPECT_STREQ(to_string(Space::Shared), "shared");
    EXPECT_EQ(type_size(Type::Pred), 1u);
    EXPECT_EQ(type_size(Type::None), 0u);
    EXPECT_EQ(type_size(Type::F16), 2u);
    EXPECT_EQ(type_size(Type::S64), 8u);
    EXPECT_TRUE(is_signed(Type::S8));
    EXPECT_FALSE(is_signed(Type::U32));
    EXPECT_FALSE(is_signed(Type::B32));
    EXPECT_TRUE(is_float(Type::F64));
    EXPECT_FALSE(is_float(Type::B64));
}

} // namespace
} // namespace synclab::ptx
