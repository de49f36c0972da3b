// Copyright 2026 The meshflow Authors.
// PyTorch's stride rules, for the strides meshflow reports of views (Tensor.stride(),
// is_contiguous()) and the choices that follow from them (whether view() may take a shape,
// whether reshape() or contiguous() copies): meshflow's own tensors are dense, so these
// strides are the bookkeeping of what torch's would be (python/meshflow/_inplace.py keeps
// them per view; python/op_calls.cc's fast paths decide with them too). One definition for
// both.
// Header-only, pure functions: thread-safe.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "meshflow/core/shape.h"

namespace mf {

// Row-major strides of `shape` (a dim of 0 counts as 1, as torch's).
inline std::vector<int64_t> dense_strides(const Shape& shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t step = 1;
  for (size_t i = shape.size(); i > 0; --i) {
    strides[i - 1] = step;
    step *= std::max<int64_t>(shape[i - 1], 1);
  }
  return strides;
}

// torch's is_contiguous of these strides: dense where dims have more than one element (trailing
// dims paired, where the two lists differ in length).
inline bool strides_contiguous(const Shape& shape, const std::vector<int64_t>& strides) {
  int64_t expected = 1;
  for (size_t i = shape.size(), j = strides.size(); i > 0 && j > 0;) {
    const int64_t n = shape[--i], st = strides[--j];
    if (n == 0) return true;
    if (n == 1) continue;
    if (st != expected) return false;
    expected *= n;
  }
  return true;
}

// The strides of elements of `shape` (with these strides) viewed in `new_shape`, or nullopt
// where torch cannot view them so (ATen's computeStride: merged dims must be contiguous
// among themselves).
inline std::optional<std::vector<int64_t>> viewed_strides(const Shape& shape, const std::vector<int64_t>& strides,
                                                          const Shape& new_shape) {
  if (shape.empty() || std::find(shape.begin(), shape.end(), 0) != shape.end()) return dense_strides(new_shape);
  std::vector<int64_t> out(new_shape.size());
  auto view_d = static_cast<int64_t>(new_shape.size()) - 1;
  int64_t chunk_base_stride = strides.back(), tensor_numel = 1, view_numel = 1;
  for (auto tensor_d = static_cast<int64_t>(shape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= shape[tensor_d];
    if (tensor_d == 0 ||
        (shape[tensor_d - 1] != 1 && strides[tensor_d - 1] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || new_shape[view_d] == 1)) {
        out[view_d] = view_numel * chunk_base_stride;
        view_numel *= new_shape[view_d];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) chunk_base_stride = strides[tensor_d - 1], tensor_numel = 1, view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return out;
}

// The strides of an expand of `shape` (with these strides) to `new_shape` (ATen's
// inferExpandGeometry): 0 for a dim stretched from one element; a leading dim expand adds
// takes the stride it would have over the dims after it, or 0 where it has more than one
// element.
inline std::vector<int64_t> expanded_strides(const Shape& shape, const std::vector<int64_t>& strides,
                                             const Shape& new_shape) {
  std::vector<int64_t> out(new_shape.size());
  const size_t added = new_shape.size() - shape.size();
  for (size_t i = new_shape.size(); i > 0; --i) {
    const size_t d = i - 1;
    const bool is_new = d < added;
    const int64_t size = is_new ? 1 : shape[d - added];
    int64_t stride = !is_new ? strides[d - added] : d + 1 == new_shape.size() ? 1 : new_shape[d + 1] * out[d + 1];
    if (size != new_shape[d]) stride = 0;
    out[d] = stride;
  }
  return out;
}

}  // namespace mf
