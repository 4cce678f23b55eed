// A flow-insensitive fixpoint: every register starts uniform; an instruction whose result can
// differ between lanes makes its destinations varying, until nothing changes.
#include "sim/uniformity.h"

namespace synclab::sim {

using ptx::Op;
using ptx::Operand;

namespace {

bool has_destination(Op op) {
    switch (op) {
    case Op::St:
    case Op::Red:
    case Op::Bar:
    case Op::WarpSync:
    case Op::Bra:
    case Op::Ret:
    case Op::Exit:
    case Op::Trap:
    case Op::Membar:
    case Op::Nanosleep:
        return false;
    default:
        return true;
    }
}

// How many leading operands an instruction writes (setp with a pair "p|q" and shfl's predicate
// write two).
uint32_t destination_count(const ptx::Instruction& in) {
    if (!has_destination(in.op)) return 0;
    if (in.op == Op::Shfl) return 2;
    if (in.op == Op::Setp && in.operand_count == 4) return 2;
    return 1;
}

// The special registers that hold one value for a whole warp.
bool special_is_uniform(ptx::SpecialReg r) {
    using S = ptx::SpecialReg;
    switch (r) {
    case S::NtidX:
    case S::NtidY:
    case S::NtidZ:
    case S::CtaidX:
    case S::CtaidY:
    case S::CtaidZ:
    case S::NctaidX:
    case S::NctaidY:
    case S::NctaidZ:
    case S::WarpId:
    case S::NWarpId:
    case S::SmId:
    case S::NSmId:
    case S::GridId:
    case S::DynamicSmemSize:
        return true;
    default:
        return false;
    }
}

// Ops whose result is a function of their operands alone (the same operands in every lane give the
// same result in every lane). Loads other than ld.param, atomics and warp collectives are not.
bool is_pure(const ptx::Instruction& in) {
    switch (in.op) {
    case Op::Ld:
        return in.space == ptx::Space::Param || in.space == ptx::Space::Const;
    case Op::Atom:
    case Op::Vote:
    case Op::Shfl:
    case Op::Activemask:
        return false;
    default:
        return has_destination(in.op);
    }
}

class Uniformity {
  public:
    explicit Uniformity(const ptx::Function& fn) : uniform_(fn.registers.size(), 1) {
        std::vector<uint32_t> definitions(fn.registers.size(), 0);
        for (const ptx::Instruction& in : fn.code)
            for_each_destination(in, [&](uint32_t r) { ++definitions[r]; });
        for (size_t r = 0; r < definitions.size(); ++r)
            if (definitions[r] > 1) uniform_[r] = 0;
        for (bool changed = true; changed;) {
            changed = false;
            for (const ptx::Instruction& in : fn.code) {
                if (instruction_is_uniform(in)) continue;
                for_each_destination(in, [&](uint32_t r) {
                    changed = changed || uniform_[r] != 0;
                    uniform_[r] = 0;
                });
            }
        }
    }

    const std::vector<uint8_t>& registers() const { return uniform_; }

    bool operand_is_uniform(const Operand& op) const {
        switch (op.kind) {
        case Operand::Kind::None:
        case Operand::Kind::Imm:
        case Operand::Kind::Symbol:
            return true;
        case Operand::Kind::Reg:
        case Operand::Kind::Address:
            return op.reg == Operand::kNoReg || (op.reg < uniform_.size() && uniform_[op.reg]);
        case Operand::Kind::Special:
            return special_is_uniform(op.special);
        case Operand::Kind::Vector:
            for (uint32_t v = 0; v < op.vec_count && v < 4; ++v)
                if (op.vec[v] != Operand::kNoReg && !(op.vec[v] < uniform_.size() && uniform_[op.vec[v]]))
                    return false;
            return true;
        }
        return false;
    }

  private:
    template <typename F> void for_each_destination(const ptx::Instruction& in, F&& f) const {
        const uint32_t n = destination_count(in);
        for (uint32_t i = 0; i < n && i < 6; ++i) {
            const Operand& op = in.ops[i];
            if (op.kind == Operand::Kind::Reg && op.reg < uniform_.size()) f(op.reg);
            if (op.kind == Operand::Kind::Vector)
                for (uint32_t v = 0; v < op.vec_count && v < 4; ++v)
                    if (op.vec[v] < uniform_.size()) f(op.vec[v]);
        }
    }

    bool instruction_is_uniform(const ptx::Instruction& in) const {
        if (!is_pure(in)) return false;
        if (in.guard != Operand::kNoReg && !(in.guard < uniform_.size() && uniform_[in.guard])) return false;
        const uint32_t first_source = destination_count(in);
        for (uint32_t i = first_source; i < in.operand_count && i < 6; ++i)
            if (!operand_is_uniform(in.ops[i])) return false;
        return true;
    }

    std::vector<uint8_t> uniform_;
};

bool is_integer_add_type(ptx::Type t) {
    return t == ptx::Type::U32 || t == ptx::Type::S32 || t == ptx::Type::U64 || t == ptx::Type::S64;
}

} // namespace

std::vector<uint8_t> warp_uniform_registers(const ptx::Function& fn) { return Uniformity(fn).registers(); }

std::vector<uint8_t> aggregatable_atomics(const ptx::Function& fn) {
    const Uniformity u(fn);
    std::vector<uint8_t> out(fn.code.size(), 0);
    for (size_t pc = 0; pc < fn.code.size(); ++pc) {
        const ptx::Instruction& in = fn.code[pc];
        if (in.op == Op::Atom && in.atom_op == ptx::AtomOp::Add && in.space == ptx::Space::Global &&
            is_integer_add_type(in.type) && u.operand_is_uniform(in.ops[1]))
            out[pc] = u.operand_is_uniform(in.ops[2]) ? kUniformAdd : kUniformAddress;
    }
    return out;
}

} // namespace synclab::sim
