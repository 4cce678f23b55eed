// Index
//   [SECTION] Numbers and kinds
//   [SECTION] The run's own outcome
//   [SECTION] Whether it matched the lesson
//   [SECTION] A memory model's verdict on an outcome
//   [SECTION] The expected verdict as a sentence
//   [SECTION] Predict, then run
//   [SECTION] A run's result in one line
#include "ui/model/outcome_words.h"

#include "analysis/finding_kinds.h"
#include "ui/model/lesson_library.h"
#include "ui/model/source_lines.h"
#include "ui/model/value_format.h"

#include <algorithm>
#include <map>

namespace synclab::ui {

namespace {

bool zh(Language language) {
    return language == Language::Zh;
}

// "a, b and c" / "a、b 和 c" (`last` replaces "and": "or" / "或").
std::string join_words(const std::vector<std::string>& items, Language language, bool with_or = false) {
    const std::string last = zh(language) ? (with_or ? "或" : "和") : (with_or ? " or " : " and ");
    const std::string comma = zh(language) ? "、" : ", ";
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += i + 1 == items.size() ? last : comma;
        out += items[i];
    }
    return out;
}

std::string count_findings(size_t n, Language language) {
    if (zh(language)) return n == 0 ? "没有发现" : std::to_string(n) + " 项发现";
    if (n == 0) return "no findings";
    return std::to_string(n) + (n == 1 ? " finding" : " findings");
}

const char* kSep = " \u00b7 ";

} // namespace

// [SECTION] Numbers and kinds ---------------------------------------------------------------------

std::string thousands(uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string kind_words(analysis::FindingKind kind, Language language, bool with_article) {
    const analysis::FindingKindInfo& row = analysis::info(kind);
    return zh(language) ? row.zh : with_article ? row.en_article : row.en;
}

// [SECTION] The run's own outcome ---------------------------------------------------------------------

const char* outcome_word(runner::RunOutcome outcome, Language language) {
    const bool z = zh(language);
    switch (outcome) {
    case runner::RunOutcome::Right:
        return z ? "正确" : "right";
    case runner::RunOutcome::WrongOutputs:
        return z ? "输出错误" : "wrong outputs";
    case runner::RunOutcome::Completed:
        return z ? "已完成" : "completed";
    case runner::RunOutcome::Hung:
        return z ? "挂起" : "hung";
    case runner::RunOutcome::Stopped:
        return z ? "被停止" : "stopped";
    case runner::RunOutcome::Refused:
        return z ? "被拒绝" : "refused";
    case runner::RunOutcome::Error:
        return z ? "出错" : "error";
    case runner::RunOutcome::Cancelled:
        return z ? "已取消" : "cancelled";
    }
    return "";
}

theme::Tone outcome_tone(runner::RunOutcome outcome, bool findings) {
    using theme::Tone;
    switch (outcome) {
    case runner::RunOutcome::Right:
        return findings ? Tone::Warning : Tone::Good;
    case runner::RunOutcome::Completed:
        return findings ? Tone::Warning : Tone::Neutral;
    case runner::RunOutcome::Cancelled:
        return Tone::Neutral;
    case runner::RunOutcome::WrongOutputs:
    case runner::RunOutcome::Hung:
    case runner::RunOutcome::Stopped:
    case runner::RunOutcome::Refused:
    case runner::RunOutcome::Error:
        return Tone::Bad;
    }
    return Tone::Neutral;
}

std::vector<std::string> key_values(const runner::RunSummary& s, Language language) {
    std::vector<std::string> out;
    for (const scenario::ExpectedOutput& e : s.expected_outputs) {
        if (e.bytes.size() != launch::elem_size(e.type)) continue; // not a single element
        const auto got = std::find_if(s.final_buffers.begin(), s.final_buffers.end(),
                                      [&](const launch::Buffer& b) { return b.name == e.name; });
        if (got == s.final_buffers.end() || got->bytes.size() != e.bytes.size()) continue;
        auto text = [&](const std::vector<uint8_t>& bytes) {
            std::string v = element_text(bytes, e.type, 0);
            // Whole numbers with the thousands separator the other counts use ("4,096").
            const bool digits = !v.empty() && std::all_of(v.begin() + (v[0] == '-'), v.end(),
                                                          [](char c) { return c >= '0' && c <= '9'; });
            if (digits && v[0] != '-') return thousands(std::stoull(v));
            return v;
        };
        const bool right = got->bytes == e.bytes;
        if (right && e.guard) continue; // left alone as it should be: not this run's result
        std::string line = e.name + " = " + text(got->bytes);
        if (!right) line += (zh(language) ? "，应为 " : ", expected ") + text(e.bytes);
        out.push_back(std::move(line));
    }
    return out;
}

StillRunning still_running(const trace::Trace& trace) {
    std::map<uint32_t, uint32_t> at; // site -> running threads
    StillRunning out;
    for (const trace::ThreadInfo& t : trace.threads)
        if (t.end == trace::ThreadEnd::Running) {
            ++at[t.end_site];
            ++out.threads;
        }
    uint32_t most = 0;
    for (const auto& [site, threads] : at)
        if (threads > most && site < trace.sites.size() && trace.sites[site].source_line != 0) {
            most = threads;
            out.line = trace.sites[site].source_line;
        }
    if (out.line == 0) out.threads = 0;
    return out;
}

namespace {

// Why a budget stopped the run, in the app's words (the simulator's own message names the command
// line's options, which the app has as run panel controls).
std::string budget_words(const runner::RunSummary& s, Language language) {
    const bool z = zh(language);
    const StillRunning where = still_running(s.trace);
    std::string out;
    switch (s.budget) {
    case sim::Budget::Steps:
        out = z ? "步数预算在执行了 " + thousands(s.thread_instructions) + " 条线程指令后用完"
                : "the step budget ran out after " + thousands(s.thread_instructions) + " thread-instructions";
        break;
    case sim::Budget::Events:
        out = z ? "跟踪记录达到了事件预算" : "the trace reached its budget of events";
        break;
    case sim::Budget::Memory:
        out = z ? "模拟需要的内存超出了内存预算" : "the simulation needed more memory than its budget";
        break;
    case sim::Budget::Threads:
        out = z ? "这次启动的线程数超出了模拟器的线程预算" : "the launch has more threads than the simulator's budget";
        break;
    case sim::Budget::None:
        return s.message;
    }
    if (where.threads > 0)
        out += z ? "，还有 " + thousands(where.threads) + " 个线程在第 " + std::to_string(where.line) + " 行运行"
                 : ", " + thousands(where.threads) + (where.threads == 1 ? " thread" : " threads") +
                       " still running at line " + std::to_string(where.line);
    if (s.budget == sim::Budget::Steps)
        out += z ? "（可能是一个永不结束的循环？）" + std::string(kSep) + "可以在运行面板里提高步数预算"
                 : " (a loop that may never end?)" + std::string(kSep) + "raise the step budget in the run panel";
    return out;
}

} // namespace

Outcome outcome_of(const runner::RunSummary& s, Language language) {
    const bool z = zh(language);
    const size_t findings = s.findings.size();
    const runner::RunOutcome outcome = runner::run_outcome(s);
    Outcome out;
    out.outcome = outcome;
    out.tone = outcome_tone(outcome, runner::found_a_bug(s));
    const std::string word = outcome_word(outcome, language);
    const std::string colon = z ? "：" : ": ";
    const std::string found = s.traced ? std::string(kSep) + count_findings(findings, language) : "";
    auto with_why = [&](const std::string& why) { return why.empty() ? word : word + colon + why; };
    const std::vector<std::string> keys = key_values(s, language);
    auto detail = [&](std::string fallback) {
        if (keys.empty()) return fallback;
        std::string joined;
        for (const std::string& k : keys)
            joined += (joined.empty() ? "" : std::string(kSep)) + k;
        return joined;
    };
    switch (outcome) {
    case runner::RunOutcome::Hung:
        out.words = with_why(s.status == trace::RunStatus::Deadlock ? (z ? "死锁" : "deadlock")
                                                                     : (z ? "超时后被停止" : "stopped at the timeout")) +
                    found;
        break;
    case runner::RunOutcome::Stopped:
        out.words = with_why(budget_words(s, language)) + found;
        break;
    case runner::RunOutcome::Refused:
        // The reason is the simulator's or the driver's English; Chinese says what it means.
        out.words = z ? with_why("这次 " + thousands(s.trace.meta.grid.count()) + " 个线程块的启动在任何线程运行之前就被拒绝了")
                      : with_why(s.message);
        break;
    case runner::RunOutcome::Error:
        out.words = with_why(s.message);
        break;
    case runner::RunOutcome::Cancelled:
        out.words = word;
        break;
    case runner::RunOutcome::WrongOutputs:
        out.words = word + kSep +
                    detail(z ? thousands(s.checked_outputs) + " 个中有 " + thousands(s.wrong_outputs) + " 个错误"
                             : thousands(s.wrong_outputs) + " of " + thousands(s.checked_outputs) + " wrong") +
                    found;
        break;
    case runner::RunOutcome::Completed:
        out.words = word + kSep + (z ? "未检查输出" : "outputs not checked") + found;
        break;
    case runner::RunOutcome::Right:
        out.words = word + kSep +
                    detail(z ? "检查了 " + thousands(s.checked_outputs) + " 个输出"
                             : thousands(s.checked_outputs) +
                                   (s.checked_outputs == 1 ? " output checked" : " outputs checked"));
        // Untraced GPU launches: nothing was analysed, so "no findings" would claim too much.
        out.words += s.traced ? found
                              : std::string(kSep) + (z ? "未记录跟踪，无法给出发现" : "not traced: no findings either way");
        if (!s.traced) out.tone = theme::Tone::Neutral;
        break;
    }
    return out;
}

// [SECTION] Whether it matched the lesson -----------------------------------------------------------

const char* match_word(runner::LessonMatch match, Language language) {
    if (zh(language)) return match == runner::LessonMatch::AsExpected ? "符合预期" : "出乎预期";
    return runner::to_string(match);
}

theme::Tone match_tone(runner::LessonMatch match) {
    return match == runner::LessonMatch::AsExpected ? theme::Tone::Accent : theme::Tone::Warning;
}

// [SECTION] A memory model's verdict on an outcome ----------------------------------------------------

std::string verdict_words(const runner::OutcomeVerdict& v, Language language) {
    if (!zh(language)) return runner::verdict_words(v);
    if (v.verdict == runner::ModelVerdict::Forbidden) return v.seen ? "禁止，却出现了" : "禁止，未出现";
    return v.seen ? "允许，出现了" : "允许，未出现";
}

theme::Tone verdict_tone(const runner::OutcomeVerdict& v) {
    using theme::Tone;
    if (v.broken()) return Tone::Bad;
    if (v.verdict == runner::ModelVerdict::Forbidden) return Tone::Good; // the model's promise held
    if (v.seen && v.weak) return Tone::Warning;                          // allowed, and it happens
    return Tone::Neutral;
}

std::vector<std::string> vocabulary_words(Language language) {
    using runner::RunOutcome;
    std::vector<std::string> out;
    for (RunOutcome o : {RunOutcome::Right, RunOutcome::WrongOutputs, RunOutcome::Completed, RunOutcome::Hung,
                         RunOutcome::Stopped, RunOutcome::Refused, RunOutcome::Error, RunOutcome::Cancelled})
        out.emplace_back(outcome_word(o, language));
    for (runner::LessonMatch m : {runner::LessonMatch::AsExpected, runner::LessonMatch::Surprise})
        out.emplace_back(match_word(m, language));
    for (runner::ModelVerdict v : {runner::ModelVerdict::Allowed, runner::ModelVerdict::Forbidden})
        for (bool seen : {false, true})
            out.push_back(verdict_words({v, seen, false}, language));
    return out;
}

// [SECTION] The expected verdict as a sentence ------------------------------------------------------

namespace {

// The CUDA lines of the first finding of `kind`, sorted, unique, without 0.
std::vector<uint32_t> lines_of(analysis::FindingKind kind, const std::vector<analysis::Finding>& findings) {
    for (const analysis::Finding& f : findings) {
        if (f.kind != kind) continue;
        std::vector<uint32_t> lines = f.lines;
        std::erase(lines, 0u);
        std::sort(lines.begin(), lines.end());
        lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
        return lines;
    }
    return {};
}

// "a race between lines 20 and 23" / "barrier divergence at line 12" / "数据竞争（第 20 行和第 23 行之间）".
std::string kind_with_lines(analysis::FindingKind kind, const std::vector<uint32_t>& lines,
                            Language language) {
    std::string out = kind_words(kind, language);
    if (lines.empty()) return out;
    std::vector<std::string> numbers;
    for (uint32_t line : lines)
        numbers.push_back(zh(language) ? "第 " + std::to_string(line) + " 行" : std::to_string(line));
    const bool between = kind == analysis::FindingKind::Race && lines.size() >= 2;
    if (zh(language)) return out + "（" + join_words(numbers, language) + (between ? "之间" : "") + "）";
    return out +
           (between             ? " between lines "
            : lines.size() == 1 ? " at line "
                                : " at lines ") +
           join_words(numbers, language);
}

std::string hang_words(trace::RunStatus status, Language language) {
    const bool z = zh(language);
    switch (status) {
    case trace::RunStatus::Deadlock:
        return z ? "运行会挂起（死锁）" : "the run should hang in a deadlock";
    case trace::RunStatus::Timeout:
        return z ? "运行会一直不结束，直到超时" : "the run should not end before the timeout";
    case trace::RunStatus::Budget:
        return z ? "运行会超出步数预算" : "the run should run past its step budget";
    case trace::RunStatus::Error:
        return z ? "运行会出错" : "the run should end in an error";
    case trace::RunStatus::Cancelled:
    case trace::RunStatus::Ok:
        break;
    }
    return "";
}

} // namespace

std::string expectation_sentence(const scenario::Expectation& e, Language language,
                                 const std::vector<analysis::Finding>& findings) {
    const bool z = zh(language);
    std::vector<std::string> clauses;
    std::vector<std::string> found;
    for (analysis::FindingKind kind : e.must_find)
        found.push_back(kind_with_lines(kind, lines_of(kind, findings), language));
    // Every lesson rules out memory errors (scenario/lesson.cpp): the sentence names them only where
    // they are the lesson's subject, and counts them among the kinds ruled out.
    std::vector<std::string> absent;
    for (analysis::FindingKind kind : e.must_not_find)
        if (kind != analysis::FindingKind::OutOfBounds) absent.push_back(kind_words(kind, language, false));
    const size_t ruled_out = e.must_not_find.size();

    std::string first;
    if (!found.empty())
        first = (z ? "这个版本应当出现" : "This variant should show ") + join_words(found, language);
    else if (!absent.empty())
        first =
            (z ? "这个版本不应出现" : "This variant should show no ") + join_words(absent, language, true);
    else
        first = z ? "这个版本没有必须出现的发现" : "This variant need not show any finding";

    const std::string hang = hang_words(e.status, language);
    if (!hang.empty()) clauses.push_back(hang);
    switch (e.wrong_outputs) {
    case scenario::WrongOutputs::Possible:
        clauses.push_back(
            z ? "在随机和对抗调度下部分输出会出错"
              : "some outputs should come out wrong under the random and adversarial schedules");
        break;
    case scenario::WrongOutputs::Never:
        clauses.push_back(z ? "在任何调度下所有输出都应当正确"
                            : "every output should come out right under every schedule");
        break;
    case scenario::WrongOutputs::Unchecked:
        if (!hang.empty())
            clauses.push_back(z ? "挂起的运行不检查输出" : "a hung run leaves no outputs to check");
        break;
    }
    std::string out = first;
    for (size_t i = 0; i < clauses.size(); ++i)
        out += z ? (i + 1 == clauses.size() && clauses.size() > 1 ? "；" : "，") + clauses[i]
                 : (i + 1 == clauses.size() ? ", and " : ", ") + clauses[i];
    out += z ? "。" : ".";

    if (!found.empty() && !absent.empty()) {
        // Performance findings (contention): a lesson about bugs that leaves them unmentioned still
        // names every bug it rules out.
        auto named = [&](analysis::FindingKind k) {
            return std::find(e.must_find.begin(), e.must_find.end(), k) != e.must_find.end() ||
                   std::find(e.must_not_find.begin(), e.must_not_find.end(), k) != e.must_not_find.end();
        };
        size_t kinds = 0;
        for (const analysis::FindingKindInfo& row : analysis::finding_kinds())
            kinds += !row.performance || named(row.kind) ? 1 : 0;
        if (found.size() + ruled_out >= kinds)
            out += z ? "不应出现其他发现。" : " Nothing else should be found.";
        else
            out += (z ? "不应出现" : " It should show no ") + join_words(absent, language, true) +
                   (z ? "。" : ".");
    }
    return out;
}

// [SECTION] Predict, then run -------------------------------------------------------------------------

std::vector<PredictionPart> check_prediction(const Prediction& p, const runner::RunSummary& s,
                                             Language language) {
    const bool z = zh(language);
    std::vector<PredictionPart> parts;
    // A run past its step budget did not end either (an endless loop looks the same).
    const bool hung = s.status == trace::RunStatus::Deadlock || s.status == trace::RunStatus::Timeout ||
                      s.status == trace::RunStatus::Budget;

    if (p.wrong_outputs != Guess::Unset) {
        PredictionPart part;
        const bool said_wrong = p.wrong_outputs == Guess::Yes;
        part.guess = said_wrong ? (z ? "部分结果错误" : "some results wrong")
                                : (z ? "结果全部正确" : "all results right");
        if (s.checked_outputs == 0) {
            part.actual = z ? "没有检查任何输出" : "no outputs were checked";
            part.came = Came::Unknown;
        } else {
            const bool wrong = s.wrong_outputs > 0;
            part.actual =
                wrong
                    ? (z ? thousands(s.checked_outputs) + " 个中有 " + thousands(s.wrong_outputs) + " 个错误"
                         : thousands(s.wrong_outputs) + " of " + thousands(s.checked_outputs) + " wrong")
                    : (z ? thousands(s.checked_outputs) + " 个全部正确"
                         : "all " + thousands(s.checked_outputs) + " right");
            part.came = wrong == said_wrong ? Came::True : Came::False;
        }
        parts.push_back(part);
    }
    if (p.finding_set) {
        PredictionPart part;
        part.guess = p.finding ? kind_words(*p.finding, language) : (z ? "没有发现" : "no finding");
        const std::vector<analysis::FindingKind> kinds = runner::finding_kinds(s);
        if (!s.traced) {
            part.actual = z ? "未记录跟踪" : "not traced";
            part.came = Came::Unknown;
        } else {
            std::vector<std::string> names;
            for (analysis::FindingKind k : kinds)
                names.push_back(kind_words(k, language, false));
            part.actual = kinds.empty() ? (z ? "没有发现" : "no findings")
                                        : (z ? "发现：" : "found: ") + join_words(names, language);
            const bool right =
                p.finding ? std::find(kinds.begin(), kinds.end(), *p.finding) != kinds.end() : kinds.empty();
            part.came = right ? Came::True : Came::False;
        }
        parts.push_back(part);
    }
    if (p.hang != Guess::Unset) {
        PredictionPart part;
        const bool said_hang = p.hang == Guess::Yes;
        part.guess = said_hang ? (z ? "会挂起" : "it hangs") : (z ? "能运行结束" : "it completes");
        if (s.status == trace::RunStatus::Cancelled || s.status == trace::RunStatus::Error) {
            part.actual = z ? "运行没有正常结束" : "the run did not finish normally";
            part.came = Came::Unknown;
        } else {
            part.actual = hung ? (z ? "挂起了" : "it hung") : (z ? "结束了" : "it completed");
            part.came = hung == said_hang ? Came::True : Came::False;
        }
        parts.push_back(part);
    }
    return parts;
}

// [SECTION] A run's result in one line ----------------------------------------------------------------

std::optional<runner::LessonMatch> record_match(const RunRecord& r) {
    const scenario::Scenario* s = r.scenario_id.empty() ? nullptr : lessons().find(r.scenario_id);
    const scenario::Variant* v = s ? s->find_variant(r.variant_id) : nullptr;
    if (v == nullptr) return std::nullopt;
    const Badge badge = badge_for(*v, r);
    if (!badge.ran) return std::nullopt;
    return badge.match;
}

std::string record_summary_words(const RunRecord& r, Language language) {
    std::string out = outcome_of(r.summary, language).words;
    if (const auto match = record_match(r)) out += " \u00b7 " + std::string(match_word(*match, language));
    return out;
}

} // namespace synclab::ui
