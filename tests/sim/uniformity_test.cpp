// The PTX uniformity analysis behind the cost model's compiler aggregation (sim/uniformity.h): which
// registers are the same in every lane of a warp, and which atomics ptxas turns into one per warp.
#include "ptx/parser.h"
#include "sim/uniformity.h"

#include <gtest/gtest.h>

#include <string>

namespace synclab::sim {
namespace {

// Six atomics: 0 a uniform address and operand (atomic_counter's int_ticket); 1 a lane-dependent
// address; 2 a lane-dependent operand on a uniform address (REDUX.SUM when its result is unused);
// 3 an address loaded from memory (known only at run time, as histogram's bins); 4 uniform but
// shared memory; 5 a loop variable (two definitions).
const char* kAtomicsPtx = R"(
.version 9.0
.target sm_90
.address_size 64
.visible .entry atomics(.param .u64 p_counters, .param .u64 p_data)
{
    .reg .pred %p<2>;
    .reg .b32 %r<20>;
    .reg .b64 %rd<20>;
    .shared .align 4 .u32 s_count;
    ld.param.u64 %rd1, [p_counters];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %ctaid.x;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd2, %rd3;
    atom.global.add.u32 %r2, [%rd4], 1;
    mov.u32 %r3, %tid.x;
    mul.wide.u32 %rd5, %r3, 4;
    add.s64 %rd6, %rd2, %rd5;
    atom.global.add.u32 %r4, [%rd6], 1;
    atom.global.add.u32 %r5, [%rd2], %r3;
    ld.param.u64 %rd7, [p_data];
    cvta.to.global.u64 %rd8, %rd7;
    ld.global.u32 %r6, [%rd8];
    mul.wide.u32 %rd9, %r6, 4;
    add.s64 %rd10, %rd2, %rd9;
    atom.global.add.u32 %r7, [%rd10], 1;
    atom.shared.add.u32 %r8, [s_count], 1;
    mov.u32 %r9, 0;
LOOP:
    add.u32 %r9, %r9, 1;
    mul.wide.u32 %rd11, %r9, 4;
    add.s64 %rd12, %rd2, %rd11;
    atom.global.add.u32 %r10, [%rd12], 1;
    setp.lt.u32 %p1, %r9, 4;
    @%p1 bra LOOP;
    add.u32 %r11, %r2, %r4;
    add.u32 %r11, %r11, %r5;
    add.u32 %r11, %r11, %r7;
    add.u32 %r11, %r11, %r8;
    add.u32 %r11, %r11, %r10;
    st.global.u32 [%rd2], %r11;
    ret;
}
)";

TEST(Uniformity, OnlyAtomicsPtxasCanProveWarpUniformAreAggregated) {
    const ptx::Module m = ptx::parse_module(kAtomicsPtx, "atomics.ptx");
    const ptx::Function& fn = m.functions.at(0);
    const std::vector<uint8_t> aggregatable = aggregatable_atomics(fn);
    std::vector<uint8_t> atom_flags;
    for (size_t pc = 0; pc < fn.code.size(); ++pc)
        if (fn.code[pc].op == ptx::Op::Atom) atom_flags.push_back(aggregatable[pc]);
    EXPECT_EQ(atom_flags, (std::vector<uint8_t>{kUniformAdd, kNotAggregated, kUniformAddress, kNotAggregated,
                                                kNotAggregated, kNotAggregated}));
}

TEST(Uniformity, RegistersFromParametersAndBlockIndicesAreUniformLanesAndLoadsAreNot) {
    const ptx::Module m = ptx::parse_module(kAtomicsPtx, "atomics.ptx");
    const ptx::Function& fn = m.functions.at(0);
    const std::vector<uint8_t> uniform = warp_uniform_registers(fn);
    auto is_uniform = [&](const std::string& name) {
        for (size_t r = 0; r < fn.registers.size(); ++r)
            if (fn.registers[r].name == name) return uniform[r] != 0;
        ADD_FAILURE() << "no register " << name;
        return false;
    };
    EXPECT_TRUE(is_uniform("%rd2"));  // a parameter, converted
    EXPECT_TRUE(is_uniform("%rd4"));  // + blockIdx.x * 4
    EXPECT_FALSE(is_uniform("%r3"));  // threadIdx.x
    EXPECT_FALSE(is_uniform("%rd6")); // an address from it
    EXPECT_FALSE(is_uniform("%r6"));  // a load from global memory
    EXPECT_FALSE(is_uniform("%r9"));  // defined twice (a loop variable)
    EXPECT_FALSE(is_uniform("%r2"));  // an atomic's result differs per lane
}

} // namespace
} // namespace synclab::sim
