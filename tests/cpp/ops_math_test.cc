// Copyright 2026 The meshflow Authors.
// The math ops (elementwise.cc's register_math_ops) and the line ops of sort.cc under
// mpirun: every valid signature on every mesh against the single-device result
// (op_check.h) for every dtype each takes, with even, uneven and zero-size shapes; the
// partial signatures each lists; values where C++ semantics are easy to get wrong (half to
// even, NaN ordering, stability, zeros in cumprod's gradient); bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

#include "meshflow/ops/dispatch.h"
#include "tests/cpp/op_check.h"

namespace mf {
namespace {

using namespace test;               // NOLINT: the suite's helpers
using namespace test::elementwise;  // NOLINT: filled, sweep, ...

constexpr DType F32 = DType::kFloat32, F64 = DType::kFloat64, I32 = DType::kInt32, I64 = DType::kInt64;
const std::vector<DType> kAll = {F32, F64, I32, I64}, kFloats = {F32, F64};
const std::vector<Shape> kShapes = {{5, 3}, {4, 6}, {0, 3}, {7}, {3, 2, 5}};

template <typename T>
Tensor of(const Shape& shape, std::vector<T> values, DType dtype) {
  return filled(shape, dtype, [&](int64_t i) { return values[i]; });
}

// In [-0.9, 0.9]: the domain of asin, acos, atanh, erfinv.
Tensor unit(const Shape& shape, DType dtype) {
  return filled(shape, dtype, [](int64_t i) { return ((i * 7) % 19 - 9) / 10.0; });
}
// Halves from -2.5 to 2.5: rounding's ties.
Tensor halves(const Shape& shape, DType dtype) {
  return filled(shape, dtype, [](int64_t i) { return ((i * 5) % 11 - 5) * 0.5; });
}
// Few distinct values (ties), 0 among them.
Tensor ties(const Shape& shape, DType dtype) {
  return filled(shape, dtype, [](int64_t i) { return (i * 7) % 5 - 2; });
}

Tensor run(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs = {}, size_t output = 0) {
  return apply_local(find_op(op), inputs, attrs)[output];
}

template <typename T>
std::vector<T> values_of(const Tensor& t) {
  return std::vector<T>(t.data_as<T>(), t.data_as<T>() + t.numel());
}

// ---------------------------------------------------------------------------------------
// Elementwise math.

TEST(MathUnary, EverySignatureMatchesOneDevice) {
  sweep_unary({
      {"sin", kAll, value},       {"cos", kAll, value},        {"tan", kAll, value},      {"asin", kFloats, unit},
      {"acos", kFloats, unit},    {"atan", kAll, value},       {"sinh", kAll, value},     {"cosh", kAll, value},
      {"asinh", kAll, value},     {"acosh", kAll, positive},   {"atanh", kFloats, unit},  {"erf", kAll, value},
      {"erfc", kAll, value},      {"erfinv", kFloats, unit},   {"log1p", kAll, positive}, {"expm1", kAll, value},
      {"log2", kAll, positive},   {"log10", kAll, positive},   {"exp2", kAll, value},     {"reciprocal", kAll, divisor},
      {"sign", kAll, value},      {"round", kAll, halves},     {"frac", kFloats, halves}}, kShapes);
}

TEST(MathBinary, EverySignatureMatchesOneDevice) {
  for (const char* op : {"atan2", "hypot", "copysign"}) {
    for (const Shape& shape : kShapes) {
      for (DType dtype : kFloats) sweep(op, {value(shape, dtype), ties(shape, dtype)});
    }
    sweep(op, {value({5, 3}, F32), ties({3}, F32)});
    sweep(op, {value({1, 3}, F64), ties({5, 1}, F64)});
  }
  for (const char* op : {"fmod", "remainder"}) {
    for (const Shape& shape : kShapes) {
      for (DType dtype : kAll) sweep(op, {value(shape, dtype), divisor(shape, dtype)});
    }
    sweep(op, {value({5, 3}, I64), divisor({3}, I64)});
  }
}

TEST(MathSignatures, PartialOnlyWhereExact) {
  const TensorMeta x{{5, 3}, F32};
  const std::set<std::string> s1 = {"S(0) -> S(0)", "S(1) -> S(1)"};
  std::set<std::string> increasing = s1, decreasing = s1;
  increasing.insert({"P(max) -> P(max)", "P(min) -> P(min)"});
  decreasing.insert({"P(max) -> P(min)", "P(min) -> P(max)"});
  for (const char* op : {"atan", "sinh", "asinh", "erf", "expm1", "exp2", "sign", "round"}) {
    EXPECT_EQ(listed(op, {x}), increasing) << op;
  }
  EXPECT_EQ(listed("erfc", {x}), decreasing);
  // Periodic, even, or monotone only on a domain a rank's part may leave.
  for (const char* op : {"sin", "cos", "tan", "cosh", "asin", "acos", "acosh", "atanh", "erfinv", "log1p", "log2",
                         "log10", "reciprocal", "frac"}) {
    EXPECT_EQ(listed(op, {x}), s1) << op;
  }
  const std::set<std::string> s2 = {"S(0), S(0) -> S(0)", "S(1), S(1) -> S(1)"};
  for (const char* op : {"atan2", "fmod", "remainder", "hypot", "copysign"}) EXPECT_EQ(listed(op, {x, x}), s2) << op;
}

TEST(MathValues, TorchSemantics) {
  // Half to even; integers stay.
  EXPECT_EQ(values_of<double>(run("round", {of<double>({5}, {0.5, 1.5, 2.5, -0.5, -2.5}, F64)})),
            (std::vector<double>{0, 2, 2, -0.0, -2}));
  EXPECT_EQ(run("round", {value({3}, I32)}).dtype(), I32);
  // sign: NaN gives 0; integers keep their dtype.
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(values_of<double>(run("sign", {of<double>({4}, {nan, -0.0, -3, 2}, F64)})),
            (std::vector<double>{0, 0, -1, 1}));
  EXPECT_EQ(values_of<int64_t>(run("sign", {of<int64_t>({3}, {-7, 0, 9}, I64)})), (std::vector<int64_t>{-1, 0, 1}));
  // Integers become float32.
  EXPECT_EQ(run("sin", {value({3}, I64)}).dtype(), F32);
  // erfinv inverts erf to double precision; +-1 give +-inf, beyond NaN.
  const std::vector<double> xs = {-2.5, -0.7, -1e-3, 0, 0.3, 1.2, 3};
  std::vector<double> erfs;
  for (double v : xs) erfs.push_back(std::erf(v));
  const std::vector<double> back = values_of<double>(run("erfinv", {of<double>({7}, erfs, F64)}));
  for (size_t i = 0; i < xs.size(); ++i) EXPECT_NEAR(back[i], xs[i], 1e-12 * (1 + std::abs(xs[i]) * 100)) << xs[i];
  const std::vector<double> edges = values_of<double>(run("erfinv", {of<double>({3}, {1, -1, 1.5}, F64)}));
  EXPECT_EQ(edges[0], inf);
  EXPECT_EQ(edges[1], -inf);
  EXPECT_TRUE(std::isnan(edges[2]));
  // fmod: the dividend's sign; the lowest integer over -1 is 0, not a trap.
  EXPECT_EQ(values_of<int32_t>(run("fmod", {of<int32_t>({3}, {-7, 7, std::numeric_limits<int32_t>::min()}, I32),
                                            of<int32_t>({3}, {3, -3, -1}, I32)})),
            (std::vector<int32_t>{-1, 1, 0}));
  EXPECT_EQ(values_of<double>(run("fmod", {of<double>({2}, {-7.5, 7.5}, F64), of<double>({2}, {2, -2}, F64)})),
            (std::vector<double>{-1.5, 1.5}));
  // remainder: the divisor's sign, fmod's moved by one divisor (exact: x - floor(x / y) y
  // would round (1e7 + 0.3) % 0.7 to 0), -0.0 kept; the lowest integer over -1 is 0.
  EXPECT_EQ(values_of<int32_t>(run("remainder", {of<int32_t>({3}, {-7, 7, std::numeric_limits<int32_t>::min()}, I32),
                                                 of<int32_t>({3}, {3, -3, -1}, I32)})),
            (std::vector<int32_t>{2, -2, 0}));
  const std::vector<double> r = values_of<double>(
      run("remainder", {of<double>({3}, {1e7 + 0.3, -0.0, -5.0}, F64), of<double>({3}, {0.7, 3, INFINITY}, F64)}));
  EXPECT_DOUBLE_EQ(r[0], std::fmod(1e7 + 0.3, 0.7));
  EXPECT_TRUE(r[1] == 0 && std::signbit(r[1]));
  EXPECT_EQ(r[2], INFINITY);
}

TEST(MathValues, BadInput) {
  for (const char* op : {"fmod", "remainder"}) {
    expect_error([op] { run(op, {value({3}, I64), of<int64_t>({3}, {1, 0, 2}, I64)}); }, "integer division by zero");
  }
  expect_error([] { run("hypot", {value({3}, I64), value({3}, I64)}); }, "[hypot] is defined for float32 and float64");
  expect_error([] { run("frac", {value({3}, I32)}); }, "[frac] is defined for float32 and float64");
  expect_error([] { run("atan2", {value({3}, F32), value({3}, F64)}); }, "[atan2]");
}

// ---------------------------------------------------------------------------------------
// Scans, sort, flip.

TEST(Scans, EverySignatureMatchesOneDevice) {
  for (const Shape& shape : kShapes) {
    for (int64_t dim = -1; dim < static_cast<int64_t>(shape.size()); ++dim) {
      for (DType dtype : kAll) {
        sweep("cumsum", {value(shape, dtype)}, {{"dim", dim}});
        sweep("cumprod", {divisor(shape, dtype)}, {{"dim", dim}});
      }
      sweep("cumsum", {value(shape, F64)}, {{"dim", dim}, {"reverse", true}});
      for (DType dtype : kFloats) {
        sweep("cumprod_backward", {ties(shape, dtype), value(shape, dtype)}, {{"dim", dim}});
        sweep("logcumsumexp", {value(shape, dtype)}, {{"dim", dim}});
        const Tensor y = run("logcumsumexp", {value(shape, dtype)}, {{"dim", dim}});
        sweep("logcumsumexp_backward", {value(shape, dtype), y, ties(shape, dtype)}, {{"dim", dim}});
      }
    }
  }
  sweep("cumsum", {value({}, F32)}, {{"dim", int64_t{0}}});
}

TEST(Scans, SignaturesSplitOtherDims) {
  const TensorMeta x{{5, 3, 4}, F32};
  EXPECT_EQ(listed("cumsum", {x}, {{"dim", int64_t{1}}}),
            (std::set<std::string>{"S(0) -> S(0)", "S(2) -> S(2)", "P -> P"}));
  EXPECT_EQ(listed("cumprod", {x}, {{"dim", int64_t{-1}}}), (std::set<std::string>{"S(0) -> S(0)", "S(1) -> S(1)"}));
  EXPECT_EQ(listed("cumprod_backward", {x, x}, {{"dim", int64_t{0}}}),
            (std::set<std::string>{"S(1), S(1) -> S(1)", "S(2), S(2) -> S(2)", "B, P -> P"}));
  EXPECT_EQ(listed("logcumsumexp", {x}, {{"dim", int64_t{1}}}),
            (std::set<std::string>{"S(0) -> S(0)", "S(2) -> S(2)"}));
  EXPECT_EQ(listed("logcumsumexp_backward", {x, x, x}, {{"dim", int64_t{2}}}),
            (std::set<std::string>{"S(0), S(0), S(0) -> S(0)", "S(1), S(1), S(1) -> S(1)", "B, B, P -> P"}));
  EXPECT_EQ(listed("sort", {x}, {{"dim", int64_t{2}}, {"descending", false}}),
            (std::set<std::string>{"S(0) -> S(0), S(0)", "S(1) -> S(1), S(1)"}));
  EXPECT_EQ(listed("flip", {x}, {{"dims", std::vector<int64_t>{0, -1}}}),
            (std::set<std::string>{"S(1) -> S(1)", "P -> P", "P(max) -> P(max)", "P(min) -> P(min)"}));
}

TEST(Scans, Values) {
  EXPECT_EQ(values_of<double>(run("cumsum", {of<double>({2, 3}, {1, 2, 3, 4, 5, 6}, F64)}, {{"dim", int64_t{1}}})),
            (std::vector<double>{1, 3, 6, 4, 9, 15}));
  EXPECT_EQ(values_of<double>(run("cumsum", {of<double>({2, 3}, {1, 2, 3, 4, 5, 6}, F64)},
                                  {{"dim", int64_t{0}}, {"reverse", true}})),
            (std::vector<double>{5, 7, 9, 4, 5, 6}));
  EXPECT_EQ(values_of<int64_t>(run("cumprod", {of<int64_t>({4}, {2, -3, 0, 5}, I64)}, {{"dim", int64_t{0}}})),
            (std::vector<int64_t>{2, -6, 0, 0}));
  // d/dx_k of sum(cumprod(x)) with zeros in x: [1 + x1 + x1 x2 + ..., ...] without dividing.
  const Tensor x = of<double>({4}, {2, 0, 3, 0}, F64), dy = of<double>({4}, {1, 1, 1, 1}, F64);
  EXPECT_EQ(values_of<double>(run("cumprod_backward", {x, dy}, {{"dim", int64_t{0}}})),
            (std::vector<double>{1, 2 + 2 * 3, 0, 0}));
}

TEST(Sort, EverySignatureMatchesOneDevice) {
  for (const Shape& shape : kShapes) {
    for (int64_t dim = -1; dim < static_cast<int64_t>(shape.size()); ++dim) {
      for (DType dtype : kAll) {
        for (bool descending : {false, true}) {
          sweep("sort", {ties(shape, dtype)}, {{"dim", dim}, {"descending", descending}});
          sweep("sort", {ties(shape, dtype)}, {{"dim", dim}, {"descending", descending}, {"stable", false}});
          // topk: each line's first k (a partial sort), k = 0 and the whole line included.
          const int64_t n = shape[dim < 0 ? shape.size() - 1 : static_cast<size_t>(dim)];
          for (int64_t k : {int64_t{0}, n / 2, n}) {
            sweep("sort", {ties(shape, dtype)}, {{"dim", dim}, {"descending", descending}, {"k", k}});
          }
        }
      }
    }
  }
  sweep("sort", {value({}, F32)}, {{"dim", int64_t{0}}, {"descending", false}});
  for (const char* op : {"mode", "cummax", "cummin"}) {
    for (DType dtype : kAll) sweep(op, {ties({5, 6}, dtype)}, {{"dim", int64_t{1}}});
    sweep(op, {value({}, F32)}, {{"dim", int64_t{0}}});
  }
}

TEST(Sort, StableWithNaNLargest) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor x = of<double>({6}, {2, nan, 1, 2, nan, -1}, F64);
  const Attrs up{{"dim", int64_t{0}}, {"descending", false}}, down{{"dim", int64_t{0}}, {"descending", true}};
  EXPECT_EQ(values_of<int64_t>(run("sort", {x}, up, 1)), (std::vector<int64_t>{5, 2, 0, 3, 1, 4}));
  EXPECT_EQ(values_of<int64_t>(run("sort", {x}, down, 1)), (std::vector<int64_t>{1, 4, 0, 3, 2, 5}));
  const std::vector<double> v = values_of<double>(run("sort", {x}, down));
  EXPECT_TRUE(std::isnan(v[0]) && std::isnan(v[1]));
  EXPECT_EQ(std::vector<double>(v.begin() + 2, v.end()), (std::vector<double>{2, 2, 1, -1}));
  // k (topk): torch's selection picks among ties, NaN included (torch 2's indices).
  const Attrs top3{{"dim", int64_t{0}}, {"descending", true}, {"k", int64_t{3}}};
  EXPECT_EQ(values_of<int64_t>(run("sort", {x}, top3, 1)), (std::vector<int64_t>{1, 4, 3}));
  const Attrs bottom4{{"dim", int64_t{0}}, {"descending", false}, {"k", int64_t{4}}};
  EXPECT_EQ(values_of<int64_t>(run("sort", {x}, bottom4, 1)), (std::vector<int64_t>{5, 2, 3, 0}));
  // Along dim 0 of a [3, 2]: each column on its own.
  EXPECT_EQ(values_of<int64_t>(run("sort", {of<int64_t>({3, 2}, {3, 0, 1, 0, 2, -1}, I64)}, up, 1)),
            (std::vector<int64_t>{1, 2, 2, 0, 0, 1}));
}

TEST(Flip, EverySignatureMatchesOneDevice) {
  const std::vector<std::vector<int64_t>> dim_sets = {{0}, {-1}, {0, 1}, {}};
  for (const Shape& shape : kShapes) {
    for (const auto& dims : dim_sets) {
      if (shape.size() < 2 && dims.size() > 1) continue;
      for (DType dtype : kAll) sweep("flip", {value(shape, dtype)}, {{"dims", dims}});
    }
  }
  sweep("flip", {value({3, 2, 5}, F32)}, {{"dims", std::vector<int64_t>{2, 0}}});
  sweep("flip", {value({3, 2, 5}, F32)}, {{"dims", std::vector<int64_t>{1}}});
  EXPECT_EQ(values_of<int64_t>(run("flip", {of<int64_t>({2, 3}, {1, 2, 3, 4, 5, 6}, I64)},
                                   {{"dims", std::vector<int64_t>{0, 1}}})),
            (std::vector<int64_t>{6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(values_of<int64_t>(run("flip", {of<int64_t>({2, 3}, {1, 2, 3, 4, 5, 6}, I64)},
                                   {{"dims", std::vector<int64_t>{0}}})),
            (std::vector<int64_t>{4, 5, 6, 1, 2, 3}));
}

TEST(Flip, BadInput) {
  expect_error([] { run("flip", {value({2, 3}, F32)}, {{"dims", std::vector<int64_t>{1, -1}}}); }, "twice");
  expect_error([] { run("flip", {value({2, 3}, F32)}, {{"dims", std::vector<int64_t>{2}}}); }, "out of range");
  expect_error([] { run("sort", {value({2, 3}, F32)}, {{"dim", int64_t{2}}, {"descending", false}}); },
               "out of range");
}

}  // namespace
}  // namespace mf
