// Copyright 2026 The meshflow Authors.
#include "meshflow/placement/placement.h"

#include <algorithm>
#include <functional>
#include <set>
#include <stdexcept>

namespace mf {

Placement::Placement(std::string device_type, Shape hierarchy, std::vector<int> ranks)
    : device_type_(std::move(device_type)), hierarchy_(std::move(hierarchy)), ranks_(std::move(ranks)) {
  if (device_type_ != "cpu") {
    throw std::invalid_argument("placement: device type '" + device_type_ +
                                "' is not supported; expected \"cpu\" (cuda is not supported yet)");
  }
  if (ranks_.empty()) throw std::invalid_argument("placement: ranks are empty; expected at least one rank");
  if (hierarchy_.empty()) throw std::invalid_argument("placement: hierarchy is empty");
  for (int64_t d : hierarchy_) {
    if (d <= 0) throw std::invalid_argument("placement: hierarchy " + to_string(hierarchy_) + " has a non-positive size");
  }
  if (numel(hierarchy_) != static_cast<int64_t>(ranks_.size())) {
    throw std::invalid_argument("placement: hierarchy " + to_string(hierarchy_) + " holds " +
                                std::to_string(numel(hierarchy_)) + " ranks but " + std::to_string(ranks_.size()) +
                                " were given");
  }
  std::set<int> seen;
  for (int r : ranks_) {
    if (r < 0) throw std::invalid_argument("placement: rank " + std::to_string(r) + " is negative");
    if (!seen.insert(r).second) {
      throw std::invalid_argument("placement: rank " + std::to_string(r) + " is repeated in " + ranks_str());
    }
  }
}

Placement::Placement(std::string device_type, std::vector<int> ranks)
    : Placement(std::move(device_type), Shape{static_cast<int64_t>(ranks.size())}, ranks) {}

int Placement::parallel_id(int rank) const {
  auto it = std::find(ranks_.begin(), ranks_.end(), rank);
  return it == ranks_.end() ? -1 : static_cast<int>(it - ranks_.begin());
}

Shape Placement::coordinate(int parallel_id) const {
  Shape c(hierarchy_.size());
  int64_t rest = parallel_id;
  for (int i = ndim() - 1; i >= 0; --i) {
    c[i] = rest % hierarchy_[i];
    rest /= hierarchy_[i];
  }
  return c;
}

int Placement::rank_at(const Shape& coordinate) const {
  int64_t id = 0;
  for (int i = 0; i < ndim(); ++i) id = id * hierarchy_[i] + coordinate[i];
  return ranks_[id];
}

std::vector<int> Placement::axis_group(int rank, int axis) const {
  Shape c = coordinate(parallel_id(rank));
  std::vector<int> group;
  for (int64_t i = 0; i < hierarchy_[axis]; ++i) {
    c[axis] = i;
    group.push_back(rank_at(c));
  }
  return group;
}

void Placement::check_in_world(int world_size) const {
  for (int r : ranks_) {
    if (r >= world_size) {
      throw std::invalid_argument("placement: rank " + std::to_string(r) + " is outside the world of " +
                                  std::to_string(world_size) + " ranks (valid ranks are 0.." +
                                  std::to_string(world_size - 1) + ")");
    }
  }
}

size_t Placement::hash() const {
  size_t h = std::hash<std::string>()(device_type_);
  for (int64_t d : hierarchy_) h = h * 31 + std::hash<int64_t>()(d);
  for (int r : ranks_) h = h * 131 + std::hash<int>()(r);
  return h;
}

std::string Placement::ranks_str() const {
  // Nested lists, one level per hierarchy axis.
  std::function<std::string(int, size_t&)> nest = [&](int axis, size_t& next) {
    std::string s = "[";
    for (int64_t i = 0; i < hierarchy_[axis]; ++i) {
      if (i) s += ", ";
      s += axis + 1 == ndim() ? std::to_string(ranks_[next++]) : nest(axis + 1, next);
    }
    return s + "]";
  };
  size_t next = 0;
  return nest(0, next);
}

std::string Placement::str() const { return "placement(type=\"" + device_type_ + "\", ranks=" + ranks_str() + ")"; }

}  // namespace mf
