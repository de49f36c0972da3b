// Copyright 2026 The meshflow Authors.
#include "meshflow/core/allocator.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <unordered_map>
#include <vector>
#include <mutex>
#include <new>

namespace mf {
namespace {

constexpr size_t kAlignment = 64;
// Larger blocks are rounded to this granule so that nearby sizes share cached blocks.
constexpr size_t kLargeGranule = size_t{1} << 20;
constexpr size_t kMaxCachedBytes = size_t{2} << 30;
constexpr size_t kHugePage = size_t{2} << 20;

size_t round_size(size_t nbytes) {
  if (nbytes <= kLargeGranule) {
    size_t s = kAlignment;
    while (s < nbytes) s <<= 1;
    return s;
  }
  return (nbytes + kLargeGranule - 1) / kLargeGranule * kLargeGranule;
}

class HostCache {
 public:
  void* take(size_t size) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = free_.find(size);
      in_use_ += size;
      peak_ = std::max(peak_, in_use_);
      if (it != free_.end() && !it->second.empty()) {
        void* p = it->second.back();
        it->second.pop_back();
        cached_ -= size;
        ++hits_;
        return p;
      }
      ++misses_;
    }
    void* p = nullptr;
    if (size >= kHugePage) {
      // Transparent huge pages where the system gives them on request: a 2 MiB page is one
      // fault instead of 512 and one TLB entry, and cross-memory copies (all-to-all
      // boxing) pin one page per 2 MiB.
      if (posix_memalign(&p, kHugePage, size) != 0) p = nullptr;
      if (p) madvise(p, size, MADV_HUGEPAGE);
    } else {
      p = std::aligned_alloc(kAlignment, size);
    }
    if (!p) {
      std::lock_guard<std::mutex> lock(mu_);
      in_use_ -= size;
      throw std::bad_alloc();
    }
    return p;
  }

  void give_back(void* p, size_t size) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      in_use_ -= size;
      if (cached_ + size <= kMaxCachedBytes) {
        free_[size].push_back(p);
        cached_ += size;
        return;
      }
    }
    std::free(p);
  }

  HostCacheStats stats() {
    std::lock_guard<std::mutex> lock(mu_);
    return {cached_, hits_, misses_, in_use_, peak_};
  }

  void reset_peak() {
    std::lock_guard<std::mutex> lock(mu_);
    peak_ = in_use_;
  }

  void release() {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [size, blocks] : free_) {
      for (void* p : blocks) std::free(p);
    }
    free_.clear();
    cached_ = 0;
  }

 private:
  std::mutex mu_;
  // Free blocks by (rounded) size; the vectors keep their capacity, so taking and giving
  // back a block allocates nothing in the steady state.
  std::unordered_map<size_t, std::vector<void*>> free_;  // GUARDED_BY(mu_)
  size_t cached_ = 0;                  // GUARDED_BY(mu_)
  size_t hits_ = 0;                    // GUARDED_BY(mu_)
  size_t misses_ = 0;                  // GUARDED_BY(mu_)
  size_t in_use_ = 0;                  // GUARDED_BY(mu_)
  size_t peak_ = 0;                    // GUARDED_BY(mu_)
};

// Never destroyed: tensors may be freed during static destruction.
HostCache& cache() {
  static HostCache* c = new HostCache;
  return *c;
}

}  // namespace

namespace {
thread_local std::vector<PlannedAllocations::Slot>* planned = nullptr;
}  // namespace

PlannedAllocations::PlannedAllocations(std::vector<Slot> slots) : slots_(std::move(slots)), previous_(planned) {
  planned = &slots_;
}
PlannedAllocations::~PlannedAllocations() { planned = previous_; }

std::shared_ptr<void> allocate_host(size_t nbytes) {
  if (planned && nbytes > 0) {
    for (PlannedAllocations::Slot& slot : *planned) {
      if (!slot.taken && slot.nbytes == nbytes) {
        slot.taken = true;
        return std::shared_ptr<void>(slot.data, [](void*) {});  // the planner's memory
      }
    }
  }
  size_t size = round_size(nbytes);
  void* p = cache().take(size);
  return std::shared_ptr<void>(p, [size](void* q) { cache().give_back(q, size); });
}

HostCacheStats host_cache_stats() { return cache().stats(); }
void release_host_cache() { cache().release(); }
void reset_peak_host_memory() { cache().reset_peak(); }

}  // namespace mf
