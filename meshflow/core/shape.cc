// Copyright 2026 The meshflow Authors.
#include "meshflow/core/shape.h"

#include <algorithm>
#include <stdexcept>

namespace mf {

size_t Shape::checked(size_t i) const {
  if (i >= size_) throw std::out_of_range("shape index " + std::to_string(i) + " out of range for " + to_string(*this));
  return i;
}

int64_t numel(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (__builtin_mul_overflow(n, d, &n)) {
      throw std::invalid_argument("shape " + to_string(shape) + " has more elements than int64 can count");
    }
  }
  return n;
}

int64_t checked_nbytes(const Shape& shape, size_t element_size) {
  int64_t bytes;
  if (__builtin_mul_overflow(numel(shape), static_cast<int64_t>(element_size), &bytes)) {
    throw std::invalid_argument("shape " + to_string(shape) + " of " + std::to_string(element_size) +
                                "-byte elements has more bytes than int64 can count");
  }
  return bytes;
}

Shape row_major_strides(const Shape& shape) {
  Shape strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

std::string to_string(const Shape& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

std::string Box::str() const {
  std::string s = "[";
  for (size_t i = 0; i < start.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(start[i]) + ":" + std::to_string(start[i] + extent[i]);
  }
  return s + "]";
}

Box intersect(const Box& a, const Box& b) {
  Box r{Shape(a.start.size()), Shape(a.start.size())};
  for (size_t i = 0; i < a.start.size(); ++i) {
    int64_t lo = std::max(a.start[i], b.start[i]);
    int64_t hi = std::min(a.start[i] + a.extent[i], b.start[i] + b.extent[i]);
    r.start[i] = lo;
    r.extent[i] = std::max<int64_t>(0, hi - lo);
  }
  return r;
}

Box relative_to(const Box& inner, const Box& outer) {
  Box r = inner;
  for (size_t i = 0; i < r.start.size(); ++i) r.start[i] -= outer.start[i];
  return r;
}

int64_t contiguous_offset(const Box& box, const Shape& shape) {
  if (box.empty()) return 0;
  // Row-major: contiguous iff every dim after the first non-unit extent is whole.
  size_t d = 0;
  while (d < shape.size() && box.extent[d] == 1) ++d;
  for (size_t i = d + 1; i < shape.size(); ++i) {
    if (box.start[i] != 0 || box.extent[i] != shape[i]) return -1;
  }
  int64_t offset = 0;
  for (size_t i = 0; i < shape.size(); ++i) offset = offset * shape[i] + box.start[i];
  return offset;
}

std::vector<std::pair<int64_t, int64_t>> contiguous_runs(const Box& box, const Shape& shape) {
  std::vector<std::pair<int64_t, int64_t>> runs;
  if (box.empty()) return runs;
  // A run spans dims [outer, nd): dims after `outer` whole, so each index of the dims
  // before it starts one run.
  size_t outer = shape.size();
  int64_t length = 1;
  while (outer > 0) {
    --outer;
    length *= box.extent[outer];
    if (box.start[outer] != 0 || box.extent[outer] != shape[outer]) break;
  }
  std::vector<int64_t> stride(shape.size(), 1);  // row-major, in elements
  for (size_t i = shape.size(); i-- > 1;) stride[i - 1] = stride[i] * shape[i];
  int64_t base = 0;  // the offset of the current run of the innermost outer dim's first index
  for (size_t i = 0; i < shape.size(); ++i) base += box.start[i] * stride[i];
  if (outer == 0) {
    runs.emplace_back(base, length);
    return runs;
  }
  int64_t count = 1;
  for (size_t d = 0; d < outer; ++d) count *= box.extent[d];
  runs.reserve(static_cast<size_t>(count));
  const size_t last = outer - 1;  // each of its indices starts a run
  Shape index(last, 0);           // over the box's extent in dims [0, last)
  for (;;) {
    for (int64_t i = 0; i < box.extent[last]; ++i) runs.emplace_back(base + i * stride[last], length);
    size_t d = last;
    for (;;) {
      if (d == 0) return runs;
      --d;
      base += stride[d];
      if (++index[d] < box.extent[d]) break;
      base -= box.extent[d] * stride[d];
      index[d] = 0;
    }
  }
}

}  // namespace mf
