// Copyright 2026 The meshflow Authors.
// The eager virtual machine (CONCEPTS section 6; docs/runtime.md). Every op call and every
// boxing step becomes an instruction: a body that reads input tensors and returns output
// tensors, run on a stream of the device layer. launch() returns at once with the outputs
// as pending tensors (core/tensor.h) whose shapes and dtypes the caller already knows
// (planning is a pure function); the body fills them later on the stream's worker.
//
// Ordering: instructions of one stream run in launch order. Each tensor remembers the
// stream and event of the instruction that produced it; an instruction on another stream
// first waits on that event. Storages are written by their producer, except that an
// in-place update (Flags::overwrite: an optimizer step) writes its inputs' bytes again, as
// OneFlow's VM marks an operand written rather than read: it runs after every instruction
// issued before it on any stream that may read those bytes (its own stream by order, the
// other streams by waiting on their latest events, which also covers other storages over
// the same memory), and every later instruction reading the written storage, or a storage
// an earlier in-place write made of it, waits for it, as vm::wait() does. Collectives run
// on the comm stream in program order, which is the same on every rank; collectives issued
// from the user's thread (argument checks, metadata) are funneled onto it (comm.h).
//
// Memory: an instruction launched with launch_kernel (an op's kernel on a device the host
// cannot touch: ops/dispatch.cc) gets its outputs' memory when it is issued, from the metas,
// on the issuing thread, and the kernel writes there; other instructions (copies, boxing,
// kernels in host memory) make their outputs as they run.
//
// Lifetimes: an instruction holds its inputs and outputs until it has run. Its worker then
// lets go of those in host memory, where its reference is often a value's last (its
// producer's or its last reader's), so host storage goes back to the caching allocator as
// soon as its last reader has run, even while the issuing thread is away (issuing ahead,
// waiting, or in the program's own code). It is then retired, and the issuing thread drops
// it at its next launch, and every few retirements while it waits (wait(), synchronize(), a
// collective of its own): its body (which may hold Python objects) is never destroyed on a
// worker, nor a device's tensors (a stream-ordered allocator takes its blocks back on the
// issuing thread).
//
// Errors: a body that throws fails its outputs (zeros of the right shape plus the error,
// prefixed with the instruction's name); instructions reading failed inputs skip their
// body and fail their outputs in turn, except comm instructions, which still run so that
// every rank issues the same collectives. Out of memory (OutOfMemoryError) never ends the
// job from a kernel, even one flagged abort_on_error: a global read agrees on it between
// ranks (global_tensor.h, gather_full). A comm instruction of a job of several ranks runs in
// a LimitOverdraft (core/allocator.h): its buffers pass the limit, so that every rank takes
// part in the collective, and its outputs fail with the out of memory once it has run; only
// a refusal of the system itself there ends the job. The first error is raised on the
// user's thread at the next synchronizing call: synchronize(), or wait() on a tensor
// (numpy(), item()).
// MESHFLOW_LAUNCH_BLOCKING=1 runs each instruction before launch() returns and raises its
// error there.
// In a job of several ranks, an out of memory is never raised on one rank alone, which
// would part the ranks (the others go on into the next collective): not at issue (a rank's
// own op fails its outputs instead, Flags::raise_at_issue; so do a tensor made from host
// data and backward's zeros, made_here), nor by this rank's synchronize() or blocking launch. It is raised by a read of the failed value (wait()), and
// on every rank at once by the next global read once noted (raise_together: gather_full, a
// compiled graph's call), whatever value that reads, and at exit (finish()).
//
// Thread-safety: the VM, and the layers above it that issue work (op dispatch and its
// caches, conversions between layouts, autograd, optimizers, compiled graphs), are driven by
// one thread at a time: their public entries hold the issuing lock (Issuing) for their
// duration, so a program may issue from several threads (a logging or checkpoint thread
// beside training), each entry's work issued whole, in the order the threads take the lock.
// Collectives are the exception: every rank must issue them in one order, which the order of
// threads taking a lock cannot promise, so in a job of several ranks only the thread that
// issued the first collective may issue more (another raises an error saying so).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "meshflow/core/tensor.h"
#include "meshflow/device/device.h"

namespace mf::vm {

// The issuing lock, held for its scope; recursive, so entries nest (an op inside backward).
class Issuing {
 public:
  Issuing();
  ~Issuing();
  Issuing(const Issuing&) = delete;
  Issuing& operator=(const Issuing&) = delete;
};
// How a thread that finds the issuing lock held waits for it, and how an issuing thread that
// runs too far ahead of the workers waits for them (back pressure): `wrap` calls `wait`,
// which blocks until the lock is taken or the workers have caught up. The Python bindings
// release the GIL around it, since the lock's holder may need the GIL (a hook in backward)
// and other Python threads may run meanwhile; so an op's issue may keep the GIL. Set once,
// before any thread issues.
void set_issuing_wait(std::function<void(const std::function<void()>& wait)> wrap);

using Body = std::function<std::vector<Tensor>(const std::vector<Tensor>& inputs)>;
// An op's kernel call: `outputs` holds the memory allocated for its outputs when it was
// issued (one tensor per output meta), for the kernel to write (KernelContext::given).
using KernelBody =
    std::function<std::vector<Tensor>(const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs)>;

struct Flags {
  // Run the body even when an input failed (comm: every rank must issue the collective).
  bool run_on_failed_inputs = false;
  // A body error ends the job: it happened on this rank only, and the others would wait
  // for it in the next collective.
  bool abort_on_error = false;
  // Count a body error as this rank's pending error. False when a later instruction takes
  // the error up (an agreement between ranks that fails every rank's outputs alike), so
  // each rank raises the same error once.
  bool report_error = true;
  // The device whose stream of the kind runs it and whose memory holds its outputs; the
  // CPU when null.
  device::Device* device = nullptr;
  // Where its outputs live when not in that device's memory (boxing of another device's
  // tensors runs on the CPU's comm stream, staging them through the host).
  Memory* outputs_in = nullptr;
  // An in-place update (launch_kernel only): output k is written over the memory of input
  // overwrite[k] (-1, or k past the end: memory of its own), which must have output k's
  // shape and dtype; the kernel must read each element before writing it (elementwise).
  // The output is a new pending storage over that memory; the input's handles keep the old
  // storage, which the write changes.
  std::vector<int> overwrite;
  // Out of memory for the outputs allocated at issue (launch_kernel) raises there: a rank's
  // own work (an op on local tensors), in a job of one rank (above). Unset for a global op's
  // kernel, whose ranks must fail alike: its outputs fail instead, and the error is raised
  // at the next read.
  bool raise_at_issue = false;
  // A kernel small enough that handing it to the worker costs more than running it
  // (launch_kernel only; set by op dispatch): it runs on the issuing thread before launch
  // returns when that changes nothing else: on the CPU's compute stream while the stream is
  // idle (nothing launched there is left to run, so launch order holds), its inputs produced
  // without error and no in-place write of their bytes pending, and, for an in-place write
  // (overwrite), every other stream's work that may read the bytes it writes done. Its outputs
  // are then produced; its error is raised as a queued one's would be (at the next
  // synchronization, or at once in blocking mode).
  bool small = false;
};

// Issues `body` on `stream`; returns its outputs, pending, with the shapes and dtypes of
// `outputs` (the body must return tensors of exactly these).
std::vector<Tensor> launch(const std::string& name, device::StreamKind stream, std::vector<Tensor> inputs,
                           const std::vector<TensorMeta>& outputs, Body body, Flags flags = {});
// An op's kernel call as launch_kernel takes it: run at once on the issuing thread (a small
// kernel, Flags::small), or queued as the body it makes only then, so that a call run at once
// makes no body.
class KernelLaunch {
 public:
  virtual ~KernelLaunch() = default;
  // Runs the kernel on the calling thread; it allocates its outputs, but those `given` names
  // (an in-place write's: its target; null or an undefined tensor: none).
  virtual std::vector<Tensor> run_here(const std::vector<Tensor>& inputs, const std::vector<Tensor>* given) = 0;
  // The body to queue; called at most once.
  virtual KernelBody body() = 0;
};

// Issues an op's kernel on the compute stream. With `allocate`, its outputs' memory is
// allocated now in the memory they go to (Flags::outputs_in, else the device's): a block of
// a stream-ordered allocator taken off the workers belongs to the compute stream, which
// writes it. Without, the body gets no outputs and the kernel allocates them as it runs.
std::vector<Tensor> launch_kernel(const std::string& name, std::vector<Tensor> inputs,
                                  const std::vector<TensorMeta>& outputs, KernelLaunch& kernel, const Flags& flags,
                                  bool allocate);
std::vector<Tensor> launch_kernel(const std::string& name, std::vector<Tensor> inputs,
                                  const std::vector<TensorMeta>& outputs, KernelBody body, const Flags& flags,
                                  bool allocate);

// A copy of `t` in `target`'s memory, issued on `target`'s host-to-device stream (on the
// source device's device-to-host stream when `target` is the CPU); `t` itself when it is
// there already.
Tensor copy_to(const Tensor& t, device::Device& target);

// A rank's own tensor that `make` makes on the issuing thread in `memory` (from data only the
// caller can read there, a NumPy array under the GIL; backward's zero gradients). Its out of
// memory, in a job of several ranks, is not raised here on this rank alone (above): the result
// is a failed tensor of `meta` in `memory` instead, its error prefixed with `name`, raised by
// the next read as a kernel's would be.
Tensor made_here(const std::string& name, const TensorMeta& meta, Memory& memory, const std::function<Tensor()>& make);

// Waits for every stream, then raises the first error not raised yet (but an out of memory
// of a job of several ranks: above).
void synchronize();
// synchronize() where one of `values` lives in memory the host cannot touch, else nothing.
// There an op's outputs take their memory when issued (above), so work issued ahead holds
// memory before it runs, and a caller that must not hold several phases' values at once
// (activation checkpointing: one block's) waits before issuing the next. In host memory
// outputs take their memory as they run and workers let go of it after the last reader, so
// issuing ahead holds none, and a wait would only stall the issuing thread, leaving the
// workers idle while it issues again.
void synchronize_if_allocated_at_issue(const std::vector<Tensor>& values);
// synchronize() at exit: raises an out of memory that nothing read, too.
void finish();
// Waits for `t`; raises its error (and counts it as raised).
void wait(const Tensor& t);
// Whether `t` is made and no in-place write of its bytes is pending: wait(t) returns at once.
bool settled(const Tensor& t);
// Waits for `t` to be made, raising nothing: its error stays with it for its readers. For
// the waits that pace work issued ahead (the VM's own), which every rank need not make.
void wait_run(const Tensor& t);
// Memory shared with NumPy (torch.from_numpy, Tensor.numpy()), which a program writes and
// reads while no instruction knows. share_with_host marks `t`'s memory so, once every
// instruction issued before that may read it has run (so a write through the array reaches
// no op issued earlier), and waits for `t` (raising its error). From then on an instruction
// reading such memory runs before launch returns, as PyTorch's CPU op would, and the storages
// made over it (views, in-place writes' outputs) are shared too (shared_with_host).
// `fresh`: t was just made over the array's memory (from_numpy), which no instruction can
// have read (memory shared already is only read by instructions that have run): marked only.
void share_with_host(const Tensor& t, bool fresh = false);
bool shared_with_host(const Tensor& t);
// `value` (target's shape, dtype and memory) written over `target`'s memory, as an in-place
// update (Flags::overwrite): the new storage over that memory, which the target's Var takes.
// For a whole-tensor write to memory that is shared, where taking a new storage would leave
// the array behind.
Tensor write_over(const Tensor& target, const Tensor& value);
// Makes what is issued on the compute stream of `t`'s device from now on run after `t` is
// made, without waiting here: bounds how far compute runs ahead of a slower stream.
void order_compute_after(const Tensor& t);
// Waits for every stream, then counts an out of memory not raised yet as raised: the ranks
// have agreed to raise one together at a read (global_tensor.h, gather_full), which stands
// for every out of memory of the work issued before it, on every rank.
void forget_out_of_memory();
// Collective over the world: raises on every rank the error `mine` of any rank (null: none
// here, or this rank's out of memory not raised yet, which any such read raises, once
// noted), this rank's own where it has one; an out of memory as an OutOfMemoryError, counted
// as raised for every out of memory of the work before it (forget_out_of_memory), whatever
// class the agreement carried it as. `call` names the read for the agreement's errors.
void raise_together(std::exception_ptr mine, const std::string& call);
// Blocking mode: MESHFLOW_LAUNCH_BLOCKING=1 at start, or set_blocking (for tests that
// compare both modes in one process).
bool blocking();
void set_blocking(bool on);
// The message of an error a failed storage carries (Storage::error()).
std::string error_message(std::exception_ptr error);
// The device the VM runs on.
device::Device& device();
// The stream collectives run on, in program order (the CPU's comm stream). Work that issues
// collectives outside the VM's instructions (graph mode's actors) runs there: its worker is
// the comm thread (comm.h), which creating a group's communicator needs.
device::Stream& comm_stream();
// MESHFLOW_TRACE=prefix: spans of work on streams, written at exit as a Chrome trace
// (prefix.rank<N>.json). record_span adds one for work the VM did not issue (the actors of
// graph mode); thread-safe.
bool tracing();
int64_t now_us();  // the clock of the spans
void record_span(const std::string& name, device::StreamKind stream, int64_t start_us, int64_t end_us);
struct TraceSpan {
  std::string name;
  device::StreamKind stream;
  int64_t start_us, end_us;
};
// The spans recorded so far on this rank (empty unless tracing), for tools that measure
// from them (bench/pipeline_bench.py).
std::vector<TraceSpan> trace_spans();

}  // namespace mf::vm
