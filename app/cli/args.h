// Command-line parsing for `synclab`: options are declared per command, so that a misspelt or
// misplaced option is a usage error that names it, never silently ignored.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace synclab::cli {

// Exit codes (part of the CLI contract).
constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;
constexpr int kExitInput = 3;

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Args {
  public:
    // `valued`: options that take a value (--seed 3 or --seed=3); `repeatable` ones may appear many
    // times (--arg); `flags`: options without a value. Anything else starting with "--" is an error.
    Args(const std::vector<std::string>& argv, const std::string& command, std::vector<std::string> valued,
         std::vector<std::string> flags, std::vector<std::string> repeatable = {});

    const std::vector<std::string>& positional() const { return positional_; }
    bool flag(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    std::vector<std::string> values(const std::string& name) const;

    std::string value_or(const std::string& name, const std::string& fallback) const;
    uint64_t uint_or(const std::string& name, uint64_t fallback, uint64_t min, uint64_t max) const;
    double double_or(const std::string& name, double fallback, double min, double max) const;

  private:
    std::string command_;
    std::vector<std::string> positional_;
    std::map<std::string, std::vector<std::string>> values_;
};

// Strict number parsing: the whole text must be a number in range, else UsageError naming `what`.
uint64_t parse_uint(const std::string& text, const std::string& what, uint64_t min, uint64_t max);
int64_t parse_int(const std::string& text, const std::string& what);
double parse_double(const std::string& text, const std::string& what);

} // namespace synclab::cli
