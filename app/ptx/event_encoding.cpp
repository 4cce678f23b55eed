#include "ptx/event_encoding.h"

#include "ptx/opcodes.h"

namespace synclab::ptx {
namespace {

// The trace's scope for a PTX scope (.cta -> block, .sys -> system, .gpu and .cluster -> device; the
// trace has no cluster scope), `fallback` for an instruction that names none.
trace::Scope trace_scope(MemScope scope, trace::Scope fallback) {
    switch (scope) {
    case MemScope::None:
        return fallback;
    case MemScope::Cta:
        return trace::Scope::Block;
    case MemScope::Sys:
        return trace::Scope::System;
    default:
        return trace::Scope::Device;
    }
}

bool is_ordered(MemOrder order) {
    return order == MemOrder::Acquire || order == MemOrder::Release || order == MemOrder::AcqRel ||
           order == MemOrder::Sc;
}

} // namespace

trace::EventKind access_event_kind(const Instruction& in) {
    switch (in.op) {
    case Op::Ld:
        return trace::EventKind::Load;
    case Op::St:
        return trace::EventKind::Store;
    case Op::Red:
        return trace::EventKind::Reduction;
    default:
        return trace::EventKind::Atomic;
    }
}

uint8_t access_event_flags(const Instruction& in, trace::Space space) {
    const bool atomic = is_atomic(in.op);
    const bool volatile_like = atomic || in.order != MemOrder::Weak;
    const trace::Scope scope = trace_scope(in.scope, atomic ? trace::Scope::Device : trace::Scope::None);
    return trace::make_flags(space, type_size(in.type), volatile_like, scope, is_ordered(in.order));
}

uint8_t fence_event_flags(const Instruction& in) {
    return trace::make_flags(trace::Space::Other, 1, false, trace_scope(in.scope, trace::Scope::Device), true);
}

uint8_t control_event_flags() { return trace::make_flags(trace::Space::Other, 4); }

} // namespace synclab::ptx
