// Copyright 2026 The meshflow Authors.
// The CUDA kernels of batch_norm and batch_norm_backward (ops/batch_norm.cc), float32: a block
// per channel sums its N * spatial values, shifted by the channel's first value, in double,
// each thread a fixed stride of them and the block in a fixed tree (shapes alone decide the
// order, so replicas agree bit for bit), and forms the channel's coefficients; then one thread
// per element normalizes or forms dx. From the sums on, the math is the CPU's
// (ops/norm_math.h). bfloat16 has no kernel here (fn::batch_norm composes it on GPUs). Group
// norm's, float32 and float64, sum the same way, a block per (sample, group).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "meshflow/ops/cuda/cuda_kernels.h"
#include "meshflow/ops/cuda/device_util.cuh"
#include "meshflow/ops/norm_math.h"

namespace mf::cuda {
namespace {

constexpr int kThreads = 256;

bool flag(const Attrs& attrs, const char* key) { return attrs.has(key) && attrs.get_bool(key); }
double eps_attr(const Attrs& attrs) { return attrs.has("eps") ? attrs.get_float("eps") : 1e-5; }

// x as [batch, channels, spatial].
struct Dims {
  int64_t batch, channels, spatial;
};

Dims dims_of(const Tensor& x) {
  const int64_t n = x.shape()[0], c = x.shape()[1];
  return {n, c, n * c == 0 ? 0 : x.numel() / (n * c)};
}

// Element i (of batch * spatial) of channel c.
__device__ int64_t at(const Dims& d, int64_t c, int64_t i) {
  return (i / d.spatial * d.channels + c) * d.spatial + i % d.spatial;
}

// The sum of v over the block's threads (kThreads of them), in a fixed tree.
__device__ double block_sum(double v, double* shared) {
  shared[threadIdx.x] = v;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) shared[threadIdx.x] += shared[threadIdx.x + s];
    __syncthreads();
  }
  const double total = shared[0];
  __syncthreads();
  return total;
}

// Block c: channel c's sums shifted by its first value, in double, then (norm_math.h) its mean
// and biased variance, and y's coefficients for bn_normalize: first, scale, shift.
__global__ void bn_stats(Dims d, const float* __restrict__ x, const float* __restrict__ w,
                         const float* __restrict__ b, double eps, float* mean, float* var, float* coefficients) {
  __shared__ double shared[kThreads];
  const int64_t c = blockIdx.x, m = d.batch * d.spatial;
  const float first = m > 0 ? x[at(d, c, 0)] : 0.0f;
  double s = 0, q = 0;
  for (int64_t i = threadIdx.x; i < m; i += kThreads) {
    const double t = static_cast<double>(x[at(d, c, i)] - first);
    s += t;
    q += t * t;
  }
  const double sum = block_sum(s, shared), squares = block_sum(q, shared);
  if (threadIdx.x != 0) return;
  const normmath::Moments mo = normmath::moments(sum, squares, static_cast<double>(m), eps);
  mean[c] = static_cast<float>(first + mo.offset), var[c] = static_cast<float>(mo.variance);
  const normmath::Affine f = normmath::forward_affine(w ? w[c] : 1.0, b ? b[c] : 0.0, mo.offset, mo.rstd);
  coefficients[3 * c] = first, coefficients[3 * c + 1] = static_cast<float>(f.scale);
  coefficients[3 * c + 2] = static_cast<float>(f.shift);
}

__global__ void bn_normalize(Dims d, const float* __restrict__ x, const float* __restrict__ coefficients,
                             float* __restrict__ y, int64_t total) {
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const float* f = coefficients + 3 * (e / d.spatial % d.channels);
    y[e] = normmath::normalized(x[e], f[0], f[1], f[2]);
  }
}

// Block c: channel c's sum(dy) and sum(dy (x - first)) in double; then (norm_math.h) dweight
// = sum(dy xhat) and dbias = sum(dy) where asked, and dx's coefficients for bn_dx: first, k,
// a, b (with the statistics' gradients dmean and dvar).
struct GradArgs {
  const float *x, *dy, *mean, *var, *dmean, *dvar, *w;
  double eps;
  float *dweight, *dbias, *coefficients;
};

__global__ void bn_grad_sums(Dims d, GradArgs g) {
  __shared__ double shared[kThreads];
  const int64_t c = blockIdx.x, m = d.batch * d.spatial;
  const float first = m > 0 ? g.x[at(d, c, 0)] : 0.0f;
  double s = 0, sx = 0;
  for (int64_t i = threadIdx.x; i < m; i += kThreads) {
    const int64_t e = at(d, c, i);
    s += g.dy[e];
    sx += static_cast<double>(g.dy[e]) * static_cast<double>(g.x[e] - first);
  }
  const double sum = block_sum(s, shared), shifted = block_sum(sx, shared);
  if (threadIdx.x != 0) return;
  const double offset = static_cast<double>(g.mean[c]) - first, rstd = normmath::rstd_of(g.var[c], g.eps);
  const double dxhat = normmath::sum_dy_xhat(sum, shifted, offset, rstd), weight = g.w ? g.w[c] : 1.0;
  if (g.dweight) g.dweight[c] = static_cast<float>(dxhat);
  if (g.dbias) g.dbias[c] = static_cast<float>(sum);
  const normmath::BackwardAffine k = normmath::backward_affine(weight * sum, weight * dxhat, offset, rstd,
                                                               static_cast<double>(m), g.dmean[c], g.dvar[c]);
  float* out = g.coefficients + 4 * c;
  out[0] = first, out[1] = static_cast<float>(weight * rstd), out[2] = static_cast<float>(k.a);
  out[3] = static_cast<float>(k.b);
}

__global__ void bn_dx(Dims d, const float* __restrict__ x, const float* __restrict__ dy,
                      const float* __restrict__ coefficients, float* __restrict__ dx, int64_t total) {
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const float* k = coefficients + 4 * (e / d.spatial % d.channels);
    dx[e] = normmath::backward_value(dy[e], x[e], k[0], k[1], k[2], k[3]);
  }
}

void expect_float32(const char* op, DType dtype) {
  if (dtype != DType::kFloat32) {
    op_error(op, std::string("has no CUDA kernel for ") + dtype_name(dtype) +
                     " tensors; cast to float32 first, or run it on the CPU");
  }
}

std::vector<Tensor> batch_norm(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const Tensor& x = in[0];
  expect_float32("batch_norm", x.dtype());
  const Dims d = dims_of(x);
  Memory& mem = memory_of(in);
  Tensor y = output(ctx, 0, x.shape(), x.dtype(), mem);
  Tensor mean = output(ctx, 1, {d.channels}, DType::kFloat32, mem), var = output(ctx, 2, {d.channels}, DType::kFloat32, mem);
  if (d.channels == 0) return {y, mean, var};
  // Without values the statistics are 0 / 0: NaN, as on the CPU.
  const std::shared_ptr<void> coefficients = mem.allocate(3 * d.channels * sizeof(float));
  bn_stats<<<static_cast<unsigned>(d.channels), kThreads, 0, stream()>>>(
      d, x.data_as<float>(), has_weight ? in[1].data_as<float>() : nullptr,
      has_bias ? in[1 + has_weight].data_as<float>() : nullptr, eps_attr(ctx.attrs), mean.data_as<float>(),
      var.data_as<float>(), static_cast<float*>(coefficients.get()));
  check_launch("bn_stats");
  if (x.numel() == 0) return {y, mean, var};
  bn_normalize<<<blocks_for(x.numel(), kThreads), kThreads, 0, stream()>>>(
      d, x.data_as<float>(), static_cast<const float*>(coefficients.get()), y.data_as<float>(), x.numel());
  check_launch("bn_normalize");
  return {y, mean, var};
}

std::vector<Tensor> batch_norm_backward(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const Tensor &x = in[0], &dy = in[1];
  expect_float32("batch_norm_backward", x.dtype());
  const Dims d = dims_of(x);
  Memory& mem = memory_of(in);
  std::vector<Tensor> out{output(ctx, 0, x.shape(), x.dtype(), mem)};
  for (int i = 0; i < has_weight + has_bias; ++i) out.push_back(output(ctx, out.size(), {d.channels}, x.dtype(), mem));
  if (d.channels == 0) return out;
  const std::shared_ptr<void> coefficients = mem.allocate(4 * d.channels * sizeof(float));
  const GradArgs args{x.data_as<float>(),
                      dy.data_as<float>(),
                      in[2].data_as<float>(),
                      in[3].data_as<float>(),
                      in[4].data_as<float>(),
                      in[5].data_as<float>(),
                      has_weight ? in[6].data_as<float>() : nullptr,
                      eps_attr(ctx.attrs),
                      has_weight ? out[1].data_as<float>() : nullptr,
                      has_bias ? out.back().data_as<float>() : nullptr,
                      static_cast<float*>(coefficients.get())};
  bn_grad_sums<<<static_cast<unsigned>(d.channels), kThreads, 0, stream()>>>(d, args);
  check_launch("bn_grad_sums");
  if (x.numel() == 0) return out;
  bn_dx<<<blocks_for(x.numel(), kThreads), kThreads, 0, stream()>>>(
      d, x.data_as<float>(), dy.data_as<float>(), static_cast<const float*>(coefficients.get()),
      out[0].data_as<float>(), x.numel());
  check_launch("bn_dx");
  return out;
}

// ---------------------------------------------------------------------------------------------
// group_norm, group_norm_backward (float32 and float64): a block per (sample, group), whose
// D * spatial values are contiguous; its sums are shifted by the group's first value, as the
// CPU's.

struct GroupDims {
  int64_t batch, channels, spatial, groups, per_group;
  __host__ __device__ int64_t size() const { return per_group * spatial; }  // a group's values
};

GroupDims group_dims_of(const Tensor& x, const Attrs& attrs) {
  const Dims d = dims_of(x);
  const int64_t groups = attrs.get_int("num_groups");
  return {d.batch, d.channels, d.spatial, groups, d.channels / groups};
}

// The group's first value and its moments (norm_math.h).
template <typename T>
struct GroupStats {
  T first;
  normmath::Moments m;
};

template <typename T>
__device__ GroupStats<T> group_stats(const GroupDims& d, const T* x, double eps, double* shared) {
  const int64_t size = d.per_group * d.spatial;
  const T first = x[0];
  double s = 0, q = 0;
  for (int64_t i = threadIdx.x; i < size; i += kThreads) {
    const double t = static_cast<double>(x[i] - first);
    s += t;
    q += t * t;
  }
  const double sum = block_sum(s, shared), squares = block_sum(q, shared);
  return {first, normmath::moments(sum, squares, static_cast<double>(size), eps)};
}

template <typename T>
__global__ void gn_forward(GroupDims d, const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ b,
                           double eps, T* __restrict__ y) {
  __shared__ double shared[kThreads];
  const int64_t c0 = blockIdx.x % d.groups * d.per_group;
  const int64_t at = (blockIdx.x / d.groups * d.channels + c0) * d.spatial;
  const GroupStats<T> g = group_stats(d, x + at, eps, shared);
  for (int64_t i = threadIdx.x; i < d.size(); i += kThreads) {
    const int64_t c = c0 + i / d.spatial;
    const normmath::Affine f = normmath::forward_affine(w ? static_cast<double>(w[c]) : 1.0,
                                                        b ? static_cast<double>(b[c]) : 0.0, g.m.offset, g.m.rstd);
    y[at + i] = normmath::normalized(x[at + i], g.first, static_cast<T>(f.scale), static_cast<T>(f.shift));
  }
}

// dx (norm_math.h) over the group; each (sample, channel)'s sum(dy) and sum(dy xhat) go to
// sums [N, C, 2] for gn_param_totals.
template <typename T>
__global__ void gn_backward(GroupDims d, const T* __restrict__ x, const T* __restrict__ w, const T* __restrict__ dy,
                            double eps, T* __restrict__ dx, double* sums) {
  __shared__ double shared[kThreads];
  const int64_t n = blockIdx.x / d.groups, c0 = blockIdx.x % d.groups * d.per_group;
  const int64_t at = (n * d.channels + c0) * d.spatial;
  const GroupStats<T> g = group_stats(d, x + at, eps, shared);
  double sum_g = 0, sum_gx = 0;
  for (int64_t c = c0; c < c0 + d.per_group; ++c) {
    const int64_t plane = at + (c - c0) * d.spatial;
    double s = 0, sx = 0;
    for (int64_t i = threadIdx.x; i < d.spatial; i += kThreads) {
      const double grad = dy[plane + i];
      s += grad;
      sx += grad * static_cast<double>(x[plane + i] - g.first);
    }
    const double sum = block_sum(s, shared);
    const double centered = normmath::sum_dy_xhat(sum, block_sum(sx, shared), g.m.offset, g.m.rstd);
    if (threadIdx.x == 0) sums[2 * (n * d.channels + c)] = sum, sums[2 * (n * d.channels + c) + 1] = centered;
    const double weight = w ? static_cast<double>(w[c]) : 1.0;
    sum_g += weight * sum;
    sum_gx += weight * centered;
  }
  const normmath::BackwardAffine k =
      normmath::backward_affine(sum_g, sum_gx, g.m.offset, g.m.rstd, static_cast<double>(d.size()));
  for (int64_t i = threadIdx.x; i < d.size(); i += kThreads) {
    const int64_t c = c0 + i / d.spatial;
    const T scale = static_cast<T>((w ? static_cast<double>(w[c]) : 1.0) * g.m.rstd);
    dx[at + i] = normmath::backward_value(dy[at + i], x[at + i], g.first, scale, static_cast<T>(k.a),
                                          static_cast<T>(k.b));
  }
}

// dweight and dbias: each channel's sums over the samples, in order.
template <typename T>
__global__ void gn_param_totals(GroupDims d, const double* __restrict__ sums, T* dweight, T* dbias) {
  for (int64_t c = first_index(); c < d.channels; c += grid_step()) {
    double sum = 0, centered = 0;
    for (int64_t n = 0; n < d.batch; ++n) sum += sums[2 * (n * d.channels + c)], centered += sums[2 * (n * d.channels + c) + 1];
    if (dweight) dweight[c] = static_cast<T>(centered);
    if (dbias) dbias[c] = static_cast<T>(sum);
  }
}

// Calls f(T{}) for float32 and float64; other dtypes reach the group norm kernels widened.
template <typename F>
void visit_group_norm(const char* op, DType dtype, F f) {
  if (dtype == DType::kFloat64) {
    f(double{});
  } else {
    expect_float32(op, dtype);
    f(float{});
  }
}

std::vector<Tensor> group_norm(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const Tensor& x = in[0];
  const GroupDims d = group_dims_of(x, ctx.attrs);
  Tensor y = output(ctx, 0, x.shape(), x.dtype(), memory_of(in));
  if (x.numel() == 0) return {y};
  visit_group_norm("group_norm", x.dtype(), [&](auto v) {
    using T = decltype(v);
    gn_forward<<<static_cast<unsigned>(d.batch * d.groups), kThreads, 0, stream()>>>(
        d, x.data_as<T>(), has_weight ? in[1].data_as<T>() : nullptr,
        has_bias ? in[1 + has_weight].data_as<T>() : nullptr, eps_attr(ctx.attrs),
        y.data_as<T>());
    check_launch("gn_forward");
  });
  return {y};
}

std::vector<Tensor> group_norm_backward(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const Tensor &x = in[0], &dy = in.back();
  const GroupDims d = group_dims_of(x, ctx.attrs);
  Memory& mem = memory_of(in);
  std::vector<Tensor> out{output(ctx, 0, x.shape(), x.dtype(), mem)};
  for (int i = 0; i < has_weight + has_bias; ++i) out.push_back(output(ctx, out.size(), {d.channels}, x.dtype(), mem));
  if (d.channels == 0) return out;
  const std::shared_ptr<void> sums = mem.allocate(2 * std::max<int64_t>(d.batch, 1) * d.channels * sizeof(double));
  visit_group_norm("group_norm_backward", x.dtype(), [&](auto v) {
    using T = decltype(v);
    if (x.numel() > 0) {
      gn_backward<<<static_cast<unsigned>(d.batch * d.groups), kThreads, 0, stream()>>>(
          d, x.data_as<T>(), has_weight ? in[1].data_as<T>() : nullptr, dy.data_as<T>(),
          eps_attr(ctx.attrs), out[0].data_as<T>(), static_cast<double*>(sums.get()));
      check_launch("gn_backward");
    }
    gn_param_totals<<<blocks_for(d.channels, kThreads), kThreads, 0, stream()>>>(
        d, static_cast<const double*>(sums.get()), has_weight ? out[1].data_as<T>() : nullptr,
        has_bias ? out.back().data_as<T>() : nullptr);
    check_launch("gn_param_totals");
  });
  return out;
}

}  // namespace

void add_batch_norm_kernels(OpRegistry& r) {
  r.add_kernel("cuda", "batch_norm", batch_norm);
  r.add_kernel("cuda", "batch_norm_backward", batch_norm_backward);
  r.add_kernel("cuda", "group_norm", group_norm);
  r.add_kernel("cuda", "group_norm_backward", group_norm_backward);
}

}  // namespace mf::cuda
