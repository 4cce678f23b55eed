// The output grid's pure part: which elements are wrong, how elements map to cells and rows (and fold
// for large outputs), the caption and hover words, and explaining a clicked cell through the runner's
// real stencil run (the marks the source view and the timeline draw).
#include "ui/views/output_grid.h"
#include "ui/model/source_lines.h"
#include "ui/model/theme.h"

#include "runner/runner.h"
#include "scenario/scenario.h"

#include "headless_panel.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstring>
#include <functional>

namespace synclab::ui {
namespace {

std::vector<uint8_t> floats(const std::vector<float>& values) {
    std::vector<uint8_t> bytes(values.size() * 4);
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

// g_in and g_out of 8 floats; g_out[1] and g_out[6] wrong.
runner::RunSummary small_summary() {
    runner::RunSummary s;
    s.final_buffers = {{"g_in", floats({1, 2, 3, 4, 5, 6, 7, 8})},
                       {"g_out", floats({1, 5, 3, 4, 5, 6, 0, 8})}};
    s.expected_outputs = {{"g_out", launch::ElemType::F32, floats({1, 6, 3, 4, 5, 6, 7, 8})}};
    return s;
}

// [SECTION] Wrong marking

TEST(OutputGrid, MarksTheElementsThatDifferFromTheReference) {
    const std::vector<GridOutput> outputs = grid_outputs(small_summary());
    ASSERT_EQ(outputs.size(), 1u);
    const GridOutput& g = outputs[0];
    EXPECT_EQ(g.name, "g_out");
    EXPECT_EQ(g.buffer, 1u) << "matched to final_buffers by name";
    EXPECT_EQ(g.count, 8u);
    EXPECT_EQ(g.wrong_count, 2u);
    EXPECT_EQ(g.first_wrong, 1u);
    for (uint64_t i = 0; i < 8; ++i)
        EXPECT_EQ(g.is_wrong(i), i == 1 || i == 6) << i;
    EXPECT_FALSE(g.is_wrong(8)) << "past the end";
    EXPECT_TRUE(g.any_wrong(0, 2));
    EXPECT_FALSE(g.any_wrong(2, 6));
    EXPECT_EQ(g.wrong_in(0, 8), 2u);
    EXPECT_EQ(g.wrong_in(2, 100), 1u);
}

TEST(OutputGrid, AMissingOrShortOutputIsWrongWhereItHasNoValue) {
    runner::RunSummary s = small_summary();
    s.final_buffers[1].bytes.resize(4 * 5); // elements 5..7 missing
    std::vector<GridOutput> outputs = grid_outputs(s);
    EXPECT_EQ(outputs[0].wrong_count, 4u); // 1, 5, 6, 7
    EXPECT_TRUE(outputs[0].is_wrong(5));
    s.final_buffers.pop_back();
    outputs = grid_outputs(s);
    EXPECT_EQ(outputs[0].buffer, SIZE_MAX);
    EXPECT_EQ(outputs[0].wrong_count, 8u);
}

TEST(OutputGrid, NothingCheckedGivesNoOutputs) {
    runner::RunSummary s = small_summary();
    s.expected_outputs.clear();
    EXPECT_TRUE(grid_outputs(s).empty());
}

TEST(OutputGrid, WrongBitsAcrossWordEdges) {
    runner::RunSummary s;
    std::vector<float> got(200, 1.0f), want(200, 1.0f);
    for (size_t i : {63, 64, 127, 199})
        got[i] = 2.0f;
    s.final_buffers = {{"g_out", floats(got)}};
    s.expected_outputs = {{"g_out", launch::ElemType::F32, floats(want)}};
    const GridOutput g = grid_outputs(s)[0];
    EXPECT_EQ(g.wrong_count, 4u);
    EXPECT_EQ(g.wrong_in(0, 200), 4u);
    EXPECT_EQ(g.wrong_in(63, 65), 2u);
    EXPECT_TRUE(g.any_wrong(65, 128));
    EXPECT_FALSE(g.any_wrong(65, 127));
    EXPECT_FALSE(g.any_wrong(128, 199));
    EXPECT_TRUE(g.any_wrong(128, 200));
}

// [SECTION] Cell mapping and aggregation

TEST(OutputGrid, SixtyFourPerRowWhereTheWidthAllowsElseAWarp) {
    GridLayout l = grid_layout(16384, 64 * 6.0f, 4, 14);
    EXPECT_EQ(l.columns, 64u);
    EXPECT_EQ(l.pitch, 6.0f);
    EXPECT_EQ(l.per_cell, 1u);
    EXPECT_EQ(l.rows, 256u);
    EXPECT_EQ(l.row_of(64), 1u);
    EXPECT_EQ(l.row_of(63), 0u);

    l = grid_layout(16384, 200, 4, 14); // 3 px at 64 a row: a warp a row instead
    EXPECT_EQ(l.columns, 32u);
    EXPECT_EQ(l.pitch, 6.0f);
    EXPECT_EQ(l.rows, 512u);

    l = grid_layout(16384, 2000, 4, 14); // wide: the cells stop growing
    EXPECT_EQ(l.pitch, 14.0f);
}

TEST(OutputGrid, AMillionElementsFoldIntoAtMostMaxRows) {
    const uint64_t n = uint64_t(1) << 20;
    GridLayout l = grid_layout(n, 64 * 5.0f, 4, 14);
    EXPECT_EQ(l.per_cell, 8u);
    EXPECT_EQ(l.rows, kMaxGridRows);
    EXPECT_EQ(l.cells, n / 8);
    EXPECT_EQ(l.first(3), 24u);
    EXPECT_EQ(l.last(3, n), 32u);
    EXPECT_EQ(l.cell_of(31), 3u);

    l = grid_layout(n, 64 * 5.0f, 4, 14, 1); // zoomed out once
    EXPECT_EQ(l.per_cell, 16u);
    EXPECT_EQ(l.rows, kMaxGridRows / 2);

    l = grid_layout(1000, 64 * 5.0f, 4, 14, 30); // zoom out stops at one row
    EXPECT_EQ(l.rows, 1u);
    EXPECT_GE(l.per_row(), 1000u);
    EXPECT_EQ(l.last(l.cells - 1, 1000), 1000u) << "the last cell is clipped to the output";
}

// A warp's sums (32 elements) in a panel 384 px wide: 32 cells of 12 px, not 32 of 6 px on half a
// row of 64 (seen in warp_reduce: specks in an empty panel).
TEST(OutputGrid, SmallOutputsGetAWarpPerRowAndBiggerCells) {
    GridLayout l = grid_layout(32, 64 * 6.0f, 4, 14);
    EXPECT_EQ(l.columns, 32u);
    EXPECT_EQ(l.pitch, 12.0f);
    EXPECT_EQ(l.rows, 1u);
    l = grid_layout(kSmallOutput, 64 * 6.0f, 4, 14);
    EXPECT_EQ(l.columns, 32u);
    EXPECT_EQ(l.rows, 8u);
    l = grid_layout(kSmallOutput + 1, 64 * 6.0f, 4, 14); // past it: 64 a row where they fit
    EXPECT_EQ(l.columns, 64u);
    EXPECT_EQ(l.pitch, 6.0f);
}

TEST(OutputGrid, CellUnderAPoint) {
    const GridLayout l = grid_layout(300, 64 * 6.0f, 4, 14); // 4 rows of 64 + 44 cells
    ASSERT_EQ(l.pitch, 6.0f);
    EXPECT_EQ(cell_at(l, 0, 0), 0u);
    EXPECT_EQ(cell_at(l, 5.9f, 5.9f), 0u);
    EXPECT_EQ(cell_at(l, 6.0f, 0), 1u);
    EXPECT_EQ(cell_at(l, 6.0f * 63 + 1, 0), 63u);
    EXPECT_EQ(cell_at(l, 1, 7), 64u);
    EXPECT_EQ(cell_at(l, 6.0f * 43 + 1, 6 * 4 + 1), 299u);
    EXPECT_EQ(cell_at(l, 6.0f * 44 + 1, 6 * 4 + 1), std::nullopt) << "past the last element";
    EXPECT_EQ(cell_at(l, 6.0f * 64 + 1, 0), std::nullopt) << "right of the grid";
    EXPECT_EQ(cell_at(l, 1, 6 * 5 + 1), std::nullopt) << "under the grid";
    EXPECT_EQ(cell_at(l, -1, 0), std::nullopt);
}

// [SECTION] Words

TEST(OutputGrid, CaptionSaysHowManyAreWrongAndTheRowWidth) {
    runner::RunSummary s;
    std::vector<float> got(16384, 1.0f), want(16384, 1.0f);
    for (size_t i = 0; i < 331; ++i)
        got[i * 40] = 0.0f;
    s.final_buffers = {{"g_out", floats(got)}};
    s.expected_outputs = {{"g_out", launch::ElemType::F32, floats(want)}};
    const GridOutput g = grid_outputs(s)[0];
    EXPECT_EQ(grid_caption(g, grid_layout(g.count, 400, 4, 14), Language::En),
              "g_out: 16,384 elements, 331 wrong \u00b7 64 per row");
    EXPECT_EQ(grid_caption(g, grid_layout(g.count, 400, 4, 14), Language::Zh),
              "g_out\uff1a16,384 个元素\uff0c331 个错误 \u00b7 每行 64 个");
    EXPECT_EQ(grid_caption(g, grid_layout(g.count, 400, 4, 14, 2), Language::En),
              "g_out: 16,384 elements, 331 wrong \u00b7 64 cells per row, 4 elements per cell");
    // One row: no row width to speak of.
    const GridOutput small = grid_outputs(small_summary())[0];
    EXPECT_EQ(grid_caption(small, grid_layout(small.count, 400, 4, 14), Language::En),
              "g_out: 8 elements, 2 wrong");
}

TEST(OutputGrid, HoverShowsIndexGotAndExpectedByType) {
    const runner::RunSummary s = small_summary();
    const GridOutput g = grid_outputs(s)[0];
    const GridLayout l = grid_layout(g.count, 400, 4, 14);
    EXPECT_EQ(cell_hover_text(s, g, l, 1, Language::En), "g_out[1]: got 5.0, expected 6.0 \u00b7 wrong");
    EXPECT_EQ(cell_hover_text(s, g, l, 2, Language::En), "g_out[2]: got 3.0, expected 3.0 \u00b7 right");
    EXPECT_EQ(cell_hover_text(s, g, l, 1, Language::Zh), "g_out[1]\uff1a实际 5.0\uff0c应为 6.0 \u00b7 错误");
    EXPECT_EQ(cell_hover_text(s, g, l, 8, Language::En), "") << "no such cell";
    // Folded: how many of the cell's elements are wrong, and the first of them.
    GridLayout folded; // 4 elements a cell (a small output never folds by itself)
    folded.per_cell = 4;
    folded.cells = 2;
    folded.rows = 1;
    EXPECT_EQ(cell_hover_text(s, g, folded, 1, Language::En),
              "g_out[4..7]: 1 of 4 wrong; first g_out[6]: got 0.0, expected 7.0");
    EXPECT_EQ(cell_hover_text(s, g, folded, 1, Language::Zh),
              "g_out[4..7]\uff1a4 个中 1 个错误；第一个 g_out[6]\uff1a实际 0.0\uff0c应为 7.0");
    // A missing element says so.
    runner::RunSummary short_run = s;
    short_run.final_buffers[1].bytes.resize(4);
    const GridOutput gs = grid_outputs(short_run)[0];
    EXPECT_EQ(cell_hover_text(short_run, gs, l, 3, Language::En),
              "g_out[3]: got (missing), expected 4.0 \u00b7 wrong");
}

TEST(OutputGrid, ElementsFormattedByType) {
    const int32_t i = -3;
    std::vector<uint8_t> b(4);
    std::memcpy(b.data(), &i, 4);
    EXPECT_EQ(element_text(b, launch::ElemType::I32, 0), "-3");
    EXPECT_EQ(element_text(b, launch::ElemType::U32, 0), "4294967293");
    EXPECT_EQ(element_text(b, launch::ElemType::U32, 1), "") << "past the end";
    const uint64_t u = (uint64_t(1) << 40) + 5;
    std::vector<uint8_t> b8(8);
    std::memcpy(b8.data(), &u, 8);
    EXPECT_EQ(element_text(b8, launch::ElemType::U64, 0), "1099511627781") << "the whole 64 bits";
    const double d = 2.5;
    std::memcpy(b8.data(), &d, 8);
    EXPECT_EQ(element_text(b8, launch::ElemType::F64, 0), "2.5");
    EXPECT_EQ(element_text(floats({6.0f}), launch::ElemType::F32, 0), "6.0");
}

TEST(OutputGrid, ElementNamesRoundTrip) {
    GridOutput g;
    g.name = "g_out";
    EXPECT_EQ(element_name(g, 32), "g_out[32]");
    std::string name;
    uint64_t index = 0;
    ASSERT_TRUE(parse_element_name("g_out[32]", name, index));
    EXPECT_EQ(name, "g_out");
    EXPECT_EQ(index, 32u);
    for (const char* bad : {"", "g_out", "g_out[]", "[3]", "g_out[3", "g_out[x]", "g_out[3]x"})
        EXPECT_FALSE(parse_element_name(bad, name, index)) << bad;
}

// [SECTION] Explaining a cell (the runner's real stencil run)

TEST(OutputGrid, ClickingAWrongStencilOutputExplainsItsStaleNeighbourLoad) {
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    runner::RunOptions options;
    options.schedule = sim::Schedule::Random;
    options.seed = 1;
    RunRecord record;
    record.serial = 7;
    record.summary = runner::run_scenario(s, *s.find_variant("missing_barrier"), options);
    const std::vector<GridOutput> outputs = grid_outputs(record.summary);
    ASSERT_EQ(outputs.size(), 1u);
    const GridOutput& g = outputs[0];
    EXPECT_EQ(g.name, "g_out");
    EXPECT_EQ(g.wrong_count, record.summary.wrong_outputs)
        << "one repetition: the grid agrees with the check";
    ASSERT_NE(g.first_wrong, UINT64_MAX);

    const ProvenanceMarks m = explain_element(record, g, g.first_wrong, Language::En);
    // The same explanation in Chinese: built from ui_text's words, no English sentence left in it.
    const ProvenanceMarks zh = explain_element(record, g, g.first_wrong, Language::Zh);
    EXPECT_NE(zh.text.find("旧值"), std::string::npos) << zh.text;
    EXPECT_EQ(zh.text.find("stored"), std::string::npos) << zh.text;
    EXPECT_EQ(zh.lines, m.lines);
    // The app's English patterns are the analysis library's own: the same paragraph as the CLI's.
    const trace::Trace& trace = record.summary.trace;
    const uint64_t address = record.summary.buffer_addresses[g.buffer] + g.first_wrong * 4;
    EXPECT_EQ(m.text,
              analysis::describe(trace, analysis::explain_output(trace, trace::Space::Global, address)));
    const trace::Trace& t = record.summary.trace;
    EXPECT_EQ(m.serial, 7u);
    EXPECT_EQ(m.output, "g_out[" + std::to_string(g.first_wrong) + "]");
    ASSERT_LT(m.final_store, t.events.size());
    EXPECT_EQ(t.source_line(t.events[m.final_store]), 48u) << "the store of g_out";
    ASSERT_FALSE(m.stale_loads.empty()) << m.text;
    ASSERT_EQ(m.racing_stores.size(), m.stale_loads.size());
    for (size_t i = 0; i < m.stale_loads.size(); ++i) {
        const uint32_t load_line = t.source_line(t.events[m.stale_loads[i]]);
        EXPECT_TRUE(load_line == 45 || load_line == 46) << load_line << ": " << m.text;
        EXPECT_EQ(t.source_line(t.events[m.racing_stores[i]]), 42u) << m.text;
    }
    EXPECT_TRUE(std::is_sorted(m.lines.begin(), m.lines.end()));
    EXPECT_NE(std::find(m.lines.begin(), m.lines.end(), 42u), m.lines.end());
    EXPECT_NE(std::find(m.lines.begin(), m.lines.end(), 48u), m.lines.end());
    EXPECT_NE(m.text.find("line 42"), std::string::npos) << m.text;

    // The source view lights exactly these lines for this record, and none for another one.
    AppState state;
    state.provenance = m;
    const auto shared = std::make_shared<RunRecord>(record);
    SourceMarks marks = source_marks(shared.get(), state.selection, true, nullptr, &state.provenance);
    EXPECT_EQ(marks.cuda.provenance, m.lines);
    EXPECT_FALSE(marks.ptx.provenance.empty());
    EXPECT_TRUE(marks.cuda.selected.empty()) << "provenance is not the finding highlight";
    shared->serial = 8;
    marks = source_marks(shared.get(), state.selection, true, nullptr, &state.provenance);
    EXPECT_TRUE(marks.cuda.provenance.empty());
}

TEST(OutputGrid, ARightStencilOutputHasNoStaleLoad) {
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    runner::RunOptions options;
    options.seed = 1;
    RunRecord record;
    record.serial = 1;
    record.summary = runner::run_scenario(s, *s.find_variant("correct"), options);
    const GridOutput g = grid_outputs(record.summary).at(0);
    EXPECT_EQ(g.wrong_count, 0u);
    const ProvenanceMarks m = explain_element(record, g, 31, Language::En);
    EXPECT_LT(m.final_store, record.summary.trace.events.size());
    EXPECT_TRUE(m.stale_loads.empty()) << m.text;
}

TEST(OutputGrid, WithoutBufferAddressesItSaysWhy) {
    RunRecord record;
    record.serial = 3;
    record.summary = small_summary(); // no trace, no addresses (like a GPU run)
    const GridOutput g = grid_outputs(record.summary)[0];
    ProvenanceMarks m = explain_element(record, g, 1, Language::En);
    EXPECT_EQ(m.output, "g_out[1]");
    EXPECT_EQ(m.final_store, UINT32_MAX);
    EXPECT_NE(m.text.find("no buffer addresses"), std::string::npos) << m.text;
    m = explain_element(record, g, 99, Language::En);
    EXPECT_NE(m.text.find("outside"), std::string::npos) << m.text;
}

// [SECTION] The view, headless (an ImGui context without a window: frames render to draw data only)

class Headless : public testing::HeadlessPanel {
  public:
    Headless() : HeadlessPanel({420, 300}, {800, 600}) {}
    // The centre of the first solid rectangle drawn in `colour` (four consecutive vertices).
    static std::optional<ImVec2> first_rect_centre(uint32_t colour) {
        const ImDrawData* data = ImGui::GetDrawData();
        for (int l = 0; l < data->CmdListsCount; ++l) {
            const ImVector<ImDrawVert>& v = data->CmdLists[l]->VtxBuffer;
            for (int i = 0; i + 3 < v.Size; ++i)
                if (v[i].col == colour && v[i + 2].col == colour)
                    return ImVec2((v[i].pos.x + v[i + 2].pos.x) * 0.5f, (v[i].pos.y + v[i + 2].pos.y) * 0.5f);
        }
        return std::nullopt;
    }
};

// A million elements: only the cells in view are drawn (folded 8 to a cell), so a frame's vertices
// stay those of a few thousand rectangles whatever the output's size.
TEST(OutputGridView, AMillionElementsDrawOnlyWhatIsInView) {
    const size_t n = size_t(1) << 20;
    std::vector<float> got(n, 1.0f), want(n, 1.0f);
    got[n - 1] = 0.0f;
    AppState state;
    auto record = std::make_shared<RunRecord>();
    record->serial = 1;
    record->summary.final_buffers = {{"g_out", floats(got)}};
    record->summary.expected_outputs = {{"g_out", launch::ElemType::F32, floats(want)}};
    state.current = record;
    OutputGrid grid;
    Headless h;
    int vertices = 0;
    for (int i = 0; i < 4; ++i)
        vertices = h.frame([&] { grid.draw(state); });
    EXPECT_LT(vertices, 40000) << "cells out of view are not drawn";
    EXPECT_TRUE(h.first_rect_centre(theme::kWrongOutput).has_value())
        << "scrolled to the only wrong element, at the very end";
}

// A click on a red cell explains it into AppState::provenance (the path the source view reads).
TEST(OutputGridView, ClickingARedCellFillsProvenance) {
    const scenario::Scenario& s = *scenario::find_scenario("stencil");
    runner::RunOptions options;
    options.seed = 1;
    auto record = std::make_shared<RunRecord>();
    record->serial = 5;
    record->summary = runner::run_scenario(s, *s.find_variant("missing_barrier"), options);
    AppState state;
    state.current = record;
    OutputGrid grid;
    Headless h;
    for (int i = 0; i < 4; ++i)
        h.frame([&] { grid.draw(state); });
    const std::optional<ImVec2> red = h.first_rect_centre(theme::kWrongOutput);
    ASSERT_TRUE(red.has_value());
    h.frame([&] { grid.draw(state); }, *red, false);
    h.frame([&] { grid.draw(state); }, *red, true);
    h.frame([&] { grid.draw(state); }, *red, false);
    ASSERT_TRUE(state.provenance.on(5)) << "a click explains the cell";
    std::string name;
    uint64_t index = 0;
    ASSERT_TRUE(parse_element_name(state.provenance.output, name, index));
    EXPECT_TRUE(grid_outputs(record->summary)[0].is_wrong(index)) << state.provenance.output;
    EXPECT_FALSE(state.provenance.stale_loads.empty()) << state.provenance.text;
}

} // namespace
} // namespace synclab::ui
