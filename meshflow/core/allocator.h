// Copyright 2026 The meshflow Authors.
// Host memory for tensors. Freed blocks are cached by size and reused, because returning
// large blocks to the OS on every free (as glibc does above its mmap threshold) makes each
// collective pay page faults on fresh memory. Thread-safe. Blocks of up to 1 KiB pass
// through a small per-thread cache (at most 64 free blocks per size and thread), so that
// threads that allocate and free them per op (the issuing thread and the compute worker)
// do not wait on each other's lock.
//
// Limits: a pool holds at most its limit of bytes (in use plus cached), as a GPU holds at
// most its memory. An allocation that would pass it first returns the cached blocks to the
// system; where what is in use leaves no room for the block, it throws OutOfMemoryError
// (core/error.h), or inside a LimitOverdraft (below: a collective's buffers) passes the
// limit and records the error. So what is in use never passes the limit, reusing a cached
// block included (a limit set below what the pool held releases its cache), and whether an
// allocation fits depends on what is in use alone, not on what earlier work left cached
// (the per-thread caches of small blocks, which other threads cannot release, may hold a
// little beyond the limit). Threads allocating at once may each pass the check before the
// others count their block: the limit may be passed by at most one block per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mf {

// A 64-byte aligned block of at least `nbytes`; the block goes back to the cache when the
// last owner drops it. nbytes == 0 gives a valid empty block, which no limit refuses.
std::shared_ptr<void> allocate_host(size_t nbytes);

// Like allocate_host, but a fresh block is a memfd of its own, which other processes of
// this host can map (shared_block_of says where), so that a collective can copy straight
// into a peer's tensor with plain stores (comm/mpi/cross_memory.h). Such blocks have 4 KiB
// pages (the kernel gives shared memory no transparent huge pages by default), so only
// what peers write into is allocated here. Where the system has no memfd, or 128 shared
// blocks are in use already (each holds a descriptor open; cached ones are released to make
// room), the block is ordinary memory and shared_block_of finds nothing.
std::shared_ptr<void> allocate_host_shared(size_t nbytes);

// A block from allocate_host_shared, as this process sees it. A peer maps it by opening
// /proc/<pid>/fd/<fd> while the block is alive; `serial` names the block for the life of
// the process (descriptors and addresses are reused, serials never), so that peers can
// keep their mappings.
struct SharedBlock {
  int fd;
  uint64_t serial;
  char* base;
  size_t bytes;
};
// The shared block holding all of [p, p + nbytes), if any.
std::optional<SharedBlock> shared_block_of(const void* p, size_t nbytes);

// `nbytes` of the system's read-only zero page, mapped: zeros that commit no memory (for
// Memory::zeros_for_reading). Throws OutOfMemoryError where the system refuses the mapping.
std::shared_ptr<void> map_zero_pages(size_t nbytes);

struct HostCacheStats {
  size_t cached_bytes;  // held in the cache, free for reuse
  size_t hits;
  size_t misses;
  size_t in_use_bytes;  // held by live blocks (rounded sizes)
  size_t peak_bytes;    // the most in_use_bytes has been since start or reset_peak()
};

// No limit: the default.
constexpr size_t kNoMemoryLimit = std::numeric_limits<size_t>::max();
// Bytes from "1073741824", "1024M", "1G", "1.5g" (K, M, G, T: powers of 1024); throws
// std::invalid_argument naming `what` for anything else.
size_t parse_memory_size(const std::string& text, const std::string& what);
// MESHFLOW_MEMORY_LIMIT, the limit every device of the process starts with (parsed as
// above); kNoMemoryLimit when unset or empty.
size_t memory_limit_from_env();
// An OutOfMemoryError's message: "<device> is out of memory: asked for ... with ... in use by
// tensors and ... cached (already released and retried)", and its limit where one is set.
std::string out_of_memory_message(const std::string& device, size_t requested, size_t in_use, size_t cached,
                                  size_t limit);

// Passing a limit where every rank must go on: a collective's own buffers (vm.h). While a
// LimitOverdraft is open on a thread, an allocation of that thread that a limit refuses
// (after the cache was released) is made anyway, beyond the limit, and the out-of-memory
// message it would have thrown is kept here instead, for the VM to fail the instruction's
// outputs with once the collective has run on every rank. A refusal of the system itself
// still throws. Scopes nest (the innermost keeps the message); each is its thread's alone.
class LimitOverdraft {
 public:
  LimitOverdraft();
  ~LimitOverdraft();
  LimitOverdraft(const LimitOverdraft&) = delete;
  LimitOverdraft& operator=(const LimitOverdraft&) = delete;
  // The first refused allocation's out-of-memory message; empty when none was refused.
  const std::string& refused() const { return refused_; }

 private:
  friend void refuse_over_limit(const std::string& message);
  LimitOverdraft* outer_;
  std::string refused_;
};
// What an allocator does where its limit refuses an allocation: throws
// OutOfMemoryError(message), or, inside this thread's LimitOverdraft, records it there and
// returns (the caller then allocates beyond the limit).
void refuse_over_limit(const std::string& message);

class HostCache;
// A caching pool of host blocks with figures and a limit of its own: the host's (host_pool(),
// which allocate_host draws from), and one per device whose memory is host memory counted
// apart (the test devices, as a GPU's memory is its own).
class HostPool {
 public:
  // `device` names it in errors ("testdev:0"). Pools are never destroyed: blocks may be freed
  // during static destruction.
  explicit HostPool(std::string device);
  std::shared_ptr<void> allocate(size_t nbytes);
  HostCacheStats stats() const;
  // Returns every cached block to the OS (a shared block that a peer has mapped lives on
  // until the peer drops its mapping; the per-thread caches of small blocks keep theirs).
  void release();
  void reset_peak();
  void set_limit(size_t bytes);
  size_t limit() const;

 private:
  friend HostPool& host_pool();
  explicit HostPool(HostCache* cache) : cache_(cache) {}
  HostCache* cache_;
};
HostPool& host_pool();

// The host pool's.
HostCacheStats host_cache_stats();
void release_host_cache();
void reset_peak_host_memory();

}  // namespace mf
