// Copyright 2026 The meshflow Authors.
// The CUDA kernels of the creation ops (ops/creation.cc): zeros, ones, full, arange, rand,
// randn, and of dropout. Like the CPU's, each fills the region ctx.output_boxes[0] of the logical tensor
// with values that are functions of the element's LOGICAL row-major index, so a global
// tensor is the same on any placement and SBP, and on the GPU the same as on the CPU: the
// random ops run the CPU's Philox4x32-10 and its bits-to-float conversions (integer and
// exact float operations, bit for bit), and arange and linspace compute the CPU's values
// (ops/range_math.h).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "meshflow/device/cuda/cuda_device.h"
#include "meshflow/ops/creation.h"
#include "meshflow/ops/cuda/cuda_kernels.h"
#include "meshflow/ops/fill_value.h"
#include "meshflow/ops/norm_math.h"
#include "meshflow/ops/range_math.h"

namespace mf::cuda {
namespace {

// The most dims (after merging) of a part a launch handles: a part has at most one more
// than the dims its placement splits.
constexpr int kMaxDims = 8;
constexpr int kThreads = 256;

// Where local element i lies in the logical tensor: base plus, for each dim of the part
// (innermost first, so the unrolled loop indexes them with constants), i's index in the dim
// times the dim's logical stride.
struct LogicalIndex {
  int nd = 0;
  int64_t base = 0;
  int64_t size[kMaxDims] = {}, stride[kMaxDims] = {};

  __device__ int64_t operator()(int64_t i) const {
    int64_t index = base;
#pragma unroll
    for (int k = 0; k < kMaxDims; ++k) {
      if (k < nd) {
        const int64_t at = k + 1 < nd ? i % size[k] : i;
        i /= size[k];
        index += at * stride[k];
      }
    }
    return index;
  }
};

// The part `box` of a row-major tensor of shape `logical`, dims of extent 1 folded into the
// base and each dim merged into the one outside it where the part holds it whole.
LogicalIndex logical_index(const std::string& op, const Box& box, const Shape& logical) {
  const Shape strides = row_major_strides(logical);
  LogicalIndex at;
  std::vector<std::pair<int64_t, int64_t>> dims;  // (extent, logical stride), outermost first
  for (size_t d = 0; d < logical.size(); ++d) {
    at.base += box.start[d] * strides[d];
    if (box.extent[d] == 1) continue;
    if (!dims.empty() && dims.back().second == strides[d] * box.extent[d]) {
      dims.back() = {dims.back().first * box.extent[d], strides[d]};
    } else {
      dims.emplace_back(box.extent[d], strides[d]);
    }
  }
  if (dims.size() > static_cast<size_t>(kMaxDims)) {
    op_error(op, "the local part " + box.str() + " of a tensor of shape " + to_string(logical) + " spans " +
                     std::to_string(dims.size()) + " separate dims; the CUDA kernel takes at most " +
                     std::to_string(kMaxDims));
  }
  at.nd = static_cast<int>(dims.size());
  for (size_t k = 0; k < dims.size(); ++k) {
    at.size[k] = dims[dims.size() - 1 - k].first;
    at.stride[k] = dims[dims.size() - 1 - k].second;
  }
  return at;
}

// out[i] = value(logical index of local element i).
template <typename T, typename Value>
__global__ void fill_kernel(T* __restrict__ out, LogicalIndex at, int64_t n, Value value) {
  const int64_t grid_step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += grid_step) {
    out[i] = value(at(i));
  }
}

template <typename T, typename Value>
void fill(const char* op, const Tensor& out, const LogicalIndex& at, Value value) {
  const int64_t n = out.numel();
  if (n == 0) return;
  fill_kernel<T><<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(out.data_as<T>(), at, n, value);
  check_launch(op);
}

// The kernel's output: the part ctx.output_boxes[0] of the logical output.
Tensor output_part(const std::vector<Tensor>& in, const KernelContext& ctx) {
  return output(ctx, 0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype, memory_of(in));
}

// The exact value of an int attribute (reading it as a double rounds above 2^53); nullopt
// for a float attribute.
std::optional<int64_t> exact_int(const Attrs& attrs, const std::string& key) {
  for (const auto& [k, v] : attrs.items()) {
    if (k == key && std::holds_alternative<int64_t>(v)) return std::get<int64_t>(v);
  }
  return std::nullopt;
}

// ---- zeros, ones, full

template <typename T>
struct Constant {
  T value;
  __device__ T operator()(int64_t) const { return value; }
};

// `fixed` for zeros and ones, the attribute "value" for full.
Kernel constant_kernel(const char* op, std::optional<double> fixed) {
  return [op, fixed](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Tensor out = output_part(in, ctx);
    const double value = fixed ? *fixed : ctx.attrs.get_float("value");
    const std::optional<int64_t> exact = fixed ? std::nullopt : exact_int(ctx.attrs, "value");
    visit_real_storage(out.dtype(), [&](auto v) {
      using T = decltype(v);
      fill<T>(op, out, LogicalIndex{}, Constant<T>{fill_value_as<T>(value, exact)});
    });
    return std::vector<Tensor>{out};
  };
}

// ---- arange and linspace: the CPU's values (ops/range_math.h)

// Integer dtypes: start + i * step in int64 wrapping arithmetic (exact beyond 2^53), start and
// step truncated to integers.
template <typename T>
struct ArangeExact {
  int64_t start, step;
  __device__ T operator()(int64_t i) const {
    const uint64_t value = static_cast<uint64_t>(start) + static_cast<uint64_t>(i) * static_cast<uint64_t>(step);
    return static_cast<T>(static_cast<int64_t>(value));
  }
};

template <typename T>
struct ArangeFloat {
  double start, step;
  int64_t n;
  __device__ T operator()(int64_t i) const { return rangemath::arange_value<T>(start, step, i, n); }
};

std::vector<Tensor> arange(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor out = output_part(in, ctx);
  const LogicalIndex at = logical_index("arange", ctx.output_boxes[0], ctx.outputs[0].shape);
  visit_dtype(out.dtype(), [&](auto v) {
    using T = decltype(v);
    if constexpr (std::is_integral_v<T>) {
      fill<T>("arange", out, at, ArangeExact<T>{arange_int(ctx.attrs, "start"), arange_int(ctx.attrs, "step")});
    } else {
      fill<T>("arange", out, at,
              ArangeFloat<T>{ctx.attrs.get_float("start"), ctx.attrs.get_float("step"), ctx.outputs[0].shape[0]});
    }
  });
  return {out};
}

template <typename T, typename C>
struct LinspaceValue {
  rangemath::Linspace<C> l;
  __device__ T operator()(int64_t i) const { return rangemath::to_element<T>(rangemath::linspace_value(l, i)); }
};

template <typename T, typename C>
struct LogspaceValue {
  rangemath::Logspace<C> l;
  __device__ T operator()(int64_t i) const { return rangemath::to_element<T>(rangemath::logspace_value(l, i)); }
};

std::vector<Tensor> linspace(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor out = output_part(in, ctx);
  const LogicalIndex at = logical_index("linspace", ctx.output_boxes[0], ctx.outputs[0].shape);
  const double start = ctx.attrs.get_float("start"), end = ctx.attrs.get_float("end");
  const int64_t steps = ctx.attrs.get_int("steps");
  visit_dtype(out.dtype(), [&](auto v) {
    using T = decltype(v);
    const auto l = rangemath::linspace_of<T>(start, end, steps);
    fill<T>("linspace", out, at, LinspaceValue<T, decltype(l.start)>{l});
  });
  return {out};
}

std::vector<Tensor> logspace(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor out = output_part(in, ctx);
  const LogicalIndex at = logical_index("logspace", ctx.output_boxes[0], ctx.outputs[0].shape);
  const double start = ctx.attrs.get_float("start"), end = ctx.attrs.get_float("end");
  const double base = ctx.attrs.get_float("base");
  const int64_t steps = ctx.attrs.get_int("steps");
  visit_dtype(out.dtype(), [&](auto v) {
    using T = decltype(v);
    const auto l = rangemath::logspace_of<T>(start, end, base, steps);
    fill<T>("logspace", out, at, LogspaceValue<T, decltype(l.base)>{l});
  });
  return {out};
}

// ---- rand, randn: the CPU's Philox4x32-10 and conversions (creation.cc), element i taking
// the output of counter offset + i.

struct Words {
  uint32_t w[4];
};

__device__ Words philox(uint64_t counter, uint64_t seed) {
  uint32_t c0 = static_cast<uint32_t>(counter), c1 = static_cast<uint32_t>(counter >> 32), c2 = 0, c3 = 0;
  uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
#pragma unroll
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const uint32_t hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    const uint32_t hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
  }
  return {{c0, c1, c2, c3}};
}

// The k-th (0 or 1) uniform in [0, 1): float32 from the top 24 bits of word k, float64 from
// 53 bits of words 2k and 2k+1; both exact.
template <typename T>
__device__ T uniform(const Words& w, int k) {
  if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(w.w[k] >> 8) * 0x1p-24f;
  } else {
    return static_cast<double>((uint64_t{w.w[2 * k]} << 32 | w.w[2 * k + 1]) >> 11) * 0x1p-53;
  }
}

template <typename T>
struct Uniform {
  uint64_t seed, offset;
  __device__ T operator()(int64_t i) const { return uniform<T>(philox(offset + static_cast<uint64_t>(i), seed), 0); }
};

// Box-Muller; 1 - u lies in (0, 1], so the log is finite.
template <typename T>
struct Normal {
  uint64_t seed, offset;
  __device__ T operator()(int64_t i) const {
    const Words w = philox(offset + static_cast<uint64_t>(i), seed);
    const T radius = std::sqrt(T{-2} * std::log(T{1} - uniform<T>(w, 0)));
    return radius * std::cos(static_cast<T>(2 * M_PI) * uniform<T>(w, 1));
  }
};

template <template <typename> class Sample>
Kernel random_kernel(const char* op) {
  return [op](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Tensor out = output_part(in, ctx);
    const uint64_t seed = static_cast<uint64_t>(ctx.attrs.get_int("seed"));
    const uint64_t offset = static_cast<uint64_t>(ctx.attrs.get_int("offset"));
    const LogicalIndex at = logical_index(op, ctx.output_boxes[0], ctx.outputs[0].shape);
    if (out.dtype() == DType::kFloat32) {
      fill<float>(op, out, at, Sample<float>{seed, offset});
    } else {
      fill<double>(op, out, at, Sample<double>{seed, offset});
    }
    return std::vector<Tensor>{out};
  };
}

// ---- dropout: element i's mask from rand's value for its counter offset + i
// (ops/creation.cc, ops/norm_math.h's DropoutScale), y = x * mask.

template <typename T>
__global__ void dropout_kernel(const T* __restrict__ x, T* __restrict__ y, T* __restrict__ mask, LogicalIndex at,
                               int64_t n, uint64_t seed, uint64_t offset, normmath::DropoutScale<T> scaling) {
  const int64_t grid_step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += grid_step) {
    const T u = uniform<T>(philox(offset + static_cast<uint64_t>(at(i)), seed), 0);
    const T m = scaling.mask(u);
    mask[i] = m;
    y[i] = x[i] * m;
  }
}

std::vector<Tensor> dropout(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  Memory& memory = memory_of(in);
  const Tensor y = output(ctx, 0, x.shape(), x.dtype(), memory), mask = output(ctx, 1, x.shape(), x.dtype(), memory);
  const uint64_t seed = static_cast<uint64_t>(ctx.attrs.get_int("seed"));
  const uint64_t offset = static_cast<uint64_t>(ctx.attrs.get_int("offset"));
  const double p = ctx.attrs.get_float("p");
  const LogicalIndex at = logical_index("dropout", ctx.output_boxes[0], ctx.outputs[0].shape);
  const int64_t n = x.numel();
  if (n == 0) return {y, mask};
  auto run = [&](auto zero) {
    using T = decltype(zero);
    dropout_kernel<T><<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(
        x.data_as<T>(), y.data_as<T>(), mask.data_as<T>(), at, n, seed, offset, normmath::DropoutScale<T>::of(p));
  };
  if (x.dtype() == DType::kFloat32) {
    run(float{});
  } else {
    run(double{});
  }
  check_launch("dropout");
  return {y, mask};
}

// ---- randperm: the CPU's permutation (creation.h's random_permutation, a sort of n keys),
// made on the host and this rank's part copied to the GPU.

std::vector<Tensor> randperm(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor out = output_part(in, ctx);
  const std::vector<int64_t> perm =
      random_permutation(ctx.attrs.get_int("n"), static_cast<uint64_t>(ctx.attrs.get_int("seed")),
                         static_cast<uint64_t>(ctx.attrs.get_int("offset")));
  const Box& box = ctx.output_boxes[0];
  const size_t first = static_cast<size_t>(box.start[0]), count = static_cast<size_t>(box.extent[0]);
  if (count == 0) return {out};
  if (out.dtype() == DType::kInt64) {
    device::cuda::check(cudaMemcpyAsync(out.data(), perm.data() + first, count * sizeof(int64_t),
                                        cudaMemcpyHostToDevice, stream()),
                        "cudaMemcpyAsync");
    device::cuda::check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");  // perm dies here
  } else {
    const std::vector<int32_t> narrow(perm.begin() + first, perm.begin() + first + count);
    device::cuda::check(
        cudaMemcpyAsync(out.data(), narrow.data(), count * sizeof(int32_t), cudaMemcpyHostToDevice, stream()),
        "cudaMemcpyAsync");
    device::cuda::check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
  }
  return {out};
}

}  // namespace

void add_creation_kernels(OpRegistry& r) {
  r.add_kernel("cuda", "zeros", constant_kernel("zeros", 0.0));
  r.add_kernel("cuda", "ones", constant_kernel("ones", 1.0));
  r.add_kernel("cuda", "full", constant_kernel("full", std::nullopt));
  r.add_kernel("cuda", "arange", arange);
  r.add_kernel("cuda", "linspace", linspace);
  r.add_kernel("cuda", "logspace", logspace);
  r.add_kernel("cuda", "rand", random_kernel<Uniform>("rand"));
  r.add_kernel("cuda", "randn", random_kernel<Normal>("randn"));
  r.add_kernel("cuda", "randperm", randperm);
  r.add_kernel("cuda", "dropout", dropout);
}

}  // namespace mf::cuda
