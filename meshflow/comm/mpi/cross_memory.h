// Copyright 2026 The meshflow Authors.
// Cross-memory attach (Linux's process_vm_readv / process_vm_writev): one process copies
// straight between its own memory and another's on the same host, one copy in all, as
// OpenMPI's shared-memory transport does for contiguous messages. Here it serves pieces
// that are strided on one side (an all-to-all between splits of different dims), which
// MPI would otherwise need packed into a staging buffer first: the side holding the piece
// in many runs passes them as its local list, and the other side's few runs are the remote
// list (the kernel pins remote pages per remote run, so many remote runs are slow).
// Thread-safety: reentrant; the caller makes sure the other process's memory stays put
// while the copy runs (a collective before and after).
#pragma once

#include <mpi.h>
#include <sys/types.h>

#include <vector>

#include "meshflow/comm/group.h"

namespace mf::comm::cross_memory {

// Collective over `comm`: whether every member can copy to and from every other member's
// memory (all on one host per MPI, and a probe read of each peer's memory gave the value
// that peer published; ptrace restrictions or another host's process fail it). The same
// answer on every member. `pids`: each member's process id, by rank in `comm`.
bool usable(MPI_Comm comm, std::vector<pid_t>* pids);

// Copies between this process's `local` runs and process `pid`'s `remote` runs, which hold
// equal byte totals, in order: into `remote` when `write`, else from it. Throws
// std::runtime_error with the system's reason when the kernel refuses.
void copy(pid_t pid, const Runs& local, const Runs& remote, bool write);

}  // namespace mf::comm::cross_memory
