// Copyright 2026 The meshflow Authors.
// Shape ops (permute, reshape, slice, cat, stack) under mpirun: every valid signature on
// every mesh against the single-device result, with even, uneven and zero-size shapes; the
// exact signature lists where they are subtle (reshape); local values; bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "meshflow/ops/dispatch.h"
#include "tests/cpp/op_check.h"

namespace mf {
namespace {

using namespace test;  // NOLINT: the suite's helpers

Tensor value(const Shape& shape, DType dtype = DType::kFloat32) { return logical_value(shape, dtype); }

// check_every_signature on every mesh; returns the fewest signatures one mesh had.
int sweep(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs) {
  int fewest = 1 << 30;
  for (const Placement& p : op_meshes()) fewest = std::min(fewest, check_every_signature(op, inputs, attrs, p));
  return fewest;
}

// The listed 1-d signatures besides all-broadcast, as strings.
std::set<std::string> listed(const std::string& op_name, const std::vector<Shape>& shapes, const Attrs& attrs) {
  const OpDef& op = find_op(op_name);
  std::vector<TensorMeta> metas;
  for (const Shape& s : shapes) metas.push_back({s, DType::kFloat32});
  std::set<std::string> out;
  for (const Signature& s : op.signatures(metas, op.infer(metas, attrs), attrs)) out.insert(s.str());
  return out;
}

Tensor local(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs) {
  return apply_local(find_op(op), inputs, attrs)[0];
}

std::vector<int64_t> values_of(const Tensor& t) {
  std::vector<int64_t> v;
  visit_dtype(t.dtype(), [&](auto x) {
    using T = decltype(x);
    for (int64_t i = 0; i < t.numel(); ++i) v.push_back(static_cast<int64_t>(t.data_as<T>()[i]));
  });
  return v;
}

Tensor iota(const Shape& shape, DType dtype = DType::kInt64) {
  Tensor t = Tensor::empty(shape, dtype);
  visit_dtype(dtype, [&](auto x) {
    using T = decltype(x);
    for (int64_t i = 0; i < t.numel(); ++i) t.data_as<T>()[i] = static_cast<T>(i);
  });
  return t;
}

// The message of the std::invalid_argument that f throws ("" when it throws none).
template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

Attrs slice_attrs(const Shape& starts, const Shape& stops, const Shape& steps, const Shape& drop = {}) {
  Attrs a{{"starts", starts}, {"stops", stops}, {"steps", steps}};
  if (!drop.empty()) a.set("drop_dims", drop);
  return a;
}

TEST(ShapePermute, EverySignatureMatchesOneDevice) {
  for (const Shape& dims : std::vector<Shape>{{1, 0}, {0, 1}, {-1, -2}}) {
    for (const Shape& s : std::vector<Shape>{{4, 6}, {5, 3}, {0, 3}}) {
      EXPECT_GE(sweep("permute", {value(s)}, {{"dims", dims}}), 4);
    }
  }
  for (const Shape& dims : std::vector<Shape>{{2, 0, 1}, {1, 2, 0}, {0, 2, 1}, {-1, 1, 0}}) {
    EXPECT_GE(sweep("permute", {value({2, 3, 5})}, {{"dims", dims}}), 5);
    sweep("permute", {value({3, 0, 5}, DType::kInt32)}, {{"dims", dims}});
  }
  sweep("permute", {value({5, 2}, DType::kFloat64)}, {{"dims", Shape{1, 0}}});
  sweep("permute", {value({}, DType::kInt64)}, {{"dims", Shape{}}});
}

TEST(ShapeReshape, EverySignatureMatchesOneDevice) {
  const std::vector<std::pair<Shape, Shape>> cases = {
      {{4, 6}, {24}},          {{4, 6}, {2, 2, 6}},    {{4, 6}, {4, 2, 3}}, {{5, 3}, {3, 5}},
      {{7, 6}, {7, 2, 3}},     {{2, 3, 4}, {6, 4}},    {{6, 4}, {2, 3, 4}}, {{2, 3, 4}, {2, -1}},
      {{5, 3, 2}, {-1, 3, 2}}, {{3, 1, 5}, {3, 5, 1}}, {{1, 5}, {1, 1, 5}}, {{5, 0}, {5, 0, 1}},
      {{0, 3}, {3, 0}},        {{2, 0, 3}, {0, 7}},    {{1}, {}},           {{}, {1, 1}}};
  for (const auto& [in, shape] : cases) sweep("reshape", {value(in)}, {{"shape", shape}});
  sweep("reshape", {value({5, 6}, DType::kInt64)}, {{"shape", Shape{5, 3, 2}}});
  sweep("reshape", {value({5, 6}, DType::kFloat64)}, {{"shape", Shape{30}}});
}

// A split passes through only where the dim stays whole behind an equal prefix; dims split
// or merged by the reshape are not carried (their parts line up only for even splits).
TEST(ShapeReshape, CarriesWholeDimsOnly) {
  auto sigs = [](const Shape& in, const Shape& shape) { return listed("reshape", {in}, {{"shape", shape}}); };
  EXPECT_EQ(sigs({4, 6}, {4, 2, 3}), (std::set<std::string>{"S(0) -> S(0)", "P -> P"}));
  EXPECT_EQ(sigs({6, 4}, {2, 3, 4}), (std::set<std::string>{"S(1) -> S(2)", "P -> P"}));
  EXPECT_EQ(sigs({2, 3, 4}, {6, 4}), (std::set<std::string>{"S(2) -> S(1)", "P -> P"}));
  EXPECT_EQ(sigs({2, 12}, {2, 3, 4}), (std::set<std::string>{"S(0) -> S(0)", "P -> P"}));
  EXPECT_EQ(sigs({5, 3}, {3, 5}), (std::set<std::string>{"P -> P"}));
  EXPECT_EQ(sigs({3, 1, 5}, {3, 5, 1}), (std::set<std::string>{"S(0) -> S(0)", "S(2) -> S(1)", "P -> P"}));
}

TEST(ShapeReshape, ResultIsAViewWithTheNewShape) {
  const Tensor x = iota({2, 6});
  const Tensor y = local("reshape", {x}, {{"shape", Shape{3, -1}}});
  EXPECT_EQ(y.shape(), (Shape{3, 4}));
  EXPECT_EQ(y.data(), x.data());
  EXPECT_EQ(values_of(y), values_of(x));
}

TEST(ShapeSlice, EverySignatureMatchesOneDevice) {
  const Shape s{6, 5};
  const std::vector<Attrs> variants = {
      slice_attrs({0, 0}, {6, 5}, {1, 1}),          // whole
      slice_attrs({1, 0}, {5, 5}, {2, 1}),          // rows 1, 3
      slice_attrs({0, 1}, {6, 5}, {1, 3}),          // cols 1, 4
      slice_attrs({2, 4}, {6, 5}, {3, 1}),          // uneven steps, one column
      slice_attrs({3, 2}, {3, 5}, {1, 1}),          // empty
      slice_attrs({4, 0}, {5, 5}, {1, 1}, {0}),     // x[4]
      slice_attrs({0, 2}, {6, 3}, {1, 1}, {-1}),    // x[:, 2]
      slice_attrs({5, 1}, {6, 2}, {1, 1}, {0, 1}),  // x[5, 1]: 0-d
  };
  for (const Attrs& a : variants) EXPECT_GE(sweep("slice", {value(s)}, a), 1) << a.str();
  EXPECT_GE(sweep("slice", {value({3, 7, 4}, DType::kInt64)}, slice_attrs({0, 1, 0}, {3, 7, 4}, {1, 2, 1})), 4);
  sweep("slice", {value({3, 7, 4}, DType::kFloat64)}, slice_attrs({1, 0, 3}, {2, 7, 4}, {1, 1, 1}, {0, 2}));
  sweep("slice", {value({0, 4})}, slice_attrs({0, 1}, {0, 4}, {1, 2}));
  sweep("slice", {value({5, 1, 3}, DType::kInt32)}, slice_attrs({0, 0, 0}, {5, 1, 3}, {2, 4, 1}));
}

TEST(ShapeSlice, KeepsSplitsOfWholeDimsOnly) {
  EXPECT_EQ(listed("slice", {{6, 5, 4}}, slice_attrs({0, 1, 0}, {6, 5, 4}, {1, 1, 1})),
            (std::set<std::string>{"S(0) -> S(0)", "S(2) -> S(2)", "P -> P"}));
  EXPECT_EQ(listed("slice", {{6, 5, 4}}, slice_attrs({2, 0, 0}, {3, 5, 4}, {1, 1, 1}, {0})),
            (std::set<std::string>{"S(1) -> S(0)", "S(2) -> S(1)", "P -> P"}));
  EXPECT_EQ(listed("slice", {{6, 5}}, slice_attrs({0, 0}, {6, 5}, {2, 1})),
            (std::set<std::string>{"S(1) -> S(1)", "P -> P"}));
}

TEST(ShapeSlice, StepsAndDroppedDims) {
  const Tensor x = iota({4, 5});
  EXPECT_EQ(values_of(local("slice", {x}, slice_attrs({1, 0}, {4, 5}, {2, 3}))), (std::vector<int64_t>{5, 8, 15, 18}));
  const Tensor row = local("slice", {x}, slice_attrs({2, 1}, {3, 5}, {1, 1}, {0}));
  EXPECT_EQ(row.shape(), (Shape{4}));
  EXPECT_EQ(values_of(row), (std::vector<int64_t>{11, 12, 13, 14}));
}

TEST(ShapePermute, MovesDims) {
  const Tensor y = local("permute", {iota({2, 3})}, {{"dims", Shape{1, 0}}});
  EXPECT_EQ(y.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of(y), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
}

TEST(ShapeCat, EverySignatureMatchesOneDevice) {
  EXPECT_GE(sweep("cat", {value({3, 4}), value({2, 4})}, {{"dim", int64_t{0}}}), 3);
  EXPECT_GE(sweep("cat", {value({5, 4}), value({5, 1}), value({5, 0})}, {{"dim", int64_t{-1}}}), 3);
  EXPECT_GE(sweep("cat", {value({2, 3, 5}), value({2, 1, 5})}, {{"dim", int64_t{1}}}), 4);
  sweep("cat", {value({7, 3}, DType::kInt64)}, {{"dim", int64_t{1}}});
  sweep("cat", {value({0, 3}, DType::kFloat64), value({0, 3}, DType::kFloat64)}, {{"dim", int64_t{1}}});
  sweep("cat", {value({0, 3}, DType::kInt32), value({5, 3}, DType::kInt32)}, {{"dim", int64_t{0}}});
}

TEST(ShapeCat, JoinsAlongDim) {
  const Tensor y = local("cat", {iota({2, 2}), iota({2, 1})}, {{"dim", int64_t{1}}});
  EXPECT_EQ(values_of(y), (std::vector<int64_t>{0, 1, 0, 2, 3, 1}));
}

TEST(ShapeStack, EverySignatureMatchesOneDevice) {
  for (int64_t dim : {0, 1, 2, -1}) EXPECT_GE(sweep("stack", {value({5, 4}), value({5, 4})}, {{"dim", dim}}), 4);
  EXPECT_GE(sweep("stack", {value({7}), value({7}), value({7})}, {{"dim", int64_t{1}}}), 3);
  sweep("stack", {value({0, 3}, DType::kInt64), value({0, 3}, DType::kInt64)}, {{"dim", int64_t{0}}});
  sweep("stack", {value({3}, DType::kFloat64)}, {{"dim", int64_t{0}}});
  sweep("stack", {value({}, DType::kInt32), value({}, DType::kInt32)}, {{"dim", int64_t{0}}});
  EXPECT_EQ(listed("stack", {{5, 4}, {5, 4}}, {{"dim", int64_t{1}}}),
            (std::set<std::string>{"S(0), S(0) -> S(0)", "S(1), S(1) -> S(2)", "P, P -> P"}));
}

TEST(ShapeStack, AddsADim) {
  const Tensor y = local("stack", {iota({3}), iota({3})}, {{"dim", int64_t{1}}});
  EXPECT_EQ(y.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of(y), (std::vector<int64_t>{0, 0, 1, 1, 2, 2}));
}

TEST(ShapeErrors, BadInputNamesTheProblem) {
  const Tensor x = value({4, 6});
  auto message = [](const std::string& op, const std::vector<Tensor>& in, const Attrs& a) {
    return error_of([&] { local(op, in, a); });
  };
  auto expect_error = [](const std::string& got, const std::string& prefix, const std::string& part) {
    EXPECT_EQ(got.rfind(prefix, 0), 0u) << got;
    EXPECT_NE(got.find(part), std::string::npos) << got;
  };
  expect_error(message("permute", {x}, {{"dims", Shape{0}}}), "[permute]", "expected one entry per dim");
  expect_error(message("permute", {x}, {{"dims", Shape{1, 1}}}), "[permute]", "twice");
  expect_error(message("permute", {x}, {{"dims", Shape{0, 2}}}), "[permute]", "out of range");
  expect_error(message("reshape", {x}, {{"shape", Shape{5, 5}}}), "[reshape]", "25 elements");
  expect_error(message("reshape", {x}, {{"shape", Shape{-1, 5}}}), "[reshape]", "cannot infer");
  expect_error(message("reshape", {x}, {{"shape", Shape{-1, -1}}}), "[reshape]", "at most one -1");
  expect_error(message("reshape", {value({0, 2})}, {{"shape", Shape{0, -1}}}), "[reshape]", "cannot infer");
  expect_error(message("slice", {x}, slice_attrs({0, 0}, {5, 6}, {1, 1})), "[slice]", "out of bounds");
  expect_error(message("slice", {x}, slice_attrs({0, 3}, {4, 2}, {1, 1})), "[slice]", "out of bounds");
  expect_error(message("slice", {x}, slice_attrs({0, 0}, {4, 6}, {1, 0})), "[slice]", "step >= 1");
  expect_error(message("slice", {x}, slice_attrs({0}, {4}, {1})), "[slice]", "one per dim");
  expect_error(message("slice", {x}, slice_attrs({0, 0}, {2, 6}, {1, 1}, {0})), "[slice]", "exactly one element");
  expect_error(message("slice", {x}, slice_attrs({0, 0}, {1, 6}, {1, 1}, {0, -2})), "[slice]", "twice");
  expect_error(message("cat", {}, {{"dim", int64_t{0}}}), "[cat]", "at least one");
  expect_error(message("cat", {x, value({3, 5})}, {{"dim", int64_t{0}}}), "[cat]", "every dim but dim 0");
  expect_error(message("cat", {x, value({4, 6, 1})}, {{"dim", int64_t{0}}}), "[cat]", "[4, 6, 1]");
  expect_error(message("cat", {x, value({4, 6}, DType::kInt64)}, {{"dim", int64_t{0}}}), "[cat]", "dtypes differ");
  expect_error(message("cat", {x}, {{"dim", int64_t{2}}}), "[cat]", "out of range");
  expect_error(message("stack", {x, value({4, 5})}, {{"dim", int64_t{0}}}), "[stack]", "expected equal shapes");
  expect_error(message("stack", {x, x}, {{"dim", int64_t{3}}}), "[stack]", "out of range");
}

}  // namespace
}  // namespace mf
