// Event values by their instruction's type (trace/value_format.h): the timeline's tooltips show
// `ld.shared.f32` loading 0x40c00000 as 6.0, not as 1086324736.
#include "trace/value_format.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>

namespace synclab::trace {
namespace {

uint32_t bits(float f) {
    return std::bit_cast<uint32_t>(f);
}

TEST(ValueFormat, TypeOfTheInstruction) {
    EXPECT_EQ(value_type("ld.shared.f32 %f1, [%r5]"), "f32");
    EXPECT_EQ(value_type("ld.shared.v2.f32 %f1, [%r2]"), "f32");
    EXPECT_EQ(value_type("atom.global.add.u32 \t%r1, [%rd2], 1"), "u32");
    EXPECT_EQ(value_type("st.volatile.global.b64 [%rd1], %rd2"), "b64");
    EXPECT_EQ(value_type("ld.global.nc.s32 %r1, [%rd1]"), "s32");
    EXPECT_EQ(value_type("bar.sync 0"), "");
    EXPECT_EQ(value_type(""), "");
    EXPECT_EQ(value_type("ld.shared.f32"), "f32") << "no operands";
}

TEST(ValueFormat, ValuesByTheirType) {
    EXPECT_EQ(format_value("ld.shared.f32 %f1, [%r5]", 1086324736u, 4), "6.0") << "0x40c00000 is 6.0f";
    EXPECT_EQ(format_value("st.shared.f32 [%r4], %f13", bits(-0.5f), 4), "-0.5");
    EXPECT_EQ(format_value("st.shared.f32 [%r4], %f13", bits(0.1f), 4), "0.1");
    EXPECT_EQ(format_value("st.shared.f32 [%r4], %f13", bits(1e30f), 4), "1e+30");
    EXPECT_EQ(format_value("st.shared.f32 [%r4], %f13", 0x7fc00000u, 4), "nan");
    EXPECT_EQ(format_value("st.shared.f32 [%r4], %f13", bits(-INFINITY), 4), "-inf");
    EXPECT_EQ(format_value("ld.global.f16 %h1, [%rd1]", 0x3c00u, 2), "1.0");
    EXPECT_EQ(format_value("ld.global.f16 %h1, [%rd1]", 0xc000u, 2), "-2.0");
    EXPECT_EQ(format_value("ld.global.f16 %h1, [%rd1]", 0x0001u, 2), "5.9604645e-08") << "smallest subnormal";
    EXPECT_EQ(format_value("ld.global.f16 %h1, [%rd1]", 0x7c00u, 2), "inf");
    EXPECT_EQ(format_value("ld.global.s32 %r1, [%rd1]", 0xffffffffu, 4), "-1");
    EXPECT_EQ(format_value("ld.global.s8 %rs1, [%rd1]", 0xfeu, 1), "-2");
    EXPECT_EQ(format_value("ld.global.u32 %r1, [%rd1]", 0xffffffffu, 4), "4294967295");
    EXPECT_EQ(format_value("ld.global.u16 %rs1, [%rd1]", 0x1ffffu, 2), "65535");
    EXPECT_EQ(format_value("st.global.b32 [%rd1], %r1", 0xffu, 4), "0x000000ff");
    EXPECT_EQ(format_value("st.global.b8 [%rd1], %rs1", 0x1ffu, 1), "0xff");
    EXPECT_EQ(format_value("ld.global.u64 %rd1, [%rd2]", 6u, 8), "6 (low 32 bits)");
    EXPECT_EQ(format_value("ld.global.s64 %rd1, [%rd2]", 6u, 8), "6 (low 32 bits)");
    EXPECT_EQ(format_value("ld.global.f64 %fd1, [%rd2]", 0u, 8), "0x00000000 (low 32 bits)")
        << "an f64 cannot be shown from half of its bits";
    EXPECT_EQ(format_value("setp.eq.pred", 1u, 1), "true");
    EXPECT_EQ(format_value("", 1086324736u, 4), "1086324736 (0x40c00000)") << "no type: both spellings";
    EXPECT_EQ(format_value("", 7u, 8), "7 (0x7) (low 32 bits)");
}

TEST(ValueFormat, AnEventIsTypedByItsSite) {
    Trace t;
    t.sites = {{14, 23, "ld.shared.f32 %f2, [%r5]"}, {15, 24, "ld.shared.s32 %r2, [%r5]"}};
    Event e;
    e.kind = EventKind::Load;
    e.flags = make_flags(Space::Shared, 4);
    e.value = 0x40c00000u;
    e.site = 0;
    EXPECT_EQ(event_value(t, e), "6.0");
    e.site = 1;
    EXPECT_EQ(event_value(t, e), "1086324736");
    e.site = 7; // not in the table
    EXPECT_EQ(event_value(t, e), "1086324736 (0x40c00000)");
}

} // namespace
} // namespace synclab::trace
