// PTX parser, instruction decoders: data movement and conversion (mov cvt cvta ld st selp; opcodes.h
// families Mov, Cvt, Cvta, LdSt, Selp).
#include "ptx/parser_impl.h"

namespace synclab::ptx::detail {

// mov.type d, a: a is a register, immediate, special register, or a variable (.global/.const ->
// Symbol, .shared/.local/.param -> Imm byte offset). mov.b64/.b32 also packs/unpacks vectors.
void Parser::decode_mov(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Mov;
    inst.type = take_type(mods);
    expect_operands(2, 2);
    if (inst.type == Type::Pred) {
        pred_dest(inst, 0, stmt_->operands[0]);
        const Range r = stmt_->operands[1];
        Parsed p = parse_operand(r, Type::Pred);
        if (!(p.form == Parsed::Form::Imm || (p.form == Parsed::Form::Reg && p.pred)) || p.op.negate) {
            fail_here("mov.pred needs a predicate register or 0/1, got '" + operand_text(r) + "'");
        }
        use(inst, 1, p);
        return;
    }
    dest(inst, 0, 0, true);
    const Range r = stmt_->operands[1];
    Parsed p = parse_operand(r, inst.type);
    switch (p.form) {
    case Parsed::Form::Reg:
        if (p.pred) fail_here("predicate register '" + operand_text(r) + "' used as a data operand");
        break;
    case Parsed::Form::Imm:
    case Parsed::Form::Special:
    case Parsed::Form::GlobalSym:
    case Parsed::Form::SpaceSym:
    case Parsed::Form::Vector:
        break;
    case Parsed::Form::Address:
        fail_here("mov cannot read memory ('" + operand_text(r) + "'); use ld");
    case Parsed::Form::Sink:
        fail_here("'_' is not allowed here");
    }
    if (p.form == Parsed::Form::Vector && inst.ops[0].kind == Operand::Kind::Vector) {
        fail_here("mov cannot have vector operands on both sides");
    }
    use(inst, 1, p);
}

// cvt[.rnd][.ftz][.sat].dtype.atype d, a: type = destination, type2 = source.
void Parser::decode_cvt(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Cvt;
    static constexpr std::pair<std::string_view, Rounding> kRoundToInt[] = {
        {"rni", Rounding::Nearest},
        {"rzi", Rounding::Zero},
        {"rmi", Rounding::Down},
        {"rpi", Rounding::Up},
    };
    const int to_float = mods.take_all(kRoundings, inst.rounding);
    const int to_int = mods.take_all(kRoundToInt, inst.rounding);
    if (to_float + to_int > 1) fail_here("two rounding modifiers on cvt");
    if (to_int != 0) inst.mods |= mod::kRoundInt;
    if (mods.take("ftz")) inst.mods |= mod::kFtz;
    if (mods.take("sat")) inst.mods |= mod::kSat;
    inst.type = take_type(mods);
    inst.type2 = take_type(mods, false);
    if (inst.type2 == Type::None) fail_here("cvt needs a destination and a source type");
    if (inst.type == Type::Pred || inst.type2 == Type::Pred) fail_here("cvt does not convert predicates");
    expect_operands(2, 2);
    dest(inst, 0, 0);
    src(inst, 1, 1, inst.type2);
}

// cvta.space.size d, a (space -> generic) and cvta.to.space.size d, a (generic -> space).
void Parser::decode_cvta(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Cvta;
    if (mods.take("to")) inst.mods |= mod::kToSpace;
    auto space = take_space(mods);
    if (!space) fail_here("cvta needs a state space (.global, .shared, .local, .const or .param)");
    inst.space = *space;
    inst.type = take_type(mods);
    if (inst.type != Type::U32 && inst.type != Type::U64) fail_here("cvta size must be .u32 or .u64");
    expect_operands(2, 2);
    dest(inst, 0, 0);
    const Range r = stmt_->operands[1];
    Parsed p = parse_operand(r, inst.type);
    if (p.form == Parsed::Form::GlobalSym || p.form == Parsed::Form::SpaceSym) {
        if ((inst.mods & mod::kToSpace) != 0)
            fail_here("cvta.to takes a generic address, not the variable '" + operand_text(r) + "'");
        if (p.sym_space != inst.space) {
            fail_here("'" + operand_text(r) + "' is a ." + to_string(p.sym_space) + " variable, not ." +
                      to_string(inst.space));
        }
    } else if (p.form != Parsed::Form::Reg && p.form != Parsed::Form::Imm) {
        fail_here("cvta needs a register, immediate or variable, got '" + operand_text(r) + "'");
    } else if (p.pred) {
        fail_here("predicate register '" + operand_text(r) + "' used as an address");
    }
    use(inst, 1, p);
}

// isspacep.space p, a: whether the generic address a lies in the state space (the GPU trace
// recording uses it to tell shared from global accesses of generic instructions).
void Parser::decode_isspacep(Instruction& inst, Modifiers& mods) {
    auto space = take_space(mods);
    if (!space) fail_here("isspacep needs a state space (.global, .shared, .local, .const or .param)");
    inst.space = *space;
    inst.type = Type::Pred;
    expect_operands(2, 2);
    pred_dest(inst, 0, stmt_->operands[0]);
    src(inst, 1, 1, Type::U64);
}

// ld{.weak|.volatile|.relaxed.scope|.acquire.scope}{.space}{cache hints}{.v2|.v4}.type d, [a]
// st{.weak|.volatile|.relaxed.scope|.release.scope}{.space}{cache hints}{.v2|.v4}.type [a], b
void Parser::decode_ld_st(Instruction& inst, Modifiers& mods, bool load) {
    inst.op = load ? Op::Ld : Op::St;
    const char* name = load ? "ld" : "st";
    if (mods.has("mmio")) fail_here(std::string(name) + ".mmio is not supported");
    if (mods.has("async") || mods.has("bulk"))
        fail_here(std::string("unsupported instruction '") + name + ".async'");
    static constexpr std::pair<std::string_view, MemOrder> kLoadOrders[] = {
        {"weak", MemOrder::Weak},
        {"volatile", MemOrder::Volatile},
        {"relaxed", MemOrder::Relaxed},
        {"acquire", MemOrder::Acquire},
    };
    static constexpr std::pair<std::string_view, MemOrder> kStoreOrders[] = {
        {"weak", MemOrder::Weak},
        {"volatile", MemOrder::Volatile},
        {"relaxed", MemOrder::Relaxed},
        {"release", MemOrder::Release},
    };
    if (mods.take_all(load ? kLoadOrders : kStoreOrders, inst.order) > 1)
        fail_here(std::string("more than one memory-order qualifier on ") + name);
    if (mods.has(load ? "release" : "acquire") || mods.has("acq_rel") || mods.has("sc")) {
        fail_here(std::string("invalid memory order for ") + name + " (" +
                  (load ? "ld takes .relaxed or .acquire" : "st takes .relaxed or .release") + ")");
    }
    if (auto scope = take_scope(mods)) inst.scope = *scope;
    const bool strong =
        inst.order == MemOrder::Relaxed || inst.order == MemOrder::Acquire || inst.order == MemOrder::Release;
    if (strong && inst.scope == MemScope::None)
        fail_here(std::string(name) + " with a memory order needs a scope (.cta, .cluster, .gpu or .sys)");
    if (!strong && inst.scope != MemScope::None)
        fail_here(std::string("a scope on ") + name + " needs .relaxed or ." +
                  (load ? "acquire" : "release"));
    if (auto space = take_space(mods)) inst.space = *space;
    const bool policy = take_cache_hints(mods, load ? HintKind::Load : HintKind::Store);
    if (mods.take("v2")) inst.vector = 2;
    if (mods.take("v4")) inst.vector = 4;
    if (mods.has("v8")) fail_here(".v8 vectors are not supported");
    inst.type = take_type(mods);
    if (inst.type == Type::Pred) fail_here(std::string(name) + " cannot use .pred");
    const size_t count = policy ? 3 : 2;
    expect_operands(count, count);
    if (load) {
        dest(inst, 0, 0, true);
        check_vector_operand(inst, 0);
        address(inst, 1, 1);
    } else {
        address(inst, 0, 0);
        src(inst, 1, 1, inst.type, true);
        check_vector_operand(inst, 1);
    }
    if (policy) check_policy_operand(2);
}

// selp.type d, a, b, c: d = c ? a : b
void Parser::decode_selp(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Selp;
    inst.type = take_type(mods);
    if (inst.type == Type::Pred) fail_here("selp does not take .pred (use and/or/xor on predicates)");
    expect_operands(4, 4);
    dest(inst, 0, 0);
    src(inst, 1, 1, inst.type);
    src(inst, 2, 2, inst.type);
    pred_src(inst, 3, 3, false);
}

} // namespace synclab::ptx::detail
