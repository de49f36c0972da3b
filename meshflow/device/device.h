// Copyright 2026 The meshflow Authors.
// The device layer, in the spirit of OneFlow's ep::Device / ep::Stream: a device allocates
// memory and owns streams and events; a stream runs the work launched on it in launch
// order, can record an event (which completes when everything launched before it has run)
// and can wait on an event of another stream (work launched after the wait runs only once
// the event has completed). Everything above this layer (the VM, and later the actors of
// graph mode) sees only this interface; the CPU is the first implementation (cpu_device.cc):
// each stream is a worker thread. The CUDA device (cuda/cuda_device.h) pairs each worker with
// a cudaStream_t, an event with a cudaEvent_t, and allocates with a stream-ordered caching
// cudaMalloc. Ops, SBP inference and boxing do not change for it.
//
// Thread-safety: launch/record/wait on one stream from one thread at a time (the VM's
// issuing thread); Event::query/synchronize from any thread; allocate from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "meshflow/core/memory.h"

namespace mf::device {

enum class StreamKind {
  kCompute,       // kernels
  kComm,          // collectives, in program order (the same on every rank)
  kHostToDevice,  // copies for a device with its own memory (unused by the CPU)
  kDeviceToHost,
};
constexpr int kStreamKinds = 4;
const char* stream_kind_name(StreamKind kind);

class Stream;

// Completes when the work its stream had launched before record() has run. Events come
// from their device's pool (Device::create_event); an event may be recorded again.
class Event {
 public:
  virtual ~Event() = default;
  virtual bool query() const = 0;
  virtual void synchronize() const = 0;
  // The stream it was last recorded on; null if never recorded.
  virtual const Stream* stream() const = 0;
};

class Stream {
 public:
  virtual ~Stream() = default;
  virtual StreamKind kind() const = 0;
  // Runs `work` after everything launched before it on this stream. `work` must not
  // throw (the VM catches inside it).
  virtual void launch(std::function<void()> work) = 0;
  // launch(work), then record(event), at once (one lock, where it matters per op).
  virtual void launch_and_record(std::function<void()> work, Event& event) = 0;
  virtual void record(Event& event) = 0;
  // `event` may come from another device (the VM orders a copy's target stream after its
  // source's work): a device whose events are of another kind than `event`'s must wait for
  // it on the host (Event::synchronize) rather than assume its own type. The CPU and the test
  // device share one kind.
  virtual void wait(const Event& event) = 0;
  // Blocks until everything launched so far has run.
  virtual void synchronize() = 0;
  // Whether everything launched so far has run (cudaStreamQuery).
  virtual bool query() const = 0;
  // Whether the calling thread is this stream's worker.
  virtual bool on_stream_thread() const = 0;
};

// The device time of one op's kernels, summed over its calls.
struct KernelTime {
  std::string op;
  int64_t calls;
  double ms;
};

struct MemoryStats {
  size_t in_use_bytes;  // held by live tensors and in-flight instructions
  size_t cached_bytes;  // freed, kept by the caching allocator for reuse
  size_t peak_bytes;    // the most in use at once since start or reset_peak()
  size_t limit_bytes;   // set_memory_limit's; kNoMemoryLimit (core/allocator.h) for none
};

class Device {
 public:
  virtual ~Device() = default;
  // Its type ("cpu").
  virtual std::string name() const = 0;
  // Its memory: where tensors on it live, how bytes move to and from the host.
  virtual Memory& memory() = 0;
  // A block of at least `nbytes`, returned to the device's caching allocator when the last
  // owner drops it.
  std::shared_ptr<void> allocate(size_t nbytes) { return memory().allocate(nbytes); }
  // The stream of this kind, created (with its worker) on first use.
  virtual Stream& stream(StreamKind kind) = 0;
  // A stream of this kind with a worker of its own, owned by the caller, for work that
  // must not queue behind the shared stream of its kind (graph mode's pipeline lanes: each
  // transfer between two stages runs in order on its own, whatever the others wait for).
  virtual std::unique_ptr<Stream> create_stream(StreamKind kind) = 0;
  // An event from the pool; it goes back to the pool when the last owner drops it.
  virtual std::shared_ptr<Event> create_event() = 0;
  virtual MemoryStats memory_stats() const = 0;
  virtual void reset_peak() = 0;
  // The most bytes its allocator may hold, in use and cached together (kNoMemoryLimit: no
  // limit but the hardware's; MESHFLOW_MEMORY_LIMIT at creation). An allocation beyond it
  // frees the cache and retries, then throws OutOfMemoryError (core/error.h), naming what
  // was asked for, in use, cached and the limit. A limit below what is in use stops new
  // blocks until enough are freed.
  virtual void set_memory_limit(size_t bytes) = 0;
  // Returns the cached blocks to the system (torch.cuda.empty_cache).
  virtual void release_cached_memory() = 0;
  // Per op, the device time of the kernels run since the last reset, most first, where the
  // device measures it (CUDA with MESHFLOW_PROFILE=1: each kernel call between two timing
  // events); empty elsewhere. Waits for the timed work to finish.
  virtual std::vector<KernelTime> kernel_times(bool /*reset*/) { return {}; }
  // Blocks until every stream has run everything launched on it.
  virtual void synchronize() = 0;
  // Stops the workers after they have run everything launched (for process exit).
  virtual void shutdown() = 0;
};

// The process's CPU device (created on first use, never destroyed).
Device& cpu();

// The device a memory belongs to (by its type and index).
Device& of(const Memory& memory);

// ---- Device types. A device type plugs in by registering the factory of its devices (one
// per index, created on first use and never destroyed); placements, tensors and kernels
// name devices by type. "cpu" is always registered. Thread-safe.

// The device of `type` at `index`, made by the factory on first use.
using DeviceFactory = std::function<Device&(int index)>;
// Throws std::invalid_argument when `type` is empty or already registered. `rank_index`
// says which index of the type a placement uses on this rank (a host's GPUs are shared out
// by local rank); none: index 0.
void register_type(const std::string& type, DeviceFactory factory, std::function<int()> rank_index = {});
// The registered types, in registration order ("cpu" first).
std::vector<std::string> types();
bool is_registered(const std::string& type);
// Throws std::invalid_argument naming the registered types when `type` is not one of them,
// or when index is negative.
Device& get(const std::string& type, int index = 0);
// The device of `type` that placements on it use on this rank.
Device& for_placement(const std::string& type);
// "'tpu' is not a registered device type; registered: cpu", for errors elsewhere.
std::string unregistered_message(const std::string& type);

}  // namespace mf::device
