// Copyright 2026 The meshflow Authors.
#include "meshflow/core/allocator.h"

#include "meshflow/core/error.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <iterator>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mf {
namespace {

constexpr size_t kAlignment = 64;
// Larger blocks are rounded to this granule so that nearby sizes share cached blocks.
constexpr size_t kLargeGranule = size_t{1} << 20;
constexpr size_t kMaxCachedBytes = size_t{2} << 30;
constexpr size_t kHugePage = size_t{2} << 20;
// Each shared block holds a descriptor open (peers open it through /proc), so their number
// is bounded well below the usual limit of 1024 descriptors; past it, shared requests get
// ordinary memory.
constexpr size_t kMaxSharedBlocks = 128;

size_t round_size(size_t nbytes) {
  if (nbytes <= kLargeGranule) {
    size_t s = kAlignment;
    while (s < nbytes) s <<= 1;
    return s;
  }
  return (nbytes + kLargeGranule - 1) / kLargeGranule * kLargeGranule;
}

// Where a block lives: ordinary memory, or a memfd peers can map.
enum class Kind { kPrivate, kShared };
constexpr int kKinds = 2;

void* allocate_private(size_t size) {
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
  return p;
}

// A memfd of `size` bytes, mapped; nullopt where the system refuses one.
std::optional<SharedBlock> map_shared(size_t size, uint64_t serial) {
  const int fd = memfd_create("meshflow", MFD_CLOEXEC);
  if (fd < 0) return std::nullopt;
  void* p = MAP_FAILED;
  if (ftruncate(fd, static_cast<off_t>(size)) == 0) {
    p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
  }
  if (p == MAP_FAILED) {
    close(fd);
    return std::nullopt;
  }
  return SharedBlock{fd, serial, static_cast<char*>(p), size};
}

// Small private blocks (an op's scalar results, shapes' worth of data) pass through a
// front of free lists per thread: the issuing thread frees them and the compute worker
// allocates them once per op each, and a lock they both took per block made each wait on
// the other (futex waits and wakes in a profile of 1-element ops). A front takes and gives
// blocks to the shared lists in batches.
constexpr size_t kSmallBytes = 1024;
constexpr size_t kSmallClasses = 5;  // 64, 128, ... kSmallBytes
static_assert(kAlignment << (kSmallClasses - 1) == kSmallBytes);
constexpr size_t kBatch = 32;

class Front {
 public:
  ~Front();
  void* take(size_t size);
  void give(void* p, size_t size);
  void flush();

 private:
  static size_t size_class(size_t size) {
    size_t c = 0;
    for (size_t s = kAlignment; s < size; s <<= 1) ++c;
    return c;
  }
  std::vector<void*> lists_[kSmallClasses];
};

// This thread's front; null while the thread exits (blocks freed then go to the shared lists).
Front* front();

}  // namespace

class HostCache {
 public:
  // `fronts`: small blocks pass through the per-thread fronts (the host pool's alone: a
  // front holds one pool's blocks).
  HostCache(std::string device, bool fronts)
      : device_(std::move(device)), fronts_(fronts), limit_(memory_limit_from_env()) {}

  // A block of `size` (rounded) bytes of `kind`, or of private memory where shared memory
  // is refused; returns the kind it is.
  std::pair<void*, Kind> take(size_t size, Kind kind) {
    if (void* p = reuse(size, kind)) {
      cached_ -= size;
      // A cached block is no way past the limit: where the pool held more than its limit
      // (set below what it held), reusing the cache would let what is in use grow past it,
      // and whether a program fits would depend on what earlier work left cached. Beyond
      // it, the block goes back and make_room refuses.
      if (limit_.load() == kNoMemoryLimit || in_use_.load() + size <= limit_.load()) {
        ++hits_;
        count_in_use(size);
        return {p, kind};
      }
      keep(p, size, kind);
    }
    ++misses_;
    make_room(size);
    count_in_use(size);
    if (kind == Kind::kShared) {
      if (void* p = make_shared_block(size)) return {p, kind};
      kind = Kind::kPrivate;
    }
    void* p = allocate_private(size);
    if (!p) {  // the system's refusal: the cache goes back to it, and one more try
      release();
      p = allocate_private(size);
    }
    if (!p) {
      in_use_ -= size;
      throw OutOfMemoryError(out_of_memory_message(device_, size, in_use_, cached_, limit_));
    }
    return {p, kind};
  }

  // A limit below what the pool holds releases the cache at once (figures then honour it).
  void set_limit(size_t bytes) {
    limit_ = bytes;
    if (bytes != kNoMemoryLimit && in_use_.load() + cached_.load() > bytes) release();
  }
  size_t limit() const { return limit_; }

  void give_back(void* p, size_t size, Kind kind) {
    in_use_ -= size;
    keep(p, size, kind);
  }

  // Caches a free block (beyond kMaxCachedBytes, returns it to the system).
  void keep(void* p, size_t size, Kind kind) {
    if (fronts_ && kind == Kind::kPrivate && size <= kSmallBytes) {
      if (Front* f = front()) {
        cached_ += size;
        return f->give(p, size);
      }
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (cached_ + size <= kMaxCachedBytes) {
        free_[static_cast<int>(kind)][size].push_back(p);
        cached_ += size;
        return;
      }
    }
    release_block(p, size, kind);
  }

  // Moves up to `count` free blocks of `size` from the shared lists to `to`.
  void take_batch(size_t size, std::vector<void*>& to, size_t count) {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<void*>& from = free_[static_cast<int>(Kind::kPrivate)][size];
    const size_t n = std::min(count, from.size());
    to.insert(to.end(), from.end() - static_cast<std::ptrdiff_t>(n), from.end());
    from.resize(from.size() - n);
  }

  // Moves the last `count` blocks of `from` (free, of `size`) to the shared lists.
  void give_batch(size_t size, std::vector<void*>& from, size_t count) {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<void*>& to = free_[static_cast<int>(Kind::kPrivate)][size];
    to.insert(to.end(), from.end() - static_cast<std::ptrdiff_t>(count), from.end());
    from.resize(from.size() - count);
  }

  std::optional<SharedBlock> find_shared(const void* p, size_t nbytes) {
    const auto at = reinterpret_cast<uintptr_t>(p);
    std::lock_guard<std::mutex> lock(mu_);
    auto it = shared_.upper_bound(at);
    if (it == shared_.begin()) return std::nullopt;
    --it;
    const SharedBlock& b = it->second;
    if (at + nbytes > it->first + b.bytes) return std::nullopt;
    return b;
  }

  HostCacheStats stats() const { return {cached_.load(), hits_.load(), misses_.load(), in_use_.load(), peak_.load()}; }

  void reset_peak() { peak_ = in_use_.load(); }

  void release() {
    std::unordered_map<size_t, std::vector<void*>> free[kKinds];
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (int k = 0; k < kKinds; ++k) free[k].swap(free_[k]);
    }
    for (int k = 0; k < kKinds; ++k) {
      for (auto& [size, blocks] : free[k]) {
        cached_ -= size * blocks.size();
        for (void* p : blocks) release_block(p, size, static_cast<Kind>(k));
      }
    }
  }

 private:
  // A cached free block of `size` and `kind`, or null. Small private blocks come from this
  // thread's front, which refills from the shared lists itself.
  void* reuse(size_t size, Kind kind) {
    if (fronts_ && kind == Kind::kPrivate && size <= kSmallBytes) {
      if (Front* f = front()) return f->take(size);
    }
    std::lock_guard<std::mutex> lock(mu_);
    auto& free = free_[static_cast<int>(kind)];
    auto it = free.find(size);
    if (it == free.end() || it->second.empty()) return nullptr;
    void* p = it->second.back();
    it->second.pop_back();
    return p;
  }

  // A new shared block of `size`, registered; null where the system refuses one or
  // kMaxSharedBlocks are in use (a cached one of another size is released to make room).
  void* make_shared_block(size_t size) {
    uint64_t serial = 0;
    std::pair<void*, size_t> evicted{nullptr, 0};
    {
      std::lock_guard<std::mutex> lock(mu_);
      serial = ++serials_;
      bool room = shared_.size() < kMaxSharedBlocks;
      for (auto& [cached_size, blocks] : free_[static_cast<int>(Kind::kShared)]) {
        if (room || blocks.empty()) continue;
        evicted = {blocks.back(), cached_size};
        blocks.pop_back();
        cached_ -= cached_size;
        room = true;
      }
      if (!room) return nullptr;
    }
    if (evicted.first) release_block(evicted.first, evicted.second, Kind::kShared);
    std::optional<SharedBlock> block = map_shared(size, serial);
    if (!block) return nullptr;
    std::lock_guard<std::mutex> lock(mu_);
    shared_[reinterpret_cast<uintptr_t>(block->base)] = *block;
    return block->base;
  }

  // Refuses (refuse_over_limit) a new block of `size` that what is in use leaves no room
  // for; else returns the cache to the system until the pool's holding fits the limit.
  void make_room(size_t size) {
    const size_t limit = limit_.load();
    auto fits = [&] { return in_use_.load() + cached_.load() + size <= limit; };
    if (limit == kNoMemoryLimit || fits()) return;
    // Other threads (the workers) cache the blocks they free meanwhile: release again, a few
    // times at most, and at least once, as the error says.
    constexpr int kReleases = 4;
    for (int i = 0; i < kReleases && !fits(); ++i) {
      release();
      if (in_use_.load() + size > limit) break;
    }
    // What stays cached (the per-thread fronts' small blocks, which only their threads can
    // release, and what other threads free meanwhile) does not refuse: whether a block fits
    // depends on what is in use, not on which thread freed which block when.
    if (in_use_.load() + size > limit) {
      refuse_over_limit(out_of_memory_message(device_, size, in_use_, cached_, limit));
    }
  }

  void count_in_use(size_t size) {
    const size_t now = in_use_.fetch_add(size) + size;
    size_t peak = peak_.load();
    while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
    }
  }

  void release_block(void* p, size_t size, Kind kind) {
    if (kind == Kind::kPrivate) return std::free(p);
    int fd = -1;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = shared_.find(reinterpret_cast<uintptr_t>(p));
      fd = it->second.fd;
      shared_.erase(it);
    }
    munmap(p, size);
    close(fd);
  }

  const std::string device_;
  const bool fronts_;
  std::atomic<size_t> limit_;
  std::mutex mu_;
  // Free blocks by kind and (rounded) size; the vectors keep their capacity, so taking and
  // giving back a block allocates nothing in the steady state.
  std::unordered_map<size_t, std::vector<void*>> free_[kKinds];  // GUARDED_BY(mu_)
  std::map<uintptr_t, SharedBlock> shared_;                       // by base; GUARDED_BY(mu_)
  uint64_t serials_ = 0;                                          // GUARDED_BY(mu_)
  // Figures, kept outside the lock: the per-thread fronts change them without it.
  std::atomic<size_t> cached_{0}, hits_{0}, misses_{0}, in_use_{0}, peak_{0};
};

namespace {

// Never destroyed: tensors may be freed during static destruction.
HostCache& cache() {
  static HostCache* c = new HostCache("cpu", true);
  return *c;
}

Front::~Front() { flush(); }

void* Front::take(size_t size) {
  std::vector<void*>& list = lists_[size_class(size)];
  if (list.empty()) cache().take_batch(size, list, kBatch);
  if (list.empty()) return nullptr;
  void* p = list.back();
  list.pop_back();
  return p;
}

void Front::give(void* p, size_t size) {
  std::vector<void*>& list = lists_[size_class(size)];
  list.push_back(p);
  if (list.size() >= 2 * kBatch) cache().give_batch(size, list, kBatch);
}

void Front::flush() {
  for (size_t c = 0; c < std::size(lists_); ++c) {
    if (!lists_[c].empty()) cache().give_batch(kAlignment << c, lists_[c], lists_[c].size());
  }
}

thread_local Front* t_front = nullptr;  // trivially destructible: readable during thread exit
thread_local bool t_front_gone = false;
// Owns t_front; its destructor (at thread exit) gives the blocks back.
struct FrontOwner {
  bool armed = false;
  ~FrontOwner() {
    delete t_front;
    t_front = nullptr;
    t_front_gone = true;
  }
};
thread_local FrontOwner t_front_owner;

Front* front() {
  if (t_front_gone) return nullptr;
  if (!t_front) {
    t_front_owner.armed = true;  // constructs it, so that its destructor runs at this thread's exit
    t_front = new Front;
  }
  return t_front;
}

}  // namespace

namespace {

std::shared_ptr<void> allocate(HostCache& from, size_t nbytes, Kind kind) {
  // An empty block holds no data: it passes the limit, so that making one (Tensor(), on any
  // thread) never raises an out of memory, which a collective holding this rank's memory
  // beyond its limit (LimitOverdraft) made it do on that rank alone.
  std::optional<LimitOverdraft> pass;
  if (nbytes == 0) pass.emplace();
  const size_t size = round_size(nbytes);
  const auto [p, got] = from.take(size, kind);
  return std::shared_ptr<void>(p, [&from, size, got = got](void* q) { from.give_back(q, size, got); });
}

std::string bytes_text(size_t bytes) {
  char text[32];
  if (bytes < (size_t{1} << 20)) {
    std::snprintf(text, sizeof text, "%zu bytes", bytes);
  } else {
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  }
  return text;
}

}  // namespace

std::shared_ptr<void> allocate_host(size_t nbytes) { return allocate(cache(), nbytes, Kind::kPrivate); }
std::shared_ptr<void> allocate_host_shared(size_t nbytes) { return allocate(cache(), nbytes, Kind::kShared); }

std::optional<SharedBlock> shared_block_of(const void* p, size_t nbytes) { return cache().find_shared(p, nbytes); }

size_t parse_memory_size(const std::string& text, const std::string& what) {
  static const std::string kUnits = "KMGT";
  size_t end = 0;
  double value = -1;
  try {
    value = std::stod(text, &end);
  } catch (const std::exception&) {
    end = 0;
  }
  double scale = 1;
  if (end > 0 && end + 1 == text.size()) {
    const size_t unit = kUnits.find(static_cast<char>(std::toupper(static_cast<unsigned char>(text[end]))));
    if (unit != std::string::npos) {
      scale = std::ldexp(1.0, 10 * static_cast<int>(unit + 1));
      ++end;
    }
  }
  const double bytes = value * scale;
  if (end == 0 || end != text.size() || !(bytes >= 0) || bytes >= 0x1p63) {
    throw std::invalid_argument(what + " is '" + text + "'; expected a number of bytes, optionally with K, M, G or T "
                                "(powers of 1024), e.g. 512M");
  }
  return static_cast<size_t>(bytes);
}

size_t memory_limit_from_env() {
  const char* v = std::getenv("MESHFLOW_MEMORY_LIMIT");
  return v && *v ? parse_memory_size(v, "MESHFLOW_MEMORY_LIMIT") : kNoMemoryLimit;
}

std::string out_of_memory_message(const std::string& device, size_t requested, size_t in_use, size_t cached,
                                  size_t limit) {
  std::string m = device + " is out of memory: asked for " + bytes_text(requested) + " with " + bytes_text(in_use) +
                  " in use by tensors and " + bytes_text(cached) + " cached (already released and retried)";
  if (limit != kNoMemoryLimit) m += "; its limit is " + bytes_text(limit) + " (set_memory_limit, MESHFLOW_MEMORY_LIMIT)";
  return m;
}

std::shared_ptr<void> map_zero_pages(size_t nbytes) {
  if (nbytes == 0) return allocate_host(0);
  void* p = mmap(nullptr, nbytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw OutOfMemoryError("the system refused " + bytes_text(nbytes) + " of zero pages");
  return std::shared_ptr<void>(p, [nbytes](void* q) { munmap(q, nbytes); });
}

namespace {
thread_local LimitOverdraft* t_overdraft = nullptr;
}  // namespace

LimitOverdraft::LimitOverdraft() : outer_(t_overdraft) { t_overdraft = this; }
LimitOverdraft::~LimitOverdraft() { t_overdraft = outer_; }

void refuse_over_limit(const std::string& message) {
  if (!t_overdraft) throw OutOfMemoryError(message);
  if (t_overdraft->refused_.empty()) t_overdraft->refused_ = message;
}

HostPool::HostPool(std::string device) : cache_(new HostCache(std::move(device), false)) {}
std::shared_ptr<void> HostPool::allocate(size_t nbytes) { return mf::allocate(*cache_, nbytes, Kind::kPrivate); }
HostCacheStats HostPool::stats() const { return cache_->stats(); }
void HostPool::release() { cache_->release(); }
void HostPool::reset_peak() { cache_->reset_peak(); }
void HostPool::set_limit(size_t bytes) { cache_->set_limit(bytes); }
size_t HostPool::limit() const { return cache_->limit(); }

HostPool& host_pool() {
  static HostPool* pool = new HostPool(&cache());
  return *pool;
}

HostCacheStats host_cache_stats() { return cache().stats(); }
void release_host_cache() { cache().release(); }
void reset_peak_host_memory() { cache().reset_peak(); }

}  // namespace mf
