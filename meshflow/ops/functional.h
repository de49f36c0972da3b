// Copyright 2026 The meshflow Authors.
// The C++ functional API: every op as a function of Vars, local or global (a local input
// among global ones is taken as broadcast on their placement: implicit replication,
// README "Ops on global tensors"). call() runs an op through the dispatcher and records it for
// autograd when an input requires grad; the named functions are one-line spellings of it
// with PyTorch's names. Gradients (OpDef::grad) are written with these functions.
// Thread-safety: one thread at a time, like the dispatcher.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "meshflow/autograd/var.h"
#include "meshflow/ops/attrs.h"
#include "meshflow/ops/dispatch.h"

namespace mf {

std::vector<Var> call(const std::string& op, const std::vector<Var>& inputs, const Attrs& attrs = {},
                      const Constraints& constraints = {});
// The same with the op looked up once by the caller (find_op), for hot paths (bindings).
std::vector<Var> call(const OpDef& op, const std::vector<Var>& inputs, const Attrs& attrs = {},
                      const Constraints& constraints = {});
// Automatic mixed precision (mf.autocast), as torch.autocast: while a dtype (bfloat16 or
// float16) is set on this thread, a call of an op on autocast's lists (OpDef::autocast, torch's
// lists: CUDA's float32 list is longer than the CPU's) runs on its inputs cast: kLower ops
// (matmul, conv2d, attention) on float32 (and the other half) cast down to that dtype, giving
// a result in it; the float32 lists' ops on halves cast up to float32, giving float32. Every
// other op runs as called, by promotion. The casts are ops, so autograd takes gradients back
// to float32 through them and graph mode traces them. The setting applies to the ops of every
// device; `device_type` picks the lists ("cuda": CUDA's, anything else: the CPU's).
struct AutocastState {
  std::optional<DType> dtype;  // nullopt: off
  std::string device_type = "cpu";
};
AutocastState autocast_state();
// Sets it on this thread; returns the previous setting, for a scope to restore. Throws
// std::invalid_argument for a dtype other than bfloat16 and float16.
AutocastState set_autocast(AutocastState state);
// The dtype alone: set_autocast({dtype, "cpu"}).
std::optional<DType> autocast_dtype();
std::optional<DType> set_autocast_dtype(std::optional<DType> dtype);

// A local Var as the global tensor of a one-rank placement on this rank, broadcast (the
// same memory): how graph mode runs a program that placed nothing, as OneFlow's nn.Graph
// runs single-device programs. A global Var passes through. Throws std::invalid_argument
// for a local on a device of its type other than the one placements use on this rank
// (device::for_placement).
Var as_global_here(const Var& v);
// The arguments of a compiled step (graph mode): a local Var beside global ones that share one
// placement is taken as broadcast there (implicit replication, as an op takes it: each rank
// must pass the same value; converted as local.to_global(placement, B) converts it); the others pass
// through. Throws std::invalid_argument for local Vars beside global ones of several
// placements.
std::vector<Var> with_local_arguments_replicated(const std::vector<Var>& args);

// An in-place update (the optimizers' steps), not recorded for autograd (raises while it
// would be): `op`, whose kernel must read each element before writing it at the same
// index (optimizer_ops.cc's updates), with output k written over the memory of
// inputs[overwrite[k]] (-1: new memory; apply_local's rules). The outputs are new values
// over that memory, which the caller binds in place of those inputs (Var::set_data); other
// handles of the inputs see their bytes change, as PyTorch's aliases of a tensor updated in
// place. While a graph is traced the call is traced as any other (graph mode plans memory).
std::vector<Var> update_in_place(const std::string& op, const std::vector<Var>& inputs, const Attrs& attrs,
                                 const std::vector<int>& overwrite);

// The single output of a one-output op.
Var call1(const std::string& op, const std::vector<Var>& inputs, const Attrs& attrs = {},
          const Constraints& constraints = {});

// A number beside a tensor: an integer stays exact at any size (int64), a float is a double.
class Scalar {
 public:
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : value_(static_cast<int64_t>(v)) {}  // NOLINT: implicit, as a number literal
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : value_(static_cast<double>(v)) {}  // NOLINT: implicit, as a number literal
  bool is_float() const { return std::holds_alternative<double>(value_); }
  const AttrValue& value() const { return value_; }

 private:
  AttrValue value_;
};

// x as an op with the number `value` computes on it: PyTorch's promotion, the one rule for
// C++ and Python. A float number makes an integer tensor float32; otherwise x is unchanged
// (a number never widens a tensor's dtype).
Var promote_for_scalar(const Var& x, const Scalar& value);
// `op` (add_scalar, mul_scalar, div_scalar, pow_scalar, rpow_scalar) of x promoted and value,
// its attribute "value"; a value outside the dtype's range is refused, naming both.
Var scalar_op(const OpDef& op, const Var& x, const Scalar& value);

namespace fn {

// Elementwise, with broadcasting.
Var add(const Var& a, const Var& b);
Var sub(const Var& a, const Var& b);
Var mul(const Var& a, const Var& b);
Var div(const Var& a, const Var& b);
Var pow(const Var& a, const Var& b);
Var maximum(const Var& a, const Var& b);
Var where(const Var& cond, const Var& a, const Var& b);
Var eq(const Var& a, const Var& b);
Var ne(const Var& a, const Var& b);
Var lt(const Var& a, const Var& b);
Var gt(const Var& a, const Var& b);
Var ge(const Var& a, const Var& b);
// a and b, nonzero meaning true, as bool.
Var logical_and(const Var& a, const Var& b);
Var add_scalar(const Var& x, Scalar value);
Var mul_scalar(const Var& x, Scalar value);
Var div_scalar(const Var& x, Scalar value);
Var pow_scalar(const Var& x, Scalar value);
Var neg(const Var& x);
Var exp(const Var& x);
Var log(const Var& x);
Var sqrt(const Var& x);
Var rsqrt(const Var& x);
Var tanh(const Var& x);
Var sigmoid(const Var& x);
Var relu(const Var& x);
Var gelu(const Var& x);
Var silu(const Var& x);
Var cast(const Var& x, DType dtype);

// Linear algebra and shapes.
// a @ b over the last two dims; transpose_a / transpose_b read an operand transposed
// (no copy is made).
Var matmul(const Var& a, const Var& b, bool transpose_a = false, bool transpose_b = false);
Var permute(const Var& x, const std::vector<int64_t>& dims);
// x with dims dim0 and dim1 swapped (negative from the end), its node named as torch's.
Var transpose(const Var& x, int64_t dim0, int64_t dim1);
Var reshape(const Var& x, const Shape& shape);
// A copy of x (its own memory) in x's memory format, recorded for autograd as torch's clone
// (CloneBackward0).
Var clone(const Var& x);
// x with a new dim of size 1 at `dim` (in [-ndim - 1, ndim]), its node named as torch's.
Var unsqueeze(const Var& x, int64_t dim);
// One item of basic indexing (x[key], NumPy's and torch's): an int (negative from the end),
// a slice (each bound absent as Python's None), None (a new dim of size 1) or '...'.
struct IndexItem {
  enum class Kind { kInt, kSlice, kNone, kEllipsis };
  Kind kind = Kind::kInt;
  int64_t index = 0;  // kInt's
  std::optional<int64_t> start, stop, step;  // kSlice's
};
// One item of x[key] with index tensors: a basic item, or where `tensor` is defined an int32
// or int64 index tensor of at least one dim (`item` then unused).
struct AdvancedItem {
  IndexItem item;
  Var tensor;
};
// x[key] for a key holding index tensors (torch's advanced indexing): the basic items select
// first (an int beside tensors too, as torch's), then the tensors, broadcast together and
// negative from the end, each checked against its dim (flat_index), pick elements by one
// embedding (whose backward adds repeated picks deterministically); the picked dims replace
// the tensors' dims where those are adjacent, else come first. Its node is named as torch's
// (IndexBackward0). Throws std::invalid_argument for a key without a tensor.
Var advanced_index(const Var& x, const std::vector<AdvancedItem>& key);
// What x[key] of basic items selects in a tensor of `shape`: the slice op's attributes, one
// start/stop/step per dim of x with the dims ints pick dropped; the result's shape, with the
// Nones' dims, and where those are in it; whether every item is an int (torch records a
// select). An int out of range, more items than dims, or two '...' throw IndexError; a
// step below 1 std::invalid_argument.
struct BasicIndex {
  std::vector<int64_t> starts, stops, steps, drop_dims;
  Shape shape;
  std::vector<int64_t> news;
  bool selects = false;
};
BasicIndex basic_index_plan(const Shape& shape, const std::vector<IndexItem>& key);
// x[key]: a view of x's memory where no call is recorded on a local row-major x and the key
// picks one run of it (x[0], x[2:4], x[None]: autograd/alias.h); else one slice op (a copy,
// as every meshflow op makes), reshaped where the key has Nones, an all-int key's node named
// as torch's select.
Var basic_index(const Var& x, const std::vector<IndexItem>& key);
// The shape slice_scatter reads `values` (of shape `values`) in when they are written at
// x[key] (`plan`: basic_index_plan of x's shape, x of `ndim` dims): one dim per dim of x, 1
// where an int picks it, elsewhere the values' own size or 1 (broadcast), their trailing
// dims aligned as NumPy's (leading dims of 1 dropped, the Nones' dims skipped); nullopt where
// the values do not broadcast to x[key]'s shape.
std::optional<Shape> slice_values_shape(const BasicIndex& plan, int64_t ndim, const Shape& values);
// x[key] = value for a basic key on a local x, over x's memory (write_in_place's
// slice_scatter), x taking the written value (Var::assign, as an in-place op's): `value` a
// number (made x's dtype, as full makes it) or a Var of x's dtype on x's device. False,
// nothing written, for a Var that does not broadcast to x[key] (the caller names it).
bool write_basic_index(Var x, const std::vector<IndexItem>& key, const std::variant<Scalar, Var>& value);
// `x` broadcast to `shape` (torch's expand): new leading dims, size-1 dims repeated.
Var expand(const Var& x, const Shape& shape);

// Reductions over `dims` (empty: every dim).
Var sum(const Var& x, const std::vector<int64_t>& dims = {}, bool keepdim = false);
Var mean(const Var& x, const std::vector<int64_t>& dims = {}, bool keepdim = false);
Var amax(const Var& x, const std::vector<int64_t>& dims = {}, bool keepdim = false);
// Sums the broadcast dims of `x` away so that it has `shape` (the gradient of broadcasting).
Var sum_to(const Var& x, const Shape& shape);

// Neural-network ops.
Var softmax(const Var& x, int64_t dim);
// softmax(q k^T * scale [causal: key j <= query i]) v in one fused op (ops/attention.cc);
// scale 0 means 1 / sqrt(head dim).
Var scaled_dot_product_attention(const Var& q, const Var& k, const Var& v, bool causal = false, double scale = 0);
// The same on q, k, v packed per token and head: qkv [..., T, H, 3D] -> out [..., T, H, D].
Var packed_qkv_attention(const Var& qkv, bool causal = false, double scale = 0);
Var log_softmax(const Var& x, int64_t dim);
Var embedding(const Var& indices, const Var& weight);
// product + bias, for a layer's bias (linear, the convolutions): under autocast, where the
// product came out in the autocast dtype, a float32 (or other half) bias is cast to it first,
// as torch casts a layer's bias with its operands; otherwise add's promotion.
Var add_bias(const Var& product, const Var& bias);
// x @ weight^T + bias, weight [out, in] as in torch.nn.Linear; bias may be undefined.
Var linear(const Var& x, const Var& weight, const Var& bias = Var());
// input + mat1 @ mat2 (torch.addmm with beta = alpha = 1), mat1 [m, k], mat2 [k, n]: a 1-d
// input of n is added inside the product's kernel where linear's would be.
Var addmm(const Var& input, const Var& mat1, const Var& mat2);
// Zeroes each element with probability p (drawn from the counter-based generator, so
// every layout drops the same elements) and scales the rest by 1 / (1 - p).
Var dropout(const Var& x, double p, bool training = true);
// The mean over N of -log_softmax(logits)[i, target[i]], logits [N, C], target [N] int,
// leaving out rows whose target is -100 (PyTorch's default ignore_index). Written with
// reductions and gather so that logits split on C (vocabulary parallelism) are never
// gathered: only [N, 1] statistics are reduced across ranks.
Var cross_entropy(const Var& logits, const Var& target);

// Creation like `x`: same shape, dtype and, for a global x, placement and SBP (partial
// axes become broadcast: a constant has no partial form).
Var zeros_like(const Var& x);
Var ones_like(const Var& x);
Var full_like(const Var& x, double value);

// Convolutional networks on NCHW tensors (ops/conv.cc; defined in functional_conv.cc), with
// torch.nn.functional's semantics; pairs are (height, width).
struct Conv2dOptions {
  std::vector<int64_t> stride{1, 1}, pad_begin{0, 0}, pad_end{0, 0}, dilation{1, 1};
  int64_t groups = 1;
};
// x [N, C_in, H, W] with weight [C_out, C_in / groups, kh, kw], plus bias [C_out] if defined.
Var conv2d(const Var& x, const Var& weight, const Var& bias = Var(), const Conv2dOptions& options = {});
// Windows of kernel_size, stride (empty: the kernel size), padding.
Var max_pool2d(const Var& x, const std::vector<int64_t>& kernel_size, std::vector<int64_t> stride = {},
               const std::vector<int64_t>& padding = {0, 0});
Var avg_pool2d(const Var& x, const std::vector<int64_t>& kernel_size, std::vector<int64_t> stride = {},
               const std::vector<int64_t>& padding = {0, 0}, bool count_include_pad = true);
Var adaptive_avg_pool2d(const Var& x, const std::vector<int64_t>& output_size);
// Normalizes x [N, C, ...] over every dim but C with the batch's statistics (training, or a
// running statistic undefined) or with running_mean / running_var, then scales by weight and
// shifts by bias ([C], each optional). On a global x the batch statistics are the logical
// batch's: with the batch split across data-parallel ranks they are synchronized. Training
// sets defined running statistics in place (Var::set_data, each keeping its own layout) to
// (1 - momentum) running + momentum batch, the variance unbiased (n / (n - 1)).
Var batch_norm(const Var& x, const Var& running_mean, const Var& running_var, const Var& weight = Var(),
               const Var& bias = Var(), bool training = false, double momentum = 0.1, double eps = 1e-5);
// The same with the momentum a 0-d tensor (computed, as a cumulative average's
// 1 / num_batches_tracked, so that graph mode reads it at every run).
Var batch_norm(const Var& x, const Var& running_mean, const Var& running_var, const Var& weight,
               const Var& bias, bool training, const Var& momentum, double eps);

}  // namespace fn
}  // namespace mf
