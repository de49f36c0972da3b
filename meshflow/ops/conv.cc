// Copyright 2026 The meshflow Authors.
// Convolution, padding and nearest upsampling with PyTorch's semantics on NCHW and NCDHW
// tensors (float32, float64 and bfloat16 for the convolutions; pad takes every dtype), each
// beside the backward ops its gradient calls; pooling is pool.cc's. The geometry and its
// checks are conv_util.h's, shared with the CUDA kernels (cuda/conv.cu). k below is 2 or 3
// (conv2d over [N, C, H, W], conv3d over [N, C, D, H, W]; the 1-d and transposed forms are
// Python's, on these ops). Signatures (B, ... -> B implied):
//   conv<k>d(x[N, C_in, spatial], w[C_out, C_in / groups, kernel] (, bias[C_out]); stride,
//     pad_begin, pad_end, dilation (k ints each), groups) -> [N, C_out, out], plus the bias
//     per channel where given (the primitive's bias):  S(0), B (, B) -> S(0) (data
//     parallel);  P, B (, P) -> P;  B, P (, P) -> P; and with groups == 1:  B, S(0) (, S(0))
//     -> S(1) (output channels);  S(1), S(1) (, P) -> P (input channels).
//   conv<k>d_backward_data(dy, w (, bias[C_in]); conv<k>d's attributes, input_size (k ints))
//     -> dx, plus the bias per channel where given (a transposed convolution's, added as one
//     pass over dx): S(0), B (, B) -> S(0);  P, B (, P) -> P;  B, P (, P) -> P; groups == 1:
//     S(1), S(0) (, P) -> P;  B, S(1) (, S(0)) -> S(1).
//   The bias's gradient is dy's (or gdx's) sum over N and the spatial dims, one reduction.
//   conv<k>d_backward_weight(x, dy; conv<k>d's attributes, kernel_size (k ints)) -> dw:
//     S(0), S(0) -> P (data parallel: each rank's batch adds its part);  P, B -> P;
//     B, P -> P; groups == 1:  B, S(1) -> S(0);  S(1), B -> S(1).
//   Those two have gradients (conv<k>d and each other), for a create_graph backward; so have
//   the pad and upsample backward ops (linear in dy: their forward ops' adjoints).
//   pad(x; pads (torch's order: last dim first), mode (0 constant, 1 reflect, 2 replicate),
//     value = 0), any dtype; constant's negative pads crop:  S(k) -> S(k) for each dim k not
//     padded;  P -> P unless a constant other than 0 is added.
//   pad_backward(dy; pads, mode, input_shape) -> dx, floating, for reflect and replicate (each
//     input element's dy summed in output order):  the same.
//   upsample_nearest(x[N, C, d1 (, d2 (, d3))]; output_size, scale0.. (given scale factors))
//     -> torch's interpolate(mode='nearest'), a gather, so of any numeric dtype (uint8 images
//     and integer label maps resize as torch's), and upsample_nearest_backward(dy; the same,
//     input_size) -> dx (each input element's dy summed in output order), y and dx in x's
//     and dy's memory format:  S(0) -> S(0);  S(1) -> S(1);  P -> P.
//   upsample_linear(x[N, C, d1 (, d2 (, d3))]; upsample_nearest's attributes, align_corners,
//     cubic) -> torch's interpolate(mode='linear' | 'bilinear' | 'trilinear', or 'bicubic'
//     when cubic), and upsample_linear_backward(dy; the same, input_size) -> dx: the same
//     signatures and memory formats.
//
// On the CPU, the convolutions' float32 and bfloat16 run on oneDNN's convolution primitives
// (ops/onednn.h; bfloat16 accumulates in float32), float64 as im2col and OpenBLAS's dgemm per
// image and group. Memory formats (core/tensor.h): each activation is read in its format; y
// and dx are channels-last where x (or w) and dy are (torch's rule), else channels-last internally
// where oneDNN's convolution computes them (not on planes of one row, conv1d's), so that the
// next ops keep that layout; dw is
// row-major. oneDNN runs channels-last where an activation is, with no reorder of it. oneDNN's kernels may order an output's sum by the batch around it, so a
// batch split agrees with one device to rounding, not bit for bit.
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

// Attribute `key`: `dims` ints, each >= lowest.
std::vector<int64_t> axes_attr(const std::string& op, const Attrs& attrs, const std::string& key, int64_t lowest,
                               int dims) {
  const std::vector<int64_t>& v = attrs.get_ints(key);
  if (v.size() != static_cast<size_t>(dims)) {
    op_error(op, key + " is " + to_string(v) + "; expected " + std::to_string(dims) + " ints (" +
                     (dims == 3 ? "depth, height, width" : "height, width") + ")");
  }
  for (int64_t x : v) {
    if (x < lowest) op_error(op, key + " is " + to_string(v) + "; expected values >= " + std::to_string(lowest));
  }
  return v;
}

// The spatial dims of a call whose input has `ndim` dims: 2 or 3, or "[op] ..." naming `what`
// and its `layout`.
int spatial_dims(const std::string& op, const Shape& shape, const std::string& what, const std::string& layout) {
  if (shape.size() != 4 && shape.size() != 5) {
    op_error(op, what + " has shape " + to_string(shape) + "; expected " + layout);
  }
  return static_cast<int>(shape.size()) - 2;
}

}  // namespace

int64_t conv_out_size(int64_t in, int64_t kernel, int64_t stride, int64_t pad_begin, int64_t pad_end,
                      int64_t dilation) {
  const int64_t span = in + pad_begin + pad_end - dilation * (kernel - 1) - 1;
  return span < 0 ? 0 : span / stride + 1;
}

ConvGeometry conv_geometry(const std::string& op, const Attrs& attrs, const Shape& x, const Shape& w) {
  ConvGeometry g;
  g.dims = spatial_dims(op, x, "the input", "[N, C_in, H, W] or [N, C_in, D, H, W]");
  g.batch = x[0], g.in_channels = x[1], g.out_channels = w[0];
  g.groups = attrs.get_int("groups");
  if (g.groups < 1) op_error(op, "groups is " + std::to_string(g.groups) + "; expected groups >= 1");
  const int k = g.dims;
  const auto stride = axes_attr(op, attrs, "stride", 1, k), dilation = axes_attr(op, attrs, "dilation", 1, k);
  const auto pad_begin = axes_attr(op, attrs, "pad_begin", 0, k), pad_end = axes_attr(op, attrs, "pad_end", 0, k);
  for (int i = 0; i < k; ++i) {
    const int a = kAxes - k + i;
    g.in[a] = x[2 + i], g.kernel[a] = w[2 + i], g.stride[a] = stride[i], g.pad[a] = pad_begin[i];
    g.dilation[a] = dilation[i];
    g.out[a] = conv_out_size(x[2 + i], w[2 + i], stride[i], pad_begin[i], pad_end[i], dilation[i]);
    if (g.out[a] < 1) {
      op_error(op, "the input's size " + std::to_string(x[2 + i]) + " padded by " + std::to_string(pad_begin[i]) +
                       " and " + std::to_string(pad_end[i]) + " is smaller than the kernel's " +
                       std::to_string(w[2 + i]) + " dilated by " + std::to_string(dilation[i]) +
                       "; expected an output size of at least 1");
    }
  }
  return g;
}

ConvGeometry block_geometry(const std::string& op, const Attrs& attrs, int64_t channels, const Shape& plane) {
  ConvGeometry g;
  g.batch = 1, g.in_channels = g.out_channels = channels;
  const auto kernel = axes_attr(op, attrs, "kernel_size", 1, 2), dilation = axes_attr(op, attrs, "dilation", 1, 2);
  const auto padding = axes_attr(op, attrs, "padding", 0, 2), stride = axes_attr(op, attrs, "stride", 1, 2);
  for (int i = 0; i < 2; ++i) {
    const int a = 1 + i;
    g.in[a] = plane[i], g.kernel[a] = kernel[i], g.stride[a] = stride[i], g.pad[a] = padding[i];
    g.dilation[a] = dilation[i];
    g.out[a] = conv_out_size(plane[i], kernel[i], stride[i], padding[i], padding[i], dilation[i]);
  }
  if (g.out[1] < 1 || g.out[2] < 1) {
    op_error(op, "a spatial size " + to_string(plane) + " with kernel_size " + to_string(kernel) + ", dilation " +
                     to_string(dilation) + ", padding " + to_string(padding) + " and stride " + to_string(stride) +
                     " gives no blocks; expected a positive number of blocks");
  }
  return g;
}

Shape conv_output_shape(const ConvGeometry& g) {
  Shape out{g.batch, g.out_channels};
  for (int a = kAxes - g.dims; a < kAxes; ++a) out.push_back(g.out[a]);
  return out;
}

Shape conv_input_shape(const Attrs& attrs, const Shape& dy, const Shape& w) {
  Shape x{dy[0], w[1] * attrs.get_int("groups")};
  for (int64_t n : attrs.get_ints("input_size")) x.push_back(n);
  return x;
}

Shape conv_weight_shape(const Attrs& attrs, const Shape& x, const Shape& dy) {
  const int64_t groups = attrs.get_int("groups");
  Shape w{dy[1], groups > 0 ? x[1] / groups : 0};
  for (int64_t n : attrs.get_ints("kernel_size")) w.push_back(n);
  return w;
}

PoolGeometry pool_geometry(const std::string& op, const Attrs& attrs, const Shape& input, bool adaptive, int dims) {
  if (input.size() != static_cast<size_t>(dims) + 2) {
    op_error(op, "the input has shape " + to_string(input) + "; expected " + std::to_string(dims + 2) +
                     (dims == 3 ? " dims [N, C, D, H, W]" : " dims [N, C, H, W]"));
  }
  PoolGeometry g;
  g.dims = dims;
  g.planes = input[0] * input[1];
  if (adaptive) {
    const auto out = axes_attr(op, attrs, "output_size", 1, dims);
    for (int i = 0; i < dims; ++i) {
      if (input[2 + i] < 1) {
        op_error(op, "the input has shape " + to_string(input) + "; expected nonempty planes (spatial sizes >= 1)");
      }
      PoolAxis& a = g.axis[kAxes - dims + i];
      a.in = input[2 + i], a.out = out[i], a.adaptive = true;
    }
    return g;
  }
  const auto kernel = axes_attr(op, attrs, "kernel_size", 1, dims), stride = axes_attr(op, attrs, "stride", 1, dims);
  const auto pad = axes_attr(op, attrs, "padding", 0, dims);
  const auto dilation =
      attrs.has("dilation") ? axes_attr(op, attrs, "dilation", 1, dims) : std::vector<int64_t>(dims, 1);
  const bool ceil_mode = attrs.has("ceil_mode") && attrs.get_bool("ceil_mode");
  for (int i = 0; i < dims; ++i) {
    PoolAxis& a = g.axis[kAxes - dims + i];
    a.in = input[2 + i], a.kernel = kernel[i], a.stride = stride[i], a.pad = pad[i], a.dilation = dilation[i];
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

Shape pool_output_shape(const Shape& input, const PoolGeometry& g) {
  Shape out{input[0], input[1]};
  for (int a = kAxes - g.dims; a < kAxes; ++a) out.push_back(g.axis[a].out);
  return out;
}

void expect_floating(const std::string& op, const TensorMeta& m, const std::string& what) {
  if (!is_floating(m.dtype)) {
    op_error(op, "the dtype of " + what + " is " + dtype_name(m.dtype) + "; expected float32 or float64");
  }
}

std::vector<Signature> plane_signatures(size_t inputs, size_t outputs, bool linear) {
  std::vector<Signature> sigs = split_alike_signatures(2, inputs, outputs);
  if (linear) {
    const Sbp p = Sbp::partial_sum();
    sigs.push_back({std::vector<Sbp>(inputs, p), std::vector<Sbp>(outputs, p)});
  }
  return sigs;
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
    const double scale = attrs.has(key) ? attrs.get_float(key) : 0.0;
    g.step[d] = scale > 0 ? static_cast<float>(1.0 / scale) : 0.0f;
    if (g.out[d] < 1 || g.in[d] < 1 || scale < 0) {
      op_error(op, "the input has shape " + to_string(input) + ", output_size " + to_string(size) +
                       "; expected sizes >= 1 and scale factors > 0");
    }
  }
  return g;
}

ResampleGeometry resample_geometry(const std::string& op, const Attrs& attrs, const Shape& input) {
  const UpsampleGeometry sizes = upsample_geometry(op, attrs, input);
  ResampleGeometry g;
  g.k = sizes.k;
  g.planes = sizes.planes;
  for (int d = 0; d < g.k; ++d) {
    g.in[d] = sizes.in[d], g.out[d] = sizes.out[d];
    const std::string key = "scale" + std::to_string(d);
    g.scale[d] = attrs.has(key) ? attrs.get_float(key) : 0.0;
  }
  g.align_corners = attrs.has("align_corners") && attrs.get_bool("align_corners");
  g.cubic = attrs.has("cubic") && attrs.get_bool("cubic");
  return g;
}

}  // namespace kernel

namespace {

using kernel::ConvGeometry;
using kernel::kAxes;

constexpr const char* kPad = "pad";
constexpr const char* kPadBackward = "pad_backward";

void expect_rank(const std::string& op, const TensorMeta& m, int rank, const std::string& what,
                 const std::string& layout) {
  if (m.shape.size() != static_cast<size_t>(rank)) {
    op_error(op, what + " has shape " + to_string(m.shape) + "; expected " + std::to_string(rank) + " dims " + layout);
  }
}

bool grouped(const Attrs& attrs) { return attrs.get_int("groups") != 1; }

const Sbp kB = Sbp::broadcast(), kP = Sbp::partial_sum();

// ---------------------------------------------------------------------------------------------
// conv2d, conv3d and their backward ops

// The convolution family of k spatial dims: conv<k>d, its two backward ops, and the layouts
// its errors name.
struct ConvFamily {
  int dims;
  std::string conv, data, weight;
  std::string x_layout, w_layout, dy_layout;
  explicit ConvFamily(int k)
      : dims(k),
        conv("conv" + std::to_string(k) + "d"),
        data(conv + "_backward_data"),
        weight(conv + "_backward_weight"),
        x_layout(k == 3 ? "[N, C_in, D, H, W]" : "[N, C_in, H, W]"),
        w_layout(k == 3 ? "[C_out, C_in / groups, kd, kh, kw]" : "[C_out, C_in / groups, kh, kw]"),
        dy_layout(k == 3 ? "[N, C_out, OD, OH, OW]" : "[N, C_out, OH, OW]") {}
};

// Checks x and w of the family's rank and kind (logical or local).
ConvGeometry checked_geometry(const ConvFamily& f, const std::string& op, const Attrs& attrs, const TensorMeta& x,
                              const TensorMeta& w) {
  kernel::expect_floating(op, x, "the input");
  expect_rank(op, x, f.dims + 2, "the input", f.x_layout);
  expect_rank(op, w, f.dims + 2, "the weight", f.w_layout);
  kernel::expect_same_dtype(op, x, w);
  const ConvGeometry g = kernel::conv_geometry(op, attrs, x.shape, w.shape);
  if (g.in_channels % g.groups != 0 || g.out_channels % g.groups != 0 || w.shape[1] * g.groups != g.in_channels) {
    op_error(op, "the input has shape " + to_string(x.shape) + " and the weight " + to_string(w.shape) + " with " +
                     std::to_string(g.groups) +
                     " groups; expected C_in and C_out divisible by groups and the "
                     "weight's dim 1 equal to C_in / groups");
  }
  return g;
}

// The signatures of a call with a bias (input 2, [channels of the output]): each one's bias
// laid out as the output's channels are, partial where the output is.
std::vector<Signature> with_bias(const std::vector<TensorMeta>& in, std::vector<Signature> sigs) {
  if (in.size() < 3) return sigs;
  for (Signature& sig : sigs) {
    const Sbp& out = sig.outputs[0];
    sig.inputs.push_back(out.is_partial() ? kP : out.is_split() ? Sbp::split(0) : kB);
  }
  return sigs;
}

// Checks the optional bias of a call whose output has `channels` channels: [channels] of the
// input's dtype.
void check_bias(const std::string& op, const std::vector<TensorMeta>& in, int64_t channels) {
  if (in.size() < 3) return;
  if (in[2].shape != Shape{channels} || in[2].dtype != in[0].dtype) {
    op_error(op, "the bias is " + to_string(in[2].shape) + " " + dtype_name(in[2].dtype) + "; expected [" +
                     std::to_string(channels) + "] " + dtype_name(in[0].dtype) + ", one value per output channel");
  }
}

std::vector<Signature> conv_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                       const Attrs& attrs) {
  std::vector<Signature> sigs{{{Sbp::split(0), kB}, {Sbp::split(0)}}, {{kP, kB}, {kP}}, {{kB, kP}, {kP}}};
  if (!grouped(attrs)) {
    sigs.push_back({{kB, Sbp::split(0)}, {Sbp::split(1)}});
    sigs.push_back({{Sbp::split(1), Sbp::split(1)}, {kP}});
  }
  return with_bias(in, sigs);
}

// The input position of output o along axis a through tap i, or -1 outside the input.
inline int64_t tap_source(const ConvGeometry& g, int a, int64_t o, int64_t i) {
  const int64_t at = o * g.stride[a] - g.pad[a] + i * g.dilation[a];
  return at >= 0 && at < g.in[a] ? at : -1;
}

// The outputs [lo, hi) along axis a whose input position through tap i, o * stride - pad +
// i * dilation, lies in the input: the rest read the zero padding.
inline std::pair<int64_t, int64_t> tap_range(const ConvGeometry& g, int a, int64_t i) {
  const int64_t offset = i * g.dilation[a] - g.pad[a], s = g.stride[a];
  const int64_t lo = std::min(offset >= 0 ? 0 : (s - 1 - offset) / s, g.out[a]);
  const int64_t hi = g.in[a] <= offset ? 0 : (g.in[a] - offset + s - 1) / s;
  return {lo, std::clamp(hi, lo, g.out[a])};
}

// Row r = (c, tap) of im2col's col [planes * taps, OD * OH * OW] from the planes at x: column
// (od, oh, ow) holds x at the tap's position for that output, 0 outside. Each line of the
// width axis is a copy (a strided read for strides over 1) between its runs of zeros.
template <typename T>
void im2col_row(const ConvGeometry& g, const T* x, int64_t r, T* col) {
  const int64_t taps = g.kernel_volume(), pixels = g.out_volume(), t = r % taps;
  const int64_t i = t / (g.kernel[1] * g.kernel[2]), j = t / g.kernel[2] % g.kernel[1], l = t % g.kernel[2];
  const T* plane = x + r / taps * g.in_volume();
  T* out = col + r * pixels;
  const auto [lo, hi] = tap_range(g, 2, l);
  const int64_t offset = l * g.dilation[2] - g.pad[2], s = g.stride[2];
  for (int64_t od = 0; od < g.out[0]; ++od) {
    const int64_t id = tap_source(g, 0, od, i);
    for (int64_t oh = 0; oh < g.out[1]; ++oh) {
      const int64_t ih = id < 0 ? -1 : tap_source(g, 1, oh, j);
      T* line = out + (od * g.out[1] + oh) * g.out[2];
      if (ih < 0) {
        std::fill(line, line + g.out[2], T{0});
        continue;
      }
      const T* row = plane + (id * g.in[1] + ih) * g.in[2];
      std::fill(line, line + lo, T{0});
      if (s == 1 && lo < hi) {
        std::copy(row + lo + offset, row + hi + offset, line + lo);
      } else {
        for (int64_t ow = lo; ow < hi; ++ow) line[ow] = row[ow * s + offset];
      }
      std::fill(line + hi, line + g.out[2], T{0});
    }
  }
}

// col [C_in/groups * taps, OD * OH * OW] of one image's group (its C_in/groups planes at x).
template <typename T>
void im2col(const ConvGeometry& g, const T* x, T* col) {
  const int64_t rows = g.in_per_group() * g.kernel_volume();
  kernel::parallel_for(rows, rows * g.out_volume() > kernel::kParallelGrain,
                       [&](int64_t r) { im2col_row(g, x, r, col); });
}

// The adjoint of im2col for one plane: dx's plane (zeroed here) += each of its col entries
// (`entries`: its taps' rows) at their input positions, in (tap, output) order.
template <typename T>
void col2im_plane(const ConvGeometry& g, const T* entries, T* plane) {
  const int64_t taps = g.kernel_volume(), pixels = g.out_volume();
  std::fill(plane, plane + g.in_volume(), T{0});
  for (int64_t t = 0; t < taps; ++t) {
    const int64_t i = t / (g.kernel[1] * g.kernel[2]), j = t / g.kernel[2] % g.kernel[1], l = t % g.kernel[2];
    const auto [lo, hi] = tap_range(g, 2, l);
    const int64_t offset = l * g.dilation[2] - g.pad[2], s = g.stride[2];
    for (int64_t od = 0; od < g.out[0]; ++od) {
      const int64_t id = tap_source(g, 0, od, i);
      for (int64_t oh = 0; oh < g.out[1]; ++oh) {
        const int64_t ih = id < 0 ? -1 : tap_source(g, 1, oh, j);
        if (ih < 0) continue;
        T* row = plane + (id * g.in[1] + ih) * g.in[2];
        const T* line = entries + t * pixels + (od * g.out[1] + oh) * g.out[2];
        if (s == 1) {
#pragma omp simd
          for (int64_t ow = lo; ow < hi; ++ow) row[ow + offset] += line[ow];
        } else {
          for (int64_t ow = lo; ow < hi; ++ow) row[ow * s + offset] += line[ow];
        }
      }
    }
  }
}

// The adjoint of im2col: dx (one image's group) from col, one thread per input plane.
template <typename T>
void col2im(const ConvGeometry& g, const T* col, T* dx) {
  const int64_t taps = g.kernel_volume(), pixels = g.out_volume(), planes = g.in_per_group();
  kernel::parallel_for(planes, planes * taps * pixels > kernel::kParallelGrain,
                       [&](int64_t c) { col2im_plane(g, col + c * taps * pixels, dx + c * g.in_volume()); });
}

// A pointwise convolution (a 1x1 kernel, stride 1, no padding, one group) of float32 is a
// product per image, y[n] = w x[n] over [C, spatial] planes (and dx[n] = w^T dy[n]). Run as
// sgemm on the plain layout it needs none of the reorders to and from oneDNN's blocked
// layout that oneDNN's convolution takes (they cost about as much as the products). The
// weight gradient, a sum over the images of products of small outputs, stays on oneDNN's
// convolution, whose blocked kernel sums over the batch faster than those products.
bool pointwise(kernel::onednn::ConvPass pass, const ConvGeometry& g, DType dtype) {
  if (pass == kernel::onednn::ConvPass::kBackwardWeights || dtype != DType::kFloat32 || g.groups != 1) return false;
  for (int a = 0; a < kAxes; ++a) {
    if (g.kernel[a] != 1 || g.stride[a] != 1 || g.pad[a] != 0 || g.out[a] != g.in[a]) return false;
  }
  return true;
}

// The forward or data-gradient pass of the pointwise convolution g: row-major, images on the
// team (each product on its thread), or one image's product on the team; channels-last, one
// product over every pixel, [pixels, C_in] x w^T (dx: [pixels, C_out] x w).
void pointwise_pass(kernel::onednn::ConvPass pass, const ConvGeometry& g, const float* a, const float* b,
                    float* out, bool channels_last) {
  const int64_t cin = g.in_channels, cout = g.out_channels, p = g.in_volume();
  const bool forward = pass == kernel::onednn::ConvPass::kForward;  // else a = dy: dx[n] = w^T dy[n]
  const int64_t rows = forward ? cout : cin, inner = forward ? cin : cout;
  if (channels_last) {
    kernel::gemm(false, forward, g.batch * p, rows, inner, a, b, out);
    return;
  }
  kernel::parallel_for(g.batch, g.batch > 1 && g.batch * rows * p > kernel::kParallelGrain, [&](int64_t n) {
    kernel::gemm(!forward, false, rows, p, inner, b, a + n * inner * p, out + n * rows * p);
  });
}

bool is_last(const Tensor& t) { return channels_last(t.format()); }

// y[n, c, ...] = sum(y[n, c, ...], bias[c]) over n rows of c channels (channels-last) or n * c
// planes of `pixels` (row-major).
template <typename T, typename Sum>
void add_channel_bias(T* y, const T* bias, int64_t n, int64_t c, int64_t pixels, bool last, Sum sum) {
  kernel::parallel_for(last ? n * pixels : n * c, n * c * pixels > kernel::kParallelGrain, [&](int64_t r) {
    if (last) {
      T* row = y + r * c;
      kernel::simd_loop(c, [&](int64_t k) { row[k] = sum(row[k], bias[k]); });
    } else {
      T* plane = y + r * pixels;
      const T add = bias[r % c];
      kernel::simd_loop(pixels, [&](int64_t k) { plane[k] = sum(plane[k], add); });
    }
  });
}

// out[n, c, ...] += bias[c], out in its own format (row-major planes, channels-last rows);
// bfloat16 added in float32 and rounded once.
void add_channel_bias(Tensor& out, const Tensor& bias) {
  const int64_t n = out.shape()[0], c = out.shape()[1], pixels = n * c == 0 ? 0 : out.numel() / (n * c);
  if (out.dtype() == DType::kBFloat16) {
    add_channel_bias(out.data_as<bfloat16>(), bias.data_as<bfloat16>(), n, c, pixels, is_last(out),
                     [](bfloat16 a, bfloat16 b) { return to_bfloat16(to_float(a) + to_float(b)); });
    return;
  }
  kernel::visit_floating(out.dtype(), [&](auto v) {
    using T = decltype(v);
    add_channel_bias(out.data_as<T>(), bias.data_as<T>(), n, c, pixels, is_last(out), [](T a, T b) { return a + b; });
  });
}

// The elements of `t` (bfloat16 or float32) as `to` (the other), in t's memory order.
Tensor converted(const Tensor& t, DType to) {
  Tensor c = Tensor::empty(t.shape(), to);
  const bool widen = to == DType::kFloat32;
  kernel::parallel_for(t.numel(), t.numel() > kernel::kParallelGrain, [&](int64_t i) {
    if (widen) {
      c.data_as<float>()[i] = to_float(t.data_as<bfloat16>()[i]);
    } else {
      c.data_as<bfloat16>()[i] = to_bfloat16(t.data_as<float>()[i]);
    }
  });
  return c;
}

// Runs a pass of the convolution g where it computes the dtype (float32, bfloat16), out =
// pass(a, b) (plus `bias` per output channel where given), each activation in its own
// format: pointwise ones as products (a taken in out's format), the others on oneDNN's
// convolution (the forward pass with the primitive's bias); false for float64, which the
// product kernels below take. An empty operand makes the output zeros (sums of no terms)
// without a primitive.
bool on_onednn(kernel::onednn::ConvPass pass, const ConvGeometry& g, const Tensor& a, const Tensor& b_any,
               Tensor& out, const Tensor* bias = nullptr) {
  if (!kernel::onednn::handles(a.dtype())) return false;
  // Weights are read row-major (a model moved to channels-last holds channels-last ones).
  const Tensor b =
      pass == kernel::onednn::ConvPass::kBackwardWeights ? b_any : in_format(b_any, MemoryFormat::kContiguous);
  const bool primitive_bias = bias && pass == kernel::onednn::ConvPass::kForward;
  if (a.numel() == 0 || b.numel() == 0 || out.numel() == 0) {
    std::memset(out.data(), 0, out.nbytes());
  } else if (bias && !primitive_bias && a.dtype() == DType::kBFloat16 && !is_last(a) && !is_last(out)) {
    // A bias the pass's primitive does not add (a transposed convolution's) in bfloat16: the
    // pass and the sum in float32, rounded once, as torch's deconvolution adds it.
    Tensor wide = Tensor::empty(out.shape(), DType::kFloat32);
    kernel::onednn::conv(pass, g, DType::kFloat32, converted(a, DType::kFloat32).data(),
                         converted(b, DType::kFloat32).data(), wide.data());
    add_channel_bias(wide, converted(*bias, DType::kFloat32));
    std::memcpy(out.data(), converted(wide, DType::kBFloat16).data(), out.nbytes());
    return true;
  } else if (pointwise(pass, g, a.dtype())) {
    const Tensor a_as_out = kernel::onednn::in_format(a, out.format());
    pointwise_pass(pass, g, a_as_out.data_as<float>(), b.data_as<float>(), out.data_as<float>(), is_last(out));
  } else {
    kernel::onednn::conv(pass, g, a.dtype(), a.data(), b.data(), out.data(), {is_last(a), is_last(b), is_last(out)},
                         primitive_bias ? bias->data() : nullptr);
    if (primitive_bias) return true;
  }
  if (bias) add_channel_bias(out, *bias);
  return true;
}

// Whether g convolves planes of one row (conv1d's [N, C, 1, L]): its output is squeezed to
// 3 dims at once, which no channels-last layout survives (a reorder each way).
bool one_row(const ConvGeometry& g) { return g.in[0] == 1 && g.in[1] == 1 && g.out[0] == 1 && g.out[1] == 1; }

// The format of the output of a pass whose activation input `a` is in `a_format`: a's where
// it is channels-last (torch's rule: a channels-last input makes a channels-last output), else
// channels-last internally where oneDNN's convolution runs the pass in float32 on planes of
// more than one row (the consumers that keep the layout then read it without reorders), else
// row-major (float64, pointwise
// products; bfloat16, whose channels-last kernels were not measured to pay).
MemoryFormat output_format(kernel::onednn::ConvPass pass, const ConvGeometry& g, const TensorMeta& a) {
  if (channels_last(a.format)) return a.format;
  const bool on_conv = a.dtype == DType::kFloat32 && !pointwise(pass, g, a.dtype) && !one_row(g);
  return on_conv ? MemoryFormat::kChannelsLastInternal : MemoryFormat::kContiguous;
}

// The float64 kernels below read and write row-major tensors: out computed so by `body` from
// the inputs so, then moved to the format the call planned.
// A third input, where given, is a bias added per channel after `body`.
template <typename Body>
std::vector<Tensor> row_major(const std::vector<Tensor>& in, const KernelContext& ctx, const Shape& shape,
                              Body body) {
  const Tensor a = in_format(in[0], MemoryFormat::kContiguous), b = in_format(in[1], MemoryFormat::kContiguous);
  Tensor out = Tensor::empty(shape, a.dtype());
  body(a, b, out);
  if (in.size() > 2) add_channel_bias(out, in[2]);
  return {in_format(out, ctx.outputs[0].format)};
}

// The optional bias, input 2.
const Tensor* bias_of(const std::vector<Tensor>& in) { return in.size() > 2 ? &in[2] : nullptr; }

// The float64 products of each image's group: cout x pixels outputs over k = C_in/groups *
// taps terms, and the strides between images and groups of x (or dx) and y (or dy).
struct GroupProducts {
  int64_t k, pixels, cin, cout, plane;
  explicit GroupProducts(const ConvGeometry& g)
      : k(g.in_per_group() * g.kernel_volume()),
        pixels(g.out_volume()),
        cin(g.in_per_group()),
        cout(g.out_per_group()),
        plane(g.in_volume()) {}
  int64_t x_at(const ConvGeometry& g, int64_t n, int64_t group) const {
    return (n * g.in_channels + group * cin) * plane;
  }
  int64_t y_at(const ConvGeometry& g, int64_t n, int64_t group) const {
    return (n * g.out_channels + group * cout) * pixels;
  }
};

std::vector<Tensor> conv_kernel(const ConvFamily& f, const std::vector<Tensor>& in, const KernelContext& ctx) {
  const ConvGeometry g = kernel::conv_geometry(f.conv, ctx.attrs, in[0].shape(), in[1].shape());
  Tensor y = ctx.output(0, kernel::conv_output_shape(g), in[0].dtype());
  if (on_onednn(kernel::onednn::ConvPass::kForward, g, in[0], in[1], y, bias_of(in))) return {y};
  return row_major(in, ctx, y.shape(), [&](const Tensor& x, const Tensor& w, const Tensor& out) {
    using T = double;  // float32 and bfloat16 ran on oneDNN above
    const GroupProducts p(g);
    std::vector<T> col(p.k * p.pixels);
    for (int64_t n = 0; n < g.batch; ++n) {
      for (int64_t group = 0; group < g.groups; ++group) {
        im2col(g, x.data_as<T>() + p.x_at(g, n, group), col.data());
        kernel::gemm(false, false, p.cout, p.pixels, p.k, w.data_as<T>() + group * p.cout * p.k, col.data(),
                     out.data_as<T>() + p.y_at(g, n, group));
      }
    }
  });
}

// A backward op's rule: its two inputs `a` (the kind `a_what` says, laid out as `a_layout`)
// and dy of the family's rank, the attribute `size_key` k ints, then the convolution of x and
// w (one of them the op's result, made by `result` from the attributes and the inputs'
// shapes) checked and dy its output. Returns the result's meta.
template <typename Result>
TensorMeta conv_backward_infer(const ConvFamily& f, const std::string& op, const std::vector<TensorMeta>& in,
                               const Attrs& attrs, size_t dy_index, const char* a_what, const std::string& a_layout,
                               const char* size_key, Result result) {
  kernel::expect_inputs(op, in, 2);
  const TensorMeta &dy = in[dy_index], &a = in[1 - dy_index];
  expect_rank(op, a, f.dims + 2, a_what, a_layout);
  expect_rank(op, dy, f.dims + 2, "dy", f.dy_layout);
  const std::vector<int64_t>& size = attrs.get_ints(size_key);
  if (size.size() != static_cast<size_t>(f.dims)) {
    op_error(op, std::string(size_key) + " is " + to_string(size) + "; expected " + std::to_string(f.dims) +
                     " ints, one per spatial dim");
  }
  const TensorMeta r = result(a, dy);
  const ConvGeometry g = dy_index == 0 ? checked_geometry(f, op, attrs, r, a) : checked_geometry(f, op, attrs, a, r);
  kernel::expect_same_dtype(op, in[0], in[1]);
  const Shape expected = kernel::conv_output_shape(g);
  if (dy.shape != expected) {
    op_error(op, "dy has shape " + to_string(dy.shape) + "; expected " + to_string(expected) +
                     ", the convolution's output");
  }
  return r;
}

std::vector<Signature> conv_data_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                            const Attrs& attrs) {
  std::vector<Signature> sigs{{{Sbp::split(0), kB}, {Sbp::split(0)}}, {{kP, kB}, {kP}}, {{kB, kP}, {kP}}};
  if (!grouped(attrs)) {
    sigs.push_back({{Sbp::split(1), Sbp::split(0)}, {kP}});
    sigs.push_back({{kB, Sbp::split(1)}, {Sbp::split(1)}});
  }
  return with_bias(in, sigs);
}

std::vector<Tensor> conv_data_kernel(const ConvFamily& f, const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Shape xs = kernel::conv_input_shape(ctx.attrs, in[0].shape(), in[1].shape());
  const ConvGeometry g = kernel::conv_geometry(f.data, ctx.attrs, xs, in[1].shape());
  Tensor dx = ctx.output(0, xs, in[0].dtype());
  if (on_onednn(kernel::onednn::ConvPass::kBackwardData, g, in[0], in[1], dx, bias_of(in))) return {dx};
  return row_major(in, ctx, xs, [&](const Tensor& dy, const Tensor& w, const Tensor& out) {
    using T = double;  // float32 and bfloat16 ran on oneDNN above
    const GroupProducts p(g);
    std::vector<T> col(p.k * p.pixels);
    for (int64_t n = 0; n < g.batch; ++n) {
      for (int64_t group = 0; group < g.groups; ++group) {
        kernel::gemm(true, false, p.k, p.pixels, p.cout, w.data_as<T>() + group * p.cout * p.k,
                     dy.data_as<T>() + p.y_at(g, n, group), col.data());
        col2im(g, col.data(), out.data_as<T>() + p.x_at(g, n, group));
      }
    }
  });
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

std::vector<Tensor> conv_weight_kernel(const ConvFamily& f, const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Shape ws = kernel::conv_weight_shape(ctx.attrs, in[0].shape(), in[1].shape());
  const ConvGeometry g = kernel::conv_geometry(f.weight, ctx.attrs, in[0].shape(), ws);
  Tensor dw = ctx.output(0, ws, in[0].dtype());
  if (on_onednn(kernel::onednn::ConvPass::kBackwardWeights, g, in[0], in[1], dw)) return {dw};
  return row_major(in, ctx, ws, [&](const Tensor& x, const Tensor& dy, const Tensor& out) {
    using T = double;  // float32 and bfloat16 ran on oneDNN above
    const GroupProducts p(g);
    std::vector<T> col(p.k * p.pixels), product(p.cout * p.k);
    T* total = out.data_as<T>();
    std::fill(total, total + out.numel(), T{0});
    // Images in order, each one's product added to the total: the same sums for any threads.
    for (int64_t n = 0; n < g.batch; ++n) {
      for (int64_t group = 0; group < g.groups; ++group) {
        im2col(g, x.data_as<T>() + p.x_at(g, n, group), col.data());
        kernel::gemm(false, true, p.cout, p.k, p.pixels, dy.data_as<T>() + p.y_at(g, n, group), col.data(),
                     product.data());
        T* part = total + group * p.cout * p.k;
        kernel::simd_loop(p.cout * p.k, [&](int64_t i) { part[i] += product[i]; });
      }
    }
  });
}

// The spatial sizes of t's shape (its dims after N and C).
std::vector<int64_t> spatial(const Var& t) { return std::vector<int64_t>(t.shape().begin() + 2, t.shape().end()); }

// The gradient `dy` of the output `y` of a pass, full-size in y's memory format: dy may be a
// broadcast gradient (a sum's, autograd/var.h), which the backward passes read expanded, and
// expanded in y's layout they read it without a reorder (oneDNN runs them in that layout).
Var as_output(const Var& dy, const Var& y) {
  if (dy.shape() == y.shape()) return dy;
  Attrs attrs{{"shape", y.shape()}};
  if (!y.is_global() && channels_last(y.local().format())) {
    attrs.set("format", static_cast<int64_t>(y.local().format()));
  }
  return call1("expand", {dy}, attrs);
}

// conv's gradients, and the backward ops' own (a create_graph backward through a
// convolution). The backward ops are linear in each input, and each is the adjoint of the
// convolution in one argument: from <gdx, data(dy, w)> = <conv(gdx, w), dy> and
// <gdw, weight(x, dy)> = <conv(x, gdw), dy>. Each takes its output's gradient as a
// broadcast one (as_output).
// A bias's gradient: the output's gradient g summed over N and the spatial dims.
Var bias_grad(const Var& g) {
  std::vector<int64_t> dims{0};
  for (int64_t d = 2; d < static_cast<int64_t>(g.shape().size()); ++d) dims.push_back(d);
  return fn::sum(g, dims);
}

GradFn conv_grad(const ConvFamily& f) {
  return [f](const GradContext& ctx) -> std::vector<Var> {
    const Var &x = ctx.inputs[0], &w = ctx.inputs[1], dy = as_output(ctx.grad_outputs[0], ctx.outputs[0]);
    std::vector<Var> grads(ctx.inputs.size());
    if (ctx.needs_grad[0]) grads[0] = call1(f.data, {dy, w}, Attrs(ctx.attrs).set("input_size", spatial(x)));
    if (ctx.needs_grad[1]) grads[1] = call1(f.weight, {x, dy}, Attrs(ctx.attrs).set("kernel_size", spatial(w)));
    if (grads.size() > 2 && ctx.needs_grad[2]) grads[2] = bias_grad(dy);
    return grads;
  };
}

GradFn conv_data_grad(const ConvFamily& f) {
  return [f](const GradContext& ctx) -> std::vector<Var> {
    const Var &dy = ctx.inputs[0], &w = ctx.inputs[1], gdx = as_output(ctx.grad_outputs[0], ctx.outputs[0]);
    std::vector<Var> grads(ctx.inputs.size());
    if (ctx.needs_grad[0]) grads[0] = call1(f.conv, {gdx, w}, ctx.attrs);
    if (ctx.needs_grad[1]) grads[1] = call1(f.weight, {gdx, dy}, Attrs(ctx.attrs).set("kernel_size", spatial(w)));
    if (grads.size() > 2 && ctx.needs_grad[2]) grads[2] = bias_grad(gdx);
    return grads;
  };
}

GradFn conv_weight_grad(const ConvFamily& f) {
  return [f](const GradContext& ctx) -> std::vector<Var> {
    const Var &x = ctx.inputs[0], &dy = ctx.inputs[1], gdw = as_output(ctx.grad_outputs[0], ctx.outputs[0]);
    std::vector<Var> grads(2);
    if (ctx.needs_grad[0]) grads[0] = call1(f.data, {dy, gdw}, Attrs(ctx.attrs).set("input_size", spatial(x)));
    if (ctx.needs_grad[1]) grads[1] = call1(f.conv, {x, gdw}, ctx.attrs);
    return grads;
  };
}

// The family's three ops, on oneDNN (float32, bfloat16) and im2col (float64).
std::vector<OpDef> conv_ops(int dims) {
  const ConvFamily f(dims);
  auto infer = [f](const std::vector<TensorMeta>& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    if (in.size() != 3) kernel::expect_inputs(f.conv, in, 2);
    const TensorMeta y{kernel::conv_output_shape(checked_geometry(f, f.conv, attrs, in[0], in[1])), in[0].dtype};
    check_bias(f.conv, in, y.shape[1]);
    return {y};
  };
  auto data_infer = [f](const std::vector<TensorMeta>& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    const TensorMeta dx = conv_backward_infer(
        f, f.data, in.size() == 3 ? std::vector<TensorMeta>{in[0], in[1]} : in, attrs, 0, "the weight", f.w_layout,
        "input_size", [&](const TensorMeta& w, const TensorMeta& dy) {
          return TensorMeta{kernel::conv_input_shape(attrs, dy.shape, w.shape), w.dtype};
        });
    check_bias(f.data, in, dx.shape[1]);
    return {dx};
  };
  auto weight_infer = [f](const std::vector<TensorMeta>& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    return {conv_backward_infer(f, f.weight, in, attrs, 1, "the input", f.x_layout, "kernel_size",
                                [&](const TensorMeta& x, const TensorMeta& dy) {
                                  return TensorMeta{kernel::conv_weight_shape(attrs, x.shape, dy.shape), x.dtype};
                                })};
  };
  using namespace std::placeholders;
  std::vector<OpDef> ops{
      with_grad(make_op(f.conv, infer, conv_signatures, std::bind(conv_kernel, f, _1, _2)), conv_grad(f)),
      with_grad(make_op(f.data, data_infer, conv_data_signatures, std::bind(conv_data_kernel, f, _1, _2)),
                conv_data_grad(f)),
      with_grad(make_op(f.weight, weight_infer, conv_weight_signatures, std::bind(conv_weight_kernel, f, _1, _2)),
                conv_weight_grad(f))};
  for (OpDef& op : ops) {
    op.bfloat16 = true;  // oneDNN's, accumulating in float32
    op.grad_takes_broadcast = true;
  }
  ops[0].formats = [f](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    if (in[1].format == MemoryFormat::kChannelsLast && !channels_last(in[0].format)) {
      return std::vector<MemoryFormat>{MemoryFormat::kChannelsLast};  // torch's rule: x's or w's
    }
    const ConvGeometry g = kernel::conv_geometry(f.conv, attrs, in[0].shape, in[1].shape);
    return std::vector<MemoryFormat>{output_format(kernel::onednn::ConvPass::kForward, g, in[0])};
  };
  ops[1].formats = [f](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs& attrs) {
    const ConvGeometry g = kernel::conv_geometry(f.data, attrs, out[0].shape, in[1].shape);
    return std::vector<MemoryFormat>{output_format(kernel::onednn::ConvPass::kBackwardData, g, in[0])};
  };
  ops[2].formats = [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>&, const Attrs&) {
    return std::vector<MemoryFormat>{MemoryFormat::kContiguous};
  };
  return ops;
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

// The value converts to the dtype given (float16's range, not float32's it runs in).
void pad_check_given(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kPad, in, 1);
  if (attrs.has("value")) kernel::check_converts(kPad, "value", attrs, in[0].dtype);
}

std::vector<TensorMeta> pad_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  return {{pad_out_shape(kernel::pad_geometry(kPad, attrs, in[0].shape)), in[0].dtype}};
}

std::vector<Signature> pad_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                      const Attrs& attrs) {
  return pad_like_signatures(kernel::pad_geometry(kPad, attrs, in[0].shape), attrs);
}

// Row by row of the output's last dim: the input row each reads (or none: the value), its
// part inside the output copied as one block, then the few elements before and after it by
// their sources (a per-element source lookup over the whole row ran 4x slower than torch).
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
    const int64_t width = g.out[last], rows = y.numel() / width, before = g.before[last];
    // Output positions [lo, hi) read the input row's [lo - before, hi - before).
    const int64_t lo = std::clamp<int64_t>(before, 0, width), hi = std::clamp<int64_t>(before + g.in[last], 0, width);
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
      if (!inside) {
        std::fill(out, out + width, fill);
        return;
      }
      const T* row = x.data_as<T>() + src;
      const auto edge = [&](int64_t j) {
        const int64_t i = kernel::pad_source(g, last, j);
        out[j] = i >= 0 ? row[i] : fill;
      };
      for (int64_t j = 0; j < lo; ++j) edge(j);
      std::copy(row + (lo - before), row + (hi - before), out + lo);
      for (int64_t j = hi; j < width; ++j) edge(j);
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

// Row by row of dx's last dim: the dy rows that read it (kernel::pad_preimage of each outer
// dim), each added in ascending order, and within one its elements in ascending order too,
// the edges' by their sources and the middle as one vectorized row: every dx element sums its
// dy elements in the order kernel::pad_backward_at does (the same bits as CUDA's), where
// that per-element walk over the preimages ran 25x slower than torch.
std::vector<Tensor> pad_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& dy = in[0];
  const Shape logical(ctx.attrs.get_ints("input_shape"));
  const Shape xs = pad_backward_input(ctx.attrs, dy.shape(), kernel::pad_geometry(kPadBackward, ctx.attrs, logical));
  const kernel::PadGeometry g = kernel::pad_geometry(kPadBackward, ctx.attrs, xs);
  Tensor dx = ctx.output(0, xs, dy.dtype());
  if (dx.numel() == 0) return {dx};
  visit_dtype(dy.dtype(), [&](auto v) {
    using T = decltype(v);
    if constexpr (std::is_floating_point_v<T>) {
      if (g.nd == 0) {
        *dx.data_as<T>() = *dy.data_as<T>();
        return;
      }
      const int last = g.nd - 1;
      const int64_t n = g.in[last], width = g.out[last], before = g.before[last], rows = dx.numel() / n;
      kernel::parallel_for(rows, dx.numel() > kernel::kParallelGrain / 4, [&](int64_t r) {
        kernel::PadPreimage pre[kernel::kMaxPadDims];
        int64_t count = 1, rest = r;
        for (int d = last - 1; d >= 0; --d) {
          pre[d] = kernel::pad_preimage(g, d, rest % g.in[d]);
          rest /= g.in[d];
          count *= pre[d].size();
        }
        T* out = dx.data_as<T>() + r * n;
        std::fill(out, out + n, T(0));
        for (int64_t t = 0; t < count; ++t) {
          int64_t k = t, source = 0, stride = 1;
          for (int d = last - 1; d >= 0; --d) {
            const int64_t c = pre[d].size();
            source += pre[d].at(k % c) * stride;
            k /= c;
            stride *= g.out[d];
          }
          const T* row = dy.data_as<T>() + source * width;
          for (int64_t o = 0; o < before; ++o) out[kernel::pad_source(g, last, o)] += row[o];
          const T* middle = row + before;
#pragma omp simd
          for (int64_t j = 0; j < n; ++j) out[j] += middle[j];
          for (int64_t o = before + n; o < width; ++o) out[kernel::pad_source(g, last, o)] += row[o];
        }
      });
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
// unfold, fold

constexpr const char* kUnfold = "unfold";
constexpr const char* kFold = "fold";

// unfold and fold move and sum values with real coefficients, so they take complex ones too
// (istft overlap-adds complex frames with it where return_complex=True): f(T{}) for floating
// and complex T.
void expect_block_values(const std::string& op, const TensorMeta& m) {
  if (!is_complex(m.dtype)) kernel::expect_floating(op, m, "the input");
}

template <typename F>
void visit_block_values(DType dtype, F&& f) {
  if (is_complex(dtype)) {
    visit_complex(dtype, f);
  } else {
    kernel::visit_floating(dtype, f);
  }
}

// S(0) -> S(0) (the images), P -> P (linear); channels do not split alike (C and C taps
// would split at different places).
std::vector<Signature> block_signatures(const std::vector<TensorMeta>&, const std::vector<TensorMeta>&,
                                        const Attrs&) {
  return {{{Sbp::split(0)}, {Sbp::split(0)}}, {{kP}, {kP}}};
}

std::vector<TensorMeta> unfold_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kUnfold, in, 1);
  expect_block_values(kUnfold, in[0]);
  const Shape& x = in[0].shape;
  if (x.size() != 4) op_error(kUnfold, "the input has shape " + to_string(x) + "; expected [N, C, H, W]");
  const kernel::ConvGeometry g = kernel::block_geometry(kUnfold, attrs, x[1], {x[2], x[3]});
  return {{{x[0], x[1] * g.kernel_volume(), g.out_volume()}, in[0].dtype}};
}

// Rows (image, channel, tap) of the output, each im2col_row's.
std::vector<Tensor> unfold_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const Shape& xs = x.shape();
  const kernel::ConvGeometry g = kernel::block_geometry(kUnfold, ctx.attrs, xs[1], {xs[2], xs[3]});
  Tensor y = ctx.output(0, {xs[0], xs[1] * g.kernel_volume(), g.out_volume()}, x.dtype());
  const int64_t rows = xs[0] * xs[1] * g.kernel_volume();
  visit_block_values(x.dtype(), [&](auto v) {
    using T = decltype(v);
    kernel::parallel_for(rows, y.numel() > kernel::kParallelGrain,
                         [&](int64_t r) { im2col_row(g, x.data_as<T>(), r, y.data_as<T>()); });
  });
  return {y};
}

std::vector<TensorMeta> fold_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kFold, in, 1);
  expect_block_values(kFold, in[0]);
  const Shape& x = in[0].shape;
  const std::vector<int64_t>& size = attrs.get_ints("output_size");
  if (x.size() != 3 || size.size() != 2) {
    op_error(kFold, "the input has shape " + to_string(x) + " and output_size is " + to_string(size) +
                        "; expected [N, C kh kw, L] and two sizes");
  }
  const kernel::ConvGeometry g = kernel::block_geometry(kFold, attrs, 0, Shape(size));
  if (x[1] % g.kernel_volume() != 0 || x[2] != g.out_volume()) {
    op_error(kFold, "the input has shape " + to_string(x) + "; expected dim 1 divisible by kernel_size's product " +
                        std::to_string(g.kernel_volume()) + " and dim 2 equal to the " +
                        std::to_string(g.out_volume()) + " blocks of output_size " + to_string(size));
  }
  return {{{x[0], x[1] / g.kernel_volume(), size[0], size[1]}, in[0].dtype}};
}

// Planes (image, channel) of the output, each col2im_plane's: its entries in (tap, block)
// order, whatever the threads.
std::vector<Tensor> fold_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const std::vector<int64_t>& size = ctx.attrs.get_ints("output_size");
  const kernel::ConvGeometry g = kernel::block_geometry(kFold, ctx.attrs, 0, Shape(size));
  const int64_t taps = g.kernel_volume(), planes = x.shape()[0] * (x.shape()[1] / taps);
  Tensor y = ctx.output(0, {x.shape()[0], x.shape()[1] / taps, size[0], size[1]}, x.dtype());
  visit_block_values(x.dtype(), [&](auto v) {
    using T = decltype(v);
    kernel::parallel_for(planes, x.numel() > kernel::kParallelGrain, [&](int64_t p) {
      col2im_plane(g, x.data_as<T>() + p * taps * g.out_volume(), y.data_as<T>() + p * g.in_volume());
    });
  });
  return {y};
}

// Each is the other's adjoint: unfold's gradient folds dy back onto x's plane, fold's unfolds it.
std::vector<Var> unfold_grad(const GradContext& ctx) {
  const Shape& x = ctx.inputs[0].shape();
  return {call1(kFold, {ctx.grad_outputs[0]}, Attrs(ctx.attrs).set("output_size", std::vector<int64_t>{x[2], x[3]}))};
}

std::vector<Var> fold_grad(const GradContext& ctx) {
  return {call1(kUnfold, {ctx.grad_outputs[0]}, ctx.attrs.without({"output_size"}))};
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
  return {{upsampled_shape(in[0].shape, kernel::upsample_geometry(kUpsample, attrs, in[0].shape)), in[0].dtype}};
}

// Nearest resizing's index tables on the CPU, its k dims placed last of three (the others of
// size 1): src[d][o] the input that output o of dim d reads; with `preimages`, lo[d][i] and
// hi[d][i] the outputs [lo, hi) that read input i. Rows of the innermost dim then run as a
// gather (forward) or a scatter (backward) through the tables, not as index arithmetic per
// element.
struct NearestTables {
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  std::vector<int64_t> src[3], lo[3], hi[3];

  NearestTables(const kernel::UpsampleGeometry& g, bool preimages) {
    const int shift = 3 - g.k;
    for (int d = 0; d < g.k; ++d) in[d + shift] = g.in[d], out[d + shift] = g.out[d];
    for (int d = 0; d < 3; ++d) {
      for (int64_t o = 0; o < out[d]; ++o) src[d].push_back(d < shift ? 0 : kernel::nearest_source(g, d - shift, o));
      if (!preimages) continue;
      lo[d].resize(static_cast<size_t>(in[d]), 0);
      hi[d].resize(static_cast<size_t>(in[d]), 1);
      for (int64_t i = 0; d >= shift && i < in[d]; ++i) kernel::nearest_preimage(g, d - shift, i, &lo[d][i], &hi[d][i]);
    }
  }
  int64_t plane_in() const { return in[0] * in[1] * in[2]; }
  int64_t plane_out() const { return out[0] * out[1] * out[2]; }
};

// A resized tensor's planes and the elements each position holds: [N C] planes of one
// element row-major; [N] planes of C elements (a pixel's channels) channels-last.
std::pair<int64_t, int64_t> planes_and_width(const Tensor& t) {
  const int64_t channels = t.shape()[1];
  return channels_last(t.format()) ? std::pair{t.shape()[0], channels} : std::pair{t.shape()[0] * channels, int64_t{1}};
}

std::vector<Tensor> upsample_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const kernel::UpsampleGeometry g = kernel::upsample_geometry(kUpsample, ctx.attrs, x.shape());
  Tensor y = ctx.output(0, upsampled_shape(x.shape(), g), x.dtype());  // in x's format
  const NearestTables t(g, false);
  const int64_t width = planes_and_width(x).second, rows = y.numel() / (t.out[2] * width);
  visit_numbers(x.dtype(), [&](auto v) {
    using T = decltype(v);
    const T* xd = x.data_as<T>();
    T* yd = y.data_as<T>();
    kernel::parallel_for(rows, y.numel() > kernel::kParallelGrain, [&](int64_t r) {  // r: the output's row
      const int64_t b = r % t.out[1], a = r / t.out[1] % t.out[0], plane = r / (t.out[0] * t.out[1]);
      const T* src = xd + (plane * t.plane_in() + (t.src[0][a] * t.in[1] + t.src[1][b]) * t.in[2]) * width;
      T* dst = yd + r * t.out[2] * width;
      const int64_t* col = t.src[2].data();
      if (width == 1) {
        for (int64_t c = 0; c < t.out[2]; ++c) dst[c] = src[col[c]];
      } else {
        for (int64_t c = 0; c < t.out[2]; ++c) std::copy(src + col[c] * width, src + (col[c] + 1) * width, dst + c * width);
      }
    });
  });
  return {y};
}

std::vector<TensorMeta> upsample_backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kUpsampleBackward, in, 1);
  kernel::expect_floating(kUpsampleBackward, in[0], "dy");
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
  // Each of dx's rows sums its outputs' values in ascending order of their flat index, as
  // kernel::nearest_backward_at (CUDA's) does: the same sums, bit for bit.
  const NearestTables t(g, true);
  const int64_t width = planes_and_width(dy).second, rows = dx.numel() / (t.in[2] * width);
  kernel::visit_floating(dy.dtype(), [&](auto v) {
    using T = decltype(v);
    const T* dyd = dy.data_as<T>();
    T* dxd = dx.data_as<T>();
    kernel::parallel_for(rows, dx.numel() > kernel::kParallelGrain / 4, [&](int64_t r) {  // r: dx's row
      const int64_t i1 = r % t.in[1], i0 = r / t.in[1] % t.in[0], plane = r / (t.in[0] * t.in[1]);
      T* d = dxd + r * t.in[2] * width;
      std::fill(d, d + t.in[2] * width, T(0));
      const int64_t* col = t.src[2].data();
      for (int64_t a = t.lo[0][i0]; a < t.hi[0][i0]; ++a) {
        for (int64_t b = t.lo[1][i1]; b < t.hi[1][i1]; ++b) {
          const T* row = dyd + (plane * t.plane_out() + (a * t.out[1] + b) * t.out[2]) * width;
          for (int64_t c = 0; c < t.out[2]; ++c) {
            T* to = d + col[c] * width;
            const T* from = row + c * width;
            for (int64_t e = 0; e < width; ++e) to[e] += from[e];
          }
        }
      }
    });
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

// ---------------------------------------------------------------------------------------------
// upsample_linear, upsample_linear_backward: separable, one resized dim at a time (a pass
// reads [outer, in, inner] and writes [outer, out, inner]), so that a pass's rows are
// contiguous runs of the dims after it.

constexpr const char* kResample = "upsample_linear";
constexpr const char* kResampleBackward = "upsample_linear_backward";

// A pass's reads as lists: result row r is the sum over p in [start[r], start[r + 1]) of
// weight[p] times source row row[p]. The forward pass lists output j's taps; the adjoint lists,
// for each input i, the (output, tap) pairs that read it in ascending order, so that a
// gradient is summed in one fixed order and written once (no scattered adds).
template <typename T>
struct PassReads {
  std::vector<int64_t> start, row;
  std::vector<T> weight;
};

template <typename T>
PassReads<T> pass_reads(const kernel::ResampleGeometry& g, int d, bool adjoint) {
  using A = std::conditional_t<std::is_same_v<T, double>, double, float>;
  const int64_t rows = adjoint ? g.in[d] : g.out[d];
  std::vector<int64_t> index(g.out[d] * kernel::kMaxResampleTaps);
  std::vector<A> weight(index.size());
  int count = 0;
  for (int64_t j = 0; j < g.out[d]; ++j) {
    count = kernel::resample_taps<A>(g, d, j, &index[j * kernel::kMaxResampleTaps], &weight[j * kernel::kMaxResampleTaps]);
  }
  PassReads<T> reads;
  reads.start.assign(rows + 1, 0);
  for (int64_t j = 0; j < g.out[d]; ++j) {
    for (int t = 0; t < count; ++t) ++reads.start[(adjoint ? index[j * kernel::kMaxResampleTaps + t] : j) + 1];
  }
  for (int64_t r = 0; r < rows; ++r) reads.start[r + 1] += reads.start[r];
  reads.row.resize(reads.start[rows]);
  reads.weight.resize(reads.start[rows]);
  std::vector<int64_t> next(reads.start.begin(), reads.start.end() - 1);
  for (int64_t j = 0; j < g.out[d]; ++j) {
    for (int t = 0; t < count; ++t) {
      const int64_t i = index[j * kernel::kMaxResampleTaps + t];
      const int64_t p = next[adjoint ? i : j]++;
      reads.row[p] = adjoint ? j : i;
      reads.weight[p] = static_cast<T>(weight[j * kernel::kMaxResampleTaps + t]);
    }
  }
  return reads;
}

// to[o, r, :] = sum over the reads p of row r of weight[p] from[o, row[p], :], for each o of
// `outer`; `from` has `rows_in` rows of `inner` elements per o, `to` has start.size() - 1.
template <typename T>
void resample_pass(const PassReads<T>& reads, const T* from, T* to, int64_t outer, int64_t rows_in, int64_t inner) {
  const int64_t rows = static_cast<int64_t>(reads.start.size()) - 1;
  kernel::parallel_for(outer, outer * rows * inner > kernel::kParallelGrain, [&](int64_t o) {
    const T* src = from + o * rows_in * inner;
    T* dst = to + o * rows * inner;
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t begin = reads.start[r], end = reads.start[r + 1];
      if (inner == 1) {
        T sum = 0;
        for (int64_t p = begin; p < end; ++p) sum += reads.weight[p] * src[reads.row[p]];
        dst[r] = sum;
        continue;
      }
      T* y = dst + r * inner;
      if (begin == end) std::fill(y, y + inner, T(0));
      for (int64_t p = begin; p < end; ++p) {
        const T w = reads.weight[p];
        const T* x = src + reads.row[p] * inner;
        if (p == begin) {
          for (int64_t e = 0; e < inner; ++e) y[e] = w * x[e];
        } else {
          for (int64_t e = 0; e < inner; ++e) y[e] += w * x[e];
        }
      }
    }
  });
}

// The shape of [planes, sizes...] after dims < `resized` took their output sizes.
Shape partly_resized(const Shape& x, const kernel::ResampleGeometry& g, int resized) {
  Shape s{x[0], x[1]};
  for (int d = 0; d < g.k; ++d) s.push_back(d < resized ? g.out[d] : g.in[d]);
  return s;
}

// One pass: dim d of [planes, sizes...] from `from` rows to `to` rows.
struct Pass {
  int d = 0;
  int64_t outer = 1, from = 1, to = 1, inner = 1;
};

// The passes from the input's sizes to the output's (the adjoint: the other way), in the
// order that writes the fewest elements, a gather along the last dim (rows of one element)
// counting three times: upsampling resizes the last dim first, downsampling last. `width`:
// the elements a position holds, 1 row-major ([N C] planes), C channels-last (a pixel's
// channels, innermost: [N] planes of [sizes..., C]).
std::vector<Pass> pass_order(const kernel::ResampleGeometry& g, bool adjoint, int64_t width) {
  std::vector<int> order(g.k);
  for (int d = 0; d < g.k; ++d) order[d] = d;
  std::vector<Pass> best;
  int64_t best_cost = std::numeric_limits<int64_t>::max();
  do {
    int64_t sizes[3], cost = 0;
    for (int d = 0; d < g.k; ++d) sizes[d] = adjoint ? g.out[d] : g.in[d];
    std::vector<Pass> passes;
    for (int d : order) {
      Pass p{d, g.planes / width, sizes[d], adjoint ? g.in[d] : g.out[d], width};
      for (int e = 0; e < d; ++e) p.outer *= sizes[e];
      for (int e = d + 1; e < g.k; ++e) p.inner *= sizes[e];
      sizes[d] = p.to;
      cost += p.outer * p.to * p.inner * (p.inner == 1 ? 3 : 1);
      passes.push_back(p);
    }
    if (cost < best_cost) best_cost = cost, best = passes;
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

// Runs the passes from `source` into `result` (both in source's format), through temporaries
// between them (in that format too, only their data read).
template <typename T, bool kAdjoint>
void resample_passes(const kernel::ResampleGeometry& g, const Tensor& source, Tensor& result) {
  const int64_t width = planes_and_width(source).second;
  const std::vector<Pass> passes = pass_order(g, kAdjoint, width);
  Shape shape = source.shape();
  Tensor current = source;
  for (size_t step = 0; step < passes.size(); ++step) {
    const Pass& p = passes[step];
    shape[2 + p.d] = p.to;
    Tensor next = step + 1 == passes.size() ? result : Tensor::empty(shape, source.dtype());
    resample_pass<T>(pass_reads<T>(g, p.d, kAdjoint), current.data_as<T>(), next.data_as<T>(), p.outer, p.from,
                     p.inner);
    current = next;
  }
}

std::vector<TensorMeta> resample_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kResample, in, 1);
  kernel::expect_floating(kResample, in[0], "the input");
  const kernel::ResampleGeometry g = kernel::resample_geometry(kResample, attrs, in[0].shape);
  return {{partly_resized(in[0].shape, g, g.k), in[0].dtype}};
}

std::vector<Tensor> resample_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const kernel::ResampleGeometry g = kernel::resample_geometry(kResample, ctx.attrs, x.shape());
  Tensor y = ctx.output(0, partly_resized(x.shape(), g, g.k), x.dtype());
  if (y.numel() > 0) {
    kernel::visit_floating(x.dtype(), [&](auto v) { resample_passes<decltype(v), false>(g, x, y); });
  }
  return {y};
}

std::vector<TensorMeta> resample_backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kResampleBackward, in, 1);
  kernel::expect_floating(kResampleBackward, in[0], "dy");
  const Shape x = upsample_input(kResampleBackward, attrs, in[0].shape);
  const kernel::ResampleGeometry g = kernel::resample_geometry(kResampleBackward, attrs, x);
  if (partly_resized(x, g, g.k) != in[0].shape) {
    op_error(kResampleBackward,
             "dy has shape " + to_string(in[0].shape) + "; expected " + to_string(partly_resized(x, g, g.k)));
  }
  return {{x, in[0].dtype}};
}

std::vector<Tensor> resample_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& dy = in[0];
  const Shape xs = upsample_input(kResampleBackward, ctx.attrs, dy.shape());
  const kernel::ResampleGeometry g = kernel::resample_geometry(kResampleBackward, ctx.attrs, xs);
  Tensor dx = ctx.output(0, xs, dy.dtype());
  if (dx.numel() > 0) {
    kernel::visit_floating(dy.dtype(), [&](auto v) { resample_passes<decltype(v), true>(g, dy, dx); });
  }
  return {dx};
}

std::vector<Var> resample_grad(const GradContext& ctx) {
  const Shape& x = ctx.inputs[0].shape();
  Attrs attrs = ctx.attrs;
  attrs.set("input_size", std::vector<int64_t>(x.begin() + 2, x.end()));
  return {call1(kResampleBackward, {ctx.grad_outputs[0]}, attrs)};
}

// Linear in dy and upsample_linear's adjoint: its gradient is the resizing of ddx.
std::vector<Var> resample_backward_grad(const GradContext& ctx) {
  return {call1(kResample, {ctx.grad_outputs[0]}, ctx.attrs.without({"input_size"}))};
}

}  // namespace

void register_conv_ops(OpRegistry& r) {
  for (int dims : {2, 3}) {
    for (const OpDef& op : conv_ops(dims)) r.add(op);
  }
  OpDef pad = with_grad(make_op(kPad, pad_infer, pad_signatures, pad_kernel), pad_grad);
  pad.check_given = pad_check_given;
  r.add(std::move(pad));
  r.add(with_grad(make_op(kPadBackward, pad_backward_infer, pad_backward_signatures, pad_backward_kernel),
                  pad_backward_grad));
  for (OpDef op : {with_grad(make_op(kUnfold, unfold_infer, block_signatures, unfold_kernel), unfold_grad),
                   with_grad(make_op(kFold, fold_infer, block_signatures, fold_kernel), fold_grad)}) {
    op.complex = true;  // the CPU's kernels (visit_block_values)
    r.add(std::move(op));
  }
  auto planes = [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>&, const Attrs&) {
    return kernel::plane_signatures(1, 1, true);
  };
  // Resizing, nearest or linear, keeps a channels-last input so (a decoder's conv ->
  // interpolate -> conv then reorders nothing), its gradient dy's format.
  auto as_input = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs&) {
    return std::vector<MemoryFormat>{in[0].format};
  };
  OpDef upsample = with_grad(make_op(kUpsample, upsample_infer, planes, upsample_kernel), upsample_grad);
  upsample.small_ints = true;
  upsample.formats = as_input;
  r.add(std::move(upsample));
  OpDef upsample_backward =
      with_grad(make_op(kUpsampleBackward, upsample_backward_infer, planes, upsample_backward_kernel),
                upsample_backward_grad);
  upsample_backward.formats = as_input;
  r.add(std::move(upsample_backward));
  OpDef resample = with_grad(make_op(kResample, resample_infer, planes, resample_kernel), resample_grad);
  resample.formats = as_input;
  r.add(std::move(resample));
  OpDef resample_backward = with_grad(
      make_op(kResampleBackward, resample_backward_infer, planes, resample_backward_kernel), resample_backward_grad);
  resample_backward.formats = as_input;
  r.add(std::move(resample_backward));
}

}  // namespace mf
