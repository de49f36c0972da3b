// Copyright 2026 The meshflow Authors.
// Copies straight between the memory of processes on one host, one copy in all, for
// all-to-alls whose pieces are strided on one side (between splits of different dims),
// which MPI would otherwise need packed into a staging buffer first. Two ways:
// - mapping: a receiver's tensor lies in a shared block (core/allocator.h) that the sender
//   maps, and the sender copies its piece in with (non-temporal) stores, as fast as a local
//   copy;
// - cross-memory attach (process_vm_readv / process_vm_writev, as OpenMPI's shared-memory
//   transport uses for contiguous messages): the kernel copies, pinning the remote pages
//   per remote run, so the side holding the piece in many runs passes them as its local
//   list and the other side's few runs are the remote list.
// Thread-safety: reentrant; the caller makes sure the other process's memory stays put
// while a copy runs (a collective before and after).
#pragma once

#include <mpi.h>
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "meshflow/comm/group.h"

namespace mf::comm::cross_memory {

// What the members of a group can do with each other's memory.
struct Access {
  bool attach = false;  // cross-memory attach (ptrace access: Yama may forbid it)
  bool map = false;     // map each other's shared blocks (/proc/<pid>/fd access)
};

// Collective over `comm`: what every member can do with every other member's memory (all
// on one host per MPI, and probe reads of each peer's memory, both ways, gave the values
// that peer published). The same answer on every member. `pids`: each member's process
// id, by rank in `comm`.
Access probe(MPI_Comm comm, std::vector<pid_t>* pids);

// A shared block of another process (core/allocator.h's SharedBlock as its owner sees it).
struct PeerBlock {
  int64_t fd = -1;
  uint64_t serial = 0;
  uint64_t base = 0;
  uint64_t bytes = 0;
};

// Block `block` of process `pid`, mapped here. Mappings are cached by (pid, serial), the
// oldest dropped past a bound; the pointer keeps its mapping alive. Throws
// std::runtime_error with the system's reason.
std::shared_ptr<char> map(pid_t pid, const PeerBlock& block);

// Copies between this process's `local` runs and process `pid`'s `remote` runs, which
// hold equal byte totals, in order: into `remote` when `write`, else from it. Throws
// std::runtime_error with the system's reason when the kernel refuses.
void copy(pid_t pid, const Runs& local, const Runs& remote, bool write);

// Pieces to copy within this process's address space (into its own memory or a peer's
// mapped block): `from` and `to` hold equal byte totals.
struct Piece {
  const Runs* from;
  Runs to;
};
// Copies every piece in one pass over the sources in address order: where a source is
// split among destinations in strided runs (rows split by columns), it is read once,
// front to back, and each destination written front to back: the speed of contiguous
// copies, where piece by piece would read each source row in strided parts. Stretches of
// 256 bytes and more are written with non-temporal stores, fenced before returning.
void copy_interleaved(const std::vector<Piece>& pieces);

}  // namespace mf::comm::cross_memory
