// .slt reader and writer. The layout is documented in slt_file.h; this file keeps to it.
//
// Design: writing and reading go through a small Sink / Source interface so that the file and the
// in-memory forms share one code path. The two big arrays (threads, events) are streamed in chunks
// that are checksummed while they are in cache, straight from / into the Trace's vectors: no
// intermediate copy of the whole file. Every count and length read from a file is checked against
// the bytes that remain before anything is allocated, so a corrupt count cannot ask for gigabytes.
#include "trace/slt_file.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string_view>
#include <sys/stat.h>
#include <type_traits>
#include <unistd.h>

namespace synclab::trace {

// Records are written as their in-memory bytes; that is the little-endian layout only on a
// little-endian host (all the targets SyncLab runs on). A big-endian port would swap here.
static_assert(std::endian::native == std::endian::little, "the .slt writer assumes a little-endian host");
static_assert(std::is_trivially_copyable_v<Event> && std::is_trivially_copyable_v<ThreadInfo>);
static_assert(sizeof(double) == 8);

namespace {

constexpr uint32_t kTagMeta = 0x4154454d;    // "META"
constexpr uint32_t kTagThreads = 0x44524854; // "THRD"
constexpr uint32_t kTagSites = 0x45544953;   // "SITE"
constexpr uint32_t kTagEvents = 0x544e5645;  // "EVNT"
constexpr uint32_t kTagBlocks = 0x534b4c42;  // "BLKS"
constexpr uint32_t kTagTiming = 0x474d4954;  // "TIMG"
constexpr uint32_t kTagCas = 0x46534143;     // "CASF"
// Optional (written only when the trace has a residency table, so older traces save as before;
// readers that predate it skip it as an unknown section): per block, BlockResidency records.
constexpr uint32_t kTagResidency = 0x4e445352; // "RSDN"
// Optional likewise (written only when the trace has a memory map): the MemoryMap's regions.
constexpr uint32_t kTagMemoryMap = 0x50414d4d; // "MMAP"
// Optional likewise (written only when some site's line was inlined or is in another file): the
// sites' LineOrigins.
constexpr uint32_t kTagOrigins = 0x4e4c4e49; // "INLN"
constexpr uint32_t kSectionCountV1 = 4;
constexpr uint32_t kSectionCountV3 = 7;
constexpr uint32_t kMaxHeaderSize = 4096;   // sanity bound for headers of future versions
constexpr uint32_t kMaxSectionCount = 1024; // idem for sections
constexpr uint32_t kSiteFixedBytes = 12;    // ptx_line, source_line, text length
constexpr uint32_t kWarpSize = 32;
constexpr size_t kChunkBytes = 256 * 1024; // streaming unit: fits in L2, so hashing it is cheap

// Checksum constants: two odd 64-bit multipliers (multiplying by an odd number is a bijection
// mod 2^64, which is what makes any change of one 8-byte word change the result).
constexpr uint64_t kMulA = 0x9e3779b97f4a7c15ull;
constexpr uint64_t kMulB = 0xd6e8feb86659fd93ull;

uint64_t mix_round(uint64_t acc, uint64_t word) {
    acc += word * kMulA;
    acc = std::rotl(acc, 31);
    return acc * kMulB;
}

uint64_t load_u64(const uint8_t* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}

uint64_t round_up8(uint64_t n) {
    return (n + 7) & ~uint64_t(7);
}

std::string hex64(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
    return buf;
}

std::string errno_text(int err) {
    return std::strerror(err);
}

std::string dims_text(const Dim3& d) {
    return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}

// Printable rendering of up to 8 leading bytes, for "not a SyncLab trace (magic is '...')".
std::string printable_bytes(const uint8_t* p, size_t n) {
    std::string out;
    for (size_t i = 0; i < n; ++i) {
        const uint8_t c = p[i];
        if (c == '\\' || c == '\'') {
            out += '\\';
            out += char(c);
        } else if (c >= 0x20 && c < 0x7f) {
            out += char(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        }
    }
    return out;
}

// A guess at what a foreign file is, so the message helps ("... looks like a ZIP archive").
const char* foreign_kind(const uint8_t* p, size_t n) {
    auto starts = [&](std::string_view s) {
        return n >= s.size() && std::memcmp(p, s.data(), s.size()) == 0;
    };
    if (starts("\x89PNG")) return "a PNG image";
    if (starts("PK\x03\x04") || starts("PK\x05\x06")) return "a ZIP archive";
    if (starts("\x1f\x8b")) return "gzip data";
    if (starts("\x7f"
               "ELF"))
        return "an ELF binary";
    if (starts("%PDF")) return "a PDF document";
    if (n >= 1 && (p[0] == '{' || p[0] == '[')) return "JSON or text";
    if (starts("//") || starts(".version") || starts("#include")) return "source text";
    return nullptr;
}

const char* section_name(uint32_t tag) {
    switch (tag) {
    case kTagMeta:
        return "meta";
    case kTagThreads:
        return "threads";
    case kTagSites:
        return "sites";
    case kTagEvents:
        return "events";
    case kTagBlocks:
        return "blocks";
    case kTagTiming:
        return "timing";
    case kTagResidency:
        return "residency";
    case kTagMemoryMap:
        return "memory map";
    case kTagOrigins:
        return "line origins";
    case kTagCas:
        return "cas failures";
    }
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Validation shared by save (refuse to write) and load (refuse to return).

bool mul_u64(uint64_t a, uint64_t b, uint64_t& out) {
    return !__builtin_mul_overflow(a, b, &out);
}

// A WarpCollective event whose fields cannot be what trace.h says: flags other than a known
// Collective, a member mask naming no lane, a source lane that is neither a lane nor kNoLane.
bool bad_collective(const Event& e) {
    const uint32_t source = uint32_t(e.address >> 32);
    return (e.flags > uint8_t(Collective::Elect)) | (uint32_t(e.address) == 0) |
           ((source >= kWarpSize) & (source != kNoLane));
}

// Index of the first event in [0, n) that fails the per-event checks, or n.
size_t first_bad_event(const Event* events, size_t n, uint64_t thread_count, uint64_t site_count) {
    for (size_t i = 0; i < n; ++i) {
        const Event& e = events[i];
        const auto kind = static_cast<uint8_t>(e.kind);
        const bool bad = (uint8_t(kind - 1) >= uint8_t(kEventKindCount - 1)) | (e.thread >= thread_count) |
                         (e.site >= site_count) | ((e.kind == EventKind::WarpCollective) & bad_collective(e));
        if (bad) return i;
    }
    return n;
}

std::string event_problem(const Event& e, uint64_t index, uint64_t thread_count, uint64_t site_count) {
    const auto kind = static_cast<uint8_t>(e.kind);
    const std::string at = "event " + std::to_string(index) + ": ";
    if (kind < 1 || kind >= kEventKindCount) {
        return at + "kind " + std::to_string(kind) + " is not a known event kind";
    }
    if (e.thread >= thread_count) {
        return at + "thread index " + std::to_string(e.thread) + " out of range (" +
               std::to_string(thread_count) + " threads)";
    }
    if (e.kind == EventKind::WarpCollective && e.site < site_count) {
        const uint32_t source = uint32_t(e.address >> 32);
        if (e.flags > uint8_t(Collective::Elect))
            return at + "warp collective " + std::to_string(unsigned(e.flags)) +
                   " is not a known collective (flags hold 0-5: syncwarp shfl vote match redux elect)";
        if (uint32_t(e.address) == 0) return at + "warp collective with member mask 0 (no lane took part)";
        return at + "warp collective source lane " + std::to_string(source) +
               " out of range (0-31, or 0xffffffff for none)";
    }
    return at + "site " + std::to_string(e.site) + " out of range (" + std::to_string(site_count) + " sites)";
}

std::string check_meta_and_threads(const Trace& trace) {
    const RunMeta& meta = trace.meta;
    if (static_cast<uint8_t>(meta.status) > static_cast<uint8_t>(RunStatus::Cancelled)) {
        return "meta: status " + std::to_string(static_cast<unsigned>(meta.status)) +
               " is not a known run status";
    }
    if (trace.threads.empty()) {
        if (!trace.events.empty()) {
            return "the thread table is empty but there are " + std::to_string(trace.events.size()) +
                   " events";
        }
        return "";
    }
    uint64_t blocks = 0, per_block = 0, total = 0;
    const bool fits = mul_u64(uint64_t(meta.grid.x) * meta.grid.y, meta.grid.z, blocks) &&
                      mul_u64(uint64_t(meta.block.x) * meta.block.y, meta.block.z, per_block) &&
                      mul_u64(blocks, per_block, total);
    if (!fits || total != trace.threads.size()) {
        return "grid " + dims_text(meta.grid) + " x block " + dims_text(meta.block) + " = " +
               (fits ? std::to_string(total) : std::string("more than 2^64")) +
               " threads, but the thread table has " + std::to_string(trace.threads.size());
    }
    if (!trace.block_history.empty() && trace.block_history.size() != blocks) {
        return "the block table has " + std::to_string(trace.block_history.size()) +
               " entries, but the grid " + dims_text(meta.grid) + " has " + std::to_string(blocks) +
               " blocks";
    }
    for (size_t b = 0; b < trace.block_history.size(); ++b) {
        if (static_cast<uint8_t>(trace.block_history[b]) > static_cast<uint8_t>(BlockHistory::NotRecorded))
            return "block " + std::to_string(b) + ": history " +
                   std::to_string(static_cast<unsigned>(trace.block_history[b])) +
                   " is not a known block history";
    }
    const uint64_t site_count = trace.sites.size();
    for (size_t i = 0; i < trace.threads.size(); ++i) {
        const ThreadInfo& t = trace.threads[i];
        const std::string at = "thread " + std::to_string(i) + ": ";
        if (static_cast<uint8_t>(t.end) > static_cast<uint8_t>(ThreadEnd::NotStarted)) {
            return at + "end " + std::to_string(static_cast<unsigned>(t.end)) + " is not a known thread end";
        }
        if (t.block >= blocks) {
            return at + "block " + std::to_string(t.block) + " out of range (grid has " +
                   std::to_string(blocks) + " blocks)";
        }
        if (t.thread_in_block >= per_block) {
            return at + "thread_in_block " + std::to_string(t.thread_in_block) + " out of range (" +
                   std::to_string(per_block) + " threads per block)";
        }
        if (t.lane >= kWarpSize) {
            return at + "lane " + std::to_string(t.lane) + " out of range (warps have 32 lanes)";
        }
        if (uint64_t(t.warp) * kWarpSize + t.lane != t.thread_in_block) {
            return at + "warp " + std::to_string(t.warp) + " lane " + std::to_string(t.lane) +
                   " does not match thread_in_block " + std::to_string(t.thread_in_block);
        }
        if (site_count == 0 ? t.end_site != 0 : t.end_site >= site_count) {
            return at + "end site " + std::to_string(t.end_site) + " out of range (" +
                   std::to_string(site_count) + " sites)";
        }
    }
    return "";
}

// ---------------------------------------------------------------------------------------------
// Writing.

class Sink {
  public:
    virtual ~Sink() = default;
    virtual void write(const void* data, size_t size) = 0;
    virtual void write_at(uint64_t offset, const void* data, size_t size) = 0; // inside what was written
    uint64_t position() const { return position_; }

  protected:
    uint64_t position_ = 0;
};

class VectorSink final : public Sink {
  public:
    explicit VectorSink(std::vector<uint8_t>& out) : out_(out) {}
    void write(const void* data, size_t size) override {
        const auto* p = static_cast<const uint8_t*>(data);
        out_.insert(out_.end(), p, p + size); // one pass (resize + memcpy would zero first)
        position_ += size;
    }
    void write_at(uint64_t offset, const void* data, size_t size) override {
        std::memcpy(out_.data() + offset, data, size);
    }

  private:
    std::vector<uint8_t>& out_;
};

class FdSink final : public Sink {
  public:
    FdSink(int fd, const std::string& path, const std::string& tmp_path)
        : fd_(fd), path_(path), tmp_path_(tmp_path) {}
    void write(const void* data, size_t size) override {
        const auto* p = static_cast<const uint8_t*>(data);
        while (size > 0) {
            const ssize_t n = ::write(fd_, p, size);
            if (n < 0) {
                if (errno == EINTR) continue;
                fail(errno);
            }
            p += n;
            size -= size_t(n);
            position_ += uint64_t(n);
        }
    }
    void write_at(uint64_t offset, const void* data, size_t size) override {
        const auto* p = static_cast<const uint8_t*>(data);
        while (size > 0) {
            const ssize_t n = ::pwrite(fd_, p, size, off_t(offset));
            if (n < 0) {
                if (errno == EINTR) continue;
                fail(errno);
            }
            p += n;
            size -= size_t(n);
            offset += uint64_t(n);
        }
    }

  private:
    [[noreturn]] void fail(int err) const {
        throw TraceFileError(path_, "cannot write " + tmp_path_ + ": " + errno_text(err));
    }
    int fd_;
    const std::string& path_;
    const std::string& tmp_path_;
};

class ByteWriter {
  public:
    template <class T> void put(T v) {
        static_assert(std::is_trivially_copyable_v<T>);
        const size_t at = bytes.size();
        bytes.resize(at + sizeof(T));
        std::memcpy(bytes.data() + at, &v, sizeof(T));
    }
    void put_string(const std::string& s) {
        put(uint32_t(s.size()));
        bytes.insert(bytes.end(), s.begin(), s.end());
    }
    std::vector<uint8_t> bytes;
};

// One field list for both directions: the writer and the reader visit RunMeta's fields in the same
// order, so the META layout cannot drift between them. New fields go at the end (see slt_file.h).
template <class Visitor, class Meta> void visit_meta(Visitor& v, Meta& m) {
    v.field("scenario", m.scenario);
    v.field("variant", m.variant);
    v.field("kernel", m.kernel);
    v.field("backend", m.backend);
    v.field("device", m.device);
    v.field("sm_count", m.sm_count);
    v.field("schedule", m.schedule);
    v.field("seed", m.seed);
    v.field("memory_model", m.memory_model);
    v.field("grid.x", m.grid.x);
    v.field("grid.y", m.grid.y);
    v.field("grid.z", m.grid.z);
    v.field("block.x", m.block.x);
    v.field("block.y", m.block.y);
    v.field("block.z", m.block.z);
    v.field("dynamic_shared_bytes", m.dynamic_shared_bytes);
    v.field("status", m.status);
    v.field("status_message", m.status_message);
    v.field("elapsed_ms", m.elapsed_ms);
    v.field("thread_instructions", m.thread_instructions);
    v.field("warp_instructions", m.warp_instructions);
    v.field("dropped_events", m.dropped_events);
    v.field("wrong_outputs", m.wrong_outputs);
    v.field("checked_outputs", m.checked_outputs);
    v.field("source_name", m.source_name);
    v.field("source_text", m.source_text);
    v.field("ptx_text", m.ptx_text);
    // Version 3. A version 2 file's META ends before it (the field keeps its default).
    v.tail_field("modelled_cycles", m.modelled_cycles);
}

struct MetaWriter {
    ByteWriter& out;
    void field(const char*, const std::string& s) { out.put_string(s); }
    void field(const char*, uint32_t v) { out.put(v); }
    void field(const char*, uint64_t v) { out.put(v); }
    void field(const char*, double v) { out.put(std::bit_cast<uint64_t>(v)); }
    void field(const char*, RunStatus v) { out.put(static_cast<uint8_t>(v)); }
    void tail_field(const char* name, uint64_t v) { field(name, v); }
};

// Strings are stored with a u32 length; anything longer cannot be represented.
std::string check_string_lengths(const Trace& trace) {
    struct Checker {
        std::string problem;
        void field(const char* name, const std::string& s) {
            if (problem.empty() && s.size() > UINT32_MAX) {
                problem = std::string("meta: ") + name + " is longer than 4 GiB";
            }
        }
        void field(const char*, uint32_t) {}
        void field(const char*, uint64_t) {}
        void field(const char*, double) {}
        void field(const char*, RunStatus) {}
        void tail_field(const char*, uint64_t) {}
    } checker;
    visit_meta(checker, trace.meta);
    if (!checker.problem.empty()) return checker.problem;
    for (size_t i = 0; i < trace.sites.size(); ++i) {
        if (trace.sites[i].text.size() > UINT32_MAX)
            return "site " + std::to_string(i) + ": text is longer than 4 GiB";
    }
    return "";
}

std::vector<uint8_t> meta_payload(const RunMeta& meta) {
    ByteWriter w;
    MetaWriter visitor{w};
    visit_meta(visitor, meta);
    return std::move(w.bytes);
}

std::vector<uint8_t> sites_payload(const std::vector<Site>& sites) {
    ByteWriter w;
    size_t total = 0;
    for (const Site& s : sites)
        total += kSiteFixedBytes + s.text.size();
    w.bytes.reserve(total);
    for (const Site& s : sites) {
        w.put(s.ptx_line);
        w.put(s.source_line);
        w.put_string(s.text);
    }
    return std::move(w.bytes);
}

// MMAP: u32 region count, then per region: u8 space, 3 zero bytes, u32 element_size, u64 base,
// u64 bytes, name and element_type as u32 length + UTF-8 bytes.
std::vector<uint8_t> memory_map_payload(const MemoryMap& map) {
    ByteWriter w;
    w.put(uint32_t(map.regions().size()));
    for (const MemoryRegion& r : map.regions()) {
        w.put(uint8_t(r.space));
        w.put(uint8_t(0));
        w.put(uint16_t(0));
        w.put(r.element_size);
        w.put(r.base);
        w.put(r.bytes);
        w.put_string(r.name);
        w.put_string(r.element_type);
    }
    return std::move(w.bytes);
}

bool has_origins(const std::vector<Site>& sites) {
    for (const Site& s : sites)
        if (!s.origin.empty()) return true;
    return false;
}

// INLN: u32 entry count, then per site with a non-empty origin, in site order: u32 site index, file
// (u32 length + UTF-8), u32 call count, per call: function, file (each u32 length + UTF-8), u32 line.
std::vector<uint8_t> origins_payload(const std::vector<Site>& sites) {
    ByteWriter w;
    uint32_t count = 0;
    for (const Site& s : sites)
        count += s.origin.empty() ? 0 : 1;
    w.put(count);
    for (size_t i = 0; i < sites.size(); ++i) {
        const LineOrigin& o = sites[i].origin;
        if (o.empty()) continue;
        w.put(uint32_t(i));
        w.put_string(o.file);
        w.put(uint32_t(o.inlined.size()));
        for (const InlinedCall& call : o.inlined) {
            w.put_string(call.function);
            w.put_string(call.file);
            w.put(call.line);
        }
    }
    return std::move(w.bytes);
}

void write_section_header(Sink& sink, uint32_t tag, uint32_t record_size, uint64_t payload_size,
                          uint64_t checksum) {
    uint8_t h[kSltSectionHeaderSize];
    std::memcpy(h + 0, &tag, 4);
    std::memcpy(h + 4, &record_size, 4);
    std::memcpy(h + 8, &payload_size, 8);
    std::memcpy(h + 16, &checksum, 8);
    sink.write(h, sizeof h);
}

void write_padding(Sink& sink, uint64_t payload_size) {
    static constexpr uint8_t kZeros[8] = {};
    const uint64_t pad = round_up8(payload_size) - payload_size;
    if (pad != 0) sink.write(kZeros, pad);
}

void write_section(Sink& sink, uint32_t tag, uint32_t record_size, const void* data, uint64_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    if (size <= kChunkBytes) {
        write_section_header(sink, tag, record_size, size, slt_checksum64(p, size));
        if (size != 0) sink.write(p, size);
    } else {
        // Big arrays: header with a placeholder checksum, then hash-and-write chunk by chunk while
        // each chunk is in cache, then patch the checksum in.
        const uint64_t header_at = sink.position();
        write_section_header(sink, tag, record_size, size, 0);
        SltChecksum sum;
        for (uint64_t done = 0; done < size;) {
            const size_t n = size_t(std::min<uint64_t>(kChunkBytes, size - done));
            sum.update(p + done, n);
            sink.write(p + done, n);
            done += n;
        }
        const uint64_t checksum = sum.finish();
        sink.write_at(header_at + 16, &checksum, 8);
    }
    write_padding(sink, size);
}

void write_trace(const Trace& trace, Sink& sink, const std::string& name) {
    // Checked before the first byte is written: an invalid trace leaves no file behind.
    const std::string problem = check_trace(trace);
    if (!problem.empty()) throw TraceFileError(name, "cannot save an invalid trace: " + problem);

    uint8_t header[kSltHeaderSize] = {};
    const uint32_t version = kSltVersion, min_reader = trace.every_block_whole() ? kSltMinReaderVersion : 2,
                   flags = trace.memory.complete() ? kSltFlagCompleteMemoryMap : 0,
                   header_size = kSltHeaderSize,
                   section_count = kSectionCountV3 + (trace.residency.empty() ? 0 : 1) +
                                   (trace.memory.empty() ? 0 : 1) + (has_origins(trace.sites) ? 1 : 0);
    const uint64_t thread_count = trace.threads.size(), site_count = trace.sites.size(),
                   event_count = trace.events.size();
    std::memcpy(header + 0, kSltMagic, 8);
    std::memcpy(header + 8, &version, 4);
    std::memcpy(header + 12, &min_reader, 4);
    std::memcpy(header + 16, &flags, 4);
    std::memcpy(header + 20, &header_size, 4);
    std::memcpy(header + 24, &section_count, 4);
    std::memcpy(header + 32, &thread_count, 8);
    std::memcpy(header + 40, &site_count, 8);
    std::memcpy(header + 48, &event_count, 8);
    const uint64_t header_sum = slt_checksum64(header, kSltHeaderSize - 8);
    std::memcpy(header + 56, &header_sum, 8);
    sink.write(header, sizeof header);

    const std::vector<uint8_t> meta = meta_payload(trace.meta);
    write_section(sink, kTagMeta, 0, meta.data(), meta.size());
    write_section(sink, kTagThreads, sizeof(ThreadInfo), trace.threads.data(),
                  thread_count * sizeof(ThreadInfo));
    const std::vector<uint8_t> sites = sites_payload(trace.sites);
    write_section(sink, kTagSites, 0, sites.data(), sites.size());
    write_section(sink, kTagEvents, sizeof(Event), trace.events.data(), event_count * sizeof(Event));
    static_assert(sizeof(BlockHistory) == 1);
    const bool all_whole = trace.every_block_whole();
    write_section(sink, kTagBlocks, 1, all_whole ? nullptr : trace.block_history.data(),
                  all_whole ? 0 : trace.block_history.size());
    static_assert(sizeof(EventTiming) == 16 && std::is_trivially_copyable_v<EventTiming>);
    write_section(sink, kTagTiming, sizeof(EventTiming), trace.timing.data(),
                  trace.timing.size() * sizeof(EventTiming));
    write_section(sink, kTagCas, sizeof(uint32_t), trace.cas_failures.data(),
                  trace.cas_failures.size() * sizeof(uint32_t));
    static_assert(std::is_trivially_copyable_v<BlockResidency>);
    if (!trace.residency.empty())
        write_section(sink, kTagResidency, sizeof(BlockResidency), trace.residency.data(),
                      trace.residency.size() * sizeof(BlockResidency));
    if (!trace.memory.empty()) {
        const std::vector<uint8_t> map = memory_map_payload(trace.memory);
        write_section(sink, kTagMemoryMap, 0, map.data(), map.size());
    }
    if (has_origins(trace.sites)) {
        const std::vector<uint8_t> origins = origins_payload(trace.sites);
        write_section(sink, kTagOrigins, 0, origins.data(), origins.size());
    }
}

// ---------------------------------------------------------------------------------------------
// Reading.

class Source {
  public:
    virtual ~Source() = default;
    virtual uint64_t size() const = 0;
    // Reads exactly `size` bytes at `offset`; callers have checked that they lie inside size().
    virtual void read(uint64_t offset, void* dst, size_t size) = 0;
};

class SpanSource final : public Source {
  public:
    explicit SpanSource(std::span<const uint8_t> bytes) : bytes_(bytes) {}
    uint64_t size() const override { return bytes_.size(); }
    void read(uint64_t offset, void* dst, size_t size) override {
        if (size != 0) std::memcpy(dst, bytes_.data() + offset, size);
    }

  private:
    std::span<const uint8_t> bytes_;
};

class FdSource final : public Source {
  public:
    FdSource(int fd, uint64_t size, const std::string& name) : fd_(fd), size_(size), name_(name) {}
    uint64_t size() const override { return size_; }
    void read(uint64_t offset, void* dst, size_t size) override {
        auto* p = static_cast<uint8_t*>(dst);
        while (size > 0) {
            const ssize_t n = ::pread(fd_, p, size, off_t(offset));
            if (n < 0) {
                if (errno == EINTR) continue;
                throw TraceFileError(name_, "read error at offset " + std::to_string(offset) + ": " +
                                                errno_text(errno));
            }
            if (n == 0) {
                // The file shrank after fstat (someone is rewriting it in place).
                throw TraceFileError(name_, "truncated: file ended at offset " + std::to_string(offset) +
                                                " while reading (was it modified during loading?)");
            }
            p += n;
            size -= size_t(n);
            offset += uint64_t(n);
        }
    }

  private:
    int fd_;
    uint64_t size_;
    const std::string& name_;
};

// Bounds-checked little-endian cursor over a section payload held in memory.
class ByteReader {
  public:
    ByteReader(std::span<const uint8_t> bytes, const std::string& name) : bytes_(bytes), name_(name) {}
    size_t left() const { return bytes_.size() - at_; }
    size_t offset() const { return at_; }

    template <class T> bool take(T& v) {
        if (left() < sizeof(T)) return false;
        std::memcpy(&v, bytes_.data() + at_, sizeof(T));
        at_ += sizeof(T);
        return true;
    }
    bool take_string(std::string& s, size_t length) {
        if (left() < length) return false;
        s.assign(reinterpret_cast<const char*>(bytes_.data() + at_), length);
        at_ += length;
        return true;
    }
    [[noreturn]] void fail(const std::string& problem) const { throw TraceFileError(name_, problem); }

  private:
    std::span<const uint8_t> bytes_;
    size_t at_ = 0;
    const std::string& name_;
};

struct MetaReader {
    ByteReader& in;

    template <class T> void scalar(const char* name, T& v) {
        if (!in.take(v)) {
            in.fail("meta section ends inside field '" + std::string(name) + "' (at byte " +
                    std::to_string(in.offset()) + ", " + std::to_string(in.left()) + " bytes left)");
        }
    }
    void field(const char* name, std::string& s) {
        uint32_t length = 0;
        scalar(name, length);
        if (!in.take_string(s, length)) {
            in.fail("meta: string '" + std::string(name) + "' length " + std::to_string(length) +
                    " runs past the end of the meta section (" + std::to_string(in.left()) + " bytes left)");
        }
    }
    void field(const char* name, uint32_t& v) { scalar(name, v); }
    void field(const char* name, uint64_t& v) { scalar(name, v); }
    void field(const char* name, double& v) {
        uint64_t bits = 0;
        scalar(name, bits);
        v = std::bit_cast<double>(bits);
    }
    void field(const char* name, RunStatus& v) {
        uint8_t raw = 0;
        scalar(name, raw);
        v = static_cast<RunStatus>(raw); // range checked with the rest of the trace
    }
    // Absent from files of an older version, whose META ends before it.
    void tail_field(const char* name, uint64_t& v) {
        if (in.left() == 0 && old_file) return;
        scalar(name, v);
    }
    bool old_file = false;
};

struct Header {
    uint32_t version = 0;
    uint32_t min_reader = 0;
    uint32_t flags = 0;
    uint32_t header_size = 0;
    uint32_t section_count = 0;
    uint64_t thread_count = 0;
    uint64_t site_count = 0;
    uint64_t event_count = 0;
};

class TraceReader {
  public:
    TraceReader(Source& source, const std::string& name) : src_(source), name_(name), size_(source.size()) {}

    Trace read() {
        read_header();
        uint64_t offset = header_.header_size;
        bool seen_meta = false, seen_threads = false, seen_sites = false, seen_events = false;
        for (uint32_t i = 0; i < header_.section_count; ++i) {
            offset = read_section(i, offset, seen_meta, seen_threads, seen_sites, seen_events);
        }
        if (!seen_meta) fail("missing meta section");
        if (!seen_threads) fail("missing threads section");
        if (!seen_sites) fail("missing sites section");
        if (!seen_events) fail("missing events section");
        if (header_.version >= 2 && !seen_blocks_) fail("missing blocks section");
        if (header_.version >= 3 && !seen_timing_) fail("missing timing section");
        if (header_.version >= 3 && !seen_cas_) fail("missing cas failures section");
        for (auto& [site, origin] : origins_) // INLN may precede SITE in a file another writer made
            if (site < trace_.sites.size()) trace_.sites[site].origin = std::move(origin);
        // (flags this reader does not know are ignored: a newer writer may define them)
        trace_.memory.set_complete((header_.flags & kSltFlagCompleteMemoryMap) != 0);
        if (offset != size_) {
            fail(std::to_string(size_ - offset) + " unexpected bytes after the last section at offset " +
                 std::to_string(offset));
        }
        const std::string problem = check_meta_and_threads(trace_);
        if (!problem.empty()) fail(problem);
        if (!event_problem_.empty()) fail(event_problem_);
        if (!trace_.residency.empty() && trace_.residency.size() != uint64_t(trace_.meta.grid.count()))
            fail("residency section has " + std::to_string(trace_.residency.size()) + " records for a grid of " +
                 std::to_string(trace_.meta.grid.count()) + " blocks");
        return std::move(trace_);
    }

  private:
    [[noreturn]] void fail(const std::string& problem) const { throw TraceFileError(name_, problem); }

    void truncated(const std::string& what, uint64_t need, uint64_t offset) const {
        fail("truncated: " + what + " needs " + std::to_string(need) + " bytes at offset " +
             std::to_string(offset) + ", file has " + std::to_string(size_));
    }

    void read_header() {
        if (size_ == 0) fail("empty file (0 bytes), not a SyncLab trace");
        uint8_t fixed[16] = {};
        const size_t have = size_t(std::min<uint64_t>(size_, sizeof fixed));
        src_.read(0, fixed, have);
        const size_t magic_have = std::min<size_t>(have, 8);
        if (std::memcmp(fixed, kSltMagic, magic_have) != 0) {
            std::string message =
                "not a SyncLab trace (magic is '" + printable_bytes(fixed, magic_have) + "'";
            if (const char* kind = foreign_kind(fixed, have)) message += std::string(", looks like ") + kind;
            fail(message + ")");
        }
        if (have < 16) truncated("header", kSltHeaderSize, 0);
        std::memcpy(&header_.version, fixed + 8, 4);
        std::memcpy(&header_.min_reader, fixed + 12, 4);
        if (header_.version == 0 || header_.min_reader == 0 || header_.min_reader > header_.version) {
            fail("invalid header: version " + std::to_string(header_.version) +
                 " with minimum reader version " + std::to_string(header_.min_reader));
        }
        if (header_.min_reader > kSltVersion) {
            fail("version " + std::to_string(header_.version) + " is newer than this SyncLab reads (max " +
                 std::to_string(kSltVersion) + "; the file needs a reader of version " +
                 std::to_string(header_.min_reader) + " or later)");
        }
        if (size_ < 24) truncated("header", kSltHeaderSize, 0);
        uint8_t size_field[4];
        src_.read(20, size_field, 4);
        std::memcpy(&header_.header_size, size_field, 4);
        const uint32_t hs = header_.header_size;
        const bool size_ok = header_.version == kSltVersion
                                 ? hs == kSltHeaderSize
                                 : (hs >= kSltHeaderSize && hs <= kMaxHeaderSize && hs % 8 == 0);
        if (!size_ok) fail("invalid header size " + std::to_string(hs));
        if (size_ < hs) truncated("header", hs, 0);

        std::vector<uint8_t> bytes(hs);
        src_.read(0, bytes.data(), hs);
        const uint64_t stored = load_u64(bytes.data() + hs - 8);
        const uint64_t computed = slt_checksum64(bytes.data(), hs - 8);
        if (stored != computed) {
            fail("checksum mismatch in header (stored " + hex64(stored) + ", computed " + hex64(computed) +
                 ")");
        }
        std::memcpy(&header_.flags, bytes.data() + 16, 4);
        std::memcpy(&header_.section_count, bytes.data() + 24, 4);
        header_.thread_count = load_u64(bytes.data() + 32);
        header_.site_count = load_u64(bytes.data() + 40);
        header_.event_count = load_u64(bytes.data() + 48);
        if (header_.section_count < kSectionCountV1 || header_.section_count > kMaxSectionCount) {
            fail("invalid section count " + std::to_string(header_.section_count));
        }
    }

    uint64_t read_section(uint32_t index, uint64_t offset, bool& seen_meta, bool& seen_threads,
                          bool& seen_sites, bool& seen_events) {
        if (size_ - offset < kSltSectionHeaderSize) {
            truncated("section " + std::to_string(index) + " header", kSltSectionHeaderSize, offset);
        }
        uint8_t h[kSltSectionHeaderSize];
        src_.read(offset, h, sizeof h);
        uint32_t tag = 0, record_size = 0;
        uint64_t payload_size = 0, stored_sum = 0;
        std::memcpy(&tag, h + 0, 4);
        std::memcpy(&record_size, h + 4, 4);
        std::memcpy(&payload_size, h + 8, 8);
        std::memcpy(&stored_sum, h + 16, 8);
        const uint64_t payload_at = offset + kSltSectionHeaderSize;

        const char* known = section_name(tag);
        const std::string label =
            known ? std::string(known) + " section"
                  : "section " + std::to_string(index) + " (tag '" + printable_bytes(h, 4) + "')";
        bool* seen = tag == kTagMeta        ? &seen_meta
                     : tag == kTagThreads   ? &seen_threads
                     : tag == kTagSites     ? &seen_sites
                     : tag == kTagEvents    ? &seen_events
                     : tag == kTagBlocks    ? &seen_blocks_
                     : tag == kTagTiming    ? &seen_timing_
                     : tag == kTagCas       ? &seen_cas_
                     : tag == kTagResidency ? &seen_residency_
                     : tag == kTagMemoryMap ? &seen_memory_map_
                     : tag == kTagOrigins   ? &seen_origins_
                                            : nullptr;
        if (seen && *seen) fail("duplicate " + label + " at offset " + std::to_string(offset));
        if (seen) *seen = true;

        uint32_t expected_record = 0;
        if (tag == kTagThreads) expected_record = sizeof(ThreadInfo);
        if (tag == kTagEvents) expected_record = sizeof(Event);
        if (tag == kTagBlocks) expected_record = 1;
        if (tag == kTagTiming) expected_record = sizeof(EventTiming);
        if (tag == kTagCas) expected_record = sizeof(uint32_t);
        if (tag == kTagResidency) expected_record = sizeof(BlockResidency);
        if (known && record_size != expected_record) {
            fail(label + ": record size " + std::to_string(record_size) + ", expected " +
                 std::to_string(expected_record));
        }

        // Everything this section claims must lie inside the file before anything is allocated.
        const uint64_t remaining = size_ - payload_at;
        if (payload_size > remaining) truncated(label, payload_size, payload_at);
        const uint64_t padded = round_up8(payload_size);
        if (padded > remaining)
            truncated(label + " padding", padded - payload_size, payload_at + payload_size);

        if (tag == kTagThreads)
            check_record_count(label, payload_size, header_.thread_count, sizeof(ThreadInfo), "threads");
        if (tag == kTagEvents)
            check_record_count(label, payload_size, header_.event_count, sizeof(Event), "events");
        // Timing and CAS failures: one record per event / per site, or none (not modelled).
        if (tag == kTagTiming && payload_size != 0)
            check_record_count(label, payload_size, header_.event_count, sizeof(EventTiming), "events");
        if (tag == kTagCas && payload_size != 0)
            check_record_count(label, payload_size, header_.site_count, sizeof(uint32_t), "sites");
        if (tag == kTagResidency && payload_size % sizeof(BlockResidency) != 0)
            fail(label + " holds " + std::to_string(payload_size) + " bytes, not a whole number of " +
                 std::to_string(sizeof(BlockResidency)) + "-byte records");
        if (tag == kTagSites && header_.site_count > payload_size / kSiteFixedBytes) {
            fail(label + " holds " + std::to_string(payload_size) + " bytes, too few for " +
                 std::to_string(header_.site_count) + " sites (at least 12 bytes each)");
        }

        uint64_t computed = 0;
        if (tag == kTagThreads) {
            trace_.threads.resize(size_t(header_.thread_count));
            computed = read_records(payload_at, trace_.threads.data(), payload_size, nullptr);
        } else if (tag == kTagEvents) {
            trace_.events.resize(size_t(header_.event_count));
            computed = read_records(payload_at, trace_.events.data(), payload_size, &event_problem_);
        } else if (tag == kTagTiming) {
            trace_.timing.resize(size_t(payload_size / sizeof(EventTiming)));
            computed = read_records(payload_at, trace_.timing.data(), payload_size, nullptr);
        } else if (tag == kTagCas) {
            trace_.cas_failures.resize(size_t(payload_size / sizeof(uint32_t)));
            computed = read_records(payload_at, trace_.cas_failures.data(), payload_size, nullptr);
        } else if (tag == kTagResidency) {
            trace_.residency.resize(size_t(payload_size / sizeof(BlockResidency)));
            computed = read_records(payload_at, trace_.residency.data(), payload_size, nullptr);
        } else if (known) {
            std::vector<uint8_t> payload(payload_size);
            src_.read(payload_at, payload.data(), payload.size());
            computed = slt_checksum64(payload.data(), payload.size());
            check_sum(label, stored_sum, computed); // before parsing: corruption reads as corruption
            if (tag == kTagMeta) parse_meta(payload);
            if (tag == kTagSites) parse_sites(payload);
            if (tag == kTagBlocks) parse_blocks(payload);
            if (tag == kTagMemoryMap) parse_memory_map(payload, payload_at);
            if (tag == kTagOrigins) parse_origins(payload, payload_at);
        } else {
            computed = read_records(payload_at, nullptr, payload_size, nullptr); // verify, then skip
        }
        if (!known || tag == kTagThreads || tag == kTagEvents || tag == kTagTiming || tag == kTagCas ||
            tag == kTagResidency)
            check_sum(label, stored_sum, computed);

        if (padded != payload_size) {
            uint8_t pad[8] = {};
            src_.read(payload_at + payload_size, pad, padded - payload_size);
            for (uint64_t i = 0; i < padded - payload_size; ++i) {
                if (pad[i] != 0)
                    fail("nonzero padding after " + label + " at offset " +
                         std::to_string(payload_at + payload_size + i));
            }
        }
        return payload_at + padded;
    }

    void check_record_count(const std::string& label, uint64_t payload_size, uint64_t count, uint64_t record,
                            const char* what) const {
        if (payload_size % record != 0 || payload_size / record != count) {
            fail(label + " holds " + std::to_string(payload_size) + " bytes, but the header says " +
                 std::to_string(count) + " " + what + " of " + std::to_string(record) + " bytes");
        }
    }

    void check_sum(const std::string& label, uint64_t stored, uint64_t computed) const {
        if (stored != computed) {
            fail("checksum mismatch in " + label + " (stored " + hex64(stored) + ", computed " +
                 hex64(computed) + ")");
        }
    }

    // Streams `size` bytes at `offset` into `dst` (or through a scratch buffer when dst is null)
    // chunk by chunk, hashing each chunk while it is in cache. For events, also finds the first
    // invalid event; it is reported only after the checksum has been verified, so that corruption
    // reads as "checksum mismatch" rather than as a strange event.
    uint64_t read_records(uint64_t offset, void* dst, uint64_t size, std::string* event_problem) {
        SltChecksum sum;
        std::vector<uint8_t> scratch;
        if (dst == nullptr) scratch.resize(size_t(std::min<uint64_t>(size, kChunkBytes)));
        auto* out = static_cast<uint8_t*>(dst);
        bool found_bad = false;
        for (uint64_t done = 0; done < size;) {
            const size_t n =
                size_t(std::min<uint64_t>(kChunkBytes, size - done)); // whole events (32 | kChunkBytes)
            uint8_t* chunk = out ? out + done : scratch.data();
            src_.read(offset + done, chunk, n);
            sum.update(chunk, n);
            if (event_problem && !found_bad) {
                const auto* events = reinterpret_cast<const Event*>(chunk);
                const size_t count = n / sizeof(Event);
                const size_t bad = first_bad_event(events, count, header_.thread_count, header_.site_count);
                if (bad != count) {
                    found_bad = true;
                    *event_problem = event_problem_text(events[bad], done / sizeof(Event) + bad);
                }
            }
            done += n;
        }
        return sum.finish();
    }

    std::string event_problem_text(const Event& e, uint64_t index) const {
        return event_problem(e, index, header_.thread_count, header_.site_count);
    }

    void parse_meta(const std::vector<uint8_t>& payload) {
        ByteReader in(payload, name_);
        MetaReader visitor{in};
        visitor.old_file = header_.version < 3;
        visit_meta(visitor, trace_.meta);
        // A newer writer may append fields; a file of this version has none.
        if (in.left() != 0 && header_.version <= kSltVersion) {
            fail("meta section has " + std::to_string(in.left()) + " unexpected bytes at its end");
        }
    }

    // One BlockHistory byte per block (checked against the grid with the rest of the trace).
    void parse_blocks(const std::vector<uint8_t>& payload) {
        trace_.block_history.resize(payload.size());
        for (size_t i = 0; i < payload.size(); ++i) {
            if (payload[i] > static_cast<uint8_t>(BlockHistory::NotRecorded))
                fail("blocks section: block " + std::to_string(i) + " has history " +
                     std::to_string(payload[i]) + ", not a known block history");
            trace_.block_history[i] = static_cast<BlockHistory>(payload[i]);
        }
    }

    // `payload_at`: the payload's offset in the file, so that an error says where the bad record is.
    void parse_memory_map(const std::vector<uint8_t>& payload, uint64_t payload_at) {
        ByteReader in(payload, name_);
        auto bad = [&](const std::string& problem, size_t at) {
            fail("memory map section: " + problem + " at offset " + std::to_string(payload_at + at));
        };
        uint32_t count = 0;
        if (!in.take(count)) bad("no region count", 0);
        for (uint32_t i = 0; i < count; ++i) {
            const size_t at = in.offset();
            const std::string which = "region " + std::to_string(i);
            uint8_t space = 0, pad8 = 0;
            uint16_t pad16 = 0;
            uint32_t length = 0;
            MemoryRegion r;
            if (!in.take(space) || !in.take(pad8) || !in.take(pad16) || !in.take(r.element_size) ||
                !in.take(r.base) || !in.take(r.bytes))
                bad(which + " is cut short (24 bytes needed, " + std::to_string(payload.size() - at) +
                        " left)",
                    at);
            if (space != uint8_t(Space::Global) && space != uint8_t(Space::Shared))
                bad(which + " has space " + std::to_string(space) + " (neither global nor shared)", at);
            r.space = Space(space);
            if (!in.take(length) || !in.take_string(r.name, length))
                bad(which + ": its name runs past the end of the section", at);
            if (!in.take(length) || !in.take_string(r.element_type, length))
                bad(which + ": its element type runs past the end of the section", at);
            if (!trace_.memory.add(std::move(r)))
                bad(which + " is empty, unnamed or overlaps another region of its space", at);
        }
        if (in.left() != 0)
            bad(std::to_string(in.left()) + " unexpected bytes after the last region", in.offset());
    }

    // `payload_at`: the payload's offset in the file, so that an error says where the bad entry is.
    void parse_origins(const std::vector<uint8_t>& payload, uint64_t payload_at) {
        ByteReader in(payload, name_);
        auto bad = [&](const std::string& problem, size_t at) {
            fail("line origins section: " + problem + " at offset " + std::to_string(payload_at + at));
        };
        auto text = [&](std::string& out, const std::string& what, size_t at) {
            uint32_t length = 0;
            if (!in.take(length) || !in.take_string(out, length))
                bad(what + " runs past the end of the section", at);
        };
        uint32_t count = 0;
        if (!in.take(count)) bad("no entry count", 0);
        uint64_t next_site = 0; // entries are in site order, one per site at most
        for (uint32_t i = 0; i < count; ++i) {
            const size_t at = in.offset();
            const std::string which = "entry " + std::to_string(i);
            uint32_t site = 0, calls = 0;
            if (!in.take(site)) bad(which + " is cut short", at);
            if (site >= header_.site_count || site < next_site)
                bad(which + " names site " + std::to_string(site) +
                        " (sites: " + std::to_string(header_.site_count) + ", in order, once each)",
                    at);
            next_site = uint64_t(site) + 1;
            LineOrigin origin;
            text(origin.file, which + ": its file", at);
            if (!in.take(calls)) bad(which + " is cut short", at);
            if (calls > in.left() / 12) bad(which + " claims " + std::to_string(calls) + " calls", at);
            origin.inlined.resize(calls);
            for (InlinedCall& call : origin.inlined) {
                text(call.function, which + ": a call's function", at);
                text(call.file, which + ": a call's file", at);
                if (!in.take(call.line)) bad(which + ": a call's line is cut short", at);
            }
            if (origin.empty()) bad(which + " is empty (an empty origin is not written)", at);
            origins_.emplace_back(size_t(site), std::move(origin));
        }
        if (in.left() != 0)
            bad(std::to_string(in.left()) + " unexpected bytes after the last entry", in.offset());
    }

    void parse_sites(const std::vector<uint8_t>& payload) {
        ByteReader in(payload, name_);
        trace_.sites.resize(size_t(header_.site_count)); // bounded by payload size / 12 above
        for (uint64_t i = 0; i < header_.site_count; ++i) {
            Site& site = trace_.sites[size_t(i)];
            uint32_t length = 0;
            const size_t at = in.offset();
            if (!in.take(site.ptx_line) || !in.take(site.source_line) || !in.take(length)) {
                fail("site " + std::to_string(i) + ": record needs 12 bytes at byte " + std::to_string(at) +
                     " of the sites section, " + std::to_string(payload.size() - at) + " left");
            }
            if (!in.take_string(site.text, length)) {
                fail("site " + std::to_string(i) + ": text length " + std::to_string(length) +
                     " runs past the end of the sites section (" + std::to_string(in.left()) +
                     " bytes left)");
            }
        }
        if (in.left() != 0) {
            fail("sites section has " + std::to_string(in.left()) + " unexpected bytes after site " +
                 std::to_string(header_.site_count == 0 ? 0 : header_.site_count - 1));
        }
    }

    Source& src_;
    const std::string& name_;
    uint64_t size_;
    Header header_;
    Trace trace_;
    bool seen_blocks_ = false; // BLKS is optional (version 1 files have none)
    bool seen_timing_ = false; // TIMG, CASF: version 3 (older files have none: not modelled)
    bool seen_cas_ = false;
    bool seen_residency_ = false;
    bool seen_memory_map_ = false;
    bool seen_origins_ = false;
    std::vector<std::pair<size_t, LineOrigin>> origins_; // INLN, applied to the sites at the end
    std::string event_problem_;
};

// Closes a descriptor on every path out of a scope.
class FdGuard {
  public:
    explicit FdGuard(int fd) : fd_(fd) {}
    ~FdGuard() {
        if (fd_ >= 0) ::close(fd_);
    }
    FdGuard(const FdGuard&) = delete;
    FdGuard& operator=(const FdGuard&) = delete;
    int get() const { return fd_; }
    int release() {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }

  private:
    int fd_;
};

} // namespace

// ---------------------------------------------------------------------------------------------
// Checksum.

SltChecksum::SltChecksum() : lane_{kMulB, kMulA, ~kMulB, ~kMulA}, pending_{} {}

void SltChecksum::block(const uint8_t* p) {
    lane_[0] = mix_round(lane_[0], load_u64(p + 0));
    lane_[1] = mix_round(lane_[1], load_u64(p + 8));
    lane_[2] = mix_round(lane_[2], load_u64(p + 16));
    lane_[3] = mix_round(lane_[3], load_u64(p + 24));
}

void SltChecksum::update(const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    total_ += size;
    if (pending_size_ != 0) {
        const size_t n = std::min(size, sizeof pending_ - pending_size_);
        std::memcpy(pending_ + pending_size_, p, n);
        pending_size_ += n;
        p += n;
        size -= n;
        if (pending_size_ < sizeof pending_) return;
        block(pending_);
        pending_size_ = 0;
    }
    // Four independent lanes keep four multiplies in flight.
    for (; size >= 32; p += 32, size -= 32)
        block(p);
    if (size != 0) std::memcpy(pending_, p, size);
    pending_size_ = size;
}

uint64_t SltChecksum::finish() const {
    // Each step below is a bijection of the lane or word it folds in (xor, rotate, odd multiply),
    // so a different lane state or tail word always gives a different result.
    auto fold = [](uint64_t h, uint64_t v) { return std::rotl(h ^ mix_round(0, v), 27) * kMulB + kMulA; };
    uint64_t h = total_ * kMulA;
    for (uint64_t lane : lane_)
        h = fold(h, lane);
    size_t i = 0;
    for (; i + 8 <= pending_size_; i += 8)
        h = fold(h, load_u64(pending_ + i));
    if (i < pending_size_) {
        uint64_t last = 0;
        std::memcpy(&last, pending_ + i, pending_size_ - i);
        h = fold(h, last);
    }
    h ^= h >> 33;
    h *= kMulA;
    h ^= h >> 29;
    h *= kMulB;
    h ^= h >> 32;
    return h;
}

uint64_t slt_checksum64(const void* data, size_t size) {
    SltChecksum sum;
    sum.update(data, size);
    return sum.finish();
}

// ---------------------------------------------------------------------------------------------
// Public API.

std::string check_trace(const Trace& trace) {
    std::string problem = check_meta_and_threads(trace);
    if (!problem.empty()) return problem;
    const size_t bad =
        first_bad_event(trace.events.data(), trace.events.size(), trace.threads.size(), trace.sites.size());
    if (bad != trace.events.size()) {
        return event_problem(trace.events[bad], bad, trace.threads.size(), trace.sites.size());
    }
    if (!trace.timing.empty() && trace.timing.size() != trace.events.size())
        return "timing has " + std::to_string(trace.timing.size()) + " entries for " +
               std::to_string(trace.events.size()) + " events (it must have one per event, or none)";
    if (!trace.cas_failures.empty() && trace.cas_failures.size() != trace.sites.size())
        return "cas failures have " + std::to_string(trace.cas_failures.size()) + " entries for " +
               std::to_string(trace.sites.size()) + " sites (one per site, or none)";
    if (!trace.residency.empty() && trace.residency.size() != uint64_t(trace.meta.grid.count()))
        return "residency has " + std::to_string(trace.residency.size()) + " entries for a grid of " +
               std::to_string(trace.meta.grid.count()) + " blocks (one per block, or none)";
    return check_string_lengths(trace);
}

uint64_t slt_file_size(const Trace& trace) {
    uint64_t meta_size = 0;
    {
        struct Counter {
            uint64_t& n;
            void field(const char*, const std::string& s) { n += 4 + s.size(); }
            void field(const char*, uint32_t) { n += 4; }
            void field(const char*, uint64_t) { n += 8; }
            void field(const char*, double) { n += 8; }
            void field(const char*, RunStatus) { n += 1; }
            void tail_field(const char*, uint64_t) { n += 8; }
        } counter{meta_size};
        visit_meta(counter, trace.meta);
    }
    uint64_t sites_size = 0;
    for (const Site& s : trace.sites)
        sites_size += kSiteFixedBytes + s.text.size();
    const uint64_t blocks_size = trace.every_block_whole() ? 0 : trace.block_history.size();
    const uint64_t residency_size =
        trace.residency.empty() ? 0 : kSltSectionHeaderSize + trace.residency.size() * sizeof(BlockResidency);
    const uint64_t memory_map_size =
        trace.memory.empty() ? 0 : kSltSectionHeaderSize + round_up8(memory_map_payload(trace.memory).size());
    const uint64_t origins_size =
        has_origins(trace.sites) ? kSltSectionHeaderSize + round_up8(origins_payload(trace.sites).size()) : 0;
    return kSltHeaderSize + uint64_t(kSectionCountV3) * kSltSectionHeaderSize + round_up8(meta_size) +
           residency_size + memory_map_size + origins_size + trace.timing.size() * sizeof(EventTiming) +
           round_up8(trace.cas_failures.size() * sizeof(uint32_t)) +
           round_up8(trace.threads.size() * sizeof(ThreadInfo)) + round_up8(sites_size) +
           trace.events.size() * sizeof(Event) + round_up8(blocks_size);
}

std::vector<uint8_t> serialize(const Trace& trace) {
    std::vector<uint8_t> out;
    out.reserve(size_t(slt_file_size(trace)));
    VectorSink sink(out);
    write_trace(trace, sink, "serialize");
    return out;
}

Trace deserialize(std::span<const uint8_t> bytes, const std::string& name_for_errors) {
    SpanSource source(bytes);
    return TraceReader(source, name_for_errors).read();
}

void save_trace(const Trace& trace, const std::string& path, const SaveOptions& options) {
    if (path.empty()) throw TraceFileError("(empty path)", "cannot save: no file name given");
    const std::string tmp = path + ".tmp";
    // A leftover temporary (a crashed save) is removed rather than written through: it might be a
    // symlink planted to redirect the write. O_EXCL then guarantees we write a file we created.
    if (::unlink(tmp.c_str()) != 0 && errno != ENOENT) {
        throw TraceFileError(path, "cannot replace temporary file " + tmp + ": " + errno_text(errno));
    }
    FdGuard fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666));
    if (fd.get() < 0)
        throw TraceFileError(path, "cannot create temporary file " + tmp + ": " + errno_text(errno));
    try {
        FdSink sink(fd.get(), path, tmp);
        write_trace(trace, sink, path);
        if (options.durable && ::fsync(fd.get()) != 0) {
            throw TraceFileError(path, "cannot sync " + tmp + ": " + errno_text(errno));
        }
        if (::close(fd.release()) != 0) { // NFS and friends report write errors only here
            throw TraceFileError(path, "cannot write " + tmp + ": " + errno_text(errno));
        }
        if (::rename(tmp.c_str(), path.c_str()) != 0) {
            throw TraceFileError(path, "cannot rename " + tmp + " to " + path + ": " + errno_text(errno));
        }
    } catch (...) {
        ::unlink(tmp.c_str());
        throw;
    }
    if (options.durable) {
        // Make the rename itself durable. Best effort: the data is already safe in either name.
        const size_t slash = path.find_last_of('/');
        const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
        FdGuard dir_fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (dir_fd.get() >= 0) (void)::fsync(dir_fd.get());
    }
}

Trace load_trace(const std::string& path) {
    FdGuard fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) throw TraceFileError(path, "cannot open: " + errno_text(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) throw TraceFileError(path, "cannot stat: " + errno_text(errno));
    if (S_ISDIR(st.st_mode)) throw TraceFileError(path, "is a directory, not a trace file");
    if (!S_ISREG(st.st_mode)) throw TraceFileError(path, "not a regular file, cannot be a trace file");
#ifdef POSIX_FADV_SEQUENTIAL
    (void)::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    FdSource source(fd.get(), uint64_t(st.st_size), path);
    return TraceReader(source, path).read();
}

} // namespace synclab::trace
