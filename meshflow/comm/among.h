// Copyright 2026 The meshflow Authors.
// Calls made by some ranks of the job alone: torch.distributed's collectives over a group that
// is not the world, which the other ranks skip, as torch's. Thread-safety: a scope is the
// calling thread's own (thread-local); the functions are safe from any thread.
#pragma once

#include <vector>

#include "meshflow/comm/group.h"

namespace mf::comm {

// A scope in which the calling thread's calls are made by `ranks` alone (torch.distributed's
// collectives over a group that is not the world, which the other ranks skip, as torch's):
// agreements without ranks of their own, and a local -> global conversion's exchange of part
// shapes, are made among them instead of over the world, and calls on global tensors are not
// counted (note_global_call: the others make none). The caller must be one of `ranks`, and
// every global tensor of the scope's calls on their placements. Scopes nest; thread-local.
class Among {
 public:
  explicit Among(std::vector<int> ranks);
  ~Among();
  Among(const Among&) = delete;
  Among& operator=(const Among&) = delete;

 private:
  std::vector<int> previous_;
};
// The group the calling thread's calls are made over: the innermost Among scope's, else the world.
Group& among();

}  // namespace mf::comm
