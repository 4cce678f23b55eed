#include "ui/model/source_lines.h"

#include "analysis/finding_kinds.h"

#include "ui/model/outcome_words.h"
#include "ui/model/lesson_library.h"
#include "ui/model/theme.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace synclab::ui {

namespace {

void sort_unique(std::vector<uint32_t>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

bool zh(Language language) {
    return language == Language::Zh;
}

} // namespace

// [SECTION] Text: lines, tabs, kernels -----------------------------------------------------------

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    size_t start = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\n' && text[i] != '\r') continue;
        lines.push_back(text.substr(start, i - start));
        if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
        start = i + 1;
    }
    if (start < text.size()) lines.push_back(text.substr(start));
    return lines;
}

std::string expand_tabs(std::string_view line, uint32_t tab_width) {
    if (tab_width == 0) tab_width = 1;
    std::string out;
    out.reserve(line.size());
    for (char c : line) {
        if (c != '\t') {
            out.push_back(c);
            continue;
        }
        // Columns count bytes: fine for PTX and kernel code, which are ASCII where it matters.
        do
            out.push_back(' ');
        while (out.size() % tab_width != 0);
    }
    return out;
}

uint32_t find_line(const std::vector<std::string_view>& lines, std::string_view needle) {
    if (needle.empty()) return 0;
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].find(needle) != std::string_view::npos) return static_cast<uint32_t>(i + 1);
    return 0;
}

uint32_t kernel_line(const std::vector<std::string_view>& lines, std::string_view kernel) {
    if (kernel.empty()) return 0;
    return find_line(lines, std::string(kernel) + "(");
}

uint32_t leading_comment_start(const std::vector<std::string_view>& lines, uint32_t line) {
    auto is_comment = [&](uint32_t l) {
        std::string_view text = lines[l - 1];
        const size_t first = text.find_first_not_of(" \t");
        return first != std::string_view::npos && text.substr(first, 2) == "//";
    };
    if (line == 0 || line > lines.size()) return line;
    while (line > 1 && is_comment(line - 1))
        --line;
    return line;
}

uint32_t decimal_digits(uint32_t n) {
    uint32_t d = 1;
    while (n >= 10) {
        n /= 10;
        ++d;
    }
    return d;
}

// [SECTION] Which source to show -----------------------------------------------------------------

SourceChoice choose_source(const RunRecord* record, const scenario::Scenario* selected) {
    SourceChoice c;
    const bool record_fits = record != nullptr && (selected == nullptr || record->scenario_id.empty() ||
                                                   record->scenario_id == selected->id);
    if (record_fits) {
        const trace::RunMeta& meta = record->summary.trace.meta;
        c.cuda = meta.source_text;
        c.ptx = meta.ptx_text;
        c.name = meta.source_name;
        // A record of a catalog scenario whose trace carries no text ran the embedded files; a user's
        // kernel (no scenario id) has no such files, and must not borrow the selected scenario's.
        const scenario::Scenario* own = nullptr;
        if (!record->scenario_id.empty())
            own = selected != nullptr ? selected : lessons().find(record->scenario_id);
        if (own != nullptr) {
            if (c.cuda.empty()) c.cuda = own->cuda_source();
            if (c.ptx.empty()) c.ptx = own->ptx_source();
            if (c.name.empty()) c.name = own->source_file;
        }
        c.run_applies = true;
        return c;
    }
    if (selected != nullptr) {
        c.cuda = selected->cuda_source();
        c.ptx = selected->ptx_source();
        c.name = selected->source_file;
    }
    return c;
}

// [SECTION] Line highlights (source view) ----------------------------------------------------------


uint32_t text_colour_on(uint32_t background) {
    return theme::ink_on(background); // by WCAG contrast: black on the race pink too (5.4:1, white 3.9:1)
}

uint32_t ptx_line_of_site(const trace::Trace& trace, uint32_t site) {
    return site < trace.sites.size() ? trace.sites[site].ptx_line : 0;
}

std::vector<uint32_t> finding_cuda_lines(const analysis::Finding& finding) {
    std::vector<uint32_t> lines = analysis::kernel_file_lines(finding);
    lines.erase(std::remove(lines.begin(), lines.end(), 0u), lines.end());
    sort_unique(lines);
    return lines;
}

std::vector<uint32_t> finding_ptx_lines(const trace::Trace& trace, const analysis::Finding& finding) {
    std::vector<uint32_t> lines;
    for (uint32_t site : finding.sites)
        if (uint32_t line = ptx_line_of_site(trace, site); line != 0) lines.push_back(line);
    sort_unique(lines);
    return lines;
}

bool LineMarks::is_selected(uint32_t line) const {
    return std::binary_search(selected.begin(), selected.end(), line);
}

uint32_t LineMarks::gutter_colour(uint32_t line, const std::vector<analysis::Finding>& findings) const {
    auto it = by_line.find(line);
    if (it == by_line.end() || it->second.empty()) return 0;
    const int first = it->second.front();
    return first >= 0 && size_t(first) < findings.size() ? theme::finding_mark(findings[size_t(first)].kind) : 0;
}

SourceMarks source_marks(const RunRecord* record, const Selection& selection, bool run_applies,
                         const Playhead* playhead, const ProvenanceMarks* provenance) {
    SourceMarks m;
    m.cuda.selected_colour = m.ptx.selected_colour = theme::kRaceArrow;
    if (record == nullptr || !run_applies) return m;
    const trace::Trace& trace = record->summary.trace;
    const std::vector<analysis::Finding>& findings = record->summary.findings;

    for (size_t i = 0; i < findings.size(); ++i) {
        for (uint32_t line : finding_cuda_lines(findings[i]))
            m.cuda.by_line[line].push_back(int(i));
        for (uint32_t line : finding_ptx_lines(trace, findings[i]))
            m.ptx.by_line[line].push_back(int(i));
    }

    const int sel = selection.selected_finding;
    if (sel >= 0 && size_t(sel) < findings.size()) {
        const analysis::Finding& f = findings[size_t(sel)];
        m.cuda.selected = finding_cuda_lines(f);
        m.ptx.selected = finding_ptx_lines(trace, f);
        m.cuda.selected_colour = m.ptx.selected_colour = theme::finding_mark(f.kind);
    } else {
        m.cuda.selected = selection.finding_lines;
        m.cuda.selected.erase(std::remove(m.cuda.selected.begin(), m.cuda.selected.end(), 0u),
                              m.cuda.selected.end());
        sort_unique(m.cuda.selected);
    }

    m.cuda.hovered = selection.hovered_line;
    if (playhead != nullptr && playhead->on(record->serial)) m.cuda.playhead = playhead->lines;
    if (selection.hovered_site != UINT32_MAX) m.ptx.hovered = ptx_line_of_site(trace, selection.hovered_site);
    if (provenance != nullptr && provenance->on(record->serial)) {
        m.cuda.provenance = provenance->lines;
        sort_unique(m.cuda.provenance);
        auto add_ptx = [&](uint32_t event) {
            if (event >= trace.events.size()) return;
            if (const uint32_t line = ptx_line_of_site(trace, trace.events[event].site); line != 0)
                m.ptx.provenance.push_back(line);
        };
        add_ptx(provenance->final_store);
        for (uint32_t e : provenance->stale_loads)
            add_ptx(e);
        for (uint32_t e : provenance->racing_stores)
            add_ptx(e);
        sort_unique(m.ptx.provenance);
    }
    return m;
}

// [SECTION] Findings as text (findings panel) ------------------------------------------------------

std::string thread_label(const trace::Trace& trace, uint32_t thread, Language language) {
    return trace::thread_name(trace, thread, trace::ThreadDetail::Block, language);
}

std::string thread_example(const trace::Trace& trace, const analysis::Finding& finding,
                           std::string_view arrow, Language language) {
    const std::vector<uint32_t>& ids = finding.threads;
    if (ids.empty()) return "";
    if (finding.kind == analysis::FindingKind::Deadlock || ids.size() == 1) {
        // Deadlocked threads wait side by side; nothing pairs them, so they are listed.
        constexpr size_t kShown = 2;
        std::string out;
        for (size_t i = 0; i < ids.size() && i < kShown; ++i) {
            if (i != 0) out += ", ";
            out += thread_label(trace, ids[i], language);
        }
        if (ids.size() > kShown)
            out += zh(language) ? "，另有 " + std::to_string(ids.size() - kShown) + " 个"
                                : " and " + std::to_string(ids.size() - kShown) + " more";
        return out;
    }
    std::string out = thread_label(trace, ids[0], language) + " " + std::string(arrow) + " " +
                      thread_label(trace, ids[1], language);
    if (ids.size() > 2)
        out += zh(language) ? "（另有 " + std::to_string(ids.size() - 2) + " 个）"
                            : " (+" + std::to_string(ids.size() - 2) + " more)";
    return out;
}

std::string site_origin_text(const trace::Site& site, Language language) {
    return trace::site_line_text(site, language);
}

std::string lines_text(const analysis::Finding& finding) {
    std::string out;
    for (size_t i = 0; i < finding.lines.size(); ++i) {
        out += (out.empty() ? "" : ", ") + std::to_string(finding.lines[i]);
        // A helper's line: the line of the kernel's file that calls it ("19 <- 39").
        const trace::LineOrigin& origin = analysis::origin_of(finding, i);
        if (!origin.file.empty()) out += " (" + trace::file_base_name(origin.file) + ")";
        if (!origin.inlined.empty()) out += " \u2190 " + std::to_string(origin.inlined.back().line);
    }
    for (uint32_t line : finding.ptx_lines)
        out += (out.empty() ? "PTX " : ", PTX ") + std::to_string(line);
    return out;
}

std::string space_text(const analysis::Finding& finding, Language language) {
    if (finding.kind == analysis::FindingKind::BarrierDivergence ||
        finding.kind == analysis::FindingKind::Deadlock || finding.space == trace::Space::Other)
        return "";
    if (zh(language)) {
        switch (finding.space) {
        case trace::Space::Shared:
            return "共享内存";
        case trace::Space::Global:
            return "全局内存";
        case trace::Space::Local:
            return "局部内存";
        default:
            break;
        }
    }
    return trace::to_string(finding.space);
}

const char* kind_explanation(analysis::FindingKind kind, Language language) {
    const analysis::FindingKindInfo& row = analysis::info(kind);
    return zh(language) ? row.explain_zh : row.explain_en;
}

const char* hazard_explanation(analysis::Hazard hazard, Language language) {
    if (zh(language)) {
        switch (hazard) {
        case analysis::Hazard::RAW:
            return "RAW：写后读 - 读取可能在它需要的写入之前执行。";
        case analysis::Hazard::WAR:
            return "WAR：读后写 - 写入可能在一个值被读取之前就把它覆盖。";
        case analysis::Hazard::WAW:
            return "WAW：写后写 - 最后留下哪次写入取决于调度。";
        case analysis::Hazard::None:
            return "";
        }
    }
    switch (hazard) {
    case analysis::Hazard::RAW:
        return "RAW: read after write - the load may run before the store it needs.";
    case analysis::Hazard::WAR:
        return "WAR: write after read - the store may overwrite a value before it is read.";
    case analysis::Hazard::WAW:
        return "WAW: write after write - which store lands last depends on the schedule.";
    case analysis::Hazard::None:
        return "";
    }
    return "";
}

// [SECTION] Runs and verdicts (lesson panel, browser badges) ---------------------------------------

bool record_is_of(const RunRecord* record, const scenario::Scenario* scenario,
                  const scenario::Variant* variant) {
    return record != nullptr && scenario != nullptr && variant != nullptr &&
           record->scenario_id == scenario->id && record->variant_id == variant->id;
}

std::string wrong_outputs_text(const runner::RunSummary& s, Language language) {
    const std::string wrong = std::to_string(s.wrong_outputs), checked = std::to_string(s.checked_outputs);
    const std::string bad_reps = std::to_string(s.reps_with_wrong_outputs), reps = std::to_string(s.reps_run);
    if (zh(language)) {
        if (s.checked_outputs == 0) return "没有检查任何输出";
        return "检查了 " + checked + " 个输出，" + wrong + " 个错误（" + reps + " 次运行中有 " + bad_reps +
               " 次出现错误输出）";
    }
    if (s.checked_outputs == 0) return "no outputs checked";
    return wrong + " wrong of " + checked + " checked (" + bad_reps + " of " + reps +
           (s.reps_run == 1 ? " rep" : " reps") + " had wrong outputs)";
}

std::string ms_text(double ms) {
    char text[32];
    std::snprintf(text, sizeof text, ms < 0.1 ? "%.3f ms" : ms < 10 ? "%.2f ms" : "%.1f ms", ms);
    return text;
}

std::string count_short(uint64_t n) {
    char text[32];
    if (n < 1000)
        std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(n));
    else if (n < 1'000'000)
        std::snprintf(text, sizeof text, "%.1f k", double(n) / 1e3);
    else
        std::snprintf(text, sizeof text, "%.1f M", double(n) / 1e6);
    return text;
}

std::string gpu_side_text(const runner::GpuSide& side, bool traced) {
    std::string out = traced ? "traced: " : "untraced: ";
    if (!side.ran) return out + "not run";
    if (side.status != trace::RunStatus::Ok) {
        out += trace::to_string(side.status);
        if (traced && side.events > 0)
            out += ", " + count_short(side.events) + " events" + (side.partial_trace ? " (partial)" : "");
        return out;
    }
    if (traced) {
        out += std::to_string(side.wrong_outputs) + " wrong";
    } else {
        out += std::to_string(side.wrong_outputs) + " of " + std::to_string(side.checked_outputs) +
               " wrong in " + std::to_string(side.reps) + (side.reps == 1 ? " launch" : " launches");
    }
    if (side.kernel_ms > 0) out += ", " + ms_text(side.kernel_ms);
    if (traced) {
        out += ", " + count_short(side.events) + " events";
        if (side.dropped_events > 0) out += " (" + count_short(side.dropped_events) + " dropped)";
    }
    return out;
}

std::string gpu_sides_text(const RunRecord& record) {
    const runner::RunSummary& s = record.summary;
    if (record.provisional || record.options.backend != "gpu" || !(s.gpu_untraced.ran || s.gpu_traced.ran))
        return "";
    std::string out = gpu_side_text(s.gpu_untraced, false);
    if (record.options.gpu.traced) out += " \u00b7 " + gpu_side_text(s.gpu_traced, true);
    return out;
}

runner::VerdictCheck verdict_for(const scenario::Variant& variant, const RunRecord& record) {
    return runner::check_expectation(variant.expect, record.summary,
                                     record.options.schedule != sim::Schedule::RoundRobin);
}

std::string expectation_text(const scenario::Expectation& e) {
    auto join = [](const std::vector<std::string>& v) {
        std::string out;
        for (size_t i = 0; i < v.size(); ++i)
            out += (i == 0 ? "" : ", ") + v[i];
        return out;
    };
    auto names = [&](const std::vector<analysis::FindingKind>& kinds) {
        std::vector<std::string> out;
        for (analysis::FindingKind k : kinds)
            out.emplace_back(analysis::to_string(k));
        return join(out);
    };
    std::vector<std::string> parts;
    parts.push_back(e.must_find.empty() ? "no finding required" : "must find: " + names(e.must_find));
    if (!e.must_not_find.empty()) parts.push_back("must not find: " + names(e.must_not_find));
    if (e.always_correct()) parts.push_back("no wrong outputs under any schedule");
    if (e.wrong_outputs_possible())
        parts.push_back("wrong outputs expected under random/adversarial schedules");
    parts.push_back(std::string("status ") + trace::to_string(e.status));
    return join(parts);
}

std::string badge_key(const scenario::Scenario& scenario, const scenario::Variant& variant) {
    return scenario.id + "/" + variant.id;
}

Badge badge_of(const AppState& state, const scenario::Scenario& scenario, const scenario::Variant& variant) {
    auto it = state.badges.find(badge_key(scenario, variant));
    return it == state.badges.end() ? Badge{} : it->second;
}

Badge badge_for(const scenario::Variant& variant, const RunRecord& record) {
    Badge b;
    if (record.options.backend == "gpu" || record.provisional || !record.gpu_unavailable.empty() ||
        record.summary.status == trace::RunStatus::Cancelled)
        return b;
    b.ran = true;
    b.match = runner::lesson_match(verdict_for(variant, record));
    b.outcome = runner::run_outcome(record.summary);
    b.findings = runner::found_a_bug(record.summary);
    return b;
}

uint32_t badge_colour(const Badge& badge, bool presenter) {
    if (!badge.ran) return 0;
    return theme::tone_ink(outcome_tone(badge.outcome, badge.findings), presenter);
}

std::string badge_text(const Badge& badge, Language language) {
    if (!badge.ran) return zh(language) ? "还没有运行" : "not run yet";
    return (zh(language) ? "上次运行：" : "last run: ") + std::string(outcome_word(badge.outcome, language)) +
           " \u00b7 " + match_word(badge.match, language);
}

// [SECTION] Catalog grouping (scenario browser) ----------------------------------------------------

namespace {
constexpr std::array<std::string_view, 4> kTopicOrder = {"barriers", "warps", "fences", "atomics"};
}

std::vector<TopicGroup> group_by_topic(const std::vector<scenario::Scenario>& catalog) {
    std::vector<TopicGroup> groups;
    for (std::string_view topic : kTopicOrder)
        groups.push_back({std::string(topic), {}});
    for (const scenario::Scenario& s : catalog) {
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const TopicGroup& g) { return g.topic == s.topic; });
        if (it == groups.end()) it = groups.insert(groups.end(), TopicGroup{s.topic, {}});
        it->scenarios.push_back(&s);
    }
    std::erase_if(groups, [](const TopicGroup& g) { return g.scenarios.empty(); });
    return groups;
}

std::string topic_label(std::string_view topic, Language language) {
    struct Label {
        std::string_view topic, en, zh;
    };
    static constexpr std::array<Label, 4> kLabels = {{
        {"barriers", "Barriers", "屏障"},
        {"warps", "Warps", "线程束（warp）"},
        {"fences", "Fences", "内存栅栏"},
        {"atomics", "Atomics", "原子操作"},
    }};
    for (const Label& l : kLabels)
        if (l.topic == topic) return std::string(zh(language) ? l.zh : l.en);
    return std::string(topic);
}

// [SECTION] Run controls -----------------------------------------------------------------------------

uint32_t clamp_reps(int64_t reps) {
    return static_cast<uint32_t>(std::clamp<int64_t>(reps, kMinReps, kMaxReps));
}

const char* schedule_label(sim::Schedule schedule, Language language) {
    if (zh(language)) {
        switch (schedule) {
        case sim::Schedule::RoundRobin:
            return "rr：固定的轮转调度";
        case sim::Schedule::Random:
            return "随机";
        case sim::Schedule::Adversarial:
            return "对抗";
        case sim::Schedule::Exhaustive:
            return "穷举";
        }
    }
    switch (schedule) {
    case sim::Schedule::RoundRobin:
        return "rr: deterministic round-robin";
    case sim::Schedule::Random:
        return "random";
    case sim::Schedule::Adversarial:
        return "adversarial";
    case sim::Schedule::Exhaustive:
        return "exhaustive";
    }
    return "";
}

const char* schedule_explanation(sim::Schedule schedule, Language language) {
    if (zh(language)) {
        switch (schedule) {
        case sim::Schedule::RoundRobin:
            return "线程束按固定顺序轮流运行：每次运行都一样，这正是它会掩盖数据竞争的原因。";
        case sim::Schedule::Random:
            return "种子决定下一个运行哪个线程束、运行多久：种子不同，交错的方式也不同。";
        case sim::Schedule::Adversarial:
            return "在共享内存访问之前故意让某些线程束停下，让其他线程束超过它们：暴露数据竞争。";
        case sim::Schedule::Exhaustive:
            return "逐一运行内存模型允许的每一种执行（小内核）：得到全部可能的结果，而不是抽样。";
        }
    }
    switch (schedule) {
    case sim::Schedule::RoundRobin:
        return "Warps take turns in a fixed order: every run is the same, which is exactly why it hides "
               "races.";
    case sim::Schedule::Random:
        return "The seed picks which warp runs next and for how long: different seeds, different "
               "interleavings.";
    case sim::Schedule::Adversarial:
        return "Stalls chosen warps right before shared-memory accesses so that others overtake them: "
               "exposes races.";
    case sim::Schedule::Exhaustive:
        return "Runs every execution the memory model allows (small kernels): the full set of outcomes, "
               "not a sample.";
    }
    return "";
}

} // namespace synclab::ui
