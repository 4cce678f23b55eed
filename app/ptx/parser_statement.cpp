// PTX parser: one instruction statement, from its first token to its ';': the guard, the opcode, the
// operand split at top-level commas, the dispatch through the opcode table (opcodes.h) to a family
// decoder (decode_*.cpp), and the modifier helpers the decoders share (type, space, scope, cache
// hints, leftovers).
//
// Index
//   [SECTION] Statements: splitting, guard
//   [SECTION] Dispatch and shared modifier helpers
#include "ptx/parser_impl.h"

namespace synclab::ptx::detail {

// =================================================================================================
// [SECTION] Statements: splitting, guard
// =================================================================================================

void Parser::parse_instruction(FunctionState& st) {
    const size_t begin = pos_;
    const uint32_t line = peek().line;
    // The statement runs to the next ';' (operands may span lines, e.g. a call's argument list).
    size_t end = begin;
    while (end < tokens_.size() && !tokens_[end].is_punct(';') && tokens_[end].kind != TokenKind::End)
        ++end;
    Stmt stmt;
    stmt.line = line;
    stmt.text = join_tokens(begin, end);
    stmt_ = &stmt;
    if (end >= tokens_.size() || tokens_[end].kind == TokenKind::End)
        fail(line, "missing ';' at the end of the instruction");

    Instruction inst;
    inst.ptx_line = line;
    inst.source_file = st.loc.file;
    inst.source_line = st.loc.line;
    inst.inlined = pending_chain(st); // resolved at the module's end (resolve_inlining)
    max_source_file_ = std::max(max_source_file_, st.loc.file);

    size_t i = begin;
    if (tokens_[i].is_punct('@')) {
        ++i;
        if (tokens_[i].is_punct('!')) {
            inst.guard_negated = true;
            ++i;
        }
        const Token& guard = tokens_[i];
        if (guard.kind != TokenKind::Word || i >= end) fail(line, "expected a predicate register after '@'");
        const Symbol* symbol = lookup(guard.text);
        if (symbol == nullptr || symbol->kind != Symbol::Kind::Register) {
            fail(line, "guard '" + std::string(guard.text) + "' is not a declared register");
        }
        if (st.fn.registers[symbol->index].type != Type::Pred) {
            fail(line, "guard '" + std::string(guard.text) + "' is not a .pred register");
        }
        inst.guard = symbol->index;
        ++i;
    }
    if (i >= end || tokens_[i].kind != TokenKind::Word) fail(line, "expected an instruction");
    stmt.opcode = tokens_[i].text;
    ++i;

    // Split operands at top-level commas ('[' '{' '(' nest).
    if (i < end) {
        int depth = 0;
        size_t start = i;
        for (size_t k = i; k <= end; ++k) {
            const bool at_end = k == end;
            const Token& token = tokens_[k];
            if (!at_end && (token.is_punct('[') || token.is_punct('{') || token.is_punct('('))) ++depth;
            if (!at_end && (token.is_punct(']') || token.is_punct('}') || token.is_punct(')'))) --depth;
            if (at_end || (depth == 0 && token.is_punct(','))) {
                if (k == start) fail(line, "empty operand");
                if (stmt.operand_count == kMaxOperands) fail(line, "too many operands");
                stmt.operands[stmt.operand_count++] = Range{start, k};
                start = k + 1;
            }
        }
    }

    if (st.fn.code.size() >= kMaxInstructions) {
        fail(line, "function '" + st.fn.name + "' has more than " + std::to_string(kMaxInstructions) +
                       " instructions");
    }
    Modifiers mods(stmt.opcode);
    if (mods.overflow()) fail(line, "too many modifiers on '" + std::string(mods.base()) + "'");
    decode(inst, mods);
    st.fn.code.push_back(inst);
    st.fn.text.push_back(std::move(stmt.text));
    stmt_ = nullptr;
    pos_ = end + 1;
}

// =================================================================================================
// [SECTION] Dispatch and shared modifier helpers
// =================================================================================================

Type Parser::take_type(Modifiers& mods, bool required) {
    for (size_t i = 0; i < mods.count(); ++i) {
        if (mods.used(i)) continue;
        if (auto type = type_from_name(mods.part(i))) {
            mods.use(i);
            return *type;
        }
        if (is_unsupported_type_name(mods.part(i))) fail_part("unsupported type", mods.part(i));
    }
    if (required) fail_here("missing type in '" + std::string(stmt_->opcode) + "'");
    return Type::None;
}

std::optional<Space> Parser::take_space(Modifiers& mods) {
    for (size_t i = 0; i < mods.count(); ++i) {
        if (mods.used(i)) continue;
        if (mods.part(i) == "shared::cluster") {
            fail_here("distributed shared memory (.shared::cluster) is not supported");
        }
        if (auto space = space_from_name(mods.part(i))) {
            mods.use(i);
            return space;
        }
    }
    return std::nullopt;
}

std::optional<MemScope> Parser::take_scope(Modifiers& mods) {
    for (size_t i = 0; i < mods.count(); ++i) {
        if (mods.used(i)) continue;
        if (auto scope = scope_from_name(mods.part(i))) {
            mods.use(i);
            return scope;
        }
    }
    return std::nullopt;
}

// Cache operators and eviction hints change performance only: accepted and ignored. Returns true
// when `.L2::cache_hint` asks for an extra cache-policy operand.
bool Parser::take_cache_hints(Modifiers& mods, HintKind kind) {
    bool policy_operand = false;
    for (size_t i = 0; i < mods.count(); ++i) {
        if (mods.used(i)) continue;
        const std::string_view part = mods.part(i);
        bool cache_op = false;
        if (kind == HintKind::Load) {
            cache_op =
                part == "ca" || part == "cg" || part == "cs" || part == "lu" || part == "cv" || part == "nc";
        } else if (kind == HintKind::Store) {
            cache_op = part == "wb" || part == "cg" || part == "cs" || part == "wt";
        }
        if (cache_op || part.starts_with("L1::") || part.starts_with("L2::")) {
            mods.use(i);
            if (part == "L2::cache_hint") policy_operand = true;
        }
    }
    return policy_operand;
}

// The cache-policy operand that `.L2::cache_hint` adds (operand `index`): checked, then dropped with
// the hint.
void Parser::check_policy_operand(size_t index) {
    Instruction scratch;
    src(scratch, 0, index, Type::B64);
}

void Parser::require_sync(Modifiers& mods, const char* family) const {
    if (mods.take("sync")) return;
    fail_here("unsupported instruction '" + std::string(stmt_->opcode) + "' (" + family +
              " without .sync is not supported on sm_70+; use " + family + ".sync)");
}

void Parser::check_leftovers(const Modifiers& mods) const {
    if (auto part = mods.first_unused()) {
        if (is_unsupported_type_name(*part)) fail_part("unsupported type", *part);
        if (type_from_name(*part)) fail_here("more than one type in '" + std::string(stmt_->opcode) + "'");
        fail_part("unsupported modifier", *part);
    }
}

void Parser::fail_part(const char* what, std::string_view part) const {
    fail_here(std::string(what) + " '." + std::string(part) + "' in '" + std::string(stmt_->opcode) + "'");
}

void Parser::decode(Instruction& inst, Modifiers& mods) {
    const std::string_view base = mods.base();
    const uint32_t line = stmt_->line;
    if (!op_from_name(base, inst.op)) {
        if (base == "call") {
            fail(line, "unsupported instruction 'call' in function '" + fn_->fn.name +
                           "' (device function calls are not supported; inline the function)");
        }
        fail(line, std::string(is_unsupported_opcode(base) ? "unsupported" : "unknown") + " instruction '" +
                       std::string(base) + "'");
    }
    // The opcode table (opcodes.h) names the family; each decoder reads its operands and modifiers
    // (and may refine inst.op, e.g. bar.warp.sync).
    // clang-format off
    switch (info(inst.op).decoder) {
    case Decoder::Mov: decode_mov(inst, mods); break;
    case Decoder::Cvt: decode_cvt(inst, mods); break;
    case Decoder::Cvta: decode_cvta(inst, mods); break;
    case Decoder::Isspacep: decode_isspacep(inst, mods); break;
    case Decoder::LdSt: decode_ld_st(inst, mods, inst.op == Op::Ld); break;
    case Decoder::Selp: decode_selp(inst, mods); break;
    case Decoder::Arith: decode_arith(inst, mods); break;
    case Decoder::Logic: decode_logic(inst, mods); break;
    case Decoder::Bits: decode_bits(inst, mods); break;
    case Decoder::Setp: decode_setp(inst, mods); break;
    case Decoder::AtomRed: decode_atom_red(inst, mods, inst.op == Op::Red); break;
    case Decoder::Fence: decode_fence(inst, mods); break;
    case Decoder::Bar: decode_bar(inst, mods); break;
    case Decoder::Vote: decode_vote(inst, mods); break;
    case Decoder::Shfl: decode_shfl(inst, mods); break;
    case Decoder::Redux: decode_redux(inst, mods); break;
    case Decoder::Match: decode_match(inst, mods); break;
    case Decoder::Elect: decode_elect(inst, mods); break;
    case Decoder::Control: decode_control(inst, mods); break;
    }
    // clang-format on
    check_leftovers(mods);
}

void Parser::check_vector_operand(const Instruction& inst, uint8_t slot) const {
    const Operand& op = inst.ops[slot];
    if (inst.vector == 1 && op.kind == Operand::Kind::Vector) {
        fail_here("vector operand needs .v" + std::to_string(op.vec_count) + " on '" +
                  std::string(stmt_->opcode) + "'");
    }
    if (inst.vector > 1 && (op.kind != Operand::Kind::Vector || op.vec_count != inst.vector)) {
        fail_here("'" + std::string(stmt_->opcode) + "' needs a vector operand of " +
                  std::to_string(inst.vector) + " registers");
    }
}

} // namespace synclab::ptx::detail
