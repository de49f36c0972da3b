// Copyright 2026 The meshflow Authors.
// The local tensor: a dtype, a shape and dense storage shared by reference, row-major unless
// its memory format says otherwise (below). Copies of a Tensor share the storage (like PyTorch
// tensors); the functions below that return a new Tensor allocate fresh storage unless they
// say otherwise.
//
// Memory formats: a tensor of 4 or 5 dims in host memory may be *channels-last*: [N, C, H, W]
// stored as [N, H, W, C], [N, C, D, H, W] as [N, D, H, W, C], so that convolutions, batch norm
// and elementwise ops keep the layout oneDNN's convolutions read without reordering around
// each one. Two formats store so: kChannelsLast is torch's channels_last (and
// channels_last_3d), which users ask for and see in strides; kChannelsLastInternal is the
// layout a convolution chose for a tensor users see as row-major (torch's rules would make
// it contiguous), so that a plain model's chain conv -> batch norm -> ReLU -> conv keeps it
// too. The format is part of what is known before the data (TensorMeta): an op's definition
// decides its outputs' formats (OpDef::formats); code that reads the bytes of a tensor
// without looking at format() takes in_format(t, MemoryFormat::kContiguous) first.
//
// Storage may be *pending*: its shape and dtype are known but an asynchronous instruction
// (meshflow/vm) has yet to produce its bytes. data() waits until they are there, so code that
// reads a tensor is correct whichever thread produced it. Ops write new tensors, except an
// in-place update (an optimizer step: vm.h's Flags::overwrite), which writes an input's bytes
// again and makes a new pending storage over the same memory: handles of the new one wait for
// the write as for any producer; the VM orders instructions and vm::wait() on the old one
// after it (Storage::vm_writes), but data() on the old one does not wait for it. An
// instruction that failed leaves its outputs *failed*: zeros of the right size (so
// collectives that read them still move bytes) plus the error, which wait() rethrows.
// Thread-safety: a Storage is produced by one thread and may be read by any; Tensor values
// are not synchronized (copy them, do not share one across threads).
#pragma once

#include <atomic>
#include <exception>
#include <memory>

#include "meshflow/core/dtype.h"
#include "meshflow/core/memory.h"
#include "meshflow/core/shape.h"

namespace mf {

// How a tensor's elements lie in its storage (above).
enum class MemoryFormat : uint8_t { kContiguous, kChannelsLast, kChannelsLastInternal };

// Whether the elements lie channels-last (either of the two formats that store so).
inline bool channels_last(MemoryFormat format) { return format != MemoryFormat::kContiguous; }

// Whether a tensor of `shape` may be channels-last: 4 or 5 dims.
inline bool channels_last_rank(const Shape& shape) { return shape.size() == 4 || shape.size() == 5; }

// What is known of a tensor before its data: shape, dtype and memory format.
struct TensorMeta {
  Shape shape;
  DType dtype;
  MemoryFormat format = MemoryFormat::kContiguous;
  bool operator==(const TensorMeta& o) const { return shape == o.shape && dtype == o.dtype && format == o.format; }
};

class Storage {
 public:
  // Memory owned by `owner` (which may be null for memory that outlives the storage), in
  // `memory` (a device's; the host's by default).
  static std::shared_ptr<Storage> ready(void* data, std::shared_ptr<void> owner, Memory& memory = host_memory());
  // Storage that fulfill() or fail() will produce later, in `memory`.
  static std::shared_ptr<Storage> pending(Memory& memory = host_memory());

  // Where the bytes live; known before they are produced.
  Memory& memory() const { return *memory_; }

  bool is_ready() const { return state_.load(std::memory_order_acquire) != kPending; }
  // Blocks until the storage is produced (or failed); does not throw.
  void wait_done() const;
  // Waits, then rethrows the error of a failed storage.
  void wait() const;
  // The bytes; waits while pending.
  void* data() const {
    if (!is_ready()) wait_done();
    return data_;
  }
  // Who owns the memory (after waiting); two storages with one owner alias each other.
  const std::shared_ptr<void>& owner() const;
  // The error a failed storage carries (after waiting); null when it was produced.
  std::exception_ptr error() const;

  // Producer side, once: the bytes are at `data`, kept alive by `owner`.
  void fulfill(void* data, std::shared_ptr<void> owner);
  // Producer side, once: failed with `error`; readers see `data` (zeros of the right size).
  void fail(std::exception_ptr error, void* data, std::shared_ptr<void> owner);

  // What the VM remembers of this storage's last use (stream and event); read and written
  // only by the thread that issues instructions. A VM worker may drop the last handle after
  // an instruction ran (and so destroy both fields), which is safe because no handle is left
  // for the issuing thread to reach them through.
  std::shared_ptr<void> vm_tag;
  // What the VM remembers of the in-place writes of these bytes after they were produced
  // (the last one's event), shared by the storages those writes made over the same memory;
  // null until the first. Read and written by the issuing thread only, as vm_tag.
  std::shared_ptr<void> vm_writes;

 private:
  enum State : int { kPending, kReady, kFailed };
  void publish(State state);

  std::atomic<int> state_{kPending};
  Memory* memory_ = &host_memory();
  void* data_ = nullptr;
  std::shared_ptr<void> owner_;
  std::exception_ptr error_;
};

class Tensor {
 public:
  Tensor() : Tensor(empty({0}, DType::kFloat32)) {}

  // In `memory` (a device's; the host's by default).
  static Tensor empty(const Shape& shape, DType dtype, Memory& memory = host_memory());
  static Tensor zeros(const Shape& shape, DType dtype, Memory& memory = host_memory());
  // Filled with the identity of `op` (0 for sum, lowest for max, highest for min).
  static Tensor identity_of(ReduceOp op, const Shape& shape, DType dtype);
  // Wraps memory owned elsewhere (e.g. a NumPy array, or a block of a device's `memory`);
  // `owner` keeps it alive. No copy.
  static Tensor wrap(void* data, const Shape& shape, DType dtype, std::shared_ptr<void> owner,
                     Memory& memory = host_memory());
  // A tensor whose storage an asynchronous instruction will produce, in `memory`.
  static Tensor pending(const Shape& shape, DType dtype, Memory& memory = host_memory());

  const Shape& shape() const { return shape_; }
  MemoryFormat format() const { return format_; }
  // The same storage read in `format`: for a kernel that wrote its bytes so. A
  // channels-last format needs 4 or 5 dims (throws std::invalid_argument otherwise).
  Tensor with_format(MemoryFormat format) const;
  int64_t ndim() const { return static_cast<int64_t>(shape_.size()); }
  DType dtype() const { return dtype_; }
  int64_t numel() const { return mf::numel(shape_); }
  size_t nbytes() const { return static_cast<size_t>(checked_nbytes(shape_, dtype_size(dtype_))); }
  // Waits while the storage is pending (see above).
  void* data() const { return static_cast<char*>(storage_->data()) + offset_; }
  template <typename T>
  T* data_as() const { return static_cast<T*>(data()); }
  // Writes the identity of `op` into every element, in whatever memory it lives.
  void fill_identity(ReduceOp op) const;
  const std::shared_ptr<Storage>& storage() const { return storage_; }
  Memory& memory() const { return storage_->memory(); }
  // A copy in `memory` (waits for this tensor's data; copies on the calling thread), in this
  // tensor's format, but row-major from host memory to a device's.
  Tensor copy_to(Memory& memory) const;
  bool is_ready() const { return storage_->is_ready(); }
  // Waits until produced; rethrows the error of a failed instruction.
  void wait() const { storage_->wait(); }
  // Whether both read the same memory (waits for both).
  bool shares_memory(const Tensor& other) const;

  // A row-major tensor of `shape` whose data starts `offset` elements into this one's:
  // shares the storage, no copy. Requires the range to fit.
  Tensor view(int64_t offset, const Shape& shape) const;
  Tensor clone() const;  // in this tensor's format
  // 64-bit FNV-1a of the bytes; used to check that replicas agree.
  uint64_t content_hash() const;

 private:
  Tensor(std::shared_ptr<Storage> storage, size_t offset, Shape shape, DType dtype)
      : storage_(std::move(storage)), offset_(offset), shape_(std::move(shape)), dtype_(dtype) {}

  std::shared_ptr<Storage> storage_;
  size_t offset_;  // bytes from the storage's start
  Shape shape_;
  DType dtype_;
  MemoryFormat format_ = MemoryFormat::kContiguous;
};

// `t` in `format`: itself when it is in it, the same storage relabeled when its elements lie
// so already (the two channels-last formats), else a copy with its elements moved there,
// made on the calling thread (after waiting for t's data) in host memory, on the OpenMP team
// for large tensors. A channels-last format needs 4 or 5 dims.
Tensor in_format(const Tensor& t, MemoryFormat format);

// Copies the region `src_box` of `src` into `dst` at `dst_start`. Boxes are in each
// tensor's own index space; dtypes must match. Either may live in any memory (runs move
// with the memories' copies, on the calling thread).
void copy_box(const Tensor& src, const Box& src_box, const Tensor& dst, const Shape& dst_start);
// The region `box` of `src` as a tensor: a view when the region is contiguous, else a copy
// (in src's memory).
Tensor slice(const Tensor& src, const Box& box);
// acc = op(acc, x) elementwise; same shape, dtype, format and memory (Memory::reduce_into).
// On the calling thread only (boxing reduces on the comm thread); bfloat16 in float32, rounded
// once.
void reduce_into(const Tensor& acc, const Tensor& x, ReduceOp op);
// op(a, b) elementwise, in one pass, on the OpenMP team for large tensors (the compute
// stream's sums of two gradients); in a's format (b moved there first where its differs).
Tensor reduced(const Tensor& a, const Tensor& b, ReduceOp op);
// Same dtype, shape and values, whatever the formats.
bool equal(const Tensor& a, const Tensor& b);

}  // namespace mf
