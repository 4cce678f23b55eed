// trace.h helpers: enum names, parse_run_status, make_flags, and the checksum of the .slt format.
#include "trace/slt_file.h"
#include "trace/trace.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace synclab::trace {
namespace {

TEST(trace_enums, EventKindNames) {
    EXPECT_STREQ(to_string(EventKind::Load), "load");
    EXPECT_STREQ(to_string(EventKind::Store), "store");
    EXPECT_STREQ(to_string(EventKind::Atomic), "atomic");
    EXPECT_STREQ(to_string(EventKind::Reduction), "reduction");
    EXPECT_STREQ(to_string(EventKind::BarrierArrive), "barrier_arrive");
    EXPECT_STREQ(to_string(EventKind::BarrierLeave), "barrier_leave");
    EXPECT_STREQ(to_string(EventKind::Fence), "fence");
    EXPECT_STREQ(to_string(EventKind::Exit), "exit");
    EXPECT_STREQ(to_string(static_cast<EventKind>(0)), "unknown");
    EXPECT_STREQ(to_string(static_cast<EventKind>(200)), "unknown");
}

TEST(trace_enums, OtherEnumNames) {
    EXPECT_STREQ(to_string(Space::Global), "global");
    EXPECT_STREQ(to_string(Space::Shared), "shared");
    EXPECT_STREQ(to_string(Space::Local), "local");
    EXPECT_STREQ(to_string(Space::Other), "other");
    EXPECT_STREQ(to_string(Scope::None), "none");
    EXPECT_STREQ(to_string(Scope::Block), "block");
    EXPECT_STREQ(to_string(Scope::Device), "device");
    EXPECT_STREQ(to_string(Scope::System), "system");
    EXPECT_STREQ(to_string(ThreadEnd::Exited), "exited");
    EXPECT_STREQ(to_string(ThreadEnd::AtBarrier), "at_barrier");
    EXPECT_STREQ(to_string(ThreadEnd::Running), "running");
    EXPECT_STREQ(to_string(ThreadEnd::Faulted), "faulted");
    EXPECT_STREQ(to_string(ThreadEnd::NotStarted), "not_started");
    EXPECT_STREQ(to_string(static_cast<ThreadEnd>(9)), "unknown");
    EXPECT_STREQ(to_string(static_cast<Space>(7)), "unknown");
    EXPECT_STREQ(to_string(static_cast<Scope>(7)), "unknown");
}

TEST(trace_enums, RunStatusNamesParseBack) {
    const RunStatus all[] = {RunStatus::Ok,    RunStatus::Deadlock, RunStatus::Budget,
                             RunStatus::Error, RunStatus::Timeout,  RunStatus::Cancelled};
    const char* names[] = {"ok", "deadlock", "budget", "error", "timeout", "cancelled"};
    for (size_t i = 0; i < std::size(all); ++i) {
        EXPECT_STREQ(to_string(all[i]), names[i]);
        RunStatus parsed = RunStatus::Ok;
        ASSERT_TRUE(parse_run_status(names[i], parsed)) << names[i];
        EXPECT_EQ(parsed, all[i]);
    }
    EXPECT_STREQ(to_string(static_cast<RunStatus>(6)), "unknown");
}

TEST(trace_enums, ParseRunStatusRejectsOtherText) {
    for (const char* text : {"", "OK", "Deadlock", " ok", "ok ", "unknown", "cancel", "timeout\n"}) {
        RunStatus out = RunStatus::Budget;
        EXPECT_FALSE(parse_run_status(text, out)) << "'" << text << "'";
        EXPECT_EQ(out, RunStatus::Budget) << "out must be untouched";
    }
}

TEST(trace_enums, MakeFlagsEncodesEveryField) {
    for (int space = 0; space < 4; ++space) {
        for (uint32_t size : {1u, 2u, 4u, 8u}) {
            for (int scope = 0; scope < 4; ++scope) {
                for (int bits = 0; bits < 4; ++bits) {
                    Event e;
                    e.flags = make_flags(static_cast<Space>(space), size, (bits & 1) != 0,
                                         static_cast<Scope>(scope), (bits & 2) != 0);
                    EXPECT_EQ(e.space(), static_cast<Space>(space));
                    EXPECT_EQ(e.size(), size);
                    EXPECT_EQ(e.scope(), static_cast<Scope>(scope));
                    EXPECT_EQ(e.is_volatile(), (bits & 1) != 0);
                    EXPECT_EQ((e.flags & flag::kOrdered) != 0, (bits & 2) != 0);
                }
            }
        }
    }
    EXPECT_EQ(make_flags(Space::Global, 4), 0x08);
    EXPECT_EQ(make_flags(Space::Shared, 0), make_flags(Space::Shared, 1)) << "0: no size, encoded as 1";
}

TEST(trace_enums, MakeFlagsRejectsWhatItCannotEncode) {
    for (uint32_t size : {3u, 5u, 16u, 32u, 0xffffffffu}) {
        try {
            (void)make_flags(Space::Shared, size);
            FAIL() << "size " << size << " accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("access size " + std::to_string(size)), std::string::npos)
                << e.what();
        }
    }
    EXPECT_THROW((void)make_flags(static_cast<Space>(4), 4), std::invalid_argument);
    EXPECT_THROW((void)make_flags(Space::Global, 4, false, static_cast<Scope>(4)), std::invalid_argument);
}

TEST(trace_enums, EventPredicates) {
    Event e;
    e.kind = EventKind::Load;
    EXPECT_TRUE(e.is_memory_access());
    EXPECT_FALSE(e.writes_memory());
    e.kind = EventKind::Reduction;
    EXPECT_TRUE(e.writes_memory());
    EXPECT_TRUE(e.is_atomic());
    e.kind = EventKind::BarrierArrive;
    EXPECT_FALSE(e.is_memory_access());
}

TEST(trace_checksum, StreamingEqualsOneShotForAnySplit) {
    std::mt19937_64 rng(42);
    std::vector<uint8_t> data(1000);
    for (auto& b : data)
        b = uint8_t(rng());
    for (size_t length : {size_t(0), size_t(1), size_t(7), size_t(8), size_t(31), size_t(32), size_t(33),
                          size_t(100), size_t(1000)}) {
        const uint64_t whole = slt_checksum64(data.data(), length);
        for (int trial = 0; trial < 50; ++trial) {
            SltChecksum sum;
            size_t at = 0;
            while (at < length) {
                const size_t n = std::min<size_t>(length - at, rng() % 45);
                sum.update(data.data() + at, n);
                at += n;
            }
            EXPECT_EQ(sum.finish(), whole) << "length " << length;
        }
    }
}

TEST(trace_checksum, EverySingleBitFlipChangesIt) {
    std::vector<uint8_t> data(203);
    for (size_t i = 0; i < data.size(); ++i)
        data[i] = uint8_t(i * 37 + 11);
    const uint64_t original = slt_checksum64(data.data(), data.size());
    std::set<uint64_t> seen{original};
    for (size_t i = 0; i < data.size(); ++i) {
        for (int bit = 0; bit < 8; ++bit) {
            data[i] ^= uint8_t(1u << bit);
            seen.insert(slt_checksum64(data.data(), data.size()));
            data[i] ^= uint8_t(1u << bit);
        }
    }
    EXPECT_EQ(seen.size(), 1 + data.size() * 8) << "every flip gives its own checksum";
}

TEST(trace_checksum, LengthMatters) {
    const uint8_t zeros[64] = {};
    std::set<uint64_t> seen;
    for (size_t n = 0; n <= 64; ++n)
        seen.insert(slt_checksum64(zeros, n));
    EXPECT_EQ(seen.size(), 65u) << "runs of zeros of different lengths differ";
}

} // namespace
} // namespace synclab::trace
