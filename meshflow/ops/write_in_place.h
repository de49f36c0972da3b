// Copyright 2026 The meshflow Authors.
// In-place writes recorded for autograd, as torch's (x[i] = v, index_put_, masked_fill_,
// writes through views): the op runs over its target's memory, so a write costs what it
// writes (issue 36); the optimizers' unrecorded updates are functional.h's update_in_place.
// Thread-safety: one thread at a time, like the dispatcher (functional.h).
#pragma once

#include <string>
#include <vector>

#include "meshflow/autograd/var.h"
#include "meshflow/ops/attrs.h"

namespace mf {

// `op`, whose output 0 is inputs[target] with some elements replaced (slice_scatter,
// index_put, where), called as call() does, with output 0 written over inputs[target]'s
// memory where the call runs on that input itself (on a global input: unless boxing
// converts it, e.g. a partial target into a signature without partial; then the output is
// new memory and the write costs a copy). The op's kernel writes each element after reading
// what it reads of it. The caller binds the output in place of the target (Var::assign, with
// `since` the sequence before this call: the op's gradient reads no value of the target,
// and the calls that read the target before are checked as torch checks them). Throws,
// before writing, for a leaf that requires grad while grad mode is on.
std::vector<Var> write_in_place(const std::string& op, const std::vector<Var>& inputs, const Attrs& attrs, int target);

}  // namespace mf
