// Copyright 2026 The meshflow Authors.
#include "meshflow/comm/mpi/cross_memory.h"

#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>

namespace mf::comm::cross_memory {
namespace {

constexpr size_t kMaxRuns = 1024;  // IOV_MAX: runs per system call, on either side

struct Probe {
  int64_t pid;
  uint64_t address;
  uint64_t value;
};

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

}  // namespace

bool usable(MPI_Comm comm, std::vector<pid_t>* pids) {
  int size = 0, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_free(&node);

  // A value only this process holds, at an address its peers read.
  static const uint64_t secret = std::random_device{}() * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(getpid());
  const Probe mine{getpid(), reinterpret_cast<uint64_t>(&secret), secret};
  std::vector<Probe> all(static_cast<size_t>(size));
  MPI_Allgather(&mine, sizeof(Probe), MPI_BYTE, all.data(), sizeof(Probe), MPI_BYTE, comm);
  int ok = node_size == size;
  for (int r = 0; ok && r < size; ++r) {
    if (r == rank) continue;
    uint64_t seen = 0;
    iovec local{&seen, sizeof seen}, remote{reinterpret_cast<void*>(all[r].address), sizeof seen};
    ok = process_vm_readv(static_cast<pid_t>(all[r].pid), &local, 1, &remote, 1, 0) == sizeof seen &&
         seen == all[r].value;
  }
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
  pids->clear();
  for (const Probe& p : all) pids->push_back(static_cast<pid_t>(p.pid));
  return all_ok != 0;
}

void copy(pid_t pid, const Runs& local, const Runs& remote, bool write) {
  if (total(local) != total(remote)) {
    throw std::invalid_argument("cross-memory copy: " + std::to_string(total(local)) + " local bytes against " +
                                std::to_string(total(remote)) + " remote; expected equal totals");
  }
  Batch batch(pid, write);
  size_t li = 0, ri = 0;
  int64_t lo = 0, ro = 0;  // bytes already matched in local[li] and remote[ri]
  while (li < local.size() && ri < remote.size()) {
    const int64_t bytes = std::min(local[li].bytes - lo, remote[ri].bytes - ro);
    if (bytes > 0) {
      batch.add(static_cast<char*>(local[li].data) + lo, static_cast<char*>(remote[ri].data) + ro,
                static_cast<size_t>(bytes));
    }
    lo += bytes;
    ro += bytes;
    if (lo == local[li].bytes) ++li, lo = 0;
    if (ro == remote[ri].bytes) ++ri, ro = 0;
  }
  batch.flush();
}

}  // namespace mf::comm::cross_memory
