// Damaged, foreign and hostile .slt files: every one must give TraceFileError with a message that
// names the problem and where, never a crash, an out-of-bounds read or a giant allocation (run these
// under -fsanitize=address,undefined to check the "never" part).
#include "trace_test_util.h"

#include "trace/slt_file.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>

namespace synclab::trace {
namespace {

using test::get_at;
using test::make_rich_trace;
using test::put_at;
using test::section;
using test::TempDir;

// The message of the TraceFileError that deserializing `bytes` throws ("" if it loads).
std::string load_error(const std::vector<uint8_t>& bytes, const std::string& name = "t.slt") {
    try {
        (void)deserialize(bytes, name);
    } catch (const TraceFileError& e) {
        EXPECT_EQ(e.name(), name);
        EXPECT_EQ(std::string(e.what()), name + ": " + e.problem());
        return e.what();
    }
    return "";
}

std::string load_file_error(const std::string& path) {
    try {
        (void)load_trace(path);
    } catch (const TraceFileError& e) {
        return e.what();
    }
    return "";
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

#define EXPECT_CONTAINS(haystack, needle)                                                                    \
    EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << "message: " << (haystack)

// Offsets inside the META payload of make_rich_trace(), computed from its field list (slt_file.h).
size_t meta_offset_of_grid_x(const RunMeta& m) {
    return 4 + m.scenario.size() + 4 + m.variant.size() + 4 + m.kernel.size() + 4 + m.backend.size() + 4 +
           m.device.size() + 4 /*sm_count*/ + 4 + m.schedule.size() + 8 /*seed*/ + 4 + m.memory_model.size();
}
size_t meta_offset_of_status(const RunMeta& m) {
    return meta_offset_of_grid_x(m) + 6 * 4 + 4;
}

// Payload offsets of records.
constexpr size_t kEventThread = 20, kEventSite = 28, kEventKind = 30;
constexpr size_t kThreadLane = 16, kThreadEnd = 17;

class trace_damage : public ::testing::Test {
  protected:
    Trace original_ = make_rich_trace();
    std::vector<uint8_t> bytes_ = serialize(original_);
};

TEST_F(trace_damage, TruncatedAtEveryOffset) {
    ASSERT_EQ(load_error(bytes_), "");
    for (size_t n = 0; n < bytes_.size(); ++n) {
        const std::vector<uint8_t> cut(bytes_.begin(), bytes_.begin() + std::ptrdiff_t(n));
        const std::string message = load_error(cut);
        if (n == 0) {
            EXPECT_EQ(message, "t.slt: empty file (0 bytes), not a SyncLab trace");
        } else {
            EXPECT_CONTAINS(message, "t.slt: truncated: ");
            EXPECT_CONTAINS(message, "file has " + std::to_string(n));
        }
    }
}

TEST_F(trace_damage, TruncatedMessagesSayWhatAndWhere) {
    const auto events = section(bytes_, "EVNT");
    std::vector<uint8_t> cut(bytes_.begin(), bytes_.begin() + std::ptrdiff_t(events.payload + 100));
    EXPECT_EQ(load_error(cut), "t.slt: truncated: events section needs " + std::to_string(events.size) +
                                   " bytes at offset " + std::to_string(events.payload) + ", file has " +
                                   std::to_string(events.payload + 100));
    cut.resize(events.header + 10);
    EXPECT_EQ(load_error(cut), "t.slt: truncated: section 3 header needs 24 bytes at offset " +
                                   std::to_string(events.header) + ", file has " +
                                   std::to_string(events.header + 10));
    cut.resize(40);
    EXPECT_EQ(load_error(cut), "t.slt: truncated: header needs 64 bytes at offset 0, file has 40");
}

TEST_F(trace_damage, EveryByteFlipIsCaught) {
    std::map<std::string, int> kinds; // message class -> count, for the report below
    for (size_t i = 0; i < bytes_.size(); ++i) {
        for (uint8_t mask : {uint8_t(0xff), uint8_t(0x01), uint8_t(0x80)}) {
            std::vector<uint8_t> damaged = bytes_;
            damaged[i] ^= mask;
            const std::string message = load_error(damaged);
            ASSERT_NE(message, "") << "flip of byte " << i << " with mask " << int(mask) << " not caught";
            std::string kind = message.substr(7, 32); // after "t.slt: "; numbers folded together
            for (char& c : kind)
                c = (c >= '0' && c <= '9') ? '#' : c;
            kinds[message.find("checksum mismatch") != std::string::npos ? "checksum mismatch" : kind]++;
        }
    }
    // Most flips land in checksummed payloads; the rest in structure fields checked by validation.
    EXPECT_GT(kinds["checksum mismatch"], int(bytes_.size()) * 3 * 8 / 10);
    for (const auto& [kind, count] : kinds)
        std::printf("  %-34s %d\n", kind.c_str(), count);
}

// Random damage that the checksums cannot see (they are recomputed): the parser and the
// validation alone must hold. Loading either succeeds or throws TraceFileError.
TEST_F(trace_damage, RandomDamageWithValidChecksums) {
    std::mt19937_64 rng(20240229);
    int rejected = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        std::vector<uint8_t> damaged = bytes_;
        const int edits = 1 + int(rng() % 4);
        for (int k = 0; k < edits; ++k) {
            const size_t at = rng() % damaged.size();
            switch (rng() % 3) {
            case 0:
                damaged[at] = uint8_t(rng());
                break;
            case 1:
                damaged[at] ^= uint8_t(1u << (rng() % 8));
                break;
            default:
                damaged[at] = (rng() % 2) ? 0xff : 0x00;
                break;
            }
        }
        test::fix_checksums(damaged);
        try {
            (void)deserialize(damaged, "random.slt");
        } catch (const TraceFileError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("random.slt: ", 0), 0u);
            ++rejected;
        }
    }
    EXPECT_GT(rejected, 0);
}

TEST_F(trace_damage, ChecksumMismatchNamesTheSection) {
    const auto events = section(bytes_, "EVNT");
    std::vector<uint8_t> damaged = bytes_;
    damaged[events.payload + 5 * 32 + 3] ^= 0x10;
    EXPECT_CONTAINS(load_error(damaged), "t.slt: checksum mismatch in events section (stored 0x");
    damaged = bytes_;
    damaged[section(bytes_, "META").payload + 2] ^= 0x10;
    EXPECT_CONTAINS(load_error(damaged), "t.slt: checksum mismatch in meta section");
    damaged = bytes_;
    damaged[section(bytes_, "SITE").payload + 13] ^= 0x10;
    EXPECT_CONTAINS(load_error(damaged), "t.slt: checksum mismatch in sites section");
    damaged = bytes_;
    damaged[section(bytes_, "THRD").payload] ^= 0x10;
    EXPECT_CONTAINS(load_error(damaged), "t.slt: checksum mismatch in threads section");
    damaged = bytes_;
    damaged[33] ^= 0x10; // thread_count
    EXPECT_CONTAINS(load_error(damaged), "t.slt: checksum mismatch in header");
}

TEST_F(trace_damage, WrongMagic) {
    std::vector<uint8_t> damaged = bytes_;
    std::memcpy(damaged.data(), "SYNCLAB!", 8);
    EXPECT_EQ(load_error(damaged), "t.slt: not a SyncLab trace (magic is 'SYNCLAB!')");
    // Text-mode mangling of the CR LF in the magic is caught as well.
    damaged = bytes_;
    damaged.erase(damaged.begin() + 4); // "\r\n" -> "\n"
    EXPECT_EQ(load_error(damaged), "t.slt: not a SyncLab trace (magic is '\\x89SLT\\x0a\\x1a\\x0a\\x03')");
}

TEST_F(trace_damage, ForeignFiles) {
    const std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n',
                                      0,    0,   0,   13,  'I',  'H',  'D',  'R'};
    EXPECT_EQ(load_error(png),
              "t.slt: not a SyncLab trace (magic is '\\x89PNG\\x0d\\x0a\\x1a\\x0a', looks like a PNG image)");
    const std::vector<uint8_t> zip = {'P', 'K', 3, 4, 20, 0, 0, 0, 8, 0};
    EXPECT_EQ(load_error(zip),
              "t.slt: not a SyncLab trace (magic is 'PK\\x03\\x04\\x14\\x00\\x00\\x00', looks like a "
              "ZIP archive)");
    const std::string json = "{\"traceEvents\":[]}";
    EXPECT_EQ(load_error({json.begin(), json.end()}),
              "t.slt: not a SyncLab trace (magic is '{\"traceE', looks like JSON or text)");
    EXPECT_EQ(load_error({'x'}), "t.slt: not a SyncLab trace (magic is 'x')");
    EXPECT_EQ(load_error({0x89, 'S', 'L'}),
              "t.slt: truncated: header needs 64 bytes at offset 0, file has 3");
}

TEST(trace_damage_files, EmptyFileDirectoryMissingPath) {
    TempDir dir;
    const std::string empty = dir.file("empty.slt");
    write_bytes(empty, {});
    EXPECT_EQ(load_file_error(empty), empty + ": empty file (0 bytes), not a SyncLab trace");
    EXPECT_EQ(load_file_error(dir.path().string()),
              dir.path().string() + ": is a directory, not a trace file");
    const std::string missing = dir.file("missing.slt");
    EXPECT_EQ(load_file_error(missing), missing + ": cannot open: No such file or directory");
    EXPECT_EQ(load_file_error("/dev/null"), "/dev/null: not a regular file, cannot be a trace file");
    const std::string png = dir.file("picture.slt");
    write_bytes(png, {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
    EXPECT_CONTAINS(load_file_error(png), "looks like a PNG image");
}

TEST_F(trace_damage, VersionTooNew) {
    std::vector<uint8_t> damaged = bytes_;
    put_at<uint32_t>(damaged, 8, 7);
    put_at<uint32_t>(damaged, 12, 4);
    EXPECT_EQ(load_error(damaged),
              "t.slt: version 7 is newer than this SyncLab reads (max 3; the file needs a "
              "reader of version 4 or later)");
    put_at<uint32_t>(damaged, 12, 9);
    EXPECT_EQ(load_error(damaged), "t.slt: invalid header: version 7 with minimum reader version 9");
    put_at<uint32_t>(damaged, 8, 0);
    put_at<uint32_t>(damaged, 12, 0);
    EXPECT_EQ(load_error(damaged), "t.slt: invalid header: version 0 with minimum reader version 0");
}

TEST_F(trace_damage, HugeCountsInATinyFile) {
    // Each patched file has valid checksums, so only the size checks stand between it and a
    // multi-exabyte allocation.
    std::vector<uint8_t> damaged = bytes_;
    put_at<uint64_t>(damaged, 48, uint64_t(1) << 60);
    test::fix_checksums(damaged);
    EXPECT_EQ(load_error(damaged), "t.slt: events section holds 7104 bytes, but the header says "
                                   "1152921504606846976 events of 32 bytes");

    damaged = bytes_;
    put_at<uint64_t>(damaged, 32, ~uint64_t(0));
    test::fix_checksums(damaged);
    EXPECT_EQ(load_error(damaged), "t.slt: threads section holds 1600 bytes, but the header says "
                                   "18446744073709551615 threads of 20 bytes");

    damaged = bytes_;
    put_at<uint64_t>(damaged, 40, uint64_t(1) << 40);
    test::fix_checksums(damaged);
    EXPECT_CONTAINS(load_error(damaged), "too few for 1099511627776 sites (at least 12 bytes each)");

    const auto events = section(bytes_, "EVNT");
    damaged = bytes_;
    put_at<uint64_t>(damaged, events.header + 8, uint64_t(1) << 62);
    test::fix_checksums(damaged);
    EXPECT_EQ(load_error(damaged),
              "t.slt: truncated: events section needs 4611686018427387904 bytes at offset " +
                  std::to_string(events.payload) + ", file has " + std::to_string(bytes_.size()));

    damaged = bytes_;
    put_at<uint32_t>(damaged, 24, 0xffffffff);
    test::fix_checksums(damaged);
    EXPECT_EQ(load_error(damaged), "t.slt: invalid section count 4294967295");

    const auto meta = section(bytes_, "META");
    damaged = bytes_;
    put_at<uint32_t>(damaged, meta.payload, 0xffffffff); // length of meta.scenario
    test::fix_checksums(damaged);
    EXPECT_EQ(load_error(damaged),
              "t.slt: meta: string 'scenario' length 4294967295 runs past the end of the meta "
              "section (" +
                  std::to_string(meta.size - 4) + " bytes left)");

    const auto sites = section(bytes_, "SITE");
    damaged = bytes_;
    put_at<uint32_t>(damaged, sites.payload + 8, 4000000); // length of site 0's text
    test::fix_checksums(damaged);
    EXPECT_EQ(load_error(damaged),
              "t.slt: site 0: text length 4000000 runs past the end of the sites section (" +
                  std::to_string(sites.size - 12) + " bytes left)");
}

TEST_F(trace_damage, InvalidRecordsWithValidChecksums) {
    const auto events = section(bytes_, "EVNT");
    const auto threads = section(bytes_, "THRD");
    const auto meta = section(bytes_, "META");
    struct Case {
        size_t offset;
        std::vector<uint8_t> value;
        std::string expected;
    };
    auto u32 = [](uint32_t v) {
        return std::vector<uint8_t>{uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
    };
    const Case cases[] = {
        {events.payload + 5 * 32 + kEventKind, {200}, "event 5: kind 200 is not a known event kind"},
        {events.payload + 7 * 32 + kEventKind, {0}, "event 7: kind 0 is not a known event kind"},
        {events.payload + 17 * 32 + kEventThread, u32(99999),
         "event 17: thread index 99999 out of range (80 threads)"},
        {events.payload + 200 * 32 + kEventSite, {6, 0}, "event 200: site 6 out of range (6 sites)"},
        {threads.payload + 4 * 20 + kThreadEnd, {9}, "thread 4: end 9 is not a known thread end"},
        {threads.payload + 4 * 20 + kThreadLane,
         {40},
         "thread 4: lane 40 out of range (warps have 32 lanes)"},
        {meta.payload + meta_offset_of_status(original_.meta),
         {6},
         "meta: status 6 is not a known run status"},
        {meta.payload + meta_offset_of_grid_x(original_.meta), u32(3),
         "grid 3x1x1 x block 40x1x1 = 120 threads, but the thread table has 80"},
    };
    for (const Case& c : cases) {
        std::vector<uint8_t> damaged = bytes_;
        std::copy(c.value.begin(), c.value.end(), damaged.begin() + std::ptrdiff_t(c.offset));
        test::fix_checksums(damaged);
        EXPECT_EQ(load_error(damaged), "t.slt: " + c.expected);
    }
}

TEST_F(trace_damage, StructuralProblems) {
    // Bytes after the last section.
    std::vector<uint8_t> damaged = bytes_;
    damaged.insert(damaged.end(), {0, 0, 0});
    EXPECT_EQ(load_error(damaged),
              "t.slt: 3 unexpected bytes after the last section at offset " + std::to_string(bytes_.size()));

    // Nonzero padding after the threads payload (80 * 20 = 1600 bytes: no padding) -> use sites.
    const auto sites = section(bytes_, "SITE");
    ASSERT_NE(sites.size % 8, 0u) << "test needs a padded section";
    damaged = bytes_;
    damaged[sites.payload + sites.size] = 1;
    EXPECT_EQ(load_error(damaged), "t.slt: nonzero padding after sites section at offset " +
                                       std::to_string(sites.payload + sites.size));

    // A required section renamed: unknown sections are skipped, so it is then missing.
    damaged = bytes_;
    put_at<uint32_t>(damaged, sites.header, test::tag_of("ETIS"));
    EXPECT_EQ(load_error(damaged), "t.slt: missing sites section");

    // Two events sections.
    damaged = bytes_;
    put_at<uint32_t>(damaged, sites.header, test::tag_of("EVNT"));
    EXPECT_CONTAINS(load_error(damaged), "t.slt: events section: record size 0, expected 32");
    put_at<uint32_t>(damaged, sites.header + 4, 32);
    EXPECT_EQ(load_error(damaged), "t.slt: events section holds " + std::to_string(sites.size) +
                                       " bytes, but the header says " + std::to_string(original_.events.size()) +
                                       " events of 32 bytes");
    const auto events = section(bytes_, "EVNT");
    damaged = bytes_;
    put_at<uint32_t>(damaged, events.header, test::tag_of("THRD"));
    EXPECT_EQ(load_error(damaged),
              "t.slt: duplicate threads section at offset " + std::to_string(events.header));

    // A wrong record size.
    damaged = bytes_;
    put_at<uint32_t>(damaged, section(bytes_, "THRD").header + 4, 24);
    EXPECT_EQ(load_error(damaged), "t.slt: threads section: record size 24, expected 20");

    // Header size of a version-1 file is 64.
    damaged = bytes_;
    put_at<uint32_t>(damaged, 20, 128);
    EXPECT_EQ(load_error(damaged), "t.slt: invalid header size 128");
}

} // namespace
} // namespace synclab::trace
