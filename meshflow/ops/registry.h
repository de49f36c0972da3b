// Copyright 2026 The meshflow Authors.
// Registration of op families (see registry.cc for the list). Only op family files and
// registry.cc include this.
#pragma once

#include "meshflow/ops/op.h"

namespace mf {

class OpRegistry {
 public:
  // Throws std::logic_error when the name is taken.
  void add(OpDef op);
};

void register_elementwise_ops(OpRegistry& r);
void register_matmul_ops(OpRegistry& r);

}  // namespace mf
