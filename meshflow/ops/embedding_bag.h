// Copyright 2026 The meshflow Authors.
// embedding_bag's attributes and bags, read one way for every device (ops/nn.cc defines the
// op and its CPU kernels, ops/cuda/nn.cu its CUDA kernels). Attributes: mode (torch's
// numbering: 0 sum, 1 mean, 2 max), include_last_offset, per_sample_weights (whether that
// input is there), padding_idx (a row of weight left out of every bag; none when absent or
// -1). Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "meshflow/core/shape.h"
#include "meshflow/ops/attrs.h"
#include "meshflow/ops/op.h"

namespace mf::embedding_bag {

enum Mode : int64_t { kSum = 0, kMean = 1, kMax = 2 };

struct BagAttrs {
  int64_t mode;
  bool include_last_offset, weighted;
  int64_t padding_idx;  // -1 for none
};

inline BagAttrs read_attrs(const std::string& op, const Attrs& attrs) {
  auto flag = [&](const char* key) { return attrs.has(key) && attrs.get_bool(key); };
  const BagAttrs a{attrs.get_int("mode"), flag("include_last_offset"), flag("per_sample_weights"),
                   attrs.has("padding_idx") ? attrs.get_int("padding_idx") : -1};
  if (a.mode < kSum || a.mode > kMax) {
    op_error(op, "mode is " + std::to_string(a.mode) + "; expected 0 (sum), 1 (mean) or 2 (max)");
  }
  if (a.weighted && a.mode != kSum) op_error(op, "per_sample_weights needs mode 0 (sum)");
  return a;
}

// Bag b's positions in the flat indices, [bounds[b], bounds[b + 1]): the rows of 2-d indices
// (of shape `indices`), or the runs from the bags' starts read_offsets() gives (the host's
// copy of offsets) for 1-d ones. Throws unless those start at 0, do not decrease and stay
// within the indices. The last bag ends with the indices whatever include_last_offset's last
// offset says, as torch's (whose documentation calls that offset "equivalent to the size of
// indices").
template <typename ReadOffsets>
std::vector<int64_t> bounds(const std::string& op, const Shape& indices, int64_t bags, ReadOffsets read_offsets) {
  int64_t n = 1;
  for (int64_t d : indices) n *= d;
  std::vector<int64_t> starts;
  if (indices.size() == 2) {
    for (int64_t b = 0; b < bags; ++b) starts.push_back(b * indices[1]);
  } else {
    starts = read_offsets();
  }
  if (!starts.empty() && starts[0] != 0) op_error(op, "offsets start at " + std::to_string(starts[0]) + "; expected 0");
  for (size_t b = 1; b < starts.size(); ++b) {
    if (starts[b] < starts[b - 1] || starts[b] > n) {
      op_error(op, "offset " + std::to_string(starts[b]) + " follows " + std::to_string(starts[b - 1]) +
                       "; expected offsets that do not decrease and stay within the " + std::to_string(n) +
                       " indices");
    }
  }
  starts.resize(bags + 1);
  starts[bags] = n;
  return starts;
}

}  // namespace mf::embedding_bag
