// Copyright 2026 The meshflow Authors.
// NCCL for a group's buffers on its members' GPUs (built where CMake finds NCCL beside the
// CUDA device; docs/gpu.md). A group whose members each have a GPU of their own moves its
// GPU buffers with one NCCL communicator per group and GPU, made at the group's first
// collective of that GPU's buffers: the members gather their votes (selection.h) over the
// group's MPI communicator, and where every one of them chose NCCL, the group's first member
// makes the unique id (ncclGetUniqueId), which reaches the others the same way, and each calls
// ncclCommInitRank. Each collective runs on the communicator's own CUDA stream, ordered
// after the work that produced its inputs as the staged path's copies are
// (cuda::order_as_copies), and is waited for there (polling, with NCCL's asynchronous errors
// checked) before the call returns, as a staged collective is. The communicator is destroyed
// with its group, at exit, before MPI is finalized (comm.cc). Errors are std::runtime_error
// naming the NCCL call and NCCL's words.
// This header does not include NCCL or CUDA: the group (group.cc) calls create().
#pragma once

#include <memory>

#include "meshflow/comm/group.h"

namespace mf::comm::nccl {

// The NCCL backend for `group`'s buffers in `memory`, or null where they are staged: not a
// GPU's memory (decided alike on every member, whose memories are of one type), or the members
// chose against NCCL. Collective over the group's members where `memory` is a GPU's; runs on
// the comm thread.
std::unique_ptr<DeviceComm> create(Group& group, const Memory& memory);

}  // namespace mf::comm::nccl
