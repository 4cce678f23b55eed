// PTX parser: operands. Name lookup, the operand forms (register, immediate, special register,
// variable, address, vector, sink), and the slot helpers with which a decoder puts operand i of the
// statement into ops[slot] after checking that its form is allowed there.
#include "ptx/parser_impl.h"

namespace synclab::ptx::detail {

const Symbol* Parser::lookup(std::string_view name) const {
    if (fn_ != nullptr) {
        if (const Symbol* symbol = fn_->names.find(name)) return symbol;
    }
    auto it = module_names_.find(name);
    return it == module_names_.end() ? nullptr : &it->second;
}

void Parser::fail_here(const std::string& what) const {
    fail(stmt_ != nullptr ? stmt_->line : 0, what);
}

// A single word: register, special register, variable, parameter, or '_'.
Parsed Parser::parse_name_operand(const Token& token) {
    Parsed p;
    const std::string name(token.text);
    if (token.text == "_") {
        p.form = Parsed::Form::Sink;
        return p;
    }
    if (token.text.starts_with("%")) {
        if (auto special = special_from_name(token.text)) {
            p.form = Parsed::Form::Special;
            p.op.kind = Operand::Kind::Special;
            p.op.special = *special;
            return p;
        }
    }
    // WARP_SZ: the PTX ISA's predefined constant (the warp size, 32; "Predefined identifiers"),
    // what nvcc emits for CUDA's warpSize.
    if (token.text == "WARP_SZ" && lookup(token.text) == nullptr) {
        p.form = Parsed::Form::Imm;
        p.op.kind = Operand::Kind::Imm;
        p.op.imm = 32;
        return p;
    }
    const Symbol* symbol = lookup(token.text);
    if (symbol == nullptr) {
        if (token.text.starts_with("%") && is_unsupported_special(token.text))
            fail(token.line, "unsupported special register '" + name + "'");
        if (token.text.starts_with("%")) fail(token.line, "register '" + name + "' is not declared");
        fail(token.line, "unknown name '" + name + "' (not a register, variable or parameter)");
    }
    switch (symbol->kind) {
    case Symbol::Kind::Register:
        p.form = Parsed::Form::Reg;
        p.op.kind = Operand::Kind::Reg;
        p.op.reg = symbol->index;
        p.pred = fn_->fn.registers[symbol->index].type == Type::Pred;
        return p;
    case Symbol::Kind::Global:
        p.form = Parsed::Form::GlobalSym;
        p.op.kind = Operand::Kind::Symbol;
        p.op.symbol = symbol->index;
        p.sym_space = module_.globals[symbol->index].space;
        return p;
    case Symbol::Kind::Shared:
        p.form = Parsed::Form::SpaceSym;
        p.op.kind = Operand::Kind::Imm;
        p.sym_space = Space::Shared;
        p.shared = SharedRef{0, 0, symbol->module_scope, symbol->index};
        return p;
    case Symbol::Kind::Local:
    case Symbol::Kind::Param:
        p.form = Parsed::Form::SpaceSym;
        p.op.kind = Operand::Kind::Imm;
        p.op.imm = symbol->offset;
        p.sym_space = symbol->kind == Symbol::Kind::Local ? Space::Local : Space::Param;
        return p;
    case Symbol::Kind::Function:
        fail(token.line, "'" + name + "' is a function; function addresses and calls are not supported");
    }
    fail(token.line, "unusable operand '" + name + "'");
}

// Any operand form; `imm_type` decides how a literal is encoded.
Parsed Parser::parse_operand(Range r, Type imm_type) {
    const Token& first = tokens_[r.begin];
    if (first.is_punct('[')) return parse_address(r);
    if (first.is_punct('{')) return parse_vector(r);
    if (first.is_punct('!')) {
        if (r.size() != 2 || tokens_[r.begin + 1].kind != TokenKind::Word)
            fail(first.line, "malformed operand '" + operand_text(r) + "'");
        Parsed p = parse_name_operand(tokens_[r.begin + 1]);
        if (p.form != Parsed::Form::Reg || !p.pred)
            fail(first.line, "'!' applies only to predicate registers: '" + operand_text(r) + "'");
        p.op.negate = true;
        return p;
    }
    if (first.kind == TokenKind::Word) {
        if (r.size() != 1) fail(first.line, "malformed operand '" + operand_text(r) + "'");
        return parse_name_operand(first);
    }
    const bool negative = first.is_punct('-');
    const size_t number_index = r.begin + (negative ? 1 : 0);
    if (number_index < r.end && tokens_[number_index].kind == TokenKind::Number &&
        number_index + 1 == r.end) {
        const Token& number = tokens_[number_index];
        auto lit = parse_literal(number.text, negative);
        if (!lit) fail(number.line, "malformed number '" + operand_text(r) + "'");
        std::string error;
        auto bits = encode_literal(*lit, imm_type, &error);
        if (!bits) fail(number.line, error + ": '" + operand_text(r) + "'");
        Parsed p;
        p.form = Parsed::Form::Imm;
        p.op.kind = Operand::Kind::Imm;
        p.op.imm = *bits;
        return p;
    }
    fail(first.line, "malformed operand '" + operand_text(r) + "'");
}

// [reg], [reg+imm], [reg+-imm], [reg-imm], [var], [var+imm], [imm]
Parsed Parser::parse_address(Range r) {
    const uint32_t line = tokens_[r.begin].line;
    const std::string text = operand_text(r);
    if (!tokens_[r.end - 1].is_punct(']') || r.size() < 3) fail(line, "malformed address '" + text + "'");
    size_t i = r.begin + 1;
    const size_t close = r.end - 1;
    Parsed p;
    p.form = Parsed::Form::Address;
    p.op.kind = Operand::Kind::Address;
    uint64_t base_offset = 0;
    const Token& base = tokens_[i];
    if (base.kind == TokenKind::Word) {
        Parsed b = parse_name_operand(base);
        switch (b.form) {
        case Parsed::Form::Reg:
            if (b.pred) fail(line, "predicate register used as an address: '" + text + "'");
            p.op.reg = b.op.reg;
            break;
        case Parsed::Form::GlobalSym:
            p.op.symbol = b.op.symbol;
            p.sym_space = b.sym_space;
            break;
        case Parsed::Form::SpaceSym:
            base_offset = b.op.imm;
            p.sym_space = b.sym_space;
            p.shared = b.shared;
            break;
        default:
            fail(line, "'" + std::string(base.text) + "' cannot be used as an address base");
        }
        ++i;
    } else if (base.kind != TokenKind::Number && !base.is_punct('-')) {
        fail(line, "malformed address '" + text + "'");
    }
    // Optional offset: after a base, '+' or '-' then [-]number; without a base, just [-]number.
    bool negative = false;
    bool has_offset = false;
    if (i < close) {
        if (i != r.begin + 1) {
            if (tokens_[i].is_punct('+')) {
                ++i;
            } else if (tokens_[i].is_punct('-')) {
                negative = true;
                ++i;
            } else {
                fail(line, "malformed address '" + text + "'");
            }
        }
        if (i < close && tokens_[i].is_punct('-')) {
            negative = !negative;
            ++i;
        }
        if (i + 1 != close || tokens_[i].kind != TokenKind::Number)
            fail(line, "malformed address '" + text + "'");
        auto magnitude = parse_int_magnitude(tokens_[i].text);
        if (!magnitude) fail(line, "malformed address offset in '" + text + "'");
        has_offset = true;
        p.op.imm = base_offset + (negative ? (~*magnitude + 1) : *magnitude);
    }
    if (!has_offset) p.op.imm = base_offset;
    if (i == r.begin + 1 && !has_offset) fail(line, "malformed address '" + text + "'");
    return p;
}

// {%a, %b[, %c, %d]} of non-predicate registers; '_' is a sink (kNoReg).
Parsed Parser::parse_vector(Range r) {
    const uint32_t line = tokens_[r.begin].line;
    const std::string text = operand_text(r);
    if (!tokens_[r.end - 1].is_punct('}')) fail(line, "malformed vector operand '" + text + "'");
    Parsed p;
    p.form = Parsed::Form::Vector;
    p.op.kind = Operand::Kind::Vector;
    size_t i = r.begin + 1;
    const size_t close = r.end - 1;
    while (true) {
        if (i >= close || tokens_[i].kind != TokenKind::Word)
            fail(line, "malformed vector operand '" + text + "'");
        if (p.op.vec_count == 4) fail(line, "vector operand has more than 4 elements: '" + text + "'");
        Parsed element = parse_name_operand(tokens_[i]);
        if (element.form == Parsed::Form::Sink) {
            p.op.vec[p.op.vec_count++] = Operand::kNoReg;
        } else if (element.form == Parsed::Form::Reg && !element.pred) {
            p.op.vec[p.op.vec_count++] = element.op.reg;
        } else {
            fail(line, "vector elements must be non-predicate registers or '_': '" + text + "'");
        }
        ++i;
        if (i == close) break;
        if (!tokens_[i].is_punct(',')) fail(line, "malformed vector operand '" + text + "'");
        ++i;
    }
    if (p.op.vec_count != 2 && p.op.vec_count != 4)
        fail(line, "vector operand must have 2 or 4 elements: '" + text + "'");
    return p;
}

// Stores the operand in ops[slot] and records a pending shared-window fixup.
Operand Parser::use(Instruction& inst, uint8_t slot, Parsed p) {
    inst.ops[slot] = p.op;
    inst.operand_count = std::max<uint8_t>(inst.operand_count, static_cast<uint8_t>(slot + 1));
    if (p.shared) {
        SharedRef ref = *p.shared;
        ref.instr = static_cast<uint32_t>(fn_->fn.code.size());
        ref.slot = slot;
        fn_->shared_refs.push_back(ref);
    }
    return p.op;
}

void Parser::expect_operands(size_t min, size_t max) const {
    const size_t n = stmt_->operand_count;
    if (n >= min && n <= max) return;
    std::string expected = std::to_string(min);
    if (max != min) expected += max == min + 1 ? " or " + std::to_string(max) : " to " + std::to_string(max);
    fail_here("'" + std::string(stmt_->opcode) + "' expects " + expected + " operand" +
              (max == 1 ? "" : "s") + ", got " + std::to_string(n));
}

// "%r1|%p1" -> (%r1, %p1); "%r1" -> (%r1, none)
std::pair<Range, std::optional<Range>> Parser::split_bar(Range r) const {
    for (size_t i = r.begin; i < r.end; ++i) {
        if (tokens_[i].is_punct('|')) {
            if (i == r.begin || i + 1 == r.end) fail_here("malformed operand '" + operand_text(r) + "'");
            return {Range{r.begin, i}, Range{i + 1, r.end}};
        }
    }
    return {r, std::nullopt};
}

void Parser::dest(Instruction& inst, uint8_t slot, size_t index, bool allow_vector) {
    const Range r = stmt_->operands[index];
    Parsed p = parse_operand(r, inst.type);
    if (p.form == Parsed::Form::Vector && allow_vector) {
        use(inst, slot, p);
        return;
    }
    if (p.form != Parsed::Form::Reg) {
        fail_here(std::string("destination must be a register") + (allow_vector ? " or a vector" : "") +
                  ", got '" + operand_text(r) + "'");
    }
    if (p.pred)
        fail_here("destination '" + operand_text(r) + "' is a predicate register; expected a data register");
    use(inst, slot, p);
}

void Parser::pred_dest(Instruction& inst, uint8_t slot, Range r) {
    Parsed p = parse_operand(r, Type::Pred);
    if (p.form == Parsed::Form::Sink) {
        inst.operand_count = std::max<uint8_t>(inst.operand_count, static_cast<uint8_t>(slot + 1));
        return; // '_': no predicate written (ops[slot] stays None)
    }
    if (p.form != Parsed::Form::Reg || !p.pred || p.op.negate) {
        fail_here("expected a predicate register as destination, got '" + operand_text(r) + "'");
    }
    use(inst, slot, p);
}

// Register (non-predicate) or immediate; `allow_vector` for st values.
void Parser::src(Instruction& inst, uint8_t slot, size_t index, Type imm_type, bool allow_vector) {
    const Range r = stmt_->operands[index];
    Parsed p = parse_operand(r, imm_type);
    switch (p.form) {
    case Parsed::Form::Reg:
        if (p.pred) fail_here("predicate register '" + operand_text(r) + "' used as a data operand");
        break;
    case Parsed::Form::Imm:
        break;
    case Parsed::Form::Vector:
        if (!allow_vector) fail_here("unexpected vector operand '" + operand_text(r) + "'");
        break;
    case Parsed::Form::Special:
        fail_here("special register '" + operand_text(r) + "' can only be read with mov");
    case Parsed::Form::GlobalSym:
    case Parsed::Form::SpaceSym:
        fail_here("variable '" + operand_text(r) + "' can only be used in mov, cvta or an address");
    case Parsed::Form::Address:
        fail_here("unexpected address operand '" + operand_text(r) + "'");
    case Parsed::Form::Sink:
        fail_here("'_' is not allowed here");
    }
    use(inst, slot, p);
}

void Parser::pred_src(Instruction& inst, uint8_t slot, size_t index, bool allow_negate) {
    const Range r = stmt_->operands[index];
    Parsed p = parse_operand(r, Type::Pred);
    if (p.form != Parsed::Form::Reg || !p.pred)
        fail_here("expected a predicate register, got '" + operand_text(r) + "'");
    if (p.op.negate && !allow_negate)
        fail_here("'!' negation is not allowed here: '" + operand_text(r) + "'");
    use(inst, slot, p);
}

void Parser::address(Instruction& inst, uint8_t slot, size_t index) {
    const Range r = stmt_->operands[index];
    if (!tokens_[r.begin].is_punct('['))
        fail_here("expected an address '[...]', got '" + operand_text(r) + "'");
    Parsed p = parse_address(r);
    const Space sym_space = p.sym_space;
    use(inst, slot, p);
    check_address_space(inst, sym_space, tokens_[r.begin + 1].text);
}

// A variable named in an address (`sym_space`: its space; Generic when the base is a register or a
// number) must live in the instruction's state space; generic accesses may name .global/.const
// variables, whose addresses are also generic addresses.
void Parser::check_address_space(const Instruction& inst, Space sym_space, std::string_view name) const {
    if (sym_space == Space::Generic) return;
    const bool ok = inst.space == sym_space || (inst.space == Space::Generic &&
                                                (sym_space == Space::Global || sym_space == Space::Const));
    if (!ok) {
        fail_here("'" + std::string(name) + "' is a ." + to_string(sym_space) + " variable but '" +
                  std::string(stmt_->opcode) + "' accesses " +
                  (inst.space == Space::Generic ? std::string("generic memory (convert it with cvta first)")
                                                : "." + std::string(to_string(inst.space))));
    }
}

} // namespace synclab::ptx::detail
