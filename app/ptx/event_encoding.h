// What trace event an instruction records, and its flags (trace::Event::flags: space, access size,
// volatile-like, scope, ordered): one mapping for both backends. The simulator (sim/memory_ops.cpp,
// sim/barriers.cpp) records events as it executes an instruction; the GPU instrumentation
// (ptx/instrument.cpp) bakes the same words into the instrumented PTX. Both ask here, so one
// instruction's event reads the same from either backend, and the analyses never see a difference.
#pragma once

#include "ptx/ir.h"
#include "trace/trace.h"

#include <cstdint>

namespace synclab::ptx {

// The event kind of a memory access: ld -> Load, st -> Store, atom -> Atomic, red -> Reduction.
trace::EventKind access_event_kind(const Instruction& in);

// The flags of one element's access by `in` (ld/st/atom/red) in `space` (for a generic access, the
// space its address turned out to be in). Size: the instruction type's bytes (one element of a
// vector access). Volatile-like: atomics, and loads/stores with an order other than weak
// (.volatile, .relaxed, .acquire, .release). Scope: the one written; without one, device scope for
// atomics (.gpu is their default) and none for a plain load or store. Ordered: acquire, release,
// acq_rel or sc.
uint8_t access_event_flags(const Instruction& in, trace::Space space);

// The flags of a fence (membar / fence.*): its scope (device when it names none), ordered.
uint8_t fence_event_flags(const Instruction& in);

// The flags of the events that are not memory accesses (barrier arrive/leave, warp collectives,
// exit): no space, a 4-byte word.
uint8_t control_event_flags();

} // namespace synclab::ptx
