// Copyright 2026 The meshflow Authors.
// Shapes and boxes (axis-aligned regions of an N-d index space). Value types.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mf {

using Shape = std::vector<int64_t>;

int64_t numel(const Shape& shape);
// Elements between consecutive indices of each dim in row-major order.
Shape row_major_strides(const Shape& shape);
std::string to_string(const Shape& shape);  // "[2, 3]"

// A region [start, start + extent) of an N-d index space. Invariant: start.size() ==
// extent.size() and every extent >= 0.
struct Box {
  Shape start;
  Shape extent;

  static Box whole(const Shape& shape) { return {Shape(shape.size(), 0), shape}; }
  int64_t numel() const { return mf::numel(extent); }
  bool empty() const { return numel() == 0; }
  bool operator==(const Box& o) const { return start == o.start && extent == o.extent; }
  bool operator!=(const Box& o) const { return !(*this == o); }
  std::string str() const;
};

// The common region of a and b (extent 0 somewhere when they do not overlap).
Box intersect(const Box& a, const Box& b);
// `inner` expressed in the coordinates of `outer`'s start. Requires inner inside outer.
Box relative_to(const Box& inner, const Box& outer);
// When `box` (inside a row-major tensor of `shape`) is one contiguous run of memory,
// returns its first element's offset; otherwise -1. Empty boxes count as contiguous.
int64_t contiguous_offset(const Box& box, const Shape& shape);

}  // namespace mf
