// Scalar semantics of PTX arithmetic, logic, comparison and conversion, on raw register bits.
//
// Registers hold 64 raw bits; an instruction of type T reads the low sizeof(T) bytes (sign- or
// zero-extending as T says) and writes its result zero-extended. So every read truncates, and a
// register's upper bits never matter.
#pragma once

#include "ptx/ir.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace synclab::sim::alu {

// 128-bit integers for mul.hi of 64-bit operands (a GCC/Clang extension; __extension__ keeps
// -Wpedantic quiet about it).
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

template <class T> inline T as(uint64_t bits) {
    if constexpr (std::is_same_v<T, float>)
        return std::bit_cast<float>(static_cast<uint32_t>(bits));
    else if constexpr (std::is_same_v<T, double>)
        return std::bit_cast<double>(bits);
    else
        return static_cast<T>(bits);
}

template <class T> inline uint64_t bits(T value) {
    if constexpr (std::is_same_v<T, float>)
        return std::bit_cast<uint32_t>(value);
    else if constexpr (std::is_same_v<T, double>)
        return std::bit_cast<uint64_t>(value);
    else if constexpr (std::is_same_v<T, bool>)
        return value ? 1 : 0;
    else
        return static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(value));
}

// Calls f(std::type_identity<T>{}) with the C++ type of a PTX type. Returns false for types this
// family does not take (f16, pred where numbers are needed ...).
template <class F> inline bool visit_int(ptx::Type type, F&& f) {
    using ptx::Type;
    switch (type) {
    case Type::S8:
        f(std::type_identity<int8_t>{});
        return true;
    case Type::S16:
        f(std::type_identity<int16_t>{});
        return true;
    case Type::S32:
        f(std::type_identity<int32_t>{});
        return true;
    case Type::S64:
        f(std::type_identity<int64_t>{});
        return true;
    case Type::U8:
    case Type::B8:
        f(std::type_identity<uint8_t>{});
        return true;
    case Type::U16:
    case Type::B16:
        f(std::type_identity<uint16_t>{});
        return true;
    case Type::U32:
    case Type::B32:
        f(std::type_identity<uint32_t>{});
        return true;
    case Type::U64:
    case Type::B64:
        f(std::type_identity<uint64_t>{});
        return true;
    default:
        return false;
    }
}

template <class F> inline bool visit_float(ptx::Type type, F&& f) {
    if (type == ptx::Type::F32) {
        f(std::type_identity<float>{});
        return true;
    }
    if (type == ptx::Type::F64) {
        f(std::type_identity<double>{});
        return true;
    }
    return false;
}

template <class F> inline bool visit_number(ptx::Type type, F&& f) {
    return visit_int(type, f) || visit_float(type, f);
}

template <class T>
using Wide = std::conditional_t<
    sizeof(T) == 1, std::conditional_t<std::is_signed_v<T>, int16_t, uint16_t>,
    std::conditional_t<
        sizeof(T) == 2, std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>,
        std::conditional_t<sizeof(T) == 4, std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>,
                           std::conditional_t<std::is_signed_v<T>, Int128, UInt128>>>>;

template <class T> inline T mul_hi(T a, T b) {
    using W = Wide<T>;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> (8 * sizeof(T)));
}

// Integer division as the hardware does it: no trap; x/0 gives all ones (unsigned) or -1.
template <class T> inline T int_div(T a, T b) {
    if (b == 0) return static_cast<T>(-1);
    if constexpr (std::is_signed_v<T>) {
        if (a == std::numeric_limits<T>::min() && b == -1) return a;
    }
    return static_cast<T>(a / b);
}
template <class T> inline T int_rem(T a, T b) {
    if (b == 0) return a;
    if constexpr (std::is_signed_v<T>) {
        if (a == std::numeric_limits<T>::min() && b == -1) return 0;
    }
    return static_cast<T>(a % b);
}

template <class T> inline T sat_add(T a, T b) {
    using W = Wide<T>;
    W r = static_cast<W>(a) + static_cast<W>(b);
    if (r > std::numeric_limits<T>::max()) return std::numeric_limits<T>::max();
    if (r < std::numeric_limits<T>::min()) return std::numeric_limits<T>::min();
    return static_cast<T>(r);
}
template <class T> inline T sat_sub(T a, T b) {
    using W = Wide<T>;
    W r = static_cast<W>(a) - static_cast<W>(b);
    if (r > std::numeric_limits<T>::max()) return std::numeric_limits<T>::max();
    if (r < std::numeric_limits<T>::min()) return std::numeric_limits<T>::min();
    return static_cast<T>(r);
}

// PTX shifts: amounts >= the width give 0 (shl, shr.u) or the sign fill (shr.s).
template <class T> inline T shift_left(T a, uint32_t n) {
    using U = std::make_unsigned_t<T>;
    return n >= 8 * sizeof(T) ? T(0) : static_cast<T>(static_cast<U>(a) << n);
}
template <class T> inline T shift_right(T a, uint32_t n) {
    if (n >= 8 * sizeof(T)) {
        if constexpr (std::is_signed_v<T>)
            return a < 0 ? T(-1) : T(0);
        else
            return T(0);
    }
    return static_cast<T>(a >> n);
}

// Float min/max: if one input is NaN the other is returned (PTX semantics).
template <class T> inline T fmin_ptx(T a, T b) {
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    return a < b ? a : b;
}
template <class T> inline T fmax_ptx(T a, T b) {
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    return a > b ? a : b;
}

template <class T> inline bool compare(ptx::Cmp cmp, T a, T b) {
    using ptx::Cmp;
    if constexpr (std::is_floating_point_v<T>) {
        const bool unordered = std::isnan(a) || std::isnan(b);
        switch (cmp) {
        case Cmp::Eq:
            return !unordered && a == b;
        case Cmp::Ne:
            return !unordered && a != b;
        case Cmp::Lt:
            return !unordered && a < b;
        case Cmp::Le:
            return !unordered && a <= b;
        case Cmp::Gt:
            return !unordered && a > b;
        case Cmp::Ge:
            return !unordered && a >= b;
        case Cmp::Equ:
            return unordered || a == b;
        case Cmp::Neu:
            return unordered || a != b;
        case Cmp::Ltu:
            return unordered || a < b;
        case Cmp::Leu:
            return unordered || a <= b;
        case Cmp::Gtu:
            return unordered || a > b;
        case Cmp::Geu:
            return unordered || a >= b;
        case Cmp::Num:
            return !unordered;
        case Cmp::Nan:
            return unordered;
        default:
            return false;
        }
    } else {
        using U = std::make_unsigned_t<T>;
        switch (cmp) {
        case Cmp::Eq:
            return a == b;
        case Cmp::Ne:
            return a != b;
        case Cmp::Lt:
            return a < b;
        case Cmp::Le:
            return a <= b;
        case Cmp::Gt:
            return a > b;
        case Cmp::Ge:
            return a >= b;
        case Cmp::Lo:
            return static_cast<U>(a) < static_cast<U>(b);
        case Cmp::Ls:
            return static_cast<U>(a) <= static_cast<U>(b);
        case Cmp::Hi:
            return static_cast<U>(a) > static_cast<U>(b);
        case Cmp::Hs:
            return static_cast<U>(a) >= static_cast<U>(b);
        default:
            return false;
        }
    }
}

// Calls f(cmp) with a callable cmp(a, b) == compare<T>(op, a, b), chosen once: a lane loop inside f
// then runs without a switch per lane. The common integer comparisons get their own callables; the
// others share the general one.
template <class T, class F> inline void visit_compare(ptx::Cmp op, F&& f) {
    using ptx::Cmp;
    if constexpr (std::is_integral_v<T>) {
        switch (op) {
        case Cmp::Eq:
            return f([](T a, T b) { return a == b; });
        case Cmp::Ne:
            return f([](T a, T b) { return a != b; });
        case Cmp::Lt:
            return f([](T a, T b) { return a < b; });
        case Cmp::Le:
            return f([](T a, T b) { return a <= b; });
        case Cmp::Gt:
            return f([](T a, T b) { return a > b; });
        case Cmp::Ge:
            return f([](T a, T b) { return a >= b; });
        default:
            break;
        }
    }
    f([op](T a, T b) { return compare<T>(op, a, b); });
}

inline bool combine(ptx::BoolOp op, bool a, bool c) {
    switch (op) {
    case ptx::BoolOp::And:
        return a && c;
    case ptx::BoolOp::Or:
        return a || c;
    case ptx::BoolOp::Xor:
        return a != c;
    default:
        return a;
    }
}

// Rounds a float to an integral value as cvt's .rni/.rzi/.rmi/.rpi ask.
template <class T> inline T round_integral(T v, ptx::Rounding r) {
    switch (r) {
    case ptx::Rounding::Zero:
        return std::trunc(v);
    case ptx::Rounding::Down:
        return std::floor(v);
    case ptx::Rounding::Up:
        return std::ceil(v);
    default:
        return std::nearbyint(v); // round half to even in the default FP environment
    }
}

// Float -> integer as PTX cvt does it: round, saturate to the destination range, NaN -> 0.
template <class I, class F> inline I float_to_int(F v, ptx::Rounding r) {
    if (std::isnan(v)) return 0;
    const F rounded = round_integral(v, r == ptx::Rounding::Default ? ptx::Rounding::Zero : r);
    if (rounded <= static_cast<F>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    if (rounded >= static_cast<F>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
    return static_cast<I>(rounded);
}

// Integer saturation for cvt.sat between integer types.
template <class D, class S> inline D int_convert(S v, bool saturate) {
    if (!saturate) return static_cast<D>(v);
    using W = Int128;
    const W w = static_cast<W>(v);
    if (w > static_cast<W>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
    if (w < static_cast<W>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
    return static_cast<D>(v);
}

inline uint32_t bit_reverse32(uint32_t v) {
    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
    v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
    v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
    return (v >> 16) | (v << 16);
}

// bfe: extract `len` bits from `pos` (both taken mod 256 as PTX says), sign-extending for signed T.
template <class T> inline T bit_field_extract(T a, uint32_t pos, uint32_t len) {
    constexpr uint32_t width = 8 * sizeof(T);
    using U = std::make_unsigned_t<T>;
    pos &= 0xff;
    len &= 0xff;
    if (len == 0) return 0;
    const U ua = static_cast<U>(a);
    U field = pos >= width ? U(0) : static_cast<U>(ua >> pos);
    if (len < width) field &= static_cast<U>((U(1) << len) - 1);
    if constexpr (std::is_signed_v<T>) {
        const uint32_t top = pos + len - 1 >= width ? width - 1 : pos + len - 1;
        const bool sign = (ua >> top) & 1;
        if (sign && len < width) field |= static_cast<U>(~((U(1) << len) - 1));
    }
    return static_cast<T>(field);
}

template <class T> inline T bit_field_insert(T a, T b, uint32_t pos, uint32_t len) {
    constexpr uint32_t width = 8 * sizeof(T);
    using U = std::make_unsigned_t<T>;
    pos &= 0xff;
    len &= 0xff;
    if (len == 0 || pos >= width) return b;
    const U mask_len = len >= width ? U(~U(0)) : static_cast<U>((U(1) << len) - 1);
    const U mask = static_cast<U>(mask_len << pos);
    return static_cast<T>((static_cast<U>(b) & ~mask) | ((static_cast<U>(a) << pos) & mask));
}

// prmt.b32 default mode: pick 4 bytes out of {b, a} by the selector's nibbles (bit 3 = sign-replicate).
inline uint32_t byte_permute(uint32_t a, uint32_t b, uint32_t selector) {
    const uint64_t pool = (static_cast<uint64_t>(b) << 32) | a;
    uint32_t result = 0;
    for (int i = 0; i < 4; ++i) {
        const uint32_t nibble = (selector >> (4 * i)) & 0xf;
        uint32_t byte = static_cast<uint32_t>(pool >> (8 * (nibble & 7))) & 0xff;
        if (nibble & 8) byte = (byte & 0x80) ? 0xff : 0x00;
        result |= byte << (8 * i);
    }
    return result;
}

// shf: shift the 64-bit pair {hi:lo} left or right by n (mod 32 with .wrap, at most 32 with
// .clamp) and keep the upper (left) or lower (right) 32 bits.
inline uint32_t funnel_shift(uint32_t lo, uint32_t hi, uint32_t n, bool right, bool clamp) {
    n = clamp ? (n > 32 ? 32 : n) : (n & 31);
    const uint64_t pair = (uint64_t(hi) << 32) | lo;
    return right ? static_cast<uint32_t>(pair >> n) : static_cast<uint32_t>((pair << n) >> 32);
}

// bfind: bit position of the most significant non-sign bit (0xffffffff if none); with .shiftamt,
// the left shift that would bring it to the top.
template <class T> inline uint32_t find_msb(T a, bool shift_amount) {
    using U = std::make_unsigned_t<T>;
    constexpr uint32_t width = 8 * sizeof(T);
    U u = static_cast<U>(a);
    if constexpr (std::is_signed_v<T>) {
        if (a < 0) u = static_cast<U>(~u);
    }
    if (u == 0) return 0xffffffffu;
    const uint32_t msb = width - 1 - static_cast<uint32_t>(std::countl_zero(u));
    return shift_amount ? width - 1 - msb : msb;
}

} // namespace synclab::sim::alu
