// Arithmetic, logic, comparison and conversion (alu.h holds the scalar semantics), operand reads
// and special registers. Operands are fetched once per instruction as lane-indexed arrays
// (Run::fetch), so the lane loops read plain memory.
#include "sim/alu.h"
#include "sim/run.h"

#include <algorithm>

namespace synclab::sim {

using ptx::Op;
using ptx::Operand;
using ptx::Type;

namespace {

constexpr uint64_t kZeros[kWarpSize] = {};

} // namespace

// [SECTION] Operands =================================================================================

// %globaltimer stays the logical tick (32 ns a step, as the H200's advances) also under the cost
// model: it is one clock for the whole GPU, and a trace ordered by it (the GPU format's instrumented
// events) must keep causality, which per-warp modelled clocks do not (a warp at cycle 100 may read
// what a warp at cycle 5,000 wrote).
uint64_t Run::global_timer(const Warp&) const {
    return tick_ * 32;
}

uint64_t Run::special(const Warp& warp, ptx::SpecialReg r, uint32_t lane) const {
    using ptx::SpecialReg;
    const uint32_t t = warp.first_thread + lane;
    const Dim3& b = launch_.block;
    const Block& blk = *warp.block;
    switch (r) {
    case SpecialReg::TidX:
        return t % b.x;
    case SpecialReg::TidY:
        return (t / b.x) % b.y;
    case SpecialReg::TidZ:
        return t / (b.x * b.y);
    case SpecialReg::NtidX:
        return b.x;
    case SpecialReg::NtidY:
        return b.y;
    case SpecialReg::NtidZ:
        return b.z;
    case SpecialReg::CtaidX:
        return blk.id.x;
    case SpecialReg::CtaidY:
        return blk.id.y;
    case SpecialReg::CtaidZ:
        return blk.id.z;
    case SpecialReg::NctaidX:
        return launch_.grid.x;
    case SpecialReg::NctaidY:
        return launch_.grid.y;
    case SpecialReg::NctaidZ:
        return launch_.grid.z;
    case SpecialReg::LaneId:
        return lane;
    case SpecialReg::WarpId:
        return warp.index;
    case SpecialReg::NWarpId:
        return warps_per_block_;
    case SpecialReg::SmId:
        return blk.sm;
    case SpecialReg::NSmId:
        return options_.sm_count;
    case SpecialReg::GridId:
        return 1;
    // With the cost model the clocks are the warp's modelled clock (so a kernel that times its own
    // atomics with clock64() gives modelled latencies; on the GPU too %clock64 is per SM, not
    // comparable across SMs); without it, the logical tick.
    case SpecialReg::Clock:
        return static_cast<uint32_t>(cost_ ? warp.modelled_cycles : tick_);
    case SpecialReg::Clock64:
        return cost_ ? warp.modelled_cycles : tick_;
    case SpecialReg::GlobalTimer:
        return global_timer(warp);
    case SpecialReg::GlobalTimerLo:
        return static_cast<uint32_t>(global_timer(warp));
    case SpecialReg::LanemaskEq:
        return 1u << lane;
    case SpecialReg::LanemaskLt:
        return (1u << lane) - 1;
    case SpecialReg::LanemaskLe:
        return lane == 31 ? 0xffffffffu : (1u << (lane + 1)) - 1;
    case SpecialReg::LanemaskGt:
        return lane == 31 ? 0u : ~((1u << (lane + 1)) - 1);
    case SpecialReg::LanemaskGe:
        return ~((1u << lane) - 1);
    case SpecialReg::DynamicSmemSize:
        return launch_.dynamic_shared_bytes;
    default:
        if (ptx::is_envreg(r)) return envreg(ptx::envreg_index(r)); // setup.cpp: the launch's environment
    }
    return 0;
}

uint64_t Run::read(const Warp& warp, const Operand& op, uint32_t lane) const {
    switch (op.kind) {
    case Operand::Kind::Reg: {
        const uint64_t v = warp.regs[size_t(op.reg) * kWarpSize + lane];
        return op.negate ? (~v & 1) : v;
    }
    case Operand::Kind::Imm:
        return op.imm;
    case Operand::Kind::Special:
        return special(warp, op.special, lane);
    case Operand::Kind::Symbol:
        return symbol_address_[op.symbol];
    default:
        return 0;
    }
}

const uint64_t* Run::fetch(const Warp& warp, const Operand& op, uint32_t mask, uint64_t* scratch) const {
    switch (op.kind) {
    case Operand::Kind::Reg: {
        const uint64_t* row = warp.regs + size_t(op.reg) * kWarpSize;
        if (!op.negate) return row;
        for_each_lane(mask, [&](uint32_t l) { scratch[l] = ~row[l] & 1; });
        return scratch;
    }
    case Operand::Kind::Imm:
        std::fill_n(scratch, kWarpSize, op.imm);
        return scratch;
    case Operand::Kind::Symbol:
        std::fill_n(scratch, kWarpSize, symbol_address_[op.symbol]);
        return scratch;
    case Operand::Kind::Special:
        switch (op.special) {
        case ptx::SpecialReg::TidX:
            if (launch_.block.y == 1 && launch_.block.z == 1) {
                for_each_lane(mask, [&](uint32_t l) { scratch[l] = warp.first_thread + l; });
                return scratch;
            }
            [[fallthrough]];
        case ptx::SpecialReg::TidY:
        case ptx::SpecialReg::TidZ:
        case ptx::SpecialReg::LaneId:
        case ptx::SpecialReg::LanemaskEq:
        case ptx::SpecialReg::LanemaskLt:
        case ptx::SpecialReg::LanemaskLe:
        case ptx::SpecialReg::LanemaskGt:
        case ptx::SpecialReg::LanemaskGe:
            for_each_lane(mask, [&](uint32_t l) { scratch[l] = special(warp, op.special, l); });
            return scratch;
        default: // the same for every lane of the warp
            std::fill_n(scratch, kWarpSize, special(warp, op.special, 0));
            return scratch;
        }
    default:
        return kZeros;
    }
}

// [SECTION] Arithmetic and logic =====================================================================

void Run::unsupported(const Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    fault(warp, static_cast<uint32_t>(std::countr_zero(mask)), pc,
          std::string("the simulator does not support ") + ptx::to_string(in.op) + "." +
              ptx::to_string(in.type));
}

// mov.b64 {lo, hi}, x splits a value into equal parts, low part first; mov.b64 x, {lo, hi} joins.
void Run::execute_mov_vector(Warp& warp, const Instruction& in, uint32_t mask) {
    const Operand& D = in.ops[0];
    const Operand& A = in.ops[1];
    const Operand& vec = D.kind == Operand::Kind::Vector ? D : A;
    const uint32_t bits = 8 * ptx::type_size(in.type) / std::max<uint32_t>(vec.vec_count, 1);
    const uint64_t part_mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    for_each_lane(mask, [&](uint32_t l) {
        if (D.kind == Operand::Kind::Vector) {
            const uint64_t v = read(warp, A, l);
            for (uint32_t i = 0; i < vec.vec_count; ++i)
                if (vec.vec[i] != Operand::kNoReg) reg(warp, vec.vec[i])[l] = (v >> (i * bits)) & part_mask;
        } else {
            uint64_t v = 0;
            for (uint32_t i = 0; i < vec.vec_count; ++i)
                if (vec.vec[i] != Operand::kNoReg) v |= (reg(warp, vec.vec[i])[l] & part_mask) << (i * bits);
            reg(warp, D.reg)[l] = v;
        }
    });
}

void Run::execute_setp(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    uint64_t* p = in.ops[0].kind == Operand::Kind::Reg ? reg(warp, in.ops[0].reg) : nullptr;
    uint64_t* q = in.ops[1].kind == Operand::Kind::Reg ? reg(warp, in.ops[1].reg) : nullptr;
    uint64_t sa[kWarpSize], sb[kWarpSize], sc[kWarpSize];
    const uint64_t* a = fetch(warp, in.ops[2], mask, sa);
    const uint64_t* b = fetch(warp, in.ops[3], mask, sb);
    const bool has_c = in.bool_op != ptx::BoolOp::None;
    const uint64_t* c = has_c ? fetch(warp, in.ops[4], mask, sc) : kZeros;
    // The common form (one destination, no combining predicate) gets a lane loop per comparison.
    const bool plain = p && !q && !has_c;
    const bool ok = alu::visit_number(in.type, [&]<class T>(std::type_identity<T>) {
        if (plain) {
            alu::visit_compare<T>(in.cmp, [&](auto&& cmp) {
                for_each_lane(mask, [&](uint32_t l) { p[l] = cmp(alu::as<T>(a[l]), alu::as<T>(b[l])); });
            });
            return;
        }
        for_each_lane(mask, [&](uint32_t l) {
            const bool r = alu::compare<T>(in.cmp, alu::as<T>(a[l]), alu::as<T>(b[l]));
            const bool cv = (c[l] & 1) != 0;
            if (p) p[l] = alu::combine(in.bool_op, r, cv);
            if (q) q[l] = alu::combine(in.bool_op, !r, cv);
        });
    });
    if (!ok) unsupported(warp, in, pc, mask);
}

void Run::execute_alu(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    const Operand& D = in.ops[0];
    if (in.op == Op::Mov && (D.kind == Operand::Kind::Vector || in.ops[1].kind == Operand::Kind::Vector)) {
        execute_mov_vector(warp, in, mask);
        return;
    }
    if (in.op == Op::Setp) {
        execute_setp(warp, in, pc, mask);
        return;
    }
    if (D.kind != Operand::Kind::Reg) unsupported(warp, in, pc, mask);
    uint64_t* d = reg(warp, D.reg);
    uint64_t sa[kWarpSize], sb[kWarpSize], sc[kWarpSize], se[kWarpSize];
    const uint64_t* a = fetch(warp, in.ops[1], mask, sa);
    const uint64_t* b = fetch(warp, in.ops[2], mask, sb);
    const uint64_t* c = fetch(warp, in.ops[3], mask, sc);
    const uint64_t* e = fetch(warp, in.ops[4], mask, se);
    auto lanes = [mask](auto&& f) { for_each_lane(mask, f); };

    switch (in.op) {
    case Op::Mov:
        lanes([&](uint32_t l) { d[l] = a[l]; });
        return;
    case Op::Activemask:
        // The lanes executing this instruction together.
        lanes([&](uint32_t l) { d[l] = mask; });
        return;
    case Op::Selp:
        lanes([&](uint32_t l) { d[l] = (c[l] & 1) ? a[l] : b[l]; });
        return;
    case Op::Cvta: {
        const bool to = (in.mods & ptx::mod::kToSpace) != 0;
        const uint64_t window = in.space == ptx::Space::Shared  ? kSharedWindow
                                : in.space == ptx::Space::Local ? kLocalWindow
                                                                : 0;
        const bool narrow = in.type == Type::U32 || in.type == Type::B32;
        // Shared and local addresses live in fixed windows of the generic space; global ones are
        // generic already.
        lanes([&](uint32_t l) {
            const uint64_t v = a[l];
            d[l] = to ? v - window : (window ? (v & 0xffffffffu) + window : v);
            if (narrow) d[l] &= 0xffffffffu;
        });
        return;
    }
    case Op::Isspacep: {
        // Shared and local memory are fixed windows of the generic space; global is the rest.
        auto in_window = [](uint64_t v, uint64_t base) { return v >= base && v < base + kWindowSize; };
        lanes([&](uint32_t l) {
            const uint64_t v = a[l];
            const bool shared = in_window(v, kSharedWindow), local = in_window(v, kLocalWindow);
            switch (in.space) {
            case ptx::Space::Shared:
                d[l] = shared;
                break;
            case ptx::Space::Local:
                d[l] = local;
                break;
            case ptx::Space::Global:
                d[l] = !shared && !local;
                break;
            default:
                d[l] = 0; // .const / .param: no generic addresses of those here
                break;
            }
        });
        return;
    }
    case Op::And:
    case Op::Or:
    case Op::Xor:
    case Op::Not: {
        const uint64_t width_mask =
            in.type == Type::Pred
                ? 1
                : (type_size(in.type) >= 8 ? ~0ull : (1ull << (8 * type_size(in.type))) - 1);
        switch (in.op) {
        case Op::Not:
            lanes([&](uint32_t l) { d[l] = ~a[l] & width_mask; });
            break;
        case Op::And:
            lanes([&](uint32_t l) { d[l] = (a[l] & b[l]) & width_mask; });
            break;
        case Op::Or:
            lanes([&](uint32_t l) { d[l] = (a[l] | b[l]) & width_mask; });
            break;
        default:
            lanes([&](uint32_t l) { d[l] = (a[l] ^ b[l]) & width_mask; });
            break;
        }
        return;
    }
    default:
        break;
    }

    const uint16_t mods = in.mods;
    bool ok = true;
    if (ptx::is_float(in.type)) {
        ok = alu::visit_float(in.type, [&]<class T>(std::type_identity<T>) {
            using alu::as;
            using alu::bits;
            switch (in.op) {
            case Op::Add:
                lanes([&](uint32_t l) { d[l] = bits<T>(as<T>(a[l]) + as<T>(b[l])); });
                break;
            case Op::Sub:
                lanes([&](uint32_t l) { d[l] = bits<T>(as<T>(a[l]) - as<T>(b[l])); });
                break;
            case Op::Mul:
                lanes([&](uint32_t l) { d[l] = bits<T>(as<T>(a[l]) * as<T>(b[l])); });
                break;
            case Op::Div:
                lanes([&](uint32_t l) { d[l] = bits<T>(as<T>(a[l]) / as<T>(b[l])); });
                break;
            case Op::Fma:
            case Op::Mad:
                lanes([&](uint32_t l) { d[l] = bits<T>(std::fma(as<T>(a[l]), as<T>(b[l]), as<T>(c[l]))); });
                break;
            case Op::Abs:
                lanes([&](uint32_t l) { d[l] = bits<T>(std::fabs(as<T>(a[l]))); });
                break;
            case Op::Neg:
                lanes([&](uint32_t l) { d[l] = bits<T>(-as<T>(a[l])); });
                break;
            case Op::Min:
                lanes([&](uint32_t l) { d[l] = bits<T>(alu::fmin_ptx(as<T>(a[l]), as<T>(b[l]))); });
                break;
            case Op::Max:
                lanes([&](uint32_t l) { d[l] = bits<T>(alu::fmax_ptx(as<T>(a[l]), as<T>(b[l]))); });
                break;
            case Op::Sqrt:
                lanes([&](uint32_t l) { d[l] = bits<T>(std::sqrt(as<T>(a[l]))); });
                break;
            case Op::Rsqrt:
                lanes([&](uint32_t l) { d[l] = bits<T>(T(1) / std::sqrt(as<T>(a[l]))); });
                break;
            case Op::Rcp:
                lanes([&](uint32_t l) { d[l] = bits<T>(T(1) / as<T>(a[l])); });
                break;
            case Op::Ex2:
                lanes([&](uint32_t l) { d[l] = bits<T>(std::exp2(as<T>(a[l]))); });
                break;
            case Op::Lg2:
                lanes([&](uint32_t l) { d[l] = bits<T>(std::log2(as<T>(a[l]))); });
                break;
            case Op::Sin:
                lanes([&](uint32_t l) { d[l] = bits<T>(std::sin(as<T>(a[l]))); });
                break;
            case Op::Cos:
                lanes([&](uint32_t l) { d[l] = bits<T>(std::cos(as<T>(a[l]))); });
                break;
            case Op::Copysign:
                // copysign.f32 d, a, b: magnitude of b with the sign of a.
                lanes([&](uint32_t l) { d[l] = bits<T>(std::copysign(as<T>(b[l]), as<T>(a[l]))); });
                break;
            default:
                ok = false;
                break;
            }
            if (ok && (mods & ptx::mod::kSat))
                lanes([&](uint32_t l) {
                    const T v = as<T>(d[l]);
                    d[l] = bits<T>(std::isnan(v) ? T(0) : std::min(T(1), std::max(T(0), v)));
                });
        });
        if (!ok) unsupported(warp, in, pc, mask);
        return;
    }

    ok = alu::visit_int(in.type, [&]<class T>(std::type_identity<T>) {
        using alu::as;
        using alu::bits;
        using W = alu::Wide<T>;
        const bool wide = (mods & ptx::mod::kWide) != 0;
        const bool hi = (mods & ptx::mod::kHi) != 0;
        const bool sat = (mods & ptx::mod::kSat) != 0;
        switch (in.op) {
        case Op::Add:
            if (sat)
                lanes([&](uint32_t l) { d[l] = bits<T>(alu::sat_add(as<T>(a[l]), as<T>(b[l]))); });
            else
                lanes([&](uint32_t l) { d[l] = bits<T>(static_cast<T>(as<T>(a[l]) + as<T>(b[l]))); });
            break;
        case Op::Sub:
            if (sat)
                lanes([&](uint32_t l) { d[l] = bits<T>(alu::sat_sub(as<T>(a[l]), as<T>(b[l]))); });
            else
                lanes([&](uint32_t l) { d[l] = bits<T>(static_cast<T>(as<T>(a[l]) - as<T>(b[l]))); });
            break;
        case Op::Mul:
            if (wide) {
                if constexpr (sizeof(T) <= 4)
                    lanes([&](uint32_t l) {
                        d[l] = bits<W>(
                            static_cast<W>(static_cast<W>(as<T>(a[l])) * static_cast<W>(as<T>(b[l]))));
                    });
                else
                    ok = false;
            } else if (hi) {
                lanes([&](uint32_t l) { d[l] = bits<T>(alu::mul_hi(as<T>(a[l]), as<T>(b[l]))); });
            } else {
                lanes([&](uint32_t l) {
                    using U = std::make_unsigned_t<T>;
                    d[l] = bits<U>(static_cast<U>(static_cast<U>(as<T>(a[l])) * static_cast<U>(as<T>(b[l]))));
                });
            }
            break;
        case Op::Mad:
            if (wide) {
                if constexpr (sizeof(T) <= 4)
                    lanes([&](uint32_t l) {
                        const W p = static_cast<W>(static_cast<W>(as<T>(a[l])) * static_cast<W>(as<T>(b[l])));
                        d[l] = bits<W>(static_cast<W>(p + as<W>(c[l])));
                    });
                else
                    ok = false;
            } else if (hi) {
                lanes([&](uint32_t l) {
                    d[l] = bits<T>(static_cast<T>(alu::mul_hi(as<T>(a[l]), as<T>(b[l])) + as<T>(c[l])));
                });
            } else {
                lanes([&](uint32_t l) {
                    using U = std::make_unsigned_t<T>;
                    d[l] = bits<U>(static_cast<U>(static_cast<U>(as<T>(a[l])) * static_cast<U>(as<T>(b[l])) +
                                                  static_cast<U>(as<T>(c[l]))));
                });
            }
            break;
        case Op::Div:
            lanes([&](uint32_t l) { d[l] = bits<T>(alu::int_div(as<T>(a[l]), as<T>(b[l]))); });
            break;
        case Op::Rem:
            lanes([&](uint32_t l) { d[l] = bits<T>(alu::int_rem(as<T>(a[l]), as<T>(b[l]))); });
            break;
        case Op::Abs:
            lanes([&](uint32_t l) {
                const T v = as<T>(a[l]);
                d[l] = bits<T>(static_cast<T>(v < 0 ? -v : v));
            });
            break;
        case Op::Neg:
            lanes([&](uint32_t l) { d[l] = bits<T>(static_cast<T>(-as<T>(a[l]))); });
            break;
        case Op::Min:
            lanes([&](uint32_t l) { d[l] = bits<T>(std::min(as<T>(a[l]), as<T>(b[l]))); });
            break;
        case Op::Max:
            lanes([&](uint32_t l) { d[l] = bits<T>(std::max(as<T>(a[l]), as<T>(b[l]))); });
            break;
        case Op::Shl:
            lanes([&](uint32_t l) {
                d[l] = bits<T>(alu::shift_left(as<T>(a[l]), static_cast<uint32_t>(b[l])));
            });
            break;
        case Op::Shr:
            lanes([&](uint32_t l) {
                d[l] = bits<T>(alu::shift_right(as<T>(a[l]), static_cast<uint32_t>(b[l])));
            });
            break;
        case Op::Popc:
            lanes([&](uint32_t l) {
                d[l] =
                    static_cast<uint64_t>(std::popcount(static_cast<std::make_unsigned_t<T>>(as<T>(a[l]))));
            });
            break;
        case Op::Clz:
            lanes([&](uint32_t l) {
                d[l] = static_cast<uint64_t>(
                    std::countl_zero(static_cast<std::make_unsigned_t<T>>(as<T>(a[l]))));
            });
            break;
        case Op::Brev:
            lanes([&](uint32_t l) {
                const uint64_t v = a[l];
                d[l] = sizeof(T) == 8 ? (uint64_t(alu::bit_reverse32(uint32_t(v))) << 32) |
                                            alu::bit_reverse32(uint32_t(v >> 32))
                                      : alu::bit_reverse32(uint32_t(v));
            });
            break;
        case Op::Bfe:
            lanes([&](uint32_t l) {
                d[l] = bits<T>(alu::bit_field_extract(as<T>(a[l]), uint32_t(b[l]), uint32_t(c[l])));
            });
            break;
        case Op::Bfi:
            // bfi d, f, b, pos, len: insert the low bits of f into b.
            lanes([&](uint32_t l) {
                d[l] =
                    bits<T>(alu::bit_field_insert(as<T>(a[l]), as<T>(b[l]), uint32_t(c[l]), uint32_t(e[l])));
            });
            break;
        case Op::Shf:
            lanes([&](uint32_t l) {
                d[l] = alu::funnel_shift(uint32_t(a[l]), uint32_t(b[l]), uint32_t(c[l]),
                                         (mods & ptx::mod::kShiftRight) != 0, (mods & ptx::mod::kClamp) != 0);
            });
            break;
        case Op::Bfind:
            lanes([&](uint32_t l) { d[l] = alu::find_msb(as<T>(a[l]), (mods & ptx::mod::kShiftAmt) != 0); });
            break;
        case Op::Prmt:
            lanes([&](uint32_t l) {
                d[l] = alu::byte_permute(uint32_t(a[l]), uint32_t(b[l]), uint32_t(c[l]));
            });
            break;
        default:
            ok = false;
            break;
        }
    });
    if (!ok) unsupported(warp, in, pc, mask);
}

// [SECTION] Conversion ===============================================================================

void Run::execute_cvt(Warp& warp, const Instruction& in, uint32_t pc, uint32_t mask) {
    uint64_t* d = reg(warp, in.ops[0].reg);
    uint64_t sa[kWarpSize];
    const uint64_t* a = fetch(warp, in.ops[1], mask, sa);
    const bool sat = (in.mods & ptx::mod::kSat) != 0;
    const bool round_int = (in.mods & ptx::mod::kRoundInt) != 0;
    bool handled = false;
    alu::visit_number(in.type, [&]<class D>(std::type_identity<D>) {
        alu::visit_number(in.type2, [&]<class S>(std::type_identity<S>) {
            handled = true;
            for_each_lane(mask, [&](uint32_t l) {
                const S s = alu::as<S>(a[l]);
                D r;
                if constexpr (std::is_floating_point_v<D> && std::is_floating_point_v<S>) {
                    r = static_cast<D>(round_int ? alu::round_integral(s, in.rounding) : s);
                    if (sat) r = std::isnan(r) ? D(0) : std::min(D(1), std::max(D(0), r));
                } else if constexpr (std::is_floating_point_v<D>) {
                    r = static_cast<D>(s);
                    if (sat) r = std::min(D(1), std::max(D(0), r));
                } else if constexpr (std::is_floating_point_v<S>) {
                    r = alu::float_to_int<D>(s, in.rounding);
                } else {
                    r = alu::int_convert<D>(s, sat);
                }
                d[l] = alu::bits<D>(r);
            });
        });
    });
    if (!handled)
        fault(warp, static_cast<uint32_t>(std::countr_zero(mask)), pc,
              std::string("the simulator does not support cvt.") + ptx::to_string(in.type) + "." +
                  ptx::to_string(in.type2));
}

} // namespace synclab::sim
