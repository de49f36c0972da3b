// Copyright 2026 The meshflow Authors.
#include "meshflow/device/testdev/testdev.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "meshflow/core/allocator.h"
#include "meshflow/device/cpu/cpu_device.h"

namespace mf::device::testdev {
namespace {

// Adding it makes any user-space address (below 2^47 on x86-64 and AArch64 Linux)
// non-canonical; subtracting it gives the address back.
constexpr uintptr_t kOffset = uintptr_t{1} << 63;

void* device_address(void* host) { return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(host) + kOffset); }

// Its blocks come from a host pool of its own, so that its figures and limit are its own.
class TestMemory : public Memory {
 public:
  explicit TestMemory(int index) : index_(index), pool_(*new HostPool("testdev:" + std::to_string(index))) {}
  HostPool& pool() { return pool_; }
  const std::string& device_type() const override { return type_; }
  int device_index() const override { return index_; }
  bool host_accessible() const override { return false; }
  std::shared_ptr<void> allocate(size_t nbytes) override {
    std::shared_ptr<void> block = pool_.allocate(nbytes);
    return std::shared_ptr<void>(block, device_address(block.get()));
  }
  void copy_to_host(void* host, const void* src, size_t nbytes) const override {
    std::memcpy(host, host_address(src), nbytes);
  }
  void copy_from_host(void* dst, const void* host, size_t nbytes) const override {
    std::memcpy(host_address(dst), host, nbytes);
  }
  void copy_within(void* dst, const void* src, size_t nbytes) const override {
    std::memcpy(host_address(dst), host_address(src), nbytes);
  }
  void zero(void* dst, size_t nbytes) const override { std::memset(host_address(dst), 0, nbytes); }
  void reduce_into(void* acc, const void* x, int64_t n, DType dtype, ReduceOp op) const override {
    reduce_into_host(host_address(acc), host_address(x), n, dtype, op);
  }
  // The host's zero pages, at a device address, as its blocks (the pool does not count them).
  std::shared_ptr<void> zeros_for_reading(size_t nbytes) override {
    std::shared_ptr<void> block = map_zero_pages(nbytes);
    return std::shared_ptr<void>(block, device_address(block.get()));
  }

 private:
  const std::string type_ = "testdev";
  const int index_;
  HostPool& pool_;  // never destroyed, as the device
};

std::atomic<int64_t>& latency() {
  static std::atomic<int64_t> us{[] {
    const char* v = std::getenv("MESHFLOW_TESTDEV_LATENCY_US");
    return v && *v ? std::max<int64_t>(0, std::atoll(v)) : int64_t{0};
  }()};
  return us;
}

}  // namespace

void set_latency_us(int64_t us) {
  if (us < 0) throw std::invalid_argument("testdev latency " + std::to_string(us) + " us; expected >= 0");
  latency().store(us);
}

int64_t latency_us() { return latency().load(); }

void* host_address(const void* address) {
  return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(address) - kOffset);
}

Device& device(int index) {
  if (index < 0 || index >= kCount) {
    throw std::invalid_argument("device: testdev:" + std::to_string(index) + " does not exist; this process has " +
                                std::to_string(kCount) + " test devices, testdev:0 to testdev:" +
                                std::to_string(kCount - 1));
  }
  // Never destroyed, as the CPU's: work may run during exit.
  static Device* devices[kCount] = {};
  static std::once_flag made[kCount];
  std::call_once(made[index], [index] {
    auto* memory = new TestMemory(index);
    devices[index] = make_worker_device("testdev", *memory, memory->pool(), &latency()).release();
  });
  return *devices[index];
}

bool is_testdev(const Memory& memory) { return memory.device_type() == "testdev"; }

Tensor host_view(const Tensor& t) {
  return Tensor::wrap(host_address(t.data()), t.shape(), t.dtype(), t.storage()->owner()).with_format(t.format());
}

}  // namespace mf::device::testdev
