// The catalog's structure: the built-in lessons of assets/lessons/ in the order of its LESSONS file,
// kernels present in the embedded CUDA and PTX, kernel parameters that match the arguments
// make_inputs builds, expectations that make sense, lesson texts in both languages.
#include "scenario/embedded.h"
#include "scenario/lesson.h"
#include "scenario/scenario.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

namespace synclab::scenario {
namespace {

using analysis::FindingKind;
using Kinds = std::vector<FindingKind>;
const Kinds kAll = {FindingKind::Race,       FindingKind::BarrierDivergence, FindingKind::LostUpdate,
                    FindingKind::Deadlock,   FindingKind::StaleRead,         FindingKind::Contention,
                    FindingKind::OutOfBounds};
// The correctness findings: a clean variant must not have any of them (contention, a performance
// finding, is the lead's to add to the atomics lessons' expectations). out_of_bounds is every
// variant's without being listed (scenario/lesson.cpp).
const Kinds kCorrectness = {FindingKind::Race,     FindingKind::BarrierDivergence, FindingKind::LostUpdate,
                            FindingKind::Deadlock, FindingKind::StaleRead,         FindingKind::OutOfBounds};
const std::set<std::string> kTopics = {"barriers", "warps", "fences", "atomics"};

std::string read_source_file(const std::string& relative) {
    std::ifstream in(std::string(SYNCLAB_SOURCE_DIR) + "/" + relative, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Decodes UTF-8 and reports whether any code point is a CJK ideograph.
bool has_cjk(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        uint32_t cp = 0;
        size_t len = 1;
        if (c < 0x80) {
            cp = c;
        } else if ((c & 0xe0) == 0xc0) {
            cp = c & 0x1f, len = 2;
        } else if ((c & 0xf0) == 0xe0) {
            cp = c & 0x0f, len = 3;
        } else {
            cp = c & 0x07, len = 4;
        }
        for (size_t k = 1; k < len && i + k < text.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3f);
        if ((cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf)) return true;
        i += len;
    }
    return false;
}

bool valid_utf8(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        size_t len = c < 0x80             ? 1
                     : (c & 0xe0) == 0xc0 ? 2
                     : (c & 0xf0) == 0xe0 ? 3
                     : (c & 0xf8) == 0xf0 ? 4
                                          : 0;
        if (len == 0 || i + len > text.size()) return false;
        for (size_t k = 1; k < len; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return false;
        i += len;
    }
    return true;
}

void expect_lesson(const LessonText& text, bool chinese, const std::string& where) {
    const std::pair<const char*, const std::string*> fields[] = {{"title", &text.title},
                                                                 {"shows", &text.shows},
                                                                 {"predict", &text.predict},
                                                                 {"look_at", &text.look_at},
                                                                 {"fix", &text.fix}};
    for (const auto& [name, value] : fields) {
        SCOPED_TRACE(where + (chinese ? " zh." : " en.") + name);
        EXPECT_FALSE(value->empty());
        EXPECT_TRUE(valid_utf8(*value));
        EXPECT_EQ(has_cjk(*value), chinese) << *value;
        EXPECT_EQ(value->find('\n'), std::string::npos) << "one paragraph per field: " << *value;
    }
}

// The text of `.entry NAME(` ... `)` in the PTX, or "" when there is no such entry.
std::string entry_params(std::string_view ptx, const std::string& kernel) {
    const std::string head = ".entry " + kernel + "(";
    const size_t at = ptx.find(head);
    if (at == std::string_view::npos) return {};
    const size_t end = ptx.find(')', at);
    return std::string(ptx.substr(at + head.size(), end - at - head.size()));
}

std::vector<std::string> param_types(const std::string& params) {
    std::vector<std::string> types;
    for (size_t at = params.find(".param"); at != std::string::npos; at = params.find(".param", at + 1)) {
        const size_t type = params.find('.', at + 1);
        types.push_back(params.substr(type, params.find_first_of(" \t", type) - type));
    }
    return types;
}

TEST(scenario_catalog, HasTheLessonsInOrder) {
    std::vector<std::string> ids;
    for (const Scenario& s : catalog())
        ids.push_back(s.id);
    EXPECT_EQ(ids, (std::vector<std::string>{"stencil", "divergent_barrier", "loop_barrier", "lost_update",
                                             "message_passing", "last_block_reduction", "fence_scope",
                                             "atomic_counter", "histogram", "cas_loop", "atomic_ops",
                                             "atomic_scope", "syncthreads_predicates", "warp_neighbour",
                                             "warp_reduce", "cg_tiles", "grid_sync"}));
}

// The catalog's order is the LESSONS file's, and every lesson file embedded is the one in the tree.
TEST(scenario_catalog, BuiltFromTheLessonFolders) {
    const std::string list = read_source_file("assets/lessons/LESSONS");
    ASSERT_FALSE(list.empty());
    std::vector<std::string> ids;
    for (const Scenario& s : catalog())
        ids.push_back(s.id);
    EXPECT_EQ(parse_lesson_list(list, "LESSONS"), ids);
    EXPECT_EQ(embedded_file("lessons/LESSONS"), list);
    for (const Scenario& s : catalog()) {
        SCOPED_TRACE(s.id);
        EXPECT_EQ(s.lesson_file, "assets/lessons/" + s.id + "/lesson.toml");
        for (const char* file : {"lesson.toml", "en.md", "zh.md"})
            EXPECT_EQ(embedded_file("lessons/" + s.id + "/" + file),
                      read_source_file("assets/lessons/" + s.id + "/" + file))
                << file << ": the build embeds a stale copy";
        ASSERT_NE(s.module, nullptr);
        EXPECT_EQ(&s.ptx_module(), s.module.get());
    }
}

// Each built-in lesson again, built from the files in the tree (not the embedded copies): the same
// lesson, so the loader that a teacher's folder goes through is the one the catalog uses.
TEST(scenario_catalog, EveryBuiltInLessonParsesFromTheTree) {
    for (const Scenario& s : catalog()) {
        SCOPED_TRACE(s.id);
        LessonSources src;
        src.folder_id = s.id;
        src.toml_name = "lesson.toml";
        src.en_name = "en.md";
        src.zh_name = "zh.md";
        src.toml_text = read_source_file("assets/lessons/" + s.id + "/lesson.toml");
        src.en_text = read_source_file("assets/lessons/" + s.id + "/en.md");
        src.zh_text = read_source_file("assets/lessons/" + s.id + "/zh.md");
        src.kernel = [&](const std::string& source, uint32_t) {
            return KernelFiles{"kernels/" + source, read_source_file("kernels/" + source), s.id + ".ptx",
                               read_source_file("assets/ptx/" + s.id + ".ptx")};
        };
        const Scenario t = build_lesson(src);
        EXPECT_EQ(t.en.title, s.en.title);
        EXPECT_EQ(t.zh.fix, s.zh.fix);
        ASSERT_EQ(t.variants.size(), s.variants.size());
        for (size_t i = 0; i < t.variants.size(); ++i) {
            EXPECT_EQ(t.variants[i].kernel, s.variants[i].kernel);
            EXPECT_EQ(t.variants[i].zh.look_at, s.variants[i].zh.look_at);
        }
        // fence_scope is message passing at three scopes: its records are checked the same way;
        // cg_tiles sums groups of 16 as warp_reduce sums groups of 32; atomic_scope counts one
        // counter, one increment per thread, as lost_update does.
        const std::string shared_reference = s.id == "fence_scope"    ? "message_passing"
                                             : s.id == "cg_tiles"     ? "warp_reduce"
                                             : s.id == "atomic_scope" ? "lost_update"
                                                                      : s.id;
        EXPECT_EQ(t.reference, shared_reference)
            << "the built-in lessons keep their C++ references";
        EXPECT_TRUE(t.reference_variant.empty());
    }
}

TEST(scenario_catalog, VariantIdsAreTheCliContract) {
    auto variant_ids = [](const std::string& id) {
        std::vector<std::string> ids;
        for (const Variant& v : test::scenario(id).variants)
            ids.push_back(v.id);
        return ids;
    };
    EXPECT_EQ(variant_ids("stencil"), (std::vector<std::string>{"correct", "missing_barrier"}));
    EXPECT_EQ(variant_ids("divergent_barrier"),
              (std::vector<std::string>{"correct", "uniform_condition", "half_block", "odd_lanes",
                                        "exit_before_barrier", "loop_per_thread"}));
    EXPECT_EQ(variant_ids("loop_barrier"),
              (std::vector<std::string>{"uniform_trip_count", "per_thread_trip_count"}));
    EXPECT_EQ(variant_ids("lost_update"), (std::vector<std::string>{"plain_increment", "atomic_add"}));
    EXPECT_EQ(variant_ids("message_passing"),
              (std::vector<std::string>{"no_fence", "writer_fence_only", "reader_fence_only", "both_fences",
                                        "release_acquire"}));
    EXPECT_EQ(variant_ids("last_block_reduction"), (std::vector<std::string>{"no_fence", "with_fence"}));
    EXPECT_EQ(variant_ids("fence_scope"),
              (std::vector<std::string>{"block_fence_across_blocks", "device_fence", "system_fence",
                                        "device_fence_to_host"}));
}

TEST(scenario_catalog, IdsAndKernelsAreUnique) {
    std::set<std::string> scenario_ids, kernels;
    for (const Scenario& s : catalog()) {
        EXPECT_TRUE(scenario_ids.insert(s.id).second) << "duplicate scenario " << s.id;
        std::set<std::string> variant_ids;
        for (const Variant& v : s.variants) {
            EXPECT_TRUE(variant_ids.insert(v.id).second) << "duplicate variant " << s.id << "/" << v.id;
            EXPECT_TRUE(kernels.insert(v.kernel).second) << "duplicate kernel " << v.kernel;
        }
        EXPECT_GE(s.variants.size(), 2u) << s.id;
    }
}

TEST(scenario_catalog, FindScenarioAndVariant) {
    for (const Scenario& s : catalog()) {
        EXPECT_EQ(find_scenario(s.id), &s);
        for (const Variant& v : s.variants)
            EXPECT_EQ(s.find_variant(v.id), &v);
        EXPECT_EQ(s.find_variant("no_such_variant"), nullptr);
        EXPECT_EQ(s.find_variant(""), nullptr);
    }
    EXPECT_EQ(find_scenario("no_such_scenario"), nullptr);
    EXPECT_EQ(find_scenario(""), nullptr);
}

TEST(scenario_catalog, KernelNamesAreScenarioUnderscoreVariant) {
    for (const Scenario& s : catalog())
        for (const Variant& v : s.variants)
            EXPECT_EQ(v.kernel, s.id + "_" + v.id);
}

TEST(scenario_catalog, SourcesAreEmbedded) {
    for (const Scenario& s : catalog()) {
        SCOPED_TRACE(s.id);
        EXPECT_EQ(s.source_file, s.id + ".cu");
        EXPECT_FALSE(s.cuda_source().empty());
        EXPECT_FALSE(s.ptx_source().empty());
        EXPECT_EQ(s.cuda_source(), embedded_file(s.id + ".cu"));
        EXPECT_EQ(s.ptx_source(), embedded_file(s.id + ".ptx"));
        EXPECT_NE(s.ptx_source().find(".version"), std::string_view::npos);
    }
    EXPECT_TRUE(embedded_file("no_such_file.cu").empty());
}

TEST(scenario_catalog, EveryKernelIsInTheCudaSourceAndIsAnEntryOfThePtx) {
    for (const Scenario& s : catalog())
        for (const Variant& v : s.variants) {
            SCOPED_TRACE(v.kernel);
            EXPECT_NE(s.cuda_source().find("extern \"C\" __global__ void " + v.kernel + "("),
                      std::string_view::npos);
            EXPECT_NE(s.ptx_source().find(".entry " + v.kernel + "("), std::string_view::npos);
        }
}

TEST(scenario_catalog, EveryPtxEntryIsAVariant) {
    for (const Scenario& s : catalog()) {
        const std::string_view ptx = s.ptx_source();
        for (size_t at = ptx.find(".entry "); at != std::string_view::npos;
             at = ptx.find(".entry ", at + 1)) {
            const size_t name = at + 7, end = ptx.find('(', name);
            const std::string kernel(ptx.substr(name, end - name));
            bool found = false;
            for (const Variant& v : s.variants)
                found = found || v.kernel == kernel;
            EXPECT_TRUE(found) << s.id << ".ptx has entry " << kernel << " that no variant names";
        }
    }
}

TEST(scenario_catalog, PtxIsNormalized) {
    for (const Scenario& s : catalog()) {
        const std::string_view ptx = s.ptx_source();
        EXPECT_NE(ptx.find(".file\t1 \"" + s.source_file + "\""), std::string_view::npos) << s.id;
        EXPECT_EQ(ptx.find(".file\t1 \"/"), std::string_view::npos) << s.id << ": absolute path in .file";
    }
}

// make_inputs' arguments fit every variant's .entry: one per .param, pointers for .u64, scalars for
// 32-bit params, buffer indices in range.
TEST(scenario_catalog, ArgumentsMatchEveryKernelsParameters) {
    for (const Scenario& s : catalog()) {
        const Inputs inputs = s.make_inputs(1);
        for (const Variant& v : s.variants) {
            SCOPED_TRACE(v.kernel);
            const std::vector<std::string> types = param_types(entry_params(s.ptx_source(), v.kernel));
            ASSERT_EQ(types.size(), inputs.args.size());
            for (size_t i = 0; i < types.size(); ++i) {
                const launch::KernelArg& arg = inputs.args[i];
                if (arg.kind == launch::KernelArg::Kind::Buffer) {
                    EXPECT_EQ(types[i], ".u64") << "param " << i;
                    EXPECT_LT(arg.buffer, inputs.buffers.size()) << "param " << i;
                } else {
                    EXPECT_EQ(types[i], ".u32") << "param " << i;
                    EXPECT_LE(arg.bits, 0xffffffffull) << "param " << i;
                }
            }
        }
    }
}

// The kernels' shared tiles hold 256 elements, one per thread; the message-passing lessons run one
// thread per block, writer block 2p and reader block 2p + 1 (an odd block would wait for a writer
// that does not exist). The launches stay small enough for the simulator to run each variant in well
// under a second.
TEST(scenario_catalog, LaunchShapes) {
    for (const Scenario& s : catalog()) {
        SCOPED_TRACE(s.id);
        if (s.id == "message_passing" || s.id == "fence_scope") {
            EXPECT_EQ(s.launch.block, (trace::Dim3{1, 1, 1}));
            EXPECT_EQ(s.launch.grid.x % 2, 0u);
        } else if (s.topic == "warps" || s.id == "syncthreads_predicates") {
            // The warp lessons run whole warps or tiles of 16 (shared tiles of up to 256), and
            // syncthreads_predicates a block that is not a multiple of 32 on purpose.
            EXPECT_LE(s.launch.block.x, 256u);
            EXPECT_EQ(s.launch.block.y * s.launch.block.z, 1u);
            if (s.topic == "warps") {
                EXPECT_EQ(s.launch.block.x % 16, 0u);
            }
        } else {
            EXPECT_EQ(s.launch.block, (trace::Dim3{256, 1, 1}));
        }
        EXPECT_EQ(s.launch.grid.y, 1u);
        EXPECT_EQ(s.launch.grid.z, 1u);
        EXPECT_GE(s.launch.grid.x, 2u) << "at least two blocks, so that per-block effects show";
        EXPECT_LE(s.launch.grid.count() * s.launch.block.count(), 16384u);
        EXPECT_EQ(s.launch.dynamic_shared_bytes, 0u);
    }
    EXPECT_EQ(test::scenario("stencil").launch.grid.x, 64u);
    EXPECT_EQ(test::scenario("divergent_barrier").launch.grid.x, 4u);
    EXPECT_EQ(test::scenario("lost_update").launch.grid.x, 16u);
    EXPECT_EQ(test::scenario("message_passing").launch.grid.x, 64u) << "32 pairs";
    EXPECT_EQ(test::scenario("last_block_reduction").launch.grid.x, 16u);
}

// The fence lessons run under the relaxed model by default (their bugs do not exist under sc), and
// so does atomic_scope (under sc every atomic is indivisible whatever its scope: its lost updates do
// not exist there either); every other lesson keeps sc, so that what a barrier lesson shows does not
// change with this work.
TEST(scenario_catalog, MemoryModelByTopic) {
    for (const Scenario& s : catalog()) {
        SCOPED_TRACE(s.id);
        const bool relaxed = s.topic == "fences" || s.id == "atomic_scope";
        EXPECT_EQ(s.memory, relaxed ? launch::MemoryModel::Relaxed : launch::MemoryModel::Sc);
    }
    for (const char* id : {"message_passing", "last_block_reduction", "fence_scope"})
        EXPECT_EQ(test::scenario(id).topic, "fences") << id;
    for (const char* id : {"stencil", "divergent_barrier", "loop_barrier", "lost_update"})
        EXPECT_EQ(test::scenario(id).memory, launch::MemoryModel::Sc) << id;
}

// The fence lessons' outcome tables, and which outcome each variant forbids: "1,0" (flag seen, data
// stale) exactly where both sides order at a scope that holds both blocks, with the rule that says
// so. A variant that forbids the stale outcome never has wrong outputs; one that allows it must find
// the stale read.
TEST(scenario_catalog, FenceLessonsOutcomes) {
    for (const char* id : {"message_passing", "fence_scope"}) {
        SCOPED_TRACE(id);
        const Scenario& s = test::scenario(id);
        ASSERT_TRUE(s.outcomes.present());
        EXPECT_EQ(s.outcomes.buffer, "g_out");
        EXPECT_EQ(s.outcomes.per, 2u);
        ASSERT_EQ(s.outcomes.classes.size(), 2u);
        EXPECT_EQ(s.outcomes.classes[0].value, "1,1");
        EXPECT_EQ(s.outcomes.classes[1].value, "1,0");
        for (const OutcomeClass& c : s.outcomes.classes) {
            EXPECT_FALSE(has_cjk(c.label_en)) << c.label_en;
            EXPECT_TRUE(has_cjk(c.label_zh)) << c.label_zh;
        }
        for (const Variant& v : s.variants) {
            SCOPED_TRACE(v.id);
            const bool forbids = v.forbidden_outcomes == std::vector<std::string>{"1,0"};
            EXPECT_TRUE(forbids || v.forbidden_outcomes.empty());
            EXPECT_EQ(forbids, v.expect.always_correct());
            EXPECT_EQ(forbids, v.forbidden_because.find("PTX ISA, Memory Consistency Model") != std::string::npos)
                << v.forbidden_because;
            const bool finds_stale = std::find(v.expect.must_find.begin(), v.expect.must_find.end(),
                                               FindingKind::StaleRead) != v.expect.must_find.end();
            EXPECT_EQ(finds_stale, !forbids);
        }
    }
    auto forbids = [](const char* scenario, const char* variant) {
        return !test::scenario(scenario).find_variant(variant)->forbidden_outcomes.empty();
    };
    EXPECT_FALSE(forbids("message_passing", "no_fence"));
    EXPECT_FALSE(forbids("message_passing", "writer_fence_only"));
    EXPECT_FALSE(forbids("message_passing", "reader_fence_only"));
    EXPECT_TRUE(forbids("message_passing", "both_fences"));
    EXPECT_TRUE(forbids("message_passing", "release_acquire"));
    EXPECT_FALSE(forbids("fence_scope", "block_fence_across_blocks"));
    EXPECT_TRUE(forbids("fence_scope", "device_fence"));
    EXPECT_TRUE(forbids("fence_scope", "system_fence"));
    EXPECT_FALSE(test::scenario("last_block_reduction").outcomes.present());
}

TEST(scenario_catalog, ExpectationsAreConsistent) {
    for (const Scenario& s : catalog()) {
        EXPECT_TRUE(kTopics.count(s.topic)) << s.id << ": topic " << s.topic;
        for (const Variant& v : s.variants) {
            SCOPED_TRACE(s.id + "/" + v.id);
            const Expectation& e = v.expect;
            // A variant either completes, or hangs the way the hardware does (a deadlock the run
            // ends with, named by its finding); a hung run leaves no outputs to check.
            if (e.status == trace::RunStatus::Deadlock) {
                EXPECT_EQ(e.wrong_outputs, WrongOutputs::Unchecked);
                EXPECT_NE(std::find(e.must_find.begin(), e.must_find.end(), FindingKind::Deadlock),
                          e.must_find.end());
            } else if (e.status == trace::RunStatus::Budget) {
                // A loop that never ends (cas_loop/float_compare_nan) ends at the lesson's own step
                // budget, which keeps the verdict tests quick; it leaves no outputs to check.
                EXPECT_EQ(e.wrong_outputs, WrongOutputs::Unchecked);
                EXPECT_GT(s.max_steps, 0u) << "a spinning variant needs the lesson's max_steps";
            } else if (e.status == trace::RunStatus::Error) {
                // A launch refused before anything runs (grid_sync/too_many_blocks): no outputs.
                EXPECT_EQ(e.wrong_outputs, WrongOutputs::Unchecked);
                EXPECT_TRUE(v.launch.cooperative) << "only a cooperative launch is refused by design";
            } else {
                EXPECT_EQ(e.status, trace::RunStatus::Ok);
            }
            for (FindingKind kind : e.must_find)
                for (FindingKind other : e.must_not_find)
                    EXPECT_NE(kind, other) << "both must and must not find";
            // A variant that is always right has no bug to find; a performance finding (contention:
            // right but slow) it may have.
            for (FindingKind kind : e.must_find)
                EXPECT_TRUE(!e.always_correct() || kind == FindingKind::Contention)
                    << "a clean variant with a finding?";
        }
    }
}

TEST(scenario_catalog, FindingKindsByName) {
    EXPECT_EQ(all_finding_kinds(), kAll);
    for (FindingKind k : kAll) {
        FindingKind back = FindingKind::Race;
        EXPECT_TRUE(parse_finding_kind(analysis::to_string(k), back));
        EXPECT_EQ(back, k);
    }
    FindingKind untouched = FindingKind::Deadlock;
    EXPECT_FALSE(parse_finding_kind("raze", untouched));
    EXPECT_FALSE(parse_finding_kind("Race", untouched));
    EXPECT_FALSE(parse_finding_kind("", untouched));
    EXPECT_EQ(untouched, FindingKind::Deadlock);
    EXPECT_EQ(finding_kind_names(),
              "race, barrier_divergence, lost_update, deadlock, stale_read, contention, out_of_bounds");
    EXPECT_EQ(run_status_names(), "ok, deadlock, budget, error, timeout, cancelled");
    WrongOutputs w = WrongOutputs::Unchecked;
    EXPECT_TRUE(parse_wrong_outputs("never", w));
    EXPECT_EQ(w, WrongOutputs::Never);
    EXPECT_TRUE(parse_wrong_outputs("possible", w));
    EXPECT_EQ(w, WrongOutputs::Possible);
    EXPECT_FALSE(parse_wrong_outputs("sometimes", w));
    EXPECT_EQ(to_string(WrongOutputs::Unchecked), std::string("unchecked"));
}

TEST(scenario_catalog, ExpectedVerdicts) {
    auto expect = [](const std::string& scenario, const std::string& variant) {
        const Variant* v = test::scenario(scenario).find_variant(variant);
        if (v == nullptr) throw std::runtime_error("no variant " + variant);
        return v->expect;
    };
    for (const auto& [scenario, variant] :
         std::vector<std::pair<std::string, std::string>>{{"stencil", "correct"},
                                                          {"divergent_barrier", "correct"},
                                                          {"divergent_barrier", "uniform_condition"},
                                                          {"divergent_barrier", "exit_before_barrier"},
                                                          {"loop_barrier", "uniform_trip_count"},
                                                          {"lost_update", "atomic_add"}}) {
        SCOPED_TRACE(scenario + "/" + variant);
        EXPECT_TRUE(expect(scenario, variant).must_find.empty());
        EXPECT_EQ(expect(scenario, variant).must_not_find, kCorrectness);
        EXPECT_TRUE(expect(scenario, variant).always_correct());
    }
    EXPECT_EQ(expect("stencil", "missing_barrier").must_find, Kinds{FindingKind::Race});
    EXPECT_EQ(expect("stencil", "missing_barrier").must_not_find,
              (Kinds{FindingKind::BarrierDivergence, FindingKind::LostUpdate, FindingKind::Deadlock,
                     FindingKind::StaleRead, FindingKind::OutOfBounds}));
    EXPECT_TRUE(expect("stencil", "missing_barrier").wrong_outputs_possible());
    // half_block: whole warps at two different __syncthreads() pair them (as on an H200): it
    // completes, with wrong outputs.
    EXPECT_EQ(expect("divergent_barrier", "half_block").must_find, Kinds{FindingKind::BarrierDivergence});
    EXPECT_EQ(expect("divergent_barrier", "half_block").must_not_find,
              (Kinds{FindingKind::LostUpdate, FindingKind::Deadlock, FindingKind::StaleRead,
                     FindingKind::OutOfBounds}));
    EXPECT_TRUE(expect("divergent_barrier", "half_block").wrong_outputs_possible());
    EXPECT_EQ(expect("divergent_barrier", "half_block").status, trace::RunStatus::Ok);
    // Lanes of one warp at different barrier instructions never meet: these hang, as the H200
    // (traced) does.
    for (const auto& [scenario, variant] :
         std::vector<std::pair<std::string, std::string>>{{"divergent_barrier", "odd_lanes"},
                                                          {"divergent_barrier", "loop_per_thread"},
                                                          {"loop_barrier", "per_thread_trip_count"}}) {
        SCOPED_TRACE(scenario + "/" + variant);
        EXPECT_EQ(expect(scenario, variant).must_find,
                  (Kinds{FindingKind::BarrierDivergence, FindingKind::Deadlock}));
        EXPECT_EQ(expect(scenario, variant).must_not_find,
                  (Kinds{FindingKind::LostUpdate, FindingKind::OutOfBounds}));
        EXPECT_EQ(expect(scenario, variant).status, trace::RunStatus::Deadlock);
        EXPECT_EQ(expect(scenario, variant).wrong_outputs, WrongOutputs::Unchecked);
    }
    EXPECT_EQ(expect("lost_update", "plain_increment").must_find, Kinds{FindingKind::LostUpdate});
    EXPECT_EQ(expect("lost_update", "plain_increment").must_not_find,
              (Kinds{FindingKind::BarrierDivergence, FindingKind::Deadlock, FindingKind::StaleRead,
                     FindingKind::OutOfBounds}));
    EXPECT_TRUE(expect("lost_update", "plain_increment").wrong_outputs_possible());
}

// The fence lessons' kernels are what their lessons say: the fences (membar.cta/gl/sys) and the
// release/acquire flag are in the PTX of exactly the variants that claim them.
TEST(scenario_catalog, FenceLessonsPtxHasTheirFences) {
    auto body = [](const Scenario& s, const std::string& variant) {
        const std::string_view ptx = s.ptx_source();
        const size_t at = ptx.find(".entry " + s.id + "_" + variant + "(");
        if (at == std::string_view::npos) return std::string();
        return std::string(ptx.substr(at, ptx.find(".entry ", at + 1) - at));
    };
    auto count = [](const std::string& text, const std::string& what) {
        size_t n = 0;
        for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
            ++n;
        return n;
    };
    const Scenario& mp = test::scenario("message_passing");
    const std::vector<std::pair<std::string, size_t>> mp_fences = {
        {"no_fence", 0}, {"writer_fence_only", 1}, {"reader_fence_only", 1}, {"both_fences", 2}, {"release_acquire", 0}};
    for (const auto& [variant, fences] : mp_fences) {
        const std::string text = body(mp, variant);
        ASSERT_FALSE(text.empty()) << variant;
        EXPECT_EQ(count(text, "membar.gl"), fences) << variant;
        // The reader's two loads of g_data survive the compiler: the first warms the line, the second
        // is the one that can be stale.
        EXPECT_EQ(count(text, "ld.global.u32"), 2u) << variant;
    }
    // Every variant asks for the data the same, right way: the reader's release store of g_ready,
    // the writer's acquire load of it; release_acquire answers the same way on the flag.
    for (const auto& [variant, fences] : mp_fences) {
        const size_t ra = variant == "release_acquire" ? 2 : 1;
        EXPECT_EQ(count(body(mp, variant), "st.release.gpu"), ra) << variant;
        EXPECT_EQ(count(body(mp, variant), "ld.acquire.gpu"), ra) << variant;
    }
    const Scenario& scope = test::scenario("fence_scope");
    EXPECT_EQ(count(body(scope, "block_fence_across_blocks"), "membar.cta"), 2u);
    EXPECT_EQ(count(body(scope, "device_fence"), "membar.gl"), 2u);
    EXPECT_EQ(count(body(scope, "system_fence"), "membar.sys"), 2u);
    const Scenario& last = test::scenario("last_block_reduction");
    EXPECT_EQ(count(body(last, "no_fence"), "membar.gl"), 0u);
    EXPECT_EQ(count(body(last, "with_fence"), "membar.gl"), 2u);
    for (const char* variant : {"no_fence", "with_fence"}) {
        EXPECT_EQ(count(body(last, variant), "atom.global.inc"), 1u) << variant;
        EXPECT_GE(count(body(last, variant), "ld.volatile.global"), 1u) << variant << ": the partials' loads";
    }
}

TEST(scenario_catalog, LessonTextsInBothLanguages) {
    for (const Scenario& s : catalog()) {
        expect_lesson(s.en, false, s.id);
        expect_lesson(s.zh, true, s.id);
        for (const Variant& v : s.variants) {
            expect_lesson(v.en, false, s.id + "/" + v.id);
            expect_lesson(v.zh, true, s.id + "/" + v.id);
            // A variant's title starts with its id, so a list of titles reads like the CLI.
            EXPECT_EQ(v.en.title.rfind(v.id + ":", 0), 0u) << v.en.title;
            EXPECT_EQ(v.zh.title.rfind(v.id + "：", 0), 0u) << v.zh.title;
        }
    }
}

TEST(scenario_catalog, EveryKernelHasALessonComment) {
    // House style: above each variant a block comment saying what is wrong or right.
    for (const Scenario& s : catalog()) {
        const std::string_view cu = s.cuda_source();
        EXPECT_EQ(cu.rfind("// Scenario \"" + s.id + "\"", 0), 0u) << s.id << ".cu must open with its header";
        for (const Variant& v : s.variants) {
            const size_t at = cu.find("extern \"C\" __global__ void " + v.kernel + "(");
            ASSERT_NE(at, std::string_view::npos);
            EXPECT_NE(cu.rfind("// " + v.id + ":", at), std::string_view::npos) << v.kernel;
        }
    }
}

} // namespace
} // namespace synclab::scenario
