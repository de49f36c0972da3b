// Copyright 2026 The meshflow Authors.
// The CPU device: host memory from the caching allocator; each stream a worker thread with
// a FIFO of work; an event is (stream, how many items it had launched when recorded), so
// waiting on one is waiting for that stream's completed count to reach the number.
#include <cblas.h>
#include <omp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "meshflow/core/allocator.h"
#include "meshflow/device/cpu/cpu_device.h"
#include "meshflow/device/device.h"

namespace mf::device {

const char* stream_kind_name(StreamKind kind) {
  switch (kind) {
    case StreamKind::kCompute:
      return "compute";
    case StreamKind::kComm:
      return "comm";
    case StreamKind::kHostToDevice:
      return "h2d";
    case StreamKind::kDeviceToHost:
      return "d2h";
  }
  return "?";
}

namespace {

std::atomic<int> requested_threads{0};  // 0: never set, OpenMP's and OpenBLAS's defaults hold

// OpenMP's thread count is a per-thread setting: each worker applies the requested count
// itself, when it changed since the worker last looked (`applied`).
void apply_cpu_threads(int& applied) {
  const int n = requested_threads.load(std::memory_order_relaxed);
  if (n == applied) return;
  if (n > 0) omp_set_num_threads(n);
  applied = n;
}

class CpuStream;

// Waits hot until ready() or `spin` has passed; whether ready(). Each turn gives the core to
// another thread ready to run on it, if any: where the waiting thread shares its core (the
// scheduler puts a woken worker beside the thread that woke it, and a shared machine's other
// processes take cores), a spin of pause instructions kept the thread that would end the
// wait, or the issuing thread, off the core for the whole spin. Alone on its core, a yield
// returns at once.
template <typename Ready>
bool spin_until(Ready ready, std::chrono::microseconds spin) {
  const auto until = std::chrono::steady_clock::now() + spin;
  while (!ready()) {
    if (spin.count() <= 0 || std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::yield();
  }
  return true;
}

// Cores this host leaves each rank: its cores over the ranks it runs (OMPI_COMM_WORLD_LOCAL_SIZE).
long cores_per_rank() {
  static const long cores = [] {
    const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    const long ranks = local && *local ? std::max(1L, std::atol(local)) : 1;
    return static_cast<long>(std::thread::hardware_concurrency()) / ranks;
  }();
  return cores;
}

// A spin of `us` microseconds, or `set`'s (an environment variable's value) where it is set.
std::chrono::microseconds spin_or(const char* set, long us) {
  return std::chrono::microseconds(set && *set ? std::atol(set) : us);
}

// How long an idle compute worker waits hot for the next op before sleeping: 20 us when
// this host's ranks leave a core for each rank's issuing thread and compute worker, else 0
// (spinning where threads outnumber cores takes time from the kernels of other ranks).
// MESHFLOW_WORKER_SPIN_US overrides it.
std::chrono::microseconds spin_time(StreamKind kind) {
  const bool room = kind == StreamKind::kCompute && cores_per_rank() >= 2;
  return spin_or(std::getenv("MESHFLOW_WORKER_SPIN_US"), room ? 20 : 0);
}

// How long a thread waiting for the compute stream's work waits hot before sleeping, where
// the rank's cores leave it one beside the worker's team: a sleeping waiter is woken by a
// system call on the worker and a context switch (in a virtual machine, an idle CPU's exit
// too), which cost a short step more than its last kernels. Where the team fills the cores,
// a spinning waiter would take time from the kernels it waits for: none there.
// MESHFLOW_WAITER_SPIN_US overrides it.
std::chrono::microseconds waiter_spin_time(StreamKind kind, int threads) {
  static const char* const set = std::getenv("MESHFLOW_WAITER_SPIN_US");
  const bool room = kind == StreamKind::kCompute && cores_per_rank() > threads;
  return spin_or(set, room ? 100 : 0);
}

class CpuEvent : public Event {
 public:
  bool query() const override;
  void synchronize() const override;
  const Stream* stream() const override;

  const CpuStream* recorded_on = nullptr;  // null: never recorded, complete
  uint64_t target = 0;
};

class CpuStream : public Stream {
 public:
  explicit CpuStream(StreamKind kind, const std::atomic<int64_t>* latency_us = nullptr)
      : kind_(kind), latency_us_(latency_us), worker_([this] { loop(); }) {}
  ~CpuStream() override { stop(); }

  StreamKind kind() const override { return kind_; }

  void launch(std::function<void()> work) override { push(std::move(work), nullptr); }
  void launch_and_record(std::function<void()> work, Event& event) override {
    push(std::move(work), &static_cast<CpuEvent&>(event));
  }

  void record(Event& event) override {
    auto& e = static_cast<CpuEvent&>(event);
    std::lock_guard<std::mutex> lock(mu_);
    e.recorded_on = this;
    e.target = launched_;
  }

  void wait(const Event& event) override {
    const auto* cpu_event = dynamic_cast<const CpuEvent*>(&event);
    if (!cpu_event) {
      // Another kind of device's (a GPU's): its completion is known only to its device, and
      // the event may be recorded again once this returns, so the caller waits for it here.
      event.synchronize();
      return;
    }
    const CpuEvent& e = *cpu_event;
    if (!e.recorded_on || e.recorded_on == this || e.query()) return;  // in order already, or done
    const CpuStream* other = e.recorded_on;
    const uint64_t target = e.target;
    launch([other, target] { other->wait_completed(target); });
  }

  void synchronize() override {
    uint64_t target;
    {
      std::lock_guard<std::mutex> lock(mu_);
      target = launched_;
    }
    wait_completed(target);
  }

  bool query() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return completed_.load() == launched_;
  }

  bool on_stream_thread() const override { return std::this_thread::get_id() == worker_.get_id(); }

  bool completed_at_least(uint64_t n) const { return completed_.load() >= n; }

  void wait_completed(uint64_t n) const {
    if (completed_.load() >= n) return;
    if (spin_until([&] { return completed_.load() >= n; }, waiter_spin_time(kind_, cpu_threads()))) return;
    std::unique_lock<std::mutex> lock(mu_);
    ++waiters_;
    while (completed_.load() < n) {
      wake_at_ = std::min(wake_at_, n);
      done_.wait(lock);
    }
    --waiters_;
  }

  void stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) return;
      stopping_ = true;
    }
    has_work_.notify_one();
    if (worker_.joinable()) worker_.join();
  }

 private:
  void push(std::function<void()> work, CpuEvent* record) {
    bool wake;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) throw std::logic_error(std::string("launch on the stopped ") + stream_kind_name(kind_) + " stream");
      queue_.push_back(std::move(work));
      ++launched_;
      if (record) {
        record->recorded_on = this;
        record->target = launched_;
      }
      queued_.store(true, std::memory_order_release);
      wake = sleeping_;
    }
    if (wake) has_work_.notify_one();  // a spinning or busy worker needs no system call
  }

  void loop() {
    // MESHFLOW_COMPUTE_NICE=N lowers the compute worker's priority (and its OpenMP team's,
    // which inherits it) below the comm worker's. Where ranks fill every core, the comm
    // worker and the kernel's network stack otherwise wait for a compute time slice at each
    // step of a transfer, and communication stops overlapping anything. Linux niceness is
    // per thread; raising it needs no privilege.
    if (kind_ == StreamKind::kCompute) {
      if (const char* n = std::getenv("MESHFLOW_COMPUTE_NICE"); n && *n) {
        setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), std::atoi(n));
      }
    }
    const auto spin = spin_time(kind_);
    // Two vectors swapped back and forth keep their capacity: no item costs an allocation,
    // and nothing the issuing thread allocated is freed here (a free across threads takes
    // the other thread's malloc arena lock).
    std::vector<std::function<void()>> batch;
    int applied_threads = 0;
    while (true) {
      // Small ops issued in a burst arrive faster than a sleeping thread wakes (a futex
      // wake per op on the issuing thread, then a context switch): wait hot a moment.
      spin_until([&] { return queued_.load(std::memory_order_acquire); }, spin);
      {
        std::unique_lock<std::mutex> lock(mu_);
        sleeping_ = true;
        has_work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        sleeping_ = false;
        if (queue_.empty()) return;  // stopping, and everything launched has run
        batch.swap(queue_);          // one lock for every item queued so far
        queued_.store(false, std::memory_order_relaxed);
      }
      apply_cpu_threads(applied_threads);
      for (std::function<void()>& work : batch) {
        const int64_t latency = latency_us_ ? latency_us_->load(std::memory_order_relaxed) : 0;
        const auto started = std::chrono::steady_clock::now();
        work();
        work = nullptr;  // the work's captures go before it counts as completed
        if (latency > 0) std::this_thread::sleep_until(started + std::chrono::microseconds(latency));
        completed_.fetch_add(1);
        if (waiters_.load() > 0) {
          // Under the lock: a waiter between its check and its sleep holds it. Only once the
          // nearest waiter's count is reached: a waiter woken at every completion (the
          // issuing thread in a synchronize, waiting on every eighth instruction) took a
          // context switch per op from the kernels.
          std::lock_guard<std::mutex> lock(mu_);
          if (completed_.load() >= wake_at_) {
            wake_at_ = kNoWaiter;  // those still short of their counts set theirs again
            done_.notify_all();
          }
        }
      }
      batch.clear();
    }
  }

  const StreamKind kind_;
  const std::atomic<int64_t>* const latency_us_;  // null: none
  mutable std::mutex mu_;
  std::condition_variable has_work_;
  mutable std::condition_variable done_;
  std::vector<std::function<void()>> queue_;  // GUARDED_BY(mu_)
  std::atomic<bool> queued_{false};          // !queue_.empty(), read without the lock while spinning
  uint64_t launched_ = 0;                    // GUARDED_BY(mu_)
  // Written by the worker alone; read anywhere. Sequentially consistent with waiters_: a
  // waiter counts itself then checks completed_, the worker adds then checks waiters_, so
  // one of them sees the other and no wake-up is lost.
  std::atomic<uint64_t> completed_{0};
  mutable std::atomic<int> waiters_{0};  // threads in wait_completed's sleep (changed under mu_)
  static constexpr uint64_t kNoWaiter = std::numeric_limits<uint64_t>::max();
  mutable uint64_t wake_at_ = kNoWaiter;  // GUARDED_BY(mu_): the least count a sleeping waiter needs
  bool sleeping_ = false;                // GUARDED_BY(mu_): the worker waits on has_work_
  bool stopping_ = false;                // GUARDED_BY(mu_)
  std::thread worker_;                   // last: starts after the fields above exist
};

const Stream* CpuEvent::stream() const { return recorded_on; }

bool CpuEvent::query() const { return !recorded_on || recorded_on->completed_at_least(target); }
void CpuEvent::synchronize() const {
  if (recorded_on) recorded_on->wait_completed(target);
}

class CpuDevice : public Device {
 public:
  CpuDevice(std::string type, Memory& memory, HostPool& pool, const std::atomic<int64_t>* latency_us)
      : type_(std::move(type)), memory_(memory), host_pool_(pool), latency_us_(latency_us) {}
  std::string name() const override { return type_; }
  Memory& memory() override { return memory_; }

  Stream& stream(StreamKind kind) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto& s = streams_[static_cast<int>(kind)];
    if (!s) s = std::make_unique<CpuStream>(kind, latency_for(kind));
    return *s;
  }

  std::unique_ptr<Stream> create_stream(StreamKind kind) override {
    return std::make_unique<CpuStream>(kind, latency_for(kind));
  }

  std::shared_ptr<Event> create_event() override {
    CpuEvent* e = nullptr;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!pool_.empty()) {
        e = pool_.back().release();
        pool_.pop_back();
      }
    }
    if (!e) e = new CpuEvent;
    e->recorded_on = nullptr;
    e->target = 0;
    return std::shared_ptr<Event>(e, [this](Event* p) {
      std::lock_guard<std::mutex> lock(mu_);
      pool_.emplace_back(static_cast<CpuEvent*>(p));
    });
  }

  MemoryStats memory_stats() const override {
    const HostCacheStats s = host_pool_.stats();
    return {s.in_use_bytes, s.cached_bytes, s.peak_bytes, host_pool_.limit()};
  }

  void reset_peak() override { host_pool_.reset_peak(); }
  void set_memory_limit(size_t bytes) override { host_pool_.set_limit(bytes); }
  void release_cached_memory() override { host_pool_.release(); }

  void synchronize() override {
    for (CpuStream* s : started()) s->synchronize();
  }

  void shutdown() override {
    for (CpuStream* s : started()) s->stop();
  }

 private:
  std::vector<CpuStream*> started() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<CpuStream*> out;
    for (auto& s : streams_) {
      if (s) out.push_back(s.get());
    }
    return out;
  }

  const std::atomic<int64_t>* latency_for(StreamKind kind) const {
    return kind == StreamKind::kCompute ? latency_us_ : nullptr;
  }

  const std::string type_;
  Memory& memory_;
  HostPool& host_pool_;
  const std::atomic<int64_t>* const latency_us_;  // the compute stream's; null: none
  std::mutex mu_;
  std::unique_ptr<CpuStream> streams_[kStreamKinds];  // GUARDED_BY(mu_)
  std::vector<std::unique_ptr<CpuEvent>> pool_;       // GUARDED_BY(mu_)
};

}  // namespace

Device& cpu() {
  static auto* d = new CpuDevice("cpu", host_memory(), host_pool(), nullptr);  // never destroyed: tensors may outlive static destruction
  return *d;
}

std::unique_ptr<Device> make_worker_device(std::string type, Memory& memory, HostPool& pool,
                                           const std::atomic<int64_t>* kernel_latency_us) {
  return std::make_unique<CpuDevice>(std::move(type), memory, pool, kernel_latency_us);
}

std::unique_ptr<Stream> make_worker_stream(StreamKind kind) { return std::make_unique<CpuStream>(kind); }

void set_cpu_threads(int n) {
  if (n < 1) throw std::invalid_argument("set_num_threads: " + std::to_string(n) + " threads; expected at least 1");
  requested_threads.store(n);
  omp_set_num_threads(n);
  openblas_set_num_threads(n);
}

int cpu_threads() {
  const int n = requested_threads.load();
  return n > 0 ? n : omp_get_max_threads();
}

}  // namespace mf::device
