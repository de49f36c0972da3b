// Copyright 2026 The meshflow Authors.
// The geometry of convolutions, pooling and padding (ops/conv.cc), written once for the CPU's
// kernels and the GPU's (ops/cuda/conv.cu): the attributes read and checked into plain
// structs on the host, and the window arithmetic as host and device code alike. Tensors are
// NCHW, row-major. Header-only; no state.
#pragma once

#include <cstdint>
#include <string>

#include "meshflow/ops/integer_math.h"  // MF_HOST_DEVICE
#include "meshflow/ops/op.h"

namespace mf::kernel {

// conv2d over x [N, C_in, H, W] with weight [C_out, C_in / groups, kh, kw]; axis 0 is the
// height, 1 the width. Output element (n, co, oh, ow) reads input rows
// oh * stride - pad_begin + i * dilation for i < kernel (zeros outside the input).
struct ConvGeometry {
  int64_t batch = 0, in_channels = 0, out_channels = 0, groups = 1;
  int64_t in[2] = {0, 0}, out[2] = {0, 0}, kernel[2] = {0, 0};
  int64_t stride[2] = {1, 1}, pad[2] = {0, 0}, dilation[2] = {1, 1};  // pad: at the beginning
  MF_HOST_DEVICE int64_t in_per_group() const { return in_channels / groups; }
  MF_HOST_DEVICE int64_t out_per_group() const { return out_channels / groups; }
};

// The output size along one axis: floor((in + pad_begin + pad_end - dilation (kernel - 1) - 1)
// / stride) + 1, or less than 1 when the padded input is smaller than the dilated kernel.
int64_t conv_out_size(int64_t in, int64_t kernel, int64_t stride, int64_t pad_begin, int64_t pad_end,
                      int64_t dilation);

// The geometry of conv2d's (or its backward ops') call: attributes "stride", "pad_begin",
// "pad_end", "dilation" (two ints each) and "groups", checked ("[op] ..." errors), with the
// channel counts and sizes given (local ones in kernels).
ConvGeometry conv_geometry(const std::string& op, const Attrs& attrs, int64_t batch, int64_t in_channels,
                           int64_t out_channels, const int64_t in[2], const int64_t kernel[2]);

// Pooling over the last two dims of [N, C, H, W]. Regular windows (max_pool2d, avg_pool2d):
// output o of an axis covers positions o * stride - pad + i * dilation, i < kernel; adaptive
// ones (adaptive_*_pool2d) cover [floor(o in / out), ceil((o + 1) in / out)), torch's formula.
struct PoolAxis {
  int64_t in = 0, out = 0, kernel = 1, stride = 1, pad = 0, dilation = 1;
  bool adaptive = false;
};

struct PoolGeometry {
  PoolAxis axis[2];
  int64_t planes = 0;  // N * C
};

// The positions of output o's window that lie in the input: first, first + step, ... < stop.
struct Window {
  int64_t first, stop, step;
};

MF_HOST_DEVICE inline Window pool_window(const PoolAxis& a, int64_t o) {
  if (a.adaptive) return {o * a.in / a.out, ((o + 1) * a.in + a.out - 1) / a.out, 1};
  const int64_t start = o * a.stride - a.pad;
  // The first i with start + i * dilation >= 0, and the end of the dilated window clipped.
  const int64_t skip = start < 0 ? (-start + a.dilation - 1) / a.dilation : 0;
  const int64_t end = start + (a.kernel - 1) * a.dilation + 1;
  return {start + skip * a.dilation, end < a.in ? end : a.in, a.dilation};
}

// avg_pool2d's divisor of output (oh, ow): divisor_override when positive, else the window's
// size counting padding (clipped at in + pad, as torch) or only the input's elements.
MF_HOST_DEVICE inline int64_t avg_pool_divisor(const PoolGeometry& g, int64_t oh, int64_t ow, bool count_include_pad,
                                               int64_t divisor_override) {
  if (divisor_override > 0) return divisor_override;
  int64_t size[2];
  for (int k = 0; k < 2; ++k) {
    const PoolAxis& a = g.axis[k];
    const int64_t o = k == 0 ? oh : ow;
    if (a.adaptive || !count_include_pad) {
      const Window w = pool_window(a, o);
      size[k] = w.stop - w.first;
    } else {
      const int64_t start = o * a.stride - a.pad, end = start + a.kernel, limit = a.in + a.pad;
      size[k] = (end < limit ? end : limit) - start;
    }
  }
  return size[0] * size[1];
}

// The geometry of a pooling call on input [N, C, H, W] (local sizes in kernels). Regular
// ops read "kernel_size", "stride", "padding", "dilation" (two ints each) and "ceil_mode";
// adaptive ones "output_size". Checked: "[op] ..." errors.
PoolGeometry pool_geometry(const std::string& op, const Attrs& attrs, const Shape& input, bool adaptive);

// pad's attribute "pads" (torch's order: the last dim's before and after, then the previous
// dim's, ...) as per-dim before / after amounts of a tensor of `ndim` dims.
struct PadSpec {
  Shape before, after, out;
};
PadSpec pad_spec(const std::string& op, const Attrs& attrs, const Shape& input);

}  // namespace mf::kernel
