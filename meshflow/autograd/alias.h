// Copyright 2026 The meshflow Authors.
// Views of a tensor's memory that no recorded call made (x[0] of a local row-major x, as
// torch's: fn::basic_index), and what autograd does for them: their memory may be written in
// place through their base after a call read them (row = x[0]; y = row * w; x[0] = v), so a
// call recorded for autograd that saves one saves a copy where its gradient reads it
// (functional.cc, record_with_grad), and backward reads the value the call read, as it does
// of every other tensor.
// Thread-safety: as Var's (var.h).
#pragma once

#include "meshflow/autograd/var.h"

namespace mf {

// A Var of `part`, a view sharing another tensor's storage (no copy); it requires no grad.
Var aliasing(Tensor part);
// Whether v's value is such a view: made by aliasing, a detach() of one, or a Var that was
// one or took one's value (set_data, assign), whose memory may still be another's.
bool aliases(const Var& v);

}  // namespace mf
