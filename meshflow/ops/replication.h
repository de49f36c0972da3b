// Copyright 2026 The meshflow Authors.
// Implicit replication for the front end (README, "Ops on global tensors"): how an op takes a
// local tensor that meets global ones, for the Python paths that place such an operand before
// the op that meets the others runs (an index, a value written into a global tensor, a running
// statistic), so that they follow the one rule functional.cc's ops follow.
// Thread-safety: one thread at a time, like the dispatcher.
#pragma once

#include <string>

#include "meshflow/autograd/var.h"
#include "meshflow/placement/placement.h"
#include "meshflow/placement/sbp.h"

namespace mf {

// A local Var that meets global ones on `placement` in op `op`, taken as that op takes it:
// broadcast on every axis there (implicit replication), differentiably (its gradient is the
// single-device one, whole on every rank), then given `nd_sbp` with no communication (B to
// any SBP is local). Under MESHFLOW_CHECK_CONSISTENCY the ranks compare its value and all
// raise an OpError naming `op` when they differ.
Var replicated_beside(const std::string& op, const Var& local, const Placement& placement, const NdSbp& nd_sbp);

}  // namespace mf
