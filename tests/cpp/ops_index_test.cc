// Copyright 2026 The meshflow Authors.
// The indexing ops (index.cc) under mpirun: every valid signature on every mesh against the
// single-device result (op_check.h), for even, uneven, broadcast and zero-size shapes; the
// values against hand-computed ones (repeated positions: the last write stays, accumulate
// adds); and bad input, which must fail with the same clear error on every rank.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/cpp/op_check.h"

namespace mf {
namespace {

using namespace test;  // NOLINT: the suite's helpers

Tensor value(const Shape& shape, DType dtype = DType::kFloat32) { return logical_value(shape, dtype); }

// Calls f(I{}) with I the C++ type of an index dtype (int32 or int64).
template <typename F>
void visit_index(DType dtype, F&& f) {
  if (dtype == DType::kInt32) {
    f(int32_t{});
  } else {
    f(int64_t{});
  }
}

// Indices (int32 or int64) from the given values.
Tensor ints(const Shape& shape, DType dtype, const std::vector<int64_t>& v) {
  Tensor t = Tensor::empty(shape, dtype);
  visit_index(dtype, [&](auto iv) {
    using I = decltype(iv);
    for (int64_t i = 0; i < t.numel(); ++i) t.data_as<I>()[i] = static_cast<I>(v[static_cast<size_t>(i)]);
  });
  return t;
}

// Indices in [lo, lo + span), spread so that every shard touches several.
Tensor spread(const Shape& shape, DType dtype, int64_t lo, int64_t span) {
  std::vector<int64_t> v(static_cast<size_t>(numel(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = lo + static_cast<int64_t>(i * 5 + 3) % span;
  return ints(shape, dtype, v);
}

std::vector<int64_t> as_ints(const Tensor& t) {
  std::vector<int64_t> v;
  visit_index(t.dtype(), [&](auto iv) {
    using I = decltype(iv);
    for (int64_t i = 0; i < t.numel(); ++i) v.push_back(static_cast<int64_t>(t.data_as<I>()[i]));
  });
  return v;
}

std::vector<Tensor> local(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs = {}) {
  return apply_local(find_op(op), inputs, attrs);
}

Attrs flat_attrs(const std::vector<int64_t>& sizes, bool wrap) { return {{"sizes", sizes}, {"wrap", wrap}}; }

TEST(IndexFlatIndex, Values) {
  // [2, 3] positions of (i, j) = (1, -1), (0, 2), broadcast against j = [0, 1].
  const Tensor i = ints({2, 1}, DType::kInt64, {1, 0});
  const Tensor j = ints({2}, DType::kInt32, {-1, 2});
  EXPECT_EQ(as_ints(local("flat_index", {i, j}, flat_attrs({2, 3}, true))[0]), (std::vector<int64_t>{5, 5, 2, 2}));
}

TEST(IndexFlatIndex, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    check("flat_index", {spread({5, 3}, DType::kInt64, -4, 8), spread({3}, DType::kInt32, 0, 6)},
          flat_attrs({4, 6}, true), p, 0);
    check("flat_index", {spread({7}, DType::kInt64, 0, 9)}, flat_attrs({9}, false), p, 0);
    check("flat_index", {spread({0, 2}, DType::kInt64, 0, 3), spread({1, 2}, DType::kInt64, 0, 3)},
          flat_attrs({3, 3}, false), p, 0);
  }
}

TEST(IndexFlatIndex, BadInput) {
  expect_error([&] { local("flat_index", {ints({2}, DType::kInt64, {0, 3})}, flat_attrs({3}, false)); },
               "[flat_index] index 3 is out of bounds for dimension 0 with size 3");
  expect_error(
      [&] {
        local("flat_index", {ints({1}, DType::kInt64, {-4})}, {{"sizes", std::vector<int64_t>{3}}, {"wrap", true},
                                                               {"dims", std::vector<int64_t>{2}}});
      },
      "[flat_index] index -4 is out of bounds for dimension 2 with size 3");
  // Many indices (a parallel loop): the first bad one in row-major order is named.
  std::vector<int64_t> many(100000, 1);
  many[70001] = 9;
  many[90000] = -8;
  many[5] = 7;
  expect_error([&] { local("flat_index", {ints({100000}, DType::kInt32, many)}, flat_attrs({4}, false)); },
               "[flat_index] index 7 is out of bounds for dimension 0 with size 4");
  expect_error([&] { local("flat_index", {value({2})}, flat_attrs({3}, false)); },
               "[flat_index] the dtype of index 0 is float32; expected int32 or int64");
  expect_error([&] { local("flat_index", {ints({1}, DType::kInt64, {0})}, flat_attrs({3, 3}, false)); },
               "[flat_index] takes one index tensor per size; got 1 tensors and 2 sizes");
}

Attrs put_attrs(bool accumulate) { return {{"accumulate", accumulate}}; }

TEST(IndexPut, Values) {
  const Tensor x = ints({2, 3}, DType::kInt64, {0, 1, 2, 3, 4, 5});
  const Tensor pos = ints({4}, DType::kInt32, {4, 0, 4, 5});
  const Tensor v = ints({4}, DType::kInt64, {10, 20, 30, 40});
  EXPECT_EQ(as_ints(local("index_put", {x, pos, v}, put_attrs(false))[0]), (std::vector<int64_t>{20, 1, 2, 3, 30, 40}));
  EXPECT_EQ(as_ints(local("index_put", {x, pos, v}, put_attrs(true))[0]), (std::vector<int64_t>{20, 1, 2, 3, 44, 45}));
}

TEST(IndexPut, EverySignatureMatchesOneDevice) {
  for (const Placement& p : op_meshes()) {
    for (bool accumulate : {false, true}) {
      check("index_put", {value({5, 7}), spread({9}, DType::kInt64, 0, 35), value({9})}, put_attrs(accumulate), p, 0);
      check("index_put", {value({3, 4, 5}, DType::kFloat64), spread({2, 6}, DType::kInt32, 0, 60),
                          value({2, 6}, DType::kFloat64)}, put_attrs(accumulate), p, 0);
      check("index_put", {value({5}, DType::kInt32), spread({0}, DType::kInt64, 0, 5), value({0}, DType::kInt32)},
            put_attrs(accumulate), p, 0);
    }
  }
}

TEST(IndexPut, BadInput) {
  expect_error([&] { local("index_put", {value({2, 3}), ints({1}, DType::kInt64, {6}), value({1})}, put_attrs(false)); },
               "[index_put] position 6 is out of range; expected positions in [0, 6)");
  expect_error([&] { local("index_put", {value({2, 3}), ints({2}, DType::kInt64, {1, 2}), value({1})}, put_attrs(false)); },
               "[index_put] values have shape [1]; expected the positions' shape [2]");
  expect_error(
      [&] {
        local("index_put", {value({2, 3}), ints({1}, DType::kInt64, {1}), value({1}, DType::kFloat64)}, put_attrs(false));
      },
      "[index_put]");
}

}  // namespace
}  // namespace mf
