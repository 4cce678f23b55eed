// Names and sizes for the PTX IR enums, and Module lookups.
#include "ptx/ir.h"

#include "ptx/parser.h"
#include "trace/naming.h"

#include <initializer_list>
#include <string_view>

namespace synclab::ptx {

// PTX spelling of the opcode (opcodes.h; WarpSync is written bar.warp.sync in PTX).
const char* to_string(Op op) {
    return info(op).name.data();
}

// PTX type suffix without the dot ("u32"); None is "none".
const char* to_string(Type type) {
    switch (type) {
    case Type::None:
        return "none";
    case Type::Pred:
        return "pred";
    case Type::B8:
        return "b8";
    case Type::B16:
        return "b16";
    case Type::B32:
        return "b32";
    case Type::B64:
        return "b64";
    case Type::U8:
        return "u8";
    case Type::U16:
        return "u16";
    case Type::U32:
        return "u32";
    case Type::U64:
        return "u64";
    case Type::S8:
        return "s8";
    case Type::S16:
        return "s16";
    case Type::S32:
        return "s32";
    case Type::S64:
        return "s64";
    case Type::F16:
        return "f16";
    case Type::F32:
        return "f32";
    case Type::F64:
        return "f64";
    }
    return "?";
}

uint32_t type_size(Type type) {
    switch (type) {
    case Type::None:
        return 0;
    case Type::Pred:
    case Type::B8:
    case Type::U8:
    case Type::S8:
        return 1;
    case Type::B16:
    case Type::U16:
    case Type::S16:
    case Type::F16:
        return 2;
    case Type::B32:
    case Type::U32:
    case Type::S32:
    case Type::F32:
        return 4;
    case Type::B64:
    case Type::U64:
    case Type::S64:
    case Type::F64:
        return 8;
    }
    return 0;
}

bool is_signed(Type type) {
    return type == Type::S8 || type == Type::S16 || type == Type::S32 || type == Type::S64;
}

bool is_float(Type type) {
    return type == Type::F16 || type == Type::F32 || type == Type::F64;
}

// PTX state-space name without the dot; Generic is "generic".
const char* to_string(Space space) {
    switch (space) {
    case Space::Generic:
        return "generic";
    case Space::Global:
        return "global";
    case Space::Shared:
        return "shared";
    case Space::Local:
        return "local";
    case Space::Param:
        return "param";
    case Space::Const:
        return "const";
    }
    return "?";
}

// PTX spelling, with the '%' ("%tid.x").
const char* to_string(SpecialReg reg) {
    switch (reg) {
    case SpecialReg::TidX:
        return "%tid.x";
    case SpecialReg::TidY:
        return "%tid.y";
    case SpecialReg::TidZ:
        return "%tid.z";
    case SpecialReg::NtidX:
        return "%ntid.x";
    case SpecialReg::NtidY:
        return "%ntid.y";
    case SpecialReg::NtidZ:
        return "%ntid.z";
    case SpecialReg::CtaidX:
        return "%ctaid.x";
    case SpecialReg::CtaidY:
        return "%ctaid.y";
    case SpecialReg::CtaidZ:
        return "%ctaid.z";
    case SpecialReg::NctaidX:
        return "%nctaid.x";
    case SpecialReg::NctaidY:
        return "%nctaid.y";
    case SpecialReg::NctaidZ:
        return "%nctaid.z";
    case SpecialReg::LaneId:
        return "%laneid";
    case SpecialReg::WarpId:
        return "%warpid";
    case SpecialReg::NWarpId:
        return "%nwarpid";
    case SpecialReg::SmId:
        return "%smid";
    case SpecialReg::NSmId:
        return "%nsmid";
    case SpecialReg::GridId:
        return "%gridid";
    case SpecialReg::Clock:
        return "%clock";
    case SpecialReg::Clock64:
        return "%clock64";
    case SpecialReg::GlobalTimer:
        return "%globaltimer";
    case SpecialReg::GlobalTimerLo:
        return "%globaltimer_lo";
    case SpecialReg::LanemaskEq:
        return "%lanemask_eq";
    case SpecialReg::LanemaskLt:
        return "%lanemask_lt";
    case SpecialReg::LanemaskLe:
        return "%lanemask_le";
    case SpecialReg::LanemaskGt:
        return "%lanemask_gt";
    case SpecialReg::LanemaskGe:
        return "%lanemask_ge";
    case SpecialReg::DynamicSmemSize:
        return "%dynamic_smem_size";
    case SpecialReg::Envreg0:
        return "%envreg0";
    case SpecialReg::Envreg1:
        return "%envreg1";
    case SpecialReg::Envreg2:
        return "%envreg2";
    case SpecialReg::Envreg3:
        return "%envreg3";
    case SpecialReg::Envreg4:
        return "%envreg4";
    case SpecialReg::Envreg5:
        return "%envreg5";
    case SpecialReg::Envreg6:
        return "%envreg6";
    case SpecialReg::Envreg7:
        return "%envreg7";
    case SpecialReg::Envreg8:
        return "%envreg8";
    case SpecialReg::Envreg9:
        return "%envreg9";
    case SpecialReg::Envreg10:
        return "%envreg10";
    case SpecialReg::Envreg11:
        return "%envreg11";
    case SpecialReg::Envreg12:
        return "%envreg12";
    case SpecialReg::Envreg13:
        return "%envreg13";
    case SpecialReg::Envreg14:
        return "%envreg14";
    case SpecialReg::Envreg15:
        return "%envreg15";
    case SpecialReg::Envreg16:
        return "%envreg16";
    case SpecialReg::Envreg17:
        return "%envreg17";
    case SpecialReg::Envreg18:
        return "%envreg18";
    case SpecialReg::Envreg19:
        return "%envreg19";
    case SpecialReg::Envreg20:
        return "%envreg20";
    case SpecialReg::Envreg21:
        return "%envreg21";
    case SpecialReg::Envreg22:
        return "%envreg22";
    case SpecialReg::Envreg23:
        return "%envreg23";
    case SpecialReg::Envreg24:
        return "%envreg24";
    case SpecialReg::Envreg25:
        return "%envreg25";
    case SpecialReg::Envreg26:
        return "%envreg26";
    case SpecialReg::Envreg27:
        return "%envreg27";
    case SpecialReg::Envreg28:
        return "%envreg28";
    case SpecialReg::Envreg29:
        return "%envreg29";
    case SpecialReg::Envreg30:
        return "%envreg30";
    case SpecialReg::Envreg31:
        return "%envreg31";
    }
    return "?";
}

namespace {

// The name a site gives file `index` of `module`: "" for the function's own file (and when unknown).
std::string site_file(const Function& function, const Module* module, uint32_t index) {
    if (index == 0 || index == function.source_file || function.source_file == 0) return "";
    if (module != nullptr && index < module->files.size() && !module->files[index].empty())
        return module->files[index];
    return "file " + std::to_string(index); // a .loc naming a file no .file directive names
}

bool ends_with_any(std::string_view name, std::initializer_list<std::string_view> ends) {
    for (std::string_view end : ends)
        if (name.ends_with(end)) return true;
    return false;
}

} // namespace

trace::Site site_of(const Function& function, const Module* module, size_t index) {
    if (index >= function.code.size()) return {};
    const Instruction& in = function.code[index];
    trace::Site site{
        in.ptx_line, in.source_line, index < function.text.size() ? function.text[index] : std::string(), {}};
    if (in.source_line != 0) site.origin.file = site_file(function, module, in.source_file);
    if (in.inlined != 0 && in.inlined < function.inlined.size())
        for (const InlinedCall& call : function.inlined[in.inlined])
            site.origin.inlined.push_back({call.function, site_file(function, module, call.file), call.line});
    return site;
}

std::vector<trace::Site> site_table(const Function& function, const Module* module) {
    std::vector<trace::Site> sites;
    sites.reserve(function.code.size());
    for (size_t i = 0; i < function.code.size(); ++i)
        sites.push_back(site_of(function, module, i));
    return sites;
}

bool is_toolkit_source(std::string_view file, std::string_view function) {
    for (std::string_view ns : {"cuda::", "cooperative_groups::", "cub::", "thrust::", "nv::"}) {
        // At the start, or after a qualifier or a return type ("_INTERNAL_..._cu::cuda::std::...",
        // "void cuda::std::__4::__atomic_store_dispatch<...>(...)").
        for (size_t at = function.find(ns); at != std::string_view::npos; at = function.find(ns, at + 1)) {
            const char before = at == 0 ? ' ' : function[at - 1];
            if (before == ' ' || before == ':') return true;
        }
    }
    std::string path(file);
    for (char& c : path)
        if (c == '\\') c = '/';
    // A toolkit's include tree: <root>/include/... with <root> "cuda" or "cuda-13.0", or
    // <root>/targets/<platform>/include/... (nvcc's own spelling); cccl beneath it.
    for (size_t at = path.find("/include/"); at != std::string::npos; at = path.find("/include/", at + 1)) {
        const std::string_view before = std::string_view(path).substr(0, at);
        const std::string_view root = before.substr(before.rfind('/') + 1);
        const bool versioned =
            root.starts_with("cuda-") && root.size() > 5 && root[5] >= '0' && root[5] <= '9';
        if (root == "cuda" || versioned || before.find("/targets/") != std::string_view::npos) return true;
    }
    const std::string_view name = std::string_view(path).substr(path.rfind('/') + 1);
    // The toolkit's device headers, for PTX whose .file paths were cut to base names.
    if (name.starts_with("sm_") && ends_with_any(name, {".h", ".hpp"}))
        return true; // sm_30_intrinsics.hpp ...
    if (name.starts_with("device_") && ends_with_any(name, {"_functions.h", "_functions.hpp"})) return true;
    if (name.starts_with("cuda_") && ends_with_any(name, {".h", ".hpp"})) return true; // cuda_fp16.hpp ...
    for (std::string_view known : {"math_functions.h", "math_functions.hpp", "cooperative_groups.h",
                                   "texture_indirect_functions.h", "surface_indirect_functions.h"})
        if (name == known) return true;
    return false;
}

namespace {

// What a declared type says of the elements: PTX's spelling and size, or nothing for bytes
// (a `__shared__ float s_tile[64]` is `.b8 s_tile[256]` in PTX: its accesses say the width).
void set_element(trace::MemoryRegion& region, Type type) {
    if (type == Type::None || type == Type::B8) return;
    region.element_type = to_string(type);
    region.element_size = type_size(type);
}

} // namespace

std::vector<trace::MemoryRegion> shared_regions(const Function& function, uint32_t dynamic_shared_bytes,
                                                const std::vector<uint32_t>& placed_at) {
    if (!placed_at.empty() && placed_at.size() != function.shared_symbols.size())
        throw std::invalid_argument("shared_regions: " + std::to_string(placed_at.size()) + " places for " +
                                    std::to_string(function.shared_symbols.size()) + " shared variables");
    std::vector<trace::MemoryRegion> regions;
    for (size_t i = 0; i < function.shared_symbols.size(); ++i) {
        const SharedSymbol& symbol = function.shared_symbols[i];
        trace::MemoryRegion r;
        r.name = trace::variable_name(symbol.name);
        r.space = trace::Space::Shared;
        r.base = placed_at.empty() ? symbol.offset : placed_at[i];
        r.bytes = symbol.is_extern ? dynamic_shared_bytes : symbol.size;
        set_element(r, symbol.type);
        if (r.bytes != 0) regions.push_back(std::move(r));
    }
    return regions;
}

trace::MemoryRegion global_region(const GlobalVar& variable, uint64_t address) {
    trace::MemoryRegion r;
    r.name = trace::variable_name(variable.name);
    r.space = trace::Space::Global;
    r.base = address;
    r.bytes = variable.size;
    set_element(r, variable.type);
    return r;
}

std::vector<trace::MemoryRegion> kernel_regions(const Module& module, const Function& function,
                                                uint32_t dynamic_shared_bytes,
                                                const std::vector<uint64_t>& global_addresses,
                                                const std::vector<uint32_t>& shared_placed_at) {
    std::vector<trace::MemoryRegion> regions;
    for (size_t i = 0; i < module.globals.size() && i < global_addresses.size(); ++i)
        if (module.globals[i].space == Space::Global && global_addresses[i] != 0)
            regions.push_back(global_region(module.globals[i], global_addresses[i]));
    for (trace::MemoryRegion& r : shared_regions(function, dynamic_shared_bytes, shared_placed_at))
        regions.push_back(std::move(r));
    return regions;
}

// Only kernels (.entry) are found: a .func of that name, or no function at all, gives nullptr.
const Function* Module::find_entry(const std::string& name) const {
    for (const Function& function : functions) {
        if (function.is_entry && function.name == name) return &function;
    }
    return nullptr;
}

const Function& Module::require_entry(const std::string& name, const std::string& source_name) const {
    if (const Function* entry = find_entry(name)) return *entry;
    std::string kernels;
    for (const std::string& entry_name : entry_names())
        kernels += (kernels.empty() ? "" : ", ") + entry_name;
    if (kernels.empty()) kernels = "none";
    for (const Function& function : functions) {
        if (function.name == name) {
            throw ParseError(
                source_name, function.decl_line, "",
                "'" + name + "' is a device function (.func), not a kernel (.entry); kernels: " + kernels);
        }
    }
    throw ParseError(source_name, 0, "", "no kernel named '" + name + "'; kernels: " + kernels);
}

// Kernel names in the order they appear in the PTX.
std::vector<std::string> Module::entry_names() const {
    std::vector<std::string> names;
    for (const Function& function : functions) {
        if (function.is_entry) names.push_back(function.name);
    }
    return names;
}

} // namespace synclab::ptx
