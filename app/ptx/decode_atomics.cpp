// PTX parser, instruction decoders: atomics and memory ordering (atom red membar fence; opcodes.h
// families AtomRed, Fence).
#include "ptx/parser_impl.h"

namespace synclab::ptx::detail {

// atom{.sem}{.scope}{.space}.op.type d, [a], b{, c}   red{.sem}{.scope}{.space}.op.type [a], b
// Modifiers may come in any order (cuda headers write atom.add.acq_rel.cta.s32). Without .sem the
// order is .relaxed and without a scope it is .gpu (PTX defaults).
void Parser::decode_atom_red(Instruction& inst, Modifiers& mods, bool red) {
    inst.op = red ? Op::Red : Op::Atom;
    const std::string name = red ? "red" : "atom";
    if (mods.has("v2") || mods.has("v4") || mods.has("v8")) fail_here("vector " + name + " is not supported");
    static constexpr std::pair<std::string_view, AtomOp> kOps[] = {
        {"add", AtomOp::Add},   {"min", AtomOp::Min}, {"max", AtomOp::Max}, {"inc", AtomOp::Inc},
        {"dec", AtomOp::Dec},   {"and", AtomOp::And}, {"or", AtomOp::Or},   {"xor", AtomOp::Xor},
        {"exch", AtomOp::Exch}, {"cas", AtomOp::Cas},
    };
    if (mods.take_all(kOps, inst.atom_op) > 1) fail_here("two operations on " + name);
    if (inst.atom_op == AtomOp::None) fail_here(name + " needs an operation (.add, .cas, ...)");
    if (red && (inst.atom_op == AtomOp::Exch || inst.atom_op == AtomOp::Cas)) {
        fail_here("red has no ." + std::string(inst.atom_op == AtomOp::Exch ? "exch" : "cas") +
                  " (use atom)");
    }
    static constexpr std::pair<std::string_view, MemOrder> kOrders[] = {
        {"relaxed", MemOrder::Relaxed}, {"acquire", MemOrder::Acquire}, {"release", MemOrder::Release},
        {"acq_rel", MemOrder::AcqRel},  {"sc", MemOrder::Sc},
    };
    inst.order = MemOrder::Relaxed;
    if (mods.take_all(kOrders, inst.order) > 1) fail_here("more than one memory-order qualifier on " + name);
    if (red &&
        (inst.order == MemOrder::Acquire || inst.order == MemOrder::AcqRel || inst.order == MemOrder::Sc)) {
        fail_here("red takes .relaxed or .release only");
    }
    inst.scope = take_scope(mods).value_or(MemScope::Gpu);
    if (auto space = take_space(mods)) {
        if (*space != Space::Global && *space != Space::Shared)
            fail_here(name + " works on .global, .shared or generic memory");
        inst.space = *space;
    }
    const bool policy = take_cache_hints(mods, HintKind::Atomic);
    if (mods.has("noftz")) fail_here(name + ".noftz (half-precision atomics) is not supported");
    inst.type = take_type(mods);
    const Type t = inst.type;
    const uint32_t size = type_size(t);
    switch (inst.atom_op) {
    case AtomOp::Add:
        if (!(t == Type::U32 || t == Type::U64 || t == Type::S32 || t == Type::S64 || t == Type::F32 ||
              t == Type::F64)) {
            fail_here(name + ".add needs .u32, .s32, .u64, .s64, .f32 or .f64");
        }
        break;
    case AtomOp::Inc:
    case AtomOp::Dec:
        if (t != Type::U32) fail_here(name + ".inc/.dec need .u32");
        break;
    case AtomOp::Min:
    case AtomOp::Max:
        if (!(is_unsigned(t) || is_signed(t)) || size < 4)
            fail_here(name + ".min/.max need .u32, .s32, .u64 or .s64");
        break;
    case AtomOp::And:
    case AtomOp::Or:
    case AtomOp::Xor:
    case AtomOp::Exch:
        if (!is_int(t) || size < 4)
            fail_here(name + " bitwise and exchange operations need a 32- or 64-bit .b type");
        break;
    case AtomOp::Cas:
        if (!is_int(t) || size < 2) fail_here("atom.cas needs .b16, .b32 or .b64");
        break;
    case AtomOp::None:
        break;
    }
    const size_t extra = policy ? 1 : 0;
    if (red) {
        expect_operands(2 + extra, 2 + extra);
        address(inst, 0, 0);
        src(inst, 1, 1, t);
    } else {
        const size_t n = (inst.atom_op == AtomOp::Cas ? 4 : 3) + extra;
        expect_operands(n, n);
        dest(inst, 0, 0);
        address(inst, 1, 1);
        src(inst, 2, 2, t);
        if (inst.atom_op == AtomOp::Cas) src(inst, 3, 3, t);
    }
    if (policy) check_policy_operand(stmt_->operand_count - 1);
}

// membar.{cta,gl,sys} (= fence.sc) and fence{.sc|.acq_rel}.scope, both as Op::Membar.
void Parser::decode_fence(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Membar;
    const std::string base(mods.base());
    if (mods.has("proxy"))
        fail_here("unsupported instruction '" + std::string(stmt_->opcode) +
                  "' (proxy fences are not supported)");
    if (base == "membar") {
        static constexpr std::pair<std::string_view, MemScope> kLevels[] = {
            {"cta", MemScope::Cta},
            {"gl", MemScope::Gpu},
            {"sys", MemScope::Sys},
        };
        inst.order = MemOrder::Sc;
        if (!mods.take_first(kLevels, inst.scope)) fail_here("membar needs .cta, .gl or .sys");
    } else {
        if (mods.has("mbarrier_init") || mods.has("op_restrict") || mods.has("sync_restrict::shared::cta") ||
            mods.has("sync_restrict::shared::cluster")) {
            fail_here("unsupported instruction '" + std::string(stmt_->opcode) + "'");
        }
        inst.order = MemOrder::AcqRel; // PTX: fence without .sem is fence.acq_rel
        if (mods.take("sc")) {
            inst.order = MemOrder::Sc;
        } else {
            mods.take("acq_rel");
        }
        auto scope = take_scope(mods);
        if (!scope) fail_here("fence needs a scope (.cta, .cluster, .gpu or .sys)");
        inst.scope = *scope;
    }
    expect_operands(0, 0);
}

} // namespace synclab::ptx::detail
