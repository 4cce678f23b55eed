// Names as a person reads them (trace/memory_map.h, trace/naming.h): memory by variable and
// element, threads by block and thread index, kernels and variables demangled.
#include "trace/naming.h"

#include <gtest/gtest.h>

namespace synclab::trace {
namespace {

MemoryRegion region(std::string name, Space space, uint64_t base, uint64_t bytes, std::string type = "",
                    uint32_t element_size = 0) {
    MemoryRegion r;
    r.name = std::move(name);
    r.space = space;
    r.base = base;
    r.bytes = bytes;
    r.element_type = std::move(type);
    r.element_size = element_size;
    return r;
}

// The stencil's window: s_tile (1,088 bytes, an untyped .b8 array in PTX) at 0; two buffers.
Trace stencil_like_trace() {
    Trace t;
    t.meta.grid = {3, 1, 1};
    t.meta.block = {64, 1, 1};
    t.threads = thread_layout(t.meta.grid, t.meta.block);
    EXPECT_TRUE(t.memory.add(region("s_tile", Space::Shared, 0, 1088)));
    EXPECT_TRUE(t.memory.add(region("in", Space::Global, 0x1000000000, 4096, "f32", 4)));
    EXPECT_TRUE(t.memory.add(region("g_counters", Space::Global, 0x1000002000, 16, "u32", 4)));
    return t;
}

TEST(MemoryMap, FindsTheRegionOfAnAddressInItsSpace) {
    const Trace t = stencil_like_trace();
    ASSERT_NE(t.memory.find(Space::Shared, 0), nullptr);
    EXPECT_EQ(t.memory.find(Space::Shared, 1087)->name, "s_tile");
    EXPECT_EQ(t.memory.find(Space::Shared, 1088), nullptr) << "one past the end";
    EXPECT_EQ(t.memory.find(Space::Global, 0x27c), nullptr) << "a shared offset is not a global address";
    EXPECT_EQ(t.memory.find(Space::Global, 0x1000000fff)->name, "in");
    EXPECT_EQ(t.memory.find(Space::Global, 0x1000001000), nullptr) << "between two regions";
    EXPECT_EQ(t.memory.find(Space::Global, 0x100000200c)->name, "g_counters");
}

TEST(MemoryMap, RefusesOverlappingUnnamedAndEmptyRegions) {
    MemoryMap map;
    EXPECT_TRUE(map.add(region("a", Space::Global, 100, 10)));
    EXPECT_FALSE(map.add(region("b", Space::Global, 109, 4))) << "overlaps a's end";
    EXPECT_FALSE(map.add(region("c", Space::Global, 96, 5))) << "overlaps a's start";
    EXPECT_TRUE(map.add(region("d", Space::Shared, 100, 10))) << "another space";
    EXPECT_FALSE(map.add(region("", Space::Global, 200, 4)));
    EXPECT_FALSE(map.add(region("e", Space::Global, 200, 0)));
    EXPECT_FALSE(map.add(region("f", Space::Local, 300, 4)));
    EXPECT_TRUE(map.add(region("g", Space::Global, 110, 4))) << "right after a";
    ASSERT_EQ(map.regions().size(), 3u);
    EXPECT_EQ(map.regions()[0].name, "a");
    EXPECT_EQ(map.regions()[1].name, "g");
    EXPECT_EQ(map.regions()[2].name, "d");
}

TEST(Naming, MemoryIsNamedByVariableAndElement) {
    const Trace t = stencil_like_trace();
    // s_tile has no element type: a 4-byte access at 0x27c is element 0x27c / 4 = 159.
    EXPECT_EQ(memory_name(t, Space::Shared, 0x27c, 4), "s_tile[159]");
    EXPECT_EQ(memory_name(t, Space::Shared, 0x27c, 1), "s_tile[636]") << "a byte access counts bytes";
    EXPECT_EQ(memory_name(t, Space::Shared, 0x27d, 4), "s_tile[159] byte 1");
    // A typed buffer counts its elements whatever the access width.
    EXPECT_EQ(memory_name(t, Space::Global, 0x1000000010, 8), "in[4]");
    EXPECT_EQ(memory_name(t, Space::Global, 0x1000002000, 4), "g_counters[0]");
    EXPECT_EQ(region_name(t, Space::Global, 0x1000002004), "g_counters");
    EXPECT_EQ(region_name(t, Space::Global, 0x10), "");
}

TEST(Naming, AnAddressNoRegionHoldsKeepsItsNumber) {
    const Trace t = stencil_like_trace();
    EXPECT_EQ(memory_name(t, Space::Shared, 0x500, 4), "__shared__ address 0x500");
    EXPECT_EQ(memory_name(t, Space::Global, 0x2000000000, 4), "global address 0x2000000000");
    EXPECT_EQ(memory_name(t, Space::Shared, 0x500, 4, Language::Zh), "__shared__ 地址 0x500");
    EXPECT_EQ(memory_name(t, Space::Global, 0x10, 4, Language::Zh), "全局地址 0x10");
    const Trace unnamed; // a file saved before traces had a memory map
    EXPECT_EQ(memory_name(unnamed, Space::Shared, 0x27c, 4), "__shared__ address 0x27c");
}

TEST(Naming, TheAccessWidthComesFromTheSitesType) {
    Trace t;
    t.sites = {{1, 1, "ld.shared.f32 %f1, [%r5]"},
               {2, 2, "st.shared.v2.f32 [%r4], {%f1, %f2}"},
               {3, 3, "atom.global.add.u64 %rd1, [%rd2], 1"},
               {4, 4, "ld.global.u8 %rs1, [%rd1]"},
               {5, 5, "bar.sync 0"}};
    EXPECT_EQ(access_size(t, 0), 4u);
    EXPECT_EQ(access_size(t, 1), 4u) << "a vector access indexes by its elements";
    EXPECT_EQ(access_size(t, 2), 8u);
    EXPECT_EQ(access_size(t, 3), 1u);
    EXPECT_EQ(access_size(t, 4), 0u) << "no type";
    EXPECT_EQ(access_size(t, 9), 0u) << "not in the site table";
}

TEST(Naming, ThreadsAreNamedByBlockAndThreadIndex) {
    const Trace t = stencil_like_trace();
    // Trace thread 163 = block 2, thread 35 = warp 1, lane 3.
    EXPECT_EQ(thread_name(t, 163), "block 2 thread 35");
    EXPECT_EQ(thread_name(t, 163, ThreadDetail::Lane), "block 2 thread 35 (warp 1, lane 3)");
    EXPECT_EQ(thread_name(t, 163, ThreadDetail::Block, Language::Zh), "线程块 2 的线程 35");
    EXPECT_EQ(thread_name(t, 163, ThreadDetail::Lane, Language::Zh),
              "线程块 2 的线程 35（线程束 1，通道 3）");
    EXPECT_EQ(thread_name(t, 9999), "thread #9999") << "not in the thread table";
}

TEST(Naming, KernelsAndVariablesAreDemangled) {
    EXPECT_EQ(demangle("_Z12reverse_racyPKiPi"), "reverse_racy(int const*, int*)");
    EXPECT_EQ(kernel_name("_Z12reverse_racyPKiPi"), "reverse_racy");
    EXPECT_EQ(kernel_name("_Z6reduceILi256EEvPKiPi"), "reduce<256>");
    EXPECT_EQ(kernel_name("mp"), "mp") << "extern \"C\" names stay";
    EXPECT_EQ(kernel_name("_Zbroken"), "_Zbroken") << "not a valid mangled name";
    EXPECT_EQ(variable_name("_ZZ14stencil_kernelPKfPfE6s_tile"), "s_tile");
    EXPECT_EQ(variable_name("_ZN2ns7counterE"), "counter");
    EXPECT_EQ(variable_name("g_counters"), "g_counters");
    EXPECT_EQ(without_parameters("(anonymous namespace)::k(int*)"), "(anonymous namespace)::k");
}

} // namespace
} // namespace synclab::trace
