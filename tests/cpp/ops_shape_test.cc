// Copyright 2026 The meshflow Authors.
// Shape ops (permute, reshape, expand, slice, slice_backward, slice_scatter, cat, stack) under mpirun:
// every valid signature on every mesh against the single-device result, with even, uneven
// and zero-size shapes; the exact signature lists where they are subtle (reshape's splits
// that line up only on some meshes); local values; bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
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

// check_every_signature on every mesh of this world, expecting exactly `per_axis` 1-d
// signatures and their products on N-d meshes: each axis takes the op's 1-d signatures
// independently (no valid_on restricts these ops).
void expect_signatures(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs, int64_t per_axis) {
  for (const Placement& p : op_meshes()) {
    int64_t expected = 1;
    for (int a = 0; a < p.ndim(); ++a) expected *= per_axis;
    EXPECT_EQ(check_every_signature(op, inputs, attrs, p), expected) << op << " " << attrs.str() << " on " << p.str();
  }
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


// Attributes made from a list are sorted by key, a later duplicate winning, as set() one by
// one makes them (the list constructor sorts in place).
TEST(Attrs, AListIsWhatSettingEachInTurnMakes) {
  const Attrs listed{{"stops", std::vector<int64_t>{3, 4}}, {"dim", int64_t{1}}, {"alpha", 0.5},
                     {"dim", int64_t{2}}, {"keepdim", true}, {"dtype", DType::kInt32}};
  Attrs one_by_one;
  one_by_one.set("stops", std::vector<int64_t>{3, 4}).set("dim", int64_t{1}).set("alpha", 0.5);
  one_by_one.set("dim", int64_t{2}).set("keepdim", true).set("dtype", DType::kInt32);
  EXPECT_EQ(listed, one_by_one);
  EXPECT_EQ(listed.hash(), one_by_one.hash());
  EXPECT_EQ(listed.get_int("dim"), 2);
  ASSERT_EQ(listed.items().size(), 5u);
  EXPECT_TRUE(std::is_sorted(listed.items().begin(), listed.items().end(),
                             [](const auto& a, const auto& b) { return a.first < b.first; }));
  EXPECT_EQ((Attrs{{"x", int64_t{1}}, {"x", int64_t{2}}, {"x", int64_t{3}}}).items().size(), 1u);
  EXPECT_EQ((Attrs{{"x", int64_t{1}}, {"x", int64_t{2}}, {"x", int64_t{3}}}).get_int("x"), 3);
}
TEST(ShapePermute, EverySignatureMatchesOneDevice) {
  for (const Shape& dims : std::vector<Shape>{{1, 0}, {0, 1}, {-1, -2}}) {
    for (const Shape& s : std::vector<Shape>{{4, 6}, {5, 3}, {0, 3}}) {
      expect_signatures("permute", {value(s)}, {{"dims", dims}}, 4);  // a split per dim, B, P
    }
  }
  for (const Shape& dims : std::vector<Shape>{{2, 0, 1}, {1, 2, 0}, {0, 2, 1}, {-1, 1, 0}}) {
    expect_signatures("permute", {value({2, 3, 5})}, {{"dims", dims}}, 5);
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
      {{0, 3}, {3, 0}},        {{2, 0, 3}, {0, 7}},    {{1}, {}},           {{}, {1, 1}},
      {{6, 4}, {4, 6}},        {{8, 3}, {2, 4, 3}},    {{2, 4, 3}, {8, 3}}, {{3, 2, 4, 2}, {3, 2, 8}}};
  for (const auto& [in, shape] : cases) sweep("reshape", {value(in)}, {{"shape", shape}});
  sweep("reshape", {value({5, 6}, DType::kInt64)}, {{"shape", Shape{5, 3, 2}}});
  sweep("reshape", {value({5, 6}, DType::kFloat64)}, {{"shape", Shape{30}}});
}

// The valid N-d signatures of reshape on a mesh of shape `hierarchy`, as strings.
std::set<std::string> reshape_valid(const Shape& in, const Shape& shape, const Shape& hierarchy) {
  std::set<std::string> out;
  for (const NdSignature& s :
       valid_nd_signatures(find_op("reshape"), {{in, DType::kFloat32}}, {{"shape", shape}}, hierarchy)) {
    out.insert(s.str());
  }
  return out;
}

// Attention heads: [B, T, H * D] <-> [B, T, H, D] on uneven B and T carries a split of the
// heads dim exactly when the mesh axes that cut it divide H (nested axes: their product).
TEST(ShapeReshape, HeadSplitIsCarriedWhenTheAxesDivideTheHeads) {
  struct Case {
    int64_t heads;
    Shape hierarchy;
    std::vector<std::string> carried, not_carried;
  };
  const std::vector<Case> cases = {
      {4, {2}, {"(S(2)) -> (S(2))"}, {}},
      {4, {4}, {"(S(2)) -> (S(2))"}, {}},
      {6, {2}, {"(S(2)) -> (S(2))"}, {}},
      {6, {4}, {}, {"(S(2)) -> (S(2))"}},
      {3, {2}, {}, {"(S(2)) -> (S(2))"}},
      {4, {2, 2}, {"(S(0), S(2)) -> (S(0), S(2))", "(S(2), S(2)) -> (S(2), S(2))", "(S(2), S(1)) -> (S(2), S(1))"}, {}},
      {6, {2, 2}, {"(S(0), S(2)) -> (S(0), S(2))", "(S(2), S(0)) -> (S(2), S(0))"}, {"(S(2), S(2)) -> (S(2), S(2))"}},
      {3, {2, 2}, {"(S(1), S(0)) -> (S(1), S(0))"}, {"(S(0), S(2)) -> (S(0), S(2))", "(S(2), S(2)) -> (S(2), S(2))"}},
  };
  const int64_t batch = 3, time = 5, head_dim = 2;
  for (const Case& c : cases) {
    const Shape merged{batch, time, c.heads * head_dim}, split_heads{batch, time, c.heads, head_dim};
    for (const auto& [in, out] : {std::pair{merged, split_heads}, std::pair{split_heads, merged}}) {
      const std::set<std::string> valid = reshape_valid(in, out, c.hierarchy);
      for (const std::string& s : c.carried) EXPECT_EQ(valid.count(s), 1u) << s << " " << to_string(in);
      for (const std::string& s : c.not_carried) EXPECT_EQ(valid.count(s), 0u) << s << " " << to_string(in);
    }
  }
  // Against the single-device result, on the meshes of this world: exactly the signatures
  // valid on each (the heads split over 4 ranks only when 4 divides them; on [2, 2] a split
  // of the heads twice needs 4 | heads too).
  const std::map<int64_t, std::map<std::string, int64_t>> counts = {
      {2, {{"[2]", 5}, {"[4]", 4}, {"[2, 2]", 25}}},
      {3, {{"[2]", 4}, {"[4]", 4}, {"[2, 2]", 16}}},
      {4, {{"[2]", 5}, {"[4]", 5}, {"[2, 2]", 25}}},
      {6, {{"[2]", 5}, {"[4]", 4}, {"[2, 2]", 24}}}};
  for (const auto& [heads, on] : counts) {
    const Shape merged{batch, time, heads * head_dim}, split_heads{batch, time, heads, head_dim};
    for (const Placement& p : op_meshes()) {
      const int64_t expected = on.at(to_string(p.hierarchy()));
      EXPECT_EQ(check_every_signature("reshape", {value(merged)}, {{"shape", split_heads}}, p), expected) << heads;
      EXPECT_EQ(check_every_signature("reshape", {value(split_heads)}, {{"shape", merged}}, p), expected) << heads;
    }
  }
}

// Whether every rank's part of `in` under in_sbp holds exactly the flat indices of its
// part of `out` under out_sbp, by listing the indices.
bool parts_line_up(const Shape& in, const NdSbp& in_sbp, const Shape& out, const NdSbp& out_sbp,
                   const Shape& hierarchy) {
  auto flat_indices = [](const Shape& shape, const Box& box) {
    std::set<int64_t> indices;
    const Shape strides = row_major_strides(shape);
    for (int64_t i = 0; i < box.numel(); ++i) {
      int64_t rest = i, flat = 0;
      for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
        flat += (box.start[d] + rest % box.extent[d]) * strides[d];
        rest /= box.extent[d];
      }
      indices.insert(flat);
    }
    return indices;
  };
  for (int64_t id = 0; id < numel(hierarchy); ++id) {
    Shape coordinate(hierarchy.size());
    for (int64_t a = static_cast<int64_t>(hierarchy.size()) - 1, rest = id; a >= 0; rest /= hierarchy[a--]) {
      coordinate[a] = rest % hierarchy[a];
    }
    if (flat_indices(in, local_box(in, hierarchy, in_sbp, coordinate)) !=
        flat_indices(out, local_box(out, hierarchy, out_sbp, coordinate))) {
      return false;
    }
  }
  return true;
}

// Every N-d combination of S(k) -> S(j) (any dims), B -> B and P -> P is valid exactly when
// the parts line up, on meshes of 2 to 6 ranks; counted by listing flat indices.
TEST(ShapeReshape, ValidExactlyWhereThePartsLineUp) {
  const std::vector<std::pair<Shape, Shape>> cases = {
      {{4, 6}, {24}},       {{5, 6}, {30}},      {{6, 4}, {4, 6}},           {{6, 4}, {2, 3, 4}},
      {{4, 6}, {4, 2, 3}},  {{5, 3}, {3, 5}},    {{3, 5, 12}, {3, 5, 4, 3}}, {{3, 5, 4, 3}, {3, 5, 12}},
      {{2, 12}, {2, 3, 4}}, {{8, 3}, {2, 4, 3}}, {{2, 4, 3}, {8, 3}}};
  const std::vector<Shape> hierarchies = {{2}, {3}, {4}, {2, 2}, {2, 3}, {3, 2}};
  for (const auto& [in, out] : cases) {
    std::vector<std::pair<Sbp, Sbp>> one_axis = {{Sbp::broadcast(), Sbp::broadcast()},
                                                 {Sbp::partial_sum(), Sbp::partial_sum()}};
    for (size_t k = 0; k < in.size(); ++k) {
      for (size_t j = 0; j < out.size(); ++j) {
        one_axis.emplace_back(Sbp::split(static_cast<int>(k)), Sbp::split(static_cast<int>(j)));
      }
    }
    for (const Shape& h : hierarchies) {
      const std::set<std::string> valid = reshape_valid(in, out, h);
      size_t lined_up = 0;
      for (size_t pick = 0; pick < (h.size() == 1 ? one_axis.size() : one_axis.size() * one_axis.size()); ++pick) {
        NdSbp in_sbp, out_sbp;
        for (size_t a = 0, rest = pick; a < h.size(); ++a, rest /= one_axis.size()) {
          in_sbp.insert(in_sbp.begin(), one_axis[rest % one_axis.size()].first);
          out_sbp.insert(out_sbp.begin(), one_axis[rest % one_axis.size()].second);
        }
        const std::string sig = NdSignature{{in_sbp}, {out_sbp}}.str();
        const bool lines_up = parts_line_up(in, in_sbp, out, out_sbp, h);
        lined_up += lines_up;
        EXPECT_EQ(valid.count(sig), lines_up ? 1u : 0u)
            << sig << " " << to_string(in) << " -> " << to_string(out) << " on " << to_string(h);
      }
      EXPECT_EQ(valid.size(), lined_up);
    }
  }
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
  // Per axis: a split of each dim the slice keeps whole, B, and P (the sum of slices).
  const std::vector<std::pair<Attrs, int64_t>> variants = {
      {slice_attrs({0, 0}, {6, 5}, {1, 1}), 4},          // whole
      {slice_attrs({1, 0}, {5, 5}, {2, 1}), 3},          // rows 1, 3
      {slice_attrs({0, 1}, {6, 5}, {1, 3}), 3},          // cols 1, 4
      {slice_attrs({2, 4}, {6, 5}, {3, 1}), 2},          // uneven steps, one column
      {slice_attrs({3, 2}, {3, 5}, {1, 1}), 2},          // empty
      {slice_attrs({4, 0}, {5, 5}, {1, 1}, {0}), 3},     // x[4]
      {slice_attrs({0, 2}, {6, 3}, {1, 1}, {-1}), 3},    // x[:, 2]
      {slice_attrs({5, 1}, {6, 2}, {1, 1}, {0, 1}), 2},  // x[5, 1]: 0-d
  };
  for (const auto& [a, per_axis] : variants) expect_signatures("slice", {value(s)}, a, per_axis);
  expect_signatures("slice", {value({3, 7, 4}, DType::kInt64)}, slice_attrs({0, 1, 0}, {3, 7, 4}, {1, 2, 1}), 4);
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

TEST(ShapeSliceBackward, EverySignatureMatchesOneDevice) {
  const Shape s{6, 5};
  const std::vector<std::pair<Attrs, int64_t>> variants = {
      {slice_attrs({0, 0}, {6, 5}, {1, 1}), 4},          // whole
      {slice_attrs({1, 0}, {5, 5}, {2, 1}), 3},          // rows 1, 3
      {slice_attrs({0, 1}, {6, 5}, {1, 3}), 3},          // cols 1, 4
      {slice_attrs({3, 2}, {3, 5}, {1, 1}), 2},          // empty
      {slice_attrs({0, 2}, {6, 3}, {1, 1}, {-1}), 3},    // x[:, 2]
      {slice_attrs({5, 1}, {6, 2}, {1, 1}, {0, 1}), 2},  // x[5, 1]: 0-d
  };
  for (const auto& [a, per_axis] : variants) {
    const Shape dy_shape = find_op("slice").infer({{s, DType::kFloat32}}, a)[0].shape;
    expect_signatures("slice_backward", {value(dy_shape)}, Attrs(a).set("shape", s), per_axis);
  }
  const Attrs a = slice_attrs({0, 1, 0}, {3, 7, 4}, {1, 2, 1});
  expect_signatures("slice_backward", {value({3, 3, 4}, DType::kInt64)}, Attrs(a).set("shape", Shape{3, 7, 4}), 4);
  sweep("slice_backward", {value({2}, DType::kFloat64)},
        Attrs(slice_attrs({1, 0, 3}, {2, 7, 4}, {1, 4, 1}, {0, 2})).set("shape", Shape{3, 7, 4}));
  EXPECT_EQ(listed("slice_backward", {{5, 4}},
                   Attrs(slice_attrs({2, 0, 0}, {3, 5, 4}, {1, 1, 1}, {0})).set("shape", Shape{6, 5, 4})),
            (std::set<std::string>{"S(0) -> S(1)", "S(1) -> S(2)", "P -> P"}));
}

TEST(ShapeSliceScatter, EverySignatureMatchesOneDevice) {
  const Shape s{7, 5};  // uneven parts on every mesh
  // Per axis: a split of each dim (each rank writes the part of the slice its box holds),
  // B, and P (partial targets take partial values).
  const std::vector<std::pair<Attrs, Shape>> variants = {
      {slice_attrs({0, 0}, {7, 5}, {1, 1}), {7, 5}},  // whole
      {slice_attrs({1, 0}, {6, 5}, {2, 1}), {3, 1}},  // rows 1, 3, 5; broadcast along the columns
      {slice_attrs({0, 1}, {7, 5}, {3, 3}), {1, 2}},  // steps in both dims
      {slice_attrs({4, 2}, {5, 3}, {1, 1}), {1, 1}},  // x[4, 2]
      {slice_attrs({3, 2}, {3, 5}, {1, 1}), {0, 3}},  // empty
  };
  for (const auto& [a, v] : variants) expect_signatures("slice_scatter", {value(s), value(v)}, a, 4);
  sweep("slice_scatter", {value({3, 7, 4}, DType::kInt64), value({1, 3, 4}, DType::kInt64)},
        slice_attrs({2, 1, 0}, {3, 7, 4}, {1, 2, 1}));
  sweep("slice_scatter", {value({0, 4}), value({0, 1})}, slice_attrs({0, 1}, {0, 4}, {1, 2}));
}

TEST(ShapeSliceScatter, WritesTheSliceBroadcastingValuesAndRejectsOtherShapes) {
  const Tensor x = iota({3, 4});
  const Tensor y = local("slice_scatter", {x, iota({1, 2})}, slice_attrs({0, 1}, {3, 4}, {2, 2}));
  EXPECT_EQ(values_of(y), (std::vector<int64_t>{0, 0, 2, 1, 4, 5, 6, 7, 8, 0, 10, 1}));
  EXPECT_THROW(local("slice_scatter", {x, iota({2, 3})}, slice_attrs({0, 1}, {3, 4}, {2, 2})), std::invalid_argument);
  EXPECT_THROW(local("slice_scatter", {x, iota({1, 1})}, slice_attrs({0, 1}, {3, 4}, {2, 2}, {0})),
               std::invalid_argument);
}

// slice_backward is slice's adjoint: sum(slice(x) * dy) == sum(x * slice_backward(dy)).
TEST(ShapeSliceBackward, IsTheAdjointOfSlice) {
  auto dot = [](const Tensor& a, const Tensor& b) {
    int64_t sum = 0;
    const std::vector<int64_t> va = values_of(a), vb = values_of(b);
    for (size_t i = 0; i < va.size(); ++i) sum += va[i] * vb[i];
    return sum;
  };
  const Shape s{4, 7, 3};
  const Tensor x = value(s, DType::kInt64);
  for (const Attrs& a :
       {slice_attrs({1, 0, 0}, {4, 7, 3}, {2, 3, 1}), slice_attrs({2, 1, 0}, {3, 6, 3}, {1, 2, 2}, {0}),
        slice_attrs({0, 6, 2}, {4, 7, 3}, {1, 1, 1}, {1, 2})}) {
    const Tensor sliced = local("slice", {x}, a);
    const Tensor dy = iota(sliced.shape());
    const Tensor dx = local("slice_backward", {dy}, Attrs(a).set("shape", s));
    EXPECT_EQ(dx.shape(), s);
    EXPECT_EQ(dot(sliced, dy), dot(x, dx)) << a.str();
    int64_t nonzero = 0;
    for (int64_t v : values_of(dx)) nonzero += v != 0;
    EXPECT_EQ(nonzero, sliced.numel() - 1) << a.str();  // dy = 0, 1, 2, ...: all but its first land
  }
}

TEST(ShapeExpand, EverySignatureMatchesOneDevice) {
  const std::vector<std::pair<Shape, Shape>> cases = {
      {{3, 1}, {3, 4}}, {{1, 5}, {2, 4, 5}}, {{5}, {3, -1}}, {{4, 1, 3}, {-1, 6, -1}}, {{}, {2, 3}},
      {{7, 1}, {7, 1}}, {{0, 1}, {0, 3}},    {{1}, {0}},     {{2, 1, 5}, {3, 2, 4, 5}}};
  for (const auto& [in, shape] : cases) sweep("expand", {value(in)}, {{"shape", shape}});
  expect_signatures("expand", {value({5, 1, 3}, DType::kInt64)}, {{"shape", Shape{2, 5, 4, 3}}}, 4);
  sweep("expand", {value({1, 3}, DType::kFloat64)}, {{"shape", Shape{5, 3}}});
  sweep("expand", {value({2, 1}, DType::kInt32)}, {{"shape", Shape{2, 3}}});
  EXPECT_EQ(listed("expand", {{5, 1, 3}}, {{"shape", Shape{2, 5, 4, 3}}}),
            (std::set<std::string>{"S(0) -> S(1)", "S(2) -> S(3)", "P -> P"}));
}

TEST(ShapeExpand, RepeatsSizeOneDims) {
  const Tensor y = local("expand", {iota({2, 1})}, {{"shape", Shape{2, 2, 3}}});
  EXPECT_EQ(y.shape(), (Shape{2, 2, 3}));
  EXPECT_EQ(values_of(y), (std::vector<int64_t>{0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1}));
}

TEST(ShapePermute, MovesDims) {
  const Tensor y = local("permute", {iota({2, 3})}, {{"dims", Shape{1, 0}}});
  EXPECT_EQ(y.shape(), (Shape{3, 2}));
  EXPECT_EQ(values_of(y), (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
}

// ConvNeXt's permutes around a LayerNorm over channels: where the layouts agree they are
// the input's memory read in the other layout, with the values of a copying permute.
TEST(ShapePermute, MovesChannelsWithoutCopyingWhereTheLayoutsAgree) {
  const Tensor x = iota({2, 3, 2, 2});
  const Tensor x_last = in_format(x, MemoryFormat::kChannelsLastInternal);
  const Tensor nhwc = local("permute", {x_last}, {{"dims", Shape{0, 2, 3, 1}}});
  EXPECT_TRUE(nhwc.shares_memory(x_last));
  EXPECT_EQ(nhwc.format(), MemoryFormat::kContiguous);
  EXPECT_EQ(values_of(nhwc), values_of(local("permute", {x}, {{"dims", Shape{0, 2, 3, 1}}})));
  const Tensor back = local("permute", {nhwc}, {{"dims", Shape{0, 3, 1, 2}}});
  EXPECT_TRUE(back.shares_memory(nhwc));
  EXPECT_EQ(back.format(), MemoryFormat::kChannelsLastInternal);
  EXPECT_EQ(values_of(in_format(back, MemoryFormat::kContiguous)), values_of(x));
  // Other permutations of a channels-last input read it row-major first.
  const Tensor swapped = local("permute", {x_last}, {{"dims", Shape{0, 1, 3, 2}}});
  EXPECT_FALSE(swapped.shares_memory(x_last));
  EXPECT_EQ(values_of(swapped), values_of(local("permute", {x}, {{"dims", Shape{0, 1, 3, 2}}})));
}

// A permute that moves only dims of size 1 (one head's [B, T, 1, D] -> [B, 1, T, D]) keeps
// the bytes in order: the input's memory, no copy; one that reorders longer dims copies.
TEST(ShapePermute, MovingOnlyDimsOfSizeOneIsAView) {
  const Tensor x = iota({2, 3, 1, 4});
  const Tensor heads = local("permute", {x}, {{"dims", Shape{0, 2, 1, 3}}});
  EXPECT_EQ(heads.shape(), (Shape{2, 1, 3, 4}));
  EXPECT_TRUE(heads.shares_memory(x));
  EXPECT_EQ(values_of(heads), values_of(x));
  const Tensor row = local("permute", {iota({1, 5})}, {{"dims", Shape{1, 0}}});
  EXPECT_EQ(values_of(row), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  const Tensor swapped = local("permute", {x}, {{"dims", Shape{2, 1, 0, 3}}});
  EXPECT_FALSE(swapped.shares_memory(x));
  EXPECT_EQ(values_of(swapped), (std::vector<int64_t>{0, 1, 2, 3, 12, 13, 14, 15, 4, 5, 6, 7, 16, 17, 18, 19,
                                                      8, 9, 10, 11, 20, 21, 22, 23}));
}

TEST(ShapeCat, EverySignatureMatchesOneDevice) {
  // Per axis: a split of each dim but the joined one, B, P.
  expect_signatures("cat", {value({3, 4}), value({2, 4})}, {{"dim", int64_t{0}}}, 3);
  expect_signatures("cat", {value({5, 4}), value({5, 1}), value({5, 0})}, {{"dim", int64_t{-1}}}, 3);
  expect_signatures("cat", {value({2, 3, 5}), value({2, 1, 5})}, {{"dim", int64_t{1}}}, 4);
  sweep("cat", {value({7, 3}, DType::kInt64)}, {{"dim", int64_t{1}}});
  sweep("cat", {value({0, 3}, DType::kFloat64), value({0, 3}, DType::kFloat64)}, {{"dim", int64_t{1}}});
  sweep("cat", {value({0, 3}, DType::kInt32), value({5, 3}, DType::kInt32)}, {{"dim", int64_t{0}}});
}

TEST(ShapeCat, JoinsAlongDim) {
  const Tensor y = local("cat", {iota({2, 2}), iota({2, 1})}, {{"dim", int64_t{1}}});
  EXPECT_EQ(values_of(y), (std::vector<int64_t>{0, 1, 0, 2, 3, 1}));
}

TEST(ShapeStack, EverySignatureMatchesOneDevice) {
  // Per axis: a split of each input dim, B, P.
  for (int64_t dim : {0, 1, 2, -1}) expect_signatures("stack", {value({5, 4}), value({5, 4})}, {{"dim", dim}}, 4);
  expect_signatures("stack", {value({7}), value({7}), value({7})}, {{"dim", int64_t{1}}}, 3);
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
  expect_error(message("expand", {x}, {{"shape", Shape{6}}}), "[expand]", "fewer dims");
  expect_error(message("expand", {x}, {{"shape", Shape{4, 7}}}), "[expand]", "dim 1 of size 6 cannot be expanded to 7");
  expect_error(message("expand", {x}, {{"shape", Shape{-1, 4, 6}}}), "[expand]", "size -1 in dim 0");
  expect_error(message("expand", {value({4, 1})}, {{"shape", Shape{4, -2}}}), "[expand]", "size -2 in dim 1");
  const Attrs whole = slice_attrs({0, 0}, {4, 6}, {1, 1});
  expect_error(message("slice_backward", {value({4, 5})}, Attrs(whole).set("shape", Shape{4, 6})), "[slice_backward]",
               "the gradient has shape [4, 5]");
  expect_error(message("slice_backward", {x}, Attrs(whole).set("shape", Shape{4, 5})), "[slice_backward]",
               "out of bounds");
  expect_error(message("slice_backward", {x}, whole), "[slice_backward]", "shape");
  expect_error(message("stack", {x, value({4, 5})}, {{"dim", int64_t{0}}}), "[stack]", "expected equal shapes");
  expect_error(message("stack", {x, x}, {{"dim", int64_t{3}}}), "[stack]", "out of range");
}

}  // namespace
}  // namespace mf
