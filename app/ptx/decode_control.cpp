// PTX parser, instruction decoders: barriers, warp operations and control flow (bar barrier
// bar.warp.sync vote shfl activemask bra ret exit trap nanosleep; opcodes.h families Bar, Vote, Shfl,
// Control).
#include "ptx/parser_impl.h"

namespace synclab::ptx::detail {

// bar.sync / bar.arrive (aligned), barrier.sync[.aligned] / barrier.arrive[.aligned]: a{, b}
// bar.warp.sync membermask -> Op::WarpSync
void Parser::decode_bar(Instruction& inst, Modifiers& mods) {
    const bool legacy = mods.base() == "bar"; // bar.* is barrier.*.aligned
    if (legacy && mods.take("warp")) {
        if (!mods.take("sync")) fail_here("expected bar.warp.sync");
        inst.op = Op::WarpSync;
        expect_operands(1, 1);
        mask_src(inst, 0, 0);
        return;
    }
    inst.op = Op::Bar;
    if (mods.has("red"))
        fail_here("unsupported instruction '" + std::string(stmt_->opcode) +
                  "' (barrier reductions such as __syncthreads_count/_and/_or are not supported)");
    if (mods.has("cluster")) fail_here("cluster barriers are not supported");
    mods.take("cta");
    if (mods.take("arrive")) {
        inst.mods |= mod::kArrive;
    } else if (!mods.take("sync")) {
        fail_here(std::string(mods.base()) + " needs .sync or .arrive");
    }
    if (legacy || mods.take("aligned")) inst.mods |= mod::kAligned;
    const bool arrive = (inst.mods & mod::kArrive) != 0;
    expect_operands(arrive ? 2 : 1, 2);
    const Range r = stmt_->operands[0];
    src(inst, 0, 0, Type::U32);
    if (inst.ops[0].kind == Operand::Kind::Imm && inst.ops[0].imm > 15) {
        fail_here("barrier id must be 0..15, got '" + operand_text(r) + "'");
    }
    if (stmt_->operand_count == 2) src(inst, 1, 1, Type::U32);
}

// vote.sync.{all,any,uni}.pred d, {!}a, membermask   vote.sync.ballot.b32 d, {!}a, membermask
void Parser::decode_vote(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Vote;
    require_sync(mods, "vote");
    static constexpr std::pair<std::string_view, VoteMode> kModes[] = {
        {"all", VoteMode::All},
        {"any", VoteMode::Any},
        {"uni", VoteMode::Uni},
        {"ballot", VoteMode::Ballot},
    };
    if (!mods.take_first(kModes, inst.vote)) fail_here("vote.sync needs .all, .any, .uni or .ballot");
    inst.type = take_type(mods);
    if (inst.vote == VoteMode::Ballot && inst.type != Type::B32) fail_here("vote.sync.ballot needs .b32");
    if (inst.vote != VoteMode::Ballot && inst.type != Type::Pred)
        fail_here("vote.sync.all/.any/.uni need .pred");
    expect_operands(3, 3);
    if (inst.vote == VoteMode::Ballot) {
        dest(inst, 0, 0);
    } else {
        pred_dest(inst, 0, stmt_->operands[0]);
    }
    pred_src(inst, 1, 1, true);
    mask_src(inst, 2, 2);
}

// shfl.sync.{up,down,bfly,idx}.b32 d[|p], a, b, c, membermask
void Parser::decode_shfl(Instruction& inst, Modifiers& mods) {
    inst.op = Op::Shfl;
    require_sync(mods, "shfl");
    static constexpr std::pair<std::string_view, ShflMode> kModes[] = {
        {"up", ShflMode::Up},
        {"down", ShflMode::Down},
        {"bfly", ShflMode::Bfly},
        {"idx", ShflMode::Idx},
    };
    if (!mods.take_first(kModes, inst.shfl)) fail_here("shfl.sync needs .up, .down, .bfly or .idx");
    inst.type = take_type(mods);
    if (inst.type != Type::B32) fail_here("shfl.sync needs .b32");
    expect_operands(5, 5);
    auto [d, p] = split_bar(stmt_->operands[0]);
    {
        Parsed parsed = parse_operand(d, Type::B32);
        if (parsed.form != Parsed::Form::Reg || parsed.pred)
            fail_here("destination must be a data register, got '" + operand_text(d) + "'");
        use(inst, 0, parsed);
    }
    if (p) pred_dest(inst, 1, *p);
    src(inst, 2, 1, Type::B32);
    src(inst, 3, 2, Type::B32);
    src(inst, 4, 3, Type::B32);
    mask_src(inst, 5, 4);
}

// activemask.b32 d; bra{.uni} label; ret; exit; trap; nanosleep.u32 t
void Parser::decode_control(Instruction& inst, Modifiers& mods) {
    const std::string_view base = mods.base();
    if (base == "activemask") {
        inst.op = Op::Activemask;
        inst.type = take_type(mods);
        if (inst.type != Type::B32) fail_here("activemask needs .b32");
        expect_operands(1, 1);
        dest(inst, 0, 0);
    } else if (base == "bra") {
        inst.op = Op::Bra;
        if (mods.take("uni")) inst.mods |= mod::kUni;
        expect_operands(1, 1);
        const Range r = stmt_->operands[0];
        const Token& label = tokens_[r.begin];
        if (r.size() != 1 || label.kind != TokenKind::Word || label.text.starts_with("%")) {
            fail_here("bra needs a label, got '" + operand_text(r) +
                      "' (indirect branches are not supported)");
        }
        fn_->label_refs.push_back(
            LabelRef{static_cast<uint32_t>(fn_->fn.code.size()), label.text, stmt_->line});
    } else if (base == "ret" || base == "exit" || base == "trap") {
        if (inst.op != Op::Trap && mods.take("uni")) inst.mods |= mod::kUni;
        expect_operands(0, 0);
    } else {
        inst.op = Op::Nanosleep;
        inst.type = take_type(mods);
        if (inst.type != Type::U32) fail_here("nanosleep needs .u32");
        expect_operands(1, 1);
        src(inst, 0, 0, Type::U32);
    }
}

} // namespace synclab::ptx::detail
