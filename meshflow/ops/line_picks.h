// Copyright 2026 The meshflow Authors.
// Picks along one line that follow torch's CPU kernels step for step, written once for the
// CPU's kernels (ops/sort.cc) and the GPU's (ops/cuda/sort.cu), so that among equal values
// both devices return the index torch's CPU returns:
//  - running_takes: cummax's and cummin's rule (torch's cummax_cummin_helper): a later equal
//    value takes the index (>= for cummax, <= for cummin); a NaN takes it always and holds it
//    against every later number;
//  - mode_pick: torch's CPU mode_kernel: std::sort of the line's (value, position) pairs by
//    value (plain <), then the longest run of equal values, the first (smallest) of equally
//    long ones, and the position of that run's last pair (std::sort's order decides which
//    occurrence that is). Host only (the GPU's kernel stages the lines through the host).
// Header-only, pure functions: thread-safe.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "meshflow/core/host_device.h"

namespace mf::linepick {

// Whether the running extreme `best` gives way to the next value.
template <bool kLargest, typename T>
MF_HOST_DEVICE inline bool running_takes(T best, T value) {
  const bool takes = kLargest ? value >= best : value <= best;
  return value != value || (best == best && takes);
}

// The index in `line` (reordered) of the pair mode returns.
template <typename T>
size_t mode_pick(std::vector<std::pair<T, int64_t>>& line) {
  std::sort(line.begin(), line.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const size_t n = line.size();
  size_t best = 0, best_count = 0, count = 0;
  for (size_t i = 0; i < n; ++i) {
    ++count;
    if (i + 1 == n || line[i].first != line[i + 1].first) {
      if (count > best_count) best = i, best_count = count;
      count = 0;
    }
  }
  return best;
}

}  // namespace mf::linepick
