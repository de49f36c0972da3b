// Copyright 2026 The meshflow Authors.
// Memory limits (core/allocator.h, Device::set_memory_limit): a pool refuses blocks beyond
// its limit after freeing its cache and retrying, with an OutOfMemoryError that names what
// was asked for, in use, cached and the limit; figures and peaks; the VM raising it at issue
// for a local op whose outputs are allocated then (the test device), else at the next
// synchronization with the op's name; a LimitOverdraft (a collective's buffers) passing the
// limit and keeping the error; zeros for a failed op's outputs that commit no memory.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "meshflow/core/allocator.h"
#include "meshflow/core/error.h"
#include "meshflow/device/device.h"
#include "meshflow/ops/dispatch.h"
#include "meshflow/ops/registry.h"
#include "meshflow/vm/vm.h"

namespace mf {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

// The message of what `allocate` throws; fails the test when it throws nothing or another class.
template <typename Allocate>
std::string out_of_memory(Allocate allocate) {
  try {
    allocate();
  } catch (const OutOfMemoryError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no OutOfMemoryError";
  return "";
}

void expect_has(const std::string& text, const std::string& part) {
  EXPECT_NE(text.find(part), std::string::npos) << "'" << part << "' not in: " << text;
}

TEST(MemoryLimit, APoolRefusesBlocksBeyondItsLimitAndSaysWhatItHeld) {
  HostPool pool("pool:0");
  pool.set_limit(4 * kMiB);
  std::shared_ptr<void> a = pool.allocate(3 * kMiB);
  const std::string what = out_of_memory([&] { pool.allocate(2 * kMiB); });
  expect_has(what, "pool:0 is out of memory: asked for 2.0 MiB with 3.0 MiB in use by tensors and 0 bytes cached");
  expect_has(what, "its limit is 4.0 MiB");
  EXPECT_EQ(pool.stats().in_use_bytes, 3 * kMiB) << "a refused block is not counted";
  std::shared_ptr<void> b = pool.allocate(kMiB);  // what fits still comes
  EXPECT_EQ(pool.stats().in_use_bytes, 4 * kMiB);
  pool.set_limit(kNoMemoryLimit);
  std::shared_ptr<void> c = pool.allocate(8 * kMiB);
  EXPECT_EQ(pool.stats().in_use_bytes, 12 * kMiB);
}

TEST(MemoryLimit, TheCacheIsFreedAndTheAllocationRetriedFirst) {
  HostPool pool("pool:1");
  pool.set_limit(4 * kMiB);
  pool.allocate(3 * kMiB).reset();  // cached now: in use 0, held 3 MiB
  EXPECT_EQ(pool.stats().cached_bytes, 3 * kMiB);
  std::shared_ptr<void> b = pool.allocate(2 * kMiB);  // 3 + 2 > 4 held: the cache goes, then it fits
  EXPECT_EQ(pool.stats().cached_bytes, 0u);
  EXPECT_EQ(pool.stats().in_use_bytes, 2 * kMiB);
  std::shared_ptr<void> again = pool.allocate(2 * kMiB);  // a cached block of the size is reused within it
  b.reset();
  std::shared_ptr<void> reused = pool.allocate(2 * kMiB);
  EXPECT_EQ(pool.stats().cached_bytes, 0u);
  EXPECT_EQ(pool.stats().hits, 1u);
}

TEST(MemoryLimit, ACachedBlockIsNoWayPastTheLimit) {
  // What is in use stays within the limit whatever the cache holds: reusing cached blocks
  // let it pass the limit, so that whether a program fit depended on what earlier work had
  // left cached (a GPT run fit under a limit after other tests, and raised alone).
  HostPool pool("pool:3");
  std::vector<std::shared_ptr<void>> earlier;
  for (int i = 0; i < 3; ++i) earlier.push_back(pool.allocate(2 * kMiB));
  earlier.clear();
  EXPECT_EQ(pool.stats().cached_bytes, 6 * kMiB);
  pool.set_limit(4 * kMiB);
  EXPECT_EQ(pool.stats().cached_bytes, 0u) << "a limit below what the pool holds releases its cache";
  pool.set_limit(kNoMemoryLimit);
  for (int i = 0; i < 3; ++i) earlier.push_back(pool.allocate(2 * kMiB));
  pool.set_limit(4 * kMiB);  // set while more is in use: the blocks are cached when freed
  earlier.clear();
  EXPECT_EQ(pool.stats().cached_bytes, 6 * kMiB);
  std::shared_ptr<void> a = pool.allocate(2 * kMiB);
  std::shared_ptr<void> b = pool.allocate(2 * kMiB);
  EXPECT_EQ(pool.stats().hits, 2u);
  const std::string what = out_of_memory([&] { pool.allocate(2 * kMiB); });
  expect_has(what, "asked for 2.0 MiB with 4.0 MiB in use by tensors and 0 bytes cached (already released");
  EXPECT_EQ(pool.stats().in_use_bytes, 4 * kMiB);
  {
    LimitOverdraft overdraft;  // a collective's buffers pass it all the same
    std::shared_ptr<void> c = pool.allocate(2 * kMiB);
    expect_has(overdraft.refused(), "asked for 2.0 MiB with 4.0 MiB in use");
  }
  b.reset();
  std::shared_ptr<void> d = pool.allocate(2 * kMiB);  // within the limit: the cache serves
  EXPECT_EQ(pool.stats().in_use_bytes, 4 * kMiB);
  EXPECT_EQ(pool.stats().hits, 3u);
}

// An empty block (a default Tensor) holds no data: no limit refuses it, also while a
// collective's buffers hold the pool beyond its limit, where a byte more is refused.
TEST(MemoryLimit, AnEmptyBlockPassesAnyLimit) {
  HostPool pool("pool:3");
  pool.set_limit(2 * kMiB);
  std::shared_ptr<void> held;
  {
    LimitOverdraft overdraft;
    held = pool.allocate(3 * kMiB);
  }
  std::shared_ptr<void> empty = pool.allocate(0);
  EXPECT_NE(empty.get(), nullptr);
  expect_has(out_of_memory([&] { pool.allocate(1); }), "asked for 64 bytes with 3.0 MiB in use");
}

TEST(MemoryLimit, AnOverdraftPassesTheLimitAndKeepsTheFirstRefusal) {
  HostPool pool("pool:2");
  pool.set_limit(4 * kMiB);
  std::shared_ptr<void> a = pool.allocate(3 * kMiB);
  std::shared_ptr<void> b, c;
  {
    LimitOverdraft outer;
    {
      LimitOverdraft inner;
      b = pool.allocate(2 * kMiB);  // beyond the limit: made, and the refusal kept
      c = pool.allocate(3 * kMiB);
      expect_has(inner.refused(), "pool:2 is out of memory: asked for 2.0 MiB with 3.0 MiB in use by tensors");
      expect_has(inner.refused(), "its limit is 4.0 MiB");
    }
    EXPECT_EQ(outer.refused(), "") << "the innermost scope keeps it";
    EXPECT_EQ(pool.stats().in_use_bytes, 8 * kMiB);
  }
  const std::string what = out_of_memory([&] { pool.allocate(kMiB); });  // outside any scope: refused
  expect_has(what, "asked for 1.0 MiB with 8.0 MiB in use");
  b.reset();
  c.reset();
  std::shared_ptr<void> d = pool.allocate(kMiB);  // within the limit again
}

TEST(MemoryLimit, ZerosForReadingCommitNoMemoryOnTheHostAndTheTestDevice) {
  for (Memory* memory : {&host_memory(), &device::get("testdev", 1).memory()}) {
    std::shared_ptr<void> zeros = memory->zeros_for_reading(64 * kMiB);
    ASSERT_TRUE(zeros);
    std::vector<float> back(4, 1.0f);
    memory->copy_to_host(back.data(), static_cast<char*>(zeros.get()) + 32 * kMiB, sizeof(float) * back.size());
    EXPECT_EQ(back, std::vector<float>(4, 0.0f)) << memory->device_str();
  }
  EXPECT_LT(device::get("testdev", 1).memory_stats().in_use_bytes, 64 * kMiB) << "the pool does not count them";
}

TEST(MemoryLimit, PeakFollowsUseAndResetsToWhatIsInUse) {
  HostPool pool("pool:2");
  std::shared_ptr<void> a = pool.allocate(2 * kMiB);
  pool.allocate(5 * kMiB).reset();
  EXPECT_EQ(pool.stats().peak_bytes, 7 * kMiB);
  EXPECT_EQ(pool.stats().in_use_bytes, 2 * kMiB);
  pool.reset_peak();
  EXPECT_EQ(pool.stats().peak_bytes, 2 * kMiB);
  std::shared_ptr<void> b = pool.allocate(kMiB);
  EXPECT_EQ(pool.stats().peak_bytes, 3 * kMiB);
}

TEST(MemoryLimit, SizesParseWithPowersOf1024) {
  EXPECT_EQ(parse_memory_size("1048576", "x"), kMiB);
  EXPECT_EQ(parse_memory_size("512M", "x"), 512 * kMiB);
  EXPECT_EQ(parse_memory_size("1.5g", "x"), 1536 * kMiB);
  EXPECT_EQ(parse_memory_size("2K", "x"), 2048u);
  for (const char* bad : {"", "abc", "-1", "2Q", "1GB", "M"}) {
    try {
      parse_memory_size(bad, "MESHFLOW_MEMORY_LIMIT");
      ADD_FAILURE() << "no error for '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      expect_has(e.what(), "MESHFLOW_MEMORY_LIMIT is '" + std::string(bad) + "'; expected a number of bytes");
    }
  }
}

// Sets a device's limit for a scope.
class Limit {
 public:
  Limit(device::Device& d, size_t bytes) : d_(d) { d_.set_memory_limit(bytes); }
  ~Limit() { d_.set_memory_limit(kNoMemoryLimit); }

 private:
  device::Device& d_;
};

TEST(MemoryLimit, EachTestDeviceCountsAndLimitsItsOwnMemory) {
  device::Device& dev = device::get("testdev", 1);
  vm::synchronize();
  dev.release_cached_memory();
  const device::MemoryStats before = dev.memory_stats();
  const size_t host_before = device::cpu().memory_stats().in_use_bytes;
  Tensor t = Tensor::empty({kMiB / 4}, DType::kFloat32, dev.memory());
  EXPECT_EQ(dev.memory_stats().in_use_bytes, before.in_use_bytes + kMiB);
  EXPECT_EQ(device::cpu().memory_stats().in_use_bytes, host_before) << "the host's figures do not count it";
  Limit limit(dev, before.in_use_bytes + 2 * kMiB);
  EXPECT_EQ(dev.memory_stats().limit_bytes, before.in_use_bytes + 2 * kMiB);
  const std::string what = out_of_memory([&] { Tensor::empty({kMiB / 2}, DType::kFloat32, dev.memory()); });
  expect_has(what, "a float32 tensor of shape [524288]");
  expect_has(what, ": testdev:1 is out of memory: asked for 2.0 MiB with ");
}

TEST(MemoryLimit, ALocalOpOnTheTestDeviceRaisesAtItsCall) {
  device::Device& dev = device::get("testdev", 0);
  vm::synchronize();
  const Tensor x = vm::copy_to(Tensor::zeros({kMiB / 4}, DType::kFloat32), dev);
  vm::wait(x);
  dev.release_cached_memory();
  Limit limit(dev, dev.memory_stats().in_use_bytes + kMiB / 2);
  const std::string what = out_of_memory([&] { apply_local(find_op("add"), {x, x}, {}); });
  expect_has(what, "[add] a float32 tensor of shape [262144]: testdev:0 is out of memory");
  vm::synchronize();  // nothing left pending: the op was never issued
}

TEST(MemoryLimit, AHostKernelBeyondTheLimitRaisesAtTheNextSynchronization) {
  device::Device& cpu = device::cpu();
  const Tensor x = Tensor::zeros({2 * kMiB}, DType::kFloat32);  // 8 MiB
  vm::synchronize();
  cpu.release_cached_memory();
  Tensor y;
  {
    Limit limit(cpu, cpu.memory_stats().in_use_bytes + 4 * kMiB);
    y = apply_local(find_op("add"), {x, x}, {})[0];  // its kernel allocates as it runs
    const std::string what = out_of_memory([] { vm::synchronize(); });
    expect_has(what, "[add] ");
    expect_has(what, "cpu is out of memory: asked for 8.0 MiB");
    expect_has(what, "its limit is");
  }
  EXPECT_THROW(vm::wait(y), OutOfMemoryError);
  const Tensor z = apply_local(find_op("add"), {x, x}, {})[0];  // without the limit it runs
  vm::wait(z);
  EXPECT_EQ(z.data_as<float>()[0], 0.0f);
}

}  // namespace
}  // namespace mf
