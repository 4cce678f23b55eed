#include "cli/args.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace synclab::cli {

namespace {
bool contains(const std::vector<std::string>& list, const std::string& s) {
    return std::find(list.begin(), list.end(), s) != list.end();
}
} // namespace

Args::Args(const std::vector<std::string>& argv, const std::string& command, std::vector<std::string> valued,
           std::vector<std::string> flags, std::vector<std::string> repeatable)
    : command_(command) {
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a.size() < 2 || a.rfind("--", 0) != 0) {
            if (a.size() > 1 && a[0] == '-' && !std::isdigit(static_cast<unsigned char>(a[1])))
                throw UsageError("'" + command + "': unknown option '" + a + "' (options start with --)");
            positional_.push_back(a);
            continue;
        }
        std::string name = a.substr(2);
        std::optional<std::string> inline_value;
        if (const size_t eq = name.find('='); eq != std::string::npos) {
            inline_value = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        const bool is_repeatable = contains(repeatable, name);
        if (contains(flags, name)) {
            if (inline_value) throw UsageError("'" + command + "': option --" + name + " takes no value");
            values_[name].push_back("1");
        } else if (contains(valued, name) || is_repeatable) {
            std::string v;
            if (inline_value)
                v = *inline_value;
            else if (i + 1 < argv.size())
                v = argv[++i];
            else
                throw UsageError("'" + command + "': option --" + name + " needs a value");
            if (!is_repeatable && values_.count(name))
                throw UsageError("'" + command + "': option --" + name + " given twice");
            values_[name].push_back(v);
        } else {
            throw UsageError("'" + command + "': unknown option --" + name + " (see 'synclab help " +
                             command + "')");
        }
    }
}

bool Args::flag(const std::string& name) const {
    return values_.count(name) != 0;
}

std::optional<std::string> Args::value(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second.front();
}

std::vector<std::string> Args::values(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::string Args::value_or(const std::string& name, const std::string& fallback) const {
    return value(name).value_or(fallback);
}

uint64_t Args::uint_or(const std::string& name, uint64_t fallback, uint64_t min, uint64_t max) const {
    const auto v = value(name);
    return v ? parse_uint(*v, "--" + name, min, max) : fallback;
}

double Args::double_or(const std::string& name, double fallback, double min, double max) const {
    const auto v = value(name);
    if (!v) return fallback;
    const double d = parse_double(*v, "--" + name);
    if (d < min || d > max)
        throw UsageError("--" + name + " must be between " + std::to_string(min) + " and " +
                         std::to_string(max) + ", got " + *v);
    return d;
}

uint64_t parse_uint(const std::string& text, const std::string& what, uint64_t min, uint64_t max) {
    if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])))
        throw UsageError(what + " must be a whole number, got '" + text + "'");
    errno = 0;
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 0);
    if (errno == ERANGE || *end != '\0')
        throw UsageError(what + " must be a whole number, got '" + text + "'");
    if (v < min || v > max)
        throw UsageError(what + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                         ", got " + text);
    return v;
}

int64_t parse_int(const std::string& text, const std::string& what) {
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 0);
    if (text.empty() || errno == ERANGE || *end != '\0')
        throw UsageError(what + " must be an integer, got '" + text + "'");
    return v;
}

double parse_double(const std::string& text, const std::string& what) {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || errno == ERANGE || *end != '\0' || !std::isfinite(v))
        throw UsageError(what + " must be a number, got '" + text + "'");
    return v;
}

} // namespace synclab::cli
