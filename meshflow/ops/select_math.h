// Copyright 2026 The meshflow Authors.
// max_dim's and min_dim's step, and torch's CPU quickselect (aten's quick_select_template),
// for kthvalue's kernels on every device: it moves the element of rank k (0-based; NaN the largest value) of a line to
// position k, and which of equal elements lands there is part of torch's result (the index
// kthvalue returns), so the CPU and CUDA kernels both follow torch's steps exactly rather
// than a stable order. Pure functions of their arguments: thread-safe.
#ifndef MESHFLOW_OPS_SELECT_MATH_H_
#define MESHFLOW_OPS_SELECT_MATH_H_

#include <cstdint>
#include <type_traits>

#ifdef __CUDACC__
#define MF_SELECT __host__ __device__ inline
#else
#define MF_SELECT inline
#endif

namespace mf::select {

// Whether v, met after acc along a line, takes acc's place as max_dim's pick (kMax) or
// min_dim's: v strictly beyond acc, or v NaN where acc is not, so that ties keep the first
// index and a line's first NaN stays (torch's CPU picks). Joined without short circuits: the
// CPU's loops blend.
template <bool kMax, typename T>
MF_SELECT bool replaces(T acc, T v) {
  const bool beyond = kMax ? !(v <= acc) : !(v >= acc);
  return beyond & (acc == acc);
}

// Whether a > b with NaN the largest value (torch's gt_or_nan).
template <typename T>
MF_SELECT bool greater(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool a_nan = a != a, b_nan = b != b;
    if (a_nan || b_nan) return a_nan && !b_nan;
  }
  return a > b;
}

// Reorders a line of n elements so that position k holds the element of rank k, by torch's
// steps (median-of-three pivots, Hoare partitions): value(i) reads element i, swap(i, j)
// exchanges two (with whatever travels with them: their positions).
template <typename Value, typename Swap>
MF_SELECT void quick_select(int64_t n, int64_t k, Value value, Swap swap) {
  int64_t lo = 0, hi = n - 1;
  while (hi > lo) {
    if (hi == lo + 1) {
      if (greater(value(lo), value(hi))) swap(lo, hi);
      return;
    }
    swap(lo + (hi - lo) / 2, lo + 1);  // the median of three becomes the pivot, at lo
    if (greater(value(lo + 1), value(hi))) swap(lo + 1, hi);
    if (greater(value(lo), value(hi))) swap(lo, hi);
    if (greater(value(lo + 1), value(lo))) swap(lo + 1, lo);
    int64_t i = lo + 1, j = hi;
    const auto pivot = value(lo);
    while (true) {
      do ++i; while (greater(pivot, value(i)));
      do --j; while (greater(value(j), pivot));
      if (j < i) break;
      swap(i, j);
    }
    swap(lo, j);
    if (j <= k) lo = i;
    if (j >= k) hi = j - 1;
  }
}

}  // namespace mf::select

#undef MF_SELECT

#endif  // MESHFLOW_OPS_SELECT_MATH_H_
