// Copyright 2026 The meshflow Authors.
// Shapes, boxes, dtypes and the local Tensor (core/), checked against naive references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include "meshflow/core/dtype.h"
#include "meshflow/core/shape.h"
#include "meshflow/core/tensor.h"

namespace mf {
namespace {

// Element i of a tensor holds i (as the tensor's dtype), so every copied value says where
// it came from.
Tensor iota(const Shape& shape, DType dtype = DType::kFloat32) {
  Tensor t = Tensor::empty(shape, dtype);
  visit_dtype(dtype, [&](auto v) {
    using T = decltype(v);
    for (int64_t i = 0; i < t.numel(); ++i) t.data_as<T>()[i] = static_cast<T>(i);
  });
  return t;
}

Tensor filled(const Shape& shape, float value) {
  Tensor t = Tensor::empty(shape, DType::kFloat32);
  for (int64_t i = 0; i < t.numel(); ++i) t.data_as<float>()[i] = value;
  return t;
}

int64_t flat_index(const Shape& index, const Shape& shape) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d) flat = flat * shape[d] + index[d];
  return flat;
}

// Row-major index -> multi-index within `extent`.
Shape unflatten(int64_t flat, const Shape& extent) {
  Shape index(extent.size());
  for (int64_t d = static_cast<int64_t>(extent.size()) - 1; d >= 0; --d) {
    index[d] = flat % extent[d];
    flat /= extent[d];
  }
  return index;
}

// The reference copy_box: one element at a time.
void naive_copy_box(const Tensor& src, const Box& box, const Tensor& dst, const Shape& dst_start) {
  for (int64_t i = 0; i < box.numel(); ++i) {
    Shape rel = unflatten(i, box.extent);
    Shape s = rel, d = rel;
    for (size_t k = 0; k < rel.size(); ++k) {
      s[k] += box.start[k];
      d[k] += dst_start[k];
    }
    dst.data_as<float>()[flat_index(d, dst.shape())] = src.data_as<float>()[flat_index(s, src.shape())];
  }
}

// The reference contiguity test: the box's elements, in row-major order, are consecutive.
int64_t naive_contiguous_offset(const Box& box, const Shape& shape) {
  if (box.empty()) return 0;
  int64_t first = -1, prev = -1;
  for (int64_t i = 0; i < box.numel(); ++i) {
    Shape idx = unflatten(i, box.extent);
    for (size_t k = 0; k < idx.size(); ++k) idx[k] += box.start[k];
    int64_t f = flat_index(idx, shape);
    if (first < 0) first = f;
    if (prev >= 0 && f != prev + 1) return -1;
    prev = f;
  }
  return first;
}

Box random_box(std::mt19937& rng, const Shape& shape) {
  Box b{Shape(shape.size()), Shape(shape.size())};
  for (size_t d = 0; d < shape.size(); ++d) {
    b.start[d] = std::uniform_int_distribution<int64_t>(0, shape[d])(rng);
    b.extent[d] = std::uniform_int_distribution<int64_t>(0, shape[d] - b.start[d])(rng);
  }
  return b;
}

TEST(Shape, Numel) {
  EXPECT_EQ(numel({}), 1);  // a scalar
  EXPECT_EQ(numel({7}), 7);
  EXPECT_EQ(numel({2, 3, 4}), 24);
  EXPECT_EQ(numel({2, 0, 4}), 0);
  EXPECT_EQ(to_string({2, 3}), "[2, 3]");
  EXPECT_EQ(to_string({}), "[]");
}

TEST(Box, WholeAndStr) {
  Box b = Box::whole({2, 3});
  EXPECT_EQ(b.start, (Shape{0, 0}));
  EXPECT_EQ(b.extent, (Shape{2, 3}));
  EXPECT_EQ(b.numel(), 6);
  EXPECT_FALSE(b.empty());
  EXPECT_EQ(b.str(), "[0:2, 0:3]");
  EXPECT_TRUE((Box{{1, 0}, {0, 3}}).empty());
}

TEST(Box, Intersect) {
  Box a{{0, 0}, {4, 4}}, b{{2, 1}, {4, 2}};
  EXPECT_EQ(intersect(a, b), (Box{{2, 1}, {2, 2}}));
  EXPECT_EQ(intersect(b, a), (Box{{2, 1}, {2, 2}}));
  EXPECT_EQ(intersect(a, a), a);
  // Disjoint along dim 0: empty, extent 0 there.
  Box c{{5, 0}, {2, 4}};
  Box none = intersect(a, c);
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.extent[0], 0);
  // Touching edges do not overlap.
  EXPECT_TRUE(intersect(Box{{0}, {3}}, Box{{3}, {2}}).empty());
  // An empty box intersects to empty.
  EXPECT_TRUE(intersect(a, Box{{1, 1}, {0, 2}}).empty());
}

TEST(Box, RelativeTo) {
  Box outer{{2, 4}, {5, 5}}, inner{{3, 6}, {1, 2}};
  EXPECT_EQ(relative_to(inner, outer), (Box{{1, 2}, {1, 2}}));
  EXPECT_EQ(relative_to(outer, outer), (Box{{0, 0}, {5, 5}}));
}

TEST(Box, ContiguousOffset) {
  const Shape shape{4, 5, 3};
  // Whole rows of the last dims: contiguous.
  EXPECT_EQ(contiguous_offset(Box::whole(shape), shape), 0);
  EXPECT_EQ(contiguous_offset({{1, 0, 0}, {2, 5, 3}}, shape), 15);
  EXPECT_EQ(contiguous_offset({{2, 1, 0}, {1, 3, 3}}, shape), 2 * 15 + 3);
  EXPECT_EQ(contiguous_offset({{2, 1, 1}, {1, 1, 2}}, shape), 2 * 15 + 3 + 1);
  EXPECT_EQ(contiguous_offset({{3, 4, 2}, {1, 1, 1}}, shape), numel(shape) - 1);
  // Not contiguous: a partial inner dim under a non-unit outer one.
  EXPECT_EQ(contiguous_offset({{0, 0, 0}, {2, 4, 3}}, shape), -1);
  EXPECT_EQ(contiguous_offset({{0, 0, 0}, {1, 2, 2}}, shape), -1);
  EXPECT_EQ(contiguous_offset({{0, 1, 0}, {2, 4, 3}}, shape), -1);
  // Empty boxes count as contiguous, at offset 0.
  EXPECT_EQ(contiguous_offset({{1, 2, 0}, {2, 0, 3}}, shape), 0);
  // Scalars and 1-d.
  EXPECT_EQ(contiguous_offset({{}, {}}, {}), 0);
  EXPECT_EQ(contiguous_offset({{3}, {4}}, {9}), 3);

  // Every box of a few small shapes, against the element-by-element definition.
  std::mt19937 rng(1);
  for (const Shape& s : {Shape{6}, Shape{3, 4}, Shape{2, 3, 4}, Shape{1, 3, 1, 2}}) {
    for (int trial = 0; trial < 400; ++trial) {
      Box b = random_box(rng, s);
      EXPECT_EQ(contiguous_offset(b, s), naive_contiguous_offset(b, s)) << b.str() << " in " << to_string(s);
    }
  }
}

// The reference: the box's elements in row-major order, consecutive ones joined.
std::vector<std::pair<int64_t, int64_t>> naive_runs(const Box& box, const Shape& shape) {
  std::vector<std::pair<int64_t, int64_t>> runs;
  for (int64_t i = 0; i < box.numel(); ++i) {
    Shape idx = unflatten(i, box.extent);
    for (size_t k = 0; k < idx.size(); ++k) idx[k] += box.start[k];
    const int64_t f = flat_index(idx, shape);
    if (!runs.empty() && runs.back().first + runs.back().second == f) {
      ++runs.back().second;
    } else {
      runs.emplace_back(f, 1);
    }
  }
  return runs;
}

TEST(Box, ContiguousRuns) {
  const Shape shape{4, 5, 3};
  using Runs = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_EQ(contiguous_runs(Box::whole(shape), shape), (Runs{{0, 60}}));
  EXPECT_EQ(contiguous_runs({{1, 2, 0}, {2, 2, 3}}, shape), (Runs{{21, 6}, {36, 6}}));  // rows of whole dims
  EXPECT_EQ(contiguous_runs({{0, 0, 1}, {1, 2, 2}}, shape), (Runs{{1, 2}, {4, 2}}));
  EXPECT_TRUE(contiguous_runs({{0, 0, 0}, {2, 0, 3}}, shape).empty());
  std::mt19937 rng(3);
  for (const Shape& s : {Shape{6}, Shape{3, 4}, Shape{2, 3, 4}, Shape{1, 3, 1, 2}}) {
    for (int trial = 0; trial < 400; ++trial) {
      Box b = random_box(rng, s);
      EXPECT_EQ(contiguous_runs(b, s), naive_runs(b, s)) << b.str() << " in " << to_string(s);
    }
  }
}

TEST(DType, NamesAndSizes) {
  EXPECT_STREQ(dtype_name(DType::kFloat32), "float32");
  EXPECT_STREQ(dtype_name(DType::kFloat64), "float64");
  EXPECT_STREQ(dtype_name(DType::kInt32), "int32");
  EXPECT_STREQ(dtype_name(DType::kInt64), "int64");
  EXPECT_EQ(dtype_size(DType::kFloat32), 4u);
  EXPECT_EQ(dtype_size(DType::kFloat64), 8u);
  EXPECT_EQ(dtype_size(DType::kInt32), 4u);
  EXPECT_EQ(dtype_size(DType::kInt64), 8u);
  EXPECT_EQ(dtype_size(DType::kBool), 1u);
  EXPECT_EQ(dtype_size(DType::kFloat16), 2u);
  EXPECT_EQ(dtype_size(DType::kUInt8), 1u);
  EXPECT_EQ(dtype_size(DType::kInt8), 1u);
  EXPECT_EQ(dtype_size(DType::kInt16), 2u);
  EXPECT_FALSE(is_floating(DType::kBool));
  EXPECT_TRUE(is_floating(DType::kFloat16));
  EXPECT_TRUE(is_small_int(DType::kUInt8) && !is_small_int(DType::kInt32) && !is_floating(DType::kInt16));
  for (DType d : {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kInt64, DType::kBFloat16, DType::kBool,
                  DType::kFloat16, DType::kUInt8, DType::kInt8, DType::kInt16}) {
    EXPECT_EQ(dtype_from_name(dtype_name(d)), d);
  }
  EXPECT_STREQ(reduce_op_name(ReduceOp::kSum), "sum");
  EXPECT_STREQ(reduce_op_name(ReduceOp::kMax), "max");
  EXPECT_STREQ(reduce_op_name(ReduceOp::kMin), "min");
}

TEST(DType, FromNameErrorNamesTheChoices) {
  try {
    dtype_from_name("float8");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("'float8'"), std::string::npos) << msg;
    for (const char* name : {"float32", "float64", "int32", "int64", "bfloat16", "bool", "float16", "uint8", "int8",
                             "int16", "complex64", "complex128"}) {
      EXPECT_NE(msg.find(name), std::string::npos) << msg;
    }
  }
}

TEST(Tensor, FactoriesAndView) {
  Tensor z = Tensor::zeros({2, 3}, DType::kInt64);
  EXPECT_EQ(z.shape(), (Shape{2, 3}));
  EXPECT_EQ(z.ndim(), 2);
  EXPECT_EQ(z.nbytes(), 48u);
  for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(z.data_as<int64_t>()[i], 0);

  Tensor t = iota({3, 4});
  Tensor v = t.view(4, {2, 4});
  EXPECT_EQ(v.data(), t.data_as<float>() + 4);
  EXPECT_EQ(v.storage(), t.storage());
  EXPECT_EQ(v.data_as<float>()[0], 4.0f);
  EXPECT_THROW(t.view(8, {2, 4}), std::out_of_range);

  Tensor c = t.clone();
  EXPECT_NE(c.data(), t.data());
  EXPECT_TRUE(equal(c, t));
  EXPECT_EQ(c.content_hash(), t.content_hash());
  c.data_as<float>()[5] = -1;
  EXPECT_FALSE(equal(c, t));
  EXPECT_NE(c.content_hash(), t.content_hash());

  EXPECT_THROW(Tensor::empty({2, -1}, DType::kFloat32), std::invalid_argument);
  Tensor none = Tensor::empty({0, 5}, DType::kFloat32);
  EXPECT_EQ(none.numel(), 0);
  EXPECT_EQ(none.nbytes(), 0u);
}

TEST(Tensor, CopyBoxMatchesNaiveReference) {
  std::mt19937 rng(7);
  for (const Shape& shape : {Shape{9}, Shape{5, 6}, Shape{3, 4, 5}, Shape{4, 1, 3}}) {
    for (int trial = 0; trial < 300; ++trial) {
      Tensor src = iota(shape);
      Box box = random_box(rng, shape);
      // A destination at least as large as the box along each dim, at a random offset.
      Shape dst_shape(shape.size()), dst_start(shape.size());
      for (size_t d = 0; d < shape.size(); ++d) {
        dst_shape[d] = box.extent[d] + std::uniform_int_distribution<int64_t>(0, 3)(rng);
        dst_start[d] = std::uniform_int_distribution<int64_t>(0, dst_shape[d] - box.extent[d])(rng);
      }
      Tensor got = filled(dst_shape, -1), want = filled(dst_shape, -1);
      copy_box(src, box, got, dst_start);
      naive_copy_box(src, box, want, dst_start);
      ASSERT_TRUE(equal(got, want)) << "box " << box.str() << " of " << to_string(shape) << " into "
                                    << to_string(dst_shape) << " at " << to_string(dst_start);
    }
  }
}

TEST(Tensor, CopyBoxWholeRowsAndScalars) {
  // Whole trailing dims in both tensors take the one-memcpy path; they must still land right.
  Tensor src = iota({4, 3, 2});
  Tensor dst = filled({6, 3, 2}, -1);
  copy_box(src, {{1, 0, 0}, {2, 3, 2}}, dst, {3, 0, 0});
  Tensor want = filled({6, 3, 2}, -1);
  naive_copy_box(src, {{1, 0, 0}, {2, 3, 2}}, want, {3, 0, 0});
  EXPECT_TRUE(equal(dst, want));

  Tensor s = Tensor::empty({}, DType::kFloat32), d = Tensor::zeros({}, DType::kFloat32);
  s.data_as<float>()[0] = 3.5f;
  copy_box(s, Box::whole({}), d, {});
  EXPECT_EQ(d.data_as<float>()[0], 3.5f);

  EXPECT_THROW(copy_box(iota({2}), Box::whole({2}), Tensor::zeros({2}, DType::kInt32), {0}), std::invalid_argument);
}

TEST(Tensor, SliceIsAViewWhenContiguous) {
  Tensor t = iota({4, 5, 3});
  Box rows{{1, 0, 0}, {2, 5, 3}};
  Tensor v = slice(t, rows);
  EXPECT_EQ(v.shape(), (Shape{2, 5, 3}));
  EXPECT_EQ(v.data(), t.data_as<float>() + 15);
  EXPECT_EQ(v.storage(), t.storage());

  Box part_of_row{{2, 1, 0}, {1, 3, 3}};
  Tensor w = slice(t, part_of_row);
  EXPECT_EQ(w.data(), t.data_as<float>() + 33);

  // Not contiguous: a fresh copy with the right values.
  Box columns{{0, 1, 0}, {4, 2, 3}};
  Tensor c = slice(t, columns);
  EXPECT_EQ(c.shape(), (Shape{4, 2, 3}));
  EXPECT_NE(c.storage(), t.storage());
  Tensor want = filled({4, 2, 3}, -1);
  naive_copy_box(t, columns, want, {0, 0, 0});
  EXPECT_TRUE(equal(c, want));
  // Writing the copy leaves the source alone.
  c.data_as<float>()[0] = 1000;
  EXPECT_EQ(t.data_as<float>()[3], 3.0f);

  // Empty regions: an empty view.
  Tensor e = slice(t, {{4, 0, 0}, {0, 5, 3}});
  EXPECT_EQ(e.shape(), (Shape{0, 5, 3}));
  EXPECT_EQ(e.numel(), 0);
}

template <typename T>
void check_reduce_into(DType dtype) {
  const Shape shape{5};
  const T a_vals[] = {1, -2, 3, 0, 7};
  const T b_vals[] = {4, -5, 3, -1, 2};
  for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin}) {
    Tensor acc = Tensor::empty(shape, dtype), x = Tensor::empty(shape, dtype);
    for (int i = 0; i < 5; ++i) {
      acc.data_as<T>()[i] = a_vals[i];
      x.data_as<T>()[i] = b_vals[i];
    }
    reduce_into(acc, x, op);
    for (int i = 0; i < 5; ++i) {
      T want = op == ReduceOp::kSum ? a_vals[i] + b_vals[i]
               : op == ReduceOp::kMax ? std::max(a_vals[i], b_vals[i])
                                      : std::min(a_vals[i], b_vals[i]);
      EXPECT_EQ(acc.data_as<T>()[i], want) << dtype_name(dtype) << " " << reduce_op_name(op) << " at " << i;
      EXPECT_EQ(x.data_as<T>()[i], b_vals[i]);  // x is read only
    }
    // The identity of op leaves any value unchanged.
    Tensor id = Tensor::identity_of(op, shape, dtype);
    reduce_into(id, x, op);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(id.data_as<T>()[i], b_vals[i]) << reduce_op_name(op);
  }
}

TEST(Tensor, ReduceIntoEveryDtype) {
  check_reduce_into<float>(DType::kFloat32);
  check_reduce_into<double>(DType::kFloat64);
  check_reduce_into<int32_t>(DType::kInt32);
  check_reduce_into<int64_t>(DType::kInt64);
}

TEST(Tensor, ReduceIntoRejectsMismatches) {
  EXPECT_THROW(reduce_into(Tensor::zeros({2}, DType::kFloat32), Tensor::zeros({3}, DType::kFloat32), ReduceOp::kSum),
               std::invalid_argument);
  EXPECT_THROW(reduce_into(Tensor::zeros({2}, DType::kFloat32), Tensor::zeros({2}, DType::kInt32), ReduceOp::kSum),
               std::invalid_argument);
}

TEST(Tensor, IdentityOf) {
  Tensor s = Tensor::identity_of(ReduceOp::kSum, {3}, DType::kFloat32);
  Tensor mx = Tensor::identity_of(ReduceOp::kMax, {3}, DType::kFloat32);
  Tensor mn = Tensor::identity_of(ReduceOp::kMin, {3}, DType::kFloat64);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(s.data_as<float>()[i], 0.0f);
    EXPECT_EQ(mx.data_as<float>()[i], -std::numeric_limits<float>::infinity());
    EXPECT_EQ(mn.data_as<double>()[i], std::numeric_limits<double>::infinity());
  }
  Tensor imx = Tensor::identity_of(ReduceOp::kMax, {2}, DType::kInt32);
  Tensor imn = Tensor::identity_of(ReduceOp::kMin, {2}, DType::kInt64);
  Tensor isum = Tensor::identity_of(ReduceOp::kSum, {2}, DType::kInt64);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(imx.data_as<int32_t>()[i], std::numeric_limits<int32_t>::lowest());
    EXPECT_EQ(imn.data_as<int64_t>()[i], std::numeric_limits<int64_t>::max());
    EXPECT_EQ(isum.data_as<int64_t>()[i], 0);
  }
  EXPECT_EQ(Tensor::identity_of(ReduceOp::kMax, {0, 4}, DType::kFloat32).numel(), 0);
}

}  // namespace
}  // namespace mf

namespace mf {
namespace {

// Shape keeps short shapes inline and spills longer ones to the heap; it must behave as the
// std::vector<int64_t> it replaced either way.
TEST(ShapeStorage, BehavesAsAVectorInlineAndSpilled) {
  for (size_t n : {size_t{0}, size_t{3}, Shape::kInline, Shape::kInline + 1, size_t{20}}) {
    std::vector<int64_t> v;
    Shape s;
    for (size_t i = 0; i < n; ++i) {
      v.push_back(static_cast<int64_t>(i * 7 - 3));
      s.push_back(static_cast<int64_t>(i * 7 - 3));
    }
    EXPECT_EQ(s.vec(), v);
    Shape copy = s;
    Shape moved = std::move(copy);
    EXPECT_EQ(moved, s);
    EXPECT_TRUE(copy.empty());  // NOLINT: a moved-from shape is empty
    moved.insert(moved.begin(), 42);
    v.insert(v.begin(), 42);
    moved.insert(moved.end(), {1, 2});
    v.insert(v.end(), {1, 2});
    moved.insert(moved.begin() + 1, moved.begin(), moved.begin() + 2);  // from itself
    v.insert(v.begin() + 1, v.begin(), v.begin() + 2);
    EXPECT_EQ(moved.vec(), v);
    moved.erase(moved.begin() + 1, moved.begin() + 3);
    v.erase(v.begin() + 1, v.begin() + 3);
    EXPECT_EQ(moved.vec(), v);
    Shape assigned;
    assigned = moved;
    EXPECT_EQ(assigned, moved);
    assigned = std::move(moved);
    EXPECT_EQ(assigned.vec(), v);
    EXPECT_EQ(Shape(v), assigned);
  }
  EXPECT_EQ(Shape(3, 1), (Shape{1, 1, 1}));
  EXPECT_EQ(Shape{3}.size(), 1u);  // braces list dims, as with std::vector
  EXPECT_LT((Shape{1, 2}), (Shape{1, 3}));
  EXPECT_LT((Shape{1, 2}), (Shape{1, 2, 0}));
  EXPECT_THROW(Shape{1}.at(1), std::out_of_range);
}

}  // namespace
}  // namespace mf
