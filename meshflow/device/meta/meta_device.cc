// Copyright 2026 The meshflow Authors.
#include "meshflow/device/meta/meta_device.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "meshflow/core/allocator.h"
#include "meshflow/device/cpu/cpu_device.h"

namespace mf::device::meta {
namespace {

// Blocks are ranges of addresses in the non-canonical half of the address space (a host
// read of one faults at once), each a range of its own, never reused: code that tells
// tensors apart by address (aliasing checks, in-place detection) sees distinct blocks.
class MetaMemory : public Memory {
 public:
  const std::string& device_type() const override { return type_; }
  bool host_accessible() const override { return false; }
  std::shared_ptr<void> allocate(size_t nbytes) override {
    constexpr uintptr_t kAlign = 64;
    const uintptr_t size = (static_cast<uintptr_t>(nbytes) + kAlign - 1) / kAlign * kAlign + kAlign;
    void* address = reinterpret_cast<void*>(next_.fetch_add(size, std::memory_order_relaxed));
    return std::shared_ptr<void>(address, [](void*) {});
  }
  // Copies and fills into it are free, as there is nothing to write; out of it, vm::copy_to
  // refuses them at issue, so that this never runs.
  void copy_to_host(void*, const void*, size_t) const override { refuse(); }
  void copy_from_host(void*, const void*, size_t) const override {}
  void copy_within(void*, const void*, size_t) const override {}
  void zero(void*, size_t) const override {}
  void reduce_into(void*, const void*, int64_t, DType, ReduceOp) const override {}
  std::shared_ptr<void> zeros_for_reading(size_t nbytes) override { return allocate(nbytes); }

 private:
  [[noreturn]] static void refuse() { throw NoDataError("Cannot copy out of meta tensor; no data!"); }
  const std::string type_ = "meta";
  std::atomic<uintptr_t> next_{uintptr_t{1} << 63};
};

}  // namespace

Device& device() {
  // Never destroyed, as the CPU's. Its pool is never allocated from: its figures stay zero.
  static Device* made = [] {
    auto* memory = new MetaMemory;
    return make_worker_device("meta", *memory, *new HostPool("meta")).release();
  }();
  return *made;
}

bool is_meta(const Memory& memory) { return &memory == &device().memory(); }

}  // namespace mf::device::meta
