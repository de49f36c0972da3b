// Copyright 2026 The meshflow Authors.
#include "meshflow/ops/attrs.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace mf {

// Copied in one allocation, then sorted in place, stably (an insertion sort: a handful of
// items, no buffer), a later duplicate key winning as set() would make it: inserting each in
// order cost a reallocation and a shift per item on every op call that builds its attributes.
Attrs::Attrs(std::initializer_list<std::pair<std::string, AttrValue>> items) : items_(items) {
  for (size_t i = 1; i < items_.size(); ++i) {
    for (size_t j = i; j > 0 && items_[j].first < items_[j - 1].first; --j) std::swap(items_[j], items_[j - 1]);
  }
  size_t kept = 0;
  for (size_t i = 1; i < items_.size(); ++i) {
    if (items_[i].first != items_[kept].first) ++kept;
    if (kept != i) items_[kept] = std::move(items_[i]);
  }
  if (!items_.empty()) items_.resize(kept + 1);
}

Attrs& Attrs::set(const std::string& key, AttrValue value) {
  if (items_.empty() || items_.back().first < key) {  // keys set in order append, with room for an op's few
    if (items_.capacity() == 0) items_.reserve(4);
    items_.emplace_back(key, std::move(value));
    return *this;
  }
  auto it = std::lower_bound(items_.begin(), items_.end(), key,
                             [](const auto& item, const std::string& k) { return item.first < k; });
  if (it != items_.end() && it->first == key) {
    it->second = std::move(value);
  } else {
    items_.insert(it, {key, std::move(value)});
  }
  return *this;
}

Attrs Attrs::without(const std::vector<std::string>& keys) const {
  Attrs kept;
  for (const auto& item : items_) {
    if (std::find(keys.begin(), keys.end(), item.first) == keys.end()) kept.items_.push_back(item);
  }
  return kept;
}

const AttrValue* Attrs::find(const std::string& key) const {
  for (const auto& item : items_) {
    if (item.first == key) return &item.second;
  }
  return nullptr;
}

template <typename T>
const T& Attrs::get(const std::string& key, const char* type) const {
  const AttrValue* v = find(key);
  if (!v) throw std::invalid_argument("missing attribute '" + key + "'");
  if (const T* t = std::get_if<T>(v)) return *t;
  throw std::invalid_argument("attribute '" + key + "' is not " + type);
}

int64_t Attrs::get_int(const std::string& key) const { return get<int64_t>(key, "an int"); }
bool Attrs::get_bool(const std::string& key) const { return get<bool>(key, "a bool"); }
const std::vector<int64_t>& Attrs::get_ints(const std::string& key) const {
  return get<std::vector<int64_t>>(key, "a list of ints");
}
DType Attrs::get_dtype(const std::string& key) const { return get<DType>(key, "a dtype"); }
double Attrs::get_float(const std::string& key) const {
  const AttrValue* v = find(key);
  if (v && std::holds_alternative<int64_t>(*v)) return static_cast<double>(std::get<int64_t>(*v));
  return get<double>(key, "a float");
}

size_t Attrs::hash() const {
  size_t h = items_.size();
  for (const auto& [k, v] : items_) {
    h = h * 1000003 ^ std::hash<std::string>()(k);
    size_t hv = std::visit(
        [](const auto& x) -> size_t {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
            size_t s = x.size();
            for (int64_t e : x) s = s * 31 + std::hash<int64_t>()(e);
            return s;
          } else if constexpr (std::is_same_v<T, DType>) {
            return static_cast<size_t>(x) + 7;
          } else {
            return std::hash<T>()(x);
          }
        },
        v);
    h = h * 131 + hv + v.index();
  }
  return h;
}

std::string Attrs::str() const {
  std::string s = "{";
  for (size_t i = 0; i < items_.size(); ++i) {
    if (i) s += ", ";
    s += items_[i].first + "=";
    s += std::visit(
        [](const auto& x) -> std::string {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
            std::string r = "[";
            for (size_t j = 0; j < x.size(); ++j) r += (j ? ", " : "") + std::to_string(x[j]);
            return r + "]";
          } else if constexpr (std::is_same_v<T, DType>) {
            return dtype_name(x);
          } else if constexpr (std::is_same_v<T, bool>) {
            return x ? "true" : "false";
          } else {
            return std::to_string(x);
          }
        },
        items_[i].second);
  }
  return s + "}";
}

}  // namespace mf
