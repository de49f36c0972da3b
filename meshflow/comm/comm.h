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
// Collective over the world, so that every rank raises together instead of one rank
// raising while the others wait in the next collective. Each rank passes the error it hit
// (empty when none) and a hash of the call it is making; when any rank has an error, every
// rank throws std::invalid_argument with the first one's message; when the hashes differ,
// every rank throws one naming the ranks that made a different `call`.
void agree(const std::string& error, uint64_t call_hash, const std::string& call);

// Ends every rank of the job now, after printing `message` on this rank's stderr.
[[noreturn]] void abort_job(const std::string& message, int exit_code = 1);

}  // namespace mf::comm
