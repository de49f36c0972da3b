// Copyright 2026 The meshflow Authors.
// A placement: a device type and an N-d array of ranks (CONCEPTS section 1). A value type:
// comparable, hashable, printable; immutable after construction, so thread-safe.
// Invariants: hierarchy's product == ranks.size() > 0; ranks are distinct and >= 0.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "meshflow/core/memory.h"
#include "meshflow/core/shape.h"

namespace mf::device {
class Device;
}  // namespace mf::device

namespace mf {

class Placement {
 public:
  // Throws std::invalid_argument naming the problem: unknown device type, empty or
  // negative ranks, repeated ranks, a hierarchy whose product is not the number of ranks.
  Placement(std::string device_type, Shape hierarchy, std::vector<int> ranks);
  // A 1-d placement over `ranks`.
  Placement(std::string device_type, std::vector<int> ranks);

  const std::string& device_type() const { return d_->device_type; }
  // The device of its type (on this rank), and its memory: where its tensors' parts live.
  device::Device& device() const { return *d_->device; }
  Memory& memory() const;
  const Shape& hierarchy() const { return d_->hierarchy; }
  int ndim() const { return static_cast<int>(d_->hierarchy.size()); }
  // Ranks in row-major order of the hierarchy: ranks()[parallel_id].
  const std::vector<int>& ranks() const { return d_->ranks; }
  int size() const { return static_cast<int>(d_->ranks.size()); }

  bool contains(int rank) const { return parallel_id(rank) >= 0; }
  // The rank's index in ranks(), or -1 when the rank is not in the placement.
  int parallel_id(int rank) const;
  Shape coordinate(int parallel_id) const;
  // The parallel id at `coordinate` (row-major), and the rank there.
  int parallel_id_at(const Shape& coordinate) const;
  int rank_at(const Shape& coordinate) const { return d_->ranks[parallel_id_at(coordinate)]; }
  // The ranks whose coordinates differ from `rank`'s only along `axis`, in axis order.
  std::vector<int> axis_group(int rank, int axis) const;

  // Throws std::invalid_argument when a rank is not below world_size.
  void check_in_world(int world_size) const;

  bool operator==(const Placement& o) const {
    return d_ == o.d_ || (d_->hash == o.d_->hash && d_->device_type == o.d_->device_type &&
                          d_->hierarchy == o.d_->hierarchy && d_->ranks == o.d_->ranks);
  }
  bool operator!=(const Placement& o) const { return !(*this == o); }
  size_t hash() const { return d_->hash; }
  std::string str() const;  // placement(type="cpu", ranks=[[0, 1], [2, 3]])
  std::string ranks_str() const;

 private:
  // Immutable and shared: every tensor, plan and cache key holds its placement, and a copy
  // is a reference count (dispatch copies placements on every call).
  struct Data {
    std::string device_type;
    Shape hierarchy;
    std::vector<int> ranks;
    // (rank, parallel id) sorted by rank: parallel_id in O(log ranks), which plans on
    // meshes of thousands of ranks call per message.
    std::vector<std::pair<int, int>> ids;
    device::Device* device = nullptr;
    size_t hash = 0;
  };
  std::shared_ptr<const Data> d_;
};

}  // namespace mf

template <>
struct std::hash<mf::Placement> {
  size_t operator()(const mf::Placement& p) const { return p.hash(); }
};
