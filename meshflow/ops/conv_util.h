// Copyright 2026 The meshflow Authors.
// The geometry of convolutions, pooling and padding (ops/conv.cc, ops/pool.cc), written once
// for the CPU's kernels and the GPU's (ops/cuda/conv.cu): the attributes read and checked into
// plain structs on the host, and the window arithmetic as host and device code alike. Tensors
// are NCHW or NCDHW, row-major. No state.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "meshflow/ops/integer_math.h"  // MF_HOST_DEVICE
#include "meshflow/ops/op.h"

namespace mf::kernel {

// A convolution or pooling of k = 2 or 3 spatial dims (the ops conv2d / conv3d, max_pool2d /
// max_pool3d, ...) holds three axes, depth, height and width: a k-d call's axes are the last
// k, and those before them are trivial (size 1, kernel 1, stride 1, no padding), so one
// kernel loops over three axes for every k. `dims` is k.
constexpr int kAxes = 3;

// A convolution over x [N, C_in, (D,) H, W] with weight [C_out, C_in / groups, (kd,) kh, kw].
// Output element (n, co, od, oh, ow) reads input rows o * stride - pad_begin + i * dilation
// of each axis for i < kernel (zeros outside the input).
struct ConvGeometry {
  int dims = 2;
  int64_t batch = 0, in_channels = 0, out_channels = 0, groups = 1;
  int64_t in[kAxes] = {1, 1, 1}, out[kAxes] = {1, 1, 1}, kernel[kAxes] = {1, 1, 1};
  int64_t stride[kAxes] = {1, 1, 1}, pad[kAxes] = {0, 0, 0}, dilation[kAxes] = {1, 1, 1};  // pad: at the beginning
  MF_HOST_DEVICE int64_t in_per_group() const { return in_channels / groups; }
  MF_HOST_DEVICE int64_t out_per_group() const { return out_channels / groups; }
  // Elements of one input plane, one output plane and one filter plane.
  MF_HOST_DEVICE int64_t in_volume() const { return in[0] * in[1] * in[2]; }
  MF_HOST_DEVICE int64_t out_volume() const { return out[0] * out[1] * out[2]; }
  MF_HOST_DEVICE int64_t kernel_volume() const { return kernel[0] * kernel[1] * kernel[2]; }
};

// The output size along one axis: floor((in + pad_begin + pad_end - dilation (kernel - 1) - 1)
// / stride) + 1, or less than 1 when the padded input is smaller than the dilated kernel.
int64_t conv_out_size(int64_t in, int64_t kernel, int64_t stride, int64_t pad_begin, int64_t pad_end, int64_t dilation);

// The geometry of a convolution's (or its backward ops') call on x [N, C_in, spatial...] and w
// [C_out, C_in / groups, kernel...] (k = x's dims - 2 spatial dims; local shapes in kernels):
// attributes "stride", "pad_begin", "pad_end", "dilation" (k ints each) and "groups", checked
// ("[op] ..." errors).
ConvGeometry conv_geometry(const std::string& op, const Attrs& attrs, const Shape& x, const Shape& w);

// [N, C_out, out...] of g's k axes.
Shape conv_output_shape(const ConvGeometry& g);

// unfold's and fold's sliding blocks (torch's im2col and col2im) over C planes of [H, W]
// (`plane`), as a 2-d convolution's geometry of one group: attributes "kernel_size",
// "dilation", "padding" (on both sides) and "stride", two ints each, checked ("[op] ..."
// errors, at least one block). Block b, tap t reads input element (oh s - p + i d, ow s - p +
// j d) of its plane, (oh, ow) = (b / out[2], b % out[2]), (i, j) = (t / kernel[2], t % kernel[2]).
ConvGeometry block_geometry(const std::string& op, const Attrs& attrs, int64_t channels, const Shape& plane);

// The shapes the backward ops rebuild from their attributes and operands:
// the data gradient's x [N, C_in, spatial...] ("input_size", "groups") and the weight
// gradient's weight [C_out, C_in / groups, kernel...] ("kernel_size", "groups"; dim 1 is 0 for
// groups < 1, which conv_geometry refuses).
Shape conv_input_shape(const Attrs& attrs, const Shape& dy, const Shape& w);
Shape conv_weight_shape(const Attrs& attrs, const Shape& x, const Shape& dy);

// Pooling over the last k dims of [N, C, (D,) H, W]. Regular windows (max_pool2d, avg_pool3d,
// ...): output o of an axis covers positions o * stride - pad + i * dilation, i < kernel;
// adaptive ones (adaptive_*_pool2d/3d) cover [floor(o in / out), ceil((o + 1) in / out)),
// torch's formula. A trivial axis has one window of its one element.
struct PoolAxis {
  int64_t in = 1, out = 1, kernel = 1, stride = 1, pad = 0, dilation = 1;
  bool adaptive = false;
};

struct PoolGeometry {
  int dims = 2;
  PoolAxis axis[kAxes];
  int64_t planes = 0;  // N * C
  MF_HOST_DEVICE int64_t in_volume() const { return axis[0].in * axis[1].in * axis[2].in; }
  MF_HOST_DEVICE int64_t out_volume() const { return axis[0].out * axis[1].out * axis[2].out; }
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

// The number of positions a window of axis a counts for avg pooling's divisor: its size with
// padding (clipped at in + pad, as torch) or only the input's elements.
MF_HOST_DEVICE inline int64_t avg_pool_extent(const PoolAxis& a, int64_t o, bool count_include_pad) {
  if (a.adaptive || !count_include_pad) {
    const Window w = pool_window(a, o);
    return w.stop - w.first;
  }
  const int64_t start = o * a.stride - a.pad, end = start + a.kernel, limit = a.in + a.pad;
  return (end < limit ? end : limit) - start;
}

// avg pooling's divisor of output o (one index per axis): divisor_override when positive, else
// the product of the axes' extents.
MF_HOST_DEVICE inline int64_t avg_pool_divisor(const PoolGeometry& g, const int64_t o[kAxes], bool count_include_pad,
                                               int64_t divisor_override) {
  if (divisor_override > 0) return divisor_override;
  int64_t size = 1;
  for (int k = 0; k < kAxes; ++k) size *= avg_pool_extent(g.axis[k], o[k], count_include_pad);
  return size;
}

// The geometry of a pooling call of `dims` spatial dims on input [N, C, spatial...] (local
// sizes in kernels). Regular ops read "kernel_size", "stride", "padding", "dilation" (dims ints
// each; dilation 1 when absent) and "ceil_mode"; adaptive ones "output_size". Checked: "[op]
// ..." errors.
PoolGeometry pool_geometry(const std::string& op, const Attrs& attrs, const Shape& input, bool adaptive, int dims);

// [N, C, out...] of g's k axes, for an input [N, C, ...].
Shape pool_output_shape(const Shape& input, const PoolGeometry& g);

// Shared by the CPU's op definitions of convolution and pooling (conv.cc, pool.cc):
// "[op] the dtype of `what` is ...; expected float32 or float64" unless m is floating.
void expect_floating(const std::string& op, const TensorMeta& m, const std::string& what);

// Signatures of ops whose inputs and outputs are all [N, C, ...] alike: a split of N or C, and
// P -> P for ops linear in their inputs.
std::vector<Signature> plane_signatures(size_t inputs, size_t outputs, bool linear);

// Calls f(T{}) for float32 and float64, the dtypes these ops' infer functions let through to
// their kernels (halves reach them widened to float32, or run on oneDNN).
template <typename F>
void visit_floating(DType dtype, F&& f) {
  visit_dtype(dtype, [&](auto v) {
    if constexpr (std::is_floating_point_v<decltype(v)>) f(v);
  });
}

// pad's attributes: "pads" (torch's order: the last dim's before and after, then the
// previous dim's, ...), "mode" (PadMode; constant when absent) and "value", as per-dim
// amounts in a struct kernels can take by value (at most kMaxPadDims dims). Output element
// o of a dim reads input element pad_source(o): o - before, reflected at the edges (reflect:
// ... 2 1 | 0 1 2 ... n-1 | n-2 ...), clamped (replicate), or none (-1, constant: the value).
enum PadMode : int64_t { kPadConstant = 0, kPadReflect = 1, kPadReplicate = 2 };
constexpr int kMaxPadDims = 8;

struct PadGeometry {
  int nd = 0;
  int64_t mode = kPadConstant;
  int64_t in[kMaxPadDims] = {}, out[kMaxPadDims] = {}, before[kMaxPadDims] = {};
};

// Checked ("[op] ..." errors): even pads for at most every dim, sizes >= 0; reflect and
// replicate take pads >= 0, reflect smaller than the dim, replicate a nonempty dim.
PadGeometry pad_geometry(const std::string& op, const Attrs& attrs, const Shape& input);

MF_HOST_DEVICE inline int64_t pad_source(const PadGeometry& g, int d, int64_t o) {
  const int64_t i = o - g.before[d], n = g.in[d];
  if (g.mode == kPadReflect) return i < 0 ? -i : i >= n ? 2 * (n - 1) - i : i;
  if (g.mode == kPadReplicate) return i < 0 ? 0 : i >= n ? n - 1 : i;
  return i >= 0 && i < n ? i : -1;
}

// The output positions of dim d that read input position i, ascending: `first` (or -1),
// then [lo, hi), then `last` (or -1).
struct PadPreimage {
  int64_t first, lo, hi, last;
  MF_HOST_DEVICE int64_t size() const { return (first >= 0) + (hi - lo) + (last >= 0); }
  MF_HOST_DEVICE int64_t at(int64_t k) const {  // k < size()
    if (first >= 0 && k-- == 0) return first;
    return k < hi - lo ? lo + k : last;
  }
};

MF_HOST_DEVICE inline PadPreimage pad_preimage(const PadGeometry& g, int d, int64_t i) {
  const int64_t b = g.before[d], n = g.in[d], out = g.out[d], o = i + b;
  if (g.mode == kPadReplicate) return {-1, i == 0 ? 0 : o, i == n - 1 ? out : o + 1, -1};
  if (g.mode == kPadReflect) {
    const int64_t mirror_end = b + 2 * (n - 1) - i;
    return {i >= 1 && i <= b ? b - i : -1, o, o + 1, i <= n - 2 && mirror_end < out ? mirror_end : -1};
  }
  return o >= 0 && o < out ? PadPreimage{-1, o, o + 1, -1} : PadPreimage{-1, 0, 0, -1};
}

// dx's element at flat index e: the sum of dy over every output element that reads it, in
// ascending order of the output's flat index (deterministic; the same on every device).
template <typename T>
MF_HOST_DEVICE T pad_backward_at(const PadGeometry& g, const T* dy, int64_t e) {
  PadPreimage pre[kMaxPadDims];
  int64_t count = 1, rest = e;
  for (int d = g.nd - 1; d >= 0; --d) {
    pre[d] = pad_preimage(g, d, rest % g.in[d]);
    rest /= g.in[d];
    count *= pre[d].size();
  }
  T sum = 0;
  for (int64_t t = 0; t < count; ++t) {
    int64_t r = t, flat = 0, stride = 1;
    for (int d = g.nd - 1; d >= 0; --d) {
      const int64_t c = pre[d].size();
      flat += pre[d].at(r % c) * stride;
      r /= c;
      stride *= g.out[d];
    }
    sum += dy[flat];
  }
  return sum;
}

// Nearest-neighbour resizing of the last k = 1..3 dims of [N, C, ...] (torch's
// interpolate(mode='nearest')): output o of a dim reads input min(floor(o * step), in - 1),
// the product in float, step 1 / scale_factor when the caller gave one (the quotient taken in
// double, then rounded to float, as torch's compute_scales_value: 1 / 1.7f would send output
// 17 of 11 * 1.7 to input 9, torch's to 10), else in / out (an output of the input's size or
// twice it reads o or o / 2).
struct UpsampleGeometry {
  int k = 0;
  int64_t planes = 0;  // N * C
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  float step[3] = {0, 0, 0};  // 0: in / out
};

// From the attributes "output_size" (k ints) and "scales" (k given scale factors, 0 for none),
// checked ("[op] ..." errors), on an input of shape `input`.
UpsampleGeometry upsample_geometry(const std::string& op, const Attrs& attrs, const Shape& input);

MF_HOST_DEVICE inline int64_t nearest_source(const UpsampleGeometry& g, int d, int64_t o) {
  const int64_t in = g.in[d], out = g.out[d];
  if (out == in) return o;
  if (out == 2 * in) return o >> 1;
  const float scale = g.step[d] > 0 ? g.step[d] : static_cast<float>(in) / static_cast<float>(out);
  const int64_t i = static_cast<int64_t>(floorf(static_cast<float>(o) * scale));
  return i < in - 1 ? i : in - 1;
}

// The outputs [lo, hi) of dim d that read input i (nearest_source does not decrease in o).
MF_HOST_DEVICE inline void nearest_preimage(const UpsampleGeometry& g, int d, int64_t i, int64_t* lo, int64_t* hi) {
  int64_t a = 0, b = g.out[d];  // the first o with source >= i
  while (a < b) {
    const int64_t m = (a + b) / 2;
    if (nearest_source(g, d, m) < i) {
      a = m + 1;
    } else {
      b = m;
    }
  }
  *lo = a;
  b = g.out[d];  // the first o with source > i
  while (a < b) {
    const int64_t m = (a + b) / 2;
    if (nearest_source(g, d, m) <= i) {
      a = m + 1;
    } else {
      b = m;
    }
  }
  *hi = a;
}

// dx's element e (of [planes, in...]): the sum of dy over the outputs that read it, in
// ascending order of their flat index (CUDA's kernel; the CPU's scatters dy's rows in that
// order: the same sums).
template <typename T>
MF_HOST_DEVICE T nearest_backward_at(const UpsampleGeometry& g, const T* dy, int64_t e) {
  int64_t lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, rest = e;
  for (int d = g.k - 1; d >= 0; --d) {
    nearest_preimage(g, d, rest % g.in[d], &lo[d], &hi[d]);
    rest /= g.in[d];
  }
  const T* plane = dy + rest * g.out[0] * g.out[1] * g.out[2];
  T sum = 0;
  for (int64_t a = lo[0]; a < hi[0]; ++a) {
    for (int64_t b = lo[1]; b < hi[1]; ++b) {
      for (int64_t c = lo[2]; c < hi[2]; ++c) sum += plane[(a * g.out[1] + b) * g.out[2] + c];
    }
  }
  return sum;
}

// Linear and cubic resizing of the last k = 1..3 dims of [N, C, ...] (torch's interpolate
// modes 'linear', 'bilinear', 'trilinear' and 'bicubic'): output o of a dim reads 2 inputs
// (linear) or 4 (cubic, A = -0.75, indices clamped to the dim) around its source coordinate,
// torch's area_pixel_compute_source_index and guard_index_and_lambda computed in A (the
// accumulation type: float for float32, double for float64), as torch's kernels do.
struct ResampleGeometry {
  int k = 0;
  int64_t planes = 0;  // N * C
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
  double scale[3] = {0, 0, 0};  // the given scale factors; 0: in / out
  bool align_corners = false, cubic = false;
};

// From upsample_geometry's attributes and the bools "align_corners" and "cubic".
ResampleGeometry resample_geometry(const std::string& op, const Attrs& attrs, const Shape& input);

constexpr int kMaxResampleTaps = 4;

template <typename A>
MF_HOST_DEVICE inline A cubic_near(A x) {  // torch's cubic_convolution1, A = -0.75
  return (A(1.25) * x - A(2.25)) * x * x + A(1);
}

template <typename A>
MF_HOST_DEVICE inline A cubic_far(A x) {  // torch's cubic_convolution2
  return ((A(-0.75) * x + A(3.75)) * x - A(6)) * x + A(3);
}

// The inputs output o of dim d reads and their weights; returns their count (2 or 4). The
// indices do not decrease in o, tap by tap.
template <typename A>
MF_HOST_DEVICE int resample_taps(const ResampleGeometry& g, int d, int64_t o, int64_t* index, A* weight) {
  const int64_t in = g.in[d], out = g.out[d];
  if (!g.cubic && in == out) {  // torch's shortcut: a neighbour's NaN does not leak in through weight 0
    index[0] = index[1] = o;
    weight[0] = A(1), weight[1] = A(0);
    return 2;
  }
  A src;
  if (g.align_corners) {
    src = out > 1 ? static_cast<A>(in - 1) / static_cast<A>(out - 1) * static_cast<A>(o) : A(0);
  } else {
    const A ratio = g.scale[d] > 0 ? static_cast<A>(1.0 / g.scale[d]) : static_cast<A>(in) / static_cast<A>(out);
    src = ratio * (static_cast<A>(o) + A(0.5)) - A(0.5);
    if (!g.cubic && src < A(0)) src = A(0);
  }
  int64_t base = static_cast<int64_t>(floor(src));
  if (base > in - 1) base = in - 1;
  A t = src - static_cast<A>(base);
  t = t < A(0) ? A(0) : (t > A(1) ? A(1) : t);
  if (!g.cubic) {
    index[0] = base, index[1] = base < in - 1 ? base + 1 : base;
    weight[0] = A(1) - t, weight[1] = t;
    return 2;
  }
  weight[0] = cubic_far(t + A(1)), weight[1] = cubic_near(t), weight[2] = cubic_near(A(1) - t);
  weight[3] = cubic_far(A(2) - t);
  for (int i = 0; i < 4; ++i) {
    const int64_t at = base - 1 + i;
    index[i] = at < 0 ? 0 : (at > in - 1 ? in - 1 : at);
  }
  return 4;
}

template <typename T>
using ResampleAccumulate = std::conditional_t<std::is_same_v<T, double>, double, float>;

// Element e of the resized x (of [planes, out...]): the product of each dim's taps, summed in
// the accumulation type. The CPU's kernel runs the same taps one dim at a time; this form,
// one element at a time, is the GPU's (and the CPU's tests check it against the CPU's).
template <typename T>
MF_HOST_DEVICE T resample_at(const ResampleGeometry& g, const T* x, int64_t e) {
  using A = ResampleAccumulate<T>;
  int64_t index[3][kMaxResampleTaps] = {{0}, {0}, {0}};
  A weight[3][kMaxResampleTaps] = {{A(1)}, {A(1)}, {A(1)}};
  int count[3] = {1, 1, 1};
  const int64_t plane_out = g.out[0] * g.out[1] * g.out[2];
  int64_t rest = e % plane_out;
  for (int d = g.k - 1; d >= 0; --d) {
    count[d] = resample_taps<A>(g, d, rest % g.out[d], index[d], weight[d]);
    rest /= g.out[d];
  }
  const T* plane = x + e / plane_out * (g.in[0] * g.in[1] * g.in[2]);
  A sum = 0;
  for (int a = 0; a < count[0]; ++a) {
    for (int b = 0; b < count[1]; ++b) {
      for (int c = 0; c < count[2]; ++c) {
        sum += weight[0][a] * weight[1][b] * weight[2][c] *
               static_cast<A>(plane[(index[0][a] * g.in[1] + index[1][b]) * g.in[2] + index[2][c]]);
      }
    }
  }
  return static_cast<T>(sum);
}

// The outputs [lo, hi) of dim d whose taps may read input i: each tap's index does not
// decrease in the output, so they lie from the first output whose last tap reaches i to the
// first whose first tap passes it.
template <typename A>
MF_HOST_DEVICE void resample_preimage(const ResampleGeometry& g, int d, int64_t i, int64_t* lo, int64_t* hi) {
  int64_t index[kMaxResampleTaps];
  A weight[kMaxResampleTaps];
  int64_t a = 0, b = g.out[d];
  while (a < b) {
    const int64_t m = (a + b) / 2;
    const int count = resample_taps<A>(g, d, m, index, weight);
    if (index[count - 1] < i) {
      a = m + 1;
    } else {
      b = m;
    }
  }
  *lo = a;
  b = g.out[d];
  while (a < b) {
    const int64_t m = (a + b) / 2;
    resample_taps<A>(g, d, m, index, weight);
    if (index[0] <= i) {
      a = m + 1;
    } else {
      b = m;
    }
  }
  *hi = a;
}

// The weight with which output o of dim d reads input i (its taps' at i, summed).
template <typename A>
MF_HOST_DEVICE A resample_weight(const ResampleGeometry& g, int d, int64_t o, int64_t i) {
  int64_t index[kMaxResampleTaps];
  A weight[kMaxResampleTaps];
  const int count = resample_taps<A>(g, d, o, index, weight);
  A sum = 0;
  for (int t = 0; t < count; ++t) sum += index[t] == i ? weight[t] : A(0);
  return sum;
}

// dx's element e (of [planes, in...]): the sum of dy over the outputs that read it, each times
// the product of its dims' weights, in ascending order of their flat index.
template <typename T>
MF_HOST_DEVICE T resample_backward_at(const ResampleGeometry& g, const T* dy, int64_t e) {
  using A = ResampleAccumulate<T>;
  int64_t at[3] = {0, 0, 0}, lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
  const int64_t plane_in = g.in[0] * g.in[1] * g.in[2];
  int64_t rest = e % plane_in;
  for (int d = g.k - 1; d >= 0; --d) {
    at[d] = rest % g.in[d];
    resample_preimage<A>(g, d, at[d], &lo[d], &hi[d]);
    rest /= g.in[d];
  }
  const T* plane = dy + e / plane_in * (g.out[0] * g.out[1] * g.out[2]);
  A sum = 0;
  for (int64_t a = lo[0]; a < hi[0]; ++a) {
    const A wa = g.k > 0 ? resample_weight<A>(g, 0, a, at[0]) : A(1);
    for (int64_t b = lo[1]; b < hi[1]; ++b) {
      const A wb = g.k > 1 ? resample_weight<A>(g, 1, b, at[1]) : A(1);
      for (int64_t c = lo[2]; c < hi[2]; ++c) {
        const A wc = g.k > 2 ? resample_weight<A>(g, 2, c, at[2]) : A(1);
        sum += wa * wb * wc * static_cast<A>(plane[(a * g.out[1] + b) * g.out[2] + c]);
      }
    }
  }
  return static_cast<T>(sum);
}

}  // namespace mf::kernel
