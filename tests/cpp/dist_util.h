// Copyright 2026 The meshflow Authors.
// Helpers for the multi-rank suites: logical values, each rank's part of a layout built
// independently of the library (with non-trivial partial values), and rank checks.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "meshflow/device/device.h"
#include "meshflow/boxing/execute.h"
#include "meshflow/comm/comm.h"
#include "meshflow/global/global_tensor.h"

namespace mf::test {

// GTEST_SKIP returns from the test body, so this must be used in the body itself.
#define REQUIRE_RANKS(n)                                                                        \
  if (comm::world_size() < (n)) {                                                               \
    GTEST_SKIP() << "needs " << (n) << " ranks, the world has " << comm::world_size();          \
  }

// The suites run in worlds of several sizes (scripts/test: 1, 2, 3, 4 and 6 ranks, the larger
// oversubscribed on small machines). A sweep over a placement of n ranks is checked in a world
// of n ranks and in one of n + 1, where a rank outside the placement takes part (an empty
// local, the collectives it joins); larger worlds would repeat it with more idle ranks and
// check nothing new, at several times the cost.
inline bool sweeps_here(int n) { return comm::world_size() >= n && comm::world_size() <= n + 1; }

#define SWEEP_RANKS(n)                                                                          \
  if (!sweeps_here(n)) {                                                                        \
    GTEST_SKIP() << "sweeps " << (n) << " ranks, in worlds of " << (n) << " and " << (n) + 1     \
                 << " ranks; the world has " << comm::world_size();                             \
  }

inline int me() { return comm::world_rank(); }

// Integer values from -20 to 20, varied enough that a misplaced element shows.
inline Tensor logical_value(const Shape& shape, DType dtype) {
  Tensor t = Tensor::empty(shape, dtype);
  visit_with_bool(dtype, [&](auto v) {  // bool: true for the positive ones
    using T = decltype(v);
    T* p = t.data_as<T>();
    for (int64_t i = 0; i < t.numel(); ++i) {
      const int64_t x = (i * 37 + 11) % 41 - 20;
      p[i] = std::is_same_v<T, bool> ? x > 0 : static_cast<T>(x);
    }
  });
  return t;
}

// Small nonnegative integer noise that depends on the element, the axis and the coordinate.
inline int64_t noise(int64_t element, int axis, int64_t coordinate) { return (element * 7 + axis * 3 + coordinate * 5) % 5; }

// The local value of the rank at `coordinate` (of n) along a partial `op` axis, given the
// value `v` that the axes outside it leave: reducing the n locals with `op` gives back `v`.
// Sum: coordinate 0 holds v minus the others' noise, the others hold noise. Max (min):
// one coordinate per element holds v, the others less (more).
inline Tensor partial_local(const Tensor& v, ReduceOp op, int axis, int64_t n, int64_t coordinate) {
  Tensor out = v.clone();
  if (is_half(v.dtype())) {  // coordinate 0 (sum) or one per element holds v, the others the identity
    visit_half(v.dtype(), [&](auto h) {
      using H = decltype(h);
      H* p = out.data_as<H>();
      const float identity = op == ReduceOp::kSum ? 0.0f : op == ReduceOp::kMax ? -INFINITY : INFINITY;
      for (int64_t i = 0; i < out.numel(); ++i) {
        if (op == ReduceOp::kSum ? coordinate != 0 : coordinate != (i + axis) % n) p[i] = from_float<H>(identity);
      }
    });
    return out;
  }
  if (v.dtype() == DType::kBool) {  // sums and maxima are ors, minima ands: the others hold the identity
    bool* p = out.data_as<bool>();
    for (int64_t i = 0; i < out.numel(); ++i) {
      if (op == ReduceOp::kSum ? coordinate != 0 : coordinate != (i + axis) % n) p[i] = op == ReduceOp::kMin;
    }
    return out;
  }
  visit_numbers(v.dtype(), [&](auto x) {
    using T = decltype(x);
    T* p = out.data_as<T>();
    for (int64_t i = 0; i < out.numel(); ++i) {
      if (op == ReduceOp::kSum) {
        if (coordinate != 0) {
          p[i] = static_cast<T>(noise(i, axis, coordinate));
          continue;
        }
        for (int64_t c = 1; c < n; ++c) p[i] = static_cast<T>(p[i] - noise(i, axis, c));  // small integers wrap
      } else if (coordinate != (i + axis) % n) {
        const int64_t below = 1 + noise(i, axis, coordinate);
        const T moved = static_cast<T>(op == ReduceOp::kMax ? p[i] - below : p[i] + below);
        // Where a small integer would wrap past its range's end, this coordinate holds v too.
        if (op == ReduceOp::kMax ? moved < p[i] : moved > p[i]) p[i] = moved;
      }
    }
  });
  return out;
}

// The part of `full` that `rank` holds under (placement, nd_sbp), derived independently of
// the library's local_box: axes outermost first; split cuts the current part into balanced
// pieces (the first n % k get one more), broadcast keeps it, partial spreads it into partial
// values. Ranks outside the placement hold an empty tensor.
inline Tensor local_part(const Tensor& full, const Placement& placement, const NdSbp& nd_sbp, int rank) {
  const int id = placement.parallel_id(rank);
  if (id < 0) return boxing::empty_local(full.shape(), full.dtype());
  const Shape coord = placement.coordinate(id);
  Tensor t = full;
  for (int axis = 0; axis < placement.ndim(); ++axis) {
    const Sbp& s = nd_sbp[axis];
    const int64_t n = placement.hierarchy()[axis], c = coord[axis];
    if (s.is_split()) {
      const int d = s.split_dim();
      const int64_t size = t.shape()[d], base = size / n, extra = size % n;
      Box piece = Box::whole(t.shape());
      piece.start[d] = c * base + std::min(c, extra);
      piece.extent[d] = base + (c < extra ? 1 : 0);
      t = slice(t, piece).clone();
    } else if (s.is_partial()) {
      t = partial_local(t, s.reduce_op(), axis, n, c);
    }
  }
  return t;
}

inline GlobalTensor make_source(const Tensor& full, const Placement& placement, const NdSbp& nd_sbp) {
  return make_global(local_part(full, placement, nd_sbp, me()), placement, nd_sbp, /*check_consistency=*/false);
}

// Whether this process has a GPU to check ops on: the CUDA device is built and a GPU is
// visible (elsewhere the CUDA checks are skipped; tests/cpp/cuda_test.cc says why).
inline bool gpu_here() {
  static const bool here = [] {
    if (!device::is_registered("cuda")) return false;
    try {
      device::get("cuda");
      return true;
    } catch (const std::invalid_argument&) {
      return false;
    }
  }();
  return here;
}

}  // namespace mf::test
