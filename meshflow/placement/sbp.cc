// Copyright 2026 The meshflow Authors.
#include "meshflow/placement/sbp.h"

#include <stdexcept>

namespace mf {

Sbp Sbp::split(int dim) {
  if (dim < 0) throw std::invalid_argument("split: dim " + std::to_string(dim) + " is negative; expected dim >= 0");
  return Sbp(SbpKind::kSplit, dim, ReduceOp::kSum);
}

std::string Sbp::str() const {
  switch (kind_) {
    case SbpKind::kSplit: return "S(" + std::to_string(dim_) + ")";
    case SbpKind::kBroadcast: return "B";
    case SbpKind::kPartial: break;
  }
  return op_ == ReduceOp::kSum ? "P" : std::string("P(") + reduce_op_name(op_) + ")";
}

std::string to_string(const NdSbp& nd_sbp) {
  std::string s = "(";
  for (size_t i = 0; i < nd_sbp.size(); ++i) {
    if (i) s += ", ";
    s += nd_sbp[i].str();
  }
  return s + ")";
}

size_t hash_value(const NdSbp& nd_sbp) {
  size_t h = nd_sbp.size();
  for (const Sbp& s : nd_sbp) h = h * 1000003 + s.hash();
  return h;
}

void check_nd_sbp(const NdSbp& nd_sbp, const Placement& placement, int64_t ndim) {
  if (static_cast<int>(nd_sbp.size()) != placement.ndim()) {
    throw std::invalid_argument("sbp " + to_string(nd_sbp) + " has " + std::to_string(nd_sbp.size()) +
                                " entries but the placement's hierarchy " + to_string(placement.hierarchy()) +
                                " has " + std::to_string(placement.ndim()) + " axes; expected one sbp per axis");
  }
  for (const Sbp& s : nd_sbp) {
    if (s.is_split() && s.split_dim() >= ndim) {
      throw std::invalid_argument("sbp " + s.str() + " splits dim " + std::to_string(s.split_dim()) +
                                  " but the tensor has " + std::to_string(ndim) + " dims; expected a dim in [0, " +
                                  std::to_string(ndim) + ")");
    }
  }
}

std::pair<int64_t, int64_t> balanced_part(int64_t n, int64_t parts, int64_t index) {
  int64_t base = n / parts, extra = n % parts;
  int64_t start = index * base + std::min(index, extra);
  return {start, base + (index < extra ? 1 : 0)};
}

Box local_box(const Shape& logical, const Shape& hierarchy, const NdSbp& nd_sbp, const Shape& coordinate) {
  Box box = Box::whole(logical);
  for (size_t axis = 0; axis < nd_sbp.size(); ++axis) {
    if (!nd_sbp[axis].is_split()) continue;
    int d = nd_sbp[axis].split_dim();
    auto [start, size] = balanced_part(box.extent[d], hierarchy[axis], coordinate[axis]);
    box.start[d] += start;
    box.extent[d] = size;
  }
  return box;
}

}  // namespace mf
