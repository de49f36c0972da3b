// Copyright 2026 The meshflow Authors.
// The CUDA kernels of the optimizer updates (ops/optimizer_ops.cc): adamw_update,
// adam_update, sgd_update, rmsprop_update, adagrad_update and the elementwise rules' (adamax,
// nadam, radam, adadelta, asgd, rprop), one elementwise pass each of the CPU's per-element math
// (ops/optimizer_math.h), whose every operation rounds once as the CPU's: the GPU gives the
// CPU's bits, step after step, instead of drifting from it. A call's tensors (one, or a
// parameter group's: the ops' "tensors") are updated in one launch.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "meshflow/ops/cuda/cuda_kernels.h"
#include "meshflow/ops/optimizer_math.h"

namespace mf::cuda {
namespace {

constexpr int kThreads = 256;

// Calls f(T{}) for param's dtype: float32 or float64, the only ones infer lets through.
template <typename F>
void visit_floating(DType dtype, F f) {
  visit_dtype(dtype, [&](auto v) {
    using T = decltype(v);
    if constexpr (std::is_floating_point_v<T>) f(v);
  });
}

// The kernel's outputs, output i of tensor i % k's param's shape and dtype.
std::vector<Tensor> outputs_like(const std::vector<Tensor>& in, const KernelContext& ctx, size_t k) {
  std::vector<Tensor> out;
  for (size_t i = 0; i < ctx.outputs.size(); ++i) {
    out.push_back(output(ctx, i, in[i % k].shape(), in[i % k].dtype(), memory_of(in)));
  }
  return out;
}

// ---- One launch for many tensors (the ops' "tensors"): a table of each tensor's pointers
// and sizes passed as the kernel's argument (CUDA's large kernel arguments, up to 32 KiB on
// sm_70 and later), each block taking one chunk of one tensor. Calls with more tensors than a
// table holds take a launch per kMaxTensors of them.

constexpr int kMaxTensors = 256;
constexpr int64_t kChunk = 8 * kThreads;  // elements a block steps

// Tensor t's kIn inputs and kOut outputs (roles in the op's order), its size, and the first
// chunk of the grid that is its.
template <typename T, int kIn, int kOut>
struct TensorTable {
  const T* in[kMaxTensors][kIn];
  T* out[kMaxTensors][kOut];
  int64_t n[kMaxTensors];
  int64_t first_chunk[kMaxTensors + 1];
  int count;
};

// Block b's tensor: the last t with first_chunk[t] <= b.
template <typename T, int kIn, int kOut>
__device__ int tensor_of_block(const TensorTable<T, kIn, kOut>& table, int64_t block) {
  int lo = 0, hi = table.count - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (table.first_chunk[mid] <= block) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

// No pointer is __restrict__: each output may be its input's memory (in place); `step` reads
// an element's inputs before writing its outputs.
template <typename T, int kIn, int kOut, typename Step>
__global__ void multi_tensor_kernel(const __grid_constant__ TensorTable<T, kIn, kOut> table, Step step) {
  const int64_t block = blockIdx.x;
  const int t = tensor_of_block(table, block);
  const int64_t start = (block - table.first_chunk[t]) * kChunk;
  const int64_t end = start + kChunk < table.n[t] ? start + kChunk : table.n[t];
  for (int64_t i = start + threadIdx.x; i < end; i += kThreads) step(table.in[t], table.out[t], i);
}

// Launches `step` over the call's k tensors: inputs in[r * k + t] for role r < kIn, outputs
// out[r * k + t] likewise.
template <typename T, int kIn, int kOut, typename Step>
void launch_tensors(const std::vector<Tensor>& in, const std::vector<Tensor>& out, size_t k, int in_roles,
                    int out_roles, const Step& step, const char* name) {
  for (size_t first = 0; first < k; first += kMaxTensors) {
    TensorTable<T, kIn, kOut> table{};
    int64_t chunks = 0;
    for (size_t t = first; t < k && table.count < kMaxTensors; ++t) {
      const int at = table.count++;
      for (int r = 0; r < in_roles; ++r) table.in[at][r] = in[r * k + t].data_as<T>();
      for (int r = 0; r < out_roles; ++r) table.out[at][r] = out[r * k + t].data_as<T>();
      table.n[at] = in[t].numel();
      table.first_chunk[at] = chunks;
      chunks += (table.n[at] + kChunk - 1) / kChunk;
    }
    table.first_chunk[table.count] = chunks;
    if (chunks == 0) continue;
    multi_tensor_kernel<T, kIn, kOut, Step><<<static_cast<unsigned>(chunks), kThreads, 0, stream()>>>(table, step);
    check_launch(name);
  }
}

// ---- adamw_update, adam_update: optim::AdamWStep per element. Inputs param, grad, exp_avg,
// exp_avg_sq[, max_exp_avg_sq]; outputs param, exp_avg, exp_avg_sq[, max_exp_avg_sq].

template <bool kL2, bool kAmsgrad, typename T>
struct AdamWElement {
  optim::AdamWStep<T> c;
  __device__ void operator()(const T* const* in, T* const* out, int64_t i) const {
    const optim::AdamWResult<T> r =
        c.template apply<kL2, kAmsgrad>(in[0][i], in[1][i], in[2][i], in[3][i], kAmsgrad ? in[4][i] : T{0});
    if constexpr (kAmsgrad) out[3][i] = r.max_exp_avg_sq;
    out[0][i] = r.param;
    out[1][i] = r.exp_avg;
    out[2][i] = r.exp_avg_sq;
  }
};

template <bool kL2, bool kAmsgrad, typename T>
void adamw_tensors(const std::vector<Tensor>& in, const std::vector<Tensor>& out, size_t k,
                   const optim::AdamWHyper& h, const char* name) {
  constexpr int kIn = kAmsgrad ? 5 : 4, kOut = kAmsgrad ? 4 : 3;
  launch_tensors<T, kIn, kOut>(in, out, k, kIn, kOut, AdamWElement<kL2, kAmsgrad, T>{optim::AdamWStep<T>::make(h)},
                               name);
}

std::vector<Tensor> adam_family_update(const std::vector<Tensor>& in, const KernelContext& ctx, bool decoupled) {
  const optim::AdamWHyper h = optim::AdamWHyper::of(ctx.attrs, decoupled);
  const size_t k = static_cast<size_t>(optim::tensors_of(ctx.attrs));
  const std::vector<Tensor> out = outputs_like(in, ctx, k);
  const char* name = decoupled ? "adamw_update" : "adam_update";
  visit_floating(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    const auto run = h.l2() ? (h.amsgrad ? adamw_tensors<true, true, T> : adamw_tensors<true, false, T>)
                            : (h.amsgrad ? adamw_tensors<false, true, T> : adamw_tensors<false, false, T>);
    run(in, out, k, h, name);
  });
  return out;
}

std::vector<Tensor> adamw_update(const std::vector<Tensor>& in, const KernelContext& ctx) {
  return adam_family_update(in, ctx, true);
}

std::vector<Tensor> adam_update(const std::vector<Tensor>& in, const KernelContext& ctx) {
  return adam_family_update(in, ctx, false);
}

// ---- sgd_update: optim::SgdStep per element. Inputs param, grad[, momentum_buf] (the buffer
// with has_buf); outputs param[, momentum_buf] (with momentum).

template <typename T>
struct SgdElement {
  optim::SgdStep<T> c;
  bool reads_buf, writes_buf;
  __device__ void operator()(const T* const* in, T* const* out, int64_t i) const {
    const optim::SgdResult<T> r = c.apply(in[0][i], in[1][i], reads_buf ? in[2][i] : T{0});
    if (writes_buf) out[1][i] = r.momentum_buf;
    out[0][i] = r.param;
  }
};

std::vector<Tensor> sgd_update(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const size_t k = static_cast<size_t>(optim::tensors_of(ctx.attrs));
  const std::vector<Tensor> out = outputs_like(in, ctx, k);
  const optim::SgdHyper h = optim::SgdHyper::of(ctx.attrs);
  const bool writes_buf = out.size() > k;
  visit_floating(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    launch_tensors<T, 3, 2>(in, out, k, h.has_buf ? 3 : 2, writes_buf ? 2 : 1,
                            SgdElement<T>{optim::SgdStep<T>::make(h), h.has_buf, writes_buf}, "sgd_update");
  });
  return out;
}

// ---- rmsprop_update: optim::RmspropStep per element. Inputs param, grad, square_avg[,
// grad_avg][, momentum_buf]; outputs param, square_avg[, grad_avg][, momentum_buf].

template <typename T>
struct RmspropElement {
  optim::RmspropStep<T> c;
  __device__ void operator()(const T* const* in, T* const* out, int64_t i) const {
    const int buf = c.centered ? 4 : 3;
    const optim::RmspropResult<T> r = c.apply(in[0][i], in[1][i], in[2][i], c.centered ? in[3][i] : T{0},
                                              c.with_momentum ? in[buf][i] : T{0});
    if (c.centered) out[2][i] = r.grad_avg;
    if (c.with_momentum) out[buf - 1][i] = r.momentum_buf;
    out[0][i] = r.param;
    out[1][i] = r.square_avg;
  }
};

std::vector<Tensor> rmsprop_update(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const size_t k = static_cast<size_t>(optim::tensors_of(ctx.attrs));
  const std::vector<Tensor> out = outputs_like(in, ctx, k);
  const optim::RmspropHyper h = optim::RmspropHyper::of(ctx.attrs);
  visit_floating(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    launch_tensors<T, 5, 4>(in, out, k, 3 + h.extra_state(), 2 + h.extra_state(),
                            RmspropElement<T>{optim::RmspropStep<T>::make(h)}, "rmsprop_update");
  });
  return out;
}

// ---- adagrad_update: optim::AdagradStep per element. Inputs param, grad, sum; outputs param,
// sum.

template <typename T>
struct AdagradElement {
  optim::AdagradStep<T> c;
  __device__ void operator()(const T* const* in, T* const* out, int64_t i) const {
    const optim::AdagradResult<T> r = c.apply(in[0][i], in[1][i], in[2][i]);
    out[0][i] = r.param;
    out[1][i] = r.sum;
  }
};

std::vector<Tensor> adagrad_update(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const size_t k = static_cast<size_t>(optim::tensors_of(ctx.attrs));
  const std::vector<Tensor> out = outputs_like(in, ctx, k);
  const optim::AdagradHyper h = optim::AdagradHyper::of(ctx.attrs);
  visit_floating(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    launch_tensors<T, 3, 2>(in, out, k, 3, 2, AdagradElement<T>{optim::AdagradStep<T>::make(h)}, "adagrad_update");
  });
  return out;
}

// ---- The elementwise rules (adamax_update, nadam_update, radam_update, adadelta_update,
// asgd_update, rprop_update): Rule::apply per element. Inputs param, grad, then the rule's
// state; outputs param, then the state.

template <typename Rule, typename T>
struct RuleElement {
  Rule rule;
  __device__ void operator()(const T* const* in, T* const* out, int64_t i) const {
    if constexpr (Rule::kState == 1) {
      const optim::Updated<T, 1> r = rule.apply(in[0][i], in[1][i], in[2][i]);
      out[0][i] = r.param;
      out[1][i] = r.state[0];
    } else {
      const optim::Updated<T, 2> r = rule.apply(in[0][i], in[1][i], in[2][i], in[3][i]);
      out[0][i] = r.param;
      out[1][i] = r.state[0];
      out[2][i] = r.state[1];
    }
  }
};

template <template <typename> class Rule>
std::vector<Tensor> rule_update(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const size_t k = static_cast<size_t>(optim::tensors_of(ctx.attrs));
  const std::vector<Tensor> out = outputs_like(in, ctx, k);
  visit_floating(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    constexpr int kIn = 2 + Rule<T>::kState, kOut = 1 + Rule<T>::kState;
    launch_tensors<T, kIn, kOut>(in, out, k, kIn, kOut, RuleElement<Rule<T>, T>{Rule<T>::make(ctx.attrs)},
                                 Rule<T>::kOp);
  });
  return out;
}

}  // namespace

void add_optimizer_kernels(OpRegistry& r) {
  r.add_kernel("cuda", "adamw_update", adamw_update);
  r.add_kernel("cuda", "adam_update", adam_update);
  r.add_kernel("cuda", "sgd_update", sgd_update);
  r.add_kernel("cuda", "rmsprop_update", rmsprop_update);
  r.add_kernel("cuda", "adagrad_update", adagrad_update);
  r.add_kernel("cuda", optim::AdamaxStep<float>::kOp, rule_update<optim::AdamaxStep>);
  r.add_kernel("cuda", optim::NadamStep<float>::kOp, rule_update<optim::NadamStep>);
  r.add_kernel("cuda", optim::RadamStep<float>::kOp, rule_update<optim::RadamStep>);
  r.add_kernel("cuda", optim::AdadeltaStep<float>::kOp, rule_update<optim::AdadeltaStep>);
  r.add_kernel("cuda", optim::AsgdStep<float>::kOp, rule_update<optim::AsgdStep>);
  r.add_kernel("cuda", optim::RpropStep<float>::kOp, rule_update<optim::RpropStep>);
}

}  // namespace mf::cuda
