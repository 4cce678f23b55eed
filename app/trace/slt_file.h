// The .slt file: one Trace, saved and loaded losslessly.
//
// Layout (all integers little-endian; version 3):
//
//   offset  size  header
//        0     8  magic "\x89SLT\r\n\x1a\n" (high bit + CR LF + ^Z catch 7-bit and text-mode mangling)
//        8     4  u32 version              (of the writer)
//       12     4  u32 min_reader_version   (oldest reader that can read this file)
//       16     4  u32 flags                (bit 0: kSltFlagCompleteMemoryMap; readers ignore the
//                                           bits they do not know)
//       20     4  u32 header_size          (64 in version 1; multiple of 8; a newer header may be longer)
//       24     4  u32 section_count
//       28     4  u32 reserved (0)
//       32     8  u64 thread_count
//       40     8  u64 site_count
//       48     8  u64 event_count
//       56     8  u64 checksum of header bytes [0, header_size - 8)
//
//   then section_count sections, each a 24-byte section header followed by its payload and zero
//   padding up to a multiple of 8:
//        0     4  u32 tag ("META", "THRD", "SITE", "EVNT" as ASCII)
//        4     4  u32 record_size          (THRD 20, EVNT 32, 0 for variable-length sections)
//        8     8  u64 payload_size         (bytes, without the padding)
//       16     8  u64 checksum of the payload
//
//   META  RunMeta: fields in declaration order; strings as u32 length + UTF-8 bytes (no NUL),
//         integers in their declared width, Dim3 as 3 x u32, RunStatus as u8, elapsed_ms as the
//         IEEE-754 bits of the double (u64)
//   THRD  thread_count raw ThreadInfo records (20 bytes each)
//   SITE  site_count x { u32 ptx_line, u32 source_line, u32 text length, text bytes }
//   EVNT  event_count raw Event records (32 bytes each)
//   BLKS  (version 2) one u8 BlockHistory per block, or nothing when every block is whole
//   TIMG  (version 3) event_count raw EventTiming records (16 bytes: u64 issue, u32 latency,
//         u32 queue_depth), or nothing when the run was not modelled
//   CASF  (version 3) site_count u32 failed-CAS counts (Trace::cas_failures), or nothing
//   RSDN  (optional, after CASF) one BlockResidency record (24 bytes) per block (Trace::residency)
//   MMAP  (optional, last) the memory map (Trace::memory, memory_map.h): u32 region count, then per
//         region u8 space (0 global, 1 shared), 3 zero bytes, u32 element_size, u64 base, u64 bytes,
//         name and element_type as u32 length + UTF-8 bytes. Written only when the map is not
//         empty; files without it load with an empty map (addresses then name no variable), and a
//         reader older than it skips it. A malformed one is an error naming the section, the region
//         and its file offset. Whether the map is complete (MemoryMap::complete: every global
//         allocation the kernel may reach is in it, so that the bounds check may run) is the header's
//         flag kSltFlagCompleteMemoryMap, not a field of MMAP: a reader older than the flag ignores
//         header flags but refuses bytes after MMAP's last region, and a complete map may have no
//         regions (no MMAP section) at all. Files written before the flag load as not complete.
//   INLN  (optional, after MMAP) the sites' line origins (Site::origin: a line's file when it is not
//         the kernel's, and the inlined calls that lead to it): u32 entry count, then per site with
//         a non-empty origin, in increasing site order: u32 site index, file (u32 length + UTF-8),
//         u32 call count, per call: function and file (u32 length + UTF-8 each), u32 line. Written
//         only when some site has one (a kernel that inlines a __device__ helper); files without it
//         load with empty origins (every line in the kernel's body: files written before it knew only
//         the outermost line), and a reader older than it skips it. A malformed one is an error
//         naming the section, the entry and its file offset.
//
// Version 3 writes the seven sections in that order and appends RunMeta::modelled_cycles (u64) to
// META; a version 2 file has neither (read as not modelled). Version 3 keeps min_reader_version 1:
// an older reader skips TIMG and CASF and, the file being newer, the bytes at the end of META.
//
// Version 2 writes the five sections in that order and nothing after the last one; version 1 had no
// BLKS (every block whole). A file in which some block is not whole says min_reader_version 2, so
// that no older reader analyses a partial history as if it were complete. A reader skips
// sections whose tag it does not know (a newer writer may add some without raising
// min_reader_version) and, for files newer than itself, ignores bytes it does not know at the end of
// META. The checksum is slt_checksum64 (below): 64-bit, 8 bytes per step, and guaranteed to change
// when any single 8-byte word of the payload changes.
//
// Loading validates everything before returning (see check_trace): a Trace that load_trace returns
// has every event's kind known, every thread and site index in range, every enum known, and a thread
// table of exactly grid x block entries. Saving runs the same checks, so a file SyncLab writes is a
// file SyncLab reads.
#pragma once

#include "trace/trace.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace synclab::trace {

constexpr uint32_t kSltVersion = 3;          // what this code writes and the newest it reads
constexpr uint32_t kSltMinReaderVersion = 1; // what it writes as min_reader_version (2 when a block
                                             // is not whole: see BLKS)
constexpr uint32_t kSltHeaderSize = 64;
// Header flags (the u32 at offset 16).
constexpr uint32_t kSltFlagCompleteMemoryMap = 1u << 0; // Trace::memory.complete()
constexpr uint32_t kSltSectionHeaderSize = 24;
constexpr char kSltMagic[8] = {'\x89', 'S', 'L', 'T', '\r', '\n', '\x1a', '\n'};

// Every failure to read or write a trace file: corrupt or foreign content, unsupported version, or
// an I/O error. what() is one line that starts with the file name (or name_for_errors) and says
// what is wrong and where, e.g. "run.slt: checksum mismatch in events section".
class TraceFileError : public std::runtime_error {
  public:
    TraceFileError(const std::string& name, const std::string& problem)
        : std::runtime_error(name + ": " + problem), name_(name), problem_(problem) {}
    const std::string& name() const { return name_; }       // the path or name_for_errors
    const std::string& problem() const { return problem_; } // the message without the name
  private:
    std::string name_;
    std::string problem_;
};

struct SaveOptions {
    // fsync the file before renaming it over the destination (and the directory after), so that a
    // crash or power loss leaves either the old or the new file. Costs a disk flush; benchmarks and
    // throwaway files may turn it off.
    bool durable = true;
};

// Writes `trace` to `path` atomically: the bytes go to "<path>.tmp" (an existing one is replaced),
// which is renamed over `path` only once complete. On any failure the temporary file is removed,
// `path` is left as it was, and TraceFileError says what failed with the path and errno text. An
// invalid trace (see check_trace) is refused before anything is written.
void save_trace(const Trace& trace, const std::string& path, const SaveOptions& options = {});

// Reads and validates a trace file. Throws TraceFileError for anything but a valid file.
Trace load_trace(const std::string& path);

// The same bytes as save_trace writes, in memory.
std::vector<uint8_t> serialize(const Trace& trace);

// Parses bytes produced by serialize/save_trace. `name_for_errors` starts every error message.
Trace deserialize(std::span<const uint8_t> bytes, const std::string& name_for_errors);

// The first consistency problem of a trace, or "" if none: what load_trace guarantees and
// save_trace requires. Checks: RunStatus known; thread table empty (a run that never started, then
// no events either) or exactly grid.count() x block.count() entries, each with a known ThreadEnd,
// block < grid.count(), thread_in_block < block.count(), lane < 32, warp * 32 + lane ==
// thread_in_block, end_site < sites.size() (or 0 when there are no sites); every event's kind
// known, thread < threads.size(), site < sites.size(). Every bit pattern of Event::flags is
// meaningful (space, log2 size, scope are 2-bit fields), so flags are not checked.
std::string check_trace(const Trace& trace);

// Bytes an .slt file of this trace takes (header, sections, padding).
uint64_t slt_file_size(const Trace& trace);

// The checksum the format uses, exposed for tests and tools. Streaming: update() any number of
// times with any sizes, then finish(); equal byte sequences give equal results however split.
class SltChecksum {
  public:
    SltChecksum();
    void update(const void* data, size_t size);
    uint64_t finish() const;

  private:
    void block(const uint8_t* p);
    uint64_t lane_[4];
    uint8_t pending_[32];
    size_t pending_size_ = 0;
    uint64_t total_ = 0;
};
uint64_t slt_checksum64(const void* data, size_t size);

} // namespace synclab::trace
