// Copyright 2026 The meshflow Authors.
// Runs boxing plans (plan.h) over the communication layer. Every rank of the world calls
// with the same arguments but its own local tensor; a rank outside a step's placements
// skips it. Ranks outside the target placement end with an empty local tensor.
// Call from one thread at a time (it drives the communicators).
#pragma once

#include "meshflow/boxing/plan.h"
#include "meshflow/core/tensor.h"

namespace mf::boxing {

Tensor execute(const Plan& plan, const Shape& logical, const Tensor& local);
// cached_plan + execute.
Tensor box(const Tensor& local, const Shape& logical, const Layout& from, const Layout& to);
// Moves local parts that hold `held_boxes` (by parallel id; e.g. uneven parts a user gave)
// to the balanced split of `layout`.
Tensor rebalance(const Tensor& local, const Shape& logical, const Layout& layout, const std::vector<Box>& held_boxes);
// The local tensor a rank outside a placement holds: every dim 0 (a 1-d empty for scalars).
Tensor empty_local(const Shape& logical, DType dtype);

}  // namespace mf::boxing
