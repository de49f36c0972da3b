// Copyright 2026 The meshflow Authors.
// Pooling with PyTorch's semantics over the last k = 2 or 3 dims of [N, C, ...], each op beside
// the backward op its gradient calls; the geometry and its checks are conv_util.h's, shared
// with the CUDA kernels (cuda/conv.cu). The 1-d forms are the 2-d ones on a height of 1
// (Python's). Signatures:
//   max_pool<k>d(x; kernel_size, stride, padding, dilation, ceil_mode) -> y, indices (int64,
//     the flat index of each maximum within its plane, (d * H + h) * W + w: torch's), and
//     adaptive_max_pool<k>d(x; output_size) -> y, indices:
//     S(0) -> S(0), S(0);  S(1) -> S(1), S(1).
//   max_pool<k>d_backward(dy, indices; input_size) -> dx, for both:  S(j), S(j) -> S(j) for
//     j < 2;  P, B -> P.
//   avg_pool<k>d(x; kernel_size, stride, padding, ceil_mode, count_include_pad,
//     divisor_override (0: none)), adaptive_avg_pool<k>d(x; output_size), and their backward
//     ops (dy; the forward's attributes, input_size):  S(j) -> S(j) for j < 2;  P -> P.
//   The backward ops are linear in dy and their forward ops' adjoints; their gradients (a
//   create_graph backward) are those forward ops, or a gather at the indices.
//
// float32 pools on oneDNN's primitives (onednn.h) wherever they give torch's values: max
// pooling on inputs without NaN or -inf (a scan decides: oneDNN's skips a NaN that torch's
// returns, and gives an all -inf window the lowest float) but for planes of one row
// (max_pool1d's), which the direct kernel runs faster, avg pooling unless
// divisor_override is set or count_include_pad meets a padded axis whose last window reaches
// past the padding (torch's divisor then clips the window; oneDNN's is the kernel's volume),
// adaptive windows where the input's sizes are multiples of the output's. float64 and the
// rest run the direct kernels below, one row of outputs per task. Outputs take their first
// input's memory format: channels-last max pooling has a direct kernel of its own, avg
// pooling and its backward run oneDNN's primitive on that layout (the direct kernels on
// row-major copies). max pooling's backward adds
// each plane's dy at its indices in output order, one plane per task: no two threads write
// one element, so the results are deterministic.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "meshflow/ops/conv_util.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/onednn.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

using kernel::kAxes;
using kernel::onednn::PoolKind;
using kernel::PoolAxis;
using kernel::PoolGeometry;
using kernel::Window;

const Sbp kB = Sbp::broadcast(), kP = Sbp::partial_sum();

// stem + "2d" or "3d" + suffix: the op of that family for k = dims.
std::string op_name(const char* stem, int dims, const char* suffix = "") {
  return stem + std::to_string(dims) + "d" + suffix;
}

// The spatial sizes of t's shape (its dims after N and C).
std::vector<int64_t> spatial(const Shape& shape) { return std::vector<int64_t>(shape.begin() + 2, shape.end()); }

// The input of a backward op: dy's N and C with the attribute input_size.
Shape backward_input_shape(const std::string& op, const Attrs& attrs, const Shape& dy, int dims) {
  const std::vector<int64_t>& size = attrs.get_ints("input_size");
  if (size.size() != static_cast<size_t>(dims) || dy.size() != static_cast<size_t>(dims) + 2) {
    op_error(op, "input_size is " + to_string(size) + " and dy has shape " + to_string(dy) + "; expected " +
                     std::to_string(dims) + " ints and dy of " + std::to_string(dims + 2) + " dims [N, C, ...]");
  }
  Shape x{dy[0], dy[1]};
  x.insert(x.end(), size.begin(), size.end());
  return x;
}

// ---------------------------------------------------------------------------------------------
// max_pool2d/3d, adaptive_max_pool2d/3d and their backward op

// Whether every element is above -inf (so none is NaN either): the inputs on which oneDNN's
// max pooling gives torch's values. Chunks on the team, each one vectorized pass.
bool above_lowest(const float* x, int64_t n) {
  constexpr int64_t kChunk = 1 << 14;
  std::atomic<bool> ok{true};
  kernel::parallel_for((n + kChunk - 1) / kChunk, n > kernel::kParallelGrain, [&](int64_t c) {
    const float* p = x + c * kChunk;
    const int64_t len = std::min(kChunk, n - c * kChunk);
    int bad = 0;
#pragma omp simd reduction(| : bad)
    for (int64_t i = 0; i < len; ++i) bad |= !(p[i] > -std::numeric_limits<float>::infinity());
    if (bad) ok.store(false, std::memory_order_relaxed);
  });
  return ok.load();
}

// Tap `shift` (j * dilation - pad) of the windows [lo, hi) of a row, which lie inside the
// line: window o reads position o * stride + shift, taking it as its maximum (best[o], its
// flat index, the line's offset plus the position, in at[o]) when greater or NaN (the last
// NaN wins, as in torch). Selects, not branches (on random data they mispredicted on every
// element), and a strided load: the loop vectorizes.
template <typename T>
MF_MULTIVERSIONED void max_pool_tap(const T* line, int64_t offset, int64_t stride, int64_t shift, int64_t lo,
                                    int64_t hi, T* __restrict best, int64_t* __restrict at) {
#pragma omp simd
  for (int64_t o = lo; o < hi; ++o) {
    const int64_t iw = o * stride + shift;
    const T value = line[iw];
    const bool take = (value > best[o]) | (value != value);
    best[o] = take ? value : best[o];
    at[o] = take ? offset + iw : at[o];
  }
}

// Each window's maximum and its flat index (an all -inf window gives -inf at its first
// position), each window reading its positions in ascending flat order: a row of outputs
// takes its input lines in order, on each line the windows inside it tap by tap
// (max_pool_tap), the others (at the padding, adaptive ones) position by position.
template <typename T>
void max_pool_direct(const PoolGeometry& g, const T* x, T* y, int64_t* indices) {
  const PoolAxis &ad = g.axis[0], &ah = g.axis[1], &aw = g.axis[2];
  const int64_t rows = g.planes * ad.out * ah.out;
  std::vector<Window> columns(static_cast<size_t>(aw.out));
  for (int64_t ow = 0; ow < aw.out; ++ow) columns[ow] = kernel::pool_window(aw, ow);
  // The windows [lo, hi) that lie inside the line: o * stride - pad >= 0 and that plus the
  // extent <= in.
  const int64_t extent = (aw.kernel - 1) * aw.dilation + 1;
  const int64_t lo = aw.adaptive ? 0 : std::min(aw.out, (aw.pad + aw.stride - 1) / aw.stride);
  const int64_t last_inside = (aw.in + aw.pad - extent) / aw.stride;  // when in + pad >= extent
  const int64_t hi = aw.adaptive || aw.in + aw.pad < extent ? lo : std::max(lo, std::min(aw.out, last_inside + 1));
  kernel::parallel_for(rows, rows * aw.out * 4 > kernel::kParallelGrain, [&](int64_t row) {
    const int64_t oh = row % ah.out, od = row / ah.out % ad.out;
    const T* plane = x + row / (ah.out * ad.out) * g.in_volume();
    const Window wd = kernel::pool_window(ad, od), wh = kernel::pool_window(ah, oh);
    T* best = y + row * aw.out;
    int64_t* at = indices + row * aw.out;
    const int64_t corner = (wd.first * ah.in + wh.first) * aw.in;
    for (int64_t ow = 0; ow < aw.out; ++ow) {
      best[ow] = -std::numeric_limits<T>::infinity(), at[ow] = corner + columns[ow].first;
    }
    for (int64_t id = wd.first; id < wd.stop; id += wd.step) {
      for (int64_t ih = wh.first; ih < wh.stop; ih += wh.step) {
        const int64_t line = (id * ah.in + ih) * aw.in;
        for (int64_t j = 0; j < aw.kernel && lo < hi; ++j) {
          max_pool_tap(plane + line, line, aw.stride, j * aw.dilation - aw.pad, lo, hi, best, at);
        }
        for (int64_t ow = 0; ow < aw.out; ++ow) {
          if (ow == lo) ow = hi;  // the windows inside are done
          if (ow == aw.out) break;
          const Window ww = columns[ow];
          for (int64_t iw = ww.first; iw < ww.stop; iw += ww.step) {
            const T value = plane[line + iw];
            if (value > best[ow] || std::isnan(value)) best[ow] = value, at[ow] = line + iw;
          }
        }
      }
    }
  });
}

// One input position's channels (a channels-last row) taken into the windows' maxima best[c]
// and flat indices at[c] where greater or NaN, as max_pool_tap: the loop over channels
// vectorizes.
template <typename T>
MF_MULTIVERSIONED void max_pool_row(const T* x, int64_t channels, int64_t position, T* __restrict best,
                                    int64_t* __restrict at) {
#pragma omp simd
  for (int64_t c = 0; c < channels; ++c) {
    const T value = x[c];
    const bool take = (value > best[c]) | (value != value);
    best[c] = take ? value : best[c];
    at[c] = take ? position : at[c];
  }
}

// max_pool_direct over a channels-last x ([N, spatial..., C]; y and indices so too, the
// indices still flat within each plane, as torch's): one output position per task, its window's
// positions in ascending flat order, all channels at once. A conv -> ReLU -> max pool -> conv
// chain then keeps oneDNN's layout (a reorder of x and of dx each way cost more than the pool).
template <typename T>
void max_pool_channels_last(const PoolGeometry& g, int64_t channels, const T* x, T* y, int64_t* indices) {
  const PoolAxis &ad = g.axis[0], &ah = g.axis[1], &aw = g.axis[2];
  const int64_t volume = g.out_volume(), outputs = g.planes / channels * volume;
  kernel::parallel_for(outputs, outputs * channels * 4 > kernel::kParallelGrain, [&](int64_t o) {
    const int64_t ow = o % aw.out, oh = o / aw.out % ah.out, od = o % volume / (aw.out * ah.out);
    const Window wd = kernel::pool_window(ad, od), wh = kernel::pool_window(ah, oh), ww = kernel::pool_window(aw, ow);
    const T* sample = x + o / volume * g.in_volume() * channels;
    T* best = y + o * channels;
    int64_t* at = indices + o * channels;
    std::fill(best, best + channels, -std::numeric_limits<T>::infinity());
    std::fill(at, at + channels, (wd.first * ah.in + wh.first) * aw.in + ww.first);
    for (int64_t id = wd.first; id < wd.stop; id += wd.step) {
      for (int64_t ih = wh.first; ih < wh.stop; ih += wh.step) {
        for (int64_t iw = ww.first; iw < ww.stop; iw += ww.step) {
          const int64_t position = (id * ah.in + ih) * aw.in + iw;
          max_pool_row(sample + position * channels, channels, position, best, at);
        }
      }
    }
  });
}

// Outputs in the first input's format (max pooling's y and indices, its backward's dx); the
// kernels read their inputs in it (planned_input).
std::vector<MemoryFormat> first_input_format(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out,
                                             const Attrs&) {
  return std::vector<MemoryFormat>(out.size(), in[0].format);
}

// Input k of a call in its outputs' planned format (first_input_format).
Tensor planned_input(const std::vector<Tensor>& in, size_t k, const KernelContext& ctx) {
  return kernel::onednn::in_format(in[k], ctx.outputs[0].format);
}

// Whether g pools along its last axis alone, over planes of one row (max_pool1d's [N, C, 1,
// L]): oneDNN's primitive runs such planes several times slower than the direct kernel.
bool one_row(const PoolGeometry& g) { return g.axis[0].in == 1 && g.axis[1].in == 1; }

OpDef max_pool(int dims, bool adaptive) {
  const std::string name = op_name(adaptive ? "adaptive_max_pool" : "max_pool", dims);
  const std::string backward = op_name("max_pool", dims, "_backward");
  auto infer = [name, adaptive, dims](const std::vector<TensorMeta>& in,
                                      const Attrs& attrs) -> std::vector<TensorMeta> {
    kernel::expect_inputs(name, in, 1);
    kernel::expect_floating(name, in[0], "the input");
    const PoolGeometry g = kernel::pool_geometry(name, attrs, in[0].shape, adaptive, dims);
    const Shape out = kernel::pool_output_shape(in[0].shape, g);
    return {{out, in[0].dtype}, {out, DType::kInt64}};
  };
  auto signatures = [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>&, const Attrs&) {
    return kernel::plane_signatures(1, 2, false);
  };
  auto run = [name, adaptive, dims](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor x = planned_input(in, 0, ctx);
    const PoolGeometry g = kernel::pool_geometry(name, ctx.attrs, x.shape(), adaptive, dims);
    const Shape out = kernel::pool_output_shape(x.shape(), g);
    Tensor y = ctx.output(0, out, x.dtype()), indices = ctx.output(1, out, DType::kInt64);
    int64_t* at = indices.data_as<int64_t>();
    if (y.numel() == 0) return {y, indices};
    if (channels_last(x.format())) {
      kernel::visit_floating(x.dtype(), [&](auto v) {
        using T = decltype(v);
        max_pool_channels_last(g, x.shape()[1], x.data_as<T>(), y.data_as<T>(), at);
      });
      return {y, indices};
    }
    if (x.dtype() == DType::kFloat32 && !one_row(g) && above_lowest(x.data_as<float>(), x.numel()) &&
        kernel::onednn::pool_forward(PoolKind::kMax, g, x.data_as<float>(), y.data_as<float>(), at)) {
      return {y, indices};
    }
    kernel::visit_floating(x.dtype(), [&](auto v) {
      using T = decltype(v);
      max_pool_direct(g, x.data_as<T>(), y.data_as<T>(), at);
    });
    return {y, indices};
  };
  OpDef op = with_grad(make_op(name, infer, signatures, run), [backward](const GradContext& ctx) -> std::vector<Var> {
    return {call1(backward, {ctx.grad_outputs[0], ctx.outputs[1]}, {{"input_size", spatial(ctx.inputs[0].shape())}})};
  });
  op.formats = first_input_format;
  return op;
}

OpDef max_pool_backward(int dims) {
  const std::string name = op_name("max_pool", dims, "_backward");
  auto infer = [name, dims](const std::vector<TensorMeta>& in, const Attrs& attrs) -> std::vector<TensorMeta> {
    kernel::expect_inputs(name, in, 2);
    kernel::expect_floating(name, in[0], "dy");
    if (in[1].dtype != DType::kInt64 || in[1].shape != in[0].shape) {
      op_error(name, "indices are " + std::string(dtype_name(in[1].dtype)) + " of shape " + to_string(in[1].shape) +
                         "; expected int64 of dy's shape " + to_string(in[0].shape));
    }
    return {{backward_input_shape(name, attrs, in[0].shape, dims), in[0].dtype}};
  };
  auto signatures = [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>&, const Attrs&) {
    std::vector<Signature> sigs = kernel::split_alike_signatures(2, 2, 1);
    sigs.push_back({{kP, kB}, {kP}});
    return sigs;
  };
  // Each plane's dy added at its indices in output order (indices come from the forward op:
  // in range by construction); channels-last, a sample's per task.
  auto run = [name, dims](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor dy = planned_input(in, 0, ctx), indices = planned_input(in, 1, ctx);
    const Shape xs = backward_input_shape(name, ctx.attrs, dy.shape(), dims);
    Tensor dx = ctx.output(0, xs, dy.dtype());
    const int64_t planes = xs[0] * xs[1], in_plane = numel(xs) / std::max<int64_t>(planes, 1);
    const int64_t out_plane = dy.numel() / std::max<int64_t>(planes, 1);
    kernel::visit_floating(dy.dtype(), [&](auto v) {
      using T = decltype(v);
      if (channels_last(dy.format())) {
        const int64_t channels = xs[1];
        kernel::parallel_for(xs[0], dx.numel() > kernel::kParallelGrain, [&](int64_t n) {
          T* d = dx.data_as<T>() + n * in_plane * channels;
          const T* g = dy.data_as<T>() + n * out_plane * channels;
          const int64_t* idx = indices.data_as<int64_t>() + n * out_plane * channels;
          std::fill(d, d + in_plane * channels, T{0});
          for (int64_t o = 0; o < out_plane * channels; o += channels) {
            for (int64_t c = 0; c < channels; ++c) d[idx[o + c] * channels + c] += g[o + c];
          }
        });
        return;
      }
      kernel::parallel_for(planes, dx.numel() > kernel::kParallelGrain, [&](int64_t p) {
        T* d = dx.data_as<T>() + p * in_plane;
        const T* g = dy.data_as<T>() + p * out_plane;
        const int64_t* idx = indices.data_as<int64_t>() + p * out_plane;
        std::fill(d, d + in_plane, T{0});
        for (int64_t o = 0; o < out_plane; ++o) d[idx[o]] += g[o];
      });
    });
    return {dx};
  };
  // Linear in dy: its gradient reads ddx at each window's maximum.
  auto grad = [](const GradContext& ctx) -> std::vector<Var> {
    const Shape &dy = ctx.inputs[0].shape(), &x = ctx.grad_outputs[0].shape();
    const Var planes = fn::reshape(ctx.grad_outputs[0], {x[0], x[1], -1});
    const Var at = fn::reshape(ctx.inputs[1], {dy[0], dy[1], -1});
    return {fn::reshape(call1("gather", {planes, at}, {{"dim", int64_t{2}}}), dy), Var()};
  };
  OpDef op = with_grad(make_op(name, infer, signatures, run), grad);
  op.formats = first_input_format;
  return op;
}

// ---------------------------------------------------------------------------------------------
// avg_pool2d/3d, adaptive_avg_pool2d/3d and their backward ops

// avg pooling's attributes beyond the window: count_include_pad (default true) and
// divisor_override (0 or absent: none).
bool count_include_pad(const Attrs& attrs) {
  return !attrs.has("count_include_pad") || attrs.get_bool("count_include_pad");
}
int64_t divisor_override(const Attrs& attrs) {
  return attrs.has("divisor_override") ? attrs.get_int("divisor_override") : 0;
}

// oneDNN's algorithm whose divisors are torch's for this call, if one is. Per axis torch
// counts min(end, in + pad) - start positions; oneDNN's exclude-padding kind counts those in
// the input (the same where an axis has no padding), its include-padding kind the kernel (the
// same where no window of the axis reaches past in + pad).
std::optional<PoolKind> onednn_avg_kind(const PoolGeometry& g, const Attrs& attrs) {
  if (divisor_override(attrs) > 0) return std::nullopt;
  bool padded = false, overhang = false;
  for (const PoolAxis& a : g.axis) {
    if (a.adaptive) continue;
    padded = padded || a.pad > 0;
    overhang = overhang || (a.out - 1) * a.stride - a.pad + a.kernel > a.in + a.pad;
  }
  if (!count_include_pad(attrs) || !padded) return PoolKind::kAvgExcludePad;
  if (overhang) return std::nullopt;
  return PoolKind::kAvgIncludePad;
}

// C where t is channels-last (oneDNN's avg pooling then runs in that layout), else 0.
int64_t last_channels(const Tensor& t) { return channels_last(t.format()) ? t.shape()[1] : 0; }

// body(input, output) of the direct kernels, which read and write row-major planes, into
// `out` (the call's planned output): in place where it is row-major, else through row-major
// copies of both.
template <typename Body>
Tensor on_planes(const Tensor& input, Tensor& out, Body body) {
  if (!channels_last(out.format()) && !channels_last(input.format())) {
    body(input, out);
    return out;
  }
  const Tensor rows = kernel::onednn::in_format(input, MemoryFormat::kContiguous);
  Tensor result = Tensor::empty(out.shape(), out.dtype());
  body(rows, result);
  return kernel::onednn::in_format(result, out.format());
}

template <typename T>
void avg_pool_direct(const PoolGeometry& g, bool with_pad, int64_t override_, const T* x, T* y) {
  const PoolAxis &ad = g.axis[0], &ah = g.axis[1], &aw = g.axis[2];
  const int64_t rows = g.planes * ad.out * ah.out;
  kernel::parallel_for(rows, rows * aw.out * 4 > kernel::kParallelGrain, [&](int64_t row) {
    const int64_t oh = row % ah.out, od = row / ah.out % ad.out;
    const T* plane = x + row / (ah.out * ad.out) * g.in_volume();
    const Window wd = kernel::pool_window(ad, od), wh = kernel::pool_window(ah, oh);
    for (int64_t ow = 0; ow < aw.out; ++ow) {
      const Window ww = kernel::pool_window(aw, ow);
      T sum = 0;
      for (int64_t id = wd.first; id < wd.stop; ++id) {
        for (int64_t ih = wh.first; ih < wh.stop; ++ih) {
          const T* line = plane + (id * ah.in + ih) * aw.in;
          for (int64_t iw = ww.first; iw < ww.stop; ++iw) sum += line[iw];
        }
      }
      const int64_t o[kAxes] = {od, oh, ow};
      y[row * aw.out + ow] = sum / static_cast<T>(kernel::avg_pool_divisor(g, o, with_pad, override_));
    }
  });
}

// Each plane's dx: every output's share of dy added over its window, in output order.
template <typename T>
void avg_pool_backward_direct(const PoolGeometry& g, bool with_pad, int64_t override_, const T* dy, T* dx) {
  const PoolAxis &ad = g.axis[0], &ah = g.axis[1], &aw = g.axis[2];
  kernel::parallel_for(g.planes, g.planes * g.in_volume() > kernel::kParallelGrain, [&](int64_t p) {
    T* d = dx + p * g.in_volume();
    const T* gy = dy + p * g.out_volume();
    std::fill(d, d + g.in_volume(), T{0});
    for (int64_t od = 0; od < ad.out; ++od) {
      const Window wd = kernel::pool_window(ad, od);
      for (int64_t oh = 0; oh < ah.out; ++oh) {
        const Window wh = kernel::pool_window(ah, oh);
        for (int64_t ow = 0; ow < aw.out; ++ow) {
          const Window ww = kernel::pool_window(aw, ow);
          const int64_t o[kAxes] = {od, oh, ow};
          const T share = gy[(od * ah.out + oh) * aw.out + ow] /
                          static_cast<T>(kernel::avg_pool_divisor(g, o, with_pad, override_));
          for (int64_t id = wd.first; id < wd.stop; ++id) {
            for (int64_t ih = wh.first; ih < wh.stop; ++ih) {
              T* line = d + (id * ah.in + ih) * aw.in;
              for (int64_t iw = ww.first; iw < ww.stop; ++iw) line[iw] += share;
            }
          }
        }
      }
    }
  });
}

// avg_pool<k>d and adaptive_avg_pool<k>d; their backward ops are avg_pool_backward's.
OpDef avg_pool(int dims, bool adaptive) {
  const std::string name = op_name(adaptive ? "adaptive_avg_pool" : "avg_pool", dims);
  const std::string backward = name + "_backward";
  auto infer = [name, adaptive, dims](const std::vector<TensorMeta>& in,
                                      const Attrs& attrs) -> std::vector<TensorMeta> {
    kernel::expect_inputs(name, in, 1);
    kernel::expect_floating(name, in[0], "the input");
    if (divisor_override(attrs) < 0) op_error(name, "divisor_override is negative; expected a positive divisor");
    const PoolGeometry g = kernel::pool_geometry(name, attrs, in[0].shape, adaptive, dims);
    return {{kernel::pool_output_shape(in[0].shape, g), in[0].dtype}};
  };
  auto signatures = [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>&, const Attrs&) {
    return kernel::plane_signatures(1, 1, true);
  };
  auto run = [name, adaptive, dims](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor& x = in[0];
    const PoolGeometry g = kernel::pool_geometry(name, ctx.attrs, x.shape(), adaptive, dims);
    Tensor y = ctx.output(0, kernel::pool_output_shape(x.shape(), g), x.dtype());
    if (y.numel() == 0) return {y};
    const std::optional<PoolKind> kind = onednn_avg_kind(g, ctx.attrs);
    if (x.dtype() == DType::kFloat32 && kind &&
        kernel::onednn::pool_forward(*kind, g, x.data_as<float>(), y.data_as<float>(), nullptr, last_channels(x))) {
      return {y};
    }
    return {on_planes(x, y, [&](const Tensor& a, Tensor& out) {
      kernel::visit_floating(a.dtype(), [&](auto v) {
        using T = decltype(v);
        avg_pool_direct(g, count_include_pad(ctx.attrs), divisor_override(ctx.attrs), a.data_as<T>(),
                        out.data_as<T>());
      });
    })};
  };
  OpDef op = with_grad(make_op(name, infer, signatures, run), [backward](const GradContext& ctx) -> std::vector<Var> {
    return {call1(backward, {ctx.grad_outputs[0]},
                  Attrs(ctx.attrs).set("input_size", spatial(ctx.inputs[0].shape())))};
  });
  op.formats = first_input_format;
  return op;
}

OpDef avg_pool_backward(int dims, bool adaptive) {
  const std::string forward = op_name(adaptive ? "adaptive_avg_pool" : "avg_pool", dims);
  const std::string name = forward + "_backward";
  auto infer = [name, adaptive, dims](const std::vector<TensorMeta>& in,
                                      const Attrs& attrs) -> std::vector<TensorMeta> {
    kernel::expect_inputs(name, in, 1);
    kernel::expect_floating(name, in[0], "dy");
    const Shape xs = backward_input_shape(name, attrs, in[0].shape, dims);
    const Shape expected = kernel::pool_output_shape(xs, kernel::pool_geometry(name, attrs, xs, adaptive, dims));
    if (expected != in[0].shape) {
      op_error(name, "dy has shape " + to_string(in[0].shape) + "; expected " + to_string(expected) +
                         ", the pooling's output");
    }
    return {{xs, in[0].dtype}};
  };
  auto signatures = [](const std::vector<TensorMeta>&, const std::vector<TensorMeta>&, const Attrs&) {
    return kernel::plane_signatures(1, 1, true);
  };
  auto run = [name, adaptive, dims](const std::vector<Tensor>& in, const KernelContext& ctx) -> std::vector<Tensor> {
    const Tensor& dy = in[0];
    const Shape xs = backward_input_shape(name, ctx.attrs, dy.shape(), dims);
    const PoolGeometry g = kernel::pool_geometry(name, ctx.attrs, xs, adaptive, dims);
    Tensor dx = ctx.output(0, xs, dy.dtype());
    if (dx.numel() == 0) return {dx};
    const std::optional<PoolKind> kind = onednn_avg_kind(g, ctx.attrs);
    if (dy.dtype() == DType::kFloat32 && kind &&
        kernel::onednn::avg_pool_backward(*kind, g, dy.data_as<float>(), dx.data_as<float>(), last_channels(dy))) {
      return {dx};
    }
    return {on_planes(dy, dx, [&](const Tensor& a, Tensor& out) {
      kernel::visit_floating(a.dtype(), [&](auto v) {
        using T = decltype(v);
        avg_pool_backward_direct(g, count_include_pad(ctx.attrs), divisor_override(ctx.attrs), a.data_as<T>(),
                                 out.data_as<T>());
      });
    })};
  };
  OpDef op = with_grad(make_op(name, infer, signatures, run), [forward](const GradContext& ctx) -> std::vector<Var> {
    return {call1(forward, {ctx.grad_outputs[0]}, ctx.attrs)};
  });
  op.formats = first_input_format;
  return op;
}

}  // namespace

void register_pool_ops(OpRegistry& r) {
  for (int dims : {2, 3}) {
    r.add(max_pool(dims, false));
    r.add(max_pool(dims, true));
    r.add(max_pool_backward(dims));
    for (bool adaptive : {false, true}) {
      r.add(avg_pool(dims, adaptive));
      r.add(avg_pool_backward(dims, adaptive));
    }
  }
}

}  // namespace mf
