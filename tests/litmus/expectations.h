// What the PTX memory model says of each litmus test's weak outcome, per variant and placement, and
// where in the PTX ISA ("Memory Consistency Model" chapter, section numbers of PTX ISA 8.x/9.0) or
// in Lustig, Sahasrabuddhe, Giroux, "A Formal Analysis of the NVIDIA PTX Memory Consistency Model"
// (ASPLOS 2019) the verdict rests. These are expectations from the specification, not from the
// simulator: where the model disagrees, the model is reported, the table stays.
#pragma once

#include "litmus.h"

#include <string>
#include <vector>

namespace synclab::litmus {

enum class Verdict : uint8_t { Allowed, Forbidden };
inline const char* to_string(Verdict v) { return v == Verdict::Allowed ? "allowed" : "forbidden"; }

// What the simulator's relaxed model is documented not to do (MEMORY_MODEL_NOTES / the lead's model
// description): load buffering, a load reordered after a later store of its thread. Where PTX allows
// LB's (1,1) the suite asserts that the model never produces it, so that the gap stays visible.
enum class ModelGap : uint8_t { None, LoadBuffering };

struct Expectation {
    const char* test;
    Variant variant;
    Verdict same_block;
    Verdict different_blocks;
    const char* because; // the place in the PTX model the verdicts rest on
};

// Citations, shared by the rows that rest on the same rule.
namespace cite {
inline constexpr const char* kUnordered =
    "nothing orders the accesses: synchronizes-with needs a release pattern whose write an acquire "
    "pattern observes (PTX ISA 8.8 Release and Acquire Patterns, 8.9.4 Memory synchronization), and "
    "without it 8.10.6 Causality does not constrain the reads; Lustig et al. ASPLOS'19 list the "
    "unfenced MP/SB/LB/IRIW/2+2W/WRC outcomes as allowed (LB: 8.10.4 No Thin Air forbids it only "
    "through true dependencies, and these stores write constants)";
inline constexpr const char* kCtaAcrossBlocks =
    " Across blocks a .cta fence or release/acquire is no ordering at all: operations are morally "
    "strong only when each is in the other's scope (PTX ISA 8.7 Morally strong operations), so the "
    "different-blocks verdict is that of no fence.";
inline constexpr const char* kMpSync =
    "the writer's release (fence then strong write, or st.release) and the reader's acquire (strong "
    "read then fence, or ld.acquire) synchronize when the flag read observes the flag write (PTX ISA 8.8, "
    "8.9.4), so x=1 precedes the data read in causality order and 8.10.6 Causality forbids reading the "
    "initial x.";
inline constexpr const char* kSbAcqRel =
    "release/acquire orders a read after an earlier read or a write after an earlier access, never a read "
    "after an earlier write: in SB each read misses the other thread's write, so no synchronizes-with "
    "arises (PTX ISA 8.9.4) and SB's 0,0 stays allowed; only fence.sc orders it (8.9.3 Fence-SC order, "
    "8.10.2 Fence-SC). Lustig et al. ASPLOS'19: SB+fence.acq_rel allowed, SB+fence.sc forbidden.";
inline constexpr const char* kScFences =
    "the two fence.sc are morally strong, so Fence-SC order relates them (PTX ISA 8.9.3) and the earlier "
    "synchronizes with the later (8.9.4); the accesses before the earlier fence then precede those after "
    "the later one in causality order, which 8.10.6 Causality (for reads) and 8.10.1 Coherence (for "
    "writes) enforce.";
inline constexpr const char* kLbSync =
    "each thread's read observes the other's release (fence then store, or st.release) through its "
    "acquire: synchronizes-with both ways (PTX ISA 8.8, 8.9.4) would put each read causality-before the "
    "write it reads, which 8.10.6 Causality forbids.";
inline constexpr const char* kCorr =
    "the three accesses are pairwise morally strong (relaxed/release/acquire at a scope that holds both "
    "threads), and 8.10.5 Sequential Consistency Per Location forbids communication order contradicting "
    "program order: once r0 read x=1, r1 cannot read the older 0. Fences do not matter.";
inline constexpr const char* kCorrCtaAcross =
    "st.release.cta and ld.acquire.cta in different blocks are not morally strong (PTX ISA 8.7), nor is "
    "st.release.cta with the other block's ld.relaxed.gpu (the writer's scope excludes the reader), so "
    "8.10.5 Sequential Consistency Per Location does not cover them: a data race, and PTX does not forbid "
    "r0=1 r1=0 (same block: morally strong, forbidden by 8.10.5).";
inline constexpr const char* kIriwNonMca =
    "PTX does not promise multi-copy atomicity: acquire only orders against the write a read observed, and "
    "the two readers synchronize with no one (the writers have no release); only fence.sc between the "
    "reads forbids IRIW (PTX ISA 8.9.3, 8.10.6; Lustig et al. ASPLOS'19: IRIW+fence.acq_rel or acquire "
    "loads allowed, IRIW+fence.sc forbidden).";
inline constexpr const char* k22wNoSync =
    "with no reads there is no observation and so no synchronizes-with (PTX ISA 8.9.4): causality order "
    "links no write of one thread to a write of the other, and 8.10.1 Coherence leaves the coherence "
    "orders of x and y free: final x=1 y=1 is allowed (as in C++'s release/acquire).";
inline constexpr const char* kWrcCumulative =
    "causality order is cumulative: x=1 is observed by T1's read, which precedes T1's release in program "
    "order; T2's acquire observes that release (PTX ISA 8.9.4), so x=1 precedes T2's read of x in "
    "causality order (8.9.5 Causality order: observation then base causality) and 8.10.6 Causality "
    "forbids reading the initial x.";
} // namespace cite

// clang-format off
inline const std::vector<Expectation>& expectations() {
    using V = Verdict;
    constexpr V A = V::Allowed, F = V::Forbidden;
    static const std::vector<Expectation> rows = {
        {"MP",   Variant::NoFence,   A, A, cite::kUnordered},
        {"MP",   Variant::AcqRelCta, F, A, "fence.acq_rel.cta on both sides: same block, "},
        {"MP",   Variant::AcqRelGpu, F, F, "fence.acq_rel.gpu on both sides: "},
        {"MP",   Variant::ScCta,     F, A, "fence.sc.cta on both sides (fence.sc is also a release/acquire fence): same block, "},
        {"MP",   Variant::ScGpu,     F, F, "fence.sc.gpu on both sides (also a release/acquire fence): "},
        {"MP",   Variant::RelAcqCta, F, A, "st.release.cta y / ld.acquire.cta y: same block, "},
        {"MP",   Variant::RelAcqGpu, F, F, "st.release.gpu y / ld.acquire.gpu y: "},

        {"SB",   Variant::NoFence,   A, A, cite::kUnordered},
        {"SB",   Variant::AcqRelCta, A, A, "fence.acq_rel.cta: "},
        {"SB",   Variant::AcqRelGpu, A, A, "fence.acq_rel.gpu: "},
        {"SB",   Variant::ScCta,     F, A, "fence.sc.cta: same block, "},
        {"SB",   Variant::ScGpu,     F, F, "fence.sc.gpu: "},
        {"SB",   Variant::RelAcqCta, A, A, "st.release.cta then ld.acquire.cta: "},
        {"SB",   Variant::RelAcqGpu, A, A, "st.release.gpu then ld.acquire.gpu: "},

        {"LB",   Variant::NoFence,   A, A, cite::kUnordered},
        {"LB",   Variant::AcqRelCta, F, A, "fence.acq_rel.cta between the read and the write: same block, "},
        {"LB",   Variant::AcqRelGpu, F, F, "fence.acq_rel.gpu between the read and the write: "},
        {"LB",   Variant::ScCta,     F, A, "fence.sc.cta: same block, "},
        {"LB",   Variant::ScGpu,     F, F, "fence.sc.gpu: "},
        {"LB",   Variant::RelAcqCta, F, A, "ld.acquire.cta then st.release.cta: same block, "},
        {"LB",   Variant::RelAcqGpu, F, F, "ld.acquire.gpu then st.release.gpu: "},

        {"CoRR", Variant::NoFence,   F, F, cite::kCorr},
        {"CoRR", Variant::AcqRelCta, F, F, cite::kCorr},
        {"CoRR", Variant::AcqRelGpu, F, F, cite::kCorr},
        {"CoRR", Variant::ScCta,     F, F, cite::kCorr},
        {"CoRR", Variant::ScGpu,     F, F, cite::kCorr},
        {"CoRR", Variant::RelAcqCta, F, A, cite::kCorrCtaAcross},
        {"CoRR", Variant::RelAcqGpu, F, F, cite::kCorr},

        {"IRIW", Variant::NoFence,   A, A, cite::kUnordered},
        {"IRIW", Variant::AcqRelCta, A, A, "fence.acq_rel.cta between the reads: "},
        {"IRIW", Variant::AcqRelGpu, A, A, "fence.acq_rel.gpu between the reads: "},
        {"IRIW", Variant::ScCta,     F, A, "fence.sc.cta between the reads: same block, "},
        {"IRIW", Variant::ScGpu,     F, F, "fence.sc.gpu between the reads: "},
        {"IRIW", Variant::RelAcqCta, A, A, "st.release.cta writes, ld.acquire.cta first reads: "},
        {"IRIW", Variant::RelAcqGpu, A, A, "st.release.gpu writes, ld.acquire.gpu first reads: "},

        {"2+2W", Variant::NoFence,   A, A, cite::kUnordered},
        {"2+2W", Variant::AcqRelCta, A, A, "fence.acq_rel.cta between the writes: "},
        {"2+2W", Variant::AcqRelGpu, A, A, "fence.acq_rel.gpu between the writes: "},
        {"2+2W", Variant::ScCta,     F, A, "fence.sc.cta between the writes: same block, "},
        {"2+2W", Variant::ScGpu,     F, F, "fence.sc.gpu between the writes: "},
        {"2+2W", Variant::RelAcqCta, A, A, "second writes st.release.cta: "},
        {"2+2W", Variant::RelAcqGpu, A, A, "second writes st.release.gpu: "},

        {"WRC",  Variant::NoFence,   A, A, cite::kUnordered},
        {"WRC",  Variant::AcqRelCta, F, A, "fence.acq_rel.cta in T1 and T2: same block, "},
        {"WRC",  Variant::AcqRelGpu, F, F, "fence.acq_rel.gpu in T1 and T2: "},
        {"WRC",  Variant::ScCta,     F, A, "fence.sc.cta in T1 and T2: same block, "},
        {"WRC",  Variant::ScGpu,     F, F, "fence.sc.gpu in T1 and T2: "},
        {"WRC",  Variant::RelAcqCta, F, A, "T1 st.release.cta y, T2 ld.acquire.cta y: same block, "},
        {"WRC",  Variant::RelAcqGpu, F, F, "T1 st.release.gpu y, T2 ld.acquire.gpu y: "},
    };
    return rows;
}
// clang-format on

inline const Expectation& expectation(const std::string& test, Variant variant) {
    for (const Expectation& e : expectations())
        if (test == e.test && e.variant == variant) return e;
    throw std::invalid_argument("no expectation for " + test + " / " + to_string(variant));
}

inline Verdict verdict(const Expectation& e, Placement p) {
    return p == Placement::SameBlock ? e.same_block : e.different_blocks;
}

// The full reason of a row: its own words completed with the rule they name.
inline std::string because(const Expectation& e) {
    std::string text = e.because;
    const std::string t = e.test;
    if (!text.empty() && text.back() != ' ') return text; // a whole citation already
    if (t == "MP") text += cite::kMpSync;
    else if (t == "SB") text += e.variant == Variant::ScCta || e.variant == Variant::ScGpu ? cite::kScFences : cite::kSbAcqRel;
    else if (t == "LB") text += e.variant == Variant::ScCta || e.variant == Variant::ScGpu ? cite::kScFences : cite::kLbSync;
    else if (t == "IRIW") text += e.variant == Variant::ScCta || e.variant == Variant::ScGpu ? cite::kScFences : cite::kIriwNonMca;
    else if (t == "2+2W") text += e.variant == Variant::ScCta || e.variant == Variant::ScGpu ? cite::kScFences : cite::k22wNoSync;
    else if (t == "WRC") text += cite::kWrcCumulative;
    if (e.same_block != e.different_blocks) text += cite::kCtaAcrossBlocks;
    return text;
}

inline ModelGap model_gap(const Test& test, Verdict v) {
    return test.name == "LB" && v == Verdict::Allowed ? ModelGap::LoadBuffering : ModelGap::None;
}

} // namespace synclab::litmus
