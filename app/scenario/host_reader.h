// A lesson whose kernel hands data to a CPU thread through host-mapped memory (`[host_reader]` in
// lesson.toml; assets/lessons/README.md). On the GPU backend the two buffers it names are allocated
// in pinned host memory mapped into the GPU's address space, and a CPU thread of the worker waits,
// per pair, for the flag to change and then reads the data while the kernel runs; what it saw comes
// back as records (flag seen, data seen) under the name `seen`. The simulator runs no CPU thread:
// there the lesson's own reader (a GPU block) stands in, and the run says so.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace synclab::scenario {

// What the CPU may see for one variant: "never" stale (the writer's fence orders the data before the
// flag for the host too) or "possible" (the PTX memory model allows the stale read; whether a given
// GPU and host show it is a measurement, not a promise either way).
enum class CpuStale : uint8_t { Never, Possible };
const char* to_string(CpuStale value); // "never", "possible"

struct HostReaderVariant {
    std::string variant; // a variant of the lesson whose kernel writes the pairs
    CpuStale stale = CpuStale::Never;
    std::string because; // the rule that allows or forbids the stale read, and where it is stated
};

struct HostReaderSpec {
    std::string flags_buffer; // a declared u32 buffer: one flag per pair, raised by the GPU
    std::string data_buffer;  // a declared u32 buffer: one value per pair, written before the flag
    std::string seen;         // the name of the CPU's records: per pair (flag seen, data seen)
    uint32_t pairs = 0;       // pairs the CPU reads (flags[0 .. pairs))
    std::vector<HostReaderVariant> variants; // the variants the CPU reads for; others run as usual
    bool present() const { return !flags_buffer.empty(); }
    const HostReaderVariant* find(std::string_view variant) const {
        for (const HostReaderVariant& v : variants)
            if (v.variant == variant) return &v;
        return nullptr;
    }
};

} // namespace synclab::scenario
