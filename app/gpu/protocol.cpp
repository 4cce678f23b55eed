#include "gpu/protocol.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace synclab::gpu {

const char* to_string(TraceBuffer buffer) {
    return buffer == TraceBuffer::Mapped ? "mapped" : "device";
}

const char* to_string(ResultStatus status) {
    switch (status) {
    case ResultStatus::Ok:
        return "ok";
    case ResultStatus::Timeout:
        return "timeout";
    case ResultStatus::Fault:
        return "fault";
    case ResultStatus::Error:
        return "error";
    }
    return "?";
}

namespace {

template <class Stream, class Msg> void host_reader_launch_fields(Stream& s, Msg& m) {
    s.pod(m.pairs);
    s.pod(m.seen);
    s.pod(m.stale);
    s.pod(m.after_kernel);
    s.pod(m.gave_up);
    s.pod(m.reader_ms);
    s.str(m.message);
    s.vec(m.records);
}

// Sanity limit on one payload: a corrupt header must not make us allocate terabytes.
constexpr uint64_t kMaxPayload = 64ull << 30;

class Writer {
  public:
    template <class T> void pod(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes_.append(reinterpret_cast<const char*>(&v), sizeof(T));
    }
    void str(const std::string& s) {
        pod<uint64_t>(s.size());
        bytes_.append(s);
    }
    template <class T> void vec(const std::vector<T>& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        pod<uint64_t>(v.size());
        bytes_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
    }
    void dim(const trace::Dim3& d) {
        pod(d.x);
        pod(d.y);
        pod(d.z);
    }
    void buffers(const std::vector<NamedBuffer>& b) {
        pod<uint64_t>(b.size());
        for (const NamedBuffer& x : b) {
            str(x.name);
            vec(x.bytes);
        }
    }
    void strings(const std::vector<std::string>& v) {
        pod<uint64_t>(v.size());
        for (const std::string& x : v)
            str(x);
    }
    void readers(const std::vector<HostReaderLaunch>& v) {
        pod<uint64_t>(v.size());
        for (const HostReaderLaunch& x : v)
            host_reader_launch_fields(*this, x);
    }
    std::string take() { return std::move(bytes_); }

  private:
    std::string bytes_;
};

class Reader {
  public:
    explicit Reader(const std::string& s) : p_(s.data()), end_(s.data() + s.size()) {}
    template <class T> T pod() {
        static_assert(std::is_trivially_copyable_v<T>);
        need(sizeof(T));
        T v;
        std::memcpy(&v, p_, sizeof(T));
        p_ += sizeof(T);
        return v;
    }
    template <class T> void pod(T& v) { v = pod<T>(); }
    std::string str() {
        const uint64_t n = pod<uint64_t>();
        need(n);
        std::string s(p_, n);
        p_ += n;
        return s;
    }
    void str(std::string& s) { s = str(); }
    template <class T> void vec(std::vector<T>& v) {
        const uint64_t n = pod<uint64_t>();
        if (n > uint64_t(end_ - p_) / sizeof(T))
            throw ProtocolError("truncated message (vector of " + std::to_string(n) + ")");
        v.resize(n);
        if (n) std::memcpy(v.data(), p_, n * sizeof(T));
        p_ += n * sizeof(T);
    }
    void dim(trace::Dim3& d) {
        d.x = pod<uint32_t>();
        d.y = pod<uint32_t>();
        d.z = pod<uint32_t>();
    }
    void buffers(std::vector<NamedBuffer>& b) {
        const uint64_t n = pod<uint64_t>();
        if (n > uint64_t(end_ - p_)) throw ProtocolError("truncated message (buffer count)");
        b.resize(n);
        for (NamedBuffer& x : b) {
            x.name = str();
            vec(x.bytes);
        }
    }
    void strings(std::vector<std::string>& v) {
        const uint64_t n = pod<uint64_t>();
        // (each string takes at least its 8-byte length)
        if (n > uint64_t(end_ - p_) / 8) throw ProtocolError("truncated message (string count)");
        v.resize(n);
        for (std::string& x : v)
            x = str();
    }
    void readers(std::vector<HostReaderLaunch>& v) {
        const uint64_t n = pod<uint64_t>();
        if (n > uint64_t(end_ - p_)) throw ProtocolError("truncated message (host reader launches)");
        v.resize(n);
        for (HostReaderLaunch& x : v)
            host_reader_launch_fields(*this, x);
    }
    void done() const {
        if (p_ != end_)
            throw ProtocolError("message has " + std::to_string(end_ - p_) + " unexpected trailing bytes");
    }

  private:
    void need(uint64_t n) const {
        if (n > uint64_t(end_ - p_)) throw ProtocolError("truncated message");
    }
    const char* p_;
    const char* end_;
};

// One field list per message, walked by both directions: a Writer reads the fields (Msg const), a
// Reader fills them, so encode and decode cannot drift apart. Hello's version is not in its list:
// it is read and checked first, because a worker of another version may lay out the rest otherwise.
template <class Stream, class Msg> void hello_fields(Stream& s, Msg& m) {
    s.pod(m.state);
    s.str(m.message);
    s.str(m.device);
    s.pod(m.sm_count);
    s.pod(m.cc_major);
    s.pod(m.cc_minor);
    s.pod(m.driver_version);
    s.pod(m.memory_bytes);
    s.pod(m.free_memory_bytes);
    s.pod(m.can_map_host_memory);
}

template <class Stream, class Msg> void request_fields(Stream& s, Msg& m) {
    s.str(m.ptx);
    s.str(m.kernel);
    s.dim(m.grid);
    s.dim(m.block);
    s.pod(m.dynamic_shared_bytes);
    s.buffers(m.buffers);
    s.vec(m.args);
    s.pod(m.mode);
    s.pod(m.trace_buffer);
    s.pod(m.trace_layout.stripes);
    s.pod(m.trace_layout.stripe_capacity);
    s.pod(m.warp_count);
    s.vec(m.block_ranks);
    s.pod(m.events_if_dropped);
    s.pod(m.timeout_s);
    s.pod(m.launches);
    s.pod(m.return_buffers);
    s.pod(m.return_events);
    s.pod(m.live);
    s.pod(m.host_reader.enabled);
    s.pod(m.host_reader.flags_buffer);
    s.pod(m.host_reader.data_buffer);
    s.pod(m.host_reader.pairs);
    s.pod(m.cooperative);
    s.pod(m.events_by_block);
    s.strings(m.globals); // last: tests/gpu/client_test.cpp corrupts its count
}

template <class Stream, class Msg> void result_fields(Stream& s, Msg& m) {
    s.pod(m.status);
    s.str(m.message);
    s.str(m.jit_log);
    s.vec(m.kernel_ms);
    s.buffers(m.buffers);
    s.pod(m.cursor);
    s.pod(m.dropped);
    s.pod(m.cursor_known);
    s.pod(m.partial);
    s.vec(m.events);
    s.vec(m.warps);
    s.vec(m.warp_dropped);
    s.pod(m.drops_known);
    s.vec(m.warp_attempted);
    s.pod(m.events_withheld);
    s.pod(m.device_free_bytes);
    s.pod(m.trace_area_bytes);
    s.pod(m.wall_ms);
    s.pod(m.phases);
    s.readers(m.host_reader);
    s.vec(m.buffer_addresses);
    s.vec(m.global_addresses);
    s.pod(m.events_by_block);
    s.vec(m.shared_addresses);
}

template <class Stream, class Msg> void progress_fields(Stream& s, Msg& m) {
    s.pod(m.elapsed_ms);
    s.pod(m.events_seen);
    s.vec(m.events);
}

template <class Stream, class Msg> void block_events_fields(Stream& s, Msg& m) {
    s.pod(m.first_block);
    s.pod(m.blocks);
    s.vec(m.events);
}

} // namespace

std::string encode(const Hello& m) {
    Writer w;
    w.pod(m.version);
    hello_fields(w, m);
    return w.take();
}

void decode(const std::string& payload, Hello& m) {
    Reader r(payload);
    r.pod(m.version);
    if (m.version != kProtocolVersion)
        throw ProtocolError("the GPU worker speaks protocol version " + std::to_string(m.version) +
                            ", expected " + std::to_string(kProtocolVersion) +
                            " (a worker from another build?)");
    hello_fields(r, m);
    r.done();
}

std::string encode(const RunRequest& m) {
    Writer w;
    request_fields(w, m);
    return w.take();
}

void decode(const std::string& payload, RunRequest& m) {
    Reader r(payload);
    request_fields(r, m);
    r.done();
}

std::string encode(const RunResult& m) {
    Writer w;
    result_fields(w, m);
    return w.take();
}

void decode(const std::string& payload, RunResult& m) {
    Reader r(payload);
    result_fields(r, m);
    r.done();
}

std::string encode(const Progress& m) {
    Writer w;
    progress_fields(w, m);
    return w.take();
}

void decode(const std::string& payload, Progress& m) {
    Reader r(payload);
    progress_fields(r, m);
    r.done();
}

std::string encode(const BlockEvents& m) {
    Writer w;
    block_events_fields(w, m);
    return w.take();
}

void decode(const std::string& payload, BlockEvents& m) {
    Reader r(payload);
    block_events_fields(r, m);
    r.done();
}

namespace {

bool is_socket(int fd) {
    struct stat st {};
    return fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
}

void write_all(int fd, const char* p, size_t n) {
    const bool socket = is_socket(fd);
    while (n > 0) {
        const ssize_t k = socket ? send(fd, p, n, MSG_NOSIGNAL) : write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            throw ProtocolError(std::string("the other side of the GPU worker's pipe has gone (") +
                                std::strerror(errno) + ")");
        }
        p += k;
        n -= static_cast<size_t>(k);
    }
}

// Reads exactly n bytes; false on end of input before the first byte, throws on a torn message.
ReadStatus read_all(int fd, char* p, size_t n, std::chrono::steady_clock::time_point deadline, bool first) {
    size_t got = 0;
    while (got < n) {
        if (deadline != std::chrono::steady_clock::time_point::max()) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return ReadStatus::Timeout;
            pollfd pfd{fd, POLLIN, 0};
            const int r = poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
            if (r < 0 && errno != EINTR)
                throw ProtocolError(std::string("poll failed: ") + std::strerror(errno));
            if (r <= 0) continue;
        }
        const ssize_t k = read(fd, p + got, n - got);
        if (k < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            throw ProtocolError(std::string("reading from the GPU worker's pipe failed: ") +
                                std::strerror(errno));
        }
        if (k == 0) {
            if (first && got == 0) return ReadStatus::Eof;
            throw ProtocolError("the GPU worker's pipe closed in the middle of a message");
        }
        got += static_cast<size_t>(k);
    }
    return ReadStatus::Ok;
}

// A message's 16-byte header: magic, type, payload size.
void write_header(int fd, MessageType type, uint64_t size) {
    char header[16];
    const uint32_t magic = kMagic;
    const uint32_t t = static_cast<uint32_t>(type);
    std::memcpy(header, &magic, 4);
    std::memcpy(header + 4, &t, 4);
    std::memcpy(header + 8, &size, 8);
    write_all(fd, header, sizeof header);
}

} // namespace

void write_message(int fd, MessageType type, const std::string& payload) {
    write_header(fd, type, payload.size());
    write_all(fd, payload.data(), payload.size());
}

void write_block_events(int fd, const BlockEvents& m) {
    write_block_events(fd, BlockEventsView{m.first_block, m.blocks, m.events.data(), m.events.size()});
}

void write_block_events(int fd, const BlockEventsView& m) {
    // The header, then the fields as block_events_fields lays them out, then the events' own bytes.
    const uint64_t event_bytes = m.count * sizeof(trace::Event);
    char fields[16];
    std::memcpy(fields, &m.first_block, 4);
    std::memcpy(fields + 4, &m.blocks, 4);
    std::memcpy(fields + 8, &m.count, 8);
    write_header(fd, MessageType::BlockEvents, sizeof fields + event_bytes);
    write_all(fd, fields, sizeof fields);
    write_all(fd, reinterpret_cast<const char*>(m.events), event_bytes);
}

ReadStatus read_message(int fd, MessageType& type, std::string& payload,
                        std::chrono::steady_clock::time_point deadline, BlockEvents* block_events) {
    char header[16];
    const ReadStatus s = read_all(fd, header, sizeof header, deadline, true);
    if (s != ReadStatus::Ok) return s;
    uint32_t magic, t;
    uint64_t size;
    std::memcpy(&magic, header, 4);
    std::memcpy(&t, header + 4, 4);
    std::memcpy(&size, header + 8, 8);
    if (magic != kMagic) throw ProtocolError("the GPU worker sent something that is not a SyncLab message");
    if (size > kMaxPayload)
        throw ProtocolError("the GPU worker announced a message of " + std::to_string(size) + " bytes");
    type = static_cast<MessageType>(t);
    if (type == MessageType::BlockEvents && block_events) {
        // Straight into the batch: its 16 bytes of fields, then the events.
        payload.clear();
        char fields[16];
        if (size < sizeof fields) throw ProtocolError("truncated message");
        const ReadStatus f = read_all(fd, fields, sizeof fields, deadline, false);
        if (f != ReadStatus::Ok) return f;
        uint64_t count = 0;
        std::memcpy(&block_events->first_block, fields, 4);
        std::memcpy(&block_events->blocks, fields + 4, 4);
        std::memcpy(&count, fields + 8, 8);
        if (count > (size - sizeof fields) / sizeof(trace::Event) ||
            count * sizeof(trace::Event) != size - sizeof fields)
            throw ProtocolError("a batch of " + std::to_string(count) + " events in a message of " +
                                std::to_string(size) + " bytes");
        block_events->events.resize(count);
        const ReadStatus e = read_all(fd, reinterpret_cast<char*>(block_events->events.data()),
                                      count * sizeof(trace::Event), deadline, false);
        return e == ReadStatus::Timeout ? ReadStatus::Timeout : ReadStatus::Ok;
    }
    payload.resize(size);
    const ReadStatus b = read_all(fd, payload.data(), size, deadline, false);
    if (b == ReadStatus::Timeout) return ReadStatus::Timeout;
    return ReadStatus::Ok;
}

} // namespace synclab::gpu
