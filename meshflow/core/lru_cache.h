// Copyright 2026 The meshflow Authors.
// A bounded map from keys to values built on first use, the least recently used evicted
// first, so a program whose shapes keep changing (a short last batch, variable sequence
// lengths) holds a bounded number of entries. Values are handed out as shared_ptr: an entry
// evicted while a caller or a queued instruction still uses it lives until they let go.
// Thread-safe: one mutex; `make` runs outside it, so two threads missing the same key may
// both build it (the first stored is kept and returned to both).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace mf {

struct LruCacheStats {
  int64_t hits = 0;
  int64_t misses = 0;
  int64_t entries = 0;
  int64_t capacity = 0;
};

// The capacity meshflow's plan caches start with: MESHFLOW_CACHE_ENTRIES, else 4096 (plans
// are small; a compiled nn.Graph, which holds memory and threads, has its own bound).
inline size_t default_cache_capacity() {
  const char* v = std::getenv("MESHFLOW_CACHE_ENTRIES");
  const long long n = v ? std::atoll(v) : 0;
  return n > 0 ? static_cast<size_t>(n) : 4096;
}

template <typename Key, typename Value, typename Hash>
class LruCache {
 public:
  explicit LruCache(size_t capacity) : capacity_(std::max<size_t>(capacity, 1)) {}

  template <typename Make>
  std::shared_ptr<const Value> get(const Key& key, Make&& make) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (auto found = find_and_touch(key)) {
        ++hits_;
        return found;
      }
      ++misses_;
    }
    std::shared_ptr<const Value> value = std::make_shared<const Value>(make());
    std::lock_guard<std::mutex> lock(mu_);
    if (auto found = find_and_touch(key)) return found;
    order_.emplace_front(key, value);
    index_.emplace(key, order_.begin());
    trim();
    return value;
  }

  // At least 1; shrinking evicts at once.
  void set_capacity(size_t capacity) {
    std::lock_guard<std::mutex> lock(mu_);
    capacity_ = std::max<size_t>(capacity, 1);
    trim();
  }

  LruCacheStats stats() const {
    std::lock_guard<std::mutex> lock(mu_);
    return {hits_, misses_, static_cast<int64_t>(index_.size()), static_cast<int64_t>(capacity_)};
  }

 private:
  using Entry = std::pair<Key, std::shared_ptr<const Value>>;

  std::shared_ptr<const Value> find_and_touch(const Key& key) {  // EXCLUSIVE_LOCKS_REQUIRED(mu_)
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->second;
  }

  void trim() {  // EXCLUSIVE_LOCKS_REQUIRED(mu_)
    while (index_.size() > capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
  }

  mutable std::mutex mu_;
  size_t capacity_;                                                        // GUARDED_BY(mu_)
  std::list<Entry> order_;                                                 // GUARDED_BY(mu_), most recent first
  std::unordered_map<Key, typename std::list<Entry>::iterator, Hash> index_;  // GUARDED_BY(mu_)
  int64_t hits_ = 0, misses_ = 0;                                          // GUARDED_BY(mu_)
};

}  // namespace mf
