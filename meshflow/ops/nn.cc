// Copyright 2026 The meshflow Authors.
// Neural-network ops with PyTorch's names and semantics, each beside the backward op its
// gradient calls. Signatures (B, ... -> B implied):
//   softmax(x; dim, causal = false), log_softmax(x; dim, causal = false), floating x:
//     S(k) -> S(k) for every k != dim. causal: only with dim the last of >= 2 dims
//     [.., Tq, Tk], Tq <= Tk; element (i, j) of the last two dims is masked (probability
//     exactly 0, log-probability -inf) when j > i + Tk - Tq; then S(k) only for k < ndim - 2.
//   softmax_backward(y, dy; dim, log, causal = false) -> dx, from the forward's output y:
//     softmax dx = y (dy - sum_dim(dy y)), log_softmax dx = dy - exp(y) sum_dim(dy), 0 where
//     masked.  S(k), S(k) -> S(k) for the forward's k;  B, P -> P (linear in dy).
//   layer_norm(x[, weight][, bias]; normalized_shape, eps = 1e-5, has_weight, has_bias =
//     false), floating: normalizes over the trailing dims normalized_shape (biased variance),
//     then scales by weight and shifts by bias (of shape normalized_shape) when present.
//     S(k), B, B -> S(k) for every leading (not normalized) dim k.
//   layer_norm_backward(x[, weight], dy; the forward's attributes) -> dx[, dweight][, dbias]
//     (dweight when has_weight, dbias when has_bias): S(k), B, S(k) -> S(k), P, P for every
//     leading dim k;  B, B, P -> P, P, P (linear in dy).
//   gelu_backward(x, dy) -> dx for elementwise.cc's exact (erf) gelu, gelu_tanh_backward(x,
//     dy) for its gelu_tanh, silu_backward(x, dy) for its silu; from the output y: relu_backward(y, dy) (dy where y > 0, else 0),
//     sigmoid_backward(y, dy) (dy y (1 - y)), tanh_backward(y, dy) (dy (1 - y^2)); each one
//     pass, floating, dy of x's (y's) shape or broadcast to it (a sum's gradient): S(k), S(k)
//     -> S(k) for every k (B for dy where it has size 1 there);  B, P -> P.
//   embedding(indices int32/int64, weight[V, D]) -> indices.shape + [D], rows of weight:
//     S(k), B -> S(k) for each indices dim k;  B, S(1) -> S(last);  B, P -> P;
//     B, S(0) -> P: each rank gathers the vocabulary rows it holds, zeros for the others.
//   embedding_backward(indices, dy[indices.shape + [D]]; num_weights) -> dweight[num_weights,
//     D], the sum of the dy rows at each index, added in index order (deterministic):
//     S(k), S(k) -> P for each indices dim k;  B, S(last) -> S(1);  B, P -> P;
//     B, B -> S(0): each rank sums only the rows it keeps.
//   embedding_bag(indices int32/int64 [n] or [bags, L], weight[V, D] floating[, offsets
//     int32/int64 [bags] (include_last_offset: [bags + 1]), with 1-d indices only][,
//     per_sample_weights of indices' shape]; mode, include_last_offset, per_sample_weights,
//     padding_idx as ops/embedding_bag.h reads them) -> [bags, D], torch's: each bag's rows
//     (scaled by per_sample_weights, padding_idx's left out) summed, averaged or maxed per
//     column; zeros for an empty bag. Only B (F.embedding_bag composes other ops for global
//     tensors); offsets out of order or range raise from the kernel.
//   embedding_bag_backward(dy[bags, D], then the forward's inputs; its attributes) ->
//     dweight[V, D][, dper_sample_weights], added in position order (deterministic); under
//     max, dy goes to each column's first maximum (torch's). Only B.
//   gather(x, index int32/int64; dim) -> [index.shape], torch.gather with index.shape ==
//     x.shape off dim: out[.., j, ..] = x[.., index[.., j, ..], ..].  S(k), S(k) -> S(k) for
//     k != dim;  B, S(dim) -> S(dim);  S(dim), B -> P: each rank gives the values its part of
//     x holds, zeros for the others (so cross-entropy reads target logits off a vocabulary
//     split without gathering the logits).
//   gather_backward(index, dy[index.shape]; dim, size) -> dx, index.shape with `size` along
//     dim: zeros plus dy added at the indices.  S(k), S(k) -> S(k) for k != dim;  B, B ->
//     S(dim): each rank keeps its part;  S(dim), S(dim) -> P;  B, P -> P.
//   softmax_cross_entropy(logits[N, C] floating, target[N] int32/int64 (, weight[C]);
//     ignore_index = -100, label_smoothing = 0) -> loss[N], lse[N]:
//     loss_i = lse_i - logits[i, target_i] (0 where target_i is ignore_index), lse_i the
//     row's log-sum-exp, in one pass over the logits; with class weights w (all 1 without)
//     and label_smoothing e, torch's (1 - e) w_t (lse_i - x_t) + e / C sum_c w_c (lse_i - x_c)
//     (its reductions are the caller's). Its backward op,
//     softmax_cross_entropy_backward(logits, target, lse, dloss, dlse (, weight)) -> dlogits =
//     softmax(logits) (dloss + dlse) - one_hot(target) dloss (weighted and smoothed: that
//     loss's derivative), in one more. What fn::cross_entropy and Python's cross_entropy
//     run unless the classes are split.  S(0) on everything but the weight, B. The weight's
//     gradient (torch has none) is composed of differentiable ops.
// Indices and targets out of range (of the logical size) raise an error from the kernel of
// the rank that holds them, before it writes anything. The forward ops' gradients call the
// backward ops. For a
// create_graph backward, softmax's, layer_norm's and softmax_cross_entropy's gradients are
// written in differentiable ops instead, and embedding_backward and gather_backward (linear in
// dy) have gradients; the other backward ops have none (a second backward raises, naming them).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>

#include "meshflow/core/error.h"
#include "meshflow/core/loops.h"
#include "meshflow/ops/backward_loop.h"
#include "meshflow/ops/elementwise_math.h"
#include "meshflow/ops/embedding_bag.h"
#include "meshflow/ops/fast_math.h"
#include "meshflow/ops/functional.h"
#include "meshflow/ops/kernel_util.h"
#include "meshflow/ops/registry.h"
#include "meshflow/ops/row_math.h"
#include "meshflow/ops/rows.h"

namespace mf {
namespace {

void expect_floating(const std::string& op, const TensorMeta& m, const std::string& what) {
  if (!is_floating(m.dtype)) {
    op_error(op, "the dtype of " + what + " is " + dtype_name(m.dtype) + "; expected float32 or float64");
  }
}

void expect_index(const std::string& op, const TensorMeta& m, const std::string& what) {
  if (m.dtype != DType::kInt32 && m.dtype != DType::kInt64) {
    op_error(op, "the dtype of " + what + " is " + dtype_name(m.dtype) + "; expected int32 or int64");
  }
}

void expect_shape(const std::string& op, const TensorMeta& m, const Shape& shape, const std::string& what,
                  const std::string& why) {
  if (m.shape != shape) {
    op_error(op, what + " has shape " + to_string(m.shape) + "; expected " + to_string(shape) + ", " + why);
  }
}

bool flag(const Attrs& attrs, const std::string& key) { return attrs.has(key) && attrs.get_bool(key); }

// A nonnegative int attribute.
int64_t size_attr(const std::string& op, const Attrs& attrs, const std::string& key) {
  const int64_t size = attrs.get_int(key);
  if (size < 0) op_error(op, key + " is " + std::to_string(size) + "; expected " + key + " >= 0");
  return size;
}

// Throws unless every one of the n indices is in [0, size) or `ignored`.
template <typename I>
void check_indices(const std::string& op, const I* idx, int64_t n, int64_t size, const std::string& what,
                   std::optional<int64_t> ignored = std::nullopt) {
  const I* bad =
      std::find_if(idx, idx + n, [size, ignored](I i) { return (i < 0 || i >= size) && (!ignored || i != *ignored); });
  if (bad != idx + n) {
    index_error(op, what + " " + std::to_string(*bad) + " is out of range; expected values in [0, " +
                        std::to_string(size) + ")");
  }
}

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

// ---------------------------------------------------------------------------------------------
// softmax, log_softmax, softmax_backward
//
// The kernels run on ops/rows.h's row and line kernels: along the last dim, tasks of whole
// rows; along another dim, tasks of adjacent lines (contiguous across them) of one outer block.

// Elements a task of rows holds at least (fewer rows would cost more to hand out than to run).
constexpr int64_t kTaskElements = 1 << 14;
// Adjacent lines a task of lines holds at most.
constexpr int64_t kTaskLines = 256;

// Calls f(first, count) for tasks of `count` whole rows of n elements from row `first`,
// in parallel when `parallel`.
template <typename F>
void for_each_row_task(int64_t rows, int64_t n, bool parallel, F f) {
  const int64_t per_task = std::max<int64_t>(1, kTaskElements / std::max<int64_t>(n, 1));
  kernel::parallel_for((rows + per_task - 1) / per_task, parallel, [&](int64_t t) {
    const int64_t first = t * per_task;
    f(first, std::min(per_task, rows - first));
  });
}

// Calls rows(first, count) for tasks of whole rows when `dim` is the last, else
// lines(offset, width) for tasks of `width` adjacent lines from element `offset`; in
// parallel when the tensor is large.
template <typename Rows, typename Lines>
void for_each_task(const Shape& shape, int64_t dim, Rows rows, Lines lines) {
  const int64_t n = shape[dim], inner = around(shape, dim).inner, total = numel(shape);
  if (total == 0) return;
  const bool parallel = total > kernel::kParallelGrain;
  if (inner == 1) return for_each_row_task(total / n, n, parallel, rows);
  const int64_t chunks = (inner + kTaskLines - 1) / kTaskLines;
  kernel::parallel_for(total / (n * inner) * chunks, parallel, [&](int64_t t) {
    const int64_t block = t / chunks, first = t % chunks * kTaskLines;
    lines(block * n * inner + first, std::min(kTaskLines, inner - first));
  });
}

// Causal masking over the last two dims [.., Tq, Tk] (see the header). Checks its
// conditions when the attribute is set; otherwise every element of a line is kept.
class CausalMask {
 public:
  CausalMask(const std::string& op, const Shape& shape, int64_t dim, const Attrs& attrs)
      : on_(flag(attrs, "causal")), length_(shape[dim]) {
    if (!on_) return;
    const int64_t nd = static_cast<int64_t>(shape.size());
    if (nd < 2 || dim != nd - 1) {
      op_error(op, "causal masking is over the last two dims [.., Tq, Tk] along the last, but dim is " +
                       std::to_string(dim) + " of a tensor of shape " + to_string(shape) +
                       "; expected dim -1 of a tensor of at least 2 dims");
    }
    rows_ = shape[nd - 2];
    if (rows_ > length_) {
      op_error(op, "causal masking of shape " + to_string(shape) + " would mask whole rows (Tq = " +
                       std::to_string(rows_) + " > Tk = " + std::to_string(length_) + "); expected Tq <= Tk");
    }
  }
  bool on() const { return on_; }
  // Which leading elements of each row (counted over the flattened leading dims) are kept.
  kernel::KeptPrefix prefix() const { return on_ ? kernel::KeptPrefix{rows_, length_ - rows_} : kernel::KeptPrefix{}; }

 private:
  bool on_;
  int64_t length_, rows_ = 0;
};

// S(k) for every operand, for each dim k that neither the lines nor the causal mask cross.
std::vector<Signature> line_splits(int64_t nd, int64_t dim, const CausalMask& mask, size_t n_inputs) {
  std::vector<Signature> sigs;
  for (int k = 0; k < (mask.on() ? nd - 2 : nd); ++k) {
    if (k != dim) sigs.push_back({std::vector<Sbp>(n_inputs, Sbp::split(k)), {Sbp::split(k)}});
  }
  return sigs;
}

constexpr const char* kSoftmaxBackward = "softmax_backward";

int64_t softmax_dim(const std::string& op, const Attrs& attrs, const Shape& shape) {
  return kernel::normalize_dim(op, attrs.get_int("dim"), static_cast<int64_t>(shape.size()));
}

OpDef softmax(const std::string& name, bool log) {
  OpDef def;
  def.name = name;
  def.infer = [name](const std::vector<TensorMeta>& in, const Attrs& attrs) {
    kernel::expect_inputs(name, in, 1);
    expect_floating(name, in[0], "the input");
    CausalMask(name, in[0].shape, softmax_dim(name, attrs, in[0].shape), attrs);  // checks causal's conditions
    return std::vector<TensorMeta>{in[0]};
  };
  def.signatures = [name](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs& attrs) {
    const int64_t dim = softmax_dim(name, attrs, in[0].shape);
    return line_splits(static_cast<int64_t>(in[0].shape.size()), dim, CausalMask(name, in[0].shape, dim, attrs), 1);
  };
  def.kernel = [name, log](const std::vector<Tensor>& in, const KernelContext& ctx) {
    const Shape& shape = in[0].shape();
    const int64_t dim = softmax_dim(name, ctx.attrs, shape), n = shape[dim];
    const CausalMask mask(name, shape, dim, ctx.attrs);
    Tensor out = ctx.output(0, shape, in[0].dtype());
    visit_dtype(in[0].dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        const T* x = in[0].data_as<T>();
        T* y = out.data_as<T>();
        const int64_t inner = around(shape, dim).inner;
        for_each_task(
            shape, dim,
            [&](int64_t first, int64_t count) {
              kernel::softmax_rows(x + first * n, y + first * n, first, count, n, mask.prefix(), log);
            },
            [&](int64_t offset, int64_t width) { kernel::softmax_lines(x + offset, y + offset, n, inner, width, log); });
      }
    });
    return std::vector<Tensor>{out};
  };
  def.grad = [log](const GradContext& g) {
    if (grad_enabled() && !flag(g.attrs, "causal")) {
      // A create_graph backward: the formula in differentiable ops, y's graph included.
      const Var &y = g.outputs[0], &dy = g.grad_outputs[0];
      const std::vector<int64_t> dim{g.attrs.get_int("dim")};
      if (log) return std::vector<Var>{fn::sub(dy, fn::mul(fn::exp(y), fn::sum(dy, dim, true)))};
      return std::vector<Var>{fn::mul(y, fn::sub(dy, fn::sum(fn::mul(dy, y), dim, true)))};
    }
    Attrs attrs = g.attrs;
    attrs.set("log", log);
    return std::vector<Var>{call1(kSoftmaxBackward, {g.outputs[0], g.grad_outputs[0]}, attrs)};
  };
  def.grad_reads = kReadsOutputs;
  return def;
}

std::vector<TensorMeta> softmax_backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kSoftmaxBackward, in, 2);
  expect_floating(kSoftmaxBackward, in[0], "y");
  expect_shape(kSoftmaxBackward, in[1], in[0].shape, "dy", "the shape of y");
  kernel::expect_same_dtype(kSoftmaxBackward, in[0], in[1]);
  attrs.get_bool("log");  // required: which forward op y came from
  CausalMask(kSoftmaxBackward, in[0].shape, softmax_dim(kSoftmaxBackward, attrs, in[0].shape), attrs);  // checks
  return {in[0]};
}

std::vector<Signature> softmax_backward_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                                   const Attrs& attrs) {
  const int64_t dim = softmax_dim(kSoftmaxBackward, attrs, in[0].shape);
  std::vector<Signature> sigs = line_splits(static_cast<int64_t>(in[0].shape.size()), dim,
                                            CausalMask(kSoftmaxBackward, in[0].shape, dim, attrs), 2);
  sigs.push_back({{Sbp::broadcast(), Sbp::partial_sum()}, {Sbp::partial_sum()}});
  return sigs;
}

std::vector<Tensor> softmax_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Shape& shape = in[0].shape();
  const int64_t dim = softmax_dim(kSoftmaxBackward, ctx.attrs, shape), n = shape[dim];
  const CausalMask mask(kSoftmaxBackward, shape, dim, ctx.attrs);
  const bool log = ctx.attrs.get_bool("log");
  Tensor out = ctx.output(0, shape, in[0].dtype());
  visit_dtype(in[0].dtype(), [&](auto v) {
    using T = decltype(v);
    if constexpr (std::is_floating_point_v<T>) {
      const T* y = in[0].data_as<T>();
      const T* dy = in[1].data_as<T>();
      T* dx = out.data_as<T>();
      const int64_t inner = around(shape, dim).inner;
      for_each_task(
          shape, dim,
          [&](int64_t first, int64_t count) {
            const int64_t at = first * n;
            kernel::softmax_backward_rows(y + at, dy + at, dx + at, first, count, n, mask.prefix(), log);
          },
          [&](int64_t offset, int64_t width) {
            kernel::softmax_backward_lines(y + offset, dy + offset, dx + offset, n, inner, width, log);
          });
    }
  });
  return {out};
}

// ---------------------------------------------------------------------------------------------
// layer_norm, layer_norm_backward

constexpr const char* kLayerNorm = "layer_norm";
constexpr const char* kLayerNormBackward = "layer_norm_backward";

// Checks x, normalized_shape (a nonempty suffix of x's shape) and eps.
void check_normalized(const std::string& op, const TensorMeta& x, const Attrs& attrs) {
  expect_floating(op, x, "the input");
  const std::vector<int64_t>& normalized = attrs.get_ints("normalized_shape");
  const bool trailing = !normalized.empty() && normalized.size() <= x.shape.size() &&
                        std::equal(normalized.begin(), normalized.end(), x.shape.end() - normalized.size());
  if (!trailing) {
    op_error(op, "normalized_shape " + to_string(normalized) + " is not the trailing dims of the input's shape " +
                     to_string(x.shape) + "; expected a nonempty suffix of it");
  }
  if (attrs.has("eps") && !(attrs.get_float("eps") >= 0)) {
    op_error(op, "eps is " + std::to_string(attrs.get_float("eps")) + "; expected eps >= 0");
  }
}

void expect_param(const std::string& op, const TensorMeta& param, const std::string& what, const TensorMeta& x,
                  const Attrs& attrs) {
  const Shape& normalized = attrs.get_ints("normalized_shape");
  if (param.shape != normalized) {
    op_error(op,
             what + " has shape " + to_string(param.shape) + "; expected normalized_shape " + to_string(normalized));
  }
  kernel::expect_same_dtype(op, x, param);
}

std::vector<TensorMeta> layer_norm_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  const bool has_weight = flag(attrs, "has_weight"), has_bias = flag(attrs, "has_bias");
  kernel::expect_inputs(kLayerNorm, in, 1 + has_weight + has_bias);
  check_normalized(kLayerNorm, in[0], attrs);
  for (size_t i = 1; i < in.size(); ++i) {
    expect_param(kLayerNorm, in[i], i == 1 && has_weight ? "weight" : "bias", in[0], attrs);
  }
  return {in[0]};
}

int leading_dims(const TensorMeta& x, const Attrs& attrs) {
  return static_cast<int>(x.shape.size() - attrs.get_ints("normalized_shape").size());
}

std::vector<Signature> layer_norm_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                             const Attrs& attrs) {
  std::vector<Signature> sigs;
  for (int k = 0; k < leading_dims(in[0], attrs); ++k) {
    Signature s{std::vector<Sbp>(in.size(), Sbp::broadcast()), {Sbp::split(k)}};
    s.inputs[0] = Sbp::split(k);
    sigs.push_back(s);
  }
  return sigs;
}

double eps_attr(const Attrs& attrs) { return attrs.has("eps") ? attrs.get_float("eps") : 1e-5; }

std::vector<Tensor> layer_norm_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const double eps = eps_attr(ctx.attrs);
  const int64_t n = numel(ctx.attrs.get_ints("normalized_shape"));
  const Tensor& x = in[0];
  Tensor out = ctx.output(0, x.shape(), x.dtype());
  const int64_t rows = n == 0 ? 0 : x.numel() / n;
  visit_dtype(x.dtype(), [&](auto v) {
    using T = decltype(v);
    if constexpr (std::is_floating_point_v<T>) {
      const T* w = has_weight ? in[1].data_as<T>() : nullptr;
      const T* b = has_bias ? in[1 + has_weight].data_as<T>() : nullptr;
      for_each_row_task(rows, n, x.numel() > kernel::kParallelGrain, [&](int64_t first, int64_t count) {
        kernel::layer_norm_rows(x.data_as<T>() + first * n, w, b, out.data_as<T>() + first * n, count, n, eps);
      });
    }
  });
  return {out};
}

std::vector<TensorMeta> layer_norm_backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  const bool has_weight = flag(attrs, "has_weight"), has_bias = flag(attrs, "has_bias");
  kernel::expect_inputs(kLayerNormBackward, in, 2 + has_weight);
  check_normalized(kLayerNormBackward, in[0], attrs);
  if (has_weight) expect_param(kLayerNormBackward, in[1], "weight", in[0], attrs);
  expect_shape(kLayerNormBackward, in.back(), in[0].shape, "dy", "the shape of the input");
  kernel::expect_same_dtype(kLayerNormBackward, in[0], in.back());
  std::vector<TensorMeta> out{in[0]};
  const TensorMeta param{attrs.get_ints("normalized_shape"), in[0].dtype};
  if (has_weight) out.push_back(param);
  if (has_bias) out.push_back(param);
  return out;
}

std::vector<Signature> layer_norm_backward_signatures(const std::vector<TensorMeta>& in,
                                                      const std::vector<TensorMeta>& out, const Attrs& attrs) {
  const Sbp b = Sbp::broadcast(), p = Sbp::partial_sum();
  std::vector<Signature> sigs;
  for (int k = 0; k < leading_dims(in[0], attrs); ++k) {
    Signature s{std::vector<Sbp>(in.size(), b), std::vector<Sbp>(out.size(), p)};
    s.inputs.front() = s.inputs.back() = s.outputs.front() = Sbp::split(k);
    sigs.push_back(s);
  }
  Signature linear{std::vector<Sbp>(in.size(), b), std::vector<Sbp>(out.size(), p)};
  linear.inputs.back() = p;
  sigs.push_back(linear);
  return sigs;
}

// Rows are cut into blocks, each summing its rows' contributions to dweight and dbias in its
// own buffers; the buffers are then added in block order, so the result does not depend on
// the number of threads. A block takes at least kParamGradGrain elements: every block's
// buffers are zeroed and read once more, which costs as much as its rows do where rows are
// long and few.
constexpr int64_t kParamGradBlocks = 64;
constexpr int64_t kParamGradGrain = 1 << 14;

// Per row, with x^ = (x - mean) rstd and g = dy * weight: dx = rstd (g - mean(g) - x^ mean(g x^)),
// dweight += dy x^, dbias += dy.
std::vector<Tensor> layer_norm_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const bool has_weight = flag(ctx.attrs, "has_weight"), has_bias = flag(ctx.attrs, "has_bias");
  const double eps = eps_attr(ctx.attrs);
  const Shape& normalized = ctx.attrs.get_ints("normalized_shape");
  const int64_t n = numel(normalized);
  const Tensor& x = in[0];
  const Tensor& dy = in.back();
  const int64_t rows = n == 0 ? 0 : x.numel() / n;
  const int64_t blocks = std::min({rows, kParamGradBlocks, std::max<int64_t>(x.numel() / kParamGradGrain, 1)});
  const int64_t params = has_weight + has_bias;
  std::vector<Tensor> out{ctx.output(0, x.shape(), x.dtype())};
  if (has_weight) out.push_back(ctx.output(out.size(), normalized, x.dtype()));
  if (has_bias) out.push_back(ctx.output(out.size(), normalized, x.dtype()));
  visit_dtype(x.dtype(), [&](auto v) {
    using T = decltype(v);
    if constexpr (std::is_floating_point_v<T>) {
      const T* w = has_weight ? in[1].data_as<T>() : nullptr;
      // Block b's sums: its parameters' (dweight's, then dbias's) from (b params) n on.
      std::vector<T> partial(params * blocks * n, T{0});
#pragma omp parallel for if (kernel::use_team(x.numel()))
      for (int64_t block = 0; block < blocks; ++block) {
        T* dw = has_weight ? partial.data() + block * params * n : nullptr;
        T* db = has_bias ? partial.data() + (block * params + has_weight) * n : nullptr;
        const int64_t first = block * rows / blocks, at = first * n;
        kernel::layer_norm_backward_rows(x.data_as<T>() + at, w, dy.data_as<T>() + at, out[0].data_as<T>() + at, dw, db,
                                         (block + 1) * rows / blocks - first, n, eps);
      }
      for (int64_t param = 0; param < params; ++param) {
        T* total = out[1 + param].data_as<T>();
        std::fill(total, total + n, T{0});
        for (int64_t block = 0; block < blocks; ++block) {
          const T* part = partial.data() + (block * params + param) * n;
          for (int64_t j = 0; j < n; ++j) total[j] += part[j];
        }
      }
    }
  });
  return out;
}

// layer_norm's gradient in differentiable ops, for a create_graph backward: with
// xhat = (x - mean) rstd and dxhat = dy weight, dx = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat)).
std::vector<Var> layer_norm_composite_grad(const GradContext& g) {
  const Var &x = g.inputs[0], &dy = g.grad_outputs[0];
  const bool has_weight = flag(g.attrs, "has_weight"), has_bias = flag(g.attrs, "has_bias");
  const int64_t nd = static_cast<int64_t>(x.shape().size());
  std::vector<int64_t> dims;
  for (int64_t d = nd - static_cast<int64_t>(g.attrs.get_ints("normalized_shape").size()); d < nd; ++d) dims.push_back(d);
  const Var centered = fn::sub(x, fn::mean(x, dims, true));
  const Var rstd = fn::rsqrt(fn::add_scalar(fn::mean(fn::mul(centered, centered), dims, true), eps_attr(g.attrs)));
  const Var xhat = fn::mul(centered, rstd);
  const Var dxhat = has_weight ? fn::mul(dy, g.inputs[1]) : dy;
  std::vector<Var> grads{
      g.needs_grad[0] ? fn::mul(rstd, fn::sub(fn::sub(dxhat, fn::mean(dxhat, dims, true)),
                                              fn::mul(xhat, fn::mean(fn::mul(dxhat, xhat), dims, true))))
                      : Var()};
  if (has_weight) grads.push_back(g.needs_grad[1] ? fn::sum_to(fn::mul(dy, xhat), g.inputs[1].shape()) : Var());
  if (has_bias) grads.push_back(g.needs_grad[grads.size()] ? fn::sum_to(dy, g.inputs[grads.size()].shape()) : Var());
  return grads;
}

// The backward op's outputs are the gradients of x, weight and bias, in the inputs' order.
std::vector<Var> layer_norm_grad(const GradContext& g) {
  if (grad_enabled()) return layer_norm_composite_grad(g);
  std::vector<Var> inputs{g.inputs[0]};
  if (flag(g.attrs, "has_weight")) inputs.push_back(g.inputs[1]);
  inputs.push_back(g.grad_outputs[0]);
  return call(kLayerNormBackward, inputs, g.attrs);
}

// ---------------------------------------------------------------------------------------------
// gelu_backward, gelu_tanh_backward, silu_backward, sigmoid_backward, tanh_backward, relu_backward

constexpr const char* kGeluBackward = "gelu_backward";
constexpr const char* kGeluTanhBackward = "gelu_tanh_backward";
constexpr const char* kSiluBackward = "silu_backward";
constexpr const char* kSigmoidBackward = "sigmoid_backward";
constexpr const char* kTanhBackward = "tanh_backward";
constexpr const char* kReluBackward = "relu_backward";

// An activation's backward op: its saved tensor (`saved`: "x" or "y") and dy, floating, of one
// dtype, dy of the saved tensor's shape or one that broadcasts to it (a sum's gradient, not
// expanded: autograd/var.h); dx has the saved tensor's shape and dtype.
decltype(OpDef::infer) activation_backward_infer(const char* op, const char* saved) {
  return [op, saved](const std::vector<TensorMeta>& in, const Attrs&) {
    kernel::expect_inputs(op, in, 2);
    expect_floating(op, in[0], saved);
    kernel::expect_broadcasts_to(op, in[1].shape, in[0].shape, "dy", std::string(saved) + "'s");
    kernel::expect_same_dtype(op, in[0], in[1]);
    return std::vector<TensorMeta>{in[0]};
  };
}

// A broadcast dy is B wherever it has size 1 against a split dim.
std::vector<Signature> activation_backward_signatures(const std::vector<TensorMeta>& in,
                                                      const std::vector<TensorMeta>& out, const Attrs&) {
  std::vector<Signature> sigs = kernel::broadcast_split_signatures(in, out[0].shape);
  sigs.push_back({{Sbp::broadcast(), Sbp::partial_sum()}, {Sbp::partial_sum()}});
  return sigs;
}

// dx[i] = f(saved[i], dy[i]) over floating inputs, dy broadcast.
template <typename F>
decltype(OpDef::kernel) activation_backward_kernel(F f) {
  return [f](const std::vector<Tensor>& in, const KernelContext& ctx) {
    Tensor out = ctx.output(0, in[0].shape(), in[0].dtype());
    visit_dtype(out.dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        kernel::activation_backward_loop(in[0].data_as<T>(), in[1].data_as<T>(), in[1].shape(), out.data_as<T>(),
                                         out.shape(), f);
      }
    });
    return std::vector<Tensor>{out};
  };
}

// A backward functor `f(x, dy)` (elementwise_math.h) with float32 through dy kSlope(x), kSlope
// fast_math's vectorizing form of the slope (always inlined, as fast_math::float32_by's lambda).
template <float (*kSlope)(float), typename F>
auto float32_slope_by(F f) {
  return [f](auto x, auto dy) __attribute__((always_inline)) {
    if constexpr (std::is_same_v<decltype(x), float>) {
      return dy * kSlope(x);
    } else {
      return f(x, dy);
    }
  };
}

OpDef activation_backward(const char* op, const char* saved, decltype(OpDef::kernel) kernel) {
  OpDef def = make_op(op, activation_backward_infer(op, saved), activation_backward_signatures, std::move(kernel));
  def.elementwise = true;
  return def;
}

// relu_backward(y, dy) = dy where y > 0, else 0, as torch's threshold_backward (dy passes
// where y is NaN). Linear in dy, so its own gradient is itself on the new dy (summed over
// the dims a broadcast dy repeats); y, piecewise constant, gets zeros (torch's).
std::vector<Var> relu_backward_grad(const GradContext& g) {
  const Var &y = g.inputs[0], &dy = g.inputs[1];
  return {g.needs_grad[0] ? fn::zeros_like(y) : Var(),
          g.needs_grad[1] ? fn::sum_to(call1(kReluBackward, {y, g.grad_outputs[0]}), dy.shape()) : Var()};
}

// ---------------------------------------------------------------------------------------------
// embedding, embedding_backward

constexpr const char* kEmbedding = "embedding";
constexpr const char* kEmbeddingBackward = "embedding_backward";

std::vector<TensorMeta> embedding_infer(const std::vector<TensorMeta>& in, const Attrs&) {
  kernel::expect_inputs(kEmbedding, in, 2);
  expect_index(kEmbedding, in[0], "indices");
  if (in[1].shape.size() != 2) {
    op_error(kEmbedding,
             "weight has shape " + to_string(in[1].shape) + "; expected 2 dims [vocabulary, embedding dim]");
  }
  Shape out = in[0].shape;
  out.push_back(in[1].shape[1]);
  return {{out, in[1].dtype}};
}

std::vector<Signature> embedding_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                            const Attrs&) {
  const int nd = static_cast<int>(in[0].shape.size());
  const Sbp b = Sbp::broadcast(), p = Sbp::partial_sum();
  std::vector<Signature> sigs;
  for (int k = 0; k < nd; ++k) sigs.push_back({{Sbp::split(k), b}, {Sbp::split(k)}});
  sigs.push_back({{b, Sbp::split(1)}, {Sbp::split(nd)}});
  sigs.push_back({{b, Sbp::split(0)}, {p}});
  sigs.push_back({{b, p}, {p}});
  return sigs;
}

// y's rows [begin, end) of `width`: w's rows idx[i] - first, zeros where that row is outside
// [0, rows). A plain function over a block of rows, so that the loop keeps its pointers in
// registers: a call per row of a parallel loop's lambda, reading them through its closure,
// cost as much as copying a short row.
template <typename T, typename I>
void copy_rows(const T* w, int64_t first, int64_t rows, int64_t width, const I* idx, int64_t begin, int64_t end, T* y) {
  for (int64_t i = begin; i < end; ++i) {
    const int64_t r = static_cast<int64_t>(idx[i]) - first;
    T* yi = y + i * width;
    if (r >= 0 && r < rows) {
      std::copy(w + r * width, w + (r + 1) * width, yi);
    } else {
      std::fill(yi, yi + width, T{0});
    }
  }
}

// The local weight holds logical rows [first, first + rows); other rows come out as zeros
// (only under a vocabulary split, where the ranks' outputs add up).
std::vector<Tensor> embedding_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& indices = in[0];
  const Tensor& weight = in[1];
  const int64_t first = ctx.input_boxes[1].start[0], rows = weight.shape()[0], width = weight.shape()[1];
  Tensor out = ctx.output(0, ctx.output_boxes[0].extent, weight.dtype());
  const int64_t n = indices.numel();
  kernel::visit_index(indices.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* idx = indices.data_as<I>();
    check_indices(kEmbedding, idx, n, ctx.inputs[1].shape[0], "index");
    visit_storage(weight.dtype(), [&](auto wv) {
      using T = decltype(wv);
      const T* w = weight.data_as<T>();
      T* y = out.data_as<T>();
      constexpr int64_t kBlock = 64;  // rows per task
      kernel::parallel_for((n + kBlock - 1) / kBlock, n * width > kernel::kParallelGrain, [&](int64_t t) {
        copy_rows(w, first, rows, width, idx, t * kBlock, std::min(n, (t + 1) * kBlock), y);
      });
    });
  });
  return {out};
}

std::vector<TensorMeta> embedding_backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kEmbeddingBackward, in, 2);
  expect_index(kEmbeddingBackward, in[0], "indices");
  const Shape& dy = in[1].shape;
  Shape expected = in[0].shape;
  expected.push_back(dy.empty() ? 0 : dy.back());
  expect_shape(kEmbeddingBackward, in[1], expected, "dy", "the indices' shape and the embedding dim");
  return {{{size_attr(kEmbeddingBackward, attrs, "num_weights"), dy.back()}, in[1].dtype}};
}

std::vector<Signature> embedding_backward_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                                     const Attrs&) {
  const int nd = static_cast<int>(in[0].shape.size());
  const Sbp b = Sbp::broadcast(), p = Sbp::partial_sum();
  std::vector<Signature> sigs;
  for (int k = 0; k < nd; ++k) sigs.push_back({{Sbp::split(k), Sbp::split(k)}, {p}});
  sigs.push_back({{b, Sbp::split(nd)}, {Sbp::split(1)}});
  sigs.push_back({{b, p}, {p}});
  sigs.push_back({{b, b}, {Sbp::split(0)}});
  return sigs;
}

// The output box holds rows [first, first + rows) and the local dy's columns. A counting
// sort lists, for each of those rows, the positions of its indices in order; then each row
// is written by one thread, summing its dy rows in that order.
std::vector<Tensor> embedding_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& indices = in[0];
  const Tensor& dy = in[1];
  const Box& box = ctx.output_boxes[0];
  const int64_t first = box.start[0], rows = box.extent[0], width = box.extent[1], n = indices.numel();
  Tensor out = ctx.output(0, box.extent, dy.dtype());
  kernel::visit_index(indices.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* idx = indices.data_as<I>();
    check_indices(kEmbeddingBackward, idx, n, ctx.outputs[0].shape[0], "index");
    std::vector<int64_t> row_start(rows + 1, 0);  // row r's positions: [row_start[r], row_start[r + 1])
    for (int64_t i = 0; i < n; ++i) {
      const int64_t r = idx[i] - first;
      if (r >= 0 && r < rows) ++row_start[r + 1];
    }
    for (int64_t r = 0; r < rows; ++r) row_start[r + 1] += row_start[r];
    std::vector<int64_t> positions(row_start[rows]), next(row_start.begin(), row_start.end() - 1);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t r = idx[i] - first;
      if (r >= 0 && r < rows) positions[next[r]++] = i;
    }
    auto sums = [&](auto v) {
      using T = decltype(v);
      const T* d = dy.data_as<T>();
      T* dw = out.data_as<T>();
      kernel::parallel_for(rows, (rows + n) * width > kernel::kParallelGrain, [&](int64_t r) {
        T* row = dw + r * width;
        std::fill(row, row + width, T{0});
        for (int64_t p = row_start[r]; p < row_start[r + 1]; ++p) {
          const T* src = d + positions[p] * width;
          for (int64_t c = 0; c < width; ++c) row[c] += src[c];
        }
      });
    };
    is_complex(dy.dtype()) ? visit_complex(dy.dtype(), sums) : visit_dtype(dy.dtype(), sums);
  });
  return {out};
}

std::vector<Var> embedding_grad(const GradContext& g) {
  const Attrs attrs{{"num_weights", g.inputs[1].shape()[0]}};
  return {Var(), call1(kEmbeddingBackward, {g.inputs[0], g.grad_outputs[0]}, attrs)};
}

// embedding_backward is linear in dy: its gradient picks the rows of ddweight (a create_graph
// backward through embedding).
std::vector<Var> embedding_backward_grad(const GradContext& g) {
  return {Var(), call1(kEmbedding, {g.inputs[0], g.grad_outputs[0]})};
}

// ---------------------------------------------------------------------------------------------
// embedding_bag, embedding_bag_backward
//
// The forward's inputs are indices, weight[, offsets][, per_sample_weights]: offsets (int32 or
// int64, 1-d) when indices is 1-d (bag b starts at offsets[b]; the last bag ends with the
// indices), none when it is 2-d (bag b is row b). The backward's are dy
// then the forward's, so one reader serves both. The output's shape depends on offsets'
// length only: the bags' bounds are read by the kernel, never on the host.

constexpr const char* kEmbeddingBag = "embedding_bag";
constexpr const char* kEmbeddingBagBackward = "embedding_bag_backward";
using embedding_bag::BagAttrs;

// The number of bags, after checking the forward's inputs `in` (dtypes, shapes, count).
int64_t bag_count(const std::string& op, const std::vector<TensorMeta>& in, const BagAttrs& a) {
  const size_t dims = in.empty() ? 0 : in[0].shape.size();
  kernel::expect_inputs(op, in, 2 + (dims == 1) + a.weighted);
  expect_index(op, in[0], "indices");
  expect_floating(op, in[1], "weight");
  if (in[1].shape.size() != 2) {
    op_error(op, "weight has shape " + to_string(in[1].shape) + "; expected 2 dims [vocabulary, embedding dim]");
  }
  if (a.padding_idx < -1 || a.padding_idx >= in[1].shape[0]) {
    op_error(op, "padding_idx is " + std::to_string(a.padding_idx) + "; expected -1 (none) or a row of weight");
  }
  if (a.weighted) {
    expect_shape(op, in.back(), in[0].shape, "per_sample_weights", "the indices' shape");
    if (in.back().dtype != in[1].dtype) {
      op_error(op, std::string("per_sample_weights is ") + dtype_name(in.back().dtype) + "; expected weight's " +
                       dtype_name(in[1].dtype));
    }
  }
  if (dims == 2) return in[0].shape[0];
  if (dims != 1) op_error(op, "indices has shape " + to_string(in[0].shape) + "; expected 1 dim (with offsets) or 2");
  expect_index(op, in[2], "offsets");
  if (in[2].shape.size() != 1) op_error(op, "offsets has shape " + to_string(in[2].shape) + "; expected 1 dim");
  return a.include_last_offset ? std::max<int64_t>(in[2].shape[0] - 1, 0) : in[2].shape[0];
}

std::vector<TensorMeta> embedding_bag_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  const int64_t bags = bag_count(kEmbeddingBag, in, embedding_bag::read_attrs(kEmbeddingBag, attrs));
  return {{{bags, in[1].shape[1]}, in[1].dtype}};
}

// Whole tensors on one device: global inputs take F.embedding_bag's composition, whose ops
// have their splits.
std::vector<Signature> embedding_bag_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>& out,
                                                const Attrs&) {
  return {{std::vector<Sbp>(in.size(), Sbp::broadcast()), std::vector<Sbp>(out.size(), Sbp::broadcast())}};
}

// The bags' bounds (embedding_bag::bounds) from the forward's inputs `in`.
std::vector<int64_t> bag_bounds(const std::string& op, const std::vector<Tensor>& in, int64_t bags) {
  return embedding_bag::bounds(op, in[0].shape(), bags, [&] {
    std::vector<int64_t> starts;
    kernel::visit_index(in[2].dtype(), [&](auto iv) {
      const auto* o = in[2].data_as<decltype(iv)>();
      starts.assign(o, o + in[2].numel());
    });
    return starts;
  });
}

constexpr int64_t kBagPrefetch = 8;  // positions ahead whose weight row reduce_bags prefetches

// Bags [b0, b1) of y [bags, width]: each bag's rows of w (scaled by psw when given), left out
// where the index is padding_idx, reduced by mode; zeros for a bag left empty.
template <typename T, typename I>
MF_MULTIVERSIONED void reduce_bags(const BagAttrs& a, const int64_t* bounds, const I* idx, const T* w, const T* psw, int64_t width,
                 int64_t b0, int64_t b1, T* y) {
  for (int64_t b = b0; b < b1; ++b) {
    T* yb = y + b * width;
    std::fill(yb, yb + width, T{0});
    int64_t count = 0;
    for (int64_t p = bounds[b]; p < bounds[b + 1]; ++p) {
      // Rows are scattered over the table: fetch a later one while this one is added.
      if (p + kBagPrefetch < bounds[b1]) __builtin_prefetch(w + static_cast<int64_t>(idx[p + kBagPrefetch]) * width);
      const int64_t i = idx[p];
      if (i == a.padding_idx) continue;
      const T* row = w + i * width;
      if (a.mode == embedding_bag::kMax) {
        for (int64_t c = 0; c < width; ++c) yb[c] = count == 0 || row[c] > yb[c] ? row[c] : yb[c];
      } else {
        const T f = psw ? psw[p] : T{1};
        for (int64_t c = 0; c < width; ++c) yb[c] += f * row[c];
      }
      ++count;
    }
    if (a.mode == embedding_bag::kMean && count > 1) {
      for (int64_t c = 0; c < width; ++c) yb[c] /= static_cast<T>(count);
    }
  }
}

std::vector<Tensor> embedding_bag_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const BagAttrs a = embedding_bag::read_attrs(kEmbeddingBag, ctx.attrs);
  const Tensor &indices = in[0], &weight = in[1];
  const int64_t bags = ctx.output_boxes[0].extent[0], width = weight.shape()[1], n = indices.numel();
  const std::vector<int64_t> bounds = bag_bounds(kEmbeddingBag, in, bags);
  Tensor out = ctx.output(0, ctx.output_boxes[0].extent, weight.dtype());
  kernel::visit_index(indices.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* idx = indices.data_as<I>();
    check_indices(kEmbeddingBag, idx, n, weight.shape()[0], "index");
    visit_dtype(weight.dtype(), [&](auto wv) {
      using T = decltype(wv);
      const T* psw = a.weighted ? in.back().data_as<T>() : nullptr;
      constexpr int64_t kBlock = 16;  // bags per task
      kernel::parallel_for((bags + kBlock - 1) / kBlock, n * width > kernel::kParallelGrain, [&](int64_t t) {
        reduce_bags(a, bounds.data(), idx, weight.data_as<T>(), psw, width, t * kBlock,
                    std::min(bags, (t + 1) * kBlock), out.data_as<T>());
      });
    });
  });
  return {out};
}

std::vector<TensorMeta> embedding_bag_backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  const BagAttrs a = embedding_bag::read_attrs(kEmbeddingBagBackward, attrs);
  if (in.empty()) op_error(kEmbeddingBagBackward, "expected dy then the forward's inputs");
  const std::vector<TensorMeta> forward(in.begin() + 1, in.end());
  const int64_t bags = bag_count(kEmbeddingBagBackward, forward, a);
  expect_shape(kEmbeddingBagBackward, in[0], {bags, forward[1].shape[1]}, "dy", "the forward's output shape");
  std::vector<TensorMeta> out{forward[1]};
  if (a.weighted) out.push_back(forward.back());
  return out;
}

// dweight: each bag's dy row added to the rows its indices name (scaled as the forward
// scaled them; under max, column by column to the first row holding the maximum), in
// position order (deterministic). dper_sample_weights: dy's row dotted with the index's row.
std::vector<Tensor> embedding_bag_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const BagAttrs a = embedding_bag::read_attrs(kEmbeddingBagBackward, ctx.attrs);
  const Tensor& dy = in[0];
  const std::vector<Tensor> forward(in.begin() + 1, in.end());
  const Tensor &indices = forward[0], &weight = forward[1];
  const int64_t bags = dy.shape()[0], width = dy.shape()[1], n = indices.numel();
  const std::vector<int64_t> bounds = bag_bounds(kEmbeddingBagBackward, forward, bags);
  Tensor dweight = ctx.output(0, ctx.output_boxes[0].extent, weight.dtype());
  std::vector<Tensor> outs{dweight};
  if (a.weighted) outs.push_back(ctx.output(1, ctx.output_boxes[1].extent, weight.dtype()));
  kernel::visit_index(indices.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* idx = indices.data_as<I>();
    check_indices(kEmbeddingBagBackward, idx, n, weight.shape()[0], "index");
    visit_dtype(weight.dtype(), [&](auto wv) {
      using T = decltype(wv);
      const T *w = weight.data_as<T>(), *d = dy.data_as<T>();
      const T* psw = a.weighted ? forward.back().data_as<T>() : nullptr;
      T* dw = dweight.data_as<T>();
      T* dpsw = a.weighted ? outs[1].data_as<T>() : nullptr;
      std::fill(dw, dw + dweight.numel(), T{0});
      std::vector<int64_t> first_max(width);
      for (int64_t b = 0; b < bags; ++b) {
        const T* g = d + b * width;
        if (a.mode == embedding_bag::kMax) {
          std::fill(first_max.begin(), first_max.end(), -1);
          for (int64_t p = bounds[b]; p < bounds[b + 1]; ++p) {
            const int64_t i = idx[p];
            if (i == a.padding_idx) continue;
            for (int64_t c = 0; c < width; ++c) {
              if (first_max[c] < 0 || w[i * width + c] > w[first_max[c] * width + c]) first_max[c] = i;
            }
          }
          for (int64_t c = 0; c < width; ++c) {
            if (first_max[c] >= 0) dw[first_max[c] * width + c] += g[c];
          }
          continue;
        }
        int64_t count = 0;
        for (int64_t p = bounds[b]; p < bounds[b + 1]; ++p) count += idx[p] != a.padding_idx;
        const T scale = a.mode == embedding_bag::kMean && count > 0 ? T{1} / static_cast<T>(count) : T{1};
        for (int64_t p = bounds[b]; p < bounds[b + 1]; ++p) {
          const int64_t i = idx[p];
          if (dpsw) dpsw[p] = T{0};
          if (i == a.padding_idx) continue;
          const T f = scale * (psw ? psw[p] : T{1});
          T* row = dw + i * width;
          for (int64_t c = 0; c < width; ++c) row[c] += f * g[c];
          if (dpsw) {
            T dot{0};
            for (int64_t c = 0; c < width; ++c) dot += g[c] * w[i * width + c];
            dpsw[p] = dot;
          }
        }
      }
      // Positions past the last bag (include_last_offset) are in no bag: zero gradient.
      if (dpsw) std::fill(dpsw + bounds[bags], dpsw + n, T{0});
    });
  });
  return outs;
}

// The backward op's inputs: dy, then the forward's (weight for max's first maxima and the
// per-sample weights' gradient).
std::vector<Var> embedding_bag_grad(const GradContext& g) {
  std::vector<Var> in{g.grad_outputs[0]};
  in.insert(in.end(), g.inputs.begin(), g.inputs.end());
  const std::vector<Var> d = call(kEmbeddingBagBackward, in, g.attrs);
  std::vector<Var> grads(g.inputs.size());
  grads[1] = d[0];
  if (d.size() > 1) grads.back() = d[1];
  return grads;
}

// ---------------------------------------------------------------------------------------------
// gather, gather_backward
//
// Both view index as [outer, m, inner] around dim and x (or dx) as [outer, size, inner]:
// in every signature the two have the same local extents off dim, and x's local part holds
// the logical positions [first, first + size) along dim.

constexpr const char* kGather = "gather";
constexpr const char* kGatherBackward = "gather_backward";

std::vector<TensorMeta> gather_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kGather, in, 2);
  expect_index(kGather, in[1], "index");
  const Shape& x = in[0].shape;
  const Shape& index = in[1].shape;
  const int64_t dim = kernel::normalize_dim(kGather, attrs.get_int("dim"), static_cast<int64_t>(x.size()));
  Shape expected = x;
  if (index.size() == x.size()) expected[dim] = index[dim];
  expect_shape(kGather, in[1], expected, "index", "the shape of x except along dim " + std::to_string(dim));
  return {{index, in[0].dtype}};
}

int64_t gather_dim(const std::string& op, const Attrs& attrs, const Shape& shape) {
  return kernel::normalize_dim(op, attrs.get_int("dim"), static_cast<int64_t>(shape.size()));
}

// S(k) on both inputs and the output for every k != dim, then the splits along dim.
std::vector<Signature> gather_splits(int64_t nd, int64_t dim, std::vector<Signature> along_dim) {
  std::vector<Signature> sigs;
  for (int k = 0; k < nd; ++k) {
    if (k != dim) sigs.push_back({{Sbp::split(k), Sbp::split(k)}, {Sbp::split(k)}});
  }
  sigs.insert(sigs.end(), along_dim.begin(), along_dim.end());
  return sigs;
}

std::vector<Signature> gather_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                         const Attrs& attrs) {
  const int dim = static_cast<int>(gather_dim(kGather, attrs, in[0].shape));
  const Sbp b = Sbp::broadcast(), s = Sbp::split(dim);
  return gather_splits(static_cast<int64_t>(in[0].shape.size()), dim, {{{b, s}, {s}}, {{s, b}, {Sbp::partial_sum()}}});
}

constexpr int64_t kGatherTask = 4096;

std::vector<Tensor> gather_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& x = in[0];
  const Tensor& index = in[1];
  const int64_t dim = gather_dim(kGather, ctx.attrs, x.shape());
  const AroundDim a = around(index.shape(), dim);
  const int64_t m = index.shape()[dim], size = x.shape()[dim], first = ctx.input_boxes[0].start[dim];
  Tensor out = ctx.output(0, index.shape(), x.dtype());
  kernel::visit_index(index.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* idx = index.data_as<I>();
    check_indices(kGather, idx, index.numel(), ctx.inputs[0].shape[dim], "index");
    visit_storage(x.dtype(), [&](auto v) {
      using T = decltype(v);
      const T* px = x.data_as<T>();
      T* po = out.data_as<T>();
      // Tasks of whole lines (index's elements at one outer and one position along dim), about
      // kGatherTask elements each: a task per line cost a call and a division per element
      // where dim is the last (inner 1), 2.3x torch's time.
      const int64_t lines = a.outer * m, per_task = std::max<int64_t>(1, kGatherTask / std::max<int64_t>(a.inner, 1));
      kernel::parallel_for((lines + per_task - 1) / per_task, index.numel() > kernel::kParallelGrain, [&](int64_t t) {
        const int64_t end = std::min(lines, (t + 1) * per_task);
        for (int64_t line = t * per_task; line < end;) {
          const int64_t o = line / m, stop = std::min(end, (o + 1) * m);  // the lines of one outer
          const T* xo = px + o * size * a.inner;
          if (a.inner == 1) {  // gather along the last dim: one tight loop over the outer's lines
            for (; line < stop; ++line) {
              const int64_t at = idx[line] - first;
              po[line] = at >= 0 && at < size ? xo[at] : T{0};
            }
          }
          for (; line < stop; ++line) {
            const I* il = idx + line * a.inner;
            T* ol = po + line * a.inner;
            for (int64_t i = 0; i < a.inner; ++i) {
              const int64_t at = il[i] - first;
              ol[i] = at >= 0 && at < size ? xo[at * a.inner + i] : T{0};
            }
          }
        }
      });
    });
  });
  return {out};
}

std::vector<TensorMeta> gather_backward_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  kernel::expect_inputs(kGatherBackward, in, 2);
  expect_index(kGatherBackward, in[0], "index");
  expect_shape(kGatherBackward, in[1], in[0].shape, "dy", "the shape of index");
  Shape dx = in[0].shape;
  dx[gather_dim(kGatherBackward, attrs, dx)] = size_attr(kGatherBackward, attrs, "size");
  return {{dx, in[1].dtype}};
}

std::vector<Signature> gather_backward_signatures(const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                                                  const Attrs& attrs) {
  const int dim = static_cast<int>(gather_dim(kGatherBackward, attrs, in[0].shape));
  const Sbp b = Sbp::broadcast(), s = Sbp::split(dim), p = Sbp::partial_sum();
  return gather_splits(static_cast<int64_t>(in[0].shape.size()), dim, {{{b, b}, {s}}, {{s, s}, {p}}, {{b, p}, {p}}});
}

// Tasks of one outer block and up to this many inner columns: each owns its slab of dx (no
// two threads write one element) and adds dy in index order (deterministic).
constexpr int64_t kGatherColumns = 1024;

std::vector<Tensor> gather_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& index = in[0];
  const Tensor& dy = in[1];
  const int64_t dim = gather_dim(kGatherBackward, ctx.attrs, index.shape());
  const Box& box = ctx.output_boxes[0];
  const AroundDim a = around(index.shape(), dim);
  const int64_t m = index.shape()[dim], size = box.extent[dim], first = box.start[dim];
  const int64_t chunks = (a.inner + kGatherColumns - 1) / kGatherColumns;
  Tensor out = ctx.output(0, box.extent, dy.dtype());
  kernel::visit_index(index.dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* idx = index.data_as<I>();
    check_indices(kGatherBackward, idx, index.numel(), ctx.outputs[0].shape[dim], "index");
    auto sums = [&](auto v) {
      using T = decltype(v);
      const T* d = dy.data_as<T>();
      T* dx = out.data_as<T>();
      kernel::parallel_for(a.outer * chunks, out.numel() + index.numel() > kernel::kParallelGrain, [&](int64_t t) {
        const int64_t o = t / chunks, begin = t % chunks * kGatherColumns;
        const int64_t end = std::min(a.inner, begin + kGatherColumns);
        T* slab = dx + o * size * a.inner;
        if (chunks == 1) {
          std::fill(slab, slab + size * a.inner, T{0});
        } else {
          for (int64_t at = 0; at < size; ++at) std::fill(slab + at * a.inner + begin, slab + at * a.inner + end, T{0});
        }
        for (int64_t j = 0; j < m; ++j) {
          const I* il = idx + (o * m + j) * a.inner;
          const T* dl = d + (o * m + j) * a.inner;
          for (int64_t i = begin; i < end; ++i) {
            const int64_t at = il[i] - first;
            if (at >= 0 && at < size) slab[at * a.inner + i] += dl[i];
          }
        }
      });
    };
    is_complex(dy.dtype()) ? visit_complex(dy.dtype(), sums) : visit_dtype(dy.dtype(), sums);
  });
  return {out};
}

std::vector<Var> gather_grad(const GradContext& g) {
  const Var& x = g.inputs[0];
  const int64_t dim = g.attrs.get_int("dim");
  const Attrs attrs{{"dim", dim}, {"size", x.shape()[gather_dim(kGather, g.attrs, x.shape())]}};
  return {call1(kGatherBackward, {g.inputs[1], g.grad_outputs[0]}, attrs), Var()};
}

// gather_backward is linear in dy: its gradient gathers ddx where dy came from.
std::vector<Var> gather_backward_grad(const GradContext& g) {
  return {Var(), call1(kGather, {g.grad_outputs[0], g.inputs[0]}, {{"dim", g.attrs.get_int("dim")}})};
}

// ---------------------------------------------------------------------------------------------
// cross_entropy's arguments

constexpr const char* kCrossEntropy = "cross_entropy";

// The arguments of both cross-entropy ops: logits [N, C] floating, target [N] of indices
// (errors name cross_entropy, the function users call).
void check_cross_entropy(const std::vector<TensorMeta>& in) {
  kernel::expect_inputs(kCrossEntropy, in, 2);
  expect_floating(kCrossEntropy, in[0], "logits");
  expect_index(kCrossEntropy, in[1], "target");
  const Shape& logits = in[0].shape;
  if (logits.size() != 2) {
    op_error(kCrossEntropy, "logits have shape " + to_string(logits) + "; expected 2 dims [batch, classes]");
  }
  if (in[1].shape != Shape{logits[0]}) {
    op_error(kCrossEntropy, "target has shape " + to_string(in[1].shape) + "; expected [" + std::to_string(logits[0]) +
                                "], one class per row of the logits");
  }
}

// ---------------------------------------------------------------------------------------------
// softmax_cross_entropy, softmax_cross_entropy_backward

constexpr const char* kSoftmaxCrossEntropy = "softmax_cross_entropy";
constexpr const char* kSoftmaxCrossEntropyBackward = "softmax_cross_entropy_backward";

int64_t ignore_index_of(const Attrs& attrs) {
  return attrs.has("ignore_index") ? attrs.get_int("ignore_index") : int64_t{-100};
}

// label_smoothing e as the loss's two coefficients (row_math.h): 1 - e on the target's term,
// e / C on each class's.
struct Smoothing {
  double on_target = 1, spread = 0;
};

Smoothing smoothing_of(const Attrs& attrs, int64_t classes) {
  const double e = attrs.has("label_smoothing") ? attrs.get_float("label_smoothing") : 0.0;
  return {1 - e, classes > 0 ? e / static_cast<double>(classes) : 0.0};
}

// The optional class weights after `count` inputs: [C] of the logits' dtype.
void check_class_weight(const std::string& op, const std::vector<TensorMeta>& in, size_t count) {
  if (in.size() != count && in.size() != count + 1) {
    op_error(op, "got " + std::to_string(in.size()) + " inputs; expected " + std::to_string(count) + ", or " +
                     std::to_string(count + 1) + " with class weights");
  }
  if (in.size() == count) return;
  const TensorMeta& w = in[count];
  if (w.shape != Shape{in[0].shape[1]} || w.dtype != in[0].dtype) {
    op_error(kCrossEntropy, "weight is " + to_string(w.shape) + " " + dtype_name(w.dtype) + "; expected [" +
                                std::to_string(in[0].shape[1]) + "] " + dtype_name(in[0].dtype) +
                                ", one weight per class in the logits' dtype");
  }
}

std::vector<TensorMeta> softmax_cross_entropy_infer(const std::vector<TensorMeta>& in, const Attrs& attrs) {
  check_class_weight(kSoftmaxCrossEntropy, in, 2);
  check_cross_entropy({in[0], in[1]});
  const double e = attrs.has("label_smoothing") ? attrs.get_float("label_smoothing") : 0.0;
  if (!(e >= 0 && e <= 1)) {
    op_error(kCrossEntropy, "label_smoothing is " + std::to_string(e) + "; expected a value in [0, 1]");
  }
  const TensorMeta rows{Shape{in[0].shape[0]}, in[0].dtype};
  return {rows, rows};
}

// The rows split on every input (the class weights, input `weight`, whole) and output.
std::vector<Signature> split_rows(size_t inputs, size_t outputs, size_t weight) {
  std::vector<Sbp> in(inputs, Sbp::split(0));
  if (weight < inputs) in[weight] = Sbp::broadcast();
  return {{in, std::vector<Sbp>(outputs, Sbp::split(0))}};
}

// The class weights' total (C without weights).
template <typename T>
T weight_total(const T* w, int64_t classes) {
  if (!w) return static_cast<T>(classes);
  T total = 0;
  for (int64_t c = 0; c < classes; ++c) total += w[c];
  return total;
}

std::vector<Tensor> softmax_cross_entropy_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& logits = in[0];
  const int64_t rows = logits.shape()[0], classes = logits.shape()[1], ignore = ignore_index_of(ctx.attrs);
  const Smoothing smoothing = smoothing_of(ctx.attrs, classes);
  Tensor loss = ctx.output(0, {rows}, logits.dtype()), lse = ctx.output(1, {rows}, logits.dtype());
  kernel::visit_index(in[1].dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* target = in[1].data_as<I>();
    check_indices(kCrossEntropy, target, rows, classes, "target", ignore);
    visit_dtype(logits.dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        const T* x = logits.data_as<T>();
        const T* w = in.size() > 2 ? in[2].data_as<T>() : nullptr;
        const T on_target = static_cast<T>(smoothing.on_target), spread = static_cast<T>(smoothing.spread);
        const bool plain = !w && smoothing.spread == 0;
        T *l = loss.data_as<T>(), *s = lse.data_as<T>();
        for_each_row_task(rows, classes, rows * classes > kernel::kParallelGrain, [&](int64_t first, int64_t count) {
          kernel::log_sum_exp_rows(x + first * classes, s + first, count, classes);
          for (int64_t i = first; i < first + count; ++i) {
            const bool ignored = target[i] == ignore;
            if (plain || ignored) {
              l[i] = rowmath::cross_entropy_loss(s[i], ignored ? T{0} : x[i * classes + target[i]], ignored);
              continue;
            }
            const T* row = x + i * classes;
            T spread_sum = 0;  // sum_c w_c (lse - x_c), read only where e > 0
            if (spread != 0) {
              const T shift = s[i];
              if (w) {
#pragma omp simd reduction(+ : spread_sum)
                for (int64_t c = 0; c < classes; ++c) spread_sum += w[c] * (shift - row[c]);
              } else {
#pragma omp simd reduction(+ : spread_sum)
                for (int64_t c = 0; c < classes; ++c) spread_sum += shift - row[c];
              }
            }
            l[i] = rowmath::smoothed_cross_entropy_loss(s[i], row[target[i]], w ? w[target[i]] : T{1}, on_target,
                                                        spread, spread_sum);
          }
        });
      }
    });
  });
  return {loss, lse};
}

std::vector<TensorMeta> softmax_cross_entropy_backward_infer(const std::vector<TensorMeta>& in, const Attrs&) {
  check_class_weight(kSoftmaxCrossEntropyBackward, in, 5);
  check_cross_entropy({in[0], in[1]});
  const TensorMeta rows{Shape{in[0].shape[0]}, in[0].dtype};
  for (size_t i = 2; i < 5; ++i) {
    if (in[i].shape != rows.shape || in[i].dtype != rows.dtype) {
      op_error(kSoftmaxCrossEntropyBackward, "input " + std::to_string(i) + " is " + to_string(in[i].shape) + " " +
                                                 dtype_name(in[i].dtype) + "; expected " + to_string(rows.shape) +
                                                 " " + dtype_name(rows.dtype));
    }
  }
  return {in[0]};
}

// dlogits = softmax(logits) (dloss + dlse) - one_hot(target) dloss, rows of ignore_index
// taking no dloss; weighted and smoothed, row_math.h's terms.
std::vector<Tensor> softmax_cross_entropy_backward_kernel(const std::vector<Tensor>& in, const KernelContext& ctx) {
  const Tensor& logits = in[0];
  const int64_t rows = logits.shape()[0], classes = logits.shape()[1], ignore = ignore_index_of(ctx.attrs);
  const Smoothing smoothing = smoothing_of(ctx.attrs, classes);
  Tensor dx = ctx.output(0, logits.shape(), logits.dtype());
  kernel::visit_index(in[1].dtype(), [&](auto iv) {
    using I = decltype(iv);
    const I* target = in[1].data_as<I>();
    visit_dtype(logits.dtype(), [&](auto v) {
      using T = decltype(v);
      if constexpr (std::is_floating_point_v<T>) {
        const T *x = logits.data_as<T>(), *lse = in[2].data_as<T>(), *dloss = in[3].data_as<T>(),
                *dlse = in[4].data_as<T>();
        const T* w = in.size() > 5 ? in[5].data_as<T>() : nullptr;
        const T on_target = static_cast<T>(smoothing.on_target), spread = static_cast<T>(smoothing.spread);
        const T total = weight_total(w, classes);
        T* out = dx.data_as<T>();
#pragma omp parallel for if (kernel::use_team(rows * classes))
        for (int64_t i = 0; i < rows; ++i) {
          const T* row = x + i * classes;
          T* grad = out + i * classes;
          const bool kept = target[i] != ignore;
          const T dl = kept ? dloss[i] : T{0}, target_weight = kept && w ? w[target[i]] : T{1}, shift = lse[i];
          const T weight = dlse[i] + dl * rowmath::smoothed_cross_entropy_scale(target_weight, on_target, spread, total);
          const T dl_spread = dl * spread;
          // x - lse <= 0: lse is at least the row's maximum.
          if (dl_spread == 0) {
            kernel::simd_loop(classes, [&](int64_t j) {
              grad[j] = rowmath::cross_entropy_dx(fast_math::exp_nonpositive(row[j] - shift), weight, T{0});
            });
          } else if (w) {
            kernel::simd_loop(classes, [&](int64_t j) {
              grad[j] = rowmath::cross_entropy_dx(fast_math::exp_nonpositive(row[j] - shift), weight, dl_spread * w[j]);
            });
          } else {
            kernel::simd_loop(classes, [&](int64_t j) {
              grad[j] = rowmath::cross_entropy_dx(fast_math::exp_nonpositive(row[j] - shift), weight, dl_spread);
            });
          }
          if (kept) {
            const int64_t t = target[i];
            grad[t] -= dl * on_target * target_weight;
          }
        }
      }
    });
  });
  return {dx};
}

// The engine gives zeros for an output no gradient reached (GradContext). In a create_graph
// backward the kernel's formula in differentiable ops (the one-hot rows, the class weights
// and the smoothing constants).
std::vector<Var> softmax_cross_entropy_grad(const GradContext& g) {
  const bool weighted = g.inputs.size() > 2;
  std::vector<Var> grads(g.inputs.size());
  const Var &logits = g.inputs[0], &target = g.inputs[1];
  const int64_t rows = logits.shape()[0], classes = logits.shape()[1];
  const Smoothing e = smoothing_of(g.attrs, classes);
  // The kept rows' dloss [N, 1] and targets' one-hot rows [N, C].
  auto dloss_and_one_hot = [&] {
    const Var kept = fn::ne(target, fn::full_like(target, static_cast<double>(ignore_index_of(g.attrs))));
    const Var dl = fn::reshape(fn::mul(g.grad_outputs[0], fn::cast(kept, logits.dtype())), {rows, 1});
    const Var index = fn::reshape(fn::where(kept, target, fn::zeros_like(target)), {rows, 1});
    const Var one_hot = call1(kGatherBackward, {index, fn::ones_like(fn::cast(index, logits.dtype()))},
                              {{"dim", int64_t{1}}, {"size", classes}});
    return std::pair<Var, Var>{dl, one_hot};
  };
  if (weighted && g.needs_grad[2]) {
    // d loss_i / d w_c = ((1 - e) [c = t_i] + e / C) (lse_i - x_ic) on kept rows.
    const auto [dl, one_hot] = dloss_and_one_hot();
    const Var share = fn::add_scalar(fn::mul_scalar(one_hot, e.on_target), e.spread);
    const Var minus_logp = fn::sub(fn::reshape(g.outputs[1], {rows, 1}), logits);
    grads[2] = fn::sum(fn::mul(fn::mul(share, minus_logp), dl), {0});
  }
  if (!g.needs_grad[0]) return grads;
  if (grad_enabled()) {
    const auto [dl, one_hot] = dloss_and_one_hot();
    const Var p = fn::exp(fn::sub(logits, fn::reshape(g.outputs[1], {rows, 1})));
    // Per class the loss's d/dlogits at p = 0: -(1 - e) w_t one_hot - e / C w; its slope in p
    // the sum of those, negated.
    Var picked = fn::mul_scalar(one_hot, -e.on_target);
    if (weighted) picked = fn::mul(picked, fn::reshape(g.inputs[2], {1, classes}));
    Var at_zero = picked;
    if (e.spread != 0) {
      const Var spread = weighted ? fn::reshape(g.inputs[2], {1, classes}) : fn::ones_like(logits);
      at_zero = fn::add(picked, fn::mul_scalar(spread, -e.spread));
    }
    const Var slope = fn::neg(fn::sum(at_zero, {1}, true));
    const Var weight = fn::add(fn::mul(dl, slope), fn::reshape(g.grad_outputs[1], {rows, 1}));
    grads[0] = fn::add(fn::mul(p, weight), fn::mul(at_zero, dl));
    return grads;
  }
  std::vector<Var> inputs{g.inputs[0], g.inputs[1], g.outputs[1], g.grad_outputs[0], g.grad_outputs[1]};
  if (weighted) inputs.push_back(g.inputs[2]);
  grads[0] = call1(kSoftmaxCrossEntropyBackward, inputs, g.attrs);
  return grads;
}

}  // namespace

void register_nn_ops(OpRegistry& r) {
  constexpr bool kChecksData = true;  // the kernel rejects indices out of range
  r.add(softmax("softmax", false));
  r.add(softmax("log_softmax", true));
  r.add(make_op(kSoftmaxBackward, softmax_backward_infer, softmax_backward_signatures, softmax_backward_kernel));
  r.add(with_grad(make_op(kLayerNorm, layer_norm_infer, layer_norm_signatures, layer_norm_kernel), layer_norm_grad));
  r.add(make_op(kLayerNormBackward, layer_norm_backward_infer, layer_norm_backward_signatures,
                layer_norm_backward_kernel));
  // Float32's gelu (both forms) and silu gradients through fast_math's vectorizing forms of the functors.
  r.add(activation_backward(kGeluBackward, "x", activation_backward_kernel(
      float32_slope_by<fast_math::gelu_grad>(scalar::GeluBackward{}))));
  r.add(activation_backward(kGeluTanhBackward, "x", activation_backward_kernel(
      float32_slope_by<fast_math::gelu_tanh_grad>(scalar::GeluTanhBackward{}))));
  r.add(activation_backward(kSiluBackward, "x", activation_backward_kernel(
      float32_slope_by<fast_math::silu_grad>(scalar::SiluBackward{}))));
  // The forms of elementwise.cc's composite gradients (the same values).
  r.add(activation_backward(kSigmoidBackward, "y", activation_backward_kernel(scalar::SigmoidBackward{})));
  r.add(activation_backward(kTanhBackward, "y", activation_backward_kernel(scalar::TanhBackward{})));
  r.add(with_grad(activation_backward(kReluBackward, "y", activation_backward_kernel(scalar::ReluBackward{})),
                  relu_backward_grad));
  // embedding picks rows of uint8, int8, int16 and complex values too (x[idx] runs on it), and
  // its backward and gather's sum complex gradients.
  OpDef embedding = with_grad(
      make_op(kEmbedding, embedding_infer, embedding_signatures, embedding_kernel, kChecksData), embedding_grad,
      reads_inputs_but(1));
  embedding.small_ints = embedding.complex = true;
  r.add(std::move(embedding));
  OpDef embedding_backward = with_grad(make_op(kEmbeddingBackward, embedding_backward_infer,
                                               embedding_backward_signatures, embedding_backward_kernel, kChecksData),
                                       embedding_backward_grad, reads_inputs_but(1));
  embedding_backward.complex = true;
  r.add(std::move(embedding_backward));
  r.add(with_grad(make_op(kEmbeddingBag, embedding_bag_infer, embedding_bag_signatures, embedding_bag_kernel,
                          kChecksData),
                  embedding_bag_grad));
  r.add(make_op(kEmbeddingBagBackward, embedding_bag_backward_infer, embedding_bag_signatures,
                embedding_bag_backward_kernel, kChecksData));
  // gather only moves elements (masked_select and take_along_dim of masks and halves run on it).
  OpDef gather = with_grad(make_op(kGather, gather_infer, gather_signatures, gather_kernel, kChecksData), gather_grad);
  gather.booleans = gather.bfloat16 = gather.float16 = gather.small_ints = gather.complex = true;
  r.add(std::move(gather));
  OpDef gather_backward = with_grad(
      make_op(kGatherBackward, gather_backward_infer, gather_backward_signatures, gather_backward_kernel, kChecksData),
      gather_backward_grad);
  gather_backward.complex = true;
  r.add(std::move(gather_backward));
  r.add(with_grad(make_op(
                      kSoftmaxCrossEntropy, softmax_cross_entropy_infer,
                      [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&,
                         const Attrs&) { return split_rows(in.size(), 2, 2); },
                      softmax_cross_entropy_kernel, kChecksData),
                  softmax_cross_entropy_grad));
  r.add(make_op(
      kSoftmaxCrossEntropyBackward, softmax_cross_entropy_backward_infer,
      [](const std::vector<TensorMeta>& in, const std::vector<TensorMeta>&, const Attrs&) {
        return split_rows(in.size(), 1, 5);
      },
      softmax_cross_entropy_backward_kernel));
}

}  // namespace mf
