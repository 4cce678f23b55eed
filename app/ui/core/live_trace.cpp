#include "ui/core/live_trace.h"

#include "gpu/gpu_run.h"
#include "ui/core/run_controller.h"

#include <algorithm>

namespace synclab::ui {

LiveTrace::LiveTrace(RunRecord skeleton, Clock::duration interval, size_t max_events)
    : skeleton_(std::move(skeleton)), interval_(interval), max_events_(max_events) {
    const trace::RunMeta& m = skeleton_.summary.trace.meta;
    thread_count_ = m.grid.count() * m.block.count();
    skeleton_.summary.trace.events.clear();
    skeleton_.summary.trace.threads.clear();
}

LiveTrace::Clock::duration LiveTrace::due_interval() const {
    // Copying and re-indexing a large trace ten times a second would starve both threads.
    return interval_ + std::chrono::milliseconds(50) * int64_t(events_.size() / 1'000'000);
}

std::shared_ptr<const RunRecord> LiveTrace::add(const std::vector<trace::Event>& events, uint64_t seen,
                                                double elapsed_ms, Clock::time_point now) {
    for (const trace::Event& e : events) {
        if (events_.size() >= max_events_) break;
        // A torn or foreign slot must not index past the thread table the views build.
        if (e.thread < thread_count_ && e.site < skeleton_.summary.trace.sites.size()) events_.push_back(e);
    }
    seen_ = std::max(seen_, seen);
    elapsed_ms_ = std::max(elapsed_ms_, elapsed_ms);
    if (events_.size() == events_at_last_publish_) return nullptr;
    if (published_ > 0 && now - last_publish_ < due_interval()) return nullptr;
    last_publish_ = now;
    ++published_;
    events_at_last_publish_ = events_.size();
    return snapshot();
}

std::shared_ptr<const RunRecord> LiveTrace::snapshot() const {
    auto record = std::make_shared<RunRecord>(skeleton_);
    runner::RunSummary& s = record->summary;
    trace::Trace& t = s.trace;
    t.events = events_;
    t.threads = gpu::thread_table(t.meta.grid, t.meta.block, t.events, {}, false);
    // Still running: a thread whose last event is a barrier arrival is not stuck (yet), and the
    // timeline must not draw it as the end of a deadlock.
    for (trace::ThreadInfo& th : t.threads)
        if (th.end == trace::ThreadEnd::AtBarrier) th.end = trace::ThreadEnd::Running;
    s.events = t.events.size();
    s.elapsed_ms = elapsed_ms_;
    s.traced = true;
    record->provisional = true;
    record->live_events_seen = seen_;
    record->live_elapsed_ms = elapsed_ms_;
    record->serial = next_record_serial();
    return record;
}

RunRecord live_skeleton(const scenario::Scenario& scenario, const scenario::Variant& variant,
                        const Controls& controls) {
    RunRecord r;
    r.scenario_id = scenario.id;
    r.variant_id = variant.id;
    r.label = run_label(scenario, variant, controls);
    r.options.backend = "gpu";
    r.options.seed = controls.seed;
    r.options.reps = controls.reps;
    trace::Trace& t = r.summary.trace;
    trace::RunMeta& m = t.meta;
    m.scenario = scenario.id;
    m.variant = variant.id;
    m.kernel = variant.kernel;
    m.backend = "gpu";
    m.schedule = "hardware";
    m.memory_model = "hardware";
    m.grid = variant.launch.grid;
    m.block = variant.launch.block;
    m.dynamic_shared_bytes = variant.launch.dynamic_shared_bytes;
    m.seed = controls.seed;
    m.source_name = scenario.source_file;
    m.source_text = std::string(scenario.cuda_source());
    m.ptx_text = std::string(scenario.ptx_source());
    // The same sites as the final trace (gpu_run.cpp): the uninstrumented kernel's instructions.
    const ptx::Module& module = runner::scenario_module(scenario);
    if (const ptx::Function* fn = module.find_entry(variant.kernel)) t.sites = ptx::site_table(*fn, &module);
    r.summary.device = "GPU";
    return r;
}

} // namespace synclab::ui
