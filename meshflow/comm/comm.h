// Copyright 2026 The meshflow Authors.
// The process-wide communication context: the backend, the world group and a cache of
// sub-groups. Initialized lazily on first use (so `import meshflow` starts nothing); the
// backend is chosen there and reported by backend_name(). Call from one thread.
#pragma once

#include <string>
#include <vector>

#include "meshflow/comm/group.h"

namespace mf::comm {

int world_rank();
int world_size();
Group& world();
// The group over `ranks` (world ranks, in this order), created on first use and cached.
// Creating one is collective over its members only; the caller must be a member.
Group& group_of(const std::vector<int>& ranks);
std::string backend_name();
bool initialized();
// Ends every rank of the job now, after printing `message` on this rank's stderr.
[[noreturn]] void abort_job(const std::string& message, int exit_code = 1);

}  // namespace mf::comm
