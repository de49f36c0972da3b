// Copyright 2026 The meshflow Authors.
#include "meshflow/comm/nccl/selection.h"

#include <cstring>

namespace mf::comm::nccl {

Choice choose(const std::vector<Vote>& votes) {
  if (votes.empty()) return {false, "the group has no members"};
  for (size_t i = 0; i < votes.size(); ++i) {
    if (!votes[i].able) {
      return {false, "member " + std::to_string(i) +
                         " cannot use NCCL (not built there, MESHFLOW_NCCL=0, or its GPU unknown)"};
    }
  }
  for (size_t i = 0; i < votes.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (std::memcmp(votes[i].gpu, votes[j].gpu, sizeof(votes[i].gpu)) == 0) {
        return {false, "members " + std::to_string(j) + " and " + std::to_string(i) + " share a GPU"};
      }
    }
  }
  return {true, ""};
}

bool allowed_by(const char* meshflow_nccl) { return !meshflow_nccl || std::strcmp(meshflow_nccl, "0") != 0; }

}  // namespace mf::comm::nccl
