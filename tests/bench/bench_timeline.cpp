// Benchmarks of the timeline: CPU time of one frame over synthetic traces of 100 k, 1 M and 10 M
// events, (a) preprocess() alone and (b) a full ImGui frame (NewFrame, a window, TimelineView::draw,
// Render) with no GPU backend, each zoomed to the whole trace (items far below a pixel: the cost
// must not grow with the event count) and to 1 % of it. Figures only; nothing asserts on time.
//
//   bench_timeline --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// block_rows: 0 = every block open (~44 warp rows on screen), 1 = blocks closed (~42 block rows, each
// holding 1/64 of the events: the densest rows). Counters: items (event marks drawn, folded ones
// included), rows (visible rows), vertices (ImGui's, full frame).
#include "ui/model/timeline_model.h"
#include "ui/views/timeline_view.h"

#include <benchmark/benchmark.h>
#include <imgui.h>

#include <memory>
#include <random>

namespace {

using namespace synclab;
using namespace synclab::ui;
using trace::EventKind;

// [SECTION] Synthetic trace -----------------------------------------------------------------------------

constexpr uint32_t kBlocks = 64, kWarps = 8, kLanes = 32;
constexpr uint32_t kMaxPhases = 8; // barrier phases per block (fewer when events are scarce)
constexpr uint32_t kResident = 16; // blocks running at once, as in the simulator

// Shaped like a simulator run: 16 blocks resident at a time (the next starts when one finishes),
// their warps issuing in a seeded irregular round-robin, each instruction 32 lane events at one tick
// (the SIMT fast path); every warp meets its block's barrier `phases` times, the block's threads
// leaving together once its 8 warps have arrived; then each lane exits. Events are in time order.
trace::Trace make_trace(size_t target) {
    trace::Trace t;
    t.meta.backend = "sim";
    t.meta.grid = {kBlocks, 1, 1};
    t.meta.block = {kWarps * kLanes, 1, 1};
    for (uint32_t b = 0; b < kBlocks; ++b) {
        for (uint32_t i = 0; i < kWarps * kLanes; ++i) {
            trace::ThreadInfo info;
            info.block = b;
            info.thread_in_block = i;
            info.warp = uint16_t(i / kLanes);
            info.lane = uint8_t(i % kLanes);
            t.threads.push_back(info);
        }
    }
    const char* texts[] = {"ld.shared.f32 %f1, [%r4]",
                           "st.shared.f32 [%r4], %f2",
                           "atom.shared.add.u32 %r5, [%r6], 1",
                           "membar.cta",
                           "bar.sync 0",
                           "ret",
                           "shfl.sync.bfly.b32 %r7, %r6, 1, 31, -1"};
    for (uint32_t i = 0; i < 7; ++i)
        t.sites.push_back({100 + i, 10 + i, texts[i]});
    // Per thread: `work` accesses, 2 events per phase, 1 exit.
    const size_t per_thread = std::max<size_t>(2, target / t.threads.size());
    const uint32_t phases = uint32_t(std::min<size_t>(kMaxPhases, (per_thread - 1) / 4));
    const size_t work = per_thread - 1 - 2 * phases;
    const size_t phase_every = work / (phases + 1) + 1;
    t.events.reserve(per_thread * t.threads.size());

    const size_t warps = size_t(kBlocks) * kWarps;
    std::vector<uint32_t> issued(warps, 0), phase(warps, 0);
    std::vector<uint8_t> waiting(warps, 0), done(warps, 0);
    std::vector<uint32_t> arrived(kBlocks, 0), exited(kBlocks, 0);
    std::vector<uint32_t> resident;
    uint32_t next_block = 0;
    while (resident.size() < kResident && next_block < kBlocks)
        resident.push_back(next_block++);
    std::mt19937 rng(42);
    uint64_t tick = 0;
    const uint8_t shared4 = trace::make_flags(trace::Space::Shared, 4);
    auto emit = [&](size_t warp, EventKind kind, uint16_t site, uint64_t address, uint32_t value,
                    uint8_t flags) {
        for (uint32_t lane = 0; lane < kLanes; ++lane) {
            trace::Event e;
            e.time = tick;
            e.thread = uint32_t(warp * kLanes + lane);
            e.kind = kind;
            e.site = site;
            e.address =
                kind == EventKind::BarrierArrive || kind == EventKind::BarrierLeave ? 0 : address + 4 * lane;
            if (kind == EventKind::WarpCollective) e.address = uint64_t(lane ^ 1) << 32 | 0xffffffffu;
            e.value = value;
            e.flags = flags;
            t.events.push_back(e);
        }
    };
    while (!resident.empty()) {
        for (size_t k = 0; k < resident.size(); ++k) {
            const uint32_t block = resident[k];
            for (size_t w = size_t(block) * kWarps; w < size_t(block + 1) * kWarps; ++w) {
                if (waiting[w] || done[w] || rng() % 4 == 0) continue;
                ++tick;
                if (issued[w] == work && phase[w] == phases) {
                    emit(w, EventKind::Exit, 5, 0, 0, 0);
                    done[w] = 1;
                    ++exited[block];
                    continue;
                }
                if (phase[w] < phases &&
                    (issued[w] == work ||
                     (issued[w] > 0 && issued[w] % phase_every == 0 && issued[w] / phase_every > phase[w]))) {
                    emit(w, EventKind::BarrierArrive, 4, 0, phase[w], 0);
                    waiting[w] = 1;
                    if (++arrived[block] == kWarps) {
                        ++tick;
                        for (size_t v = size_t(block) * kWarps; v < size_t(block + 1) * kWarps; ++v) {
                            emit(v, EventKind::BarrierLeave, 4, 0, phase[v], 0);
                            waiting[v] = 0;
                            ++phase[v];
                        }
                        arrived[block] = 0;
                    }
                    continue;
                }
                ++issued[w];
                // One instruction in ten a shuffle (warp collectives: one mark per warp execution).
                const uint32_t r = rng() % 20;
                const EventKind kind = r < 11   ? EventKind::Load
                                       : r < 16 ? EventKind::Store
                                       : r < 17 ? EventKind::Atomic
                                       : r < 18 ? EventKind::Fence
                                                : EventKind::WarpCollective;
                const uint16_t site = kind == EventKind::Load     ? 0
                                      : kind == EventKind::Store  ? 1
                                      : kind == EventKind::Atomic ? 2
                                      : kind == EventKind::Fence  ? 3
                                                                  : 6;
                const uint8_t flags = kind == EventKind::Fence            ? 0
                                      : kind == EventKind::WarpCollective ? uint8_t(trace::Collective::Shfl)
                                                                          : shared4;
                emit(w, kind, site, (issued[w] % 64) * 128, uint32_t(rng()), flags);
            }
        }
        for (size_t k = 0; k < resident.size();) {
            if (exited[resident[k]] == kWarps) {
                resident[k] = resident.back();
                resident.pop_back();
                if (next_block < kBlocks) resident.push_back(next_block++);
            } else {
                ++k;
            }
        }
    }
    return t;
}

// A record with one race finding between warps 0 and 1 of block 0 (so an arrow is drawn).
std::shared_ptr<RunRecord> make_record(size_t events) {
    auto record = std::make_shared<RunRecord>();
    record->serial = events;
    record->label = "bench";
    record->summary.trace = make_trace(events);
    const trace::Trace& t = record->summary.trace;
    analysis::Finding f;
    f.kind = analysis::FindingKind::Race;
    f.hazard = analysis::Hazard::RAW;
    f.lines = {11, 10};
    f.sites = {1, 0};
    f.threads = {3, 35};
    for (const trace::Event& e : t.events) {
        if (e.thread == 3 && e.kind == EventKind::Store) {
            f.address = e.address; // thread 35 (same lane, next warp) loads it too
            break;
        }
    }
    f.message = "bench race";
    record->summary.findings.push_back(f);
    return record;
}

// One data set at a time (10 M events hold ~450 MB with the index).
struct Data {
    size_t events = 0;
    std::shared_ptr<RunRecord> record;
    std::unique_ptr<TimelineIndex> index;
    TimelineLayout layouts[2]; // [0]: every block open (warp rows), [1]: blocks closed (block rows)
};

Data& data(size_t events) {
    static Data d;
    if (d.events != events) {
        d.index.reset();
        d.record.reset();
        d.record = make_record(events);
        d.index = std::make_unique<TimelineIndex>(d.record->summary.trace);
        TimelineExpansion x = TimelineExpansion::initial(*d.index);
        std::fill(x.blocks.begin(), x.blocks.end(), 1);
        d.layouts[0] = layout_rows(*d.index, x, RowMetrics{19, 17, 14, 1});
        std::fill(x.blocks.begin(), x.blocks.end(), 0);
        d.layouts[1] = layout_rows(*d.index, x, RowMetrics{19, 17, 14, 1});
        d.events = events;
    }
    return d;
}

// The whole trace, or `percent` of it around 1/8 of the way in, where the first batch of resident
// blocks (the rows at the top of the view) is busy.
TimeRange zoomed(const TimelineIndex& index, int percent) {
    const TimeRange fit = fit_range(index);
    if (percent >= 100) return fit;
    const double centre = fit.t0 + fit.length() / 8, half = fit.length() * percent / 200.0;
    return {centre - half, centre + half};
}

// [SECTION] Benchmarks ---------------------------------------------------------------------------------

// (a) preprocess only: a 1450 px time axis, 800 px of rows.
void BM_Preprocess(benchmark::State& state) {
    Data& d = data(size_t(state.range(0)));
    Viewport v;
    v.range = zoomed(*d.index, int(state.range(1)));
    v.width = 1450;
    v.y0 = 0;
    v.y1 = 800;
    TimelineFrame frame;
    for (auto _ : state) {
        preprocess(*d.index, d.layouts[state.range(2)], v, frame);
        benchmark::DoNotOptimize(frame.events.data());
    }
    state.counters["items"] = double(frame.events.size());
    state.counters["collectives"] = double(frame.collectives.size());
    state.counters["rows"] = double(frame.last_row - frame.first_row);
    state.counters["events"] = double(d.record->summary.trace.events.size());
}

// (b) a full ImGui frame with the timeline filling a 1600 x 900 display, the mouse over it.
void BM_Frame(benchmark::State& state) {
    Data& d = data(size_t(state.range(0)));
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = {1600, 900};
    io.DeltaTime = 1.f / 60;
    io.IniFilename = nullptr;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    AppState app;
    TimelineView view;
    TimelineCamera camera;
    auto frame = [&] {
        io.MousePos = {800, 450};
        ImGui::NewFrame();
        ImGui::SetNextWindowPos({0, 0});
        ImGui::SetNextWindowSize(io.DisplaySize);
        ImGui::Begin("Timeline", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
        view.draw(app, *d.record, camera, "timeline", {0, 0});
        ImGui::End();
        ImGui::Render();
    };
    frame(); // builds the view's index (once per trace, not per frame)
    TimelineExpansion& rows = view.edit_expansion();
    std::fill(rows.blocks.begin(), rows.blocks.end(), state.range(2) == 0 ? 1 : 0);
    const TimeRange range = zoomed(*view.index(), int(state.range(1)));
    camera.fit_requested = false;
    camera.t0 = range.t0;
    camera.t1 = range.t1;
    frame();
    frame();
    for (auto _ : state)
        frame();
    state.counters["items"] = double(view.frame().events.size());
    state.counters["collectives"] = double(view.frame().collectives.size());
    state.counters["rows"] = double(view.frame().last_row - view.frame().first_row);
    state.counters["vertices"] = double(ImGui::GetDrawData()->TotalVtxCount);
    ImGui::DestroyContext();
}

// Building the index (once per trace, when a run is first shown): not per frame, reported for scale.
void BM_BuildIndex(benchmark::State& state) {
    Data& d = data(size_t(state.range(0)));
    for (auto _ : state) {
        TimelineIndex index(d.record->summary.trace);
        benchmark::DoNotOptimize(index.time_end());
    }
}

void sizes(benchmark::internal::Benchmark* b) {
    for (int64_t events : {100'000, 1'000'000, 10'000'000})
        for (int64_t percent : {100, 1})
            for (int64_t rows : {0, 1})
                b->Args({events, percent, rows});
    b->ArgNames({"events", "zoom_pct", "block_rows"})->Unit(benchmark::kMillisecond);
}

} // namespace

// Each size's data set is built once per benchmark family (sizes run in order, repetitions together).
BENCHMARK(BM_Preprocess)->Apply(sizes);
BENCHMARK(BM_Frame)->Apply(sizes);
BENCHMARK(BM_BuildIndex)
    ->Arg(100'000)
    ->Arg(1'000'000)
    ->Arg(10'000'000)
    ->ArgName("events")
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
