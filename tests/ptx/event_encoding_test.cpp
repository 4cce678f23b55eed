// One event encoding for both backends (ptx/event_encoding.h): what each kind of access records.
#include "ptx/event_encoding.h"
#include "ptx/parser.h"

#include <gtest/gtest.h>

namespace synclab::ptx {
namespace {

const char* kPtx = R"(.version 8.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [p];
    ld.global.u32 %r1, [%rd1];
    st.volatile.global.u16 [%rd1], %r1;
    ld.acquire.gpu.global.u32 %r2, [%rd1];
    st.release.cta.u32 [%rd1], %r2;
    atom.global.add.u32 %r3, [%rd1], 1;
    atom.global.cta.add.u32 %r3, [%rd1], 1;
    red.global.sys.add.u64 [%rd1], %rd1;
    fence.acq_rel.cta;
    membar.gl;
    ret;
}
)";

struct Expected {
    trace::EventKind kind;
    uint32_t size;
    bool is_volatile;
    trace::Scope scope;
    bool ordered;
};

TEST(ptx_event_encoding, AccessesRecordTheirKindSizeScopeAndOrder) {
    const Module m = parse_module(kPtx, "e.ptx");
    const Function& fn = m.functions[0];
    const Expected expected[] = {
        {trace::EventKind::Load, 4, false, trace::Scope::None, false},       // plain load: no scope
        {trace::EventKind::Store, 2, true, trace::Scope::None, false},       // .volatile
        {trace::EventKind::Load, 4, true, trace::Scope::Device, true},       // ld.acquire.gpu
        {trace::EventKind::Store, 4, true, trace::Scope::Block, true},       // st.release.cta
        {trace::EventKind::Atomic, 4, true, trace::Scope::Device, false},    // atomics default to .gpu
        {trace::EventKind::Atomic, 4, true, trace::Scope::Block, false},     // atomicAdd_block
        {trace::EventKind::Reduction, 8, true, trace::Scope::System, false}, // atomicAdd_system, unused
    };
    for (size_t i = 0; i < std::size(expected); ++i) {
        const Instruction& in = fn.code[i + 1]; // after ld.param
        const Expected& e = expected[i];
        trace::Event ev;
        ev.flags = access_event_flags(in, trace::Space::Global);
        EXPECT_EQ(access_event_kind(in), e.kind) << "instruction " << i;
        EXPECT_EQ(ev.space(), trace::Space::Global) << i;
        EXPECT_EQ(ev.size(), e.size) << i;
        EXPECT_EQ(ev.is_volatile(), e.is_volatile) << i;
        EXPECT_EQ(ev.scope(), e.scope) << i;
        EXPECT_EQ((ev.flags & trace::flag::kOrdered) != 0, e.ordered) << i;
        ev.flags = access_event_flags(in, trace::Space::Shared);
        EXPECT_EQ(ev.space(), trace::Space::Shared) << "a generic access's space is the resolved one";
    }
    trace::Event fence;
    fence.flags = fence_event_flags(fn.code[8]);
    EXPECT_EQ(fence.scope(), trace::Scope::Block);
    EXPECT_EQ(fence.space(), trace::Space::Other);
    fence.flags = fence_event_flags(fn.code[9]); // membar.gl: device scope
    EXPECT_EQ(fence.scope(), trace::Scope::Device);
    trace::Event control;
    control.flags = control_event_flags();
    EXPECT_EQ(control.space(), trace::Space::Other);
    EXPECT_EQ(control.size(), 4u);
}

} // namespace
} // namespace synclab::ptx
