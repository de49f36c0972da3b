// Copyright 2026 The meshflow Authors.
// Op attributes: a small sorted map from names to values (ints, floats, bools, int lists,
// dtypes). A value type: comparable and hashable, since attributes are part of the SBP
// inference cache key. Getters throw std::invalid_argument naming the missing attribute.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "meshflow/core/dtype.h"

namespace mf {

using AttrValue = std::variant<int64_t, double, bool, std::vector<int64_t>, DType>;

class Attrs {
 public:
  Attrs() = default;
  Attrs(std::initializer_list<std::pair<std::string, AttrValue>> items);

  Attrs& set(const std::string& key, AttrValue value);
  // A copy without the attributes named in `keys`.
  Attrs without(const std::vector<std::string>& keys) const;
  bool has(const std::string& key) const { return find(key) != nullptr; }
  int64_t get_int(const std::string& key) const;
  double get_float(const std::string& key) const;  // an int attribute reads as a float too
  bool get_bool(const std::string& key) const;
  const std::vector<int64_t>& get_ints(const std::string& key) const;
  DType get_dtype(const std::string& key) const;
  const std::vector<std::pair<std::string, AttrValue>>& items() const { return items_; }

  bool operator==(const Attrs& o) const { return items_ == o.items_; }
  size_t hash() const;
  std::string str() const;

 private:
  const AttrValue* find(const std::string& key) const;
  template <typename T>
  const T& get(const std::string& key, const char* type) const;

  std::vector<std::pair<std::string, AttrValue>> items_;  // sorted by key, keys unique
};

}  // namespace mf
