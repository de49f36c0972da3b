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
  T decay, l2, sign, weight, one_minus_weight, beta2, one_minus_beta2, eps, step_size, correction2_sqrt;
  bool small_weight, decoupled, add_l2, amsgrad;
};

// An optional boolean attribute: false when absent (amsgrad, maximize).
bool flag(const Attrs& attrs, const char* key) { return attrs.has(key) && attrs.get_bool(key); }

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
  c.sign = static_cast<T>(flag(attrs, "maximize") ? -1 : 1);
  c.amsgrad = flag(attrs, "amsgrad");
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

// The pointers of one step: max_exp_avg_sq (and its output) null without amsgrad.
template <typename T>
struct AdamWData {
  const T *param, *grad, *exp_avg, *exp_avg_sq, *max_exp_avg_sq;
  T *param_out, *exp_avg_out, *exp_avg_sq_out, *max_exp_avg_sq_out;
};

// The gradient negated under maximize, decoupled weight decay (or Adam's L2 gradient term),
// then the moments (exp_avg by lerp, as torch does), then the bias-corrected update, its
// denominator from the running maximum of exp_avg_sq under amsgrad.
// Each output may be its input's memory (an in-place step: vm.h's Flags::overwrite), so no
// pointer is __restrict__ but the gradient's; each element is read before it is written.
template <typename T>
__global__ void adamw_kernel(AdamWData<T> d, int64_t n, AdamW<T> c) {
  const T* __restrict__ grad = d.grad;
  const int64_t grid_step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += grid_step) {
    const T raw = mul(c.sign, grad[i]);
    const T g = c.add_l2 ? add(raw, mul(c.l2, d.param[i])) : raw, m0 = d.exp_avg[i];
    const T m = c.small_weight ? add(m0, mul(c.weight, sub(g, m0))) : sub(g, mul(sub(g, m0), c.one_minus_weight));
    const T v = add(mul(d.exp_avg_sq[i], c.beta2), mul(c.one_minus_beta2, mul(g, g)));
    T top = v;
    if (c.amsgrad) {
      top = d.max_exp_avg_sq[i] < v ? v : d.max_exp_avg_sq[i];
      d.max_exp_avg_sq_out[i] = top;
    }
    const T denom = add(div(root(top), c.correction2_sqrt), c.eps);
    d.param_out[i] = sub(c.decoupled ? mul(d.param[i], c.decay) : d.param[i], mul(c.step_size, div(m, denom)));
    d.exp_avg_out[i] = m;
    d.exp_avg_sq_out[i] = v;
  }
}

std::vector<Tensor> adam_family_update(const std::vector<Tensor>& in, const KernelContext& ctx, bool decoupled) {
  const bool amsgrad = flag(ctx.attrs, "amsgrad");
  const std::vector<Tensor> out = outputs_like(in, ctx, amsgrad ? 4 : 3);
  const int64_t n = in[0].numel();
  if (n == 0) return out;
  visit_floating(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    const AdamWData<T> d{in[0].data_as<T>(),  in[1].data_as<T>(),  in[2].data_as<T>(),
                         in[3].data_as<T>(),  amsgrad ? in[4].data_as<T>() : nullptr,
                         out[0].data_as<T>(), out[1].data_as<T>(), out[2].data_as<T>(),
                         amsgrad ? out[3].data_as<T>() : nullptr};
    adamw_kernel<T><<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(d, n, adamw_constants<T>(ctx.attrs, decoupled));
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

// ---- sgd_update: torch.optim.SGD's single-tensor step, as the CPU's sgd() (maximize: on the
// negated gradient).

template <typename T>
struct Sgd {
  T lr, momentum, weight_decay, keep, sign;  // sign: -1 under maximize
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
    const T g = mul(c.sign, grad[i]);
    T d = c.decay ? add(g, mul(c.weight_decay, param[i])) : g;
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
                   static_cast<T>(flag(ctx.attrs, "maximize") ? -1 : 1),
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

void add_optimizer_kernels(OpRegistry& r) {
  r.add_kernel("cuda", "adamw_update", adamw_update);
  r.add_kernel("cuda", "adam_update", adam_update);
  r.add_kernel("cuda", "sgd_update", sgd_update);
}

}  // namespace mf::cuda
