// Writes a simulator-style .slt of a warp sum by shuffles, for the GUI tests of the timeline's warp
// collectives (built with the trace builders, so the GUI tests do not depend on which simulator
// records them): one block of 64 threads (two warps); each lane loads its value, adds
// __shfl_down_sync(0xffffffff, v, d) for d = 16, 8, 4, 2, 1 (lanes past the end keep their own
// value: kNoLane), takes a ballot of v > 100, meets at __syncwarp, and lane 0 of each warp stores.
//
//   make_warp_trace OUT.slt
#include "trace/slt_file.h"

#include <cstdio>
#include <exception>

using namespace synclab::trace;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_warp_trace OUT.slt\n");
        return 2;
    }
    Trace t;
    t.meta.kernel = "warp_sum";
    t.meta.backend = "sim";
    t.meta.device = "SyncLab simulator";
    t.meta.sm_count = 1;
    t.meta.schedule = "rr";
    t.meta.memory_model = "sc";
    t.meta.grid = {1, 1, 1};
    t.meta.block = {64, 1, 1};
    t.meta.source_name = "warp_sum.cu";
    t.meta.source_text = "__global__ void warp_sum(const int* in, int* out) {\n"
                         "  int v = in[threadIdx.x];\n"
                         "  for (int d = 16; d > 0; d /= 2)\n"
                         "    v += __shfl_down_sync(0xffffffff, v, d);\n"
                         "  unsigned big = __ballot_sync(0xffffffff, v > 100);\n"
                         "  __syncwarp();\n"
                         "  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v + big;\n"
                         "}\n";
    t.threads = thread_layout(t.meta.grid, t.meta.block);
    t.sites = {
        {20, 2, "ld.global.u32 %r2, [%rd4]"},
        {24, 4, "shfl.sync.down.b32 %r4|%p1, %r3, %r5, 31, -1"},
        {30, 5, "vote.sync.ballot.b32 %r6, %p2, -1"},
        {31, 6, "bar.warp.sync -1"},
        {36, 7, "st.global.u32 [%rd6], %r8"},
        {38, 8, "ret"},
    };
    uint32_t v[64];
    for (uint32_t i = 0; i < 64; ++i)
        v[i] = (i * 7) % 13;
    uint64_t now = 1;
    auto push = [&](uint64_t time, uint32_t thread, uint16_t site, EventKind kind, uint64_t address,
                    uint32_t value, uint8_t flags) {
        Event e;
        e.time = time;
        e.thread = thread;
        e.site = site;
        e.kind = kind;
        e.address = address;
        e.value = value;
        e.flags = flags;
        t.events.push_back(e);
    };
    for (uint32_t warp = 0; warp < 2; ++warp, now += 2)
        for (uint32_t lane = 0; lane < 32; ++lane) {
            const uint32_t th = warp * 32 + lane;
            push(now, th, 0, EventKind::Load, 0x7f0000001000ull + th * 4, v[th], make_flags(Space::Global, 4));
        }
    now += 6;
    for (uint32_t d = 16; d > 0; d /= 2) {
        for (uint32_t warp = 0; warp < 2; ++warp) {
            uint32_t next[32];
            for (uint32_t lane = 0; lane < 32; ++lane) {
                const uint32_t source = lane + d < 32 ? lane + d : kNoLane;
                const uint32_t got = source == kNoLane ? v[warp * 32 + lane] : v[warp * 32 + source];
                next[lane] = v[warp * 32 + lane] + got;
                push(now + warp, warp * 32 + lane, 1, EventKind::WarpCollective, uint64_t(source) << 32 | 0xffffffffu,
                     got, uint8_t(Collective::Shfl));
            }
            for (uint32_t lane = 0; lane < 32; ++lane)
                v[warp * 32 + lane] = next[lane];
        }
        now += 8;
    }
    for (uint32_t warp = 0; warp < 2; ++warp) {
        uint32_t ballot = 0;
        for (uint32_t lane = 0; lane < 32; ++lane)
            if (v[warp * 32 + lane] > 100) ballot |= 1u << lane;
        for (uint32_t lane = 0; lane < 32; ++lane)
            push(now + warp, warp * 32 + lane, 2, EventKind::WarpCollective, uint64_t(kNoLane) << 32 | 0xffffffffu,
                 ballot, uint8_t(Collective::Vote));
        // __syncwarp: the lanes arrive over a few ticks; the record is when they have met.
        for (uint32_t lane = 0; lane < 32; ++lane)
            push(now + 8 + warp, warp * 32 + lane, 3, EventKind::WarpCollective,
                 uint64_t(kNoLane) << 32 | 0xffffffffu, 0, uint8_t(Collective::WarpSync));
        push(now + 14 + warp, warp * 32, 4, EventKind::Store, 0x7f0000002000ull + warp * 4, v[warp * 32] + ballot,
             make_flags(Space::Global, 4));
        for (uint32_t lane = 0; lane < 32; ++lane)
            push(now + 18 + warp, warp * 32 + lane, 5, EventKind::Exit, 0, 0, 0);
    }
    for (ThreadInfo& ti : t.threads)
        ti.end_site = 5;
    t.meta.thread_instructions = t.events.size() * 3;
    t.meta.warp_instructions = t.meta.thread_instructions / 32;
    try {
        save_trace(t, argv[1]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_warp_trace: %s\n", e.what());
        return 1;
    }
    return 0;
}
