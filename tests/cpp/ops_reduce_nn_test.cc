// Copyright 2026 The meshflow Authors.
// Reductions (reduce.cc) and nn ops (nn.cc) under mpirun: every valid signature of every op
// on every mesh against the single-device result (op_check.h), for even, uneven and
// zero-size shapes and each attribute variant; the 1-d signature lists themselves; and bad
// input, which must fail with the same clear error on every rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "tests/cpp/op_check.h"

namespace mf {
namespace {

using namespace test;  // NOLINT: the suite's helpers

using Dims = std::vector<int64_t>;

Tensor value(const Shape& shape, DType dtype = DType::kFloat32) { return logical_value(shape, dtype); }

// Values in [-2.5, 2.5], where gelu and softmax are far from saturating.
Tensor small_value(const Shape& shape, DType dtype = DType::kFloat32) {
  Tensor t = logical_value(shape, dtype);
  visit_dtype(dtype, [&](auto v) {
    using T = decltype(v);
    for (int64_t i = 0; i < t.numel(); ++i) t.data_as<T>()[i] /= 8;
  });
  return t;
}

// Indices in [0, bound), spread so that every shard touches several rows.
Tensor indices(const Shape& shape, DType dtype, int64_t bound) {
  Tensor t = Tensor::empty(shape, dtype);
  visit_dtype(dtype, [&](auto v) {
    using T = decltype(v);
    for (int64_t i = 0; i < t.numel(); ++i) t.data_as<T>()[i] = static_cast<T>((i * 5 + 3) % bound);
  });
  return t;
}

Attrs reduce_attrs(const Dims& dims, bool keepdim) { return {{"dims", dims}, {"keepdim", keepdim}}; }

std::vector<Tensor> local(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs = {}) {
  return apply_local(find_op(op), inputs, attrs);
}

// ---------------------------------------------------------------------------------------------
// Reductions

struct ReduceCase {
  Shape shape;
  Dims dims;
};

// Even, uneven (5 and 7 over 2 and 4 ranks), zero-size and 0-d shapes; one dim, several
// dims (in any order, negative too) and every dim.
const std::vector<ReduceCase> kReduceCases = {
    {{4, 6}, {}}, {{4, 6}, {0}}, {{4, 6}, {-1}}, {{5, 3, 7}, {1}}, {{5, 3, 7}, {2, 0}}, {{5, 3, 7}, {}},
    {{3, 0, 2}, {0}}, {{3, 0, 2}, {-1, 0}}, {{}, {}}};

TEST(ReduceSum, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const ReduceCase& c : kReduceCases) {
      for (bool keep : {false, true}) {
        check("sum", {value(c.shape)}, reduce_attrs(c.dims, keep), p);
      }
    }
    // Over the empty dim, and integers (which sum to int64).
    check("sum", {value({3, 0, 2})}, reduce_attrs({1}, false), p);
    check("sum", {value({5, 3, 7}, DType::kInt32)}, reduce_attrs({0, 1}, false), p);
    check("sum", {value({5, 3}, DType::kInt64)}, reduce_attrs({}, true), p);
    // uint8, int8 and int16 sum to int64 too, whatever their partial sums wrapped.
    check("sum", {value({5, 3, 7}, DType::kUInt8)}, reduce_attrs({0, 2}, false), p);
    check("sum", {value({5, 3}, DType::kInt8)}, reduce_attrs({}, false), p);
    check("sum", {value({5, 3}, DType::kInt16)}, reduce_attrs({1}, true), p);
  }
}

TEST(ReduceMean, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const ReduceCase& c : kReduceCases) {
      for (bool keep : {false, true}) {
        check("mean", {value(c.shape, DType::kFloat64)}, reduce_attrs(c.dims, keep), p);
      }
    }
    // The mean of nothing is NaN on every signature; float32 too.
    check("mean", {value({3, 0, 2})}, reduce_attrs({1}, false), p);
    check("mean", {value({5, 3, 7})}, reduce_attrs({0, 2}, true), p);
  }
}

TEST(ReduceAmaxAmin, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const char* op : {"amax", "amin"}) {
      for (const ReduceCase& c : kReduceCases) {
        if (numel(c.shape) == 0 && c.dims.empty()) continue;  // an error, checked below
        for (bool keep : {false, true}) check(op, {value(c.shape)}, reduce_attrs(c.dims, keep), p);
      }
      check(op, {value({5, 3, 7}, DType::kInt64)}, reduce_attrs({1, 2}, false), p);
      check(op, {value({7}, DType::kInt32)}, reduce_attrs({0}, false), p);
      check(op, {value({5, 3, 7}, DType::kUInt8)}, reduce_attrs({1, 2}, false), p);
      check(op, {value({5, 3}, DType::kInt8)}, reduce_attrs({0}, false), p);
      check(op, {value({7}, DType::kInt16)}, reduce_attrs({0}, false), p);
    }
  }
}

TEST(ReduceSignatures, ListedAsConceptsSays) {
  const std::vector<TensorMeta> x{{{4, 6, 5}, DType::kFloat32}};
  EXPECT_EQ(one_axis("sum", x, reduce_attrs({1}, false)),
            (std::vector<std::string>{"(S(0)) -> (S(0))", "(S(1)) -> (P)", "(S(2)) -> (S(1))", "(P) -> (P)",
                                      "(B) -> (B)"}));
  EXPECT_EQ(one_axis("mean", x, reduce_attrs({-1, 0}, true)),
            (std::vector<std::string>{"(S(0)) -> (P)", "(S(1)) -> (S(1))", "(S(2)) -> (P)", "(P) -> (P)",
                                      "(B) -> (B)"}));
  EXPECT_EQ(one_axis("amax", x, reduce_attrs({}, false)),
            (std::vector<std::string>{"(S(0)) -> (P(max))", "(S(1)) -> (P(max))", "(S(2)) -> (P(max))",
                                      "(P(max)) -> (P(max))", "(B) -> (B)"}));
  EXPECT_EQ(one_axis("amin", x, reduce_attrs({0}, false))[3], "(P(min)) -> (P(min))");
}

// Rows of every length class the row kernels treat apart (ops/rows.cc, ops/reduce.cc): shorter
// than a set of lanes, a whole set, a set and a tail, many sets, the long rows' wider lanes
// (from 512) with and without a tail; one row, and more than a batch of them. Integer values
// sum exactly, so a lane lost or counted twice anywhere changes the result; a plain loop in
// double is the reference (the suites' other checks compare the kernels with themselves).
const std::vector<int64_t> kRowLengths = {1, 2, 3, 7, 15, 16, 17, 31, 32, 33, 65, 100, 511, 512, 513, 1000, 1088};

TEST(ReduceRows, EveryLengthEqualsAPlainLoop) {
  for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
    for (int64_t rows : {1, 3, 17}) {
      for (int64_t n : kRowLengths) {
        const Tensor x = value({rows, n}, dtype);
        const Tensor sum = local("sum", {x}, reduce_attrs({-1}, false))[0];
        const Tensor amax = local("amax", {x}, reduce_attrs({-1}, false))[0];
        const Tensor amin = local("amin", {x}, reduce_attrs({-1}, false))[0];
        const Tensor all = local("sum", {x}, reduce_attrs({}, false))[0];
        const std::string shape = std::string(dtype_name(dtype)) + " " + to_string(x.shape());
        visit_dtype(dtype, [&](auto v) {
          using T = decltype(v);
          const T* p = x.data_as<T>();
          double total = 0;
          for (int64_t r = 0; r < rows; ++r) {
            const T* row = p + r * n;
            const double row_sum = std::accumulate(row, row + n, 0.0);
            total += row_sum;
            EXPECT_EQ(sum.data_as<T>()[r], row_sum) << shape << " row " << r;
            EXPECT_EQ(amax.data_as<T>()[r], *std::max_element(row, row + n)) << shape << " row " << r;
            EXPECT_EQ(amin.data_as<T>()[r], *std::min_element(row, row + n)) << shape << " row " << r;
          }
          EXPECT_EQ(all.data_as<T>()[0], total) << shape;
        });
      }
    }
  }
}

// Kept last dims summed across rows (x.sum(0), a mean over the batch): every width class of
// the kernel's columns (four vectors held across the rows, one vector, the last columns in
// memory), and row counts below, at and past the cascade's blocks and levels (16, 256,
// 4096). Reduced dims of one group and of two (the rows' offsets computed apart). Integer
// values: exact in any order, so a column or a row lost or added twice changes the result.
TEST(ReduceAcross, EveryWidthAndRowCountEqualsAPlainLoop) {
  for (DType dtype : {DType::kFloat32, DType::kFloat64, DType::kInt32}) {
    for (int64_t rows : {1, 3, 16, 17, 300, 4100}) {
      for (int64_t n : kRowLengths) {
        if (rows * n > (1 << 21)) continue;
        // [a, k, b, n] summed over a and b: rows a b to each of the k n outputs. Two groups
        // where both a and b pass 1 (rows split as a = rows / 2, b = 2, k = 2).
        for (bool two_groups : {false, true}) {
          const int64_t a = two_groups ? std::max<int64_t>(rows / 2, 1) : rows, b = two_groups ? 2 : 1;
          const int64_t k = two_groups ? 2 : 1;
          const Shape shape{a, k, b, n};
          const Tensor x = value(shape, dtype);
          const Tensor sum = local("sum", {x}, reduce_attrs({0, 2}, false))[0];
          const std::string what = std::string(dtype_name(dtype)) + " " + to_string(shape);
          visit_dtype(dtype, [&](auto v) {
            using T = decltype(v);
            using Sum = std::conditional_t<std::is_integral_v<T>, int64_t, T>;
            const T* p = x.data_as<T>();
            for (int64_t kk = 0; kk < k; ++kk) {
              for (int64_t j = 0; j < n; ++j) {
                double total = 0;
                for (int64_t i = 0; i < a; ++i) {
                  for (int64_t bb = 0; bb < b; ++bb) total += static_cast<double>(p[((i * k + kk) * b + bb) * n + j]);
                }
                EXPECT_EQ(static_cast<double>(sum.data_as<Sum>()[kk * n + j]), total) << what << " at " << kk << ", " << j;
              }
            }
          });
        }
      }
    }
  }
}

TEST(ReduceShapes, FollowPyTorch) {
  const Tensor x = value({2, 3, 4});
  EXPECT_EQ(local("sum", {x}, reduce_attrs({1}, false))[0].shape(), (Shape{2, 4}));
  EXPECT_EQ(local("sum", {x}, reduce_attrs({1}, true))[0].shape(), (Shape{2, 1, 4}));
  EXPECT_EQ(local("mean", {x}, reduce_attrs({}, false))[0].shape(), (Shape{}));
  EXPECT_EQ(local("amax", {x}, reduce_attrs({}, true))[0].shape(), (Shape{1, 1, 1}));
  EXPECT_EQ(local("sum", {value({2, 3}, DType::kInt32)}, reduce_attrs({0}, false))[0].dtype(), DType::kInt64);
  EXPECT_EQ(local("amax", {value({2, 3}, DType::kInt32)}, reduce_attrs({0}, false))[0].dtype(), DType::kInt32);
  // amax over a nonempty dim of a tensor with an empty one is empty, not an error.
  EXPECT_EQ(local("amax", {value({0, 3})}, reduce_attrs({1}, false))[0].shape(), (Shape{0}));
}

TEST(ReduceBadInput, ClearErrors) {
  const Tensor x = value({4, 3});
  expect_error([&] { local("sum", {x}, reduce_attrs({2}, false)); },
               "[sum] dim 2 is out of range for a tensor of 2 dims; expected a dim in [-2, 2)");
  expect_error([&] { local("amin", {x}, reduce_attrs({0, -2}, false)); },
               "[amin] dim 0 appears more than once in dims");
  expect_error([&] { local("mean", {value({4, 3}, DType::kInt64)}, reduce_attrs({0}, false)); },
               "[mean] takes a floating tensor, got int64; expected float32 or float64");
  expect_error([&] { local("amax", {value({4, 0})}, reduce_attrs({1}, false)); },
               "[amax] cannot reduce dim 1 of size 0 of a tensor of shape [4, 0]: the max of nothing has no value");
  expect_error([&] { local("amin", {value({0})}, reduce_attrs({}, false)); }, "[amin] cannot reduce dim 0 of size 0");
  expect_error([&] { local("sum", {x, x}, reduce_attrs({0}, false)); }, "[sum] takes 1 inputs, got 2");
}

// ---------------------------------------------------------------------------------------------
// softmax, log_softmax

TEST(NnSoftmax, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const char* op : {"softmax", "log_softmax"}) {
      for (const auto& [shape, dim] : std::vector<std::pair<Shape, int64_t>>{
               {{4, 6}, 1}, {{4, 6}, 0}, {{5, 3, 7}, -2}, {{5, 3, 7}, 2}, {{3, 0, 2}, 0}, {{3, 0, 2}, 1}}) {
        check(op, {value(shape)}, {{"dim", dim}}, p);
      }
      check(op, {value({5, 7}, DType::kFloat64)}, {{"dim", int64_t{-1}}}, p);
    }
  }
}

TEST(NnSoftmax, SignaturesAndStability) {
  EXPECT_EQ(one_axis("softmax", {{{4, 6, 5}, DType::kFloat32}}, {{"dim", int64_t{1}}}),
            (std::vector<std::string>{"(S(0)) -> (S(0))", "(S(2)) -> (S(2))", "(B) -> (B)"}));
  // Logits far beyond exp's range: the shift by the maximum keeps them finite.
  Tensor x = Tensor::empty({2}, DType::kFloat32);
  x.data_as<float>()[0] = 1000;
  x.data_as<float>()[1] = 999;
  const Tensor y = local("softmax", {x}, {{"dim", int64_t{0}}})[0];
  const Tensor ly = local("log_softmax", {x}, {{"dim", int64_t{0}}})[0];
  EXPECT_NEAR(y.data_as<float>()[0], 1 / (1 + std::exp(-1.0)), 1e-6);
  EXPECT_NEAR(ly.data_as<float>()[1], -1 - std::log(1 + std::exp(-1.0)), 1e-5);
}

TEST(NnSoftmax, BadInput) {
  expect_error([&] { local("softmax", {value({4, 3}, DType::kInt64)}, {{"dim", int64_t{0}}}); },
               "[softmax] the dtype of the input is int64; expected float32 or float64");
  expect_error([&] { local("log_softmax", {value({4, 3})}, {{"dim", int64_t{-3}}}); },
               "[log_softmax] dim -3 is out of range for a tensor of 2 dims");
}

Attrs causal_attrs() { return {{"dim", int64_t{-1}}, {"causal", true}}; }

TEST(NnSoftmax, CausalEverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const char* op : {"softmax", "log_softmax"}) {
      // Tq < Tk (the mask's diagonal shifted right), Tq == Tk, and an empty batch.
      for (const Shape& shape : std::vector<Shape>{{5, 3, 6}, {3, 2, 4, 4}, {0, 2, 2}}) {
        check(op, {small_value(shape)}, causal_attrs(), p);
      }
      check(op, {small_value({7, 5, 5}, DType::kFloat64)}, causal_attrs(), p);
    }
  }
}

// The causal result is the plain one of the logits with -inf where masked (up to the order
// of the vectorized sums), and masked probabilities are exactly 0.
TEST(NnSoftmax, CausalMasksLaterPositions) {
  const int64_t tq = 3, tk = 5;
  for (const char* op : {"softmax", "log_softmax"}) {
    for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
      const Tensor x = small_value({2, tq, tk}, dtype);
      Tensor masked = x.clone();
      visit_dtype(dtype, [&](auto v) {
        using T = decltype(v);
        for (int64_t r = 0; r < 2 * tq; ++r) {
          for (int64_t j = r % tq + 1 + tk - tq; j < tk; ++j) {
            masked.data_as<T>()[r * tk + j] = -std::numeric_limits<T>::infinity();
          }
        }
      });
      const Tensor y = local(op, {x}, causal_attrs())[0];
      EXPECT_TRUE(close(y, local(op, {masked}, {{"dim", int64_t{-1}}})[0], 1e-6)) << op;
    }
  }
  const Tensor y = local("softmax", {small_value({tq, tk})}, causal_attrs())[0];
  EXPECT_EQ(y.data_as<float>()[0 * tk + 3], 0.0f);
  EXPECT_GT(y.data_as<float>()[1 * tk + 3], 0.0f);
  EXPECT_EQ(one_axis("log_softmax", {{{4, 3, 5}, DType::kFloat32}}, causal_attrs()),
            (std::vector<std::string>{"(S(0)) -> (S(0))", "(B) -> (B)"}));
}

TEST(NnSoftmax, CausalBadInput) {
  expect_error([&] { local("softmax", {value({4, 5})}, {{"dim", int64_t{0}}, {"causal", true}}); },
               "[softmax] causal masking is over the last two dims [.., Tq, Tk] along the last, but dim is 0 of a "
               "tensor of shape [4, 5]; expected dim -1 of a tensor of at least 2 dims");
  expect_error([&] { local("log_softmax", {value({5})}, causal_attrs()); },
               "[log_softmax] causal masking is over the last two dims");
  expect_error([&] { local("softmax", {value({2, 5, 4})}, causal_attrs()); },
               "[softmax] causal masking of shape [2, 5, 4] would mask whole rows (Tq = 5 > Tk = 4); expected "
               "Tq <= Tk");
}

// ---------------------------------------------------------------------------------------------
// softmax_backward

Attrs softmax_backward_attrs(int64_t dim, bool log, bool causal = false) {
  return {{"dim", dim}, {"log", log}, {"causal", causal}};
}

TEST(NnSoftmaxBackward, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (bool log : {false, true}) {
      const char* forward = log ? "log_softmax" : "softmax";
      for (const auto& [shape, dim, causal] : std::vector<std::tuple<Shape, int64_t, bool>>{
               {{4, 6}, 1, false}, {{5, 3, 7}, -2, false}, {{5, 3, 7}, 0, false}, {{3, 0, 2}, 1, false},
               {{5, 3, 6}, -1, true}, {{3, 4, 4}, 2, true}}) {
        const Attrs attrs = softmax_backward_attrs(dim, log, causal);
        const Tensor y = local(forward, {small_value(shape)}, {{"dim", dim}, {"causal", causal}})[0];
        check("softmax_backward", {y, value(shape)}, attrs, p);
      }
      const Tensor y = local(forward, {small_value({5, 7}, DType::kFloat64)}, {{"dim", int64_t{0}}})[0];
      check("softmax_backward", {y, value({5, 7}, DType::kFloat64)}, softmax_backward_attrs(0, log), p);
    }
  }
}

TEST(NnSoftmaxBackward, SignaturesAndMask) {
  const std::vector<TensorMeta> two{{{4, 6, 5}, DType::kFloat32}, {{4, 6, 5}, DType::kFloat32}};
  EXPECT_EQ(one_axis("softmax_backward", two, softmax_backward_attrs(1, false)),
            (std::vector<std::string>{"(S(0)), (S(0)) -> (S(0))", "(S(2)), (S(2)) -> (S(2))", "(B), (P) -> (P)",
                                      "(B), (B) -> (B)"}));
  const std::vector<TensorMeta> causal{{{4, 5, 6}, DType::kFloat32}, {{4, 5, 6}, DType::kFloat32}};
  EXPECT_EQ(one_axis("softmax_backward", causal, softmax_backward_attrs(-1, true, true)),
            (std::vector<std::string>{"(S(0)), (S(0)) -> (S(0))", "(B), (P) -> (P)", "(B), (B) -> (B)"}));
  // Masked logits get no gradient, whatever arrives at their (constant) outputs.
  for (bool log : {false, true}) {
    const Tensor y = local(log ? "log_softmax" : "softmax", {small_value({2, 3})}, causal_attrs())[0];
    const Tensor dx = local("softmax_backward", {y, value({2, 3})}, softmax_backward_attrs(-1, log, true))[0];
    EXPECT_EQ(dx.data_as<float>()[2], 0.0f) << log;
    EXPECT_NE(dx.data_as<float>()[4], 0.0f) << log;
  }
}

TEST(NnSoftmaxBackward, BadInput) {
  const Tensor y = value({4, 3});
  expect_error([&] { local("softmax_backward", {y, value({4, 2})}, softmax_backward_attrs(0, false)); },
               "[softmax_backward] dy has shape [4, 2]; expected [4, 3], the shape of y");
  expect_error([&] { local("softmax_backward", {y, value({4, 3}, DType::kFloat64)}, softmax_backward_attrs(0, true)); },
               "[softmax_backward] dtypes differ: float32 and float64");
  expect_error([&] { local("softmax_backward", {y, y}, {{"dim", int64_t{0}}}); },
               "[softmax_backward] missing attribute 'log'");
  expect_error([&] { local("softmax_backward", {y, y}, softmax_backward_attrs(0, false, true)); },
               "[softmax_backward] causal masking is over the last two dims");
}

// ---------------------------------------------------------------------------------------------
// layer_norm

Attrs layer_norm_attrs(const Dims& normalized, bool weight, bool bias) {
  return {{"normalized_shape", normalized}, {"eps", 1e-5}, {"has_weight", weight}, {"has_bias", bias}};
}

TEST(NnLayerNorm, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const auto& [shape, normalized] : std::vector<std::pair<Shape, Dims>>{
             {{4, 6}, {6}}, {{5, 3, 7}, {7}}, {{5, 3, 7}, {3, 7}}, {{0, 4}, {4}}, {{3, 2, 0}, {0}}}) {
      for (const auto& [weight, bias] :
           std::vector<std::pair<bool, bool>>{{false, false}, {true, false}, {false, true}, {true, true}}) {
        std::vector<Tensor> inputs{value(shape)};
        if (weight) inputs.push_back(value(normalized));
        if (bias) inputs.push_back(value(normalized));
        check("layer_norm", inputs, layer_norm_attrs(normalized, weight, bias), p);
      }
    }
    check("layer_norm", {value({5, 6}, DType::kFloat64)}, {{"normalized_shape", Dims{6}}}, p);
  }
}

TEST(NnLayerNorm, SignaturesAndValues) {
  EXPECT_EQ(one_axis("layer_norm", {{{4, 6, 5}, DType::kFloat32}, {{5}, DType::kFloat32}},
                     layer_norm_attrs({5}, true, false)),
            (std::vector<std::string>{"(S(0)), (B) -> (S(0))", "(S(1)), (B) -> (S(1))", "(B), (B) -> (B)"}));
  // [1, 3] normalized: mean 2, variance 1; then * weight + bias.
  Tensor x = Tensor::empty({2}, DType::kFloat64), w = Tensor::empty({2}, DType::kFloat64), b = w.clone();
  x.data_as<double>()[0] = 1, x.data_as<double>()[1] = 3;
  w.data_as<double>()[0] = 2, w.data_as<double>()[1] = 3;
  b.data_as<double>()[0] = 10, b.data_as<double>()[1] = 20;
  const Tensor y = local("layer_norm", {x, w, b}, layer_norm_attrs({2}, true, true))[0];
  EXPECT_NEAR(y.data_as<double>()[0], 10 - 2 / std::sqrt(1 + 1e-5), 1e-12);
  EXPECT_NEAR(y.data_as<double>()[1], 20 + 3 / std::sqrt(1 + 1e-5), 1e-12);
}

TEST(NnLayerNorm, BadInput) {
  const Tensor x = value({4, 3});
  expect_error([&] { local("layer_norm", {x}, layer_norm_attrs({4}, false, false)); },
               "[layer_norm] normalized_shape [4] is not the trailing dims of the input's shape [4, 3]");
  expect_error([&] { local("layer_norm", {x}, layer_norm_attrs({}, false, false)); },
               "[layer_norm] normalized_shape [] is not the trailing dims");
  expect_error([&] { local("layer_norm", {x, value({4})}, layer_norm_attrs({3}, true, false)); },
               "[layer_norm] weight has shape [4]; expected normalized_shape [3]");
  expect_error([&] { local("layer_norm", {x, value({3}, DType::kFloat64)}, layer_norm_attrs({3}, false, true)); },
               "[layer_norm] dtypes differ: float32 and float64");
  expect_error([&] { local("layer_norm", {x, value({3})}, layer_norm_attrs({3}, false, false)); },
               "[layer_norm] takes 1 inputs, got 2");
  expect_error([&] { local("layer_norm", {value({4, 3}, DType::kInt32)}, layer_norm_attrs({3}, false, false)); },
               "[layer_norm] the dtype of the input is int32; expected float32 or float64");
}

// ---------------------------------------------------------------------------------------------
// layer_norm_backward

TEST(NnLayerNormBackward, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (const auto& [shape, normalized] : std::vector<std::pair<Shape, Dims>>{
             {{4, 6}, {6}}, {{5, 3, 7}, {7}}, {{5, 3, 7}, {3, 7}}, {{0, 4}, {4}}}) {
      for (const auto& [weight, bias] :
           std::vector<std::pair<bool, bool>>{{false, false}, {true, false}, {false, true}, {true, true}}) {
        std::vector<Tensor> inputs{small_value(shape)};
        if (weight) inputs.push_back(value(normalized));
        inputs.push_back(value(shape));
        check("layer_norm_backward", inputs, layer_norm_attrs(normalized, weight, bias), p);
      }
    }
    check("layer_norm_backward", {small_value({5, 6}, DType::kFloat64), value({6}, DType::kFloat64),
                                  value({5, 6}, DType::kFloat64)},
          layer_norm_attrs({6}, true, true), p);
  }
}

TEST(NnLayerNormBackward, Signatures) {
  const TensorMeta x{{4, 6, 5}, DType::kFloat32}, w{{5}, DType::kFloat32};
  EXPECT_EQ(one_axis("layer_norm_backward", {x, w, x}, layer_norm_attrs({5}, true, true)),
            (std::vector<std::string>{"(S(0)), (B), (S(0)) -> (S(0)), (P), (P)",
                                      "(S(1)), (B), (S(1)) -> (S(1)), (P), (P)", "(B), (B), (P) -> (P), (P), (P)",
                                      "(B), (B), (B) -> (B), (B), (B)"}));
  EXPECT_EQ(one_axis("layer_norm_backward", {x, x}, layer_norm_attrs({6, 5}, false, false)),
            (std::vector<std::string>{"(S(0)), (S(0)) -> (S(0))", "(B), (P) -> (P)", "(B), (B) -> (B)"}));
  const std::vector<Tensor> grads =
      local("layer_norm_backward", {value({2, 3}), value({2, 3})}, layer_norm_attrs({3}, false, true));
  ASSERT_EQ(grads.size(), 2u);
  EXPECT_EQ(grads[1].shape(), (Shape{3}));
}

TEST(NnLayerNormBackward, BadInput) {
  const Tensor x = value({4, 3});
  expect_error([&] { local("layer_norm_backward", {x, value({4, 2})}, layer_norm_attrs({3}, false, false)); },
               "[layer_norm_backward] dy has shape [4, 2]; expected [4, 3], the shape of the input");
  expect_error([&] { local("layer_norm_backward", {x, x}, layer_norm_attrs({3}, true, false)); },
               "[layer_norm_backward] takes 3 inputs, got 2");
  expect_error([&] { local("layer_norm_backward", {x, value({2}), x}, layer_norm_attrs({3}, true, false)); },
               "[layer_norm_backward] weight has shape [2]; expected normalized_shape [3]");
  expect_error([&] { local("layer_norm_backward", {x, x}, layer_norm_attrs({2}, false, false)); },
               "[layer_norm_backward] normalized_shape [2] is not the trailing dims");
}

// The row kernels of softmax, log_softmax, their backward, layer_norm and its backward
// against plain loops in double, on rows of every length class (kRowLengths).
std::vector<Tensor> rows_by_plain_loops(const std::string& op, const std::vector<Tensor>& in, bool log) {
  const int64_t rows = in[0].shape()[0], n = in[0].shape()[1];
  std::vector<std::vector<double>> out(op == "layer_norm_backward" ? 3 : 1, std::vector<double>(rows * n, 0.0));
  auto at = [&](size_t input, int64_t i) { return in[input].data_as<double>()[i]; };
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t o = r * n;
    double s1 = 0, s2 = 0, most = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < n; ++j) most = std::max(most, at(0, o + j));
    if (op == "softmax") {
      for (int64_t j = 0; j < n; ++j) s1 += std::exp(at(0, o + j) - most);
      for (int64_t j = 0; j < n; ++j) {
        out[0][o + j] = log ? at(0, o + j) - most - std::log(s1) : std::exp(at(0, o + j) - most) / s1;
      }
    } else if (op == "softmax_backward") {  // in: y, dy
      for (int64_t j = 0; j < n; ++j) s1 += log ? at(1, o + j) : at(1, o + j) * at(0, o + j);
      for (int64_t j = 0; j < n; ++j) {
        out[0][o + j] = log ? at(1, o + j) - std::exp(at(0, o + j)) * s1 : at(0, o + j) * (at(1, o + j) - s1);
      }
    } else {  // layer_norm (in: x, w, b) or layer_norm_backward (in: x, w, dy; out: dx, dw, db)
      for (int64_t j = 0; j < n; ++j) s1 += at(0, o + j) / n;
      for (int64_t j = 0; j < n; ++j) s2 += (at(0, o + j) - s1) * (at(0, o + j) - s1) / n;
      const double rstd = 1 / std::sqrt(s2 + 1e-5);
      auto xhat = [&](int64_t j) { return (at(0, o + j) - s1) * rstd; };
      if (op == "layer_norm") {
        for (int64_t j = 0; j < n; ++j) out[0][o + j] = xhat(j) * at(1, j) + at(2, j);
        continue;
      }
      double mean_g = 0, mean_gx = 0;
      for (int64_t j = 0; j < n; ++j) {
        mean_g += at(2, o + j) * at(1, j) / n;
        mean_gx += at(2, o + j) * at(1, j) * xhat(j) / n;
      }
      for (int64_t j = 0; j < n; ++j) {
        out[0][o + j] = rstd * (at(2, o + j) * at(1, j) - mean_g - xhat(j) * mean_gx);
        out[1][j] += at(2, o + j) * xhat(j);
        out[2][j] += at(2, o + j);
      }
    }
  }
  std::vector<Tensor> tensors;
  for (size_t k = 0; k < out.size(); ++k) {
    tensors.push_back(Tensor::empty(k == 0 ? in[0].shape() : Shape{n}, DType::kFloat64));
    std::copy(out[k].begin(), out[k].begin() + tensors[k].numel(), tensors[k].data_as<double>());
  }
  return tensors;
}

TEST(NnRows, EveryLengthEqualsPlainLoops) {
  for (DType dtype : {DType::kFloat32, DType::kFloat64}) {
    const double tol = dtype == DType::kFloat32 ? 2e-4 : 1e-10;
    for (int64_t rows : {1, 3, 17}) {
      for (int64_t n : kRowLengths) {
        const Tensor x = small_value({rows, n}, dtype), dy = value({rows, n}, dtype);
        const Tensor w = value({n}, dtype), b = small_value({n}, dtype);
        std::vector<std::tuple<std::string, std::vector<Tensor>, Attrs, bool>> cases;
        for (bool log : {false, true}) {
          const Tensor y = local(log ? "log_softmax" : "softmax", {x}, {{"dim", int64_t{-1}}})[0];
          cases.push_back({"softmax", {x}, {{"dim", int64_t{-1}}}, log});
          cases.push_back({"softmax_backward", {y, dy}, softmax_backward_attrs(-1, log), log});
        }
        cases.push_back({"layer_norm", {x, w, b}, layer_norm_attrs({n}, true, true), false});
        cases.push_back({"layer_norm_backward", {x, w, dy}, layer_norm_attrs({n}, true, true), false});
        for (const auto& [op, inputs, attrs, log] : cases) {
          const std::string name = op == "softmax" && log ? "log_softmax" : op;
          const std::vector<Tensor> got = local(name, inputs, attrs);
          std::vector<Tensor> wide;
          for (const Tensor& t : inputs) wide.push_back(local("cast", {t}, {{"dtype", DType::kFloat64}})[0]);
          const std::vector<Tensor> expected = rows_by_plain_loops(op, wide, log);
          ASSERT_EQ(got.size(), expected.size()) << name;
          for (size_t k = 0; k < got.size(); ++k) {
            const Tensor g = local("cast", {got[k]}, {{"dtype", DType::kFloat64}})[0];
            EXPECT_TRUE(close(g, expected[k], tol)) << name << " output " << k << " of " << dtype_name(dtype) << " "
                                                    << to_string(x.shape());
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// gelu_backward(x, dy), gelu_tanh_backward(x, dy), silu_backward(x, dy), relu_backward(y, dy),
// sigmoid_backward(y, dy), tanh_backward(y, dy)

constexpr const char* kActivationBackwardOps[] = {"gelu_backward", "gelu_tanh_backward", "silu_backward",
                                                  "relu_backward", "sigmoid_backward", "tanh_backward"};

TEST(NnActivationBackward, EverySignatureMatchesOneDevice) {
  for (const char* op : kActivationBackwardOps) {
    for (const Placement& p : op_meshes()) {
      for (const Shape& shape : std::vector<Shape>{{4, 6}, {5, 3, 7}, {0, 3}, {}}) {
        check(op, {small_value(shape), value(shape)}, {}, p);
      }
      check(op, {small_value({7, 5}, DType::kFloat64), value({7, 5}, DType::kFloat64)}, {}, p);
      // dy broadcast (a sum's gradient, not expanded): B wherever it has size 1 against a split.
      for (const Shape& dy : std::vector<Shape>{{1, 3, 1}, {5, 1, 7}, {1, 1, 1}, {7}, {}}) {
        check(op, {small_value({5, 3, 7}), value(dy)}, {}, p);
      }
    }
  }
}

TEST(NnActivationBackward, ReluBackwardPassesDyWhereTheOutputIsPositive) {
  Tensor y = Tensor::empty({5}, DType::kFloat32), dy = Tensor::empty({5}, DType::kFloat32);
  const float ys[] = {-1.0f, 0.0f, 2.0f, -0.0f, std::numeric_limits<float>::quiet_NaN()};
  for (int i = 0; i < 5; ++i) {
    y.data_as<float>()[i] = ys[i];
    dy.data_as<float>()[i] = static_cast<float>(i + 1);
  }
  const Tensor dx = local("relu_backward", {y, dy})[0];
  // torch's threshold_backward: 0 where y <= 0, dy elsewhere (NaN included).
  EXPECT_EQ(std::vector<float>(dx.data_as<float>(), dx.data_as<float>() + 5), (std::vector<float>{0, 0, 3, 0, 5}));
}

TEST(NnActivationBackward, SignaturesAndBadInput) {
  const TensorMeta x{{4, 6}, DType::kFloat32};
  for (const std::string op : kActivationBackwardOps) {
    const std::string saved = op == "gelu_backward" || op == "gelu_tanh_backward" || op == "silu_backward" ? "x" : "y";
    EXPECT_EQ(one_axis(op, {x, x}, {}),
              (std::vector<std::string>{"(S(0)), (S(0)) -> (S(0))", "(S(1)), (S(1)) -> (S(1))", "(B), (P) -> (P)",
                                        "(B), (B) -> (B)"}));
    EXPECT_EQ(one_axis(op, {x, {{1, 6}, DType::kFloat32}}, {}),
              (std::vector<std::string>{"(S(0)), (B) -> (S(0))", "(S(1)), (S(1)) -> (S(1))", "(B), (P) -> (P)",
                                        "(B), (B) -> (B)"}));
    expect_error([&] { local(op, {value({4, 3}), value({2})}); },
                 "[" + op + "] dy has shape [2]; expected " + saved + "'s shape [4, 3] or one that broadcasts to it");
    expect_error([&] { local(op, {value({3}), value({4, 3})}); },
                 "[" + op + "] dy has shape [4, 3]; expected " + saved + "'s shape [3] or one that broadcasts to it");
    expect_error([&] { local(op, {value({3}, DType::kInt64), value({3}, DType::kInt64)}); },
                 "[" + op + "] the dtype of " + saved + " is int64; expected float32 or float64");
  }
}

// ---------------------------------------------------------------------------------------------
// embedding

TEST(NnEmbedding, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    // Vocabulary 7 and 5: uneven over 2 and 4 ranks, so some ranks hold fewer rows.
    check("embedding", {indices({3, 5}, DType::kInt64, 7), value({7, 4})}, {}, p);
    check("embedding", {indices({6}, DType::kInt32, 5), value({5, 3}, DType::kInt64)}, {}, p);
    check("embedding", {indices({}, DType::kInt64, 7), value({7, 6}, DType::kFloat64)}, {}, p);
    check("embedding", {indices({0, 2}, DType::kInt64, 7), value({7, 4})}, {}, p);
    check("embedding", {indices({4}, DType::kInt64, 3), value({3, 0})}, {}, p);
  }
}

TEST(NnEmbedding, Signatures) {
  EXPECT_EQ(one_axis("embedding", {{{3, 5}, DType::kInt64}, {{7, 4}, DType::kFloat32}}, {}),
            (std::vector<std::string>{"(S(0)), (B) -> (S(0))", "(S(1)), (B) -> (S(1))", "(B), (S(1)) -> (S(2))",
                                      "(B), (S(0)) -> (P)", "(B), (P) -> (P)", "(B), (B) -> (B)"}));
}

TEST(NnEmbedding, BadInput) {
  const Tensor w = value({7, 4});
  expect_error([&] { local("embedding", {indices({3}, DType::kInt64, 9), w}); },
               "[embedding] index 8 is out of range; expected values in [0, 7)");
  Tensor negative = indices({2}, DType::kInt32, 7);
  negative.data_as<int32_t>()[1] = -1;
  expect_error([&] { local("embedding", {negative, w}); }, "[embedding] index -1 is out of range");
  expect_error([&] { local("embedding", {value({3}), w}); },
               "[embedding] the dtype of indices is float32; expected int32 or int64");
  expect_error([&] { local("embedding", {indices({3}, DType::kInt64, 7), value({7})}); },
               "[embedding] weight has shape [7]; expected 2 dims");
}

// (Ranks outside the placement run no kernel, hence the placement of every rank.)
TEST(NnEmbedding, OutOfRangeFailsOnEveryRankWhenIndicesAreBroadcast) {
  REQUIRE_RANKS(2);
  const Placement p = first_ranks({comm::world_size()});
  const GlobalTensor idx = make_source(indices({5}, DType::kInt64, 9), p, {Sbp::broadcast()});
  const GlobalTensor w = make_source(value({7, 4}), p, {Sbp::split(0)});
  expect_error([&] { apply_global(find_op("embedding"), {idx, w}, {}); }, "[embedding] index 8 is out of range");
  // The job is still usable.
  const GlobalTensor ok = make_source(indices({5}, DType::kInt64, 7), p, {Sbp::broadcast()});
  const GlobalTensor out = apply_global(find_op("embedding"), {ok, w}, {})[0];
  EXPECT_TRUE(close(gather_full(out), local("embedding", {indices({5}, DType::kInt64, 7), value({7, 4})})[0], 0));
}

// ---------------------------------------------------------------------------------------------
// embedding_backward

Attrs num_weights(int64_t n) { return {{"num_weights", n}}; }

TEST(NnEmbeddingBackward, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    // Vocabularies of 7, 5 and 9 rows: uneven over 2 and 4 ranks; rows no index points at
    // (5 and 9 rows for indices below 4); repeated indices, which add up.
    check("embedding_backward", {indices({3, 5}, DType::kInt64, 7), value({3, 5, 4})}, num_weights(7), p);
    check("embedding_backward", {indices({6}, DType::kInt32, 4), value({6, 3}, DType::kFloat64)}, num_weights(5), p);
    check("embedding_backward", {indices({6}, DType::kInt32, 4), value({6, 3}, DType::kInt64)}, num_weights(9), p);
    check("embedding_backward", {indices({}, DType::kInt64, 7), value({6})}, num_weights(7), p);
    check("embedding_backward", {indices({0, 2}, DType::kInt64, 7), value({0, 2, 4})}, num_weights(7), p);
    check("embedding_backward", {indices({4}, DType::kInt64, 3), value({4, 0})}, num_weights(3), p);
  }
}

TEST(NnEmbeddingBackward, SignaturesAndBadInput) {
  EXPECT_EQ(one_axis("embedding_backward", {{{3, 5}, DType::kInt64}, {{3, 5, 4}, DType::kFloat32}}, num_weights(7)),
            (std::vector<std::string>{"(S(0)), (S(0)) -> (P)", "(S(1)), (S(1)) -> (P)", "(B), (S(2)) -> (S(1))",
                                      "(B), (P) -> (P)", "(B), (B) -> (S(0))", "(B), (B) -> (B)"}));
  const Tensor dy = value({3, 4});
  expect_error([&] { local("embedding_backward", {indices({3}, DType::kInt64, 9), dy}, num_weights(7)); },
               "[embedding_backward] index 8 is out of range; expected values in [0, 7)");
  expect_error([&] { local("embedding_backward", {indices({2}, DType::kInt64, 7), dy}, num_weights(7)); },
               "[embedding_backward] dy has shape [3, 4]; expected [2, 4], the indices' shape and the embedding dim");
  expect_error([&] { local("embedding_backward", {indices({3}, DType::kInt64, 7), value({})}, num_weights(7)); },
               "[embedding_backward] dy has shape []; expected [3, 0]");
  expect_error([&] { local("embedding_backward", {indices({3}, DType::kInt64, 7), dy}, num_weights(-1)); },
               "[embedding_backward] num_weights is -1; expected num_weights >= 0");
  expect_error([&] { local("embedding_backward", {value({3}), dy}, num_weights(7)); },
               "[embedding_backward] the dtype of indices is float32; expected int32 or int64");
}

// ---------------------------------------------------------------------------------------------
// gather, gather_backward

Attrs dim_attr(int64_t dim) { return {{"dim", dim}}; }
Attrs gather_backward_attrs(int64_t dim, int64_t size) { return {{"dim", dim}, {"size", size}}; }

TEST(NnGather, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    // Cross-entropy's shape (one target per row) and index smaller, larger and equal along
    // dim; 7, 6 and 4 positions along dim, uneven over 4 ranks.
    check("gather", {value({5, 7}), indices({5, 1}, DType::kInt64, 7)}, dim_attr(1), p);
    check("gather", {value({6, 4, 5}, DType::kFloat64), indices({6, 3, 5}, DType::kInt32, 4)}, dim_attr(1), p);
    check("gather", {value({6, 3}), indices({8, 3}, DType::kInt64, 6)}, dim_attr(0), p);
    check("gather", {value({6, 3}, DType::kInt32), indices({6, 3}, DType::kInt64, 6)}, dim_attr(-2), p);
    check("gather", {value({5, 0}), indices({5, 0}, DType::kInt64, 1)}, dim_attr(0), p);
  }
}

TEST(NnGather, SignaturesAndBadInput) {
  EXPECT_EQ(one_axis("gather", {{{4, 7, 5}, DType::kFloat32}, {{4, 2, 5}, DType::kInt64}}, dim_attr(1)),
            (std::vector<std::string>{"(S(0)), (S(0)) -> (S(0))", "(S(2)), (S(2)) -> (S(2))",
                                      "(B), (S(1)) -> (S(1))", "(S(1)), (B) -> (P)", "(B), (B) -> (B)"}));
  const Tensor x = value({4, 3});
  expect_error([&] { local("gather", {x, indices({4, 2}, DType::kInt64, 4)}, dim_attr(1)); },
               "[gather] index 3 is out of range; expected values in [0, 3)");
  expect_error([&] { local("gather", {x, indices({3, 2}, DType::kInt64, 3)}, dim_attr(1)); },
               "[gather] index has shape [3, 2]; expected [4, 2], the shape of x except along dim 1");
  expect_error([&] { local("gather", {x, indices({4}, DType::kInt64, 3)}, dim_attr(0)); },
               "[gather] index has shape [4]; expected [4, 3]");
  expect_error([&] { local("gather", {x, value({4, 3})}, dim_attr(0)); },
               "[gather] the dtype of index is float32; expected int32 or int64");
  expect_error([&] { local("gather", {x, indices({4, 3}, DType::kInt64, 3)}, dim_attr(2)); },
               "[gather] dim 2 is out of range");
}

// The target logits off a vocabulary split: every rank raises when any index is bad, and
// the job goes on.
TEST(NnGather, OutOfRangeFailsOnEveryRankWhenXIsSplitAlongDim) {
  REQUIRE_RANKS(2);
  const Placement p = first_ranks({comm::world_size()});
  const GlobalTensor logits = make_source(value({3, 7}), p, {Sbp::split(1)});
  const GlobalTensor bad = make_source(indices({3, 1}, DType::kInt64, 9), p, {Sbp::broadcast()});
  expect_error([&] { apply_global(find_op("gather"), {logits, bad}, dim_attr(1)); },
               "[gather] index 8 is out of range; expected values in [0, 7)");
  const Tensor ok = indices({3, 1}, DType::kInt64, 7);
  const GlobalTensor out =
      apply_global(find_op("gather"), {logits, make_source(ok, p, {Sbp::broadcast()})}, dim_attr(1))[0];
  EXPECT_EQ(out.nd_sbp(), (NdSbp{Sbp::partial_sum()}));
  EXPECT_TRUE(close(gather_full(out), local("gather", {value({3, 7}), ok}, dim_attr(1))[0], 0));
}

TEST(NnGatherBackward, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    check("gather_backward", {indices({5, 1}, DType::kInt64, 7), value({5, 1})}, gather_backward_attrs(1, 7), p);
    check("gather_backward", {indices({6, 3, 5}, DType::kInt32, 4), value({6, 3, 5}, DType::kFloat64)},
          gather_backward_attrs(1, 4), p);
    // More index rows than positions: repeated indices add up.
    check("gather_backward", {indices({8, 3}, DType::kInt64, 6), value({8, 3})}, gather_backward_attrs(0, 6), p);
    check("gather_backward", {indices({4, 2}, DType::kInt64, 3), value({4, 2}, DType::kInt64)},
          gather_backward_attrs(-2, 6), p);
    check("gather_backward", {indices({0, 3}, DType::kInt64, 1), value({0, 3})}, gather_backward_attrs(0, 5), p);
  }
}

TEST(NnGatherBackward, SignaturesAndBadInput) {
  EXPECT_EQ(one_axis("gather_backward", {{{4, 2, 5}, DType::kInt64}, {{4, 2, 5}, DType::kFloat32}},
                     gather_backward_attrs(1, 7)),
            (std::vector<std::string>{"(S(0)), (S(0)) -> (S(0))", "(S(2)), (S(2)) -> (S(2))",
                                      "(B), (B) -> (S(1))", "(S(1)), (S(1)) -> (P)", "(B), (P) -> (P)",
                                      "(B), (B) -> (B)"}));
  const Tensor idx = indices({4, 2}, DType::kInt64, 6);
  EXPECT_EQ(local("gather_backward", {idx, value({4, 2})}, gather_backward_attrs(1, 6))[0].shape(), (Shape{4, 6}));
  expect_error([&] { local("gather_backward", {idx, value({4, 2})}, gather_backward_attrs(1, 5)); },
               "[gather_backward] index 5 is out of range; expected values in [0, 5)");
  expect_error([&] { local("gather_backward", {idx, value({4, 3})}, gather_backward_attrs(1, 6)); },
               "[gather_backward] dy has shape [4, 3]; expected [4, 2], the shape of index");
  expect_error([&] { local("gather_backward", {idx, value({4, 2})}, gather_backward_attrs(1, -1)); },
               "[gather_backward] size is -1; expected size >= 0");
}

// ---------------------------------------------------------------------------------------------
// cross_entropy

TEST(NnCrossEntropy, TheFusedRowsMatchOneDevice) {
  for (const Placement& p : op_meshes()) {
    check("softmax_cross_entropy", {value({6, 5}), indices({6}, DType::kInt64, 5)}, {}, p);
    check("softmax_cross_entropy", {value({5, 3}, DType::kFloat64), indices({5}, DType::kInt32, 3)},
          {{"ignore_index", int64_t{1}}}, p);
    check("softmax_cross_entropy_backward",
          {value({6, 5}), indices({6}, DType::kInt64, 5), value({6}), value({6}), value({6})}, {}, p);
  }
}

TEST(NnCrossEntropy, SignaturesAndValue) {
  EXPECT_EQ(one_axis("softmax_cross_entropy", {{{6, 5}, DType::kFloat32}, {{6}, DType::kInt64}}, {}),
            (std::vector<std::string>{"(S(0)), (S(0)) -> (S(0)), (S(0))", "(B), (B) -> (B), (B)"}));
  // Rows [0, 0] and [1, 2] with targets 0 and 1: losses log 2 and log(e + e^2) - 2.
  Tensor x = Tensor::empty({2, 2}, DType::kFloat64), t = Tensor::empty({2}, DType::kInt64);
  double* px = x.data_as<double>();
  px[0] = 0, px[1] = 0, px[2] = 1, px[3] = 2;
  t.data_as<int64_t>()[0] = 0, t.data_as<int64_t>()[1] = 1;
  const Tensor loss = local("softmax_cross_entropy", {x, t})[0];
  EXPECT_EQ(loss.shape(), Shape{2});
  EXPECT_NEAR(loss.data_as<double>()[0], std::log(2.0), 1e-12);
  EXPECT_NEAR(loss.data_as<double>()[1], std::log(std::exp(1.0) + std::exp(2.0)) - 2, 1e-12);
}

TEST(NnCrossEntropy, BadInput) {
  const Tensor x = value({4, 3});
  expect_error([&] { local("softmax_cross_entropy", {x, indices({4}, DType::kInt64, 4)}); },
               "[cross_entropy] target 3 is out of range; expected values in [0, 3)");
  expect_error([&] { local("softmax_cross_entropy", {value({4, 3, 2}), indices({4}, DType::kInt64, 3)}); },
               "[cross_entropy] logits have shape [4, 3, 2]; expected 2 dims [batch, classes]");
  expect_error([&] { local("softmax_cross_entropy", {x, indices({3}, DType::kInt64, 3)}); },
               "[cross_entropy] target has shape [3]; expected [4]");
  expect_error([&] { local("softmax_cross_entropy", {x, value({4})}); },
               "[cross_entropy] the dtype of target is float32; expected int32 or int64");
  expect_error([&] { local("softmax_cross_entropy", {value({4, 3}, DType::kInt64), indices({4}, DType::kInt64, 3)}); },
               "[cross_entropy] the dtype of logits is int64");
}

}  // namespace
}  // namespace mf
