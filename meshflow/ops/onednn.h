// Copyright 2026 The meshflow Authors.
// oneDNN's primitives behind the CPU kernels of convolutions (ops/conv.cc)
// and pooling (ops/pool.cc), on meshflow's row-major or channels-last tensors. A primitive is
// made once per pass, shape, dtype and formats and kept in a bounded LRU cache (making one
// costs more than running a small one). A convolution with a channels-last activation runs
// channels-last; on row-major ones oneDNN picks its activations' layout (format_tag::any) but
// for convolutions of at most 16 channels, which run channels-last, and reorders to and from
// the row-major layout run around it.
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

// Which of a convolution pass's activations (x, y and their gradients) are channels-last
// (core/tensor.h's memory formats); weights are always row-major.
struct ConvFormats {
  bool a = false, b = false, out = false;
};

// The convolution g on NCHW or NCDHW tensors of `dtype` (handles(dtype)), each activation
// row-major or channels-last as `formats` says, the output overwritten:
//   kForward:         a = x [N, C_in, spatial],   b = w [C_out, C_in / groups, kernel] -> y
//   kBackwardData:    a = dy [N, C_out, out],      b = w                               -> dx
//   kBackwardWeights: a = x,                      b = dy                              -> dw
// Where an activation is channels-last the primitive runs channels-last, with no reorder of
// that activation. kForward adds `bias` [C_out] of `dtype` where given (the primitive's
// bias, added as y is written); the other passes ignore it.
void conv(ConvPass pass, const ConvGeometry& g, DType dtype, const void* a, const void* b, void* out,
          ConvFormats formats = {}, const void* bias = nullptr);

// core/tensor.h's in_format(t, format), on oneDNN's vectorized reorder where the elements
// move and it takes the dtype (float32, bfloat16), on the calling thread.
Tensor in_format(const Tensor& t, MemoryFormat format);

// Pooling over g's windows of float32 tensors [planes, spatial] (N and C as one dim), or of the
// avg kinds' channels-last [N, spatial, C] where `channels` (C) is given, where
// oneDNN's algorithm gives g's windows: regular ones (any padding; ceil_mode's last windows
// past the end as padding on the right), and adaptive ones whose input sizes are multiples of
// their output sizes (windows of in / out, no overlap). Each returns false, writing nothing,
// where g is not such (the caller then runs its own kernels).
//   kMax: each window's maximum over its input positions (the padding never wins), and the
//     flat index in its plane of the first position holding it (torch's max_pool indices).
//     Inputs holding NaN or -inf are the caller's to keep away: oneDNN skips a NaN where
//     torch returns it, and gives an all -inf window the lowest float and an index that may
//     lie in the padding.
//   kAvgExcludePad: each window's sum over its input positions / their number.
//   kAvgIncludePad: each window's sum / the kernel's volume, padding counted on both sides
//     (only torch's divisor where no window reaches past the padding on the right).
enum class PoolKind { kMax, kAvgExcludePad, kAvgIncludePad };
bool pool_forward(PoolKind kind, const PoolGeometry& g, const float* x, float* y, int64_t* indices,
                  int64_t channels = 0);

// The gradient of an avg kind's pooling: dx (overwritten) from dy.
bool avg_pool_backward(PoolKind kind, const PoolGeometry& g, const float* dy, float* dx, int64_t channels = 0);

}  // namespace mf::kernel::onednn
