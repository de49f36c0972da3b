// Copyright 2026 The meshflow Authors.
#include "meshflow/ops/registry.h"

namespace mf {

void register_creation_ops(OpRegistry& r) { (void)r; }

}  // namespace mf
