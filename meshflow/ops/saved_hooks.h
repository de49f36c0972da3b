// Copyright 2026 The meshflow Authors.
// Saved-tensor hooks (torch.autograd.graph.saved_tensors_hooks) for the values the ops'
// gradients read (ops/functional.cc records them). While a pair is installed (per thread;
// the one installed last acts), each value an op's gradient reads is passed, detached, to
// pack when the call is recorded; an ordinary backward reads unpack(what pack returned), each
// time it reads the value. A create_graph backward calls unpack too but reads the value saved
// at the call, attached to the graph (SavedVar), so the value itself is still held while hooks
// pack it (docs/porting.md). The hooks may be called from the thread that runs backward.
#pragma once

#include <functional>
#include <memory>

#include "meshflow/autograd/var.h"

namespace mf {

struct SavedHooks {
  std::function<std::shared_ptr<void>(const Var& value)> pack;
  std::function<Var(const std::shared_ptr<void>& packed)> unpack;
};

void push_saved_hooks(SavedHooks hooks);
// Throws std::logic_error when none are installed.
void pop_saved_hooks();

}  // namespace mf
