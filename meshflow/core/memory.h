// Copyright 2026 The meshflow Authors.
// Where a storage's bytes live. Each device (meshflow/device) has one Memory: it allocates
// blocks and copies bytes between itself and the host. Core code may read and write a
// tensor's data() only where host_accessible(); other memory is moved with the copies
// (Tensor::to_host, Tensor::copy_to), which run on the calling thread: callers run them
// on a stream's worker. The host's memory (the CPU device's) is host_memory().
// Thread-safety: every member may be called from any thread.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "meshflow/core/dtype.h"

namespace mf {

// The device type's number in this process: "cpu" is 0, and each other name gets the next
// one the first time it is asked for, for good. Tables indexed by it (each op's kernels,
// ops/registry.cc) find a device type's entry without comparing names.
int device_type_index(const std::string& device_type);

class Memory {
 public:
  virtual ~Memory() = default;
  // The device type and index it belongs to ("cpu", 0).
  virtual const std::string& device_type() const = 0;
  virtual int device_index() const { return 0; }
  // mf::device_type_index(device_type()), looked up on the first call only.
  int device_type_index() const {
    int index = type_index_.load(std::memory_order_relaxed);
    if (index < 0) {
      index = mf::device_type_index(device_type());
      type_index_.store(index, std::memory_order_relaxed);
    }
    return index;
  }
  // Whether host code may dereference its addresses.
  virtual bool host_accessible() const = 0;
  // A block of at least `nbytes` (0 gives a valid empty block), returned to the device's
  // cache when the last owner drops it. Throws std::bad_alloc when there is no room.
  virtual std::shared_ptr<void> allocate(size_t nbytes) = 0;
  // `nbytes` from `src` in this memory to host memory at `host`, and back; and within this
  // memory. Blocking, except that a device may order copies within its memory and zero fills
  // on the calling worker's stream instead (its later work on that stream sees them).
  virtual void copy_to_host(void* host, const void* src, size_t nbytes) const = 0;
  virtual void copy_from_host(void* dst, const void* host, size_t nbytes) const = 0;
  virtual void copy_within(void* dst, const void* src, size_t nbytes) const = 0;
  // `nbytes` of zero bytes at `dst`.
  virtual void zero(void* dst, size_t nbytes) const = 0;

  // What the comm layer needs besides copies; a device may leave these to the defaults, which
  // go through host memory. acc[i] = op(acc[i], x[i]) for n elements of `dtype` (bfloat16 in
  // float32, rounded once), both in this memory.
  virtual void reduce_into(void* acc, const void* x, int64_t n, DType dtype, ReduceOp op) const;
  // Host memory for staging copies to and from this memory (an accelerator's pinned memory,
  // which its copies reach without another copy): allocate_host's by default.
  virtual std::shared_ptr<void> allocate_staging(size_t nbytes) const;
  // `nbytes` of zero bytes that are only ever read: a failed op's outputs, which collectives
  // still read (vm.h), where allocate found no room for them. By default a block allocated
  // beyond the limit (LimitOverdraft, core/allocator.h); host memory maps the system's zero
  // page instead, which commits no memory.
  virtual std::shared_ptr<void> zeros_for_reading(size_t nbytes);
  // "cpu" (one device), "testdev:0", "testdev:1": for errors, as PyTorch names devices.
  std::string device_str() const {
    return host_accessible() ? device_type() : device_type() + ":" + std::to_string(device_index());
  }

 private:
  mutable std::atomic<int> type_index_{-1};
};

// Host memory, from the caching host allocator (core/allocator.h).
Memory& host_memory();

// Memory::reduce_into on host memory.
void reduce_into_host(void* acc, const void* x, int64_t n, DType dtype, ReduceOp op);

}  // namespace mf
