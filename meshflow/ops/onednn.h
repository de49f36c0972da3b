// Copyright 2026 The meshflow Authors.
// oneDNN's primitives behind the CPU kernels of convolutions (ops/conv.cc), on meshflow's
// plain row-major tensors. A primitive is made once per pass, shape and dtype and kept in a
// bounded LRU cache (making one costs more than running a small one); oneDNN picks its
// activations' layout (format_tag::any), and reorders to and from the plain layout run
// around it where it picks a blocked one.
// float32, and bfloat16 where oneDNN has the primitive for this CPU (AVX-512 and up); below
// that (or with ONEDNN_MAX_CPU_ISA set lower) bfloat16 operands are widened exactly to
// float32, run as float32, and the result rounded once, as gemm_bf16 does for products.
// Thread-safe: primitives are immutable and shared; each execution runs on the calling
// thread's stream with a scratchpad and reorder buffers of that thread, so the VM's stream
// workers may run one primitive at once.
#pragma once

#include <cstdint>

#include "meshflow/core/dtype.h"
#include "meshflow/ops/conv_util.h"

namespace mf::kernel::onednn {

// Whether oneDNN computes this dtype here (float32 and bfloat16); callers keep their own
// kernels for the others (float64).
bool handles(DType dtype);

enum class ConvPass { kForward, kBackwardData, kBackwardWeights };

// The convolution g on NCHW tensors of `dtype` (handles(dtype)), the output overwritten:
//   kForward:         a = x [N, C_in, H, W],   b = w [C_out, C_in / groups, kh, kw] -> y
//   kBackwardData:    a = dy [N, C_out, OH, OW], b = w                              -> dx
//   kBackwardWeights: a = x,                   b = dy                              -> dw
void conv(ConvPass pass, const ConvGeometry& g, DType dtype, const void* a, const void* b, void* out);

}  // namespace mf::kernel::onednn
