// Copyright 2026 The meshflow Authors.
#include "meshflow/ops/registry.h"

namespace mf {

void register_nn_ops(OpRegistry& r) { (void)r; }

}  // namespace mf
