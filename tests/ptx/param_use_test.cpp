// Which parameters are pointers (ptx/param_use.h): from the demangled signature, else from the PTX's
// use of the loaded value as an address.
#include "ptx/param_use.h"
#include "ptx/parser.h"

#include <gtest/gtest.h>

namespace synclab::ptx {
namespace {

using Types = std::vector<std::string>;

TEST(ptx_param_use, SignatureTypesSplitAtTopLevelCommasOnly) {
    EXPECT_EQ(signature_parameter_types("block_sum(int const*, int*)"), (Types{"int const*", "int*"}));
    EXPECT_EQ(signature_parameter_types("void reduce<256u, true>(float const*, float*, int)"),
              (Types{"float const*", "float*", "int"}));
    EXPECT_EQ(signature_parameter_types("k(Pair<int, float>*, void (*)(int, int))"),
              (Types{"Pair<int, float>*", "void (*)(int, int)"}));
    EXPECT_EQ(signature_parameter_types("k()"), Types{});
    EXPECT_EQ(signature_parameter_types("k(void)"), Types{});
    EXPECT_EQ(signature_parameter_types("reverse_no_sync"), Types{}); // extern "C": no signature
}

TEST(ptx_param_use, ElementTypesOfPointersInCheckSpelling) {
    EXPECT_EQ(element_type_of_pointer("int const*"), "i32");
    EXPECT_EQ(element_type_of_pointer("float*"), "f32");
    EXPECT_EQ(element_type_of_pointer("unsigned char volatile*"), "u8");
    EXPECT_EQ(element_type_of_pointer("unsigned long long*"), "u64");
    EXPECT_EQ(element_type_of_pointer("double const*"), "f64");
    EXPECT_EQ(element_type_of_pointer("Pair<int, float>*"), "");
    EXPECT_EQ(element_type_of_pointer("int"), "");
}

const char* kPtx = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry _Z6copy_nPKfPfm(.param .u64 a, .param .u64 b, .param .u64 n)
{
    ret;
}
.visible .entry copy_c(.param .u64 in, .param .u64 out, .param .u64 n, .param .u64 unused, .param .u32 k)
{
    .reg .b64 %rd<8>;
    .reg .f32 %f<2>;
    ld.param.u64 %rd1, [in];
    ld.param.u64 %rd2, [out];
    ld.param.u64 %rd3, [n];
    ld.param.u64 %rd4, [unused];
    cvta.to.global.u64 %rd5, %rd1;
    ld.global.f32 %f1, [%rd5];
    st.f32 [%rd2+4], %f1;
    add.s64 %rd6, %rd3, 1;
    ret;
}
)";

TEST(ptx_param_use, AMangledNameGivesEveryParameterItsKind) {
    const Module m = parse_module(kPtx, "p.ptx");
    const std::vector<ParamInfo> info = param_info(m.functions[0]);
    ASSERT_EQ(info.size(), 3u);
    EXPECT_EQ(info[0].kind, ParamKind::Pointer);
    EXPECT_EQ(info[0].type, "float const*");
    EXPECT_EQ(info[1].kind, ParamKind::Pointer);
    EXPECT_EQ(info[2].kind, ParamKind::Scalar);
    EXPECT_EQ(info[2].type, "unsigned long");
}

// extern "C": a parameter is a pointer when its value becomes an address (through cvta, or as the
// base of a generic access); arithmetic on it, or no use, says nothing.
TEST(ptx_param_use, WithoutASignatureTheAddressUseDecides) {
    const Module m = parse_module(kPtx, "p.ptx");
    const std::vector<ParamInfo> info = param_info(m.functions[1]);
    ASSERT_EQ(info.size(), 5u);
    EXPECT_EQ(info[0].kind, ParamKind::Pointer);
    EXPECT_EQ(info[1].kind, ParamKind::Pointer);
    EXPECT_EQ(info[2].kind, ParamKind::Unknown);
    EXPECT_EQ(info[3].kind, ParamKind::Unknown);
    EXPECT_EQ(info[4].kind, ParamKind::Unknown); // 32-bit: the caller's size check refuses a buffer
    EXPECT_EQ(info[0].type, "");
}

} // namespace
} // namespace synclab::ptx
