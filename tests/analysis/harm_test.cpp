// Finding::harmful (findings.h, "Harm"): of a race's pairs, those whose order in this run made a
// thread read a stale value or lose a write; the order of findings (most harmful first); the
// messages that say both; and explain_output() over small hand-built traces.
#include "analysis/findings.h"
#include "analysis/provenance.h"
#include "trace_builder.h"

#include <gtest/gtest.h>

namespace synclab::analysis {
namespace {

using testing::dump;
using testing::only;
using testing::TraceBuilder;
using trace::Space;
using V = std::vector<uint32_t>;

constexpr Space G = Space::Global;

// [SECTION] Shared memory

// Verdict: a stencil without its barrier. Thread 1 stores s[1] = 7 (line 42); thread 0 loads s[1]
// (line 45). Load after the store: RAW in program order, right by luck (harmful 0). Load before the
// store, reading the 0 the slot held: WAR against program order, the load read the old value
// (harmful 1). Near-twin: the slot already held 7 (a store of 7 before a barrier): the early load
// read the right value by luck (harmful 0).
TEST(analysis_harm, StencilLoadBeforeTheStoreIsHarmful) {
    struct Case {
        bool load_first;
        uint32_t held; // the slot's value before the store (stored before a barrier)
        Hazard hazard;
        uint64_t harmful;
        const char* counts;
    };
    for (const Case& c : {Case{false, 0, Hazard::RAW, 0, "(it did no harm in this run: right by luck)"},
                          Case{true, 0, Hazard::WAR, 1, "(1 load read the old value in this run)"},
                          Case{true, 7, Hazard::WAR, 0, "(it did no harm in this run: right by luck)"}}) {
        TraceBuilder b(1, 64);
        const uint16_t init = b.site(30), sync = b.sync_site(31), store = b.site(42), load = b.site(45);
        b.store(1, init, 0x4).value(c.held);
        b.barrier(0, sync);
        if (c.load_first) b.load(0, load, 0x4).value(c.held);
        b.store(1, store, 0x4).value(7);
        if (!c.load_first) b.load(0, load, 0x4).value(7);
        b.exit_all();
        const auto found = find_shared_races(b.trace());
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].hazard, c.hazard);
        EXPECT_EQ(found[0].count, 1u);
        EXPECT_EQ(found[0].harmful, c.harmful) << dump(found);
        EXPECT_NE(found[0].message.find(c.counts), std::string::npos) << found[0].message;
    }
}

// Verdict: an in-place reverse (load line 10, then store line 12). Thread 1's store overtakes thread
// 0's load of the same slot: RAW against program order; harmful when the store changed the slot (3
// -> 5: the load read the new value too early), not when it stored what the slot held (5 -> 5).
TEST(analysis_harm, ReverseStoreBeforeTheLoadIsHarmfulWhenItChangedTheValue) {
    for (const uint32_t before : {3u, 5u}) {
        TraceBuilder b(1, 64);
        const uint16_t init = b.site(5), sync = b.sync_site(6), load = b.site(10), store = b.site(12);
        b.store(1, init, 0x8).value(before);
        b.barrier(0, sync);
        b.store(1, store, 0x8).value(5);
        b.load(0, load, 0x8).value(5);
        b.exit_all();
        const auto found = find_shared_races(b.trace());
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].hazard, Hazard::RAW);
        EXPECT_EQ(found[0].harmful, before != 5 ? 1u : 0u) << dump(found);
        if (before != 5) {
            EXPECT_NE(found[0].message.find("(1 load read the new value too early in this run)"),
                      std::string::npos)
                << found[0].message;
        }
    }
}

// Verdict: WAW. Two threads store at one site (line 20): harmful iff the values differ ("a write was
// lost"); stores in program order (line 20, then line 22) do no harm, whatever their values; against
// program order (line 22 first) with different values, harmful.
TEST(analysis_harm, WawLosesAWriteWhenTheValuesDiffer) {
    struct Case {
        uint32_t first_line, second_line, first_value, second_value;
        uint64_t harmful;
    };
    for (const Case& c :
         {Case{20, 20, 1, 2, 1}, Case{20, 20, 2, 2, 0}, Case{20, 22, 1, 2, 0}, Case{22, 20, 1, 2, 1}}) {
        TraceBuilder b(1, 64);
        const uint16_t s20 = b.site(20), s22 = b.site(22);
        const uint16_t first = c.first_line == 20 ? s20 : s22, second = c.second_line == 20 ? s20 : s22;
        b.store(3, first, 0x10).value(c.first_value);
        b.store(40, second, 0x10).value(c.second_value);
        b.exit_all();
        const auto found = find_shared_races(b.trace());
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].hazard, Hazard::WAW);
        EXPECT_EQ(found[0].harmful, c.harmful)
            << "lines " << c.first_line << " then " << c.second_line << ", values " << c.first_value
            << " then " << c.second_value << ": " << dump(found);
        if (c.harmful) {
            EXPECT_NE(found[0].message.find("(1 write was lost in this run)"), std::string::npos)
                << found[0].message;
        }
    }
}

// Verdict: of 10 readers of one slot, 4 read it (the old value, 0) before thread 0 stores 9 there,
// 6 after: WAR count 4 harmful 4, RAW count 6 harmful 0. A reader of a neighbouring byte the store
// does not cover counts in neither.
TEST(analysis_harm, ManyReadersSplitIntoHarmfulAndLucky) {
    TraceBuilder b(1, 64);
    const uint16_t store = b.site(42), load = b.site(45);
    for (uint32_t t = 1; t <= 4; ++t)
        b.load(t, load, 0x20).value(0);
    b.store(0, store, 0x20).value(9);
    for (uint32_t t = 5; t <= 10; ++t)
        b.load(t, load, 0x20).value(9);
    b.exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 2u) << dump(found);
    const auto war = only(found, FindingKind::Race, Hazard::WAR);
    const auto raw = only(found, FindingKind::Race, Hazard::RAW);
    ASSERT_EQ(war.size(), 1u);
    ASSERT_EQ(raw.size(), 1u);
    EXPECT_EQ(war[0].count, 4u);
    EXPECT_EQ(war[0].harmful, 4u);
    EXPECT_EQ(raw[0].count, 6u);
    EXPECT_EQ(raw[0].harmful, 0u);
    EXPECT_EQ(found[0].hazard, Hazard::WAR) << "the harmful finding first, though it has fewer pairs";
    EXPECT_NE(raw[0].message.find("(none did harm in this run; 6 racing access pairs were right by luck)"),
              std::string::npos)
        << raw[0].message;
}

// Verdict: a byte store into a word whose other bytes were read: only readers of the stored byte
// race; the harm is judged on that byte alone (the load's value 0x11223344 holds 0x33 at byte 1;
// storing 0x33 there is harmless, 0x99 is not).
TEST(analysis_harm, SubWordHarmComparesTheOverlappingBytes) {
    for (const uint32_t byte : {0x33u, 0x99u}) {
        TraceBuilder b(1, 64);
        const uint16_t store = b.site(42), load = b.site(45);
        b.load(1, load, 0x40, 4).value(0x11223344);
        b.store(0, store, 0x41, 1).value(byte);
        b.exit_all();
        const auto found = find_shared_races(b.trace());
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].hazard, Hazard::WAR);
        EXPECT_EQ(found[0].harmful, byte == 0x33 ? 0u : 1u) << dump(found);
    }
}

// Verdict: an atomic's value is its operand, not the memory's result: a plain load racing with it
// cannot be shown to be right, so it counts as harmful.
TEST(analysis_harm, UnknownValuesCountAsHarmful) {
    TraceBuilder b(1, 64);
    const uint16_t add = b.site(42), load = b.site(45);
    b.load(1, load, 0x40).value(0);
    b.atomic(0, add, 0x40).value(0);
    b.exit_all();
    const auto found = find_shared_races(b.trace());
    ASSERT_EQ(found.size(), 1u) << dump(found);
    EXPECT_EQ(found[0].harmful, 1u) << dump(found);
}

// [SECTION] Global memory

// Verdict: the same judgement on global memory across blocks: block 1's load of a word block 0
// stores later (line 42 before line 45 in the program) read the old value (harmful) unless it held
// the stored value already; a load after the store is right by luck.
TEST(analysis_harm, GlobalRacesAcrossBlocks) {
    struct Case {
        bool load_first;
        uint32_t old_value;
        Hazard hazard;
        uint64_t harmful;
    };
    for (const Case& c :
         {Case{true, 0, Hazard::WAR, 1}, Case{true, 7, Hazard::WAR, 0}, Case{false, 0, Hazard::RAW, 0}}) {
        TraceBuilder b(2, 32);
        const uint16_t store = b.site(42), load = b.site(45);
        if (c.load_first) b.load(b.thread(1, 0), load, 0x100, 4, G).value(c.old_value);
        b.store(b.thread(0, 0), store, 0x100, 4, G).value(7);
        if (!c.load_first) b.load(b.thread(1, 0), load, 0x100, 4, G).value(7);
        b.exit_all();
        const auto found = find_global_races(b.trace());
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].hazard, c.hazard);
        EXPECT_EQ(found[0].harmful, c.harmful) << dump(found);
    }
}

// Verdict: WAW on global memory, one site, two blocks: different values lose a write.
TEST(analysis_harm, GlobalWawLosesAWrite) {
    for (const uint32_t second : {1u, 2u}) {
        TraceBuilder b(2, 32);
        const uint16_t store = b.site(20);
        b.store(b.thread(0, 5), store, 0x200, 4, G).value(1);
        b.store(b.thread(1, 5), store, 0x200, 4, G).value(second);
        b.exit_all();
        const auto found = find_global_races(b.trace());
        ASSERT_EQ(found.size(), 1u) << dump(found);
        EXPECT_EQ(found[0].hazard, Hazard::WAW);
        EXPECT_EQ(found[0].harmful, second != 1 ? 1u : 0u) << dump(found);
    }
}

// [SECTION] Order and messages

// Verdict: analyze() puts the harmful finding first, ahead of a harmless one with more pairs, and a
// lost update's harm is its lost count; the example of a harmful finding is a harmful pair.
TEST(analysis_harm, AnalyzeOrdersTheMostHarmfulFirst) {
    TraceBuilder b(1, 64);
    const uint16_t store = b.site(42), load = b.site(45);
    // Slot 0x0: 40 loads after thread 0's store (RAW, lucky). Slot 0x4: thread 2 loads before
    // thread 1's store (WAR, harmful).
    b.store(0, store, 0x0).value(5);
    for (uint32_t t = 10; t < 50; ++t)
        b.load(t, load, 0x0).value(5);
    b.load(2, load, 0x4).value(0);
    b.store(1, store, 0x4).value(6);
    b.exit_all();
    const auto found = analyze(b.trace());
    ASSERT_EQ(found.size(), 2u) << dump(found);
    EXPECT_EQ(found[0].hazard, Hazard::WAR) << dump(found);
    EXPECT_EQ(found[0].harmful, 1u);
    EXPECT_EQ(found[0].threads, (V{2, 1}));
    EXPECT_EQ(found[1].hazard, Hazard::RAW);
    EXPECT_EQ(found[1].count, 40u);
}

Finding race(Hazard hazard, uint64_t count, uint64_t harmful) {
    Finding f;
    f.kind = FindingKind::Race;
    f.hazard = hazard;
    f.space = Space::Shared;
    f.lines = {42, 45};
    f.count = count;
    f.harmful = harmful;
    f.count_noun = "racing access pair";
    f.text = "T";
    render_message(f);
    return f;
}

// Verdict: the message says what the pairs did, per hazard, with thousands separators.
TEST(analysis_harm, MessagesSayHarmAndLuck) {
    EXPECT_EQ(
        race(Hazard::WAR, 16320, 169).message,
        "T (169 loads read the old value in this run; 16,151 more racing access pairs were right by luck)");
    EXPECT_EQ(race(Hazard::WAR, 1, 1).message, "T (1 load read the old value in this run)");
    EXPECT_EQ(
        race(Hazard::RAW, 2, 1).message,
        "T (1 load read the new value too early in this run; 1 more racing access pair was right by luck)");
    EXPECT_EQ(race(Hazard::WAW, 3000, 3000).message, "T (3,000 writes were lost in this run)");
    EXPECT_EQ(race(Hazard::RAW, 16151, 0).message,
              "T (none did harm in this run; 16,151 racing access pairs were right by luck)");
    EXPECT_EQ(race(Hazard::RAW, 1, 0).message, "T (it did no harm in this run: right by luck)");
    EXPECT_EQ(with_thousands(0), "0");
    EXPECT_EQ(with_thousands(999), "999");
    EXPECT_EQ(with_thousands(1000), "1,000");
    EXPECT_EQ(with_thousands(1234567), "1,234,567");
}

// Verdict: merging runs adds harmful as it adds count, the message follows, and order_findings puts
// the merged finding with more harm first.
TEST(analysis_harm, MergeAddsHarmful) {
    std::vector<Finding> merged;
    merge_findings(merged, {race(Hazard::WAR, 10, 2)});
    merge_findings(merged, {race(Hazard::WAR, 5, 3)});
    ASSERT_EQ(merged.size(), 1u);
    EXPECT_EQ(merged[0].count, 15u);
    EXPECT_EQ(merged[0].harmful, 5u);
    EXPECT_EQ(merged[0].runs, 2u);
    EXPECT_EQ(merged[0].message,
              "T (5 loads read the old value in 2 runs; 10 more racing access pairs were right by luck)");

    Finding lucky = race(Hazard::RAW, 1000, 0);
    lucky.lines = {1, 2};
    merged.insert(merged.begin(), lucky);
    order_findings(merged);
    EXPECT_EQ(merged[0].hazard, Hazard::WAR);
    EXPECT_EQ(merged[1].hazard, Hazard::RAW);
}

// Verdict: with equal harm, more pairs first; with equal counts too, the kinds' order (deadlock
// before race) and then lines.
TEST(analysis_harm, TiesFallBackToCountThenKindThenLines) {
    Finding a = race(Hazard::RAW, 10, 0), b = race(Hazard::RAW, 20, 0);
    b.lines = {50, 51};
    Finding hang;
    hang.kind = FindingKind::Deadlock;
    hang.space = Space::Other;
    hang.count = 20;
    hang.harmful = 0; // not what the analysis gives (it says count), to test the tie alone
    std::vector<Finding> all = {a, b, hang};
    order_findings(all);
    EXPECT_EQ(all[0].kind, FindingKind::Deadlock);
    EXPECT_EQ(all[1].lines, (V{50, 51}));
    EXPECT_EQ(all[2].count, 10u);
}

// [SECTION] explain_output

// Verdict: thread 0 of block 0 loads its right neighbour's slot (line 45) before thread 1 stores it
// (line 42), then stores its output (line 48): explain_output names the stale load, thread 1's store
// as the value it should have read, and the values. With the store before the load: no stale load.
TEST(analysis_harm, ExplainOutputNamesTheStaleLoad) {
    for (const bool load_first : {true, false}) {
        TraceBuilder b(1, 64);
        const uint16_t store = b.site(42), load = b.site(45), out = b.site(48);
        b.store(0, store, 0x0).value(3);
        if (load_first) b.load(0, load, 0x4).value(0);
        b.store(1, store, 0x4).value(7);
        if (!load_first) b.load(0, load, 0x4).value(7);
        const size_t store_event = b.trace().events.size();
        b.store(0, out, 0x1000, 4, G).value(load_first ? 3 : 10);
        b.exit_all();
        const trace::Trace& t = b.trace();
        const OutputProvenance p = explain_output(t, G, 0x1000);
        ASSERT_TRUE(p.written);
        EXPECT_EQ(p.store, store_event);
        EXPECT_EQ(p.thread, 0u);
        EXPECT_EQ(p.line, 48u);
        EXPECT_EQ(p.value, load_first ? 3u : 10u);
        EXPECT_EQ(p.racing_writer_count, 0u);
        if (!load_first) {
            EXPECT_TRUE(p.stale_loads.empty()) << describe(t, p);
            continue;
        }
        ASSERT_EQ(p.stale_loads.size(), 1u) << describe(t, p);
        const StaleLoad& s = p.stale_loads[0];
        EXPECT_EQ(s.why, Staleness::OldValue);
        EXPECT_EQ(t.events[s.load].site, load);
        EXPECT_EQ(s.writer_thread, 1u);
        EXPECT_EQ(s.writer_site, store);
        EXPECT_EQ(s.value_read, 0u);
        EXPECT_EQ(s.value_written, 7u);
        EXPECT_EQ(describe(t, p),
                  "block 0 thread 0 stored 3 (0x3) (line 48); its load at line 45 read 0 (0x0), the old "
                  "value: block 0 thread 1 stored 7 (0x7) there (line 42) after it, with no barrier "
                  "between them")
            << "values in their type; these sites' instructions name none";
    }
}

// Verdict: an in-place reverse (load line 10, store line 12): thread 1's store overtook thread 0's
// load of that slot and changed it (3 -> 5): the load read the new value too early (TooEarly, the
// writer named). Near-twin: the store left the slot as it was (5 -> 5): nothing stale.
TEST(analysis_harm, ExplainOutputNamesALoadThatCameTooLate) {
    for (const uint32_t before : {3u, 5u}) {
        TraceBuilder b(1, 64);
        const uint16_t init = b.site(5), sync = b.sync_site(6), load = b.site(10), store = b.site(12),
                       out = b.site(14);
        b.store(1, init, 0x8).value(before);
        b.barrier(0, sync);
        b.store(1, store, 0x8).value(5);
        const size_t writer = b.trace().events.size() - 1;
        b.load(0, load, 0x8).value(5);
        b.store(0, out, 0x2000, 4, G).value(5);
        b.exit_all();
        const OutputProvenance p = explain_output(b.trace(), G, 0x2000);
        ASSERT_TRUE(p.written);
        if (before == 5) {
            EXPECT_TRUE(p.stale_loads.empty()) << describe(b.trace(), p);
            continue;
        }
        ASSERT_EQ(p.stale_loads.size(), 1u) << describe(b.trace(), p);
        EXPECT_EQ(p.stale_loads[0].why, Staleness::TooEarly);
        EXPECT_EQ(p.stale_loads[0].writer, writer);
        EXPECT_EQ(p.stale_loads[0].writer_thread, 1u);
    }
}

// Verdict: a counter bumped without an atomic by two blocks: block 1's store overwrote block 0's
// update (its load came before block 0's store): the stale load is "overwritten", and block 0's
// store is a racing writer of the final value. An address nobody wrote: written == false.
TEST(analysis_harm, ExplainOutputOfALostUpdate) {
    TraceBuilder b(2, 32);
    const uint16_t load = b.site(10), store = b.site(11);
    const uint32_t t0 = b.thread(0, 0), t1 = b.thread(1, 0);
    b.load(t1, load, 0x100, 4, G).value(0);
    b.load(t0, load, 0x100, 4, G).value(0);
    b.store(t0, store, 0x100, 4, G).value(1);
    const size_t lost = b.trace().events.size() - 1;
    b.store(t1, store, 0x100, 4, G).value(1);
    b.exit_all();
    const OutputProvenance p = explain_output(b.trace(), G, 0x100);
    ASSERT_TRUE(p.written);
    EXPECT_EQ(p.thread, t1);
    ASSERT_EQ(p.stale_loads.size(), 1u) << describe(b.trace(), p);
    EXPECT_EQ(p.stale_loads[0].why, Staleness::Overwritten);
    EXPECT_EQ(p.stale_loads[0].writer, lost);
    EXPECT_EQ(p.racing_writers, (std::vector<uint64_t>{lost}));
    EXPECT_EQ(p.racing_writer_count, 1u);
    EXPECT_FALSE(explain_output(b.trace(), G, 0x104).written);
}

} // namespace
} // namespace synclab::analysis
