#include "trace/naming.h"

#include "trace/text_format.h"
#include "trace/value_format.h"

#include <cstdlib>
#include <cxxabi.h>
#include <memory>

namespace synclab::trace {

std::string thread_name(const Trace& trace, uint32_t thread, ThreadDetail detail, Language language) {
    const bool zh = language == Language::Zh;
    if (thread >= trace.threads.size()) return (zh ? "线程 #" : "thread #") + std::to_string(thread);
    const ThreadInfo& t = trace.threads[thread];
    const std::string block = std::to_string(t.block), index = std::to_string(t.thread_in_block);
    std::string out = zh ? "线程块 " + block + " 的线程 " + index : "block " + block + " thread " + index;
    if (detail == ThreadDetail::Lane) {
        const std::string warp = std::to_string(t.warp), lane = std::to_string(t.lane);
        out += zh ? "（线程束 " + warp + "，通道 " + lane + "）" : " (warp " + warp + ", lane " + lane + ")";
    }
    return out;
}

MemoryPlace memory_place(const MemoryMap& map, Space space, uint64_t address, uint32_t access_size) {
    MemoryPlace place;
    place.region = map.find(space, address);
    if (place.region == nullptr) return place;
    const uint32_t element = place.region->element_size != 0 ? place.region->element_size
                             : access_size != 0              ? access_size
                                                             : 1;
    const uint64_t offset = address - place.region->base;
    place.element = offset / element;
    place.byte = uint32_t(offset % element);
    return place;
}

std::string address_name(Space space, uint64_t address, Language language) {
    const bool zh = language == Language::Zh;
    switch (space) {
    case Space::Shared:
        return std::string(zh ? "__shared__ 地址 " : "__shared__ address ") + format_hex(address);
    case Space::Global:
        return std::string(zh ? "全局地址 " : "global address ") + format_hex(address);
    case Space::Local:
        return std::string(zh ? "local 地址 " : "local address ") + format_hex(address);
    case Space::Other:
        break;
    }
    return std::string(zh ? "地址 " : "address ") + format_hex(address);
}

std::string memory_name(const Trace& trace, Space space, uint64_t address, uint32_t access_size,
                        Language language) {
    const MemoryPlace place = memory_place(trace.memory, space, address, access_size);
    if (place.region == nullptr) return address_name(space, address, language);
    std::string out = place.region->name + "[" + std::to_string(place.element) + "]";
    if (place.byte != 0) out += (language == Language::Zh ? " 字节 " : " byte ") + std::to_string(place.byte);
    return out;
}

uint32_t access_size(const Trace& trace, uint32_t site) {
    if (site >= trace.sites.size()) return 0;
    const std::string_view type = value_type(trace.sites[site].text);
    if (type.empty()) return 0;
    if (type == "pred") return 1;
    if (type == "f16x2") return 4;
    if (type == "bf16") return 2;
    // The digits of the type are its bits: "u8" 1, "f16" 2, "s32" 4, "b64" 8.
    uint32_t bits = 0;
    for (const char c : type)
        if (c >= '0' && c <= '9') bits = bits * 10 + uint32_t(c - '0');
    return bits / 8;
}

std::string region_name(const Trace& trace, Space space, uint64_t address) {
    const MemoryRegion* region = trace.memory.find(space, address);
    return region ? region->name : std::string();
}

std::string demangle(const std::string& symbol) {
    if (!symbol.starts_with("_Z")) return symbol;
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> text(
        abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && text ? std::string(text.get()) : symbol;
}

std::string without_parameters(const std::string& signature) {
    // The parenthesis group that closes the signature ("(anonymous namespace)::k(int*)" has
    // another one before it).
    size_t open = std::string::npos;
    if (!signature.empty() && signature.back() == ')') {
        int depth = 0;
        for (size_t i = signature.size(); i-- > 0;) {
            if (signature[i] == ')') ++depth;
            if (signature[i] == '(' && --depth == 0) {
                open = i;
                break;
            }
        }
    }
    std::string name = signature.substr(0, open);
    // Demangled template functions carry their return type.
    if (name.starts_with("void ")) name = name.substr(5);
    return name;
}

std::string kernel_name(const std::string& symbol) {
    return symbol.starts_with("_Z") ? without_parameters(demangle(symbol)) : symbol;
}

std::string variable_name(const std::string& symbol) {
    const std::string name = demangle(symbol);
    // The last "::" outside template arguments and parameter lists: "f(int*)::s_tile" -> "s_tile",
    // "ns::counter" -> "counter".
    int depth = 0;
    size_t last = std::string::npos;
    for (size_t i = 0; i + 1 < name.size(); ++i) {
        const char c = name[i];
        if (c == '<' || c == '(') ++depth;
        if (c == '>' || c == ')') --depth;
        if (depth == 0 && c == ':' && name[i + 1] == ':') last = i;
    }
    return last == std::string::npos ? name : name.substr(last + 2);
}

std::string file_base_name(const std::string& path) {
    const size_t slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

namespace {

// "line 20" / "line 3 of reduce.cuh" (Zh: "第 20 行" / "reduce.cuh 第 3 行").
std::string line_in(uint32_t line, const std::string& file, Language language) {
    const std::string n = std::to_string(line);
    if (language == Language::Zh) return (file.empty() ? "" : file_base_name(file) + " ") + "第 " + n + " 行";
    return "line " + n + (file.empty() ? "" : " of " + file_base_name(file));
}

} // namespace

std::string line_name(const Site& site, Language language) {
    return site.source_line == 0 ? std::string() : line_in(site.source_line, site.origin.file, language);
}

std::string inlined_text(const Site& site, Language language) {
    if (site.source_line == 0 || site.origin.inlined.empty()) return "";
    const bool zh = language == Language::Zh;
    std::string out;
    for (size_t i = 0; i < site.origin.inlined.size(); ++i) {
        const InlinedCall& call = site.origin.inlined[i];
        if (zh) {
            out += (i == 0 ? "（" : "，");
            if (!call.function.empty()) out += "在 `" + call.function + "` 中，";
            out += "由" + line_in(call.line, call.file, language) + "调用";
        } else {
            if (!call.function.empty()) out += " in `" + call.function + "`";
            out += ", called from " + line_in(call.line, call.file, language);
        }
    }
    if (zh) out += "）";
    return out;
}

std::string site_line_text(const Site& site, Language language) {
    return line_name(site, language) + inlined_text(site, language);
}

} // namespace synclab::trace
