#include "gpu/gpu_run.h"

#include "ptx/instrument.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <numeric>
#include <optional>
#include <sstream>

namespace synclab::gpu {

std::vector<trace::ThreadInfo> thread_table(const trace::Dim3& grid, const trace::Dim3& block,
                                            const std::vector<trace::Event>& events,
                                            const std::vector<uint32_t>& warps, bool finished) {
    // The last event of each thread says where it stopped (events of one thread are in program order).
    ThreadEnds ends(grid.count() * block.count());
    for (const trace::Event& e : events)
        ends.see(e);
    return thread_table(grid, block, ends, warps, finished);
}

std::vector<trace::ThreadInfo> thread_table(const trace::Dim3& grid, const trace::Dim3& block,
                                            const ThreadEnds& ends, const std::vector<uint32_t>& warps,
                                            bool finished) {
    const uint64_t warps_per_block = (block.count() + 31) / 32;
    std::vector<trace::ThreadInfo> threads = trace::thread_layout(grid, block);
    constexpr uint8_t kNone = 0;
    for (size_t g = 0; g < threads.size(); ++g) {
        trace::ThreadInfo& t = threads[g];
        const uint64_t w = uint64_t(t.block) * warps_per_block + t.warp;
        const uint32_t sm_plus_one = w < warps.size() ? warps[w] : 0;
        t.sm = static_cast<uint16_t>(sm_plus_one ? sm_plus_one - 1 : 0);
        const uint8_t last_kind = g < ends.kind.size() ? ends.kind[g] : kNone;
        t.end_site = g < ends.site.size() ? ends.site[g] : 0;
        const auto kind = static_cast<trace::EventKind>(last_kind);
        if (finished || kind == trace::EventKind::Exit) {
            t.end = trace::ThreadEnd::Exited;
        } else if (kind == trace::EventKind::BarrierArrive) {
            t.end = trace::ThreadEnd::AtBarrier;
        } else if (last_kind != kNone || sm_plus_one != 0) {
            t.end = trace::ThreadEnd::Running;
        } else {
            t.end = trace::ThreadEnd::NotStarted;
        }
    }
    return threads;
}

namespace {

trace::RunStatus run_status(ResultStatus s) {
    switch (s) {
    case ResultStatus::Ok:
        return trace::RunStatus::Ok;
    case ResultStatus::Timeout:
        return trace::RunStatus::Timeout;
    default:
        return trace::RunStatus::Error;
    }
}

} // namespace

std::vector<std::string> global_names(const ptx::Module& module) {
    std::vector<std::string> names;
    for (const ptx::GlobalVar& v : module.globals)
        if (v.space == ptx::Space::Global) names.push_back(v.name);
    return names;
}

trace::MemoryMap memory_map(const ptx::Module& module, const ptx::Function& fn,
                            const launch::LaunchConfig& config, const std::vector<launch::Buffer>& buffers,
                            const RunResult& result) {
    // The worker's answers (RunResult::global_addresses, parallel to global_names) by Module::globals
    // index, as ptx::kernel_regions takes them.
    std::vector<uint64_t> global_addresses(module.globals.size(), 0);
    size_t asked = 0;
    for (size_t i = 0; i < module.globals.size(); ++i) {
        if (module.globals[i].space != ptx::Space::Global) continue;
        if (asked < result.global_addresses.size()) global_addresses[i] = result.global_addresses[asked];
        ++asked;
    }
    trace::MemoryMap map;
    for (trace::MemoryRegion& r : launch::buffer_regions(buffers, result.buffer_addresses))
        map.add(std::move(r));
    // The shared variables where the GPU placed them (thread 0 wrote their addresses); a table that
    // does not fit this function (none asked for), or one still all zero (thread 0 never got
    // there), leaves the parser's offsets.
    const std::vector<uint32_t>& at = result.shared_addresses;
    const bool placed = at.size() == fn.shared_symbols.size() &&
                        std::any_of(at.begin(), at.end(), [](uint32_t a) { return a != 0; });
    const std::vector<uint32_t> parser_offsets;
    for (trace::MemoryRegion& r : ptx::kernel_regions(module, fn, config.dynamic_shared_bytes, global_addresses,
                                                      placed ? at : parser_offsets))
        map.add(std::move(r));
    // (A variable the loaded module lacks, address 0, cannot be reached: the map stays complete.)
    map.set_complete(!config.cooperative && result.buffer_addresses.size() == buffers.size() &&
                     result.global_addresses.size() == asked);
    return map;
}

LaunchOutcome launch(Worker& worker, const ptx::Module& module, std::string_view ptx_text,
                     const std::string& kernel, const launch::LaunchConfig& config,
                     const std::vector<launch::Buffer>& buffers, const std::vector<launch::KernelArg>& args,
                     const LaunchOptions& options) {
    LaunchOutcome out;
    const Hello& hello = worker.start();
    const ptx::Function* fn = module.find_entry(kernel);
    trace::RunMeta& meta = out.trace.meta;
    meta.kernel = kernel;
    meta.backend = "gpu";
    meta.device = hello.device;
    meta.sm_count = hello.sm_count;
    meta.schedule = "hardware";
    meta.memory_model = "hardware";
    meta.grid = config.grid;
    meta.block = config.block;
    meta.dynamic_shared_bytes = config.dynamic_shared_bytes;
    for (const launch::Buffer& b : buffers)
        out.buffers.push_back(b);
    auto fail = [&](std::string why) {
        out.status = trace::RunStatus::Error;
        out.message = std::move(why);
        meta.status = out.status;
        meta.status_message = out.message;
        return out;
    };
    if (!fn) return fail("no kernel named '" + kernel + "' in the module");
    if (args.size() != fn->params.size())
        return fail("kernel " + kernel + " takes " + std::to_string(fn->params.size()) + " parameters, got " +
                    std::to_string(args.size()));

    RunRequest req;
    if (options.traced) {
        ptx::InstrumentOptions io;
        io.warp_aggregated = options.warp_aggregated;
        io.stripes = options.stripes;
        req.ptx = ptx::instrument_kernel(ptx_text, module, kernel, io).ptx;
    } else {
        req.ptx = std::string(ptx_text);
    }
    req.kernel = kernel;
    req.grid = config.grid;
    req.block = config.block;
    req.dynamic_shared_bytes = config.dynamic_shared_bytes;
    req.cooperative = config.cooperative;
    for (const launch::Buffer& b : buffers)
        req.buffers.push_back({b.name, b.bytes});
    for (size_t i = 0; i < args.size(); ++i) {
        ArgSpec a;
        if (args[i].kind == launch::KernelArg::Kind::Buffer) {
            if (args[i].buffer >= buffers.size())
                return fail("argument " + std::to_string(i) + " names buffer " +
                            std::to_string(args[i].buffer) + " of " + std::to_string(buffers.size()));
            a.kind = ArgSpec::Kind::Buffer;
            a.buffer = args[i].buffer;
        } else {
            a.kind = ArgSpec::Kind::Scalar;
            a.size = fn->params[i].size;
            a.bits = args[i].bits;
        }
        req.args.push_back(a);
    }
    const uint64_t warp_count = ptx::trace_warp_count(config.grid, config.block);
    const trace::TraceBufferLayout layout =
        trace::TraceBufferLayout::for_capacity(options.event_capacity, options.stripes);
    if (options.traced) {
        req.args.push_back({ArgSpec::Kind::TraceEvents, 0, 8, 0});
        req.args.push_back({ArgSpec::Kind::TraceCursor, 0, 8, 0});
        req.args.push_back({ArgSpec::Kind::Scalar, 0, 8, layout.stripe_capacity});
        req.args.push_back({ArgSpec::Kind::TraceWarps, 0, 8, 0});
        req.args.push_back({ArgSpec::Kind::TraceBlocks, 0, 8, 0});
        req.args.push_back({ArgSpec::Kind::TraceDrops, 0, 8, 0});
        req.args.push_back({ArgSpec::Kind::TraceShared, 0, 8, fn->shared_symbols.size()});
        req.mode = RunMode::Traced;
        req.block_ranks = options.block_ranks;
        req.events_if_dropped = options.events_if_dropped;
        req.trace_buffer = options.buffer;
        req.trace_layout = layout;
        req.warp_count = warp_count;
        req.live = options.live && options.buffer == TraceBuffer::Mapped;
        req.return_events = options.return_events;
    }
    // Batch by batch into the sink, where each warp writes a stripe of its own (and not live: a
    // live run's viewer wants the whole trace).
    const bool by_block = options.traced && options.block_sink && !req.live && options.return_events &&
                          trace::one_warp_per_stripe(layout, warp_count, !options.block_ranks.empty());
    req.events_by_block = by_block;
    trace::Trace recording; // what the sink's batches need to know of the launch
    std::optional<BlockEventsReceiver> receiver;
    std::function<void(BlockEvents&&)> on_block_events;
    if (by_block) {
        recording.meta.grid = config.grid;
        recording.meta.block = config.block;
        recording.threads = trace::thread_layout(config.grid, config.block);
        recording.sites = ptx::site_table(*fn, &module);
        receiver.emplace(*options.block_sink, recording, options.expected_events);
        on_block_events = [&](BlockEvents&& b) {
            const auto t0 = std::chrono::steady_clock::now();
            receiver->take(std::move(b));
            out.take_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        };
    }
    req.timeout_s = options.timeout_s;
    req.launches = std::max<uint32_t>(options.launches, 1);
    req.host_reader = options.host_reader;
    if (options.traced) req.globals = global_names(module);

    std::function<std::vector<trace::Event>()> spare_events;
    if (by_block) spare_events = [&] { return receiver->spare_events(); };
    RunResult r = worker.run(req, options.timeout_s * req.launches + options.grace_s, options.on_progress,
                             on_block_events, spare_events);
    const bool streamed = r.events_by_block && receiver;
    if (streamed) {
        r.events = std::move(receiver->kept());
        out.streamed_events = receiver->received();
        out.analysed_and_dropped = receiver->dropped();
    }
    out.status = run_status(r.status);
    out.message = r.message;
    out.kernel_ms = r.kernel_ms;
    out.jit_log = r.jit_log;
    out.worker_ms = r.wall_ms;
    out.worker_phases = r.phases;
    out.partial_trace = r.partial;
    out.faulted = r.status == ResultStatus::Fault;
    out.device_free_bytes = r.device_free_bytes;
    out.trace_area_bytes = r.trace_area_bytes;
    out.host_reader = std::move(r.host_reader);
    if (r.buffers.size() == buffers.size()) {
        for (size_t i = 0; i < buffers.size(); ++i)
            out.buffers[i].bytes = std::move(r.buffers[i].bytes);
    }
    meta.elapsed_ms = r.kernel_ms.empty() ? 0 : r.kernel_ms.back();
    if (options.traced) {
        out.events_attempted = r.cursor_known ? r.cursor : r.events.size();
        out.dropped_events = r.cursor_known ? r.dropped : 0;
        out.warp_dropped = std::move(r.warp_dropped);
        out.drops_known = r.drops_known;
        out.warp_attempted = std::move(r.warp_attempted);
        out.events_withheld = r.events_withheld;
        out.trace.sites = ptx::site_table(*fn, &module);
        out.trace.memory = memory_map(module, *fn, config, buffers, r);
        // Nothing read back (a worker killed in a hang): no thread table rather than one of guesses.
        if (streamed)
            out.trace.threads = thread_table(config.grid, config.block, receiver->ends(), r.warps,
                                             out.status == trace::RunStatus::Ok);
        else if (out.status == trace::RunStatus::Ok || !r.events.empty() || !r.warps.empty())
            out.trace.threads = thread_table(config.grid, config.block, r.events, r.warps,
                                             out.status == trace::RunStatus::Ok);
        out.trace.events = std::move(r.events);
        trace::merge_by_time(out.trace.events);
        meta.dropped_events = out.dropped_events;
        // Which blocks the trace holds whole (nothing read back: no table of guesses either).
        if (!out.trace.threads.empty())
            out.trace.block_history = block_history(
                config.grid.count(), static_cast<uint32_t>((config.block.count() + 31) / 32),
                options.block_ranks, out.warp_dropped, out.drops_known, r.cursor_known, r.dropped, r.warps,
                streamed ? receiver->per_block() : events_per_block(out.trace.events, config.grid, config.block));
    }
    meta.status = out.status;
    // (Who waits where is the runner's to say: it reads the trace with the analyses.)
    if (out.status == trace::RunStatus::Timeout && options.traced && out.dropped_events)
        out.message += " (the trace buffer overflowed: the picture may miss the latest events)";
    meta.status_message = out.message;
    return out;
}

uint64_t host_available_bytes() {
    std::ifstream in("/proc/meminfo");
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string key;
        uint64_t kb = 0;
        if (words >> key >> kb && key == "MemAvailable:") return kb << 10;
    }
    return 0;
}

namespace {

uint64_t buffer_bytes(const std::vector<launch::Buffer>& buffers) {
    return std::accumulate(buffers.begin(), buffers.end(), uint64_t(0),
                           [](uint64_t n, const launch::Buffer& b) { return n + b.bytes.size(); });
}

} // namespace

LaunchOutcome launch_traced(Worker& worker, const ptx::Module& module, std::string_view ptx_text,
                            const std::string& kernel, const launch::LaunchConfig& config,
                            const std::vector<launch::Buffer>& buffers,
                            const std::vector<launch::KernelArg>& args, const LaunchOptions& options,
                            const TraceSizing& sizing) {
    if (!options.traced) return launch(worker, module, ptx_text, kernel, config, buffers, args, options);
    const Hello& hello = worker.start();
    TracePlan plan;
    plan.blocks = config.grid.count();
    const uint32_t warps_per_block = static_cast<uint32_t>((config.block.count() + 31) / 32);
    MemoryFigures memory;
    memory.device_free = hello.free_memory_bytes;
    memory.device_total = hello.memory_bytes;
    memory.kernel_buffers = buffer_bytes(buffers);
    memory.host_available = sizing.host_available ? sizing.host_available : host_available_bytes();
    // Analysed as the events arrive (LaunchOptions::block_sink): a stripe per warp, so that the
    // worker can send whole blocks (where there are too many warps for that, the trace comes whole).
    const uint32_t per_warp =
        options.block_sink && !options.live ? per_warp_stripes(ptx::trace_warp_count(config.grid, config.block)) : 0;
    LaunchOptions first = options;
    if (per_warp) first.stripes = per_warp;
    const uint64_t tables = trace_table_bytes(config.grid, config.block, first.stripes, options.buffer);
    plan.budget = trace_budget(memory, sizing.cap_bytes, options.buffer, tables);

    first.block_ranks.clear();
    // (A stripe per warp makes an overflow cheap: its cursors count each warp's events, so the
    // worker copies none of them, and the second launch is sized exactly. The first stays modest,
    // since a hung kernel's buffer is copied whole.)
    const uint64_t first_events = sizing.first_events ? sizing.first_events : kFirstLaunchEvents;
    first.event_capacity = std::max<uint64_t>(std::min(first_events, plan.budget.events), 1);
    first.events_if_dropped = !sizing.whole_blocks;
    LaunchOutcome out = launch(worker, module, ptx_text, kernel, config, buffers, args, first);
    plan.launches = 1;
    plan.first_capacity = plan.capacity =
        trace::TraceBufferLayout::for_capacity(first.event_capacity, first.stripes).capacity();
    plan.first_limited = first.event_capacity < first_events;
    plan.first_complete = out.status == trace::RunStatus::Ok && out.dropped_events == 0;

    if (sizing.whole_blocks && out.status == trace::RunStatus::Ok && out.dropped_events > 0 &&
        !out.warp_attempted.empty()) {
        // Sized from what the first launch tried to record, in the memory its request found.
        memory.device_free = out.device_free_bytes;
        memory.trace_held = out.trace_area_bytes;
        plan.budget = trace_budget(memory, sizing.cap_bytes, options.buffer, tables);
        const BlockPlan blocks =
            plan_blocks(out.warp_attempted, warps_per_block, options.stripes, plan.budget.events);
        plan.needed_events = blocks.needed_events;
        plan.fits = blocks.fits;
        LaunchOptions again = options;
        again.live = false;
        again.on_progress = {};
        again.events_if_dropped = true;
        const trace::TraceBufferLayout whole = per_warp ? per_warp_layout(out.warp_attempted) : trace::TraceBufferLayout{};
        if (per_warp && blocks.every_block && whole.capacity() <= plan.budget.events) {
            // Every block, a stripe per warp sized from what it tried to record: streamed.
            again.event_capacity = whole.capacity();
            again.expected_events = std::accumulate(out.warp_attempted.begin(), out.warp_attempted.end(), uint64_t(0));
            again.stripes = whole.stripes;
            again.block_ranks.clear();
        } else if (blocks.fits) {
            again.event_capacity = blocks.layout.capacity();
            again.stripes = blocks.layout.stripes;
            again.block_ranks = blocks.ranks;
            if (!blocks.every_block) plan.recorded = blocks.chosen;
        } else {
            // Not even one block fits: every block records into the largest buffer, and those that
            // lose events are marked.
            again.block_ranks.clear();
            again.event_capacity = std::max<uint64_t>(plan.budget.events, 1);
        }
        const double first_ms = out.worker_ms;
        const WorkerPhases first_phases = out.worker_phases;
        out = launch(worker, module, ptx_text, kernel, config, buffers, args, again);
        out.worker_ms += first_ms;
        out.worker_phases += first_phases;
        plan.launches = 2;
        plan.capacity =
            trace::TraceBufferLayout::for_capacity(again.event_capacity, again.stripes).capacity();
    }
    if (out.faulted && options.buffer == TraceBuffer::Device && hello.can_map_host_memory) {
        // A kernel that faulted (an illegal address, a trap) takes its context with it, and a device
        // trace buffer with it: nothing of the trace can be read, so no analysis can name the access.
        // Once, trace it again into host-mapped memory, which the worker reads after a fault
        // (RunResult::partial): the events written before it, the out-of-bounds accesses that did
        // not fault themselves among them (a write that faults may or may not have been recorded:
        // events are written after their access). Bounded: one more launch of the same inputs, no
        // live updates, a buffer no larger than the first's; its outcome replaces the first's (the
        // same kernel, which on a GPU usually faults again), and its message says why it ran.
        const std::string first_fault = out.message;
        LaunchOptions again = first;
        again.buffer = TraceBuffer::Mapped;
        again.live = false;
        again.on_progress = {};
        again.events_if_dropped = true;
        const TraceBudget mapped =
            trace_budget(memory, sizing.cap_bytes, TraceBuffer::Mapped,
                         trace_table_bytes(config.grid, config.block, options.stripes, TraceBuffer::Mapped));
        again.event_capacity = std::max<uint64_t>(std::min(first.event_capacity, mapped.events), 1);
        const double first_ms = out.worker_ms;
        const WorkerPhases first_phases = out.worker_phases;
        out = launch(worker, module, ptx_text, kernel, config, buffers, args, again);
        out.worker_ms += first_ms;
        out.worker_phases += first_phases;
        plan.launches = 2;
        plan.first_fault = first_fault;
        plan.capacity =
            trace::TraceBufferLayout::for_capacity(again.event_capacity, again.stripes).capacity();
        if (out.status != trace::RunStatus::Ok) {
            out.message += " (traced again into host-mapped memory after the first traced launch failed: "
                           "a fault leaves a device trace buffer unreadable)";
            out.trace.meta.status_message = out.message;
        }
    }
    plan.partial = blocks_with(out.trace.block_history, trace::BlockHistory::Partial);
    plan.losses_known = out.drops_known;

    plan.summary = plan_summary(plan);
    out.plan = std::move(plan);
    return out;
}

} // namespace synclab::gpu
