// Loads, stores, atomics and fences: the one place where addresses are resolved and checked (space,
// bounds, alignment, read-only), then handed to the memory system one warp-instruction at a time.
#include "ptx/event_encoding.h"
#include "sim/atomic_ops.h"
#include "sim/run.h"
#include "sim/uniformity.h"
#include "trace/text_format.h"

namespace synclab::sim {

using ptx::Op;
using ptx::Operand;
using trace::EventKind;

Issuer Run::issuer(const Warp& warp) const {
    return {warp.block->linear, warp.index, warp.block->sm, warp.global_first};
}

void Run::finish_access(Warp& warp, const WarpAccess& access) {
    warp.modelled_cycles += access.latency;
}

// [SECTION] Address resolution =======================================================================

// Any space, with the error messages: generic addresses are split into their windows here. Fills
// the event's space and the address as the trace shows it (shared: offset in the block's window;
// global: device address).
uint8_t* Run::resolve_slow(Warp& warp, const Instruction& in, uint32_t pc, uint32_t lane, uint64_t address,
                           uint32_t size, bool write, trace::Space& space, uint64_t& trace_address) {
    ptx::Space s = in.space;
    if (s == ptx::Space::Generic) {
        if (address >= kSharedWindow && address < kSharedWindow + kWindowSize) {
            s = ptx::Space::Shared;
            address -= kSharedWindow;
        } else if (address >= kLocalWindow && address < kLocalWindow + kWindowSize) {
            s = ptx::Space::Local;
            address -= kLocalWindow;
        } else {
            s = ptx::Space::Global;
        }
    }
    if (size > 1 && address % size != 0)
        fault(warp, lane, pc,
              "misaligned " + std::to_string(size) + "-byte access at " + to_string(s) + " address " +
                  trace::format_hex(address));
    trace_address = address;
    switch (s) {
    case ptx::Space::Global:
    case ptx::Space::Const: {
        space = trace::Space::Global;
        Allocation* a = global_.find(address, size);
        if (!a) {
            // The run stops here, as a GPU may; the access goes into the trace first, so that the
            // analyses name it as they name one a traced GPU run recorded (out_of_bounds). Its value
            // is not known yet (a store's operand is read after the address): 0. Only into room the
            // trace already has: a fault must not turn into a budget stop.
            if (recording_ && trace_->events.size() < event_room_)
                emit(ptx::access_event_kind(in), warp, lane, pc, address, 0,
                     ptx::access_event_flags(in, trace::Space::Global));
            fault(warp, lane, pc,
                  std::string("out-of-bounds ") + (write ? "write" : "read") + " of " + std::to_string(size) +
                      " bytes at global address " + trace::format_hex(address) + " (" +
                      global_.describe(address) + ")");
        }
        if (write && a->read_only) fault(warp, lane, pc, "write to read-only " + a->name);
        return a->data + (address - a->base);
    }
    case ptx::Space::Shared: {
        space = trace::Space::Shared;
        Block& b = *warp.block;
        if (address + size > b.shared.size() || address + size < address)
            fault(warp, lane, pc,
                  std::string("out-of-bounds ") + (write ? "write" : "read") + " at shared offset " +
                      trace::format_hex(address) + " (the block has " + std::to_string(b.shared.size()) +
                      " bytes of shared memory)");
        return b.shared.data() + address;
    }
    case ptx::Space::Local: {
        space = trace::Space::Local;
        if (address + size > fn_.local_bytes || address + size < address)
            fault(warp, lane, pc,
                  "out-of-bounds local access at offset " + trace::format_hex(address) + " (frame of " +
                      std::to_string(fn_.local_bytes) + " bytes)");
        return warp.block->local.data() + size_t(warp.first_thread + lane) * fn_.local_bytes + address;
    }
    case ptx::Space::Param: {
        space = trace::Space::Other;
        if (write) fault(warp, lane, pc, "store to kernel parameter space");
        if (address + size > params_.size() || address + size < address)
            fault(warp, lane, pc, "read past the kernel parameters at offset " + trace::format_hex(address));
        return params_.data() + address;
    }
    default:
        break;
    }
    fault(warp, lane, pc, "unsupported state space");
}

// Resolves `address[l]` for the lanes of access.mask. The common cases (every lane of a shared,
// parameter or global access in bounds and aligned) are checked for the whole warp at once and
// filled in one pass; anything else, errors included, goes lane by lane through resolve_slow.
void Run::resolve_lanes(Warp& warp, const Instruction& in, uint32_t pc, const uint64_t* address, bool write,
                        WarpAccess& a) {
    const uint32_t size = a.size;
    const uint64_t misaligned = size - 1;
    const uint32_t mask = a.mask;
    // Whether an access of a lane of `mask` reaches outside [lo, lo + limit) or is misaligned: the
    // largest offset and the OR of the addresses, compared once.
    auto out_of = [&](uint64_t lo, uint64_t limit) {
        if (limit < size) return true;
        uint64_t largest = 0, bits = 0;
        for_each_lane(mask, [&](uint32_t l) {
            const uint64_t x = address[l] - lo; // wraps for x < lo, which then counts as out of range
            largest = x > largest ? x : largest;
            bits |= address[l];
        });
        return largest > limit - size || (bits & misaligned) != 0;
    };
    auto fill = [&](trace::Space space, uint8_t* base, uint64_t lo) {
        for_each_lane(mask, [&](uint32_t l) {
            a.space[l] = space;
            a.address[l] = address[l];
            a.host[l] = base + (address[l] - lo);
        });
    };
    switch (in.space) {
    case ptx::Space::Shared: {
        Block& b = *warp.block;
        if (out_of(0, b.shared.size())) break;
        fill(trace::Space::Shared, b.shared.data(), 0);
        return;
    }
    case ptx::Space::Param:
        if (write || out_of(0, params_.size())) break;
        fill(trace::Space::Other, params_.data(), 0);
        return;
    case ptx::Space::Global:
    case ptx::Space::Const: {
        Allocation* alloc = global_.last_found();
        if (!alloc) alloc = global_.find(address[std::countr_zero(mask)], size);
        if (alloc && !(write && alloc->read_only) && !out_of(alloc->base, alloc->size)) {
            fill(trace::Space::Global, alloc->data, alloc->base);
            return;
        }
        // Lanes in different allocations (or an error): one lookup per lane.
        for_each_lane(mask, [&](uint32_t l) {
            const uint64_t x = address[l];
            Allocation* found = (x & misaligned) == 0 ? global_.find(x, size) : nullptr;
            if (!found || (write && found->read_only)) {
                a.host[l] = resolve_slow(warp, in, pc, l, x, size, write, a.space[l], a.address[l]);
                return;
            }
            a.space[l] = trace::Space::Global;
            a.address[l] = x;
            a.host[l] = found->data + (x - found->base);
        });
        return;
    }
    default:
        break;
    }
    for_each_lane(mask, [&](uint32_t l) {
        a.host[l] = resolve_slow(warp, in, pc, l, address[l], size, write, a.space[l], a.address[l]);
    });
}

// [SECTION] Loads and stores =========================================================================

void Run::execute_memory(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    const bool is_load = in.op == Op::Ld;
    const Operand& data = is_load ? in.ops[0] : in.ops[1];
    const Operand& addr = is_load ? in.ops[1] : in.ops[0];
    const uint32_t elem = ptx::type_size(in.type);
    const uint32_t count = in.vector;
    const bool sign_extend = ptx::is_signed(in.type) && elem < 8;

    // Base address of each lane.
    uint64_t base[kWarpSize];
    {
        const uint64_t offset =
            addr.imm + (addr.symbol != Operand::kNoSymbol ? symbol_address_[addr.symbol] : 0);
        if (addr.reg != Operand::kNoReg) {
            const uint64_t* row = reg(warp, addr.reg);
            for_each_lane(mask, [&](uint32_t l) { base[l] = row[l] + offset; });
        } else {
            for_each_lane(mask, [&](uint32_t l) { base[l] = offset; });
        }
    }
    if (count > 1) {
        const uint64_t bytes = uint64_t(elem) * count;
        for_each_lane(mask, [&](uint32_t l) {
            if (base[l] % bytes != 0)
                fault(warp, l, pc,
                      "misaligned " + std::to_string(bytes) + "-byte vector access at address " +
                          trace::format_hex(base[l]));
        });
    }

    WarpAccess access;
    access.who = issuer(warp);
    access.kind = is_load ? AccessKind::Load : AccessKind::Store;
    access.order = in.order;
    access.scope = in.scope;
    access.type = in.type;
    access.size = elem;
    access.mask = mask;

    uint8_t shared_flags = 0, global_flags = 0;
    if (recording_) {
        shared_flags = ptx::access_event_flags(in, trace::Space::Shared);
        global_flags = ptx::access_event_flags(in, trace::Space::Global);
    }
    const EventKind kind = is_load ? EventKind::Load : EventKind::Store;

    uint64_t element_address[kWarpSize];
    uint64_t scratch[kWarpSize];
    // A vector access is one request: its warp waits for its slowest element, once.
    uint32_t stall = 0;
    for (uint32_t e = 0; e < count; ++e) {
        const uint64_t* lane_address = base;
        if (e > 0) {
            const uint64_t step = uint64_t(e) * elem;
            for_each_lane(mask, [&](uint32_t l) { element_address[l] = base[l] + step; });
            lane_address = element_address;
        }
        resolve_lanes(warp, in, pc, lane_address, !is_load, access);
        const uint32_t slot = data.kind == Operand::Kind::Vector ? data.vec[e] : data.reg;
        if (is_load) {
            memory_->load(access);
            if (slot != Operand::kNoReg) {
                uint64_t* d = reg(warp, slot);
                if (sign_extend) {
                    for_each_lane(mask, [&](uint32_t l) {
                        const uint64_t v = access.value[l];
                        d[l] = static_cast<uint64_t>(elem == 1   ? int64_t(int8_t(v))
                                                     : elem == 2 ? int64_t(int16_t(v))
                                                                 : int64_t(int32_t(v)));
                    });
                } else {
                    for_each_lane(mask, [&](uint32_t l) { d[l] = access.value[l]; });
                }
            }
        } else {
            const uint64_t* v =
                data.kind == Operand::Kind::Vector
                    ? (slot == Operand::kNoReg ? fetch(warp, Operand{}, mask, scratch) : reg(warp, slot))
                    : fetch(warp, data, mask, scratch);
            for_each_lane(mask, [&](uint32_t l) { access.value[l] = v[l]; });
            memory_->store(access);
        }
        time_access(warp, access);
        stall = std::max(stall, access.latency);
        if (recording_)
            for_each_lane(mask, [&](uint32_t l) {
                const trace::Space s = access.space[l];
                if (s == trace::Space::Shared || s == trace::Space::Global)
                    emit_timed(kind, warp, l, pc, access.address[l], access.value[l],
                               s == trace::Space::Shared ? shared_flags : global_flags);
            });
    }
    access.latency = stall;
    finish_access(warp, access);
}

// [SECTION] Atomics ==================================================================================

void Run::execute_atomic(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    const bool is_red = in.op == Op::Red;
    const Operand& addr = is_red ? in.ops[0] : in.ops[1];
    const Operand& B = is_red ? in.ops[1] : in.ops[2];
    const uint32_t size = ptx::type_size(in.type);
    if (!atomic_supported(in.type, in.atom_op))
        fault(warp, static_cast<uint32_t>(std::countr_zero(mask)), pc,
              std::string("the simulator does not support this atomic operation on .") +
                  ptx::to_string(in.type));

    uint64_t lane_address[kWarpSize];
    {
        const uint64_t offset =
            addr.imm + (addr.symbol != Operand::kNoSymbol ? symbol_address_[addr.symbol] : 0);
        const uint64_t* row = addr.reg != Operand::kNoReg ? reg(warp, addr.reg) : nullptr;
        for_each_lane(mask, [&](uint32_t l) { lane_address[l] = (row ? row[l] : 0) + offset; });
    }
    WarpAccess access;
    access.who = issuer(warp);
    access.kind = is_red ? AccessKind::Reduction : AccessKind::Atomic;
    access.order = in.order;
    access.scope = in.scope;
    access.type = in.type;
    access.atom_op = in.atom_op;
    access.size = size;
    access.mask = mask;
    resolve_lanes(warp, in, pc, lane_address, true, access);

    uint64_t sb[kWarpSize], sc[kWarpSize];
    const uint64_t* b = fetch(warp, B, mask, sb);
    const uint64_t* c = fetch(warp, in.ops[3], mask, sc);
    for_each_lane(mask, [&](uint32_t l) {
        access.value[l] = b[l];
        access.operand_c[l] = c[l];
    });
    // aggregatable_ is empty without the cost model.
    const uint8_t aggregate = pc < aggregatable_.size() ? aggregatable_[pc] : uint8_t(kNotAggregated);
    const bool unused = cost_ && result_unused_[pc];
    access.compiler_aggregated = aggregate == kUniformAdd || (aggregate == kUniformAddress && unused);
    memory_->atomic(access);                   // value[] now holds the old values
    if (unused) access.kind = AccessKind::Reduction; // timed as the RED it becomes
    time_access(warp, access);
    // The event's value is operand b (b[], which the call leaves alone), timed by the cost model.
    if (recording_) {
        const EventKind kind = ptx::access_event_kind(in);
        // Once per instruction, not per lane: a generic atomic's lanes are in one space or the other.
        const uint8_t shared_flags = ptx::access_event_flags(in, trace::Space::Shared);
        const uint8_t global_flags = ptx::access_event_flags(in, trace::Space::Global);
        for_each_lane(mask, [&](uint32_t l) {
            emit_timed(kind, warp, l, pc, access.address[l], b[l],
                       access.space[l] == trace::Space::Shared ? shared_flags : global_flags);
        });
    }
    // A CAS loop's retries: lanes whose compare (operand b) did not match what memory held.
    if (in.atom_op == ptx::AtomOp::Cas) {
        const uint64_t width = size >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * size)) - 1;
        uint32_t failed = 0;
        for_each_lane(mask, [&](uint32_t l) { failed += (access.value[l] & width) != (b[l] & width); });
        cas_failures_[pc] += failed;
        cas_failures_total_ += failed;
    }
    finish_access(warp, access);
    if (!is_red && in.ops[0].kind == Operand::Kind::Reg) {
        uint64_t* d = reg(warp, in.ops[0].reg);
        for_each_lane(mask, [&](uint32_t l) { d[l] = access.value[l]; });
    }
}

// [SECTION] Fences ===================================================================================

void Run::execute_fence(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    // A fence waits (modelled) until the warp's writes are visible at its scope.
    const uint32_t wait = cost_ ? cost_->fence(warp.modelled_cycles, in.scope, warp.stores_visible) : 0;
    if (recording_) {
        const uint8_t flags = ptx::fence_event_flags(in);
        for_each_lane(mask, [&](uint32_t l) {
            const size_t i = emit(EventKind::Fence, warp, l, pc, 0, 0, flags);
            if (timing_) trace_->timing[i].latency = wait;
        });
    }
    warp.modelled_cycles += wait;
    FenceRequest fence;
    fence.who = issuer(warp);
    fence.mask = mask;
    fence.order = in.order;
    fence.scope = in.scope;
    memory_->fence(fence);
}

} // namespace synclab::sim
