// PTX parser, instruction decoders: barriers, warp operations and control flow (bar barrier
// bar.warp.sync bar.red vote shfl redux match elect activemask bra ret exit trap nanosleep; opcodes.h families
// Bar, Vote, Shfl, Redux, Match, Elect, Control).
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
    if (mods.has("cluster")) fail_here("cluster barriers are not supported");
    if (mods.has("red")) {
        decode_bar_red(inst, mods);
        return;
    }
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

// bar.red.popc.u32 d, a{, b}, {!}c   bar.red.{and,or}.pred p, a{, b}, {!}c (and barrier.red[.aligned]):
// what __syncthreads_count / _and / _or compile to. A block barrier (bar.red is aligned, like
// bar.sync) whose release also hands every thread the reduction of c over the arrived threads.
void Parser::decode_bar_red(Instruction& inst, Modifiers& mods) {
    const bool legacy = mods.base() == "bar";
    mods.take("red");
    inst.mods |= mod::kRed;
    static constexpr std::pair<std::string_view, AtomOp> kOps[] = {
        {"popc", AtomOp::Add},
        {"and", AtomOp::And},
        {"or", AtomOp::Or},
    };
    if (!mods.take_first(kOps, inst.atom_op)) fail_here(std::string(mods.base()) + ".red needs .popc, .and or .or");
    if (legacy || mods.take("aligned")) inst.mods |= mod::kAligned;
    inst.type = take_type(mods);
    if (inst.atom_op == AtomOp::Add && inst.type != Type::U32) fail_here("bar.red.popc needs .u32");
    if (inst.atom_op != AtomOp::Add && inst.type != Type::Pred) fail_here("bar.red.and/.or need .pred");
    expect_operands(3, 4);
    const bool counted = stmt_->operand_count == 4;
    if (inst.atom_op == AtomOp::Add) {
        dest(inst, 2, 0);
    } else {
        pred_dest(inst, 2, stmt_->operands[0]);
    }
    const Range r = stmt_->operands[1];
    src(inst, 0, 1, Type::U32);
    if (inst.ops[0].kind == Operand::Kind::Imm && inst.ops[0].imm > 15)
        fail_here("barrier id must be 0..15, got '" + operand_text(r) + "'");
    if (counted) src(inst, 1, 2, Type::U32);
    pred_src(inst, 3, counted ? 3 : 2, true);
}

// redux.sync.{add,min,max}.{u32,s32} d, a, membermask   redux.sync.{and,or,xor}.b32 d, a, membermask
void Parser::decode_redux(Instruction& inst, Modifiers& mods) {
    require_sync(mods, "redux");
    static constexpr std::pair<std::string_view, AtomOp> kOps[] = {
        {"add", AtomOp::Add}, {"min", AtomOp::Min}, {"max", AtomOp::Max},
        {"and", AtomOp::And}, {"or", AtomOp::Or},   {"xor", AtomOp::Xor},
    };
    if (!mods.take_first(kOps, inst.atom_op))
        fail_here("redux.sync needs .add, .min, .max, .and, .or or .xor");
    inst.type = take_type(mods);
    const bool bitwise = inst.atom_op == AtomOp::And || inst.atom_op == AtomOp::Or || inst.atom_op == AtomOp::Xor;
    if (bitwise && inst.type != Type::B32) fail_here("redux.sync.and/.or/.xor need .b32");
    if (!bitwise && inst.type != Type::U32 && inst.type != Type::S32)
        fail_here("redux.sync.add/.min/.max need .u32 or .s32 (the .f32 forms are not supported)");
    expect_operands(3, 3);
    dest(inst, 0, 0);
    src(inst, 1, 1, inst.type);
    mask_src(inst, 2, 2);
}

// match.any.sync.{b32,b64} d, a, membermask   match.all.sync.{b32,b64} d[|p], a, membermask
void Parser::decode_match(Instruction& inst, Modifiers& mods) {
    static constexpr std::pair<std::string_view, VoteMode> kModes[] = {{"any", VoteMode::Any}, {"all", VoteMode::All}};
    if (!mods.take_first(kModes, inst.vote)) fail_here("match needs .any or .all");
    require_sync(mods, "match");
    inst.type = take_type(mods);
    if (inst.type != Type::B32 && inst.type != Type::B64) fail_here("match.sync needs .b32 or .b64");
    expect_operands(3, 3);
    auto [d, p] = split_bar(stmt_->operands[0]);
    if (p && inst.vote != VoteMode::All) fail_here("only match.all.sync has a predicate destination");
    {
        Parsed parsed = parse_operand(d, Type::B32);
        if (parsed.form != Parsed::Form::Reg || parsed.pred)
            fail_here("destination must be a data register, got '" + operand_text(d) + "'");
        use(inst, 0, parsed);
    }
    if (p) pred_dest(inst, 1, *p);
    src(inst, 2, 1, inst.type);
    mask_src(inst, 3, 2);
}

// elect.sync d|p, membermask (d may be '_'): sm_90's leader election.
void Parser::decode_elect(Instruction& inst, Modifiers& mods) {
    require_sync(mods, "elect");
    expect_operands(2, 2);
    auto [d, p] = split_bar(stmt_->operands[0]);
    if (!p) fail_here("elect.sync needs a destination pair d|p");
    {
        Parsed parsed = parse_operand(d, Type::B32);
        if (parsed.form == Parsed::Form::Reg && !parsed.pred) {
            use(inst, 0, parsed);
        } else if (parsed.form != Parsed::Form::Sink) {
            fail_here("destination must be a data register or '_', got '" + operand_text(d) + "'");
        }
    }
    pred_dest(inst, 1, *p);
    mask_src(inst, 2, 1);
    inst.operand_count = 3;
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
