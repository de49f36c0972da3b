// Copyright 2026 The meshflow Authors.
// The local tensor: a dtype, a shape and contiguous row-major storage shared by reference.
// Copies of a Tensor share the storage (like PyTorch tensors); the functions below that
// return a new Tensor allocate fresh storage unless they say otherwise. A Tensor is not
// synchronized: concurrent writers to one storage must coordinate themselves.
#pragma once

#include <memory>

#include "meshflow/core/dtype.h"
#include "meshflow/core/shape.h"

namespace mf {

class Tensor {
 public:
  Tensor() : Tensor(empty({0}, DType::kFloat32)) {}

  static Tensor empty(const Shape& shape, DType dtype);
  static Tensor zeros(const Shape& shape, DType dtype);
  // Filled with the identity of `op` (0 for sum, lowest for max, highest for min).
  static Tensor identity_of(ReduceOp op, const Shape& shape, DType dtype);
  // Wraps memory owned elsewhere (e.g. a NumPy array); `owner` keeps it alive. No copy.
  static Tensor wrap(void* data, const Shape& shape, DType dtype, std::shared_ptr<void> owner);

  const Shape& shape() const { return shape_; }
  int64_t ndim() const { return static_cast<int64_t>(shape_.size()); }
  DType dtype() const { return dtype_; }
  int64_t numel() const { return mf::numel(shape_); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * dtype_size(dtype_); }
  void* data() const { return data_; }
  template <typename T>
  T* data_as() const { return static_cast<T*>(data_); }
  const std::shared_ptr<void>& storage() const { return storage_; }

  // A tensor of `shape` whose data starts `offset` elements into this one's: shares the
  // storage, no copy. Requires the range to fit.
  Tensor view(int64_t offset, const Shape& shape) const;
  Tensor clone() const;
  // 64-bit FNV-1a of the bytes; used to check that replicas agree.
  uint64_t content_hash() const;

 private:
  Tensor(std::shared_ptr<void> storage, void* data, Shape shape, DType dtype)
      : storage_(std::move(storage)), data_(data), shape_(std::move(shape)), dtype_(dtype) {}

  std::shared_ptr<void> storage_;
  void* data_;
  Shape shape_;
  DType dtype_;
};

// Copies the region `src_box` of `src` into `dst` at `dst_start`. Boxes are in each
// tensor's own index space; dtypes must match.
void copy_box(const Tensor& src, const Box& src_box, const Tensor& dst, const Shape& dst_start);
// The region `box` of `src` as a tensor: a view when the region is contiguous, else a copy.
Tensor slice(const Tensor& src, const Box& box);
// acc = op(acc, x) elementwise; same shape and dtype.
void reduce_into(const Tensor& acc, const Tensor& x, ReduceOp op);
bool equal(const Tensor& a, const Tensor& b);

}  // namespace mf
