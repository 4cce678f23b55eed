// The app at the lines of inlined __device__ helpers (issue 20), over real runs of two kernels: the
// CUDA samples' reduction whose warpReduce<> races with itself (tests/corpus/kernels/
// reduce_warp_helper.cu: the helper is in the kernel's file) and a kernel whose racy store is in a
// header's helper (tests/cli/data/header_helper.cu). The source view lights the line where the
// access is (the helper's, innermost), or, for a header's line, the kernel's line that calls it,
// never the header's line number in the kernel's file; the finding's words name the calls.
#include "ui/views/callout_view.h"
#include "ui/views/findings_panel.h"
#include "ui/model/source_lines.h"
#include "ui/views/source_view.h"
#include "ui/model/theme.h"

#include "headless_panel.h"

#include "ptx/parser.h"
#include "runner/runner.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace synclab::ui {
namespace {

std::string read(const std::string& relative) {
    std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/" + relative, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

launch::Buffer i32_buffer(const std::string& name, std::vector<int32_t> values) {
    launch::Buffer b;
    b.name = name;
    b.bytes.resize(values.size() * 4);
    std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
    b.type = launch::ElemType::I32;
    return b;
}

std::vector<int32_t> iota(size_t n) {
    std::vector<int32_t> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = int32_t(i);
    return v;
}

// A run of `kernel` of the PTX at `ptx` (its .cu beside it) under the adversarial schedule, as the
// app keeps it.
std::shared_ptr<const RunRecord> run_kernel(const std::string& ptx, const std::string& cu,
                                            const std::string& kernel, uint32_t grid, uint32_t block,
                                            launch::Inputs inputs) {
    static std::map<std::string, std::unique_ptr<ptx::Module>> modules;
    static std::map<std::string, std::string> texts;
    texts[ptx] = read(ptx);
    modules[ptx] = std::make_unique<ptx::Module>(ptx::parse_module(texts[ptx], ptx));
    runner::KernelJob job;
    job.module = modules[ptx].get();
    job.kernel = kernel;
    job.launch.grid = {grid, 1, 1};
    job.launch.block = {block, 1, 1};
    job.make_inputs = [inputs](uint64_t) { return inputs; };
    job.source_name = cu.substr(cu.rfind('/') + 1);
    job.source_text = read(cu);
    job.ptx_text = texts[ptx];
    runner::RunOptions options;
    options.schedule = sim::Schedule::Adversarial;
    auto r = std::make_shared<RunRecord>();
    r->label = kernel;
    r->options = options;
    r->summary = runner::run_job(job, options);
    r->serial = 7;
    return r;
}

std::shared_ptr<const RunRecord> header_run() {
    static const auto record = [] {
        launch::Inputs in;
        in.buffers = {i32_buffer("g_in", iota(64)), i32_buffer("g_out", std::vector<int32_t>(64, 0))};
        in.args = {launch::KernelArg::pointer(0), launch::KernelArg::pointer(1)};
        return run_kernel("tests/cli/data/header_helper.ptx", "tests/cli/data/header_helper.cu",
                          "_Z10shift_leftPKiPi", 1, 64, in);
    }();
    return record;
}

std::shared_ptr<const RunRecord> reduce_run() {
    static const auto record = [] {
        launch::Inputs in;
        in.buffers = {i32_buffer("g_idata", iota(256)), i32_buffer("g_odata", {0, 0})};
        in.args = {launch::KernelArg::pointer(0), launch::KernelArg::pointer(1),
                   launch::KernelArg::scalar(256)};
        return run_kernel("tests/corpus/kernels/reduce_warp_helper.ptx",
                          "tests/corpus/kernels/reduce_warp_helper.cu", "_Z7reduce6ILj64EEvPKiPij", 2, 64,
                          in);
    }();
    return record;
}

// The first race of a record (the verdicts of both kernels: a race on shared memory).
int first_race(const RunRecord& r) {
    const auto& f = r.summary.findings;
    const auto it = std::find_if(
        f.begin(), f.end(), [](const analysis::Finding& x) { return x.kind == analysis::FindingKind::Race; });
    EXPECT_NE(it, f.end()) << r.label << ": no race (" << r.summary.message << ")";
    return it == f.end() ? -1 : int(it - f.begin());
}

std::vector<std::string_view> lines_of(const RunRecord& r) {
    return split_lines(r.summary.trace.meta.source_text);
}

// A header's helper: the finding names line 5 of header_helper.cuh, but header_helper.cu's line 5
// is a comment. The source view lights line 11, the call (`store_tile(...)`), and line 12, the load.
TEST(AppInlined, AHeadersLineLightsTheCallInTheKernelsSource) {
    const auto r = header_run();
    ASSERT_EQ(r->summary.status, trace::RunStatus::Ok) << r->summary.message;
    const int race = first_race(*r);
    ASSERT_GE(race, 0);
    const analysis::Finding& f = r->summary.findings[size_t(race)];
    EXPECT_NE(std::find(f.lines.begin(), f.lines.end(), 5u), f.lines.end())
        << "the store's own line, in the header";
    Selection sel;
    sel.selected_finding = race;
    const SourceMarks m = source_marks(r.get(), sel, true);
    EXPECT_EQ(m.cuda.selected, (std::vector<uint32_t>{11, 12}));
    EXPECT_EQ(m.cuda.by_line.count(5), 0u) << "the header's line number is no line of the kernel's file";
    const auto source = lines_of(*r);
    ASSERT_GE(source.size(), 12u);
    EXPECT_NE(source[10].find("store_tile("), std::string_view::npos) << source[10];
    EXPECT_EQ(finding_cuda_lines(f), (std::vector<uint32_t>{11, 12}));
    EXPECT_NE(lines_text(f).find("5 (header_helper.cuh) \u2190 11"), std::string::npos) << lines_text(f);

    // The words: the callout (every language) and the findings panel's message.
    const std::string en = callout_text(f, r->summary.trace, r->summary.trace.meta.source_text, Language::En);
    EXPECT_NE(en.find("line 5 of header_helper.cuh in `store_tile`, called from line 11"), std::string::npos)
        << en;
    const std::string zh = callout_text(f, r->summary.trace, r->summary.trace.meta.source_text, Language::Zh);
    EXPECT_NE(zh.find("header_helper.cuh 第 5 行（在 `store_tile` 中，由第 11 行调用）"), std::string::npos)
        << zh;
    EXPECT_NE(finding_message(f, r->summary.trace, "", Language::En).find("called from line 11"),
              std::string::npos);
    EXPECT_EQ(memory_name(f, r->summary.trace, r->summary.trace.meta.source_text),
              "s_tile[" + std::to_string(f.address / 4) + "]");

    // Every event of the header's store stands at line 11 where the kernel's file is shown (the
    // timeline's outline, the playhead, a hover).
    const trace::Trace& t = r->summary.trace;
    size_t header_events = 0;
    for (const trace::Event& e : t.events) {
        if (t.sites[e.site].origin.file != "header_helper.cuh") continue;
        ++header_events;
        EXPECT_EQ(t.source_line(e), 5u);
        EXPECT_EQ(t.kernel_file_line(e), 11u);
    }
    EXPECT_GT(header_events, 0u);
}

// A helper of the kernel's own file: the source view lights the helper's lines, where the accesses
// are (warpReduce's 15-20), not the call at line 40; the table and the callout say the call.
TEST(AppInlined, AHelperInTheKernelsFileLightsItsOwnLines) {
    const auto r = reduce_run();
    ASSERT_EQ(r->summary.status, trace::RunStatus::Ok) << r->summary.message;
    const int race = first_race(*r);
    ASSERT_GE(race, 0);
    const analysis::Finding& f = r->summary.findings[size_t(race)];
    Selection sel;
    sel.selected_finding = race;
    const SourceMarks m = source_marks(r.get(), sel, true);
    ASSERT_FALSE(m.cuda.selected.empty());
    const auto source = lines_of(*r);
    for (uint32_t line : m.cuda.selected) {
        EXPECT_GE(line, 15u);
        EXPECT_LE(line, 20u);
        EXPECT_NE(source.at(line - 1).find("sdata[tid] += sdata[tid + "), std::string_view::npos)
            << "line " << line << ": " << source.at(line - 1);
    }
    for (const auto& [line, findings] : m.cuda.by_line)
        EXPECT_NE(line, 40u) << "no finding lights the call: its accesses are in the helper";
    EXPECT_NE(lines_text(f).find(" \u2190 40"), std::string::npos) << lines_text(f);
    const std::string en = callout_text(f, r->summary.trace, r->summary.trace.meta.source_text, Language::En);
    EXPECT_NE(en.find(" in `warpReduce<64u>`, called from line 40"), std::string::npos) << en;
}

// Drawn headless: the source view highlights the selected finding's rows in the race colour, and
// the findings panel draws the record.
TEST(AppInlined, SourceViewAndFindingsPanelDrawTheRun) {
    testing::HeadlessPanel h;
    SourceView source;
    FindingsPanel findings;
    for (const auto& r : {header_run(), reduce_run()}) {
        AppState state;
        state.current = r;
        state.selection.selected_finding = first_race(*r);
        state.selection.finding_lines = analysis::kernel_file_lines(r->summary.findings.at(0));
        for (int i = 0; i < 4; ++i)
            h.frame([&] { source.draw(state); });
        EXPECT_TRUE(testing::HeadlessPanel::drew_colour(theme::kRaceArrow)) << r->label;
        EXPECT_GT(h.frame([&] { findings.draw(state); }), 0) << r->label;
    }
}

} // namespace
} // namespace synclab::ui
