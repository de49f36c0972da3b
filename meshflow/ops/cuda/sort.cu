// Copyright 2026 The meshflow Authors.
// The CUDA kernels of ops/sort.cc: cumsum, cumprod, logcumsumexp, their backward ops, sort,
// kthvalue, cummax, cummin, mode, max_dim, min_dim, flip.
//
// Scans run one thread per line (a tensor seen as [outer, n, inner] around the scanned dim
// has outer * inner lines of n elements), accumulating floats in double as the CPU does, so
// both give the same values; neighbouring threads read neighbouring elements when inner > 1.
// A few very long lines get little parallelism this way; tensors scanned in practice
// (positions, masks, probabilities per row) have many lines.
//
// sort: every element's flat index, merge-sorted at once (cub::DeviceMergeSort, stable) by
// (line, value, position along the line), NaN the largest value as on the CPU; each line's
// elements then lie together in sorted order and one kernel scatters values and indices.
//
// max_dim, min_dim: one thread per line, its running pick (select::replaces) as the CPU's.
//
// kthvalue: one thread per line runs torch's quickselect (select_math.h) on its copy of the
// line in scratch memory, so ties pick the index the CPU (and torch's CPU) picks.
//
// cummax, cummin: one thread per line, the CPU's running rule (line_picks.h).
//
// mode: the lines staged through the host, where the CPU's pick (line_picks.h: std::sort's
// order, which no device sort reproduces) runs; mode is rare and its result small.
//
// sort without "stable" sorts stably here: torch's unstable CPU order is std::sort's.
#include <cuda_runtime.h>

#include <cub/device/device_merge_sort.cuh>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "meshflow/device/cuda/cuda_device.h"
#include "meshflow/ops/cuda/cuda_kernels.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/line_picks.h"
#include "meshflow/ops/reduce_math.h"
#include "meshflow/ops/scan_util.h"
#include "meshflow/ops/select_math.h"

namespace mf::cuda {
namespace {

constexpr int kThreads = 256;

__device__ int64_t first_index() { return blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; }
__device__ int64_t grid_step() { return static_cast<int64_t>(blockDim.x) * gridDim.x; }

// [outer, n, inner] around dim, as sort.cc's Lines.
struct Lines {
  int64_t outer = 1, n = 1, inner = 1;
  Lines(const Shape& shape, int64_t dim) {
    for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
      (d < dim ? outer : d == dim ? n : inner) *= shape[d];
    }
  }
  __host__ __device__ int64_t count() const { return outer * inner; }
  __device__ int64_t start(int64_t l) const { return l / inner * n * inner + l % inner; }
};

int64_t dim_of(const std::string& op, const Attrs& attrs, const Shape& shape) {
  return kernel::normalize_dim(op, attrs.get_int("dim"), std::max<int64_t>(static_cast<int64_t>(shape.size()), 1));
}

using scalar::Scan;

template <Scan kScan, typename T>
__global__ void scan_kernel(const T* __restrict__ x, T* __restrict__ out, Lines lines, bool reverse) {
  using A = scalar::ScanAcc<T>;
  for (int64_t l = first_index(); l < lines.count(); l += grid_step()) {
    const int64_t s = lines.start(l);
    A acc = scalar::scan_identity<kScan, A>();
    for (int64_t j = 0; j < lines.n; ++j) {
      const int64_t at = s + (reverse ? lines.n - 1 - j : j) * lines.inner;
      acc = scalar::scan_step<kScan>(acc, static_cast<A>(x[at]));
      out[at] = static_cast<T>(acc);
    }
  }
}

template <Scan kScan>
Kernel scan(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Lines lines(in[0].shape(), dim_of(name, ctx.attrs, in[0].shape()));
    const bool reverse = ctx.attrs.has("reverse") && ctx.attrs.get_bool("reverse");
    Tensor out = output(ctx, 0, in[0].shape(), in[0].dtype(), memory_of(in));
    if (in[0].numel() == 0) return std::vector<Tensor>{out};
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (kScan != Scan::kLogSumExp || std::is_floating_point_v<T>) {  // infer refuses the rest
        scan_kernel<kScan, T><<<blocks_for(lines.count(), kThreads), kThreads, 0, stream()>>>(
            in[0].data_as<T>(), out.data_as<T>(), lines, reverse);
        check_launch(name);
      }
    });
    return std::vector<Tensor>{out};
  };
}

// The scans' backward lines, as the CPU's (scan_util.h).
struct CumprodLine {
  template <typename T>
  __device__ void operator()(const T* x, const T*, const T* dy, T* dx, int64_t s, int64_t n, int64_t step) const {
    kernel::cumprod_backward_line(x, dy, dx, s, n, step);
  }
};
struct LogcumsumexpLine {
  template <typename T>
  __device__ void operator()(const T* x, const T* y, const T* dy, T* dx, int64_t s, int64_t n, int64_t step) const {
    kernel::logcumsumexp_backward_line(x, y, dy, dx, s, n, step);
  }
};

template <typename Line, typename T>
__global__ void scan_backward_kernel(Line line, const T* x, const T* y, const T* dy, T* dx, Lines lines) {
  for (int64_t l = first_index(); l < lines.count(); l += grid_step()) {
    line(x, y, dy, dx, lines.start(l), lines.n, lines.inner);
  }
}

// A scan's backward op: inputs x, [y,] dy of one float dtype and shape; output dx.
template <typename Line>
Kernel scan_backward(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Lines lines(in[0].shape(), dim_of(name, ctx.attrs, in[0].shape()));
    Tensor out = output(ctx, 0, in[0].shape(), in[0].dtype(), memory_of(in));
    if (in[0].numel() == 0) return std::vector<Tensor>{out};
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {  // infer refuses the rest
        const T* y = in.size() == 3 ? in[1].data_as<T>() : nullptr;
        scan_backward_kernel<<<blocks_for(lines.count(), kThreads), kThreads, 0, stream()>>>(
            Line{}, in[0].data_as<T>(), y, in.back().data_as<T>(), out.data_as<T>(), lines);
        check_launch(name);
      }
    });
    return std::vector<Tensor>{out};
  };
}

// ---------------------------------------------------------------------------------------
// sort

// Orders flat indices by (line, value, position along the line): a strict total order, so
// the merge sort's result is the CPU's stable sort, line by line.
template <typename T>
struct Before {
  const T* x;
  Lines lines;
  bool descending;

  __device__ bool operator()(int64_t a, int64_t b) const {
    const int64_t line_a = a / (lines.n * lines.inner) * lines.inner + a % lines.inner;
    const int64_t line_b = b / (lines.n * lines.inner) * lines.inner + b % lines.inner;
    if (line_a != line_b) return line_a < line_b;
    const T va = x[a], vb = x[b];
    bool a_nan = false, b_nan = false;
    if constexpr (std::is_floating_point_v<T>) {
      a_nan = va != va;
      b_nan = vb != vb;
    }
    if (a_nan != b_nan) return descending ? a_nan : b_nan;
    if (!a_nan && va != vb) return descending ? va > vb : va < vb;
    return a < b;  // same line: a's position comes first
  }
};

__global__ void iota_kernel(int64_t* keys, int64_t n) {
  for (int64_t i = first_index(); i < n; i += grid_step()) keys[i] = i;
}

// Sorted position p holds line p / n's element of rank p % n: written to its place among the
// kept ranks (the first `kept.n` of each line).
template <typename T>
__global__ void scatter_sorted(const int64_t* __restrict__ keys, const T* __restrict__ x, T* __restrict__ values,
                               int64_t* __restrict__ indices, Lines lines, Lines kept) {
  const int64_t total = lines.count() * lines.n;
  for (int64_t p = first_index(); p < total; p += grid_step()) {
    const int64_t line = p / lines.n, rank = p % lines.n;
    if (rank >= kept.n) continue;
    const int64_t at = kept.start(line) + rank * kept.inner;
    const int64_t from = keys[p];
    values[at] = x[from];
    indices[at] = from / lines.inner % lines.n;
  }
}

std::vector<Tensor> sort(const std::vector<Tensor>& in, const KernelContext& ctx) {
  Memory& mem = memory_of(in);
  const int64_t dim = dim_of("sort", ctx.attrs, in[0].shape());
  const Lines lines(in[0].shape(), dim);
  Shape out = in[0].shape();
  if (!out.empty() && ctx.attrs.has("k")) out[dim] = ctx.attrs.get_int("k");  // checked by sort's infer
  const Lines kept(out, dim);
  const bool descending = ctx.attrs.get_bool("descending");
  Tensor values = output(ctx, 0, out, in[0].dtype(), mem);
  Tensor indices = output(ctx, 1, out, DType::kInt64, mem);
  const int64_t n = in[0].numel();
  if (n == 0 || values.numel() == 0) return {values, indices};
  visit_dtype(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    const std::shared_ptr<void> keys_memory = mem.allocate(static_cast<size_t>(n) * sizeof(int64_t));
    auto* keys = static_cast<int64_t*>(keys_memory.get());
    iota_kernel<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(keys, n);
    check_launch("sort");
    const Before<T> before{in[0].data_as<T>(), lines, descending};
    size_t scratch_bytes = 0;
    device::cuda::check(cub::DeviceMergeSort::StableSortKeys(nullptr, scratch_bytes, keys, n, before, stream()),
                        "cub::DeviceMergeSort::StableSortKeys");
    const std::shared_ptr<void> scratch = mem.allocate(scratch_bytes > 0 ? scratch_bytes : 1);
    device::cuda::check(cub::DeviceMergeSort::StableSortKeys(scratch.get(), scratch_bytes, keys, n, before, stream()),
                        "cub::DeviceMergeSort::StableSortKeys");
    scatter_sorted<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(keys, in[0].data_as<T>(), values.data_as<T>(),
                                                                       indices.data_as<int64_t>(), lines, kept);
    check_launch("sort");
  });
  return {values, indices};
}

// ---------------------------------------------------------------------------------------
// kthvalue

template <typename T>
__global__ void kthvalue_kernel(const T* __restrict__ x, T* line_values, int64_t* line_indices, T* values,
                                int64_t* indices, Lines lines, int64_t k) {
  for (int64_t l = first_index(); l < lines.count(); l += grid_step()) {
    const int64_t start = lines.start(l);
    T* v = line_values + l * lines.n;
    int64_t* at = line_indices + l * lines.n;
    for (int64_t j = 0; j < lines.n; ++j) {
      v[j] = x[start + j * lines.inner];
      at[j] = j;
    }
    select::quick_select(
        lines.n, k, [v](int64_t i) { return v[i]; },
        [v, at](int64_t i, int64_t j) {
          const T value = v[i];
          v[i] = v[j];
          v[j] = value;
          const int64_t position = at[i];
          at[i] = at[j];
          at[j] = position;
        });
    values[l] = v[k];  // the kept dim has size 1: line l's result is element l
    indices[l] = at[k];
  }
}

std::vector<Tensor> kthvalue(const std::vector<Tensor>& in, const KernelContext& ctx) {
  Memory& mem = memory_of(in);
  const int64_t dim = dim_of("kthvalue", ctx.attrs, in[0].shape());
  const Lines lines(in[0].shape(), dim);
  Shape out = in[0].shape();
  if (!out.empty()) out[dim] = 1;
  const int64_t k = ctx.attrs.get_int("k") - 1;  // checked by kthvalue's infer
  Tensor values = output(ctx, 0, out, in[0].dtype(), mem);
  Tensor indices = output(ctx, 1, out, DType::kInt64, mem);
  const int64_t n = in[0].numel();
  if (n == 0) return {values, indices};
  visit_dtype(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    const std::shared_ptr<void> scratch = mem.allocate(static_cast<size_t>(n) * (sizeof(T) + sizeof(int64_t)));
    auto* line_indices = static_cast<int64_t*>(scratch.get());
    auto* line_values = reinterpret_cast<T*>(line_indices + n);
    kthvalue_kernel<<<blocks_for(lines.count(), kThreads), kThreads, 0, stream()>>>(
        in[0].data_as<T>(), line_values, line_indices, values.data_as<T>(), indices.data_as<int64_t>(), lines, k);
    check_launch("kthvalue");
  });
  return {values, indices};
}

// ---------------------------------------------------------------------------------------
// cummax, cummin

template <bool kLargest, typename T>
__global__ void running_kernel(const T* __restrict__ x, T* values, int64_t* indices, Lines lines) {
  for (int64_t l = first_index(); l < lines.count(); l += grid_step()) {
    const int64_t start = lines.start(l);
    T best = x[start];
    int64_t at = 0;
    for (int64_t j = 0; j < lines.n; ++j) {
      const int64_t i = start + j * lines.inner;
      if (linepick::running_takes<kLargest>(best, x[i])) best = x[i], at = j;
      values[i] = best;
      indices[i] = at;
    }
  }
}

template <bool kLargest>
Kernel running(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Memory& mem = memory_of(in);
    const Lines lines(in[0].shape(), dim_of(name, ctx.attrs, in[0].shape()));
    Tensor values = output(ctx, 0, in[0].shape(), in[0].dtype(), mem);
    Tensor indices = output(ctx, 1, in[0].shape(), DType::kInt64, mem);
    if (in[0].numel() == 0) return std::vector<Tensor>{values, indices};
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      running_kernel<kLargest><<<blocks_for(lines.count(), kThreads), kThreads, 0, stream()>>>(
          in[0].data_as<T>(), values.data_as<T>(), indices.data_as<int64_t>(), lines);
      check_launch(name);
    });
    return std::vector<Tensor>{values, indices};
  };
}

// ---------------------------------------------------------------------------------------
// mode

std::vector<Tensor> mode(const std::vector<Tensor>& in, const KernelContext& ctx) {
  Memory& mem = memory_of(in);
  const Shape& shape = in[0].shape();
  const int64_t dim = dim_of("mode", ctx.attrs, shape);
  const int64_t n = shape.empty() ? 1 : shape[dim];
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d) inner *= shape[d];
  Shape out = shape;
  if (!out.empty()) out[dim] = 1;
  Tensor values = output(ctx, 0, out, in[0].dtype(), mem);
  Tensor indices = output(ctx, 1, out, DType::kInt64, mem);
  const int64_t count = values.numel();
  if (in[0].numel() == 0) return {values, indices};
  visit_dtype(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    std::vector<T> x(static_cast<size_t>(in[0].numel())), picked(static_cast<size_t>(count));
    std::vector<int64_t> at(static_cast<size_t>(count));
    device::cuda::check(cudaMemcpyAsync(x.data(), in[0].data(), x.size() * sizeof(T), cudaMemcpyDeviceToHost, stream()),
                        "cudaMemcpyAsync");
    device::cuda::check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
    std::vector<std::pair<T, int64_t>> line(static_cast<size_t>(n));
    for (int64_t l = 0; l < count; ++l) {
      const int64_t start = l / inner * n * inner + l % inner;
      for (int64_t j = 0; j < n; ++j) line[j] = {x[start + j * inner], j};
      const size_t best = linepick::mode_pick(line);
      picked[l] = line[best].first;
      at[l] = line[best].second;
    }
    device::cuda::check(
        cudaMemcpyAsync(values.data(), picked.data(), picked.size() * sizeof(T), cudaMemcpyHostToDevice, stream()),
        "cudaMemcpyAsync");
    device::cuda::check(
        cudaMemcpyAsync(indices.data(), at.data(), at.size() * sizeof(int64_t), cudaMemcpyHostToDevice, stream()),
        "cudaMemcpyAsync");
    device::cuda::check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
  });
  return {values, indices};
}

// ---------------------------------------------------------------------------------------
// max_dim, min_dim

template <bool kMax, typename T>
__global__ void extreme_kernel(const T* __restrict__ x, T* values, int64_t* indices, Lines lines) {
  for (int64_t l = first_index(); l < lines.count(); l += grid_step()) {
    const T* line = x + lines.start(l);
    T best = line[0];
    int64_t at = 0;
    for (int64_t j = 1; j < lines.n; ++j) {
      const T v = line[j * lines.inner];
      if (select::replaces<kMax>(best, v)) {
        best = v;
        at = j;
      }
    }
    values[l] = best;  // outputs laid out [outer, inner]: line l's result is element l
    indices[l] = at;
  }
}

template <bool kMax>
Kernel extreme(const char* name) {
  return [name](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Memory& mem = memory_of(in);
    const int64_t dim = dim_of(name, ctx.attrs, in[0].shape());
    const Lines lines(in[0].shape(), dim);
    Tensor values = output(ctx, 0, ctx.output_boxes[0].extent, in[0].dtype(), mem);
    Tensor indices = output(ctx, 1, ctx.output_boxes[1].extent, DType::kInt64, mem);
    if (lines.count() == 0) return std::vector<Tensor>{values, indices};
    visit_with_bool(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      extreme_kernel<kMax><<<blocks_for(lines.count(), kThreads), kThreads, 0, stream()>>>(
          in[0].data_as<T>(), values.data_as<T>(), indices.data_as<int64_t>(), lines);
      check_launch(name);
    });
    return std::vector<Tensor>{values, indices};
  };
}

// ---------------------------------------------------------------------------------------
// flip

constexpr int kMaxFlipDims = 16;

struct FlipLayout {
  int nd = 0;
  int64_t dims[kMaxFlipDims] = {};
  bool flipped[kMaxFlipDims] = {};
};

template <typename T>
__global__ void flip_kernel(const T* __restrict__ x, T* __restrict__ y, int64_t n, FlipLayout layout) {
  for (int64_t i = first_index(); i < n; i += grid_step()) {
    int64_t rest = i, from = 0, stride = 1;
    for (int d = layout.nd - 1; d >= 0; --d) {
      const int64_t size = layout.dims[d], at = rest % size;
      rest /= size;
      from += (layout.flipped[d] ? size - 1 - at : at) * stride;
      stride *= size;
    }
    y[i] = x[from];
  }
}

std::vector<Tensor> flip(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Shape& shape = in[0].shape();
  Tensor out = output(ctx, 0, shape, in[0].dtype(), memory_of(in));
  const int64_t n = in[0].numel();
  if (n == 0) return {out};
  FlipLayout layout;
  const int64_t nd = static_cast<int64_t>(shape.size());
  if (nd > kMaxFlipDims) {
    op_error("flip", "the CUDA kernel takes at most " + std::to_string(kMaxFlipDims) + " dims, got " +
                         std::to_string(nd));
  }
  layout.nd = static_cast<int>(nd);
  for (int64_t d = 0; d < nd; ++d) layout.dims[d] = shape[d];
  for (int64_t d : ctx.attrs.get_ints("dims")) {
    if (nd) layout.flipped[kernel::normalize_dim("flip", d, nd)] = true;
  }
  visit_real_storage(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    flip_kernel<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(in[0].data_as<T>(), out.data_as<T>(), n, layout);
    check_launch("flip");
  });
  return {out};
}

}  // namespace

void add_sort_kernels(OpRegistry& r) {
  r.add_kernel("cuda", "cumsum", scan<Scan::kSum>("cumsum"));
  r.add_kernel("cuda", "cumprod", scan<Scan::kProduct>("cumprod"));
  r.add_kernel("cuda", "logcumsumexp", scan<Scan::kLogSumExp>("logcumsumexp"));
  r.add_kernel("cuda", "cumprod_backward", scan_backward<CumprodLine>("cumprod_backward"));
  r.add_kernel("cuda", "logcumsumexp_backward", scan_backward<LogcumsumexpLine>("logcumsumexp_backward"));
  r.add_kernel("cuda", "sort", sort);
  r.add_kernel("cuda", "kthvalue", kthvalue);
  r.add_kernel("cuda", "cummax", running<true>("cummax"));
  r.add_kernel("cuda", "cummin", running<false>("cummin"));
  r.add_kernel("cuda", "mode", mode);
  r.add_kernel("cuda", "max_dim", extreme<true>("max_dim"));
  r.add_kernel("cuda", "min_dim", extreme<false>("min_dim"));
  r.add_kernel("cuda", "flip", flip);
}

}  // namespace mf::cuda
