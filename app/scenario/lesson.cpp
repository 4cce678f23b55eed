// Building a Scenario from a lesson's files, with every check of the lesson format.
//
// [SECTION] Reading typed fields of the lesson file
// [SECTION] The launch: shape, buffers, arguments, outputs
// [SECTION] The outcome histogram: [outcomes]
// [SECTION] Per-thread latency buffers: [latency]
// [SECTION] Variants and their expectations
// [SECTION] The reference
// [SECTION] The kernel: PTX entries and their parameters
// [SECTION] Parameters: [param.NAME]
// [SECTION] The texts: en.md and zh.md
// [SECTION] build_lesson
#include "scenario/lesson.h"

#include "ptx/parser.h"
#include "scenario/lesson_host_reader.h"
#include "scenario/lesson_text.h"
#include "scenario/lesson_toml.h"
#include "scenario/references.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <sstream>

namespace synclab::scenario {

LessonError::LessonError(std::string file_, uint32_t line_, const std::string& message)
    : std::runtime_error(file_ + (line_ ? ":" + std::to_string(line_) : "") + ": " + message),
      file(std::move(file_)), line(line_) {}

bool is_lesson_id(std::string_view id) {
    if (id.empty() || id.size() > 64 || (id[0] >= '0' && id[0] <= '9')) return false;
    return std::all_of(id.begin(), id.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

std::vector<std::string> parse_lesson_list(std::string_view text, const std::string& file) {
    std::vector<std::string> ids;
    std::vector<uint32_t> lines;
    uint32_t line = 0;
    size_t pos = 0;
    while (pos < text.size()) {
        const size_t end = text.find('\n', pos);
        std::string_view raw =
            text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
        pos = end == std::string_view::npos ? text.size() : end + 1;
        ++line;
        if (const size_t hash = raw.find('#'); hash != std::string_view::npos) raw = raw.substr(0, hash);
        while (!raw.empty() && (raw.front() == ' ' || raw.front() == '\t'))
            raw.remove_prefix(1);
        while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t' || raw.back() == '\r'))
            raw.remove_suffix(1);
        if (raw.empty()) continue;
        if (!is_lesson_id(raw))
            throw LessonError(file, line,
                              "'" + std::string(raw) +
                                  "' is not a lesson id (lower-case letters, digits and _)");
        for (size_t i = 0; i < ids.size(); ++i)
            if (ids[i] == raw)
                throw LessonError(file, line,
                                  "lesson '" + ids[i] + "' is listed twice (first on line " +
                                      std::to_string(lines[i]) + ")");
        ids.emplace_back(raw);
        lines.push_back(line);
    }
    return ids;
}

namespace {

using toml::Value;
using Kind = toml::Value::Kind;

struct KeySpec {
    const char* key;
    bool required;
    const char* meaning; // said when the key is missing
};

constexpr KeySpec kLessonKeys[] = {
    {"id", true, "the lesson's id, the name of its folder"},
    {"topic", true, "barriers, warps, fences or atomics"},
    {"source", true, "the kernel file, e.g. \"stencil.cu\""},
    {"grid", true, "blocks: N or [X, Y, Z]"},
    {"block", true, "threads per block: N or [X, Y, Z]"},
    {"shared_bytes", false, "dynamic shared memory in bytes"},
    {"reference", true, "how outputs are checked: a C++ reference's name or \"rr:VARIANT\""},
    {"args", true, "the kernel's arguments in parameter order: buffer names and numbers"},
    {"outputs", true, "the buffers the reference checks"},
    {"memory", false, "the simulator's memory model: sc (the default) or relaxed"},
    {"max_steps", false, "the step budget of a run unless the user sets one (a variant that spins forever)"},
    {"cooperative", false, "true: a cooperative launch (grid.sync()); every block resident or the launch fails"},
};

constexpr KeySpec kLatencyKeys[] = {
    {"cycles", true, "the buffer of each thread's clock64() cycles around its atomic"},
    {"sm", false, "the buffer of each thread's %smid"},
};

// A [param.NAME] table also holds one key per buffer it sets (checked apart: they are buffer names).
constexpr KeySpec kParamKeys[] = {
    {"en", true, "one English line: what the parameter sets"},
    {"zh", true, "one Chinese line: what the parameter sets"},
    {"choices", true, "the choices a user picks from, as strings: [\"1\", \"32\"]"},
    {"default", true, "the choice the lesson file's args and [buffers] describe"},
    {"arg", false, "the index in args of the scalar argument each choice sets (to the choice's number)"},
    {"grid", false, "the launch's grid (blocks) under each choice, one per choice: [8, 64]"},
    {"size", false, "true: the choices only scale the work (sizes to measure), not what is computed"},
};

constexpr KeySpec kOutcomeKeys[] = {
    {"buffer", true, "the buffer whose final contents are the outcome"},
    {"per", false, "elements per outcome record; 0 (the default): the whole buffer is one outcome"},
    {"values", true, "the outcomes worth naming, as the histogram writes them: [\"1,1\", \"1,0\"]"},
    {"en", true, "one English label per value"},
    {"zh", true, "one Chinese label per value"},
};

constexpr KeySpec kVariantKeys[] = {
    {"kernel", true, "the variant's PTX entry name"},
    {"must_find", false, "finding kinds the run must report"},
    {"must_not_find", false, "finding kinds the run must not report"},
    {"wrong_outputs", true, "never, possible or unchecked"},
    {"status", false, "the run's status in the simulator (default ok)"},
    {"forbidden_outcomes", false, "[outcomes] values the memory model forbids for this variant"},
    {"forbidden_because", false, "the PTX memory-model rule that forbids them"},
    {"grid", false, "this variant's grid, unlike the lesson's: N or [X, Y, Z]"},
    {"cooperative", false, "this variant's launch is cooperative (true) or normal (false), unlike the lesson's"},
};

template <size_t N> std::string key_list(const KeySpec (&keys)[N]) {
    std::string out;
    for (const KeySpec& k : keys)
        out += std::string(out.empty() ? "" : ", ") + k.key;
    return out;
}

std::string join(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "none" : out;
}

bool is_buffer_name(std::string_view name) {
    if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

// An argument as the lesson file gives it, before the PTX says what its parameter is.
struct ArgDraft {
    bool is_buffer = false;
    uint32_t buffer = 0;
    Value value; // a scalar's value
    uint32_t line = 0;
};

class Builder {
  public:
    explicit Builder(const LessonSources& sources) : src_(sources), file_(sources.toml_name) {}

    Scenario build() {
        const toml::Document doc = toml::parse(src_.toml_text, file_);
        split_tables(doc);
        read_lesson();
        read_buffers();
        read_args_and_outputs();
        read_outcomes();
        read_latency();
        read_variants();
        read_host_reader_tables();
        read_reference();
        read_kernel();
        read_params();
        read_texts();
        finish_inputs();
        return std::move(s_);
    }

  private:
    [[noreturn]] void fail(uint32_t line, const std::string& message) const {
        throw LessonError(file_, line, message);
    }

    // [SECTION] Reading typed fields of the lesson file

    void split_tables(const toml::Document& doc) {
        root_ = &doc.tables[0];
        for (size_t i = 1; i < doc.tables.size(); ++i) {
            const toml::Table& t = doc.tables[i];
            if (t.name == "buffers") {
                buffers_ = &t;
            } else if (t.name == "outcomes") {
                outcomes_ = &t;
            } else if (t.path[0] == "host_reader") {
                if (t.path.size() == 1)
                    host_reader_ = &t;
                else if (t.path.size() == 2)
                    host_reader_variants_.push_back(&t);
                else
                    fail(t.line, "a host reader's variant table is [host_reader.ID], got [" + t.name + "]");
            } else if (t.name == "latency") {
                latency_ = &t;
            } else if (t.path.size() == 2 && t.path[0] == "param") {
                if (!is_lesson_id(t.path[1]))
                    fail(t.line, "parameter name '" + t.path[1] + "' must be lower-case letters, digits and _");
                param_tables_.push_back(&t);
            } else if (t.path.size() == 2 && t.path[0] == "variant") {
                if (!is_lesson_id(t.path[1]))
                    fail(t.line, "variant id '" + t.path[1] + "' must be lower-case letters, digits and _");
                variant_tables_.push_back(&t);
            } else if (t.path[0] == "variant") {
                fail(t.line, "a variant's table is [variant.ID], got [" + t.name + "]");
            } else {
                fail(t.line, "unknown table [" + t.name +
                                 "] (tables: [buffers], [outcomes], [latency], [param.NAME], [variant.ID])");
            }
        }
        if (buffers_ == nullptr) fail(0, "missing table [buffers] (NAME = \"buf:TYPE:COUNT[:init]\" lines)");
        if (variant_tables_.empty())
            fail(0, "no variant: add a [variant.ID] table for each kernel of the lesson");
    }

    // `extra_key`: keys outside `keys` that the table may hold (a parameter's buffer names).
    template <size_t N>
    void check_keys(const toml::Table& table, const KeySpec (&keys)[N], const std::string& where,
                    const std::function<bool(const std::string&)>& extra_key = nullptr) const {
        for (const toml::Entry& e : table.entries) {
            const bool known = std::any_of(std::begin(keys), std::end(keys),
                                           [&](const KeySpec& k) { return e.key == k.key; });
            if (!known && !(extra_key && extra_key(e.key)))
                fail(e.line, where + "unknown key '" + e.key + "' (keys: " + key_list(keys) +
                                 (extra_key ? "; or a buffer's name" : "") + ")");
        }
        for (const KeySpec& k : keys)
            if (k.required && table.find(k.key) == nullptr)
                fail(table.line, where + "missing key '" + k.key + "' (" + k.meaning + ")");
    }

    const Value* field(const toml::Table& table, const char* key, Kind kind, const std::string& where) const {
        const toml::Entry* e = table.find(key);
        if (e == nullptr) return nullptr;
        if (e->value.kind != kind)
            fail(e->line, where + "'" + key + "' must be " + toml::to_string(kind) + ", got " +
                              toml::to_string(e->value.kind));
        return &e->value;
    }

    // An array of strings (each element's line is kept in the Value).
    std::vector<const Value*> strings(const toml::Table& table, const char* key,
                                      const std::string& where) const {
        std::vector<const Value*> out;
        const Value* array = field(table, key, Kind::Array, where);
        if (array == nullptr) return out;
        for (size_t i = 0; i < array->array.size(); ++i) {
            const Value& v = array->array[i];
            if (v.kind != Kind::String)
                fail(v.line, where + "'" + key + "' holds strings, but element " + std::to_string(i + 1) +
                                 " is " + toml::to_string(v.kind));
            out.push_back(&v);
        }
        return out;
    }

    uint32_t line_of(const toml::Table& table, const char* key) const {
        const toml::Entry* e = table.find(key);
        return e ? e->line : table.line;
    }

    // [SECTION] The launch: shape, buffers, arguments, outputs

    void read_lesson() {
        check_keys(*root_, kLessonKeys, "");
        const Value* id = field(*root_, "id", Kind::String, "");
        if (!is_lesson_id(id->string))
            fail(id->line, "id '" + id->string + "' must be lower-case letters, digits and _");
        if (!src_.folder_id.empty() && id->string != src_.folder_id)
            fail(id->line,
                 "id '" + id->string + "' differs from the lesson's folder '" + src_.folder_id + "'");
        s_.id = id->string;
        const Value* topic = field(*root_, "topic", Kind::String, "");
        if (!is_lesson_id(topic->string))
            fail(topic->line, "topic '" + topic->string +
                                  "' must be one word (the app groups lessons by it: barriers, "
                                  "warps, fences, atomics, ...)");
        s_.topic = topic->string;
        const Value* source = field(*root_, "source", Kind::String, "");
        if (!(source->string.ends_with(".cu") || source->string.ends_with(".ptx")) ||
            source->string.find('/') != std::string::npos || source->string.size() < 4)
            fail(source->line, "source '" + source->string + "' must be a file name ending in .cu or .ptx");
        s_.source_file = source->string;
        s_.launch.grid = dims(*root_, "grid");
        s_.launch.block = dims(*root_, "block");
        if (const std::string problem = launch::launch_problem(s_.launch.grid, s_.launch.block);
            !problem.empty())
            fail(line_of(*root_, problem.starts_with("grid") ? "grid" : "block"), problem);
        if (const toml::Entry* e = root_->find("shared_bytes")) {
            const Value* v = field(*root_, "shared_bytes", Kind::Integer, "");
            if (v->integer < 0 || v->integer > launch::kMaxSharedBytes)
                fail(e->line, "shared_bytes must be 0 .. " + std::to_string(launch::kMaxSharedBytes) +
                                  " (227 KiB, an H200's most per block), got " + std::to_string(v->integer));
            s_.launch.dynamic_shared_bytes = static_cast<uint32_t>(v->integer);
        }
        if (const Value* memory = field(*root_, "memory", Kind::String, ""))
            if (!launch::parse_memory_model(memory->string, s_.memory))
                fail(memory->line, "unknown memory '" + memory->string +
                                       "' (sc: sequentially consistent, the default; relaxed: the PTX "
                                       "memory model's weak behaviours, for the fence lessons)");
        if (const Value* steps = field(*root_, "max_steps", Kind::Integer, "")) {
            if (steps->integer < 1000)
                fail(steps->line, "max_steps must be at least 1000 thread-instructions, got " +
                                      std::to_string(steps->integer));
            s_.max_steps = static_cast<uint64_t>(steps->integer);
        }
        if (const Value* coop = field(*root_, "cooperative", Kind::Bool, "")) s_.launch.cooperative = coop->boolean;
        s_.lesson_file = file_;
    }

    trace::Dim3 dims(const toml::Table& table, const char* key) const {
        const toml::Entry* e = table.find(key);
        std::vector<int64_t> v;
        if (e->value.kind == Kind::Integer) {
            v.push_back(e->value.integer);
        } else if (e->value.kind == Kind::Array) {
            for (const Value& x : e->value.array)
                v.push_back(x.kind == Kind::Integer ? x.integer : -1);
        }
        const bool ok = !v.empty() && v.size() <= 3 &&
                        std::all_of(v.begin(), v.end(), [](int64_t x) { return x >= 1 && x <= 0x7fffffff; });
        if (!ok)
            fail(e->line,
                 std::string("'") + key + "' must be a whole number >= 1 or [X, Y, Z] of them (1 to 3)");
        trace::Dim3 d;
        d.x = static_cast<uint32_t>(v[0]);
        if (v.size() > 1) d.y = static_cast<uint32_t>(v[1]);
        if (v.size() > 2) d.z = static_cast<uint32_t>(v[2]);
        return d;
    }

    void read_buffers() {
        for (const toml::Entry& e : buffers_->entries) {
            if (!is_buffer_name(e.key))
                fail(e.line, "buffer name '" + e.key + "' must be letters, digits and _ (e.g. g_in)");
            if (e.value.kind != Kind::String)
                fail(e.line, "buffer '" + e.key + "' must be a string \"buf:TYPE:COUNT[:init]\", got " +
                                 toml::to_string(e.value.kind));
            BufferDecl decl;
            decl.name = e.key;
            try {
                decl.spec = launch::parse_buffer_spec(e.value.string);
            } catch (const launch::SpecError& err) {
                fail(e.line, "buffer '" + e.key + "': " + err.what());
            }
            s_.buffers.push_back(std::move(decl));
            buffer_lines_.push_back(e.line);
        }
        if (s_.buffers.empty()) fail(buffers_->line, "[buffers] is empty: a kernel needs somewhere to write");
    }

    size_t buffer_named(std::string_view name) const {
        for (size_t i = 0; i < s_.buffers.size(); ++i)
            if (s_.buffers[i].name == name) return i;
        return SIZE_MAX;
    }

    std::string buffer_names() const {
        std::vector<std::string> names;
        for (const BufferDecl& b : s_.buffers)
            names.push_back(b.name);
        return join(names);
    }

    void read_args_and_outputs() {
        const Value* args = field(*root_, "args", Kind::Array, "");
        std::vector<bool> used(s_.buffers.size(), false);
        for (size_t i = 0; i < args->array.size(); ++i) {
            const Value& v = args->array[i];
            ArgDraft a;
            a.line = v.line;
            const std::string where = "args[" + std::to_string(i) + "]: ";
            if (v.kind == Kind::String) {
                const size_t b = buffer_named(v.string);
                if (b == SIZE_MAX)
                    fail(v.line,
                         where + "'" + v.string + "' names no buffer (buffers: " + buffer_names() + ")");
                a.is_buffer = true;
                a.buffer = static_cast<uint32_t>(b);
                used[b] = true;
            } else if (v.kind == Kind::Integer || v.kind == Kind::Float) {
                a.value = v;
            } else {
                fail(v.line,
                     where + "an argument is a buffer name or a number, got " + toml::to_string(v.kind));
            }
            args_.push_back(std::move(a));
        }
        for (size_t b = 0; b < used.size(); ++b)
            if (!used[b])
                fail(buffer_lines_[b],
                     "buffer '" + s_.buffers[b].name + "' is not passed to the kernel (args)");

        const std::vector<const Value*> outputs = strings(*root_, "outputs", "");
        if (outputs.empty())
            fail(line_of(*root_, "outputs"), "'outputs' is empty: name the buffers to check");
        for (const Value* v : outputs) {
            const size_t b = buffer_named(v->string);
            if (b == SIZE_MAX)
                fail(v->line,
                     "outputs: '" + v->string + "' names no buffer (buffers: " + buffer_names() + ")");
            if (s_.buffers[b].output) fail(v->line, "outputs: '" + v->string + "' is listed twice");
            s_.buffers[b].output = true;
        }
    }

    // [SECTION] The outcome histogram: [outcomes]

    // `[outcomes]`: the buffer each trial's outcome lands in, cut into records of `per` elements,
    // and the outcomes the lesson names, written exactly as the histogram writes them
    // (launch::format_values), so that a count can be matched to its label by text.
    void read_outcomes() {
        if (outcomes_ == nullptr) return;
        const toml::Table& t = *outcomes_;
        const std::string where = "[outcomes]: ";
        check_keys(t, kOutcomeKeys, where);
        const Value* buffer = field(t, "buffer", Kind::String, where);
        const size_t b = buffer_named(buffer->string);
        if (b == SIZE_MAX)
            fail(buffer->line,
                 where + "buffer '" + buffer->string + "' names no buffer (buffers: " + buffer_names() + ")");
        const launch::BufferSpec& spec = s_.buffers[b].spec;
        OutcomeSpec& out = s_.outcomes;
        out.buffer = buffer->string;
        if (const Value* per = field(t, "per", Kind::Integer, where)) {
            if (per->integer < 0 || static_cast<uint64_t>(per->integer) > spec.count ||
                (per->integer > 0 && spec.count % static_cast<uint64_t>(per->integer) != 0))
                fail(per->line, where + "per must be 0 (the whole buffer) or divide the " +
                                    std::to_string(spec.count) + " elements of '" + out.buffer +
                                    "' into records, got " + std::to_string(per->integer));
            out.per = static_cast<uint32_t>(per->integer);
        }
        const uint64_t elements = out.per == 0 ? spec.count : out.per;
        const std::vector<const Value*> values = strings(t, "values", where);
        if (values.empty()) fail(line_of(t, "values"), where + "'values' is empty: name at least one outcome");
        const std::vector<const Value*> en = strings(t, "en", where);
        const std::vector<const Value*> zh = strings(t, "zh", where);
        for (const auto& [labels, key] : {std::pair{&en, "en"}, std::pair{&zh, "zh"}})
            if (labels->size() != values.size())
                fail(line_of(t, key), where + "'" + key + "' has " + std::to_string(labels->size()) +
                                          " labels for " + std::to_string(values.size()) +
                                          " values: one label per value, in the same order");
        for (size_t i = 0; i < values.size(); ++i) {
            const Value& v = *values[i];
            const std::string canonical = canonical_outcome(v, spec.type, elements, where);
            for (const OutcomeClass& earlier : out.classes)
                if (earlier.value == canonical) fail(v.line, where + "'" + v.string + "' is listed twice");
            for (const Value* label : {en[i], zh[i]})
                if (label->string.empty())
                    fail(label->line, where + "the label of '" + v.string + "' is empty");
            out.classes.push_back({canonical, en[i]->string, zh[i]->string});
        }
    }

    // The outcome text `v` names, checked: `elements` numbers of the buffer's type, comma-separated,
    // written as the histogram writes them (so "01,0" or "1, 0" would never match a count).
    std::string canonical_outcome(const Value& v, launch::ElemType type, uint64_t elements,
                                  const std::string& where) const {
        std::vector<uint8_t> bytes;
        uint64_t count = 0;
        size_t pos = 0;
        while (pos <= v.string.size()) {
            const size_t comma = std::min(v.string.find(',', pos), v.string.size());
            const std::string part = v.string.substr(pos, comma - pos);
            uint64_t bits = 0;
            try {
                bits = launch::parse_scalar_bits(part, type == launch::ElemType::F32,
                                                 type == launch::ElemType::F64);
            } catch (const launch::SpecError&) {
                fail(v.line, where + "outcome '" + v.string + "': element " + std::to_string(count + 1) +
                                 " '" + part + "' is not a " + launch::to_string(type) + " value");
            }
            const uint32_t size = launch::elem_size(type);
            for (uint32_t k = 0; k < size; ++k)
                bytes.push_back(static_cast<uint8_t>(bits >> (8 * k)));
            ++count;
            pos = comma + 1;
        }
        if (count != elements)
            fail(v.line, where + "outcome '" + v.string + "' has " + std::to_string(count) +
                             " values; a record of '" + s_.outcomes.buffer + "' has " +
                             std::to_string(elements) + (s_.outcomes.per == 0 ? " (the whole buffer)" : " (per)"));
        const std::string text = launch::format_values(bytes, type, 0, count);
        if (text != v.string)
            fail(v.line, where + "outcome '" + v.string + "' must be written as the histogram writes it: '" +
                             text + "'");
        return text;
    }

    std::string outcome_values() const {
        std::vector<std::string> values;
        for (const OutcomeClass& c : s_.outcomes.classes)
            values.push_back("\"" + c.value + "\"");
        return join(values);
    }

    // `[host_reader]` (lesson_host_reader.h), after the buffers and variants it names.
    void read_host_reader_tables() {
        if (host_reader_ == nullptr && !host_reader_variants_.empty())
            fail(host_reader_variants_[0]->line,
                 "[" + host_reader_variants_[0]->name + "] needs a [host_reader] table (flags, data, seen)");
        if (host_reader_)
            s_.host_reader =
                read_host_reader(*host_reader_, host_reader_variants_, s_.buffers, s_.variants, file_);
    }

    // [SECTION] Per-thread latency buffers: [latency]

    // `[latency]`: the buffers each thread writes its atomic's cycles and its SM into. One element per
    // thread of the launch (thread i of the grid writes element i), integers, not checked outputs
    // (the values are timings: no reference can predict them).
    void read_latency() {
        if (latency_ == nullptr) return;
        const toml::Table& t = *latency_;
        const std::string where = "[latency]: ";
        check_keys(t, kLatencyKeys, where);
        const uint64_t threads = s_.launch.grid.count() * s_.launch.block.count();
        for (const char* key : {"cycles", "sm"}) {
            const Value* v = field(t, key, Kind::String, where);
            if (v == nullptr) continue;
            const size_t b = buffer_named(v->string);
            if (b == SIZE_MAX)
                fail(v->line, where + key + " = '" + v->string + "' names no buffer (buffers: " + buffer_names() +
                                  ")");
            const launch::BufferSpec& spec = s_.buffers[b].spec;
            if (spec.type == launch::ElemType::F32 || spec.type == launch::ElemType::F64)
                fail(buffer_lines_[b], where + "buffer '" + v->string + "' holds " + key +
                                           ": it must be of an integer type (u64 for clock64 cycles), not " +
                                           launch::to_string(spec.type));
            if (spec.count != threads)
                fail(buffer_lines_[b], where + "buffer '" + v->string + "' holds " + key +
                                           " for every thread: it needs one element per thread of the "
                                           "launch (" +
                                           std::to_string(threads) + "), it has " + std::to_string(spec.count));
            if (s_.buffers[b].output)
                fail(line_of(*root_, "outputs"), where + "buffer '" + v->string +
                                                     "' holds timings, which no reference can check: "
                                                     "leave it out of outputs");
            (std::string_view(key) == "cycles" ? s_.latency.cycles_buffer : s_.latency.sm_buffer) = v->string;
        }
    }

    // [SECTION] Variants and their expectations

    std::vector<analysis::FindingKind> kinds(const toml::Table& table, const char* key,
                                             const std::string& where) const {
        std::vector<analysis::FindingKind> out;
        for (const Value* v : strings(table, key, where)) {
            analysis::FindingKind kind{};
            if (!parse_finding_kind(v->string, kind))
                fail(v->line,
                     where + "unknown finding kind '" + v->string + "' (" + finding_kind_names() + ")");
            if (std::find(out.begin(), out.end(), kind) != out.end())
                fail(v->line, where + "'" + key + "' lists '" + v->string + "' twice");
            out.push_back(kind);
        }
        return out;
    }

    void read_variants() {
        for (const toml::Table* t : variant_tables_) {
            Variant v;
            v.id = t->path[1];
            const std::string where = "variant '" + v.id + "': ";
            check_keys(*t, kVariantKeys, where);
            v.kernel = field(*t, "kernel", Kind::String, where)->string;
            v.expect.must_find = kinds(*t, "must_find", where);
            v.expect.must_not_find = kinds(*t, "must_not_find", where);
            for (analysis::FindingKind k : v.expect.must_find)
                if (std::find(v.expect.must_not_find.begin(), v.expect.must_not_find.end(), k) !=
                    v.expect.must_not_find.end())
                    fail(line_of(*t, "must_not_find"),
                         where + "'" + analysis::to_string(k) + "' is in both must_find and must_not_find");
            // A memory error is never part of a lesson unless it says so: an out-of-bounds access in
            // a lesson's kernel is a bug of the lesson, whatever its lists name.
            auto listed = [&](analysis::FindingKind k) {
                return std::find(v.expect.must_find.begin(), v.expect.must_find.end(), k) != v.expect.must_find.end() ||
                       std::find(v.expect.must_not_find.begin(), v.expect.must_not_find.end(), k) !=
                           v.expect.must_not_find.end();
            };
            if (!listed(analysis::FindingKind::OutOfBounds))
                v.expect.must_not_find.push_back(analysis::FindingKind::OutOfBounds);
            const Value* wrong = field(*t, "wrong_outputs", Kind::String, where);
            if (!parse_wrong_outputs(wrong->string, v.expect.wrong_outputs))
                fail(wrong->line, where + "unknown wrong_outputs '" + wrong->string +
                                      "' (never: always right; possible: may come out wrong under the random "
                                      "and adversarial schedules; unchecked)");
            if (const Value* status = field(*t, "status", Kind::String, where))
                if (!trace::parse_run_status(status->string, v.expect.status))
                    fail(status->line,
                         where + "unknown status '" + status->string + "' (" + run_status_names() + ")");
            read_forbidden(*t, v, where);
            read_variant_launch(*t, v, where);
            variant_lines_.push_back(t->line);
            kernel_lines_.push_back(line_of(*t, "kernel"));
            s_.variants.push_back(std::move(v));
        }
    }

    // The variant's launch: the lesson's, with its own grid and cooperative flag where it gives them
    // (grid_sync: the same kernel, once with a grid that fits and once with one that cannot).
    void read_variant_launch(const toml::Table& t, Variant& v, const std::string& where) const {
        v.launch = s_.launch;
        if (t.find("grid")) {
            v.launch.grid = dims(t, "grid");
            if (const std::string problem = launch::launch_problem(v.launch.grid, v.launch.block); !problem.empty())
                fail(line_of(t, "grid"), where + problem);
        }
        if (const Value* coop = field(t, "cooperative", Kind::Bool, where)) v.launch.cooperative = coop->boolean;
    }

    // `forbidden_outcomes` (values of [outcomes]) and the PTX rule that forbids them, always together.
    void read_forbidden(const toml::Table& t, Variant& v, const std::string& where) const {
        const std::vector<const Value*> forbidden = strings(t, "forbidden_outcomes", where);
        const Value* because = field(t, "forbidden_because", Kind::String, where);
        if (!forbidden.empty() && !s_.outcomes.present())
            fail(line_of(t, "forbidden_outcomes"),
                 where + "forbidden_outcomes needs an [outcomes] table that names the outcomes");
        for (const Value* f : forbidden) {
            const bool known = std::any_of(s_.outcomes.classes.begin(), s_.outcomes.classes.end(),
                                           [&](const OutcomeClass& c) { return c.value == f->string; });
            if (!known)
                fail(f->line, where + "forbidden outcome '" + f->string + "' is not one of [outcomes] values (" +
                                  outcome_values() + ")");
            if (std::find(v.forbidden_outcomes.begin(), v.forbidden_outcomes.end(), f->string) !=
                v.forbidden_outcomes.end())
                fail(f->line, where + "'forbidden_outcomes' lists '" + f->string + "' twice");
            v.forbidden_outcomes.push_back(f->string);
        }
        if (!forbidden.empty() && (because == nullptr || because->string.empty()))
            fail(line_of(t, "forbidden_outcomes"),
                 where + "forbidden_outcomes needs forbidden_because: the rule of the PTX memory model "
                         "that forbids them");
        if (forbidden.empty() && because != nullptr)
            fail(because->line, where + "forbidden_because without forbidden_outcomes: name the outcomes "
                                        "it forbids");
        if (because != nullptr) v.forbidden_because = because->string;
    }

    std::string variant_ids() const {
        std::vector<std::string> ids;
        for (const Variant& v : s_.variants)
            ids.push_back(v.id);
        return join(ids);
    }

    // [SECTION] The reference

    void read_reference() {
        const Value* ref = field(*root_, "reference", Kind::String, "");
        const std::string where = "reference '" + ref->string + "': ";
        if (ref->string.starts_with("rr:")) {
            const std::string id = ref->string.substr(3);
            const Variant* v = s_.find_variant(id);
            if (v == nullptr)
                fail(ref->line, where + "no variant '" + id + "' (variants: " + variant_ids() + ")");
            if (v->expect.wrong_outputs != WrongOutputs::Never)
                fail(ref->line, where + "variant '" + id +
                                    "' is the reference, so its wrong_outputs must be \"never\", not \"" +
                                    to_string(v->expect.wrong_outputs) + "\"");
            s_.reference_variant = id;
            return;
        }
        const Reference* r = find_reference(ref->string);
        if (r == nullptr) {
            std::vector<std::string> names;
            for (const Reference& known : references())
                names.emplace_back(known.name);
            fail(ref->line, "unknown reference '" + ref->string + "' (C++ references: " + join(names) +
                                "; or \"rr:VARIANT\": that variant's outputs under the rr schedule)");
        }
        if (r->one_dimensional_blocks && (s_.launch.block.y != 1 || s_.launch.block.z != 1))
            fail(ref->line,
                 where + "the reference '" + ref->string +
                     "' reads each block's tile as blockDim.x elements: it needs a one-dimensional "
                     "block, not " +
                     std::to_string(s_.launch.block.x) + "x" + std::to_string(s_.launch.block.y) + "x" +
                     std::to_string(s_.launch.block.z));
        std::vector<std::string> checked;
        for (const ReferenceBuffer& need : r->buffers) {
            const size_t b = buffer_named(need.name);
            if (b == SIZE_MAX || s_.buffers[b].spec.type != need.type)
                fail(ref->line, where + "needs a buffer '" + std::string(need.name) + "' of type " +
                                    launch::to_string(need.type) + " (" + std::string(r->what) + ")");
            if (need.checked) checked.emplace_back(need.name);
        }
        for (size_t b = 0; b < s_.buffers.size(); ++b) {
            const bool is_checked =
                std::find(checked.begin(), checked.end(), s_.buffers[b].name) != checked.end();
            if (is_checked != s_.buffers[b].output)
                fail(line_of(*root_, "outputs"),
                     where + "it checks " + join(checked) + ", so outputs must be exactly that");
        }
        s_.reference = ref->string;
        s_.check = bind_reference(*r, s_.launch);
    }

    // [SECTION] The kernel: PTX entries and their parameters

    void read_kernel() {
        const KernelFiles k = src_.kernel(s_.source_file, line_of(*root_, "source"));
        s_.cuda_text = k.cuda_text;
        s_.ptx_text = k.ptx_text;
        ptx::Module module;
        try {
            module = ptx::parse_module(k.ptx_text, k.ptx_name);
        } catch (const ptx::ParseError& e) {
            std::string message = e.what();
            const std::string prefix = k.ptx_name + ":" + std::to_string(e.line()) + ": ";
            if (message.starts_with(prefix)) message = message.substr(prefix.size());
            throw LessonError(k.ptx_name, e.line(), message);
        }
        const ptx::Function* first = nullptr;
        for (size_t i = 0; i < s_.variants.size(); ++i) {
            const Variant& v = s_.variants[i];
            const std::string where = "variant '" + v.id + "': ";
            const ptx::Function* fn = module.find_entry(v.kernel);
            if (fn == nullptr)
                fail(kernel_lines_[i], where + "no kernel '" + v.kernel + "' in " + k.ptx_name +
                                           " (kernels: " + join(module.entry_names()) +
                                           "; a C++ kernel's name is mangled unless it is extern \"C\")");
            if (fn->params.size() != args_.size())
                fail(line_of(*root_, "args"), where + "kernel " + v.kernel + " takes " +
                                                  std::to_string(fn->params.size()) +
                                                  " parameters, args has " + std::to_string(args_.size()));
            if (first == nullptr) {
                first = fn;
                resolve_args(*fn, where);
            } else {
                for (size_t p = 0; p < fn->params.size(); ++p)
                    if (fn->params[p].type != first->params[p].type ||
                        fn->params[p].size != first->params[p].size)
                        fail(kernel_lines_[i], where + "kernel " + v.kernel + "'s parameter " +
                                                   std::to_string(p) + " (" + fn->params[p].name +
                                                   ") differs from " + first->name +
                                                   "'s: every variant takes the same args");
            }
        }
        s_.module = std::make_shared<const ptx::Module>(std::move(module));
    }

    // The arguments' bits, typed by the kernel's parameters.
    void resolve_args(const ptx::Function& fn, const std::string& where) {
        for (size_t i = 0; i < args_.size(); ++i) {
            const ArgDraft& a = args_[i];
            const ptx::Param& p = fn.params[i];
            const std::string at =
                where + "args[" + std::to_string(i) + "] (parameter " + p.name + " of " + fn.name + "): ";
            if (p.size != 1 && p.size != 2 && p.size != 4 && p.size != 8)
                fail(a.line, at + "a " + std::to_string(p.size) +
                                 "-byte aggregate parameter (a struct passed by value); lessons pass only "
                                 "pointers and scalars");
            if (a.is_buffer) {
                if (p.size != 8)
                    fail(a.line, at + "a buffer goes to a pointer, but this is a " + std::to_string(p.size) +
                                     "-byte scalar");
                s_.args.push_back(launch::KernelArg::pointer(a.buffer));
                continue;
            }
            s_.args.push_back(launch::KernelArg::scalar(scalar_bits(a.value, p, a.line, at)));
        }
        first_kernel_ = &fn;
    }

    // A number's bits as parameter `p` takes them (floats for float/double, integers that fit).
    uint64_t scalar_bits(const Value& value, const ptx::Param& p, uint32_t line, const std::string& at) const {
        if (p.type == ptx::Type::F32 || p.type == ptx::Type::F64) {
            const double number = value.kind == Kind::Float ? value.number : static_cast<double>(value.integer);
            uint64_t bits = 0;
            if (p.type == ptx::Type::F32) {
                const float f = static_cast<float>(number);
                uint32_t b32 = 0;
                std::memcpy(&b32, &f, 4);
                bits = b32;
            } else {
                std::memcpy(&bits, &number, 8);
            }
            return bits;
        }
        if (value.kind == Kind::Float) {
            std::ostringstream number;
            number << value.number;
            fail(line, at + "an integer parameter, got " + number.str());
        }
        const int64_t v = value.integer;
        if (p.size < 8) {
            const int64_t lo = -(int64_t(1) << (p.size * 8 - 1)), hi = (int64_t(1) << (p.size * 8)) - 1;
            if (v < lo || v > hi)
                fail(line, at + std::to_string(v) + " does not fit a " + std::to_string(p.size) +
                               "-byte parameter");
        }
        const uint64_t mask = p.size >= 8 ? ~uint64_t(0) : (uint64_t(1) << (p.size * 8)) - 1;
        return static_cast<uint64_t>(v) & mask;
    }

    // [SECTION] Parameters: [param.NAME]

    // `[param.NAME]`: choices (strings, as typed on the command line), the default, and what each
    // choice sets: `arg = I` makes args[I] (a scalar) the choice's number; a key named after a buffer
    // holds that buffer's spec per choice, in the order of `choices`. The default choice must be
    // what args and [buffers] already say, so that the file reads the same with or without it.
    void read_params() {
        for (const toml::Table* t : param_tables_) {
            Param p;
            p.name = t->path[1];
            const std::string where = "[param." + p.name + "]: ";
            check_keys(*t, kParamKeys, where,
                       [&](const std::string& key) { return buffer_named(key) != SIZE_MAX; });
            p.en = field(*t, "en", Kind::String, where)->string;
            p.zh = field(*t, "zh", Kind::String, where)->string;
            for (const auto& [text, key] : {std::pair{&p.en, "en"}, std::pair{&p.zh, "zh"}})
                if (text->empty()) fail(line_of(*t, key), where + "'" + key + "' is empty: say what it sets");
            const std::vector<const Value*> choices = strings(*t, "choices", where);
            if (choices.size() < 2)
                fail(line_of(*t, "choices"), where + "'choices' needs at least two choices, got " +
                                                 std::to_string(choices.size()));
            for (const Value* c : choices) {
                if (c->string.empty() || !std::all_of(c->string.begin(), c->string.end(), [](char ch) {
                        return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' ||
                               ch == '.';
                    }))
                    fail(c->line, where + "choice '" + c->string +
                                      "' must be lower-case letters, digits, _, - or . (it is typed as "
                                      "--param " + p.name + "=CHOICE)");
                if (p.find(c->string) != nullptr) fail(c->line, where + "choice '" + c->string + "' is listed twice");
                p.choices.push_back({c->string, 0, {}});
            }
            const Value* def = field(*t, "default", Kind::String, where);
            const ParamChoice* d = p.find(def->string);
            if (d == nullptr)
                fail(def->line, where + "default '" + def->string + "' is not one of the choices (" +
                                    p.choice_names() + ")");
            p.default_choice = static_cast<uint32_t>(d - p.choices.data());
            bool sets_something = false;
            if (const Value* arg = field(*t, "arg", Kind::Integer, where)) {
                read_param_arg(p, *arg, where);
                sets_something = true;
            }
            if (const Value* size = field(*t, "size", Kind::Bool, where)) p.is_size = size->boolean;
            if (t->find("grid") != nullptr) {
                read_param_grid(p, *t, where);
                sets_something = true;
            }
            for (const toml::Entry& e : t->entries) {
                const size_t b = buffer_named(e.key);
                if (b == SIZE_MAX) continue;
                read_param_buffer(p, static_cast<uint32_t>(b), e, where);
                sets_something = true;
            }
            if (!sets_something)
                fail(t->line, where + "it sets nothing: give 'arg = I' (a scalar argument), 'grid = [...]' or a "
                                      "buffer's specs (g_in = [\"buf:...\", ...], one per choice)");
            check_latency_buffers_follow_grid(p, *t, where);
            for (const Param& earlier : s_.params) {
                bool overlap = (p.arg >= 0 && p.arg == earlier.arg) || (p.sets_grid && earlier.sets_grid);
                for (const std::string& name : p.buffer_names)
                    overlap = overlap || std::find(earlier.buffer_names.begin(), earlier.buffer_names.end(),
                                                   name) != earlier.buffer_names.end();
                if (overlap) fail(t->line, where + "it sets what [param." + earlier.name + "] sets already");
            }
            s_.params.push_back(std::move(p));
        }
    }

    void read_param_arg(Param& p, const Value& arg, const std::string& where) const {
        if (arg.integer < 0 || static_cast<size_t>(arg.integer) >= args_.size() || args_[arg.integer].is_buffer)
            fail(arg.line, where + "arg = " + std::to_string(arg.integer) +
                               " must be the index of a scalar in args (0 .. " + std::to_string(args_.size() - 1) +
                               ")");
        p.arg = static_cast<int32_t>(arg.integer);
        const ptx::Param& kp = first_kernel_->params[p.arg];
        const std::string at = where + "args[" + std::to_string(p.arg) + "] (parameter " + kp.name + "): ";
        for (ParamChoice& c : p.choices) {
            Value number;
            try {
                size_t used = 0;
                if (c.name.find('.') != std::string::npos) {
                    number.kind = Kind::Float;
                    number.number = std::stod(c.name, &used);
                } else {
                    number.kind = Kind::Integer;
                    number.integer = std::stoll(c.name, &used, 10);
                }
                if (used != c.name.size()) throw std::invalid_argument(c.name);
            } catch (const std::exception&) {
                fail(line_of(*param_table(p.name), "choices"),
                     where + "choice '" + c.name + "' sets a scalar argument, so it must be a number");
            }
            c.scalar_bits = scalar_bits(number, kp, line_of(*param_table(p.name), "choices"), at + "choice '" +
                                                                                                   c.name + "': ");
        }
        if (p.choices[p.default_choice].scalar_bits != s_.args[p.arg].bits)
            fail(args_[p.arg].line, where + "args[" + std::to_string(p.arg) +
                                        "] must be the default choice '" + p.choices[p.default_choice].name +
                                        "' (the lesson file reads as the default run)");
    }

    // `grid = [8, 64, 4096]`: the blocks of the launch under each choice (1-D grids only: a size
    // parameter scales the grid, the block stays). The default choice must be the lesson's grid.
    void read_param_grid(Param& p, const toml::Table& t, const std::string& where) const {
        const toml::Entry* e = t.find("grid");
        if (e->value.kind != Kind::Array)
            fail(e->line, where + "'grid' must be an array of block counts, one per choice: [8, 64]");
        const std::vector<Value>& counts = e->value.array;
        if (counts.size() != p.choices.size())
            fail(e->line, where + "'grid' has " + std::to_string(counts.size()) + " block counts for " +
                              std::to_string(p.choices.size()) + " choices: one per choice, in the order of 'choices'");
        if (s_.launch.grid.y != 1 || s_.launch.grid.z != 1)
            fail(e->line, where + "'grid' scales a 1-D grid; this lesson's grid is " +
                              std::to_string(s_.launch.grid.x) + "x" + std::to_string(s_.launch.grid.y) + "x" +
                              std::to_string(s_.launch.grid.z));
        for (size_t i = 0; i < counts.size(); ++i) {
            const Value& c = counts[i];
            if (c.kind != Kind::Integer || c.integer < 1 || c.integer > 0x7fffffff)
                fail(c.line, where + "'grid' for choice '" + p.choices[i].name +
                                 "' must be a block count from 1 to 2147483647");
            p.choices[i].grid_x = static_cast<uint32_t>(c.integer);
        }
        if (p.choices[p.default_choice].grid_x != s_.launch.grid.x)
            fail(e->line, where + "'grid' for the default choice '" + p.choices[p.default_choice].name + "' is " +
                              std::to_string(p.choices[p.default_choice].grid_x) + ", but the lesson's grid is " +
                              std::to_string(s_.launch.grid.x) + " (the lesson file reads as the default run)");
        p.sets_grid = true;
    }

    // [latency] buffers hold one element per thread: only the parameter that sets the grid may give
    // them other specs, and then each choice's count must be that choice's thread count.
    void check_latency_buffers_follow_grid(const Param& p, const toml::Table& t, const std::string& where) const {
        for (size_t i = 0; i < p.buffer_names.size(); ++i) {
            const std::string& name = p.buffer_names[i];
            if (name != s_.latency.cycles_buffer && name != s_.latency.sm_buffer) continue;
            const std::string at = where + name + ": ";
            if (!p.sets_grid)
                fail(line_of(t, name.c_str()), at + "holds [latency] timings (one element per thread): only a "
                                                    "parameter that sets 'grid' can change it");
            for (const ParamChoice& c : p.choices) {
                const uint64_t threads = uint64_t(c.grid_x) * s_.launch.block.count();
                const launch::BufferSpec& spec = c.buffers[i].second;
                if (spec.count != threads)
                    fail(line_of(t, name.c_str()), at + "holds [latency] timings for every thread: choice '" + c.name +
                                                        "' launches " + std::to_string(threads) +
                                                        " threads, its spec has " + std::to_string(spec.count));
            }
        }
    }

    void read_param_buffer(Param& p, uint32_t b, const toml::Entry& e, const std::string& where) const {
        const BufferDecl& decl = s_.buffers[b];
        const std::string at = where + e.key + ": ";
        const std::vector<const Value*> specs = strings(*param_table(p.name), e.key.c_str(), where);
        if (specs.size() != p.choices.size())
            fail(e.line, at + std::to_string(specs.size()) + " specs for " + std::to_string(p.choices.size()) +
                             " choices: one spec per choice, in the order of 'choices'");
        for (size_t i = 0; i < specs.size(); ++i) {
            launch::BufferSpec spec;
            try {
                spec = launch::parse_buffer_spec(specs[i]->string);
            } catch (const launch::SpecError& err) {
                fail(specs[i]->line, at + "choice '" + p.choices[i].name + "': " + err.what());
            }
            if (spec.type != decl.spec.type)
                fail(specs[i]->line, at + "choice '" + p.choices[i].name + "': the kernel takes " +
                                         launch::to_string(decl.spec.type) + " elements, the spec says " +
                                         launch::to_string(spec.type));
            if (i == p.default_choice && launch::to_string(spec) != launch::to_string(decl.spec))
                fail(specs[i]->line, at + "the default choice '" + p.choices[i].name + "' must have the spec of [buffers] ('" +
                                         launch::to_string(decl.spec) + "'), got '" + specs[i]->string + "'");
            p.choices[i].buffers.emplace_back(b, spec);
        }
        p.buffer_names.push_back(decl.name);
    }

    const toml::Table* param_table(const std::string& name) const {
        for (const toml::Table* t : param_tables_)
            if (t->path[1] == name) return t;
        return nullptr;
    }

    // [SECTION] The texts: en.md and zh.md

    void read_texts() {
        const text::Document en = text::parse(src_.en_text, src_.en_name);
        const text::Document zh = text::parse(src_.zh_text, src_.zh_name);
        require_sections(en, src_.en_name);
        require_sections(zh, src_.zh_name);
        same_sections(en, src_.en_name, zh, src_.zh_name);
        same_sections(zh, src_.zh_name, en, src_.en_name);
        s_.en = lesson_text(en.blocks[0]);
        s_.zh = lesson_text(zh.blocks[0]);
        for (Variant& v : s_.variants) {
            v.en = lesson_text(*en.find_variant(v.id));
            v.zh = lesson_text(*zh.find_variant(v.id));
        }
    }

    static LessonText lesson_text(const text::Block& b) {
        return {b.title, b.get(text::Section::Shows), b.get(text::Section::Predict),
                b.get(text::Section::LookAt), b.get(text::Section::Fix)};
    }

    // Every variant of the lesson file has a block, no block is for another variant, and the
    // required sections are there: all four for the lesson, What it shows and What to look at for a
    // variant (Predict and The fix where the variant's differ from the lesson's).
    void require_sections(const text::Document& doc, const std::string& file) const {
        for (size_t i = 0; i < s_.variants.size(); ++i)
            if (doc.find_variant(s_.variants[i].id) == nullptr)
                throw LessonError(file, 0,
                                  "variant '" + s_.variants[i].id + "': no '# Variant " + s_.variants[i].id +
                                      ": title' (it is in " + file_ + " line " +
                                      std::to_string(variant_lines_[i]) + ")");
        for (const text::Block& b : doc.blocks) {
            if (!b.variant.empty() && s_.find_variant(b.variant) == nullptr)
                throw LessonError(file, b.line,
                                  "variant '" + b.variant + "' is not in " + file_ +
                                      " (variants: " + variant_ids() + ")");
            const std::string who = b.variant.empty() ? "the lesson" : "variant '" + b.variant + "'";
            for (size_t k = 0; k < text::kSections; ++k) {
                const auto section = static_cast<text::Section>(k);
                const bool required =
                    b.variant.empty() || section == text::Section::Shows || section == text::Section::LookAt;
                if (required && !b.has(section))
                    throw LessonError(file, b.line,
                                      who + ": section '## " + text::heading(section) + "' is missing");
            }
        }
    }

    // What `a` has, `b` has too; an error in b's file otherwise.
    static void same_sections(const text::Document& a, const std::string& a_file, const text::Document& b,
                              const std::string& b_file) {
        for (const text::Block& block : a.blocks) {
            const text::Block* other = block.variant.empty() ? &b.blocks[0] : b.find_variant(block.variant);
            const std::string who = block.variant.empty() ? "the lesson" : "variant '" + block.variant + "'";
            for (size_t k = 0; k < text::kSections; ++k) {
                const auto section = static_cast<text::Section>(k);
                if (block.has(section) && !other->has(section))
                    throw LessonError(b_file, other->line,
                                      who + ": section '## " + text::heading(section) + "' is missing (" +
                                          a_file + " has it, line " + std::to_string(block.section_lines[k]) +
                                          ")");
            }
        }
    }

    void finish_inputs() {
        s_.make_inputs = input_builder(s_.buffers, s_.args);
        for (const Param& p : s_.params)
            s_.chosen.emplace_back(p.name, p.choices[p.default_choice].name);
    }

    const LessonSources& src_;
    const std::string& file_;
    Scenario s_;
    const toml::Table* root_ = nullptr;
    const toml::Table* buffers_ = nullptr;
    const toml::Table* outcomes_ = nullptr;
    const toml::Table* host_reader_ = nullptr;
    std::vector<const toml::Table*> host_reader_variants_;
    const toml::Table* latency_ = nullptr;
    std::vector<const toml::Table*> variant_tables_, param_tables_;
    const ptx::Function* first_kernel_ = nullptr; // the first variant's entry: the parameters' types
    std::vector<uint32_t> buffer_lines_, variant_lines_, kernel_lines_;
    std::vector<ArgDraft> args_;
};

} // namespace

// [SECTION] build_lesson

Scenario build_lesson(const LessonSources& sources) {
    return Builder(sources).build();
}

} // namespace synclab::scenario
