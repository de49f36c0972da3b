// Copyright 2026 The meshflow Authors.
// The CUDA kernels of the neural-network ops (ops/nn.cc), gelu_backward and relu_backward aside
// (elementwise: elementwise.cu). Same attributes, boxes, outputs and errors as the CPU's.
//
// Row-wise ops (softmax, log_softmax, softmax_backward, layer_norm, layer_norm_backward,
// cross_entropy) run one group of threads per line: a warp for short lines, a block for long
// ones, and one thread per line for lines strided across memory (softmax off the last dim),
// where adjacent threads then read adjacent elements. Every sum combines its terms in an
// order fixed by the shapes alone, never by timing, and so does every accumulation the CPU
// keeps deterministic: embedding_backward sorts the positions by row with a stable radix
// sort (the CPU's counting sort) and sums each row's dy in index order, gather_backward gives
// each thread its own column, layer_norm_backward's parameter gradients and cross_entropy's
// mean add per-chunk partials in order. Replicas computing one value agree bit for bit, which
// atomics would not give. Kernels that check indices do so before writing anything, as the
// CPU's: a kernel finds the first bad position and the host waits for it to raise the CPU's
// message (the one synchronization here, on the rejecting ops only).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "meshflow/core/error.h"
#include "meshflow/device/cuda/cuda_device.h"
#include "meshflow/ops/cuda/cuda_kernels.h"
#include "meshflow/ops/cuda/device_util.cuh"
#include "meshflow/ops/cuda/radix_sort.cuh"
#include "meshflow/ops/embedding_bag.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/row_math.h"

namespace mf::cuda {
namespace {

constexpr int kThreads = 256;

bool flag(const Attrs& attrs, const std::string& key) { return attrs.has(key) && attrs.get_bool(key); }

// Calls f(V{}) with V an unsigned integer of the dtype's size: kernels that only move
// elements (and write zeros, all bits clear in every dtype) share one path per size.
template <typename F>
void visit_bits(DType dtype, F&& f) {
  switch (dtype_size(dtype)) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    default: return f(uint64_t{});
  }
}

// Calls f(T{}) for float32 and float64, the dtypes the floating ops' infer lets through.
template <typename F>
void visit_floating(DType dtype, F&& f) {
  visit_dtype(dtype, [&](auto v) {
    if constexpr (std::is_floating_point_v<decltype(v)>) f(v);
  });
}

void zero(const Tensor& t) {
  if (t.nbytes() > 0) device::cuda::check(cudaMemsetAsync(t.data(), 0, t.nbytes(), stream()), "cudaMemsetAsync");
}

__device__ __forceinline__ float exp_of(float x) { return ::expf(x); }
__device__ __forceinline__ double exp_of(double x) { return ::exp(x); }
__device__ __forceinline__ float log_of(float x) { return ::logf(x); }
__device__ __forceinline__ double log_of(double x) { return ::log(x); }

// A shape seen as [outer, shape[dim], inner] around `dim`.
struct AroundDim {
  int64_t outer = 1, inner = 1;
};

AroundDim around(const Shape& shape, int64_t dim) {
  AroundDim a;
  for (int64_t d = 0; d < dim; ++d) a.outer *= shape[d];
  for (size_t d = dim + 1; d < shape.size(); ++d) a.inner *= shape[d];
  return a;
}

int64_t dim_attr(const char* op, const Attrs& attrs, const Shape& shape) {
  return kernel::normalize_dim(op, attrs.get_int("dim"), static_cast<int64_t>(shape.size()));
}

// ---------------------------------------------------------------------------------------------
// Index checks

constexpr unsigned long long kNoBadIndex = ~0ull;

// An index value no check skips.
constexpr int64_t kNoneIgnored = INT64_MIN;

template <typename I>
__global__ void find_bad_index(const I* __restrict__ idx, int64_t n, int64_t size, int64_t ignored,
                               unsigned long long* first_bad) {
  for (int64_t i = first_index(); i < n; i += grid_step()) {
    if ((idx[i] < 0 || idx[i] >= size) && idx[i] != ignored) atomicMin(first_bad, static_cast<unsigned long long>(i));
  }
}

// Throws the CPU's error for the first of the n indices outside [0, size) other than
// `ignored`, if any.
template <typename I>
void check_indices(const char* op, const I* idx, int64_t n, int64_t size, const char* what, Memory& mem,
                   int64_t ignored = kNoneIgnored) {
  if (n == 0) return;
  const std::shared_ptr<void> status = mem.allocate(sizeof(unsigned long long));
  auto* first_bad = static_cast<unsigned long long*>(status.get());
  device::cuda::check(cudaMemsetAsync(first_bad, 0xff, sizeof *first_bad, stream()), "cudaMemsetAsync");
  find_bad_index<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(idx, n, size, ignored, first_bad);
  check_launch("find_bad_index");
  unsigned long long bad = 0;
  device::cuda::check(cudaMemcpyAsync(&bad, first_bad, sizeof bad, cudaMemcpyDeviceToHost, stream()),
                      "cudaMemcpyAsync");
  device::cuda::check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
  if (bad == kNoBadIndex) return;
  I value = 0;
  device::cuda::check(cudaMemcpyAsync(&value, idx + bad, sizeof value, cudaMemcpyDeviceToHost, stream()),
                      "cudaMemcpyAsync");
  device::cuda::check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
  index_error(op, std::string(what) + " " + std::to_string(value) + " is out of range; expected values in [0, " +
                      std::to_string(size) + ")");
}

// ---------------------------------------------------------------------------------------------
// Lines: a group of G threads per line (1, a warp, or a block)

struct Sum {
  template <typename A>
  __device__ A operator()(A a, A b) const {
    return a + b;
  }
};

// NaN never wins (the CPU's row_max): partial maxima start at -inf and skip NaNs.
struct Max {
  template <typename A>
  __device__ A operator()(A a, A b) const {
    return a > b ? a : b;
  }
};

// op over the values of the G threads of a group, known to all of them (butterfly steps give
// both partners the same operands, so sums agree to the bit). Groups above a warp are whole
// blocks; the leading barrier keeps one call's writes from overtaking the last call's reads.
template <int G, typename A, typename Op>
__device__ A group_reduce(A v, Op op) {
  constexpr int kWarp = G < 32 ? G : 32;
#pragma unroll
  for (int offset = kWarp / 2; offset > 0; offset /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  if constexpr (G > 32) {
    __shared__ A partial[G / 32];
    __syncthreads();
    if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = v;
    __syncthreads();
    v = partial[0];
    for (int w = 1; w < G / 32; ++w) v = op(v, partial[w]);
  }
  return v;
}

// `count` lines of n elements: line k starts at k / inner * n * inner + k % inner and its
// elements are `inner` apart. Under causal masking (causal_rows = Tq > 0, inner = 1) line k
// keeps its first k % Tq + 1 + n - Tq elements.
struct Lines {
  int64_t count, n, inner, causal_rows;
};

template <int G>
__host__ __device__ constexpr int threads_of() {
  return G > kThreads ? G : kThreads;
}

// body.run<G>(line, offset of its first element, elements kept, lane, lines) per line. The
// loop's bounds are uniform over each group, as group_reduce needs.
template <int G, typename Body>
__global__ void __launch_bounds__(threads_of<G>()) lines_kernel(Body body, Lines l) {
  constexpr int kPerBlock = threads_of<G>() / G;
  const int lane = static_cast<int>(threadIdx.x % G);
  for (int64_t line = static_cast<int64_t>(blockIdx.x) * kPerBlock + threadIdx.x / G; line < l.count;
       line += static_cast<int64_t>(gridDim.x) * kPerBlock) {
    const int64_t kept = l.causal_rows > 0 ? line % l.causal_rows + 1 + l.n - l.causal_rows : l.n;
    body.template run<G>(line, line / l.inner * l.n * l.inner + line % l.inner, kept, lane, l);
  }
}

template <int G, typename Body>
void launch_group(const char* name, const Body& body, const Lines& l) {
  constexpr int threads = threads_of<G>();
  lines_kernel<G><<<blocks_for(l.count * G, threads), threads, 0, stream()>>>(body, l);
  check_launch(name);
}

// Lines up to this long get a warp each (a few elements per lane), longer ones a block.
constexpr int64_t kWarpLine = 1024;
constexpr int kBlockGroup = 512;

template <typename Body>
void launch_lines(const char* name, const Body& body, const Lines& l) {
  if (l.count == 0 || l.n == 0) return;
  if (l.inner > 1) {
    launch_group<1>(name, body, l);
  } else if (l.n <= kWarpLine) {
    launch_group<32>(name, body, l);
  } else {
    launch_group<kBlockGroup>(name, body, l);
  }
}

// The maximum m of the first `kept` elements of a line and the sum of their exp(x - m).
template <int G, typename T>
__device__ void max_and_sum_exp(const T* x, int64_t kept, int64_t stride, int lane, T& m, T& sum) {
  T mx = -static_cast<T>(INFINITY);
  for (int64_t i = lane; i < kept; i += G) mx = Max{}(x[i * stride], mx);
  m = group_reduce<G>(mx, Max{});
  T s = 0;
  for (int64_t i = lane; i < kept; i += G) s += exp_of(x[i * stride] - m);
  sum = group_reduce<G>(s, Sum{});
}

// ---------------------------------------------------------------------------------------------
// softmax, log_softmax, softmax_backward

template <typename T>
struct SoftmaxBody {
  const T* x;
  T* y;
  bool is_log;

  template <int G>
  __device__ void run(int64_t, int64_t offset, int64_t kept, int lane, const Lines& l) const {
    const T* xl = x + offset;
    T* yl = y + offset;
    const int64_t stride = l.inner;
    T m, sum;
    max_and_sum_exp<G>(xl, kept, stride, lane, m, sum);
    if (is_log) {
      const T log_sum = log_of(sum);
      for (int64_t i = lane; i < kept; i += G) yl[i * stride] = rowmath::log_softmax(xl[i * stride], m, log_sum);
    } else {
      const T inv_sum = 1 / sum;
      for (int64_t i = lane; i < kept; i += G) yl[i * stride] = rowmath::softmax(exp_of(xl[i * stride] - m), inv_sum);
    }
    const T masked = is_log ? rowmath::softmax_masked<true, T>() : rowmath::softmax_masked<false, T>();
    for (int64_t i = kept + lane; i < l.n; i += G) yl[i * stride] = masked;
  }
};

template <typename T>
struct SoftmaxBackwardBody {
  const T* y;
  const T* dy;
  T* dx;
  bool is_log;

  template <int G>
  __device__ void run(int64_t, int64_t offset, int64_t kept, int lane, const Lines& l) const {
    const T* yl = y + offset;
    const T* dyl = dy + offset;
    T* dxl = dx + offset;
    const int64_t stride = l.inner;
    T s = 0;
    for (int64_t i = lane; i < kept; i += G) {
      const T y_i = yl[i * stride], dy_i = dyl[i * stride];
      s += is_log ? rowmath::softmax_backward_term<true>(y_i, dy_i) : rowmath::softmax_backward_term<false>(y_i, dy_i);
    }
    s = group_reduce<G>(s, Sum{});
    for (int64_t i = lane; i < kept; i += G) {
      const int64_t k = i * stride;
      dxl[k] = is_log ? rowmath::log_softmax_backward(exp_of(yl[k]), dyl[k], s) : rowmath::softmax_backward(yl[k], dyl[k], s);
    }
    for (int64_t i = kept + lane; i < l.n; i += G) dxl[i * stride] = T{0};
  }
};

// The lines along `dim`, causally masked when the attribute says so (the op's infer checked
// the mask's conditions: dim is the last, Tq <= Tk).
Lines lines_along(const Shape& shape, int64_t dim, const Attrs& attrs) {
  Lines l{0, shape[dim], around(shape, dim).inner, 0};
  l.count = l.n == 0 ? 0 : numel(shape) / l.n;
  if (flag(attrs, "causal")) l.causal_rows = shape[shape.size() - 2];
  return l;
}

Kernel softmax(const char* name, bool log) {
  return [name, log](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Shape& shape = in[0].shape();
    const Lines l = lines_along(shape, dim_attr(name, ctx.attrs, shape), ctx.attrs);
    Tensor out = output(ctx, 0, shape, in[0].dtype(), memory_of(in));
    visit_floating(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      launch_lines(name, SoftmaxBody<T>{in[0].data_as<T>(), out.data_as<T>(), log}, l);
    });
    return std::vector<Tensor>{out};
  };
}

std::vector<Tensor> softmax_backward(const std::vector<Tensor>& in, const KernelContext& ctx) {
  constexpr const char* kName = "softmax_backward";
  const Shape& shape = in[0].shape();
  const Lines l = lines_along(shape, dim_attr(kName, ctx.attrs, shape), ctx.attrs);
  const bool log = ctx.attrs.get_bool("log");
  Tensor out = output(ctx, 0, shape, in[0].dtype(), memory_of(in));
  visit_floating(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    launch_lines(kName, SoftmaxBackwardBody<T>{in[0].data_as<T>(), in[1].data_as<T>(), out.data_as<T>(), log}, l);
  });
  return {out};
}

// ---------------------------------------------------------------------------------------------
// layer_norm, layer_norm_backward

double eps_attr(const Attrs& attrs) { return attrs.has("eps") ? attrs.get_float("eps") : 1e-5; }

// A row's mean and 1 / standard deviation, in double over two passes as the CPU's (no
// cancellation in the variance), rounded to T.
template <int G, typename T>
__device__ void row_stats(const T* x, int64_t n, int lane, double eps, T& mean, T& rstd) {
  double s = 0;
  for (int64_t j = lane; j < n; j += G) s += x[j];
  const double mu = group_reduce<G>(s, Sum{}) / static_cast<double>(n);
  double var = 0;
  for (int64_t j = lane; j < n; j += G) {
    const double d = x[j] - mu;
    var += d * d;
  }
  var = group_reduce<G>(var, Sum{});
  mean = static_cast<T>(mu);
  rstd = static_cast<T>(rowmath::inverse_std(var, static_cast<double>(n), eps));
}

template <typename T>
struct LayerNormBody {
  const T* x;
  const T* weight;  // null without
  const T* bias;    // null without
  T* y;
  double eps;

  template <int G>
  __device__ void run(int64_t, int64_t offset, int64_t, int lane, const Lines& l) const {
    const T* xr = x + offset;
    T* yr = y + offset;
    T m, rstd;
    row_stats<G>(xr, l.n, lane, eps, m, rstd);
    for (int64_t j = lane; j < l.n; j += G) yr[j] = rowmath::layer_norm(xr[j], m, rstd, weight, bias, j);
  }
};

// dx per row, with x^ = (x - mean) rstd and g = dy * weight: dx = rstd (g - mean(g) - x^
// mean(g x^)). Keeps each row's mean and rstd (when asked) for the parameters' gradients.
template <typename T>
struct LayerNormBackwardBody {
  const T* x;
  const T* weight;  // null: ones
  const T* dy;
  T* dx;
  T* mean;  // null: not kept
  T* rstd;
  double eps;

  __device__ T w(int64_t j) const { return weight ? weight[j] : T{1}; }

  template <int G>
  __device__ void run(int64_t row, int64_t offset, int64_t, int lane, const Lines& l) const {
    const T* xr = x + offset;
    const T* dyr = dy + offset;
    T* dxr = dx + offset;
    const int64_t n = l.n;
    T m, r;
    row_stats<G>(xr, n, lane, eps, m, r);
    if (mean && lane == 0) {
      mean[row] = m;
      rstd[row] = r;
    }
    T sum_g = 0, sum_gx = 0;
    for (int64_t j = lane; j < n; j += G) {
      const T g = dyr[j] * w(j);
      sum_g += g;
      sum_gx += g * (xr[j] - m);
    }
    // mean(g x^) as the CPU's: rstd applied to the row's sum.
    const T mean_g = group_reduce<G>(sum_g, Sum{}) / static_cast<T>(n);
    const T mean_gx = group_reduce<G>(sum_gx, Sum{}) * r / static_cast<T>(n);
    for (int64_t j = lane; j < n; j += G) dxr[j] = rowmath::layer_norm_dx(dyr[j] * w(j), xr[j] - m, r, mean_g, mean_gx);
  }
};

// dweight = sum over rows of dy x^, dbias = sum of dy: a block sums a tile of kColumns columns
// over a chunk of rows (kColumnRows threads down each column, coalesced along the row), then
// the chunks' partials add in chunk order. Chunks depend on the row count only, so the result
// is the same on any GPU.
constexpr int kColumns = 32;
constexpr int kColumnRows = 8;
constexpr int64_t kMinChunkRows = 64;
constexpr int64_t kMaxChunks = 256;

// Partials: dweight's at [c n, (c + 1) n) for chunk c, dbias's `chunks` n later.
template <typename T>
__global__ void __launch_bounds__(kColumns* kColumnRows)
    layer_norm_param_partials(const T* __restrict__ x, const T* __restrict__ dy, const T* __restrict__ mean,
                              const T* __restrict__ rstd, int64_t rows, int64_t n, int64_t chunk_rows,
                              T* __restrict__ partial) {
  __shared__ T tile_w[kColumnRows][kColumns], tile_b[kColumnRows][kColumns];
  const int64_t j = static_cast<int64_t>(blockIdx.x) * kColumns + threadIdx.x;
  const int64_t begin = static_cast<int64_t>(blockIdx.y) * chunk_rows;
  const int64_t end = begin + chunk_rows < rows ? begin + chunk_rows : rows;
  T w = 0, b = 0;
  if (j < n) {
    for (int64_t r = begin + threadIdx.y; r < end; r += kColumnRows) {
      const T d = dy[r * n + j];
      w += rowmath::layer_norm_dweight_term(d, x[r * n + j] - mean[r], rstd[r]);
      b += d;
    }
  }
  tile_w[threadIdx.y][threadIdx.x] = w;
  tile_b[threadIdx.y][threadIdx.x] = b;
  __syncthreads();
  if (threadIdx.y == 0 && j < n) {
    for (int k = 1; k < kColumnRows; ++k) {
      w += tile_w[k][threadIdx.x];
      b += tile_b[k][threadIdx.x];
    }
    partial[blockIdx.y * n + j] = w;
    partial[(gridDim.y + blockIdx.y) * n + j] = b;
  }
}

template <typename T>
__global__ void layer_norm_param_totals(const T* __restrict__ partial, int64_t chunks, int64_t n, T* dweight,
                                        T* dbias) {
  for (int64_t j = first_index(); j < n; j += grid_step()) {
    T w = 0, b = 0;
    for (int64_t c = 0; c < chunks; ++c) {
      w += partial[c * n + j];
      b += partial[(chunks + c) * n + j];
    }
    if (dweight) dweight[j] = w;
    if (dbias) dbias[j] = b;
  }
}

std::vector<Tensor> layer_norm(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const int64_t n = numel(ctx.attrs.get_ints("normalized_shape"));
  const Tensor& x = in[0];
  Tensor out = output(ctx, 0, x.shape(), x.dtype(), memory_of(in));
  const Lines l{n == 0 ? 0 : x.numel() / n, n, 1, 0};
  visit_floating(x.dtype(), [&](auto v) {
    using T = decltype(v);
    const T* w = has_weight ? in[1].data_as<T>() : nullptr;
    const T* b = has_bias ? in[1 + has_weight].data_as<T>() : nullptr;
    launch_lines("layer_norm", LayerNormBody<T>{x.data_as<T>(), w, b, out.data_as<T>(), eps_attr(ctx.attrs)}, l);
  });
  return {out};
}

std::vector<Tensor> layer_norm_backward(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const Shape normalized = ctx.attrs.get_ints("normalized_shape");
  const int64_t n = numel(normalized);
  const Tensor& x = in[0];
  const Tensor& dy = in.back();
  const int64_t rows = n == 0 ? 0 : x.numel() / n;
  Memory& mem = memory_of(in);
  std::vector<Tensor> out{output(ctx, 0, x.shape(), x.dtype(), mem)};
  if (has_weight) out.push_back(output(ctx, out.size(), normalized, x.dtype(), mem));
  if (has_bias) out.push_back(output(ctx, out.size(), normalized, x.dtype(), mem));
  const bool params = has_weight || has_bias;
  visit_floating(x.dtype(), [&](auto v) {
    using T = decltype(v);
    const std::shared_ptr<void> stats = params ? mem.allocate(2 * rows * sizeof(T)) : nullptr;
    T* mean = static_cast<T*>(stats.get());
    LayerNormBackwardBody<T> body{x.data_as<T>(),
                                  has_weight ? in[1].data_as<T>() : nullptr,
                                  dy.data_as<T>(),
                                  out[0].data_as<T>(),
                                  mean,
                                  mean ? mean + rows : nullptr,
                                  eps_attr(ctx.attrs)};
    launch_lines("layer_norm_backward", body, Lines{rows, n, 1, 0});
    if (!params || n == 0) return;
    // Without rows, no chunks: the totals are zeros, as on the CPU.
    const int64_t chunk_rows = std::max(kMinChunkRows, (rows + kMaxChunks - 1) / kMaxChunks);
    const int64_t chunks = (rows + chunk_rows - 1) / chunk_rows;
    const std::shared_ptr<void> partial_block = mem.allocate(2 * chunks * n * sizeof(T));
    T* partial = static_cast<T*>(partial_block.get());
    if (chunks > 0) {
      const dim3 grid(static_cast<unsigned>((n + kColumns - 1) / kColumns), static_cast<unsigned>(chunks));
      const dim3 block(kColumns, kColumnRows);
      layer_norm_param_partials<<<grid, block, 0, stream()>>>(x.data_as<T>(), dy.data_as<T>(), body.mean, body.rstd,
                                                              rows, n, chunk_rows, partial);
      check_launch("layer_norm_param_partials");
    }
    layer_norm_param_totals<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(
        partial, chunks, n, has_weight ? out[1].data_as<T>() : nullptr, has_bias ? out.back().data_as<T>() : nullptr);
    check_launch("layer_norm_param_totals");
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// softmax_cross_entropy, softmax_cross_entropy_backward: a group of threads per row.

int64_t ignore_index_of(const Attrs& attrs) {
  return attrs.has("ignore_index") ? attrs.get_int("ignore_index") : int64_t{-100};
}

// label_smoothing e as row_math.h's coefficients: on_target = 1 - e, spread = e / C.
template <typename T>
void smoothing_of(const Attrs& attrs, int64_t classes, T& on_target, T& spread) {
  const double e = attrs.has("label_smoothing") ? attrs.get_float("label_smoothing") : 0.0;
  on_target = static_cast<T>(1 - e);
  spread = static_cast<T>(classes > 0 ? e / static_cast<double>(classes) : 0.0);
}

template <typename T, typename I>
struct SoftmaxCrossEntropyBody {
  const T* x;
  const I* target;
  const T* w;  // class weights, or null
  T *loss, *lse;
  int64_t ignore;
  T on_target, spread;

  template <int G>
  __device__ void run(int64_t row, int64_t offset, int64_t, int lane, const Lines& l) const {
    T m, sum;
    max_and_sum_exp<G>(x + offset, l.n, 1, lane, m, sum);
    const T s = m + log_of(sum);
    const bool ignored = target[row] == ignore;
    T spread_sum = 0;  // sum_c w_c (lse - x_c), where e > 0 (uniform over the group)
    if (spread != T(0)) {
      for (int64_t i = lane; i < l.n; i += G) spread_sum += (w ? w[i] : T(1)) * (s - x[offset + i]);
      spread_sum = group_reduce<G>(spread_sum, Sum{});
    }
    if (lane == 0) {
      lse[row] = s;
      if (ignored || (!w && spread == T(0))) {
        loss[row] = rowmath::cross_entropy_loss(s, ignored ? T(0) : x[offset + target[row]], ignored);
      } else {
        loss[row] = rowmath::smoothed_cross_entropy_loss(s, x[offset + target[row]], w ? w[target[row]] : T(1),
                                                         on_target, spread, spread_sum);
      }
    }
  }
};

template <typename T, typename I>
struct SoftmaxCrossEntropyBackwardBody {
  const T *x, *lse, *dloss, *dlse;
  const I* target;
  const T* w;  // class weights, or null
  T* dx;
  int64_t ignore;
  T on_target, spread;

  template <int G>
  __device__ void run(int64_t row, int64_t offset, int64_t, int lane, const Lines& l) const {
    const int64_t t = target[row];
    const bool kept = t != ignore;
    const T dl = kept ? dloss[row] : T(0), target_weight = kept && w ? w[t] : T(1), shift = lse[row];
    T total = static_cast<T>(l.n);  // the weights' sum, where e > 0 (uniform over the group)
    if (w && spread != T(0)) {
      T partial = 0;
      for (int64_t i = lane; i < l.n; i += G) partial += w[i];
      total = group_reduce<G>(partial, Sum{});
    }
    const T weight = dlse[row] + dl * rowmath::smoothed_cross_entropy_scale(target_weight, on_target, spread, total);
    const T dl_spread = dl * spread, dl_target = dl * on_target * target_weight;
    for (int64_t i = lane; i < l.n; i += G) {
      const T here = dl_spread * (w ? w[i] : T(1)) + (i == t ? dl_target : T(0));
      dx[offset + i] = rowmath::cross_entropy_dx(exp_of(x[offset + i] - shift), weight, here);
    }
  }
};

std::vector<Tensor> softmax_cross_entropy(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& logits = in[0];
  const int64_t rows = logits.shape()[0], classes = logits.shape()[1], ignore = ignore_index_of(ctx.attrs);
  Memory& mem = memory_of(in);
  Tensor loss = output(ctx, 0, {rows}, logits.dtype(), mem), lse = output(ctx, 1, {rows}, logits.dtype(), mem);
  kernel::visit_index(in[1].dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* target = in[1].data_as<I>();
    check_indices("cross_entropy", target, rows, classes, "target", mem, ignore);
    visit_floating(logits.dtype(), [&](auto v) {
      using T = decltype(v);
      SoftmaxCrossEntropyBody<T, I> body{logits.data_as<T>(), target, in.size() > 2 ? in[2].data_as<T>() : nullptr,
                                         loss.data_as<T>(),   lse.data_as<T>(), ignore, T(1), T(0)};
      smoothing_of(ctx.attrs, classes, body.on_target, body.spread);
      launch_lines("softmax_cross_entropy", body, Lines{rows, classes, 1, 0});
    });
  });
  return {loss, lse};
}

std::vector<Tensor> softmax_cross_entropy_backward(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& logits = in[0];
  const int64_t rows = logits.shape()[0], classes = logits.shape()[1];
  Tensor dx = output(ctx, 0, logits.shape(), logits.dtype(), memory_of(in));
  kernel::visit_index(in[1].dtype(), [&](auto iv) {
    using I = decltype(iv);
    visit_floating(logits.dtype(), [&](auto v) {
      using T = decltype(v);
      SoftmaxCrossEntropyBackwardBody<T, I> body{logits.data_as<T>(),
                                                 in[2].data_as<T>(),
                                                 in[3].data_as<T>(),
                                                 in[4].data_as<T>(),
                                                 in[1].data_as<I>(),
                                                 in.size() > 5 ? in[5].data_as<T>() : nullptr,
                                                 dx.data_as<T>(),
                                                 ignore_index_of(ctx.attrs),
                                                 T(1),
                                                 T(0)};
      smoothing_of(ctx.attrs, classes, body.on_target, body.spread);
      launch_lines("softmax_cross_entropy_backward", body, Lines{rows, classes, 1, 0});
    });
  });
  return {dx};
}

// ---------------------------------------------------------------------------------------------
// embedding, embedding_backward

// The local weight holds logical rows [first, first + rows); other rows come out as zeros.
template <typename V, typename I>
__global__ void embedding_kernel(const I* __restrict__ idx, const V* __restrict__ weight, V* __restrict__ y,
                                 int64_t total, int64_t width, int64_t first, int64_t rows) {
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t i = e / width, r = idx[i] - first;
    y[e] = r >= 0 && r < rows ? weight[r * width + (e - i * width)] : V{0};
  }
}

std::vector<Tensor> embedding(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& indices = in[0];
  const Tensor& weight = in[1];
  const int64_t first = ctx.input_boxes[1].start[0], rows = weight.shape()[0], width = weight.shape()[1];
  Memory& mem = memory_of(in);
  Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, weight.dtype(), mem);
  kernel::visit_index(indices.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* idx = indices.data_as<I>();
    check_indices("embedding", idx, indices.numel(), ctx.inputs[1].shape[0], "index", mem);
    const int64_t total = out.numel();
    if (total == 0) return;
    visit_bits(weight.dtype(), [&](auto bv) {
      using V = decltype(bv);
      embedding_kernel<<<blocks_for(total, kThreads), kThreads, 0, stream()>>>(
          idx, weight.data_as<V>(), out.data_as<V>(), total, width, first, rows);
      check_launch("embedding");
    });
  });
  return {out};
}

// Sort keys: the output row of each index, or `rows` for indices of rows kept elsewhere.
template <typename I>
__global__ void embedding_row_keys(const I* __restrict__ idx, int64_t n, int64_t first, int64_t rows,
                                   uint64_t* __restrict__ keys, int64_t* __restrict__ positions) {
  for (int64_t i = first_index(); i < n; i += grid_step()) {
    const int64_t r = idx[i] - first;
    keys[i] = static_cast<uint64_t>(r >= 0 && r < rows ? r : rows);
    positions[i] = i;
  }
}

// row_start[r] = the first sorted position of row r, for r in [0, rows].
__global__ void row_starts(const uint64_t* __restrict__ sorted, int64_t n, int64_t rows,
                           int64_t* __restrict__ row_start) {
  for (int64_t r = first_index(); r <= rows; r += grid_step()) {
    int64_t lo = 0, hi = n;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (sorted[mid] < static_cast<uint64_t>(r)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    row_start[r] = lo;
  }
}

// Each output element sums its column of the row's dy rows in index order, from zero.
template <typename T>
__global__ void embedding_row_sums(const T* __restrict__ dy, const int64_t* __restrict__ positions,
                                   const int64_t* __restrict__ row_start, int64_t total, int64_t width,
                                   T* __restrict__ dweight) {
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t r = e / width, c = e - r * width;
    T acc = 0;
    for (int64_t p = row_start[r]; p < row_start[r + 1]; ++p) acc = add(acc, dy[positions[p] * width + c]);
    dweight[e] = acc;
  }
}

// out [rows, width] holds the vocabulary rows [first, first + rows): row r the sum, in position
// order, of src's rows [n, width] at the positions whose index is first + r. A stable sort of
// the positions by row (the CPU's counting sort) lists each row's in order.
template <typename I>
void sum_rows_at_indices(Memory& mem, const I* idx, int64_t n, int64_t first, const Tensor& src, const Tensor& out) {
  const int64_t rows = out.shape()[0], width = out.shape()[1];
  if (out.numel() == 0) return;
  if (n == 0) return zero(out);
  const std::shared_ptr<void> key_block = mem.allocate(2 * n * sizeof(uint64_t));
  const std::shared_ptr<void> position_block = mem.allocate(2 * n * sizeof(int64_t));
  const std::shared_ptr<void> start_block = mem.allocate((rows + 1) * sizeof(int64_t));
  uint64_t* keys = static_cast<uint64_t*>(key_block.get());
  int64_t* positions = static_cast<int64_t*>(position_block.get());
  int64_t* row_start = static_cast<int64_t*>(start_block.get());
  embedding_row_keys<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(idx, n, first, rows, keys, positions);
  check_launch("embedding_row_keys");
  sort_pairs(mem, keys, positions, n, static_cast<uint64_t>(rows));
  row_starts<<<blocks_for(rows + 1, kThreads), kThreads, 0, stream()>>>(keys + n, n, rows, row_start);
  check_launch("row_starts");
  visit_dtype(src.dtype(), [&](auto v) {
    using T = decltype(v);
    const int64_t total = out.numel();
    embedding_row_sums<<<blocks_for(total, kThreads), kThreads, 0, stream()>>>(
        src.data_as<T>(), positions + n, row_start, total, width, out.data_as<T>());
    check_launch("embedding_row_sums");
  });
}

// The output box holds rows [first, first + rows) and the local dy's columns.
std::vector<Tensor> embedding_backward(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& indices = in[0];
  const Tensor& dy = in[1];
  const Box& box = ctx.output_boxes[0];
  Memory& mem = memory_of(in);
  Tensor out = output(ctx, 0, box.extent, dy.dtype(), mem);
  kernel::visit_index(indices.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* idx = indices.data_as<I>();
    check_indices("embedding_backward", idx, indices.numel(), ctx.outputs[0].shape[0], "index", mem);
    sum_rows_at_indices(mem, idx, indices.numel(), box.start[0], dy, out);
  });
  return {out};
}

// ---------------------------------------------------------------------------------------------
// embedding_bag, embedding_bag_backward
//
// The bags' bounds are read on the host (embedding_bag::bounds, so the CPU's checks and
// messages: offsets copied back, a wait on the stream as check_indices', in the kernel, never
// on the issuing thread) and sent back as an array. The forward gives each output element a
// thread; the backward writes each position's contribution row (its scaled dy row; under max,
// dy at each column's first maximum) and sums those per weight row as embedding_backward does,
// so in position order, as the CPU.

// The bags' bounds [bags + 1] on the device, from the forward's inputs `in`.
std::shared_ptr<void> device_bag_bounds(const char* op, const std::vector<Tensor>& in, int64_t bags, Memory& mem) {
  const std::vector<int64_t> bounds = embedding_bag::bounds(op, in[0].shape(), bags, [&] {
    std::vector<int64_t> starts;
    kernel::visit_index(in[2].dtype(), [&](auto iv) {
      using I = decltype(iv);
      std::vector<I> host(in[2].numel());
      device::cuda::check(cudaMemcpyAsync(host.data(), in[2].data_as<I>(), host.size() * sizeof(I),
                                          cudaMemcpyDeviceToHost, stream()),
                          "cudaMemcpyAsync");
      device::cuda::check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
      starts.assign(host.begin(), host.end());
    });
    return starts;
  });
  std::shared_ptr<void> block = mem.allocate(bounds.size() * sizeof(int64_t));
  device::cuda::check(cudaMemcpyAsync(block.get(), bounds.data(), bounds.size() * sizeof(int64_t),
                                      cudaMemcpyHostToDevice, stream()),
                      "cudaMemcpyAsync");
  device::cuda::check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");  // bounds is freed on return
  return block;
}

// The bag holding position p: the last b whose bounds[b] <= p (empty bags start there too).
__device__ int64_t bag_of(const int64_t* __restrict__ bounds, int64_t bags, int64_t p) {
  int64_t lo = 0, hi = bags;
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (bounds[mid] <= p) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

template <typename T, typename I>
__global__ void embedding_bag_forward_kernel(const I* __restrict__ idx, const int64_t* __restrict__ bounds,
                                             const T* __restrict__ w, const T* __restrict__ psw,
                                             embedding_bag::BagAttrs a, int64_t total, int64_t width,
                                             T* __restrict__ y) {
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t b = e / width, c = e - b * width;
    T acc = 0;
    int64_t count = 0;
    for (int64_t p = bounds[b]; p < bounds[b + 1]; ++p) {
      const int64_t i = idx[p];
      if (i == a.padding_idx) continue;
      const T v = w[i * width + c];
      if (a.mode == embedding_bag::kMax) {
        acc = count == 0 || v > acc ? v : acc;
      } else {
        acc += (psw ? psw[p] : T{1}) * v;
      }
      ++count;
    }
    if (a.mode == embedding_bag::kMean && count > 1) acc /= static_cast<T>(count);
    y[e] = acc;
  }
}

std::vector<Tensor> embedding_bag(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const embedding_bag::BagAttrs a = embedding_bag::read_attrs("embedding_bag", ctx.attrs);
  const Tensor &indices = in[0], &weight = in[1];
  const int64_t bags = ctx.output_boxes[0].extent[0], width = weight.shape()[1];
  Memory& mem = memory_of(in);
  Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, weight.dtype(), mem);
  kernel::visit_index(indices.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* idx = indices.data_as<I>();
    check_indices("embedding_bag", idx, indices.numel(), weight.shape()[0], "index", mem);
    const std::shared_ptr<void> bounds = device_bag_bounds("embedding_bag", in, bags, mem);
    const int64_t total = out.numel();
    if (total == 0) return;
    visit_floating(weight.dtype(), [&](auto v) {
      using T = decltype(v);
      embedding_bag_forward_kernel<<<blocks_for(total, kThreads), kThreads, 0, stream()>>>(
          idx, static_cast<const int64_t*>(bounds.get()), weight.data_as<T>(),
          a.weighted ? in.back().data_as<T>() : nullptr, a, total, width, out.data_as<T>());
      check_launch("embedding_bag");
    });
  });
  return {out};
}

// Each bag's factor of dy: 1 / its count of rows under mean (1 for an empty bag), else 1.
template <typename T, typename I>
__global__ void bag_scales(const I* __restrict__ idx, const int64_t* __restrict__ bounds, embedding_bag::BagAttrs a,
                           int64_t bags, T* __restrict__ scale) {
  for (int64_t b = first_index(); b < bags; b += grid_step()) {
    int64_t count = 0;
    for (int64_t p = bounds[b]; p < bounds[b + 1]; ++p) count += idx[p] != a.padding_idx;
    scale[b] = a.mode == embedding_bag::kMean && count > 0 ? T{1} / static_cast<T>(count) : T{1};
  }
}

// Position p's contribution row (sum and mean): its bag's dy row times the bag's scale and
// p's per-sample weight; zeros at padding_idx.
template <typename T, typename I>
__global__ void bag_contributions(const I* __restrict__ idx, const int64_t* __restrict__ bounds,
                                  const T* __restrict__ scale, const T* __restrict__ psw, const T* __restrict__ dy,
                                  embedding_bag::BagAttrs a, int64_t bags, int64_t total, int64_t width,
                                  T* __restrict__ rows) {
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t p = e / width, c = e - p * width, b = bag_of(bounds, bags, p);
    rows[e] = idx[p] == a.padding_idx ? T{0} : scale[b] * (psw ? psw[p] : T{1}) * dy[b * width + c];
  }
}

// Under max, over zeroed rows: dy[b, c] at the row of bag b's first maximum in column c.
template <typename T, typename I>
__global__ void bag_max_contributions(const I* __restrict__ idx, const int64_t* __restrict__ bounds,
                                      const T* __restrict__ w, const T* __restrict__ dy, embedding_bag::BagAttrs a,
                                      int64_t total, int64_t width, T* __restrict__ rows) {
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t b = e / width, c = e - b * width;
    int64_t first_max = -1;
    for (int64_t p = bounds[b]; p < bounds[b + 1]; ++p) {
      const int64_t i = idx[p];
      if (i == a.padding_idx) continue;
      if (first_max < 0 || w[i * width + c] > w[idx[first_max] * width + c]) first_max = p;
    }
    if (first_max >= 0) rows[first_max * width + c] = dy[e];
  }
}

// dper_sample_weights[p]: p's bag's dy row dotted with p's weight row (0 at padding_idx).
template <typename T, typename I>
__global__ void bag_sample_weight_grads(const I* __restrict__ idx, const int64_t* __restrict__ bounds,
                                        const T* __restrict__ w, const T* __restrict__ dy, embedding_bag::BagAttrs a,
                                        int64_t bags, int64_t n, int64_t width, T* __restrict__ dpsw) {
  for (int64_t p = first_index(); p < n; p += grid_step()) {
    const int64_t i = idx[p], b = bag_of(bounds, bags, p);
    T dot{0};
    if (i != a.padding_idx) {
      for (int64_t c = 0; c < width; ++c) dot += dy[b * width + c] * w[i * width + c];
    }
    dpsw[p] = dot;
  }
}

std::vector<Tensor> embedding_bag_backward(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const embedding_bag::BagAttrs a = embedding_bag::read_attrs("embedding_bag_backward", ctx.attrs);
  const Tensor& dy = in[0];
  const std::vector<Tensor> forward(in.begin() + 1, in.end());
  const Tensor &indices = forward[0], &weight = forward[1];
  const int64_t bags = dy.shape()[0], width = dy.shape()[1], n = indices.numel();
  Memory& mem = memory_of(in);
  std::vector<Tensor> outs{output(ctx, 0, ctx.output_boxes[0].extent, weight.dtype(), mem)};
  if (a.weighted) outs.push_back(output(ctx, 1, ctx.output_boxes[1].extent, weight.dtype(), mem));
  kernel::visit_index(indices.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* idx = indices.data_as<I>();
    check_indices("embedding_bag_backward", idx, n, weight.shape()[0], "index", mem);
    const std::shared_ptr<void> bound_block = device_bag_bounds("embedding_bag_backward", forward, bags, mem);
    const int64_t* bounds = static_cast<const int64_t*>(bound_block.get());
    if (n == 0 || bags == 0 || width == 0) {
      for (const Tensor& t : outs) zero(t);
      return;
    }
    visit_floating(weight.dtype(), [&](auto v) {
      using T = decltype(v);
      const Tensor rows = Tensor::empty({n, width}, weight.dtype(), mem);  // the contribution rows
      if (a.mode == embedding_bag::kMax) {
        zero(rows);
        bag_max_contributions<<<blocks_for(bags * width, kThreads), kThreads, 0, stream()>>>(
            idx, bounds, weight.data_as<T>(), dy.data_as<T>(), a, bags * width, width, rows.data_as<T>());
        check_launch("bag_max_contributions");
      } else {
        const std::shared_ptr<void> scale = mem.allocate(bags * sizeof(T));
        bag_scales<<<blocks_for(bags, kThreads), kThreads, 0, stream()>>>(idx, bounds, a, bags,
                                                                          static_cast<T*>(scale.get()));
        check_launch("bag_scales");
        bag_contributions<<<blocks_for(n * width, kThreads), kThreads, 0, stream()>>>(
            idx, bounds, static_cast<const T*>(scale.get()), a.weighted ? forward.back().data_as<T>() : nullptr,
            dy.data_as<T>(), a, bags, n * width, width, rows.data_as<T>());
        check_launch("bag_contributions");
      }
      sum_rows_at_indices(mem, idx, n, 0, rows, outs[0]);
      if (a.weighted) {
        bag_sample_weight_grads<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(
            idx, bounds, weight.data_as<T>(), dy.data_as<T>(), a, bags, n, width, outs[1].data_as<T>());
        check_launch("bag_sample_weight_grads");
      }
    });
  });
  return outs;
}

// ---------------------------------------------------------------------------------------------
// gather, gather_backward
//
// Both view index as [outer, m, inner] around dim and x (or dx) as [outer, size, inner], x's
// local part holding the logical positions [first, first + size) along dim.

template <typename V, typename I>
__global__ void gather_kernel(const V* __restrict__ x, const I* __restrict__ idx, V* __restrict__ out, int64_t total,
                              int64_t m, int64_t inner, int64_t size, int64_t first) {
  for (int64_t e = first_index(); e < total; e += grid_step()) {
    const int64_t line = e / inner, i = e - line * inner, at = idx[e] - first;
    out[e] = at >= 0 && at < size ? x[(line / m * size + at) * inner + i] : V{0};
  }
}

std::vector<Tensor> gather(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const Tensor& index = in[1];
  const int64_t dim = dim_attr("gather", ctx.attrs, x.shape());
  const int64_t m = index.shape()[dim], size = x.shape()[dim], first = ctx.input_boxes[0].start[dim];
  const int64_t inner = around(index.shape(), dim).inner, total = index.numel();
  Memory& mem = memory_of(in);
  Tensor out = output(ctx, 0, index.shape(), x.dtype(), mem);
  kernel::visit_index(index.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* idx = index.data_as<I>();
    check_indices("gather", idx, total, ctx.inputs[0].shape[dim], "index", mem);
    if (total == 0) return;
    visit_bits(x.dtype(), [&](auto bv) {
      using V = decltype(bv);
      gather_kernel<<<blocks_for(total, kThreads), kThreads, 0, stream()>>>(x.data_as<V>(), idx, out.data_as<V>(),
                                                                            total, m, inner, size, first);
      check_launch("gather");
    });
  });
  return {out};
}

// A thread per (outer, inner) column owns that column of dx's slab and adds dy along dim in
// index order, as the CPU's: no two threads write one element, no atomics.
template <typename T, typename I>
__global__ void gather_backward_kernel(const I* __restrict__ idx, const T* __restrict__ dy, T* __restrict__ dx,
                                       int64_t columns, int64_t m, int64_t inner, int64_t size, int64_t first) {
  for (int64_t t = first_index(); t < columns; t += grid_step()) {
    const int64_t o = t / inner, i = t - o * inner;
    for (int64_t j = 0; j < m; ++j) {
      const int64_t e = (o * m + j) * inner + i, at = idx[e] - first;
      if (at >= 0 && at < size) {
        T& d = dx[(o * size + at) * inner + i];
        d = add(d, dy[e]);
      }
    }
  }
}

std::vector<Tensor> gather_backward(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& index = in[0];
  const Tensor& dy = in[1];
  const int64_t dim = dim_attr("gather_backward", ctx.attrs, index.shape());
  const Box& box = ctx.output_boxes[0];
  const AroundDim a = around(index.shape(), dim);
  const int64_t m = index.shape()[dim], size = box.extent[dim], first = box.start[dim];
  Memory& mem = memory_of(in);
  Tensor out = output(ctx, 0, box.extent, dy.dtype(), mem);
  kernel::visit_index(index.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* idx = index.data_as<I>();
    check_indices("gather_backward", idx, index.numel(), ctx.outputs[0].shape[dim], "index", mem);
    if (out.numel() == 0) return;
    zero(out);
    if (index.numel() == 0) return;
    visit_dtype(dy.dtype(), [&](auto v) {
      using T = decltype(v);
      const int64_t columns = a.outer * a.inner;
      gather_backward_kernel<<<blocks_for(columns, kThreads), kThreads, 0, stream()>>>(
          idx, dy.data_as<T>(), out.data_as<T>(), columns, m, a.inner, size, first);
      check_launch("gather_backward");
    });
  });
  return {out};
}

}  // namespace

void add_nn_kernels(OpRegistry& r) {
  r.add_kernel("cuda", "softmax", softmax("softmax", false));
  r.add_kernel("cuda", "log_softmax", softmax("log_softmax", true));
  r.add_kernel("cuda", "softmax_backward", softmax_backward);
  r.add_kernel("cuda", "layer_norm", layer_norm);
  r.add_kernel("cuda", "layer_norm_backward", layer_norm_backward);
  r.add_kernel("cuda", "softmax_cross_entropy", softmax_cross_entropy);
  r.add_kernel("cuda", "softmax_cross_entropy_backward", softmax_cross_entropy_backward);
  r.add_kernel("cuda", "embedding", embedding);
  r.add_kernel("cuda", "embedding_backward", embedding_backward);
  r.add_kernel("cuda", "embedding_bag", embedding_bag);
  r.add_kernel("cuda", "embedding_bag_backward", embedding_bag_backward);
  r.add_kernel("cuda", "gather", gather);
  r.add_kernel("cuda", "gather_backward", gather_backward);
}

}  // namespace mf::cuda
