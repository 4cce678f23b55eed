// Index:
//   [SECTION] Planning: the claim's command as runner options
//   [SECTION] Measuring
//   [SECTION] Judging
//   [SECTION] Recordings
#include "runner/claims.h"

#include "gpu/client.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>

namespace synclab::runner {

const char* to_string(ClaimVerdict verdict) {
    switch (verdict) {
    case ClaimVerdict::Holds:
        return "holds";
    case ClaimVerdict::Fails:
        return "FAILS";
    case ClaimVerdict::NotRecorded:
        return "not recorded";
    case ClaimVerdict::Error:
        return "error";
    case ClaimVerdict::OtherDevice:
        return "other device";
    }
    return "?";
}

namespace {

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
    std::string out;
    for (const std::string& s : items)
        out += (out.empty() ? "" : sep) + s;
    return out;
}

// 12345 -> "12,345"
std::string grouped(uint64_t v) {
    std::string digits = std::to_string(v), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string number(double v) {
    char buf[48];
    if (v != 0 && (std::fabs(v) < 0.01 || std::fabs(v) >= 1e7))
        std::snprintf(buf, sizeof buf, "%.3g", v);
    else if (std::fabs(v - std::round(v)) < 1e-9)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

std::string percent(double share) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * share);
    return buf;
}

[[noreturn]] void fail_command(const scenario::LessonClaims& claims, const scenario::Claim& claim,
                               const std::string& message) {
    throw scenario::LessonError(claims.file, claim.command_line, "claim '" + claim.id + "': command: " + message);
}

} // namespace

// [SECTION] Planning: the claim's command as runner options

ClaimPlan plan_claim(const scenario::Scenario& lesson, const scenario::LessonClaims& claims,
                     const scenario::Claim& claim, const std::string& backend) {
    const scenario::ClaimCommand& c = claim.command;
    ClaimPlan p;
    p.lesson = scenario::with_params(lesson, c.params); // the loader checked the parameters
    if (c.kind == scenario::ClaimCommandKind::Ladder) {
        p.ladder.backend = backend;
        p.ladder.reps = c.reps;
        p.ladder.sm_count = c.sm_count;
        return p;
    }
    p.variant = p.lesson.find_variant(c.variant);
    RunOptions& o = p.run;
    o.backend = backend;
    if (!sim::parse_schedule(c.schedule, o.schedule))
        fail_command(claims, claim, "--schedule must be rr, random, adversarial or exhaustive, got '" + c.schedule + "'");
    if (o.schedule == sim::Schedule::Exhaustive && c.reps_given)
        fail_command(claims, claim, "--reps does not go with --schedule exhaustive: it runs every execution once");
    if (!c.warp_model.empty() && !sim::parse_warp_model(c.warp_model, o.limits.warp_model))
        fail_command(claims, claim, "--warp-model must be its or lockstep, got '" + c.warp_model + "'");
    o.seed = c.seed;
    o.reps = c.reps;
    o.memory = c.memory;
    if (c.max_steps) o.limits.max_steps = c.max_steps;
    // The outcome histogram, as `synclab run` takes it: the buffer named, else the lesson's own.
    if (!c.histogram.empty()) {
        o.histogram.buffer = c.histogram;
        o.histogram.per = c.per;
    } else if (p.lesson.outcomes.present()) {
        o.histogram.buffer = p.lesson.outcomes.buffer;
        o.histogram.per = p.lesson.outcomes.per;
    }
    o.gpu.traced = !c.untraced;
    return p;
}

// [SECTION] Measuring

ClaimMeasurement measurement_of(const RunSummary& s, const scenario::Claim* claim) {
    ClaimMeasurement m;
    m.device = s.device;
    m.status = s.status;
    if (s.gpu_traced.ran) m.traced_status = s.gpu_traced.status;
    m.message = s.message;
    std::vector<std::string> kinds;
    for (const analysis::Finding& f : s.findings) {
        const std::string k = analysis::to_string(f.kind);
        if (std::find(kinds.begin(), kinds.end(), k) == kinds.end()) kinds.push_back(k);
        std::vector<uint32_t>& lines = m.finding_lines[k];
        for (uint32_t l : f.lines)
            if (std::find(lines.begin(), lines.end(), l) == lines.end()) lines.push_back(l);
        m.finding_messages[k].push_back(f.message);
    }
    for (auto& [kind, lines] : m.finding_lines)
        std::sort(lines.begin(), lines.end());
    m.finding_kinds = kinds;
    m.wrong_outputs = s.wrong_outputs;
    m.checked_outputs = s.checked_outputs;
    m.reps = s.reps_run;
    m.reps_with_wrong = s.reps_with_wrong_outputs;
    if (!s.expected_outputs.empty()) {
        const scenario::ExpectedOutput& want = s.expected_outputs.front();
        const size_t size = launch::elem_size(want.type);
        for (const launch::Buffer& got : s.final_buffers)
            if (got.name == want.name && size > 0) {
                std::vector<uint64_t> wrong;
                for (size_t i = 0; (i + 1) * size <= want.bytes.size(); ++i)
                    if ((i + 1) * size > got.bytes.size() ||
                        std::memcmp(want.bytes.data() + i * size, got.bytes.data() + i * size, size) != 0)
                        wrong.push_back(i);
                m.wrong_indices = wrong;
            }
    }
    if (claim)
        for (const scenario::ClaimOutput& o : claim->expect.outputs)
            for (const launch::Buffer& b : s.final_buffers) {
                const size_t size = launch::elem_size(o.type);
                if (b.name == o.buffer && (o.index + 1) * size <= b.bytes.size())
                    m.outputs[o.element] = launch::element_value(b.bytes.data() + o.index * size, o.type);
            }
    if (s.histogram) {
        std::map<std::string, uint64_t> h;
        for (const OutcomeCount& c : s.histogram->outcomes)
            h[c.outcome] = c.count;
        m.histogram = h;
    }
    if (s.host_reader) {
        m.cpu_flags_seen = s.host_reader->seen;
        m.cpu_stale = s.host_reader->stale;
    }
    return m;
}

ClaimMeasurement measurement_of(const Ladder& l) {
    ClaimMeasurement m;
    m.ladder = true;
    m.device = l.device;
    m.unit = l.unit;
    std::map<std::string, double> times;
    for (const LadderRung& r : l.rungs)
        if (r.timed) times[r.variant] = r.time;
    m.rung_times = times;
    return m;
}

ClaimMeasurement measure_claim(const scenario::Claim& claim, const ClaimPlan& plan, const ClaimRunOptions& options) {
    if (plan.variant == nullptr) {
        LadderOptions lo = plan.ladder;
        lo.gpu_timeout_s = options.gpu_timeout_s;
        lo.cancel = options.cancel;
        if (!options.gpu_worker.empty())
            lo.run = [&](const scenario::Variant& v, RunOptions o) {
                o.gpu.worker = options.gpu_worker;
                return run_scenario(plan.lesson, v, o);
            };
        return measurement_of(run_ladder(plan.lesson, lo));
    }
    RunOptions o = plan.run;
    o.cancel = options.cancel;
    o.gpu.timeout_s = options.gpu_timeout_s;
    if (!options.gpu_worker.empty()) o.gpu.worker = options.gpu_worker;
    return measurement_of(run_scenario(plan.lesson, *plan.variant, o), &claim);
}

// [SECTION] Judging

namespace {

using Verdict = ClaimCheck::Verdict;

ClaimCheck check(std::string what, std::string expected, bool measured, bool holds, std::string value) {
    ClaimCheck c{std::move(what), std::move(expected), std::move(value), Verdict::NotMeasured};
    if (measured) c.verdict = holds ? Verdict::Holds : Verdict::Fails;
    else c.measured.clear();
    return c;
}

std::string kind_names(const std::vector<analysis::FindingKind>& kinds) {
    std::vector<std::string> names;
    for (analysis::FindingKind k : kinds)
        names.push_back(analysis::to_string(k));
    return names.empty() ? "none" : join(names);
}

std::string status_names(const std::vector<trace::RunStatus>& statuses) {
    std::vector<std::string> names;
    for (trace::RunStatus s : statuses)
        names.push_back(trace::to_string(s));
    return join(names, " or ");
}

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

void judge_run(const scenario::ClaimExpect& x, const ClaimMeasurement& m, std::vector<ClaimCheck>& out) {
    if (!x.status.empty()) {
        const bool holds = m.status && std::find(x.status.begin(), x.status.end(), *m.status) != x.status.end();
        out.push_back(check("status", status_names(x.status), m.status.has_value(), holds,
                            m.status ? trace::to_string(*m.status) : ""));
    }
    if (!x.traced_status.empty()) {
        const bool holds =
            m.traced_status && std::find(x.traced_status.begin(), x.traced_status.end(), *m.traced_status) != x.traced_status.end();
        out.push_back(check("traced launch status", status_names(x.traced_status), m.traced_status.has_value(), holds,
                            m.traced_status ? trace::to_string(*m.traced_status) : ""));
    }
    const bool have_kinds = m.finding_kinds.has_value();
    const std::string kinds = have_kinds ? (m.finding_kinds->empty() ? "none" : join(*m.finding_kinds)) : "";
    for (analysis::FindingKind k : x.findings)
        out.push_back(check("finding", std::string(analysis::to_string(k)) + " fires", have_kinds,
                            have_kinds && has(*m.finding_kinds, analysis::to_string(k)), kinds));
    if (!x.no_findings.empty()) {
        bool none = true;
        for (analysis::FindingKind k : x.no_findings)
            none = none && !(have_kinds && has(*m.finding_kinds, analysis::to_string(k)));
        out.push_back(check("no finding", "none of " + kind_names(x.no_findings), have_kinds, none, kinds));
    }
    if (x.only_findings_set) {
        bool only = true;
        if (have_kinds)
            for (const std::string& k : *m.finding_kinds) {
                bool listed = false;
                for (analysis::FindingKind a : x.only_findings)
                    listed = listed || k == analysis::to_string(a);
                only = only && listed;
            }
        out.push_back(check("only findings", x.only_findings.empty() ? "no finding at all" : "only " + kind_names(x.only_findings),
                            have_kinds, only, kinds));
    }
    for (const scenario::ClaimFindingLines& fl : x.finding_lines) {
        const std::string k = analysis::to_string(fl.kind);
        const auto it = m.finding_lines.find(k);
        std::vector<std::string> named;
        bool all = it != m.finding_lines.end();
        if (all) {
            for (uint32_t l : it->second)
                named.push_back(std::to_string(l));
            for (uint32_t l : fl.lines)
                all = all && std::find(it->second.begin(), it->second.end(), l) != it->second.end();
        }
        out.push_back(check("finding lines", fl.text, have_kinds, all,
                            it == m.finding_lines.end() ? "no " + k + " finding" : k + ": lines " + join(named, " ")));
    }
    for (const scenario::ClaimFindingSays& fs : x.finding_says) {
        const std::string k = analysis::to_string(fs.kind);
        const auto it = m.finding_messages.find(k);
        // The message that says it, else the first of the kind.
        std::string says = it == m.finding_messages.end() ? "no " + k + " finding" : it->second.front();
        bool holds = false;
        if (it != m.finding_messages.end())
            for (const std::string& msg : it->second)
                if (!holds && msg.find(fs.words) != std::string::npos) {
                    holds = true;
                    says = msg;
                }
        // A recording may list a finding without its messages: then nothing was measured.
        const bool listed = have_kinds && has(*m.finding_kinds, k);
        out.push_back(check("finding says", fs.text, have_kinds && (it != m.finding_messages.end() || !listed), holds, says));
    }
    const bool have_outputs = m.wrong_outputs && m.checked_outputs;
    const std::string outputs = have_outputs ? grouped(*m.wrong_outputs) + " of " + grouped(*m.checked_outputs) + " wrong" +
                                                   (m.reps ? (*m.reps == 1 ? std::string(" in 1 run") : " over " + std::to_string(*m.reps) + " runs") : "")
                                             : "";
    if (x.wrong_outputs.set)
        out.push_back(check("wrong outputs", scenario::to_string(x.wrong_outputs), m.wrong_outputs.has_value(),
                            m.wrong_outputs && x.wrong_outputs.holds(double(*m.wrong_outputs)),
                            m.wrong_outputs ? outputs : ""));
    if (x.wrong_fraction.set) {
        const bool checked = have_outputs && *m.checked_outputs > 0;
        const double share = checked ? double(*m.wrong_outputs) / double(*m.checked_outputs) : 0;
        out.push_back(check("wrong fraction", scenario::to_string(x.wrong_fraction), have_outputs,
                            checked && x.wrong_fraction.holds(share),
                            checked ? percent(share) + " (" + outputs + ")" : "no output was checked"));
    }
    if (x.reps_with_wrong.set)
        out.push_back(check("runs with wrong outputs", scenario::to_string(x.reps_with_wrong), m.reps_with_wrong.has_value(),
                            m.reps_with_wrong && x.reps_with_wrong.holds(*m.reps_with_wrong),
                            m.reps_with_wrong ? std::to_string(*m.reps_with_wrong) + (m.reps ? " of " + std::to_string(*m.reps) : "") : ""));
    if (x.wrong_at) {
        const scenario::ClaimWrongAt& w = *x.wrong_at;
        uint64_t at = 0;
        const uint64_t all = m.wrong_indices ? m.wrong_indices->size() : 0;
        if (m.wrong_indices)
            for (uint64_t i : *m.wrong_indices)
                at += w.covers(i) ? 1 : 0;
        const double share = all ? double(at) / double(all) : 0;
        out.push_back(check("where the wrong outputs sit", w.text, m.wrong_indices.has_value(), all > 0 && w.share.holds(share),
                            m.wrong_indices ? (all ? percent(share) + " of the kept run's " + grouped(all) + " wrong outputs"
                                                   : "no wrong output in the kept run")
                                            : ""));
    }
    for (const scenario::ClaimOutput& o : x.outputs) {
        const auto it = m.outputs.find(o.element);
        const bool have = it != m.outputs.end();
        out.push_back(check("output", o.text, have, have && o.value.holds(it->second),
                            have ? o.element + " = " + number(it->second) : ""));
    }
    for (const std::string& words : x.message_has)
        out.push_back(check("message", "has \"" + words + "\"", m.message.has_value(),
                            m.message && m.message->find(words) != std::string::npos, m.message ? *m.message : ""));
    if (!x.outcomes_seen.empty() || !x.outcomes_never.empty() || !x.outcome_share.empty()) {
        uint64_t records = 0;
        std::string seen;
        if (m.histogram)
            for (const auto& [outcome, count] : *m.histogram) {
                records += count;
                seen += (seen.empty() ? "" : ", ") + outcome + " x" + grouped(count);
            }
        const auto count_of = [&](const std::string& o) -> uint64_t {
            if (!m.histogram) return 0;
            const auto it = m.histogram->find(o);
            return it == m.histogram->end() ? 0 : it->second;
        };
        const std::string value = m.histogram ? (seen.empty() ? "no records" : seen) : "";
        for (const std::string& o : x.outcomes_seen)
            out.push_back(check("outcome seen", o, m.histogram.has_value(), count_of(o) > 0, value));
        for (const std::string& o : x.outcomes_never)
            out.push_back(check("outcome never seen", o, m.histogram.has_value(), m.histogram && count_of(o) == 0, value));
        for (const scenario::ClaimOutcomeShare& sh : x.outcome_share) {
            const double share = records ? double(count_of(sh.outcome)) / double(records) : 0;
            out.push_back(check("outcome share", sh.text, m.histogram.has_value(), records > 0 && sh.share.holds(share),
                                m.histogram ? sh.outcome + ": " + percent(share) + " of " + grouped(records) : ""));
        }
    }
    if (x.cpu_flags_seen.set)
        out.push_back(check("CPU reader: flags seen", scenario::to_string(x.cpu_flags_seen), m.cpu_flags_seen.has_value(),
                            m.cpu_flags_seen && x.cpu_flags_seen.holds(double(*m.cpu_flags_seen)),
                            m.cpu_flags_seen ? grouped(*m.cpu_flags_seen) : ""));
    if (x.cpu_stale.set)
        out.push_back(check("CPU reader: stale data", scenario::to_string(x.cpu_stale), m.cpu_stale.has_value(),
                            m.cpu_stale && x.cpu_stale.holds(double(*m.cpu_stale)), m.cpu_stale ? grouped(*m.cpu_stale) : ""));
}

void judge_ladder(const scenario::ClaimExpect& x, const ClaimMeasurement& m, std::vector<ClaimCheck>& out) {
    const bool have = m.rung_times.has_value();
    const std::map<std::string, double> empty;
    const std::map<std::string, double>& t = have ? *m.rung_times : empty;
    const auto time_of = [&](const std::string& v) -> std::string {
        const auto it = t.find(v);
        return it == t.end() ? v + " not timed" : v + " " + number(it->second) + " " + m.unit;
    };
    // Rungs from slowest to fastest, for the messages.
    std::vector<std::pair<std::string, double>> ranked(t.begin(), t.end());
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::vector<std::string> ranking;
    for (const auto& [v, time] : ranked)
        ranking.push_back(v + " " + number(time));
    const std::string value = have ? join(ranking, " > ") + " " + m.unit : "";
    if (!x.slowest.empty())
        out.push_back(check("slowest", x.slowest, have, !ranked.empty() && ranked.front().first == x.slowest, value));
    if (!x.fastest.empty())
        out.push_back(check("fastest", x.fastest, have, !ranked.empty() && ranked.back().first == x.fastest, value));
    if (!x.order.empty()) {
        bool holds = true;
        for (size_t i = 0; i + 1 < x.order.size(); ++i) {
            const auto a = t.find(x.order[i]), b = t.find(x.order[i + 1]);
            holds = holds && a != t.end() && b != t.end() && a->second > b->second;
        }
        out.push_back(check("order", join(x.order, " > "), have, holds, value));
    }
    for (const scenario::ClaimRatio& r : x.ratios) {
        const auto a = t.find(r.a), b = t.find(r.b);
        const bool timed = a != t.end() && b != t.end() && b->second > 0;
        const double ratio = timed ? a->second / b->second : 0;
        out.push_back(check("ratio", r.text, have, timed && r.bounds.holds(ratio),
                            timed ? number(ratio) + " (" + time_of(r.a) + ", " + time_of(r.b) + ")"
                                  : time_of(r.a) + ", " + time_of(r.b)));
    }
}

} // namespace

std::vector<ClaimCheck> judge_claim(const scenario::Claim& claim, const ClaimMeasurement& m) {
    std::vector<ClaimCheck> out;
    if (claim.command.kind == scenario::ClaimCommandKind::Ladder)
        judge_ladder(claim.expect, m, out);
    else
        judge_run(claim.expect, m, out);
    return out;
}

ClaimVerdict verdict_of(const std::vector<ClaimCheck>& checks) {
    bool missing = false;
    for (const ClaimCheck& c : checks) {
        if (c.verdict == Verdict::Fails) return ClaimVerdict::Fails;
        missing = missing || c.verdict == Verdict::NotMeasured;
    }
    return missing ? ClaimVerdict::NotRecorded : ClaimVerdict::Holds;
}

ClaimResult check_claim(const scenario::Scenario& lesson, const scenario::LessonClaims& claims,
                        const scenario::Claim& claim, const std::string& backend, const ClaimRunOptions& options) {
    ClaimResult r;
    r.claim = &claim;
    r.backend = backend;
    const ClaimPlan plan = plan_claim(lesson, claims, claim, backend);
    const auto t0 = std::chrono::steady_clock::now();
    try {
        r.measurement = measure_claim(claim, plan, options);
    } catch (const RequestError& e) {
        r.note = e.what();
        return r;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.checks = judge_claim(claim, *r.measurement);
    r.verdict = verdict_of(r.checks);
    if (!on_claims_device(claim, *r.measurement)) {
        r.verdict = ClaimVerdict::OtherDevice;
        r.note = "the claim is about the " + claim.device + "; this is " + r.measurement->device +
                 (r.note.empty() ? "" : "; " + r.note);
    }
    return r;
}

bool on_claims_device(const scenario::Claim& claim, const ClaimMeasurement& measurement) {
    return claim.device.empty() || measurement.device.find(claim.device) != std::string::npos;
}

// [SECTION] Recordings

namespace {

class RecordingReader {
  public:
    explicit RecordingReader(std::string file) : file_(std::move(file)) {}

    ClaimRecording read(std::string_view text) {
        nlohmann::json doc;
        try {
            doc = nlohmann::json::parse(text);
        } catch (const nlohmann::json::parse_error& e) {
            throw scenario::LessonError(file_, 0, std::string("not JSON: ") + e.what());
        }
        ClaimRecording out;
        out.file = file_;
        if (!doc.is_object()) fail("", "must be a JSON object with \"device\" and \"claims\"");
        for (const auto& [key, value] : doc.items())
            if (key != "device" && key != "about" && key != "claims")
                fail("", "unknown key \"" + key + "\" (keys: about, device, claims)");
        out.device = string_of(doc, "device", "");
        const nlohmann::json claims = doc.value("claims", nlohmann::json::object());
        if (!claims.is_object()) fail("", "\"claims\" must be an object: claim id -> its figures");
        for (const auto& [id, entry] : claims.items())
            out.claims[id] = claim(id, entry);
        return out;
    }

  private:
    [[noreturn]] void fail(const std::string& claim, const std::string& message) const {
        throw scenario::LessonError(file_, 0, (claim.empty() ? "" : "claim '" + claim + "': ") + message);
    }

    std::string string_of(const nlohmann::json& j, const char* key, const std::string& claim) const {
        if (!j.contains(key)) return {};
        if (!j[key].is_string()) fail(claim, std::string("\"") + key + "\" must be a string");
        return j[key].get<std::string>();
    }

    template <typename T> std::optional<T> count_of(const nlohmann::json& j, const char* key, const std::string& claim) const {
        if (!j.contains(key)) return std::nullopt;
        if (!j[key].is_number_unsigned()) fail(claim, std::string("\"") + key + "\" must be a whole number >= 0");
        return j[key].get<T>();
    }

    trace::RunStatus status_of(const nlohmann::json& v, const std::string& claim, const char* key) const {
        trace::RunStatus s;
        if (!v.is_string() || !trace::parse_run_status(v.get<std::string>(), s))
            fail(claim, std::string("\"") + key + "\" must be a run status (" + scenario::run_status_names() + ")");
        return s;
    }

    RecordedClaim claim(const std::string& id, const nlohmann::json& e) const {
        if (!e.is_object()) fail(id, "must be an object");
        static const std::set<std::string> keys = {"command",        "source",        "not_recorded", "device",
                                                   "status",         "traced_status", "message",      "findings",
                                                   "wrong_outputs",  "checked_outputs", "reps",       "reps_with_wrong_outputs",
                                                   "histogram",      "host_reader",   "rungs",        "unit",
                                                   "wrong_indices", "outputs"};
        for (const auto& [key, value] : e.items())
            if (!keys.count(key)) fail(id, "unknown key \"" + key + "\"");
        RecordedClaim r;
        r.command = string_of(e, "command", id);
        if (r.command.empty()) fail(id, "\"command\" is missing: the claim's command these figures answer");
        r.source = string_of(e, "source", id);
        r.not_recorded = string_of(e, "not_recorded", id);
        if (r.source.empty() == r.not_recorded.empty())
            fail(id, "give \"source\" (how and when the figures were measured) or \"not_recorded\" (why none yet), one of them");
        ClaimMeasurement& m = r.measurement;
        m.device = string_of(e, "device", id);
        if (e.contains("status")) m.status = status_of(e["status"], id, "status");
        if (e.contains("traced_status")) m.traced_status = status_of(e["traced_status"], id, "traced_status");
        if (e.contains("message")) m.message = string_of(e, "message", id);
        if (e.contains("findings")) {
            if (!e["findings"].is_array()) fail(id, "\"findings\" must be an array of {\"kind\", \"lines\"}");
            std::vector<std::string> kinds;
            for (const nlohmann::json& f : e["findings"]) {
                analysis::FindingKind k;
                if (!f.is_object() || !f.contains("kind") || !f["kind"].is_string() ||
                    !scenario::parse_finding_kind(f["kind"].get<std::string>(), k))
                    fail(id, "each finding needs a \"kind\" (" + scenario::finding_kind_names() + ")");
                const std::string name = f["kind"].get<std::string>();
                if (!has(kinds, name)) kinds.push_back(name);
                std::vector<uint32_t>& lines = m.finding_lines[name];
                for (const nlohmann::json& l : f.value("lines", nlohmann::json::array())) {
                    if (!l.is_number_unsigned()) fail(id, "a finding's \"lines\" are line numbers");
                    lines.push_back(l.get<uint32_t>());
                }
                std::sort(lines.begin(), lines.end());
                for (const nlohmann::json& msg : f.value("messages", nlohmann::json::array())) {
                    if (!msg.is_string()) fail(id, "a finding's \"messages\" are strings");
                    m.finding_messages[name].push_back(msg.get<std::string>());
                }
            }
            m.finding_kinds = kinds;
        }
        m.wrong_outputs = count_of<uint64_t>(e, "wrong_outputs", id);
        m.checked_outputs = count_of<uint64_t>(e, "checked_outputs", id);
        m.reps = count_of<uint32_t>(e, "reps", id);
        m.reps_with_wrong = count_of<uint32_t>(e, "reps_with_wrong_outputs", id);
        if (e.contains("wrong_indices")) {
            const nlohmann::json& w = e["wrong_indices"];
            if (!w.is_array()) fail(id, "\"wrong_indices\" must be the wrong outputs' element indices");
            std::vector<uint64_t> indices;
            for (const nlohmann::json& i : w) {
                if (!i.is_number_unsigned()) fail(id, "\"wrong_indices\" holds element indices");
                indices.push_back(i.get<uint64_t>());
            }
            m.wrong_indices = indices;
        }
        if (e.contains("outputs")) {
            if (!e["outputs"].is_object()) fail(id, "\"outputs\" must map elements (\"g_counter[0]\") to values");
            for (const auto& [element, value] : e["outputs"].items()) {
                if (!value.is_number()) fail(id, "output \"" + element + "\" needs a number");
                m.outputs[element] = value.get<double>();
            }
        }
        if (e.contains("histogram")) {
            if (!e["histogram"].is_object()) fail(id, "\"histogram\" must map outcomes to counts");
            std::map<std::string, uint64_t> h;
            for (const auto& [o, c] : e["histogram"].items()) {
                if (!c.is_number_unsigned()) fail(id, "histogram outcome \"" + o + "\" needs a count");
                h[o] = c.get<uint64_t>();
            }
            m.histogram = h;
        }
        if (e.contains("host_reader")) {
            const nlohmann::json& h = e["host_reader"];
            if (!h.is_object()) fail(id, "\"host_reader\" must be {\"seen\": N, \"stale\": N}");
            m.cpu_flags_seen = count_of<uint64_t>(h, "seen", id);
            m.cpu_stale = count_of<uint64_t>(h, "stale", id);
        }
        if (e.contains("rungs")) {
            if (!e["rungs"].is_object()) fail(id, "\"rungs\" must map variants to times");
            std::map<std::string, double> t;
            for (const auto& [v, time] : e["rungs"].items()) {
                if (!time.is_number() || time.get<double>() <= 0) fail(id, "rung \"" + v + "\" needs a time > 0");
                t[v] = time.get<double>();
            }
            m.rung_times = t;
            m.ladder = true;
            m.unit = string_of(e, "unit", id);
            if (m.unit.empty()) fail(id, "\"rungs\" need a \"unit\" (ms)");
        }
        return r;
    }

    std::string file_;
};

} // namespace

ClaimRecording parse_recording(std::string_view json_text, const std::string& file) {
    return RecordingReader(file).read(json_text);
}

nlohmann::json measurement_json(const ClaimMeasurement& m) {
    nlohmann::json j = nlohmann::json::object();
    if (!m.device.empty()) j["device"] = m.device;
    if (m.status) j["status"] = trace::to_string(*m.status);
    if (m.traced_status) j["traced_status"] = trace::to_string(*m.traced_status);
    if (m.message) j["message"] = *m.message;
    if (m.finding_kinds) {
        nlohmann::json f = nlohmann::json::array();
        for (const std::string& k : *m.finding_kinds) {
            const auto it = m.finding_lines.find(k);
            nlohmann::json one = {{"kind", k}, {"lines", it == m.finding_lines.end() ? std::vector<uint32_t>{} : it->second}};
            if (const auto says = m.finding_messages.find(k); says != m.finding_messages.end()) one["messages"] = says->second;
            f.push_back(one);
        }
        j["findings"] = f;
    }
    if (m.wrong_outputs) j["wrong_outputs"] = *m.wrong_outputs;
    if (m.checked_outputs) j["checked_outputs"] = *m.checked_outputs;
    if (m.reps) j["reps"] = *m.reps;
    if (m.reps_with_wrong) j["reps_with_wrong_outputs"] = *m.reps_with_wrong;
    if (m.wrong_indices) j["wrong_indices"] = *m.wrong_indices;
    if (!m.outputs.empty()) j["outputs"] = m.outputs;
    if (m.histogram) j["histogram"] = *m.histogram;
    if (m.cpu_flags_seen || m.cpu_stale)
        j["host_reader"] = {{"seen", m.cpu_flags_seen.value_or(0)}, {"stale", m.cpu_stale.value_or(0)}};
    if (m.rung_times) {
        j["rungs"] = *m.rung_times;
        j["unit"] = m.unit;
    }
    return j;
}

ClaimResult check_recorded(const scenario::Claim& claim, const ClaimRecording& recording) {
    ClaimResult r;
    r.claim = &claim;
    r.backend = "h200";
    r.verdict = ClaimVerdict::NotRecorded;
    const auto it = recording.claims.find(claim.id);
    if (it == recording.claims.end()) {
        r.note = "no entry in " + (recording.file.empty() ? std::string("the recording") : recording.file);
        return r;
    }
    const RecordedClaim& rc = it->second;
    if (!rc.not_recorded.empty()) {
        r.note = rc.not_recorded;
        return r;
    }
    if (rc.command != claim.command.text) {
        r.note = "recorded for another command (\"" + rc.command + "\"): measure it again";
        return r;
    }
    r.note = rc.source;
    r.measurement = rc.measurement;
    if (r.measurement->device.empty()) r.measurement->device = recording.device;
    r.checks = judge_claim(claim, rc.measurement);
    r.verdict = on_claims_device(claim, *r.measurement) ? verdict_of(r.checks) : ClaimVerdict::OtherDevice;
    return r;
}

} // namespace synclab::runner
