#include "cli/claims_command.h"

#include "cli/args.h"
#include "gpu/client.h"
#include "runner/claims.h"
#include "scenario/claims.h"
#include "scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace synclab::cli {

const char* const kClaimsUsage =
    R"(  synclab claims [LESSON ...] [--lessons DIR] [--backend sim|gpu] [--recorded] [--record DIR]
                [--timeout S] [--json]
      Every claim a lesson's text makes (its claims.toml: the words quoted, the command that checks
      them, the backends they hold on, what the command must show), checked: each command is run
      and each predicate printed with what was measured. Default: every built-in lesson, the claims
      that hold on the simulator. --backend gpu: the GPU claims, run on this GPU. --recorded: the GPU
      claims against the lesson's recorded H200 figures (h200.json), no GPU needed; claims without a
      figure are listed as not recorded. --record DIR (with --backend gpu): also write what this GPU
      measured as DIR/LESSON/h200.json (pass assets/lessons to refresh the recordings).
      --lessons DIR: the lessons of DIR instead of the built-in ones. Exit 0: every claim checked
      holds; 1: one does not, or its command could not run.
)";

namespace {

struct LessonUnderTest {
    const scenario::Scenario* lesson = nullptr;
    scenario::LessonClaims claims;
    runner::ClaimRecording recording; // --recorded
};

std::string today() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
    return buf;
}

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

const char* verdict_word(runner::ClaimCheck::Verdict v) {
    switch (v) {
    case runner::ClaimCheck::Verdict::Holds:
        return "holds";
    case runner::ClaimCheck::Verdict::Fails:
        return "FAILS";
    case runner::ClaimCheck::Verdict::NotMeasured:
        return "no figure";
    }
    return "?";
}

nlohmann::json result_json(const runner::ClaimResult& r) {
    const scenario::Claim& c = *r.claim;
    nlohmann::json checks = nlohmann::json::array();
    for (const runner::ClaimCheck& k : r.checks)
        checks.push_back({{"what", k.what}, {"expected", k.expected}, {"measured", k.measured}, {"verdict", verdict_word(k.verdict)}});
    nlohmann::json j = {{"id", c.id},
                        {"quote", c.quote},
                        {"where", c.where},
                        {"command", "synclab " + c.command.text},
                        {"backends", c.backends},
                        {"backend", r.backend},
                        {"verdict", runner::to_string(r.verdict)},
                        {"checks", checks},
                        {"seconds", r.seconds}};
    if (!c.quote_zh.empty()) {
        j["quote_zh"] = c.quote_zh;
        j["where_zh"] = c.where_zh;
    }
    if (!c.note.empty()) j["claim_note"] = c.note;
    if (!r.note.empty()) j["note"] = r.note;
    if (r.measurement) j["measurement"] = runner::measurement_json(*r.measurement);
    return j;
}

void print_result(std::ostream& out, const runner::ClaimResult& r) {
    const scenario::Claim& c = *r.claim;
    out << "  " << std::left << std::setw(13) << runner::to_string(r.verdict) << c.id;
    if (r.seconds >= 0.05) out << "  (" << std::fixed << std::setprecision(1) << r.seconds << " s)" << std::defaultfloat;
    out << "\n      \"" << c.quote << "\"  (" << c.where << ")\n"
        << "      synclab " << c.command.text << (r.backend == "gpu" ? " --backend gpu" : "") << "\n";
    for (const runner::ClaimCheck& k : r.checks) {
        out << "      " << std::left << std::setw(10) << verdict_word(k.verdict) << k.what << " " << k.expected;
        if (!k.measured.empty()) out << ": " << k.measured;
        out << "\n";
    }
    if (!r.note.empty())
        out << "      " << (r.verdict == runner::ClaimVerdict::Holds || r.verdict == runner::ClaimVerdict::Fails ? "recorded: " : "")
            << r.note << "\n";
}

// DIR/LESSON/h200.json with the entries of `results` put in (those of other claims kept).
void write_recording(const std::filesystem::path& dir, const LessonUnderTest& l,
                     const std::vector<runner::ClaimResult>& results) {
    const std::filesystem::path path = dir / l.lesson->id / "h200.json";
    nlohmann::json doc = nlohmann::json::object();
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
        try {
            doc = nlohmann::json::parse(read_file(path));
        } catch (const nlohmann::json::parse_error& e) {
            throw InputError(path.string() + ": not JSON, not overwritten: " + e.what());
        }
    }
    if (!doc.contains("claims") || !doc["claims"].is_object()) doc["claims"] = nlohmann::json::object();
    std::string device;
    for (const runner::ClaimResult& r : results) {
        if (!r.measurement) continue;
        nlohmann::json e = runner::measurement_json(*r.measurement);
        device = r.measurement->device;
        e.erase("device");
        e["command"] = r.claim->command.text;
        e["source"] = "synclab claims --backend gpu --record on " + r.measurement->device + ", " + today();
        doc["claims"][r.claim->id] = e;
    }
    if (!device.empty()) doc["device"] = device;
    if (!doc.contains("about"))
        doc["about"] = "What a GPU measured for the GPU claims of " + l.claims.file +
                       " (synclab claims --backend gpu --record); synclab claims --recorded checks them.";
    std::filesystem::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary);
    out << doc.dump(2) << "\n";
    if (!out) throw InputError("could not write " + path.string());
}

} // namespace

int cmd_claims(const std::vector<std::string>& argv) {
    Args a(argv, "claims", {"lessons", "backend", "record", "timeout"}, {"json", "recorded"});
    const std::string backend = a.value_or("backend", "sim");
    if (backend != "sim" && backend != "gpu") throw UsageError("--backend must be 'sim' or 'gpu', got '" + backend + "'");
    const bool recorded = a.flag("recorded");
    if (recorded && a.value("backend"))
        throw UsageError("--recorded checks the GPU claims against the recorded figures: it runs nothing, so it "
                         "takes no --backend");
    const auto record_dir = a.value("record");
    if (record_dir && backend != "gpu")
        throw UsageError("--record DIR writes what the GPU measured: it needs --backend gpu");
    if (a.value("timeout") && backend != "gpu") throw UsageError("--timeout needs --backend gpu");
    runner::ClaimRunOptions run;
    run.gpu_timeout_s = a.double_or("timeout", 5, 0.05, 3600);
    const std::string side = recorded ? "gpu" : backend;

    // The lessons: built-in, or DIR's; all of them, or those named.
    std::vector<scenario::Scenario> from_dir;
    const auto dir = a.value("lessons");
    try {
        if (dir) from_dir = scenario::load_lessons(*dir);
    } catch (const scenario::LessonError& e) {
        throw InputError(e.what());
    }
    std::vector<const scenario::Scenario*> all;
    if (dir)
        for (const scenario::Scenario& s : from_dir)
            all.push_back(&s);
    else
        for (const scenario::Scenario& s : scenario::catalog())
            all.push_back(&s);
    std::vector<const scenario::Scenario*> chosen;
    for (const std::string& id : a.positional()) {
        const scenario::Scenario* found = nullptr;
        std::string ids;
        for (const scenario::Scenario* s : all) {
            if (s->id == id) found = s;
            ids += (ids.empty() ? "" : ", ") + s->id;
        }
        if (!found) throw UsageError("unknown lesson '" + id + "' (lessons: " + ids + ")");
        chosen.push_back(found);
    }
    if (chosen.empty()) chosen = all;

    std::vector<LessonUnderTest> lessons;
    try {
        for (const scenario::Scenario* s : chosen) {
            LessonUnderTest l;
            l.lesson = s;
            const std::filesystem::path folder = dir ? std::filesystem::path(*dir) / s->id : std::filesystem::path();
            l.claims = dir ? scenario::load_claims(folder, *s) : scenario::builtin_claims(*s);
            if (recorded) {
                const std::string file = dir ? (folder / "h200.json").string() : "assets/lessons/" + s->id + "/h200.json";
                std::error_code ec;
                const std::string text = dir ? (std::filesystem::is_regular_file(folder / "h200.json", ec)
                                                    ? read_file(folder / "h200.json")
                                                    : std::string())
                                             : scenario::builtin_recording(s->id);
                if (!text.empty()) l.recording = runner::parse_recording(text, file);
                l.recording.file = file;
            }
            // Every command planned before anything runs: a mistake in any claim is found at once.
            for (const scenario::Claim& c : l.claims.claims)
                if (c.holds_on(side) && !recorded) runner::plan_claim(*s, l.claims, c, side);
            lessons.push_back(std::move(l));
        }
    } catch (const scenario::LessonError& e) {
        throw InputError(e.what());
    }

    const bool json = a.flag("json");
    const std::string where = recorded ? "the recorded H200 figures" : backend == "gpu" ? "the GPU" : "the simulator";
    nlohmann::json out_lessons = nlohmann::json::array();
    size_t holds = 0, fails = 0, not_recorded = 0, errors = 0, other_side = 0, other_device = 0;
    for (const LessonUnderTest& l : lessons) {
        if (l.claims.claims.empty()) {
            if (!json) std::cout << l.lesson->id << ": no claims file\n";
            out_lessons.push_back({{"lesson", l.lesson->id}, {"file", ""}, {"claims", nlohmann::json::array()}});
            continue;
        }
        if (!json) std::cout << l.lesson->id << " (" << l.claims.file << ") on " << where << "\n";
        std::vector<runner::ClaimResult> results;
        for (const scenario::Claim& c : l.claims.claims) {
            if (!c.holds_on(side)) {
                ++other_side;
                continue;
            }
            runner::ClaimResult r;
            try {
                r = recorded ? runner::check_recorded(c, l.recording)
                             : runner::check_claim(*l.lesson, l.claims, c, backend, run);
            } catch (const gpu::Unavailable& e) {
                throw InputError(std::string(e.what()) +
                                 ": the GPU claims need a GPU here; --recorded checks them against the H200's figures");
            }
            switch (r.verdict) {
            case runner::ClaimVerdict::Holds:
                ++holds;
                break;
            case runner::ClaimVerdict::Fails:
                ++fails;
                break;
            case runner::ClaimVerdict::NotRecorded:
                ++not_recorded;
                break;
            case runner::ClaimVerdict::Error:
                ++errors;
                break;
            case runner::ClaimVerdict::OtherDevice:
                ++other_device;
                break;
            }
            if (!json) print_result(std::cout, r);
            std::cout.flush();
            results.push_back(std::move(r));
        }
        if (record_dir) write_recording(*record_dir, l, results);
        nlohmann::json cs = nlohmann::json::array();
        for (const runner::ClaimResult& r : results)
            cs.push_back(result_json(r));
        out_lessons.push_back({{"lesson", l.lesson->id}, {"file", l.claims.file}, {"claims", cs}});
    }
    const size_t checked = holds + fails + not_recorded + errors;
    if (json) {
        std::cout << nlohmann::json{{"backend", recorded ? "h200" : backend},
                                    {"lessons", out_lessons},
                                    {"holds", holds},
                                    {"fails", fails},
                                    {"not_recorded", not_recorded},
                                    {"errors", errors},
                                    {"other_device", other_device},
                                    {"on_other_backends", other_side}}
                         .dump(2)
                  << "\n";
    } else {
        std::cout << "\n" << holds << " of " << checked << " claims hold on " << where;
        if (fails) std::cout << "; " << fails << " FAIL";
        if (errors) std::cout << "; " << errors << " could not run";
        if (not_recorded) std::cout << "; not recorded yet: " << not_recorded << " (measure on the GPU: --backend gpu --record DIR)";
        if (other_device) std::cout << "; " << other_device << " about another GPU (shown, not judged)";
        std::cout << "\n";
        if (other_side)
            std::cout << "(" << other_side << " claims hold on another backend: "
                      << (side == "sim" ? "--backend gpu, or --recorded for the H200's figures" : "the simulator, the default")
                      << ")\n";
    }
    return fails + errors ? 1 : kExitOk;
}

} // namespace synclab::cli
