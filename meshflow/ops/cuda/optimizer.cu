// Copyright 2026 The meshflow Authors.
// The CUDA kernels of the optimizer updates (ops/optimizer_ops.cc): adamw_update,
// adam_update and sgd_update, one elementwise pass each, with the CPU's formulas in the
// CPU's order. The CPU build turns off floating-point contraction, so every operation here
// goes through a round-to-nearest intrinsic (nvcc would otherwise fuse multiplies and adds):
// the GPU gives the CPU's bits, step after step, instead of drifting from it.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "meshflow/ops/cuda/cuda_kernels.h"

namespace mf::cuda {
namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ float add(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ double add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ float sub(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ double sub(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ float mul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float div(float a, float b) { return __fdiv_rn(a, b); }
__device__ __forceinline__ double div(double a, double b) { return __ddiv_rn(a, b); }
__device__ __forceinline__ float root(float a) { return __fsqrt_rn(a); }
__device__ __forceinline__ double root(double a) { return __dsqrt_rn(a); }

// The kernel's n outputs, each of param's shape and dtype.
std::vector<Tensor> outputs_like(const std::vector<Tensor>& in, const KernelContext& ctx, size_t n) {
  std::vector<Tensor> out;
  for (size_t k = 0; k < n; ++k) out.push_back(output(ctx, k, in[0].shape(), in[0].dtype(), memory_of(in)));
  return out;
}

// Calls f(T{}) for param's dtype: float32 or float64, the only ones infer lets through.
template <typename F>
void visit_floating(DType dtype, F f) {
  visit_dtype(dtype, [&](auto v) {
    using T = decltype(v);
    if constexpr (std::is_floating_point_v<T>) f(v);
  });
}

// ---- adamw_update: torch.optim.AdamW's single-tensor step, as the CPU's adamw().

// What every element shares, computed on the host in doubles as the CPU does.
template <typename T>
struct AdamW {
  T decay, l2, weight, one_minus_weight, beta2, one_minus_beta2, eps, step_size, correction2_sqrt;
  bool small_weight, decoupled, add_l2;
};

// decoupled: AdamW's decay of the parameter; else Adam's L2 term added to the gradient.
template <typename T>
AdamW<T> adamw_constants(const Attrs& attrs, bool decoupled) {
  const double lr = attrs.get_float("lr"), beta1 = attrs.get_float("beta1"), beta2 = attrs.get_float("beta2");
  const double step = static_cast<double>(attrs.get_int("step"));
  AdamW<T> c;
  const double weight_decay = attrs.get_float("weight_decay");
  c.decay = static_cast<T>(decoupled ? 1 - lr * weight_decay : 1);
  c.l2 = static_cast<T>(weight_decay);
  c.decoupled = decoupled;
  c.add_l2 = !decoupled && weight_decay != 0;
  c.weight = static_cast<T>(1 - beta1);
  c.one_minus_weight = 1 - c.weight;
  c.beta2 = static_cast<T>(beta2);
  c.one_minus_beta2 = static_cast<T>(1 - beta2);
  c.eps = static_cast<T>(attrs.get_float("eps"));
  c.step_size = static_cast<T>(lr / (1 - std::pow(beta1, step)));
  c.correction2_sqrt = static_cast<T>(std::sqrt(1 - std::pow(beta2, step)));
  c.small_weight = c.weight < static_cast<T>(0.5);
  return c;
}

// Decoupled weight decay (or Adam's L2 gradient term), then the moments (exp_avg by lerp,
// as torch does), then the bias-corrected update.
// Each output may be its input's memory (an in-place step: vm.h's Flags::overwrite), so only
// the gradient is __restrict__; each element is read before it is written.
template <typename T>
__global__ void adamw_kernel(const T* param, const T* __restrict__ grad, const T* exp_avg, const T* exp_avg_sq,
                             T* param_out, T* exp_avg_out, T* exp_avg_sq_out, int64_t n, AdamW<T> c) {
  const int64_t grid_step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += grid_step) {
    const T g = c.add_l2 ? add(grad[i], mul(c.l2, param[i])) : grad[i], m0 = exp_avg[i];
    const T m = c.small_weight ? add(m0, mul(c.weight, sub(g, m0))) : sub(g, mul(sub(g, m0), c.one_minus_weight));
    const T v = add(mul(exp_avg_sq[i], c.beta2), mul(c.one_minus_beta2, mul(g, g)));
    const T denom = add(div(root(v), c.correction2_sqrt), c.eps);
    param_out[i] = sub(c.decoupled ? mul(param[i], c.decay) : param[i], mul(c.step_size, div(m, denom)));
    exp_avg_out[i] = m;
    exp_avg_sq_out[i] = v;
  }
}

std::vector<Tensor> adam_family_update(const std::vector<Tensor>& in, const KernelContext& ctx, bool decoupled) {
  const std::vector<Tensor> out = outputs_like(in, ctx, 3);
  const int64_t n = in[0].numel();
  if (n == 0) return out;
  visit_floating(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    adamw_kernel<T><<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(
        in[0].data_as<T>(), in[1].data_as<T>(), in[2].data_as<T>(), in[3].data_as<T>(), out[0].data_as<T>(),
        out[1].data_as<T>(), out[2].data_as<T>(), n, adamw_constants<T>(ctx.attrs, decoupled));
    check_launch(decoupled ? "adamw_update" : "adam_update");
  });
  return out;
}

std::vector<Tensor> adamw_update(const std::vector<Tensor>& in, const KernelContext& ctx) {
  return adam_family_update(in, ctx, true);
}

std::vector<Tensor> adam_update(const std::vector<Tensor>& in, const KernelContext& ctx) {
  return adam_family_update(in, ctx, false);
}

// ---- sgd_update: torch.optim.SGD's single-tensor step, as the CPU's sgd().

template <typename T>
struct Sgd {
  T lr, momentum, weight_decay, keep;
  bool decay, nesterov;
};

// buf is null without a buffer (the first step: it starts as the gradient); buf_out is
// null without momentum.
// param_out and buf_out may be param's and buf's memory (in place), as adamw_kernel's.
template <typename T>
__global__ void sgd_kernel(const T* param, const T* __restrict__ grad, const T* buf, T* param_out, T* buf_out,
                           int64_t n, Sgd<T> c) {
  const int64_t grid_step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += grid_step) {
    T d = c.decay ? add(grad[i], mul(c.weight_decay, param[i])) : grad[i];
    if (buf_out) {
      const T b = buf ? add(mul(buf[i], c.momentum), mul(c.keep, d)) : d;
      buf_out[i] = b;
      d = c.nesterov ? add(d, mul(c.momentum, b)) : b;
    }
    param_out[i] = sub(param[i], mul(c.lr, d));
  }
}

std::vector<Tensor> sgd_update(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const std::vector<Tensor> out = outputs_like(in, ctx, ctx.outputs.size());
  const int64_t n = in[0].numel();
  if (n == 0) return out;
  const bool has_buf = ctx.attrs.get_bool("has_buf");
  const double weight_decay = ctx.attrs.get_float("weight_decay");
  visit_floating(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    const Sgd<T> c{static_cast<T>(ctx.attrs.get_float("lr")),
                   static_cast<T>(ctx.attrs.get_float("momentum")),
                   static_cast<T>(weight_decay),
                   static_cast<T>(1 - ctx.attrs.get_float("dampening")),
                   weight_decay != 0,
                   ctx.attrs.get_bool("nesterov")};
    sgd_kernel<T><<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(
        in[0].data_as<T>(), in[1].data_as<T>(), has_buf ? in[2].data_as<T>() : nullptr, out[0].data_as<T>(),
        out.size() > 1 ? out[1].data_as<T>() : nullptr, n, c);
    check_launch("sgd_update");
  });
  return out;
}

}  // namespace

void add_optimizer_kernels(KernelTable& t) {
  t["adamw_update"] = adamw_update;
  t["adam_update"] = adam_update;
  t["sgd_update"] = sgd_update;
}

}  // namespace mf::cuda
