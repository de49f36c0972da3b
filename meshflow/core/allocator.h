// Copyright 2026 The meshflow Authors.
// Host memory for tensors. Freed blocks are cached by size and reused, because returning
// large blocks to the OS on every free (as glibc does above its mmap threshold) makes each
// collective pay page faults on fresh memory. Thread-safe.
#pragma once

#include <cstddef>
#include <memory>

namespace mf {

// A 64-byte aligned block of at least `nbytes`; the block goes back to the cache when the
// last owner drops it. nbytes == 0 gives a valid empty block.
std::shared_ptr<void> allocate_host(size_t nbytes);

struct HostCacheStats {
  size_t cached_bytes;  // held in the cache, free for reuse
  size_t hits;
  size_t misses;
  size_t in_use_bytes;  // held by live blocks (rounded sizes)
  size_t peak_bytes;    // the most in_use_bytes has been since start or reset_peak_host_memory()
};
HostCacheStats host_cache_stats();
// Returns every cached block to the OS.
void release_host_cache();
void reset_peak_host_memory();

}  // namespace mf
