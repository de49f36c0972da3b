// Copyright 2026 The meshflow Authors.
#include "meshflow/device/cuda/cuda_device.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "meshflow/core/allocator.h"
#include "meshflow/core/error.h"
#include "meshflow/device/cpu/cpu_device.h"

namespace mf::device::cuda {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string("CUDA error in ") + what + ": " + cudaGetErrorString(status));
  }
}

int device_count() {
  static const int count = [] {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      cudaGetLastError();  // no driver or no GPU: not an error of anything later
      return 0;
    }
    return n;
  }();
  return count;
}

namespace {

class CudaDevice;
class CudaStream;

// The calling thread's CUDA stream and GPU: set by a stream's worker for its work.
thread_local cudaStream_t t_stream = nullptr;
thread_local int t_stream_device = -1;

// Makes GPU `index` the calling thread's. Every call selects anew: off the workers, other
// code (another library) may have selected another GPU since.
void select(int index) { check(cudaSetDevice(index), "cudaSetDevice"); }

// cudaEventQuery / cudaStreamQuery: whether the work is done. "Not ready" is no error, but the
// runtime keeps it as the thread's last error, where a kernel's launch check would find it.
bool done(cudaError_t status, const char* what) {
  if (status == cudaErrorNotReady) {
    if (cudaPeekAtLastError() == cudaErrorNotReady) cudaGetLastError();  // an earlier launch's error stays
    return false;
  }
  check(status, what);
  return true;
}

// Streams a device has at once, each with a slot: its launches counted there (per slot, so a
// slot reused by a new stream keeps counting up), for the allocator's stream-ordered frees.
constexpr int kSlots = 64;

// ---------------------------------------------------------------------------------------
// Events.

// One record of an event: the CUDA event, and the host event that completes once the
// recording worker has issued it (which cudaStreamWaitEvent needs first).
struct Record {
  CudaDevice* device;
  cudaEvent_t event;
  std::shared_ptr<Event> host;
  const CudaStream* stream;
  ~Record();
};
void raise_noted(const Record& r);

class CudaEvent : public Event {
 public:
  bool query() const override {
    std::shared_ptr<Record> r = current();
    if (!r) return true;
    if (!r->host->query()) return false;
    raise_noted(*r);
    return done(cudaEventQuery(r->event), "cudaEventQuery (an earlier kernel failed)");
  }
  void synchronize() const override {
    std::shared_ptr<Record> r = current();
    if (!r) return;
    r->host->synchronize();
    raise_noted(*r);
    check(cudaEventSynchronize(r->event), "cudaEventSynchronize (an earlier kernel failed)");
  }
  const Stream* stream() const override;
  std::shared_ptr<Record> current() const {
    std::lock_guard<std::mutex> lock(mu_);
    return record_;
  }
  void set(std::shared_ptr<Record> r) {
    std::lock_guard<std::mutex> lock(mu_);
    record_ = std::move(r);
  }

 private:
  mutable std::mutex mu_;
  std::shared_ptr<Record> record_;  // GUARDED_BY(mu_)
};

// ---------------------------------------------------------------------------------------
// The caching allocator.

struct Block {
  Block(char* p, size_t n, int owner, bool of_small) : ptr(p), size(n), slot(owner), small(of_small) {}
  char* ptr;
  size_t size;
  int slot;                  // the stream it belongs to
  bool small;                // of a segment shared by small requests
  bool allocated = false;
  bool pending = false;      // freed, waiting for other streams' events
  Block* prev = nullptr;     // neighbours in its segment
  Block* next = nullptr;
  std::array<uint64_t, kSlots> seen{};  // each slot's launches when it was allocated (slots < used)
};

struct BySize {
  bool operator()(const Block* a, const Block* b) const {
    if (a->slot != b->slot) return a->slot < b->slot;
    if (a->size != b->size) return a->size < b->size;
    return a->ptr < b->ptr;
  }
};

constexpr size_t kRound = 512;
constexpr size_t kSmall = size_t{1} << 20;        // requests up to this share segments of kSmallSegment
constexpr size_t kSmallSegment = size_t{2} << 20;
constexpr size_t kLargeRound = size_t{2} << 20;   // larger segments are multiples of this

class CudaMemory : public Memory {
 public:
  explicit CudaMemory(CudaDevice& device, int index) : device_(device), index_(index) {}

  const std::string& device_type() const override { return type_; }
  int device_index() const override { return index_; }
  bool host_accessible() const override { return false; }

  std::shared_ptr<void> allocate(size_t nbytes) override;

  void copy_to_host(void* host, const void* src, size_t nbytes) const override {
    if (nbytes) on_call_stream(true, "cudaMemcpyAsync (device to host)", [&](cudaStream_t s) {
      return cudaMemcpyAsync(host, src, nbytes, cudaMemcpyDeviceToHost, s);
    });
  }
  void copy_from_host(void* dst, const void* host, size_t nbytes) const override {
    if (nbytes) on_call_stream(true, "cudaMemcpyAsync (host to device)", [&](cudaStream_t s) {
      return cudaMemcpyAsync(dst, host, nbytes, cudaMemcpyHostToDevice, s);
    });
  }
  void copy_within(void* dst, const void* src, size_t nbytes) const override {
    if (nbytes) on_call_stream(false, "cudaMemcpyAsync (device to device)", [&](cudaStream_t s) {
      return cudaMemcpyAsync(dst, src, nbytes, cudaMemcpyDeviceToDevice, s);
    });
  }
  void zero(void* dst, size_t nbytes) const override {
    if (nbytes) on_call_stream(false, "cudaMemsetAsync", [&](cudaStream_t s) { return cudaMemsetAsync(dst, 0, nbytes, s); });
  }

  std::shared_ptr<void> allocate_staging(size_t nbytes) const override;

  MemoryStats stats() const {
    std::lock_guard<std::mutex> lock(mu_);
    return {in_use_, reserved_ - in_use_, peak_, limit_};
  }
  // A limit below what the device holds releases its cache at once (as the host's pools).
  void set_limit(size_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    limit_ = bytes;
    if (limit_ != kNoMemoryLimit && reserved_ > limit_) {
      collect_pending(true);
      release_cached();
    }
  }
  void release() {
    std::lock_guard<std::mutex> lock(mu_);
    collect_pending(true);
    release_cached();
  }
  void reset_peak() {
    std::lock_guard<std::mutex> lock(mu_);
    peak_ = in_use_;
  }

  // Streams take a slot for their life; their launches count in it.
  int take_slot(CudaStream* stream) {
    std::lock_guard<std::mutex> lock(mu_);
    for (int i = 0; i < kSlots; ++i) {
      if (!slot_stream_[i]) {
        slot_stream_[i] = stream;
        slots_used_ = std::max(slots_used_, i + 1);
        return i;
      }
    }
    throw std::runtime_error("cuda: more than " + std::to_string(kSlots) + " streams on cuda:" + std::to_string(index_));
  }
  void release_slot(int slot) {
    std::lock_guard<std::mutex> lock(mu_);
    slot_stream_[slot] = nullptr;
  }
  void count_launch(int slot) { launches_[slot].fetch_add(1, std::memory_order_relaxed); }

  // The side stream for copies and fills off the workers, ordered after everything launched
  // on the compute stream so far: blocks taken off the workers are the compute stream's,
  // whose earlier users may still be at work on the GPU.
  cudaStream_t side_stream() const;
  // Orders `s` after the work launched on the compute stream so far.
  void after_compute(cudaStream_t s) const;
  // Orders `s` after the work launched on `first` so far.
  void after(cudaStream_t first, cudaStream_t s) const;
  // Orders `s` after what this memory's copies called from this thread follow (cuda_device.h).
  void order_as_copies(cudaStream_t s) const {
    const bool on_worker = t_stream && t_stream_device == index_;
    select(index_);
    if (on_worker) {
      after(t_stream, s);
    } else {
      after_compute(s);
    }
  }
  cudaEvent_t take_event() const;
  void give_event(cudaEvent_t e) const {
    std::lock_guard<std::mutex> lock(event_mu_);
    events_.push_back(e);
  }

 private:
  // Runs `call` on the calling worker's stream, or off the workers on the side stream and
  // waits for it; waits on a worker too when `blocking` (host copies).
  template <typename Call>
  void on_call_stream(bool blocking, const char* what, Call call) const {
    const bool on_worker = t_stream && t_stream_device == index_;
    select(index_);
    const cudaStream_t s = on_worker ? t_stream : side_stream();
    check(call(s), what);
    if (blocking || !on_worker) check(cudaStreamSynchronize(s), what);
  }

  int owner_slot() const;
  void free(Block* b);
  Block* find_free(int slot, size_t size);     // REQUIRES(mu_)
  Block* new_segment(int slot, size_t size);   // REQUIRES(mu_)
  void insert_free(Block* b);                  // REQUIRES(mu_): merges with free neighbours
  std::set<Block*, BySize>& pool_of(const Block* b) { return b->small ? free_small_ : free_large_; }
  void collect_pending(bool wait);             // REQUIRES(mu_)
  void release_cached();                       // REQUIRES(mu_)

  CudaDevice& device_;
  const int index_;
  const std::string type_ = "cuda";
  mutable std::mutex mu_;
  std::set<Block*, BySize> free_small_, free_large_;              // GUARDED_BY(mu_)
  std::vector<std::pair<Block*, std::vector<cudaEvent_t>>> pending_;  // GUARDED_BY(mu_)
  size_t in_use_ = 0, reserved_ = 0, peak_ = 0;                  // GUARDED_BY(mu_)
  size_t limit_ = memory_limit_from_env();                        // GUARDED_BY(mu_); passed in a LimitOverdraft only
  std::array<CudaStream*, kSlots> slot_stream_{};                 // GUARDED_BY(mu_)
  int slots_used_ = 0;                                            // GUARDED_BY(mu_)
  std::array<std::atomic<uint64_t>, kSlots> launches_{};
  mutable std::mutex event_mu_;
  mutable std::vector<cudaEvent_t> events_;  // GUARDED_BY(event_mu_): the pool
  mutable std::once_flag side_made_;
  mutable cudaStream_t side_ = nullptr;
  mutable std::mutex staging_mu_;
  mutable std::multimap<size_t, void*> staging_;  // GUARDED_BY(staging_mu_): free pinned blocks by size
};

// ---------------------------------------------------------------------------------------
// Streams.

class CudaStream : public Stream {
 public:
  CudaStream(CudaDevice& device, CudaMemory& memory, int index, StreamKind kind)
      : device_(device), memory_(memory), index_(index), kind_(kind), host_(make_worker_stream(kind)) {
    select(index_);
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    slot_ = memory_.take_slot(this);
  }
  ~CudaStream() override {
    host_->synchronize();
    host_.reset();  // its worker ends
    cudaSetDevice(index_);
    cudaStreamSynchronize(stream_);
    memory_.release_slot(slot_);
    cudaStreamDestroy(stream_);
  }

  StreamKind kind() const override { return kind_; }

  void launch(std::function<void()> work) override {
    host_->launch([this, work = std::move(work)] {
      enter();
      work();
    });
  }
  // The work holds the record until it has issued it: the event may be dropped or recorded
  // again before then, and its CUDA event must not go back to the pool meanwhile.
  void launch_and_record(std::function<void()> work, Event& event) override {
    std::shared_ptr<Record> r = new_record();
    host_->launch_and_record(
        [this, work = std::move(work), r] {
          enter();
          work();
          note(cudaEventRecord(r->event, stream_));
        },
        *r->host);
    static_cast<CudaEvent&>(event).set(std::move(r));
  }
  void record(Event& event) override {
    std::shared_ptr<Record> r = new_record();
    host_->launch_and_record(
        [this, r] {
          enter();
          note(cudaEventRecord(r->event, stream_));
        },
        *r->host);
    static_cast<CudaEvent&>(event).set(std::move(r));
  }
  void wait(const Event& event) override {
    const auto* e = dynamic_cast<const CudaEvent*>(&event);
    if (!e) {
      host_->wait(event);  // the CPU's: the worker waits for it before enqueuing what follows
      return;
    }
    std::shared_ptr<Record> r = e->current();
    if (!r || r->stream == this) return;
    host_->launch([this, r] {
      enter();
      r->host->synchronize();  // the record is issued: the GPU waits for that one, not a later one
      note(cudaStreamWaitEvent(stream_, r->event, 0));
    });
  }
  void synchronize() override {
    host_->synchronize();
    raise_noted();
    select(index_);
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize (an earlier kernel failed)");
  }
  bool query() const override {
    if (!host_->query()) return false;
    raise_noted();
    return done(cudaStreamQuery(stream_), "cudaStreamQuery (an earlier kernel failed)");
  }
  bool on_stream_thread() const override { return host_->on_stream_thread(); }

  // A CUDA call on the worker that failed, raised by the next synchronize or query (work on
  // the worker must not throw). Where the ordering it gave is lost, so are the results.
  void note(cudaError_t status) {
    cudaError_t none = cudaSuccess;
    if (status != cudaSuccess) noted_.compare_exchange_strong(none, status);
  }
  void raise_noted() const {
    const cudaError_t e = noted_.load();
    if (e != cudaSuccess) {
      throw std::runtime_error(std::string("CUDA error on the ") + stream_kind_name(kind_) +
                               " stream (recording or waiting on an event): " + cudaGetErrorString(e));
    }
  }

  // Synchronizes, ignoring errors (process exit).
  void drain() {
    host_->synchronize();
    cudaStreamSynchronize(stream_);
  }
  cudaStream_t cuda() const { return stream_; }
  int slot() const { return slot_; }

 private:
  // Before each item's work: the allocator sees from the count that this stream may have used
  // any block allocated before now (a block's users all start after its producer made it).
  //
  // A copy to the host comes after everything launched on the compute stream so far: what it
  // reads may have been made there by work the VM did not issue (graph mode's tasks, whose
  // results carry no event), and a read of the host waits for the copy anyway.
  void enter() {
    memory_.count_launch(slot_);
    t_stream = stream_;
    t_stream_device = index_;
    note(cudaSetDevice(index_));  // no throwing here; a failure leaves every later call failing too
    if (kind_ == StreamKind::kDeviceToHost) {
      try {
        memory_.after_compute(stream_);
      } catch (const std::runtime_error&) {
        note(cudaErrorUnknown);
      }
    }
  }
  std::shared_ptr<Record> new_record() {
    return std::shared_ptr<Record>(new Record{&device_, memory_.take_event(), device::cpu().create_event(), this});
  }

  CudaDevice& device_;
  CudaMemory& memory_;
  const int index_;
  const StreamKind kind_;
  std::unique_ptr<Stream> host_;
  cudaStream_t stream_ = nullptr;
  int slot_ = -1;
  std::atomic<cudaError_t> noted_{cudaSuccess};
};

// ---------------------------------------------------------------------------------------
// The device.

class CudaDevice : public Device {
 public:
  explicit CudaDevice(int index) : index_(index), memory_(*this, index) {}
  std::string name() const override { return "cuda"; }
  Memory& memory() override { return memory_; }
  CudaMemory& cuda_memory() { return memory_; }

  Stream& stream(StreamKind kind) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto& s = streams_[static_cast<int>(kind)];
    if (!s) s = std::make_unique<CudaStream>(*this, memory_, index_, kind);
    return *s;
  }
  std::unique_ptr<Stream> create_stream(StreamKind kind) override {
    return std::make_unique<CudaStream>(*this, memory_, index_, kind);
  }
  std::shared_ptr<Event> create_event() override { return std::make_shared<CudaEvent>(); }
  MemoryStats memory_stats() const override { return memory_.stats(); }
  void reset_peak() override { memory_.reset_peak(); }
  void set_memory_limit(size_t bytes) override { memory_.set_limit(bytes); }
  void release_cached_memory() override { memory_.release(); }
  std::vector<KernelTime> kernel_times(bool reset) override;
  void synchronize() override {
    for (CudaStream* s : started()) s->synchronize();
  }
  // The workers stay (they are idle once drained); the process is ending, and the CUDA
  // runtime may be unloading already: nothing is left to report an error to.
  void shutdown() override {
    for (CudaStream* s : started()) s->drain();
  }

 private:
  std::vector<CudaStream*> started() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<CudaStream*> out;
    for (auto& s : streams_) {
      if (s) out.push_back(s.get());
    }
    return out;
  }

  const int index_;
  CudaMemory memory_;
  std::mutex mu_;
  std::unique_ptr<CudaStream> streams_[kStreamKinds];  // GUARDED_BY(mu_)
};

// ---------------------------------------------------------------------------------------
// Kernel timing (MESHFLOW_PROFILE=1): a pair of timing events around each op's kernels,
// read when kernel_times asks. Events are created per call: profiling is for finding where
// time goes, not for timed runs.

struct Timing {
  std::string op;
  int device;
  cudaEvent_t start, end;
};

std::mutex timings_mu;
std::vector<Timing> timings;  // GUARDED_BY(timings_mu)

std::vector<KernelTime> CudaDevice::kernel_times(bool reset) {
  std::lock_guard<std::mutex> lock(timings_mu);
  std::map<std::string, KernelTime> by_op;
  std::vector<Timing> kept;
  for (const Timing& t : timings) {
    if (t.device != index_) {
      kept.push_back(t);
      continue;
    }
    float ms = 0;
    check(cudaEventSynchronize(t.end), "cudaEventSynchronize");
    check(cudaEventElapsedTime(&ms, t.start, t.end), "cudaEventElapsedTime");
    KernelTime& k = by_op.try_emplace(t.op, KernelTime{t.op, 0, 0}).first->second;
    ++k.calls;
    k.ms += ms;
    if (reset) {
      cudaEventDestroy(t.start);
      cudaEventDestroy(t.end);
    } else {
      kept.push_back(t);
    }
  }
  timings = std::move(kept);
  std::vector<KernelTime> out;
  for (auto& [op, k] : by_op) out.push_back(k);
  std::sort(out.begin(), out.end(), [](const KernelTime& a, const KernelTime& b) { return a.ms > b.ms; });
  return out;
}

Record::~Record() { static_cast<CudaMemory&>(device->memory()).give_event(event); }
void raise_noted(const Record& r) { r.stream->raise_noted(); }
const Stream* CudaEvent::stream() const {
  std::shared_ptr<Record> r = current();
  return r ? r->stream : nullptr;
}

// ---------------------------------------------------------------------------------------
// The allocator's members.

cudaStream_t CudaMemory::side_stream() const {
  std::call_once(side_made_, [this] {
    select(index_);
    check(cudaStreamCreateWithFlags(&side_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  });
  after_compute(side_);
  return side_;
}

void CudaMemory::after_compute(cudaStream_t s) const {
  after(static_cast<CudaStream&>(device_.stream(StreamKind::kCompute)).cuda(), s);
}

void CudaMemory::after(cudaStream_t first, cudaStream_t s) const {
  if (s == first) return;
  const cudaEvent_t e = take_event();
  check(cudaEventRecord(e, first), "cudaEventRecord");
  check(cudaStreamWaitEvent(s, e, 0), "cudaStreamWaitEvent");
  give_event(e);  // the wait took the record as it is now: the event may be recorded again
}

cudaEvent_t CudaMemory::take_event() const {
  {
    std::lock_guard<std::mutex> lock(event_mu_);
    if (!events_.empty()) {
      cudaEvent_t e = events_.back();
      events_.pop_back();
      return e;
    }
  }
  select(index_);
  cudaEvent_t e;
  check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  return e;
}

int CudaMemory::owner_slot() const {
  if (t_stream && t_stream_device == index_) {
    std::lock_guard<std::mutex> lock(mu_);
    for (int i = 0; i < slots_used_; ++i) {
      if (slot_stream_[i] && slot_stream_[i]->cuda() == t_stream) return i;
    }
  }
  // Off the workers (and on a kernel's side stream): the compute stream's, whose work the
  // caller's synchronous copies do not race with.
  return static_cast<CudaStream&>(device_.stream(StreamKind::kCompute)).slot();
}

std::shared_ptr<void> CudaMemory::allocate(size_t nbytes) {
  const size_t size = std::max(kRound, (nbytes + kRound - 1) / kRound * kRound);
  const int slot = owner_slot();
  Block* b;
  {
    std::lock_guard<std::mutex> lock(mu_);
    collect_pending(false);
    b = find_free(slot, size);
    // A cached block is no way past the limit (core/allocator.h): beyond it, it stays cached
    // and new_segment releases the cache and refuses.
    if (b && limit_ != kNoMemoryLimit && in_use_ + size > limit_) {
      insert_free(b);
      b = nullptr;
    }
    if (!b) b = new_segment(slot, size);
    b->allocated = true;  // before the split: the rest must not merge back into it
    const size_t rest = b->size - size;
    if (rest >= (b->small ? kRound : kSmall + 1)) {
      auto* tail = new Block(b->ptr + size, rest, slot, b->small);
      tail->prev = b;
      tail->next = b->next;
      if (b->next) b->next->prev = tail;
      b->next = tail;
      b->size = size;
      insert_free(tail);
    }
    in_use_ += b->size;
    peak_ = std::max(peak_, in_use_);
    for (int i = 0; i < slots_used_; ++i) b->seen[i] = launches_[i].load(std::memory_order_relaxed);
  }
  return std::shared_ptr<void>(b->ptr, [this, b](void*) { free(b); });
}

Block* CudaMemory::find_free(int slot, size_t size) {
  std::set<Block*, BySize>& pool = size <= kSmall ? free_small_ : free_large_;
  Block key(nullptr, size, slot, size <= kSmall);
  auto it = pool.lower_bound(&key);
  if (it == pool.end() || (*it)->slot != slot) return nullptr;
  // A large request takes no block more than twice its size plus a segment's rounding, so
  // that big cached blocks are not cut into pieces nobody can merge again.
  if (size > kSmall && (*it)->size > 2 * size + kLargeRound) return nullptr;
  Block* b = *it;
  pool.erase(it);
  return b;
}

Block* CudaMemory::new_segment(int slot, size_t size) {
  const size_t bytes = size <= kSmall ? kSmallSegment : (size + kLargeRound - 1) / kLargeRound * kLargeRound;
  select(index_);
  const auto out_of_memory = [&] {
    return out_of_memory_message("cuda:" + std::to_string(index_), size, in_use_, reserved_ - in_use_, limit_);
  };
  if (limit_ != kNoMemoryLimit && reserved_ + bytes > limit_) {
    collect_pending(true);
    release_cached();
    if (reserved_ + bytes > limit_) refuse_over_limit(out_of_memory());  // or passes it (LimitOverdraft)
  }
  void* p = nullptr;
  cudaError_t s = cudaMalloc(&p, bytes);
  if (s == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    collect_pending(true);
    release_cached();
    s = cudaMalloc(&p, bytes);
  }
  if (s == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw OutOfMemoryError(out_of_memory());
  }
  check(s, "cudaMalloc");
  reserved_ += bytes;
  return new Block(static_cast<char*>(p), bytes, slot, size <= kSmall);
}

void CudaMemory::insert_free(Block* b) {
  b->allocated = false;
  b->pending = false;
  auto merge = [&](Block* left, Block* right) {  // right disappears into left
    left->size += right->size;
    left->next = right->next;
    if (right->next) right->next->prev = left;
    delete right;
  };
  if (b->prev && !b->prev->allocated && !b->prev->pending) {
    Block* left = b->prev;
    pool_of(left).erase(left);
    merge(left, b);
    b = left;
  }
  if (b->next && !b->next->allocated && !b->next->pending) {
    pool_of(b->next).erase(b->next);
    merge(b, b->next);
  }
  pool_of(b).insert(b);
}

void CudaMemory::free(Block* b) {
  std::vector<cudaEvent_t> events;
  std::lock_guard<std::mutex> lock(mu_);
  in_use_ -= b->size;
  // Other streams that launched work while it was alive may still use it on the GPU.
  for (int i = 0; i < slots_used_; ++i) {
    if (i == b->slot || !slot_stream_[i]) continue;
    if (launches_[i].load(std::memory_order_relaxed) == b->seen[i]) continue;
    try {
      cudaEvent_t e = take_event();
      check(cudaEventRecord(e, slot_stream_[i]->cuda()), "cudaEventRecord");
      events.push_back(e);
    } catch (const std::exception&) {
      cudaStreamSynchronize(slot_stream_[i]->cuda());  // a free must not throw: wait instead
    }
  }
  b->allocated = false;
  if (events.empty()) {
    insert_free(b);
  } else {
    b->pending = true;
    pending_.emplace_back(b, std::move(events));
  }
}

void CudaMemory::collect_pending(bool wait) {
  for (size_t i = 0; i < pending_.size();) {
    auto& [b, events] = pending_[i];
    bool ready = true;
    for (cudaEvent_t e : events) {
      if (wait) cudaEventSynchronize(e);
      ready = ready && done(cudaEventQuery(e), "cudaEventQuery (an earlier kernel failed)");
    }
    if (!ready) {
      ++i;
      continue;
    }
    for (cudaEvent_t e : events) give_event(e);
    insert_free(b);
    pending_[i] = std::move(pending_.back());
    pending_.pop_back();
  }
}

void CudaMemory::release_cached() {
  cudaDeviceSynchronize();  // cached blocks' last users may still be queued
  for (std::set<Block*, BySize>* pool : {&free_small_, &free_large_}) {
    for (auto it = pool->begin(); it != pool->end();) {
      Block* b = *it;
      if (b->prev || b->next) {
        ++it;
        continue;
      }
      cudaFree(b->ptr);
      reserved_ -= b->size;
      delete b;
      it = pool->erase(it);
    }
  }
}

std::shared_ptr<void> CudaMemory::allocate_staging(size_t nbytes) const {
  // Powers of two from 64 KiB: staging sizes vary by collective, and a close fit is reused.
  size_t size = size_t{64} << 10;
  while (size < nbytes) size <<= 1;
  void* p = nullptr;
  {
    std::lock_guard<std::mutex> lock(staging_mu_);
    auto it = staging_.find(size);
    if (it != staging_.end()) {
      p = it->second;
      staging_.erase(it);
    }
  }
  if (!p) {
    select(index_);
    check(cudaHostAlloc(&p, size, cudaHostAllocPortable), "cudaHostAlloc");
  }
  return std::shared_ptr<void>(p, [this, size](void* q) {
    std::lock_guard<std::mutex> lock(staging_mu_);
    staging_.emplace(size, q);
  });
}

}  // namespace

Device& device(int index) {
  const int n = device_count();
  if (index < 0 || index >= n) {
    throw std::invalid_argument("device: cuda:" + std::to_string(index) + " does not exist; this process sees " +
                                std::to_string(n) + " GPU" + (n == 1 ? "" : "s"));
  }
  // Never destroyed, as the CPU's: work may run during exit.
  static std::mutex mu;
  static std::map<int, CudaDevice*> devices;
  std::lock_guard<std::mutex> lock(mu);
  CudaDevice*& d = devices[index];
  if (!d) d = new CudaDevice(index);
  return *d;
}

int rank_device_index() {
  const int n = device_count();
  if (const char* v = std::getenv("MESHFLOW_CUDA_DEVICE"); v && *v) {
    char* end = nullptr;
    const long index = std::strtol(v, &end, 10);
    if (*end != '\0' || index < 0 || index >= std::max(n, 1)) {
      throw std::invalid_argument(std::string("device: MESHFLOW_CUDA_DEVICE=") + v +
                                  " is not a GPU index of this process; it sees " + std::to_string(n));
    }
    return static_cast<int>(index);
  }
  // The rank's index on its host, as the launchers name it (OpenMPI, MPICH, Slurm, torchrun).
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID", "LOCAL_RANK"}) {
    if (const char* v = std::getenv(name); v && *v) return n > 0 ? std::atoi(v) % n : 0;
  }
  return 0;
}

bool is_cuda(const Memory& memory) { return memory.device_type() == "cuda"; }

bool profiling() {
  static const bool on = [] {
    const char* v = std::getenv("MESHFLOW_PROFILE");
    return v && *v && std::string(v) != "0";
  }();
  return on;
}

void timed(const std::string& op, const std::function<void()>& launch) {
  Timing t{op, t_stream_device, nullptr, nullptr};
  check(cudaEventCreate(&t.start), "cudaEventCreate");
  check(cudaEventCreate(&t.end), "cudaEventCreate");
  check(cudaEventRecord(t.start, t_stream), "cudaEventRecord");
  launch();
  check(cudaEventRecord(t.end, t_stream), "cudaEventRecord");
  std::lock_guard<std::mutex> lock(timings_mu);
  timings.push_back(t);
}
void order_as_copies(const Memory& memory, cudaStream_t stream) {
  static_cast<const CudaMemory&>(memory).order_as_copies(stream);
}

bool stream_done(cudaStream_t stream, const char* what) { return done(cudaStreamQuery(stream), what); }

cudaStream_t current_stream() { return t_stream; }
int current_device_index() { return t_stream ? t_stream_device : -1; }

void run_on_compute(int index, const std::function<void()>& call) {
  Stream& compute = device(index).stream(StreamKind::kCompute);
  std::exception_ptr error;
  compute.launch([&] {
    try {
      call();
    } catch (...) {
      error = std::current_exception();
    }
  });
  compute.synchronize();
  if (error) std::rethrow_exception(error);
}

}  // namespace mf::device::cuda
