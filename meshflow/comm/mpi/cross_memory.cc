// Copyright 2026 The meshflow Authors.
#include "meshflow/comm/mpi/cross_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#include "meshflow/comm/mpi/mpi_check.h"
#include "meshflow/core/allocator.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace mf::comm::cross_memory {
namespace {

constexpr size_t kMaxRuns = 1024;  // IOV_MAX: runs per system call, on either side

// What a member publishes for its peers to check: a value only it holds, at an address
// they read by cross-memory attach and in a shared block they map.
struct Probe {
  int64_t pid;
  uint64_t address;
  uint64_t value;
  PeerBlock block;
};

std::string system_error(const std::string& what) { return what + ": " + std::strerror(errno); }

// Peers' blocks mapped here, by (pid, serial). Bounded: a peer may free a block without
// telling (its serial is then never published again), and each mapping keeps its pages.
class Mappings {
 public:
  std::shared_ptr<char> get(pid_t pid, const PeerBlock& block) {
    const std::pair<pid_t, uint64_t> key{pid, block.serial};
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = mapped_.find(key); it != mapped_.end()) return it->second;
    const std::string path = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(block.fd);
    const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error(system_error("cannot open " + path));
    void* p = mmap(nullptr, block.bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) throw std::runtime_error(system_error("cannot map " + path));
    const size_t bytes = block.bytes;
    std::shared_ptr<char> mapping(static_cast<char*>(p), [bytes](char* q) { munmap(q, bytes); });
    if (order_.size() == kMaxMappings) {
      mapped_.erase(order_.front());
      order_.pop_front();
    }
    mapped_[key] = mapping;
    order_.push_back(key);
    return mapping;
  }

 private:
  static constexpr size_t kMaxMappings = 64;
  std::mutex mu_;
  std::map<std::pair<pid_t, uint64_t>, std::shared_ptr<char>> mapped_;  // GUARDED_BY(mu_)
  std::deque<std::pair<pid_t, uint64_t>> order_;                         // oldest first; GUARDED_BY(mu_)
};

// Never destroyed: a collective may run during static destruction.
Mappings& mappings() {
  static Mappings* m = new Mappings;
  return *m;
}

// Batches matched pieces of the two run lists into system calls.
class Batch {
 public:
  Batch(pid_t pid, bool write) : pid_(pid), write_(write) {}

  void add(char* local, char* remote, size_t bytes) {
    const bool joins_local = !local_.empty() && end(local_.back()) == local;
    const bool joins_remote = !remote_.empty() && end(remote_.back()) == remote;
    if ((!joins_local && local_.size() == kMaxRuns) || (!joins_remote && remote_.size() == kMaxRuns)) {
      flush();
      return add(local, remote, bytes);
    }
    append(local_, joins_local, local, bytes);
    append(remote_, joins_remote, remote, bytes);
    bytes_ += bytes;
  }

  void flush() {
    if (bytes_ == 0) return;
    const ssize_t moved =
        write_ ? process_vm_writev(pid_, local_.data(), local_.size(), remote_.data(), remote_.size(), 0)
               : process_vm_readv(pid_, local_.data(), local_.size(), remote_.data(), remote_.size(), 0);
    if (moved != static_cast<ssize_t>(bytes_)) {
      const int error = moved < 0 ? errno : 0;
      throw std::runtime_error(std::string("cross-memory copy ") + (write_ ? "to" : "from") + " process " +
                               std::to_string(pid_) + " moved " + std::to_string(moved) + " of " +
                               std::to_string(bytes_) + " bytes" + (error ? std::string(": ") + std::strerror(error) : ""));
    }
    local_.clear();
    remote_.clear();
    bytes_ = 0;
  }

 private:
  static char* end(const iovec& v) { return static_cast<char*>(v.iov_base) + v.iov_len; }
  static void append(std::vector<iovec>& list, bool joins, char* at, size_t bytes) {
    if (joins) {
      list.back().iov_len += bytes;
    } else {
      list.push_back({at, bytes});
    }
  }

  pid_t pid_;
  bool write_;
  std::vector<iovec> local_, remote_;
  size_t bytes_ = 0;
};

int64_t total(const Runs& runs) {
  int64_t bytes = 0;
  for (const Run& r : runs) bytes += r.bytes;
  return bytes;
}

// Walks two run lists of equal byte totals in step: their matched stretches, in order.
class Stretches {
 public:
  Stretches(const Runs& from, const Runs& to, const char* what) : from_(from), to_(to) {
    if (total(from) != total(to)) {
      throw std::invalid_argument(std::string(what) + ": " + std::to_string(total(from)) + " source bytes against " +
                                  std::to_string(total(to)) + " destination bytes; expected equal totals");
    }
    skip_empty();
  }
  bool done() const { return fi_ == from_.size() || ti_ == to_.size(); }
  char* from() const { return static_cast<char*>(from_[fi_].data) + from_offset_; }
  char* to() const { return static_cast<char*>(to_[ti_].data) + to_offset_; }
  size_t bytes() const {
    return static_cast<size_t>(std::min(from_[fi_].bytes - from_offset_, to_[ti_].bytes - to_offset_));
  }
  void advance() {
    const auto n = static_cast<int64_t>(bytes());
    from_offset_ += n;
    to_offset_ += n;
    skip_empty();
  }

 private:
  void skip_empty() {
    while (fi_ < from_.size() && from_offset_ == from_[fi_].bytes) ++fi_, from_offset_ = 0;
    while (ti_ < to_.size() && to_offset_ == to_[ti_].bytes) ++ti_, to_offset_ = 0;
  }
  const Runs& from_;
  const Runs& to_;
  size_t fi_ = 0, ti_ = 0;
  int64_t from_offset_ = 0, to_offset_ = 0;  // bytes already passed of from_[fi_] and to_[ti_]
};

// Copies a stretch that no one here reads again soon (it is a peer's, or this rank's output
// of an all-to-all larger than the caches) with non-temporal stores, which write whole
// lines to memory without reading them into the cache first. glibc's memcpy is no fit for
// the interleaved copies' stretches either: on AMD Zen 4 it copies 2 KiB stretches whose
// source and destination lie a multiple of 2 KiB apart (rows split in halves) at a quarter
// of its speed on other sizes (2.4 against 0.6 ms per 16 MiB). SSE2 stores: every x86-64
// has them, and the write-combining buffers fill whole lines from them as from wider ones.
// Callers end with stream_fence() before telling peers the data is there.
void stream_copy(char* to, const char* from, size_t bytes) {
#if defined(__x86_64__)
  constexpr size_t kLine = 64;
  if (bytes >= 4 * kLine) {
    const size_t head = (kLine - reinterpret_cast<uintptr_t>(to) % kLine) % kLine;
    std::memcpy(to, from, head);
    to += head, from += head, bytes -= head;
    for (; bytes >= kLine; to += kLine, from += kLine, bytes -= kLine) {
      const auto* s = reinterpret_cast<const __m128i*>(from);
      auto* d = reinterpret_cast<__m128i*>(to);
      const __m128i a = _mm_loadu_si128(s), b = _mm_loadu_si128(s + 1), c = _mm_loadu_si128(s + 2),
                    e = _mm_loadu_si128(s + 3);
      _mm_stream_si128(d, a);
      _mm_stream_si128(d + 1, b);
      _mm_stream_si128(d + 2, c);
      _mm_stream_si128(d + 3, e);
    }
  }
#endif
  std::memcpy(to, from, bytes);
}

// Makes stream_copy's stores visible to other cores before any later store.
void stream_fence() {
#if defined(__x86_64__)
  _mm_sfence();
#endif
}

}  // namespace

Access probe(MPI_Comm comm, std::vector<pid_t>* pids) {
  int size = 0, rank = 0;
  check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  MPI_Comm node;
  check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int node_size = 0;
  check_mpi(MPI_Comm_size(node, &node_size), "MPI_Comm_size");
  check_mpi(MPI_Comm_free(&node), "MPI_Comm_free");

  static const uint64_t secret = std::random_device{}() * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(getpid());
  // Kept for the life of the process: peers may have mapped it.
  static const std::shared_ptr<void>* shown = [] {
    auto* block = new std::shared_ptr<void>(allocate_host_shared(sizeof secret));
    std::memcpy(block->get(), &secret, sizeof secret);
    return block;
  }();
  Probe mine{getpid(), reinterpret_cast<uint64_t>(&secret), secret, {}};
  if (std::optional<SharedBlock> b = shared_block_of(shown->get(), sizeof secret)) {
    mine.block = {b->fd, b->serial, reinterpret_cast<uint64_t>(b->base), b->bytes};
  }
  std::vector<Probe> all(static_cast<size_t>(size));
  check_mpi(MPI_Allgather(&mine, sizeof(Probe), MPI_BYTE, all.data(), sizeof(Probe), MPI_BYTE, comm), "MPI_Allgather");
  int ok[2] = {node_size == size, node_size == size};  // attach, map
  for (int r = 0; r < size; ++r) {
    if (r == rank) continue;
    const auto pid = static_cast<pid_t>(all[r].pid);
    uint64_t seen = 0;
    iovec local{&seen, sizeof seen}, remote{reinterpret_cast<void*>(all[r].address), sizeof seen};
    ok[0] = ok[0] && process_vm_readv(pid, &local, 1, &remote, 1, 0) == sizeof seen && seen == all[r].value;
    if (ok[1] && all[r].block.fd >= 0) {
      try {
        std::memcpy(&seen, map(pid, all[r].block).get(), sizeof seen);
        ok[1] = seen == all[r].value;
      } catch (const std::runtime_error&) {
        ok[1] = 0;
      }
    } else {
      ok[1] = 0;
    }
  }
  int all_ok[2] = {0, 0};
  check_mpi(MPI_Allreduce(ok, all_ok, 2, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  pids->clear();
  for (const Probe& p : all) pids->push_back(static_cast<pid_t>(p.pid));
  return {all_ok[0] != 0, all_ok[1] != 0};
}

std::shared_ptr<char> map(pid_t pid, const PeerBlock& block) { return mappings().get(pid, block); }

void copy(pid_t pid, const Runs& local, const Runs& remote, bool write) {
  Batch batch(pid, write);
  // local runs as "from", remote as "to", whichever way the bytes go
  for (Stretches s(local, remote, "cross-memory copy"); !s.done(); s.advance()) batch.add(s.from(), s.to(), s.bytes());
  batch.flush();
}

void copy_interleaved(const std::vector<Piece>& pieces) {
  std::vector<Stretches> cursors;
  for (const Piece& p : pieces) cursors.emplace_back(*p.from, p.to, "copy");
  // Few cursors (one per member), so the one with the lowest source is found by a scan.
  for (;;) {
    Stretches* next = nullptr;
    for (Stretches& c : cursors) {
      if (!c.done() && (!next || c.from() < next->from())) next = &c;
    }
    if (!next) break;
    stream_copy(next->to(), next->from(), next->bytes());
    next->advance();
  }
  stream_fence();
}

}  // namespace mf::comm::cross_memory
