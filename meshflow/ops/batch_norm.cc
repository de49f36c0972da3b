// Copyright 2026 The meshflow Authors.
// Batch norm with the batch's statistics as one op and its backward op: one pass for the
// statistics and one for the output, where the composition of reductions and elementwise ops
// (fn::batch_norm's other path) takes several. fn::batch_norm runs it where each rank holds
// whole channels (local tensors; global ones split only on C), on float32 and bfloat16 on the
// CPU; elsewhere the composition synchronizes the statistics through its reductions.
// Signatures (B, ... -> B implied):
//   batch_norm(x[N, C, ...][, weight[C]][, bias[C]]; eps = 1e-5, has_weight, has_bias = false)
//     -> y, mean[C], var[C]: x float32, bfloat16 or float64, weight and bias of its dtype;
//     mean and var (biased) float64 for float64, else float32. y = (x - mean) /
//     sqrt(var + eps) * weight + bias.  S(1), S(0), S(0) -> S(1), S(0), S(0).
//   batch_norm_backward(x, dy, mean, var, dmean, dvar[, weight]; the forward's attributes)
//     -> dx[, dweight][, dbias] (dweight when has_weight, dbias when has_bias), every output's
//     gradient in dx (dmean and dvar, zeros unless a caller differentiates the statistics,
//     add a pass only where one is not zero):
//     S(1), S(1), S(0), S(0), S(0), S(0), S(0) -> S(1), S(0), S(0).
// The CPU's kernels are oneDNN's batch normalization primitives (ops/onednn.h) for float32 and
// bfloat16, and loops over each channel's values for float64; the test device runs them on
// host views; CUDA's take float32 (cuda/batch_norm.cu). For a create_graph backward the
// gradient is written in differentiable ops instead.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/onednn.h"
#include "meshflow/ops/registry.h"

namespace mf {
namespace {

constexpr const char* kBatchNorm = "batch_norm";
constexpr const char* kBatchNormBackward = "batch_norm_backward";

bool flag(const Attrs& attrs, const char* key) { return attrs.has(key) && attrs.get_bool(key); }
double eps_attr(const Attrs& attrs) { return attrs.has("eps") ? attrs.get_float("eps") : 1e-5; }

// Checks x [N, C, ...] (float32, bfloat16 or float64) and eps; returns C.
int64_t checked_channels(const std::string& op, const TensorMeta& x, const Attrs& attrs) {
  if (x.dtype != DType::kFloat32 && x.dtype != DType::kBFloat16 && x.dtype != DType::kFloat64) {
    op_error(op, std::string("the input's dtype is ") + dtype_name(x.dtype) +
                     "; expected float32, bfloat16 or float64");
  }
  if (x.shape.size() < 2) op_error(op, "the input has shape " + to_string(x.shape) + "; expected [N, C, ...]");
  if (!(eps_attr(attrs) >= 0)) op_error(op, "eps is " + std::to_string(eps_attr(attrs)) + "; expected eps >= 0");
  return x.shape[1];
}

DType stat_dtype(DType x) { return x == DType::kFloat64 ? DType::kFloat64 : DType::kFloat32; }

void expect_channel_vector(const std::string& op, const TensorMeta& t, const std::string& what, const TensorMeta& x,
                           DType dtype) {
  if (t.shape != Shape{x.shape[1]} || t.dtype != dtype) {
    op_error(op, what + " is " + to_string(t.shape) + " " + dtype_name(t.dtype) + "; expected [" +
                     std::to_string(x.shape[1]) + "] " + dtype_name(dtype));
  }
}

std::vector<TensorMeta> forward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  const bool has_weight = flag(attrs, "has_weight"), has_bias = flag(attrs, "has_bias");
  kernel::expect_inputs(kBatchNorm, in, 1 + has_weight + has_bias);
  const int64_t channels = checked_channels(kBatchNorm, in[0], attrs);
  for (size_t i = 1; i < in.size(); ++i) {
    expect_channel_vector(kBatchNorm, in[i], i == 1 && has_weight ? "weight" : "bias", in[0], in[0].dtype);
  }
  const TensorMeta stat{{channels}, stat_dtype(in[0].dtype)};
  return {in[0], stat, stat};
}

// Data-like operands split on C, per-channel ones on their only dim.
std::vector<Signature> channel_signatures(size_t data_in, size_t in, size_t data_out, size_t out) {
  Signature s{std::vector<Sbp>(in, Sbp::split(0)), std::vector<Sbp>(out, Sbp::split(0))};
  for (size_t i = 0; i < data_in; ++i) s.inputs[i] = Sbp::split(1);
  for (size_t i = 0; i < data_out; ++i) s.outputs[i] = Sbp::split(1);
  return {s};
}

kernel::onednn::BatchNormShape shape_of(const Tensor& x, const Attrs& attrs) {
  const Shape& s = x.shape();
  const int64_t n = s[0], c = s[1];
  return {n, c, n * c == 0 ? 0 : x.numel() / (n * c), eps_attr(attrs)};
}

// A per-channel parameter as float32 (oneDNN's scale and shift), or null when absent.
const float* as_float(const Tensor* t, std::vector<float>& storage) {
  if (!t) return nullptr;
  if (t->dtype() == DType::kFloat32) return t->data_as<float>();
  const bfloat16* b = t->data_as<bfloat16>();
  storage.resize(static_cast<size_t>(t->numel()));
  for (int64_t i = 0; i < t->numel(); ++i) storage[i] = to_float(b[i]);
  return storage.data();
}

// Channel c's values of x [N, C, spatial] at x + offset(c, i), i < N * spatial.
int64_t offset(const kernel::onednn::BatchNormShape& s, int64_t c, int64_t i) {
  return (i / s.spatial * s.channels + c) * s.spatial + i % s.spatial;
}

// float64: each channel alone (its statistics in two passes), one channel per thread.
void forward_float64(const kernel::onednn::BatchNormShape& s, const double* x, const double* w, const double* b,
                     double* mean, double* var, double* y) {
  const int64_t m = s.batch * s.spatial;
  kernel::parallel_for(s.channels, m * s.channels > kernel::kParallelGrain, [&](int64_t c) {
    double sum = 0, squares = 0;
    for (int64_t i = 0; i < m; ++i) sum += x[offset(s, c, i)];
    const double mu = sum / static_cast<double>(m);
    for (int64_t i = 0; i < m; ++i) squares += (x[offset(s, c, i)] - mu) * (x[offset(s, c, i)] - mu);
    mean[c] = mu, var[c] = squares / static_cast<double>(m);
    const double rstd = 1 / std::sqrt(var[c] + s.eps), scale = w ? w[c] : 1, shift = b ? b[c] : 0;
    for (int64_t i = 0; i < m; ++i) y[offset(s, c, i)] = (x[offset(s, c, i)] - mu) * rstd * scale + shift;
  });
}

// dx = weight rstd (dy - mean(dy) - xhat mean(dy xhat)); dweight = sum(dy xhat), dbias = sum(dy).
void backward_float64(const kernel::onednn::BatchNormShape& s, const double* x, const double* dy, const double* w,
                      const double* mean, const double* var, double* dx, double* dweight, double* dbias) {
  const int64_t m = s.batch * s.spatial;
  kernel::parallel_for(s.channels, m * s.channels > kernel::kParallelGrain, [&](int64_t c) {
    const double rstd = 1 / std::sqrt(var[c] + s.eps);
    double sum = 0, sum_x = 0;
    for (int64_t i = 0; i < m; ++i) {
      sum += dy[offset(s, c, i)];
      sum_x += dy[offset(s, c, i)] * (x[offset(s, c, i)] - mean[c]) * rstd;
    }
    if (dweight) dweight[c] = sum_x;
    if (dbias) dbias[c] = sum;
    const double scale = (w ? w[c] : 1) * rstd, n = static_cast<double>(m);
    for (int64_t i = 0; i < m; ++i) {
      const int64_t e = offset(s, c, i);
      dx[e] = scale * (dy[e] - sum / n - (x[e] - mean[c]) * rstd * sum_x / n);
    }
  });
}

std::vector<Tensor> forward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const Tensor& x = in[0];
  const kernel::onednn::BatchNormShape s = shape_of(x, ctx.attrs);
  Tensor y = ctx.output(0, x.shape(), x.dtype());
  const DType stat = stat_dtype(x.dtype());
  Tensor mean = ctx.output(1, {s.channels}, stat), var = ctx.output(2, {s.channels}, stat);
  if (x.numel() == 0) {  // statistics of no values
    for (Tensor* t : {&mean, &var}) {
      visit_dtype(stat, [&](auto v) {
        using T = decltype(v);
        if constexpr (std::is_floating_point_v<T>) {
          std::fill(t->data_as<T>(), t->data_as<T>() + s.channels, std::numeric_limits<T>::quiet_NaN());
        }
      });
    }
    return {y, mean, var};
  }
  if (x.dtype() == DType::kFloat64) {
    forward_float64(s, x.data_as<double>(), has_weight ? in[1].data_as<double>() : nullptr,
                    has_bias ? in[1 + has_weight].data_as<double>() : nullptr, mean.data_as<double>(),
                    var.data_as<double>(), y.data_as<double>());
    return {y, mean, var};
  }
  std::vector<float> weight, bias;
  kernel::onednn::batch_norm_forward(s, x.dtype(), x.data(), as_float(has_weight ? &in[1] : nullptr, weight),
                                     as_float(has_bias ? &in[1 + has_weight] : nullptr, bias), mean.data_as<float>(),
                                     var.data_as<float>(), y.data());
  return {y, mean, var};
}

std::vector<TensorMeta> backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  const bool has_weight = flag(attrs, "has_weight"), has_bias = flag(attrs, "has_bias");
  kernel::expect_inputs(kBatchNormBackward, in, 6 + has_weight);
  const TensorMeta& x = in[0];
  checked_channels(kBatchNormBackward, x, attrs);
  if (in[1].shape != x.shape || in[1].dtype != x.dtype) {
    op_error(kBatchNormBackward, "dy is " + to_string(in[1].shape) + " " + dtype_name(in[1].dtype) +
                                     "; expected the input's shape and dtype " + to_string(x.shape) + " " +
                                     dtype_name(x.dtype));
  }
  expect_channel_vector(kBatchNormBackward, in[2], "mean", x, stat_dtype(x.dtype));
  expect_channel_vector(kBatchNormBackward, in[3], "var", x, stat_dtype(x.dtype));
  expect_channel_vector(kBatchNormBackward, in[4], "dmean", x, stat_dtype(x.dtype));
  expect_channel_vector(kBatchNormBackward, in[5], "dvar", x, stat_dtype(x.dtype));
  if (has_weight) expect_channel_vector(kBatchNormBackward, in[6], "weight", x, x.dtype);
  std::vector<TensorMeta> out{x};
  for (int i = 0; i < has_weight + has_bias; ++i) out.push_back({{x.shape[1]}, x.dtype});
  return out;
}

// dx += dmean / m + dvar 2 (x - mean) / m within each channel (d mean / dx and d var / dx),
// where dmean or dvar (in[4], in[5]) is not all zeros. T: x's dtype, S: the statistics'.
template <typename T, typename S>
void add_statistics_grad(const kernel::onednn::BatchNormShape& s, const std::vector<Tensor>& in, Tensor& dx) {
  const S *dmean = in[4].data_as<S>(), *dvar = in[5].data_as<S>(), *mean = in[2].data_as<S>();
  const bool any = std::any_of(dmean, dmean + s.channels, [](S v) { return v != 0; }) ||
                   std::any_of(dvar, dvar + s.channels, [](S v) { return v != 0; });
  if (!any) return;
  auto wide = [](T v) -> S {
    if constexpr (std::is_same_v<T, bfloat16>) return to_float(v);
    else return v;
  };
  const T* x = in[0].data_as<T>();
  T* d = dx.data_as<T>();
  const S m = static_cast<S>(s.batch * s.spatial);
  kernel::parallel_for(s.channels, dx.numel() > kernel::kParallelGrain, [&](int64_t c) {
    for (int64_t i = 0; i < s.batch * s.spatial; ++i) {
      const int64_t e = offset(s, c, i);
      const S v = wide(d[e]) + dmean[c] / m + dvar[c] * 2 * (wide(x[e]) - mean[c]) / m;
      if constexpr (std::is_same_v<T, bfloat16>) {
        d[e] = to_bfloat16(v);
      } else {
        d[e] = v;
      }
    }
  });
}

// dx, and dweight and dbias as asked (oneDNN's float32 parameter gradients, rounded to
// bfloat16 for bfloat16).
std::vector<Tensor> backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const Tensor &x = in[0], &dy = in[1];
  const kernel::onednn::BatchNormShape s = shape_of(x, ctx.attrs);
  std::vector<Tensor> out{ctx.output(0, x.shape(), x.dtype())};
  for (int i = 0; i < has_weight + has_bias; ++i) out.push_back(ctx.output(out.size(), {s.channels}, x.dtype()));
  if (x.dtype() == DType::kFloat64) {
    backward_float64(s, x.data_as<double>(), dy.data_as<double>(), has_weight ? in[6].data_as<double>() : nullptr,
                     in[2].data_as<double>(), in[3].data_as<double>(), out[0].data_as<double>(),
                     has_weight ? out[1].data_as<double>() : nullptr, has_bias ? out.back().data_as<double>() : nullptr);
    add_statistics_grad<double, double>(s, in, out[0]);
    return out;
  }
  std::vector<float> weight, dweight(static_cast<size_t>(s.channels), 0.0f), dbias(dweight);
  if (x.numel() > 0) {
    kernel::onednn::batch_norm_backward(s, x.dtype(), x.data(), dy.data(),
                                        as_float(has_weight ? &in[6] : nullptr, weight), in[2].data_as<float>(),
                                        in[3].data_as<float>(), out[0].data(), dweight.data(), dbias.data());
  }
  if (x.dtype() == DType::kFloat32) {
    add_statistics_grad<float, float>(s, in, out[0]);
  } else {
    add_statistics_grad<bfloat16, float>(s, in, out[0]);
  }
  for (size_t k = 1; k < out.size(); ++k) {
    const std::vector<float>& g = has_weight && k == 1 ? dweight : dbias;
    if (x.dtype() == DType::kFloat32) {
      std::copy(g.begin(), g.end(), out[k].data_as<float>());
    } else {
      std::transform(g.begin(), g.end(), out[k].data_as<bfloat16>(), [](float v) { return to_bfloat16(v); });
    }
  }
  return out;
}

// The gradient in differentiable ops, for a create_graph backward: with xhat = (x - mean) rstd
// and dxhat = dy weight, each channel's dx = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat))
// plus the statistics' terms.
std::vector<Var> composite_grad(const GradContext& g) {
  const Var &x = g.inputs[0], &dy = g.grad_outputs[0];
  const bool has_weight = flag(g.attrs, "has_weight"), has_bias = flag(g.attrs, "has_bias");
  const size_t nd = x.shape().size();
  std::vector<int64_t> dims{0};
  for (size_t d = 2; d < nd; ++d) dims.push_back(static_cast<int64_t>(d));
  Shape channel_view(nd, 1);
  channel_view[1] = -1;
  const Var centered = fn::sub(x, fn::mean(x, dims, true));
  const Var rstd = fn::rsqrt(fn::add_scalar(fn::mean(fn::mul(centered, centered), dims, true), eps_attr(g.attrs)));
  const Var xhat = fn::mul(centered, rstd);
  const Var dxhat = has_weight ? fn::mul(dy, fn::reshape(g.inputs[1], channel_view)) : dy;
  // d mean / dx = 1 / m and d var / dx = 2 (x - mean) / m within each channel.
  const double m = static_cast<double>(numel(x.shape()) / x.shape()[1]);
  const Var dmean = fn::cast(fn::reshape(fn::mul_scalar(g.grad_outputs[1], 1 / m), channel_view), x.dtype());
  const Var dvar = fn::cast(fn::reshape(fn::mul_scalar(g.grad_outputs[2], 2 / m), channel_view), x.dtype());
  const Var dx = fn::mul(rstd, fn::sub(fn::sub(dxhat, fn::mean(dxhat, dims, true)),
                                       fn::mul(xhat, fn::mean(fn::mul(dxhat, xhat), dims, true))));
  std::vector<Var> grads{g.needs_grad[0] ? fn::add(fn::add(dx, dmean), fn::mul(centered, dvar)) : Var()};
  if (has_weight) grads.push_back(g.needs_grad[1] ? fn::sum(fn::mul(dy, xhat), dims) : Var());
  if (has_bias) grads.push_back(g.needs_grad[grads.size()] ? fn::sum(dy, dims) : Var());
  return grads;
}

// The engine gives every floating output a gradient (zeros where none flows).
std::vector<Var> forward_grad(const GradContext& g) {
  if (grad_enabled()) return composite_grad(g);
  std::vector<Var> inputs{g.inputs[0], g.grad_outputs[0], g.outputs[1], g.outputs[2], g.grad_outputs[1],
                          g.grad_outputs[2]};
  if (flag(g.attrs, "has_weight")) inputs.push_back(g.inputs[1]);
  return call(kBatchNormBackward, inputs, g.attrs);
}

}  // namespace

void register_batch_norm_ops(OpRegistry& r) {
  OpDef forward = with_grad(make_op(kBatchNorm, forward_infer,
                                    [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                       const Attrs&) { return channel_signatures(1, in.size(), 1, 3); },
                                    forward_kernel),
                            forward_grad);
  OpDef backward = make_op(kBatchNormBackward, backward_infer,
                           [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
                             return channel_signatures(2, in.size(), 1, out.size());
                           },
                           backward_kernel);
  for (OpDef* op : {&forward, &backward}) {
    op->bfloat16 = true;
    r.add(*op);
  }
}

}  // namespace mf
