#include "runner/host_reader.h"

#include <cstdio>
#include <cstring>

namespace synclab::runner {

HostReaderJob host_reader_job(const scenario::Scenario& scenario, const scenario::Variant& variant) {
    HostReaderJob job;
    const scenario::HostReaderSpec& spec = scenario.host_reader;
    const scenario::HostReaderVariant* v = spec.present() ? spec.find(variant.id) : nullptr;
    if (v == nullptr) return job;
    for (size_t i = 0; i < scenario.buffers.size(); ++i) {
        if (scenario.buffers[i].name == spec.flags_buffer) job.flags_buffer = static_cast<uint32_t>(i);
        if (scenario.buffers[i].name == spec.data_buffer) job.data_buffer = static_cast<uint32_t>(i);
    }
    job.enabled = true;
    job.pairs = spec.pairs;
    job.flags_name = spec.flags_buffer;
    job.data_name = spec.data_buffer;
    job.seen_name = spec.seen;
    job.stale = v->stale;
    job.because = v->because;
    return job;
}

void add_launch(HostReaderSummary& s, const HostReaderJob& job, const gpu::HostReaderLaunch& l) {
    const bool first = s.launches == 0;
    const bool first_stale = l.stale > 0 && s.stale == 0;
    ++s.launches;
    s.pairs += l.pairs;
    s.seen += l.seen;
    s.stale += l.stale;
    s.after_kernel += l.after_kernel;
    s.gave_up += l.gave_up;
    if (s.message.empty() && !l.message.empty())
        s.message = "launch " + std::to_string(s.launches) + ": " + l.message;
    if (first || first_stale) {
        s.records.name = job.seen_name;
        s.records.bytes.resize(l.records.size() * 4);
        if (!l.records.empty()) std::memcpy(s.records.bytes.data(), l.records.data(), s.records.bytes.size());
    }
}

namespace {

std::string percent(uint64_t part, uint64_t whole) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f%%", whole ? 100.0 * double(part) / double(whole) : 0.0);
    return buf;
}

} // namespace

std::string gpu_note(const HostReaderJob& job, const HostReaderSummary& s) {
    std::string note = "CPU reader (host-mapped " + job.flags_name + " and " + job.data_name + ", " +
                       std::to_string(s.launches) + (s.launches == 1 ? " launch" : " launches") +
                       "): " + std::to_string(s.seen) + " of " + std::to_string(s.pairs) + " flags seen, " +
                       std::to_string(s.stale) + " with stale data (" + percent(s.stale, s.seen) + "; " +
                       scenario::to_string(job.stale) + " for this variant)";
    if (s.after_kernel) note += ", " + std::to_string(s.after_kernel) + " seen only after the kernel ended";
    if (s.gave_up) note += ", " + std::to_string(s.gave_up) + " never seen (" + s.message + ")";
    return note;
}

std::string simulator_note(const HostReaderJob& job) {
    return "not modelled: on the GPU backend a CPU thread reads " + job.flags_name + " and " + job.data_name +
           " in host-mapped memory while the kernel runs (" + std::to_string(job.pairs) +
           " pairs, records as " + job.seen_name +
           "); the simulator runs no CPU thread, so the kernel's GPU reader stands in for it here (run with "
           "--backend gpu to see what the CPU sees)";
}

std::vector<std::string> check_host_reader(const HostReaderJob& job, const HostReaderSummary& s) {
    std::vector<std::string> problems;
    if (s.launches == 0) {
        problems.push_back("the CPU reader did not run (no launch reported what it saw)");
        return problems;
    }
    if (s.gave_up)
        problems.push_back("the CPU never saw " + std::to_string(s.gave_up) + " flags: " + s.message);
    if (job.stale == scenario::CpuStale::Never && s.stale)
        problems.push_back("the CPU read stale data in " + std::to_string(s.stale) + " of " +
                           std::to_string(s.seen) + " pairs, which this variant's fences forbid (" +
                           job.because + ")");
    return problems;
}

} // namespace synclab::runner
