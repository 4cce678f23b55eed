#include "scenario/lesson_host_reader.h"

#include <algorithm>

namespace synclab::scenario {

const char* to_string(CpuStale value) {
    return value == CpuStale::Possible ? "possible" : "never";
}

namespace {

using toml::Value;
using Kind = toml::Value::Kind;

class HostReaderReader {
  public:
    HostReaderReader(const std::vector<BufferDecl>& buffers, const std::vector<Variant>& variants,
                     const std::string& file)
        : buffers_(buffers), variants_(variants), file_(file) {}

    HostReaderSpec read(const toml::Table& t, const std::vector<const toml::Table*>& per_variant) {
        const std::string where = "[host_reader]: ";
        known_keys(t, {"flags", "data", "seen", "pairs"}, where);
        HostReaderSpec spec;
        const BufferDecl& flags = u32_buffer(t, "flags", where, "the flags the GPU raises, one per pair");
        const BufferDecl& data = u32_buffer(t, "data", where, "the data the GPU writes before each flag");
        if (flags.name == data.name)
            fail(line_of(t, "data"),
                 where + "flags and data are both '" + flags.name +
                     "': the CPU reads a flag and then other memory, so name two buffers");
        spec.flags_buffer = flags.name;
        spec.data_buffer = data.name;
        const Value* seen =
            string_field(t, "seen", where, "the name of the CPU's records, e.g. \"cpu_seen\"");
        if (!is_name(seen->string))
            fail(seen->line,
                 where + "seen '" + seen->string + "' must be letters, digits and _ (e.g. cpu_seen)");
        if (std::any_of(buffers_.begin(), buffers_.end(),
                        [&](const BufferDecl& b) { return b.name == seen->string; }))
            fail(seen->line, where + "seen '" + seen->string +
                                 "' is a buffer of the kernel; the CPU's records need a name of their own");
        spec.seen = seen->string;
        const uint64_t most = std::min(flags.spec.count, data.spec.count);
        spec.pairs = static_cast<uint32_t>(std::min<uint64_t>(most, UINT32_MAX));
        if (const toml::Entry* e = t.find("pairs")) {
            if (e->value.kind != Kind::Integer)
                fail(e->line, where + "'pairs' must be an integer, got " + toml::to_string(e->value.kind));
            if (e->value.integer < 1 || static_cast<uint64_t>(e->value.integer) > most)
                fail(e->line, where + "pairs must be 1 .. " + std::to_string(most) + " (the elements of '" +
                                  flags.name + "' and '" + data.name + "'), got " +
                                  std::to_string(e->value.integer));
            spec.pairs = static_cast<uint32_t>(e->value.integer);
        }
        if (per_variant.empty())
            fail(t.line, where + "no [host_reader.VARIANT] table: name the variants whose kernel writes the "
                                 "pairs for the CPU (stale = \"never\" or \"possible\")");
        for (const toml::Table* v : per_variant)
            spec.variants.push_back(variant(*v));
        return spec;
    }

  private:
    [[noreturn]] void fail(uint32_t line, const std::string& message) const {
        throw LessonError(file_, line, message);
    }

    static bool is_name(std::string_view name) {
        if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
        return std::all_of(name.begin(), name.end(), [](char c) {
            return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        });
    }

    static uint32_t line_of(const toml::Table& t, const char* key) {
        const toml::Entry* e = t.find(key);
        return e ? e->line : t.line;
    }

    void known_keys(const toml::Table& t, std::initializer_list<const char*> keys,
                    const std::string& where) const {
        std::string list;
        for (const char* k : keys)
            list += (list.empty() ? "" : ", ") + std::string(k);
        for (const toml::Entry& e : t.entries)
            if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return e.key == k; }))
                fail(e.line, where + "unknown key '" + e.key + "' (keys: " + list + ")");
    }

    const Value* string_field(const toml::Table& t, const char* key, const std::string& where,
                              const char* meaning) const {
        const toml::Entry* e = t.find(key);
        if (e == nullptr) fail(t.line, where + "missing key '" + key + "' (" + meaning + ")");
        if (e->value.kind != Kind::String)
            fail(e->line, where + "'" + key + "' must be a string, got " + toml::to_string(e->value.kind));
        return &e->value;
    }

    const BufferDecl& u32_buffer(const toml::Table& t, const char* key, const std::string& where,
                                 const char* meaning) const {
        const Value* v = string_field(t, key, where, meaning);
        std::string names;
        for (const BufferDecl& b : buffers_) {
            if (b.name == v->string) {
                if (b.spec.type != launch::ElemType::U32)
                    fail(v->line, where + key + " '" + v->string + "' is a " +
                                      launch::to_string(b.spec.type) +
                                      " buffer; the CPU reader reads u32 values");
                return b;
            }
            names += (names.empty() ? "" : ", ") + b.name;
        }
        fail(v->line, where + key + " '" + v->string + "' names no buffer (buffers: " + names + ")");
    }

    HostReaderVariant variant(const toml::Table& t) const {
        HostReaderVariant out;
        out.variant = t.path[1];
        const std::string where = "[host_reader." + out.variant + "]: ";
        if (std::none_of(variants_.begin(), variants_.end(),
                         [&](const Variant& v) { return v.id == out.variant; })) {
            std::string ids;
            for (const Variant& v : variants_)
                ids += (ids.empty() ? "" : ", ") + v.id;
            fail(t.line, where + "no variant '" + out.variant + "' in the lesson (variants: " + ids + ")");
        }
        known_keys(t, {"stale", "because"}, where);
        const Value* stale =
            string_field(t, "stale", where, "whether the CPU may read stale data: never or possible");
        if (stale->string == "never")
            out.stale = CpuStale::Never;
        else if (stale->string == "possible")
            out.stale = CpuStale::Possible;
        else
            fail(stale->line,
                 where +
                     "stale must be \"never\" (the fences order the data before the flag for "
                     "the CPU too) or \"possible\" (the memory model allows a stale read), got \"" +
                     stale->string + "\"");
        const Value* because = string_field(
            t, "because", where, "the rule that allows or forbids the stale read, and where it is stated");
        if (because->string.empty()) fail(because->line, where + "'because' is empty");
        out.because = because->string;
        return out;
    }

    const std::vector<BufferDecl>& buffers_;
    const std::vector<Variant>& variants_;
    const std::string& file_;
};

} // namespace

HostReaderSpec read_host_reader(const toml::Table& table, const std::vector<const toml::Table*>& per_variant,
                                const std::vector<BufferDecl>& buffers, const std::vector<Variant>& variants,
                                const std::string& file) {
    return HostReaderReader(buffers, variants, file).read(table, per_variant);
}

} // namespace synclab::scenario
