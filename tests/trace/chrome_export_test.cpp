// Chrome trace-event JSON export: parsed back with nlohmann::json and checked for structure.
#include "trace_test_util.h"

#include "trace/chrome_export.h"
#include "trace/slt_file.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace synclab::trace {
namespace {

using json = nlohmann::json;

constexpr const char* kQuotedPtx = "st.shared.u32 [%r4], %r2; // \"quoted\"\n\\next line\t";

// 2 blocks of 33 threads (warp 0: 32 lanes, warp 1: 1 lane). Every thread: store at 10, barrier
// arrive at 20 and leave at 30, load at 40 + tib % 3, fence at 50, exit at 60.
Trace make_tiny_trace() {
    Trace t;
    t.meta.scenario = "tiny \"scenario\"";
    t.meta.kernel = "k";
    t.meta.backend = "sim";
    t.meta.grid = {2, 1, 1};
    t.meta.block = {33, 1, 1};
    t.meta.status = RunStatus::Ok;
    t.sites = {{11, 5, kQuotedPtx},
               {12, 6, "bar.sync 0;"},
               {13, 7, "ld.shared.u32 %r5, [%r6];"},
               {40, 0, "ret;"},
               {14, 8, "membar.cta;"}};
    for (uint32_t b = 0; b < 2; ++b) {
        for (uint32_t i = 0; i < 33; ++i) {
            ThreadInfo ti;
            ti.block = b;
            ti.thread_in_block = i;
            ti.warp = uint16_t(i / 32);
            ti.lane = uint8_t(i % 32);
            ti.end_site = 3;
            t.threads.push_back(ti);
        }
    }
    auto add = [&](uint64_t time, uint32_t thread, uint16_t site, EventKind kind, uint64_t address,
                   uint32_t value, uint8_t flags) {
        t.events.push_back({time, address, value, thread, 0, site, kind, flags});
    };
    // In execution order, as the simulator would record them.
    for (uint32_t th = 0; th < 66; ++th)
        add(10, th, 0, EventKind::Store, (th % 33) * 4, th, make_flags(Space::Shared, 4));
    for (uint32_t th = 0; th < 66; ++th)
        add(20, th, 1, EventKind::BarrierArrive, 0, 0, 0);
    for (uint32_t th = 0; th < 66; ++th)
        add(30, th, 1, EventKind::BarrierLeave, 0, 0, 0);
    for (uint32_t th = 0; th < 66; ++th) {
        add(40 + (th % 33) % 3, th, 2, EventKind::Load, 0x100 + (th % 33) * 4, 7,
            make_flags(Space::Shared, 4, true));
    }
    for (uint32_t th = 0; th < 66; ++th)
        add(50, th, 4, EventKind::Fence, 0, 0, make_flags(Space::Other, 0, false, Scope::Block));
    for (uint32_t th = 0; th < 66; ++th)
        add(60, th, 3, EventKind::Exit, 0, 0, 0);
    return t;
}

json export_json(const Trace& t) {
    std::ostringstream out;
    export_chrome_json(t, out);
    return json::parse(out.str()); // throws (fails the test) on invalid JSON
}

std::vector<json> events_where(const json& doc, const std::function<bool(const json&)>& pred) {
    std::vector<json> out;
    for (const json& e : doc["traceEvents"]) {
        if (pred(e)) out.push_back(e);
    }
    return out;
}

// Every track's events are in nondecreasing ts order and its slices never overlap.
void expect_tracks_well_formed(const json& doc) {
    std::map<std::pair<uint64_t, uint64_t>, double> last_ts, last_slice_end;
    for (const json& e : doc["traceEvents"]) {
        if (e["ph"] == "M") continue;
        const auto key = std::make_pair(e["pid"].get<uint64_t>(), e["tid"].get<uint64_t>());
        const double ts = e["ts"].get<double>();
        if (last_ts.count(key)) {
            EXPECT_GE(ts, last_ts[key]) << e.dump();
        }
        last_ts[key] = ts;
        if (e["ph"] == "X") {
            if (last_slice_end.count(key)) {
                EXPECT_GE(ts, last_slice_end[key]) << "overlap: " << e.dump();
            }
            last_slice_end[key] = ts + e["dur"].get<double>();
        }
    }
}

TEST(trace_chrome, TopLevelStructureAndMetadata) {
    const json doc = export_json(make_tiny_trace());
    ASSERT_TRUE(doc.is_object());
    EXPECT_TRUE(doc["traceEvents"].is_array());
    EXPECT_EQ(doc["displayTimeUnit"], "ns");
    const json& meta = doc["metadata"];
    EXPECT_EQ(meta["scenario"], "tiny \"scenario\"");
    EXPECT_EQ(meta["kernel"], "k");
    EXPECT_EQ(meta["backend"], "sim");
    EXPECT_EQ(meta["grid"], "2x1x1");
    EXPECT_EQ(meta["block"], "33x1x1");
    EXPECT_EQ(meta["status"], "ok");
    EXPECT_EQ(meta["events"], 66 * 6);
    EXPECT_EQ(meta["skipped_events"], 0);
}

TEST(trace_chrome, ProcessesAreBlocksThreadsAreWarps) {
    const json doc = export_json(make_tiny_trace());
    std::map<uint64_t, std::string> processes;
    std::map<uint64_t, std::pair<uint64_t, std::string>> threads; // tid -> (pid, name)
    int sort_indices = 0;
    for (const json& e : doc["traceEvents"]) {
        if (e["ph"] != "M") continue;
        if (e["name"] == "process_name") processes[e["pid"]] = e["args"]["name"];
        if (e["name"] == "thread_name") {
            EXPECT_EQ(threads.count(e["tid"]), 0u) << "tids are unique across processes";
            threads[e["tid"]] = {e["pid"], e["args"]["name"]};
        }
        if (e["name"] == "process_sort_index" || e["name"] == "thread_sort_index") ++sort_indices;
    }
    EXPECT_EQ(processes, (std::map<uint64_t, std::string>{{1, "block 0"}, {2, "block 1"}}));
    ASSERT_EQ(threads.size(), 8u); // 4 warps x (warp track + barrier track)
    std::multiset<std::string> names;
    for (const auto& [tid, info] : threads)
        names.insert(info.second);
    EXPECT_EQ(names, (std::multiset<std::string>{"warp 0", "warp 0", "warp 1", "warp 1", "warp 0 barriers",
                                                 "warp 0 barriers", "warp 1 barriers", "warp 1 barriers"}));
    EXPECT_EQ(sort_indices, 2 + 8);
}

TEST(trace_chrome, PhaseAndBarrierSlices) {
    const json doc = export_json(make_tiny_trace());
    const auto phases =
        events_where(doc, [](const json& e) { return e["ph"] == "X" && e.value("cat", "") == "phase"; });
    const auto barriers =
        events_where(doc, [](const json& e) { return e["ph"] == "X" && e.value("cat", "") == "barrier"; });
    ASSERT_EQ(phases.size(), 8u);   // 4 warps x 2 phases
    ASSERT_EQ(barriers.size(), 4u); // 4 warps x 1 barrier
    for (const json& p : phases) {
        if (p["name"] == "phase 0") {
            EXPECT_DOUBLE_EQ(p["ts"].get<double>(), 0.010); // tick 10 -> 10 ns
            EXPECT_DOUBLE_EQ(p["dur"].get<double>(), 0.010);
        } else {
            EXPECT_EQ(p["name"], "phase 1");
            EXPECT_DOUBLE_EQ(p["ts"].get<double>(), 0.030);
            EXPECT_DOUBLE_EQ(p["dur"].get<double>(), 0.030);
        }
    }
    for (const json& b : barriers) {
        EXPECT_EQ(b["name"], "barrier 0");
        EXPECT_DOUBLE_EQ(b["ts"].get<double>(), 0.020);
        EXPECT_DOUBLE_EQ(b["dur"].get<double>(), 0.010);
        EXPECT_EQ(b["args"]["barrier"], 0);
        EXPECT_EQ(b["args"]["phase"], 0);
        EXPECT_EQ(b["args"]["line"], 6);
        EXPECT_EQ(b["args"]["ptx_line"], 12);
        EXPECT_EQ(b["args"]["ptx"], "bar.sync 0;");
        EXPECT_EQ(b["args"]["first_lane"], 0);
    }
}

TEST(trace_chrome, InstantEvents) {
    const json doc = export_json(make_tiny_trace());
    const auto instants = events_where(doc, [](const json& e) { return e["ph"] == "i"; });
    EXPECT_EQ(instants.size(), 66u * 4);
    std::map<std::string, int> by_name;
    for (const json& e : instants) {
        EXPECT_EQ(e["s"], "t");
        by_name[e["name"]]++;
    }
    EXPECT_EQ(by_name, (std::map<std::string, int>{{"st.shared line 5", 66},
                                                   {"ld.shared line 7", 66},
                                                   {"fence.cta line 8", 66},
                                                   {"exit ptx 40", 66}}));

    // Lane 1 of block 1's store: every arg.
    const auto stores = events_where(doc, [](const json& e) {
        return e["ph"] == "i" && e["name"] == "st.shared line 5" && e["args"]["thread"] == 34;
    });
    ASSERT_EQ(stores.size(), 1u);
    const json& args = stores[0]["args"];
    EXPECT_EQ(args["lane"], 1);
    EXPECT_EQ(args["address"], "0x4");
    EXPECT_EQ(args["value"], 34);
    EXPECT_EQ(args["size"], 4);
    EXPECT_EQ(args["line"], 5);
    EXPECT_EQ(args["ptx_line"], 11);
    EXPECT_EQ(args["ptx"], kQuotedPtx) << "quotes, backslash, newline and tab survive the round trip";
    EXPECT_DOUBLE_EQ(stores[0]["ts"].get<double>(), 0.010);
    EXPECT_EQ(stores[0]["pid"], 2);

    const auto loads = events_where(doc, [](const json& e) { return e["name"] == "ld.shared line 7"; });
    EXPECT_EQ(loads[0]["args"]["volatile"], true);
    const auto fences = events_where(doc, [](const json& e) { return e["name"] == "fence.cta line 8"; });
    EXPECT_EQ(fences[0]["args"]["scope"], "block");
}

// A line inlined from a helper: the instant is named by the helper's own line, and its args say
// the function, the call lines, the file (a header) and where, in words; the barrier slice too.
// Sites of the kernel's body have none of these args.
TEST(trace_chrome, InlinedLinesNameTheirHelperAndCalls) {
    Trace t = make_tiny_trace();
    t.sites[2].origin = {"", {{"load_neighbour", "", 19}, {"twice<true>", "", 32}}};
    t.sites[1].origin = {"sync.cuh", {{"block_sync", "", 27}}};
    const json doc = export_json(t);
    const auto loads = events_where(doc, [](const json& e) { return e["name"] == "ld.shared line 7"; });
    ASSERT_EQ(loads.size(), 66u);
    const json& args = loads[0]["args"];
    EXPECT_EQ(args["line"], 7);
    EXPECT_EQ(args["function"], "load_neighbour");
    EXPECT_EQ(args["called_from"], json::array({19, 32}));
    EXPECT_FALSE(args.contains("file")) << "the kernel's own file";
    EXPECT_EQ(args["where"],
              "line 7 in `load_neighbour`, called from line 19 in `twice<true>`, called from line 32");
    const auto barriers =
        events_where(doc, [](const json& e) { return e["ph"] == "X" && e["cat"] == "barrier"; });
    ASSERT_FALSE(barriers.empty());
    EXPECT_EQ(barriers[0]["args"]["file"], "sync.cuh");
    EXPECT_EQ(barriers[0]["args"]["where"], "line 6 of sync.cuh in `block_sync`, called from line 27");
    const auto stores = events_where(doc, [](const json& e) { return e["name"] == "st.shared line 5"; });
    ASSERT_FALSE(stores.empty());
    for (const char* key : {"function", "called_from", "file", "where"})
        EXPECT_FALSE(stores[0]["args"].contains(key)) << key;
    expect_tracks_well_formed(doc);
}

// The cost model's timing rides along in the instants' args; without it there are none.
TEST(trace_chrome, ModelledTimingInArgsAndMetadata) {
    Trace t = make_tiny_trace();
    EXPECT_TRUE(events_where(export_json(t), [](const json& e) {
                    return e["ph"] == "i" && e["args"].contains("latency_cycles");
                }).empty());
    t.meta.modelled_cycles = 987654;
    for (size_t i = 0; i < t.events.size(); ++i)
        t.timing.push_back({1000 + i, uint32_t(30 + i), uint32_t(i % 7)});
    const json doc = export_json(t);
    EXPECT_EQ(doc["metadata"]["modelled_cycles"], 987654);
    const auto stores = events_where(doc, [](const json& e) {
        return e["ph"] == "i" && e["name"] == "st.shared line 5" && e["args"]["thread"] == 34;
    });
    ASSERT_EQ(stores.size(), 1u);
    EXPECT_EQ(stores[0]["args"]["issue_cycle"], 1034); // event 34: the 35th store
    EXPECT_EQ(stores[0]["args"]["latency_cycles"], 64);
    EXPECT_FALSE(stores[0]["args"].contains("queue_depth")) << "only atomics queue";
}

TEST(trace_chrome, TimestampsMonotonicPerTrackAndSlicesNest) {
    expect_tracks_well_formed(export_json(make_tiny_trace()));
    expect_tracks_well_formed(export_json(test::make_rich_trace()));
}

TEST(trace_chrome, ThreadTableInAnyOrder) {
    Trace t = make_tiny_trace();
    std::reverse(t.threads.begin(), t.threads.end());
    const auto n = uint32_t(t.threads.size());
    for (Event& e : t.events)
        e.thread = n - 1 - e.thread;
    const json doc = export_json(t);
    EXPECT_EQ(events_where(doc, [](const json& e) { return e.value("cat", "") == "phase"; }).size(), 8u);
    EXPECT_EQ(events_where(doc, [](const json& e) { return e.value("cat", "") == "barrier"; }).size(), 4u);
    EXPECT_EQ(events_where(doc, [](const json& e) { return e["name"] == "thread_name"; }).size(), 8u);
    expect_tracks_well_formed(doc);
}

TEST(trace_chrome, UnreleasedBarrierRunsToTheEnd) {
    Trace t = make_tiny_trace();
    // Block 1 never leaves its barrier: drop its leaves and everything after.
    std::erase_if(t.events, [](const Event& e) { return e.thread >= 33 && e.time >= 30; });
    const json doc = export_json(t);
    const auto stuck =
        events_where(doc, [](const json& e) { return e["name"] == "barrier 0 (never released)"; });
    ASSERT_EQ(stuck.size(), 2u); // warps 0 and 1 of block 1
    for (const json& b : stuck) {
        EXPECT_EQ(b["pid"], 2);
        EXPECT_DOUBLE_EQ(b["ts"].get<double>(), 0.020);
        EXPECT_DOUBLE_EQ(b["dur"].get<double>(), 0.040); // to the last event of the trace (60)
        EXPECT_EQ(b["args"]["lanes_left"], 0);
    }
    expect_tracks_well_formed(doc);
}

TEST(trace_chrome, GpuTimesStartAtZero) {
    Trace t = make_tiny_trace();
    t.meta.backend = "gpu";
    for (Event& e : t.events)
        e.time = 1'700'000'000'000'000'000ull + e.time * 1000; // ns
    const json doc = export_json(t);
    double min_ts = 1e300;
    for (const json& e : doc["traceEvents"]) {
        if (e.contains("ts")) min_ts = std::min(min_ts, e["ts"].get<double>());
    }
    EXPECT_EQ(min_ts, 0.0);
    const auto barriers = events_where(doc, [](const json& e) { return e.value("cat", "") == "barrier"; });
    ASSERT_FALSE(barriers.empty());
    EXPECT_DOUBLE_EQ(barriers[0]["ts"].get<double>(), 10.0); // (20 - 10) * 1000 ns = 10 us
    EXPECT_NE(doc["metadata"]["clock"].get<std::string>().find("globaltimer"), std::string::npos);
    EXPECT_EQ(doc["metadata"]["time_base"], 1'700'000'000'000'010'000ull);
}

TEST(trace_chrome, EmptyTraceIsValidJson) {
    const json doc = export_json(Trace{});
    EXPECT_TRUE(doc["traceEvents"].empty());
    EXPECT_EQ(doc["metadata"]["events"], 0);
}

TEST(trace_chrome, InvalidTraceExportsWithoutCrashing) {
    Trace t = make_tiny_trace();
    t.events[0].thread = 5000;                     // skipped
    t.events[1].kind = static_cast<EventKind>(77); // skipped
    t.events[2].site = 999;                        // shown without a line
    t.meta.elapsed_ms = std::numeric_limits<double>::quiet_NaN();
    const json doc = export_json(t);
    EXPECT_EQ(doc["metadata"]["skipped_events"], 2);
    EXPECT_TRUE(doc["metadata"]["elapsed_ms"].is_null());
    const auto odd = events_where(doc, [](const json& e) { return e["name"] == "st.shared ptx 0"; });
    ASSERT_EQ(odd.size(), 1u);
    EXPECT_EQ(odd[0]["args"]["ptx"], "");
}

TEST(trace_chrome, JsonStringEscaping) {
    auto quote = [](std::string_view s) {
        std::string out;
        append_json_string(out, s);
        return out;
    };
    EXPECT_EQ(quote(""), "\"\"");
    EXPECT_EQ(quote("plain"), "\"plain\"");
    EXPECT_EQ(quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
    EXPECT_EQ(quote("\n\r\t\b\f"), "\"\\n\\r\\t\\b\\f\"");
    EXPECT_EQ(quote(std::string("\x01\x1f\x7f", 3)), "\"\\u0001\\u001f\x7f\"");
    EXPECT_EQ(quote(std::string("nul\0x", 5)), "\"nul\\u0000x\"");
    EXPECT_EQ(quote("ü∑🚀"), "\"ü∑🚀\"") << "valid UTF-8 passes through";
    EXPECT_EQ(quote("a\xff"
                    "b"),
              "\"a\\ufffdb\"");
    EXPECT_EQ(quote("\xe2\x88"), "\"\\ufffd\\ufffd\"") << "truncated sequence";
    EXPECT_EQ(quote("\xc0\xaf"), "\"\\ufffd\\ufffd\"") << "overlong encoding";
    EXPECT_EQ(quote("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"") << "UTF-16 surrogate";
    EXPECT_EQ(quote("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"") << "beyond U+10FFFF";
    // Whatever the bytes, the result parses as JSON.
    std::string all;
    for (int c = 0; c < 256; ++c)
        all.push_back(char(c));
    EXPECT_TRUE(json::accept(quote(all)));
    EXPECT_EQ(json::parse(quote("x\"\\\n\x01ü")).get<std::string>(), "x\"\\\n\x01ü");
}

TEST(trace_chrome, NamesWithQuotesAndNewlinesInMetadata) {
    Trace t = make_tiny_trace();
    t.meta.status_message = "deadlock at \"bar.sync 0\"\nline 6\\7";
    t.meta.variant = std::string("bad \xff utf8");
    const json doc = export_json(t);
    EXPECT_EQ(doc["metadata"]["status_message"], t.meta.status_message);
    EXPECT_EQ(doc["metadata"]["variant"], "bad \xef\xbf\xbd utf8");
}

TEST(trace_chrome, ExportToPath) {
    test::TempDir dir;
    const std::string path = dir.file("t.json");
    export_chrome_json(make_tiny_trace(), path);
    std::ifstream in(path);
    const json doc = json::parse(in);
    EXPECT_EQ(doc["displayTimeUnit"], "ns");
    EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));

    const std::string bad = dir.file("no/dir/t.json");
    try {
        export_chrome_json(make_tiny_trace(), bad);
        FAIL() << "exported";
    } catch (const TraceFileError& e) {
        EXPECT_EQ(std::string(e.what()), bad + ": cannot create " + bad + ".tmp: No such file or directory");
    }
}

} // namespace
} // namespace synclab::trace
