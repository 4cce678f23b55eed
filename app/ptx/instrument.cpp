#include "ptx/instrument.h"

#include "ptx/event_encoding.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <sstream>
#include <unordered_map>

namespace synclab::ptx {

InstrumentError::InstrumentError(std::string source_name, uint32_t line, const std::string& what)
    : std::runtime_error(source_name + ":" + std::to_string(line) +
                         ": cannot instrument for tracing: " + what),
      line_(line) {}

uint64_t trace_warp_count(const trace::Dim3& grid, const trace::Dim3& block) {
    return grid.count() * ((block.count() + 31) / 32);
}

namespace {

// Registers of the recording code. The %sl_ prefix is not one nvcc uses (%r %rd %f %fd %p %rs %h ...).
// Kept for the whole kernel:
constexpr const char* kEvents = "%sl_d0";   // event buffer (global address)
constexpr const char* kCursor = "%sl_d1";   // cursor (global address)
constexpr const char* kCapacity = "%sl_d2"; // slots
constexpr const char* kThread = "%sl_r0";   // global linear thread id
constexpr const char* kPhase = "%sl_r1";    // barriers passed by this thread
constexpr const char* kLaneLt = "%sl_r2";   // %lanemask_lt
constexpr const char* kDrops = "%sl_d10";   // this warp's entry of the drop table (global address)
constexpr const char* kOn = "%sl_p4";       // this block records (block table)
// Set before the instruction, used by the recording after it:
constexpr const char* kAddr = "%sl_d3";     // event address
constexpr const char* kValue = "%sl_r3";    // event value
constexpr const char* kWord = "%sl_r4";     // site | kind << 16 | flags << 24 when computed at run time
constexpr const char* kRecord = "%sl_p3";   // generic access: record it (shared or global)
constexpr const char* kIsShared = "%sl_p2"; // generic access: it is shared
constexpr const char* kNever = "%sl_p1";    // false, but not known to be false by ptxas
constexpr const char* kNeverLabel = "$__sl_never"; // a trap at the end of the kernel, never reached

uint32_t event_word(uint32_t site, trace::EventKind kind, uint8_t flags) {
    return site | (uint32_t(static_cast<uint8_t>(kind)) << 16) | (uint32_t(flags) << 24);
}

uint32_t type_bits(Type type) {
    return type == Type::Pred ? 1 : type_size(type) * 8;
}

std::string trim(std::string_view s) {
    size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return std::string(s.substr(b, e - b));
}

bool parse_integer(std::string_view text, int64_t& out) {
    std::string t = trim(text);
    bool negative = false;
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
        negative = t[0] == '-';
        t = trim(t.substr(1));
    }
    if (t.empty()) return false;
    int base = 10;
    std::string_view digits = t;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        base = 16;
        digits = std::string_view(t).substr(2);
        if (!digits.empty() && (digits.back() == 'U' || digits.back() == 'u')) digits.remove_suffix(1);
    }
    uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
    if (ec != std::errc() || ptr != digits.data() + digits.size()) return false;
    out = negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
    return true;
}

// An address operand as written: [base], [base+off], [base+-off], [base-off], [imm].
struct AddressText {
    enum class Base : uint8_t { Register, Symbol, Immediate } base = Base::Register;
    std::string name; // register or symbol
    int64_t offset = 0;
};

class Rewriter {
  public:
    Rewriter(std::string_view text, const Module& module, const Function& fn,
             const InstrumentOptions& options, std::string source_name)
        : text_(text), module_(module), fn_(fn), options_(options), source_(std::move(source_name)) {
        line_starts_.push_back(0);
        for (size_t i = 0; i < text_.size(); ++i)
            if (text_[i] == '\n') line_starts_.push_back(i + 1);
        for (uint32_t slot = 0; slot < fn_.registers.size(); ++slot)
            registers_[fn_.registers[slot].name] = slot;
    }

    InstrumentedKernel run() {
        if (fn_.code.size() > 0xffff)
            fail(fn_.decl_line, "the kernel has " + std::to_string(fn_.code.size()) +
                                    " instructions; trace sites address at most 65535");
        InstrumentedKernel out;
        out.kernel = fn_.name;
        out.own_params = static_cast<uint32_t>(fn_.params.size());
        rewrite_header();
        std::map<uint32_t, uint32_t> per_line;
        for (const Instruction& in : fn_.code)
            ++per_line[in.ptx_line];
        for (uint32_t i = 0; i < fn_.code.size(); ++i) {
            const Instruction& in = fn_.code[i];
            if (!records(in)) continue;
            if (per_line[in.ptx_line] > 1)
                fail(in.ptx_line,
                     "several instructions on one line ('" + fn_.text[i] + "'); put each on its own line");
            instrument(i, out.points);
        }
        if (needs_never_label_) add_never_block();
        std::stable_sort(edits_.begin(), edits_.end(),
                         [](const Edit& a, const Edit& b) { return a.offset < b.offset; });
        std::string result;
        result.reserve(text_.size() * 3);
        size_t pos = 0;
        for (const Edit& e : edits_) {
            result.append(text_.substr(pos, e.offset - pos));
            result.append(e.text);
            pos = e.offset;
        }
        result.append(text_.substr(pos));
        out.ptx = std::move(result);
        return out;
    }

  private:
    struct Edit {
        size_t offset;
        std::string text;
    };

    [[noreturn]] void fail(uint32_t line, const std::string& what) const {
        throw InstrumentError(source_, line, what);
    }

    size_t line_start(uint32_t line) const {
        if (line == 0 || line > line_starts_.size()) fail(line, "the PTX line map does not match the text");
        return line_starts_[line - 1];
    }

    // Offset just past the end of the line holding the ';' that ends the instruction starting on `line`.
    size_t after_instruction(uint32_t line) const {
        size_t semi = text_.find(';', line_start(line));
        if (semi == std::string_view::npos) fail(line, "no ';' after the instruction");
        size_t nl = text_.find('\n', semi);
        return nl == std::string_view::npos ? text_.size() : nl + 1;
    }

    // The instructions that produce an event (opcodes.h), where their space is one the trace shows.
    static bool records(const Instruction& in) {
        trace::Collective collective{};
        if (collective_of(in, collective)) return true;
        if (!emits_event(in.op)) return false;
        if (in.op == Op::Ld || in.op == Op::St)
            return in.space == Space::Global || in.space == Space::Shared || in.space == Space::Const ||
                   in.space == Space::Generic;
        if (is_atomic(in.op)) return in.space != Space::Local && in.space != Space::Param;
        return true;
    }

    // The warp collectives the trace records (trace::EventKind::WarpCollective), by PTX name, so
    // that every collective row of opcodes.h is covered; activemask is not one (no members meet).
    static bool collective_of(const Instruction& in, trace::Collective& out) {
        if (!is_warp_collective(in.op)) return false;
        static constexpr std::pair<std::string_view, trace::Collective> kNames[] = {
            {"bar.warp.sync", trace::Collective::WarpSync}, {"shfl", trace::Collective::Shfl},
            {"vote", trace::Collective::Vote},              {"match", trace::Collective::Match},
            {"redux", trace::Collective::Redux},            {"elect", trace::Collective::Elect},
        };
        const std::string_view name = to_string(in.op);
        for (const auto& [n, c] : kNames)
            if (name == n) {
                out = c;
                return true;
            }
        return false;
    }

    // --- header: parameters and prologue ----------------------------------------------------------

    void rewrite_header() {
        const size_t decl = line_start(fn_.decl_line);
        const size_t open = text_.find('(', decl);
        if (open == std::string_view::npos) fail(fn_.decl_line, "no parameter list after .entry");
        const size_t close = text_.find(')', open);
        if (close == std::string_view::npos) fail(fn_.decl_line, "unterminated parameter list");
        const bool has_params = trim(text_.substr(open + 1, close - open - 1)).size() > 0;
        std::string params = has_params ? ",\n" : "\n";
        const char* names[] = {kTraceParamEvents, kTraceParamCursor, kTraceParamCapacity, kTraceParamWarps,
                               kTraceParamBlocks, kTraceParamDrops,  kTraceParamShared};
        static_assert(sizeof(names) / sizeof(names[0]) == kTraceParamCount);
        for (size_t i = 0; i < kTraceParamCount; ++i)
            params += std::string("\t.param .u64 ") + names[i] + (i + 1 < kTraceParamCount ? ",\n" : "\n");
        edits_.push_back({close, params});

        const size_t brace = text_.find('{', close);
        if (brace == std::string_view::npos) fail(fn_.decl_line, "no '{' after the parameter list");
        std::vector<std::string> p;
        p.push_back("// SyncLab trace recording (prologue)");
        p.push_back(".reg .b64 %sl_d<11>");
        p.push_back(".reg .b32 %sl_r<22>");
        p.push_back(".reg .b16 %sl_h<2>");
        p.push_back(".reg .pred %sl_p<6>");
        p.push_back(std::string("ld.param.u64 %sl_d4, [") + kTraceParamEvents + "]");
        p.push_back(std::string("cvta.to.global.u64 ") + kEvents + ", %sl_d4");
        p.push_back(std::string("ld.param.u64 %sl_d4, [") + kTraceParamCursor + "]");
        p.push_back(std::string("cvta.to.global.u64 ") + kCursor + ", %sl_d4");
        p.push_back(std::string("ld.param.u64 ") + kCapacity + ", [" + kTraceParamCapacity + "]");
        // thread_in_block = (tid.z * ntid.y + tid.y) * ntid.x + tid.x; block likewise; the simulator's
        // global thread index is block * threads_per_block + thread_in_block.
        p.push_back("mov.u32 %sl_r5, %tid.x");
        p.push_back("mov.u32 %sl_r6, %tid.y");
        p.push_back("mov.u32 %sl_r7, %tid.z");
        p.push_back("mov.u32 %sl_r8, %ntid.x");
        p.push_back("mov.u32 %sl_r9, %ntid.y");
        p.push_back("mov.u32 %sl_r10, %ntid.z");
        p.push_back("mad.lo.u32 %sl_r11, %sl_r7, %sl_r9, %sl_r6");
        p.push_back("mad.lo.u32 %sl_r11, %sl_r11, %sl_r8, %sl_r5");
        p.push_back("mul.lo.u32 %sl_r12, %sl_r8, %sl_r9");
        p.push_back("mul.lo.u32 %sl_r12, %sl_r12, %sl_r10");
        p.push_back("mov.u32 %sl_r5, %ctaid.x");
        p.push_back("mov.u32 %sl_r6, %ctaid.y");
        p.push_back("mov.u32 %sl_r7, %ctaid.z");
        p.push_back("mov.u32 %sl_r8, %nctaid.x");
        p.push_back("mov.u32 %sl_r9, %nctaid.y");
        p.push_back("mad.lo.u32 %sl_r13, %sl_r7, %sl_r9, %sl_r6");
        p.push_back("mad.lo.u32 %sl_r13, %sl_r13, %sl_r8, %sl_r5");
        p.push_back(std::string("mad.lo.u32 ") + kThread + ", %sl_r13, %sl_r12, %sl_r11");
        // Warp table: lane 0 of each warp writes smid + 1 at warps[block * warps_per_block + warp].
        // (%sl_r15 warps per block, %sl_r16 warp in block, %sl_r5 warp in the launch)
        p.push_back("add.u32 %sl_r15, %sl_r12, 31");
        p.push_back("shr.u32 %sl_r15, %sl_r15, 5");
        p.push_back("shr.u32 %sl_r16, %sl_r11, 5");
        p.push_back("mad.lo.u32 %sl_r5, %sl_r13, %sl_r15, %sl_r16");
        p.push_back(std::string("ld.param.u64 %sl_d4, [") + kTraceParamWarps + "]");
        p.push_back("cvta.to.global.u64 %sl_d4, %sl_d4");
        p.push_back("mul.wide.u32 %sl_d5, %sl_r5, 4");
        p.push_back("add.s64 %sl_d4, %sl_d4, %sl_d5");
        p.push_back("mov.u32 %sl_r7, %smid");
        p.push_back("add.u32 %sl_r7, %sl_r7, 1");
        p.push_back("and.b32 %sl_r6, %sl_r11, 31");
        p.push_back("setp.eq.u32 %sl_p0, %sl_r6, 0");
        p.push_back("@%sl_p0 st.global.u32 [%sl_d4], %sl_r7");
        // The warp's entry of the drop table.
        p.push_back(std::string("ld.param.u64 %sl_d4, [") + kTraceParamDrops + "]");
        p.push_back("cvta.to.global.u64 %sl_d4, %sl_d4");
        p.push_back("mul.wide.u32 %sl_d5, %sl_r5, 8");
        p.push_back(std::string("add.s64 ") + kDrops + ", %sl_d4, %sl_d5");
        // The block's rank among the recording blocks (%sl_r17), read once; no table: its index.
        p.push_back(std::string("ld.param.u64 %sl_d4, [") + kTraceParamBlocks + "]");
        p.push_back("mov.u32 %sl_r17, %sl_r13");
        p.push_back("setp.ne.u64 %sl_p0, %sl_d4, 0");
        p.push_back("@%sl_p0 cvta.to.global.u64 %sl_d4, %sl_d4");
        p.push_back("@%sl_p0 mul.wide.u32 %sl_d5, %sl_r13, 4");
        p.push_back("@%sl_p0 add.s64 %sl_d4, %sl_d4, %sl_d5");
        p.push_back("@%sl_p0 ld.global.u32 %sl_r17, [%sl_d4]");
        p.push_back(std::string("setp.ne.u32 ") + kOn + ", %sl_r17, " +
                    std::to_string(trace::kBlockNotRecorded));
        // kNever: capacity == 2^64-1, which no buffer has (the runner's capacity fits in memory).
        p.push_back(std::string("setp.eq.u64 ") + kNever + ", " + kCapacity + ", -1");
        // The warp's stripe (trace::warp_stripe: by the block's rank): its cursor and its region of
        // the buffer. After kNever's setp, which must compare the parameter itself.
        if (options_.stripes > 1) {
            p.push_back("mad.lo.u32 %sl_r14, %sl_r17, %sl_r15, %sl_r16");
            p.push_back("and.b32 %sl_r14, %sl_r14, " + std::to_string(options_.stripes - 1));
            p.push_back("mul.wide.u32 %sl_d5, %sl_r14, " + std::to_string(trace::kCursorStride));
            p.push_back(std::string("add.s64 ") + kCursor + ", " + kCursor + ", %sl_d5");
            p.push_back("cvt.u64.u32 %sl_d5, %sl_r14");
            p.push_back(std::string("mul.lo.u64 %sl_d5, %sl_d5, ") + kCapacity);
            p.push_back("shl.b64 %sl_d5, %sl_d5, 5");
            p.push_back(std::string("add.s64 ") + kEvents + ", " + kEvents + ", %sl_d5");
        }
        p.push_back(std::string("mov.u32 ") + kPhase + ", 0");
        p.push_back(std::string("mov.u32 ") + kLaneLt + ", %lanemask_lt");
        std::string prologue = "\n";
        for (const std::string& s : p)
            prologue += s.starts_with("//") ? "\t" + s + "\n" : "\t" + s + ";\n";
        prologue += "\t// SyncLab trace recording (end of prologue)\n";
        edits_.push_back({brace + 1, prologue});
        write_shared_table(brace);
    }

    // The shared symbols' hardware addresses, written by the launch's thread 0 where the runner gave
    // a table (the same in every block: any block's would do). After the kernel's own `.shared`
    // declarations (nvcc declares a kernel's `__shared__` variables inside its body, and ptxas wants
    // a symbol declared before an instruction names it) and before its first instruction.
    void write_shared_table(size_t brace) {
        if (fn_.shared_symbols.empty() || fn_.code.empty()) return;
        size_t at = brace + 1;
        const size_t first = line_start(fn_.code.front().ptx_line);
        for (size_t line = at; line < first;) {
            size_t end = text_.find('\n', line);
            end = end == std::string_view::npos ? text_.size() : end + 1;
            const std::string t = trim(text_.substr(line, end - line));
            if (t.starts_with(".shared") || t.starts_with(".extern")) at = end;
            line = end;
        }
        std::vector<std::string> c;
        c.push_back(std::string("ld.param.u64 %sl_d4, [") + kTraceParamShared + "]");
        c.push_back("setp.ne.u64 %sl_p0, %sl_d4, 0");
        c.push_back(std::string("setp.eq.and.u32 %sl_p0, ") + kThread + ", 0, %sl_p0");
        c.push_back("@%sl_p0 cvta.to.global.u64 %sl_d4, %sl_d4");
        for (size_t i = 0; i < fn_.shared_symbols.size(); ++i) {
            c.push_back("@%sl_p0 mov.u32 %sl_r18, " + fn_.shared_symbols[i].name);
            c.push_back("@%sl_p0 st.global.u32 [%sl_d4+" + std::to_string(4 * i) + "], %sl_r18");
        }
        std::string text = "\t// SyncLab: where the hardware placed the shared variables\n";
        for (const std::string& line : c)
            text += "\t" + line + ";\n";
        edits_.push_back({at, text});
    }

    // --- operands --------------------------------------------------------------------------------

    const Register& reg(uint32_t slot, uint32_t line) const {
        if (slot >= fn_.registers.size()) fail(line, "register slot out of range");
        return fn_.registers[slot];
    }

    const Register* reg_by_name(const std::string& name) const {
        auto it = registers_.find(name);
        return it == registers_.end() ? nullptr : &fn_.registers[it->second];
    }

    AddressText address_text(uint32_t i) const {
        const std::string& t = fn_.text[i];
        const size_t open = t.find('[');
        const size_t close = t.find(']', open == std::string::npos ? 0 : open);
        if (open == std::string::npos || close == std::string::npos)
            fail(fn_.code[i].ptx_line, "no [address] in '" + t + "'");
        const std::string inner = trim(std::string_view(t).substr(open + 1, close - open - 1));
        size_t split = std::string::npos;
        for (size_t k = 1; k < inner.size(); ++k)
            if (inner[k] == '+' || inner[k] == '-') {
                split = k;
                break;
            }
        AddressText a;
        const std::string base = trim(inner.substr(0, split));
        if (split != std::string::npos) {
            std::string off = trim(inner.substr(split));
            if (off.starts_with("+")) off = trim(off.substr(1));
            if (!parse_integer(off, a.offset))
                fail(fn_.code[i].ptx_line, "cannot read the offset in '[" + inner + "]'");
        }
        if (base.empty()) fail(fn_.code[i].ptx_line, "empty address in '" + t + "'");
        if (base[0] == '%') {
            a.base = AddressText::Base::Register;
        } else if (std::isdigit(static_cast<unsigned char>(base[0])) || base[0] == '-') {
            a.base = AddressText::Base::Immediate;
            int64_t v = 0;
            if (!parse_integer(base, v)) fail(fn_.code[i].ptx_line, "cannot read the address '" + base + "'");
            a.offset += v;
        } else {
            a.base = AddressText::Base::Symbol;
        }
        a.name = base;
        return a;
    }

    bool is_module_global(const std::string& name) const {
        return std::any_of(module_.globals.begin(), module_.globals.end(),
                           [&](const GlobalVar& g) { return g.name == name; });
    }

    // Code that puts the 64-bit address of instruction i's access into kAddr (shared: the 32-bit
    // shared-window address, zero-extended). For generic accesses it also sets kIsShared/kRecord and
    // converts a shared address to its window offset.
    void emit_address(std::vector<std::string>& c, uint32_t i, bool& generic) const {
        const Instruction& in = fn_.code[i];
        const AddressText a = address_text(i);
        const std::string off = std::to_string(a.offset);
        generic = in.space == Space::Generic;
        switch (a.base) {
        case AddressText::Base::Immediate:
            c.push_back(std::string("mov.u64 ") + kAddr + ", " +
                        std::to_string(static_cast<uint64_t>(a.offset)));
            break;
        case AddressText::Base::Symbol:
            if (in.space == Space::Shared || (!is_module_global(a.name) && in.space == Space::Generic)) {
                c.push_back("mov.u32 %sl_r13, " + a.name);
                c.push_back("add.u32 %sl_r13, %sl_r13, " + off);
                c.push_back(std::string("cvt.u64.u32 ") + kAddr + ", %sl_r13");
                if (generic) {
                    // A shared symbol named in a generic access: it is shared.
                    generic = false;
                }
            } else {
                c.push_back(std::string("mov.u64 ") + kAddr + ", " + a.name);
                c.push_back(std::string("add.s64 ") + kAddr + ", " + kAddr + ", " + off);
            }
            break;
        case AddressText::Base::Register: {
            const Register* r = reg_by_name(a.name);
            if (!r) fail(in.ptx_line, "unknown register " + a.name + " in the address");
            if (type_bits(r->type) == 64) {
                c.push_back(std::string("add.s64 ") + kAddr + ", " + a.name + ", " + off);
            } else {
                c.push_back("add.u32 %sl_r13, " + a.name + ", " + off);
                c.push_back(std::string("cvt.u64.u32 ") + kAddr + ", %sl_r13");
            }
            break;
        }
        }
        if (generic) {
            c.push_back(std::string("isspacep.shared ") + kIsShared + ", " + kAddr);
            c.push_back(std::string("isspacep.global ") + kRecord + ", " + kAddr);
            c.push_back(std::string("or.pred ") + kRecord + ", " + kRecord + ", " + kIsShared);
            c.push_back(std::string("@") + kIsShared + " cvta.to.shared.u64 " + kAddr + ", " + kAddr);
        }
    }

    // Code that puts the low 32 bits of a register or immediate into `dst`.
    void emit_value(std::vector<std::string>& c, const std::string& dst, const Operand& op, uint32_t line,
                    bool sign_extend) const {
        if (op.kind == Operand::Kind::Imm) {
            c.push_back("mov.u32 " + dst + ", " + std::to_string(static_cast<uint32_t>(op.imm)));
            return;
        }
        if (op.kind != Operand::Kind::Reg || op.reg == Operand::kNoReg) {
            c.push_back("mov.u32 " + dst + ", 0");
            return;
        }
        const Register& r = reg(op.reg, line);
        switch (type_bits(r.type)) {
        case 64:
            c.push_back("mov.b64 %sl_d7, " + r.name);
            c.push_back("cvt.u32.u64 " + dst + ", %sl_d7");
            break;
        case 32:
            c.push_back("mov.b32 " + dst + ", " + r.name);
            break;
        case 16:
            c.push_back("mov.b16 %sl_h0, " + r.name);
            c.push_back(std::string(sign_extend ? "cvt.s32.s16 " : "cvt.u32.u16 ") + dst + ", %sl_h0");
            break;
        case 8:
            c.push_back(std::string(sign_extend ? "cvt.s32.s8 " : "cvt.u32.u8 ") + dst + ", " + r.name);
            break;
        default:
            fail(line, "cannot record the value of predicate register " + r.name);
        }
    }

    // The recording itself: reserve a slot, write the 32-byte event if it fits.
    void emit_event(std::vector<std::string>& c, const std::string& addr, const std::string& value,
                    const std::string& word, bool aggregate = true) const {
        if (options_.warp_aggregated && aggregate) {
            c.push_back("activemask.b32 %sl_r5");
            c.push_back("popc.b32 %sl_r6, %sl_r5");
            c.push_back(std::string("and.b32 %sl_r7, %sl_r5, ") + kLaneLt);
            c.push_back("popc.b32 %sl_r7, %sl_r7");
            c.push_back("bfind.u32 %sl_r8, %sl_r5");
            c.push_back("add.u32 %sl_r9, %sl_r7, 1");
            c.push_back("setp.eq.u32 %sl_p0, %sl_r9, %sl_r6");
            c.push_back("mov.u64 %sl_d4, 0");
            c.push_back("cvt.u64.u32 %sl_d5, %sl_r6");
            c.push_back(std::string("@%sl_p0 atom.global.add.u64 %sl_d4, [") + kCursor + "], %sl_d5");
            // Overflow path: the reserving lane adds what its reservation [base, base + n) has at or
            // past the capacity, end - max(base, capacity), to the warp's drop count.
            c.push_back("add.u64 %sl_d6, %sl_d4, %sl_d5");
            c.push_back(std::string("setp.gt.u64 %sl_p5, %sl_d6, ") + kCapacity);
            c.push_back("and.pred %sl_p5, %sl_p5, %sl_p0");
            c.push_back(std::string("@%sl_p5 max.u64 %sl_d7, %sl_d4, ") + kCapacity);
            c.push_back("@%sl_p5 sub.u64 %sl_d7, %sl_d6, %sl_d7");
            c.push_back(std::string("@%sl_p5 red.global.add.u64 [") + kDrops + "], %sl_d7");
            c.push_back("cvt.u32.u64 %sl_r9, %sl_d4");
            c.push_back("shr.u64 %sl_d4, %sl_d4, 32");
            c.push_back("cvt.u32.u64 %sl_r10, %sl_d4");
            c.push_back("shfl.sync.idx.b32 %sl_r9, %sl_r9, %sl_r8, 31, %sl_r5");
            c.push_back("shfl.sync.idx.b32 %sl_r10, %sl_r10, %sl_r8, 31, %sl_r5");
            c.push_back("cvt.u64.u32 %sl_d4, %sl_r10");
            c.push_back("shl.b64 %sl_d4, %sl_d4, 32");
            c.push_back("cvt.u64.u32 %sl_d5, %sl_r9");
            c.push_back("or.b64 %sl_d4, %sl_d4, %sl_d5");
            c.push_back("cvt.u64.u32 %sl_d5, %sl_r7");
            c.push_back("add.s64 %sl_d4, %sl_d4, %sl_d5");
        } else {
            c.push_back(std::string("atom.global.add.u64 %sl_d4, [") + kCursor + "], 1");
            c.push_back(std::string("setp.ge.u64 %sl_p5, %sl_d4, ") + kCapacity);
            c.push_back(std::string("@%sl_p5 red.global.add.u64 [") + kDrops + "], 1");
        }
        c.push_back(std::string("setp.lt.u64 %sl_p0, %sl_d4, ") + kCapacity);
        c.push_back("shl.b64 %sl_d5, %sl_d4, 5");
        c.push_back(std::string("add.s64 %sl_d5, ") + kEvents + ", %sl_d5");
        c.push_back("mov.u64 %sl_d6, %globaltimer");
        c.push_back("mov.u32 %sl_r11, %clock");
        std::string w = word;
        if (!word.starts_with("%")) {
            c.push_back("mov.u32 %sl_r12, " + word);
            w = "%sl_r12";
        }
        c.push_back("@%sl_p0 st.global.v2.u64 [%sl_d5], {%sl_d6, " + addr + "}");
        c.push_back("@%sl_p0 st.global.v4.b32 [%sl_d5+16], {" + value + ", " + std::string(kThread) +
                    ", %sl_r11, " + w + "}");
    }

    // --- one instruction -------------------------------------------------------------------------

    // Lines that skip the recording where the instruction's guard is false.
    struct Guard {
        std::string open, close;
    };
    Guard guard_for(const Instruction& in) {
        if (in.guard == Operand::kNoReg) return {};
        const std::string label = "$__sl_skip" + std::to_string(labels_++);
        const Register& p = reg(in.guard, in.ptx_line);
        return {std::string("@") + (in.guard_negated ? "" : "!") + p.name + " bra " + label, label};
    }

    // The branch that takes a block which does not record past a recording point.
    std::string new_off_label() { return "$__sl_off" + std::to_string(labels_++); }
    static std::string skip_if_off(const std::string& label) {
        return std::string("@!") + kOn + " bra " + label;
    }

    // `records`: the code writes events (skipped in blocks that do not record); otherwise it only
    // computes what a later recording point needs.
    void add_code(size_t offset, const std::vector<std::string>& code, const std::string& comment,
                  const Guard& guard, bool records) {
        std::string s = "\t// " + comment + "\n";
        const std::string off = records ? new_off_label() : "";
        if (records) s += "\t" + skip_if_off(off) + ";\n";
        if (!guard.open.empty()) s += "\t" + guard.open + ";\n";
        for (const std::string& line : code)
            s += "\t" + line + ";\n";
        if (!guard.close.empty()) s += guard.close + ":\n";
        if (records) s += off + ":\n";
        edits_.push_back({offset, s});
    }

    void instrument(uint32_t i, std::vector<RecordingPoint>& points) {
        const Instruction& in = fn_.code[i];
        const size_t before = line_start(in.ptx_line);
        const size_t after = after_instruction(in.ptx_line);
        // The instruction must start its line (a label on the same line would skip "before" code).
        {
            const size_t nl = text_.find('\n', before);
            const std::string line = trim(
                text_.substr(before, nl == std::string_view::npos ? std::string_view::npos : nl - before));
            if (!line.empty() && line[0] != '@' && !std::isalpha(static_cast<unsigned char>(line[0])))
                fail(in.ptx_line, "the instruction does not start its line ('" + line + "')");
        }
        const std::string tag = "site " + std::to_string(i);
        switch (in.op) {
        case Op::Ld:
        case Op::St:
        case Op::Atom:
        case Op::Red: {
            const bool atomic = in.op == Op::Atom || in.op == Op::Red;
            const bool load = in.op == Op::Ld;
            const trace::EventKind kind = access_event_kind(in);
            const uint32_t elem = type_size(in.type);
            const uint32_t count = atomic ? 1 : in.vector;
            const bool sign_extend = load && is_signed(in.type) && elem < 8;
            const trace::Space fixed_space =
                in.space == Space::Shared ? trace::Space::Shared : trace::Space::Global;

            std::vector<std::string> pre;
            bool generic = false;
            emit_address(pre, i, generic);
            const uint32_t w_fixed = event_word(i, kind, access_event_flags(in, fixed_space));
            std::string word = std::to_string(w_fixed);
            if (generic) {
                const uint32_t w_shared = event_word(i, kind, access_event_flags(in, trace::Space::Shared));
                const uint32_t w_global = event_word(i, kind, access_event_flags(in, trace::Space::Global));
                pre.push_back(std::string("selp.b32 ") + kWord + ", " + std::to_string(w_shared) + ", " +
                              std::to_string(w_global) + ", " + kIsShared);
                word = kWord;
            }
            // Atomics may overwrite operand b (d and b the same register): read it before.
            if (atomic)
                emit_value(pre, kValue, in.op == Op::Atom ? in.ops[2] : in.ops[1], in.ptx_line, false);
            add_code(before, pre, "SyncLab trace: address of " + tag, {}, false);

            std::vector<std::string> post;
            if (generic) {
                // Local-memory accesses through generic pointers are not recorded (as in the simulator).
                const std::string label = "$__sl_skip" + std::to_string(labels_++);
                post.push_back(std::string("@!") + kRecord + " bra " + label);
                emit_elements(post, in, count, elem, load, sign_extend, atomic, word);
                post.push_back("");
                Guard g = guard_for(in);
                std::string s = "\t// SyncLab trace: " + tag + "\n";
                s += "\t" + skip_if_off(label) + ";\n";
                if (!g.open.empty()) s += "\t" + g.open + ";\n";
                for (const std::string& line : post)
                    if (!line.empty()) s += "\t" + line + ";\n";
                s += label + ":\n";
                if (!g.close.empty()) s += g.close + ":\n";
                edits_.push_back({after, s});
            } else {
                emit_elements(post, in, count, elem, load, sign_extend, atomic, word);
                add_code(after, post, "SyncLab trace: " + tag, guard_for(in), true);
            }
            points.push_back({i, kind, count, false});
            break;
        }
        case Op::Bar: {
            const bool arrive_only = (in.mods & mod::kArrive) != 0;
            const uint8_t flags = control_event_flags();
            // Barrier events take one atomic per thread, no warp collective: bar.sync is
            // barrier.sync.aligned, and in the block that holds it ptxas may treat the warp as
            // converged (on the H200 the warp-aggregated arrive of a divergent bar.sync was never
            // written). A branch that is never taken ends the block before the barrier, so that
            // the arrive is recorded before whatever waiting the barrier's block starts with:
            // a hung kernel's partial trace must show who waits where.
            std::vector<std::string> pre;
            emit_barrier_id(pre, in);
            emit_event(pre, kAddr, kPhase,
                       std::to_string(event_word(i, trace::EventKind::BarrierArrive, flags)), false);
            pre.push_back(std::string("@") + kNever + " bra " + kNeverLabel);
            add_code(before, pre, "SyncLab trace: barrier arrive, " + tag, guard_for(in), true);
            needs_never_label_ = true;
            points.push_back({i, trace::EventKind::BarrierArrive, 1, true});
            std::vector<std::string> post;
            if (!arrive_only) {
                emit_barrier_id(post, in);
                emit_event(post, kAddr, kPhase,
                           std::to_string(event_word(i, trace::EventKind::BarrierLeave, flags)), false);
                points.push_back({i, trace::EventKind::BarrierLeave, 1, false});
            }
            post.push_back(std::string("add.u32 ") + kPhase + ", " + kPhase + ", 1");
            add_code(after, post, "SyncLab trace: barrier leave, " + tag, guard_for(in), true);
            break;
        }
        case Op::Membar: {
            const uint8_t flags = fence_event_flags(in);
            std::vector<std::string> post = {std::string("mov.u64 ") + kAddr + ", 0",
                                             std::string("mov.u32 ") + kValue + ", 0"};
            emit_event(post, kAddr, kValue, std::to_string(event_word(i, trace::EventKind::Fence, flags)));
            add_code(after, post, "SyncLab trace: fence, " + tag, guard_for(in), true);
            points.push_back({i, trace::EventKind::Fence, 1, false});
            break;
        }
        case Op::Ret:
        case Op::Exit: {
            const uint8_t flags = control_event_flags();
            std::vector<std::string> pre = {std::string("mov.u64 ") + kAddr + ", 0",
                                            std::string("mov.u32 ") + kValue + ", 0"};
            emit_event(pre, kAddr, kValue, std::to_string(event_word(i, trace::EventKind::Exit, flags)));
            add_code(before, pre, "SyncLab trace: exit, " + tag, guard_for(in), true);
            points.push_back({i, trace::EventKind::Exit, 1, true});
            break;
        }
        default: {
            trace::Collective collective{};
            if (collective_of(in, collective)) instrument_collective(i, collective, points);
            break;
        }
        }
    }

    // A warp collective: one WarpCollective event per member lane, written after the instruction
    // (once the members have met). The member mask and shfl's source lane are computed before it,
    // into registers the kernel never touches, because the instruction may overwrite its own
    // operands (shfl d and b the same register); that code is straight-line, so the recording
    // introduces no divergence before the .sync instruction.
    void instrument_collective(uint32_t i, trace::Collective collective, std::vector<RecordingPoint>& points) {
        const Instruction& in = fn_.code[i];
        const uint32_t mask_slot = member_mask_slot(in.op);
        const char* kMask = "%sl_r18";
        const char* kSource = "%sl_r19";
        std::vector<std::string> pre;
        emit_value(pre, kMask, in.ops[mask_slot], in.ptx_line, false);
        if (in.op == Op::Shfl)
            emit_shfl_source(pre, in, kSource);
        else
            pre.push_back(std::string("mov.u32 ") + kSource + ", " + std::to_string(trace::kNoLane));
        const std::string tag = "site " + std::to_string(i);
        add_code(line_start(in.ptx_line), pre, "SyncLab trace: members of " + tag, {}, false);

        std::vector<std::string> post;
        const Operand& result = in.ops[0];
        const Operand& elected = in.ops[1];
        if (collective == trace::Collective::Elect && result.kind != Operand::Kind::Reg &&
            elected.kind == Operand::Kind::Reg) {
            // elect.sync _|p: the leader's lane id (what d would hold) from the members' predicates:
            // the lowest set bit of their ballot (one bit: the leader's). The members have just met,
            // and a guard skips the same lanes for this vote as for the elect.
            post.push_back(std::string("vote.sync.ballot.b32 %sl_r20, ") + reg(elected.reg, in.ptx_line).name +
                           ", " + kMask);
            post.push_back("brev.b32 %sl_r20, %sl_r20");
            post.push_back(std::string("bfind.shiftamt.u32 ") + kValue + ", %sl_r20");
        } else if (in.op == Op::WarpSync || result.kind != Operand::Kind::Reg || result.reg == Operand::kNoReg) {
            post.push_back(std::string("mov.u32 ") + kValue + ", 0");
        } else if (reg(result.reg, in.ptx_line).type == Type::Pred) {
            post.push_back(std::string("selp.u32 ") + kValue + ", 1, 0, " + reg(result.reg, in.ptx_line).name);
        } else {
            emit_value(post, kValue, result, in.ptx_line, false);
        }
        post.push_back(std::string("cvt.u64.u32 ") + kAddr + ", " + kSource);
        post.push_back(std::string("shl.b64 ") + kAddr + ", " + kAddr + ", 32");
        post.push_back(std::string("cvt.u64.u32 %sl_d8, ") + kMask);
        post.push_back(std::string("or.b64 ") + kAddr + ", " + kAddr + ", %sl_d8");
        const uint8_t flags = static_cast<uint8_t>(collective) & trace::flag::kCollectiveMask;
        emit_event(post, kAddr, kValue, std::to_string(event_word(i, trace::EventKind::WarpCollective, flags)));
        add_code(after_instruction(in.ptx_line), post,
                 std::string("SyncLab trace: warp collective (") + trace::to_string(collective) + "), " + tag,
                 guard_for(in), true);
        points.push_back({i, trace::EventKind::WarpCollective, 1, false});
    }

    // shfl.sync's source lane j, as the PTX ISA defines it (b's and c's low bits, c's segment mask),
    // or kNoLane where the lane keeps its own value (j out of its segment's clamp). Scratch: %sl_r5-12.
    void emit_shfl_source(std::vector<std::string>& c, const Instruction& in, const std::string& dst) const {
        c.push_back("mov.u32 %sl_r5, %laneid");
        emit_value(c, "%sl_r6", in.ops[3], in.ptx_line, false);
        emit_value(c, "%sl_r7", in.ops[4], in.ptx_line, false);
        c.push_back("and.b32 %sl_r6, %sl_r6, 31");          // bval = b[4:0]
        c.push_back("bfe.u32 %sl_r8, %sl_r7, 8, 5");        // segmask = c[12:8]
        c.push_back("and.b32 %sl_r9, %sl_r5, %sl_r8");      // minLane = lane & segmask
        c.push_back("not.b32 %sl_r10, %sl_r8");             // ~segmask
        c.push_back("and.b32 %sl_r11, %sl_r7, %sl_r10");
        c.push_back("and.b32 %sl_r11, %sl_r11, 31");
        c.push_back("or.b32 %sl_r11, %sl_r11, %sl_r9");     // maxLane
        switch (in.shfl) {
        case ShflMode::Up:
            c.push_back("sub.s32 %sl_r12, %sl_r5, %sl_r6");
            c.push_back("setp.ge.s32 %sl_p0, %sl_r12, %sl_r11");
            break;
        case ShflMode::Down:
            c.push_back("add.s32 %sl_r12, %sl_r5, %sl_r6");
            c.push_back("setp.le.s32 %sl_p0, %sl_r12, %sl_r11");
            break;
        case ShflMode::Bfly:
            c.push_back("xor.b32 %sl_r12, %sl_r5, %sl_r6");
            c.push_back("setp.le.s32 %sl_p0, %sl_r12, %sl_r11");
            break;
        default: // idx
            c.push_back("and.b32 %sl_r12, %sl_r6, %sl_r10");
            c.push_back("or.b32 %sl_r12, %sl_r12, %sl_r9");
            c.push_back("setp.le.s32 %sl_p0, %sl_r12, %sl_r11");
            break;
        }
        c.push_back("selp.b32 " + dst + ", %sl_r12, " + std::to_string(trace::kNoLane) + ", %sl_p0");
    }

    // The target of the never-taken branches: a trap just before the kernel's closing brace.
    void add_never_block() {
        const size_t open = text_.find('{', text_.find(')', line_start(fn_.decl_line)));
        int depth = 0;
        for (size_t k = open; k < text_.size(); ++k) {
            if (text_[k] == '/' && k + 1 < text_.size() && text_[k + 1] == '/') {
                k = text_.find('\n', k);
                if (k == std::string_view::npos) break;
                continue;
            }
            if (text_[k] == '"') {
                k = text_.find('"', k + 1);
                if (k == std::string_view::npos) break;
                continue;
            }
            if (text_[k] == '{') ++depth;
            if (text_[k] == '}' && --depth == 0) {
                edits_.push_back(
                    {k, std::string("\t// SyncLab trace: never reached (ends the blocks before barriers)\n") +
                            kNeverLabel + ":\n\ttrap;\n"});
                return;
            }
        }
        fail(fn_.decl_line, "no closing '}' for the kernel body");
    }

    void emit_barrier_id(std::vector<std::string>& c, const Instruction& in) const {
        const Operand& id = in.ops[0];
        if (id.kind == Operand::Kind::Reg) {
            const Register& r = reg(id.reg, in.ptx_line);
            if (type_bits(r.type) == 64)
                c.push_back(std::string("mov.b64 ") + kAddr + ", " + r.name);
            else
                c.push_back(std::string("cvt.u64.u32 ") + kAddr + ", " + r.name);
        } else {
            c.push_back(std::string("mov.u64 ") + kAddr + ", " +
                        std::to_string(id.kind == Operand::Kind::Imm ? id.imm : 0));
        }
    }

    void emit_elements(std::vector<std::string>& c, const Instruction& in, uint32_t count, uint32_t elem,
                       bool load, bool sign_extend, bool atomic, const std::string& word) const {
        const Operand& data = load ? in.ops[0] : in.ops[1];
        for (uint32_t e = 0; e < count; ++e) {
            std::string addr = kAddr;
            if (e > 0) {
                c.push_back(std::string("add.s64 %sl_d8, ") + kAddr + ", " +
                            std::to_string(uint64_t(e) * elem));
                addr = "%sl_d8";
            }
            if (!atomic) {
                Operand element = data;
                if (data.kind == Operand::Kind::Vector) {
                    element = Operand{};
                    element.kind = Operand::Kind::Reg;
                    element.reg = e < data.vec_count ? data.vec[e] : Operand::kNoReg;
                }
                emit_value(c, kValue, element, in.ptx_line, sign_extend);
            }
            emit_event(c, addr, kValue, word);
        }
    }

    std::string_view text_;
    const Module& module_;
    const Function& fn_;
    const InstrumentOptions& options_;
    std::string source_;
    std::vector<size_t> line_starts_;
    std::unordered_map<std::string, uint32_t> registers_;
    std::vector<Edit> edits_;
    uint32_t labels_ = 0;
    bool needs_never_label_ = false;
};

} // namespace

InstrumentedKernel instrument_kernel(std::string_view text, const Module& module, const std::string& kernel,
                                     const InstrumentOptions& options, const std::string& source_name) {
    if (!trace::is_power_of_two(options.stripes) || options.stripes > trace::kMaxStripes)
        throw std::invalid_argument("instrument_kernel: stripes must be a power of two from 1 to " +
                                    std::to_string(trace::kMaxStripes) + ", not " +
                                    std::to_string(options.stripes));
    const Function& fn = module.require_entry(kernel, source_name);
    if (fn.text.size() != fn.code.size())
        throw InstrumentError(source_name, fn.decl_line, "the parsed kernel has no instruction text");
    return Rewriter(text, module, fn, options, source_name).run();
}

} // namespace synclab::ptx
