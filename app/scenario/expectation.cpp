// The vocabulary of expectations: finding kinds and run statuses by name, and WrongOutputs.
#include "scenario/scenario.h"

#include "analysis/finding_kinds.h"

namespace synclab::scenario {

const char* to_string(WrongOutputs value) {
    switch (value) {
    case WrongOutputs::Never:
        return "never";
    case WrongOutputs::Possible:
        return "possible";
    case WrongOutputs::Unchecked:
        return "unchecked";
    }
    return "?";
}

bool parse_wrong_outputs(std::string_view text, WrongOutputs& out) {
    for (WrongOutputs v : {WrongOutputs::Never, WrongOutputs::Possible, WrongOutputs::Unchecked})
        if (text == to_string(v)) {
            out = v;
            return true;
        }
    return false;
}

// Every kind of analysis/finding_kinds.h, in enum order.
const std::vector<analysis::FindingKind>& all_finding_kinds() {
    static const std::vector<analysis::FindingKind> kinds = [] {
        std::vector<analysis::FindingKind> out;
        for (const analysis::FindingKindInfo& row : analysis::finding_kinds())
            out.push_back(row.kind);
        return out;
    }();
    return kinds;
}

bool parse_finding_kind(std::string_view text, analysis::FindingKind& out) {
    return analysis::parse_finding_kind(text, out);
}

std::string finding_kind_names() {
    std::string out;
    for (analysis::FindingKind kind : all_finding_kinds())
        out += (out.empty() ? "" : ", ") + std::string(analysis::to_string(kind));
    return out;
}

// The statuses whose names read back (trace::parse_run_status), in enum order.
std::string run_status_names() {
    std::string out;
    for (unsigned v = 0; v < 256; ++v) {
        const auto status = static_cast<trace::RunStatus>(v);
        trace::RunStatus back{};
        if (trace::parse_run_status(trace::to_string(status), back) && back == status)
            out += (out.empty() ? "" : ", ") + std::string(trace::to_string(status));
    }
    return out;
}

} // namespace synclab::scenario
