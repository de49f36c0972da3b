// Copyright 2026 The meshflow Authors.
// Cutting a Var itself from the graph, as torch's in-place detach_: a Var is shared by whoever
// holds it (a module's parameter slot, the .grad slot of the leaf it is the gradient of, every
// Python wrapper of it), so detaching one holder's copy (Var::detach) leaves the others on the
// graph, where torch's p.grad.detach_() detaches the gradient the parameter holds.
// Thread-safety: as Var's (var.h).
#pragma once

#include "meshflow/autograd/var.h"

namespace mf {

// Makes `v` a leaf that requires no gradient, for every holder of it. The hooks it had on the
// graph (retain_grad's) go with the graph; its value, version count and leaf hooks stay.
void detach_in_place(Var& v);

}  // namespace mf
