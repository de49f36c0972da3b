// Copyright 2026 The meshflow Authors.
// The device layer and the VM on one process (no MPI): stream order, events across
// streams, pending outputs, errors surfacing at synchronization, lifetimes of tensors
// dropped while queued work uses them, blocking mode; the host allocator's shared blocks.
// Also run under ThreadSanitizer.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "meshflow/core/allocator.h"
#include "meshflow/device/cpu/cpu_device.h"
#include "meshflow/device/device.h"
#include "meshflow/ops/dispatch.h"
#include "meshflow/ops/registry.h"
#include "meshflow/vm/vm.h"

namespace mf {
namespace {

using device::StreamKind;

// A gate a body can wait on, so a test sees the state before the body has run.
class Gate {
 public:
  void open() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      open_ = true;
    }
    cv_.notify_all();
  }
  void pass() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return open_; });
  }
  void pass_or_after(std::chrono::milliseconds limit) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, limit, [&] { return open_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

Tensor filled(const Shape& shape, float value) {
  Tensor t = Tensor::empty(shape, DType::kFloat32);
  for (int64_t i = 0; i < t.numel(); ++i) t.data_as<float>()[i] = value;
  return t;
}

Tensor add_local(const Tensor& a, const Tensor& b) { return apply_local(find_op("add"), {a, b}, {})[0]; }

TEST(Device, StreamRunsInLaunchOrder) {
  device::Stream& s = device::cpu().stream(StreamKind::kCompute);
  std::vector<int> seen;
  for (int i = 0; i < 100; ++i) s.launch([&seen, i] { seen.push_back(i); });
  s.synchronize();
  ASSERT_EQ(seen.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(seen[i], i);
}

TEST(Device, WaitOnAnotherStreamsEvent) {
  device::Device& cpu = device::cpu();
  device::Stream& producer = cpu.stream(StreamKind::kHostToDevice);
  device::Stream& consumer = cpu.stream(StreamKind::kCompute);
  Gate gate;
  std::atomic<int> value{0};
  producer.launch([&] {
    gate.pass();
    value.store(42, std::memory_order_relaxed);
  });
  auto event = cpu.create_event();
  producer.record(*event);
  EXPECT_FALSE(event->query());
  consumer.wait(*event);
  int read = -1;
  consumer.launch([&] { read = value.load(std::memory_order_relaxed); });
  gate.open();
  consumer.synchronize();
  EXPECT_TRUE(event->query());
  EXPECT_EQ(read, 42);
}

TEST(Device, EventsComeFromAPool) {
  device::Event* first = device::cpu().create_event().get();  // dropped at once: back to the pool
  auto again = device::cpu().create_event();
  EXPECT_EQ(again.get(), first);
  EXPECT_TRUE(again->query());  // never recorded: complete
}

// Shared blocks (core/allocator.h): found by any address inside them, mappable by another
// process through /proc (here this one, through a second mapping, sees a write through the
// first), reused from the cache, and bounded in number, cached ones released to make room.
TEST(Device, SharedBlocksAreMappableFoundAndBounded) {
  constexpr size_t kBytes = size_t{3} << 20;
  std::shared_ptr<void> a = allocate_host_shared(kBytes);
  const std::optional<SharedBlock> block = shared_block_of(static_cast<char*>(a.get()) + 100, 200);
  ASSERT_TRUE(block.has_value());
  EXPECT_EQ(block->base, a.get());
  EXPECT_GE(block->bytes, kBytes);
  EXPECT_FALSE(shared_block_of(static_cast<char*>(a.get()) + 100, block->bytes).has_value());  // runs past it
  std::shared_ptr<void> private_block = allocate_host(kBytes);
  EXPECT_FALSE(shared_block_of(private_block.get(), 1).has_value());

  const std::string path = "/proc/" + std::to_string(getpid()) + "/fd/" + std::to_string(block->fd);
  const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0) << path;
  void* again = mmap(nullptr, block->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  ASSERT_NE(again, MAP_FAILED);
  static_cast<char*>(again)[12345] = 42;
  EXPECT_EQ(static_cast<char*>(a.get())[12345], 42);
  munmap(again, block->bytes);

  const uint64_t serial = block->serial;
  void* const at = a.get();
  a.reset();
  a = allocate_host_shared(kBytes);  // the cached block again
  EXPECT_EQ(a.get(), at);
  EXPECT_EQ(shared_block_of(a.get(), 1)->serial, serial);

  std::vector<std::shared_ptr<void>> many;
  for (int i = 0; i < 200; ++i) many.push_back(allocate_host_shared(4096));
  int shared = 0;
  for (const auto& b : many) shared += shared_block_of(b.get(), 1).has_value();
  EXPECT_LT(shared, 200);  // bounded: the rest are ordinary memory
  EXPECT_GT(shared, 100);
  many.clear();  // cached now; a new size takes the room they held
  std::shared_ptr<void> other = allocate_host_shared(8192);
  EXPECT_TRUE(shared_block_of(other.get(), 1).has_value());
}

TEST(Vm, LaunchReturnsPendingOutputsAtOnce) {
  Gate gate;
  const Tensor x = filled({3}, 1.0f);
  std::vector<Tensor> out = vm::launch("held", StreamKind::kCompute, {x}, {{{3}, DType::kFloat32}},
                                       [&](const std::vector<Tensor>& in) {
                                         gate.pass();
                                         return std::vector<Tensor>{in[0].clone()};
                                       });
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape(), (Shape{3}));  // the metadata is known before the data
  EXPECT_FALSE(out[0].is_ready());
  gate.open();
  vm::wait(out[0]);
  EXPECT_TRUE(out[0].is_ready());
  EXPECT_EQ(out[0].data_as<float>()[2], 1.0f);
}

TEST(Vm, ConsumerOnAnotherStreamWaitsForItsProducer) {
  Gate gate;
  const Tensor made = vm::launch("slow producer", StreamKind::kHostToDevice, {}, {{{4}, DType::kFloat32}},
                                 [&](const std::vector<Tensor>&) {
                                   gate.pass();
                                   return std::vector<Tensor>{filled({4}, 5.0f)};
                                 })[0];
  const Tensor sum = add_local(made, filled({4}, 1.0f));  // compute stream, reads `made`
  gate.open();
  vm::wait(sum);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(sum.data_as<float>()[i], 6.0f);
}

TEST(Vm, LongChainEqualsBlockingMode) {
  auto run = [] {
    Tensor acc = filled({257}, 0.5f);
    for (int i = 0; i < 2000; ++i) acc = add_local(acc, filled({257}, static_cast<float>(i % 7) * 0.25f));
    vm::wait(acc);
    return acc;
  };
  const Tensor async = run();
  vm::set_blocking(true);
  const Tensor blocking = run();
  vm::set_blocking(false);
  EXPECT_TRUE(equal(async, blocking));
}

// Threads issuing at once (a logging thread beside training): each op is issued whole under
// the issuing lock, so every thread's chain gives what it gives alone. TSan checks the VM,
// the dispatch caches and the allocator along the way.
TEST(Vm, OpsIssuedFromSeveralThreadsGiveWhatEachGivesAlone) {
  auto chain = [](float step) {
    Tensor acc = filled({65}, 1.0f);
    for (int i = 0; i < 300; ++i) {
      acc = add_local(acc, filled({65}, step));
      if (i % 50 == 0) vm::wait(acc);  // reads and synchronizations interleave with issues
    }
    vm::synchronize();
    return acc;
  };
  const Tensor alone = chain(0.25f);
  std::vector<Tensor> results(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < results.size(); ++t) threads.emplace_back([&, t] { results[t] = chain(0.25f); });
  for (std::thread& t : threads) t.join();
  for (const Tensor& r : results) EXPECT_TRUE(equal(r, alone));
}

// The lock is the process's, not a thread's: a thread that finds it held waits for it, and
// an entry nested in another (an op inside backward) takes it again at no cost.
TEST(Vm, IssuingLockNestsAndMakesOtherThreadsWait) {
  std::atomic<bool> inside{false};
  std::optional<vm::Issuing> held;
  held.emplace();
  {
    vm::Issuing nested;
    add_local(filled({3}, 1.0f), filled({3}, 2.0f));
  }
  std::thread other([&] {
    vm::Issuing issuing;
    inside = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(inside.load());
  held.reset();
  other.join();
  EXPECT_TRUE(inside.load());
}

TEST(Vm, TensorsDroppedWhileQueuedStayAliveUntilUsed) {
  vm::synchronize();
  const size_t before = vm::device().memory_stats().in_use_bytes;
  Gate gate;
  Tensor result;
  {
    Tensor big = filled({1 << 18}, 2.0f);  // 1 MiB, dropped below while the instruction holds it
    result = vm::launch("reads big", StreamKind::kCompute, {big}, {{{1}, DType::kFloat32}},
                        [&](const std::vector<Tensor>& in) {
                          gate.pass();
                          Tensor out = Tensor::empty({1}, DType::kFloat32);
                          out.data_as<float>()[0] = in[0].data_as<float>()[(1 << 18) - 1];
                          return std::vector<Tensor>{out};
                        })[0];
  }
  EXPECT_GE(vm::device().memory_stats().in_use_bytes, before + (size_t{1} << 20));  // still held
  gate.open();
  vm::wait(result);
  EXPECT_EQ(result.data_as<float>()[0], 2.0f);
  vm::synchronize();  // retires the instruction: its inputs go back to the cache
  const device::MemoryStats after = vm::device().memory_stats();
  EXPECT_LT(after.in_use_bytes, before + (size_t{1} << 20));
  EXPECT_GE(after.cached_bytes, size_t{1} << 20);
  EXPECT_GE(after.peak_bytes, before + (size_t{1} << 20));
}

TEST(Vm, IssuingRunsBoundedAheadSoDroppedOutputsDoNotPileUp) {
  // Adds of 256 KiB whose results are dropped at once, issued while the compute stream is
  // held, so that the issuing thread is ahead of it. The outputs made are held by their
  // instructions until the issuing thread drops those; the peak memory counts them.
  constexpr int64_t kElems = 1 << 16;
  constexpr size_t kBytes = kElems * sizeof(float);
  const Tensor x = filled({kElems}, 1.0f);
  // Issues `adds` adds behind a held instruction that a thread releases 50 ms later; then
  // `finish`; returns the peak of memory in use over the start, in outputs.
  auto peak_outputs = [&](int adds, const std::function<void(const Tensor& last)>& finish) {
    vm::synchronize();
    reset_peak_host_memory();
    const size_t before = host_cache_stats().in_use_bytes;
    Gate gate;
    vm::launch("held", StreamKind::kCompute, {}, {}, [&](const std::vector<Tensor>&) {
      gate.pass();
      return std::vector<Tensor>{};
    });
    std::thread opener([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      gate.open();
    });
    Tensor last;
    for (int i = 0; i < adds; ++i) last = add_local(x, x);
    finish(last);
    opener.join();
    vm::synchronize();
    return static_cast<double>(host_cache_stats().peak_bytes - before) / kBytes;
  };
  // 3,000 adds: unbounded, the issuing thread would queue them all, and waiting for the
  // last one would hold every output (750 MiB) until the wait ends. The queue depth (1,024,
  // as a CUDA launch queue's) makes the issuing thread wait instead, dropping as it goes.
  EXPECT_LT(peak_outputs(3000, [](const Tensor& last) { vm::wait(last); }), 1100);
  // 1,000 adds (within the depth), then synchronize: it drops every 64 instructions as the
  // queue drains, so the outputs are not all held at the end.
  EXPECT_LT(peak_outputs(1000, [](const Tensor&) { vm::synchronize(); }), 800);
}

TEST(Vm, AKernelWritesTheOutputsAllocatedAtItsIssue) {
  // The memory is taken when launch_kernel returns, before the body runs; the body writes
  // it and the pending output becomes that memory.
  vm::synchronize();
  const size_t before = host_cache_stats().in_use_bytes;
  Gate gate;
  std::vector<Tensor> given;
  std::vector<Tensor> out = vm::launch_kernel(
      "fill", {}, {{Shape{256}, DType::kFloat32}},
      [&](const std::vector<Tensor>&, const std::vector<Tensor>& outputs) {
        gate.pass();
        given = outputs;
        std::fill_n(outputs[0].data_as<float>(), 256, 2.5f);
        return outputs;
      },
      {}, /*allocate=*/true);
  EXPECT_GE(host_cache_stats().in_use_bytes, before + 256 * sizeof(float));
  gate.open();
  vm::wait(out[0]);
  ASSERT_EQ(given.size(), 1u);
  EXPECT_EQ(out[0].data(), given[0].data());
  EXPECT_EQ(out[0].data_as<float>()[255], 2.5f);
}

TEST(Vm, ErrorSurfacesAtTheNextSynchronizationWithTheOpName) {
  std::atomic<bool> dependent_ran{false};
  const Tensor bad = vm::launch("my_kernel", StreamKind::kCompute, {}, {{{2}, DType::kFloat32}},
                                [](const std::vector<Tensor>&) -> std::vector<Tensor> {
                                  throw std::invalid_argument("the data is wrong; expected right data");
                                })[0];
  const Tensor after = vm::launch("dependent", StreamKind::kCompute, {bad}, {{{2}, DType::kFloat32}},
                                  [&](const std::vector<Tensor>& in) {
                                    dependent_ran = true;
                                    return std::vector<Tensor>{in[0].clone()};
                                  })[0];
  try {
    vm::synchronize();
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "[my_kernel] the data is wrong; expected right data");
  }
  EXPECT_FALSE(dependent_ran);  // skipped: its input failed
  EXPECT_THROW(vm::wait(after), std::invalid_argument);  // reading a failed tensor raises again
  vm::synchronize();  // nothing left pending
  const Tensor fine = add_local(filled({2}, 1.0f), filled({2}, 2.0f));  // the process goes on
  vm::wait(fine);
  EXPECT_EQ(fine.data_as<float>()[1], 3.0f);
}

TEST(Vm, KernelDataErrorKeepsItsType) {
  Tensor zero = Tensor::zeros({1}, DType::kInt64);
  const Tensor q = apply_local(find_op("floor_divide"), {Tensor::zeros({3}, DType::kInt64), zero}, {})[0];
  EXPECT_FALSE(q.shape().empty());
  try {
    vm::wait(q);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("[floor_divide] integer division by zero"), std::string::npos) << e.what();
  }
  vm::synchronize();
}

TEST(Vm, BlockingModeRaisesAtTheCall) {
  vm::set_blocking(true);
  EXPECT_THROW(apply_local(find_op("floor_divide"), {Tensor::zeros({3}, DType::kInt64), Tensor::zeros({1}, DType::kInt64)}, {}),
               std::invalid_argument);
  vm::set_blocking(false);
  vm::synchronize();
}

// A kernel launched as small (vm::Flags::small), recording where it ran.
class SmallKernel : public vm::KernelLaunch {
 public:
  using Given = std::function<std::vector<Tensor>(const std::vector<Tensor>&, const std::vector<Tensor>&)>;
  explicit SmallKernel(std::function<std::vector<Tensor>(const std::vector<Tensor>&)> f)
      : f_([f = std::move(f)](const std::vector<Tensor>& in, const std::vector<Tensor>&) { return f(in); }) {}
  explicit SmallKernel(Given f) : f_(std::move(f)) {}
  std::vector<Tensor> run_here(const std::vector<Tensor>& inputs, const std::vector<Tensor>* given) override {
    ran_here = true;
    thread = std::this_thread::get_id();
    return f_(inputs, given ? *given : std::vector<Tensor>{});
  }
  vm::KernelBody body() override {
    queued = true;
    return [this](const std::vector<Tensor>& in, const std::vector<Tensor>& given) {
      thread = std::this_thread::get_id();
      return f_(in, given);
    };
  }
  bool ran_here = false, queued = false;
  std::thread::id thread;

 private:
  Given f_;
};

vm::Flags small_flags() {
  vm::Flags flags;
  flags.small = true;
  return flags;
}

TEST(Vm, ASmallKernelRunsAtTheCallWhileTheComputeStreamIsIdle) {
  vm::synchronize();
  SmallKernel twice([](const std::vector<Tensor>& in) {
    Tensor out = Tensor::empty(in[0].shape(), DType::kFloat32);
    for (int64_t i = 0; i < out.numel(); ++i) out.data_as<float>()[i] = 2 * in[0].data_as<float>()[i];
    return std::vector<Tensor>{out};
  });
  const Tensor x = filled({3}, 1.5f);
  const std::vector<Tensor> out = vm::launch_kernel("twice", {x}, {{{3}, DType::kFloat32}}, twice, small_flags(), false);
  EXPECT_TRUE(twice.ran_here);
  EXPECT_FALSE(twice.queued);
  EXPECT_EQ(twice.thread, std::this_thread::get_id());
  ASSERT_TRUE(out[0].is_ready());  // produced before launch returned
  EXPECT_EQ(out[0].data_as<float>()[2], 3.0f);
}

TEST(Vm, ASmallKernelQueuesBehindWorkOnItsStream) {
  Gate gate;
  const Tensor held = vm::launch("held", StreamKind::kCompute, {}, {{{3}, DType::kFloat32}},
                                 [&](const std::vector<Tensor>&) {
                                   gate.pass();
                                   return std::vector<Tensor>{filled({3}, 2.0f)};
                                 })[0];
  SmallKernel copy([](const std::vector<Tensor>& in) { return std::vector<Tensor>{in[0].clone()}; });
  // Its input is ready, but the stream is not idle: launch order holds.
  const Tensor x = filled({3}, 1.0f);
  const Tensor out = vm::launch_kernel("copy", {x}, {{{3}, DType::kFloat32}}, copy, small_flags(), false)[0];
  EXPECT_TRUE(copy.queued);
  EXPECT_FALSE(copy.ran_here);
  EXPECT_FALSE(out.is_ready());
  gate.open();
  vm::wait(out);
  EXPECT_NE(copy.thread, std::this_thread::get_id());
  EXPECT_EQ(out.data_as<float>()[0], 1.0f);
  // An input still pending on another stream queues it too.
  Gate other;
  const Tensor made = vm::launch("slow producer", StreamKind::kHostToDevice, {}, {{{3}, DType::kFloat32}},
                                 [&](const std::vector<Tensor>&) {
                                   other.pass();
                                   return std::vector<Tensor>{filled({3}, 4.0f)};
                                 })[0];
  vm::wait(held);
  SmallKernel reads([](const std::vector<Tensor>& in) { return std::vector<Tensor>{in[0].clone()}; });
  const Tensor after = vm::launch_kernel("reads", {made}, {{{3}, DType::kFloat32}}, reads, small_flags(), false)[0];
  EXPECT_TRUE(reads.queued);
  other.open();
  vm::wait(after);
  EXPECT_EQ(after.data_as<float>()[1], 4.0f);
}

TEST(Vm, ASmallKernelsErrorSurfacesAtTheNextSynchronizationOrAtTheCallWhenBlocking) {
  vm::synchronize();
  auto fails = [] {
    return SmallKernel([](const std::vector<Tensor>&) -> std::vector<Tensor> {
      throw std::invalid_argument("the data is wrong; expected right data");
    });
  };
  SmallKernel bad = fails();
  const Tensor out = vm::launch_kernel("small_kernel", {}, {{{2}, DType::kFloat32}}, bad, small_flags(), false)[0];
  EXPECT_TRUE(bad.ran_here);
  EXPECT_THROW(vm::wait(out), std::invalid_argument);  // failed: reading it raises
  vm::synchronize();                                    // raised once, by the read
  SmallKernel again = fails();
  vm::launch_kernel("small_kernel", {}, {{{2}, DType::kFloat32}}, again, small_flags(), false);
  try {
    vm::synchronize();
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "[small_kernel] the data is wrong; expected right data");
  }
  vm::set_blocking(true);
  SmallKernel blocking = fails();
  EXPECT_THROW(vm::launch_kernel("small_kernel", {}, {{{2}, DType::kFloat32}}, blocking, small_flags(), false),
               std::invalid_argument);
  vm::set_blocking(false);
  vm::synchronize();
}

TEST(Vm, ASmallKernelsViewOfItsInputIsAStorageOfItsOwn) {
  // As a queued kernel's output is: an in-place write of the output's storage (a new one
  // over the same memory) leaves the input's handles as vm.h says.
  vm::synchronize();
  const Tensor x = filled({4}, 3.0f);
  SmallKernel view([](const std::vector<Tensor>& in) { return std::vector<Tensor>{in[0].view(0, {2, 2})}; });
  const Tensor out = vm::launch_kernel("view", {x}, {{{2, 2}, DType::kFloat32}}, view, small_flags(), false)[0];
  EXPECT_TRUE(view.ran_here);
  EXPECT_NE(out.storage(), x.storage());
  EXPECT_EQ(out.data(), x.data());
  EXPECT_TRUE(out.shares_memory(x));
}

TEST(Vm, ASmallInPlaceWriteRunsAtTheCallWhenNothingMayStillReadItsBytes) {
  // Given its target's memory (vm::Flags::overwrite), as a queued one is; its output a new
  // storage over that memory, which shares the target's record of writes.
  vm::synchronize();
  SmallKernel doubles([](const std::vector<Tensor>& in, const std::vector<Tensor>& given) {
    Tensor out = given.at(0);
    for (int64_t i = 0; i < out.numel(); ++i) out.data_as<float>()[i] = 2 * in[0].data_as<float>()[i];
    return std::vector<Tensor>{out};
  });
  vm::Flags flags = small_flags();
  flags.overwrite = {0};
  const Tensor x = filled({3}, 1.5f);
  const Tensor out = vm::launch_kernel("doubles", {x}, {{{3}, DType::kFloat32}}, doubles, flags, false)[0];
  EXPECT_TRUE(doubles.ran_here);
  EXPECT_FALSE(doubles.queued);
  ASSERT_TRUE(out.is_ready());
  EXPECT_EQ(out.data(), x.data());
  EXPECT_NE(out.storage(), x.storage());
  EXPECT_EQ(out.storage()->vm_writes, x.storage()->vm_writes);
  EXPECT_EQ(x.data_as<float>()[2], 3.0f);
  // Another stream's work that may read its bytes, not run yet: queued behind it.
  Gate gate;
  const Tensor read = vm::launch("slow reader", StreamKind::kDeviceToHost, {out}, {{{3}, DType::kFloat32}},
                                 [&](const std::vector<Tensor>& in) {
                                   gate.pass();
                                   return std::vector<Tensor>{in[0].clone()};
                                 })[0];
  SmallKernel again([](const std::vector<Tensor>& in, const std::vector<Tensor>& given) {
    Tensor o = given.at(0);
    for (int64_t i = 0; i < o.numel(); ++i) o.data_as<float>()[i] = in[0].data_as<float>()[i] + 1;
    return std::vector<Tensor>{o};
  });
  const Tensor after = vm::launch_kernel("again", {out}, {{{3}, DType::kFloat32}}, again, flags, false)[0];
  EXPECT_TRUE(again.queued);
  EXPECT_FALSE(again.ran_here);
  gate.open();
  vm::wait(after);
  vm::wait(read);
  EXPECT_EQ(read.data_as<float>()[0], 3.0f);  // read before the write
  EXPECT_EQ(after.data_as<float>()[0], 4.0f);
}

TEST(Vm, AMidSizeOpRunsAtTheCallOnOneThreadAndGivesTheBitsOfItsRunOnTheWorker) {
  // Past OpenMP's grain, where a kernel could open a team, but a thread whose kernels run on
  // one thread runs it at the call (ops/dispatch.cc, inline_kernel): the caller that waits
  // for it then pays no hand-off. Where it runs changes no bit of what it makes.
  const int threads = device::cpu_threads();
  Tensor x = Tensor::empty({1 << 17}, DType::kFloat32);
  for (int64_t i = 0; i < x.numel(); ++i) x.data_as<float>()[i] = static_cast<float>(i % 1000) * 0.37f - 90.0f;
  const Attrs all{{"dims", std::vector<int64_t>{0}}};
  auto run = [&](int n) {
    device::set_cpu_threads(n);
    vm::synchronize();  // the compute stream idle
    std::vector<Tensor> out{apply_local(find_op("sum"), {x}, all)[0], apply_local(find_op("add"), {x, x}, {})[0]};
    device::set_cpu_threads(threads);
    return out;
  };
  const std::vector<Tensor> here = run(1);
  for (const Tensor& t : here) EXPECT_TRUE(t.is_ready());  // produced before the call returned
#if defined(__SANITIZE_THREAD__)
  // Two threads open an OpenMP team, and libgomp is not instrumented: TSan does not see its
  // barriers and reports the team's writes read after the region as races.
  GTEST_SKIP() << "the comparison with a team of two threads needs OpenMP, which TSan cannot follow";
#endif
  const std::vector<Tensor> queued = run(2);
  for (size_t k = 0; k < here.size(); ++k) {
    vm::wait(queued[k]);
    ASSERT_EQ(here[k].numel(), queued[k].numel());
    EXPECT_EQ(std::memcmp(here[k].data(), queued[k].data(), here[k].nbytes()), 0) << k;
  }
}

TEST(Vm, OutputsThatDoNotMatchThePlanFail) {
  const Tensor t = vm::launch("liar", StreamKind::kCompute, {}, {{{2}, DType::kFloat32}},
                              [](const std::vector<Tensor>&) { return std::vector<Tensor>{filled({3}, 0.0f)}; })[0];
  try {
    vm::synchronize();
    ADD_FAILURE() << "no error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("[liar] produced (float32[3]) where its plan said (float32[2])"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace mf

namespace mf {
namespace {

// ---------------------------------------------------------------------------------------------
// The test device: memory that host code cannot touch (device/testdev). Named apart from the
// Device suite, which also runs under TSan: a death test forks.

Memory& testdev_memory() { return device::get("testdev").memory(); }

TEST(TestDeviceDeathTest, HostCodeCannotTouchItsMemory) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Tensor t = Tensor::zeros({4}, DType::kFloat32, testdev_memory());
  EXPECT_FALSE(testdev_memory().host_accessible());
  EXPECT_DEATH(
      {
        volatile float x = t.data_as<float>()[0];
        (void)x;
      },
      "");
}

TEST(TestDevice, CopiesRoundTripAndViewsStayOnTheDevice) {
  Tensor host = Tensor::empty({6}, DType::kFloat32);
  for (int i = 0; i < 6; ++i) host.data_as<float>()[i] = static_cast<float>(i) - 2.5f;
  const Tensor dev = host.copy_to(testdev_memory());
  EXPECT_EQ(&dev.memory(), &testdev_memory());
  const Tensor clone = dev.clone();
  EXPECT_EQ(&clone.memory(), &testdev_memory());
  const Tensor back = clone.view(2, {3}).copy_to(host_memory());
  EXPECT_EQ(&back.memory(), &host_memory());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(back.data_as<float>()[i], host.data_as<float>()[i + 2]);
  const Tensor zeros = Tensor::zeros({3}, DType::kInt64, testdev_memory()).copy_to(host_memory());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(zeros.data_as<int64_t>()[i], 0);
}

// What boxing does in a placement's memory: boxes copied between any two memories, reduced
// and filled there, and the comm layer's staging (a group call on test-device buffers).
// Work queued behind a closed gate, which another thread opens after a while (with host
// values, once the test has looked, or after seconds if the call waits wrongly): a wait
// returns with the work run, a call that does not wait returns with it pending.
TEST(TestDevice, SynchronizeIfAllocatedAtIssueWaitsForDeviceValuesOnly) {
  for (const bool on_device : {false, true}) {
    Gate gate, looked;
    const Tensor queued = vm::launch("gated", StreamKind::kCompute, {}, {{{2}, DType::kFloat32}},
                                     [&](const std::vector<Tensor>&) {
                                       gate.pass();
                                       return std::vector<Tensor>{filled({2}, 1.0f)};
                                     })[0];
    std::thread opener([&] {
      if (on_device) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      } else {
        looked.pass_or_after(std::chrono::seconds(5));
      }
      gate.open();
    });
    const Tensor value = on_device ? Tensor::zeros({2}, DType::kFloat32, testdev_memory()) : filled({2}, 0.0f);
    vm::synchronize_if_allocated_at_issue({filled({2}, 0.0f), value});
    EXPECT_EQ(queued.is_ready(), on_device) << (on_device ? "testdev" : "host");
    looked.open();
    opener.join();
    vm::synchronize();
  }
}

TEST(TestDevice, BoxesCopyReduceAndFillInItsMemory) {
  Tensor host = Tensor::empty({3, 4}, DType::kFloat32);
  for (int i = 0; i < 12; ++i) host.data_as<float>()[i] = static_cast<float>(i);
  const Tensor dev = host.copy_to(testdev_memory());
  const Box inner{{1, 1}, {2, 2}};  // not contiguous: a run per row
  const Tensor part = slice(dev, inner);
  EXPECT_EQ(&part.memory(), &testdev_memory());
  Tensor into_host = Tensor::zeros({2, 2}, DType::kFloat32);
  copy_box(part, Box::whole({2, 2}), into_host, {0, 0});
  EXPECT_TRUE(equal(into_host, slice(host, inner)));
  const Tensor back = Tensor::zeros({3, 4}, DType::kFloat32, testdev_memory());
  copy_box(into_host, Box::whole({2, 2}), back, {1, 2});  // host -> device
  reduce_into(back, dev, ReduceOp::kSum);
  const Tensor got = back.copy_to(host_memory());
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 4; ++c) {
      const bool moved = r >= 1 && c >= 2;
      const float expected = host.data_as<float>()[r * 4 + c] + (moved ? host.data_as<float>()[r * 4 + c - 1] : 0);
      EXPECT_EQ(got.data_as<float>()[r * 4 + c], expected) << r << ", " << c;
    }
  }
  back.fill_identity(ReduceOp::kMax);
  const Tensor lowest = back.copy_to(host_memory());
  for (int i = 0; i < 12; ++i) EXPECT_EQ(lowest.data_as<float>()[i], -std::numeric_limits<float>::infinity());
  EXPECT_THROW(reduce_into(back, host, ReduceOp::kSum), std::invalid_argument);
}

TEST(TestDevice, EachIndexIsADeviceOfItsOwn) {
  device::Device& first = device::get("testdev", 0);
  device::Device& second = device::get("testdev", 1);
  EXPECT_NE(&first, &second);
  EXPECT_NE(&first.memory(), &second.memory());
  EXPECT_EQ(second.memory().device_index(), 1);
  EXPECT_EQ(second.memory().device_str(), "testdev:1");
  EXPECT_EQ(first.memory().device_str(), "testdev:0");
  EXPECT_EQ(&device::of(second.memory()), &second);
  Tensor host = Tensor::empty({3}, DType::kInt64);
  for (int i = 0; i < 3; ++i) host.data_as<int64_t>()[i] = 7 * i - 4;
  const Tensor moved = host.copy_to(first.memory()).copy_to(second.memory());
  EXPECT_EQ(&moved.memory(), &second.memory());
  EXPECT_TRUE(equal(moved.copy_to(host_memory()), host));
  EXPECT_THROW(device::get("testdev", 2), std::invalid_argument);
  EXPECT_EQ(&device::get("cpu", 3), &device::cpu());  // one CPU, whatever the index
}

TEST(TestDevice, OpsRunItsKernelsAndRefuseInputsOnTwoDevices) {
  Tensor a = Tensor::empty({3}, DType::kFloat32);
  for (int i = 0; i < 3; ++i) a.data_as<float>()[i] = static_cast<float>(i);
  const Tensor on_dev = vm::copy_to(a, device::get("testdev"));
  const Tensor sum = apply_local(find_op("add"), {on_dev, on_dev}, {})[0];
  EXPECT_EQ(&sum.memory(), &testdev_memory());
  const Tensor got = vm::copy_to(sum, device::cpu());
  vm::wait(got);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(got.data_as<float>()[i], 2.0f * static_cast<float>(i));
  try {
    apply_local(find_op("add"), {on_dev, a}, {});
    ADD_FAILURE() << "no error for inputs on two devices";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("[add] expected every input on one device, got testdev:0 and cpu"),
              std::string::npos)
        << e.what();
  }
}

// Memory of a type that registered no kernels.
class NoKernelsMemory : public Memory {
 public:
  const std::string& device_type() const override { return type_; }
  bool host_accessible() const override { return false; }
  std::shared_ptr<void> allocate(size_t) override { return nullptr; }
  void copy_to_host(void*, const void*, size_t) const override {}
  void copy_from_host(void*, const void*, size_t) const override {}
  void copy_within(void*, const void*, size_t) const override {}
  void zero(void*, size_t) const override {}

 private:
  const std::string type_ = "nokernels";
};

TEST(TestDevice, ADeviceTypeWithoutKernelsSaysSo) {
  NoKernelsMemory memory;
  try {
    kernel_for(find_op("add"), memory);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "[add] has no kernel for device type 'nokernels'");
  }
  EXPECT_EQ(&kernel_for(find_op("add"), host_memory()), &find_op("add").kernel);
}

}  // namespace
}  // namespace mf
