// Copyright 2026 The meshflow Authors.
// Batch norm with the batch's statistics as one op and its backward op (and group norm, whose
// kernels share its sums and passes): one pass for the
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
//     gradient in dx (dmean and dvar, zeros unless a caller differentiates the statistics):
//     S(1), S(1), S(0), S(0), S(0), S(0), S(0) -> S(1), S(0), S(0).
//   group_norm(x[N, C, ...][, weight[C]][, bias[C]]; num_groups (dividing C), eps = 1e-5,
//     has_weight, has_bias = false) -> y: each sample's C / num_groups adjacent channels
//     normalized together (biased variance), then scaled and shifted per channel (torch's
//     group_norm).  S(0), B, B -> S(0).
//   group_norm_backward(x[, weight], dy; the forward's attributes) -> dx[, dweight][, dbias]:
//     S(0), B, S(0) -> S(0), P, P;  B, B, P -> P, P, P (linear in dy).
// The CPU's kernels (below) take float32, bfloat16 and float64, x row-major or channels-last
// (y and dx in x's format); the test device runs them on host views; CUDA's take float32
// (cuda/batch_norm.cu). For a create_graph backward the gradient is written in differentiable
// ops instead.
#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/core/loops.h"
#include "meshflow/ops/fast_math.h"
#include "meshflow/ops/norm_math.h"
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

// x [N, C, ...] as N planes of `spatial` contiguous values per channel.
struct Planes {
  int64_t batch = 0, channels = 0, spatial = 0;
  double eps = 1e-5;
  int64_t count() const { return batch * spatial; }  // the values of one channel
  int64_t at(int64_t n, int64_t c) const { return (n * channels + c) * spatial; }
};

Planes planes_of(const Tensor& x, const Attrs& attrs) {
  const Shape& s = x.shape();
  const int64_t n = s[0], c = s[1];
  return {n, c, n * c == 0 ? 0 : x.numel() / (n * c), eps_attr(attrs)};
}

// The CPU's kernels for float32, bfloat16 (computed in float32, rounded once) and float64:
// each channel's planes, one channel per thread, each pass a vectorized loop over a plane
// (oneDNN's primitive ran 3-5x slower on these plain NCHW tensors, most of it in reordering
// them to its channels-last layout and back). Sums go into 16 lanes in a fixed order (so
// every x86-64 level gives the same bits), and from them into a double for the channel every
// few thousand values.
template <typename T>
using Compute = std::conditional_t<std::is_same_v<T, double>, double, float>;

template <typename T>
MF_ALWAYS_INLINE Compute<T> wide(T v) {
  if constexpr (std::is_same_v<T, bfloat16>) {
    return to_float(v);
  } else {
    return v;
  }
}

template <typename T>
MF_ALWAYS_INLINE T narrow(Compute<T> v) {
  if constexpr (std::is_same_v<T, bfloat16>) {
    return to_bfloat16(v);
  } else {
    return v;
  }
}

constexpr int kLanes = 16;
constexpr int64_t kChunk = 4096;  // values summed in the compute type before a double takes them

// Per-lane sums of the compute type C, moved into a pair of doubles every kChunk values or so.
template <typename C>
struct LaneSums {
  C a[kLanes] = {}, b[kLanes] = {};
  int64_t pending = 0;
  void flush(double& sum_a, double& sum_b) {
    for (int l = 0; l < kLanes; ++l) sum_a += a[l], sum_b += b[l], a[l] = b[l] = C(0);
    pending = 0;
  }
  void counted(int64_t n, double& sum_a, double& sum_b) {
    if ((pending += n) >= kChunk) flush(sum_a, sum_b);
  }
};

// Over a channel's `planes` planes of n values (plane p at x + p * stride): a += sum of
// (x - shift), b += sum of (x - shift)^2.
template <typename T>
MF_MULTIVERSIONED void shifted_sums(const T* x, int64_t planes, int64_t stride, int64_t n, Compute<T> shift,
                                    double& a, double& b) {
  using C = Compute<T>;
  LaneSums<C> lanes;
  for (int64_t p = 0; p < planes; ++p) {
    for (int64_t start = 0; start < n; start += kChunk) {
      const T* row = x + p * stride;
      const int64_t end = std::min(n, start + kChunk);
      int64_t i = start;
      for (; i + kLanes <= end; i += kLanes) {
#pragma omp simd
        for (int l = 0; l < kLanes; ++l) {
          const C d = wide(row[i + l]) - shift;
          lanes.a[l] += d;
          lanes.b[l] += d * d;
        }
      }
      for (; i < end; ++i) {
        const C d = wide(row[i]) - shift;
        lanes.a[0] += d;
        lanes.b[0] += d * d;
      }
      lanes.counted(end - start, a, b);
    }
  }
  lanes.flush(a, b);
}

// Over a channel's planes as shifted_sums reads them: a += sum of dy, b += sum of dy (x - shift).
template <typename T>
MF_MULTIVERSIONED void gradient_sums(const T* x, const T* dy, int64_t planes, int64_t stride, int64_t n,
                                     Compute<T> shift, double& a, double& b) {
  using C = Compute<T>;
  LaneSums<C> lanes;
  for (int64_t p = 0; p < planes; ++p) {
    for (int64_t start = 0; start < n; start += kChunk) {
      const T *row = x + p * stride, *grad = dy + p * stride;
      const int64_t end = std::min(n, start + kChunk);
      int64_t i = start;
      for (; i + kLanes <= end; i += kLanes) {
#pragma omp simd
        for (int l = 0; l < kLanes; ++l) {
          const C g = wide(grad[i + l]);
          lanes.a[l] += g;
          lanes.b[l] += g * (wide(row[i + l]) - shift);
        }
      }
      for (; i < end; ++i) {
        const C g = wide(grad[i]);
        lanes.a[0] += g;
        lanes.b[0] += g * (wide(row[i]) - shift);
      }
      lanes.counted(end - start, a, b);
    }
  }
  lanes.flush(a, b);
}

// The output over [0, n) of values centered on `first` (norm_math.h): normalized, or with
// dy given, the backward's dx (k: weight rstd).
template <typename T>
MF_MULTIVERSIONED void affine(const T* x, const T* dy, int64_t n, Compute<T> first, Compute<T> scale,
                              Compute<T> shift, Compute<T> k, T* out) {
  if (dy) {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) {
      out[i] = narrow<T>(normmath::backward_value(wide(dy[i]), wide(x[i]), first, k, scale, shift));
    }
  } else {
#pragma omp simd
    for (int64_t i = 0; i < n; ++i) out[i] = narrow<T>(normmath::normalized(wide(x[i]), first, scale, shift));
  }
}

// One channels-last row of `channels` values: a[c] += x - first[c], b[c] += (x - first[c])^2.
template <typename T>
MF_MULTIVERSIONED void shifted_row(const T* x, const Compute<T>* first, int64_t channels, Compute<T>* a,
                                   Compute<T>* b) {
#pragma omp simd
  for (int64_t c = 0; c < channels; ++c) {
    const Compute<T> d = wide(x[c]) - first[c];
    a[c] += d;
    b[c] += d * d;
  }
}

// One channels-last row: a[c] += dy, b[c] += dy (x - first[c]).
template <typename T>
MF_MULTIVERSIONED void gradient_row(const T* x, const T* dy, const Compute<T>* first, int64_t channels,
                                    Compute<T>* a, Compute<T>* b) {
#pragma omp simd
  for (int64_t c = 0; c < channels; ++c) {
    const Compute<T> g = wide(dy[c]);
    a[c] += g;
    b[c] += g * (wide(x[c]) - first[c]);
  }
}

// One channels-last row of `affine`, the coefficients per channel (norm_math.h).
template <typename T>
MF_MULTIVERSIONED void affine_row(const T* x, const T* dy, int64_t channels, const Compute<T>* first,
                                  const Compute<T>* scale, const Compute<T>* shift, const Compute<T>* k, T* out) {
  if (dy) {
#pragma omp simd
    for (int64_t c = 0; c < channels; ++c) {
      out[c] = narrow<T>(normmath::backward_value(wide(dy[c]), wide(x[c]), first[c], k[c], scale[c], shift[c]));
    }
  } else {
#pragma omp simd
    for (int64_t c = 0; c < channels; ++c) out[c] = narrow<T>(normmath::normalized(wide(x[c]), first[c], scale[c], shift[c]));
  }
}


// Statistics from sums shifted by the channel's first value, then y (norm_math.h). S: the
// statistics' dtype.
template <typename T, typename S>
void forward_planes(const Planes& p, const T* x, const T* w, const T* b, S* mean, S* var, T* y) {
  using C = Compute<T>;
  const double m = static_cast<double>(p.count());
  kernel::parallel_for(p.channels, p.count() * p.channels > kernel::kParallelGrain, [&](int64_t c) {
    const C first = wide(x[p.at(0, c)]);
    double sum = 0, squares = 0;
    shifted_sums(x + p.at(0, c), p.batch, p.channels * p.spatial, p.spatial, first, sum, squares);
    const normmath::Moments mo = normmath::moments(sum, squares, m, p.eps);
    mean[c] = static_cast<S>(first + mo.offset), var[c] = static_cast<S>(mo.variance);
    const normmath::Affine f = normmath::forward_affine(w ? wide(w[c]) : 1, b ? wide(b[c]) : 0, mo.offset, mo.rstd);
    for (int64_t n = 0; n < p.batch; ++n) {
      affine<T>(x + p.at(n, c), nullptr, p.spatial, first, static_cast<C>(f.scale), static_cast<C>(f.shift), 0,
                y + p.at(n, c));
    }
  });
}

// dx (norm_math.h, with the statistics' gradients dmean and dvar, zeros unless a caller
// differentiates them), dweight = sum(dy xhat), dbias = sum(dy).
template <typename T, typename S>
void backward_planes(const Planes& p, const T* x, const T* dy, const T* w, const S* mean, const S* var,
                     const S* dmean, const S* dvar, T* dx, T* dweight, T* dbias) {
  using C = Compute<T>;
  const double m = static_cast<double>(p.count());
  kernel::parallel_for(p.channels, p.count() * p.channels > kernel::kParallelGrain, [&](int64_t c) {
    // Centered on the channel's first value, whose difference with every value is exact
    // where they are close (a large mean, a small spread); the mean's offset from it is
    // added in doubles.
    const C first = wide(x[p.at(0, c)]);
    const double offset = static_cast<double>(mean[c]) - first, rstd = normmath::rstd_of(var[c], p.eps);
    double sum = 0, sum_shifted = 0;
    gradient_sums(x + p.at(0, c), dy + p.at(0, c), p.batch, p.channels * p.spatial, p.spatial, first, sum,
                  sum_shifted);
    const double dxhat = normmath::sum_dy_xhat(sum, sum_shifted, offset, rstd), weight = w ? wide(w[c]) : 1;
    if (dweight) dweight[c] = narrow<T>(static_cast<C>(dxhat));
    if (dbias) dbias[c] = narrow<T>(static_cast<C>(sum));
    const normmath::BackwardAffine g =
        normmath::backward_affine(weight * sum, weight * dxhat, offset, rstd, m, dmean[c], dvar[c]);
    for (int64_t n = 0; n < p.batch; ++n) {
      affine<T>(x + p.at(n, c), dy + p.at(n, c), p.spatial, first, static_cast<C>(g.a), static_cast<C>(g.b),
                static_cast<C>(weight * rstd), dx + p.at(n, c));
    }
  });
}

// The same over a channels-last x, [rows, C] with rows = N * spatial: each channel's sums in
// the compute type over blocks of kRowBlock rows (a vectorized loop over the channels), added
// into doubles in block order, so the bits do not depend on the threads.
constexpr int64_t kRowBlock = 256;

// Per channel c, a[c] += sum of d and b[c] += sum of d e over the rows of x, where d and e are
// sum_terms(row, c) (partials[block][2][C], block order).
template <typename T, typename Terms>
void row_sums(const Planes& p, Terms terms, double* a, double* b) {
  using C = Compute<T>;
  const int64_t rows = p.count(), channels = p.channels, blocks = (rows + kRowBlock - 1) / kRowBlock;
  std::vector<C> partials(static_cast<size_t>(blocks * 2 * channels));
  kernel::parallel_for(blocks, rows * channels > kernel::kParallelGrain, [&](int64_t block) {
    C* pa = partials.data() + block * 2 * channels;
    C* pb = pa + channels;
    for (int64_t r = block * kRowBlock, end = std::min(rows, r + kRowBlock); r < end; ++r) terms(r, pa, pb);
  });
  for (int64_t block = 0; block < blocks; ++block) {
    const C* pa = partials.data() + block * 2 * channels;
    for (int64_t c = 0; c < channels; ++c) a[c] += pa[c], b[c] += pa[channels + c];
  }
}

// out[r, c] = (x[r, c] - center[c]) scale[c] + shift[c] (+ dy[r, c] dy_scale[c] where dy is
// given), rows on the team.
template <typename T>
void affine_rows(const Planes& p, const T* x, const T* dy, const std::vector<Compute<T>>& center,
                 const std::vector<Compute<T>>& scale, const std::vector<Compute<T>>& shift,
                 const std::vector<Compute<T>>& dy_scale, T* out) {
  const int64_t rows = p.count(), channels = p.channels, blocks = (rows + kRowBlock - 1) / kRowBlock;
  kernel::parallel_for(blocks, rows * channels > kernel::kParallelGrain, [&](int64_t block) {
    for (int64_t r = block * kRowBlock, end = std::min(rows, r + kRowBlock); r < end; ++r) {
      if (dy) {
        affine_row(x + r * channels, dy + r * channels, channels, center.data(), scale.data(), shift.data(),
                   dy_scale.data(), out + r * channels);
      } else {
        affine_row<T>(x + r * channels, nullptr, channels, center.data(), scale.data(), shift.data(), nullptr,
                      out + r * channels);
      }
    }
  });
}

template <typename T, typename S>
void forward_rows(const Planes& p, const T* x, const T* w, const T* b, S* mean, S* var, T* y) {
  using C = Compute<T>;
  const int64_t channels = p.channels;
  const double m = static_cast<double>(p.count());
  std::vector<C> first(channels), scale(channels), shift(channels);
  for (int64_t c = 0; c < channels; ++c) first[c] = wide(x[c]);
  std::vector<double> sum(channels), squares(channels);
  row_sums<T>(p, [&](int64_t r, C* a, C* bb) { shifted_row(x + r * channels, first.data(), channels, a, bb); },
              sum.data(), squares.data());
  for (int64_t c = 0; c < channels; ++c) {
    const normmath::Moments mo = normmath::moments(sum[c], squares[c], m, p.eps);
    mean[c] = static_cast<S>(first[c] + mo.offset), var[c] = static_cast<S>(mo.variance);
    const normmath::Affine f = normmath::forward_affine(w ? wide(w[c]) : 1, b ? wide(b[c]) : 0, mo.offset, mo.rstd);
    scale[c] = static_cast<C>(f.scale), shift[c] = static_cast<C>(f.shift);
  }
  affine_rows<T>(p, x, nullptr, first, scale, shift, {}, y);
}

template <typename T, typename S>
void backward_rows(const Planes& p, const T* x, const T* dy, const T* w, const S* mean, const S* var,
                   const S* dmean, const S* dvar, T* dx, T* dweight, T* dbias) {
  using C = Compute<T>;
  const int64_t channels = p.channels;
  const double m = static_cast<double>(p.count());
  std::vector<C> first(channels), a(channels), b(channels), k(channels);
  for (int64_t c = 0; c < channels; ++c) first[c] = wide(x[c]);
  std::vector<double> sum(channels), sum_shifted(channels);
  row_sums<T>(
      p, [&](int64_t r, C* pa, C* pb) { gradient_row(x + r * channels, dy + r * channels, first.data(), channels, pa, pb); },
      sum.data(), sum_shifted.data());
  for (int64_t c = 0; c < channels; ++c) {
    const double offset = static_cast<double>(mean[c]) - first[c], rstd = normmath::rstd_of(var[c], p.eps);
    const double dxhat = normmath::sum_dy_xhat(sum[c], sum_shifted[c], offset, rstd), weight = w ? wide(w[c]) : 1;
    if (dweight) dweight[c] = narrow<T>(static_cast<C>(dxhat));
    if (dbias) dbias[c] = narrow<T>(static_cast<C>(sum[c]));
    const normmath::BackwardAffine g =
        normmath::backward_affine(weight * sum[c], weight * dxhat, offset, rstd, m, dmean[c], dvar[c]);
    a[c] = static_cast<C>(g.a), b[c] = static_cast<C>(g.b), k[c] = static_cast<C>(weight * rstd);
  }
  affine_rows<T>(p, x, dy, first, a, b, k, dx);
}

// T's kernel with S its statistics' dtype (float64's, else float32).
template <typename F>
void visit_floating(DType dtype, F f) {
  if (dtype == DType::kFloat64) {
    f(double{}, double{});
  } else if (dtype == DType::kBFloat16) {
    f(bfloat16{}, float{});
  } else {
    f(float{}, float{});
  }
}

std::vector<Tensor> forward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const Tensor& x = in[0];
  const Planes p = planes_of(x, ctx.attrs);
  Tensor y = ctx.output(0, x.shape(), x.dtype());
  const DType stat = stat_dtype(x.dtype());
  Tensor mean = ctx.output(1, {p.channels}, stat), var = ctx.output(2, {p.channels}, stat);
  visit_floating(x.dtype(), [&](auto t, auto s) {
    using T = decltype(t);
    using S = decltype(s);
    if (x.numel() == 0) {  // statistics of no values
      std::fill(mean.data_as<S>(), mean.data_as<S>() + p.channels, std::numeric_limits<S>::quiet_NaN());
      std::fill(var.data_as<S>(), var.data_as<S>() + p.channels, std::numeric_limits<S>::quiet_NaN());
      return;
    }
    const T* w = has_weight ? in[1].data_as<T>() : nullptr;
    const T* b = has_bias ? in[1 + has_weight].data_as<T>() : nullptr;
    if (channels_last(x.format())) {
      forward_rows<T, S>(p, x.data_as<T>(), w, b, mean.data_as<S>(), var.data_as<S>(), y.data_as<T>());
    } else {
      forward_planes<T, S>(p, x.data_as<T>(), w, b, mean.data_as<S>(), var.data_as<S>(), y.data_as<T>());
    }
  });
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

// dx, and dweight and dbias as asked.
std::vector<Tensor> backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const Tensor& x = in[0];
  const Tensor dy = kernel::onednn::in_format(in[1], x.format());
  const Planes p = planes_of(x, ctx.attrs);
  std::vector<Tensor> out{ctx.output(0, x.shape(), x.dtype())};
  for (int i = 0; i < has_weight + has_bias; ++i) out.push_back(ctx.output(out.size(), {p.channels}, x.dtype()));
  visit_floating(x.dtype(), [&](auto t, auto s) {
    using T = decltype(t);
    using S = decltype(s);
    const auto pass = channels_last(x.format()) ? backward_rows<T, S> : backward_planes<T, S>;
    pass(p, x.data_as<T>(), dy.data_as<T>(), has_weight ? in[6].data_as<T>() : nullptr, in[2].data_as<S>(),
         in[3].data_as<S>(), in[4].data_as<S>(), in[5].data_as<S>(), out[0].data_as<T>(),
         has_weight ? out[1].data_as<T>() : nullptr, has_bias ? out.back().data_as<T>() : nullptr);
  });
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

// ---------------------------------------------------------------------------------------------
// group_norm, group_norm_backward: each sample's channels in num_groups groups of D = C / G
// adjacent channels, a group's D * spatial values contiguous; one task per (sample, group),
// with batch norm's sums and affine passes over the group's planes.

constexpr const char* kGroupNorm = "group_norm";
constexpr const char* kGroupNormBackward = "group_norm_backward";

// Checks x [N, C, ...] and num_groups (dividing C); returns the group count.
int64_t checked_groups(const std::string& op, const TensorMeta& x, const Attrs& attrs) {
  const int64_t groups = attrs.get_int("num_groups");
  if (x.shape.size() < 2 || groups <= 0 || x.shape[1] % groups != 0) {
    op_error(op, "the input has shape " + to_string(x.shape) + " and num_groups is " + std::to_string(groups) +
                     "; expected [N, C, ...] with C divisible by num_groups");
  }
  return groups;
}

std::vector<TensorMeta> group_norm_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  const bool has_weight = flag(attrs, "has_weight"), has_bias = flag(attrs, "has_bias");
  kernel::expect_inputs(kGroupNorm, in, 1 + has_weight + has_bias);
  checked_groups(kGroupNorm, in[0], attrs);
  checked_channels(kGroupNorm, in[0], attrs);
  for (size_t i = 1; i < in.size(); ++i) {
    expect_channel_vector(kGroupNorm, in[i], i == 1 && has_weight ? "weight" : "bias", in[0], in[0].dtype);
  }
  return {in[0]};
}

std::vector<TensorMeta> group_norm_backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  const bool has_weight = flag(attrs, "has_weight"), has_bias = flag(attrs, "has_bias");
  kernel::expect_inputs(kGroupNormBackward, in, 2 + has_weight);
  const TensorMeta& x = in[0];
  checked_groups(kGroupNormBackward, x, attrs);
  checked_channels(kGroupNormBackward, x, attrs);
  if (has_weight) expect_channel_vector(kGroupNormBackward, in[1], "weight", x, x.dtype);
  if (in.back().shape != x.shape || in.back().dtype != x.dtype) {
    op_error(kGroupNormBackward, "dy is " + to_string(in.back().shape) + " " + dtype_name(in.back().dtype) +
                                     "; expected the input's shape and dtype " + to_string(x.shape) + " " +
                                     dtype_name(x.dtype));
  }
  std::vector<TensorMeta> out{x};
  for (int i = 0; i < has_weight + has_bias; ++i) out.push_back({{x.shape[1]}, x.dtype});
  return out;
}

// The batch split: x and y S(0), the parameters broadcast.
std::vector<Signature> group_norm_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                             const Attrs&) {
  Signature split{std::vector<Sbp>(in.size(), Sbp::broadcast()), {Sbp::split(0)}};
  split.inputs[0] = Sbp::split(0);
  return {split};
}

// The batch split (x, dy and dx S(0), the parameters broadcast, their gradients partial), and
// B, B, P -> P, P, P: linear in dy.
std::vector<Signature> group_norm_backward_signatures(const std::vector<TensorMeta>& in,
                                                      const std::vector<TensorMeta>& out, const Attrs&) {
  Signature split{std::vector<Sbp>(in.size(), Sbp::broadcast()), std::vector<Sbp>(out.size(), Sbp::partial_sum())};
  split.inputs.front() = split.inputs.back() = split.outputs.front() = Sbp::split(0);
  Signature linear{std::vector<Sbp>(in.size(), Sbp::broadcast()), std::vector<Sbp>(out.size(), Sbp::partial_sum())};
  linear.inputs.back() = Sbp::partial_sum();
  return {split, linear};
}

// A group's statistics from sums shifted by its first value, as batch norm's.
template <typename T>
struct GroupMoments {
  Compute<T> first;
  normmath::Moments m;
};

template <typename T>
GroupMoments<T> group_moments(const T* x, int64_t count, double eps) {
  const Compute<T> first = wide(x[0]);
  double sum = 0, squares = 0;
  shifted_sums(x, 1, count, count, first, sum, squares);
  return {first, normmath::moments(sum, squares, static_cast<double>(count), eps)};
}

// y = (x - mean) rstd weight + bias, channel by channel (norm_math.h).
template <typename T>
void group_norm_planes(const Planes& p, int64_t groups, const T* x, const T* w, const T* b, T* y) {
  using C = Compute<T>;
  const int64_t per_group = p.channels / groups, size = per_group * p.spatial;
  kernel::parallel_for(p.batch * groups, p.batch * p.channels * p.spatial > kernel::kParallelGrain, [&](int64_t task) {
    const int64_t c0 = task % groups * per_group, at = p.at(task / groups, c0);
    const GroupMoments<T> g = group_moments(x + at, size, p.eps);
    for (int64_t c = c0; c < c0 + per_group; ++c) {
      const normmath::Affine f = normmath::forward_affine(w ? wide(w[c]) : 1, b ? wide(b[c]) : 0, g.m.offset, g.m.rstd);
      const int64_t plane = at + (c - c0) * p.spatial;
      affine<T>(x + plane, nullptr, p.spatial, g.first, static_cast<C>(f.scale), static_cast<C>(f.shift), 0, y + plane);
    }
  });
}

// dweight and dbias from each (sample, channel)'s sum(dy xhat) and sum(dy) (`sums`, [N, C, 2]),
// added over the samples in order (the same bits whatever the threads).
template <typename T>
void channel_gradients(const Planes& p, const std::vector<double>& sums, T* dweight, T* dbias) {
  using C = Compute<T>;
  for (int64_t c = 0; c < p.channels; ++c) {
    double sum = 0, centered = 0;
    for (int64_t n = 0; n < p.batch; ++n) sum += sums[2 * (n * p.channels + c)], centered += sums[2 * (n * p.channels + c) + 1];
    if (dweight) dweight[c] = narrow<T>(static_cast<C>(centered));
    if (dbias) dbias[c] = narrow<T>(static_cast<C>(sum));
  }
}

// dx over each group of M values (norm_math.h); each (sample, channel)'s sum(dy) and
// sum(dy xhat) go to `sums` ([N, C, 2]), and dweight and dbias add them over the samples in
// order afterwards (the same bits whatever the threads).
template <typename T>
void group_norm_backward_planes(const Planes& p, int64_t groups, const T* x, const T* w, const T* dy, T* dx,
                                T* dweight, T* dbias) {
  using C = Compute<T>;
  const int64_t per_group = p.channels / groups, size = per_group * p.spatial;
  std::vector<double> sums(2 * p.batch * p.channels);
  kernel::parallel_for(p.batch * groups, p.batch * p.channels * p.spatial > kernel::kParallelGrain, [&](int64_t task) {
    const int64_t n = task / groups, c0 = task % groups * per_group, at = p.at(n, c0);
    const GroupMoments<T> g = group_moments(x + at, size, p.eps);
    double sum_g = 0, sum_gx = 0;
    for (int64_t c = c0; c < c0 + per_group; ++c) {
      const int64_t plane = at + (c - c0) * p.spatial;
      double sum = 0, shifted = 0;
      gradient_sums(x + plane, dy + plane, 1, p.spatial, p.spatial, g.first, sum, shifted);
      const double centered = normmath::sum_dy_xhat(sum, shifted, g.m.offset, g.m.rstd), weight = w ? wide(w[c]) : 1;
      sums[2 * (n * p.channels + c)] = sum, sums[2 * (n * p.channels + c) + 1] = centered;
      sum_g += weight * sum, sum_gx += weight * centered;
    }
    const normmath::BackwardAffine coef =
        normmath::backward_affine(sum_g, sum_gx, g.m.offset, g.m.rstd, static_cast<double>(size));
    for (int64_t c = c0; c < c0 + per_group; ++c) {
      const int64_t plane = at + (c - c0) * p.spatial;
      affine<T>(x + plane, dy + plane, p.spatial, g.first, static_cast<C>(coef.a), static_cast<C>(coef.b),
                static_cast<C>((w ? wide(w[c]) : 1) * g.m.rstd), dx + plane);
    }
  });
  channel_gradients<T>(p, sums, dweight, dbias);
}

// The same over a channels-last x ([N, spatial, C]: a group's values are D adjacent channels of
// each row), so that a conv -> GroupNorm -> ReLU -> conv chain keeps oneDNN's layout instead of
// reordering x, y, dy and dx around each group norm. Per sample, each channel's sums over its
// rows (a vectorized loop over the channels, kRowBlock rows in the compute type, then into
// doubles in row order: the same bits whatever the threads), its group's by adding its D
// channels'; then the rows' affine pass with per-channel coefficients.
template <typename T>
struct SampleRows {
  const Planes& p;
  int64_t groups;
  int64_t per_group() const { return p.channels / groups; }
  const T* row(const T* x, int64_t n, int64_t r) const { return x + (n * p.spatial + r) * p.channels; }
  // first[c]: the first value of c's group in sample n's first row.
  void group_firsts(const T* x, int64_t n, Compute<T>* first) const {
    for (int64_t c = 0; c < p.channels; ++c) first[c] = wide(row(x, n, 0)[c - c % per_group()]);
  }
  // a[c], b[c] += sum over sample n's rows of terms(row, pa, pb) (per-channel partials).
  template <typename Terms>
  void channel_sums(int64_t n, Terms terms, double* a, double* b) const {
    using C = Compute<T>;
    std::vector<C> pa(p.channels), pb(p.channels);
    for (int64_t r0 = 0; r0 < p.spatial; r0 += kRowBlock) {
      std::fill(pa.begin(), pa.end(), C(0));
      std::fill(pb.begin(), pb.end(), C(0));
      for (int64_t r = r0, end = std::min(p.spatial, r0 + kRowBlock); r < end; ++r) terms(r, pa.data(), pb.data());
      for (int64_t c = 0; c < p.channels; ++c) a[c] += pa[c], b[c] += pb[c];
    }
  }
  // Group g's moments from its channels' shifted sums.
  normmath::Moments group_moments(const double* sum, const double* squares, int64_t g) const {
    double s = 0, q = 0;
    for (int64_t c = g * per_group(); c < (g + 1) * per_group(); ++c) s += sum[c], q += squares[c];
    return normmath::moments(s, q, static_cast<double>(per_group() * p.spatial), p.eps);
  }
  // out's rows = affine_row of x's (and dy's) with per-sample coefficients [N][C] each.
  void affine(const T* x, const T* dy, const std::vector<Compute<T>>& first, const std::vector<Compute<T>>& scale,
              const std::vector<Compute<T>>& shift, const std::vector<Compute<T>>& k, T* out) const {
    const int64_t blocks = (p.spatial + kRowBlock - 1) / kRowBlock, channels = p.channels;
    kernel::parallel_for(p.batch * blocks, p.batch * p.spatial * channels > kernel::kParallelGrain, [&](int64_t t) {
      const int64_t n = t / blocks, at = n * channels;
      for (int64_t r = t % blocks * kRowBlock, end = std::min(p.spatial, r + kRowBlock); r < end; ++r) {
        const int64_t o = (n * p.spatial + r) * channels;
        affine_row<T>(x + o, dy ? dy + o : nullptr, channels, first.data() + at, scale.data() + at, shift.data() + at,
                      dy ? k.data() + at : nullptr, out + o);
      }
    });
  }
};

template <typename T>
void group_norm_rows(const Planes& p, int64_t groups, const T* x, const T* w, const T* b, T* y) {
  using C = Compute<T>;
  const SampleRows<T> s{p, groups};
  const int64_t channels = p.channels, per_group = s.per_group();
  std::vector<C> first(p.batch * channels), scale(p.batch * channels), shift(p.batch * channels);
  kernel::parallel_for(p.batch, p.batch * p.spatial * channels > kernel::kParallelGrain, [&](int64_t n) {
    C* f = first.data() + n * channels;
    s.group_firsts(x, n, f);
    std::vector<double> sum(channels), squares(channels);
    s.channel_sums(n, [&](int64_t r, C* a, C* bb) { shifted_row(s.row(x, n, r), f, channels, a, bb); }, sum.data(),
                   squares.data());
    for (int64_t g = 0; g < groups; ++g) {
      const normmath::Moments m = s.group_moments(sum.data(), squares.data(), g);
      for (int64_t c = g * per_group; c < (g + 1) * per_group; ++c) {
        const normmath::Affine a = normmath::forward_affine(w ? wide(w[c]) : 1, b ? wide(b[c]) : 0, m.offset, m.rstd);
        scale[n * channels + c] = static_cast<C>(a.scale), shift[n * channels + c] = static_cast<C>(a.shift);
      }
    }
  });
  s.affine(x, nullptr, first, scale, shift, {}, y);
}

template <typename T>
void group_norm_backward_rows(const Planes& p, int64_t groups, const T* x, const T* w, const T* dy, T* dx,
                              T* dweight, T* dbias) {
  using C = Compute<T>;
  const SampleRows<T> s{p, groups};
  const int64_t channels = p.channels, per_group = s.per_group();
  std::vector<C> first(p.batch * channels), a(p.batch * channels), b(p.batch * channels), k(p.batch * channels);
  std::vector<double> sums(2 * p.batch * channels);  // per (sample, channel): sum(dy), sum(dy xhat)
  kernel::parallel_for(p.batch, p.batch * p.spatial * channels > kernel::kParallelGrain, [&](int64_t n) {
    C* f = first.data() + n * channels;
    s.group_firsts(x, n, f);
    std::vector<double> sum(channels), squares(channels), sum_dy(channels), shifted(channels);
    s.channel_sums(n, [&](int64_t r, C* pa, C* pb) { shifted_row(s.row(x, n, r), f, channels, pa, pb); }, sum.data(),
                   squares.data());
    s.channel_sums(n, [&](int64_t r, C* pa, C* pb) { gradient_row(s.row(x, n, r), s.row(dy, n, r), f, channels, pa, pb); },
                   sum_dy.data(), shifted.data());
    for (int64_t g = 0; g < groups; ++g) {
      const normmath::Moments m = s.group_moments(sum.data(), squares.data(), g);
      double sum_g = 0, sum_gx = 0;
      for (int64_t c = g * per_group; c < (g + 1) * per_group; ++c) {
        const double centered = normmath::sum_dy_xhat(sum_dy[c], shifted[c], m.offset, m.rstd), weight = w ? wide(w[c]) : 1;
        sums[2 * (n * channels + c)] = sum_dy[c], sums[2 * (n * channels + c) + 1] = centered;
        sum_g += weight * sum_dy[c], sum_gx += weight * centered;
      }
      const normmath::BackwardAffine coef =
          normmath::backward_affine(sum_g, sum_gx, m.offset, m.rstd, static_cast<double>(per_group * p.spatial));
      for (int64_t c = g * per_group; c < (g + 1) * per_group; ++c) {
        a[n * channels + c] = static_cast<C>(coef.a), b[n * channels + c] = static_cast<C>(coef.b);
        k[n * channels + c] = static_cast<C>((w ? wide(w[c]) : 1) * m.rstd);
      }
    }
  });
  s.affine(x, dy, first, a, b, k, dx);
  channel_gradients<T>(p, sums, dweight, dbias);
}

std::vector<Tensor> group_norm_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const Tensor& x = in[0];
  const Planes p = planes_of(x, ctx.attrs);
  Tensor y = ctx.output(0, x.shape(), x.dtype());
  if (x.numel() == 0) return {y};
  visit_floating(x.dtype(), [&](auto t, auto) {
    using T = decltype(t);
    const auto pass = channels_last(x.format()) ? group_norm_rows<T> : group_norm_planes<T>;
    pass(p, ctx.attrs.get_int("num_groups"), x.data_as<T>(), has_weight ? in[1].data_as<T>() : nullptr,
         has_bias ? in[1 + has_weight].data_as<T>() : nullptr, y.data_as<T>());
  });
  return {y};
}

std::vector<Tensor> group_norm_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const Tensor& x = in[0];
  const Tensor dy = kernel::onednn::in_format(in.back(), x.format());
  const Planes p = planes_of(x, ctx.attrs);
  std::vector<Tensor> out{ctx.output(0, x.shape(), x.dtype())};
  for (int i = 0; i < has_weight + has_bias; ++i) out.push_back(ctx.output(out.size(), {p.channels}, x.dtype()));
  visit_floating(x.dtype(), [&](auto t, auto) {
    using T = decltype(t);
    const auto pass = channels_last(x.format()) ? group_norm_backward_rows<T> : group_norm_backward_planes<T>;
    pass(p, ctx.attrs.get_int("num_groups"), x.data_as<T>(), has_weight ? in[1].data_as<T>() : nullptr,
         dy.data_as<T>(), out[0].data_as<T>(), has_weight ? out[1].data_as<T>() : nullptr,
         has_bias ? out.back().data_as<T>() : nullptr);
  });
  return out;
}

// For a create_graph backward: the same formula in differentiable ops, over x viewed as
// [N, G, D * spatial].
std::vector<Var> group_norm_composite_grad(const GradContext& g) {
  const Var &x = g.inputs[0], &dy = g.grad_outputs[0];
  const bool has_weight = flag(g.attrs, "has_weight"), has_bias = flag(g.attrs, "has_bias");
  const Shape& shape = x.shape();
  const Shape grouped{shape[0], g.attrs.get_int("num_groups"), -1};
  Shape channel_view(shape.size(), 1);
  channel_view[1] = -1;
  std::vector<int64_t> reduced{0};
  for (size_t d = 2; d < shape.size(); ++d) reduced.push_back(static_cast<int64_t>(d));
  const Var xg = fn::reshape(x, grouped);
  const Var centered = fn::sub(xg, fn::mean(xg, {2}, true));
  const Var rstd = fn::rsqrt(fn::add_scalar(fn::mean(fn::mul(centered, centered), {2}, true), eps_attr(g.attrs)));
  const Var xhat = fn::mul(centered, rstd);
  const Var dxhat = fn::reshape(has_weight ? fn::mul(dy, fn::reshape(g.inputs[1], channel_view)) : dy, grouped);
  const Var dx = fn::mul(rstd, fn::sub(fn::sub(dxhat, fn::mean(dxhat, {2}, true)),
                                       fn::mul(xhat, fn::mean(fn::mul(dxhat, xhat), {2}, true))));
  std::vector<Var> grads{g.needs_grad[0] ? fn::reshape(dx, shape) : Var()};
  if (has_weight) grads.push_back(g.needs_grad[1] ? fn::sum(fn::mul(dy, fn::reshape(xhat, shape)), reduced) : Var());
  if (has_bias) grads.push_back(g.needs_grad[grads.size()] ? fn::sum(dy, reduced) : Var());
  return grads;
}

std::vector<Var> group_norm_grad(const GradContext& g) {
  if (grad_enabled()) return group_norm_composite_grad(g);
  std::vector<Var> inputs{g.inputs[0]};
  if (flag(g.attrs, "has_weight")) inputs.push_back(g.inputs[1]);
  inputs.push_back(g.grad_outputs[0]);
  return call(kGroupNormBackward, inputs, g.attrs);
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
  // Group norm's bfloat16 and float16 run widened to float32 (the registry's rule), on every device.
  OpDef group = with_grad(make_op(kGroupNorm, group_norm_infer, group_norm_signatures, group_norm_kernel), group_norm_grad);
  OpDef group_backward =
      make_op(kGroupNormBackward, group_norm_backward_infer, group_norm_backward_signatures, group_norm_backward_kernel);
  forward.bfloat16 = backward.bfloat16 = true;
  for (OpDef* op : {&forward, &backward, &group, &group_backward}) {
    // y and dx in x's format (the kernels take dy in it); the per-channel outputs row-major.
    op->formats = [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out, const Attrs&) {
      std::vector<MemoryFormat> formats(out.size(), MemoryFormat::kContiguous);
      formats[0] = in[0].format;
      return formats;
    };
    r.add(*op);
  }
}

}  // namespace mf
