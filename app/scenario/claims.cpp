// Reading a lesson's claims.toml (claims.h). Index:
//   [SECTION] Keys and typed fields
//   [SECTION] Quotes: found in the lesson's text
//   [SECTION] The command
//   [SECTION] Predicates
//   [SECTION] Files
#include "scenario/claims.h"

#include "embedded.h"
#include "scenario/lesson.h"
#include "scenario/lesson_toml.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace synclab::scenario {

std::string to_string(const ClaimRange& r) {
    const auto num = [](double v) {
        std::ostringstream s;
        s << v;
        return s.str();
    };
    return r.lo == r.hi ? num(r.lo) : num(r.lo) + ".." + num(r.hi);
}

size_t ClaimExpect::count() const {
    return (status.empty() ? 0 : 1) + (traced_status.empty() ? 0 : 1) + findings.size() + (no_findings.empty() ? 0 : 1) +
           (only_findings_set ? 1 : 0) + finding_lines.size() + finding_says.size() + wrong_outputs.set + wrong_fraction.set +
           reps_with_wrong.set + wrong_at.has_value() + outputs.size() + message_has.size() + outcomes_seen.size() + outcomes_never.size() +
           outcome_share.size() + cpu_stale.set + cpu_flags_seen.set + (slowest.empty() ? 0 : 1) +
           (fastest.empty() ? 0 : 1) + (order.empty() ? 0 : 1) + ratios.size();
}

bool ClaimWrongAt::covers(uint64_t index) const {
    const uint64_t r = index % modulus;
    return std::any_of(ranges.begin(), ranges.end(), [&](const auto& a) { return r >= a.first && r <= a.second; });
}

bool Claim::holds_on(std::string_view backend) const {
    return std::find(backends.begin(), backends.end(), backend) != backends.end();
}

const Claim* LessonClaims::find(std::string_view id) const {
    for (const Claim& c : claims)
        if (c.id == id) return &c;
    return nullptr;
}

namespace {

using toml::Value;
using Kind = toml::Value::Kind;

// [SECTION] Keys and typed fields

struct ClaimKey {
    const char* key;
    const char* meaning;
};
// Every key of a [claim.ID] table; `quote`, `command` and `backends` are required.
constexpr ClaimKey kClaimKeys[] = {
    {"quote", "the words of en.md the claim checks, verbatim (line breaks aside)"},
    {"quote_zh", "the same claim's words in zh.md"},
    {"note", "why this command checks the claim, or what it leaves out"},
    {"command", "the synclab command that checks it: \"run LESSON --variant V ...\" or \"ladder LESSON ...\""},
    {"backends", "where the claim holds: [\"sim\"], [\"gpu\"] or [\"sim\", \"gpu\"]"},
    {"device", "GPU claims about one device's own behaviour: the part of its name that says which (\"H200\")"},
    {"status", "the run's status: \"ok\", or a list of statuses any of which holds"},
    {"traced_status", "GPU: the traced launch's status"},
    {"findings", "finding kinds that must fire"},
    {"no_findings", "finding kinds that must not fire"},
    {"only_findings", "the only finding kinds that may fire ([] : none at all)"},
    {"finding_lines", "\"KIND: LINE LINE ...\": the CUDA lines the findings of KIND name"},
    {"finding_says", "\"KIND: words\": a finding of KIND says these words"},
    {"wrong_outputs", "wrong outputs over the repetitions: N or [LO, HI]"},
    {"wrong_fraction", "wrong outputs / checked outputs: X or [LO, HI], 0 to 1"},
    {"reps_with_wrong", "repetitions with a wrong output: N or [LO, HI]"},
    {"wrong_at", "\"i % M in A..B, C: LO..HI\": the share of the wrong outputs whose index i, modulo M, is in the ranges"},
    {"output", "\"BUFFER[I]: LO..HI\": an output element's final value (a list for several)"},
    {"message_has", "words the run's message must contain"},
    {"outcomes_seen", "histogram outcomes that must appear"},
    {"outcomes_never", "histogram outcomes that must not appear"},
    {"outcome_share", "\"OUTCOME: LO..HI\": the share of the records that are OUTCOME"},
    {"cpu_stale", "GPU: pairs the CPU reader saw with stale data: N or [LO, HI]"},
    {"cpu_flags_seen", "GPU: flags the CPU reader saw: N or [LO, HI]"},
    {"slowest", "ladder: the slowest rung's variant"},
    {"fastest", "ladder: the fastest rung's variant"},
    {"order", "ladder: variants from slowest to fastest, each strictly slower than the next"},
    {"ratios", "ladder: \"A / B >= X\", \"A / B <= X\" or \"A / B in LO..HI\" (rung times)"},
};

std::string key_list() {
    std::string out;
    for (const ClaimKey& k : kClaimKeys)
        out += std::string(out.empty() ? "" : ", ") + k.key;
    return out;
}

std::string join(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

// Whitespace runs as one space, no space at either end: quotes match across line breaks.
std::string squeeze(std::string_view text) {
    std::string out;
    bool space = false;
    for (char c : text) {
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

std::vector<std::string> split_words(std::string_view text) {
    std::vector<std::string> out;
    std::istringstream in{std::string(text)};
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

class ClaimsReader {
  public:
    ClaimsReader(const Scenario& lesson, std::string file) : s_(lesson), file_(std::move(file)) {}

    LessonClaims read(std::string_view text) {
        const toml::Document doc = toml::parse(text, file_);
        LessonClaims out;
        out.lesson = s_.id;
        out.file = file_;
        if (!doc.tables[0].entries.empty())
            fail(doc.tables[0].entries[0].line,
                 "key '" + doc.tables[0].entries[0].key + "' outside a table: every key belongs to a [claim.ID]");
        for (size_t i = 1; i < doc.tables.size(); ++i) {
            const toml::Table& t = doc.tables[i];
            if (t.path.size() != 2 || t.path[0] != "claim")
                fail(t.line, "unknown table [" + t.name + "]: a claims file holds [claim.ID] tables only");
            if (!is_lesson_id(t.path[1]))
                fail(t.line, "claim id '" + t.path[1] + "' must be lower-case letters, digits and _");
            out.claims.push_back(claim(t));
        }
        if (out.claims.empty()) fail(0, "no claim: add a [claim.ID] table for each claim the lesson's text makes");
        return out;
    }

  private:
    [[noreturn]] void fail(uint32_t line, const std::string& message) const {
        throw LessonError(file_, line, message);
    }

    const toml::Entry* entry(const toml::Table& t, const char* key) const { return t.find(key); }

    std::string string_field(const toml::Table& t, const char* key, const std::string& where, bool required) const {
        const toml::Entry* e = entry(t, key);
        if (e == nullptr) {
            if (required) fail(t.line, where + "missing key '" + key + "' (" + meaning(key) + ")");
            return {};
        }
        if (e->value.kind != Kind::String)
            fail(e->line, where + key + " must be a string, got " + toml::to_string(e->value.kind));
        if (e->value.string.empty()) fail(e->line, where + key + " is empty");
        return e->value.string;
    }

    static const char* meaning(std::string_view key) {
        for (const ClaimKey& k : kClaimKeys)
            if (key == k.key) return k.meaning;
        return "";
    }

    // A string, or an array of strings (one string is a list of one).
    std::vector<const Value*> string_list(const toml::Table& t, const char* key, const std::string& where,
                                          bool allow_empty) const {
        std::vector<const Value*> out;
        const toml::Entry* e = entry(t, key);
        if (e == nullptr) return out;
        if (e->value.kind == Kind::String) {
            out.push_back(&e->value);
        } else if (e->value.kind == Kind::Array) {
            for (size_t i = 0; i < e->value.array.size(); ++i) {
                const Value& v = e->value.array[i];
                if (v.kind != Kind::String)
                    fail(v.line, where + key + " holds strings, but element " + std::to_string(i + 1) + " is " +
                                     toml::to_string(v.kind));
                out.push_back(&v);
            }
            if (out.empty() && !allow_empty) fail(e->line, where + key + " is an empty list");
        } else {
            fail(e->line, where + key + " must be a string or a list of strings, got " + toml::to_string(e->value.kind));
        }
        return out;
    }

    static bool number_of(const Value& v, double& out) {
        if (v.kind == Kind::Integer) out = double(v.integer);
        else if (v.kind == Kind::Float) out = v.number;
        else return false;
        return true;
    }

    // N or [LO, HI] (numbers; LO <= HI; within [min, max]).
    ClaimRange range(const toml::Table& t, const char* key, const std::string& where, double min, double max,
                     bool whole) const {
        ClaimRange r;
        const toml::Entry* e = entry(t, key);
        if (e == nullptr) return r;
        const std::string form = std::string(whole ? "a whole number" : "a number") + " or [LO, HI]";
        double lo = 0, hi = 0;
        if (number_of(e->value, lo)) {
            hi = lo;
        } else if (e->value.kind == Kind::Array && e->value.array.size() == 2 && number_of(e->value.array[0], lo) &&
                   number_of(e->value.array[1], hi)) {
        } else {
            fail(e->line, where + key + " must be " + form + ", got " + toml::to_string(e->value.kind) +
                              (e->value.kind == Kind::Array ? " of " + std::to_string(e->value.array.size()) : ""));
        }
        if (lo > hi) fail(e->line, where + key + ": LO " + to_string(ClaimRange{lo, lo, true}) + " is above HI " +
                                       to_string(ClaimRange{hi, hi, true}));
        if (lo < min || hi > max)
            fail(e->line, where + key + " must lie in " + to_string(ClaimRange{min, max, true}) + ", got " +
                              to_string(ClaimRange{lo, hi, true}));
        if (whole && (lo != std::floor(lo) || hi != std::floor(hi)))
            fail(e->line, where + key + " counts: whole numbers, got " + to_string(ClaimRange{lo, hi, true}));
        return {lo, hi, true};
    }

    // "LO..HI" or "X" as text.
    bool parse_range_text(std::string_view text, ClaimRange& r) const {
        const auto number = [](std::string_view t, double& v) {
            if (t.empty()) return false;
            std::string s(t);
            char* end = nullptr;
            v = std::strtod(s.c_str(), &end);
            return end && *end == '\0';
        };
        const size_t dots = text.find("..");
        double lo = 0, hi = 0;
        if (dots == std::string_view::npos) {
            if (!number(text, lo)) return false;
            hi = lo;
        } else if (!number(text.substr(0, dots), lo) || !number(text.substr(dots + 2), hi) || lo > hi) {
            return false;
        }
        r = {lo, hi, true};
        return true;
    }

    std::vector<analysis::FindingKind> kinds(const toml::Table& t, const char* key, const std::string& where,
                                             bool allow_empty) const {
        std::vector<analysis::FindingKind> out;
        for (const Value* v : string_list(t, key, where, allow_empty)) {
            analysis::FindingKind k;
            if (!parse_finding_kind(v->string, k))
                fail(v->line, where + key + ": unknown finding kind '" + v->string + "' (kinds: " + finding_kind_names() + ")");
            out.push_back(k);
        }
        return out;
    }

    std::vector<trace::RunStatus> statuses(const toml::Table& t, const char* key, const std::string& where) const {
        std::vector<trace::RunStatus> out;
        for (const Value* v : string_list(t, key, where, false)) {
            trace::RunStatus st;
            if (!trace::parse_run_status(v->string, st))
                fail(v->line, where + key + ": unknown status '" + v->string + "' (statuses: " + run_status_names() + ")");
            out.push_back(st);
        }
        return out;
    }

    const Variant& variant_named(const std::string& id, uint32_t line, const std::string& where) const {
        const Variant* v = s_.find_variant(id);
        if (v == nullptr) {
            std::vector<std::string> ids;
            for (const Variant& x : s_.variants)
                ids.push_back(x.id);
            fail(line, where + "lesson " + s_.id + " has no variant '" + id + "' (variants: " + join(ids) + ")");
        }
        return *v;
    }

    // [SECTION] Quotes: found in the lesson's text

    // Where `quote` stands in the lesson's texts of one language: "en.md, lesson, What it shows",
    // "en.md, variant x, The fix"; "" where it does not.
    std::string find_quote(const std::string& quote, bool zh) const {
        const std::string q = squeeze(quote);
        const char* file = zh ? "zh.md" : "en.md";
        const auto look = [&](const LessonText& t, const std::string& block) -> std::string {
            const std::pair<const std::string*, const char*> parts[] = {{&t.title, "title"},
                                                                       {&t.shows, "What it shows"},
                                                                       {&t.predict, "Predict"},
                                                                       {&t.look_at, "What to look at"},
                                                                       {&t.fix, "The fix"}};
            for (const auto& [text, name] : parts)
                if (squeeze(*text).find(q) != std::string::npos) return std::string(file) + ", " + block + ", " + name;
            return {};
        };
        if (std::string w = look(zh ? s_.zh : s_.en, "lesson"); !w.empty()) return w;
        for (const Variant& v : s_.variants)
            if (std::string w = look(zh ? v.zh : v.en, "variant " + v.id); !w.empty()) return w;
        return {};
    }

    // [SECTION] The command

    ClaimCommand command(const toml::Table& t, const std::string& where, uint32_t& line) const {
        const std::string text = string_field(t, "command", where, true);
        line = entry(t, "command")->line;
        const std::string at = where + "command: ";
        const std::vector<std::string> w = split_words(text);
        ClaimCommand c;
        c.text = squeeze(text);
        if (w.empty() || (w[0] != "run" && w[0] != "ladder"))
            fail(line, at + "must start with run or ladder (a synclab command), got '" + (w.empty() ? "" : w[0]) + "'");
        c.kind = w[0] == "run" ? ClaimCommandKind::Run : ClaimCommandKind::Ladder;
        if (w.size() < 2 || w[1].starts_with("--"))
            fail(line, at + "'" + w[0] + "' needs the lesson's id next (" + s_.id + ")");
        if (w[1] != s_.id)
            fail(line, at + "names lesson '" + w[1] + "', but this file is lesson " + s_.id + "'s");
        const bool run = c.kind == ClaimCommandKind::Run;
        const std::vector<std::string> run_options = {"--variant", "--param", "--schedule", "--seed",
                                                      "--reps",    "--memory", "--warp-model", "--histogram",
                                                      "--per",     "--max-steps", "--untraced"};
        const std::vector<std::string> ladder_options = {"--param", "--sm-count", "--reps"};
        const std::vector<std::string>& known = run ? run_options : ladder_options;
        const auto number = [&](const std::string& opt, const std::string& v, uint64_t lo, uint64_t hi) {
            uint64_t n = 0;
            const bool digits = !v.empty() && std::all_of(v.begin(), v.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
            if (digits && v.size() < 19) n = std::stoull(v);
            if (!digits || v.size() >= 19 || n < lo || n > hi)
                fail(line, at + opt + " takes a whole number " + std::to_string(lo) + ".." + std::to_string(hi) +
                               ", got '" + v + "'");
            return n;
        };
        std::vector<std::string> seen;
        for (size_t i = 2; i < w.size(); ++i) {
            const std::string& opt = w[i];
            if (std::find(known.begin(), known.end(), opt) == known.end())
                fail(line, at + (opt.starts_with("--") ? "unknown option " : "unexpected word ") + opt + " (" + w[0] +
                               " in a claim takes " + join(known) + ")");
            if (opt != "--param" && std::find(seen.begin(), seen.end(), opt) != seen.end())
                fail(line, at + opt + " given twice");
            seen.push_back(opt);
            if (opt == "--untraced") {
                c.untraced = true;
                continue;
            }
            if (i + 1 >= w.size() || w[i + 1].starts_with("--")) fail(line, at + opt + " needs a value");
            const std::string& v = w[++i];
            if (opt == "--variant") {
                c.variant = variant_named(v, line, at).id;
            } else if (opt == "--param") {
                try {
                    c.params.push_back(parse_param_text(v));
                    (void)with_params(s_, c.params); // an unknown parameter or choice, or one given twice
                } catch (const ParamError& e) {
                    fail(line, at + "--param " + v + ": " + e.what());
                }
            } else if (opt == "--schedule") {
                c.schedule = v;
            } else if (opt == "--warp-model") {
                c.warp_model = v;
            } else if (opt == "--memory") {
                launch::MemoryModel m;
                if (!launch::parse_memory_model(v, m)) fail(line, at + "--memory must be sc or relaxed, got '" + v + "'");
                c.memory = m;
            } else if (opt == "--seed") {
                c.seed = number(opt, v, 0, uint64_t(1) << 40);
            } else if (opt == "--reps") {
                c.reps = static_cast<uint32_t>(number(opt, v, 1, 100000));
                c.reps_given = true;
            } else if (opt == "--histogram") {
                if (std::none_of(s_.buffers.begin(), s_.buffers.end(), [&](const BufferDecl& b) { return b.name == v; }))
                    fail(line, at + "--histogram " + v + ": lesson " + s_.id + " has no buffer of that name");
                c.histogram = v;
            } else if (opt == "--per") {
                c.per = static_cast<uint32_t>(number(opt, v, 1, 1u << 24));
            } else if (opt == "--max-steps") {
                c.max_steps = number(opt, v, 1000, uint64_t(1) << 50);
            } else if (opt == "--sm-count") {
                c.sm_count = static_cast<uint32_t>(number(opt, v, 1, 4096));
            }
        }
        if (run && c.variant.empty()) fail(line, at + "run needs --variant V");
        if (c.per != 0 && c.histogram.empty()) fail(line, at + "--per N needs --histogram BUFFER");
        if (!run && !c.reps_given) c.reps = 20;
        return c;
    }

    // [SECTION] Predicates

    ClaimExpect expect(const toml::Table& t, const ClaimCommand& c, const std::string& where) const {
        ClaimExpect x;
        const bool run = c.kind == ClaimCommandKind::Run;
        const std::vector<const char*> run_keys = {
            "status",          "traced_status", "findings",      "no_findings",    "only_findings",
            "finding_lines",   "wrong_outputs", "wrong_fraction", "reps_with_wrong", "message_has", "wrong_at", "output", "finding_says",
            "outcomes_seen",   "outcomes_never", "outcome_share", "cpu_stale",      "cpu_flags_seen"};
        const std::vector<const char*> ladder_keys = {"slowest", "fastest", "order", "ratios"};
        for (const char* k : run ? ladder_keys : run_keys)
            if (const toml::Entry* e = entry(t, k))
                fail(e->line, where + k + " is about " + (run ? "a ladder" : "a run") + ", but the command is " +
                                  (run ? "run" : "ladder"));
        if (run) {
            x.status = statuses(t, "status", where);
            x.traced_status = statuses(t, "traced_status", where);
            x.findings = kinds(t, "findings", where, false);
            x.no_findings = kinds(t, "no_findings", where, false);
            if (entry(t, "only_findings")) {
                x.only_findings_set = true;
                x.only_findings = kinds(t, "only_findings", where, true);
            }
            for (const Value* v : string_list(t, "finding_lines", where, false)) {
                ClaimFindingLines fl;
                fl.text = v->string;
                const size_t colon = v->string.find(':');
                const std::vector<std::string> lines =
                    split_words(colon == std::string::npos ? "" : v->string.substr(colon + 1));
                if (colon == std::string::npos || !parse_finding_kind(squeeze(v->string.substr(0, colon)), fl.kind) ||
                    lines.empty())
                    fail(v->line, where + "finding_lines: '" + v->string +
                                      "' must be \"KIND: LINE LINE ...\" (kinds: " + finding_kind_names() + ")");
                for (const std::string& l : lines) {
                    if (l.empty() || !std::all_of(l.begin(), l.end(), [](char ch) { return ch >= '0' && ch <= '9'; }) ||
                        l.size() > 6)
                        fail(v->line, where + "finding_lines: '" + l + "' in '" + v->string + "' is not a line number");
                    fl.lines.push_back(static_cast<uint32_t>(std::stoul(l)));
                }
                x.finding_lines.push_back(fl);
            }
            for (const Value* v : string_list(t, "finding_says", where, false)) {
                ClaimFindingSays fs;
                fs.text = v->string;
                const size_t colon = v->string.find(':');
                if (colon == std::string::npos || !parse_finding_kind(squeeze(v->string.substr(0, colon)), fs.kind) ||
                    squeeze(v->string.substr(colon + 1)).empty())
                    fail(v->line, where + "finding_says: '" + v->string + "' must be \"KIND: words\" (kinds: " +
                                      finding_kind_names() + ")");
                fs.words = squeeze(v->string.substr(colon + 1));
                x.finding_says.push_back(fs);
            }
            x.wrong_outputs = range(t, "wrong_outputs", where, 0, 1e15, true);
            x.wrong_fraction = range(t, "wrong_fraction", where, 0, 1, false);
            x.reps_with_wrong = range(t, "reps_with_wrong", where, 0, c.reps, true);
            for (const Value* v : string_list(t, "wrong_at", where, false)) {
                if (x.wrong_at) fail(v->line, where + "wrong_at: one, not a list");
                x.wrong_at = wrong_at(*v, where);
            }
            for (const Value* v : string_list(t, "output", where, false))
                x.outputs.push_back(output(*v, where));
            for (const Value* v : string_list(t, "message_has", where, false))
                x.message_has.push_back(v->string);
            const bool histogram = !c.histogram.empty() || s_.outcomes.present();
            for (const char* k : {"outcomes_seen", "outcomes_never", "outcome_share"})
                if (const toml::Entry* e = entry(t, k); e != nullptr && !histogram)
                    fail(e->line, where + k + " reads the outcome histogram: the command needs --histogram BUFFER "
                                              "(lesson " + s_.id + " has no [outcomes])");
            for (const Value* v : string_list(t, "outcomes_seen", where, false))
                x.outcomes_seen.push_back(v->string);
            for (const Value* v : string_list(t, "outcomes_never", where, false))
                x.outcomes_never.push_back(v->string);
            for (const Value* v : string_list(t, "outcome_share", where, false)) {
                ClaimOutcomeShare sh;
                sh.text = v->string;
                const size_t colon = v->string.rfind(':');
                if (colon == std::string::npos || colon == 0 ||
                    !parse_range_text(squeeze(v->string.substr(colon + 1)), sh.share) || sh.share.lo < 0 ||
                    sh.share.hi > 1)
                    fail(v->line, where + "outcome_share: '" + v->string + "' must be \"OUTCOME: LO..HI\" with 0 <= LO <= HI <= 1");
                sh.outcome = squeeze(v->string.substr(0, colon));
                x.outcome_share.push_back(sh);
            }
            x.cpu_stale = range(t, "cpu_stale", where, 0, 1e12, true);
            x.cpu_flags_seen = range(t, "cpu_flags_seen", where, 0, 1e12, true);
            if ((x.cpu_stale.set || x.cpu_flags_seen.set) && !s_.host_reader.find(c.variant))
                fail(line_of(t, x.cpu_stale.set ? "cpu_stale" : "cpu_flags_seen"),
                     where + "cpu_stale / cpu_flags_seen read the CPU reader, but variant " + c.variant +
                         " has no [host_reader." + c.variant + "] table");
        } else {
            for (const char* k : {"slowest", "fastest"})
                if (entry(t, k)) {
                    const std::string v = string_field(t, k, where, false);
                    (k[0] == 's' ? x.slowest : x.fastest) = variant_named(v, line_of(t, k), where + k + ": ").id;
                }
            for (const Value* v : string_list(t, "order", where, false))
                x.order.push_back(variant_named(v->string, v->line, where + "order: ").id);
            if (x.order.size() == 1) fail(line_of(t, "order"), where + "order needs at least two variants");
            for (const Value* v : string_list(t, "ratios", where, false)) x.ratios.push_back(ratio(*v, where));
        }
        if (x.count() == 0)
            fail(t.line, where + "no predicate: say what the command must show (" +
                             (run ? "status, findings, wrong_outputs, ..." : "slowest, order, ratios, ...") + ")");
        return x;
    }

    static bool whole(const std::string& t, uint64_t& v) {
        if (t.empty() || t.size() > 15 || !std::all_of(t.begin(), t.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
            return false;
        v = std::stoull(t);
        return true;
    }

    ClaimWrongAt wrong_at(const Value& v, const std::string& where) const {
        ClaimWrongAt w;
        w.text = v.string;
        const std::string form = "\"i % M in A..B, C: LO..HI\" (M > 0, the ranges within 0 .. M - 1, 0 <= LO <= HI <= 1)";
        const size_t colon = v.string.rfind(':');
        const std::string head = squeeze(colon == std::string::npos ? "" : v.string.substr(0, colon));
        bool ok = colon != std::string::npos && parse_range_text(squeeze(v.string.substr(colon + 1)), w.share) &&
                  w.share.lo >= 0 && w.share.hi <= 1 && head.rfind("i % ", 0) == 0;
        const size_t in = head.find(" in ");
        ok = ok && in != std::string::npos && whole(head.substr(4, in - 4), w.modulus) && w.modulus > 0;
        if (ok) {
            std::string list = head.substr(in + 4);
            std::replace(list.begin(), list.end(), ',', ' ');
            for (const std::string& item : split_words(list)) {
                const size_t dots = item.find("..");
                uint64_t lo = 0, hi = 0;
                const bool parsed = dots == std::string::npos ? whole(item, lo) && (hi = lo, true)
                                                              : whole(item.substr(0, dots), lo) && whole(item.substr(dots + 2), hi);
                if (!parsed || lo > hi || hi >= w.modulus) ok = false;
                else w.ranges.emplace_back(lo, hi);
            }
        }
        if (!ok || w.ranges.empty()) fail(v.line, where + "wrong_at: '" + v.string + "' must be " + form);
        return w;
    }

    ClaimOutput output(const Value& v, const std::string& where) const {
        ClaimOutput o;
        o.text = v.string;
        const size_t open = v.string.find('['), close = v.string.find(']'), colon = v.string.rfind(':');
        bool ok = open != std::string::npos && close != std::string::npos && colon != std::string::npos && open < close &&
                  close < colon && whole(squeeze(v.string.substr(open + 1, close - open - 1)), o.index) &&
                  parse_range_text(squeeze(v.string.substr(colon + 1)), o.value);
        if (!ok) fail(v.line, where + "output: '" + v.string + "' must be \"BUFFER[I]: LO..HI\"");
        o.buffer = squeeze(v.string.substr(0, open));
        const auto b = std::find_if(s_.buffers.begin(), s_.buffers.end(), [&](const BufferDecl& d) { return d.name == o.buffer; });
        if (b == s_.buffers.end()) fail(v.line, where + "output: lesson " + s_.id + " has no buffer '" + o.buffer + "'");
        if (o.index >= b->spec.count)
            fail(v.line, where + "output: " + o.buffer + " holds " + std::to_string(b->spec.count) + " elements, index " +
                             std::to_string(o.index) + " is past its end");
        o.element = o.buffer + "[" + std::to_string(o.index) + "]";
        o.type = b->spec.type;
        return o;
    }

    ClaimRatio ratio(const Value& v, const std::string& where) const {
        ClaimRatio r;
        r.text = v.string;
        const std::vector<std::string> w = split_words(v.string);
        const std::string form = "\"A / B >= X\", \"A / B <= X\" or \"A / B in LO..HI\"";
        if (w.size() != 5 || w[1] != "/" || (w[3] != ">=" && w[3] != "<=" && w[3] != "in"))
            fail(v.line, where + "ratios: '" + v.string + "' must be " + form);
        r.a = variant_named(w[0], v.line, where + "ratios: ").id;
        r.b = variant_named(w[2], v.line, where + "ratios: ").id;
        ClaimRange bound;
        if (!parse_range_text(w[4], bound) || bound.lo <= 0 || (w[3] != "in" && bound.lo != bound.hi))
            fail(v.line, where + "ratios: '" + w[4] + "' in '" + v.string + "' must be a positive number" +
                             (w[3] == "in" ? " range LO..HI" : ""));
        if (w[3] == ">=") r.bounds = {bound.lo, 1e300, true};
        else if (w[3] == "<=") r.bounds = {0, bound.lo, true};
        else r.bounds = bound;
        return r;
    }

    uint32_t line_of(const toml::Table& t, const char* key) const {
        const toml::Entry* e = entry(t, key);
        return e ? e->line : t.line;
    }

    Claim claim(const toml::Table& t) const {
        Claim c;
        c.id = t.path[1];
        c.line = t.line;
        const std::string where = "claim '" + c.id + "': ";
        for (const toml::Entry& e : t.entries)
            if (std::none_of(std::begin(kClaimKeys), std::end(kClaimKeys),
                             [&](const ClaimKey& k) { return e.key == k.key; }))
                fail(e.line, where + "unknown key '" + e.key + "' (keys: " + key_list() + ")");
        c.quote = squeeze(string_field(t, "quote", where, true));
        c.where = find_quote(c.quote, false);
        if (c.where.empty())
            fail(line_of(t, "quote"), where + "quote: not in en.md (the words must be the text's own, line breaks "
                                              "aside): \"" + c.quote + "\"");
        c.quote_zh = squeeze(string_field(t, "quote_zh", where, false));
        if (!c.quote_zh.empty()) {
            c.where_zh = find_quote(c.quote_zh, true);
            if (c.where_zh.empty())
                fail(line_of(t, "quote_zh"), where + "quote_zh: not in zh.md: \"" + c.quote_zh + "\"");
        }
        if (entry(t, "note")) c.note = squeeze(string_field(t, "note", where, false));
        c.command = command(t, where, c.command_line);
        for (const Value* v : string_list(t, "backends", where, false)) {
            if (v->string != "sim" && v->string != "gpu")
                fail(v->line, where + "backends: '" + v->string + "' is not a backend (sim, gpu)");
            if (c.holds_on(v->string)) fail(v->line, where + "backends: '" + v->string + "' given twice");
            c.backends.push_back(v->string);
        }
        if (c.backends.empty()) fail(t.line, where + "missing key 'backends' (" + meaning("backends") + ")");
        const uint32_t bl = line_of(t, "backends");
        if (entry(t, "device")) {
            c.device = squeeze(string_field(t, "device", where, false));
            if (c.device.empty() || c.backends != std::vector<std::string>{"gpu"})
                fail(line_of(t, "device"), where + "device: a GPU's name (\"H200\") on a claim whose backends "
                                                   "are [\"gpu\"] only");
        }
        if (c.holds_on("gpu") && c.command.simulator_only())
            fail(bl, where + "backends: gpu, but the command sets the simulator's own behaviour (--memory, "
                             "--warp-model or --max-steps): write a claim per backend");
        if (c.holds_on("gpu") && c.command.schedule == "exhaustive")
            fail(bl, where + "backends: gpu, but --schedule exhaustive enumerates the simulator's executions");
        if (c.holds_on("sim") && c.command.untraced)
            fail(bl, where + "backends: sim, but --untraced is a GPU option");
        c.expect = expect(t, c.command, where);
        const bool gpu_only_keys = !c.expect.traced_status.empty() || c.expect.cpu_stale.set || c.expect.cpu_flags_seen.set;
        if (gpu_only_keys && c.holds_on("sim"))
            fail(bl, where + "backends: sim, but traced_status, cpu_stale and cpu_flags_seen are about GPU launches");
        return c;
    }

    const Scenario& s_;
    std::string file_;
};

} // namespace

// [SECTION] Files

LessonClaims parse_claims(std::string_view text, const std::string& file, const Scenario& lesson) {
    return ClaimsReader(lesson, file).read(text);
}

LessonClaims builtin_claims(const Scenario& lesson) {
    const std::string_view text = embedded_file("lessons/" + lesson.id + "/claims.toml");
    if (text.empty()) return LessonClaims{lesson.id, "", {}};
    return parse_claims(text, "assets/lessons/" + lesson.id + "/claims.toml", lesson);
}

LessonClaims load_claims(const std::filesystem::path& folder, const Scenario& lesson) {
    const std::filesystem::path path = folder / "claims.toml";
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return LessonClaims{lesson.id, "", {}};
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof()) throw LessonError(path.string(), 0, "cannot read the file");
    return parse_claims(text.str(), path.string(), lesson);
}

std::string builtin_recording(std::string_view lesson_id) {
    return std::string(embedded_file("lessons/" + std::string(lesson_id) + "/h200.json"));
}

} // namespace synclab::scenario
