// PTX parser, instruction decoders: arithmetic, logic, bit manipulation and comparison (opcodes.h
// families Arith, Logic, Bits, Setp).
#include "ptx/parser_impl.h"

namespace synclab::ptx::detail {

void Parser::decode_arith(Instruction& inst, Modifiers& mods) {
    struct Spec {
        std::string_view name;
        Op op;
        uint8_t operands; // including d
        bool int_ok, float_ok;
        bool rounding; // float .rn/.rz/.rm/.rp
        bool approx;   // .approx / .full accepted (no effect on the simulated result)
        bool sat;      // .sat
        bool lohi;     // integer .lo/.hi/.wide
    };
    static constexpr Spec kSpecs[] = {
        {"add", Op::Add, 3, true, true, true, false, true, false},
        {"sub", Op::Sub, 3, true, true, true, false, true, false},
        {"mul", Op::Mul, 3, true, true, true, false, true, true},
        {"mad", Op::Mad, 4, true, true, true, false, true, true},
        {"fma", Op::Fma, 4, false, true, true, false, true, false},
        {"div", Op::Div, 3, true, true, true, true, false, false},
        {"rem", Op::Rem, 3, true, false, false, false, false, false},
        {"abs", Op::Abs, 2, true, true, false, false, false, false},
        {"neg", Op::Neg, 2, true, true, false, false, false, false},
        {"min", Op::Min, 3, true, true, false, false, false, false},
        {"max", Op::Max, 3, true, true, false, false, false, false},
        {"sqrt", Op::Sqrt, 2, false, true, true, true, false, false},
        {"rsqrt", Op::Rsqrt, 2, false, true, false, true, false, false},
        {"rcp", Op::Rcp, 2, false, true, true, true, false, false},
        {"ex2", Op::Ex2, 2, false, true, false, true, false, false},
        {"lg2", Op::Lg2, 2, false, true, false, true, false, false},
        {"sin", Op::Sin, 2, false, true, false, true, false, false},
        {"cos", Op::Cos, 2, false, true, false, true, false, false},
        {"copysign", Op::Copysign, 3, false, true, false, false, false, false},
    };
    const Spec* spec = nullptr;
    for (const Spec& s : kSpecs) {
        if (s.name == mods.base()) spec = &s;
    }
    const std::string opname(spec->name);
    inst.op = spec->op;
    if (mods.has("cc")) fail_here("carry arithmetic ('" + opname + ".cc') is not supported");
    inst.type = take_type(mods);
    if (inst.type == Type::Pred) fail_here(opname + " does not take .pred");
    const bool fp = is_float(inst.type);
    if (fp && !spec->float_ok) fail_here(opname + " needs an integer type, not ." + to_string(inst.type));
    if (!fp && !spec->int_ok)
        fail_here(opname + " needs a floating-point type, not ." + to_string(inst.type));
    if (fp) {
        if (spec->rounding && mods.take_all(kRoundings, inst.rounding) > 1)
            fail_here("two rounding modifiers on " + opname);
        if (spec->approx && !mods.take("approx")) mods.take("full");
        if (mods.take("ftz")) inst.mods |= mod::kFtz;
        if (spec->sat && mods.take("sat")) inst.mods |= mod::kSat;
    } else {
        if (spec->lohi) {
            static constexpr std::pair<std::string_view, uint16_t> kForms[] = {
                {"lo", mod::kLo},
                {"hi", mod::kHi},
                {"wide", mod::kWide},
            };
            uint16_t form = mod::kLo; // PTX requires one; .lo is what an omitted one means here
            const int forms = mods.take_all(kForms, form);
            if (form == mod::kWide && type_size(inst.type) > 4)
                fail_here(opname + ".wide needs a 16- or 32-bit type");
            if (forms > 1) fail_here(opname + " takes one of .lo, .hi, .wide");
            inst.mods |= form;
        }
        if (spec->sat && mods.take("sat")) {
            if (inst.type != Type::S32) fail_here(opname + ".sat needs .s32");
            inst.mods |= mod::kSat;
        }
    }
    expect_operands(spec->operands, spec->operands);
    dest(inst, 0, 0);
    for (uint8_t i = 1; i < spec->operands; ++i)
        src(inst, i, i, inst.type);
}

// and/or/xor/not on .pred or .b16/.b32/.b64.
void Parser::decode_logic(Instruction& inst, Modifiers& mods) {
    const std::string_view base = mods.base();
    inst.type = take_type(mods);
    if (inst.type != Type::Pred && !is_bits(inst.type)) {
        fail_here(std::string(base) + " needs .pred, .b16, .b32 or .b64, not ." + to_string(inst.type));
    }
    const size_t n = inst.op == Op::Not ? 2 : 3;
    expect_operands(n, n);
    if (inst.type == Type::Pred) {
        pred_dest(inst, 0, stmt_->operands[0]);
        for (uint8_t i = 1; i < n; ++i)
            pred_src(inst, i, i, false);
    } else {
        dest(inst, 0, 0);
        for (uint8_t i = 1; i < n; ++i)
            src(inst, i, i, inst.type);
    }
}

// shl shr popc clz brev bfe bfi prmt shf bfind
void Parser::decode_bits(Instruction& inst, Modifiers& mods) {
    const std::string_view base = mods.base();
    const std::string name(base);
    if (base == "shf") {
        // shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: shift the 64-bit pair {b:a} by c, keep 32 bits.
        inst.op = Op::Shf;
        if (mods.take("r"))
            inst.mods |= mod::kShiftRight;
        else if (!mods.take("l"))
            fail_here("shf needs .l or .r");
        if (mods.take("clamp"))
            inst.mods |= mod::kClamp;
        else if (!mods.take("wrap"))
            fail_here("shf needs .wrap or .clamp");
    } else if (base == "bfind" && mods.take("shiftamt")) {
        inst.mods |= mod::kShiftAmt;
    }
    inst.type = take_type(mods);
    const Type t = inst.type;
    auto need = [&](bool ok, const char* types) {
        if (!ok) fail_here(name + " needs " + types + ", not ." + to_string(t));
    };
    const bool b = t == Type::B32 || t == Type::B64;
    const bool int32_64 = t == Type::U32 || t == Type::U64 || t == Type::S32 || t == Type::S64;
    if (base == "shl" || base == "shr") {
        if (inst.op == Op::Shl) {
            need(is_bits(t) && t != Type::B8, ".b16, .b32 or .b64");
        } else {
            need(is_int(t) && type_size(t) >= 2, "a 16-, 32- or 64-bit integer type");
        }
        expect_operands(3, 3);
        dest(inst, 0, 0);
        src(inst, 1, 1, t);
        src(inst, 2, 2, Type::U32);
    } else if (base == "shf") {
        need(t == Type::B32, ".b32");
        expect_operands(4, 4);
        dest(inst, 0, 0);
        for (uint8_t i = 1; i < 4; ++i)
            src(inst, i, i, Type::B32);
    } else if (base == "bfind") {
        inst.op = Op::Bfind;
        need(int32_64, ".u32, .u64, .s32 or .s64");
        expect_operands(2, 2);
        dest(inst, 0, 0);
        src(inst, 1, 1, t);
    } else if (base == "popc" || base == "clz" || base == "brev") {
        need(b, ".b32 or .b64");
        expect_operands(2, 2);
        dest(inst, 0, 0);
        src(inst, 1, 1, t);
    } else if (base == "bfe") {
        inst.op = Op::Bfe;
        need(int32_64, ".u32, .u64, .s32 or .s64");
        expect_operands(4, 4);
        dest(inst, 0, 0);
        src(inst, 1, 1, t);
        src(inst, 2, 2, Type::U32);
        src(inst, 3, 3, Type::U32);
    } else if (base == "bfi") {
        // bfi.b f, a, b, c, d: ops[0]=f ops[1]=a (inserted bits) ops[2]=b (base) ops[3]=c (pos) ops[4]=d
        // (len)
        inst.op = Op::Bfi;
        need(b, ".b32 or .b64");
        expect_operands(5, 5);
        dest(inst, 0, 0);
        src(inst, 1, 1, t);
        src(inst, 2, 2, t);
        src(inst, 3, 3, Type::U32);
        src(inst, 4, 4, Type::U32);
    } else {
        inst.op = Op::Prmt;
        need(t == Type::B32, ".b32");
        for (std::string_view mode : {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"}) {
            if (mods.has(mode))
                fail_here("prmt mode '." + std::string(mode) + "' is not supported (only the default mode)");
        }
        expect_operands(4, 4);
        dest(inst, 0, 0);
        for (uint8_t i = 1; i < 4; ++i)
            src(inst, i, i, Type::B32);
    }
}

// setp.CMP[.BOOL][.ftz].type p[|q], a, b[, {!}c]
void Parser::decode_setp(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Setp;
    static constexpr std::pair<std::string_view, Cmp> kCmps[] = {
        {"eq", Cmp::Eq},   {"ne", Cmp::Ne},   {"lt", Cmp::Lt},   {"le", Cmp::Le},   {"gt", Cmp::Gt},
        {"ge", Cmp::Ge},   {"lo", Cmp::Lo},   {"ls", Cmp::Ls},   {"hi", Cmp::Hi},   {"hs", Cmp::Hs},
        {"equ", Cmp::Equ}, {"neu", Cmp::Neu}, {"ltu", Cmp::Ltu}, {"leu", Cmp::Leu}, {"gtu", Cmp::Gtu},
        {"geu", Cmp::Geu}, {"num", Cmp::Num}, {"nan", Cmp::Nan},
    };
    static constexpr std::pair<std::string_view, BoolOp> kBoolOps[] = {
        {"and", BoolOp::And},
        {"or", BoolOp::Or},
        {"xor", BoolOp::Xor},
    };
    if (mods.take_all(kCmps, inst.cmp) > 1) fail_here("two comparison operators on setp");
    if (inst.cmp == Cmp::None) fail_here("setp needs a comparison operator (.eq, .lt, ...)");
    if (mods.take_all(kBoolOps, inst.bool_op) > 1)
        fail_here("two boolean operators on setp (one of .and, .or, .xor)");
    if (mods.take("ftz")) inst.mods |= mod::kFtz;
    inst.type = take_type(mods);
    if (inst.type == Type::Pred || inst.type == Type::None) fail_here("setp compares data types, not .pred");
    const bool unordered = inst.cmp >= Cmp::Equ;
    if (unordered && !is_float(inst.type)) fail_here("unordered comparisons need a floating-point type");
    const bool unsigned_cmp =
        inst.cmp == Cmp::Lo || inst.cmp == Cmp::Ls || inst.cmp == Cmp::Hi || inst.cmp == Cmp::Hs;
    if (unsigned_cmp && is_float(inst.type))
        fail_here("unsigned comparisons (.lo .ls .hi .hs) need an integer type");
    if (is_bits(inst.type) && inst.cmp != Cmp::Eq && inst.cmp != Cmp::Ne) {
        fail_here("bit types (.b*) only compare with .eq or .ne");
    }
    const size_t n = inst.bool_op == BoolOp::None ? 3 : 4;
    expect_operands(n, n);
    auto [p, q] = split_bar(stmt_->operands[0]);
    pred_dest(inst, 0, p);
    if (q) pred_dest(inst, 1, *q);
    src(inst, 2, 1, inst.type);
    src(inst, 3, 2, inst.type);
    if (n == 4) pred_src(inst, 4, 3, true);
}

} // namespace synclab::ptx::detail
