// Copyright 2026 The meshflow Authors.
// SBP: how a logical tensor relates to the local tensors along one hierarchy axis, and
// N-d SBP, one per axis applied outermost first (CONCEPTS section 2). Also the nested
// balanced split that gives each rank its region of the logical tensor.
// Value types: comparable, hashable, printed as users write them: S(0), B, P, P(max), P(min).
#pragma once

#include <string>
#include <vector>

#include "meshflow/core/dtype.h"
#include "meshflow/core/shape.h"
#include "meshflow/placement/placement.h"

namespace mf {

enum class SbpKind : uint8_t { kSplit, kBroadcast, kPartial };

class Sbp {
 public:
  static Sbp split(int dim);
  static Sbp broadcast() { return Sbp(SbpKind::kBroadcast, -1, ReduceOp::kSum); }
  static Sbp partial(ReduceOp op) { return Sbp(SbpKind::kPartial, -1, op); }
  static Sbp partial_sum() { return partial(ReduceOp::kSum); }
  static Sbp partial_max() { return partial(ReduceOp::kMax); }
  static Sbp partial_min() { return partial(ReduceOp::kMin); }

  SbpKind kind() const { return kind_; }
  bool is_split() const { return kind_ == SbpKind::kSplit; }
  bool is_broadcast() const { return kind_ == SbpKind::kBroadcast; }
  bool is_partial() const { return kind_ == SbpKind::kPartial; }
  int split_dim() const { return dim_; }          // only for split
  ReduceOp reduce_op() const { return op_; }      // only for partial

  bool operator==(const Sbp& o) const { return kind_ == o.kind_ && dim_ == o.dim_ && op_ == o.op_; }
  bool operator!=(const Sbp& o) const { return !(*this == o); }
  size_t hash() const { return static_cast<size_t>(kind_) * 1000003 + (dim_ + 1) * 131 + static_cast<size_t>(op_); }
  std::string str() const;

 private:
  Sbp(SbpKind kind, int dim, ReduceOp op) : kind_(kind), dim_(dim), op_(op) {}
  SbpKind kind_;
  int dim_;
  ReduceOp op_;
};

using NdSbp = std::vector<Sbp>;

std::string to_string(const NdSbp& nd_sbp);  // "(S(0), B)"
size_t hash_value(const NdSbp& nd_sbp);
// Throws std::invalid_argument when nd_sbp's length differs from the placement's number
// of hierarchy axes, or a split dim is outside [0, ndim).
void check_nd_sbp(const NdSbp& nd_sbp, const Placement& placement, int64_t ndim);

// Part `index` of `n` elements cut into `parts`: the first n % parts parts get one more.
// Returns {start, size}.
std::pair<int64_t, int64_t> balanced_part(int64_t n, int64_t parts, int64_t index);

// The region of the logical tensor that the rank at `coordinate` holds: each split axis
// cuts the region that the outer axes left; broadcast and partial axes do not cut.
Box local_box(const Shape& logical, const Shape& hierarchy, const NdSbp& nd_sbp, const Shape& coordinate);

}  // namespace mf

template <>
struct std::hash<mf::Sbp> {
  size_t operator()(const mf::Sbp& s) const { return s.hash(); }
};
