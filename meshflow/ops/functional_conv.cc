// Copyright 2026 The meshflow Authors.
// The functional forms of convolutional networks' layers (functional.h): conv2d and the
// pooling ops spelled with their attributes, and batch_norm: the batch_norm op where each rank
// holds whole channels, else composed of reductions and elementwise ops (so its statistics
// follow the input's layout, synchronized over a split batch, and its gradient is theirs).
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "meshflow/ops/functional.h"

namespace mf::fn {
namespace {

// [C] as [1, C, 1, ...] against a tensor of ndim dims.
Var channel_view(const Var& t, size_t ndim) {
  Shape shape(ndim, 1);
  shape[1] = -1;
  return reshape(t, shape);
}

// t (a running statistic: local unless its owner made it global) as a broadcast global
// tensor on x's placement where x is global and t is not; otherwise t.
Var beside(const Var& t, const Var& x) {
  if (!x.is_global() || t.is_global()) return t;
  const GlobalTensor& g = x.global();
  return Var(global_from_full(t.local(), g.placement(), NdSbp(g.nd_sbp().size(), Sbp::broadcast())));
}

// value in reference's kind and layout (a local reference: the full value). The layouts
// come from the op's own planning, the same on every rank, so the conversion needs no
// agreement: a program that placed nothing runs its graph on each rank alone, its
// placement that rank's own, and agreeing across them would find them different.
Var in_layout_of(const Var& value, const Var& reference) {
  if (reference.is_global()) {
    const GlobalTensor& r = reference.global();
    return Var(value.is_global() ? convert(value.global(), r.placement(), r.nd_sbp())
                                 : global_from_full(value.local(), r.placement(), r.nd_sbp()));
  }
  return value.is_global() ? Var(gather_full(value.global())) : value;
}

std::vector<int64_t> or_kernel(std::vector<int64_t> stride, const std::vector<int64_t>& kernel_size) {
  return stride.empty() ? kernel_size : stride;
}

}  // namespace

Var conv2d(const Var& x, const Var& weight, const Var& bias, const Conv2dOptions& o) {
  const Var y = call1("conv2d", {x, weight},
                      {{"stride", o.stride},
                       {"pad_begin", o.pad_begin},
                       {"pad_end", o.pad_end},
                       {"dilation", o.dilation},
                       {"groups", o.groups}});
  return bias.defined() ? add_bias(y, reshape(bias, {1, -1, 1, 1})) : y;
}

Var max_pool2d(const Var& x, const std::vector<int64_t>& kernel_size, std::vector<int64_t> stride,
               const std::vector<int64_t>& padding) {
  return call("max_pool2d", {x},
              {{"kernel_size", kernel_size},
               {"stride", or_kernel(std::move(stride), kernel_size)},
               {"padding", padding},
               {"dilation", std::vector<int64_t>{1, 1}},
               {"ceil_mode", false}})[0];
}

Var avg_pool2d(const Var& x, const std::vector<int64_t>& kernel_size, std::vector<int64_t> stride,
               const std::vector<int64_t>& padding, bool count_include_pad) {
  return call1("avg_pool2d", {x},
               {{"kernel_size", kernel_size},
                {"stride", or_kernel(std::move(stride), kernel_size)},
                {"padding", padding},
                {"ceil_mode", false},
                {"count_include_pad", count_include_pad}});
}

Var adaptive_avg_pool2d(const Var& x, const std::vector<int64_t>& output_size) {
  return call1("adaptive_avg_pool2d", {x}, {{"output_size", output_size}});
}

namespace {

// Whether the batch_norm op (ops/batch_norm.cc) computes x's batch statistics: a dtype its
// kernels take (float32; bfloat16 and float64 off CUDA), each rank holding whole channels
// (the statistics then need no communication; a split batch composes reductions, which
// synchronize them).
bool batch_norm_op_takes(const Var& x) {
  const bool cuda = x.data().memory().device_type() == "cuda";
  const DType t = x.dtype();
  if (t != DType::kFloat32 && (cuda || (t != DType::kBFloat16 && t != DType::kFloat64))) return false;
  if (!x.is_global()) return true;
  for (const Sbp& s : x.global().nd_sbp()) {
    if (!s.is_broadcast() && !(s.is_split() && s.split_dim() == 1)) return false;
  }
  return true;
}

// y * weight + bias per channel, each where given.
Var scaled(Var y, const Var& weight, const Var& bias) {
  const size_t nd = y.shape().size();
  if (weight.defined()) y = mul(y, channel_view(weight, nd));
  if (bias.defined()) y = add(y, channel_view(bias, nd));
  return y;
}

// batch_norm with the running statistics' new values given by blend(running, batch), running
// already beside batch (the momentum as a double, or as a tensor read at every graph run).
using Blend = std::function<Var(const Var& running, const Var& batch)>;

Var batch_norm_blending(const Var& x, const Var& running_mean, const Var& running_var, const Var& weight,
                        const Var& bias, bool training, double eps, const Blend& blend);

// A half x normalizes in float32, rounded once at the end, as torch's one kernel (its ops
// would each round); the running statistics keep their dtype (float32 beside a half x under
// autocast, as torch's).
Var batch_norm_in_float32(const Var& x, const Var& running_mean, const Var& running_var, const Var& weight,
                          const Var& bias, bool training, double eps, const Blend& blend) {
  if (!is_half(x.dtype())) return batch_norm_blending(x, running_mean, running_var, weight, bias, training, eps, blend);
  auto wide = [](const Var& v) { return v.defined() && is_half(v.dtype()) ? cast(v, DType::kFloat32) : v; };
  const Blend in_running_dtype = [&blend](const Var& running, const Var& batch) {
    return cast(blend(running, cast(batch, running.dtype())), running.dtype());
  };
  return cast(batch_norm_blending(cast(x, DType::kFloat32), running_mean, running_var, wide(weight), wide(bias),
                                  training, eps, in_running_dtype),
              x.dtype());
}

Var batch_norm_blending(const Var& x, const Var& running_mean, const Var& running_var, const Var& weight,
                        const Var& bias, bool training, double eps, const Blend& blend) {
  const Shape& shape = x.shape();
  if (shape.size() < 2) {
    throw std::invalid_argument("[batch_norm] the input has shape " + to_string(shape) + "; expected [N, C, ...]");
  }
  const size_t nd = shape.size();
  const int64_t channels = shape[1], count = channels ? numel(shape) / channels : 0;
  if (training || !running_mean.defined() || !running_var.defined()) {
    if (training && count <= 1) {
      throw std::invalid_argument(
          "[batch_norm] expected more than 1 value per channel when training, got input of "
          "shape " +
          to_string(shape));
    }
    Var y, batch_mean, var;  // var biased; the statistics [C]
    if (batch_norm_op_takes(x)) {
      std::vector<Var> inputs{x};
      for (const Var& p : {weight, bias}) {
        if (p.defined()) inputs.push_back(p);
      }
      const std::vector<Var> out = call(
          "batch_norm", inputs, {{"eps", eps}, {"has_weight", weight.defined()}, {"has_bias", bias.defined()}});
      y = out[0], batch_mean = out[1], var = out[2];
    } else {
      std::vector<int64_t> dims{0};
      for (size_t d = 2; d < nd; ++d) dims.push_back(static_cast<int64_t>(d));
      const Var mean_kept = mean(x, dims, true);
      const Var centered = sub(x, mean_kept);
      const Var var_kept = mean(mul(centered, centered), dims, true);
      y = scaled(mul(centered, rsqrt(add_scalar(var_kept, eps))), weight, bias);
      batch_mean = reshape(mean_kept, {channels}), var = reshape(var_kept, {channels});
    }
    if (training && running_mean.defined() && running_var.defined()) {
      NoGradGuard no_grad;
      const Var unbiased = mul_scalar(var, static_cast<double>(count) / (count - 1));
      for (const auto& [running, batch] : {std::pair<Var, Var>{running_mean, batch_mean},
                                           std::pair<Var, Var>{running_var, unbiased}}) {
        const Var stat = cast(batch, running.dtype());
        Var(running).set_data(in_layout_of(blend(beside(running, stat), stat), running));
      }
    }
    return y;
  }
  // The running statistics keep their own dtype (float32 beside a half model); the normalized
  // value is computed in the input's.
  auto like_x = [&x](const Var& running) { return cast(beside(running, x), x.dtype()); };
  return scaled(mul(sub(x, channel_view(like_x(running_mean), nd)),
                    channel_view(rsqrt(add_scalar(like_x(running_var), eps)), nd)),
                weight, bias);
}

}  // namespace

Var batch_norm(const Var& x, const Var& running_mean, const Var& running_var, const Var& weight, const Var& bias,
               bool training, double momentum, double eps) {
  return batch_norm_in_float32(x, running_mean, running_var, weight, bias, training, eps,
                               [momentum](const Var& running, const Var& batch) {
                                 return add(mul_scalar(running, 1 - momentum), mul_scalar(batch, momentum));
                               });
}

Var batch_norm(const Var& x, const Var& running_mean, const Var& running_var, const Var& weight, const Var& bias,
               bool training, const Var& momentum, double eps) {
  return batch_norm_in_float32(x, running_mean, running_var, weight, bias, training, eps,
                               [momentum](const Var& running, const Var& batch) {
                                 const Var m = cast(beside(momentum, batch), batch.dtype());
                                 return add(mul(running, add_scalar(neg(m), 1)), mul(batch, m));
                               });
}

}  // namespace mf::fn
