// sim::simulate(), the names of the schedules, and the run loop. The concerns of a run live in the
// files listed in run.h.
#include "sim/simulator.h"

#include "sim/run.h"

#include <bit>
#include <chrono>
#include <map>

namespace synclab::sim {

namespace {

// Where the threads of a run that used up its budget still run: the instruction most of them are
// at, with its PTX and CUDA lines (`line_of`) and how many threads are there. A spin loop that
// never ends keeps its threads inside the loop, so that instruction is in the loop. "" when no
// thread is running.
std::string where_threads_run(const std::vector<std::unique_ptr<Block>>& resident,
                              const std::function<std::string(uint32_t)>& line_of,
                              const std::vector<std::string>& text) {
    std::map<uint32_t, uint32_t> threads_at; // pc -> running threads
    uint32_t running = 0;
    for (const auto& block : resident)
        for (const Warp& w : block->warps)
            for (uint32_t l = 0; l < kWarpSize; ++l) {
                if (w.state[l] != LaneState::Ready) continue;
                const bool at_upc = w.uniform && ((w.ready_mask >> l) & 1u);
                ++threads_at[at_upc ? w.upc : w.pc[l]];
                ++running;
            }
    if (running == 0) return "";
    auto top = threads_at.begin();
    for (auto it = threads_at.begin(); it != threads_at.end(); ++it)
        if (it->second > top->second) top = it;
    const uint32_t pc = top->first;
    return "; " + std::to_string(running) + " thread" + (running == 1 ? " was" : "s were") +
           " still running, " + std::to_string(top->second) + " of them at '" +
           (pc < text.size() ? text[pc] : std::string("?")) + "' (" + line_of(pc) + ")";
}

} // namespace

const char* to_string(Schedule schedule) {
    switch (schedule) {
    case Schedule::RoundRobin:
        return "rr";
    case Schedule::Random:
        return "random";
    case Schedule::Adversarial:
        return "adversarial";
    case Schedule::Exhaustive:
        return "exhaustive";
    }
    return "?";
}

bool parse_schedule(const std::string& text, Schedule& out) {
    if (text == "rr")
        out = Schedule::RoundRobin;
    else if (text == "random")
        out = Schedule::Random;
    else if (text == "adversarial")
        out = Schedule::Adversarial;
    else if (text == "exhaustive")
        out = Schedule::Exhaustive;
    else
        return false;
    return true;
}

Run::Run(const ptx::Module& module, const ptx::Function& fn, const LaunchConfig& launch,
         std::vector<Buffer>& buffers, const std::vector<KernelArg>& args, const Options& options,
         trace::Trace* trace, std::unique_ptr<MemorySystem> memory)
    : module_(module), fn_(fn), launch_(launch), buffers_(buffers), args_(args), options_(options),
      trace_(trace) {
    if (options.schedule == Schedule::Exhaustive) {
        auto replay = std::make_unique<ReplayChoices>(options.choices);
        replay_ = replay.get();
        choices_ = std::move(replay);
    } else {
        choices_ = std::make_unique<SeededChoices>(options.seed);
    }
    scheduler_ = make_scheduler(options.schedule, options.seed, choices_.get());
    auto watched =
        std::make_unique<WatchedMemory>(memory ? std::move(memory) : make_memory_system(options, *choices_));
    watch_ = watched.get();
    memory_ = std::move(watched);
}

Result Run::execute() {
    Result result;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        set_up();
        admit_blocks();
        uint64_t next_check = 4096;
        uint64_t next_spin_sample = 0;
        uint64_t quiet_since = UINT64_MAX; // progress count of the quiet stretch sampled
        uint64_t quiet_from = 0;           // thread-instructions when that stretch began
        while (!resident_.empty()) {
            const Pick pick = scheduler_->pick(warp_set());
            if (pick.warp == Pick::kNone) {
                result.status = trace::RunStatus::Deadlock;
                result.message = deadlock_report();
                break;
            }
            Warp& warp = *warps_[pick.warp];
            Block* block = warp.block;
            for (uint32_t q = pick.quantum; q > 0 && warp.ready_mask; --q)
                step(warp);
            if (block->live_threads == 0) retire_block(block);
            if (thread_instructions_ >= next_check) {
                next_check = thread_instructions_ + 4096;
                update_horizon();
                if (thread_instructions_ > options_.max_steps)
                    throw BudgetExceeded{Budget::Steps,
                                         "step budget of " + std::to_string(options_.max_steps) +
                                             " thread-instructions exhausted (a spin loop that never ends?); "
                                             "raise it with --max-steps N"};
                if (options_.cancel && options_.cancel->load(std::memory_order_relaxed)) {
                    result.status = trace::RunStatus::Cancelled;
                    result.message = "cancelled";
                    break;
                }
                if (options_.progress)
                    options_.progress(double(blocks_done_) / std::max<uint32_t>(block_count_, 1));
                // Blocks wait for a slot: do the resident ones spin without end (progress_watch.h)?
                if (next_block_ < block_count_ && thread_instructions_ >= next_spin_sample) {
                    uint64_t live = 0;
                    for (const Warp* w : warps_)
                        live += std::popcount(w->live_mask());
                    next_spin_sample = thread_instructions_ + std::max<uint64_t>(16384, 4 * live);
                    const uint64_t progress = watch_->progress();
                    // Sampled only once quiet for long: a wave of blocks that loads and computes
                    // before it stores is quiet for a while too, and hashing every resident warp's
                    // registers then cost two thirds of the simulator's time (docs/PERF_NOTES.md).
                    const bool quiet_for_long = thread_instructions_ - quiet_from >= kQuietBeforeSampling * live;
                    if (progress != quiet_since) {
                        quiet_since = progress;
                        quiet_from = thread_instructions_;
                        spin_.reset(progress);
                    } else if (quiet_for_long) {
                        ++result.spin_samples;
                        if (spin_.sample(warps_, slots_, progress) && spin_.samples() >= 3) {
                            if (!widen_residency()) {
                                result.status = trace::RunStatus::Deadlock;
                                result.message = spin_report();
                                break;
                            }
                            quiet_since = UINT64_MAX;
                        }
                    }
                }
            }
        }
    } catch (const KernelFault& f) {
        result.status = trace::RunStatus::Error;
        result.message = f.message;
    } catch (const BudgetExceeded& b) {
        result.status = trace::RunStatus::Budget;
        result.budget = b.which;
        result.message = b.message;
        // A run stopped mid-way by a budget of its own making (steps, events) says where it spun.
        if (b.which == Budget::Steps || b.which == Budget::Events || b.which == Budget::Memory)
            result.message += where_threads_run(resident_, [this](uint32_t pc) { return line_of(pc); }, fn_.text);
    }
    // Pending writes reach the outputs, also of a run that stopped early.
    memory_->kernel_ended();
    if (options_.progress && result.status == trace::RunStatus::Ok) options_.progress(1.0);
    result.thread_instructions = thread_instructions_;
    result.warp_instructions = warp_instructions_;
    result.modelled_cycles = modelled_end();
    result.cas_failures = cas_failures_total_;
    result.streamed_events = streamed_events_;
    result.dropped_events = dropped_events_;
    result.streamed_blocks = streamed_blocks_;
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    finish_trace(result, ms);
    result.memory_bytes = peak_bytes_;
    result.buffer_addresses = buffer_address_;
    result.global_addresses = symbol_address_;
    if (replay_) result.choices = std::move(replay_->taken());
    return result;
}

// The lowest clock of a warp that can still issue an access: the cost model's servers forget what
// ends before it.
void Run::update_horizon() {
    if (!cost_) return;
    uint64_t low = UINT64_MAX;
    for (const Warp* w : warps_)
        if (w->live_mask()) low = std::min(low, w->modelled_cycles);
    if (low != UINT64_MAX) cost_->set_horizon(low);
}

// The run's modelled duration: the latest clock at which a thread exited or an access completed
// (stores and reds land after their warps go on); for a run that stopped early, the latest clock
// any warp reached.
uint64_t Run::modelled_end() const {
    if (!cost_) return 0;
    uint64_t end = std::max(end_clock_, cost_->last_completion());
    for (const Warp* w : warps_)
        end = std::max(end, w->modelled_cycles);
    return end;
}

Result simulate(const ptx::Module& module, const std::string& kernel, const LaunchConfig& launch,
                std::vector<Buffer>& buffers, const std::vector<KernelArg>& args, const Options& options,
                trace::Trace* trace_out) {
    // What ran, as far as the request says it, even for a run refused before its first instruction.
    if (trace_out) {
        trace_out->meta.kernel = kernel;
        trace_out->meta.backend = "sim";
        trace_out->meta.grid = launch.grid;
        trace_out->meta.block = launch.block;
    }
    auto fail = [&](std::string message) {
        Result r;
        r.status = trace::RunStatus::Error;
        r.message = std::move(message);
        if (trace_out) {
            trace_out->meta.status = r.status;
            trace_out->meta.status_message = r.message;
        }
        return r;
    };
    const ptx::Function* fn = module.find_entry(kernel);
    if (!fn) {
        std::string names;
        for (const std::string& n : module.entry_names())
            names += (names.empty() ? "" : ", ") + n;
        return fail("no kernel named '" + kernel +
                    "' in the module (kernels: " + (names.empty() ? "none" : names) + ")");
    }
    if (fn->code.size() > 0xffff)
        return fail("kernel " + kernel + " has " + std::to_string(fn->code.size()) +
                    " instructions; traces address at most 65535");
    Run run(module, *fn, launch, buffers, args, options, trace_out);
    return run.execute();
}

Exploration explore(const ptx::Module& module, const std::string& kernel, const LaunchConfig& launch,
                    const std::vector<Buffer>& initial, const std::vector<KernelArg>& args, const Options& options,
                    const ExploreOptions& explore_options,
                    const std::function<bool(const Result&, const std::vector<Buffer>&, trace::Trace*)>& on_execution) {
    Exploration out;
    out.bound = explore_options.max_executions;
    Options o = options;
    o.schedule = Schedule::Exhaustive;
    o.choices.clear();
    trace::Trace trace;
    // Depth-first over the tree of choice points: each execution replays the choices of the last
    // one up to its deepest choice point that has an untried option, takes that option, and goes on
    // with option 0 at every new choice point.
    while (true) {
        if (out.executions >= out.bound) return out;
        std::vector<Buffer> buffers = initial;
        trace = trace::Trace{};
        const Result r = simulate(module, kernel, launch, buffers, args, o, o.record_trace ? &trace : nullptr);
        ++out.executions;
        if (!on_execution(r, buffers, o.record_trace ? &trace : nullptr)) {
            out.stopped = "stopped by the caller";
            return out;
        }
        if (r.status == trace::RunStatus::Error || r.status == trace::RunStatus::Cancelled) {
            out.stopped = r.message;
            return out;
        }
        size_t deepest = r.choices.size();
        while (deepest > 0 && r.choices[deepest - 1].second + 1 >= r.choices[deepest - 1].first)
            --deepest;
        if (deepest == 0) {
            out.complete = true;
            return out;
        }
        o.choices.resize(deepest);
        for (size_t i = 0; i + 1 < deepest; ++i)
            o.choices[i] = r.choices[i].second;
        o.choices[deepest - 1] = r.choices[deepest - 1].second + 1;
    }
}

} // namespace synclab::sim
