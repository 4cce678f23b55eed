// Index
//   [SECTION] Numbers and kinds
//   [SECTION] The outcome of a run
//   [SECTION] The expected verdict as a sentence
//   [SECTION] Predict, then run
#include "ui/outcome_words.h"

#include <algorithm>

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
    switch (kind) {
    case analysis::FindingKind::Race:
        return zh(language) ? "数据竞争" : with_article ? "a race" : "race";
    case analysis::FindingKind::BarrierDivergence:
        return zh(language) ? "屏障不一致" : "barrier divergence";
    case analysis::FindingKind::LostUpdate:
        return zh(language) ? "丢失更新" : with_article ? "a lost update" : "lost update";
    case analysis::FindingKind::Deadlock:
        return zh(language) ? "死锁" : with_article ? "a deadlock" : "deadlock";
    case analysis::FindingKind::StaleRead:
        return zh(language) ? "过期读取" : with_article ? "a stale read" : "stale read";
    case analysis::FindingKind::Contention:
        return zh(language) ? "原子争用" : "atomic contention";
    }
    return zh(language) ? "未知发现" : "an unknown finding";
}

// [SECTION] The outcome of a run -------------------------------------------------------------------

Outcome outcome_of(const runner::RunSummary& s, Language language) {
    using theme::Tone;
    const bool z = zh(language);
    const size_t findings = s.findings.size();
    const std::string found = s.traced ? std::string(kSep) + count_findings(findings, language) : "";
    std::string why = s.message;
    auto with_why = [&](std::string head) { return why.empty() ? head : head + (z ? "：" : ": ") + why; };
    switch (s.status) {
    case trace::RunStatus::Ok:
        break;
    case trace::RunStatus::Deadlock:
        return {(z ? "挂起：死锁" : "hung: deadlock") + found, Tone::Bad};
    case trace::RunStatus::Timeout:
        return {(z ? "挂起：超时后被停止" : "hung: stopped at the timeout") + found, Tone::Bad};
    case trace::RunStatus::Budget:
        return {with_why(z ? "被停止：超出步数预算" : "stopped: over the step budget") + found, Tone::Bad};
    case trace::RunStatus::Error:
        return {with_why(z ? "出错" : "error"), Tone::Bad};
    case trace::RunStatus::Cancelled:
        return {z ? "已取消" : "cancelled", Tone::Neutral};
    }
    const std::string completed = z ? "完成" : "completed";
    if (s.wrong_outputs > 0) {
        const std::string wrong =
            z ? thousands(s.checked_outputs) + " 个输出中有 " + thousands(s.wrong_outputs) + " 个错误"
              : thousands(s.wrong_outputs) + " of " + thousands(s.checked_outputs) +
                    (s.checked_outputs == 1 ? " output wrong" : " outputs wrong");
        return {completed + kSep + wrong + found, Tone::Bad};
    }
    if (s.checked_outputs == 0) {
        const std::string unchecked = z ? "未检查输出" : "outputs not checked";
        return {completed + kSep + unchecked + found, findings > 0 ? Tone::Warning : Tone::Neutral};
    }
    const std::string right = z ? "输出正确" : "outputs right";
    if (!s.traced) {
        // Untraced GPU launches: nothing was analysed, so "correct" would claim too much.
        return {completed + kSep + right + kSep +
                    (z ? "未记录跟踪，无法给出发现" : "not traced: no findings either way"),
                Tone::Neutral};
    }
    if (findings > 0) return {completed + kSep + right + found, Tone::Warning};
    const std::string all_right =
        z ? thousands(s.checked_outputs) + " 个输出全部正确"
          : thousands(s.checked_outputs) + (s.checked_outputs == 1 ? " output right" : " outputs right");
    return {(z ? "正确" : "correct") + std::string(kSep) + all_right + found, Tone::Good};
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
    std::vector<std::string> absent;
    for (analysis::FindingKind kind : e.must_not_find)
        absent.push_back(kind_words(kind, language, false));

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
        // Contention is a performance finding: a lesson about bugs that leaves it unmentioned still
        // names every bug it rules out.
        auto named = [&](analysis::FindingKind k) {
            return std::find(e.must_find.begin(), e.must_find.end(), k) != e.must_find.end() ||
                   std::find(e.must_not_find.begin(), e.must_not_find.end(), k) != e.must_not_find.end();
        };
        const size_t kinds =
            scenario::all_finding_kinds().size() - (named(analysis::FindingKind::Contention) ? 0 : 1);
        if (found.size() + absent.size() >= kinds)
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

} // namespace synclab::ui
