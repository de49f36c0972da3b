// Copyright 2026 The meshflow Authors.
// Inference mode (torch.inference_mode) and inference Vars: the Vars made while the mode is
// on, which autograd refuses to save for backward outside it (ops/functional.cc: where a
// gradient reads them) and refuses to write in place outside it, as torch's inference tensors. The mode is per thread (thread-local,
// as grad mode) and off by default; the caller turns grad mode off with it.
#pragma once

#include "meshflow/autograd/var.h"

namespace mf {

bool inference_mode_enabled();
void set_inference_mode(bool enabled);
// Whether `v` was made in inference mode; detach() keeps it, an op's result is made anew.
bool is_inference(const Var& v);
// Throws std::runtime_error for an in-place write to an inference Var (`inference`: whether
// the written Var is one) outside the mode, as torch refuses it.
void check_inference_write(bool inference);

}  // namespace mf
