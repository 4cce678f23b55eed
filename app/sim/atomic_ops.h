// What an atomic computes, on raw bits (private to app/sim). The same for every memory model: a
// model decides which old value an atomic sees and when its write becomes visible, not what it writes.
#pragma once

#include "ptx/ir.h"
#include "sim/alu.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace synclab::sim {

// The new value of `op` of type `type` on `old_bits` with operands b (and c: the new value of cas).
// Returns false for an operation the type does not take (inc on a float, ...).
inline bool apply_atomic(ptx::Type type, ptx::AtomOp op, uint64_t old_bits, uint64_t b, uint64_t c,
                         uint64_t& result) {
    bool ok = true;
    const bool typed = alu::visit_number(type, [&]<class T>(std::type_identity<T>) {
        const T old = alu::as<T>(old_bits);
        const T v = alu::as<T>(b);
        T r = old;
        switch (op) {
        case ptx::AtomOp::Add:
            r = static_cast<T>(old + v);
            break;
        case ptx::AtomOp::Min:
            r = std::min(old, v);
            break;
        case ptx::AtomOp::Max:
            r = std::max(old, v);
            break;
        case ptx::AtomOp::Exch:
            r = v;
            break;
        case ptx::AtomOp::Cas:
            r = (old == v) ? alu::as<T>(c) : old;
            break;
        case ptx::AtomOp::Inc:
            if constexpr (std::is_integral_v<T>)
                r = (old >= v) ? T(0) : static_cast<T>(old + 1);
            else
                ok = false;
            break;
        case ptx::AtomOp::Dec:
            if constexpr (std::is_integral_v<T>)
                r = (old == 0 || old > v) ? v : static_cast<T>(old - 1);
            else
                ok = false;
            break;
        case ptx::AtomOp::And:
        case ptx::AtomOp::Or:
        case ptx::AtomOp::Xor:
            if constexpr (std::is_integral_v<T>) {
                r = op == ptx::AtomOp::And ? T(old & v) : op == ptx::AtomOp::Or ? T(old | v) : T(old ^ v);
            } else {
                ok = false;
            }
            break;
        default:
            ok = false;
            break;
        }
        result = alu::bits<T>(r);
    });
    return typed && ok;
}

inline bool atomic_supported(ptx::Type type, ptx::AtomOp op) {
    uint64_t ignored;
    return apply_atomic(type, op, 0, 0, 0, ignored);
}

} // namespace synclab::sim
