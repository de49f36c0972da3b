// Copyright 2026 The meshflow Authors.
// Elementwise ops under mpirun: every op, every valid signature on every mesh against the
// single-device result (op_check.h), with even, uneven and zero-size shapes, broadcast
// pairs and every dtype the op takes; the exact partial signatures each op lists (the
// subtle part: which ops pass sums, maxima, minima); integer semantics; bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "meshflow/ops/dispatch.h"
#include "tests/cpp/op_check.h"

namespace mf {
namespace {

using namespace test;               // NOLINT: the suite's helpers
using namespace test::elementwise;  // NOLINT: filled, sweep, ...

constexpr DType F32 = DType::kFloat32, F64 = DType::kFloat64, I32 = DType::kInt32, I64 = DType::kInt64,
                B8 = DType::kBool;
const std::vector<DType> kAll = {F32, F64, I32, I64}, kFloats = {F32, F64};
const std::vector<Shape> kShapes = {{5, 3}, {4, 6}, {0, 3}, {7}};
// Second operands that broadcast against the first: trailing dims, size-1 dims both ways,
// an extra leading dim, an empty dim, a 0-d tensor.
const std::vector<std::pair<Shape, Shape>> kBroadcastPairs = {
    {{5, 3}, {3}}, {{1, 3}, {5, 1}}, {{2, 5, 3}, {5, 1}}, {{4, 6}, {4, 1}}, {{0, 3}, {1, 3}}, {{7}, {}}};

// Exponents 0..3 (and -2..3 for integers, where a negative exponent has its own rule).
Tensor exponent(const Shape& shape, DType dtype) {
  const bool integer = dtype == I32 || dtype == I64;
  return filled(shape, dtype, [integer](int64_t i) { return integer ? i % 6 - 2 : i % 4; });
}
// 0, 1 and -2 (any nonzero value is true).
Tensor condition(const Shape& shape, DType dtype) {
  return filled(shape, dtype, [](int64_t i) { return i % 3 == 0 ? 0 : i % 3 == 1 ? 1 : -2; });
}

TEST(ElementwiseUnary, EverySignatureMatchesOneDevice) {
  sweep_unary({
      {"neg", kAll, value},      {"abs", kAll, value},       {"relu", kAll, value},     {"trunc", kAll, value},
      {"exp", kAll, value},      {"tanh", kAll, value},      {"sigmoid", kAll, value},  {"gelu", kFloats, value},
      {"silu", kFloats, value},  {"log", kAll, positive},    {"sqrt", kAll, positive},  {"rsqrt", kAll, positive}},
      kShapes);
}

TEST(ElementwiseUnary, CastEverySignatureMatchesOneDevice) {
  for (DType from : kAll) {
    for (DType to : kAll) sweep("cast", {value({5, 3}, from)}, {{"dtype", to}});
  }
  for (const Shape& shape : kShapes) sweep("cast", {value(shape, F32)}, {{"dtype", I64}});
}

struct BinaryCase {
  const char* op;
  std::vector<DType> dtypes;
  Tensor (*second)(const Shape&, DType);
};

const std::vector<BinaryCase>& binary_cases() {
  static const std::vector<BinaryCase> cases = {
      {"add", kAll, value},     {"sub", kAll, value},         {"mul", kAll, value},     {"div", kAll, divisor},
      {"floor_divide", kAll, divisor}, {"maximum", kAll, value}, {"minimum", kAll, value}, {"pow", kAll, exponent},
      {"eq", kAll, value},      {"ne", kAll, value},          {"lt", kAll, value},      {"le", kAll, value},
      {"gt", kAll, value},      {"ge", kAll, value}};
  return cases;
}

TEST(ElementwiseBinary, EverySignatureMatchesOneDevice) {
  for (const BinaryCase& c : binary_cases()) {
    for (const Shape& shape : kShapes) {
      for (DType dtype : {F32, I64}) sweep(c.op, {value(shape, dtype), c.second(shape, dtype)});
    }
    for (DType dtype : {F64, I32}) sweep(c.op, {value({5, 3}, dtype), c.second({5, 3}, dtype)});
  }
}

TEST(ElementwiseBinary, BroadcastEverySignatureMatchesOneDevice) {
  for (const BinaryCase& c : binary_cases()) {
    for (size_t i = 0; i < kBroadcastPairs.size(); ++i) {
      const auto& [a, b] = kBroadcastPairs[i];
      const DType dtype = i % 2 ? I64 : F32;
      sweep(c.op, {value(a, dtype), c.second(b, dtype)});
      sweep(c.op, {c.second(b, dtype), c.second(a, dtype)});
    }
  }
}

TEST(ElementwiseWhere, EverySignatureMatchesOneDevice) {
  for (const Shape& shape : kShapes) {
    for (DType dtype : {F32, I64}) {
      sweep("where", {condition(shape, I32), value(shape, dtype), positive(shape, dtype)});
    }
  }
  // Three-way broadcasting, a condition of another dtype than the values.
  sweep("where", {condition({5, 1}, F32), value({3}, I64), positive({5, 3}, I64)});
  sweep("where", {condition({2, 1, 3}, I64), value({5, 1}, F64), positive({}, F64)});
  sweep("where", {condition({0, 3}, F64), value({1, 3}, F32), positive({3}, F32)});
}

TEST(ElementwiseScalar, EverySignatureMatchesOneDevice) {
  const std::vector<std::pair<const char*, std::vector<Attrs>>> float_cases = {
      {"add_scalar", {{{"value", 2.5}}, {{"value", -3.0}}}},
      {"mul_scalar", {{{"value", 2.5}}, {{"value", -3.0}}, {{"value", 0.0}}}},
      {"div_scalar", {{{"value", 4.0}}, {{"value", -2.0}}}},
      {"pow_scalar", {{{"value", 2.0}}, {{"value", 3.0}}}},
      {"rpow_scalar", {{{"value", 2.0}}, {{"value", 0.5}}, {{"value", -2.0}}}}};
  const std::vector<std::pair<const char*, std::vector<Attrs>>> int_cases = {
      {"add_scalar", {{{"value", int64_t{3}}}}},
      {"mul_scalar", {{{"value", int64_t{3}}}, {{"value", int64_t{-2}}}}},
      {"div_scalar", {{{"value", int64_t{3}}}, {{"value", int64_t{-2}}}}},
      {"pow_scalar", {{{"value", int64_t{3}}}}},
      {"rpow_scalar", {{{"value", int64_t{2}}}, {{"value", int64_t{-3}}}}}};
  for (const Shape& shape : kShapes) {
    for (const auto& [op, variants] : float_cases) {
      for (const Attrs& attrs : variants) sweep(op, {value(shape, F32)}, attrs);
    }
    for (const auto& [op, variants] : int_cases) {
      for (const Attrs& attrs : variants) sweep(op, {value(shape, I64)}, attrs);
    }
  }
  // Positive bases: 0 ** -1 is inf, which close() cannot compare.
  for (double s : {0.5, -1.0}) sweep("pow_scalar", {positive({5, 3}, F64)}, {{"value", s}});
  sweep("mul_scalar", {value({5, 3}, I32)}, {{"value", int64_t{-3}}});
}

std::set<std::string> with_splits(std::set<std::string> partial, const std::set<std::string>& splits) {
  partial.insert(splits.begin(), splits.end());
  return partial;
}

// uint8, int8 and int16 wrap around (values -20..20 are 236..255 and 0..20 in uint8).
TEST(ElementwiseSmallInts, EverySignatureMatchesOneDevice) {
  const std::vector<DType> small = {DType::kUInt8, DType::kInt8, DType::kInt16};
  sweep_unary({{"neg", small, value}, {"abs", small, value}, {"relu", small, value}, {"exp", small, value},
               {"sqrt", small, positive}, {"bitwise_not", small, value}, {"logical_not", small, value}},
              {{5, 3}, {7}});
  for (DType dtype : small) {
    for (const BinaryCase& c : binary_cases()) sweep(c.op, {value({5, 3}, dtype), c.second({5, 3}, dtype)});
    sweep("add", {value({5, 3}, dtype), value({3}, dtype)});
    for (const char* op : {"bitwise_and", "bitwise_xor", "logical_or"}) {
      sweep(op, {value({5, 3}, dtype), positive({5, 3}, dtype)});
    }
    sweep("where", {condition({5, 3}, dtype), value({5, 3}, dtype), positive({5, 3}, dtype)});
    for (DType other : {F32, F64, I32, I64, B8, DType::kUInt8, DType::kInt8, DType::kInt16}) {
      sweep("cast", {value({5, 3}, dtype)}, {{"dtype", other}});
      sweep("cast", {value({5, 3}, other)}, {{"dtype", dtype}});
    }
    // A scalar is taken modulo 2^bits (300 is 44 in uint8), as torch.
    for (int64_t s : {int64_t{3}, int64_t{-2}, int64_t{300}}) {
      sweep("add_scalar", {value({5, 3}, dtype)}, {{"value", s}});
      sweep("mul_scalar", {value({5, 3}, dtype)}, {{"value", s}});
    }
    sweep("div_scalar", {value({5, 3}, dtype)}, {{"value", int64_t{3}}});
    sweep("pow_scalar", {value({5, 3}, dtype)}, {{"value", int64_t{2}}});
  }
}

TEST(ElementwiseSignatures, PartialOnlyWhereExact) {
  const TensorMeta x{{5, 3}, F32}, xi{{5, 3}, I64};
  const std::set<std::string> s1 = {"S(0) -> S(0)", "S(1) -> S(1)"};
  const std::set<std::string> monotone = {"P(max) -> P(max)", "P(min) -> P(min)"};
  EXPECT_EQ(listed("neg", {x}), with_splits({"P -> P", "P(max) -> P(min)", "P(min) -> P(max)"}, s1));
  for (const char* op : {"relu", "exp", "tanh", "sigmoid", "trunc"}) {
    EXPECT_EQ(listed(op, {x}), with_splits(monotone, s1)) << op;
  }
  for (const char* op : {"abs", "gelu", "silu", "log", "sqrt", "rsqrt"}) EXPECT_EQ(listed(op, {x}), s1) << op;
  EXPECT_EQ(listed("cast", {x}, {{"dtype", F64}}), with_splits({"P -> P", "P(max) -> P(max)", "P(min) -> P(min)"}, s1));
  EXPECT_EQ(listed("cast", {x}, {{"dtype", I64}}), with_splits(monotone, s1));
  EXPECT_EQ(listed("cast", {{{5, 3}, I64}}, {{"dtype", F32}}), with_splits(monotone, s1));
  // An integer narrowing wraps (2^31 becomes the lowest int32): no max or min passes it; an
  // integer sum wraps where a wider one would not: P passes only a float widening.
  EXPECT_EQ(listed("cast", {{{5, 3}, I64}}, {{"dtype", DType::kInt32}}), s1);
  EXPECT_EQ(listed("cast", {{{5, 3}, DType::kInt32}}, {{"dtype", I64}}), with_splits(monotone, s1));

  const std::set<std::string> s2 = {"S(0), S(0) -> S(0)", "S(1), S(1) -> S(1)"};
  const std::set<std::string> max_min_both = {"P(max), B -> P(max)", "P(min), B -> P(min)", "B, P(max) -> P(max)",
                                              "B, P(min) -> P(min)"};
  EXPECT_EQ(listed("add", {x, x}), with_splits(with_splits({"P, P -> P"}, max_min_both), s2));
  EXPECT_EQ(listed("sub", {x, x}), with_splits({"P, P -> P", "P(max), B -> P(max)", "P(min), B -> P(min)",
                                                "B, P(max) -> P(min)", "B, P(min) -> P(max)"}, s2));
  EXPECT_EQ(listed("mul", {x, x}), with_splits({"P, B -> P", "B, P -> P"}, s2));
  EXPECT_EQ(listed("div", {x, x}), with_splits({"P, B -> P"}, s2));
  EXPECT_EQ(listed("div", {xi, xi}), s2);
  // Integers wrap at their range: adding, subtracting, negating and scaling keep sums but
  // no order (the largest int32 plus 1 is the lowest).
  EXPECT_EQ(listed("add", {xi, xi}), with_splits({"P, P -> P"}, s2));
  EXPECT_EQ(listed("sub", {xi, xi}), with_splits({"P, P -> P"}, s2));
  EXPECT_EQ(listed("neg", {xi}), with_splits({"P -> P"}, s1));
  EXPECT_EQ(listed("add_scalar", {xi}, {{"value", int64_t{1}}}), s1);
  EXPECT_EQ(listed("mul_scalar", {xi}, {{"value", int64_t{-3}}}), with_splits({"P -> P"}, s1));
  EXPECT_EQ(listed("maximum", {x, x}), with_splits(with_splits({"P(max), P(max) -> P(max)"}, max_min_both), s2));
  EXPECT_EQ(listed("minimum", {x, x}), with_splits(with_splits({"P(min), P(min) -> P(min)"}, max_min_both), s2));
  EXPECT_EQ(listed("gt", {x, x}), with_splits({"P(max), B -> P(max)", "P(min), B -> P(min)", "B, P(max) -> P(min)",
                                               "B, P(min) -> P(max)"}, s2));
  for (const char* op : {"pow", "eq", "ne", "floor_divide"}) EXPECT_EQ(listed(op, {x, x}), s2) << op;
  EXPECT_EQ(listed("where", {x, x, x}),
            with_splits({"B, P, P -> P", "B, P(max), B -> P(max)", "B, P(min), B -> P(min)", "B, B, P(max) -> P(max)",
                         "B, B, P(min) -> P(min)", "B, P(max), P(max) -> P(max)", "B, P(min), P(min) -> P(min)"},
                        {"S(0), S(0), S(0) -> S(0)", "S(1), S(1), S(1) -> S(1)"}));

  EXPECT_EQ(listed("mul_scalar", {x}, {{"value", -2.0}}),
            with_splits({"P -> P", "P(max) -> P(min)", "P(min) -> P(max)"}, s1));
  EXPECT_EQ(listed("div_scalar", {x}, {{"value", 0.0}}), s1);
  EXPECT_EQ(listed("div_scalar", {xi}, {{"value", int64_t{2}}}), with_splits(monotone, s1));
  EXPECT_EQ(listed("add_scalar", {x}, {{"value", 1.0}}), with_splits(monotone, s1));
  EXPECT_EQ(listed("rpow_scalar", {x}, {{"value", 0.5}}), with_splits({"P(max) -> P(min)", "P(min) -> P(max)"}, s1));
  EXPECT_EQ(listed("rpow_scalar", {xi}, {{"value", 0.5}}), s1);  // 0.5 is 0 in int64
}

Tensor local(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs = {}) {
  return apply_local(find_op(op), inputs, attrs)[0];
}

Tensor ints(const std::vector<int64_t>& values) {
  return filled({static_cast<int64_t>(values.size())}, I64, [&](int64_t i) { return values[i]; });
}

Tensor bools(const std::vector<int64_t>& values) {
  return filled({static_cast<int64_t>(values.size())}, B8, [&](int64_t i) { return values[i]; });
}

TEST(ElementwiseIntegers, PyTorchSemantics) {
  const Tensor a = ints({7, -7, 7, -7, INT64_MIN, 5}), b = ints({2, 2, -2, -2, -1, 1});
  EXPECT_TRUE(close(local("div", {a, b}), ints({3, -3, -3, 3, INT64_MIN, 5}), 0));
  EXPECT_TRUE(close(local("floor_divide", {a, b}), ints({3, -4, -4, 3, INT64_MIN, 5}), 0));
  EXPECT_TRUE(close(local("pow", {ints({2, 1, -1, -1, 3, 0}), ints({10, -5, -3, -4, -1, 0})}),
                    ints({1024, 1, -1, 1, 0, 1}), 0));
  EXPECT_TRUE(close(local("lt", {a, b}), bools({0, 1, 0, 1, 1, 0}), 0));
  EXPECT_TRUE(close(local("cast", {local("exp", {ints({0})})}, {{"dtype", I64}}), ints({1}), 0));
  EXPECT_EQ(local("sqrt", {ints({4})}).dtype(), F32);
  // An empty result divides nothing.
  EXPECT_EQ(local("div", {value({0, 3}, I64), ints({0, 1, 2})}).numel(), 0);
}

// Integers wrap around modulo 2^bits, as in PyTorch and NumPy (UBSan checks that no signed
// overflow happens on the way): sums, differences, products, scalars, abs, neg, reductions.
TEST(ElementwiseIntegers, OverflowWrapsAround) {
  const Tensor a = ints({INT64_MAX, INT64_MIN, INT64_MAX, INT64_MIN, 3});
  const Tensor b = ints({1, -1, 2, INT64_MIN, INT64_MAX});
  EXPECT_TRUE(close(local("add", {a, b}), ints({INT64_MIN, INT64_MAX, INT64_MIN + 1, 0, INT64_MIN + 2}), 0));
  EXPECT_TRUE(close(local("sub", {a, b}), ints({INT64_MAX - 1, INT64_MIN + 1, INT64_MAX - 2, 0, INT64_MIN + 4}), 0));
  EXPECT_TRUE(close(local("mul", {a, b}), ints({INT64_MAX, INT64_MIN, -2, 0, INT64_MAX - 2}), 0));
  EXPECT_TRUE(close(local("add_scalar", {a}, {{"value", int64_t{1}}}), ints({INT64_MIN, INT64_MIN + 1, INT64_MIN, INT64_MIN + 1, 4}), 0));
  EXPECT_TRUE(close(local("mul_scalar", {a}, {{"value", int64_t{2}}}), ints({-2, 0, -2, 0, 6}), 0));
  EXPECT_TRUE(close(local("abs", {a}), ints({INT64_MAX, INT64_MIN, INT64_MAX, INT64_MIN, 3}), 0));
  EXPECT_TRUE(close(local("neg", {a}), ints({INT64_MIN + 1, INT64_MIN, INT64_MIN + 1, INT64_MIN, -3}), 0));
  EXPECT_TRUE(close(local("sum", {ints({INT64_MAX, 1, INT64_MAX, 2})}, {{"dims", std::vector<int64_t>{0}}}),
                    filled({}, I64, [](int64_t) { return int64_t{1}; }), 0));
  const Tensor i32 = filled({2}, I32, [](int64_t i) { return i ? INT32_MIN : INT32_MAX; });
  EXPECT_TRUE(close(local("add", {i32, i32}), filled({2}, I32, [](int64_t i) { return i ? 0 : -2; }), 0));
  EXPECT_EQ(local("sum", {i32}, {{"dims", std::vector<int64_t>{0}}}).dtype(), I64);  // summed in int64: exact
}

// clamp and hardtanh (number bounds) and their backward ops: every signature on every mesh,
// every dtype clamp takes; clamp is nondecreasing (maxima and minima pass), its backward
// linear in dy; the values at bounds, NaN and crossed bounds are torch's.
TEST(ElementwiseClamp, EverySignatureMatchesOneDeviceAndTorchsValues) {
  const Attrs both{{"min", -2.0}, {"max", 3.0}};
  for (const Shape& shape : kShapes) {
    for (DType dtype : kAll) sweep("clamp", {value(shape, dtype)}, both);
    sweep("clamp", {value(shape, F32)}, {{"min", 0.5}});
    sweep("hardtanh", {value(shape, F64)}, both);
    for (const char* op : {"clamp_backward", "hardtanh_backward"}) {
      sweep(op, {value(shape, F32), positive(shape, F32)}, both);
    }
  }
  // dy broadcast (a sum's gradient, not expanded).
  for (const Shape& dy : std::vector<Shape>{{1, 3}, {5, 1}, {}}) {
    for (const char* op : {"clamp_backward", "hardtanh_backward"}) sweep(op, {value({5, 3}, F32), positive(dy, F32)}, both);
  }
  for (DType dtype : {DType::kUInt8, DType::kInt8, DType::kInt16}) {
    sweep("clamp", {value({5, 3}, dtype)}, {{"min", int64_t{2}}, {"max", int64_t{9}}});
  }
  const TensorMeta x{{5, 3}, F32};
  const std::set<std::string> s1 = {"S(0) -> S(0)", "S(1) -> S(1)"};
  EXPECT_EQ(listed("clamp", {x}, both), with_splits({"P(max) -> P(max)", "P(min) -> P(min)"}, s1));
  EXPECT_EQ(listed("clamp_backward", {x, x}, both), with_splits({"B, P -> P"}, {"S(0), S(0) -> S(0)", "S(1), S(1) -> S(1)"}));
  EXPECT_EQ(listed("clamp_backward", {x, {{5, 1}, F32}}, both),
            with_splits({"B, P -> P"}, {"S(0), S(0) -> S(0)", "S(1), B -> S(1)"}));
  expect_error([&] { local("hardtanh_backward", {value({5, 3}, F32), value({3, 3}, F32)}, both); },
               "[hardtanh_backward] dy has shape [3, 3]; expected x's shape [5, 3] or one that broadcasts to it");

  const std::vector<double> xs = {-INFINITY, -2, 0, 3, INFINITY, NAN};
  const Tensor t = filled({6}, F64, [&](int64_t i) { return xs[i]; });
  const Tensor dy = filled({6}, F64, [](int64_t) { return 1; });
  const auto f64 = [](std::vector<double> v) { return filled({6}, F64, [v](int64_t i) { return v[i]; }); };
  EXPECT_TRUE(close(local("clamp", {t}, both), f64({-2, -2, 0, 3, 3, NAN}), 0));
  EXPECT_TRUE(close(local("clamp", {t}, {{"min", 1.0}, {"max", -1.0}}), f64({-1, -1, -1, -1, -1, NAN}), 0));
  EXPECT_TRUE(close(local("clamp", {t}, {{"max", NAN}}), f64({NAN, NAN, NAN, NAN, NAN, NAN}), 0));
  EXPECT_TRUE(close(local("clamp_backward", {t, dy}, both), f64({0, 0, 1, 0, 0, 0}), 0));
  EXPECT_TRUE(close(local("clamp_backward", {t, dy}, {{"max", 3.0}}), f64({1, 1, 1, 0, 0, 0}), 0));
  EXPECT_TRUE(close(local("hardtanh_backward", {t, dy}, both), f64({0, 0, 1, 0, 0, 1}), 0));
  EXPECT_TRUE(close(local("clamp", {ints({INT64_MAX, -5, 7})}, {{"min", int64_t{-3}}, {"max", INT64_MAX - 1}}),
                    ints({INT64_MAX - 1, -3, 7}), 0));
  expect_error([&] { local("clamp", {t}); }, "[clamp] has neither min nor max; expected at least one bound");
  expect_error([&] { local("hardtanh", {t}, {{"min", 1.0}}); }, "[hardtanh] needs both min and max");
  // An integer bound past the dtype's range changes nothing on its side, and is refused past
  // the other end (torch's); a float bound truncates toward zero.
  const std::vector<int64_t> i8s = {-100, 0, 100};
  const Tensor i8 = filled({3}, DType::kInt8, [&](int64_t i) { return i8s[i]; });
  const auto as_i8 = [](std::vector<int64_t> v) { return filled({3}, DType::kInt8, [v](int64_t i) { return v[i]; }); };
  EXPECT_TRUE(close(local("clamp", {i8}, {{"min", int64_t{-1000}}, {"max", int64_t{300}}}), as_i8({-100, 0, 100}), 0));
  EXPECT_TRUE(close(local("hardtanh", {i8}, {{"min", -2.5}, {"max", 4.5}}), as_i8({-2, 0, 4}), 0));
  expect_error([&] { local("clamp", {value({3}, DType::kInt8)}, {{"min", int64_t{300}}}); },
               "[clamp] min 300 is outside the representable range of int8; expected at most 127");
  expect_error([&] { local("clamp", {value({3}, F32)}, {{"max", 1e39}}); },
               "[clamp] max 1e+39 cannot be converted to type float32 without overflow");
  expect_error([&] { local("clamp_backward", {ints({1, 2, 3, 4, 5, 6}), ints({1, 2, 3, 4, 5, 6})}, both); },
               "[clamp_backward] x is int64; expected a float dtype");
}

TEST(ElementwiseBadInput, ClearErrors) {
  const Tensor x = value({4, 3}, F32), xi = value({4, 3}, I64);
  expect_error([&] { local("maximum", {x, xi}); }, "[maximum] dtypes differ: float32 and int64");
  expect_error([&] { local("pow", {x, value({4, 5}, F32)}); }, "[pow] shapes [4, 3] and [4, 5] cannot be broadcast");
  expect_error([&] { local("div", {xi, ints({1, 0, 2})}); }, "[div] integer division by zero");
  expect_error([&] { local("floor_divide", {xi, ints({0})}); }, "[floor_divide] integer division by zero");
  expect_error([&] { local("div_scalar", {xi}, {{"value", int64_t{0}}}); }, "[div_scalar] integer division by zero");
  expect_error([&] { local("pow_scalar", {xi}, {{"value", int64_t{-1}}}); },
               "[pow_scalar] integers to negative integer powers are not allowed");
  expect_error([&] { local("gelu", {xi}); }, "[gelu] is defined for float32 and float64, got int64");
  expect_error([&] { local("silu", {xi}); }, "[silu] is defined for float32 and float64, got int64");
  expect_error([&] { local("where", {xi, x, xi}); }, "[where] dtypes differ: float32 and int64");
  expect_error([&] { local("where", {value({2}, I64), x, x}); }, "[where] shapes [2] and [4, 3] cannot be broadcast");
  expect_error([&] { local("cast", {x}); }, "[cast] missing attribute 'dtype'");
  expect_error([&] { local("add_scalar", {x}, {{"value", true}}); }, "[add_scalar] attribute 'value' is not a float");
  expect_error([&] { local("exp", {x, x}); }, "[exp] takes 1 inputs, got 2");
}

TEST(ElementwiseBadInput, IntegerDivisionByZeroOnGlobalTensors) {
  const Placement all = first_ranks({comm::world_size()});
  const Tensor zeros = Tensor::zeros({3}, I64);  // every rank of up to 8 holds rows to divide
  expect_error([&] { apply_global(find_op("div"), {make_source(value({8, 3}, I64), all, {Sbp::split(0)}),
                                                   make_source(zeros, all, {Sbp::broadcast()})}, {}); },
               "[div] integer division by zero");
  // The job stays usable.
  EXPECT_TRUE(close(gather_full(make_source(value({3, 2}, F32), all, {Sbp::split(0)})), value({3, 2}, F32), 0));
}

// ---------------------------------------------------------------------------------------
// bool: casts, comparisons, logical and bitwise ops, predicates, where, any/all (amax and
// amin) and sum, on every mesh and the test device.

const std::vector<DType> kWithBool = {F32, F64, I32, I64, B8};

TEST(ElementwiseBool, CastsToAndFromEveryDtype) {
  for (DType from : kWithBool) {
    for (DType to : kWithBool) sweep("cast", {value({5, 3}, from)}, {{"dtype", to}});
  }
  for (const Shape& shape : kShapes) sweep("cast", {value(shape, B8)}, {{"dtype", F32}});
  // Nonzero is true (NaN and fractions too); true is 1.
  const Tensor x = filled({5}, F32, [](int64_t i) { return std::vector<double>{0, 0.5, -2, NAN, -0.0}[i]; });
  EXPECT_TRUE(close(local("cast", {x}, {{"dtype", B8}}), bools({0, 1, 1, 1, 0}), 0));
  EXPECT_TRUE(close(local("cast", {bools({1, 0})}, {{"dtype", I64}}), ints({1, 0}), 0));
  EXPECT_TRUE(close(local("cast", {ints({0, 7, -1})}, {{"dtype", B8}}), bools({0, 1, 1}), 0));
  EXPECT_TRUE(close(local("cast", {local("cast", {bools({1, 0})}, {{"dtype", DType::kBFloat16}})}, {{"dtype", B8}}),
                    bools({1, 0}), 0));
}

// float16: casts to and from every dtype, moves, and arithmetic in float32.
TEST(ElementwiseFloat16, CastsRoundToNearestEven) {
  constexpr DType F16 = DType::kFloat16;
  for (DType other : {F32, F64, I32, I64, B8, DType::kBFloat16, F16}) {
    const Tensor source =
        is_half(other) ? local("cast", {value({5, 3}, F32)}, {{"dtype", other}}) : value({5, 3}, other);
    sweep("cast", {source}, {{"dtype", F16}});
    sweep("cast", {local("cast", {source}, {{"dtype", F16}})}, {{"dtype", other}});
  }
  sweep("permute", {local("cast", {value({4, 6}, F32)}, {{"dtype", F16}})}, {{"dims", std::vector<int64_t>{1, 0}}});
  // Every half widens exactly and rounds back to itself; between two halves, to even.
  Tensor all = Tensor::empty({65536}, F16);
  for (int64_t i = 0; i < 65536; ++i) all.data_as<float16>()[i] = float16{static_cast<uint16_t>(i)};
  const Tensor wide = local("cast", {all}, {{"dtype", F32}}), back = local("cast", {wide}, {{"dtype", F16}});
  for (int64_t i = 0; i < 65536; ++i) {
    const uint16_t bits = static_cast<uint16_t>(i);
    const bool nan = (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff);
    EXPECT_TRUE(nan ? std::isnan(wide.data_as<float>()[i]) : back.data_as<float16>()[i].bits == bits) << i;
  }
  const Tensor between = filled({6}, F32, [](int64_t i) {
    return std::vector<double>{1 + 0x1p-11, 1 + 3 * 0x1p-11, 65520, 65519, 0x1p-25, 3 * 0x1p-25}[i];
  });
  const Tensor rounded = local("cast", {between}, {{"dtype", F16}});
  const std::vector<uint16_t> expected = {0x3c00, 0x3c02, 0x7c00, 0x7bff, 0x0000, 0x0002};
  for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(rounded.data_as<float16>()[i].bits, expected[i]) << i;
  // Arithmetic computes in float32 and rounds once (ops/op.h, "Halves").
  const Tensor twice = local("add", {all, all});
  ASSERT_EQ(twice.dtype(), F16);
  for (int64_t i = 0; i < 65536; ++i) {
    const float x = to_float(all.data_as<float16>()[i]);
    if (!std::isnan(x)) {
      EXPECT_EQ(twice.data_as<float16>()[i].bits, to_float16(x + x).bits) << i;
    }
  }
}

TEST(ElementwiseBool, ComparisonsGiveBool) {
  for (const char* op : {"eq", "ne", "lt", "le", "gt", "ge"}) {
    for (DType dtype : kWithBool) {
      EXPECT_EQ(local(op, {value({3}, dtype), value({3}, dtype)}).dtype(), B8) << op;
      sweep(op, {value({5, 3}, dtype), value({3}, dtype)});
    }
  }
  EXPECT_TRUE(close(local("lt", {bools({0, 0, 1, 1}), bools({0, 1, 0, 1})}), bools({0, 1, 0, 0}), 0));
}

TEST(ElementwiseBool, LogicalBitwiseAndPredicates) {
  for (const char* op : {"logical_and", "logical_or", "logical_xor"}) {
    for (DType dtype : kWithBool) sweep(op, {value({5, 3}, dtype), condition({5, 1}, dtype)});
    for (const Shape& shape : kShapes) sweep(op, {value(shape, B8), condition(shape, B8)});
  }
  for (const char* op : {"bitwise_and", "bitwise_or", "bitwise_xor"}) {
    for (DType dtype : {I32, I64, B8}) sweep(op, {value({5, 3}, dtype), value({3}, dtype)});
  }
  for (DType dtype : kWithBool) {
    sweep("logical_not", {value({4, 6}, dtype)});
    for (const char* op : {"isnan", "isinf", "isfinite"}) sweep(op, {value({4, 6}, dtype)});
  }
  for (DType dtype : {I32, I64, B8}) sweep("bitwise_not", {value({4, 6}, dtype)});
  for (const char* op : {"bitwise_left_shift", "bitwise_right_shift"}) {
    for (DType dtype : {I32, I64}) sweep(op, {value({5, 3}, dtype), value({3}, dtype)});
  }
  // torch's values: negative and oversized shifts give 0 (<<) or the sign (>>).
  const Tensor x = ints({5, -5, 1, -1, 100, -7}), s = ints({1, 1, -1, -1, 70, 64});
  EXPECT_TRUE(close(local("bitwise_left_shift", {x, s}), ints({10, -10, 0, 0, 0, 0}), 0));
  EXPECT_TRUE(close(local("bitwise_right_shift", {x, s}), ints({2, -3, 0, -1, 0, -1}), 0));
  const Tensor a = ints({12, -1, 0, 5}), b = ints({10, 6, -3, -5});
  EXPECT_TRUE(close(local("bitwise_and", {a, b}), ints({8, 6, 0, 1}), 0));
  EXPECT_TRUE(close(local("bitwise_or", {a, b}), ints({14, -1, -3, -1}), 0));
  EXPECT_TRUE(close(local("bitwise_xor", {a, b}), ints({6, -7, -3, -2}), 0));
  EXPECT_TRUE(close(local("bitwise_not", {a}), ints({-13, 0, -1, -6}), 0));
  EXPECT_TRUE(close(local("bitwise_not", {bools({1, 0})}), bools({0, 1}), 0));
  EXPECT_TRUE(close(local("logical_and", {a, b}), bools({1, 1, 0, 1}), 0));
  EXPECT_TRUE(close(local("logical_xor", {a, ints({0, 0, 0, 1})}), bools({1, 1, 0, 0}), 0));
  EXPECT_TRUE(close(local("logical_not", {a}), bools({0, 0, 1, 0}), 0));
  const Tensor special =
      filled({4}, F64, [](int64_t i) { return std::vector<double>{1, NAN, INFINITY, -INFINITY}[i]; });
  EXPECT_TRUE(close(local("isnan", {special}), bools({0, 1, 0, 0}), 0));
  EXPECT_TRUE(close(local("isinf", {special}), bools({0, 0, 1, 1}), 0));
  EXPECT_TRUE(close(local("isfinite", {special}), bools({1, 0, 0, 0}), 0));
  sweep("isnan", {special});
  EXPECT_TRUE(close(local("isfinite", {a}), bools({1, 1, 1, 1}), 0));
}

TEST(ElementwiseBool, WhereAnyAllSum) {
  for (const Shape& shape : kShapes) {
    for (DType dtype : kWithBool) sweep("where", {condition(shape, B8), value(shape, dtype), positive(shape, dtype)});
  }
  sweep("where", {condition({5, 1}, B8), value({3}, B8), condition({5, 3}, B8)});
  const std::vector<Attrs> dims = {{{"dims", std::vector<int64_t>{}}},
                                   {{"dims", std::vector<int64_t>{0}}, {"keepdim", true}},
                                   {{"dims", std::vector<int64_t>{1}}}};
  for (const char* op : {"amax", "amin", "sum", "prod"}) {
    for (const Attrs& attrs : dims) {
      sweep(op, {value({5, 3}, B8)}, attrs);
      sweep(op, {condition({4, 6}, B8)}, attrs);
    }
  }
  // prod of every dtype (integers and bool in int64), empty reductions giving 1.
  for (DType dtype : {F32, F64, I32, I64}) {
    for (const Attrs& attrs : dims) sweep("prod", {divisor({5, 3}, dtype)}, attrs);
  }
  sweep("prod", {value({0, 3}, F32)}, {{"dims", std::vector<int64_t>{0}}});
  EXPECT_TRUE(close(local("prod", {ints({3, -2, 5})}, {{"dims", std::vector<int64_t>{}}}),
                    filled({}, I64, [](int64_t) { return -30; }), 0));
  const Tensor x = filled({2, 3}, B8, [](int64_t i) { return i == 1 || i >= 3; });  // [[0, 1, 0], [1, 1, 1]]
  const Attrs rows{{"dims", std::vector<int64_t>{1}}};
  EXPECT_TRUE(close(local("amax", {x}, rows), filled({2}, B8, [](int64_t) { return 1; }), 0));
  EXPECT_TRUE(close(local("amin", {x}, rows), filled({2}, B8, [](int64_t i) { return i; }), 0));
  EXPECT_TRUE(close(local("sum", {x}, rows), filled({2}, I64, [](int64_t i) { return i ? 3 : 1; }), 0));
}

TEST(ElementwiseBool, PartialSignatures) {
  const TensorMeta b{{5, 3}, B8}, xi{{5, 3}, I64}, x{{5, 3}, F32};
  const std::set<std::string> s1 = {"S(0) -> S(0)", "S(1) -> S(1)"};
  const std::set<std::string> s2 = {"S(0), S(0) -> S(0)", "S(1), S(1) -> S(1)"};
  const std::set<std::string> monotone = {"P(max), B -> P(max)", "P(min), B -> P(min)", "B, P(max) -> P(max)",
                                          "B, P(min) -> P(min)"};
  EXPECT_EQ(listed("logical_or", {b, b}), with_splits(with_splits({"P(max), P(max) -> P(max)"}, monotone), s2));
  EXPECT_EQ(listed("logical_and", {b, b}), with_splits(with_splits({"P(min), P(min) -> P(min)"}, monotone), s2));
  EXPECT_EQ(listed("bitwise_or", {b, b}), listed("logical_or", {b, b}));
  // x != 0 keeps no order: nothing partial passes a logical op of integers.
  EXPECT_EQ(listed("logical_or", {xi, xi}), s2);
  EXPECT_EQ(listed("bitwise_and", {xi, xi}), s2);
  EXPECT_EQ(listed("logical_xor", {b, b}), s2);
  EXPECT_EQ(listed("logical_not", {b}), with_splits({"P(max) -> P(min)", "P(min) -> P(max)"}, s1));
  EXPECT_EQ(listed("logical_not", {xi}), s1);
  EXPECT_EQ(listed("isnan", {x}), s1);
  // To bool keeps the order of bool only; from bool, every order.
  EXPECT_EQ(listed("cast", {x}, {{"dtype", B8}}), s1);
  EXPECT_EQ(listed("cast", {b}, {{"dtype", I32}}), with_splits({"P(max) -> P(max)", "P(min) -> P(min)"}, s1));
}

TEST(ElementwiseBool, ClearErrors) {
  const Tensor b = bools({1, 0, 1}), x = value({3}, F32);
  expect_error([&] { local("add", {b, b}); }, "[add] does not take bool tensors");
  expect_error([&] { local("neg", {b}); }, "[neg] does not take bool tensors");
  expect_error([&] { local("mean", {b}, {{"dims", std::vector<int64_t>{}}}); }, "[mean] does not take bool tensors");
  expect_error([&] { local("bitwise_and", {x, x}); },
               "[bitwise_and] is defined for bool and integer tensors, got float32");
  expect_error([&] { local("bitwise_not", {x}); },
               "[bitwise_not] is defined for bool and integer tensors, got float32");
  expect_error([&] { local("logical_and", {b, x}); }, "[logical_and] dtypes differ: bool and float32");
  expect_error([&] { local("add_scalar", {b}, {{"value", 1.0}}); }, "[add_scalar] does not take bool tensors");
}

TEST(ElementwiseSmallInts, WrapAndConvertAsTorch) {
  auto u8 = [](std::vector<int64_t> v) {
    return filled({static_cast<int64_t>(v.size())}, DType::kUInt8, [v](int64_t i) { return v[i]; });
  };
  const Tensor u = u8({250, 3, 128});
  EXPECT_TRUE(close(local("add", {u, u}), u8({244, 6, 0}), 0));
  EXPECT_TRUE(close(local("mul", {u, u}), u8({36, 9, 0}), 0));
  EXPECT_TRUE(close(local("neg", {u}), u8({6, 253, 128}), 0));
  EXPECT_TRUE(close(local("add_scalar", {u}, {{"value", int64_t{300}}}), u8({38, 47, 172}), 0));
  const Tensor i16 = filled({2}, DType::kInt16, [](int64_t i) { return i ? 300 : -300; });
  EXPECT_TRUE(close(local("mul", {i16, filled({2}, DType::kInt16, [](int64_t) { return 300; })}),
                    filled({2}, DType::kInt16, [](int64_t i) { return i ? 24464 : -24464; }), 0));
  // Floats go through int64 and wrap, as torch on x86; NaN gives 0.
  const std::vector<double> floats = {300.0, -1.0, 2.7, -2.7, NAN, 255.9};
  const Tensor f = filled({6}, F32, [&](int64_t i) { return floats[i]; });
  EXPECT_TRUE(close(local("cast", {f}, {{"dtype", DType::kUInt8}}), u8({44, 255, 2, 254, 0, 255}), 0));
  EXPECT_EQ(local("exp", {u}).dtype(), F32);
  expect_error([&] { local("softmax", {u}, {{"dim", int64_t{0}}}); },
               "[softmax] does not take uint8 tensors; cast to int64 or float32 first");
}

}  // namespace
}  // namespace mf
