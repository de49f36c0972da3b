// Copyright 2026 The meshflow Authors.
#include "meshflow/vm/vm.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "meshflow/comm/comm.h"
#include "meshflow/core/allocator.h"
#include "meshflow/core/error.h"
#include "meshflow/device/meta/meta_device.h"

namespace mf::vm {
namespace {


// What the VM remembers of the in-place writes of one memory block (Storage::vm_writes),
// and whether NumPy shares the block (share_with_host): one record for every storage over
// the block, views and in-place writes' outputs alike.
struct Writes {
  std::shared_ptr<device::Event> last;
  bool shared_with_host = false;
};

Writes* writes_of(const Storage& s) { return static_cast<Writes*>(s.vm_writes.get()); }

struct Instruction {
  std::string name;
  device::StreamKind kind;
  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;  // pending
  std::vector<Tensor> given;    // their memory, for a kernel allocated at issue; else empty
  KernelBody body;
  Flags flags;
};

// "[name] message" with the exception's type kept (ValueError stays ValueError in Python).
std::exception_ptr named(const std::string& name, std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    if (e.what()[0] == '[') return error;  // already names its op
    const std::string message = "[" + name + "] " + e.what();
    if (dynamic_cast<const OutOfMemoryError*>(&e)) return std::make_exception_ptr(OutOfMemoryError(message));
    if (dynamic_cast<const std::invalid_argument*>(&e)) return std::make_exception_ptr(std::invalid_argument(message));
    if (dynamic_cast<const std::out_of_range*>(&e)) return std::make_exception_ptr(std::out_of_range(message));
    if (dynamic_cast<const std::logic_error*>(&e)) return std::make_exception_ptr(std::logic_error(message));
    return std::make_exception_ptr(std::runtime_error(message));
  } catch (...) {
    return std::make_exception_ptr(std::runtime_error("[" + name + "] unknown error"));
  }
}

bool out_of_memory(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const OutOfMemoryError&) {
    return true;
  } catch (...) {
    return false;
  }
}

// The issuing lock (vm.h), recursive: its owner's id beside the mutex tells a thread whether
// it holds it already (pthread_self, cheaper than a thread_local of a shared library), and
// the depth, touched by the owner only, counts the entries it is inside.
std::mutex issuing_mutex;  // constant-initialized, so usable at any point of start or exit
std::atomic<std::thread::id> issuing_owner;
int issuing_depth = 0;
bool issuing_here() { return issuing_owner.load(std::memory_order_relaxed) == std::this_thread::get_id(); }
std::function<void(const std::function<void()>&)> issuing_wait;

class Machine;
Machine& machine();

class Machine {
 public:
  bool tracing() const { return trace_ != nullptr; }
  std::vector<TraceSpan> spans() {
    std::lock_guard<std::mutex> lock(mu_);
    return spans_;
  }
  void record_span(const std::string& name, device::StreamKind kind, int64_t start, int64_t end) {
    std::lock_guard<std::mutex> lock(mu_);
    spans_.push_back({name, kind, start, end});
  }

  Machine() : device_(device::cpu()), blocking_(env_flag("MESHFLOW_LAUNCH_BLOCKING")) {
    // Collectives issued from the user's thread run on the comm stream, after the queued ones.
    comm::install_funnel([this](const std::function<void()>& call) { run_on_comm(call); },
                         [this] { drain_for_exit(); });
    if (trace_) std::atexit([] { machine().write_trace(); });  // a process that never started MPI
  }

  std::vector<Tensor> launch(const std::string& name, device::StreamKind kind, std::vector<Tensor> inputs,
                             const std::vector<TensorMeta>& metas, KernelLaunch& kernel, const Flags& flags,
                             bool allocate) {
    Issuing issuing;
    if (flags.run_on_failed_inputs) comm::check_collective_thread(name);  // a collective (vm.h: Flags)
    drop_retired();
    device::Device& dev = flags.device ? *flags.device : device_;
    if (flags.small && runs_here(kind, dev, inputs, flags, allocate)) return run_here(name, inputs, metas, kernel, flags);
    auto ins = std::make_shared<Instruction>();
    ins->name = name;
    ins->kind = kind;
    ins->inputs = std::move(inputs);
    if (&dev != &device_ && std::find(others_.begin(), others_.end(), &dev) == others_.end()) others_.push_back(&dev);
    ins->outputs.reserve(metas.size());
    Memory& memory = flags.outputs_in ? *flags.outputs_in : dev.memory();
    for (const TensorMeta& m : metas) ins->outputs.push_back(Tensor::pending(m.shape, m.dtype, memory).with_format(m.format));
    if (allocate || !flags.overwrite.empty()) give_memory(*ins, metas, flags, memory, allocate);
    ins->body = kernel.body();
    ins->flags = flags;

    device::Stream& stream = &dev == &device_ ? stream_of(kind) : dev.stream(kind);
    bool shared_with_host = false;
    for (const Tensor& t : ins->inputs) {
      // What a storage remembers (Storage::vm_tag): its producer's event, which knows its
      // stream; and the last in-place write of its bytes, if any.
      wait_for(stream, static_cast<device::Event*>(t.storage()->vm_tag.get()));
      if (const Writes* w = writes_of(*t.storage())) {
        wait_for(stream, w->last.get());
        shared_with_host |= w->shared_with_host;
      }
    }
    if (!flags.overwrite.empty()) {
      // An in-place write: after every earlier reader on the other streams that may read it.
      for (const auto& [other, last] : last_on_other_streams_) {
        if (other != &stream) wait_for(stream, last.get());
      }
    }
    std::shared_ptr<device::Event> event = dev.create_event();
    // Noted before the launch: once it has run, the worker lets go of the instruction's
    // tensors (release_host_tensors).
    for (const Tensor& t : ins->outputs) t.storage()->vm_tag = event;
    if (!flags.overwrite.empty()) note_writes(*ins, flags.overwrite, event);
    std::vector<Tensor> outputs = ins->outputs;
    // The worker's reference goes to retired_ (run), so that the issuing thread's drop is
    // the last: an instruction is never destroyed on a worker (above).
    stream.launch_and_record([this, ins]() mutable { run(std::move(ins)); }, *event);
    if (kind != device::StreamKind::kCompute) note_last(stream, event);
    if (blocking_) {
      event->synchronize();
      raise_pending();
    } else {
      // Memory a NumPy array shares is read and written by the program at any time: the
      // instruction runs now, as PyTorch's CPU op would (its error still waits for a read).
      if (shared_with_host) {
        event->synchronize();
        note_views_of_shared(ins->inputs, outputs);
      }
      hold_back(std::move(event));
    }
    return outputs;
  }

  void synchronize(bool deferred_too) {
    run_all();
    if (deferred_too) {
      std::lock_guard<std::mutex> lock(mu_);
      if (!pending_error_) std::swap(pending_error_, deferred_out_of_memory_);
    }
    raise_pending();
  }

  // An out of memory of a job of several ranks that no read has raised yet (note_error).
  std::exception_ptr deferred_out_of_memory() {
    std::lock_guard<std::mutex> lock(mu_);
    return deferred_out_of_memory_;
  }

  void forget_out_of_memory() {
    run_all();
    std::lock_guard<std::mutex> lock(mu_);
    deferred_out_of_memory_ = nullptr;
    // By its message: an agreement between ranks may have carried it as another class.
    if (pending_error_ && is_out_of_memory(error_message(pending_error_))) pending_error_ = nullptr;
  }

  // `raise`: the tensor's error, counted as raised; else it stays with the tensor.
  void wait(const Tensor& t, bool raise) {
    drop_while_waiting(*t.storage());
    t.storage()->wait_done();
    wait_for_writes(*t.storage());
    drop_retired();
    if (std::exception_ptr e = t.storage()->error(); e && raise) {
      clear_pending(e);
      std::rethrow_exception(e);
    }
  }

  // The device's stream of `kind`; the comm stream's worker marked the comm thread first.
  device::Stream& stream_of(device::StreamKind kind) {
    device::Stream& s = device_.stream(kind);
    if (kind == device::StreamKind::kComm && !comm_marked_) {
      comm_marked_ = true;
      // MPI starts on this (the user's) thread, before the comm worker issues anything.
      comm::world();
      s.launch([] { comm::mark_comm_thread(true); });
    }
    return s;
  }

  bool blocking() const { return blocking_; }
  void set_blocking(bool on) { blocking_ = on; }

  // Waits for the last in-place write of `s`'s bytes, if any (the issuing thread's reads).
  static void wait_for_writes(const Storage& s) {
    if (const Writes* w = writes_of(s)) w->last->synchronize();
  }
  device::Device& device() { return device_; }

 private:
  // Waits for every instruction issued so far. Drops what has run every kDropEvery
  // instructions, so that the outputs of up to kMaxInFlight queued instructions are not all
  // held at once when the wait ends.
  void run_all() {
    for (size_t i = kDropEvery; i < in_flight_.size(); i += kDropEvery) {
      in_flight_[i]->synchronize();
      drop_retired();
    }
    in_flight_.clear();
    device_.synchronize();
    for (device::Device* d : others_) d->synchronize();
    drop_retired();
  }

  // How many retired instructions a long wait lets pile up before dropping them.
  static constexpr size_t kDropEvery = 8;
  // Yields before a wait sleeps (as Storage::wait_done's): most waits are short.
  static constexpr int kYieldsBeforeSleep = 16;

  static bool env_flag(const char* name) {
    const char* v = std::getenv(name);
    return v && *v && std::strcmp(v, "0") != 0;
  }

  static void wait_for(device::Stream& stream, device::Event* event) {
    if (event && event->stream() != &stream && !event->query()) stream.wait(*event);
  }

  // Input `from`, which output k of `metas` overwrites: of its shape and dtype, in `memory`.
  static const Tensor& checked_target(const std::string& name, const std::vector<Tensor>& inputs,
                                      const std::vector<TensorMeta>& metas, size_t k, int from, const Memory& memory) {
    const Tensor& target = inputs.at(static_cast<size_t>(from));
    if (target.shape() != metas[k].shape || target.dtype() != metas[k].dtype || &target.memory() != &memory) {
      throw std::logic_error("[" + name + "] output " + std::to_string(k) + " overwrites input " +
                             std::to_string(from) + " of another shape, dtype or memory");
    }
    return target;
  }

  // The memory each output is written to, issued now: an overwritten input's (an in-place
  // update), or with `allocate` new memory.
  static void give_memory(Instruction& ins, const std::vector<TensorMeta>& metas, const Flags& flags, Memory& memory,
                          bool allocate) {
    const std::vector<int>& overwrite = flags.overwrite;
    ins.given.reserve(metas.size());
    for (size_t k = 0; k < metas.size(); ++k) {
      const int from = k < overwrite.size() ? overwrite[k] : -1;
      if (from >= 0) {
        ins.given.push_back(checked_target(ins.name, ins.inputs, metas, k, from, memory));
      } else if (!allocate) {
        ins.given.emplace_back();  // the kernel allocates it
      } else {
        try {
          ins.given.push_back(Tensor::empty(metas[k].shape, metas[k].dtype, memory));
        } catch (const std::exception&) {
          if (flags.raise_at_issue && !comm::several_ranks()) {
            std::rethrow_exception(named(ins.name, std::current_exception()));
          }
          // Left to the kernel, whose own attempt fails its outputs: out of memory is an
          // error of the op's run, raised at the next synchronization like any other.
          ins.given.emplace_back();
        }
      }
    }
  }

  // The overwritten inputs' bytes are written by `event`'s instruction: later readers of
  // their storages, and of the new ones (the outputs) when written again, wait for it.
  static void note_writes(const Instruction& ins, const std::vector<int>& overwrite,
                          const std::shared_ptr<device::Event>& event) {
    for (size_t k = 0; k < overwrite.size() && k < ins.outputs.size(); ++k) {
      if (overwrite[k] < 0) continue;
      Storage& old = *ins.inputs[static_cast<size_t>(overwrite[k])].storage();
      if (!old.vm_writes) old.vm_writes = std::make_shared<Writes>();
      writes_of(old)->last = event;
      ins.outputs[k].storage()->vm_writes = old.vm_writes;
    }
  }

  // After an instruction that read memory NumPy shares has run: its outputs over that memory
  // (views of it, made with its owner) share its record, so that they are shared too.
  static void note_views_of_shared(const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs) {
    for (const Tensor& in : inputs) {
      const Writes* w = writes_of(*in.storage());
      if (!w || !w->shared_with_host) continue;
      const std::shared_ptr<void>& owner = in.storage()->owner();
      for (const Tensor& out : outputs) {
        if (out.storage()->vm_writes) continue;
        const std::shared_ptr<void>& made = out.storage()->owner();
        if (made == owner || made.get() == in.storage().get()) out.storage()->vm_writes = in.storage()->vm_writes;
      }
    }
  }

  void note_last(device::Stream& stream, const std::shared_ptr<device::Event>& event) {
    for (auto& [s, last] : last_on_other_streams_) {
      if (s == &stream) {
        last = event;
        return;
      }
    }
    last_on_other_streams_.emplace_back(&stream, event);
  }

  // Whether a small kernel (Flags::small) runs on the issuing thread now: see vm.h.
  bool runs_here(device::StreamKind kind, const device::Device& dev, const std::vector<Tensor>& inputs,
                 const Flags& flags, bool allocate) {
    if (kind != device::StreamKind::kCompute || &dev != &device_ || allocate || flags.outputs_in) return false;
    for (const Tensor& t : inputs) {
      const Storage& s = *t.storage();
      if (!s.is_ready() || s.error()) return false;
      if (const Writes* w = writes_of(s); w && !w->last->query()) return false;
    }
    if (!flags.overwrite.empty()) {
      // An in-place write, as launch orders it: after every other stream's readers.
      for (const auto& [other, last] : last_on_other_streams_) {
        if (!last->query()) return false;
      }
    }
    if (!compute_) compute_ = &stream_of(device::StreamKind::kCompute);
    return compute_->query();
  }

  // A small kernel run on the issuing thread (runs_here): its results are the outputs, made
  // new storages where a result shares its storage (a view of an input, an in-place write's
  // target), as fulfill makes them on the worker. An in-place write's output shares its
  // target's record of writes (note_writes), so that a later queued write through either
  // orders the readers of both. An error fails pending outputs as run() does.
  std::vector<Tensor> run_here(const std::string& name, const std::vector<Tensor>& inputs,
                               const std::vector<TensorMeta>& metas, KernelLaunch& kernel, const Flags& flags) {
    const int64_t start = trace_ ? now_us() : 0;
    std::vector<Tensor> results;
    std::vector<Tensor> given;
    try {
      if (!flags.overwrite.empty()) {
        for (size_t k = 0; k < metas.size(); ++k) {
          const int from = k < flags.overwrite.size() ? flags.overwrite[k] : -1;
          given.push_back(from >= 0 ? checked_target(name, inputs, metas, k, from, device_.memory()) : Tensor());
        }
      }
      results = kernel.run_here(inputs, given.empty() ? nullptr : &given);
      check_results(results, metas);
    } catch (...) {
      std::exception_ptr error = named(name, std::current_exception());
      // As a queued kernel's memory given at issue (give_memory): a rank's own op raises it.
      if (flags.raise_at_issue && out_of_memory(error) && !comm::several_ranks()) std::rethrow_exception(error);
      return fail_here(name, inputs, metas, flags, error);
    }
    for (Tensor& r : results) {
      const std::shared_ptr<Storage>& s = r.storage();
      if (s.use_count() == 1 && r.data() == s->data()) continue;  // made by the kernel: only r holds it
      const std::shared_ptr<void>& owner = s->owner();
      r = Tensor::wrap(r.data(), r.shape(), r.dtype(), owner ? owner : std::shared_ptr<void>(s), r.memory())
              .with_format(r.format());
      if (const Writes* w = writes_of(*s); w && w->shared_with_host) r.storage()->vm_writes = s->vm_writes;  // a view
    }
    for (size_t k = 0; k < flags.overwrite.size() && k < results.size(); ++k) {
      if (flags.overwrite[k] < 0) continue;
      Storage& old = *inputs[static_cast<size_t>(flags.overwrite[k])].storage();
      if (!old.vm_writes) old.vm_writes = std::make_shared<Writes>(Writes{device_.create_event()});  // done
      results[k].storage()->vm_writes = old.vm_writes;
    }
    if (trace_) record_span(name, device::StreamKind::kCompute, start, now_us());
    return results;
  }

  std::vector<Tensor> fail_here(const std::string& name, const std::vector<Tensor>& inputs,
                                const std::vector<TensorMeta>& metas, const Flags& flags, std::exception_ptr error) {
    Instruction ins;
    ins.name = name;
    ins.kind = device::StreamKind::kCompute;
    ins.inputs = inputs;
    ins.flags = flags;
    for (const TensorMeta& m : metas) ins.outputs.push_back(Tensor::pending(m.shape, m.dtype, device_.memory()).with_format(m.format));
    settle(ins, {}, error, nullptr);
    if (blocking_) raise_pending();
    return ins.outputs;
  }

  // On the stream's worker.
  void run(std::shared_ptr<Instruction> ins) {
    const int64_t start = trace_ ? now_us() : 0;
    const bool comm_stream = ins->kind == device::StreamKind::kComm;
    if (comm_stream) comm::set_current_op(ins->name);
    std::exception_ptr inherited;
    for (const Tensor& t : ins->inputs) {
      if (std::exception_ptr e = t.storage()->error()) {
        inherited = e;
        break;
      }
    }
    std::vector<Tensor> results;
    std::exception_ptr error;
    const bool collective = comm_stream && comm::initialized() && comm::world_size() > 1;
    if (!inherited || ins->flags.run_on_failed_inputs) {
      // A collective's buffers pass the memory limit, so that this rank takes part as the
      // others do; its outputs then fail with the out of memory it would have raised.
      std::optional<LimitOverdraft> overdraft;
      if (collective) overdraft.emplace();
      try {
        const comm::Computing computing(!comm_stream);  // the watchdog's view (comm.h)
        results = ins->body(ins->inputs, ins->given);
        check_results(results, ins->outputs);
      } catch (...) {
        error = named(ins->name, std::current_exception());
      }
      if (error && out_of_memory(error) && collective) {
        // The system itself refused this rank's memory inside a collective that the others
        // may wait in already, and this rank cannot take part.
        comm::abort_job("[rank " + std::to_string(comm::world_rank()) + "] " + error_message(error) +
                        "\nmeshflow: a collective cannot go on without this rank's memory; ending the job");
      }
      if (!error && overdraft && !overdraft->refused().empty()) {
        error = named(ins->name, std::make_exception_ptr(OutOfMemoryError(overdraft->refused())));
      }
    }
    settle(*ins, results, error, inherited);
    if (comm_stream) comm::set_current_op("");
    // This thread's last references (results' storages, the errors) go before the
    // instruction is handed over, so that the issuing thread's drop is the last (above).
    results.clear();
    error = inherited = nullptr;
    release_host_tensors(*ins);
    std::lock_guard<std::mutex> lock(mu_);
    if (trace_) spans_.push_back({ins->name, ins->kind, start, now_us()});
    // Made by this instruction or an earlier one, whose retirement woke the waiter already.
    const bool awaited = waiting_ && awaited_ && awaited_->is_ready();
    retired_.push_back(std::move(ins));
    any_retired_.store(true, std::memory_order_release);
    if (waiting_ && (retired_.size() >= kDropEvery || awaited)) retired_cv_.notify_one();
  }

  // An instruction that has run lets go of its tensors in host memory here, on the worker,
  // where its reference is often the last (a value's producer and its last reader): the
  // issuing thread drops retired instructions only when it next issues or wakes, and while it
  // waits or issues ahead, retired instructions would hold the values of the work they did.
  // A device's tensors stay: its stream-ordered blocks go back to its allocator from the
  // issuing thread.
  static void release_host_tensors(Instruction& ins) {
    auto in_host = [](const Tensor& t) { return &t.storage()->memory() == &host_memory(); };
    for (std::vector<Tensor>* held : {&ins.inputs, &ins.outputs}) {
      held->erase(std::remove_if(held->begin(), held->end(), in_host), held->end());
    }
  }

  // Produces an instruction's outputs from its results, or fails them with its error (or
  // the error of a failed input, `inherited`); ends the job where a rank cannot go on alone.
  void settle(const Instruction& ins, const std::vector<Tensor>& results, std::exception_ptr error,
              std::exception_ptr inherited) {
    // Out of memory on one rank alone: its outputs fail, and the ranks raise it together at
    // the next read of a global value (gather_full agrees on it), where it can be caught.
    if (error && ins.flags.abort_on_error && !out_of_memory(error)) {
      comm::abort_job("[rank " + std::to_string(comm::world_rank()) + "] " + error_message(error) + "\nmeshflow: " +
                      ins.name + " failed on this rank only; ending the job");
    }
    if (error && ins.flags.report_error) note_error(error);
    const std::exception_ptr failed = error ? error : inherited;
    for (size_t i = 0; i < ins.outputs.size(); ++i) {
      Storage& out = *ins.outputs[i].storage();
      if (failed) {
        // Zeros, for consumers that run on failed inputs (collectives stay matched); where
        // even they cannot be had (the op failed for want of that memory), zeros that are
        // only read, which may commit no memory.
        try {
          Tensor zeros = Tensor::zeros(ins.outputs[i].shape(), ins.outputs[i].dtype(), out.memory());
          out.fail(failed, zeros.data(), zeros.storage()->owner());
        } catch (const std::exception&) {
          std::shared_ptr<void> zeros;
          try {
            zeros = out.memory().zeros_for_reading(ins.outputs[i].nbytes());
          } catch (const std::exception&) {
          }
          out.fail(failed, zeros.get(), zeros);
        }
      } else {
        const Tensor& r = results[i];
        const std::shared_ptr<void>& owner = r.storage()->owner();
        out.fulfill(r.data(), owner ? owner : std::shared_ptr<void>(r.storage()));
      }
    }
  }

  static const Shape& shape_of(const Tensor& t) { return t.shape(); }
  static const Shape& shape_of(const TensorMeta& m) { return m.shape; }
  static DType dtype_of(const Tensor& t) { return t.dtype(); }
  static DType dtype_of(const TensorMeta& m) { return m.dtype; }
  static MemoryFormat format_of(const Tensor& t) { return t.format(); }
  static MemoryFormat format_of(const TensorMeta& m) { return m.format; }
  static const char* format_name(MemoryFormat f) {
    return f == MemoryFormat::kChannelsLast ? " channels-last" : f == MemoryFormat::kContiguous ? "" : " channels-last inside";
  }

  // `planned`: the pending outputs, or their metas.
  template <typename Planned>
  static void check_results(const std::vector<Tensor>& results, const std::vector<Planned>& planned) {
    bool ok = results.size() == planned.size();
    for (size_t i = 0; ok && i < results.size(); ++i) {
      ok = results[i].shape() == shape_of(planned[i]) && results[i].dtype() == dtype_of(planned[i]) &&
           results[i].format() == format_of(planned[i]);
    }
    if (!ok) {
      std::string got, expected;
      for (const Tensor& t : results) {
        got += std::string(got.empty() ? "" : ", ") + dtype_name(t.dtype()) + to_string(t.shape()) + format_name(t.format());
      }
      for (const Planned& p : planned) {
        expected += std::string(expected.empty() ? "" : ", ") + dtype_name(dtype_of(p)) + to_string(shape_of(p)) +
                    format_name(format_of(p));
      }
      throw std::logic_error("produced (" + got + ") where its plan said (" + expected + ")");
    }
  }

  // Any thread. An out of memory in a job of several ranks waits for a read the ranks agree
  // on (vm.h): raised by this rank's synchronization alone, it would part the ranks.
  void note_error(std::exception_ptr e) {
    // By its message: an agreement between ranks may have carried it as another class.
    const bool defer = is_out_of_memory(error_message(e)) && comm::several_ranks();
    std::lock_guard<std::mutex> lock(mu_);
    std::exception_ptr& slot = defer ? deferred_out_of_memory_ : pending_error_;
    if (!slot) slot = e;
  }

  void clear_pending(std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(mu_);
    if (pending_error_ == e) pending_error_ = nullptr;
    if (deferred_out_of_memory_ == e) deferred_out_of_memory_ = nullptr;
  }

  void raise_pending() {
    std::exception_ptr e;
    {
      std::lock_guard<std::mutex> lock(mu_);
      std::swap(e, pending_error_);
    }
    drop_retired();
    if (e) std::rethrow_exception(e);
  }

  // Back pressure, as a CUDA launch queue's depth: the issuing thread runs at most
  // kMaxInFlight instructions ahead of the workers. Without a bound, a loop that never
  // synchronizes would queue without limit, and the outputs its instructions have made
  // would wait for the issuing thread to drop them (at its next launch) all together: 3,000
  // adds of 1 MiB issued at once held 3 GB. With it, at most kMaxInFlight outputs are
  // made and not yet dropped. No rank waits on a collective that no other rank can reach:
  // every rank only waits for work it issued, in the program order all ranks share.
  void hold_back(std::shared_ptr<device::Event> event) {
    constexpr size_t kMaxInFlight = 1024;
    in_flight_.push_back(std::move(event));
    if (in_flight_.size() <= kMaxInFlight) return;
    if (!in_flight_.front()->query()) {
      const device::Event& oldest = *in_flight_.front();
      if (issuing_wait) {
        issuing_wait([&oldest] { oldest.synchronize(); });
      } else {
        oldest.synchronize();
      }
    }
    in_flight_.pop_front();
    while (!in_flight_.empty() && in_flight_.front()->query()) in_flight_.pop_front();
    drop_retired();
  }

  // Waits for `s`, dropping what retires meanwhile, every kDropEvery instructions and when
  // `s`'s producer retires. A read waits for all the work queued before it (a step's), and
  // the values that work makes and frees would otherwise all be held until the wait ends.
  void drop_while_waiting(const Storage& s) {
    drop_while_waiting([&s] { return s.is_ready(); }, &s);
  }
  // The same until `ready()`; run() (a retirement) or wake() tells it to look again.
  void drop_while_waiting(const std::function<bool()>& ready, const Storage* awaited) {
    for (int i = 0; i < kYieldsBeforeSleep && !ready(); ++i) std::this_thread::yield();
    while (!ready()) {
      // Once every queued instruction has run, nothing retires any more (what is awaited
      // comes from elsewhere, a graph's actors): the caller's own wait follows.
      while (!in_flight_.empty() && in_flight_.front()->query()) in_flight_.pop_front();
      if (in_flight_.empty()) return;
      std::vector<std::shared_ptr<Instruction>> done;
      std::unique_lock<std::mutex> lock(mu_);
      awaited_ = awaited;
      waiting_ = true;
      // The timeout looks again at what is in flight.
      retired_cv_.wait_for(lock, std::chrono::milliseconds(1),
                           [&] { return retired_.size() >= kDropEvery || ready(); });
      awaited_ = nullptr;
      waiting_ = false;
      done.swap(retired_);
      any_retired_.store(false, std::memory_order_relaxed);
      lock.unlock();
    }
  }

  void wake() {
    std::lock_guard<std::mutex> lock(mu_);
    if (waiting_) retired_cv_.notify_one();
  }

  // Drops retired instructions on this (the issuing) thread, outside the lock.
  void drop_retired() {
    if (!any_retired_.load(std::memory_order_acquire)) return;  // most launches find none
    std::vector<std::shared_ptr<Instruction>> done;
    {
      std::lock_guard<std::mutex> lock(mu_);
      done.swap(retired_);
      any_retired_.store(false, std::memory_order_relaxed);
    }
  }

  // A collective from the issuing thread, in program order with the comm stream's work.
  void run_on_comm(const std::function<void()>& call) {
    // From an issuing thread, a collective of the program; graph mode's lanes and actors
    // hold no issuing lock and run their own, ordered by the compiled plan.
    if (issuing_here()) comm::check_collective_thread("a collective");
    device::Stream& s = stream_of(device::StreamKind::kComm);
    if (s.query()) {
      // Nothing queued or running there, and only this thread queues: the call is next in
      // program order and nobody else is inside MPI, so it runs here, without two thread
      // switches (which cost most when ranks outnumber cores).
      comm::mark_comm_thread(true);
      try {
        call();
      } catch (...) {
        comm::mark_comm_thread(false);
        throw;
      }
      comm::mark_comm_thread(false);
      return;
    }
    std::exception_ptr error;
    std::atomic<bool> finished{false};
    auto event = device_.create_event();
    s.launch([&] {
      try {
        call();
      } catch (...) {
        error = std::current_exception();
      }
      finished.store(true);
      wake();
    });
    s.record(*event);
    // Behind the queued collectives: what retires meanwhile is dropped (drop_while_waiting).
    if (issuing_here()) drop_while_waiting([&finished] { return finished.load(); }, nullptr);
    event->synchronize();
    if (error) std::rethrow_exception(error);
  }

  // Before MPI is finalized at exit: the queued work must finish, and the workers stop.
  void drain_for_exit() {
    device_.shutdown();
    for (device::Device* d : others_) d->shutdown();
    drop_retired();
    write_trace();
  }

  static int64_t now_us() {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  // MESHFLOW_TRACE=prefix: every instruction's span on its stream, written at exit as a
  // Chrome trace (chrome://tracing, Perfetto) to prefix.rank<N>.json.
  void write_trace() {
    if (!trace_) return;
    std::lock_guard<std::mutex> lock(mu_);
    // A process that ran nothing (the launcher imports meshflow too) leaves the ranks' files.
    if (spans_.empty()) return;
    const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");  // no MPI call: this may run after finalize
    std::ofstream out(std::string(trace_) + ".rank" + (rank ? rank : "0") + ".json");
    out << "{\"traceEvents\": [\n";
    for (size_t i = 0; i < spans_.size(); ++i) {
      const TraceSpan& s = spans_[i];
      out << (i ? ",\n" : "") << "{\"name\": \"" << s.name << "\", \"ph\": \"X\", \"pid\": " << comm::world_rank()
          << ", \"tid\": \"" << device::stream_kind_name(s.stream) << "\", \"ts\": " << s.start_us
          << ", \"dur\": " << s.end_us - s.start_us << "}";
    }
    out << "\n]}\n";
  }


  device::Device& device_;
  // The other devices instructions have run on; issuing thread only.
  std::vector<device::Device*> others_;
  const char* trace_ = std::getenv("MESHFLOW_TRACE");
  bool blocking_;  // issuing thread only
  bool comm_marked_ = false;  // issuing thread only
  // The events of the newest launches, oldest first (hold_back); issuing thread only.
  std::deque<std::shared_ptr<device::Event>> in_flight_;
  // The latest launch on each stream other than the compute streams (comm, copies): what an
  // in-place write waits for, as any of them may read its bytes (a compute stream reads
  // only its device's memory, and the writer's runs in order). Issuing thread only.
  std::vector<std::pair<device::Stream*, std::shared_ptr<device::Event>>> last_on_other_streams_;
  // The device's compute stream, once a small kernel has looked for it; under the issuing lock.
  device::Stream* compute_ = nullptr;
  std::mutex mu_;
  std::vector<std::shared_ptr<Instruction>> retired_;  // GUARDED_BY(mu_)
  std::atomic<bool> any_retired_{false};               // !retired_.empty(), read without the lock
  std::condition_variable retired_cv_;                  // with mu_: wakes drop_while_waiting
  const Storage* awaited_ = nullptr;                    // GUARDED_BY(mu_): what it waits for
  bool waiting_ = false;                                // GUARDED_BY(mu_): whether it waits
  std::exception_ptr pending_error_;                    // GUARDED_BY(mu_)
  std::exception_ptr deferred_out_of_memory_;           // GUARDED_BY(mu_); note_error
  std::vector<TraceSpan> spans_;                             // GUARDED_BY(mu_)
};

Machine& machine() {
  static auto* m = new Machine;  // never destroyed: workers may run during static destruction
  return *m;
}

}  // namespace

Issuing::Issuing() {
  if (!issuing_here()) {
    if (!issuing_mutex.try_lock()) {
      if (issuing_wait) {
        issuing_wait([] { issuing_mutex.lock(); });
      } else {
        issuing_mutex.lock();
      }
    }
    issuing_owner.store(std::this_thread::get_id(), std::memory_order_relaxed);
  }
  ++issuing_depth;
}

Issuing::~Issuing() {
  if (--issuing_depth == 0) {
    issuing_owner.store(std::thread::id(), std::memory_order_relaxed);
    issuing_mutex.unlock();
  }
}

void set_issuing_wait(std::function<void(const std::function<void()>& wait)> wrap) { issuing_wait = std::move(wrap); }

namespace {

// A body as a KernelLaunch.
class BodyLaunch : public KernelLaunch {
 public:
  explicit BodyLaunch(KernelBody body) : body_(std::move(body)) {}
  std::vector<Tensor> run_here(const std::vector<Tensor>& inputs, const std::vector<Tensor>* given) override {
    return body_(inputs, given ? *given : std::vector<Tensor>{});
  }
  KernelBody body() override { return std::move(body_); }

 private:
  KernelBody body_;
};

}  // namespace

std::vector<Tensor> launch(const std::string& name, device::StreamKind stream, std::vector<Tensor> inputs,
                           const std::vector<TensorMeta>& outputs, Body body, Flags flags) {
  BodyLaunch kernel([body = std::move(body)](const std::vector<Tensor>& in, const std::vector<Tensor>&) {
    return body(in);
  });
  return machine().launch(name, stream, std::move(inputs), outputs, kernel, flags, /*allocate=*/false);
}

std::vector<Tensor> launch_kernel(const std::string& name, std::vector<Tensor> inputs,
                                  const std::vector<TensorMeta>& outputs, KernelLaunch& kernel, const Flags& flags,
                                  bool allocate) {
  return machine().launch(name, device::StreamKind::kCompute, std::move(inputs), outputs, kernel, flags, allocate);
}

std::vector<Tensor> launch_kernel(const std::string& name, std::vector<Tensor> inputs,
                                  const std::vector<TensorMeta>& outputs, KernelBody body, const Flags& flags,
                                  bool allocate) {
  BodyLaunch kernel(std::move(body));
  return launch_kernel(name, std::move(inputs), outputs, kernel, flags, allocate);
}

std::string error_message(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown error";
  }
}

bool tracing() { return machine().tracing(); }
int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
void record_span(const std::string& name, device::StreamKind stream, int64_t start_us, int64_t end_us) {
  machine().record_span(name, stream, start_us, end_us);
}

std::vector<TraceSpan> trace_spans() { return machine().spans(); }
Tensor copy_to(const Tensor& t, device::Device& target) {
  Memory& memory = target.memory();
  if (&t.memory() == &memory) return t;
  // Into meta, nothing moves (its tensors keep only their shapes): no copy is issued, nor
  // waited for, whatever device the source is on.
  if (device::meta::is_meta(memory)) return Tensor::empty(t.shape(), t.dtype(), memory);
  if (device::meta::is_meta(t.memory())) {
    throw device::meta::NoDataError(
        "Cannot copy out of meta tensor; no data! A meta tensor has a shape and a dtype but no values to read "
        "or move; make storage for it on a device with Module.to_empty(device=...) or empty_like(x, device=...) "
        "and initialize it, or load values into it with load_state_dict(state_dict, assign=True)");
  }
  const bool to_host = &target == &device::cpu();
  // On the copy stream of the device that is not the host (the source's, to the host), as
  // an accelerator's copies run on its copy engines.
  Flags flags;
  flags.device = to_host ? &device::of(t.memory()) : &target;
  flags.outputs_in = &memory;
  return launch("copy to " + memory.device_str(),
                to_host ? device::StreamKind::kDeviceToHost : device::StreamKind::kHostToDevice, {t},
                {{t.shape(), t.dtype(), &t.memory() == &host_memory() ? MemoryFormat::kContiguous : t.format()}},
                [&memory](const std::vector<Tensor>& in) { return std::vector<Tensor>{in[0].copy_to(memory)}; }, flags)[0];
}

Tensor made_here(const std::string& name, const TensorMeta& meta, Memory& memory, const std::function<Tensor()>& make) {
  try {
    return make();
  } catch (const OutOfMemoryError&) {
    if (!comm::several_ranks()) throw;
    // Failed as a kernel that raised it: its output fails and the error waits for a read.
    Flags flags;
    flags.device = &device::of(memory);
    return launch(name, device::StreamKind::kCompute, {}, {meta},
                  [error = std::current_exception()](const std::vector<Tensor>&) -> std::vector<Tensor> {
                    std::rethrow_exception(error);
                  }, flags)[0];
  }
}

void synchronize() {
  Issuing issuing;
  machine().synchronize(/*deferred_too=*/false);
}
void synchronize_if_allocated_at_issue(const std::vector<Tensor>& values) {
  const bool ahead_holds_memory =
      std::any_of(values.begin(), values.end(), [](const Tensor& t) { return !t.memory().host_accessible(); });
  if (ahead_holds_memory) synchronize();
}
void finish() {
  Issuing issuing;
  machine().synchronize(/*deferred_too=*/true);
}
void wait(const Tensor& t) {
  Issuing issuing;
  machine().wait(t, /*raise=*/true);
}
bool settled(const Tensor& t) {
  Issuing issuing;  // in-place writes are noted under it
  const Storage& s = *t.storage();
  const Writes* w = writes_of(s);
  return s.is_ready() && (!w || w->last->query());
}
void wait_run(const Tensor& t) {
  Issuing issuing;
  machine().wait(t, /*raise=*/false);
}
Tensor write_over(const Tensor& target, const Tensor& value) {
  if (value.shape() != target.shape() || value.dtype() != target.dtype() || &value.memory() != &target.memory()) {
    throw std::logic_error("write_over: the value must have the target's shape, dtype and memory");
  }
  Flags flags;
  flags.device = &device::of(target.memory());
  flags.overwrite = {0};
  flags.small = true;  // its target is shared with NumPy, so launch waits for it anyway
  return launch_kernel("write_over", {target, value}, {{target.shape(), target.dtype()}},
                       [](const std::vector<Tensor>& in, const std::vector<Tensor>& out) {
                         // A value in another layout (an in-place op's channels-last result)
                         // takes the target's, whose bytes NumPy reads.
                         const Tensor value = in_format(in[1], out[0].format());
                         out[0].memory().copy_within(out[0].data(), value.data(), value.nbytes());
                         return std::vector<Tensor>{out[0]};
                       },
                       flags, /*allocate=*/false)[0];
}
bool shared_with_host(const Tensor& t) {
  const Writes* w = writes_of(*t.storage());
  return w && w->shared_with_host;
}
void share_with_host(const Tensor& t, bool fresh) {
  if (shared_with_host(t)) {
    wait(t);
    return;
  }
  if (fresh) {
    Issuing issuing;
    t.storage()->vm_writes = std::make_shared<Writes>(Writes{machine().device().create_event(), true});  // done
    return;
  }
  // An in-place write that writes nothing: launch orders it after every reader issued
  // before, which runs before a program's write through the array can reach it.
  Flags flags;
  flags.overwrite = {0};
  flags.small = true;
  launch_kernel("share with NumPy", {t}, {{t.shape(), t.dtype()}},
                [](const std::vector<Tensor>&, const std::vector<Tensor>& out) { return out; }, flags,
                /*allocate=*/false);
  wait(t);
  Issuing issuing;  // vm_writes is the issuing thread's
  Storage& s = *t.storage();
  if (!s.vm_writes) s.vm_writes = std::make_shared<Writes>(Writes{machine().device().create_event(), false});  // done
  writes_of(s)->shared_with_host = true;
}
void order_compute_after(const Tensor& t) {
  Flags flags;
  flags.device = &device::of(t.memory());
  launch("order after", device::StreamKind::kCompute, {t}, {},
         [](const std::vector<Tensor>&) { return std::vector<Tensor>{}; }, flags);
}
void forget_out_of_memory() {
  Issuing issuing;
  machine().forget_out_of_memory();
}
void raise_together(std::exception_ptr mine, const std::string& call) {
  if (!mine) mine = machine().deferred_out_of_memory();
  std::exception_ptr raised = mine;
  try {
    comm::agree(mine, 0, call);
  } catch (const std::invalid_argument&) {
    if (!mine) raised = std::current_exception();
  }
  if (!raised) return;
  const std::string message = error_message(raised);
  if (!is_out_of_memory(message)) std::rethrow_exception(raised);
  forget_out_of_memory();
  throw OutOfMemoryError(message);
}
bool blocking() { return machine().blocking(); }
void set_blocking(bool on) { machine().set_blocking(on); }
device::Device& device() { return machine().device(); }
device::Stream& comm_stream() { return machine().stream_of(device::StreamKind::kComm); }

}  // namespace mf::vm
