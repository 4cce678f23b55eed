// The runner's side of a lesson's CPU reader (scenario/host_reader.h): which buffers of a job the
// worker maps into host memory for a CPU thread to read while the kernel runs (GPU backend), what
// that thread saw summed over the launches, the notes a run carries about it, and the check of what
// the CPU saw against the variant's `stale` expectation. The simulator runs no CPU thread: its runs
// carry a note that says so.
#pragma once

#include "gpu/protocol.h"
#include "launch/launch.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace synclab::runner {

struct HostReaderJob {
    bool enabled = false;
    uint32_t flags_buffer = 0, data_buffer = 0; // indices into the job's input buffers
    uint32_t pairs = 0;
    std::string flags_name, data_name, seen_name;
    scenario::CpuStale stale = scenario::CpuStale::Never;
    std::string because;
    gpu::HostReaderRequest request() const { return {enabled, flags_buffer, data_buffer, pairs}; }
};

// The variant's CPU reader, where the lesson has a [host_reader.VARIANT] table (else enabled false).
HostReaderJob host_reader_job(const scenario::Scenario& scenario, const scenario::Variant& variant);

// What the CPU saw over a run's untraced launches.
struct HostReaderSummary {
    uint32_t launches = 0;
    uint64_t pairs = 0;        // pairs read, over every launch
    uint64_t seen = 0;         // flags the CPU saw change
    uint64_t stale = 0;        // of them, data still the value from before the launch
    uint64_t after_kernel = 0; // of `seen`, first seen only once the kernel had ended
    uint64_t gave_up = 0;      // flags never seen change
    std::string message;       // the first launch's give-up message, where one gave up
    // The records (flag seen, data seen per pair, u32) of the first launch with a stale read, else
    // of the first launch: u32 values in a buffer named after the lesson's `seen`.
    launch::Buffer records;
};

void add_launch(HostReaderSummary& summary, const HostReaderJob& job, const gpu::HostReaderLaunch& launch);

// "CPU reader (host-mapped g_flag, g_data): 1,600 of 1,600 pairs seen, 0 stale (0.00%), ..."
std::string gpu_note(const HostReaderJob& job, const HostReaderSummary& summary);
// The simulator's: the CPU reader is not modelled, the lesson's GPU reader stands in for it.
std::string simulator_note(const HostReaderJob& job);
// What the CPU saw against the expectation: stale reads where the variant says "never", pairs the
// CPU gave up on, no launch at all. Empty: as expected ("possible" accepts any stale count).
std::vector<std::string> check_host_reader(const HostReaderJob& job, const HostReaderSummary& summary);

} // namespace synclab::runner
