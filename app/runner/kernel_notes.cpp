#include "runner/kernel_notes.h"

#include <algorithm>

namespace synclab::runner {

namespace {

// Lines [first, last] of `text` (1-based), joined.
std::string line_range(std::string_view text, uint32_t first, uint32_t last) {
    std::string out;
    uint32_t line = 1;
    size_t pos = 0;
    while (pos <= text.size() && line <= last) {
        const size_t nl = text.find('\n', pos);
        const std::string_view piece =
            text.substr(pos, nl == std::string_view::npos ? text.size() - pos : nl - pos);
        if (line >= first) out.append(piece).push_back('\n');
        if (nl == std::string_view::npos) break;
        pos = nl + 1;
        ++line;
    }
    return out;
}

// The kernel's source text: from the nearest `__global__` at or above its first instruction's line
// to its last instruction's line (the compiled code names the lines it came from; declarations such
// as `__shared__ int s[256];` produce no instruction but sit inside that range).
std::string kernel_source(const ptx::Function& kernel, std::string_view source) {
    // The kernel's own lines: an instruction inlined from a helper stands at its outermost call.
    uint32_t first = UINT32_MAX, last = 0;
    for (const ptx::Instruction& in : kernel.code) {
        const bool inlined = in.inlined != 0 && in.inlined < kernel.inlined.size();
        const uint32_t line = inlined                                ? kernel.inlined[in.inlined].back().line
                              : in.source_file == kernel.source_file ? in.source_line
                                                                     : 0;
        if (line != 0) {
            first = std::min(first, line);
            last = std::max(last, line);
        }
    }
    if (last == 0) return "";
    for (uint32_t l = first; l >= 1; --l) {
        if (line_range(source, l, l).find("__global__") != std::string::npos) {
            first = l;
            break;
        }
    }
    return line_range(source, first, last);
}

} // namespace

std::vector<std::string> compiled_kernel_notes(const ptx::Function& kernel, std::string_view cuda_source) {
    bool shared_access = false, writes_memory = false, takes_pointers = false;
    for (const ptx::Instruction& in : kernel.code) {
        if (!ptx::is_memory_access(in.op)) continue;
        if (in.space == ptx::Space::Shared || in.space == ptx::Space::Generic) shared_access = true;
        if (in.op != ptx::Op::Ld && in.space != ptx::Space::Local) writes_memory = true;
    }
    for (const ptx::Param& p : kernel.params)
        takes_pointers = takes_pointers || p.size == 8;
    std::vector<std::string> notes;
    if (!shared_access && !cuda_source.empty() &&
        kernel_source(kernel, cuda_source).find("__shared__") != std::string::npos)
        notes.push_back("the compiled kernel makes no shared-memory access, though its source declares "
                        "__shared__ memory: nvcc removed the accesses, since nothing reads what they "
                        "write (compile with --nvcc-arg -G to keep them, or make the kernel use the values)");
    if (!writes_memory && takes_pointers)
        notes.push_back("the compiled kernel writes no memory at all: nvcc removed what it computes, since "
                        "nothing of it reaches a store (compile with --nvcc-arg -G to keep it)");
    return notes;
}

} // namespace synclab::runner
