// .slt round trips, format stability (golden file), forward compatibility, and atomic saving.
#include "trace_test_util.h"

#include "trace/slt_file.h"

#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace synclab::trace {
namespace {

using test::expect_same_trace;
using test::make_rich_trace;
using test::TempDir;

std::vector<uint8_t> read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// Frozen forever: the golden file tests/trace/data/golden_v1.slt.bin holds exactly this trace.
Trace make_golden_trace() {
    Trace t;
    t.meta.scenario = "golden";
    t.meta.variant = "v1 ✓";
    t.meta.kernel = "k";
    t.meta.backend = "sim";
    t.meta.device = "SyncLab simulator";
    t.meta.sm_count = 2;
    t.meta.schedule = "rr";
    t.meta.seed = 99;
    t.meta.memory_model = "sc";
    t.meta.grid = {1, 1, 1};
    t.meta.block = {2, 1, 1};
    t.meta.dynamic_shared_bytes = 16;
    t.meta.status = RunStatus::Ok;
    t.meta.status_message = "";
    t.meta.elapsed_ms = 0.5;
    t.meta.thread_instructions = 10;
    t.meta.warp_instructions = 5;
    t.meta.checked_outputs = 2;
    t.meta.source_name = "g.cu";
    t.meta.source_text = "x";
    t.meta.ptx_text = "ret;";
    t.sites = {{1, 3, "st.shared.u32 [%r1], %r2;"}, {2, 4, "ret;"}};
    for (uint32_t i = 0; i < 2; ++i) {
        ThreadInfo ti;
        ti.thread_in_block = i;
        ti.lane = uint8_t(i);
        ti.end_site = 1;
        t.threads.push_back(ti);
    }
    for (uint32_t i = 0; i < 2; ++i) {
        t.events.push_back({1 + i, 4 * i, 7 + i, i, 0, 0, EventKind::Store, make_flags(Space::Shared, 4)});
        t.events.push_back({3 + i, 0, 0, i, 0, 1, EventKind::Exit, 0});
    }
    return t;
}

std::string golden_path(int version = 1) {
    return std::string(SYNCLAB_SOURCE_DIR) + "/tests/trace/data/golden_v" + std::to_string(version) +
           ".slt.bin";
}

// Frozen forever: tests/trace/data/golden_v2.slt.bin holds exactly this trace (version 2: a grid of
// two blocks, the second of which lost events).
Trace make_golden_v2_trace() {
    Trace t = make_golden_trace();
    t.meta.variant = "v2 ✓";
    t.meta.grid = {2, 1, 1};
    t.meta.dropped_events = 3;
    const std::vector<ThreadInfo> first_block = t.threads;
    for (ThreadInfo ti : first_block) {
        ti.block = 1;
        t.threads.push_back(ti);
    }
    t.block_history = {BlockHistory::Whole, BlockHistory::Partial};
    return t;
}

TEST(trace_slt, RoundTripRichTraceInMemory) {
    const Trace original = make_rich_trace();
    const std::vector<uint8_t> bytes = serialize(original);
    EXPECT_EQ(bytes.size(), slt_file_size(original));
    const Trace loaded = deserialize(bytes, "rich");
    expect_same_trace(original, loaded);
    EXPECT_EQ(serialize(loaded), bytes) << "serialization is deterministic";
}

TEST(trace_slt, RoundTripThroughFile) {
    TempDir dir;
    const Trace original = make_rich_trace();
    const std::string path = dir.file("rich.slt");
    save_trace(original, path);
    expect_same_trace(original, load_trace(path));
    EXPECT_EQ(read_bytes(path), serialize(original));
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST(trace_slt, RoundTripEmptyTrace) {
    const Trace empty;
    const std::vector<uint8_t> bytes = serialize(empty);
    expect_same_trace(empty, deserialize(bytes, "empty"));
    TempDir dir;
    save_trace(empty, dir.file("e.slt"), {.durable = false});
    expect_same_trace(empty, load_trace(dir.file("e.slt")));
}

TEST(trace_slt, RoundTripZeroEventsAndEmptyStrings) {
    Trace t = make_rich_trace();
    t.events.clear();
    t.timing.clear();
    t.meta = RunMeta{};
    t.meta.grid = {2, 1, 1};
    t.meta.block = {40, 1, 1};
    for (Site& s : t.sites)
        s.text.clear();
    expect_same_trace(t, deserialize(serialize(t), "zero events"));
}

TEST(trace_slt, RoundTripSpecialDoublesBitExact) {
    for (double v :
         {-0.0, std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
          std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::denorm_min(), 1e308}) {
        Trace t;
        t.meta.elapsed_ms = v;
        test::expect_same_meta(t.meta, deserialize(serialize(t), "double").meta);
    }
}

TEST(trace_slt, RoundTripManyThreadsAndEventsAcrossChunks) {
    // Large enough that threads and events are streamed in several chunks.
    Trace t;
    t.meta.grid = {64, 1, 1};
    t.meta.block = {256, 1, 1};
    t.sites = {{1, 1, "a"}, {2, 2, "b"}};
    for (uint32_t b = 0; b < 64; ++b) {
        for (uint32_t i = 0; i < 256; ++i) {
            ThreadInfo ti;
            ti.block = b;
            ti.thread_in_block = i;
            ti.warp = uint16_t(i / 32);
            ti.lane = uint8_t(i % 32);
            t.threads.push_back(ti);
        }
    }
    for (uint32_t i = 0; i < 100'003; ++i) {
        t.events.push_back(
            {i, i * 4ull, i, i % 16384, i, uint16_t(i % 2), EventKind::Load, make_flags(Space::Global, 4)});
    }
    expect_same_trace(t, deserialize(serialize(t), "big"));
}

TEST(trace_slt, FileStartsWithMagicVersionAndMinVersion) {
    const std::vector<uint8_t> bytes = serialize(make_rich_trace());
    ASSERT_GE(bytes.size(), 64u);
    EXPECT_EQ(std::memcmp(bytes.data(), "\x89SLT\r\n\x1a\n", 8), 0);
    EXPECT_EQ(test::get_at<uint32_t>(bytes, 8), kSltVersion);
    EXPECT_EQ(test::get_at<uint32_t>(bytes, 12), kSltMinReaderVersion);
    EXPECT_EQ(test::get_at<uint32_t>(bytes, 20), kSltHeaderSize);
    EXPECT_EQ(test::get_at<uint64_t>(bytes, 48), make_rich_trace().events.size());
    const auto sections = test::find_sections(bytes);
    ASSERT_EQ(sections.size(), 7u);
    EXPECT_EQ(sections[0].tag, test::tag_of("META"));
    EXPECT_EQ(sections[1].tag, test::tag_of("THRD"));
    EXPECT_EQ(sections[2].tag, test::tag_of("SITE"));
    EXPECT_EQ(sections[3].tag, test::tag_of("EVNT"));
    EXPECT_EQ(sections[4].tag, test::tag_of("BLKS"));
    EXPECT_EQ(sections[5].tag, test::tag_of("TIMG"));
    EXPECT_EQ(sections[6].tag, test::tag_of("CASF"));
    for (const auto& s : sections)
        EXPECT_EQ(s.payload % 8, 0u) << "payloads are 8-byte aligned";
    EXPECT_EQ(sections[3].size, make_rich_trace().events.size() * 32);
    EXPECT_EQ(sections[4].size, 0u) << "every block whole: no block table";
    EXPECT_EQ(sections[5].size, make_rich_trace().events.size() * 16);
    EXPECT_EQ(sections[6].size, make_rich_trace().sites.size() * 4);
    EXPECT_EQ(bytes.size(), sections[6].payload + sections[6].size);
}

// A trace in which some block is not whole stores its block table and asks for a version-2 reader,
// so that no older SyncLab analyses the partial block as if it were complete.
TEST(trace_slt, BlockHistoryRoundTripsAndNeedsAVersion2Reader) {
    const Trace original = make_golden_v2_trace();
    const std::vector<uint8_t> bytes = serialize(original);
    EXPECT_EQ(bytes.size(), slt_file_size(original));
    EXPECT_EQ(test::get_at<uint32_t>(bytes, 12), 2u);
    const Trace loaded = deserialize(bytes, "blocks");
    ASSERT_EQ(loaded.block_history.size(), 2u);
    EXPECT_TRUE(loaded.block_is_whole(0));
    EXPECT_EQ(loaded.history_of(1), BlockHistory::Partial);
    EXPECT_FALSE(loaded.every_block_whole());
}

TEST(trace_slt, ABlockTableThatDoesNotFitTheGridIsRefused) {
    Trace t = make_golden_v2_trace();
    t.block_history.push_back(BlockHistory::Whole);
    EXPECT_EQ(check_trace(t), "the block table has 3 entries, but the grid 2x1x1 has 2 blocks");
    t.block_history = {BlockHistory::Whole, static_cast<BlockHistory>(7)};
    EXPECT_EQ(check_trace(t), "block 1: history 7 is not a known block history");
}

// Files of every earlier version stay readable.
TEST(trace_slt, GoldenFileOfVersion1StillLoads) {
    const std::vector<uint8_t> on_disk = read_bytes(golden_path(1));
    ASSERT_FALSE(on_disk.empty()) << "missing " << golden_path(1);
    EXPECT_EQ(test::get_at<uint32_t>(on_disk, 8), 1u);
    const Trace loaded = load_trace(golden_path(1));
    expect_same_trace(make_golden_trace(), loaded);
    EXPECT_TRUE(loaded.block_history.empty()) << "version 1 has no block table: every block whole";
}

TEST(trace_slt, GoldenFileOfVersion2StillLoads) {
    const std::vector<uint8_t> on_disk = read_bytes(golden_path(2));
    ASSERT_FALSE(on_disk.empty()) << "missing " << golden_path(2);
    EXPECT_EQ(test::get_at<uint32_t>(on_disk, 8), 2u);
    const Trace loaded = load_trace(golden_path(2));
    expect_same_trace(make_golden_v2_trace(), loaded);
    EXPECT_EQ(loaded.meta.modelled_cycles, 0u) << "version 2 has no modelled time";
    EXPECT_TRUE(loaded.timing.empty());
}

// Version 3: the cost model's timing, CAS failures and RunMeta::modelled_cycles.
TEST(trace_slt, GoldenFileOfVersion3) {
    Trace golden = make_golden_v2_trace();
    golden.meta.modelled_cycles = 24234;
    for (size_t i = 0; i < golden.events.size(); ++i)
        golden.timing.push_back({100 * i, uint32_t(460 + i), uint32_t(i % 5)});
    golden.cas_failures.assign(golden.sites.size(), 0);
    golden.cas_failures.back() = 31;
    if (std::getenv("SYNCLAB_WRITE_GOLDEN") != nullptr) save_trace(golden, golden_path(3));
    const std::vector<uint8_t> on_disk = read_bytes(golden_path(3));
    ASSERT_FALSE(on_disk.empty()) << "missing " << golden_path(3);
    expect_same_trace(golden, load_trace(golden_path(3)));
    // The writer still produces the same bytes. If this fails on purpose (a new format version),
    // keep the old golden files (older files must stay readable) and add a new one.
    EXPECT_EQ(serialize(golden), on_disk);
}

// Warp collectives (event kind 9) in a version-3 file: frozen in tests/trace/data/golden_v3_warp.slt.bin
// (written once with SYNCLAB_WRITE_GOLDEN=1), so a reader that stops accepting them, or a writer that
// changes their bytes, fails here. A __syncwarp, a shfl with its source lanes (and one lane that kept
// its own value) and a ballot, from two lanes of one warp.
TEST(trace_slt, GoldenFileWithWarpCollectives) {
    Trace golden = make_golden_trace();
    golden.meta.variant = "warp collectives";
    golden.sites.push_back({3, 5, "bar.warp.sync -1;"});
    golden.sites.push_back({4, 6, "shfl.sync.bfly.b32 %r3, %r2, 1, 31, -1;"});
    golden.sites.push_back({5, 7, "vote.sync.ballot.b32 %r4, %p1, -1;"});
    uint64_t t = 10;
    for (uint32_t lane = 0; lane < 2; ++lane)
        golden.events.push_back({t++, uint64_t(kNoLane) << 32 | 0x3, 0, lane, 0, 2, EventKind::WarpCollective,
                                 uint8_t(Collective::WarpSync)});
    golden.events.push_back({t++, uint64_t(1) << 32 | 0x3, 8, 0, 0, 3, EventKind::WarpCollective,
                             uint8_t(Collective::Shfl)});
    golden.events.push_back({t++, uint64_t(kNoLane) << 32 | 0x3, 8, 1, 0, 3, EventKind::WarpCollective,
                             uint8_t(Collective::Shfl)});
    for (uint32_t lane = 0; lane < 2; ++lane)
        golden.events.push_back({t++, uint64_t(kNoLane) << 32 | 0x3, 0x2, lane, 0, 4,
                                 EventKind::WarpCollective, uint8_t(Collective::Vote)});
    const std::string path = std::string(SYNCLAB_SOURCE_DIR) + "/tests/trace/data/golden_v3_warp.slt.bin";
    if (std::getenv("SYNCLAB_WRITE_GOLDEN") != nullptr) save_trace(golden, path);
    const std::vector<uint8_t> on_disk = read_bytes(path);
    ASSERT_FALSE(on_disk.empty()) << "missing " << path;
    const Trace loaded = load_trace(path);
    expect_same_trace(golden, loaded);
    ASSERT_EQ(loaded.events.size(), 10u); // make_golden_trace's 4, then the 6 above
    EXPECT_EQ(loaded.events[4].kind, EventKind::WarpCollective);
    EXPECT_EQ(uint32_t(loaded.events[6].address >> 32), 1u) << "shfl's source lane";
    EXPECT_EQ(uint32_t(loaded.events[7].address >> 32), kNoLane);
    EXPECT_EQ(loaded.events[9].flags & flag::kCollectiveMask, uint8_t(Collective::Vote));
    EXPECT_EQ(loaded.events[9].value, 0x2u);
    EXPECT_EQ(serialize(golden), on_disk);
}

TEST(trace_slt, TimingThatIsNotOnePerEventIsRefused) {
    Trace t = make_rich_trace();
    t.timing.pop_back();
    EXPECT_EQ(check_trace(t), "timing has " + std::to_string(t.events.size() - 1) + " entries for " +
                                  std::to_string(t.events.size()) +
                                  " events (it must have one per event, or none)");
    t.timing.clear();
    EXPECT_EQ(check_trace(t), "");
    t.cas_failures.push_back(1);
    EXPECT_NE(check_trace(t).find("cas failures have 7 entries for 6 sites"), std::string::npos)
        << check_trace(t);
}

// A file from a newer writer that this reader may still read (min_reader_version 1): extra META
// fields at the end and an unknown section. It must read it and ignore both.
TEST(trace_slt, NewerButCompatibleFileIsRead) {
    const Trace original = make_rich_trace();
    const std::vector<uint8_t> v1 = serialize(original);
    const auto sections = test::find_sections(v1);

    std::vector<uint8_t> out(v1.begin(), v1.begin() + 64);
    test::put_at<uint32_t>(out, 8, kSltVersion + 1);
    test::put_at<uint32_t>(out, 24, uint32_t(sections.size() + 1)); // one more section
    for (const auto& s : sections) {
        std::vector<uint8_t> payload(v1.begin() + std::ptrdiff_t(s.payload),
                                     v1.begin() + std::ptrdiff_t(s.payload + s.size));
        if (s.tag == test::tag_of("META")) payload.insert(payload.end(), {1, 2, 3, 4, 5}); // a new field
        const size_t at = out.size();
        out.resize(at + 24);
        test::put_at<uint32_t>(out, at, s.tag);
        test::put_at<uint32_t>(out, at + 4, test::get_at<uint32_t>(v1, s.header + 4));
        test::put_at<uint64_t>(out, at + 8, payload.size());
        out.insert(out.end(), payload.begin(), payload.end());
        out.resize((out.size() + 7) & ~size_t(7));
    }
    const std::vector<uint8_t> extra = {'n', 'e', 'w', '!', 0, 0, 0, 0};
    const size_t at = out.size();
    out.resize(at + 24);
    test::put_at<uint32_t>(out, at, test::tag_of("XTRA"));
    test::put_at<uint64_t>(out, at + 8, extra.size());
    out.insert(out.end(), extra.begin(), extra.end());
    test::fix_checksums(out);

    expect_same_trace(original, deserialize(out, "v3.slt"));

    // The same extras in a file that says this reader's version: the META bytes are an error there.
    test::put_at<uint32_t>(out, 8, kSltVersion);
    test::fix_checksums(out);
    try {
        (void)deserialize(out, "v2.slt");
        FAIL() << "accepted";
    } catch (const TraceFileError& e) {
        EXPECT_STREQ(e.what(), "v2.slt: meta section has 5 unexpected bytes at its end");
    }
}

TEST(trace_slt, CheckTraceAcceptsValidTraces) {
    EXPECT_EQ(check_trace(make_rich_trace()), "");
    EXPECT_EQ(check_trace(Trace{}), "");
    EXPECT_EQ(check_trace(make_golden_trace()), "");
}

TEST(trace_slt, CheckTraceNamesTheProblem) {
    struct Case {
        const char* expected;
        void (*damage)(Trace&);
    };
    const Case cases[] = {
        {"event 5: kind 200 is not a known event kind",
         [](Trace& t) { t.events[5].kind = static_cast<EventKind>(200); }},
        {"event 17: thread index 99999 out of range (80 threads)",
         [](Trace& t) { t.events[17].thread = 99999; }},
        {"event 3: site 70 out of range (6 sites)", [](Trace& t) { t.events[3].site = 70; }},
        {"thread 4: end 9 is not a known thread end",
         [](Trace& t) { t.threads[4].end = static_cast<ThreadEnd>(9); }},
        {"thread 4: lane 40 out of range (warps have 32 lanes)", [](Trace& t) { t.threads[4].lane = 40; }},
        {"thread 4: warp 1 lane 4 does not match thread_in_block 4", [](Trace& t) { t.threads[4].warp = 1; }},
        {"thread 2: block 2 out of range (grid has 2 blocks)", [](Trace& t) { t.threads[2].block = 2; }},
        {"thread 2: thread_in_block 40 out of range (40 threads per block)",
         [](Trace& t) { t.threads[2].thread_in_block = 40; }},
        {"thread 1: end site 6 out of range (6 sites)", [](Trace& t) { t.threads[1].end_site = 6; }},
        {"meta: status 9 is not a known run status",
         [](Trace& t) { t.meta.status = static_cast<RunStatus>(9); }},
        {"grid 3x1x1 x block 40x1x1 = 120 threads, but the thread table has 80",
         [](Trace& t) { t.meta.grid.x = 3; }},
        {"grid 4294967295x4294967295x4294967295 x block 40x1x1 = more than 2^64 threads, but the thread "
         "table has 80",
         [](Trace& t) {
             t.meta.grid = {0xffffffff, 0xffffffff, 0xffffffff};
         }},
        {"the thread table is empty but there are 222 events", [](Trace& t) { t.threads.clear(); }},
        // Warp collectives (make_rich_trace's are the last 6 events).
        {"event 216: warp collective 6 is not a known collective (flags hold 0-5: syncwarp shfl vote match "
         "redux elect)",
         [](Trace& t) { t.events[216].flags = 6; }},
        {"event 217: warp collective with member mask 0 (no lane took part)",
         [](Trace& t) { t.events[217].address &= ~uint64_t(0xffffffffu); }},
        {"event 218: warp collective source lane 32 out of range (0-31, or 0xffffffff for none)",
         [](Trace& t) { t.events[218].address = uint64_t(32) << 32 | 1; }},
    };
    for (const Case& c : cases) {
        Trace t = make_rich_trace();
        c.damage(t);
        EXPECT_EQ(check_trace(t), c.expected);
        try {
            (void)serialize(t);
            ADD_FAILURE() << "serialized an invalid trace: " << c.expected;
        } catch (const TraceFileError& e) {
            EXPECT_EQ(std::string(e.what()),
                      std::string("serialize: cannot save an invalid trace: ") + c.expected);
        }
    }
}

// ---- atomic saving ----------------------------------------------------------------------------

Trace make_other_trace() {
    Trace t = make_rich_trace();
    t.meta.scenario = "the new one";
    return t;
}

void expect_old_file_intact(const std::string& path) {
    expect_same_trace(make_rich_trace(), load_trace(path));
}

TEST(trace_save, OverwritesAnExistingFile) {
    TempDir dir;
    const std::string path = dir.file("run.slt");
    save_trace(make_rich_trace(), path);
    save_trace(make_other_trace(), path);
    EXPECT_EQ(load_trace(path).meta.scenario, "the new one");
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST(trace_save, ReplacesAStaleTemporaryFile) {
    TempDir dir;
    const std::string path = dir.file("run.slt");
    write_bytes(path + ".tmp", {'j', 'u', 'n', 'k'});
    save_trace(make_rich_trace(), path);
    expect_old_file_intact(path);
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST(trace_save, TemporaryPathBlockedLeavesOldFileIntact) {
    TempDir dir;
    const std::string path = dir.file("run.slt");
    save_trace(make_rich_trace(), path);
    std::filesystem::create_directories(path + ".tmp/inside"); // cannot be replaced
    try {
        save_trace(make_other_trace(), path);
        FAIL() << "saved";
    } catch (const TraceFileError& e) {
        const std::string message = e.what();
        EXPECT_EQ(message.rfind(path + ": cannot replace temporary file " + path + ".tmp: ", 0), 0u)
            << message;
        EXPECT_NE(message.find("directory"), std::string::npos) << message;
    }
    expect_old_file_intact(path);
}

TEST(trace_save, UnwritableDirectoryLeavesOldFileIntact) {
    if (::geteuid() == 0)
        GTEST_SKIP() << "root ignores directory permissions (covered by the other save tests)";
    TempDir dir;
    const std::string path = dir.file("run.slt");
    save_trace(make_rich_trace(), path);
    std::filesystem::permissions(dir.path(),
                                 std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    try {
        save_trace(make_other_trace(), path);
        FAIL() << "saved";
    } catch (const TraceFileError& e) {
        EXPECT_NE(std::string(e.what()).find("Permission denied"), std::string::npos) << e.what();
    }
    expect_old_file_intact(path);
}

TEST(trace_save, WriteErrorMidFileLeavesOldFileIntact) {
    TempDir dir;
    const std::string path = dir.file("run.slt");
    save_trace(make_rich_trace(), path);
    // Files may grow to 1000 bytes only: the save fails part-way with EFBIG.
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit old_limit{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
    rlimit small = old_limit;
    small.rlim_cur = 1000;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    std::string message;
    try {
        save_trace(make_other_trace(), path);
    } catch (const TraceFileError& e) {
        message = e.what();
    }
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old_limit), 0);
    EXPECT_EQ(message, path + ": cannot write " + path + ".tmp: File too large");
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp")) << "the partial file is removed";
    expect_old_file_intact(path);
}

TEST(trace_save, RenameFailureLeavesNoTemporary) {
    TempDir dir;
    const std::string path = dir.file("taken");
    std::filesystem::create_directories(path + "/child"); // a non-empty directory cannot be replaced
    try {
        save_trace(make_rich_trace(), path);
        FAIL() << "saved";
    } catch (const TraceFileError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(path + ": cannot rename " + path + ".tmp to " + path + ": ", 0),
                  0u)
            << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
    EXPECT_TRUE(std::filesystem::is_directory(path + "/child"));
}

TEST(trace_save, MissingDirectoryIsReported) {
    TempDir dir;
    const std::string path = dir.file("no/such/dir/run.slt");
    try {
        save_trace(make_rich_trace(), path);
        FAIL() << "saved";
    } catch (const TraceFileError& e) {
        EXPECT_EQ(std::string(e.what()),
                  path + ": cannot create temporary file " + path + ".tmp: No such file or directory");
    }
}

TEST(trace_save, InvalidTraceIsNotWritten) {
    TempDir dir;
    const std::string path = dir.file("run.slt");
    save_trace(make_rich_trace(), path);
    Trace bad = make_other_trace();
    bad.events[0].thread = 1000;
    try {
        save_trace(bad, path);
        FAIL() << "saved";
    } catch (const TraceFileError& e) {
        EXPECT_EQ(std::string(e.what()),
                  path +
                      ": cannot save an invalid trace: event 0: thread index 1000 out of range (80 threads)");
    }
    expect_old_file_intact(path);
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

// The golden trace with a memory map: a shared array and two global buffers, one typed.
Trace make_golden_memory_map_trace() {
    Trace golden = make_golden_trace();
    golden.meta.variant = "memory map";
    MemoryRegion tile;
    tile.name = "s_tile";
    tile.space = Space::Shared;
    tile.bytes = 1088;
    golden.memory.add(tile);
    MemoryRegion in;
    in.name = "in";
    in.space = Space::Global;
    in.base = 0x1000000000;
    in.bytes = 4096;
    in.element_type = "f32";
    in.element_size = 4;
    golden.memory.add(in);
    MemoryRegion counters = in;
    counters.name = "g_counters";
    counters.base = 0x1000002000;
    counters.bytes = 16;
    counters.element_type = "u32";
    golden.memory.add(counters);
    return golden;
}

// The memory map (MMAP, optional) frozen in tests/trace/data/golden_v3_memory_map.slt.bin (written
// once with SYNCLAB_WRITE_GOLDEN=1): saved traces keep their names; the files without it (the
// golden files above) still load, with an empty map.
TEST(trace_slt, GoldenFileWithAMemoryMap) {
    const Trace golden = make_golden_memory_map_trace();
    ASSERT_EQ(golden.memory.regions().size(), 3u);
    const std::string path =
        std::string(SYNCLAB_SOURCE_DIR) + "/tests/trace/data/golden_v3_memory_map.slt.bin";
    if (std::getenv("SYNCLAB_WRITE_GOLDEN") != nullptr) save_trace(golden, path);
    const std::vector<uint8_t> on_disk = read_bytes(path);
    ASSERT_FALSE(on_disk.empty()) << "missing " << path;
    const Trace loaded = load_trace(path);
    expect_same_trace(golden, loaded);
    EXPECT_EQ(serialize(golden), on_disk);
    EXPECT_EQ(on_disk.size(), slt_file_size(golden));
    EXPECT_EQ(test::find_sections(on_disk).back().tag, test::tag_of("MMAP"));
    EXPECT_TRUE(load_trace(golden_path(3)).memory.empty()) << "a file without MMAP has no names";
}

// Whether the map holds every global allocation (MemoryMap::complete, which the bounds check needs)
// is the header's flag bit 0: kept with the regions, kept for a complete map without regions (no
// MMAP section), and absent from the files written before it (they load as not complete). A flag
// bit this reader does not know is ignored, as the format promises older readers.
TEST(trace_slt, TheMemoryMapKeepsWhetherItIsComplete) {
    Trace complete = make_golden_memory_map_trace();
    complete.memory.set_complete(true);
    std::vector<uint8_t> bytes = serialize(complete);
    uint32_t flags = 0;
    std::memcpy(&flags, bytes.data() + 16, 4);
    EXPECT_EQ(flags, kSltFlagCompleteMemoryMap);
    Trace loaded = deserialize(bytes, "complete.slt");
    expect_same_trace(complete, loaded);
    EXPECT_TRUE(loaded.memory.complete());
    EXPECT_EQ(test::find_sections(bytes).back().tag, test::tag_of("MMAP"));

    Trace no_regions = make_golden_trace();
    no_regions.memory.set_complete(true);
    bytes = serialize(no_regions);
    EXPECT_NE(test::find_sections(bytes).back().tag, test::tag_of("MMAP"));
    EXPECT_TRUE(deserialize(bytes, "empty.slt").memory.complete());

    EXPECT_FALSE(deserialize(serialize(make_golden_memory_map_trace()), "names.slt").memory.complete());
    EXPECT_FALSE(load_trace(golden_path(3)).memory.complete()) << "a file from before the flag";

    bytes = serialize(complete);
    test::put_at<uint32_t>(bytes, 16, kSltFlagCompleteMemoryMap | (1u << 7));
    test::fix_checksums(bytes);
    EXPECT_TRUE(deserialize(bytes, "newer.slt").memory.complete());
}

TEST(trace_slt, AMalformedMemoryMapIsAnErrorNamingTheSectionAndOffset) {
    std::vector<uint8_t> bytes = serialize(make_golden_memory_map_trace());
    const test::SectionLocation map = test::find_sections(bytes).back();
    ASSERT_EQ(map.tag, test::tag_of("MMAP"));
    // Regions by space and base: in, g_counters, s_tile. Region 1's space byte (after the count and
    // region 0's 24 fixed bytes, its name "in" and its type "f32") set to 7.
    const size_t region1 = map.payload + 4 + 24 + 4 + 2 + 4 + 3;
    bytes[region1] = 7;
    test::fix_checksums(bytes);
    try {
        deserialize(bytes, "named.slt");
        FAIL() << "a region of space 7 loaded";
    } catch (const TraceFileError& e) {
        EXPECT_EQ(e.problem(),
                  "memory map section: region 1 has space 7 (neither global nor shared) at offset " +
                      std::to_string(region1));
    }
    // g_counters moved to overlap the end of `in`.
    bytes = serialize(make_golden_memory_map_trace());
    test::put_at<uint64_t>(bytes, region1 + 8, 0x1000000ff0);
    test::fix_checksums(bytes);
    try {
        deserialize(bytes, "overlap.slt");
        FAIL() << "overlapping regions loaded";
    } catch (const TraceFileError& e) {
        EXPECT_EQ(e.problem(), "memory map section: region 1 is empty, unnamed or overlaps another region of "
                               "its space at offset " +
                                   std::to_string(region1));
    }
}

// The golden trace with lines of inlined helpers: site 1 in warpReduce<64u>, called from line 39;
// a third site in a header's helper, called from a helper, called from the kernel.
Trace make_golden_origins_trace() {
    Trace golden = make_golden_trace();
    golden.meta.variant = "inlined lines";
    golden.sites.push_back({3, 6, "ld.shared.u32 %r3, [%r1+4];"});
    golden.sites[1].origin.inlined = {{"warpReduce<64u>", "", 39}};
    golden.sites[2].origin.file = "reduce.cuh";
    golden.sites[2].origin.inlined = {{"load_pair", "", 8}, {"sum<true>", "", 21}};
    return golden;
}

// The line origins (INLN, optional) frozen in tests/trace/data/golden_v3_origins.slt.bin (written
// once with SYNCLAB_WRITE_GOLDEN=1): saved traces keep their inlined calls and files; the files
// without the section (every golden file above) still load, with every line in the kernel's body.
TEST(trace_slt, GoldenFileWithLineOrigins) {
    const Trace golden = make_golden_origins_trace();
    ASSERT_GE(golden.sites.size(), 3u);
    const std::string path = std::string(SYNCLAB_SOURCE_DIR) + "/tests/trace/data/golden_v3_origins.slt.bin";
    if (std::getenv("SYNCLAB_WRITE_GOLDEN") != nullptr) save_trace(golden, path);
    const std::vector<uint8_t> on_disk = read_bytes(path);
    ASSERT_FALSE(on_disk.empty()) << "missing " << path;
    const Trace loaded = load_trace(path);
    expect_same_trace(golden, loaded);
    EXPECT_EQ(loaded.sites[2].origin.inlined.at(1).function, "sum<true>");
    EXPECT_EQ(loaded.sites[2].kernel_file_line(), 8u);
    EXPECT_EQ(serialize(golden), on_disk);
    EXPECT_EQ(on_disk.size(), slt_file_size(golden));
    EXPECT_EQ(test::find_sections(on_disk).back().tag, test::tag_of("INLN"));
    EXPECT_EQ(serialize(load_trace(golden_path(3))), read_bytes(golden_path(3)))
        << "a trace without origins saves as before (no INLN section)";
    for (const Site& s : load_trace(golden_path(3)).sites)
        EXPECT_TRUE(s.origin.empty()) << "a file without INLN: lines of the kernel's body";
    // With the memory map, INLN comes last.
    Trace both = make_golden_memory_map_trace();
    both.sites = golden.sites;
    const std::vector<uint8_t> bytes = serialize(both);
    expect_same_trace(both, deserialize(bytes, "both.slt"));
    const auto sections = test::find_sections(bytes);
    EXPECT_EQ(sections[sections.size() - 2].tag, test::tag_of("MMAP"));
}

// A reader that does not know INLN (an older SyncLab) skips it; so does this one for a tag it does
// not know. Here: the section removed by hand reads as a trace without origins.
TEST(trace_slt, AFileWithoutLineOriginsLoadsWithTheLinesAlone) {
    const Trace golden = make_golden_origins_trace();
    std::vector<uint8_t> bytes = serialize(golden);
    const test::SectionLocation inln = test::find_sections(bytes).back();
    ASSERT_EQ(inln.tag, test::tag_of("INLN"));
    test::put_at<uint32_t>(bytes, inln.header, test::tag_of("ZZZZ")); // an unknown section: skipped
    test::fix_checksums(bytes);
    const Trace loaded = deserialize(bytes, "renamed.slt");
    for (size_t i = 0; i < loaded.sites.size(); ++i) {
        EXPECT_TRUE(loaded.sites[i].origin.empty()) << "site " << i;
        EXPECT_EQ(loaded.sites[i].source_line, golden.sites[i].source_line) << "site " << i;
    }
}

TEST(trace_slt, AMalformedLineOriginsSectionIsAnErrorNamingTheEntryAndOffset) {
    std::vector<uint8_t> bytes = serialize(make_golden_origins_trace());
    const test::SectionLocation inln = test::find_sections(bytes).back();
    ASSERT_EQ(inln.tag, test::tag_of("INLN"));
    // Entry 0 (after the u32 count) names site 1; make it site 99.
    test::put_at<uint32_t>(bytes, inln.payload + 4, 99);
    test::fix_checksums(bytes);
    try {
        deserialize(bytes, "inln.slt");
        FAIL() << "an entry naming site 99 loaded";
    } catch (const TraceFileError& e) {
        EXPECT_EQ(e.problem(), "line origins section: entry 0 names site 99 (sites: " +
                                   std::to_string(make_golden_origins_trace().sites.size()) +
                                   ", in order, once each) at offset " + std::to_string(inln.payload + 4));
    }
    // A call count far past the section's end.
    bytes = serialize(make_golden_origins_trace());
    const size_t calls = inln.payload + 4 + 4 + 4; // count, site, empty file
    ASSERT_EQ(test::get_at<uint32_t>(bytes, calls), 1u);
    test::put_at<uint32_t>(bytes, calls, 1000000);
    test::fix_checksums(bytes);
    try {
        deserialize(bytes, "inln.slt");
        FAIL() << "a million calls loaded";
    } catch (const TraceFileError& e) {
        EXPECT_EQ(e.problem(), "line origins section: entry 0 claims 1000000 calls at offset " +
                                   std::to_string(inln.payload + 4));
    }
}

} // namespace
} // namespace synclab::trace
