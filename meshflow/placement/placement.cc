// Copyright 2026 The meshflow Authors.
#include "meshflow/placement/placement.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "meshflow/device/device.h"

namespace mf {

Placement::Placement(std::string device_type, Shape hierarchy, std::vector<int> ranks) {
  auto d = std::make_shared<Data>();
  d->device_type = std::move(device_type);
  d->hierarchy = std::move(hierarchy);
  d->ranks = std::move(ranks);
  size_t h = std::hash<std::string>()(d->device_type);
  for (int64_t x : d->hierarchy) h = h * 31 + std::hash<int64_t>()(x);
  for (int r : d->ranks) h = h * 131 + std::hash<int>()(r);
  d->hash = h;
  for (size_t i = 0; i < d->ranks.size(); ++i) d->ids.emplace_back(d->ranks[i], static_cast<int>(i));
  std::sort(d->ids.begin(), d->ids.end());
  d_ = d;
  if (!device::is_registered(d->device_type)) {
    throw std::invalid_argument("placement: " + device::unregistered_message(d->device_type));
  }
  if (d->device_type == "meta") {  // its tensors have no parts to exchange, nor values to check
    throw std::invalid_argument(
        "placement: global tensors do not live on the meta device; build the model on meta as local tensors, "
        "give it storage with Module.to_empty(device=...), initialize it, then to_global on a placement of that device");
  }
  d->device = &device::for_placement(d->device_type);
  if (d_->ranks.empty()) throw std::invalid_argument("placement: ranks are empty; expected at least one rank");
  if (d_->hierarchy.empty()) throw std::invalid_argument("placement: hierarchy is empty");
  for (int64_t d : d_->hierarchy) {
    if (d <= 0) throw std::invalid_argument("placement: hierarchy " + to_string(d_->hierarchy) + " has a non-positive size");
  }
  if (numel(d_->hierarchy) != static_cast<int64_t>(d_->ranks.size())) {
    throw std::invalid_argument("placement: hierarchy " + to_string(d_->hierarchy) + " holds " +
                                std::to_string(numel(d_->hierarchy)) + " ranks but " + std::to_string(d_->ranks.size()) +
                                " were given");
  }
  for (int r : d_->ranks) {
    if (r < 0) throw std::invalid_argument("placement: rank " + std::to_string(r) + " is negative");
  }
  for (size_t i = 1; i < d->ids.size(); ++i) {
    if (d->ids[i].first == d->ids[i - 1].first) {
      throw std::invalid_argument("placement: rank " + std::to_string(d->ids[i].first) + " is repeated in " + ranks_str());
    }
  }
}

Placement::Placement(std::string device_type, std::vector<int> ranks)
    : Placement(std::move(device_type), Shape{static_cast<int64_t>(ranks.size())}, ranks) {}

int Placement::parallel_id(int rank) const {
  auto it = std::lower_bound(d_->ids.begin(), d_->ids.end(), std::make_pair(rank, -1));
  return it != d_->ids.end() && it->first == rank ? it->second : -1;
}

Shape Placement::coordinate(int parallel_id) const {
  Shape c(d_->hierarchy.size());
  int64_t rest = parallel_id;
  for (int i = ndim() - 1; i >= 0; --i) {
    c[i] = rest % d_->hierarchy[i];
    rest /= d_->hierarchy[i];
  }
  return c;
}

int Placement::parallel_id_at(const Shape& coordinate) const {
  int64_t id = 0;
  for (int i = 0; i < ndim(); ++i) id = id * d_->hierarchy[i] + coordinate[i];
  return static_cast<int>(id);
}

Memory& Placement::memory() const { return d_->device->memory(); }

std::vector<int> Placement::axis_group(int rank, int axis) const {
  Shape c = coordinate(parallel_id(rank));
  std::vector<int> group;
  for (int64_t i = 0; i < d_->hierarchy[axis]; ++i) {
    c[axis] = i;
    group.push_back(rank_at(c));
  }
  return group;
}

void Placement::check_in_world(int world_size) const {
  for (int r : d_->ranks) {
    if (r >= world_size) {
      throw std::invalid_argument("placement: rank " + std::to_string(r) + " is outside the world of " +
                                  std::to_string(world_size) + " ranks (valid ranks are 0.." +
                                  std::to_string(world_size - 1) + ")");
    }
  }
}

std::string Placement::ranks_str() const {
  // Nested lists, one level per hierarchy axis; beyond a thousand ranks, as NumPy prints
  // large arrays, the first and last three along each axis (messages stay readable).
  const bool summarize = size() > 1000;
  std::function<std::string(int, int64_t)> nest = [&](int axis, int64_t offset) {
    std::string s = "[";
    const int64_t n = d_->hierarchy[axis];
    for (int64_t i = 0; i < n; ++i) {
      if (summarize && n > 6 && i == 3) {
        s += ", ...";
        i = n - 4;
        continue;
      }
      if (i) s += ", ";
      const int64_t at = offset * n + i;
      s += axis + 1 == ndim() ? std::to_string(d_->ranks[at]) : nest(axis + 1, at);
    }
    return s + "]";
  };
  return nest(0, 0);
}

std::string Placement::str() const { return "placement(type=\"" + d_->device_type + "\", ranks=" + ranks_str() + ")"; }

}  // namespace mf
