// Copyright 2026 The meshflow Authors.
// Convolution, pooling and padding with PyTorch's semantics on NCHW tensors (float32 and
// float64, and bfloat16 for the convolutions; pad takes every dtype), each beside the backward ops its gradient calls. The
// geometry and its checks are conv_util.h's, shared with the CUDA kernels (cuda/conv.cu).
// Signatures (B, ... -> B implied):
//   conv2d(x[N, C_in, H, W], w[C_out, C_in / groups, kh, kw]; stride, pad_begin, pad_end,
//     dilation (two ints each: height, width), groups) -> [N, C_out, OH, OW], no bias (the
//     Python layer adds it):  S(0), B -> S(0) (data parallel);  P, B -> P;  B, P -> P; and
//     with groups == 1:  B, S(0) -> S(1) (output channels);  S(1), S(1) -> P (input channels).
//   conv2d_backward_data(dy, w; conv2d's attributes, input_size [H, W]) -> dx:
//     S(0), B -> S(0);  P, B -> P;  B, P -> P; groups == 1:  S(1), S(0) -> P;  B, S(1) -> S(1).
//   conv2d_backward_weight(x, dy; conv2d's attributes, kernel_size [kh, kw]) -> dw:
//     S(0), S(0) -> P (data parallel: each rank's batch adds its part);  P, B -> P;
//     B, P -> P; groups == 1:  B, S(1) -> S(0);  S(1), B -> S(1).
//   Those two have gradients (conv2d and each other), for a create_graph backward; so have
//   the pooling, pad and upsample backward ops (linear in dy: their forward ops' adjoints).
//   max_pool2d(x; kernel_size, stride, padding, dilation, ceil_mode) -> y, indices (int64,
//     h * W + w within the plane, torch's), adaptive_max_pool2d(x; output_size) -> y,
//     indices:  S(0) -> S(0), S(0);  S(1) -> S(1), S(1).
//   max_pool2d_backward(dy, indices; input_size) -> dx, for both:  S(k), S(k) -> S(k) for
//     k < 2;  P, B -> P.
//   avg_pool2d(x; kernel_size, stride, padding, ceil_mode, count_include_pad,
//     divisor_override (0: none)), adaptive_avg_pool2d(x; output_size), their backward ops
//     (dy; the forward's attributes, input_size):  S(k) -> S(k) for k < 2;  P -> P.
//   pad(x; pads (torch's order: last dim first), mode (0 constant, 1 reflect, 2 replicate),
//     value = 0), any dtype; constant's negative pads crop:  S(k) -> S(k) for each dim k not
//     padded;  P -> P unless a constant other than 0 is added.
//   pad_backward(dy; pads, mode, input_shape) -> dx, floating, for reflect and replicate (each
//     input element's dy summed in output order):  the same.
//   upsample_nearest(x[N, C, d1 (, d2 (, d3))]; output_size, scale0.. (given scale factors))
//     -> torch's interpolate(mode='nearest'), and upsample_nearest_backward(dy; the same,
//     input_size) -> dx (each input element's dy summed in output order):  S(0) -> S(0);
//     S(1) -> S(1);  P -> P.
//
// The convolutions take float32, float64 and bfloat16. On the CPU, float32 and bfloat16 run on
// oneDNN's convolution primitives (ops/onednn.h; bfloat16 accumulates in float32), float64 as
// im2col and OpenBLAS's dgemm per image and group. oneDNN's kernels may order an output's sum
// by the batch around it, so a batch split agrees with one device to rounding, not bit for
// bit. The backward ops of
// pooling add each plane's contributions in output order, one plane per thread: no two
// threads write one element, so the results are deterministic.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "meshflow/ops/conv_util.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/gemm.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/onednn.h"
#include "meshflow/ops/registry.h"

namespace mf {

namespace kernel {

namespace {

std::vector<int64_t> pair_attr(const std::string& op, const Attrs& attrs, const std::string& key, int64_t lowest) {
  const std::vector<int64_t>& v = attrs.get_ints(key);
  if (v.size() != 2) op_error(op, key + " is " + to_string(v) + "; expected two ints (height, width)");
  for (int64_t x : v) {
    if (x < lowest) op_error(op, key + " is " + to_string(v) + "; expected values >= " + std::to_string(lowest));
  }
  return v;
}

}  // namespace

int64_t conv_out_size(int64_t in, int64_t kernel, int64_t stride, int64_t pad_begin, int64_t pad_end,
                      int64_t dilation) {
  const int64_t span = in + pad_begin + pad_end - dilation * (kernel - 1) - 1;
  return span < 0 ? 0 : span / stride + 1;
}

ConvGeometry conv_geometry(const std::string& op, const Attrs& attrs, int64_t batch, int64_t in_channels,
                           int64_t out_channels, const int64_t in[2], const int64_t kernel[2]) {
  ConvGeometry g;
  g.batch = batch, g.in_channels = in_channels, g.out_channels = out_channels;
  g.groups = attrs.get_int("groups");
  if (g.groups < 1) op_error(op, "groups is " + std::to_string(g.groups) + "; expected groups >= 1");
  const auto stride = pair_attr(op, attrs, "stride", 1), dilation = pair_attr(op, attrs, "dilation", 1);
  const auto pad_begin = pair_attr(op, attrs, "pad_begin", 0), pad_end = pair_attr(op, attrs, "pad_end", 0);
  for (int k = 0; k < 2; ++k) {
    g.in[k] = in[k], g.kernel[k] = kernel[k], g.stride[k] = stride[k], g.pad[k] = pad_begin[k];
    g.dilation[k] = dilation[k];
    g.out[k] = conv_out_size(in[k], kernel[k], stride[k], pad_begin[k], pad_end[k], dilation[k]);
    if (g.out[k] < 1) {
      op_error(op, "the input's size " + std::to_string(in[k]) + " padded by " + std::to_string(pad_begin[k]) +
                       " and " + std::to_string(pad_end[k]) + " is smaller than the kernel's " +
                       std::to_string(kernel[k]) + " dilated by " + std::to_string(dilation[k]) +
                       "; expected an output size of at least 1");
    }
  }
  return g;
}

Shape conv_input_shape(const Attrs& attrs, const Shape& dy, const Shape& w) {
  const std::vector<int64_t>& size = attrs.get_ints("input_size");
  return {dy[0], w[1] * attrs.get_int("groups"), size[0], size[1]};
}

Shape conv_weight_shape(const Attrs& attrs, const Shape& x, const Shape& dy) {
  const std::vector<int64_t>& size = attrs.get_ints("kernel_size");
  const int64_t groups = attrs.get_int("groups");
  return {dy[1], groups > 0 ? x[1] / groups : 0, size[0], size[1]};
}

PoolGeometry pool_geometry(const std::string& op, const Attrs& attrs, const Shape& input, bool adaptive) {
  if (input.size() != 4) {
    op_error(op, "the input has shape " + to_string(input) + "; expected 4 dims [N, C, H, W]");
  }
  PoolGeometry g;
  g.planes = input[0] * input[1];
  if (adaptive) {
    const auto out = pair_attr(op, attrs, "output_size", 1);
    for (int k = 0; k < 2; ++k) {
      if (input[2 + k] < 1) {
        op_error(op, "the input has shape " + to_string(input) + "; expected nonempty planes (H, W >= 1)");
      }
      g.axis[k].in = input[2 + k], g.axis[k].out = out[k], g.axis[k].adaptive = true;
    }
    return g;
  }
  const auto kernel = pair_attr(op, attrs, "kernel_size", 1), stride = pair_attr(op, attrs, "stride", 1);
  const auto pad = pair_attr(op, attrs, "padding", 0);
  const auto dilation = attrs.has("dilation") ? pair_attr(op, attrs, "dilation", 1) : std::vector<int64_t>{1, 1};
  const bool ceil_mode = attrs.has("ceil_mode") && attrs.get_bool("ceil_mode");
  for (int k = 0; k < 2; ++k) {
    PoolAxis& a = g.axis[k];
    a.in = input[2 + k], a.kernel = kernel[k], a.stride = stride[k], a.pad = pad[k], a.dilation = dilation[k];
    const int64_t effective = (a.kernel - 1) * a.dilation + 1;
    if (2 * a.pad > effective) {
      op_error(op, "padding " + std::to_string(a.pad) + " is more than half the kernel's size " +
                       std::to_string(effective) + " (dilation applied); expected padding <= kernel_size / 2");
    }
    // torch's pooling_output_shape: with ceil_mode, a last window must start inside the
    // input or its left padding.
    const int64_t span = a.in + 2 * a.pad - effective + (ceil_mode ? a.stride - 1 : 0);
    a.out = span < 0 ? 0 : span / a.stride + 1;
    if (ceil_mode && a.out > 0 && (a.out - 1) * a.stride >= a.in + a.pad) --a.out;
    if (a.out < 1) {
      op_error(op, "the input has shape " + to_string(input) + ": the output's size would be " + std::to_string(a.out) +
                       "; expected a window that fits the padded input");
    }
  }
  return g;
}

PadGeometry pad_geometry(const std::string& op, const Attrs& attrs, const Shape& input) {
  const std::vector<int64_t>& pads = attrs.get_ints("pads");
  const size_t nd = input.size();
  if (pads.size() % 2 != 0 || pads.size() > 2 * nd) {
    op_error(op, "pads " + to_string(pads) + " on an input of shape " + to_string(input) +
                     "; expected an even number of pads, two per dim for at most " + std::to_string(nd) + " dims");
  }
  if (nd > kMaxPadDims) {
    op_error(op,
             "the input has shape " + to_string(input) + "; expected at most " + std::to_string(kMaxPadDims) + " dims");
  }
  PadGeometry g;
  g.nd = static_cast<int>(nd);
  g.mode = attrs.has("mode") ? attrs.get_int("mode") : kPadConstant;
  if (g.mode != kPadConstant && g.mode != kPadReflect && g.mode != kPadReplicate) {
    op_error(op, "mode is " + std::to_string(g.mode) + "; expected 0 (constant), 1 (reflect) or 2 (replicate)");
  }
  for (size_t d = 0; d < nd; ++d) g.in[d] = g.out[d] = input[d];
  for (size_t i = 0; i < pads.size() / 2; ++i) {
    const size_t d = nd - 1 - i;
    const int64_t before = pads[2 * i], after = pads[2 * i + 1];
    g.before[d] = before;
    g.out[d] = input[d] + before + after;
    if (g.out[d] < 0) {
      op_error(op, "pads " + to_string(pads) + " make dim " + std::to_string(d) + " of the input's shape " +
                       to_string(input) + " negative; expected pads that leave every size >= 0");
    }
    if (g.mode != kPadConstant && (before || after)) {
      const bool reflect = g.mode == kPadReflect;
      if (before < 0 || after < 0 || (reflect && (before >= input[d] || after >= input[d])) || input[d] == 0) {
        op_error(op, "pads " + to_string(pads) + " on dim " + std::to_string(d) + " of the input's shape " +
                         to_string(input) + "; expected " + (reflect ? "reflect" : "replicate") + " pads >= 0" +
                         (reflect ? " and smaller than the dim" : " of a nonempty dim"));
      }
    }
  }
  return g;
}

UpsampleGeometry upsample_geometry(const std::string& op, const Attrs& attrs, const Shape& input) {
  const std::vector<int64_t>& size = attrs.get_ints("output_size");
  if (input.size() < 3 || input.size() > 5 || size.size() != input.size() - 2) {
    op_error(op, "the input has shape " + to_string(input) + " and output_size is " + to_string(size) +
                     "; expected [N, C] and 1 to 3 more dims, an output size for each");
  }
  UpsampleGeometry g;
  g.k = static_cast<int>(size.size());
  g.planes = input[0] * input[1];
  for (int d = 0; d < g.k; ++d) {
    g.in[d] = input[2 + d], g.out[d] = size[d];
    const std::string key = "scale" + std::to_string(d);
    g.scale[d] = attrs.has(key) ? static_cast<float>(attrs.get_float(key)) : 0.0f;
    if (g.out[d] < 1 || g.in[d] < 1 || g.scale[d] < 0) {
      op_error(op, "the input has shape " + to_string(input) + ", output_size " + to_string(size) +
                       "; expected sizes >= 1 and scale factors > 0");
    }
  }
  return g;
}

}  // namespace kernel

namespace {

using kernel::ConvGeometry;
using kernel::PoolAxis;
using kernel::PoolGeometry;
using kernel::Window;

constexpr const char* kConv = "conv2d";
constexpr const char* kConvData = "conv2d_backward_data";
constexpr const char* kConvWeight = "conv2d_backward_weight";
constexpr const char* kMaxPool = "max_pool2d";
constexpr const char* kAdaptiveMaxPool = "adaptive_max_pool2d";
constexpr const char* kMaxPoolBackward = "max_pool2d_backward";
constexpr const char* kAvgPool = "avg_pool2d";
constexpr const char* kAvgPoolBackward = "avg_pool2d_backward";
constexpr const char* kAdaptiveAvgPool = "adaptive_avg_pool2d";
constexpr const char* kAdaptiveAvgPoolBackward = "adaptive_avg_pool2d_backward";
constexpr const char* kPad = "pad";
constexpr const char* kPadBackward = "pad_backward";

void expect_floating(const std::string& op, const TensorMeta& m, const std::string& what) {
  if (!is_floating(m.dtype)) {
    op_error(op, "the dtype of " + what + " is " + dtype_name(m.dtype) + "; expected float32 or float64");
  }
}

void expect_4d(const std::string& op, const TensorMeta& m, const std::string& what, const std::string& layout) {
  if (m.shape.size() != 4) {
    op_error(op, what + " has shape " + to_string(m.shape) + "; expected 4 dims " + layout);
  }
}

bool grouped(const Attrs& attrs) { return attrs.get_int("groups") != 1; }

const Sbp kB = Sbp::broadcast(), kP = Sbp::partial_sum();

// Calls f(T{}) for float32 and float64, the dtypes the infer functions let through.
template <typename F>
void visit_floating(DType dtype, F&& f) {
  visit_dtype(dtype, [&](auto v) {
    if constexpr (std::is_floating_point_v<decltype(v)>) f(v);
  });
}

// ---------------------------------------------------------------------------------------------
// conv2d and its backward ops

// The geometry of a call from x's shape, the weight's and the attributes.
ConvGeometry geometry_of(const std::string& op, const Attrs& attrs, const Shape& x, const Shape& w) {
  const int64_t kernel[2] = {w[2], w[3]};
  const int64_t in[2] = {x[2], x[3]};
  return kernel::conv_geometry(op, attrs, x[0], x[1], w[0], in, kernel);
}

// Checks x [N, C_in, H, W] and w [C_out, C_in / groups, kh, kw] (logical or local).
ConvGeometry checked_geometry(const std::string& op, const Attrs& attrs, const TensorMeta& x, const TensorMeta& w) {
  expect_floating(op, x, "the input");
  expect_4d(op, x, "the input", "[N, C_in, H, W]");
  expect_4d(op, w, "the weight", "[C_out, C_in / groups, kh, kw]");
  kernel::expect_same_dtype(op, x, w);
  const ConvGeometry g = geometry_of(op, attrs, x.shape, w.shape);
  if (g.in_channels % g.groups != 0 || g.out_channels % g.groups != 0 || w.shape[1] * g.groups != g.in_channels) {
    op_error(op, "the input has shape " + to_string(x.shape) + " and the weight " + to_string(w.shape) + " with " +
                     std::to_string(g.groups) +
                     " groups; expected C_in and C_out divisible by groups and the "
                     "weight's dim 1 equal to C_in / groups");
  }
  return g;
}

std::vector<TensorMeta> conv_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kConv, in, 2);
  const ConvGeometry g = checked_geometry(kConv, attrs, in[0], in[1]);
  return {{{g.batch, g.out_channels, g.out[0], g.out[1]}, in[0].dtype}};
}

std::vector<Signature> conv_signatures(const std::vector<TensorMeta>&, const std::vector<TensorMeta>&,
                                       const Attrs& attrs) {
  std::vector<Signature> sigs{{{Sbp::split(0), kB}, {Sbp::split(0)}}, {{kP, kB}, {kP}}, {{kB, kP}, {kP}}};
  if (!grouped(attrs)) {
    sigs.push_back({{kB, Sbp::split(0)}, {Sbp::split(1)}});
    sigs.push_back({{Sbp::split(1), Sbp::split(1)}, {kP}});
  }
  return sigs;
}

// col [C_in/groups * kh * kw, OH * OW] of one image's group (its C_in/groups planes at x):
// row (c, i, j), column (oh, ow) holds x[c, oh * stride - pad + i * dilation, ...], 0 outside.
template <typename T>
void im2col(const ConvGeometry& g, const T* x, T* col) {
  const int64_t kh = g.kernel[0], kw = g.kernel[1], oh = g.out[0], ow = g.out[1], h = g.in[0], w = g.in[1];
  const int64_t rows = g.in_per_group() * kh * kw;
  kernel::parallel_for(rows, rows * oh * ow > kernel::kParallelGrain, [&](int64_t r) {
    const int64_t c = r / (kh * kw), i = r / kw % kh, j = r % kw;
    const T* plane = x + c * h * w;
    T* out = col + r * oh * ow;
    for (int64_t y = 0; y < oh; ++y) {
      const int64_t iy = y * g.stride[0] - g.pad[0] + i * g.dilation[0];
      T* line = out + y * ow;
      if (iy < 0 || iy >= h) {
        std::fill(line, line + ow, T{0});
        continue;
      }
      for (int64_t x_ = 0; x_ < ow; ++x_) {
        const int64_t ix = x_ * g.stride[1] - g.pad[1] + j * g.dilation[1];
        line[x_] = ix >= 0 && ix < w ? plane[iy * w + ix] : T{0};
      }
    }
  });
}

// The adjoint of im2col: dx (one image's group, zeroed here) += each col entry at its input
// position. One thread per input plane, its entries added in (i, j, oh, ow) order.
template <typename T>
void col2im(const ConvGeometry& g, const T* col, T* dx) {
  const int64_t kh = g.kernel[0], kw = g.kernel[1], oh = g.out[0], ow = g.out[1], h = g.in[0], w = g.in[1];
  const int64_t planes = g.in_per_group();
  kernel::parallel_for(planes, planes * kh * kw * oh * ow > kernel::kParallelGrain, [&](int64_t c) {
    T* plane = dx + c * h * w;
    std::fill(plane, plane + h * w, T{0});
    for (int64_t i = 0; i < kh; ++i) {
      for (int64_t j = 0; j < kw; ++j) {
        const T* rows = col + ((c * kh + i) * kw + j) * oh * ow;
        for (int64_t y = 0; y < oh; ++y) {
          const int64_t iy = y * g.stride[0] - g.pad[0] + i * g.dilation[0];
          if (iy < 0 || iy >= h) continue;
          for (int64_t x_ = 0; x_ < ow; ++x_) {
            const int64_t ix = x_ * g.stride[1] - g.pad[1] + j * g.dilation[1];
            if (ix >= 0 && ix < w) plane[iy * w + ix] += rows[y * ow + x_];
          }
        }
      }
    }
  });
}

// Runs a pass of the convolution g through oneDNN where it computes the dtype (float32,
// bfloat16), out = pass(a, b); false for float64, which the product kernels below take. An
// empty operand makes the output zeros (sums of no terms) without a primitive.
bool on_onednn(kernel::onednn::ConvPass pass, const ConvGeometry& g, const Tensor& a, const Tensor& b, Tensor& out) {
  if (!kernel::onednn::handles(a.dtype())) return false;
  if (a.numel() == 0 || b.numel() == 0 || out.numel() == 0) {
    std::memset(out.data(), 0, out.nbytes());
    return true;
  }
  kernel::onednn::conv(pass, g, a.dtype(), a.data(), b.data(), out.data());
  return true;
}

std::vector<Tensor> conv_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor &x = in[0], &w = in[1];
  const ConvGeometry g = geometry_of(kConv, ctx.attrs, x.shape(), w.shape());
  Tensor y = ctx.output(0, {g.batch, g.out_channels, g.out[0], g.out[1]}, x.dtype());
  if (on_onednn(kernel::onednn::ConvPass::kForward, g, x, w, y)) return {y};
  {  // float64: float32 and bfloat16 ran on oneDNN above
    using T = double;
    const int64_t k = g.in_per_group() * g.kernel[0] * g.kernel[1], pixels = g.out[0] * g.out[1];
    const int64_t cin = g.in_per_group(), cout = g.out_per_group(), plane = g.in[0] * g.in[1];
    std::vector<T> col(k * pixels);
    for (int64_t n = 0; n < g.batch; ++n) {
      for (int64_t group = 0; group < g.groups; ++group) {
        im2col(g, x.data_as<T>() + (n * g.in_channels + group * cin) * plane, col.data());
        kernel::gemm(false, false, cout, pixels, k, w.data_as<T>() + group * cout * k, col.data(),
                     y.data_as<T>() + (n * g.out_channels + group * cout) * pixels);
      }
    }
  }
  return {y};
}

// Checks dy is the output of the convolution g, for its backward ops.
void expect_conv_output(const std::string& op, const TensorMeta& dy, const ConvGeometry& g) {
  const Shape expected{g.batch, g.out_channels, g.out[0], g.out[1]};
  if (dy.shape != expected) {
    op_error(op, "dy has shape " + to_string(dy.shape) + "; expected " + to_string(expected) +
                     ", the convolution's output");
  }
}

// A backward op's rule: its two inputs `a` (the kind `a_what` says, laid out as `a_layout`)
// and dy 4-d, the attribute `size_key` two ints (`size_what`), then the convolution of x and
// w (one of them the op's result, made by `result` from the attributes and the inputs'
// shapes) checked and dy its output. Returns the result's meta.
template <typename Result>
TensorMeta conv_backward_infer(const char* op, const std::vector<TensorMeta>& in, const Attrs& attrs, size_t dy_index,
                               const char* a_what, const char* a_layout, const char* size_key,
                               const char* size_what, Result result) {
  kernel::expect_inputs(op, in, 2);
  const TensorMeta &dy = in[dy_index], &a = in[1 - dy_index];
  expect_4d(op, a, a_what, a_layout);
  expect_4d(op, dy, "dy", "[N, C_out, OH, OW]");
  const std::vector<int64_t>& size = attrs.get_ints(size_key);
  if (size.size() != 2) {
    op_error(op, std::string(size_key) + " is " + to_string(size) + "; expected two ints " + size_what);
  }
  const TensorMeta r = result(a, dy);
  const ConvGeometry g = dy_index == 0 ? checked_geometry(op, attrs, r, a) : checked_geometry(op, attrs, a, r);
  kernel::expect_same_dtype(op, in[0], in[1]);
  expect_conv_output(op, dy, g);
  return r;
}

std::vector<TensorMeta> conv_data_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  return {conv_backward_infer(kConvData, in, attrs, 0, "the weight", "[C_out, C_in / groups, kh, kw]", "input_size",
                              "(H, W)", [&](const TensorMeta& w, const TensorMeta& dy) {
                                return TensorMeta{kernel::conv_input_shape(attrs, dy.shape, w.shape), w.dtype};
                              })};
}

std::vector<Signature> conv_data_signatures(const std::vector<TensorMeta>&, const std::vector<TensorMeta>&,
                                            const Attrs& attrs) {
  std::vector<Signature> sigs{{{Sbp::split(0), kB}, {Sbp::split(0)}}, {{kP, kB}, {kP}}, {{kB, kP}, {kP}}};
  if (!grouped(attrs)) {
    sigs.push_back({{Sbp::split(1), Sbp::split(0)}, {kP}});
    sigs.push_back({{kB, Sbp::split(1)}, {Sbp::split(1)}});
  }
  return sigs;
}

std::vector<Tensor> conv_data_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor &dy = in[0], &w = in[1];
  const Shape xs = kernel::conv_input_shape(ctx.attrs, dy.shape(), w.shape());
  const ConvGeometry g = geometry_of(kConvData, ctx.attrs, xs, w.shape());
  Tensor dx = ctx.output(0, xs, dy.dtype());
  if (on_onednn(kernel::onednn::ConvPass::kBackwardData, g, dy, w, dx)) return {dx};
  {  // float64: float32 and bfloat16 ran on oneDNN above
    using T = double;
    const int64_t k = g.in_per_group() * g.kernel[0] * g.kernel[1], pixels = g.out[0] * g.out[1];
    const int64_t cin = g.in_per_group(), cout = g.out_per_group(), plane = g.in[0] * g.in[1];
    std::vector<T> col(k * pixels);
    for (int64_t n = 0; n < g.batch; ++n) {
      for (int64_t group = 0; group < g.groups; ++group) {
        kernel::gemm(true, false, k, pixels, cout, w.data_as<T>() + group * cout * k,
                     dy.data_as<T>() + (n * g.out_channels + group * cout) * pixels, col.data());
        col2im(g, col.data(), dx.data_as<T>() + (n * g.in_channels + group * cin) * plane);
      }
    }
  }
  return {dx};
}

std::vector<TensorMeta> conv_weight_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  return {conv_backward_infer(kConvWeight, in, attrs, 1, "the input", "[N, C_in, H, W]", "kernel_size", "(kh, kw)",
                              [&](const TensorMeta& x, const TensorMeta& dy) {
                                return TensorMeta{kernel::conv_weight_shape(attrs, x.shape, dy.shape), x.dtype};
                              })};
}

std::vector<Signature> conv_weight_signatures(const std::vector<TensorMeta>&, const std::vector<TensorMeta>&,
                                              const Attrs& attrs) {
  std::vector<Signature> sigs{{{Sbp::split(0), Sbp::split(0)}, {kP}}, {{kP, kB}, {kP}}, {{kB, kP}, {kP}}};
  if (!grouped(attrs)) {
    sigs.push_back({{kB, Sbp::split(1)}, {Sbp::split(0)}});
    sigs.push_back({{Sbp::split(1), kB}, {Sbp::split(1)}});
  }
  return sigs;
}

std::vector<Tensor> conv_weight_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor &x = in[0], &dy = in[1];
  const Shape ws = kernel::conv_weight_shape(ctx.attrs, x.shape(), dy.shape());
  const ConvGeometry g = geometry_of(kConvWeight, ctx.attrs, x.shape(), ws);
  Tensor dw = ctx.output(0, ws, x.dtype());
  if (on_onednn(kernel::onednn::ConvPass::kBackwardWeights, g, x, dy, dw)) return {dw};
  {  // float64: float32 and bfloat16 ran on oneDNN above
    using T = double;
    const int64_t k = g.in_per_group() * g.kernel[0] * g.kernel[1], pixels = g.out[0] * g.out[1];
    const int64_t cin = g.in_per_group(), cout = g.out_per_group(), plane = g.in[0] * g.in[1];
    std::vector<T> col(k * pixels), product(cout * k);
    T* total = dw.data_as<T>();
    std::fill(total, total + dw.numel(), T{0});
    // Images in order, each one's product added to the total: the same sums for any threads.
    for (int64_t n = 0; n < g.batch; ++n) {
      for (int64_t group = 0; group < g.groups; ++group) {
        im2col(g, x.data_as<T>() + (n * g.in_channels + group * cin) * plane, col.data());
        kernel::gemm(false, true, cout, k, pixels, dy.data_as<T>() + (n * g.out_channels + group * cout) * pixels,
                     col.data(), product.data());
        T* part = total + group * cout * k;
        kernel::simd_loop(cout * k, [&](int64_t i) { part[i] += product[i]; });
      }
    }
  }
  return {dw};
}

std::vector<Var> conv_grad(const GradContext& ctx) {
  const Var &x = ctx.inputs[0], &w = ctx.inputs[1], &dy = ctx.grad_outputs[0];
  std::vector<Var> grads(2);
  if (ctx.needs_grad[0]) {
    Attrs attrs = ctx.attrs;
    attrs.set("input_size", std::vector<int64_t>{x.shape()[2], x.shape()[3]});
    grads[0] = call1(kConvData, {dy, w}, attrs);
  }
  if (ctx.needs_grad[1]) {
    Attrs attrs = ctx.attrs;
    attrs.set("kernel_size", std::vector<int64_t>{w.shape()[2], w.shape()[3]});
    grads[1] = call1(kConvWeight, {x, dy}, attrs);
  }
  return grads;
}

// The backward ops' own gradients (a create_graph backward through conv2d). Both are linear in
// each input, and each is the adjoint of conv2d in one argument: from <gdx, data(dy, w)> =
// <conv2d(gdx, w), dy> and <gdw, weight(x, dy)> = <conv2d(x, gdw), dy>.
std::vector<Var> conv_data_grad(const GradContext& ctx) {
  const Var &dy = ctx.inputs[0], &w = ctx.inputs[1], &gdx = ctx.grad_outputs[0];
  std::vector<Var> grads(2);
  if (ctx.needs_grad[0]) grads[0] = call1(kConv, {gdx, w}, ctx.attrs);
  if (ctx.needs_grad[1]) {
    Attrs attrs = ctx.attrs;
    attrs.set("kernel_size", std::vector<int64_t>{w.shape()[2], w.shape()[3]});
    grads[1] = call1(kConvWeight, {gdx, dy}, attrs);
  }
  return grads;
}

std::vector<Var> conv_weight_grad(const GradContext& ctx) {
  const Var &x = ctx.inputs[0], &dy = ctx.inputs[1], &gdw = ctx.grad_outputs[0];
  std::vector<Var> grads(2);
  if (ctx.needs_grad[0]) {
    Attrs attrs = ctx.attrs;
    attrs.set("input_size", std::vector<int64_t>{x.shape()[2], x.shape()[3]});
    grads[0] = call1(kConvData, {dy, gdw}, attrs);
  }
  if (ctx.needs_grad[1]) grads[1] = call1(kConv, {x, gdw}, ctx.attrs);
  return grads;
}

// ---------------------------------------------------------------------------------------------
// Pooling

// Signatures of ops whose inputs and outputs are all [N, C, ...] alike: a split of N or C.
std::vector<Signature> plane_signatures(size_t inputs, size_t outputs, bool linear) {
  std::vector<Signature> sigs = kernel::split_alike_signatures(2, inputs, outputs);
  if (linear) sigs.push_back({std::vector<Sbp>(inputs, kP), std::vector<Sbp>(outputs, kP)});
  return sigs;
}

Shape pooled_shape(const Shape& x, const PoolGeometry& g) { return {x[0], x[1], g.axis[0].out, g.axis[1].out}; }

// The input of a backward op: dy's N and C with the attribute input_size.
Shape backward_input_shape(const std::string& op, const Attrs& attrs, const Shape& dy) {
  const std::vector<int64_t>& size = attrs.get_ints("input_size");
  if (size.size() != 2 || dy.size() != 4) {
    op_error(op, "input_size is " + to_string(size) + " and dy has shape " + to_string(dy) +
                     "; expected two ints (H, W) and dy of 4 dims [N, C, OH, OW]");
  }
  return {dy[0], dy[1], size[0], size[1]};
}

// max_pool2d and adaptive_max_pool2d: y and the flat index of each window's maximum (a NaN
// wins, as in torch).
OpDef max_pool(const char* name, bool adaptive) {
  auto infer = [name, adaptive](const std::vector<TensorMeta>& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    kernel::expect_inputs(name, in, 1);
    expect_floating(name, in[0], "the input");
    const Shape out = pooled_shape(in[0].shape, kernel::pool_geometry(name, attrs, in[0].shape, adaptive));
    return {{out, in[0].dtype}, {out, DType::kInt64}};
  };
  auto signatures = [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>&, const Attrs&) {
    return plane_signatures(1, 2, false);
  };
  auto run = [name, adaptive](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor& x = in[0];
    const PoolGeometry g = kernel::pool_geometry(name, ctx.attrs, x.shape(), adaptive);
    const Shape out = pooled_shape(x.shape(), g);
    Tensor y = ctx.output(0, out, x.dtype()), indices = ctx.output(1, out, DType::kInt64);
    const PoolAxis &ah = g.axis[0], &aw = g.axis[1];
    visit_floating(x.dtype(), [&](auto v) {
      using T = decltype(v);
      int64_t* idx = indices.data_as<int64_t>();
      kernel::parallel_for(g.planes * ah.out, y.numel() * 4 > kernel::kParallelGrain, [&](int64_t row) {
        const int64_t p = row / ah.out, oh = row % ah.out;
        const T* plane = x.data_as<T>() + p * ah.in * aw.in;
        const Window wh = kernel::pool_window(ah, oh);
        for (int64_t ow = 0; ow < aw.out; ++ow) {
          const Window ww = kernel::pool_window(aw, ow);
          T best = -std::numeric_limits<T>::infinity();
          int64_t at = wh.first * aw.in + ww.first;
          for (int64_t ih = wh.first; ih < wh.stop; ih += wh.step) {
            for (int64_t iw = ww.first; iw < ww.stop; iw += ww.step) {
              const T value = plane[ih * aw.in + iw];
              if (value > best || std::isnan(value)) best = value, at = ih * aw.in + iw;
            }
          }
          const int64_t o = row * aw.out + ow;
          y.data_as<T>()[o] = best;
          idx[o] = at;
        }
      });
    });
    return {y, indices};
  };
  OpDef op = make_op(name, infer, signatures, run);
  op.grad = [](const GradContext& ctx) -> std::vector<Var> {
    const Shape& x = ctx.inputs[0].shape();
    return {call1(kMaxPoolBackward, {ctx.grad_outputs[0], ctx.outputs[1]},
                  {{"input_size", std::vector<int64_t>{x[2], x[3]}}})};
  };
  return op;
}

std::vector<TensorMeta> max_pool_backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kMaxPoolBackward, in, 2);
  expect_floating(kMaxPoolBackward, in[0], "dy");
  if (in[1].dtype != DType::kInt64 || in[1].shape != in[0].shape) {
    op_error(kMaxPoolBackward, "indices are " + std::string(dtype_name(in[1].dtype)) + " of shape " +
                                   to_string(in[1].shape) + "; expected int64 of dy's shape " + to_string(in[0].shape));
  }
  return {{backward_input_shape(kMaxPoolBackward, attrs, in[0].shape), in[0].dtype}};
}

// Each plane's dy added at its indices in output order (indices come from the forward op:
// in range by construction).
std::vector<Tensor> max_pool_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor &dy = in[0], &indices = in[1];
  const Shape xs = backward_input_shape(kMaxPoolBackward, ctx.attrs, dy.shape());
  Tensor dx = ctx.output(0, xs, dy.dtype());
  const int64_t planes = xs[0] * xs[1], in_plane = xs[2] * xs[3], out_plane = dy.shape()[2] * dy.shape()[3];
  visit_floating(dy.dtype(), [&](auto v) {
    using T = decltype(v);
    kernel::parallel_for(planes, dx.numel() > kernel::kParallelGrain, [&](int64_t p) {
      T* d = dx.data_as<T>() + p * in_plane;
      const T* g = dy.data_as<T>() + p * out_plane;
      const int64_t* idx = indices.data_as<int64_t>() + p * out_plane;
      std::fill(d, d + in_plane, T{0});
      for (int64_t o = 0; o < out_plane; ++o) d[idx[o]] += g[o];
    });
  });
  return {dx};
}

// Linear in dy: its gradient reads ddx at each window's maximum (a create_graph backward).
std::vector<Var> max_pool_backward_grad(const GradContext& ctx) {
  const Shape &dy = ctx.inputs[0].shape(), &x = ctx.grad_outputs[0].shape();
  const Var planes = fn::reshape(ctx.grad_outputs[0], {x[0], x[1], x[2] * x[3]});
  const Var at = fn::reshape(ctx.inputs[1], {dy[0], dy[1], dy[2] * dy[3]});
  return {fn::reshape(call1("gather", {planes, at}, {{"dim", int64_t{2}}}), dy), Var()};
}

// avg_pool2d's attributes beyond the window: count_include_pad (default true) and
// divisor_override (0 or absent: none).
bool count_include_pad(const Attrs& attrs) {
  return !attrs.has("count_include_pad") || attrs.get_bool("count_include_pad");
}
int64_t divisor_override(const Attrs& attrs) {
  return attrs.has("divisor_override") ? attrs.get_int("divisor_override") : 0;
}

// avg_pool2d and adaptive_avg_pool2d, and their backward ops (named name + "_backward").
OpDef avg_pool(const char* name, const char* backward, bool adaptive) {
  auto infer = [name, adaptive](const std::vector<TensorMeta>& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    kernel::expect_inputs(name, in, 1);
    expect_floating(name, in[0], "the input");
    if (divisor_override(attrs) < 0) op_error(name, "divisor_override is negative; expected a positive divisor");
    return {{pooled_shape(in[0].shape, kernel::pool_geometry(name, attrs, in[0].shape, adaptive)), in[0].dtype}};
  };
  auto signatures = [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>&, const Attrs&) {
    return plane_signatures(1, 1, true);
  };
  auto run = [name, adaptive](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor& x = in[0];
    const PoolGeometry g = kernel::pool_geometry(name, ctx.attrs, x.shape(), adaptive);
    Tensor y = ctx.output(0, pooled_shape(x.shape(), g), x.dtype());
    const PoolAxis &ah = g.axis[0], &aw = g.axis[1];
    const bool with_pad = count_include_pad(ctx.attrs);
    const int64_t override_ = divisor_override(ctx.attrs);
    visit_floating(x.dtype(), [&](auto v) {
      using T = decltype(v);
      kernel::parallel_for(g.planes * ah.out, y.numel() * 4 > kernel::kParallelGrain, [&](int64_t row) {
        const int64_t p = row / ah.out, oh = row % ah.out;
        const T* plane = x.data_as<T>() + p * ah.in * aw.in;
        const Window wh = kernel::pool_window(ah, oh);
        for (int64_t ow = 0; ow < aw.out; ++ow) {
          const Window ww = kernel::pool_window(aw, ow);
          T sum = 0;
          for (int64_t ih = wh.first; ih < wh.stop; ++ih) {
            for (int64_t iw = ww.first; iw < ww.stop; ++iw) sum += plane[ih * aw.in + iw];
          }
          y.data_as<T>()[row * aw.out + ow] =
              sum / static_cast<T>(kernel::avg_pool_divisor(g, oh, ow, with_pad, override_));
        }
      });
    });
    return {y};
  };
  OpDef op = make_op(name, infer, signatures, run);
  op.grad = [backward](const GradContext& ctx) -> std::vector<Var> {
    const Shape& x = ctx.inputs[0].shape();
    Attrs attrs = ctx.attrs;
    attrs.set("input_size", std::vector<int64_t>{x[2], x[3]});
    return {call1(backward, {ctx.grad_outputs[0]}, attrs)};
  };
  return op;
}

// `forward` is the pooling op: the backward op is linear in dy and the pooling's adjoint, so
// its gradient (a create_graph backward) is the pooling of ddx.
OpDef avg_pool_backward(const char* name, const char* forward, bool adaptive) {
  auto infer = [name, adaptive](const std::vector<TensorMeta>& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    kernel::expect_inputs(name, in, 1);
    expect_floating(name, in[0], "dy");
    const Shape xs = backward_input_shape(name, attrs, in[0].shape);
    const Shape expected = pooled_shape(xs, kernel::pool_geometry(name, attrs, xs, adaptive));
    if (expected != in[0].shape) {
      op_error(name, "dy has shape " + to_string(in[0].shape) + "; expected " + to_string(expected) +
                         ", the pooling's output");
    }
    return {{xs, in[0].dtype}};
  };
  auto signatures = [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>&, const Attrs&) {
    return plane_signatures(1, 1, true);
  };
  auto run = [name, adaptive](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor& dy = in[0];
    const Shape xs = backward_input_shape(name, ctx.attrs, dy.shape());
    const PoolGeometry g = kernel::pool_geometry(name, ctx.attrs, xs, adaptive);
    Tensor dx = ctx.output(0, xs, dy.dtype());
    const PoolAxis &ah = g.axis[0], &aw = g.axis[1];
    const bool with_pad = count_include_pad(ctx.attrs);
    const int64_t override_ = divisor_override(ctx.attrs);
    visit_floating(dy.dtype(), [&](auto v) {
      using T = decltype(v);
      kernel::parallel_for(g.planes, dx.numel() > kernel::kParallelGrain, [&](int64_t p) {
        T* d = dx.data_as<T>() + p * ah.in * aw.in;
        const T* gy = dy.data_as<T>() + p * ah.out * aw.out;
        std::fill(d, d + ah.in * aw.in, T{0});
        for (int64_t oh = 0; oh < ah.out; ++oh) {
          const Window wh = kernel::pool_window(ah, oh);
          for (int64_t ow = 0; ow < aw.out; ++ow) {
            const Window ww = kernel::pool_window(aw, ow);
            const T share =
                gy[oh * aw.out + ow] / static_cast<T>(kernel::avg_pool_divisor(g, oh, ow, with_pad, override_));
            for (int64_t ih = wh.first; ih < wh.stop; ++ih) {
              for (int64_t iw = ww.first; iw < ww.stop; ++iw) d[ih * aw.in + iw] += share;
            }
          }
        }
      });
    });
    return {dx};
  };
  return with_grad(make_op(name, infer, signatures, run), [forward](const GradContext& ctx) -> std::vector<Var> {
    return {call1(forward, {ctx.grad_outputs[0]}, ctx.attrs)};
  });
}

// ---------------------------------------------------------------------------------------------
// pad, pad_backward

double pad_value(const Attrs& attrs) { return attrs.has("value") ? attrs.get_float("value") : 0.0; }

bool padded(const kernel::PadGeometry& g, int d) { return g.before[d] != 0 || g.out[d] != g.in[d]; }

// A split of each dim not padded; P -> P where padding adds no value (a zero, or a copy of
// the input's elements).
std::vector<Signature> pad_like_signatures(const kernel::PadGeometry& g, const Attrs& attrs) {
  std::vector<Signature> sigs;
  for (int d = 0; d < g.nd; ++d) {
    if (!padded(g, d)) sigs.push_back({{Sbp::split(d)}, {Sbp::split(d)}});
  }
  if (g.mode != kernel::kPadConstant || pad_value(attrs) == 0) sigs.push_back({{kP}, {kP}});
  return sigs;
}

Shape pad_out_shape(const kernel::PadGeometry& g) { return Shape(g.out, g.out + g.nd); }

std::vector<TensorMeta> pad_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kPad, in, 1);
  if (attrs.has("value")) kernel::check_fits(kPad, "value", attrs, in[0].dtype);
  return {{pad_out_shape(kernel::pad_geometry(kPad, attrs, in[0].shape)), in[0].dtype}};
}

std::vector<Signature> pad_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                      const Attrs& attrs) {
  return pad_like_signatures(kernel::pad_geometry(kPad, attrs, in[0].shape), attrs);
}

// Row by row of the output's last dim: the input row each reads (or none: the value), then
// each element's source in it.
std::vector<Tensor> pad_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const kernel::PadGeometry g = kernel::pad_geometry(kPad, ctx.attrs, x.shape());
  Tensor y = ctx.output(0, pad_out_shape(g), x.dtype());
  if (y.numel() == 0) return {y};
  if (g.nd == 0) {
    std::memcpy(y.data(), x.data(), x.nbytes());
    return {y};
  }
  const double value = pad_value(ctx.attrs);
  const int last = g.nd - 1;
  visit_dtype(x.dtype(), [&](auto v) {
    using T = decltype(v);
    const T fill = static_cast<T>(value);
    const int64_t width = g.out[last], rows = y.numel() / width;
    kernel::parallel_for(rows, y.numel() > kernel::kParallelGrain, [&](int64_t r) {
      T* out = y.data_as<T>() + r * width;
      int64_t rest = r, src = 0, stride = g.in[last];
      bool inside = true;
      for (int d = last - 1; d >= 0; --d) {
        const int64_t i = kernel::pad_source(g, d, rest % g.out[d]);
        rest /= g.out[d];
        inside = inside && i >= 0;
        src += i * stride;
        stride *= g.in[d];
      }
      const T* row = x.data_as<T>() + (inside ? src : 0);
      for (int64_t j = 0; j < width; ++j) {
        const int64_t i = inside ? kernel::pad_source(g, last, j) : -1;
        out[j] = i >= 0 ? row[i] : fill;
      }
    });
  });
  return {y};
}

// pad_backward(dy; pads, mode, input_shape) -> dx: each input element's sum of the dy
// elements that read it (kernel::pad_backward_at), for reflect and replicate.
Shape pad_backward_input(const Attrs& attrs, const Shape& dy, const kernel::PadGeometry& logical) {
  Shape x(attrs.get_ints("input_shape"));
  for (int d = 0; d < logical.nd; ++d) {
    if (!padded(logical, d)) x[d] = dy[d];  // a split dim: this rank's part
  }
  return x;
}

std::vector<TensorMeta> pad_backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kPadBackward, in, 1);
  const Shape x(attrs.get_ints("input_shape"));
  const Shape out = pad_out_shape(kernel::pad_geometry(kPadBackward, attrs, x));
  if (out != in[0].shape) {
    op_error(kPadBackward, "dy has shape " + to_string(in[0].shape) + "; expected " + to_string(out) +
                               ", input_shape " + to_string(x) + " padded");
  }
  return {{x, in[0].dtype}};
}

std::vector<Signature> pad_backward_signatures(const std::vector<TensorMeta>&, const std::vector<TensorMeta>&,
                                               const Attrs& attrs) {
  return pad_like_signatures(kernel::pad_geometry(kPadBackward, attrs, Shape(attrs.get_ints("input_shape"))), attrs);
}

std::vector<Tensor> pad_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& dy = in[0];
  const Shape logical(ctx.attrs.get_ints("input_shape"));
  const Shape xs = pad_backward_input(ctx.attrs, dy.shape(), kernel::pad_geometry(kPadBackward, ctx.attrs, logical));
  const kernel::PadGeometry g = kernel::pad_geometry(kPadBackward, ctx.attrs, xs);
  Tensor dx = ctx.output(0, xs, dy.dtype());
  visit_dtype(dy.dtype(), [&](auto v) {
    using T = decltype(v);
    if constexpr (std::is_floating_point_v<T>) {
      T* d = dx.data_as<T>();
      kernel::parallel_for(dx.numel(), dx.numel() > kernel::kParallelGrain / 4,
                           [&](int64_t e) { d[e] = kernel::pad_backward_at(g, dy.data_as<T>(), e); });
    }
  });
  return {dx};
}

// Constant padding's gradient is the crop back (pad with the pads negated); reflect's and
// replicate's add the copies' gradients too.
std::vector<Var> pad_grad(const GradContext& ctx) {
  const int64_t mode = ctx.attrs.has("mode") ? ctx.attrs.get_int("mode") : kernel::kPadConstant;
  if (mode == kernel::kPadConstant) {
    std::vector<int64_t> pads = ctx.attrs.get_ints("pads");
    for (int64_t& p : pads) p = -p;
    return {call1(kPad, {ctx.grad_outputs[0]}, {{"pads", pads}})};
  }
  const Shape& x = ctx.inputs[0].shape();
  return {call1(kPadBackward, {ctx.grad_outputs[0]},
                {{"pads", ctx.attrs.get_ints("pads")},
                 {"mode", mode},
                 {"input_shape", std::vector<int64_t>(x.begin(), x.end())}})};
}

// pad_backward is linear in dy and reflect's or replicate's adjoint: its gradient (a
// create_graph backward) is the padding of ddx.
std::vector<Var> pad_backward_grad(const GradContext& ctx) {
  return {call1(kPad, {ctx.grad_outputs[0]}, {{"pads", ctx.attrs.get_ints("pads")}, {"mode", ctx.attrs.get_int("mode")}})};
}

// ---------------------------------------------------------------------------------------------
// upsample_nearest, upsample_nearest_backward

constexpr const char* kUpsample = "upsample_nearest";
constexpr const char* kUpsampleBackward = "upsample_nearest_backward";

Shape upsampled_shape(const Shape& x, const kernel::UpsampleGeometry& g) {
  Shape out{x[0], x[1]};
  for (int d = 0; d < g.k; ++d) out.push_back(g.out[d]);
  return out;
}

// dy's N and C with the attribute input_size: the shape of dx.
Shape upsample_input(const std::string& op, const Attrs& attrs, const Shape& dy) {
  const std::vector<int64_t>& size = attrs.get_ints("input_size");
  if (dy.size() != size.size() + 2) {
    op_error(op, "dy has shape " + to_string(dy) + " and input_size is " + to_string(size) +
                     "; expected [N, C] and a size for each of dy's other dims");
  }
  Shape x{dy[0], dy[1]};
  for (int64_t n : size) x.push_back(n);
  return x;
}

std::vector<TensorMeta> upsample_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kUpsample, in, 1);
  expect_floating(kUpsample, in[0], "the input");
  return {{upsampled_shape(in[0].shape, kernel::upsample_geometry(kUpsample, attrs, in[0].shape)), in[0].dtype}};
}

std::vector<Tensor> upsample_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const kernel::UpsampleGeometry g = kernel::upsample_geometry(kUpsample, ctx.attrs, x.shape());
  Tensor y = ctx.output(0, upsampled_shape(x.shape(), g), x.dtype());
  const int64_t plane_in = g.in[0] * g.in[1] * g.in[2], plane_out = g.out[0] * g.out[1] * g.out[2];
  visit_floating(x.dtype(), [&](auto v) {
    using T = decltype(v);
    kernel::parallel_for(y.numel(), y.numel() > kernel::kParallelGrain, [&](int64_t e) {
      int64_t rest = e % plane_out, src = 0, stride = 1;
      for (int d = g.k - 1; d >= 0; --d) {
        src += kernel::nearest_source(g, d, rest % g.out[d]) * stride;
        rest /= g.out[d];
        stride *= g.in[d];
      }
      y.data_as<T>()[e] = x.data_as<T>()[e / plane_out * plane_in + src];
    });
  });
  return {y};
}

std::vector<TensorMeta> upsample_backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kUpsampleBackward, in, 1);
  expect_floating(kUpsampleBackward, in[0], "dy");
  const Shape x = upsample_input(kUpsampleBackward, attrs, in[0].shape);
  const Shape expected = upsampled_shape(x, kernel::upsample_geometry(kUpsampleBackward, attrs, x));
  if (expected != in[0].shape) {
    op_error(kUpsampleBackward, "dy has shape " + to_string(in[0].shape) + "; expected " + to_string(expected));
  }
  return {{x, in[0].dtype}};
}

std::vector<Tensor> upsample_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& dy = in[0];
  const Shape xs = upsample_input(kUpsampleBackward, ctx.attrs, dy.shape());
  const kernel::UpsampleGeometry g = kernel::upsample_geometry(kUpsampleBackward, ctx.attrs, xs);
  Tensor dx = ctx.output(0, xs, dy.dtype());
  visit_floating(dy.dtype(), [&](auto v) {
    using T = decltype(v);
    T* d = dx.data_as<T>();
    kernel::parallel_for(dx.numel(), dx.numel() > kernel::kParallelGrain / 4,
                         [&](int64_t e) { d[e] = kernel::nearest_backward_at(g, dy.data_as<T>(), e); });
  });
  return {dx};
}

std::vector<Var> upsample_grad(const GradContext& ctx) {
  const Shape& x = ctx.inputs[0].shape();
  Attrs attrs = ctx.attrs;
  attrs.set("input_size", std::vector<int64_t>(x.begin() + 2, x.end()));
  return {call1(kUpsampleBackward, {ctx.grad_outputs[0]}, attrs)};
}

// upsample_nearest_backward is linear in dy and upsample_nearest's adjoint: its gradient (a
// create_graph backward) is the upsampling of ddx.
std::vector<Var> upsample_backward_grad(const GradContext& ctx) {
  return {call1(kUpsample, {ctx.grad_outputs[0]}, ctx.attrs)};
}

}  // namespace

void register_conv_ops(OpRegistry& r) {
  for (OpDef op : {with_grad(make_op(kConv, conv_infer, conv_signatures, conv_kernel), conv_grad),
                   with_grad(make_op(kConvData, conv_data_infer, conv_data_signatures, conv_data_kernel), conv_data_grad),
                   with_grad(make_op(kConvWeight, conv_weight_infer, conv_weight_signatures, conv_weight_kernel),
                             conv_weight_grad)}) {
    op.bfloat16 = true;  // oneDNN's, accumulating in float32
    r.add(op);
  }
  r.add(max_pool(kMaxPool, false));
  r.add(max_pool(kAdaptiveMaxPool, true));
  r.add(with_grad(make_op(
                      kMaxPoolBackward, max_pool_backward_infer,
                      [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>&, const Attrs&) {
                        std::vector<Signature> sigs = kernel::split_alike_signatures(2, 2, 1);
                        sigs.push_back({{kP, kB}, {kP}});
                        return sigs;
                      },
                      max_pool_backward_kernel),
                  max_pool_backward_grad));
  r.add(avg_pool(kAvgPool, kAvgPoolBackward, false));
  r.add(avg_pool_backward(kAvgPoolBackward, kAvgPool, false));
  r.add(avg_pool(kAdaptiveAvgPool, kAdaptiveAvgPoolBackward, true));
  r.add(avg_pool_backward(kAdaptiveAvgPoolBackward, kAdaptiveAvgPool, true));
  r.add(with_grad(make_op(kPad, pad_infer, pad_signatures, pad_kernel), pad_grad));
  r.add(with_grad(make_op(kPadBackward, pad_backward_infer, pad_backward_signatures, pad_backward_kernel),
                  pad_backward_grad));
  auto planes = [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>&, const Attrs&) {
    return plane_signatures(1, 1, true);
  };
  r.add(with_grad(make_op(kUpsample, upsample_infer, planes, upsample_kernel), upsample_grad));
  r.add(with_grad(make_op(kUpsampleBackward, upsample_backward_infer, planes, upsample_backward_kernel),
                  upsample_backward_grad));
}

}  // namespace mf
