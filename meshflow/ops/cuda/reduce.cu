// Copyright 2026 The meshflow Authors.
// The CUDA kernels of the reductions sum, mean, amax, amin, prod and sum_squares, with the
// CPU kernels' semantics (ops/reduce.cc): integer sums in int64 wrapping around, mean divided by the
// LOGICAL count of reduced elements, NaN propagated by amax/amin, the identity for an
// empty reduction. As on the CPU, adjacent dims that are all reduced or all kept merge into
// runs, so output o and reduced element k read the input at offset(o) + offset(k).
// A block reduces a tile of outputs: its threads are lanes along the reduction times lanes
// along the outputs, and the side that is contiguous in memory gets the fast-varying lanes
// so that loads coalesce. When the outputs are too few to fill the GPU, the reduction is
// cut into chunks over blocks along y, and a second pass combines their partial results.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "meshflow/ops/cuda/cuda_kernels.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/reduce_math.h"

namespace mf::cuda {
namespace {

constexpr int kThreads = 256;
// Runs per index space. Reduced and kept runs alternate, so this takes tensors of up to
// 2 * kMaxRuns dims whatever the reduced dims (and more where runs merge).
constexpr int kMaxRuns = 16;
// Elements a thread reads at the least before the reduction is cut into chunks.
constexpr int64_t kMinPerThread = 16;
// Blocks per multiprocessor that a cut reduction aims for.
constexpr int kBlocksPerSm = 8;

// A row-major index space of runs (outermost first), with each run's input stride.
struct Space {
  int n = 0;
  int64_t size[kMaxRuns];
  int64_t stride[kMaxRuns];
};

// The input offset of flat index i. The outermost run needs no modulo, so a space of one
// run (the common case) costs no division.
__device__ __forceinline__ int64_t offset_of(const Space& s, int64_t i) {
  if (s.n == 0) return 0;
  int64_t off = 0;
  for (int g = s.n - 1; g > 0; --g) {
    off += i % s.size[g] * s.stride[g];
    i /= s.size[g];
  }
  return off + i * s.stride[0];
}

struct Plan {
  Space outs, reds;  // the kept runs, the reduced runs
  int64_t n_out = 0, n_red = 0;
  int64_t chunk = 0;        // reduced elements per block along y
  int reduce_lanes = 1;     // threads of a block along the reduction, a power of 2
  bool reduce_fast = false;  // whether consecutive threads take consecutive reduced elements
  bool divide = false;       // mean: the result is divided by the divisor
};

// out[y * n_out + o] = the reduction of output o's elements in chunk y (y = blockIdx.y).
// Each thread folds every reduce_lanes-th element of its chunk into four accumulators (loads
// in flight together), then the block combines the lanes of each output in shared memory.
// The tile loop depends on blockIdx only, so every thread reaches every __syncthreads.
template <typename TI, typename TO, typename Op>
__global__ void __launch_bounds__(kThreads)
    reduce_kernel(const TI* __restrict__ in, TO* __restrict__ out, const __grid_constant__ Plan p, TO init,
                  TO divisor) {
  __shared__ TO partial[kThreads];
  const Op op;
  const int tid = static_cast<int>(threadIdx.x);
  const int rl = p.reduce_lanes, ol = static_cast<int>(blockDim.x) / rl;
  const int r = p.reduce_fast ? tid % rl : tid / ol;
  const int oi = p.reduce_fast ? tid / rl : tid % ol;
  const int step = p.reduce_fast ? 1 : ol;  // from one lane's partial to the next lane's of the same output
  const int64_t begin = blockIdx.y * p.chunk;
  const int64_t end = begin + p.chunk < p.n_red ? begin + p.chunk : p.n_red;
  const int64_t tiles = (p.n_out + ol - 1) / ol;
  for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const int64_t o = tile * ol + oi;
    TO acc = init;
    if (o < p.n_out) {
      const TI* base = in + offset_of(p.outs, o);
      auto at = [&](int64_t k) { return static_cast<TO>(base[offset_of(p.reds, k)]); };
      TO acc1 = init, acc2 = init, acc3 = init;
      int64_t k = begin + r;
      for (; k + 3 * rl < end; k += 4 * rl) {
        acc = op(acc, at(k));
        acc1 = op(acc1, at(k + rl));
        acc2 = op(acc2, at(k + 2 * rl));
        acc3 = op(acc3, at(k + 3 * rl));
      }
      for (; k < end; k += rl) acc = op(acc, at(k));
      acc = op(op(acc, acc1), op(acc2, acc3));
    }
    partial[tid] = acc;
    for (int s = rl / 2; s > 0; s /= 2) {
      __syncthreads();
      if (r < s) partial[tid] = op(partial[tid], partial[tid + s * step]);
    }
    if (r == 0 && o < p.n_out) {
      TO v = partial[tid];
      if constexpr (std::is_floating_point_v<TO>) {
        if (p.divide) v /= divisor;
      }
      out[blockIdx.y * p.n_out + o] = v;
    }
    __syncthreads();  // the next tile overwrites `partial`
  }
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The least power of 2 >= n, at most `cap`.
int lanes_for(int64_t n, int cap) {
  int lanes = 1;
  while (lanes < cap && lanes < n) lanes *= 2;
  return lanes;
}

// Runs plan `p` (spaces, sizes, reduce_fast and divide set) from `in` into `out`.
template <typename TI, typename TO, typename Op>
void run(const TI* in, TO* out, Plan p, TO init, TO divisor, Memory& mem) {
  const int64_t fast_n = p.reduce_fast ? p.n_red : p.n_out, slow_n = p.reduce_fast ? p.n_out : p.n_red;
  const int fast = lanes_for(fast_n, kThreads), slow = lanes_for(slow_n, kThreads / fast);
  const int threads = fast * slow;
  p.reduce_lanes = p.reduce_fast ? fast : slow;
  const int64_t tiles = ceil_div(p.n_out, threads / p.reduce_lanes);
  const int64_t per_thread = ceil_div(p.n_red, p.reduce_lanes);
  const int64_t target = static_cast<int64_t>(multiprocessors()) * kBlocksPerSm;
  int64_t splits = 1;
  if (tiles < target && per_thread > kMinPerThread) {
    splits = std::min({ceil_div(target, tiles), ceil_div(per_thread, kMinPerThread), int64_t{65535}});
  }
  p.chunk = ceil_div(p.n_red, splits);
  if (p.chunk > 0) splits = ceil_div(p.n_red, p.chunk);  // no chunk left empty
  const dim3 grid(blocks_for(tiles * threads, threads), static_cast<unsigned>(splits));
  if (splits == 1) {
    reduce_kernel<TI, TO, Op><<<grid, threads, 0, stream()>>>(in, out, p, init, divisor);
    check_launch("reduce_kernel");
    return;
  }
  std::shared_ptr<void> partials = mem.allocate(static_cast<size_t>(splits * p.n_out) * sizeof(TO));
  TO* chunks = static_cast<TO*>(partials.get());
  Plan first = p;
  first.divide = false;
  reduce_kernel<TI, TO, Op><<<grid, threads, 0, stream()>>>(in, chunks, first, init, divisor);
  check_launch("reduce_kernel");
  // The chunks' results, [splits, n_out], reduced over their first dim.
  Plan second;
  second.outs.n = second.reds.n = 1;
  second.outs.size[0] = p.n_out;
  second.outs.stride[0] = 1;
  second.reds.size[0] = splits;
  second.reds.stride[0] = p.n_out;
  second.n_out = p.n_out;
  second.n_red = splits;
  second.divide = p.divide;
  run<TO, TO, Op>(chunks, out, second, init, divisor, mem);
}

// The plan of reducing `in` over the dims marked in `reduced` into `out` (divided when
// `divide`).
Plan plan_for(const std::string& name, const Tensor& in, const std::vector<bool>& reduced, const Tensor& out,
              bool divide) {
  Plan p;
  p.n_out = out.numel();
  p.divide = divide;
  if (in.numel() > 0) {
    const Shape& shape = in.shape();
    int64_t stride = in.numel();
    const Space* last = nullptr;  // the space of the innermost run so far
    for (size_t d = 0; d < shape.size(); ++d) {
      stride /= shape[d];
      if (shape[d] == 1) continue;
      Space& s = reduced[d] ? p.reds : p.outs;
      if (last == &s) {
        s.size[s.n - 1] *= shape[d];
        s.stride[s.n - 1] = stride;
        continue;
      }
      if (s.n == kMaxRuns) {
        op_error(name, "the CUDA kernel takes at most " + std::to_string(kMaxRuns) +
                           " runs of adjacent reduced dims and as many of kept dims, got more in a tensor of shape " +
                           to_string(shape));
      }
      s.size[s.n] = shape[d];
      s.stride[s.n] = stride;
      ++s.n;
      last = &s;
    }
    p.reduce_fast = last == &p.reds;
    p.n_red = 1;
    for (int g = 0; g < p.reds.n; ++g) p.n_red *= p.reds.size[g];
  }
  return p;
}

// out = the `op` reduction of `in` over the dims marked in `reduced`, divided by `divisor`
// when `divide`.
template <typename TI, typename TO>
void reduce_tensor(const std::string& name, ReduceOp op, const Tensor& in, const std::vector<bool>& reduced,
            const Tensor& out, bool divide, TO divisor) {
  const Plan p = plan_for(name, in, reduced, out, divide);
  const TI* x = in.data_as<TI>();
  TO* y = out.data_as<TO>();
  const TO init = kernel::identity<TO>(op);
  Memory& mem = out.memory();
  switch (op) {
    case ReduceOp::kSum: return run<TI, TO, scalar::SumStep>(x, y, p, init, divisor, mem);
    case ReduceOp::kMax: return run<TI, TO, scalar::MaxStep>(x, y, p, init, divisor, mem);
    case ReduceOp::kMin: return run<TI, TO, scalar::MinStep>(x, y, p, init, divisor, mem);
  }
}

// Which input dims the attributes reduce ("dims" empty: all); infer has checked them.
std::vector<bool> reduced_dims(const std::string& op, const Attrs& attrs, int64_t ndim) {
  const std::vector<int64_t>& dims = attrs.get_ints("dims");
  std::vector<bool> reduced(ndim, dims.empty());
  for (int64_t dim : dims) reduced[kernel::normalize_dim(op, dim, ndim)] = true;
  return reduced;
}

Kernel reduction(const std::string& name, ReduceOp op, bool mean) {
  return [name, op, mean](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Shape& logical = ctx.inputs[0].shape;
    const std::vector<bool> reduced = reduced_dims(name, ctx.attrs, static_cast<int64_t>(logical.size()));
    Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype, memory_of(in));
    if (out.numel() == 0) return std::vector<Tensor>{out};
    int64_t count = 1;
    for (size_t d = 0; d < logical.size(); ++d) count *= reduced[d] ? logical[d] : 1;
    visit_with_bool(in[0].dtype(), [&](auto v) {  // bool: sum (int64), amax (any), amin (all)
      using T = decltype(v);
      if constexpr (std::is_integral_v<T>) {
        if (out.dtype() != in[0].dtype()) return reduce_tensor<T, int64_t>(name, op, in[0], reduced, out, false, 1);
      }
      // 0 for an empty reduction: its mean is 0 / 0, NaN, as on the CPU.
      reduce_tensor<T, T>(name, op, in[0], reduced, out, mean, static_cast<T>(count));
    });
    return std::vector<Tensor>{out};
  };
}

// prod: integers and bool multiply in int64 (the output's dtype), from 1.
std::vector<Tensor> prod(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const std::vector<bool> reduced = reduced_dims("prod", ctx.attrs, static_cast<int64_t>(ctx.inputs[0].shape.size()));
  Tensor out = output(ctx, 0, ctx.output_boxes[0].extent, ctx.outputs[0].dtype, memory_of(in));
  if (out.numel() == 0) return {out};
  const Plan p = plan_for("prod", in[0], reduced, out, false);
  visit_with_bool(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    using TO = std::conditional_t<std::is_integral_v<T>, int64_t, T>;
    run<T, TO, scalar::ProdStep>(in[0].data_as<T>(), out.data_as<TO>(), p, TO{1}, TO{1}, out.memory());
  });
  return {out};
}

// sum_squares: blockIdx.y picks an input of the batch, whose blocks write their float64
// partial sums to partials[y * gridDim.x + x]; one block then adds every partial in a fixed
// order, so a result has the same bits run to run (reduce.cc's contract).
constexpr int kSquaresBatch = 32;  // inputs per launch: their table is a kernel parameter

template <typename T>
struct SquaresBatch {
  const T* data[kSquaresBatch];
  int64_t numel[kSquaresBatch];
};

// part[0] = the sum of part[0, kThreads), by a tree in a fixed order.
__device__ void block_sum(double* part) {
  for (int s = kThreads / 2; s > 0; s /= 2) {
    __syncthreads();
    if (static_cast<int>(threadIdx.x) < s) part[threadIdx.x] += part[threadIdx.x + s];
  }
}

template <typename T>
__global__ void __launch_bounds__(kThreads) squares_kernel(const __grid_constant__ SquaresBatch<T> b, double* partials) {
  __shared__ double part[kThreads];
  const T* x = b.data[blockIdx.y];
  const int64_t n = b.numel[blockIdx.y];
  double acc = 0;
  for (int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x; i < n; i += int64_t{gridDim.x} * kThreads) {
    const double v = static_cast<double>(x[i]);
    acc += v * v;
  }
  part[threadIdx.x] = acc;
  block_sum(part);
  if (threadIdx.x == 0) partials[blockIdx.y * gridDim.x + blockIdx.x] = part[0];
}

template <typename T>
__global__ void __launch_bounds__(kThreads) squares_total_kernel(const double* partials, int64_t n, T* out) {
  __shared__ double part[kThreads];
  double acc = 0;
  for (int64_t i = threadIdx.x; i < n; i += kThreads) acc += partials[i];
  part[threadIdx.x] = acc;
  block_sum(part);
  if (threadIdx.x == 0) *out = static_cast<T>(part[0]);
}

template <typename T>
void sum_squares_of(const std::vector<Tensor>& in, const Tensor& out) {
  int64_t largest = 0;
  for (const Tensor& t : in) largest = std::max(largest, t.numel());
  const unsigned blocks = blocks_for(ceil_div(std::max<int64_t>(largest, 1), kMinPerThread), kThreads);
  std::shared_ptr<void> partials = out.memory().allocate(in.size() * blocks * sizeof(double));
  double* p = static_cast<double*>(partials.get());
  for (size_t first = 0; first < in.size(); first += kSquaresBatch) {
    const size_t count = std::min<size_t>(kSquaresBatch, in.size() - first);
    SquaresBatch<T> b{};
    for (size_t k = 0; k < count; ++k) {
      b.data[k] = in[first + k].data_as<T>();
      b.numel[k] = in[first + k].numel();
    }
    squares_kernel<T><<<dim3(blocks, static_cast<unsigned>(count)), kThreads, 0, stream()>>>(b, p + first * blocks);
    check_launch("squares_kernel");
  }
  squares_total_kernel<T><<<1, kThreads, 0, stream()>>>(p, static_cast<int64_t>(in.size() * blocks), out.data_as<T>());
  check_launch("squares_total_kernel");
}

// Inputs of float32 or float64 (the registry computes halves in float32).
std::vector<Tensor> sum_squares(const std::vector<Tensor>& in, const KernelContext& ctx) {
  Tensor out = output(ctx, 0, {}, ctx.outputs[0].dtype, memory_of(in));
  if (out.dtype() == DType::kFloat64) {
    sum_squares_of<double>(in, out);
  } else {
    sum_squares_of<float>(in, out);
  }
  return {out};
}

}  // namespace

void add_reduce_kernels(OpRegistry& r) {
  r.add_kernel("cuda", "prod", prod);
  r.add_kernel("cuda", "sum_squares", sum_squares);
  r.add_kernel("cuda", "sum", reduction("sum", ReduceOp::kSum, false));
  r.add_kernel("cuda", "mean", reduction("mean", ReduceOp::kSum, true));
  r.add_kernel("cuda", "amax", reduction("amax", ReduceOp::kMax, false));
  r.add_kernel("cuda", "amin", reduction("amin", ReduceOp::kMin, false));
}

}  // namespace mf::cuda
