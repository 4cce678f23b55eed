#include "cli/report.h"

#include "analysis/finding_kinds.h"
#include "ptx/kernel_names.h"
#include "runner/outcome.h"
#include "trace/naming.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace synclab::cli {

namespace {

// One CUDA line of a finding in the JSON: {"line": 20, "file": "reduce.cu", "function":
// "warpReduce<64u>", "called_from": [{"line": 29, "file": "reduce.cu", "function": "reduce6<64u>"}]}:
// the file and function the line is in, and the inlined calls that lead there, innermost first
// (each in the function of the next one; the last in the kernel). Not inlined: the kernel's
// function and "called_from": [].
nlohmann::json line_detail_json(uint32_t line, const trace::LineOrigin& origin, const trace::Trace& trace) {
    const std::string kernel =
        trace.meta.kernel.empty() ? std::string() : trace::kernel_name(trace.meta.kernel);
    auto file = [&](const std::string& f) { return f.empty() ? trace.meta.source_name : f; };
    nlohmann::json calls = nlohmann::json::array();
    for (size_t i = 0; i < origin.inlined.size(); ++i) {
        const trace::InlinedCall& call = origin.inlined[i];
        const std::string caller = i + 1 < origin.inlined.size() ? origin.inlined[i + 1].function : kernel;
        calls.push_back({{"line", call.line}, {"file", file(call.file)}, {"function", caller}});
    }
    return {{"line", line},
            {"file", file(origin.file)},
            {"function", origin.inlined.empty() ? kernel : origin.inlined.front().function},
            {"called_from", calls}};
}

} // namespace

nlohmann::json finding_json(const analysis::Finding& f, const trace::Trace& trace) {
    nlohmann::json threads = nlohmann::json::array();
    for (uint32_t t : f.threads) {
        nlohmann::json j = {{"index", t}};
        if (t < trace.threads.size()) {
            j["block"] = trace.threads[t].block;
            j["thread"] = trace.threads[t].thread_in_block;
        }
        threads.push_back(j);
    }
    nlohmann::json j = {{"kind", analysis::to_string(f.kind)},
                        {"check", f.check},
                        {"hazard", analysis::to_string(f.hazard)},
                        {"space", trace::to_string(f.space)},
                        {"lines", f.lines},
                        {"ptx_lines", f.ptx_lines},
                        {"line_details", nlohmann::json::array()},
                        {"threads", threads},
                        {"count", f.count},
                        {"harmful", f.harmful},
                        {"runs", f.runs},
                        {"message", f.message}};
    // Parallel to "lines": each line's file, function and the inlined calls that lead to it.
    for (size_t i = 0; i < f.lines.size(); ++i)
        j["line_details"].push_back(line_detail_json(f.lines[i], analysis::origin_of(f, i), trace));
    if (f.kind == analysis::FindingKind::LostUpdate) j["lost"] = f.lost;
    // The example address, always as a number, and as the source names it where a variable or
    // buffer holds it ("memory": "s_tile[159]", "region": "s_tile"; else the address in words and
    // no region).
    if (!f.memory.empty()) {
        j["address"] = f.address;
        j["memory"] = f.memory;
        j["region"] = f.region.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.region);
    }
    return j;
}

nlohmann::json coverage_json(const analysis::Coverage& c) {
    return {{"blocks", c.blocks},           {"analysed", c.analysed},
            {"partial", c.partial},         {"not_recorded", c.not_recorded},
            {"not_started", c.not_started}, {"summary", c.summary}};
}

namespace {

// "lines 12, 15" / "line 12, PTX line 40" / "PTX lines 40, 41"; lines inlined from a helper with
// the calls that lead there: "lines 19, 16 in `warpReduce<64u>`, called from line 39" when they all
// share them, else each line on its own ("line 19 in `f`, called from line 39, line 32").
std::string lines_text(const analysis::Finding& f) {
    auto list = [](const char* noun, const std::vector<uint32_t>& lines) {
        std::string out = std::string(noun) + (lines.size() == 1 ? " " : "s ");
        for (size_t i = 0; i < lines.size(); ++i)
            out += (i ? ", " : "") + std::to_string(lines[i]);
        return out;
    };
    std::string out;
    bool one_origin = true;
    for (size_t i = 1; i < f.lines.size(); ++i)
        one_origin = one_origin && analysis::origin_of(f, i) == analysis::origin_of(f, 0);
    if (!f.lines.empty() && one_origin) {
        trace::Site first;
        first.source_line = f.lines.front();
        first.origin = analysis::origin_of(f, 0);
        out = list("line", f.lines);
        if (!first.origin.file.empty()) out += " of " + trace::file_base_name(first.origin.file);
        out += trace::inlined_text(first);
    } else {
        for (size_t i = 0; i < f.lines.size(); ++i) {
            trace::Site site;
            site.source_line = f.lines[i];
            site.origin = analysis::origin_of(f, i);
            out += (i ? ", " : "") + trace::site_line_text(site);
        }
    }
    if (!f.ptx_lines.empty()) out += (out.empty() ? "" : ", ") + list("PTX line", f.ptx_lines);
    return out.empty() ? "no line" : out;
}

nlohmann::json gpu_side_json(const runner::GpuSide& g) {
    if (!g.ran) return nullptr;
    nlohmann::json j = {{"status", trace::to_string(g.status)},
                        {"message", g.message},
                        {"reps", g.reps},
                        {"wrong_outputs", g.wrong_outputs},
                        {"checked_outputs", g.checked_outputs},
                        {"reps_with_wrong_outputs", g.reps_with_wrong_outputs},
                        {"check_summary", g.check_summary},
                        {"kernel_ms", g.kernel_ms},
                        {"kernel_ms_min", g.kernel_ms_min},
                        {"kernel_ms_max", g.kernel_ms_max}};
    if (!g.trace_buffer.empty()) {
        j["events"] = g.events;
        j["dropped_events"] = g.dropped_events;
        j["partial_trace"] = g.partial_trace;
        j["trace_buffer"] = g.trace_buffer;
        j["streamed_events"] = g.streamed_events;
        j["launch_and_transfer_ms"] = g.launch_and_transfer_ms;
        j["worker_ms"] = g.worker_ms;
        j["take_ms"] = g.take_ms;
        j["worker_phases_ms"] = {{"module", g.worker_phases.module_ms},
                                 {"setup", g.worker_phases.setup_ms},
                                 {"launches", g.worker_phases.launch_ms},
                                 {"readback", g.worker_phases.readback_ms}};
        j["analysis_ms"] = g.analysis_ms;
    }
    return j;
}

// "75.0%"
std::string percent(uint64_t count, uint64_t total) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", total ? 100.0 * double(count) / double(total) : 0.0);
    return buf;
}

// What the histogram counted, in words: "arg2 (records of 2 u32)".
std::string histogram_subject(const runner::Histogram& h) {
    const runner::HistogramRequest& q = h.request;
    std::string out = q.buffer + " (";
    if (q.per > 0)
        out += "records of " + std::to_string(q.per) + " " + launch::to_string(q.type);
    else
        out += "the whole buffer, " + std::string(launch::to_string(q.type));
    if (q.limit > 0) out += ", the first " + std::to_string(q.limit);
    return out + ")";
}

} // namespace

nlohmann::json histogram_json(const runner::RunSummary& s) {
    if (!s.histogram) return nullptr;
    nlohmann::json counts = nlohmann::json::object();
    for (const runner::OutcomeCount& c : s.histogram->outcomes)
        counts[c.outcome] = c.count;
    return counts;
}

nlohmann::json histogram_details_json(const runner::RunSummary& s) {
    if (!s.histogram) return nullptr;
    const runner::Histogram& h = *s.histogram;
    nlohmann::json outcomes = nlohmann::json::array();
    for (const runner::OutcomeCount& c : h.outcomes) {
        nlohmann::json o = {{"outcome", c.outcome},
                            {"count", c.count},
                            {"percent", h.records ? 100.0 * double(c.count) / double(h.records) : 0.0}};
        // One run that produced it: its seed, or the choices that replay that execution.
        if (s.exploration.ran)
            o["choices"] = c.choices;
        else
            o["seed"] = c.seed;
        outcomes.push_back(o);
    }
    return {{"buffer", h.request.buffer},
            {"type", launch::to_string(h.request.type)},
            {"per", h.request.per},
            {"limit", h.request.limit},
            {"records", h.records},
            {"runs", h.runs},
            {"every_execution", s.exploration.ran && s.exploration.complete},
            {"outcomes", outcomes}};
}

void print_histogram_text(std::ostream& out, const runner::RunSummary& s) {
    if (!s.histogram) return;
    const runner::Histogram& h = *s.histogram;
    out << "histogram of " << histogram_subject(h) << ": ";
    if (s.exploration.ran && s.exploration.complete)
        out << "the outcomes allowed by the model (every execution: " << s.exploration.executions << ")\n";
    else if (s.exploration.ran)
        out << "the outcomes of the first " << s.exploration.executions
            << " executions only (the bound; --max-executions N for more)\n";
    else
        out << h.runs << (h.runs == 1 ? " run, " : " runs, ") << h.records
            << (h.records == 1 ? " record\n" : " records\n");
    if (h.outcomes.empty()) {
        out << "  (no run finished: nothing counted)\n";
        return;
    }
    size_t width = 7; // "outcome"
    for (const runner::OutcomeCount& c : h.outcomes)
        width = std::max(width, c.outcome.size());
    out << "  " << std::left << std::setw(int(width) + 2) << "outcome" << std::right << std::setw(10) << "count"
        << std::setw(9) << "percent"
        << "  " << (s.exploration.ran ? "one execution (choices)" : "one run (seed)") << "\n";
    for (const runner::OutcomeCount& c : h.outcomes) {
        out << "  " << std::left << std::setw(int(width) + 2) << c.outcome << std::right << std::setw(10)
            << c.count << std::setw(9) << percent(c.count, h.records) << "  ";
        if (s.exploration.ran) {
            std::string choices;
            for (uint32_t k : c.choices)
                choices += (choices.empty() ? "" : ",") + std::to_string(k);
            out << (choices.empty() ? "-" : choices);
        } else {
            out << c.seed;
        }
        out << "\n";
    }
    out << std::left;
}

// The residency table (simulator runs; null elsewhere): per block its SM, the logical ticks at which
// it became resident and retired (null: never resident / still resident at the end), and whether
// it had to wait for a slot.
nlohmann::json residency_json(const trace::Trace& t) {
    if (t.residency.empty()) return nullptr;
    nlohmann::json blocks = nlohmann::json::array();
    uint64_t never = 0;
    for (size_t b = 0; b < t.residency.size(); ++b) {
        const trace::BlockResidency& r = t.residency[b];
        const bool resident = r.admitted != trace::BlockResidency::kNever;
        never += resident ? 0 : 1;
        blocks.push_back({{"block", b},
                          {"sm", resident ? nlohmann::json(r.sm) : nlohmann::json(nullptr)},
                          {"admitted", resident ? nlohmann::json(r.admitted) : nlohmann::json(nullptr)},
                          {"retired", r.retired != trace::BlockResidency::kNever ? nlohmann::json(r.retired)
                                                                                 : nlohmann::json(nullptr)},
                          {"waited_for_slot", r.waited != 0}});
    }
    return {{"never_resident", never}, {"blocks", blocks}};
}

nlohmann::json summary_json(const runner::RunSummary& s, const runner::RunOptions& options) {
    const trace::RunMeta& m = s.trace.meta;
    const bool gpu = options.backend == "gpu";
    nlohmann::json findings = nlohmann::json::array();
    for (const analysis::Finding& f : s.findings)
        findings.push_back(finding_json(f, s.trace));
    nlohmann::json j = {
        {"scenario", m.scenario},
        {"variant", m.variant},
        {"kernel", m.kernel},
        {"kernel_name", ptx::demangle(m.kernel)},
        {"backend", options.backend},
        {"device", s.device},
        {"schedule", gpu ? std::string("hardware") : std::string(sim::to_string(options.schedule))},
        {"seed", options.seed},
        {"memory_model",
         gpu ? (m.memory_model.empty() ? "sc" : m.memory_model) : std::string(launch::to_string(s.memory))},
        {"warp_model", gpu ? std::string("hardware") : std::string(sim::to_string(options.limits.warp_model))},
        // Whether the schedule may run some lanes of a warp ahead of others (its under random or
        // adversarial only; rr and exhaustive keep a warp's lanes together).
        {"warp_splits", !gpu && options.limits.warp_model == sim::WarpModel::Its &&
                            (options.schedule == sim::Schedule::Random || options.schedule == sim::Schedule::Adversarial)},
        {"reps", s.reps_run},
        {"status", trace::to_string(s.status)},
        {"outcome", runner::to_string(runner::run_outcome(s))},
        {"message", s.message},
        {"wrong_outputs", s.wrong_outputs},
        {"checked_outputs", s.checked_outputs},
        {"reps_with_wrong_outputs", s.reps_with_wrong_outputs},
        {"check_summary", s.check_summary},
        {"findings", findings},
        {"notes", s.notes},
        {"coverage", coverage_json(analysis::coverage(s.trace))},
        {"events", s.events},
        {"dropped_events", s.dropped_events},
        {"analysed_and_dropped", s.analysed_and_dropped},
        {"traced", s.traced},
        {"kernel_ms", gpu ? nlohmann::json(s.kernel_ms) : nlohmann::json(nullptr)},
        // The simulator's modelled duration in SM cycles (cost model); null on the GPU, which has
        // kernel_ms, and where the run was not modelled.
        {"modelled_cycles",
         !gpu && s.modelled_cycles > 0 ? nlohmann::json(s.modelled_cycles) : nlohmann::json(nullptr)},
        {"thread_instructions", s.thread_instructions},
        {"warp_instructions", s.warp_instructions},
        {"elapsed_ms", s.elapsed_ms},
        {"residency", residency_json(s.trace)}};
    if (s.histogram) {
        j["histogram"] = histogram_json(s);
        j["histogram_details"] = histogram_details_json(s);
    }
    if (s.exploration.ran)
        j["exploration"] = {{"complete", s.exploration.complete},
                            {"executions", s.exploration.executions},
                            {"bound", s.exploration.bound}};
    // Always both sides: the untraced launches (the hardware's outcome) beside the traced one.
    if (gpu)
        j["gpu"] = {{"untraced", gpu_side_json(s.gpu_untraced)}, {"traced", gpu_side_json(s.gpu_traced)}};
    return j;
}

void print_summary_text(std::ostream& out, const runner::RunSummary& s, const runner::RunOptions& options) {
    const trace::RunMeta& m = s.trace.meta;
    const std::string name = m.scenario.empty() ? ptx::demangle(m.kernel) : m.scenario + "/" + m.variant;
    if (options.backend == "gpu") {
        out << name << "  backend gpu (" << s.device << ")  seed " << options.seed << "  reps " << s.reps_run
            << "\n";
        // Both sides: tracing perturbs timing, so the untraced outcome is the hardware's own.
        const runner::GpuSide& u = s.gpu_untraced;
        const runner::GpuSide& t = s.gpu_traced;
        char buf[256];
        if (u.ran) {
            std::snprintf(buf, sizeof buf, "%.4f ms median (%.4f-%.4f)", u.kernel_ms, u.kernel_ms_min,
                          u.kernel_ms_max);
            out << "untraced: " << trace::to_string(u.status) << ", " << u.reps
                << (u.reps == 1 ? " launch" : " launches");
            if (u.kernel_ms > 0) out << ", kernel " << buf;
            if (u.checked_outputs)
                out << ", " << u.wrong_outputs << " wrong of " << u.checked_outputs << " outputs ("
                    << u.reps_with_wrong_outputs << " of " << u.reps << " launches wrong)";
            out << "\n";
        }
        if (t.ran) {
            std::snprintf(buf, sizeof buf, "%.4f ms", t.kernel_ms);
            out << "traced:   " << trace::to_string(t.status) << ", " << t.events << " events ("
                << t.dropped_events << " dropped, " << t.trace_buffer << " buffer"
                << (t.partial_trace ? ", partial" : "") << ")";
            if (t.kernel_ms > 0) out << ", kernel " << buf;
            if (t.checked_outputs)
                out << ", " << t.wrong_outputs << " wrong of " << t.checked_outputs << " outputs";
            out << "\n";
            // Where a check's time went: the launches with the events' way here, then the analyses.
            // (The worker waits while the runner takes a batch: take_ms is inside worker_ms. A worker
            // that was killed reports no time of its own.)
            std::snprintf(buf, sizeof buf, "%.0f ms", t.launch_and_transfer_ms);
            out << "          launches and events " << buf;
            if (t.worker_ms > 0) {
                const gpu::WorkerPhases& p = t.worker_phases;
                std::snprintf(buf, sizeof buf,
                              " (in the worker %.0f ms: loading the module %.0f, set-up %.0f, launches %.0f, "
                              "reading back %.0f",
                              t.worker_ms, p.module_ms, p.setup_ms, p.launch_ms, p.readback_ms);
                out << buf;
                if (t.streamed_events) {
                    std::snprintf(buf, sizeof buf, ", of which taking the blocks' events here %.0f ms",
                                  t.take_ms);
                    out << buf;
                }
                out << ")";
            }
            std::snprintf(buf, sizeof buf, ", then analyses %.0f ms", t.analysis_ms);
            out << buf << (t.streamed_events ? " (the blocks' events analysed as they arrived)" : "") << "\n";
        }
    } else {
        out << name << "  backend " << options.backend << "  schedule " << sim::to_string(options.schedule)
            << "  memory " << launch::to_string(s.memory) << "  seed " << options.seed;
        if (s.exploration.ran)
            out << "  executions " << s.exploration.executions << " (bound " << s.exploration.bound << ")\n";
        else
            out << "  reps " << s.reps_run << "\n";
    }
    out << "status:   " << trace::to_string(s.status);
    if (!s.message.empty()) out << " - " << s.message;
    out << "\n";
    // The run's own outcome in the words the app and `synclab table` use (runner/outcome.h).
    out << "outcome:  " << runner::to_string(runner::run_outcome(s)) << "\n";
    if (s.checked_outputs) {
        out << "outputs:  " << s.wrong_outputs << " wrong of " << s.checked_outputs << " checked";
        if (s.reps_run > 1)
            out << " (" << s.reps_with_wrong_outputs << " of " << s.reps_run << " reps had wrong outputs)";
        if (!s.check_summary.empty()) out << "; " << s.check_summary;
        out << "\n";
    }
    if (s.findings.empty())
        out << "findings: none\n";
    else {
        out << "findings: " << s.findings.size() << "\n";
        for (const analysis::Finding& f : s.findings) {
            out << "  " << analysis::to_string(f.kind);
            if (f.hazard != analysis::Hazard::None) out << " " << analysis::to_string(f.hazard);
            out << " (" << trace::to_string(f.space) << ", " << lines_text(f) << ", x"
                << analysis::with_thousands(f.count) << ", harmful " << analysis::with_thousands(f.harmful)
                << "): " << f.message << "\n";
        }
    }
    for (const std::string& note : s.notes)
        out << "note:     " << note << "\n";
    print_histogram_text(out, s);
    // The findings rest on the blocks recorded whole only: say so where that is not all of them.
    const analysis::Coverage coverage = analysis::coverage(s.trace);
    if (!coverage.complete()) out << "coverage: " << coverage.summary << "\n";
    if (options.backend != "gpu" && s.modelled_cycles > 0)
        out << "modelled: " << analysis::with_thousands(s.modelled_cycles)
            << " cycles (the cost model's duration of the kept run: it ranks variants, it is not a GPU's "
               "time)\n";
    out << "events:   " << s.events << "  thread-instructions " << s.thread_instructions << "  time "
        << std::fixed << std::setprecision(1) << s.elapsed_ms << " ms\n";
    if (s.analysed_and_dropped > 0)
        out << "          (" << analysis::with_thousands(s.analysed_and_dropped)
            << " plain shared-memory accesses were analysed as their blocks finished, then dropped; "
               "--out FILE keeps every event)\n";
    out.unsetf(std::ios::fixed);
}

void print_findings_report(std::ostream& out, const trace::Trace& trace,
                           const std::vector<analysis::Finding>& findings) {
    const trace::RunMeta& m = trace.meta;
    const std::string file = m.source_name.empty() ? std::string("line ") : m.source_name + ":";
    const std::string kernel = m.kernel.empty() ? std::string() : trace::kernel_name(m.kernel);
    out << "========= SYNCLAB REPORT\n";
    out << "========= Kernel " << (m.kernel.empty() ? "?" : ptx::demangle(m.kernel));
    if (!m.scenario.empty()) out << " (" << m.scenario << "/" << m.variant << ")";
    out << ", backend " << m.backend << ", schedule " << m.schedule << ", seed " << m.seed << "\n";
    out << "========= Grid (" << m.grid.x << "," << m.grid.y << "," << m.grid.z << ") block (" << m.block.x
        << "," << m.block.y << "," << m.block.z << "), " << trace.threads.size() << " threads, "
        << trace.events.size() << " events, status " << trace::to_string(m.status) << "\n";
    if (!m.status_message.empty()) out << "=========     " << m.status_message << "\n";
    if (m.checked_outputs)
        out << "========= Outputs: " << m.wrong_outputs << " wrong of " << m.checked_outputs << "\n";
    size_t errors = 0;
    for (const analysis::Finding& f : findings) {
        ++errors;
        out << "========= Error: " << analysis::report_title(f);
        if (!f.memory.empty()) out << " at " << f.memory;
        out << " (" << analysis::with_thousands(f.count) << (f.count == 1 ? " occurrence" : " occurrences")
            << ", " << analysis::with_thousands(f.harmful) << " harmful)\n";
        // One line per site: its CUDA line where it has one, else its PTX line; a line inlined from a
        // helper names its function, and the calls that lead there follow, one line each, as
        // compute-sanitizer lists device frames.
        for (size_t i = 0; i < f.sites.size(); ++i) {
            const uint32_t site = f.sites[i];
            out << "=========     at ";
            const trace::Site* s = site < trace.sites.size() ? &trace.sites[site] : nullptr;
            const auto& calls = s != nullptr ? s->origin.inlined : std::vector<trace::InlinedCall>();
            auto place = [&](const std::string& in_file, uint32_t line) {
                return in_file.empty() ? file + std::to_string(line)
                                       : trace::file_base_name(in_file) + ":" + std::to_string(line);
            };
            if (s != nullptr && s->source_line != 0) {
                out << place(s->origin.file, s->source_line);
                if (!calls.empty() && !calls.front().function.empty())
                    out << " in " << calls.front().function;
            } else if (s != nullptr) {
                out << "PTX line " << s->ptx_line;
            } else {
                out << "an unknown line";
            }
            if (s != nullptr) out << "  [" << s->text << "]";
            if (i < f.threads.size()) out << " by " << trace::thread_name(trace, f.threads[i]);
            out << "\n";
            if (s == nullptr || s->source_line == 0) continue;
            for (size_t c = 0; c < calls.size(); ++c) {
                const std::string caller = c + 1 < calls.size() ? calls[c + 1].function : kernel;
                out << "=========         called from " << place(calls[c].file, calls[c].line);
                if (!caller.empty()) out << " in " << caller;
                out << "\n";
            }
        }
        out << "=========     " << f.message << "\n";
    }
    const analysis::Coverage coverage = analysis::coverage(trace);
    if (!coverage.complete()) out << "========= Coverage: " << coverage.summary << "\n";
    out << "========= SUMMARY: " << errors << (errors == 1 ? " error" : " errors") << "\n";
}

} // namespace synclab::cli
