// Copyright 2026 The meshflow Authors.
// ZeRO's layouts for one global parameter alone, as Optimizer::set_zero_stage (optim.h) gives
// each of its parameters: torch's FSDP2 `fully_shard` is stage 3 of each parameter of a
// module, with whatever optimizer the program then makes. Defined in optim.cc beside the
// optimizer's use of it. Thread-safety: one thread at a time, like every op.
#pragma once

#include <optional>
#include <vector>

#include "meshflow/autograd/var.h"
#include "meshflow/boxing/plan.h"

namespace mf::optim {

// The parameter's shard layout: its split along every broadcast mesh axis of size > 1 among
// `axes` (empty: any axis; FSDP on one dimension of a 2-d mesh names it, leaving tensor
// parallelism's axis as it is) (nullopt, and nothing changes, for stage 0 or a parameter with
// no such axis); from stage 2 its gradient is left there, and at stage 3 it is stored there
// while every op takes it in its present layout (gathered, in backward again). An axis
// outside the mesh raises std::invalid_argument.
std::optional<boxing::Layout> shard_parameter(Var& p, int stage, const std::vector<int>& axes = {});

}  // namespace mf::optim
