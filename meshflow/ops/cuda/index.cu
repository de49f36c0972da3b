// Copyright 2026 The meshflow Authors.
// The CUDA kernels of the indexing ops (ops/index.cc): flat_index, index_put and
// index_extreme, with the CPU's results bit for bit and its errors. index_put keeps the CPU's
// order: without accumulate the last of repeated positions wins (an atomicMax of the writer's
// number per element, then only the winners write); with accumulate (and index_extreme) a
// stable radix sort of the positions by local element lists each element's values in order,
// and one thread combines them in that order (no floating atomics: deterministic).
#include <cuda_runtime.h>

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
#include "meshflow/ops/kernel_util.h"

namespace mf::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kMaxDims = 16;
constexpr unsigned long long kNone = ~0ull;

void check_dims(const char* op, size_t nd) {
  if (nd > static_cast<size_t>(kMaxDims)) {
    op_error(op, "has no CUDA kernel for tensors of more than " + std::to_string(kMaxDims) + " dims");
  }
}

unsigned long long read_flag(const unsigned long long* flag) {
  unsigned long long value = 0;
  device::cuda::check(cudaMemcpyAsync(&value, flag, sizeof value, cudaMemcpyDeviceToHost, stream()), "cudaMemcpyAsync");
  device::cuda::check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
  return value;
}

template <typename I>
int64_t read_index(const I* at) {
  I value = 0;
  device::cuda::check(cudaMemcpyAsync(&value, at, sizeof value, cudaMemcpyDeviceToHost, stream()), "cudaMemcpyAsync");
  device::cuda::check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
  return static_cast<int64_t>(value);
}

// ---------------------------------------------------------------------------------------------
// flat_index: one launch per index tensor, out = out * size + index, the first bad output
// element (in row-major order, as the CPU finds it) noted per index tensor.

// Where output element e reads an input broadcast to the output's shape.
struct Broadcast {
  int nd = 0;
  int64_t shape[kMaxDims] = {}, strides[kMaxDims] = {};

  __host__ __device__ int64_t offset(int64_t e) const {
    int64_t at = 0;
    for (int d = nd - 1; d >= 0; --d) {
      at += e % shape[d] * strides[d];
      e /= shape[d];
    }
    return at;
  }
};

template <typename I>
__global__ void flat_index_step(const I* __restrict__ idx, Broadcast b, int64_t n, int64_t size, bool wrap,
                                int64_t* __restrict__ out, unsigned long long* first_bad) {
  for (int64_t e = first_index(); e < n; e += grid_step()) {
    int64_t v = static_cast<int64_t>(idx[b.offset(e)]);
    if (wrap && v < 0) v += size;
    if (v < 0 || v >= size) {
      atomicMin(first_bad, static_cast<unsigned long long>(e));
      continue;
    }
    out[e] = out[e] * size + v;
  }
}

std::vector<Tensor> flat_index(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const std::vector<int64_t>& sizes = ctx.attrs.get_ints("sizes");
  const bool wrap = ctx.attrs.has("wrap") && ctx.attrs.get_bool("wrap");
  const Shape& shape = ctx.output_boxes[0].extent;
  check_dims("flat_index", shape.size());
  Memory& mem = memory_of(in);
  Tensor out = output(ctx, 0, shape, DType::kInt64, mem);
  const int64_t n = numel(shape);
  if (n == 0) return {out};
  device::cuda::check(cudaMemsetAsync(out.data(), 0, out.nbytes(), stream()), "cudaMemsetAsync");
  const std::shared_ptr<void> flags = mem.allocate(in.size() * sizeof(unsigned long long));
  auto* first_bad = static_cast<unsigned long long*>(flags.get());
  device::cuda::check(cudaMemsetAsync(first_bad, 0xff, in.size() * sizeof(unsigned long long), stream()),
                      "cudaMemsetAsync");
  std::vector<Broadcast> views(in.size());
  for (size_t k = 0; k < in.size(); ++k) {
    const Shape strides = kernel::broadcast_strides(in[k].shape(), shape);
    Broadcast& b = views[k];
    b.nd = static_cast<int>(shape.size());
    for (size_t d = 0; d < shape.size(); ++d) {
      b.shape[d] = shape[d];
      b.strides[d] = strides[d];
    }
    kernel::visit_index(in[k].dtype(), [&](auto iv) {
      using I = decltype(iv);
      flat_index_step<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(in[k].data_as<I>(), b, n, sizes[k], wrap,
                                                                          out.data_as<int64_t>(), first_bad + k);
      check_launch("flat_index_step");
    });
  }
  std::vector<unsigned long long> bad(in.size());
  device::cuda::check(cudaMemcpyAsync(bad.data(), first_bad, bad.size() * sizeof(unsigned long long),
                                      cudaMemcpyDeviceToHost, stream()),
                      "cudaMemcpyAsync");
  device::cuda::check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize");
  for (size_t k = 0; k < in.size(); ++k) {
    if (bad[k] == kNone) continue;
    int64_t value = 0;
    kernel::visit_index(in[k].dtype(), [&](auto iv) {
      using I = decltype(iv);
      value = read_index(in[k].data_as<I>() + views[k].offset(static_cast<int64_t>(bad[k])));
    });
    const int64_t dim = ctx.attrs.has("dims") ? ctx.attrs.get_ints("dims")[k] : static_cast<int64_t>(k);
    index_error("flat_index", "index " + std::to_string(value) + " is out of bounds for dimension " +
                                  std::to_string(dim) + " with size " + std::to_string(sizes[k]));
  }
  return {out};
}

// ---------------------------------------------------------------------------------------------
// index_put

// The local element of a logical flat position, or -1 where this rank's part lacks it.
struct Part {
  int nd = 0;
  int64_t logical[kMaxDims] = {}, start[kMaxDims] = {}, extent[kMaxDims] = {};

  __device__ int64_t local(int64_t p) const {
    int64_t at = 0, stride = 1;
    for (int d = nd - 1; d >= 0; --d) {
      const int64_t c = p % logical[d] - start[d];
      p /= logical[d];
      if (c < 0 || c >= extent[d]) return -1;
      at += c * stride;
      stride *= extent[d];
    }
    return at;
  }
};

template <typename I>
__global__ void find_bad_position(const I* __restrict__ pos, int64_t n, int64_t total, unsigned long long* first_bad) {
  for (int64_t i = first_index(); i < n; i += grid_step()) {
    if (pos[i] < 0 || pos[i] >= total) atomicMin(first_bad, static_cast<unsigned long long>(i));
  }
}

template <typename I>
__global__ void claim(const I* __restrict__ pos, int64_t n, Part part, long long* winner) {
  for (int64_t i = first_index(); i < n; i += grid_step()) {
    const int64_t at = part.local(static_cast<int64_t>(pos[i]));
    if (at >= 0) atomicMax(winner + at, static_cast<long long>(i));
  }
}

template <typename T, typename I>
__global__ void write_winners(const I* __restrict__ pos, const T* __restrict__ values, int64_t n, Part part,
                              const long long* __restrict__ winner, T* __restrict__ out) {
  for (int64_t i = first_index(); i < n; i += grid_step()) {
    const int64_t at = part.local(static_cast<int64_t>(pos[i]));
    if (at >= 0 && winner[at] == i) out[at] = values[i];
  }
}

// Sort keys: the local element, or `none` (past every element) where this part lacks it.
template <typename I>
__global__ void local_keys(const I* __restrict__ pos, int64_t n, Part part, uint64_t none, uint64_t* __restrict__ keys,
                           int64_t* __restrict__ order) {
  for (int64_t i = first_index(); i < n; i += grid_step()) {
    const int64_t at = part.local(static_cast<int64_t>(pos[i]));
    keys[i] = at >= 0 ? static_cast<uint64_t>(at) : none;
    order[i] = i;
  }
}

// The first of each run of equal keys combines the run's values into its element, in order:
// acc = combine(acc, value), acc from the element's value (include_self) or the run's first.
template <typename T, typename Combine>
__global__ void combine_runs(const uint64_t* __restrict__ keys, const int64_t* __restrict__ order,
                             const T* __restrict__ values, int64_t n, uint64_t none, bool include_self,
                             Combine combine, T* __restrict__ out) {
  for (int64_t j = first_index(); j < n; j += grid_step()) {
    const uint64_t key = keys[j];
    if (key == none || (j > 0 && keys[j - 1] == key)) continue;
    T acc = include_self ? combine(out[key], values[order[j]]) : values[order[j]];
    for (int64_t k = j + 1; k < n && keys[k] == key; ++k) acc = combine(acc, values[order[k]]);
    out[key] = acc;
  }
}

struct Add {
  template <typename T>
  __device__ T operator()(T acc, T value) const {
    return add(acc, value);
  }
};

// The CPU's index_extreme step: the larger (smaller) of the two, a NaN value winning.
struct Extreme {
  bool minimum;
  template <typename T>
  __device__ T operator()(T acc, T value) const {
    bool nan = false;
    if constexpr (std::is_floating_point_v<T>) nan = isnan(value);
    return (minimum ? value < acc : value > acc) || nan ? value : acc;
  }
};

// out's elements with the values at their positions (those of this part) combined in, each
// element's in the positions' order: a stable radix sort of the positions by local element,
// then combine_runs (no floating atomics: deterministic).
template <typename T, typename I, typename Combine>
void combine_in_order(Memory& mem, const I* pos, const T* values, int64_t n, const Part& part, int64_t local_n,
                      bool include_self, Combine combine, T* out) {
  const uint64_t none = static_cast<uint64_t>(local_n);
  const std::shared_ptr<void> key_block = mem.allocate(2 * n * sizeof(uint64_t));
  const std::shared_ptr<void> order_block = mem.allocate(2 * n * sizeof(int64_t));
  auto* keys = static_cast<uint64_t*>(key_block.get());
  auto* order = static_cast<int64_t*>(order_block.get());
  local_keys<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(pos, n, part, none, keys, order);
  check_launch("local_keys");
  sort_pairs(mem, keys, order, n, none);
  combine_runs<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(keys + n, order + n, values, n, none, include_self,
                                                                   combine, out);
  check_launch("combine_runs");
}

// The first position out of [0, total) raises op's error, before anything is written.
template <typename I>
void expect_positions_in_range(const char* op, Memory& mem, const I* pos, int64_t n, int64_t total) {
  const std::shared_ptr<void> flag = mem.allocate(sizeof(unsigned long long));
  auto* first_bad = static_cast<unsigned long long*>(flag.get());
  device::cuda::check(cudaMemsetAsync(first_bad, 0xff, sizeof *first_bad, stream()), "cudaMemsetAsync");
  find_bad_position<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(pos, n, total, first_bad);
  check_launch("find_bad_position");
  const unsigned long long bad = read_flag(first_bad);
  if (bad != kNone) {
    op_error(op, "position " + std::to_string(read_index(pos + bad)) + " is out of range; expected positions in [0, " +
                     std::to_string(total) + ")");
  }
}

// A copy of x on its memory, the output to write in.
Tensor copied_output(const KernelContext& ctx, const Tensor& x, Memory& mem) {
  Tensor out = output(ctx, 0, x.shape(), x.dtype(), mem);
  if (out.data() != x.data() && x.nbytes() > 0) {
    device::cuda::check(cudaMemcpyAsync(out.data(), x.data(), x.nbytes(), cudaMemcpyDeviceToDevice, stream()),
                        "cudaMemcpyAsync");
  }
  return out;
}

std::vector<Tensor> index_put(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const Tensor& positions = in[1];
  const Tensor& values = in[2];
  const bool accumulate = ctx.attrs.has("accumulate") && ctx.attrs.get_bool("accumulate");
  const Shape& logical = ctx.inputs[0].shape;
  const Box& box = ctx.input_boxes[0];
  check_dims("index_put", logical.size());
  const int64_t total = numel(logical), n = positions.numel(), local_n = x.numel();
  Memory& mem = memory_of(in);
  Tensor out = copied_output(ctx, x, mem);
  if (n == 0) return {out};
  Part part;
  part.nd = static_cast<int>(logical.size());
  for (size_t d = 0; d < logical.size(); ++d) {
    part.logical[d] = logical[d];
    part.start[d] = box.start[d];
    part.extent[d] = box.extent[d];
  }
  kernel::visit_index(positions.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* pos = positions.data_as<I>();
    expect_positions_in_range("index_put", mem, pos, n, total);
    if (local_n == 0) return;
    visit_dtype(x.dtype(), [&](auto v) {
      using T = decltype(v);
      if (!accumulate) {
        const std::shared_ptr<void> block = mem.allocate(local_n * sizeof(long long));
        auto* winner = static_cast<long long*>(block.get());
        device::cuda::check(cudaMemsetAsync(winner, 0xff, local_n * sizeof(long long), stream()), "cudaMemsetAsync");
        claim<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(pos, n, part, winner);
        check_launch("claim");
        write_winners<<<blocks_for(n, kThreads), kThreads, 0, stream()>>>(pos, values.data_as<T>(), n, part, winner,
                                                                          out.data_as<T>());
        check_launch("write_winners");
        return;
      }
      combine_in_order(mem, pos, values.data_as<T>(), n, part, local_n, true, Add{}, out.data_as<T>());
    });
  });
  return {out};
}

// index_extreme (all-broadcast only: the whole tensor on every rank).
std::vector<Tensor> index_extreme(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const Tensor& positions = in[1];
  const Tensor& values = in[2];
  const bool minimum = ctx.attrs.has("minimum") && ctx.attrs.get_bool("minimum");
  const bool include_self = ctx.attrs.has("include_self") && ctx.attrs.get_bool("include_self");
  const int64_t total = x.numel(), n = positions.numel();
  Memory& mem = memory_of(in);
  Tensor out = copied_output(ctx, x, mem);
  if (n == 0) return {out};
  Part whole;
  whole.nd = 1;
  whole.logical[0] = whole.extent[0] = total;
  kernel::visit_index(positions.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* pos = positions.data_as<I>();
    expect_positions_in_range("index_extreme", mem, pos, n, total);
    visit_dtype(x.dtype(), [&](auto v) {
      using T = decltype(v);
      combine_in_order(mem, pos, values.data_as<T>(), n, whole, total, include_self, Extreme{minimum},
                       out.data_as<T>());
    });
  });
  return {out};
}

}  // namespace

void add_index_kernels(OpRegistry& r) {
  r.add_kernel("cuda", "flat_index", flat_index);
  r.add_kernel("cuda", "index_put", index_put);
  r.add_kernel("cuda", "index_extreme", index_extreme);
}

}  // namespace mf::cuda
