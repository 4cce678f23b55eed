// Shared helpers of the trace tests: synthetic traces, field-by-field comparison, and surgery on
// serialized .slt bytes (patch a field, then recompute the checksums so that only the semantic
// check can catch the change).
#pragma once

#include "trace/slt_file.h"
#include "trace/trace.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace synclab::trace::test {

// A small trace with every field of every record set to a distinctive value: 2 blocks of 40
// threads (warp 0 full, warp 1 with 8 lanes), unicode / empty / NUL-containing strings, every event
// kind, space, size, scope and flag bit.
inline Trace make_rich_trace() {
    Trace t;
    RunMeta& m = t.meta;
    m.scenario = "stencil";
    m.variant = "missing \"__syncthreads\" ü∑🚀";
    m.kernel = "_Z7stencilPfPKf";
    m.backend = "sim";
    m.device = "SyncLab simulator";
    m.sm_count = 8;
    m.schedule = "adversarial";
    m.seed = 0xfedcba9876543210ull;
    m.memory_model = "sc";
    m.grid = {2, 1, 1};
    m.block = {40, 1, 1};
    m.dynamic_shared_bytes = 1024;
    m.status = RunStatus::Deadlock;
    m.status_message = std::string("line 1\nline 2\ttab \\ back\0nul", 28);
    m.elapsed_ms = 12.625;
    m.thread_instructions = 123456789;
    m.warp_instructions = 3858025;
    m.dropped_events = 7;
    m.wrong_outputs = 3;
    m.checked_outputs = 64;
    m.source_name = "stencil.cu";
    m.source_text = "__global__ void stencil(float* out, const float* in) {\n  // ∂u/∂t\n}\n";
    m.ptx_text = ""; // empty string on purpose

    const char* texts[] = {"ld.global.f32 %f1, [%rd4];",
                           "st.shared.f32 [%r4], %f1;",
                           "bar.sync 0;",
                           "",
                           "atom.global.add.u32 %r9, [%rd6], 1; // ∑",
                           "ret;"};
    for (uint32_t i = 0; i < 6; ++i)
        t.sites.push_back({10 + i * 3, i == 3 ? 0u : 20 + i, texts[i]});

    for (uint32_t b = 0; b < 2; ++b) {
        for (uint32_t i = 0; i < 40; ++i) {
            ThreadInfo ti;
            ti.block = b;
            ti.thread_in_block = i;
            ti.warp = uint16_t(i / 32);
            ti.lane = uint8_t(i % 32);
            ti.sm = uint16_t(b % 8);
            ti.end = static_cast<ThreadEnd>((b * 40 + i) % 5);
            ti.end_site = (b * 40 + i) % 6;
            t.threads.push_back(ti);
        }
    }

    uint64_t time = 1;
    for (uint32_t th = 0; th < 80; th += 3) {
        for (int k = 1; k < kEventKindCount; ++k) {
            if (static_cast<EventKind>(k) == EventKind::WarpCollective) continue; // below
            Event e;
            e.time = time++;
            e.address = 0x7f0000000000ull + th * 4 + uint64_t(k);
            e.value = 0xdeadbeef ^ th;
            e.thread = th;
            e.clock = uint32_t(time * 977);
            e.site = uint16_t((th + uint32_t(k)) % 6);
            e.kind = static_cast<EventKind>(k);
            e.flags = make_flags(static_cast<Space>(k % 4), 1u << (k % 4), k % 2 == 0,
                                 static_cast<Scope>(th % 4), k % 3 == 0);
            t.events.push_back(e);
        }
    }
    // Warp collectives (a shfl with its source lane, a ballot without one) after every thread's exit,
    // so the barrier phases above stay as they were.
    for (uint32_t th = 0; th < 40; th += 7) {
        Event e;
        e.time = time++;
        e.address = (th % 2 ? uint64_t((th ^ 1) & 31) << 32 : uint64_t(kNoLane) << 32) | 0xffff00ffu;
        e.value = 0xc0ffee00u + th;
        e.thread = th;
        e.clock = uint32_t(time * 977);
        e.site = uint16_t(th % 6);
        e.kind = EventKind::WarpCollective;
        e.flags = uint8_t(th % 2 ? Collective::Shfl : Collective::Vote);
        t.events.push_back(e);
    }
    // The cost model's timing (version 3): distinctive values in every field.
    m.modelled_cycles = 0x0123456789abcdefull;
    for (size_t i = 0; i < t.events.size(); ++i)
        t.timing.push_back({1000 + 7 * i, uint32_t(0x80000000u + i), uint32_t(3 * i + 1)});
    t.cas_failures = {0, 0, 0, 0, 0xfffffffeu, 5};
    return t;
}

inline void expect_same_meta(const RunMeta& a, const RunMeta& b) {
    EXPECT_EQ(a.scenario, b.scenario);
    EXPECT_EQ(a.variant, b.variant);
    EXPECT_EQ(a.kernel, b.kernel);
    EXPECT_EQ(a.backend, b.backend);
    EXPECT_EQ(a.device, b.device);
    EXPECT_EQ(a.sm_count, b.sm_count);
    EXPECT_EQ(a.schedule, b.schedule);
    EXPECT_EQ(a.seed, b.seed);
    EXPECT_EQ(a.memory_model, b.memory_model);
    EXPECT_EQ(a.grid, b.grid);
    EXPECT_EQ(a.block, b.block);
    EXPECT_EQ(a.dynamic_shared_bytes, b.dynamic_shared_bytes);
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.status_message, b.status_message);
    EXPECT_EQ(std::memcmp(&a.elapsed_ms, &b.elapsed_ms, sizeof(double)), 0)
        << a.elapsed_ms << " vs " << b.elapsed_ms;
    EXPECT_EQ(a.thread_instructions, b.thread_instructions);
    EXPECT_EQ(a.warp_instructions, b.warp_instructions);
    EXPECT_EQ(a.dropped_events, b.dropped_events);
    EXPECT_EQ(a.wrong_outputs, b.wrong_outputs);
    EXPECT_EQ(a.checked_outputs, b.checked_outputs);
    EXPECT_EQ(a.source_name, b.source_name);
    EXPECT_EQ(a.source_text, b.source_text);
    EXPECT_EQ(a.ptx_text, b.ptx_text);
    EXPECT_EQ(a.modelled_cycles, b.modelled_cycles);
}

inline void expect_same_trace(const Trace& a, const Trace& b) {
    expect_same_meta(a.meta, b.meta);
    ASSERT_EQ(a.threads.size(), b.threads.size());
    if (!a.threads.empty()) {
        EXPECT_EQ(std::memcmp(a.threads.data(), b.threads.data(), a.threads.size() * sizeof(ThreadInfo)), 0);
    }
    ASSERT_EQ(a.sites.size(), b.sites.size());
    for (size_t i = 0; i < a.sites.size(); ++i) {
        EXPECT_EQ(a.sites[i].ptx_line, b.sites[i].ptx_line) << "site " << i;
        EXPECT_EQ(a.sites[i].source_line, b.sites[i].source_line) << "site " << i;
        EXPECT_EQ(a.sites[i].text, b.sites[i].text) << "site " << i;
        EXPECT_EQ(a.sites[i].origin, b.sites[i].origin) << "site " << i;
    }
    ASSERT_EQ(a.events.size(), b.events.size());
    if (!a.events.empty()) {
        EXPECT_EQ(std::memcmp(a.events.data(), b.events.data(), a.events.size() * sizeof(Event)), 0);
    }
    ASSERT_EQ(a.timing.size(), b.timing.size());
    for (size_t i = 0; i < a.timing.size(); ++i) {
        EXPECT_EQ(a.timing[i].issue, b.timing[i].issue) << "timing " << i;
        EXPECT_EQ(a.timing[i].latency, b.timing[i].latency) << "timing " << i;
        EXPECT_EQ(a.timing[i].queue_depth, b.timing[i].queue_depth) << "timing " << i;
    }
    EXPECT_EQ(a.cas_failures, b.cas_failures);
    EXPECT_EQ(a.memory, b.memory);
    // An all-whole block table is stored as none.
    if (a.every_block_whole() && b.every_block_whole()) return;
    EXPECT_EQ(a.block_history, b.block_history);
}

// ---- byte surgery on serialized files (layout: slt_file.h) --------------------------------------

template <class T> T get_at(const std::vector<uint8_t>& bytes, size_t offset) {
    T v;
    std::memcpy(&v, bytes.data() + offset, sizeof v);
    return v;
}

template <class T> void put_at(std::vector<uint8_t>& bytes, size_t offset, T v) {
    std::memcpy(bytes.data() + offset, &v, sizeof v);
}

struct SectionLocation {
    uint32_t tag = 0;
    size_t header = 0;  // offset of the 24-byte section header
    size_t payload = 0; // offset of the payload
    uint64_t size = 0;  // payload bytes
};

// The sections of a well-formed file, in file order.
inline std::vector<SectionLocation> find_sections(const std::vector<uint8_t>& bytes) {
    std::vector<SectionLocation> out;
    const auto header_size = get_at<uint32_t>(bytes, 20);
    const auto count = get_at<uint32_t>(bytes, 24);
    size_t at = header_size;
    if (at > bytes.size()) return out;
    for (uint32_t i = 0; i < count && i < 64 && at + 24 <= bytes.size(); ++i) {
        SectionLocation s;
        s.tag = get_at<uint32_t>(bytes, at);
        s.header = at;
        s.payload = at + 24;
        s.size = get_at<uint64_t>(bytes, at + 8);
        out.push_back(s);
        if (s.size > bytes.size()) break; // damaged: the rest cannot be located
        at = s.payload + ((s.size + 7) & ~uint64_t(7));
    }
    return out;
}

inline uint32_t tag_of(const char (&name)[5]) {
    uint32_t v;
    std::memcpy(&v, name, 4);
    return v;
}

inline SectionLocation section(const std::vector<uint8_t>& bytes, const char (&name)[5]) {
    for (const SectionLocation& s : find_sections(bytes)) {
        if (s.tag == tag_of(name)) return s;
    }
    ADD_FAILURE() << "no section " << name;
    return {};
}

// Recomputes the header checksum and every section's checksum after a patch.
// (Tolerates damaged sizes: what cannot be located is left alone.)
inline void fix_checksums(std::vector<uint8_t>& bytes) {
    for (const SectionLocation& s : find_sections(bytes)) {
        if (s.payload <= bytes.size() && s.size <= bytes.size() - s.payload) {
            put_at<uint64_t>(bytes, s.header + 16, slt_checksum64(bytes.data() + s.payload, size_t(s.size)));
        }
    }
    const auto header_size = get_at<uint32_t>(bytes, 20);
    if (header_size >= 8 && header_size <= bytes.size()) {
        put_at<uint64_t>(bytes, header_size - 8, slt_checksum64(bytes.data(), header_size - 8));
    }
}

// A fresh directory under the system temp dir, removed by the destructor.
class TempDir {
  public:
    TempDir() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        path_ = std::filesystem::temp_directory_path() /
                ("synclab_trace_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" +
                 std::to_string(::getpid()));
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::permissions(path_, std::filesystem::perms::owner_all, ec);
        std::filesystem::remove_all(path_, ec);
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

} // namespace synclab::trace::test
