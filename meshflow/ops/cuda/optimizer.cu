// Copyright 2026 The meshflow Authors.
// The CUDA kernels of the optimizer updates (ops/optimizer_ops.cc): adamw_update,
// adam_update and sgd_update, one elementwise pass each of the CPU's per-element math
// (ops/optimizer_math.h), whose every operation rounds once as the CPU's: the GPU gives the
// CPU's bits, step after step, instead of drifting from it.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "meshflow/ops/cuda/cuda_kernels.h"
#include "meshflow/ops/optimizer_math.h"

namespace mf::cuda {
namespace {

constexpr int kThreads = 256;

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

// ---- adamw_update, adam_update: optim::AdamWStep per element.

// No pointer is __restrict__ but the gradient's: each output may be its input's memory.
template <bool kL2, bool kAmsgrad, typename T>
__global__ void adamw_kernel(optim::AdamWData<T> d, int64_t n, optim::AdamWStep<T> c) {
  const T* __restrict__ grad = d.grad;
  const int64_t grid_step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += grid_step) {
    const optim::AdamWResult<T> r = c.template apply<kL2, kAmsgrad>(d.param[i], grad[i], d.exp_avg[i], d.exp_avg_sq[i],
                                                                    kAmsgrad ? d.max_exp_avg_sq[i] : T{0});
    if constexpr (kAmsgrad) d.max_exp_avg_sq_out[i] = r.max_exp_avg_sq;
    d.param_out[i] = r.param;
    d.exp_avg_out[i] = r.exp_avg;
    d.exp_avg_sq_out[i] = r.exp_avg_sq;
  }
}

std::vector<Tensor> adam_family_update(const std::vector<Tensor>& in, const KernelContext& ctx, bool decoupled) {
  const optim::AdamWHyper h = optim::AdamWHyper::of(ctx.attrs, decoupled);
  const std::vector<Tensor> out = outputs_like(in, ctx, h.amsgrad ? 4 : 3);
  const int64_t n = in[0].numel();
  if (n == 0) return out;
  visit_floating(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    const optim::AdamWData<T> d{in[0].data_as<T>(),  in[1].data_as<T>(),  in[2].data_as<T>(),
                                in[3].data_as<T>(),  h.amsgrad ? in[4].data_as<T>() : nullptr,
                                out[0].data_as<T>(), out[1].data_as<T>(), out[2].data_as<T>(),
                                h.amsgrad ? out[3].data_as<T>() : nullptr};
    const auto kernel = h.l2() ? (h.amsgrad ? adamw_kernel<true, true, T> : adamw_kernel<true, false, T>)
                               : (h.amsgrad ? adamw_kernel<false, true, T> : adamw_kernel<false, false, T>);
    kernel<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(d, n, optim::AdamWStep<T>::make(h));
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

// ---- sgd_update: optim::SgdStep per element.

// buf is null without a buffer (the first step); buf_out is null without momentum.
// param_out and buf_out may be param's and buf's memory (in place), as adamw_kernel's.
template <typename T>
__global__ void sgd_kernel(const T* param, const T* __restrict__ grad, const T* buf, T* param_out, T* buf_out,
                           int64_t n, optim::SgdStep<T> c) {
  const int64_t grid_step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += grid_step) {
    const optim::SgdResult<T> r = c.apply(param[i], grad[i], buf ? buf[i] : T{0});
    if (buf_out) buf_out[i] = r.momentum_buf;
    param_out[i] = r.param;
  }
}

std::vector<Tensor> sgd_update(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const std::vector<Tensor> out = outputs_like(in, ctx, ctx.outputs.size());
  const int64_t n = in[0].numel();
  if (n == 0) return out;
  const optim::SgdHyper h = optim::SgdHyper::of(ctx.attrs);
  visit_floating(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    sgd_kernel<T><<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(
        in[0].data_as<T>(), in[1].data_as<T>(), h.has_buf ? in[2].data_as<T>() : nullptr, out[0].data_as<T>(),
        out.size() > 1 ? out[1].data_as<T>() : nullptr, n, optim::SgdStep<T>::make(h));
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
