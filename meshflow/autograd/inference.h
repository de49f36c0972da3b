// Copyright 2026 The meshflow Authors.
// Inference mode (torch.inference_mode) and inference Vars: the Vars made while the mode is
// on, which autograd refuses to save for backward outside it (ops/functional.cc: where a
// gradient reads them) and refuses to write in place outside it, as torch's inference tensors. The mode is per thread (thread-local,
// as grad mode) and off by default; the caller turns grad mode off with it, and while it is on
// no call records for autograd, even with grad mode turned on again inside.
#pragma once

#include "meshflow/autograd/var.h"

namespace mf {

bool inference_mode_enabled();
void set_inference_mode(bool enabled);
// Grad mode as last set (torch.is_grad_enabled()), which inference mode leaves as it is:
// inside the mode no op records whatever grad mode says (grad_enabled(), which ops ask, is
// false there, enable_grad() included), as torch's inference mode excludes autograd; record()
// itself goes by this, as torch's Python autograd.Functions record under enable_grad() there.
bool grad_mode_set();
// Whether `v` was made in inference mode; detach() keeps it, an op's result is made anew.
bool is_inference(const Var& v);
// Throws std::runtime_error for an in-place write to an inference Var (`inference`: whether
// the written Var is one) outside the mode, as torch refuses it.
void check_inference_write(bool inference);

}  // namespace mf
