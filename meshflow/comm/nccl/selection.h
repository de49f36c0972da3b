// Copyright 2026 The meshflow Authors.
// Whether a group's buffers on its members' GPUs go through NCCL (nccl_comm.h) or are staged
// through the host (group.h): a pure function of what the members said, so that it can be
// tested without a GPU and every member, given the same votes, makes the same choice. Built
// with or without NCCL (without it no member votes: every group stages).
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mf::comm::nccl {

// One member's say, gathered from every member of the group at the group's first collective
// of GPU buffers. Plain bytes, the same layout on every rank.
struct Vote {
  uint8_t gpu[16];  // the UUID of the member's GPU (distinct for every GPU of every host)
  int32_t able;     // NCCL is built, MESHFLOW_NCCL is not "0", and the GPU's UUID was read
  int32_t unused;   // zero
};

struct Choice {
  bool nccl;
  std::string why;  // why the buffers are staged; empty where NCCL is chosen
};

// NCCL where every member is able and every member has a GPU of its own (NCCL before 2.30
// refuses two ranks of one communicator on one GPU); else staged, saying why (members are
// named by their index in the group).
Choice choose(const std::vector<Vote>& votes);

// Whether MESHFLOW_NCCL (null when unset) lets this rank use NCCL: any value but "0".
bool allowed_by(const char* meshflow_nccl);

}  // namespace mf::comm::nccl
