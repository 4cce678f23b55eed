#include "ui/model/outcome_rows.h"

#include "ui/core/run_controller.h"

#include <algorithm>

namespace synclab::ui {

OutcomeSubject outcome_subject(const scenario::Scenario& s) {
    OutcomeSubject out;
    auto type_of = [&](const std::string& name) {
        for (const scenario::BufferDecl& b : s.buffers)
            if (b.name == name) return b.spec.type;
        return launch::ElemType::U32;
    };
    if (s.outcomes.present()) {
        out.request.buffer = s.outcomes.buffer;
        out.request.per = s.outcomes.per;
        out.request.type = type_of(s.outcomes.buffer);
        out.lesson_named = true;
        return out;
    }
    // A lesson without named outcomes still has something to count: its first output's first
    // element (stencil's g_out[0] comes out right or wrong depending on the schedule).
    for (const scenario::BufferDecl& b : s.buffers)
        if (b.output) {
            out.request.buffer = b.name;
            out.request.type = b.spec.type;
            out.request.per = 1;
            out.request.limit = 1;
            return out;
        }
    return out;
}

std::vector<OutcomeRow> outcome_rows(const scenario::Scenario* scenario, const scenario::Variant* variant,
                                     const runner::Histogram* sim, const runner::Histogram* gpu,
                                     Language language) {
    std::vector<OutcomeRow> rows;
    auto row = [&rows](const std::string& outcome) -> OutcomeRow& {
        for (OutcomeRow& r : rows)
            if (r.outcome == outcome) return r;
        rows.push_back(OutcomeRow{});
        rows.back().outcome = outcome;
        return rows.back();
    };
    if (scenario)
        for (const scenario::OutcomeClass& c : scenario->outcomes.classes) {
            // (no English in a Chinese view: a class without a Chinese label shows none)
            row(c.value).meaning = language == Language::Zh ? c.label_zh : c.label_en;
        }
    if (variant)
        for (const std::string& f : variant->forbidden_outcomes)
            row(f);
    for (const runner::Histogram* h : {sim, gpu})
        if (h)
            for (const runner::OutcomeCount& c : h->outcomes)
                row(c.outcome);
    auto find = [](const runner::Histogram* h, const std::string& outcome) -> const runner::OutcomeCount* {
        if (!h) return nullptr;
        for (const runner::OutcomeCount& c : h->outcomes)
            if (c.outcome == outcome) return &c;
        return nullptr;
    };
    for (OutcomeRow& r : rows) {
        if (const runner::OutcomeCount* c = find(sim, r.outcome)) {
            r.sim_count = c->count;
            r.sim_share = sim->records ? double(c->count) / double(sim->records) : 0.0;
            r.sim_run = c;
            r.verdict.weak = r.verdict.weak || c->wrong > 0;
        }
        if (const runner::OutcomeCount* c = find(gpu, r.outcome)) {
            r.gpu_count = c->count;
            r.gpu_share = gpu->records ? double(c->count) / double(gpu->records) : 0.0;
            r.verdict.weak = r.verdict.weak || c->wrong > 0;
        }
        const bool forbidden = variant != nullptr && std::find(variant->forbidden_outcomes.begin(),
                                                               variant->forbidden_outcomes.end(),
                                                               r.outcome) != variant->forbidden_outcomes.end();
        r.verdict.verdict = forbidden ? runner::ModelVerdict::Forbidden : runner::ModelVerdict::Allowed;
        r.verdict.seen = r.sim_count > 0 || r.gpu_count > 0;
    }
    return rows;
}

runner::RunOptions outcome_run_options(const Controls& controls, const OutcomeSubject& subject, uint32_t runs,
                                       bool gpu) {
    Controls c = controls;
    c.backend = gpu ? "gpu" : "sim";
    c.reps = std::max<uint32_t>(runs, 1);
    c.replay.reset();
    if (gpu) {
        // The hardware's own outcome: untraced launches only (tracing perturbs the timing that makes
        // weak outcomes show), with the hardware's scheduling and memory.
        c.gpu_traced = false;
        c.gpu_live = false;
        c.memory.reset();
        if (c.schedule == sim::Schedule::Exhaustive) c.schedule = sim::Schedule::Random;
    }
    runner::RunOptions o = run_options(c);
    o.histogram = subject.request;
    return o;
}

} // namespace synclab::ui
