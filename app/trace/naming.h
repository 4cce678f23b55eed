// How SyncLab names what a person reads about, one way for every layer (the analyses' findings, the
// CLI, the report, the Chrome export and the app):
// - a thread by its block and thread index: "block 2 thread 35", with its warp and lane where they
//   matter (warp-level findings): "block 2 thread 35 (warp 1, lane 3)";
// - memory by the variable and element the kernel's source names: "s_tile[159]", "g_counters[0]",
//   from the trace's MemoryMap, else by its address: "__shared__ address 0x27c";
// - kernels and variables by their demangled names: "reverse_racy", not "_Z12reverse_racyPKiPi".
// Typed values are trace/value_format.h. All of it is text-time work: nothing here runs per event
// while a trace is recorded or analysed.
#pragma once

#include "trace/memory_map.h"
#include "trace/trace.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace synclab::trace {

// The language of the words (the app's languages; the CLI and JSON are English).
enum class Language : uint8_t { En, Zh };

enum class ThreadDetail : uint8_t {
    Block, // "block 2 thread 35"
    Lane,  // "block 2 thread 35 (warp 1, lane 3)": where warps matter (warp-level findings, lanes)
};

// Trace thread `thread` by its block and thread index (Zh: "线程块 2 的线程 35（线程束 1，通道 3）");
// "thread #N" when it is not in the thread table.
std::string thread_name(const Trace& trace, uint32_t thread, ThreadDetail detail = ThreadDetail::Block,
                        Language language = Language::En);

// Where a byte address lies, as the map names it.
struct MemoryPlace {
    const MemoryRegion* region = nullptr; // nullptr: no region holds the address
    uint64_t element = 0;                 // index of the element holding the address
    uint32_t byte = 0;                    // byte of that element the address is (0: its start)
};
// `access_size` indexes a region whose element size is unknown (0: bytes).
MemoryPlace memory_place(const MemoryMap& map, Space space, uint64_t address, uint32_t access_size = 0);

// The access's memory as the source names it: "s_tile[159]" ("s_tile[159] byte 2" for an address
// inside an element), or where no region holds it "__shared__ address 0x27c" / "global address
// 0x1000000000" (Zh: "__shared__ 地址 0x27c", "全局地址 0x1000000000").
std::string memory_name(const Trace& trace, Space space, uint64_t address, uint32_t access_size = 0,
                        Language language = Language::En);
// Bytes of one element the instruction at `site` accesses, by its type ("ld.shared.v2.f32": 4,
// "atom.global.add.u64": 8): the width that indexes an untyped array. 0 when the site is not in
// the site table or its instruction names no type.
uint32_t access_size(const Trace& trace, uint32_t site);
// The name of the region holding the address ("s_tile"), "" for none.
std::string region_name(const Trace& trace, Space space, uint64_t address);
// The fallback alone: "__shared__ address 0x27c", "global address 0x1000000000".
std::string address_name(Space space, uint64_t address, Language language = Language::En);

// A site's CUDA line as a person reads it: "line 20", and where it is not in the kernel's own file
// "line 3 of reduce.cuh" (the file's base name; Zh: "第 20 行", "reduce.cuh 第 3 行"). "" when the
// site has no CUDA line.
std::string line_name(const Site& site, Language language = Language::En);
// The inlined calls that lead to a site's line (Site::origin), "" when none: " in `warpReduce<64u,
// float>`, called from line 29"; deeper: " in `inner`, called from line 8 in `outer<true>`, called
// from line 15"; a call in another file: "called from line 4 of helpers.cuh"; a function the PTX does not
// name: ", called from line 29" alone (Zh: "（在 `warpReduce<64u, float>` 中，由第 29 行调用）").
std::string inlined_text(const Site& site, Language language = Language::En);
// line_name + inlined_text: "line 20 in `warpReduce<64u, float>`, called from line 29".
std::string site_line_text(const Site& site, Language language = Language::En);
// The base name of a path ("reduce.cuh" for "/src/reduce.cuh").
std::string file_base_name(const std::string& path);

// "block_sum(int const*, int*)" for "_Z9block_sumPKiPi"; a name that is not mangled comes back as is.
std::string demangle(const std::string& symbol);
// A demangled signature without its parameters and return type: "void reduce<256u>(int const*)" ->
// "reduce<256u>"; "(anonymous namespace)::k(int*)" -> "(anonymous namespace)::k".
std::string without_parameters(const std::string& signature);
// A kernel as a person reads it: "reverse_racy" for "_Z12reverse_racyPKiPi", "reduce<256u>" for a
// template instance; an extern "C" name as it is.
std::string kernel_name(const std::string& symbol);
// A variable as its source names it: the last component of the demangled symbol ("s_tile" for the
// static `__shared__` array "_ZZ14stencil_kernelPKfPfE6s_tile", "counter" for "_ZN2ns7counterE");
// a name that is not mangled as it is.
std::string variable_name(const std::string& symbol);

} // namespace synclab::trace
