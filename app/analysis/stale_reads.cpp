// The wording of stale_read findings: which half of a flag chain lacks its fence, or which fence's
// scope leaves the other block out (sync_order.h has the rules; global_races.cpp finds the reads).
#include "analysis/detail.h"

namespace synclab::analysis::detail {

namespace {

using trace::Scope;

const char* fence_name(Scope scope) {
    switch (scope) {
    case Scope::Block:
        return "__threadfence_block()";
    case Scope::System:
        return "__threadfence_system()";
    case Scope::Device:
    case Scope::None:
        break;
    }
    return "__threadfence()";
}

const char* scope_name(Scope scope) {
    switch (scope) {
    case Scope::Block:
        return ".cta";
    case Scope::System:
        return ".sys";
    case Scope::Device:
    case Scope::None:
        break;
    }
    return ".gpu";
}

// What is missing between the data write (stamped with `writer_lc`) and the data read, in the
// words of the finding: one or two clauses, writer first.
std::string missing_words(const trace::Trace& trace, const StaleExample& x, uint8_t& bits) {
    const Seen& s = x.chain;
    const uint32_t tb = trace.threads[x.writer].block;
    const uint32_t fb = trace.threads[s.reader].block; // the block of the thread that saw the flag
    const std::string flag_write =
        (s.write_atomic ? "the atomic on the flag (" : "the flag store (") + line_label(trace, s.write_site) + ")";
    std::vector<std::string> clauses;

    // The writer's half: a fence after the data write (lc above it) whose scope includes the
    // reader, or the flag write itself a release of such a scope.
    const bool release_ok = s.write_release && scope_includes(s.write_scope, tb, fb);
    const bool fence_ok = s.fence_lc > x.writer_lc && (tb == fb || s.wide_fence_lc > x.writer_lc);
    if (!release_ok && !fence_ok) {
        bits |= s.fence_lc > x.writer_lc && tb != fb ? missing::kWriterScope
                 : s.write_release                   ? missing::kWriterScope
                                                     : missing::kWriterFence;
        if (s.fence_lc > x.writer_lc && tb != fb) {
            clauses.push_back(std::string(fence_name(s.fence_scope)) + " (" + line_label(trace, s.fence_site) +
                              ") orders nothing for block " + std::to_string(fb));
        } else if (s.write_release) {
            clauses.push_back("the release " + flag_write.substr(4) + " has scope " + scope_name(s.write_scope) +
                              ": it orders nothing for block " + std::to_string(fb));
        } else {
            clauses.push_back("no fence in the writer between the data store (" +
                              line_label(trace, x.data_write_site) + ") and " + flag_write);
        }
    }
    // The reader's half: a fence after seeing the flag, in the thread that saw it, whose scope
    // includes the writer, or the flag read itself an acquire of such a scope.
    const bool acquire_ok = s.read_acquire && scope_includes(s.read_scope, fb, tb);
    const bool reader_fence_ok = s.reader_wide_fence || (s.reader_fence_site != kNoSite && fb == tb);
    if (!acquire_ok && !reader_fence_ok) {
        bits |= s.reader_fence_site != kNoSite || s.read_acquire ? missing::kReaderScope : missing::kReaderFence;
        if (s.reader_fence_site != kNoSite) {
            clauses.push_back(std::string(fence_name(s.reader_fence_scope)) + " (" +
                              line_label(trace, s.reader_fence_site) + ") orders nothing for block " +
                              std::to_string(tb));
        } else if (s.read_acquire) {
            clauses.push_back("the acquire load of the flag (" + line_label(trace, s.read_site) + ") has scope " +
                              scope_name(s.read_scope) + ": it orders nothing for block " + std::to_string(tb));
        } else {
            clauses.push_back("no fence in the reader between seeing the flag (" + line_label(trace, s.read_site) +
                              ") and reading the data (" + line_label(trace, x.data_read_site) + ")");
        }
    }
    if (clauses.empty()) {
        bits |= missing::kFlagScope;
        // Both halves are there, yet the flag accesses do not synchronise: their scopes.
        clauses.push_back("the flag accesses (" + line_label(trace, s.write_site) + ", " +
                          line_label(trace, s.read_site) + ") are not morally strong: the scope of one of them "
                          "leaves out the other's block");
    }
    std::string out = clauses[0];
    for (size_t i = 1; i < clauses.size(); ++i)
        out += ", and " + clauses[i];
    return out;
}

} // namespace

Finding stale_read_finding(const trace::Trace& trace, const StaleExample& x, uint64_t count,
                           uint64_t harmful) {
    Finding f;
    f.kind = FindingKind::StaleRead;
    f.check = x.ordered ? "ordered_read_stale" : "flag_without_fence";
    f.hazard = Hazard::RAW;
    f.space = trace::Space::Global;
    add_line(f, trace, x.data_write_site);
    if (!x.ordered) {
        add_line(f, trace, x.chain.write_site);
        add_line(f, trace, x.chain.read_site);
    }
    add_line(f, trace, x.data_read_site);
    f.threads = {x.writer, x.reader};
    if (!x.ordered && x.chain.reader != x.reader) f.threads.push_back(x.chain.reader);
    f.count = count;
    f.harmful = harmful;
    f.count_noun = "load";
    f.address = x.address;
    f.block = trace.threads[x.writer].block;
    name_memory(f, trace);
    const std::string reader = block_thread(trace, x.reader), writer = block_thread(trace, x.writer);
    if (x.ordered) {
        f.text = reader + " (" + line_label(trace, x.data_read_site) + ") read an old value of " + f.memory +
                 " although " + writer + "'s store (" + line_label(trace, x.data_write_site) +
                 ") happens before it: the trace breaks the memory model";
    } else {
        const std::string saw = x.chain.reader == x.reader ? std::string("it") : block_thread(trace, x.chain.reader);
        f.text = "stale read of " + f.memory + ": " + reader + " (" + line_label(trace, x.data_read_site) +
                 ") reads data " + writer + " wrote (" + line_label(trace, x.data_write_site) +
                 ") before setting a flag (" + line_label(trace, x.chain.write_site) + ") that " + saw +
                 " saw (" + line_label(trace, x.chain.read_site) +
                 "), but nothing orders the data: " + missing_words(trace, x, f.missing);
    }
    render_message(f);
    return f;
}

} // namespace synclab::analysis::detail
