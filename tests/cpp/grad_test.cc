// Copyright 2026 The meshflow Authors.
// Gradients under mpirun (grad_check.h): every differentiable op against finite
// differences on local tensors, then under its valid signatures on [1], [2], [4] and
// [2, 2] against the local gradient, each input's .grad in the input's own layout; and no
// op has a gradient that no case checks. Shapes are small: the finite differences run the
// op twice per input element.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <set>

#include "meshflow/autograd/detach.h"
#include "meshflow/autograd/grad_api.h"
#include "meshflow/ops/saved_hooks.h"
#include "tests/cpp/grad_check.h"

namespace mf {
namespace {

using namespace test;  // NOLINT: the suite's helpers

// Values in +-[0.5, 2): away from the kinks and poles of abs, relu, div, log, sqrt.
Tensor away_from_zero(const Shape& shape, unsigned seed) {
  Tensor t = uniform(shape, -1.5, 1.5, seed);
  for (int64_t i = 0; i < t.numel(); ++i) {
    double& x = t.data_as<double>()[i];
    x += x < 0 ? -0.5 : 0.5;
  }
  return t;
}
Tensor positive(const Shape& shape, unsigned seed) { return uniform(shape, 0.5, 2, seed); }

// Integer indices in [0, bound).
Tensor indices(const Shape& shape, int64_t bound) {
  Tensor t = Tensor::empty(shape, DType::kInt64);
  for (int64_t i = 0; i < t.numel(); ++i) t.data_as<int64_t>()[i] = (i * 7 + 3) % bound;
  return t;
}

using Ints = std::vector<int64_t>;

std::vector<GradCall> binary_calls() {
  std::vector<GradCall> calls;
  for (const auto& [sa, sb] : std::vector<std::pair<Shape, Shape>>{{{4, 3}, {4, 3}}, {{4, 3}, {3}}, {{4, 1}, {1, 3}}}) {
    for (const char* op : {"add", "sub", "mul", "div", "maximum", "minimum"}) {
      calls.push_back({op, {away_from_zero(sa, 1), away_from_zero(sb, 2)}});
    }
    calls.push_back({"pow", {positive(sa, 1), uniform(sb, -2, 2, 2)}});
    // torch's alpha: x + alpha y, x - alpha y (one fused multiply-add).
    for (const char* op : {"add", "sub"}) {
      calls.push_back({op, {away_from_zero(sa, 1), away_from_zero(sb, 2)}, {{"alpha", -0.37}}});
    }
    calls.push_back({"addcmul", {away_from_zero(sa, 1), away_from_zero(sb, 2), away_from_zero(sa, 3)}, {{"value", 0.7}}});
  }
  // Ties split dy evenly, which is also what central differences see at a tie of two.
  // Eighths, so that partial sums of them (integer noise added) add up exactly and keep
  // the ties.
  Tensor a = away_from_zero({4, 3}, 1), b = away_from_zero({4, 3}, 2);
  double* x = a.data_as<double>();
  double* y = b.data_as<double>();
  for (int64_t i = 0; i < a.numel(); ++i) {
    x[i] = std::round(x[i] * 8) / 8;
    y[i] = i % 2 ? std::round(y[i] * 8) / 8 : x[i];
  }
  calls.push_back({"maximum", {a, b}});
  calls.push_back({"minimum", {a, b}});
  // floor_divide's gradient is zero (torch's), as finite differences see it away from the
  // quotient's jumps: quotients k + 1/2.
  Tensor dividend = away_from_zero({4, 3}, 3), divisor = away_from_zero({4, 3}, 4);
  for (int64_t i = 0; i < dividend.numel(); ++i) {
    dividend.data_as<double>()[i] = (static_cast<double>(i % 5) - 2.5) * divisor.data_as<double>()[i];
  }
  calls.push_back({"floor_divide", {dividend, divisor}});
  const Tensor cond = indices({4, 3}, 2);
  calls.push_back({"where", {cond, away_from_zero({4, 3}, 1), away_from_zero({4, 3}, 2)}});
  calls.push_back({"where", {cond, away_from_zero({3}, 1), away_from_zero({4, 1}, 2)}});
  Tensor mask = Tensor::empty({4, 3}, DType::kBool);
  for (int64_t i = 0; i < mask.numel(); ++i) mask.data_as<bool>()[i] = i % 3 == 1;
  calls.push_back({"where", {mask, away_from_zero({4, 3}, 1), away_from_zero({4, 3}, 2)}});
  return calls;
}

std::vector<GradCall> unary_calls() {
  const Tensor x = away_from_zero({4, 3}, 1), px = positive({4, 3}, 1);
  std::vector<GradCall> calls;
  for (const char* op : {"neg", "abs", "relu", "trunc", "exp", "tanh", "sigmoid", "gelu", "gelu_tanh", "silu"}) {
    calls.push_back({op, {x}});
  }
  for (const char* op : {"log", "sqrt", "rsqrt"}) calls.push_back({op, {px}});
  for (double slope : {0.2, -1.5}) {
    calls.push_back({"leaky_relu", {x}, {{"negative_slope", slope}}});
    calls.push_back({"leaky_relu_backward", {x, away_from_zero({4, 3}, 2)}, {{"negative_slope", slope}}});
    calls.push_back({"leaky_relu_backward", {x, away_from_zero({1, 3}, 2)}, {{"negative_slope", slope}}});
  }
  // softplus below its threshold everywhere (beta 1 and 2), and above it everywhere (x itself).
  for (auto [beta, threshold] : {std::pair{1.0, 20.0}, std::pair{2.0, 20.0}, std::pair{1.0, -5.0}}) {
    const Attrs attrs{{"beta", beta}, {"threshold", threshold}};
    calls.push_back({"softplus", {x}, attrs});
    calls.push_back({"softplus_backward", {x, away_from_zero({4, 3}, 2)}, attrs});
    calls.push_back({"softplus_backward", {x, away_from_zero({1, 3}, 2)}, attrs});
  }
  // Targets that put elements on both sides of beta (finite differences straddle no edge).
  const Tensor t = away_from_zero({4, 3}, 3);
  for (bool huber : {false, true}) {
    const Attrs attrs{{"beta", 0.7}, {"huber", huber}};
    calls.push_back({"smooth_l1", {x, t}, attrs});
  }
  // float64 to float64 only: a float32 result is too coarse for finite differences.
  calls.push_back({"cast", {x}, {{"dtype", DType::kFloat64}}});
  calls.push_back({"add_scalar", {x}, {{"value", 1.5}}});
  calls.push_back({"mul_scalar", {x}, {{"value", -2.5}}});
  calls.push_back({"div_scalar", {x}, {{"value", -0.5}}});
  calls.push_back({"pow_scalar", {x}, {{"value", 3.0}}});
  calls.push_back({"pow_scalar", {x}, {{"value", 0.0}}});
  calls.push_back({"pow_scalar", {px}, {{"value", -1.5}}});
  calls.push_back({"rpow_scalar", {x}, {{"value", 2.0}}});
  calls.push_back({"rpow_scalar", {x}, {{"value", 0.5}}});
  // Bounds away from the elements (finite differences straddle no kink); dy of both signs.
  const Attrs bounds{{"min", -1.0}, {"max", 1.25}};
  for (const char* op : {"clamp", "hardtanh"}) calls.push_back({op, {x}, bounds});
  calls.push_back({"clamp", {x}, {{"min", 0.0}}});
  calls.push_back({"clamp", {x}, {{"max", 1.25}}});
  for (const char* op : {"clamp_backward", "hardtanh_backward"}) {
    calls.push_back({op, {x, away_from_zero({4, 3}, 2)}, bounds});
    calls.push_back({op, {x, away_from_zero({1, 3}, 2)}, bounds});  // dy broadcast: a sum's gradient
  }
  return calls;
}

std::vector<GradCall> reduction_calls() {
  const Tensor x = away_from_zero({3, 4, 2}, 1);
  std::vector<GradCall> calls;
  const std::vector<std::pair<Ints, bool>> dims_and_keepdim = {{{}, false}, {{1}, false}, {{1}, true}, {{0, -1}, true}};
  for (const char* op : {"sum", "mean", "amax", "amin", "prod"}) {
    for (const auto& [dims, keepdim] : dims_and_keepdim) {
      calls.push_back({op, {x}, {{"dims", dims}, {"keepdim", keepdim}}});
    }
  }
  // Values and the picked index: its gradient reaches the picked element alone.
  for (const char* op : {"max_dim", "min_dim"}) {
    for (const auto& [dim, keepdim] : std::vector<std::pair<int64_t, bool>>{{1, false}, {-1, true}, {0, false}}) {
      calls.push_back({op, {x}, {{"dim", dim}, {"keepdim", keepdim}}});
    }
  }
  // prod at zeros: one in a reduced group (the product of the others there), two or more (0).
  Tensor zeros = away_from_zero({3, 4, 2}, 3);
  for (int64_t i : {1, 9, 11}) zeros.data_as<double>()[i] = 0;  // [0, 0, 1]; [1, 0, 1] and [1, 1, 1]
  calls.push_back({"prod", {zeros}, {{"dims", Ints{1}}, {"keepdim", false}}});
  calls.push_back({"prod", {zeros}, {{"dims", Ints{}}, {"keepdim", false}}});
  return calls;
}

std::vector<GradCall> matmul_calls() {
  std::vector<GradCall> calls;
  // Plain, a matrix under a batch (a linear layer), batches, broadcast batches either way.
  for (const auto& [sa, sb] : std::vector<std::pair<Shape, Shape>>{{{3, 4}, {4, 2}},
                                                                   {{2, 3, 4}, {4, 2}},
                                                                   {{2, 3, 4}, {2, 4, 2}},
                                                                   {{2, 3, 4}, {1, 4, 2}},
                                                                   {{3, 4}, {2, 4, 2}}}) {
    calls.push_back({"matmul", {away_from_zero(sa, 1), away_from_zero(sb, 2)}});
  }
  // Operands read transposed: a^T @ b, a linear layer x @ w^T (batched too), a^T @ b^T.
  calls.push_back({"matmul", {away_from_zero({4, 3}, 1), away_from_zero({4, 2}, 2)}, {{"transpose_a", true}}});
  calls.push_back({"matmul", {away_from_zero({3, 4}, 1), away_from_zero({2, 4}, 2)}, {{"transpose_b", true}}});
  calls.push_back({"matmul", {away_from_zero({2, 3, 4}, 1), away_from_zero({2, 4}, 2)}, {{"transpose_b", true}}});
  calls.push_back({"matmul",
                   {away_from_zero({2, 4, 3}, 1), away_from_zero({2, 2, 4}, 2)},
                   {{"transpose_a", true}, {"transpose_b", true}}});
  // With a bias (a linear layer's), over one matrix, a batch of rows, and batched products.
  calls.push_back({"matmul", {away_from_zero({3, 4}, 1), away_from_zero({2, 4}, 2), away_from_zero({2}, 3)},
                   {{"transpose_b", true}}});
  calls.push_back({"matmul", {away_from_zero({2, 3, 4}, 1), away_from_zero({4, 2}, 2), away_from_zero({2}, 3)}});
  calls.push_back({"matmul", {away_from_zero({2, 3, 4}, 1), away_from_zero({2, 4, 5}, 2), away_from_zero({5}, 3)}});
  return calls;
}

// embedding_bag's bags of indices({7}, 5) = 3 0 2 4 1 3 0: [3 0], [], [2 4 1], [3 0]; under
// padding_idx 3 the last but one left with one row, the last with none.
Tensor bag_offsets() {
  Tensor t = Tensor::empty({4}, DType::kInt64);
  const int64_t offsets[] = {0, 2, 2, 5};
  std::copy(offsets, offsets + 4, t.data_as<int64_t>());
  return t;
}

std::vector<GradCall> nn_calls() {
  const Tensor x = away_from_zero({3, 4}, 1), x3 = away_from_zero({2, 3, 4}, 1);
  const Tensor bag_indices = indices({7}, 5), bag_weight = away_from_zero({5, 4}, 2);
  return {
      {"embedding_bag",
       {bag_indices, bag_weight, bag_offsets(), away_from_zero({7}, 3)},
       {{"mode", int64_t{0}}, {"per_sample_weights", true}, {"padding_idx", int64_t{3}}}},
      {"embedding_bag", {bag_indices, bag_weight, bag_offsets()}, {{"mode", int64_t{1}}, {"padding_idx", int64_t{3}}}},
      {"embedding_bag", {indices({3, 2}, 5), bag_weight}, {{"mode", int64_t{1}}}},
      {"embedding_bag",
       {bag_indices, bag_weight, bag_offsets()},
       {{"mode", int64_t{2}}, {"include_last_offset", true}}},
      {"softmax", {x}, {{"dim", int64_t{1}}}},
      {"softmax", {x}, {{"dim", int64_t{0}}}},
      {"softmax", {x3}, {{"dim", int64_t{-1}}, {"causal", true}}},
      {"log_softmax", {x}, {{"dim", int64_t{1}}}},
      {"log_softmax", {x3}, {{"dim", int64_t{-1}}, {"causal", true}}},
      {"layer_norm",
       {x, away_from_zero({4}, 2), away_from_zero({4}, 3)},
       {{"normalized_shape", Ints{4}}, {"has_weight", true}, {"has_bias", true}}},
      {"layer_norm", {x3}, {{"normalized_shape", Ints{3, 4}}}},
      {"embedding", {indices({2, 3}, 5), away_from_zero({5, 4}, 2)}},
      {"gather", {x, indices({3, 2}, 4)}, {{"dim", int64_t{1}}}},
      // A fixed draw: linear in x (the mask's gradient is 0, as it does not depend on x).
      {"dropout", {x3}, {{"p", 0.4}, {"seed", int64_t{5}}, {"offset", int64_t{11}}}},
      // Backward ops with gradients of their own (a create_graph backward), linear in dy.
      {"embedding_backward", {indices({2, 3}, 5), away_from_zero({2, 3, 4}, 2)}, {{"num_weights", int64_t{5}}}},
      {"gather_backward", {indices({3, 2}, 4), away_from_zero({3, 2}, 2)}, {{"dim", int64_t{1}}, {"size", int64_t{4}}}},
      // relu_backward(y, dy): y of both signs, away from the step at 0.
      {"relu_backward", {x, away_from_zero({3, 4}, 2)}},
      {"relu_backward", {x, away_from_zero({3, 1}, 2)}},  // dy broadcast: a sum's gradient
      // index_put: unique positions (an overwritten value has no gradient in finite
      // differences; the op gives it dy, as torch), and repeated ones added.
      {"index_put", {x, indices({2, 3}, 12), away_from_zero({2, 3}, 2)}},
      {"index_put", {x, indices({3, 5}, 12), away_from_zero({3, 5}, 2)}, {{"accumulate", true}}},
      // index_extreme: repeated positions, x's element in the running (include_self) or not.
      {"index_extreme", {x, indices({3, 5}, 12), away_from_zero({3, 5}, 2)}, {{"include_self", true}}},
      {"index_extreme", {x, indices({3, 5}, 12), away_from_zero({3, 5}, 3)}, {{"minimum", true}}},
      {"softmax_cross_entropy", {x, indices({3}, 4)}},
      // Class weights (their gradient too), a target ignored (row 1's 2) and label smoothing.
      {"softmax_cross_entropy",
       {x, indices({3}, 4), positive({4}, 3)},
       {{"ignore_index", int64_t{2}}, {"label_smoothing", 0.3}}},
      {"softmax_cross_entropy", {x, indices({3}, 4)}, {{"label_smoothing", 0.1}}},
      {"scaled_dot_product_attention", {x3, away_from_zero({2, 3, 4}, 2), away_from_zero({2, 3, 2}, 3)}},
      {"scaled_dot_product_attention",
       {x3, away_from_zero({2, 5, 4}, 2), away_from_zero({2, 5, 2}, 3)},
       {{"causal", true}, {"scale", 0.7}}},
      // qkv [B, T, H, 3D]: two heads of D = 2 read in place.
      {"packed_qkv_attention", {away_from_zero({2, 3, 2, 6}, 4)}},
      {"packed_qkv_attention", {away_from_zero({1, 5, 2, 3}, 5)}, {{"causal", true}, {"scale", 0.7}}},
  };
}

std::vector<GradCall> shape_calls() {
  const Tensor x = away_from_zero({2, 3, 4}, 1), m = away_from_zero({4, 5}, 2);
  return {
      {"permute", {x}, {{"dims", Ints{2, 0, 1}}}},
      {"reshape", {x}, {{"shape", Ints{6, 4}}}},
      {"reshape", {x}, {{"shape", Ints{2, -1}}}},
      {"expand", {away_from_zero({3, 1}, 1)}, {{"shape", Ints{2, 3, 4}}}},
      {"slice", {m}, {{"starts", Ints{1, 0}}, {"stops", Ints{4, 5}}, {"steps", Ints{2, 2}}}},
      {"slice", {m}, {{"starts", Ints{2, 1}}, {"stops", Ints{3, 5}}, {"steps", Ints{1, 1}}, {"drop_dims", Ints{0}}}},
      {"slice_backward",
       {away_from_zero({2, 3}, 3)},
       {{"shape", Ints{4, 5}}, {"starts", Ints{1, 0}}, {"stops", Ints{4, 5}}, {"steps", Ints{2, 2}}}},
      {"slice_scatter",
       {m, away_from_zero({2, 1}, 3)},
       {{"starts", Ints{1, 0}}, {"stops", Ints{4, 5}}, {"steps", Ints{2, 2}}}},
      {"cat", {away_from_zero({2, 3}, 1), away_from_zero({4, 3}, 2)}, {{"dim", int64_t{0}}}},
      {"cat", {away_from_zero({2, 3}, 1), away_from_zero({2, 1}, 2)}, {{"dim", int64_t{1}}}},
      {"stack", {away_from_zero({2, 3}, 1), away_from_zero({2, 3}, 2)}, {{"dim", int64_t{1}}}},
      {"split", {x}, {{"dim", int64_t{2}}, {"sizes", Ints{1, 0, 3}}}},
      {"split", {x}, {{"dim", int64_t{0}}, {"sizes", Ints{1, 1}}}},
      {"to_memory_format", {away_from_zero({2, 3, 2, 2}, 4)}, {{"format", int64_t{1}}}},
      {"to_memory_format", {away_from_zero({2, 3, 2, 2, 2}, 5)}, {{"format", int64_t{2}}}},
  };
}

// The math ops (elementwise.cc's register_math_ops) and the line ops of sort.cc.
std::vector<GradCall> math_calls() {
  const Tensor x = away_from_zero({4, 3}, 1), px = positive({4, 3}, 1), unit = uniform({4, 3}, -0.9, 0.9, 1);
  std::vector<GradCall> calls;
  for (const char* op : {"sin", "cos", "tan", "atan", "sinh", "cosh", "asinh", "erf", "erfc", "expm1", "exp2",
                         "reciprocal", "sign", "round", "frac"}) {
    calls.push_back({op, {x}});
  }
  for (const char* op : {"asin", "acos", "atanh", "erfinv"}) calls.push_back({op, {unit}});
  for (const char* op : {"log1p", "log2", "log10", "lgamma", "digamma"}) calls.push_back({op, {px}});
  calls.push_back({"polygamma", {px}, {{"n", int64_t{1}}}});
  calls.push_back({"polygamma", {px}, {{"n", int64_t{3}}}});
  for (const char* op : {"i0", "i0e", "i1", "i1e", "erfcx", "bessel_j0", "bessel_j1"}) calls.push_back({op, {x}});
  calls.push_back({"acosh", {uniform({4, 3}, 1.2, 3, 1)}});
  for (const char* op : {"atan2", "hypot", "copysign", "fmod", "remainder"}) {
    calls.push_back({op, {away_from_zero({4, 3}, 1), away_from_zero({3}, 2)}});
  }
  calls.push_back({"binary_cross_entropy_with_logits", {away_from_zero({4, 3}, 1), uniform({4, 3}, 0, 1, 2)}});
  calls.push_back({"binary_cross_entropy", {uniform({4, 3}, 0.1, 0.9, 1), uniform({4, 3}, 0, 1, 2)}});
  const Tensor x3 = away_from_zero({3, 4, 2}, 3);
  for (int64_t dim : {0, 1, -1}) {
    calls.push_back({"cumsum", {x3}, {{"dim", dim}}});
    calls.push_back({"cumprod", {x3}, {{"dim", dim}}});
    calls.push_back({"logcumsumexp", {x3}, {{"dim", dim}}});
    calls.push_back({"sort", {x3}, {{"dim", dim}, {"descending", dim == 1}}});
    calls.push_back({"sort", {x3}, {{"dim", dim}, {"descending", dim != 1}, {"k", int64_t{2}}}});
    calls.push_back({"kthvalue", {x3}, {{"dim", dim}, {"k", int64_t{2}}}});
    calls.push_back({"mode", {x3}, {{"dim", dim}}});
    calls.push_back({"cummax", {x3}, {{"dim", dim}}});
    calls.push_back({"cummin", {x3}, {{"dim", dim}}});
  }
  calls.push_back({"cumsum", {x3}, {{"dim", int64_t{1}}, {"reverse", true}}});
  calls.push_back({"flip", {x3}, {{"dims", Ints{0, 2}}}});
  calls.push_back({"flip", {x3}, {{"dims", Ints{1}}}});
  return calls;
}

// Convolution, pooling and padding (conv.cc): strides, padding, dilation and groups; windows
// that overlap (the backward ops add), ceil_mode's partial windows, adaptive windows.
std::vector<GradCall> conv_calls() {
  const Tensor x = away_from_zero({2, 4, 5, 6}, 1);
  auto conv = [](int64_t groups, Ints stride, Ints pad_begin, Ints pad_end, Ints dilation) {
    return Attrs{{"groups", groups}, {"stride", stride}, {"pad_begin", pad_begin}, {"pad_end", pad_end},
                 {"dilation", dilation}};
  };
  return {
      {"conv2d", {x, away_from_zero({3, 4, 3, 2}, 2)}, conv(1, {2, 1}, {1, 0}, {1, 1}, {1, 2})},
      {"conv2d", {x, away_from_zero({6, 2, 2, 3}, 3)}, conv(2, {1, 2}, {0, 1}, {1, 1}, {2, 1})},
      // A bias (the primitive's), and a transposed convolution's on the data gradient op.
      {"conv2d", {x, away_from_zero({6, 2, 2, 3}, 3), away_from_zero({6}, 5)}, conv(2, {1, 2}, {0, 1}, {1, 1}, {2, 1})},
      {"conv2d_backward_data",
       {away_from_zero({2, 3, 3, 5}, 4), away_from_zero({3, 4, 3, 2}, 2), away_from_zero({4}, 5)},
       Attrs(conv(1, {2, 1}, {1, 0}, {1, 1}, {1, 2})).set("input_size", Ints{5, 6})},
      // conv2d's backward ops, whose gradients a create_graph backward through conv2d uses.
      {"conv2d_backward_data",
       {away_from_zero({2, 3, 3, 5}, 4), away_from_zero({3, 4, 3, 2}, 2)},
       Attrs(conv(1, {2, 1}, {1, 0}, {1, 1}, {1, 2})).set("input_size", Ints{5, 6})},
      {"conv2d_backward_weight",
       {x, away_from_zero({2, 3, 3, 5}, 4)},
       Attrs(conv(1, {2, 1}, {1, 0}, {1, 1}, {1, 2})).set("kernel_size", Ints{3, 2})},
      {"max_pool2d",
       {x},
       {{"kernel_size", Ints{3, 2}}, {"stride", Ints{2, 1}}, {"padding", Ints{1, 1}}, {"dilation", Ints{1, 2}},
        {"ceil_mode", true}}},
      {"adaptive_max_pool2d", {x}, {{"output_size", Ints{3, 4}}}},
      {"avg_pool2d",
       {x},
       {{"kernel_size", Ints{3, 3}}, {"stride", Ints{2, 2}}, {"padding", Ints{1, 1}}, {"ceil_mode", true},
        {"count_include_pad", false}}},
      {"avg_pool2d", {x}, {{"kernel_size", Ints{2, 3}}, {"stride", Ints{1, 2}}, {"padding", Ints{0, 1}},
                           {"divisor_override", int64_t{4}}}},
      {"adaptive_avg_pool2d", {x}, {{"output_size", Ints{4, 4}}}},
      {"pad", {x}, {{"pads", Ints{1, 2, -1, 0}}}},
      {"pad", {away_from_zero({3, 4}, 4)}, {{"pads", Ints{0, 1, 2, 0}}, {"value", 1.5}}},
      {"pad", {x}, {{"pads", Ints{2, 1, 0, 3}}, {"mode", int64_t{1}}}},
      {"pad", {x}, {{"pads", Ints{0, 2, 1, 1}}, {"mode", int64_t{2}}}},
      {"unfold",
       {x},
       {{"kernel_size", Ints{3, 2}}, {"dilation", Ints{1, 2}}, {"padding", Ints{1, 1}}, {"stride", Ints{2, 1}}}},
      {"fold",
       {away_from_zero({2, 16, 15}, 4)},
       {{"output_size", Ints{5, 6}}, {"kernel_size", Ints{2, 2}}, {"dilation", Ints{1, 1}}, {"padding", Ints{1, 0}},
        {"stride", Ints{2, 1}}}},
      {"upsample_nearest", {x}, {{"output_size", Ints{7, 9}}, {"scale0", 1.5}}},
      {"upsample_nearest", {away_from_zero({2, 2, 5}, 5)}, {{"output_size", Ints{3}}}},
      {"upsample_linear", {x}, {{"output_size", Ints{7, 9}}, {"scale0", 1.5}}},
      {"upsample_linear", {away_from_zero({2, 2, 5}, 5)}, {{"output_size", Ints{3}}, {"cubic", true}}},
      {"upsample_linear", {away_from_zero({1, 2, 3, 4, 2}, 5)}, {{"output_size", Ints{4, 3, 3}}, {"align_corners", true}}},
      // Every output's gradient: y's, and the statistics' (mean, var).
      {"batch_norm",
       {x, away_from_zero({4}, 7), away_from_zero({4}, 8)},
       {{"has_weight", true}, {"has_bias", true}, {"eps", 1e-3}}},
      {"batch_norm", {away_from_zero({5, 3}, 9)}, {}},
      {"group_norm",
       {x, away_from_zero({4}, 7), away_from_zero({4}, 8)},
       {{"num_groups", int64_t{2}}, {"has_weight", true}, {"has_bias", true}, {"eps", 1e-3}}},
      {"group_norm", {away_from_zero({3, 6}, 9)}, {{"num_groups", int64_t{3}}}},
      // The backward ops, linear in dy, whose gradients a create_graph backward uses.
      {"max_pool2d_backward", {away_from_zero({2, 4, 3, 3}, 6), indices({2, 4, 3, 3}, 30)}, {{"input_size", Ints{5, 6}}}},
      {"avg_pool2d_backward",
       {away_from_zero({2, 4, 3, 4}, 6)},
       {{"kernel_size", Ints{3, 3}}, {"stride", Ints{2, 2}}, {"padding", Ints{1, 1}}, {"ceil_mode", true},
        {"count_include_pad", false}, {"input_size", Ints{5, 6}}}},
      {"adaptive_avg_pool2d_backward",
       {away_from_zero({2, 4, 4, 4}, 6)},
       {{"output_size", Ints{4, 4}}, {"input_size", Ints{5, 6}}}},
      {"pad_backward",
       {away_from_zero({2, 4, 6, 9}, 6)},
       {{"pads", Ints{2, 1, 0, 1}}, {"mode", int64_t{1}}, {"input_shape", Ints{2, 4, 5, 6}}}},
      {"upsample_nearest_backward",
       {away_from_zero({2, 4, 7, 9}, 6)},
       {{"output_size", Ints{7, 9}}, {"scale0", 1.5}, {"input_size", Ints{5, 6}}}},
      {"upsample_linear_backward",
       {away_from_zero({2, 4, 7, 9}, 6)},
       {{"output_size", Ints{7, 9}}, {"cubic", true}, {"input_size", Ints{5, 6}}}},
  };
}

// The 3-d convolution and pooling ops: the same kernels as the 2-d ones over a third axis, so
// each axis gets its own stride, padding and dilation here.
std::vector<GradCall> conv3d_calls() {
  const Tensor x = away_from_zero({1, 2, 3, 4, 3}, 11), x3 = away_from_zero({1, 2, 4, 5, 4}, 12);
  const Attrs conv{{"groups", int64_t{1}}, {"stride", Ints{1, 2, 1}}, {"pad_begin", Ints{1, 0, 1}},
                   {"pad_end", Ints{0, 1, 1}}, {"dilation", Ints{1, 1, 2}}};
  const Attrs grouped{{"groups", int64_t{2}}, {"stride", Ints{1, 1, 1}}, {"pad_begin", Ints{0, 0, 0}},
                      {"pad_end", Ints{0, 0, 0}}, {"dilation", Ints{1, 1, 1}}};
  const Attrs avg{{"kernel_size", Ints{2, 2, 2}}, {"stride", Ints{2, 2, 2}}, {"padding", Ints{0, 0, 0}},
                  {"ceil_mode", false}, {"count_include_pad", true}};
  return {
      {"conv3d", {x, away_from_zero({2, 2, 2, 2, 2}, 13)}, conv},
      {"conv3d", {x, away_from_zero({4, 1, 2, 1, 2}, 14)}, grouped},
      {"conv3d_backward_data",
       {away_from_zero({1, 2, 3, 2, 3}, 15), away_from_zero({2, 2, 2, 2, 2}, 13)},
       Attrs(conv).set("input_size", Ints{3, 4, 3})},
      {"conv3d_backward_weight",
       {x, away_from_zero({1, 2, 3, 2, 3}, 15)},
       Attrs(conv).set("kernel_size", Ints{2, 2, 2})},
      {"max_pool3d",
       {x3},
       {{"kernel_size", Ints{2, 3, 2}}, {"stride", Ints{2, 1, 2}}, {"padding", Ints{1, 1, 0}},
        {"dilation", Ints{1, 1, 1}}, {"ceil_mode", true}}},
      {"adaptive_max_pool3d", {x3}, {{"output_size", Ints{3, 2, 3}}}},
      {"avg_pool3d",
       {x3},
       {{"kernel_size", Ints{2, 2, 3}}, {"stride", Ints{2, 2, 1}}, {"padding", Ints{1, 1, 1}}, {"ceil_mode", true},
        {"count_include_pad", false}}},
      {"adaptive_avg_pool3d", {x3}, {{"output_size", Ints{3, 3, 2}}}},
      {"max_pool3d_backward", {away_from_zero({1, 2, 2, 3, 2}, 16), indices({1, 2, 2, 3, 2}, 80)},
       {{"input_size", Ints{4, 5, 4}}}},
      {"avg_pool3d_backward", {away_from_zero({1, 2, 2, 2, 2}, 17)}, Attrs(avg).set("input_size", Ints{4, 5, 4})},
      {"adaptive_avg_pool3d_backward",
       {away_from_zero({1, 2, 3, 3, 2}, 18)},
       {{"output_size", Ints{3, 3, 2}}, {"input_size", Ints{4, 5, 4}}}},
  };
}

// rnn_scan in each mode, forward and reverse, time-major, packed (uneven steps) and batch-first,
// with and without b_hh, LSTM also with a projection (proj 2 of hidden 3, W_hr's gradient
// too); every output differentiated (the workspace too: the backward takes its gradient).
std::vector<GradCall> rnn_calls() {
  const int64_t batch = 4, hidden = 3, steps = 3;
  std::vector<GradCall> calls;
  for (int64_t mode : {0, 1, 2, 3}) {
    const int64_t gh = (mode == 2 ? 4 : mode == 3 ? 3 : 1) * hidden;
    for (int64_t proj : mode == 2 ? Ints{0, 2} : Ints{0}) {
      const int64_t state = proj ? proj : hidden;
      for (const std::string layout : {"time-major", "packed", "batch-first"}) {
        // Bidirectional: both directions' values in each sequence row, their weights stacked.
        for (const int64_t dirs : {1, 2}) {
          const bool packed = layout == "packed", batch_first = layout == "batch-first";
          const int64_t dgh = dirs * gh;
          const Shape x = packed ? Shape{9, dgh} : batch_first ? Shape{batch, steps, dgh} : Shape{steps, batch, dgh};
          const auto state_of = [&](int64_t width) { return dirs == 1 ? Shape{batch, width} : Shape{2, batch, width}; };
          std::vector<Tensor> in{uniform(x, -1, 1, 1), uniform(state_of(state), -1, 1, 2)};
          if (mode == 2) in.push_back(uniform(state_of(hidden), -1, 1, 3));
          in.push_back(uniform({dgh, state}, -0.8, 0.8, 4));
          if (!packed) in.push_back(uniform({dgh}, -0.5, 0.5, 5));
          if (proj) in.push_back(uniform({dirs * proj, hidden}, -0.8, 0.8, 6));
          Attrs attrs{{"mode", mode}, {"has_bias", !packed}};
          if (dirs == 2) {
            attrs.set("bidirectional", true);
          } else {
            attrs.set("reverse", packed == (mode % 2 == 0));
          }
          if (proj) attrs.set("has_proj", true);
          if (packed) attrs.set("batch_sizes", Ints{4, 3, 2});
          if (batch_first) attrs.set("batch_first", true);
          calls.push_back({"rnn_scan", in, attrs});
        }
      }
    }
  }
  return calls;
}

TEST(Grad, RecurrentScan) {
  for (const GradCall& call : rnn_calls()) check_gradients(call);
}

TEST(Grad, ConvolutionPoolingPadding) {
  for (const GradCall& call : conv_calls()) check_gradients(call);
}

TEST(Grad, Convolution3dPooling3d) {
  for (const GradCall& call : conv3d_calls()) check_gradients(call);
}

// Well-conditioned square matrices [2, 3, 3]: uniform in [-0.5, 0.5) plus 3 on the diagonal.
Tensor conditioned(unsigned seed) {
  Tensor a = uniform({2, 3, 3}, -0.5, 0.5, seed);
  for (int64_t e = 0; e < 2; ++e) {
    for (int64_t i = 0; i < 3; ++i) a.data_as<double>()[e * 9 + i * 4] += 3;
  }
  return a;
}

// cholesky's, eigh's and svd's gradients are checked in tests/python/test_linalg.py: cholesky
// and eigh read one half of a symmetric matrix, so their gradients hold for symmetric
// perturbations, which this element-by-element check does not make; svd's through functions
// of U and Vh that do not depend on LAPACK's choice of the vectors' signs.
std::vector<GradCall> linalg_calls() {
  return {{"linalg_solve", {conditioned(1), uniform({2, 3, 2}, -1, 1, 2)}},
          {"linalg_inv", {conditioned(3)}},
          {"linalg_slogdet", {conditioned(4)}}};
}

TEST(Grad, LinalgOps) {
  for (const GradCall& call : linalg_calls()) check_gradients(call);
}

TEST(Grad, Binary) {
  for (const GradCall& call : binary_calls()) check_gradients(call);
}

TEST(Grad, Unary) {
  for (const GradCall& call : unary_calls()) check_gradients(call);
}

TEST(Grad, Reductions) {
  for (const GradCall& call : reduction_calls()) check_gradients(call);
}

// amax's gradient over ties is not what finite differences see (a tie of k takes 1/k of
// dy, differences 1/2): compared with that rule directly, on one device.
TEST(Grad, AmaxSplitsTiesEvenly) {
  Tensor x = Tensor::empty({2, 4}, DType::kFloat64);
  const double values[] = {1, 3, 3, 3, 2, 5, -1, 5};
  std::copy(values, values + 8, x.data_as<double>());
  Var v(x, /*requires_grad=*/true);
  Tensor dy = Tensor::empty({2}, DType::kFloat64);
  dy.data_as<double>()[0] = 6;
  dy.data_as<double>()[1] = 4;
  fn::amax(v, {1}).backward(Var(dy));
  const double expected[] = {0, 2, 2, 2, 0, 2, 0, 2};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(v.grad().local().data_as<double>()[i], expected[i]) << "element " << i;
}

TEST(Grad, Matmul) {
  for (const GradCall& call : matmul_calls()) check_gradients(call);
}

TEST(Grad, NeuralNetworkOps) {
  for (const GradCall& call : nn_calls()) check_gradients(call);
}

TEST(Grad, ShapeOps) {
  for (const GradCall& call : shape_calls()) check_gradients(call);
}

TEST(Grad, MathOps) {
  for (const GradCall& call : math_calls()) check_gradients(call);
}

TEST(Grad, EveryOpWithAGradientIsChecked) {
  std::set<std::string> checked;
  for (const auto& calls :
       {binary_calls(), unary_calls(), reduction_calls(), matmul_calls(), nn_calls(), shape_calls(), math_calls(),
        conv_calls(), conv3d_calls(), linalg_calls(), rnn_calls()}) {
    for (const GradCall& call : calls) checked.insert(call.op);
  }
  // Their inputs are symmetric, or their outputs defined up to signs: finite differences of
  // the raw op see neither, so tests/python/test_linalg.py checks them on symmetric
  // perturbations and on functions of the outputs that signs do not change.
  for (const char* name : {"linalg_cholesky", "linalg_eigh", "linalg_svd"}) checked.insert(name);
  // Their first argument has no derivative (backward raises, as torch's): finite differences
  // would ask for it; tests/python/test_port_programs5.py checks the second's closed form.
  for (const char* name : {"zeta", "gammainc", "gammaincc"}) checked.insert(name);
  for (const std::string& name : op_names()) {
    // Their inputs or outputs are complex (OpDef::complex_only): real finite differences do
    // not reach them, so tests/python/test_complex_fft.py checks their gradients against
    // torch's stored values.
    if (find_op(name).grad && !find_op(name).complex_only) {
      EXPECT_TRUE(checked.count(name)) << name << " has a gradient no case checks";
    }
  }
}

// bfloat16: rounding, casts, matmul with float32 accumulation, and autocast, whose
// gradients reach float32 leaves in float32 (the Python suite covers layouts and graphs).
// ---- the autograd API (autograd/grad_api.h) and tensor hooks ----

// x * w summed, x split over the world and w broadcast: the gradients land in each
// tensor's layout; grad() changes no leaf's .grad; hooks see and replace gradients.
TEST(AutogradApi, GradBackwardAndHooksOnGlobalTensors) {
  const Placement world_mesh = first_ranks({comm::world_size()});
  const Tensor xs = uniform({6}, -1, 1, 3), ws = uniform({6}, -1, 1, 4);
  Var x(global_from_full(xs, world_mesh, NdSbp{Sbp::split(0)}), true);
  Var w(global_from_full(ws, world_mesh, NdSbp{Sbp::broadcast()}), true);
  Var y = fn::mul(x, w);
  y.retain_grad();
  const Var loss = fn::sum(fn::mul(y, y));
  // d loss / dx = 2 x w^2, / dw = 2 x^2 w, / dy = 2 y.
  const std::vector<Var> grads = autograd::grad({loss}, {x, w, y}, {Var()}, /*retain_graph=*/true);
  EXPECT_FALSE(x.grad().defined());
  ASSERT_EQ(grads.size(), 3u);
  // As torch: a retained gradient is kept by grad() too.
  ASSERT_TRUE(y.grad().defined());
  y.set_grad(Var());
  EXPECT_EQ(grads[0].global().nd_sbp(), NdSbp{Sbp::split(0)});
  EXPECT_EQ(grads[1].global().nd_sbp(), NdSbp{Sbp::broadcast()});
  const Tensor gx = gather_full(grads[0].global()), gw = gather_full(grads[1].global());
  const Tensor gy = gather_full(grads[2].global());
  for (int64_t i = 0; i < 6; ++i) {
    const double a = xs.data_as<double>()[i], b = ws.data_as<double>()[i];
    EXPECT_NEAR(gx.data_as<double>()[i], 2 * a * b * b, 1e-12);
    EXPECT_NEAR(gw.data_as<double>()[i], 2 * a * a * b, 1e-12);
    EXPECT_NEAR(gy.data_as<double>()[i], 2 * a * b, 1e-12);
  }
  // A hook doubling w's gradient, and y's retained gradient in y's layout.
  const int64_t id = w.add_hook([](const Var& g) { return fn::mul_scalar(g, 2); });
  autograd::backward({loss}, {Var()}, /*retain_graph=*/true);
  EXPECT_EQ(w.grad().global().nd_sbp(), NdSbp{Sbp::broadcast()});
  const Tensor doubled = gather_full(w.grad().global());
  for (int64_t i = 0; i < 6; ++i) EXPECT_NEAR(doubled.data_as<double>()[i], 2 * gw.data_as<double>()[i], 1e-12);
  ASSERT_TRUE(y.grad().defined());
  EXPECT_EQ(y.grad().global().nd_sbp(), y.global().nd_sbp());
  EXPECT_TRUE(close(gather_full(y.grad().global()), gy, 1e-12));
  w.remove_hook(id);
  w.set_grad(Var());
  // Two roots in one pass: the sum of their gradients.
  autograd::backward({loss, fn::sum(w)}, {Var(), Var()}, false);
  const Tensor both = gather_full(w.grad().global());
  for (int64_t i = 0; i < 6; ++i) EXPECT_NEAR(both.data_as<double>()[i], gw.data_as<double>()[i] + 1, 1e-12);
  EXPECT_THROW(autograd::backward({fn::sum(Var(xs))}, {Var()}, false), std::invalid_argument);
}

// grad() runs only the nodes on a path to its inputs, as torch's: the others keep their
// saved values without retain_graph, and leaves that are no input take nothing.
TEST(AutogradApi, GradRunsOnlyTheNodesOnPathsToItsInputs) {
  Var a(uniform({3}, -1, 1, 5), true), c(uniform({3}, -1, 1, 6), true);
  const Var p = fn::mul(a, a), q = fn::exp(c);
  const Var y = fn::add(fn::sum(p), fn::sum(q));
  const std::vector<Var> ga = autograd::grad({y}, {a}, {Var()}, /*retain_graph=*/false);
  ASSERT_TRUE(ga[0].defined());
  EXPECT_TRUE(close(ga[0].local(), fn::mul_scalar(a, 2).local(), 1e-12));
  EXPECT_FALSE(c.grad().defined());
  // q's node did not run: backward through it works, and p's was freed.
  autograd::backward({fn::sum(q)}, {Var()}, false);
  EXPECT_TRUE(close(c.grad().local(), q.local(), 1e-12));
  EXPECT_THROW(autograd::backward({fn::sum(p)}, {Var()}, false), std::invalid_argument);  // an OpError: freed
  // An input no path reaches: nothing runs, and its gradient is undefined.
  const Var r = fn::exp(a);
  EXPECT_FALSE(autograd::grad({fn::sum(r)}, {c}, {Var()}, false)[0].defined());
  autograd::backward({fn::sum(r)}, {Var()}, false);
}

// detach_in_place cuts the Var every holder shares: a copy of it (the .grad slot of a leaf,
// a module's) sees the leaf too, where detach() makes another Var.
TEST(AutogradApi, DetachInPlaceIsSeenByEveryHolder) {
  Var a(uniform({3}, -1, 1, 7), true);
  Var y = fn::mul(a, a);
  y.retain_grad();
  const Var held = y;  // another holder of the same Var
  const Var other = y.detach();
  EXPECT_TRUE(other.is_leaf() && !held.is_leaf());
  detach_in_place(y);
  EXPECT_TRUE(held.is_leaf() && !held.requires_grad() && !held.retains_grad() && held.same(y));
  EXPECT_TRUE(close(held.local(), fn::mul(a, a).local(), 0));
  EXPECT_THROW(autograd::backward({fn::sum(held)}, {Var()}, false), std::invalid_argument);  // nothing requires grad
}

// Saved-tensor hooks (ops/saved_hooks.h): pack sees each value a gradient reads when the call
// is recorded (mul: both inputs; exp: its output; sum: none), and backward reads unpack's.
TEST(AutogradApi, SavedHooksPackWhatTheGradientReadsAndBackwardReadsUnpacked) {
  Var a(uniform({3}, 0.5, 1, 7), true);
  int packed = 0, unpacked = 0;
  push_saved_hooks(SavedHooks{[&packed](const Var& v) {
                                ++packed;
                                return std::shared_ptr<void>(std::make_shared<Var>(fn::mul_scalar(v, 2)));
                              },
                              [&unpacked](const std::shared_ptr<void>& p) {
                                ++unpacked;
                                return *std::static_pointer_cast<Var>(p);
                              }});
  const Var p = fn::mul(a, a);
  EXPECT_EQ(packed, 2);
  const Var q = fn::exp(a);
  EXPECT_EQ(packed, 3);
  const Var y = fn::add(fn::sum(p), fn::sum(q));
  EXPECT_EQ(packed, 3);
  pop_saved_hooks();
  EXPECT_THROW(pop_saved_hooks(), std::logic_error);
  autograd::backward({y}, {Var()}, false);
  EXPECT_EQ(unpacked, 3);
  // a*a's gradient reads both factors doubled: 2a + 2a; exp's reads its output doubled.
  const Var want = fn::add(fn::mul_scalar(a, 4), fn::mul_scalar(fn::exp(a), 2));
  EXPECT_TRUE(close(a.grad().local(), want.local(), 1e-6));
}

// A full sum's gradient reaching a convolution whose output lies channels-last (float32 of
// few channels, ops/conv.cc) is expanded in that layout (expand's format), which the
// convolution's backward reads without a reorder, and gives a row-major gradient's results.
TEST(AutogradApi, BroadcastGradientOfAConvolutionExpandsInItsLayout) {
  const Var c(uniform({2, 3, 1, 1}, -1, 1, 7));
  const Var last = call1("expand", {c}, {{"shape", Ints{2, 3, 4, 5}}, {"format", int64_t{2}}});
  EXPECT_EQ(last.local().format(), MemoryFormat::kChannelsLastInternal);
  EXPECT_TRUE(close(in_format(last.local(), MemoryFormat::kContiguous), fn::expand(c, {2, 3, 4, 5}).local(), 0));
  const Attrs attrs{{"groups", int64_t{1}}, {"stride", Ints{1, 1}}, {"pad_begin", Ints{1, 1}},
                    {"pad_end", Ints{1, 1}}, {"dilation", Ints{1, 1}}};
  const Tensor xs = fn::cast(Var(uniform({2, 3, 5, 4}, -1, 1, 5)), DType::kFloat32).local();
  const Tensor ws = fn::cast(Var(uniform({4, 3, 3, 3}, -1, 1, 6)), DType::kFloat32).local();
  Var x(xs, true), w(ws, true), x2(xs, true), w2(ws, true);
  const Var y = call1("conv2d", {x, w}, attrs);
  ASSERT_EQ(y.local().format(), MemoryFormat::kChannelsLastInternal);
  autograd::backward({fn::sum(y)}, {Var()}, false);
  autograd::backward({call1("conv2d", {x2, w2}, attrs)}, {fn::ones_like(y)}, false);
  auto plain = [](const Var& g) { return in_format(g.local(), MemoryFormat::kContiguous); };
  EXPECT_TRUE(close(plain(x.grad()), plain(x2.grad()), 1e-6));
  EXPECT_TRUE(close(plain(w.grad()), plain(w2.grad()), 1e-6));
}

TEST(BFloat16, RoundingMatmulAndAutocast) {
  EXPECT_EQ(to_bfloat16(1.0f + 1.0f / 256).bits, to_bfloat16(1.0f).bits);  // a tie goes to even
  EXPECT_EQ(to_float(to_bfloat16(1.0f + 3.0f / 256)), 1.0f + 1.0f / 64);   // above a tie, up
  EXPECT_TRUE(std::isnan(to_float(to_bfloat16(std::nanf("")))));
  EXPECT_EQ(dtype_size(DType::kBFloat16), 2u);
  EXPECT_THROW(visit_dtype(DType::kBFloat16, [](auto) { return 0; }), std::invalid_argument);

  Tensor a = Tensor::empty({3, 4}, DType::kFloat32), b = Tensor::empty({4, 2}, DType::kFloat32);
  for (int i = 0; i < 12; ++i) a.data_as<float>()[i] = 0.5f * static_cast<float>(i % 5) - 1.0f;
  for (int i = 0; i < 8; ++i) b.data_as<float>()[i] = 0.25f * static_cast<float>(i) - 0.75f;
  Var x(a, /*requires_grad=*/true), w(b, /*requires_grad=*/true);
  const Var exact = fn::matmul(Var(a), Var(b));
  const Var low = fn::matmul(fn::cast(Var(a), DType::kBFloat16), fn::cast(Var(b), DType::kBFloat16));
  EXPECT_EQ(low.dtype(), DType::kBFloat16);
  // Elementwise arithmetic computes in float32 and rounds once: 3 / 7 of each element.
  const Var ratio = fn::div(low, fn::full_like(low, 7.0 / 3.0));
  ASSERT_EQ(ratio.dtype(), DType::kBFloat16);
  for (int i = 0; i < 6; ++i) {
    const float v = to_float(low.local().data_as<bfloat16>()[i]);
    EXPECT_EQ(ratio.local().data_as<bfloat16>()[i].bits, to_bfloat16(v / to_float(to_bfloat16(7.0f / 3.0f))).bits) << i;
  }

  EXPECT_FALSE(autocast_dtype());
  const std::optional<DType> before = set_autocast_dtype(DType::kBFloat16);
  const Var y = fn::matmul(x, w);
  set_autocast_dtype(before);
  EXPECT_EQ(y.dtype(), DType::kBFloat16);  // as torch's autocast
  // These values are exact in bfloat16, and so are their products' sums: equal to float32.
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(to_float(y.local().data_as<bfloat16>()[i]), exact.local().data_as<float>()[i]) << i;
    EXPECT_EQ(to_float(low.local().data_as<bfloat16>()[i]), exact.local().data_as<float>()[i]) << i;
  }
  fn::sum(fn::cast(y, DType::kFloat32)).backward();
  EXPECT_EQ(x.grad().dtype(), DType::kFloat32);
  EXPECT_EQ(w.grad().dtype(), DType::kFloat32);
  for (int i = 0; i < 12; ++i) {  // d sum(x @ w) / dx[i, l] = sum_j w[l, j]
    const float* wv = b.data_as<float>();
    EXPECT_EQ(x.grad().local().data_as<float>()[i], wv[(i % 4) * 2] + wv[(i % 4) * 2 + 1]) << i;
  }
  EXPECT_THROW(set_autocast_dtype(DType::kFloat64), std::invalid_argument);
}

// A linear layer's bias goes into the product's kernel: under autocast it is cast to
// bfloat16 with the operands, as torch's, added to the float32 accumulator before the one
// rounding, and its gradient reaches the float32 bias in float32; a bias that does not fit
// the kernel (another dtype, a broadcast shape) is added on its own.
TEST(BFloat16, LinearBiasUnderAutocast) {
  auto float32 = [](const Shape& shape, unsigned seed) {
    return fn::cast(Var(uniform(shape, -1, 1, seed)), DType::kFloat32).local();
  };
  const Tensor xs = float32({2, 3, 4}, 5), ws = float32({5, 4}, 6), bs = float32({5}, 7);
  Var x(xs, true), w(ws, true), bias(bs, true);
  const std::optional<DType> before = set_autocast_dtype(DType::kBFloat16);
  const Var y = fn::linear(x, w, bias);
  set_autocast_dtype(before);
  ASSERT_EQ(y.dtype(), DType::kBFloat16);
  const Var low_x = fn::cast(Var(xs), DType::kBFloat16), low_w = fn::cast(Var(ws), DType::kBFloat16);
  const Var low_bias = fn::cast(fn::cast(Var(bs), DType::kBFloat16), DType::kFloat32);
  const Var unfused = fn::add(call1("matmul", {low_x, low_w}, {{"transpose_b", true}, {"float32_out", true}}), low_bias);
  EXPECT_TRUE(close(fn::cast(y, DType::kFloat32).local(), fn::cast(fn::cast(unfused, DType::kBFloat16), DType::kFloat32).local(), 1e-2));
  const Var wide_y = fn::cast(y, DType::kFloat32);
  fn::sum(fn::mul(wide_y, wide_y)).backward();
  ASSERT_TRUE(bias.grad().defined());
  EXPECT_EQ(bias.grad().dtype(), DType::kFloat32);
  EXPECT_EQ(x.grad().dtype(), DType::kFloat32);
  // d/d bias of sum(y^2) = 2 * y summed over rows, in float32.
  const Tensor expected = fn::sum_to(fn::mul_scalar(wide_y, 2), Shape{5}).local();
  EXPECT_TRUE(close(bias.grad().local(), expected, 1e-5));
  // Biases the kernel does not take: a [1, 5] broadcast, a float64 bias beside float32 operands.
  const Var row = fn::linear(Var(xs), Var(ws), Var(float32({1, 5}, 8)));
  EXPECT_EQ(row.shape(), (Shape{2, 3, 5}));
  EXPECT_THROW(fn::linear(Var(xs), Var(ws), Var(uniform({5}, -1, 1, 8))), std::invalid_argument);
  vm::synchronize();  // the product issued before the add refused is done before the test ends
  EXPECT_THROW(find_op("matmul").infer({{{3, 4}, DType::kFloat32}}, {}), std::invalid_argument);
  try {
    find_op("matmul").infer({{{3, 4}, DType::kFloat32}, {{4, 5}, DType::kFloat32}, {{4}, DType::kFloat32}}, {});
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("[matmul] bias must be [5] float32"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mf
